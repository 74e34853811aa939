"""Writes benchmarks/data/truth_dev.json, the development set of bench_truth.py.

    .venv/bin/python benchmarks/make_truth_dev.py          # deterministic (seeded)

Three parts, in Chinese and English, from templates of the kind of facts a coding
agent keeps (ports, timeouts, budgets, owners, paths, tools, versions, preferences,
dates) under qualifiers (services, environments, teams):

- `updates`: knowledge that changes one to three times, each change stated as a
  replacement ("改用", "switched to", "不再用 X，改用 Y", "from X to Y"), a correction
  ("更正：", "Actually,") or a plain restatement of the new value; each with a query.
- `distinct`: pairs of different facts from one template: another subject, or the
  same subject under another qualifier (some with the same value).
- `repeats`: one fact said twice in other words.

A held-out set written independently checks the same things; nothing here is a rule.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

OUT = Path(__file__).parent / "data" / "truth_dev.json"
SEED = 1212
T0 = datetime(2025, 1, 6, tzinfo=UTC)

ZH_COMPONENTS = """支付服务 订单服务 用户服务 网关 搜索服务 库存服务 通知服务 报表服务
推荐服务 风控服务 结算服务 认证服务 日志服务 调度服务 文件服务 评论服务 消息推送服务
数据同步任务 后台管理系统 计费模块""".split()
EN_COMPONENTS = """auth service|billing service|payment service|search service|API gateway|inventory
service|notification service|reporting service|recommendation engine|scheduler|file service|user
service|order service|analytics pipeline|admin dashboard|mobile backend|checkout service|email
worker|image resizer|metrics collector""".replace("\n", " ").split("|")
ZH_ENVS = ["测试环境", "生产环境", "开发环境", "预发环境", "本地环境"]
EN_ENVS = ["staging", "production", "test", "development", "QA"]
ZH_NAMES = "张伟 李娜 王强 刘洋 陈静 杨帆 赵磊 黄敏 周杰 吴婷 孙浩 马丽".split()
EN_NAMES = "Alice Bob Carol Dave Erin Frank Grace Heidi Ivan Judy Mallory Oscar".split()


def _ports(r: random.Random) -> str:
    return str(r.randrange(2000, 9999))


def _pick(pool: list[str]) -> Any:
    return lambda r: r.choice(pool)


@dataclass
class Spec:
    """One kind of fact: how it is said plainly, as a change and as a correction."""

    kind: str
    lang: str
    value: Any  # random.Random -> value
    plain: list[str]
    change: list[str]
    correct: list[str]
    query: str
    repeat: list[str] = field(default_factory=list)  # other wordings of `plain`
    personal: bool = False  # about the user, not a component
    topic: str = ""  # what it is about: one fact per component and topic


Z, E = "zh", "en"
SPECS = [
    Spec(
        "number",
        Z,
        _ports,
        ["{c}的端口是 {v}", "{c}监听 {v} 端口", "{c}端口 {v}"],
        ["{c}的端口改成 {v}", "{c}端口从 {old} 调整为 {v}", "{c}改为监听 {v} 端口"],
        ["更正：{c}的端口是 {v}", "不对，{c}的端口其实是 {v}"],
        "{c}的端口是多少",
        ["{c}使用的端口是 {v}", "{c}的端口号为 {v}"],
    ),
    Spec(
        "number",
        E,
        _ports,
        ["The {c} listens on port {v}.", "The {c} port is {v}.", "The {c} runs on port {v}."],
        [
            "The {c} now listens on port {v}.",
            "The {c} port changed to {v}.",
            "The {c} port was changed from {old} to {v}.",
        ],
        ["Correction: the {c} port is {v}.", "Actually, the {c} listens on port {v}."],
        "Which port does the {c} listen on?",
        ["The port of the {c} is {v}.", "The {c} is listening on port {v}."],
    ),
    Spec(
        "number",
        Z,
        _pick(["5", "10", "15", "20", "30", "45", "60", "90", "120"]),
        ["{c}的超时时间是 {v} 秒", "{c}超时设为 {v} 秒"],
        ["{c}的超时时间调整为 {v} 秒", "{c}超时改成 {v} 秒了"],
        ["纠正一下，{c}的超时时间是 {v} 秒"],
        "{c}超时多久",
        ["{c}的超时为 {v} 秒"],
    ),
    Spec(
        "number",
        E,
        _pick(["5", "10", "15", "20", "30", "45", "60", "90", "120"]),
        ["The {c} timeout is {v} seconds.", "The {c} timeout is set to {v}s."],
        ["The {c} timeout was raised to {v} seconds.", "The {c} timeout is now {v}s."],
        ["Actually, the {c} timeout is {v} seconds."],
        "What is the {c} timeout?",
        ["The timeout of the {c} is {v} seconds."],
    ),
    Spec(
        "number",
        Z,
        _pick(["2", "3", "4", "6", "8", "10", "12"]),
        ["{c}的副本数是 {v}", "{c}部署 {v} 个副本"],
        ["{c}的副本数调整为 {v}", "{c}的副本数从 {old} 增加到 {v}"],
        ["更正：{c}的副本数是 {v}"],
        "{c}的副本数是多少",
        ["{c}副本数为 {v}"],
    ),
    Spec(
        "number",
        E,
        _pick(["2", "3", "4", "6", "8", "10", "12"]),
        ["The {c} replica count is {v}.", "The {c} runs {v} replicas."],
        ["The {c} replica count was increased to {v}.", "The {c} replica count is now {v}."],
        ["Correction: the {c} replica count is {v}."],
        "How many replicas does the {c} run?",
        ["The number of {c} replicas is {v}."],
    ),
    Spec(
        "number",
        Z,
        _pick(["5 万", "8 万", "12 万", "20 万", "3 万", "50 万"]),
        ["{c}的预算是 {v}", "{c}预算 {v}"],
        ["{c}的预算调整为 {v}", "{c}预算从 {old}提高到 {v}"],
        ["更正：{c}的预算是 {v}"],
        "{c}预算多少",
        ["{c}的预算为 {v}"],
    ),
    Spec(
        "name",
        Z,
        _pick(ZH_NAMES),
        ["{c}的负责人是{v}", "{c}负责人：{v}"],
        ["{c}的负责人换成了{v}", "{c}的负责人改为{v}"],
        ["不对，{c}的负责人是{v}"],
        "{c}的负责人是谁",
        ["{c}由{v}负责", "{c}的负责人为{v}"],
    ),
    Spec(
        "name",
        E,
        _pick(EN_NAMES),
        ["The {c} owner is {v}.", "The owner of the {c} is {v}."],
        ["The {c} owner changed to {v}.", "The {c} owner is now {v}."],
        ["Correction: the {c} owner is {v}."],
        "Who owns the {c}?",
        ["{v} is the owner of the {c}."],
    ),
    Spec(
        "path",
        Z,
        _pick(
            [
                "scripts/deploy.sh",
                "tools/deploy.py",
                "ops/deploy.sh",
                "bin/release.sh",
                "deploy/run.sh",
                "ci/deploy.sh",
            ]
        ),
        ["{c}的部署脚本在 {v}", "{c}的部署脚本放在 {v}"],
        ["{c}的部署脚本改到了 {v}", "{c}的部署脚本移到 {v}", "{c}的部署脚本迁移到 {v}"],
        ["更正：{c}的部署脚本在 {v}"],
        "{c}的部署脚本在哪",
        ["{c}部署脚本的位置是 {v}"],
    ),
    Spec(
        "path",
        E,
        _pick(["/var/log/app", "/data/logs", "/srv/logs", "logs/", "/var/log/svc", "/mnt/logs"]),
        ["The {c} log directory is {v}.", "The {c} logs live in {v}."],
        ["The {c} logs moved to {v}.", "The {c} log directory was moved to {v}."],
        ["Actually, the {c} log directory is {v}."],
        "Where are the {c} logs?",
        ["The {c} writes its logs in the {v} directory."],
    ),
    Spec(
        "path",
        Z,
        _pick(
            [
                "config/app.yaml",
                "conf/settings.toml",
                "etc/app.ini",
                "deploy/values.yaml",
                "config/prod.json",
            ]
        ),
        ["{c}的配置文件在 {v}", "{c}的配置文件是 {v}"],
        ["{c}的配置文件改到 {v}", "{c}的配置文件换成了 {v}"],
        ["纠正：{c}的配置文件在 {v}"],
        "{c}的配置文件在哪里",
        ["{c}配置文件路径为 {v}"],
    ),
    Spec(
        "tool",
        Z,
        _pick(["MySQL", "PostgreSQL", "SQLite", "MongoDB", "TiDB"]),
        ["{c}的数据库用 {v}", "{c}使用 {v} 作为数据库", "{c}的数据库是 {v}"],
        [
            "{c}的数据库改用 {v}",
            "{c}的数据库换成了 {v}",
            "{c}的数据库从 {old} 迁移到 {v}",
            "{c}的数据库不再用 {old}，改用 {v}",
        ],
        ["更正：{c}的数据库是 {v}"],
        "{c}用什么数据库",
        ["{c}的数据库采用 {v}", "{c}数据库用的是 {v}"],
    ),
    Spec(
        "tool",
        E,
        _pick(["MySQL", "PostgreSQL", "SQLite", "MongoDB", "MariaDB"]),
        ["The {c} database is {v}.", "The {c} uses {v} as its database."],
        [
            "The {c} database switched to {v}.",
            "The {c} database was migrated to {v}.",
            "The {c} no longer uses {old} as its database; it uses {v} now.",
        ],
        ["Actually, the {c} database is {v}."],
        "Which database does the {c} use?",
        ["The database of the {c} is {v}."],
    ),
    Spec(
        "tool",
        Z,
        _pick(["Kafka", "RabbitMQ", "RocketMQ", "Pulsar", "NATS"]),
        ["{c}的消息队列用 {v}", "{c}用 {v} 做消息队列"],
        ["{c}的消息队列换成 {v}", "{c}的消息队列改用 {v} 了"],
        ["更正一下，{c}的消息队列是 {v}"],
        "{c}用哪个消息队列",
        ["{c}使用 {v} 作为消息队列"],
    ),
    Spec(
        "tool",
        E,
        _pick(["Redis", "Memcached", "Hazelcast"]),
        ["The {c} cache is {v}.", "The {c} uses {v} for caching."],
        ["The {c} cache switched to {v}.", "The {c} now uses {v} for caching."],
        ["Correction: the {c} cache is {v}."],
        "What does the {c} use for caching?",
        ["The {c} caches data in {v}."],
    ),
    Spec(
        "tool",
        Z,
        _pick(["Jenkins", "GitHub Actions", "GitLab CI", "CircleCI", "Drone"]),
        ["{c}的 CI 用 {v}", "{c}的持续集成是 {v}"],
        ["{c}的 CI 换成了 {v}", "{c}的 CI 迁移到 {v}"],
        ["更正：{c}的 CI 用的是 {v}"],
        "{c}的 CI 用什么",
        ["{c}的 CI 采用 {v}"],
    ),
    Spec(
        "tool",
        E,
        _pick(["Kubernetes", "ECS", "Fly.io", "Nomad", "Heroku", "Cloud Run"]),
        ["The {c} is deployed to {v}.", "The {c} runs on {v}."],
        ["The {c} moved to {v}.", "The {c} was migrated to {v}."],
        ["Actually, the {c} is deployed to {v}."],
        "Where is the {c} deployed?",
        ["The {c} is hosted on {v}."],
    ),
    Spec(
        "tool",
        Z,
        _pick(["Go", "Python", "Java", "Rust", "Kotlin", "Node.js"]),
        ["{c}用 {v} 开发", "{c}的开发语言是 {v}"],
        ["{c}的开发语言改为 {v}", "{c}改用 {v} 开发"],
        ["更正：{c}的开发语言是 {v}"],
        "{c}用什么语言开发",
        ["{c}的编程语言为 {v}"],
    ),
    Spec(
        "tool",
        E,
        _pick(
            [
                "Python 3.10",
                "Python 3.11",
                "Python 3.12",
                "Node 18",
                "Node 20",
                "Java 17",
                "Java 21",
            ]
        ),
        ["The {c} runs on {v}.", "The {c} uses {v}."],
        ["The {c} was upgraded to {v}.", "The {c} now runs on {v}."],
        ["Correction: the {c} runs on {v}."],
        "Which language and version does the {c} run on?",
        ["The runtime of the {c} is {v}."],
    ),
    Spec(
        "tool",
        Z,
        _pick(
            ["PostgreSQL 13", "PostgreSQL 14", "PostgreSQL 15", "PostgreSQL 16", "PostgreSQL 17"]
        ),
        ["{c}用的是 {v}", "{c}使用 {v}"],
        ["{c}升级到 {v}", "{c}已经升级为 {v}"],
        ["更正：{c}用的是 {v}"],
        "{c}用的 PostgreSQL 是哪个版本",
        ["{c}采用 {v}"],
    ),
    Spec(
        "tool",
        E,
        _pick(["Redis 6.2", "Redis 7.0", "Redis 7.2", "Redis 7.4"]),
        ["The {c} uses {v}.", "The {c} cache runs {v}."],
        ["The {c} was upgraded to {v}.", "The {c} now uses {v}."],
        ["Correction: the {c} uses {v}."],
        "Which Redis version does the {c} use?",
        ["The {c} depends on {v}."],
    ),
    Spec(
        "name",
        Z,
        _pick(["main", "master", "develop", "trunk", "release"]),
        ["{c}的默认分支是 {v}", "{c}默认分支为 {v}"],
        ["{c}的默认分支改成 {v}", "{c}的默认分支切换到 {v}"],
        ["更正：{c}的默认分支是 {v}"],
        "{c}默认分支是哪个",
        ["{c}的主分支是 {v}"],
    ),
    Spec(
        "name",
        E,
        _pick(["main", "master", "develop", "trunk"]),
        ["The {c} default branch is {v}.", "The default branch of the {c} is {v}."],
        ["The {c} default branch was renamed to {v}.", "The {c} default branch is now {v}."],
        ["Actually, the {c} default branch is {v}."],
        "What is the {c} default branch?",
        ["The {c} repository uses {v} as its default branch."],
    ),
    Spec(
        "date",
        Z,
        _pick(["3月15日", "4月1日", "5月20日", "6月30日", "7月8日", "9月1日"]),
        ["{c}的上线日期是 {v}", "{c}计划在 {v} 上线", "{c}上线时间定在 {v}"],
        ["{c}的上线日期推迟到 {v}", "{c}上线时间改到 {v}"],
        ["更正：{c}的上线日期是 {v}"],
        "{c}什么时候上线",
        ["{c}的发布日期为 {v}"],
    ),
    Spec(
        "date",
        E,
        _pick(["March 15", "April 1", "May 20", "June 30", "July 8", "September 1"]),
        ["The {c} launch date is {v}.", "The {c} release is on {v}."],
        ["The {c} launch was postponed to {v}.", "The {c} launch date moved to {v}."],
        ["Correction: the {c} launch date is {v}."],
        "When does the {c} launch?",
        ["The {c} goes live on {v}."],
    ),
    Spec(
        "preference",
        Z,
        _pick(["Vim", "Emacs", "VS Code", "Neovim", "IntelliJ"]),
        ["我习惯用 {v} 写代码", "我的编辑器是 {v}", "我偏好 {v}"],
        ["我现在改用 {v} 了", "我的编辑器换成了 {v}", "我不再用 {old}，改用 {v}"],
        ["更正：我的编辑器是 {v}"],
        "我用什么编辑器",
        ["我平时用的编辑器是 {v}"],
        True,
    ),
    Spec(
        "preference",
        E,
        _pick(["vim", "emacs", "VS Code", "neovim", "IntelliJ"]),
        ["I prefer {v}.", "My editor is {v}.", "I use {v} as my editor."],
        ["I switched to {v}.", "I now use {v}.", "I no longer use {old}; I use {v} now."],
        ["Actually, my editor is {v}."],
        "Which editor do I use?",
        ["My editor of choice is {v}."],
        True,
    ),
    Spec(
        "preference",
        Z,
        _pick(["深色", "浅色"]),
        ["我喜欢{v}主题", "编辑器主题用{v}"],
        ["主题改成{v}", "我现在用{v}主题"],
        ["更正：主题用{v}"],
        "我喜欢什么主题",
        ["我的主题偏好是{v}"],
        True,
    ),
    Spec(
        "preference",
        E,
        _pick(["tabs", "spaces"]),
        ["I prefer {v} for indentation.", "Indentation uses {v}."],
        ["Indentation switched to {v}.", "I now prefer {v} for indentation."],
        ["Correction: indentation uses {v}."],
        "Tabs or spaces?",
        ["I indent with {v}."],
        True,
    ),
    Spec(
        "preference",
        Z,
        _pick(["中文", "英文"]),
        ["回答用{v}", "回复请使用{v}"],
        ["以后回答改用{v}", "回复语言换成{v}"],
        ["纠正：回答用{v}"],
        "回答用什么语言",
        ["请用{v}回答"],
        True,
    ),
    Spec(
        "preference",
        E,
        _pick(["zsh", "bash", "fish"]),
        ["My shell is {v}.", "I use {v}."],
        ["I switched my shell to {v}.", "My shell is now {v}."],
        ["Actually, my shell is {v}."],
        "Which shell do I use?",
        ["I prefer the {v} shell."],
        True,
    ),
]


# What each spec is about, in SPECS' order: two specs of one topic state the same fact.
TOPICS = """port port timeout timeout replicas replicas budget owner owner deploy_script log_dir
config database database queue cache ci platform language language database cache branch branch
launch launch editor editor theme indentation reply_language shell""".split()
assert len(TOPICS) == len(SPECS)
for _spec, _topic in zip(SPECS, TOPICS, strict=True):
    _spec.topic = _topic


def _component(spec: Spec, r: random.Random, env: bool) -> str:
    if spec.personal:
        return ""
    if spec.lang == Z:
        comp = r.choice(ZH_COMPONENTS)
        return f"{r.choice(ZH_ENVS)}的{comp}" if env else comp
    comp = r.choice(EN_COMPONENTS)
    return f"{r.choice(EN_ENVS)} {comp}" if env else comp


def _say(template: str, c: str, v: str, old: str = "") -> str:
    out = template.format(c=c, v=v, old=old)
    return out[0].upper() + out[1:] if out[:1].isascii() else out


def _values(spec: Spec, r: random.Random, n: int) -> list[str]:
    """n values, each different from the one before (a small pool may come back to one)."""
    out: list[str] = []
    for _ in range(500):
        v = spec.value(r)
        if (not out or v != out[-1]) and (v not in out or len(out) >= 2):
            out.append(v)
        if len(out) == n:
            return out
    raise ValueError(f"{spec.kind}: not enough values")


def updates(r: random.Random, per_spec: int) -> list[dict[str, Any]]:
    """Chains of changes; each about its own subject (component and topic), personal ones
    each of another user."""
    out: list[dict[str, Any]] = []
    taken: set[tuple[str, str, str]] = set()
    for si, spec in enumerate(SPECS):
        for k in range(per_spec):
            c = _component(spec, r, env=r.random() < 0.4)
            while not spec.personal and (spec.lang, c, spec.topic) in taken:
                c = _component(spec, r, env=r.random() < 0.4)
            taken.add((spec.lang, c, spec.topic))
            changes = r.choice([1, 1, 2, 2, 3])
            values = _values(spec, r, changes + 1)
            at = T0 + timedelta(days=r.randrange(0, 30))
            versions = [{"text": _say(r.choice(spec.plain), c, values[0]), "value": values[0],
                         "style": "initial", "at": at.isoformat()}]  # fmt: skip
            for i in range(1, changes + 1):
                at += timedelta(days=r.randrange(5, 40))
                style = r.choice(["replacement", "replacement", "correction", "restatement"])
                pool = {"replacement": spec.change, "correction": spec.correct,
                        "restatement": spec.plain}[style]  # fmt: skip
                text = _say(r.choice(pool), c, values[i], values[i - 1])
                versions.append({"text": text, "value": values[i], "style": style,
                                 "at": at.isoformat()})  # fmt: skip
            out.append({"id": f"u{si}-{k}", "lang": spec.lang, "kind": spec.kind,
                        "user": f"user-{si}-{k}" if spec.personal else None,
                        "query": _say(spec.query, c, ""), "versions": versions})  # fmt: skip
    return out


def distinct(r: random.Random, n: int) -> list[dict[str, Any]]:
    """Pairs of different facts from one template."""
    out = []
    specs = [s for s in SPECS if not s.personal]
    while len(out) < n:
        spec = r.choice(specs)
        template = r.choice(spec.plain)
        how = r.choice(["subject", "qualifier"])
        if spec.lang == Z:
            comps, envs = ZH_COMPONENTS, ZH_ENVS
            join = "{e}的{c}"
        else:
            comps, envs = EN_COMPONENTS, EN_ENVS
            join = "{e} {c}"
        if how == "subject":
            a, b = r.sample(comps, 2)
            if r.random() < 0.4:
                env = r.choice(envs)
                a, b = join.format(e=env, c=a), join.format(e=env, c=b)
        else:
            comp = r.choice(comps)
            ea, eb = r.sample(envs, 2)
            a, b = join.format(e=ea, c=comp), join.format(e=eb, c=comp)
        same = r.random() < 0.3
        va, vb = (lambda v: (v, v))(spec.value(r)) if same else _values(spec, r, 2)
        out.append({"id": f"d{len(out)}", "lang": spec.lang, "differs": how, "same_value": same,
                    "a": _say(template, a, va), "b": _say(template, b, vb)})  # fmt: skip
    return out


def repeats(r: random.Random, per_spec: int) -> list[dict[str, Any]]:
    out = []
    for si, spec in enumerate(SPECS):
        for k in range(per_spec):
            if not spec.repeat:
                continue
            c = _component(spec, r, env=r.random() < 0.3)
            v = spec.value(r)
            a = _say(r.choice(spec.plain), c, v)
            b = _say(r.choice(spec.repeat), c, v)
            out.append({"id": f"r{si}-{k}", "lang": spec.lang, "a": a, "b": b})
    return out


def build(seed: int = SEED) -> dict[str, Any]:
    r = random.Random(seed)
    return {
        "about": "remem truth dev set: see benchmarks/make_truth_dev.py",
        "updates": updates(r, per_spec=6),
        "distinct": distinct(r, 2400),
        "repeats": repeats(r, per_spec=4),
    }


def main() -> None:
    data = build()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    n = {k: len(v) for k, v in data.items() if isinstance(v, list)}
    print(f"wrote {OUT} ({n})")


if __name__ == "__main__":
    main()
