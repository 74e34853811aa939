"""Latency, cold start and memory of a remem store at 1k / 10k / 100k entries.

    .venv/bin/python benchmarks/bench_store.py                 # 1k, 10k, 100k
    .venv/bin/python benchmarks/bench_store.py --quick         # 1k, 10k
    .venv/bin/python benchmarks/bench_store.py --json out.json --profile

Everything goes through the public API (`Memory.save`, `Memory.import_`,
`Memory.search`, `Memory.context_for`, the `remem` CLI). The corpus is synthetic,
deterministic (seeded) and mixes Chinese and English memory-like sentences drawn
from Zipf-weighted vocabularies, so term document frequencies look like a real
store's: a few very common words, a long tail of rare names and numbers.
"""

from __future__ import annotations

import argparse
import bisect
import cProfile
import io
import itertools
import json
import os
import pstats
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import machine
from remem import Memory
from remem.entry import EntryType
from remem.errors import SecretRefused
from remem.named_values import named_values

Doc = tuple[EntryType, str]  # (entry type, content)

PROJECT = "bench"
SEED = 20240611
# The fixed "now" of the synthetic corpus: entries are spread over the year before it.
EPOCH = datetime(2025, 1, 1, tzinfo=UTC)
TARGETS = {"save_p50_ms": 2.0, "search_p95_ms": 20.0, "cold_median_s": 0.3}

# -- vocabulary --------------------------------------------------------------------------
TECH = """python django fastapi flask react vue angular svelte postgresql mysql sqlite redis
kafka rabbitmq celery kubernetes docker nginx jdk maven gradle spring-boot node.js typescript
go rust grpc terraform ansible elasticsearch clickhouse prometheus grafana jenkins airflow spark
pandas numpy pytorch tensorflow next.js webpack vite pnpm yarn poetry uv mongodb etcd consul
vault istio envoy helm argo-cd sentry datadog loki tempo minio s3 cloudflare vercel""".split()
TOOLS = """vim neovim vs-code pycharm intellij emacs tmux zsh fish git lazygit gdb lldb pdb
ipdb httpie curl postman insomnia wireshark htop btop k9s lens dbeaver datagrip tableplus
jupyter ripgrep fzf bat jq yq make just docker-compose pre-commit black ruff mypy pytest
hypothesis locust k6 jmeter perf flamegraph py-spy""".split()
TASKS_EN = """code-review debugging profiling refactoring migrations deployments load-testing
on-call incident-response benchmarking prototyping pairing documentation release-notes
data-analysis log-triage schema-design api-design capacity-planning""".split()
TASKS_ZH = """代码评审 调试 性能调优 重构 数据迁移 上线 压测 值班 故障复盘 写文档 画架构图 需求评审
接口联调 灰度发布 回滚 日志排查 监控配置 权限梳理 容量规划 技术选型""".split()
ZH_NOUNS = """数据库 缓存 接口 用户 订单 支付 日志 配置 服务 模块 前端 后端 网关 测试 部署 监控 告警
权限 登录 消息 队列 索引 报表 文件 图片 搜索 推荐 风控 账单 库存 物流 客服 评论 通知 短信 邮件
会员 积分 优惠券 商品 购物车 结算 退款 发票 审批 工单 合同 客户 供应商 仓库 财务 运营 营销 活动
渠道 埋点 画像 标签 模型 特征 训练 推理 向量 召回 排序 爬虫 清洗 调度 任务 脚本 镜像
集群 节点 证书 域名 负载 备份 快照 迁移 同步 限流 熔断 降级 重试 幂等 事务 分片 副本
主库 从库 连接池 线程池 协程 内存 磁盘 带宽 延迟 吞吐 版本 分支 流水线 制品 密钥 令牌
会话 租户 组织 项目 看板 周报""".split()
SURNAMES = "王 李 张 刘 陈 杨 黄 赵 吴 周 徐 孙 马 朱 胡 郭 何 林 罗 高".split()
GIVEN = """伟 芳 娜 敏 静 磊 强 洋 艳 杰 军 勇 涛 明 超
霞 平 刚 丹 鹏 华 飞 琳 宇 浩 婷 雪 斌 晨 阳""".split()
EN_NAMES = """alice bob carol dave erin frank grace heidi ivan judy mallory niaj olivia peggy
rupert sybil trent victor walter xavier yvonne zoe liam noah emma ava mia lucas ethan""".split()
ENVS = "dev staging prod qa uat sandbox canary preview 测试环境 预发环境 生产环境 开发环境".split()
CMD_VERBS = """make-migrate make-build npm-run-build pnpm-install kubectl-apply helm-upgrade
terraform-plan terraform-apply ./scripts/bootstrap.sh alembic-upgrade flyway-migrate
python-manage.py-migrate cargo-build go-generate buf-generate""".split()
SYLLABLES = """ka lo mi ra zen tor vex qui bel dra nix sol tan mor pel gus fi ro ven cal dor
ash lin mek sar tul bri hov jun kip lux""".split()

# (entry type, template); {pool} placeholders are drawn from the Zipf-weighted pools.
TEMPLATES: list[Doc] = [
    ("fact", "项目使用 {tech} {version}"),
    ("preference", "{person} prefers {tool} for {task_en}"),
    ("fact", "部署到 {env} 需要先运行 {cmd}"),
    ("fact", "{noun}的超时时间设置为 {num} 秒"),
    ("fact", "The {service} service talks to {tech} on port {port}"),
    ("fact", "{person} 负责 {noun}{noun2} 模块的 {task_zh}"),
    ("decision", "We decided to replace {tech} with {tech2} in the {service} service"),
    ("fact", "{service} 服务的日志保存在 /var/log/{word}/{word2}.log"),
    ("preference", "Run {cmd} before merging changes to {service}"),
    ("fact", "{person} 说 {noun}接口的文档在 https://wiki.example.com/{word}/{word2}"),
    ("fact", "Budget for {noun} on {env} is {num}k per month"),
    ("fact", "{env} 的数据库是 {tech} {version}，地址 {word}-{num}.db.internal"),
    ("preference", "Use {tool} to debug {noun}{noun2} issues on {env}"),
    ("preference", "{person} 不喜欢在{task_zh}时使用 {tool}"),
    ("milestone", "{service} v{version} released to {env} after {task_en}"),
    ("decision", "会议决定：{noun}{noun2}改用 {tech}，由 {person} 跟进"),
    ("fact", "The {word} cron job runs every {num} minutes on {env}"),
    ("fact", "{noun}{noun2} 的 QPS 峰值大约 {num}，{tech} 连接数上限 {port}"),
    ("fact", "{person} is the owner of {service}; ask them about {noun} {task_en}"),
    ("fact", "{service} 依赖 {tech} 和 {tech2}，本地用 {tool} 启动"),
    ("change", "Changed {noun} retry limit from {num} to {num2} in {service}"),
    ("fact", "Feature flag {word}_{word2} controls the new {noun}{noun2} flow"),
    ("fact", "{person} 的分支 feature/{word}-{num} 修改了 {noun}逻辑"),
    ("preference", "回答用中文，{tech} 代码注释用英文，{task_zh}时先写测试"),
]


@dataclass(frozen=True)
class Pool:
    words: list[str]
    cum: list[float]

    def pick(self, rng: random.Random) -> str:
        return self.words[bisect.bisect(self.cum, rng.random() * self.cum[-1])]


def zipf_pool(words: Sequence[str], rng: random.Random, s: float = 1.07) -> Pool:
    """The words in a seeded random rank order, weighted 1/rank**s."""
    order = list(dict.fromkeys(words))
    rng.shuffle(order)
    return Pool(order, list(itertools.accumulate(1.0 / (r + 1) ** s for r in range(len(order)))))


def pseudo_words(rng: random.Random, count: int, parts: tuple[int, int] = (2, 3)) -> list[str]:
    out: set[str] = set()
    while len(out) < count:
        out.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(*parts))))
    return sorted(out)


def build_pools(seed: int = SEED) -> dict[str, Pool]:
    """Zipf-weighted pools, a few thousand distinct words in all (fixed for a seed)."""
    rng = random.Random(seed)
    words = pseudo_words(rng, 2500)
    libs = [f"{w}-{rng.choice(['sdk', 'core', 'db', 'js', 'rs', 'kit'])}" for w in words[:600]]
    zh_people = [
        s + g + (rng.choice(GIVEN) if rng.random() < 0.5 else "") for s in SURNAMES for g in GIVEN
    ]
    kinds = ["api", "svc", "worker", "gateway", "web"]
    services = [f"{w}-{rng.choice(kinds)}" for w in words[600:1400]]
    tools = TOOLS + [f"{w}ctl" for w in words[1400:1700]]
    envs = ENVS + [f"cluster-{w}" for w in words[1700:1900]]
    cmds = CMD_VERBS + [f"./scripts/{w}.sh" for w in words[1900:2100]]
    pools = {
        "tech": zipf_pool(TECH + libs, rng),
        "tool": zipf_pool(tools, rng),
        "task_en": zipf_pool(TASKS_EN, rng),
        "task_zh": zipf_pool(TASKS_ZH, rng),
        "noun": zipf_pool(ZH_NOUNS, rng, s=0.9),
        "person": zipf_pool(zh_people + EN_NAMES, rng),
        "env": zipf_pool(envs, rng, s=1.2),
        "cmd": zipf_pool(cmds, rng),
        "service": zipf_pool(services, rng),
        "word": zipf_pool(words, rng),
    }
    pools["noun2"], pools["tech2"], pools["word2"] = pools["noun"], pools["tech"], pools["word"]
    return pools


def _number(rng: random.Random, name: str) -> str:
    if name == "version":
        return f"{rng.randint(1, 25)}.{rng.randint(0, 20)}" + (
            f".{rng.randint(0, 9)}" if rng.random() < 0.3 else ""
        )
    if name == "port":
        return str(rng.choice([80, 443, 5432, 6379, 8080, 9092, 3306, 27017]) + rng.randint(0, 99))
    return str(int(rng.paretovariate(1.2) * 10))


class Corpus:
    """Deterministic memory-like sentences and queries from one seed."""

    def __init__(self, seed: int = SEED, pools: dict[str, Pool] | None = None) -> None:
        self.rng = random.Random(seed)
        self.pools = pools or build_pools()
        self.template_cum = list(itertools.accumulate(1.0 / (i + 1) ** 0.5 for i in range(24)))

    def _fill(self, template: str) -> str:
        fields: dict[str, str] = {}
        for name in ("version", "port", "num", "num2"):
            if "{" + name + "}" in template:
                fields[name] = _number(self.rng, name)
        for name, pool in self.pools.items():
            if "{" + name + "}" in template:
                fields[name] = pool.pick(self.rng)
        return template.format(**fields)

    def sentence(self) -> Doc:
        i = bisect.bisect(self.template_cum, self.rng.random() * self.template_cum[-1])
        kind, template = TEMPLATES[i]
        return kind, self._fill(template)

    def sentences(self, n: int, exclude: set[str] | None = None) -> list[Doc]:
        """n distinct sentences (none in `exclude`): a store of n holds n entries."""
        seen = set(exclude or ())
        out: list[Doc] = []
        while len(out) < n:
            kind, content = self.sentence()
            if content not in seen:
                seen.add(content)
                out.append((kind, content))
        return out

    def query(self) -> tuple[str, str]:
        """(kind, query): `common` uses head words, `rare` tail words, `mixed` a question."""
        rng, pools = self.rng, self.pools
        kind = rng.choice(["common", "rare", "mixed"])
        if kind == "common":
            words = [p.words[rng.randrange(5)] for p in rng.sample(list(pools.values()), 3)]
        elif kind == "rare":
            tail = [p.words[rng.randrange(len(p.words) // 2, len(p.words))] for p in pools.values()]
            words = rng.sample(tail, rng.randint(2, 4)) + [pools["noun"].pick(rng)]
        else:
            words = self._fill(rng.choice(QUESTIONS)).split()
        return kind, " ".join(words[:6])


QUESTIONS = [
    "{tech} 用的什么版本",
    "how do we deploy to {env}",
    "{person} 喜欢用什么工具",
    "{service} 的日志在哪里",
    "who owns {service}",
    "{noun}{noun2} 超时 设置",
    "部署 {env} 之前 要 运行 什么",
    "what port does {tech} use",
    "{noun} budget per month",
    "为什么 改用 {tech}",
]


# -- measurement helpers -----------------------------------------------------------------
def summarize(ms: Sequence[float]) -> dict[str, float]:
    data = sorted(ms)
    p95 = statistics.quantiles(data, n=100, method="inclusive")[94] if len(data) > 1 else data[0]
    return {
        "n": len(data),
        "p50": statistics.median(data),
        "p95": p95,
        "max": data[-1],
        "mean": statistics.fmean(data),
    }


def timed(fn: Callable[[Any], Any], items: Sequence[Any]) -> tuple[list[float], list[Any]]:
    """Milliseconds of `fn(item)` for each item, and the results."""
    ms: list[float] = []
    results: list[Any] = []
    for item in items:
        start = time.perf_counter()
        results.append(fn(item))
        ms.append((time.perf_counter() - start) * 1000)
    return ms, results


def ru_maxrss_mb() -> float:
    """getrusage's peak resident set (KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def peak_rss_mb() -> float:
    """Peak resident set of this process image. Linux keeps ru_maxrss across fork+exec, so a
    worker started by a big parent would report the parent's peak; VmHWM is the new image's."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return ru_maxrss_mb()
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return ru_maxrss_mb()


def load() -> list[float]:
    """1/5/15-minute load averages: other busy processes make every number here slower."""
    return [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else []


def run_worker(*args: str) -> dict[str, Any]:
    """Run this script's `--worker` mode in a fresh interpreter; its last stdout line is JSON."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", *args]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"worker {args} failed (exit {done.returncode}); see stderr above")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


# -- filling a store (run in a worker process so its peak RSS is its own) -----------------
def created_times(n: int, rng: random.Random) -> list[datetime]:
    """n timestamps over the year before EPOCH, oldest first (saves arrive in time order)."""
    return sorted(EPOCH - timedelta(seconds=rng.uniform(0, 365 * 86400)) for _ in range(n))


FILL_CHUNK = 10_000  # entries per progress line, and per imported export file


def progress(done: int, total: int, start: float) -> None:
    if done % FILL_CHUNK == 0 or done == total:
        elapsed = time.perf_counter() - start
        print(f"    filled {done:,}/{total:,} in {elapsed:.0f} s", file=sys.stderr, flush=True)


def fill_by_save(mem: Memory, docs: list[Doc], when: list[datetime]) -> Counter[str]:
    statuses: Counter[str] = Counter()
    start = time.perf_counter()
    for i, ((kind, content), at) in enumerate(zip(docs, when, strict=True), 1):
        statuses[mem.save(content, type=kind, created_at=at, force=True).status] += 1
        progress(i, len(docs), start)
    return statuses


def export_doc(docs: list[Doc], when: list[datetime], rng: random.Random) -> str:
    """A remem export of `docs`, with named values filled in as `save` would."""
    entries = [
        {
            "id": f"{rng.getrandbits(48):012x}",
            "content": content,
            "type": kind,
            "scope": "project",
            "project": PROJECT,
            "created_at": at.isoformat(),
            "source": "user_explicit",
            "confidence": "confirmed",
            "facts": named_values(content),
        }
        for (kind, content), at in zip(docs, when, strict=True)
    ]
    return json.dumps({"format": "remem-export", "version": 1, "entries": entries, "audit": []})


def fill_by_import(
    mem: Memory, docs: list[Doc], when: list[datetime], export: Path
) -> Counter[str]:
    """`Memory.import_` of generated export files, FILL_CHUNK entries each."""
    rng = random.Random(SEED + 7)
    statuses: Counter[str] = Counter()
    start = time.perf_counter()
    for lo in range(0, len(docs), FILL_CHUNK):
        hi = lo + FILL_CHUNK
        export.write_text(export_doc(docs[lo:hi], when[lo:hi], rng), encoding="utf-8")
        result = mem.import_(export, force=True)
        statuses.update(added=len(result.added), duplicate=len(result.duplicates))
        progress(min(hi, len(docs)), len(docs), start)
    export.unlink()
    return statuses


def fill_worker(db: str, n: int, method: str) -> dict[str, Any]:
    docs = Corpus().sentences(n)
    when = created_times(n, random.Random(SEED + 1))
    start = time.perf_counter()
    with Memory(db, project=PROJECT, embedder=None) as mem:
        if method == "save":
            statuses = fill_by_save(mem, docs, when)
        else:
            statuses = fill_by_import(mem, docs, when, Path(db).with_suffix(".export.json"))
    seconds = time.perf_counter() - start
    return {
        "n": n,
        "seed": SEED,
        "method": method,
        "seconds": seconds,
        "per_entry_ms": seconds / n * 1000,
        "statuses": dict(statuses),
        "peak_rss_mb": peak_rss_mb(),
        "ru_maxrss_mb": ru_maxrss_mb(),
        "bytes": sum(p.stat().st_size for p in Path(db).parent.glob(Path(db).name + "*")),
    }


def filled_store(workdir: Path, n: int, method: str, reuse: bool) -> tuple[Path, dict[str, Any]]:
    """A store of n entries (kept pristine) and its fill numbers; reused when asked and valid."""
    db = workdir / f"filled-{n}-{method}.db"
    sidecar = db.with_suffix(".fill.json")
    if reuse and db.exists() and sidecar.exists():
        fill: dict[str, Any] = json.loads(sidecar.read_text())
        if fill.get("n") == n and fill.get("seed") == SEED:
            print(f"  reusing {db} (filled earlier in {fill['seconds']:.0f} s)", flush=True)
            return db, fill | {"reused": True}
    for old in workdir.glob(f"{db.name}*"):
        old.unlink()
    fill = run_worker("fill", str(db), str(n), method)
    sidecar.write_text(json.dumps(fill))
    return db, fill


def working_copy(filled: Path, workdir: Path, n: int) -> str:
    """Measure on a copy, so the timed saves never change the filled store."""
    target = workdir / f"store-{n}.db"
    for old in workdir.glob(f"{target.name}*"):
        old.unlink()
    for src in workdir.glob(f"{filled.name}*"):
        shutil.copyfile(src, target.with_name(target.name + src.name[len(filled.name) :]))
    return str(target)


def search_rss_worker(db: str, count: int) -> dict[str, Any]:
    corpus = Corpus(SEED + 3)
    queries = [corpus.query()[1] for _ in range(count)]
    before = peak_rss_mb()
    start = time.perf_counter()
    with Memory(db, project=PROJECT, embedder=None) as mem:
        opened = peak_rss_mb()
        hits = sum(len(mem.search(q)) for q in queries)
    return {
        "searches": count,
        "hits": hits,
        "seconds": time.perf_counter() - start,
        "rss_at_start_mb": before,
        "rss_after_open_mb": opened,
        "peak_rss_mb": peak_rss_mb(),
        "ru_maxrss_mb": ru_maxrss_mb(),
    }


# -- timed operations on a filled store ----------------------------------------------------
def measure_store(db: str, n: int, ops: int, profile: bool) -> dict[str, Any]:
    """Time `ops` fresh saves (force=False), searches and context_for calls on a filled store."""
    stored = {content for _, content in Corpus().sentences(n)}
    fresh = Corpus(SEED + 2).sentences(5 + 2 * ops, exclude=stored)  # not already stored
    warm_docs, save_docs, profile_docs = fresh[:5], fresh[5 : 5 + ops], fresh[5 + ops :]
    query_corpus = Corpus(SEED + 3)
    queries = [query_corpus.query() for _ in range(ops)]
    out: dict[str, Any] = {}
    with Memory(db, project=PROJECT, embedder=None) as mem:
        for kind, content in warm_docs:  # loads jieba and the tokenizer; not timed
            mem.save(content, type=kind)
        mem.context_for(queries[0][1])

        def save(doc: Doc) -> str:
            return mem.save(doc[1], type=doc[0]).status

        ms, statuses = timed(save, save_docs)
        out["save"] = summarize(ms) | {"statuses": dict(Counter(statuses))}
        # A refused conflict writes nothing; "added" saves are the ones that commit (fsync).
        added = [m for m, st in zip(ms, statuses, strict=True) if st == "added"]
        out["save_added"] = summarize(added) if added else {}
        out |= time_searches(mem, queries)
        if profile:
            out["profile"] = profile_ops(mem, profile_docs, queries)
    return out


def time_searches(mem: Memory, queries: list[tuple[str, str]]) -> dict[str, Any]:
    """`search` and `context_for` latency over (kind, query) pairs, overall and per kind."""
    out: dict[str, Any] = {}
    ms, hits = timed(lambda q: mem.search(q[1]), queries)
    out["search"] = summarize(ms) | {"avg_hits": statistics.fmean(len(h) for h in hits)}
    for kind in ("common", "rare", "mixed"):
        picked = [m for m, q in zip(ms, queries, strict=True) if q[0] == kind]
        out[f"search_{kind}"] = summarize(picked)
    ms, blocks = timed(lambda q: mem.context_for(q[1]), queries)
    out["context_for"] = summarize(ms) | {"nonempty": sum(1 for b in blocks if b)}
    return out


def profile_ops(
    mem: Memory, docs: list[Doc], queries: list[tuple[str, str]], top: int = 18
) -> dict[str, str]:
    """cProfile of `ops` saves and `ops` searches, top entries by cumulative time."""
    reports: dict[str, str] = {}

    def save(content: str, kind: Any) -> None:
        try:
            mem.save(content, type=kind)
        except SecretRefused:  # the corpus can read like one ("… 令牌 log-triage")
            pass

    for name, run in (
        ("save", lambda: [save(c, k) for k, c in docs]),
        ("search", lambda: [mem.search(q) for _, q in queries]),
    ):
        prof = cProfile.Profile()
        prof.runcall(run)
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).strip_dirs().sort_stats("cumulative").print_stats(top + 2)
        lines = buf.getvalue().splitlines()
        table = lines[next(i for i, line in enumerate(lines) if "ncalls" in line) :]
        reports[name] = "\n".join(line for line in table if "bench_store.py" not in line)
    return reports


def give_vectors(db: str) -> str | None:
    """Random unit vectors of the default embedder for every entry (a search costs the
    same as with real ones; embedding 10k entries would take minutes), so that the cold
    `remem search` runs the product's default path: hybrid, the query embedded by the
    warm service. None when no embedder is installed."""
    from remem.retrieval.embedding import embedder_from_env

    embedder = embedder_from_env({})
    if embedder is None:
        return None
    import numpy as np

    with Memory(db, project=PROJECT, embedder=None) as mem:
        ids = [e.id for e in mem.store.iter_all()]
        vecs = np.random.default_rng(SEED).standard_normal((len(ids), embedder.dim))
        vecs = (vecs / np.linalg.norm(vecs, axis=1, keepdims=True)).astype(np.float32)
        rows = [(eid, vecs[i].tobytes()) for i, eid in enumerate(ids)]
        mem.store.put_vectors(embedder.name, embedder.dim, rows)
    return embedder.name


def cold_start(db: str, runs: int) -> dict[str, Any]:
    """Wall time of fresh `remem search` processes (the default: hybrid when an embedder
    is installed; and keyword only), and of bare interpreters as a baseline."""
    remem = shutil.which("remem", path=str(Path(sys.executable).parent)) or "remem"
    corpus = Corpus(SEED + 5)
    queries = [corpus.query()[1] for _ in range(runs)]
    search = [remem, "--db", db, "--project", PROJECT, "search"]
    commands: dict[str, tuple[Callable[[str], list[str]], dict[str, str]]] = {
        "python -c pass": (lambda _q: [sys.executable, "-c", "pass"], {}),
        "python -c 'import remem.cli.app'": (
            lambda _q: [sys.executable, "-c", "import remem.cli.app"],
            {},
        ),
        "remem search": (lambda q: [*search, q], {}),
        "remem search, REMEM_EMBEDDER=none": (lambda q: [*search, q], {"REMEM_EMBEDDER": "none"}),
    }
    # A home of this run's own: the warm vector service the hybrid runs start (and ask)
    # is this checkout's, not one another run or another version left running.
    home = Path(db).parent / "cold-home"
    # Bytecode as an installed remem has it (pip compiles at install): with
    # PYTHONDONTWRITEBYTECODE set (some sandboxes) a checkout compiled its ~60 modules
    # in every run (~0.07-0.1 s of CPU a search, under load), cached here instead.
    drop = ("REMEM_EMBEDDER", "PYTHONDONTWRITEBYTECODE")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["REMEM_HOME"], env["PYTHONPYCACHEPREFIX"] = str(home), str(home / "pycache")
    out: dict[str, Any] = {"vectors": give_vectors(db)}
    # one untimed run fills that cache (keyword only: it starts no warm service)
    warm_up = {**env, "REMEM_EMBEDDER": "none"}
    subprocess.run([*search, queries[0]], check=True, capture_output=True, env=warm_up)
    for label, (make, extra) in commands.items():
        seconds = []
        for query in queries:
            start = time.perf_counter()
            subprocess.run(make(query), check=True, capture_output=True, env={**env, **extra})
            seconds.append(time.perf_counter() - start)
        out[label] = summarize(seconds)
    from remem.retrieval.warm import WarmClient

    WarmClient(home).stop()
    return out


# -- reporting -----------------------------------------------------------------------------
def stat_line(label: str, st: dict[str, Any], extra: str = "") -> str:
    if not st:
        return f"  {label:<14} (none)"
    return (
        f"  {label:<14} p50 {st['p50']:7.2f}  p95 {st['p95']:7.2f}  max {st['max']:7.2f} ms"
        f"  (n={st['n']}){extra}"
    )


def print_size(n: int, fill: dict[str, Any], ops: dict[str, Any]) -> None:
    reused = " (reused from an earlier run)" if fill.get("reused") else ""
    print(
        f"  fill: {fill['method']} {fill['seconds']:.1f} s ({fill['per_entry_ms']:.2f} ms/entry), "
        f"{fill['statuses']}, {fill['bytes'] / 1e6:.1f} MB, fill peak RSS "
        f"{fill['peak_rss_mb']:.0f} MB{reused}"
    )
    print(stat_line("save", ops["save"], f"  {ops['save']['statuses']}"))
    print(stat_line("  added only", ops["save_added"]))
    print(stat_line("search", ops["search"], f"  avg hits {ops['search']['avg_hits']:.1f}"))
    for kind in ("common", "rare", "mixed"):
        print(stat_line(f"  {kind}", ops[f"search_{kind}"]))
    c = ops["context_for"]
    print(stat_line("context_for", c, f"  non-empty {c['nonempty']}"))
    for name, report in ops.get("profile", {}).items():
        print(f"\n  cProfile of {ops['save']['n']} {name} calls at {n:,} (cumulative):")
        print("\n".join("    " + line for line in report.strip().splitlines()))


SUMMARY_COLUMNS = [
    ("save p50", "save", "p50"),
    ("save p95", "save", "p95"),
    ("save max", "save", "max"),
    ("srch p50", "search", "p50"),
    ("srch p95", "search", "p95"),
    ("srch max", "search", "max"),
    ("ctx p50", "context_for", "p50"),
    ("ctx p95", "context_for", "p95"),
]


def print_summary(results: dict[str, Any]) -> None:
    sizes = results["sizes"]
    print("\n== summary (ms unless noted) ==")
    print(f"{'entries':>8} {'fill s':>7} " + " ".join(f"{c[0]:>8}" for c in SUMMARY_COLUMNS))
    for n, r in sizes.items():
        cells = " ".join(f"{r['ops'][op][stat]:>8.2f}" for _, op, stat in SUMMARY_COLUMNS)
        print(f"{int(n):>8,} {r['fill']['seconds']:>7.1f} {cells}")
    cold = results["cold_start"]
    runs = cold["remem search"]["n"]
    print(f"\ncold start, {runs} runs each, store of {int(results['cold_store']):,} (seconds):")
    print(
        f"  (vectors of {cold['vectors']} for every entry)"
        if cold["vectors"]
        else "  (no embedder)"
    )
    for label, st in cold.items():
        if isinstance(st, dict):
            print(f"  {label:<36} median {st['p50']:.3f}  p95 {st['p95']:.3f}")
    rss = results["search_rss"]
    fills = ", ".join(f"{int(n):,}: {r['fill']['peak_rss_mb']:.0f}" for n, r in sizes.items())
    print(
        f"peak RSS: {rss['searches']} searches on {int(results['rss_store']):,} entries "
        f"{rss['peak_rss_mb']:.0f} MB (after open {rss['rss_after_open_mb']:.0f} MB); "
        f"fill workers (MB) {fills}"
    )
    print(f"load average before {results['load_before']}, after {results['load_after']}")
    print(machine.line(results["machine"]))
    print_targets(results)


def print_targets(results: dict[str, Any]) -> None:
    largest = max(results["sizes"], key=int)
    ops = results["sizes"][largest]["ops"]
    rows = [
        (f"save p50 at {int(largest):,}", ops["save"]["p50"], TARGETS["save_p50_ms"], "ms"),
        (f"search p95 at {int(largest):,}", ops["search"]["p95"], TARGETS["search_p95_ms"], "ms"),
        ("cold `remem search` median", results["cold_start"]["remem search"]["p50"],
         TARGETS["cold_median_s"], "s"),
    ]  # fmt: skip
    print("\n== targets ==")
    verdicts = {}
    for label, value, target, unit in rows:
        verdict = "PASS" if value <= target else "MISS"
        verdicts[label] = verdict
        print(f"  {label:<28} {value:>8.3f} {unit:<2}  target <= {target:g} {unit:<2}  {verdict}")
    results["targets"] = verdicts


# -- main ----------------------------------------------------------------------------------
def bench(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    results: dict[str, Any] = {"sizes": {}, "started": time.time(), "load_before": load()}
    sizes = [1000, 10000] if args.quick else [int(s) for s in args.sizes.split(",")]
    for n in sizes:
        method = args.fill if args.fill != "auto" else ("save" if n <= 10_000 else "import")
        print(f"\n== {n:,} entries ==", flush=True)
        filled, fill = filled_store(workdir, n, method, args.reuse)
        db = working_copy(filled, workdir, n)
        ops = measure_store(db, n, args.ops, args.profile and n == max(sizes))
        print_size(n, fill, ops)
        results["sizes"][str(n)] = {"fill": fill, "ops": ops}
    cold_n = 10_000 if 10_000 in sizes else max(sizes)
    print(f"\ncold start x{args.cold_runs} against {cold_n:,} entries ...", flush=True)
    results["cold_start"] = cold_start(str(workdir / f"store-{cold_n}.db"), args.cold_runs)
    results["cold_store"] = cold_n
    results["rss_store"] = max(sizes)
    results["search_rss"] = run_worker("search", str(workdir / f"store-{max(sizes)}.db"), "100")
    results["seconds"] = time.time() - results.pop("started")
    results["load_after"] = load()
    results["machine"] = machine.reference()
    return results


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--sizes", default="1000,10000,100000", help="store sizes (comma separated)")
    p.add_argument("--quick", action="store_true", help="sizes 1000,10000 only")
    p.add_argument("--ops", type=int, default=200, help="timed saves/searches per size")
    p.add_argument("--cold-runs", type=int, default=15, help="CLI cold starts to time")
    p.add_argument(
        "--fill",
        choices=["auto", "save", "import"],
        default="auto",
        help="how to build stores: Memory.save loop, Memory.import_ of a generated export, "
        "or auto (save up to 10k, import above)",
    )
    p.add_argument("--profile", action="store_true", help="cProfile save/search at largest size")
    p.add_argument("--json", metavar="OUT", help="write every number to this JSON file")
    p.add_argument("--workdir", help="keep the stores here (default: a temp dir, removed)")
    p.add_argument(
        "--reuse", action="store_true", help="with --workdir: reuse stores filled by an earlier run"
    )
    p.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    return p.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    if args.worker:
        kind, db, count, *method = args.worker
        if kind == "fill":
            print(json.dumps(fill_worker(db, int(count), method[0])))
        else:
            print(json.dumps(search_rss_worker(db, int(count))))
        return
    with tempfile.TemporaryDirectory(prefix="remem-bench-") as tmp:
        workdir = Path(args.workdir or tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        results = bench(args, workdir)
        print_summary(results)
        print(f"\ntotal run time {time.perf_counter() - started:.0f} s")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
