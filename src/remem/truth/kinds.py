"""The kinds of well-known values (`lexicon.value_kinds`): what the glossary does not know
as technologies, and the glossary words that name a technology's kind."""

from __future__ import annotations

# Kinds of values the glossary does not know as technologies.
EXTRA_KINDS = {
    "dark": "theme", "light": "theme", "spaces": "indentation", "tabs": "indentation",
    "chinese": "reply_language", "english": "reply_language", "japanese": "reply_language",
    "日文": "reply_language", "日语": "reply_language", "zsh": "shell", "bash": "shell",
    "fish": "shell", "powershell": "shell", "nushell": "shell", "heroku": "platform",
    "fly.io": "platform", "nomad": "platform", "cloud run": "platform", "ecs": "platform",
    "ec2": "platform", "lambda": "platform", "render": "platform", "netlify": "platform",
    "openshift": "platform", "railway": "platform", "cloudflare workers": "platform",
    "hazelcast": "cache", "tidb": "database", "drone": "ci", "buildkite": "ci",
    "travis ci": "ci", "teamcity": "ci", "bamboo": "ci", "slack": "chat", "飞书": "chat",
    "钉钉": "chat", "企业微信": "chat", "microsoft teams": "chat", "discord": "chat",
    "mattermost": "chat", "jira": "issue_tracker", "linear": "issue_tracker",
    "trello": "issue_tracker", "youtrack": "issue_tracker", "confluence": "wiki",
    "notion": "wiki", "语雀": "wiki", "ubuntu": "os", "debian": "os", "centos": "os",
    "rocky linux": "os", "alpine": "os", "macos": "os", "windows": "os", "harbor": "registry",
    "ecr": "registry", "docker hub": "registry", "gcr": "registry", "webpack": "bundler",
    "vite": "bundler", "rollup": "bundler", "esbuild": "bundler", "parcel": "bundler",
    "github": "code_host", "bitbucket": "code_host",
    "gitee": "code_host", "codeberg": "code_host", "gitea": "code_host",
    "阿里云": "platform", "腾讯云": "platform", "华为云": "platform",
    "cursor": "editor", "zed": "editor", "sublime text": "editor", "helix": "editor",
    "chrome": "browser", "firefox": "browser", "safari": "browser", "edge": "browser",
    "brave": "browser", "arc": "browser", "opera": "browser", "vivaldi": "browser",
    "chromium": "browser",
    "ghcr": "registry", "quay": "registry", "nexus": "registry", "artifactory": "registry",
    "mit": "license", "apache-2.0": "license", "gpl": "license", "gplv3": "license",
    "agpl": "license", "lgpl": "license", "bsd": "license", "mpl-2.0": "license",
}  # fmt: skip
# The first glossary kind word that names what a technology is, in priority order.
KIND_MARKERS = (
    ("编辑器", "editor"), ("消息队列", "queue"), ("缓存", "cache"), ("数据库", "database"),
    ("database", "database"), ("持续集成", "ci"), ("包管理", "package_manager"),
    ("单元测试", "test_framework"), ("框架", "framework"), ("编程语言", "language"),
    ("监控", "monitoring"), ("搜索", "search_engine"), ("反向代理", "web_server"),
    ("容器", "platform"), ("云服务", "platform"), ("机器学习", "ml_framework"),
    ("运行时", "language"), ("构建", "build"),
)  # fmt: skip
