"""A large store on one machine (issue 32): ingest rate through the public bulk path,
disk size, RSS of a searching process, warm search p50/p95 (keyword and hybrid), cold
one-shot `remem search`, and save p50/p95 into the large store (a fresh process's first
saves and a warm process's, keyword-only and with the default embedder, wall and CPU,
beside the fsync time of the store's disk), with the machine reference.

    nice .venv/bin/python benchmarks/bench_scale.py --size 100000 [--hybrid] [--keep DIR]
        [--json out.json] [--saves-only]

The store is built by `Memory.import_` (what `remem import` runs) of export files of
`--chunk` entries each, into one store that grows to `--size`. The memories are
zh+en, deterministic from `--seed`, and varied: eight domains (work, family, health,
travel, money, food, study, home), dozens of templates a language, generated names,
places, numbers and dates, one to three clauses; ~3% repeat an earlier memory in other
words and ~2% state a change of one (what a real store receives). `--hybrid` gives
every entry a random unit vector of the shipped model (a search costs the same as with
real ones; embedding 1M texts is the model's time, not remem's) and measures hybrid
search with the real query embedding.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import machine  # noqa: E402
from bench_store import give_vectors, peak_rss_mb, summarize  # noqa: E402
from remem import Memory  # noqa: E402

PROJECT = "bench"  # bench_store.cold_start searches this project
EPOCH = datetime(2025, 6, 1, tzinfo=UTC)

ZH_SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕"
ZH_GIVEN = "伟芳娜敏静磊强洋艳杰军勇涛明超霞平刚丹鹏华飞琳宇浩婷雪斌晨阳欣怡子涵梓萱思远俊"
EN_FIRST = """Alice Bob Carol David Erin Frank Grace Henry Ivy Jack Karen Leo Mia Noah Olivia
Paul Quinn Rosa Sam Tina Uma Victor Wendy Xavier Yara Zoe Liam Emma Lucas Ava Ethan Nora
Owen Chloe Mason Lily Ryan Hannah Dylan Sofia""".split()
EN_LAST = """Smith Chen Garcia Kim Patel Novak Rossi Silva Tanaka Okafor Berg Dubois Moreau
Khan Lopez Nguyen Ivanova Fischer Costa Haddad Walsh Brennan Schmidt Larsen Jensen Russo
Ferrari Kowalski Horvat Yilmaz Sato Suzuki Park Choi Singh Das Mendes Alves Romero Torres
Cohen Levi Mensah Adeyemi Petrov Popescu Nagy Varga Eriksen Lindqvist""".split()
ZH_CITIES = (
    "北京 上海 杭州 深圳 成都 西安 南京 武汉 苏州 厦门 青岛 大理 重庆 长沙 昆明 哈尔滨".split()
)
EN_CITIES = """Berlin Lisbon Tokyo Osaka Seattle Austin Toronto Dublin Prague Vienna Oslo
Kyoto Lyon Porto Denver Boston Sydney Auckland""".split()
TECH = """Python Go Rust Java TypeScript Kotlin PostgreSQL MySQL Redis Kafka Kubernetes Docker
Terraform React Vue Django FastAPI Spring Nginx ClickHouse Elasticsearch Grafana Airflow
Spark""".split()
ZH_FOODS = "火锅 小笼包 牛肉面 烤鸭 麻辣烫 寿司 拉面 饺子 煎饼 酸菜鱼 螺蛳粉 肠粉 烧麦 凉皮".split()
EN_FOODS = """ramen tacos sushi pho pizza dumplings curry falafel risotto bibimbap paella
croissants bagels""".split()
PETS = "猫 狗 仓鼠 鹦鹉 兔子 金鱼".split()
EN_PETS = "cat dog hamster parrot rabbit turtle".split()
HOBBIES_ZH = "跑步 游泳 羽毛球 钢琴 摄影 登山 书法 围棋 瑜伽 骑行 烘焙 钓鱼".split()
HOBBIES_EN = "running swimming chess piano photography climbing yoga cycling baking hiking".split()
DRUGS = "ibuprofen amoxicillin metformin loratadine vitamin-D omeprazole".split()
WEEKDAYS_ZH = "周一 周二 周三 周四 周五 周六 周日".split()
WEEKDAYS_EN = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
COURSES = """线性代数 机器学习 日语 法语 统计学 数据结构 宏观经济学 有机化学 操作系统""".split()
EN_COURSES = """linear algebra, machine learning, Spanish, statistics, compilers, organic
chemistry, microeconomics, databases""".replace("\n", " ").split(", ")

# domain -> (zh templates, en templates); each {slot} is filled from the pools below
TEMPLATES: dict[str, tuple[list[str], list[str]]] = {
    "work": (
        [
            "{zname}负责{proj}项目的{tech}迁移",
            "{proj}服务的超时时间设置为 {n} 秒",
            "{proj}的数据库是 {tech} {ver}，部署在{zcity}机房",
            "{proj}组每{zday}上午 {h} 点开站会",
            "{proj}项目的上线日期定在 {date}",
            "{zname}说{proj}的告警阈值是 {n}%",
        ],
        [
            "{ename} owns the {proj} service and reviews its {tech} changes",
            "The {proj} API rate limit is {n} requests per minute",
            "Deploys of {proj} go out every {eday} at {h}:00",
            "{proj} runs {tech} {ver} in the {ecity} region",
            "The {proj} on-call rotation is {n} days long",
            "Ask {ename} before touching {proj}'s schema",
        ],
    ),
    "family": (
        [
            "{zname}的生日是 {md}",
            "{zname}的女儿在{zcity}读{grade}年级",
            "{zname}家的{pet}叫{pname}",
            "{zname}每{zday}去{zcity}看外婆",
            "{zname}的儿子对{food}过敏",
        ],
        [
            "{ename}'s sister lives in {ecity}",
            "{ename}'s {epet} is called {pname}",
            "{ename}'s birthday is on {md}",
            "{ename}'s son plays {ehobby} every {eday}",
            "{ename}'s grandma visits in {emonth}",
        ],
    ),
    "health": (
        [
            "{zname}每天吃 {n} 毫克{zdrug}",
            "{zname}体检的空腹血糖是 {dec}",
            "{zname}每{zday}晚上去{zhobby}",
            "{zname}的牙医预约在 {date} 下午 {h} 点",
            "医生建议{zname}每周运动 {n} 小时",
        ],
        [
            "{ename} takes {n} mg of {drug} every morning",
            "{ename}'s resting heart rate is about {n2} bpm",
            "Dr. {elast} is {ename}'s dentist in {ecity}",
            "{ename} is allergic to {drug}",
            "{ename}'s physio appointments are on {eday}s at {h}:30",
        ],
    ),
    "travel": (
        [
            "{zname} {date}飞{zcity}，住在朋友推荐的酒店",
            "{zname}的护照 {year} 年到期",
            "{zname}下次去{zcity}想吃{food}",
            "{zname}在{zcity}的酒店预算每晚 {n}0 元",
            "{zname}去{zcity}的火车是早上 {h} 点的",
        ],
        [
            "{ename}'s flight to {ecity} leaves on {date} at {h}:15",
            "{ename}'s passport expires in {year}",
            "In {ecity} {ename} stayed near the old town",
            "{ename}'s hotel budget in {ecity} is {n}0 euros a night",
            "{ename} is joining the {ecity} trip in {emonth}",
        ],
    ),
    "money": (
        [
            "{zname}每月房租 {n}00 元，{day} 号交",
            "{zname}的信用卡账单日是每月 {day} 号",
            "{zname}借了我 {n}00 元",
            "{zname}定投{fund}每月 {n}00 元",
            "{proj}组的年终奖大概 {n} 万",
        ],
        [
            "{ename}'s rent is {n}00 dollars, due on the {day}th",
            "{proj} pays {n} dollars a month for {tech} hosting",
            "{ename} owes me {n}0 dollars for the {ecity} tickets",
            "{ename}'s savings goal for {year} is {n}000",
            "{ename}'s insurance renews every {emonth}",
        ],
    ),
    "food": (
        [
            "{zname}喜欢吃{food}，不吃香菜",
            "{zname}最爱{zcity}的{food}",
            "{zname}午饭一般在公司楼下吃{food}",
            "{zname}做{food}要放 {n} 克盐",
        ],
        [
            "{ename} loves {efood} but can't stand olives",
            "{ename}'s favourite dish is {efood}",
            "{ename}'s Friday lunch is usually {efood}",
            "The {proj} team orders {efood} on {eday}s",
        ],
    ),
    "study": (
        [
            "{zname}这学期在学{course}，每{zday}晚上上课",
            "{zname}的{course}期末考试在 {date}",
            "{zname}是{proj}班的{course}老师",
            "{zname}每天背 {n} 个单词",
        ],
        [
            "{ename} is taking {ecourse} this term, classes on {eday}s",
            "{ename}'s {ecourse} exam is on {date}",
            "{ename} tutors the {proj} group in {ecourse}",
            "{ename} reads {n} pages a day",
        ],
    ),
    "home": (
        [
            "{zname}家的 Wi-Fi 密码每季度换一次",
            "{zname}家物业费每年 {n}00 元",
            "{zname}家的垃圾每{zday}收",
            "{zname}家空调滤网 {n} 个月换一次",
            "{zname}帮{proj}小区修的热水器",
        ],
        [
            "{elast}'s boiler was serviced by {ename} in {emonth}",
            "{ename}'s bins go out on {eday} night",
            "{ename}'s router is in the {room}",
            "{ename} waters the plants every {n} days",
        ],
    ),
}
CLAUSES_ZH = [
    "，之前已经确认过",
    "，记得提前一天提醒",
    "，{zname}也知道这件事",
    "，具体见上次的会议记录",
    "，费用大概 {n}00 元",
    "，时间可能会调整",
]
CLAUSES_EN = [
    ", as agreed last week",
    ", {ename} knows the details",
    ", see the notes from {date}",
    ", roughly {n}0 dollars",
    ", unless it rains",
    ", confirmed twice",
]
CHANGES_ZH = ["{old}，现在改成了 {new}", "{old}？不对，已经改为 {new} 了"]
CHANGES_EN = ["Update: it changed to {new} ({old} before)", "{old}; scratch that, it's {new} now"]


class Corpus:
    """Memory texts and queries, deterministic from a seed."""

    def __init__(self, seed: int) -> None:
        rng = self.rng = random.Random(seed)
        zh = [s + "".join(rng.sample(ZH_GIVEN, rng.randint(1, 2))) for s in ZH_SURNAMES * 600]
        self.zh_names = sorted(set(zh))
        self.en_names = [f"{first} {last}" for first in EN_FIRST for last in EN_LAST]
        syll = "ka lo mi ra zen tor vex bel dra nix sol tan mor pel gus ven cal dor lin".split()
        self.projects = sorted({"".join(rng.sample(syll, 3)) for _ in range(5000)})
        self.done: list[str] = []

    def _fill(self, template: str) -> str:
        r = self.rng
        slots = {
            "zname": r.choice(self.zh_names),
            "ename": r.choice(self.en_names),
            "elast": r.choice(EN_LAST),
            "proj": r.choice(self.projects),
            "tech": r.choice(TECH),
            "ver": f"{r.randint(1, 20)}.{r.randint(0, 12)}",
            "n": str(r.randint(2, 300)),
            "n2": str(r.randint(48, 90)),
            "dec": f"{r.uniform(4, 7):.1f}",
            "h": str(r.randint(7, 20)),
            "day": str(r.randint(1, 28)),
            "zday": r.choice(WEEKDAYS_ZH),
            "eday": r.choice(WEEKDAYS_EN),
            "date": (EPOCH + timedelta(days=r.randint(-300, 300))).strftime("%Y-%m-%d"),
            "md": f"{r.randint(1, 12)} 月 {r.randint(1, 28)} 日",
            "year": str(r.randint(2026, 2035)),
            "emonth": r.choice(["January", "March", "May", "July", "September", "November"]),
            "zcity": r.choice(ZH_CITIES),
            "ecity": r.choice(EN_CITIES),
            "food": r.choice(ZH_FOODS),
            "efood": r.choice(EN_FOODS),
            "pet": r.choice(PETS),
            "epet": r.choice(EN_PETS),
            "pname": r.choice(["豆豆", "Milo", "Luna", "旺财", "Max", "咪咪"]),
            "zhobby": r.choice(HOBBIES_ZH),
            "ehobby": r.choice(HOBBIES_EN),
            "drug": r.choice(DRUGS),
            "zdrug": r.choice(["维生素 D", "布洛芬", "二甲双胍", "氯雷他定"]),
            "grade": str(r.randint(1, 6)),
            "course": r.choice(COURSES),
            "ecourse": r.choice(EN_COURSES),
            "fund": r.choice(["沪深300", "中证500", "纳斯达克100"]),
            "room": r.choice(["hallway", "study", "garage", "living room"]),
        }
        return template.format(**slots)

    def text(self) -> str:
        r = self.rng
        if self.done and r.random() < 0.05:  # a repeat, or a stated change, of an earlier one
            old = r.choice(self.done)
            if r.random() < 0.6:
                return old
            zh = any("\u4e00" <= ch <= "\u9fff" for ch in old)
            return r.choice(CHANGES_ZH if zh else CHANGES_EN).format(old=old, new=r.randint(2, 99))
        zh_t, en_t = TEMPLATES[r.choice(list(TEMPLATES))]
        zh = r.random() < 0.5
        out = self._fill(r.choice(zh_t if zh else en_t))
        for _ in range(r.choice([0, 0, 1, 2])):
            out += self._fill(r.choice(CLAUSES_ZH if zh else CLAUSES_EN))
        if len(self.done) < 50_000:
            self.done.append(out)
        return out

    def query(self) -> str:
        r = self.rng
        picks = [r.choice(self.projects), r.choice(self.zh_names), r.choice(self.en_names),
                 r.choice(ZH_CITIES) + " 酒店", r.choice(EN_FOODS), r.choice(TECH) + " 版本",
                 r.choice(COURSES) + " 考试", f"{r.choice(DRUGS)} dose"]  # fmt: skip
        return " ".join(r.sample(picks, r.randint(1, 2)))


def export_file(path: Path, corpus: Corpus, start: int, count: int) -> None:
    entries = [
        {"id": f"{start + i:012x}", "content": corpus.text(), "type": "fact",
         "scope": "project", "project": PROJECT, "source": "user_explicit",
         "created_at": (EPOCH - timedelta(seconds=(10**7 - start - i) * 3)).isoformat()}
        for i in range(count)
    ]  # fmt: skip
    path.write_text(json.dumps({"format": "remem-export", "version": 1, "entries": entries}))


def store_bytes(db: Path) -> int:
    return sum(p.stat().st_size for p in db.parent.glob(db.name + "*"))


def build(db: Path, size: int, chunk: int, seed: int) -> dict[str, Any]:
    """Import `size` memories in files of `chunk`; the rate of each file. A build that
    was stopped goes on from its last whole file (`<db>.done` holds how many texts are in)."""
    corpus, rates, statuses = Corpus(seed), [], {"added": 0, "duplicate": 0, "conflict": 0}
    done = db.with_suffix(".done")
    begin = int(done.read_text()) if done.exists() and db.exists() else 0
    for _ in range(begin):
        corpus.text()  # the same texts as an unbroken build
    start, cpu = time.perf_counter(), time.process_time()
    with Memory(db, project=PROJECT, embedder=None) as mem:
        for lo in range(begin, size, chunk):
            part = db.with_suffix(".part.json")
            export_file(part, corpus, lo, min(chunk, size - lo))
            t = time.perf_counter()
            res = mem.import_(part)
            rate = min(chunk, size - lo) / (time.perf_counter() - t)
            rates.append(round(rate))
            statuses["added"] += len(res.added)
            statuses["duplicate"] += len(res.duplicates)
            statuses["conflict"] += len(res.conflicts)
            print(f"  {lo + chunk:>9,}: {rate:,.0f}/s  {statuses}", file=sys.stderr, flush=True)
            done.write_text(str(lo + chunk))
        part.unlink()
    done.unlink()
    wall = time.perf_counter() - start
    return {"seconds": wall, "cpu_seconds": time.process_time() - cpu,
            "rate": (size - begin) / wall, "resumed_at": begin, "rates_per_file": rates,
            "statuses": statuses, "bytes": store_bytes(db)}  # fmt: skip


def search_worker(db: str, hybrid: bool, seed: int, count: int) -> dict[str, Any]:
    """Warm in-process search: p50/p95 of `count` queries, and the process's peak RSS."""
    embedder = None
    if hybrid:
        from remem.retrieval.embedding import USEEmbedder

        embedder = USEEmbedder()
    corpus = Corpus(seed + 1)
    queries = [corpus.query() for _ in range(count)]
    with Memory(db, project=PROJECT, embedder=embedder) as mem:
        for q in queries[:10]:
            mem.search(q)  # the model, the matrix and the caches in
        ms, hits, marked = [], 0, 0
        for q in queries:
            t = time.perf_counter()
            found = mem.search(q)
            ms.append((time.perf_counter() - t) * 1000)
            hits += len(found)
            # the read-time net's marks: in a store of many memories of one shape most are
            # another thing's fact of the same form, so this should stay small
            marked += any(h.replaced_by for h in found)
    return {**summarize(ms), "avg_hits": hits / count, "rss_mb": peak_rss_mb(), "marked": marked}


FIRST = 50  # a fresh process's first saves
WARM_UP = 40  # saves before the warm figures, at least ...
# ... and until the process holds its candidate index (built keep_near_step entries a
# save: ~150 saves at 750k), at most this many
WARM_UP_MOST = 400


def save_worker(db: str, seed: int, count: int, embed: bool) -> dict[str, Any]:
    """`Memory.save` of new memories into the large store (keyword only, or with the
    default embedder and the semantic check): every save is timed, so one process gives
    the p50/p95 of its first FIRST saves (what a one-off process or a fresh `remem serve`
    pays while its caches and candidate index fill) and of `count` saves after the
    warm-up: WARM_UP saves and the candidate index built (a long-lived process)."""
    embedder = None
    if embed:
        from remem.retrieval.embedding import USEEmbedder

        embedder = USEEmbedder()
        embedder.embed(["warm the model up"])  # its load is not a save's cost
    # not seed + 2: the save worker of earlier versions saved those texts into the kept
    # store itself, so every save into such a store would be a repeat
    corpus = Corpus(seed + 4)
    ms, cpu = [], []  # wall; CPU of this process (what a busy machine inflates less)
    with Memory(db, project=PROJECT, embedder=embedder) as mem:
        warm = 0
        while not warm or len(ms) < max(FIRST, warm + count):
            t, c = time.perf_counter(), time.process_time()
            mem.save(corpus.text(), force=True)
            ms.append((time.perf_counter() - t) * 1000)
            cpu.append((time.process_time() - c) * 1000)
            kept = getattr(mem.store, "near_kept", True)  # PostgreSQL keeps none
            if not warm and len(ms) >= WARM_UP and (kept or len(ms) >= WARM_UP_MOST):
                warm = len(ms)
    return {
        "first": summarize(ms[:FIRST]),
        "warm": summarize(ms[warm:]),
        "first_cpu": summarize(cpu[:FIRST]),
        "warm_cpu": summarize(cpu[warm:]),
        "warm_up": warm,
    }


def fsync_ms(folder: Path, runs: int = 21) -> float:
    """Median ms of a 4 KB write and fsync in `folder`: a save's commit waits for at least
    one (SQLite's WAL with synchronous=FULL, the default), whatever remem computes."""
    path, times = folder / "fsync-probe.tmp", []
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for _ in range(runs):
            os.write(fd, b"x" * 4096)
            t = time.perf_counter()
            os.fsync(fd)
            times.append((time.perf_counter() - t) * 1000)
    finally:
        os.close(fd)
        path.unlink()
    return statistics.median(times)


def saves(db: Path, seed: int, embed: bool, count: int = 100) -> dict[str, Any]:
    """The save worker on a scratch copy of the store: every run saves the same texts
    into the same store (into the kept one, a second run would save repeats)."""
    scratch = db.with_name(db.stem + "-saves.db")
    try:
        shutil.copyfile(db, scratch)
        for tail in ("-wal", "-state"):
            if Path(f"{db}{tail}").exists():
                shutil.copyfile(f"{db}{tail}", f"{scratch}{tail}")
        return worker("save", str(scratch), str(seed), str(count), "1" if embed else "0")
    finally:
        for p in scratch.parent.glob(scratch.name + "*"):
            p.unlink()


def worker(*args: str) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--worker", *args]
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def cold(db: Path, hybrid: bool, seed: int, runs: int = 5) -> dict[str, Any]:
    """Wall seconds of one-shot `remem search` processes (median of `runs`): keyword
    only, and with `hybrid` the model loaded in the process (REMEM_WARM=0: no warm
    service, the slowest case)."""
    remem = str(Path(sys.executable).parent / "remem")
    queries = [Corpus(seed + 3).query() for _ in range(runs + 1)]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(db.parent / "pycache")
    kinds = {"keyword": {"REMEM_EMBEDDER": "none"}}
    if hybrid:
        kinds["hybrid, REMEM_WARM=0"] = {"REMEM_WARM": "0"}
    out = {}
    for label, extra in kinds.items():
        cmd = [remem, "--db", str(db), "--project", PROJECT, "search"]
        subprocess.run([*cmd, queries[0]], check=True, capture_output=True, env={**env, **extra})
        seconds = []
        for q in queries[1:]:
            t = time.perf_counter()
            subprocess.run([*cmd, q], check=True, capture_output=True, env={**env, **extra})
            seconds.append(time.perf_counter() - t)
        out[label] = statistics.median(seconds)
    return out


def run(
    size: int, chunk: int, seed: int, hybrid: bool, workdir: Path, saves_only: bool = False
) -> dict[str, Any]:
    db = workdir / f"scale-{size}.db"
    out: dict[str, Any] = {"size": size, "seed": seed, "machine": machine.reference()}
    if db.exists() and not db.with_suffix(".done").exists():
        print(f"reusing {db}", file=sys.stderr)
    else:
        out["ingest"] = build(db, size, chunk, seed)
    if not saves_only:
        out["bytes_keyword"] = store_bytes(db)
        out["search_keyword"] = worker("search", str(db), "0", str(seed), "200")
        if hybrid:
            out["vectors"] = give_vectors(str(db))
            out["bytes_hybrid"] = store_bytes(db)
            out["search_hybrid"] = worker("search", str(db), "1", str(seed), "200")
        out["cold"] = cold(db, hybrid, seed)
    out["fsync_ms"] = fsync_ms(workdir)
    out["save_keyword"] = saves(db, seed, embed=False)
    if embedder_installed():
        out["save_embedder"] = saves(db, seed, embed=True)
    out["machine_after"] = machine.reference()
    return out


def embedder_installed() -> bool:
    from remem.retrieval.embedding import embedder_from_env

    return embedder_from_env({}) is not None


def report(r: dict[str, Any]) -> None:
    print(machine.line(r["machine"]))
    if ing := r.get("ingest"):
        print(f"ingest {r['size']:,} by Memory.import_: {ing['seconds']:.0f} s wall "
              f"({ing['rate']:,.0f}/s; {r['size'] / ing['cpu_seconds']:,.0f}/s of CPU), "
              f"last file {ing['rates_per_file'][-1]:,}/s, {ing['statuses']}")  # fmt: skip
    if "cold" in r:
        vectors = f", {r['bytes_hybrid'] / 1e6:.0f} MB with vectors" if "bytes_hybrid" in r else ""
        print(f"disk: {r['bytes_keyword'] / 1e6:.0f} MB keyword{vectors}")
    for kind in ("keyword", "hybrid"):
        if s := r.get(f"search_{kind}"):
            print(f"search {kind}: p50 {s['p50']:.1f} ms, p95 {s['p95']:.1f} ms, "
                  f"RSS {s['rss_mb']:.0f} MB, avg hits {s['avg_hits']:.1f}, a hit marked "
                  f"possibly replaced in {s.get('marked', '?')} of {s['n']}")  # fmt: skip
    for label, seconds in r.get("cold", {}).items():
        print(f"cold one-shot `remem search`, {label}: median {seconds:.2f} s")
    print(f"fsync of 4 KB on the store's disk: median {r['fsync_ms']:.1f} ms (every save's "
          "commit waits for one)")  # fmt: skip
    for kind in ("keyword", "embedder"):
        if s := r.get(f"save_{kind}"):
            first, warm, fc, wc = s["first"], s["warm"], s["first_cpu"], s["warm_cpu"]
            after = s.get("warm_up", WARM_UP)  # a result of an older run: WARM_UP
            print(f"save into the store ({kind}): a fresh process's first {first['n']}: "
                  f"p50 {first['p50']:.1f} ms, p95 {first['p95']:.1f} ms (CPU {fc['p50']:.1f} / "
                  f"{fc['p95']:.1f}); after {after} warm-up saves: p50 {warm['p50']:.1f} ms, "
                  f"p95 {warm['p95']:.1f} ms (CPU {wc['p50']:.1f} / {wc['p95']:.1f})")  # fmt: skip
    print(machine.line(r["machine_after"]) + " (after)")


def main() -> None:
    if sys.argv[1:2] == ["--worker"]:
        kind, db, *rest = sys.argv[2:]
        if kind == "search":
            result = search_worker(db, rest[0] == "1", int(rest[1]), int(rest[2]))
        else:
            result = save_worker(db, int(rest[0]), int(rest[1]), rest[2] == "1")
        print(json.dumps(result))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--chunk", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--hybrid", action="store_true")
    parser.add_argument("--keep", type=Path, help="build (or reuse) the store in this dir")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--saves-only", action="store_true", help="only the save figures")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = args.keep or Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        result = run(args.size, args.chunk, args.seed, args.hybrid, workdir, args.saves_only)
    report(result)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
