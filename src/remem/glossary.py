"""What well-known technologies are, so that a memory naming one is found by asking
for its kind: "Java 框架" finds "项目后端使用 Spring Boot 3", "数据库选型" finds
"PostgreSQL 16", "message queue" finds "Kafka" (SPEC RT3).

Small local embedding models know little of this (measured: USE ranks "Google Java
Style" and "Vue 3" above "Spring Boot" for "Java 框架"), and it is the most common
paraphrase in a coding agent's memories. The kinds are added to an entry's indexed
terms only (never to its content or to a query), in English and Chinese.
"""

from __future__ import annotations

from functools import lru_cache

from remem import text

_JAVA_FW = "java 框架 framework 后端 backend"
_PY_FW = "python 框架 framework web 后端 backend"
_JS_FE = "javascript 前端 frontend 框架 framework ui"
_DB = "数据库 database db 存储 storage"
_SQL = _DB + " sql 关系型 relational"
_NOSQL = _DB + " nosql"
_CACHE = "缓存 cache 存储 storage nosql"
_MQ = "消息队列 message queue mq 消息 messaging 中间件 middleware"
_CI = "ci cd 持续集成 continuous integration pipeline 流水线 构建 build"
_BUILD = "构建 build 依赖 dependency 包管理 package manager"
_CLOUD = "云 cloud 云服务 部署 deploy 服务器 server"
_CONTAINER = "容器 container 部署 deploy 运维 ops"
_TEST = "测试 test testing 单元测试 unit"
_LANG = "编程语言 language"
_ML = "机器学习 machine learning 深度学习 deep learning ai 模型 model"
_EDITOR = "编辑器 editor ide 开发工具 tool"
_SEARCH = "搜索 search 全文检索 full text 索引 index"
_OBS = "监控 monitoring 可观测 observability 日志 log 告警 alert"
_WEB_SERVER = "web 服务器 server 反向代理 reverse proxy 网关 gateway"
_MOBILE = "移动端 mobile app 客户端 client"

GLOSSARY: dict[str, str] = {
    # Java
    "spring boot": _JAVA_FW, "Spring": _JAVA_FW, "spring cloud": _JAVA_FW + " 微服务",
    "mybatis": "java orm 持久层 数据库 database", "hibernate": "java orm 持久层 数据库",
    "quarkus": _JAVA_FW, "micronaut": _JAVA_FW, "dubbo": _JAVA_FW + " rpc 微服务",
    "jdk": "java sdk", "openjdk": "java sdk", "jvm": "java 虚拟机",
    "maven": "java " + _BUILD, "gradle": "java kotlin " + _BUILD, "junit": "java " + _TEST,
    "kotlin": _LANG + " jvm android", "scala": _LANG + " jvm",
    # Python
    "django": _PY_FW, "Flask": _PY_FW, "fastapi": _PY_FW + " api", "tornado": _PY_FW,
    "pytest": "python " + _TEST, "poetry": "python " + _BUILD, "Pip": "python " + _BUILD,
    "Uv": "python " + _BUILD, "conda": "python " + _BUILD, "celery": "python 任务队列 queue",
    "pandas": "python 数据分析 data analysis", "numpy": "python 数值计算 numeric",
    "sqlalchemy": "python orm 数据库 database",
    # JavaScript / TypeScript
    "React": _JS_FE, "vue": _JS_FE, "angular": _JS_FE, "svelte": _JS_FE,
    "next.js": _JS_FE + " react ssr", "nuxt": _JS_FE + " vue ssr", "jquery": _JS_FE,
    "node.js": "javascript 后端 backend 运行时 runtime", "deno": "javascript typescript 运行时",
    "Express": "javascript node.js 框架 framework 后端 backend",
    "nestjs": "typescript node.js 框架 framework 后端 backend",
    "typescript": _LANG + " javascript 前端", "javascript": _LANG + " 前端 frontend",
    "webpack": "javascript 前端 " + _BUILD, "vite": "javascript 前端 " + _BUILD,
    "npm": "javascript node.js " + _BUILD, "pnpm": "javascript node.js " + _BUILD,
    "Yarn": "javascript node.js " + _BUILD, "Jest": "javascript " + _TEST,
    "vitest": "javascript " + _TEST, "tailwind": "css 前端 frontend 样式 style",
    "electron": "javascript 桌面 desktop 客户端",
    # Other languages and their frameworks
    "golang": _LANG + " go", "Gin": "go 框架 framework 后端 backend web",
    "Rust": _LANG, "cargo": "rust " + _BUILD, "actix": "rust 框架 framework web 后端",
    "Rails": "ruby 框架 framework web 后端 backend", "Ruby": _LANG,
    "laravel": "php 框架 framework web 后端 backend", "php": _LANG,
    ".net": "c# 框架 framework 后端 backend", "asp.net": "c# 框架 framework web 后端",
    "c#": _LANG + " .net", "c++": _LANG, "Swift": _LANG + " ios apple", "java": _LANG,
    "python": _LANG, "flutter": "dart " + _MOBILE + " 框架 framework",
    "react native": "javascript " + _MOBILE + " 框架 framework", "android": _MOBILE,
    "ios": _MOBILE + " apple",
    # Data stores
    "postgresql": _SQL, "postgres": _SQL, "mysql": _SQL, "mariadb": _SQL, "sqlite": _SQL,
    "Oracle": _SQL, "sql server": _SQL, "tidb": _SQL + " 分布式", "oceanbase": _SQL,
    "clickhouse": _DB + " olap 分析 analytics", "mongodb": _NOSQL + " 文档 document",
    "cassandra": _NOSQL, "dynamodb": _NOSQL + " aws", "redis": _CACHE,
    "memcached": _CACHE, "elasticsearch": _SEARCH + " 数据库", "opensearch": _SEARCH,
    "milvus": "向量数据库 vector database", "pgvector": "向量 vector 数据库 postgresql",
    "neo4j": "图数据库 graph database", "influxdb": _DB + " 时序 time series",
    "minio": "对象存储 object storage s3", "s3": "对象存储 object storage aws",
    # Messaging
    "kafka": _MQ, "rabbitmq": _MQ, "rocketmq": _MQ, "pulsar": _MQ, "nats": _MQ,
    # CI/CD, containers, cloud
    "jenkins": _CI, "github actions": _CI, "gitlab ci": _CI, "circleci": _CI,
    "travis": _CI, "argo cd": _CI + " kubernetes", "docker": _CONTAINER,
    "kubernetes": _CONTAINER + " 编排 orchestration k8s", "k8s": _CONTAINER + " kubernetes",
    "helm": "kubernetes 部署 deploy 包管理", "terraform": "基础设施 infrastructure iac 部署",
    "ansible": "自动化 automation 运维 部署 deploy", "aws": _CLOUD, "gcp": _CLOUD,
    "azure": _CLOUD, "阿里云": _CLOUD, "腾讯云": _CLOUD, "华为云": _CLOUD, "vercel": _CLOUD,
    "nginx": _WEB_SERVER, "Apache": _WEB_SERVER, "caddy": _WEB_SERVER,
    # Observability
    "prometheus": _OBS, "grafana": _OBS + " 仪表盘 dashboard", "sentry": _OBS + " 错误",
    "elk": _OBS + " elasticsearch", "datadog": _OBS, "jaeger": _OBS + " 链路追踪 tracing",
    # Machine learning
    "pytorch": _ML + " python", "tensorflow": _ML + " python", "scikit-learn": _ML,
    "transformers": _ML + " nlp", "langchain": _ML + " llm 框架 framework",
    # Tools
    "vim": _EDITOR, "neovim": _EDITOR, "emacs": _EDITOR, "vs code": _EDITOR,
    "vscode": _EDITOR, "intellij": _EDITOR + " java", "pycharm": _EDITOR + " python",
    "git": "版本控制 version control", "github": "代码托管 git 仓库 repository",
    "gitlab": "代码托管 git 仓库 repository", "jira": "项目管理 任务 issue tracker",
}  # fmt: skip


# A capitalised name in GLOSSARY is also an everyday word ("react", "spring",
# "rust"): it counts only where the text writes it with a capital letter.
_Kinds = tuple[tuple[str, ...], str | None]  # (kind terms, the capitalised name or None)


@lru_cache(maxsize=1)
def _table() -> tuple[dict[tuple[str, ...], _Kinds], int, frozenset[str]]:
    table: dict[tuple[str, ...], _Kinds] = {}
    for name, kinds in GLOSSARY.items():
        key = tuple(text.terms(name))
        if key:
            proper = name if name[:1].isupper() else None
            table[key] = (tuple(dict.fromkeys(text.terms(kinds))), proper)
    return table, max(len(k) for k in table), frozenset(k[0] for k in table)


def expand(terms: list[str], source: str) -> list[str]:
    """The kind terms of the technologies named in `terms` (the `text.terms` of
    `source`, in order), each once and none already present."""
    table, longest, firsts = _table()
    have = set(terms)
    out: dict[str, None] = {}
    for i in range(len(terms)):
        if terms[i] not in firsts:
            continue  # no name starts with it (most terms): nothing to look up
        for n in range(min(longest, len(terms) - i), 0, -1):
            found = table.get(tuple(terms[i : i + n]))
            if found is not None:
                kinds, proper = found
                if proper is None or proper in source:
                    out.update((k, None) for k in kinds if k not in have)
                break
    return list(out)
