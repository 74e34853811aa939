"""remem across real processes: the CLI end to end, concurrent writers, SIGKILL in the
middle of writes, damaged store files, a read-only store, and bad input.

No mocks: every test runs `python -m remem` (or tests/helpers/writer.py) as a child
process against a real SQLite file, and checks the file afterwards.
"""

from __future__ import annotations

import hashlib
import json
import os
import pwd
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import remem
from remem import Memory

pytestmark = pytest.mark.slow  # real processes: concurrent writers, crashes, damaged files

HELPERS = Path(__file__).resolve().parent / "helpers"
WRITER = HELPERS / "writer.py"
PROJECT = "demo"
TIMEOUT = 60
LETTERS = "abcdefghijklmnopqrstuvwxyz"
CORRUPT_NAME = re.compile(r"^memory\.db\.corrupt-\d{8}T\d{6}\d*Z$")


# -- running processes -----------------------------------------------------------------------
def child_env(home: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("REMEM_DB", None)
    env["REMEM_HOME"] = str(home)
    env["PYTHONIOENCODING"] = "utf-8"
    env.update(extra)
    return env


@dataclass
class Cli:
    """Runs `python -m remem --db DB --project demo ARGS...` in a child process."""

    db: Path
    home: Path
    python: str = sys.executable
    env_extra: dict[str, str] = field(default_factory=dict)
    user: int | None = None
    group: int | None = None

    def __call__(
        self, *args: str, input: str | None = None, db: Path | None = None, timeout: float = TIMEOUT
    ) -> subprocess.CompletedProcess[str]:
        cmd = [self.python, "-m", "remem", "--db", str(db or self.db), "--project", PROJECT]
        kwargs: dict[str, Any] = {}
        if self.user is not None:
            kwargs.update(user=self.user, group=self.group, extra_groups=[])
        return subprocess.run(
            [*cmd, *args],
            input=input,
            capture_output=True,
            text=True,
            encoding="utf-8",
            env=child_env(self.home, **self.env_extra),
            cwd=self.home.parent,
            timeout=timeout,
            **kwargs,
        )


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    return tmp_path / "store" / "memory.db"


@pytest.fixture
def cli(tmp_path: Path, store_path: Path) -> Cli:
    return Cli(db=store_path, home=tmp_path / "home")


def show(proc: subprocess.CompletedProcess[str]) -> str:
    return f"exit {proc.returncode}\n--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"


def assert_ok(proc: subprocess.CompletedProcess[str]) -> None:
    assert proc.returncode == 0, show(proc)


def assert_one_error_line(
    proc: subprocess.CompletedProcess[str], code: int | None, *words: str
) -> str:
    """Exit `code` (None: any non-zero), one line on stderr, no traceback; the line."""
    if code is None:
        assert proc.returncode != 0, show(proc)
    else:
        assert proc.returncode == code, show(proc)
    assert "Traceback" not in proc.stderr, show(proc)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, f"expected exactly one error line\n{show(proc)}"
    for word in words:
        assert word.lower() in lines[0].lower(), show(proc)
    return lines[0]


def load_json(proc: subprocess.CompletedProcess[str]) -> Any:
    assert_ok(proc)
    return json.loads(proc.stdout)


def spawn_writer(db: Path, home: Path, worker: int, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(WRITER), str(db), "--worker", str(worker), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        env=child_env(home),
    )


def stop(procs: Sequence[subprocess.Popen[str]]) -> None:
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=TIMEOUT)


# -- looking at a store file -----------------------------------------------------------------
def random_sentence(rng: random.Random) -> str:
    # No digits, no shared words: nothing for dedup or conflict detection to find.
    return " ".join("".join(rng.choice(LETTERS) for _ in range(7)) for _ in range(6))


@dataclass(frozen=True)
class StoreState:
    entries: list[tuple[Any, ...]]
    audit: list[tuple[Any, ...]]


def store_state(db: Path) -> StoreState:
    """Every row that matters, read without remem (and without writing)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        entries = con.execute(
            "SELECT id, content, superseded_by, supersedes, updated_at, last_verified_at, "
            "confidence FROM entries ORDER BY id"
        ).fetchall()
        audit = con.execute(
            "SELECT seq, entry_id, action, detail FROM audit ORDER BY seq"
        ).fetchall()
    finally:
        con.close()
    return StoreState(entries, audit)


def check_integrity(db: Path) -> sqlite3.Connection:
    """PRAGMA integrity_check, the FTS index against its content, the corpus counters."""
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    con.execute("INSERT INTO entries_fts(entries_fts) VALUES ('integrity-check')")
    docs, terms = con.execute("SELECT docs, terms FROM corpus").fetchone()
    assert (docs, terms) == con.execute(
        "SELECT count(*), coalesce(sum(term_count), 0) FROM entries"
    ).fetchone()
    return con


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fill_store(db: Path, n: int) -> list[str]:
    """A store of n entries, closed (WAL checkpointed and removed)."""
    rng = random.Random(f"fill-{n}")
    with Memory(db, project=PROJECT) as mem:
        ids = [mem.save("Deployment uses Kubernetes on the staging cluster").entry.id]
        ids += [mem.save(f"{random_sentence(rng)} " * 6).entry.id for _ in range(n - 1)]
    assert not db.with_name(db.name + "-wal").exists()
    return ids


def corrupt_siblings(db: Path) -> list[Path]:
    return sorted(p for p in db.parent.iterdir() if CORRUPT_NAME.match(p.name))


# == 1. one process saves, the next one finds it; conflicts, replace, history ================
def test_cli_save_search_conflict_replace_history(cli: Cli) -> None:
    old_text, new_text = "项目使用 JDK 17 和 Maven", "项目使用 JDK 21"
    assert_ok(cli("save", old_text))

    hits = load_json(cli("search", "创建 Java 项目用什么 JDK", "--json"))
    assert hits, "a second process must find what the first one saved"
    assert hits[0]["entry"]["content"] == old_text
    old_id = hits[0]["entry"]["id"]

    refused = cli("save", new_text)
    assert refused.returncode == 1, show(refused)
    assert refused.stdout == ""
    assert old_text in refused.stderr and new_text in refused.stderr, show(refused)
    assert old_id in refused.stderr
    assert "--replace" in refused.stderr and "--force" in refused.stderr
    assert "Traceback" not in refused.stderr
    assert [e[1] for e in store_state(cli.db).entries] == [old_text], "a conflict writes nothing"

    replaced = cli("save", "--replace", old_id, new_text)
    assert_ok(replaced)
    assert old_id in replaced.stdout

    hist = load_json(cli("history", old_id, "--json"))
    versions = hist["versions"]
    assert [v["content"] for v in versions] == [old_text, new_text]
    old, new = versions
    assert old["id"] == old_id and new["id"] != old_id
    assert old["superseded_by"] == new["id"]
    assert new["supersedes"] == old_id and new["superseded_by"] is None
    actions = [(a["entry_id"], a["action"]) for a in hist["audit"]]
    assert actions == [(old_id, "add"), (new["id"], "replace"), (old_id, "supersede")]
    assert [a["seq"] for a in hist["audit"]] == sorted(a["seq"] for a in hist["audit"])
    # The history is the same whichever version one asks about.
    assert load_json(cli("history", new["id"], "--json")) == hist

    current = load_json(cli("search", "JDK", "--json"))
    assert [h["entry"]["id"] for h in current] == [new["id"]]
    everything = load_json(cli("search", "JDK", "--history", "--json"))
    assert {h["entry"]["id"] for h in everything} == {old_id, new["id"]}
    check_integrity(cli.db).close()


# == 2. concurrency ==========================================================================
@pytest.mark.parametrize(
    ("style", "force", "each"),
    [("numbered", True, 250), ("words", False, 100)],
    ids=["similar-contents-forced-8x250", "unrelated-contents-plain-save-8x100"],
)
def test_eight_processes_save_at_once(
    tmp_path: Path, store_path: Path, style: str, force: bool, each: int
) -> None:
    # Every commit is fsynced (synchronous=FULL): ~2,000 commits are most of the time.
    workers = 8
    go = tmp_path / "go"
    args = ["--count", str(each), "--style", style, "--go", str(go)]
    args += ["--force"] if force else []
    # All eight open the (not yet existing) store at once, then wait for the go file.
    procs = [spawn_writer(store_path, tmp_path / "home", w, *args) for w in range(workers)]
    try:
        for proc in procs:
            ready = proc.stdout.readline() if proc.stdout else ""
            assert ready == "ready\n", f"writer failed to open the store: {proc.communicate()}"
        go.touch()
        outputs = [proc.communicate(timeout=120) for proc in procs]
    finally:
        stop(procs)

    statuses: Counter[str] = Counter()
    for proc, (out, err) in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, err
        statuses.update(json.loads(out.splitlines()[-1])["statuses"])
    assert statuses == {"added": workers * each}

    con = check_integrity(store_path)
    try:
        total, distinct = con.execute(
            "SELECT count(*), count(DISTINCT content) FROM entries"
        ).fetchone()
        assert (total, distinct) == (workers * each, workers * each)
        assert con.execute("SELECT action, count(*) FROM audit GROUP BY action").fetchall() == [
            ("add", workers * each)
        ]
    finally:
        con.close()
    with Memory(store_path, project="p") as mem:
        stats = mem.stats()
        assert (stats.entries, stats.visible, stats.history) == (workers * each, workers * each, 0)
        assert mem.store.integrity_check() == "ok"


def test_eight_threads_share_one_memory(store_path: Path) -> None:
    threads_n, each = 8, 50
    barrier = threading.Barrier(threads_n)
    statuses: Counter[str] = Counter()
    errors: list[BaseException] = []
    lock = threading.Lock()

    with Memory(store_path, project="p") as mem:

        def work(w: int) -> None:
            rng = random.Random(f"thread-{w}")
            try:
                barrier.wait()
                for _ in range(each):
                    status = mem.save(random_sentence(rng)).status
                    with lock:
                        statuses[status] += 1
            except BaseException as exc:  # reported below, not lost in the thread
                errors.append(exc)

        threads = [threading.Thread(target=work, args=(w,)) for w in range(threads_n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        assert not errors, errors
        assert statuses == {"added": threads_n * each}
        assert mem.stats().entries == threads_n * each
        assert mem.store.integrity_check() == "ok"
    check_integrity(store_path).close()


# == 3. SIGKILL in the middle of writes ======================================================
def test_sigkill_mid_write_loses_no_acknowledged_save(tmp_path: Path, store_path: Path) -> None:
    acknowledged: list[str] = []
    # Three kills at different moments, into the same store: each writer starts on the
    # WAL the previous one left behind when it was killed.
    moments = [(200, 0.0), (205, 0.004), (220, 0.013)]
    for round_, (at_least, delay) in enumerate(moments):
        proc = spawn_writer(
            store_path, tmp_path / "home", 100 + round_, "--count", "0", "--print-ids"
        )
        ids: list[str] = []
        try:
            assert proc.stdout is not None
            while len(ids) < at_least:
                line = proc.stdout.readline()
                assert line, f"writer died early: {proc.communicate()}"
                ids.append(line.strip())
            if delay:
                threading.Event().wait(delay)
            proc.send_signal(signal.SIGKILL)
            rest, err = proc.communicate(timeout=TIMEOUT)
        finally:
            stop([proc])
        assert proc.returncode == -signal.SIGKILL, err
        # Ids already in the pipe were acknowledged too; a cut-off last line was not.
        ids += [line.strip() for line in rest.splitlines(keepends=True) if line.endswith("\n")]
        assert all(re.fullmatch(r"[0-9a-f]{12}", i) for i in ids), ids[-3:]
        acknowledged += ids

        with Memory(store_path, project="p") as mem:
            missing = [i for i in acknowledged if mem.store.get(i) is None]
            assert not missing, f"round {round_}: {len(missing)} acknowledged saves lost"
            assert mem.get(acknowledged[-1]).id == acknowledged[-1]
            assert mem.store.integrity_check() == "ok"
        con = check_integrity(store_path)
        try:
            entries = con.execute("SELECT count(*) FROM entries").fetchone()[0]
            audit = con.execute("SELECT count(*) FROM audit").fetchone()[0]
        finally:
            con.close()
        # An entry and its audit record commit together; at most one save per kill can
        # have committed without being acknowledged.
        assert entries == audit
        assert len(acknowledged) <= entries <= len(acknowledged) + round_ + 1


# == 4. damaged store files ==================================================================
def test_lost_header_is_moved_aside_and_a_new_store_started(cli: Cli, store_path: Path) -> None:
    # Whole pages of binary bytes: a store whose first page was destroyed, kept aside.
    garbage = random.Random(4).randbytes(4096)
    store_path.parent.mkdir(parents=True)
    store_path.write_bytes(garbage)

    proc = cli("save", "x")
    assert_ok(proc)
    kept = corrupt_siblings(store_path)
    assert len(kept) == 1, list(store_path.parent.iterdir())
    assert kept[0].read_bytes() == garbage, "the original bytes must be kept intact"
    notice = proc.stderr.strip().splitlines()
    assert len(notice) == 1, show(proc)
    assert str(kept[0]) in notice[0] and "new" in notice[0], show(proc)

    # The new store works, and says nothing more on the next run.
    listed = load_json(cli("list", "--json"))
    assert [e["content"] for e in listed] == ["x"]
    again = cli("save", "Deployment uses Kubernetes on the staging cluster")
    assert_ok(again)
    assert again.stderr == ""
    hits = load_json(cli("search", "kubernetes staging", "--json"))
    assert hits[0]["entry"]["content"] == "Deployment uses Kubernetes on the staging cluster"
    assert corrupt_siblings(store_path) == kept
    check_integrity(store_path).close()


@pytest.mark.parametrize("command", [("save", "x"), ("search", "x"), ("list",)])
@pytest.mark.parametrize("data", [b"hello", "我的笔记\n".encode() * 300], ids=["hello", "notes"])
def test_a_file_that_is_no_store_is_refused_untouched(
    cli: Cli, store_path: Path, command: tuple[str, ...], data: bytes
) -> None:
    store_path.parent.mkdir(parents=True)
    store_path.write_bytes(data)
    proc = cli(*command)
    assert proc.returncode == 1, show(proc)
    assert "not a remem store" in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, show(proc)
    assert store_path.read_bytes() == data
    assert sorted(p.name for p in store_path.parent.iterdir()) == [store_path.name]


def _damage(db: Path, start: int, end: int) -> bytes:
    with db.open("r+b") as fh:
        fh.seek(start)
        fh.write(random.Random(start).randbytes(end - start))
    return db.read_bytes()


def _assert_damage_reported(
    cli_proc: subprocess.CompletedProcess[str], db: Path, damaged: bytes
) -> None:
    """The damaged bytes survive (in place, or moved aside), the user is told in one line."""
    assert "Traceback" not in cli_proc.stderr, show(cli_proc)
    lines = cli_proc.stderr.strip().splitlines()
    assert len(lines) == 1, f"expected one line telling the user\n{show(cli_proc)}"
    kept = corrupt_siblings(db)
    if cli_proc.returncode == 0:
        # Moved aside: allowed only if said so and the damaged file is kept whole.
        assert len(kept) == 1, show(cli_proc)
        assert kept[0].read_bytes() == damaged
        assert str(kept[0]) in lines[0], show(cli_proc)
    else:
        assert kept == []
        assert db.read_bytes() == damaged, "a refused command must not touch the damaged store"
        assert "damaged" in lines[0].lower() or "malformed" in lines[0].lower(), show(cli_proc)


def test_store_with_garbage_over_bytes_4096_to_8192(cli: Cli, store_path: Path) -> None:
    fill_store(store_path, 120)
    damaged = _damage(store_path, 4096, 8192)
    proc = cli("save", "y")
    _assert_damage_reported(proc, store_path, damaged)


@pytest.mark.parametrize(
    "args",
    [("save", "a brand new memory"), ("search", "kubernetes"), ("list",)],
    ids=["save", "search", "list"],
)
def test_store_with_a_damaged_entries_page(
    cli: Cli, store_path: Path, args: tuple[str, ...]
) -> None:
    # Damage the root page of the entries table: the store still opens (the schema and
    # the migrations table are intact), the damage shows only when entries are read.
    fill_store(store_path, 120)
    con = sqlite3.connect(f"file:{store_path}?mode=ro", uri=True)
    root = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'entries'").fetchone()[0]
    page = con.execute("PRAGMA page_size").fetchone()[0]
    con.close()
    damaged = _damage(store_path, (root - 1) * page, root * page)
    proc = cli(*args)
    _assert_damage_reported(proc, store_path, damaged)


# == 5. a store the user may not write ======================================================
@dataclass(frozen=True)
class Unprivileged:
    uid: int
    gid: int
    python: str
    env_extra: dict[str, str]


def _import_path() -> str:
    """Where this environment's remem and its dependencies live, for another interpreter."""
    paths = [str(Path(remem.__file__).resolve().parents[1])]
    paths += [sysconfig.get_paths()[k] for k in ("purelib", "platlib")]
    return os.pathsep.join(dict.fromkeys(paths))


@pytest.fixture(scope="module")
def nobody() -> Unprivileged:
    if os.geteuid() != 0:
        pytest.skip("needs root, to run the CLI as the unprivileged user 'nobody'")
    try:
        pw = pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("there is no user 'nobody'")
    # This interpreter first; when nobody may not run it (a venv over a Python under
    # /root, mode 0700), the system interpreter of the same version on this venv's paths.
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    candidates = [(sys.executable, {})]
    system = shutil.which(f"python{version}", path="/usr/local/bin:/usr/bin:/bin")
    if system:
        candidates.append((system, {"PYTHONPATH": _import_path()}))
    failures = []
    for python, extra in candidates:
        try:
            probe = subprocess.run(
                [python, "-c", "import remem, click, rjieba"],
                capture_output=True,
                text=True,
                env=child_env(Path("/nonexistent"), HOME="/tmp", **extra),
                cwd="/tmp",
                user=pw.pw_uid,
                group=pw.pw_gid,
                extra_groups=[],
                timeout=TIMEOUT,
            )
        except OSError as exc:
            failures.append(f"{python}: {exc}")
            continue
        if probe.returncode == 0:
            return Unprivileged(pw.pw_uid, pw.pw_gid, python, extra)
        failures.append(f"{python}: {probe.stderr.strip().splitlines()[-1:]}")
    pytest.skip(f"user nobody cannot run a Python that imports remem: {failures}")


def folder_bytes(folder: Path) -> dict[str, str]:
    return {p.name: sha256(p) for p in sorted(folder.iterdir())}


@pytest.fixture(params=["db-only", "with-wal-and-shm"])
def readonly_store(nobody: Unprivileged, request: pytest.FixtureRequest) -> Iterator[Cli]:
    """A store with entries in a root-owned 0755 folder, and a CLI run as nobody.

    "with-wal-and-shm": the store's -wal and -shm files exist (root-owned, 0644), as they
    do while any process has the store open, and after a read-only reader closed it.
    Then SQLite can open the store for nobody, read-only, instead of refusing at once."""
    # Under /tmp, not pytest's tmp_path (its parents are 0700): nobody must reach it.
    folder = Path(tempfile.mkdtemp(prefix="remem-ro-", dir="/tmp"))
    try:
        folder.chmod(0o755)
        db = folder / "memory.db"
        with Memory(db, project=PROJECT) as mem:
            mem.save("项目使用 JDK 17 和 Maven")
            mem.save("Deployment uses Kubernetes on the staging cluster")
        db.chmod(0o644)
        if request.param == "with-wal-and-shm":
            con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
            assert con.execute("SELECT count(*) FROM entries").fetchone() == (2,)
            con.close()
        expected = ["memory.db", "memory.db-state"]  # (-state: what remem last left)
        if request.param == "with-wal-and-shm":
            expected[1:1] = ["memory.db-shm"]
            expected += ["memory.db-wal"]
        assert sorted(p.name for p in folder.iterdir()) == expected
        yield Cli(
            db=db,
            home=folder / "home",  # never created: --db is given
            python=nobody.python,
            env_extra={**nobody.env_extra, "HOME": str(folder)},
            user=nobody.uid,
            group=nobody.gid,
        )
    finally:
        shutil.rmtree(folder)


def test_readonly_store_refuses_save_in_one_line(readonly_store: Cli) -> None:
    folder = readonly_store.db.parent
    before = folder_bytes(folder)
    proc = readonly_store("save", "a memory nobody may write")
    assert_one_error_line(proc, None, str(readonly_store.db), "read-only")
    assert folder_bytes(folder) == before, "the store must be left exactly as it was"


def test_readonly_store_search(readonly_store: Cli) -> None:
    """A user who may read the store may search it (opened read-only), changing nothing."""
    folder = readonly_store.db.parent
    before = folder_bytes(folder)
    proc = readonly_store("search", "JDK", "--json")
    assert proc.returncode == 0, proc.stderr
    hits = json.loads(proc.stdout)
    assert [h["entry"]["content"] for h in hits] == ["项目使用 JDK 17 和 Maven"]
    assert folder_bytes(folder) == before


# == 6. bad input through the CLI ===========================================================
@pytest.fixture
def filled(cli: Cli, store_path: Path) -> Cli:
    with Memory(store_path, project=PROJECT) as mem:
        mem.save("项目使用 JDK 17 和 Maven")
        mem.save("Deployment uses Kubernetes on the staging cluster")
    return cli


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (("save", ""), None),
        (("save", "   "), None),
        (("save", " \t\n "), None),
        (("save", "-"), ""),
        (("save", "-"), "  \n\t\n"),
    ],
    ids=["empty", "spaces", "whitespace", "empty-stdin", "whitespace-stdin"],
)
def test_save_empty_content_is_refused(
    filled: Cli, store_path: Path, args: tuple[str, ...], stdin: str | None
) -> None:
    before = store_state(store_path)
    assert_one_error_line(filled(*args, input=stdin), 2, "empty")
    assert store_state(store_path) == before


def test_save_ten_megabytes_from_stdin_is_refused(filled: Cli, store_path: Path) -> None:
    before = store_state(store_path)
    ten_mb = "长文本 long text " * (10 * 1024 * 1024 // 14)  # 14 characters, 20 bytes
    proc = filled("save", "-", input=ten_mb)
    line = assert_one_error_line(proc, 2, "characters", "at most")
    assert len(line) < 300
    assert store_state(store_path) == before


def test_save_of_long_unbroken_chinese_is_fast(filled: Cli, store_path: Path) -> None:
    """Up to 32,000 characters are allowed; saving a quarter of that must not take long.
    8,000 characters of Chinese without spaces or punctuation (one piece for the BPE
    tokenizer) is the hard case; 32,000 characters of English words save in ~0.3 s.
    A short save first pays what any first command pays once (the tokenizer's table
    cached, the model's service started: ~3 s on a slow machine), so the limit is on
    the long text alone; a merge that grew with the square of its length took minutes."""
    assert_ok(filled("save", "短的一条：周五发版"))
    content = ("长期记忆存储在本地数据库里" * 700)[:8_000]
    try:
        proc = filled("save", "-", input=content, timeout=10)
    except subprocess.TimeoutExpired:
        pytest.fail("saving 8,000 characters of unbroken Chinese took over 10 s")
    assert_ok(proc)
    assert len(store_state(store_path).entries) == 4


def _entry(**fields: Any) -> dict[str, Any]:
    return {"content": "The build server runs Jenkins nightly", **fields}


IMPORT_CASES: dict[str, str | bytes | None] = {
    "not-json": "{not json",
    "truncated-json": '[{"content": "a"',
    "not-utf8": b'[{"content": "\xff"}]',
    "object-without-format": json.dumps({"a": 1}),
    "number": "42",
    "entries-not-a-list": json.dumps({"format": "remem-export", "version": 1, "entries": "x"}),
    "entry-not-an-object": json.dumps([5]),
    "bad-type-value": json.dumps([_entry(type="bogus")]),
    "bad-scope-value": json.dumps([_entry(scope="planet")]),
    "content-is-a-number": json.dumps([_entry(content=5)]),
    "unknown-field": json.dumps([_entry(colour="red")]),
    "importance-is-text": json.dumps([_entry(importance="high")]),
    "metadata-is-a-list": json.dumps([_entry(metadata=[1, 2])]),
    "created_at-not-a-date": json.dumps([_entry(created_at="yesterday")]),
    "created_at-is-a-number": json.dumps([_entry(created_at=5)]),
    "expires_at-is-a-number": json.dumps([_entry(expires_at=1700000000)]),
    "token_count-is-text": json.dumps([_entry(token_count="many")]),
    "entity-is-a-list": json.dumps([_entry(entity=["jenkins"])]),
    "project-is-a-number": json.dumps([_entry(project=7)]),
    "superseded_by-is-a-number": json.dumps([_entry(superseded_by=5)]),
    "empty-content": json.dumps([_entry(content="   ")]),
    "content-over-the-limit": json.dumps([_entry(content="many words of text " * 2_500)]),
    "audit-record-not-an-object": json.dumps(
        {"format": "remem-export", "version": 1, "entries": [_entry()], "audit": [5]}
    ),
    "valid-entries-then-a-bad-one": json.dumps(
        [_entry(), _entry(content="Releases are tagged on Fridays"), _entry(type="bogus")]
    ),
    "missing-file": None,
}


@pytest.mark.parametrize("case", list(IMPORT_CASES))
def test_bad_import_is_refused_and_writes_nothing(
    filled: Cli, tmp_path: Path, store_path: Path, case: str
) -> None:
    path = tmp_path / f"{case}.json"
    data = IMPORT_CASES[case]
    if data is not None:
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    before = store_state(store_path)
    proc = filled("import", str(path))
    assert_one_error_line(proc, 2, path.name)
    assert store_state(store_path) == before


@pytest.mark.parametrize(
    ("command", "entry_id"),
    [
        ("show", "deadbeefcafe"),
        ("delete", "deadbeefcafe"),
        ("verify", "deadbeefcafe"),
        ("history", "deadbeefcafe"),
        ("show", "zz"),  # too short to be a prefix
        ("delete", "dead"),  # a prefix of nothing
    ],
)
def test_unknown_id_is_one_line_and_exit_1(
    filled: Cli, store_path: Path, command: str, entry_id: str
) -> None:
    before = store_state(store_path)
    assert_one_error_line(filled(command, entry_id), 1, "no memory", entry_id)
    assert store_state(store_path) == before


OPEN_RACE = """
import sys, time
from remem import Memory
start = float(sys.argv[2])
while time.time() < start:
    pass
Memory(sys.argv[1], project="p").save("worker " + sys.argv[3] + " item" + sys.argv[3], force=True)
"""


@pytest.mark.parametrize("round_", range(3))
def test_many_processes_create_one_new_store_at_once(tmp_path: Path, round_: int) -> None:
    """Switching a brand-new file to WAL may be refused without waiting: opening retries."""
    db = tmp_path / f"new-{round_}" / "memory.db"
    start = time.time() + 1.0
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", OPEN_RACE, str(db), str(start), str(w)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for w in range(8)
    ]
    errors = [p.communicate(timeout=60)[1] for p in procs]
    assert [p.returncode for p in procs] == [0] * 8, errors
    with Memory(db, project="p") as mem:
        assert mem.stats().entries == 8
