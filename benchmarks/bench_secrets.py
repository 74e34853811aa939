"""Secrets through every door (issue 29): each secret statement is sent through every path a
user or a model can write by, and each ordinary fact through the same paths; it prints, per
path, how many secrets were stored (target 0) and how many ordinary facts were refused
(false positives, target <= 2%).

    .venv/bin/python benchmarks/bench_secrets.py                      # benchmarks/data corpora
    .venv/bin/python benchmarks/bench_secrets.py --secrets S.txt --benign B.txt   # any pair
    .venv/bin/python benchmarks/bench_secrets.py --quick              # the library doors only
    .venv/bin/python benchmarks/bench_secrets.py --json out.json

Files: one item a line, `#` comments; --secrets and --benign may each be given several
times. The doors: Memory.save (content, metadata, entity, facts), the CLI's save and
import, REST save / keep_both / metadata / entity / import / PATCH, the web page's save,
"keep both" and edit forms, MCP save_memory, the chat's save_memory tool, add-messages (the
secret turn and the reply after it), the session ledger and offloaded tool outputs. A
`--force` row shows the one override still stores.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import sys
import tempfile
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))  # this tree's remem, not the installed one

from remem import Memory  # noqa: E402
from remem.errors import RememError, SecretRefused  # noqa: E402

DATA = HERE / "data"
SECRETS = ("secrets.txt", "secrets_prose.txt")
BENIGN = ("benign_facts.txt", "benign_prose.txt")
Row = dict[str, Any]
Door = Callable[[str], str]  # sends one text: "stored", "refused" (a secret) or "other"


def corpus(paths: list[Path]) -> list[str]:
    out: list[str] = []
    for path in paths:
        lines = path.read_text(encoding="utf-8").splitlines()
        out += [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    return list(dict.fromkeys(out))


def label(text: str) -> str:
    """A made-up word for `text`: a carrier content of its own, with no number in it (two
    carriers differing in a number read as a conflict, not as two memories)."""
    n = zlib.crc32(text.encode("utf-8"))  # not hash(): salted per process, so one run's
    # carriers differed from the next one's and some read as conflicts of others
    return "".join("bcdfghjklmnpqrstvwxz"[(n >> (5 * i)) % 20] + "aeiou"[i % 5] for i in range(6))


def outcome(status: str) -> str:
    return {"refused": "refused", "conflict": "other"}.get(status, "stored")


def stored_anywhere(mem: Memory, text: str) -> bool:
    """`text` (or its own words, for a turn) in any stored entry's content or metadata."""
    for entry in mem.store.iter_all():
        blob = json.dumps([entry.content, entry.entity, entry.facts, entry.metadata],
                          ensure_ascii=False)  # fmt: skip
        if text in blob or json.dumps(text, ensure_ascii=False)[1:-1] in blob:
            return True
    return False


# -- the library's doors ------------------------------------------------------------------
def library_doors(mem: Memory, tmp: Path) -> dict[str, Door]:
    def save(**fields: Any) -> Door:
        def send(text: str) -> str:
            try:
                kw = {k: (text if v is None else v) for k, v in fields.items()}
                if "metadata" in kw:
                    kw["metadata"] = {"note": text}
                if "facts" in kw:
                    kw["facts"] = {"note": text}
                content = kw.pop("content", None) or f"附注 {label(text)} note"
                return outcome(mem.save(content, **kw).status)
            except SecretRefused:
                return "refused"
            except RememError:
                return "other"

        return send

    def imported(field: str) -> Door:
        def send(text: str) -> str:
            item: dict[str, Any] = {"content": text}
            if field != "content":
                item = {"content": f"导入 {label(text)} item", field: text}
                if field in ("metadata", "facts"):
                    item[field] = {"note": text}
            doc = tmp / "one.json"
            doc.write_text(json.dumps([item], ensure_ascii=False), encoding="utf-8")
            try:
                done = mem.import_(doc)
            except RememError:
                return "other"
            return "stored" if done.added else "refused" if done.refused else "other"

        return send

    def turns(text: str) -> str:
        reply = f"好的，我记下了 {label(text)}。OK, noted."
        said = [{"role": "user", "content": text}, {"role": "assistant", "content": reply}]
        try:
            results = mem.add_messages(said)
        except RememError:
            return "other"
        if results[0].status != "refused" or stored_anywhere(mem, text):
            return "stored"
        return "refused"

    return {
        "Memory.save content": save(content=None),
        "Memory.save keep both (force=True, allow_secret=False)": save(
            content=None, force=True, allow_secret=False
        ),
        "Memory.save metadata": save(metadata=None),
        "Memory.save entity": save(entity=None),
        "Memory.save facts": save(facts=None),
        "Memory.import_ content": imported("content"),
        "Memory.import_ metadata": imported("metadata"),
        "Memory.import_ entity": imported("entity"),
        "Memory.import_ facts": imported("facts"),
        "add-messages (the turn, then a reply)": turns,
    }


def model_doors(mem: Memory, root: Path) -> dict[str, Door]:
    from remem.agent.manager import MemoryManager
    from remem.agent.tools import Toolbox
    from remem.servers.mcp import MemoryTools

    tools = MemoryTools(mem)
    guard = tools.guard("bench-client")
    mm = MemoryManager(mem, root=root, home=root / ".home")
    box = Toolbox(root, manager=mm, user_text=lambda: "记住这个 remember this")

    def mcp(keep_both: bool) -> Door:
        def send(text: str) -> str:
            try:
                out = tools.save(guard, text, keep_both=keep_both, user_requested=True,
                                 user_text=text)  # fmt: skip
            except SecretRefused:
                return "refused"
            except RememError:
                return "other"
            return outcome(str(out["status"]))

        return send

    def chat(keep_both: bool) -> Door:
        def send(text: str) -> str:
            out = box.run("save_memory", {"content": text, "keep_both": keep_both})
            if out.startswith("refused: not saved"):
                return "refused"
            return "other" if out.startswith(("refused", "CONFLICT")) else "stored"

        return send

    return {
        "MCP save_memory": mcp(False),
        "MCP save_memory keep_both": mcp(True),
        "chat save_memory tool": chat(False),
        "chat save_memory tool keep_both": chat(True),
    }


def file_doors(root: Path) -> dict[str, Door]:
    """Files beside a project: a secret counts as kept when its line is on disk unchanged."""
    from remem.context.ledger import SessionLedger
    from remem.context.offload import Offloader

    ledger = SessionLedger(root)
    off = Offloader(root, ledger.id)

    def ledgered(text: str) -> str:
        ledger.message({"role": "user", "content": f"帮我连一下：{text}"})
        raw = ledger.path.read_text(encoding="utf-8")  # JSON lines: a quote is escaped there
        kept = text in raw or json.dumps(text, ensure_ascii=False)[1:-1] in raw
        return "stored" if kept else "refused"

    def offloaded(text: str) -> str:
        out = off.process("execute_command", f"{text}\n" + "." * 9000)
        if out.path is None:
            return "other"
        return "stored" if text in out.path.read_text(encoding="utf-8") else "refused"

    return {"session ledger": ledgered, "offloaded tool output": offloaded}


# -- the command line ----------------------------------------------------------------------
def cli_doors(db: Path, tmp: Path, force: bool = False) -> dict[str, Door]:
    from click.testing import CliRunner

    from remem.cli.app import cli

    runner = CliRunner()
    base = ["--db", str(db.with_suffix(".save.db")), "--project", "p"]
    import_base = ["--db", str(db.with_suffix(".import.db")), "--project", "p"]  # its own store

    def save(text: str) -> str:
        args = [*base, "save", *(["--force"] if force else []), "--json", "--", text]
        done = runner.invoke(cli, args)
        if "memories should not keep secrets" in done.output:
            return "refused"
        if done.exit_code != 0:
            return "other"
        return outcome(json.loads(done.output)["status"])

    def imported(text: str) -> str:
        doc = tmp / "cli.json"
        doc.write_text(json.dumps([{"content": text}], ensure_ascii=False), encoding="utf-8")
        args = [*import_base, "import", *(["--force"] if force else []), "--json", str(doc)]
        done = runner.invoke(cli, args)
        if done.exit_code != 0:
            return "other"
        data = json.loads(done.output)
        return "stored" if data.get("added") else "refused" if data.get("refused") else "other"

    suffix = " --force (the override)" if force else ""
    return {f"CLI save{suffix}": save, f"CLI import{suffix}": imported}


# -- the server: REST and the web page ----------------------------------------------------
@contextmanager
def server(db: Path) -> Iterator[tuple[Any, Any]]:
    import httpx2 as httpx

    from remem.servers.auth import issue_token
    from remem.servers.backend import Backend
    from remem.servers.http import build_app, running
    from remem.settings import Settings

    backend = Backend(Settings.resolve(db=db, project="p"))
    for name in ("httpx", "httpx2", "mcp", "uvicorn", "uvicorn.access"):
        logging.getLogger(name).setLevel(logging.WARNING)  # a line a request otherwise
    token = issue_token(backend.store, "alice")[0]
    try:
        with running(build_app(backend)) as url:
            auth = {"Authorization": f"Bearer {token}"}
            with httpx.Client(base_url=url, headers=auth, timeout=60) as api, httpx.Client(
                base_url=url, timeout=60, follow_redirects=False
            ) as web:  # fmt: skip
                web.post("/login", data={"token": token})
                yield api, web
    finally:
        backend.close()


def status(code: int) -> str:
    """A server's answer: 422 is the secret refusal (409 a conflict, nothing written)."""
    return "stored" if code in (200, 201, 303) else "refused" if code == 422 else "other"


def server_doors(api: Any, web: Any) -> dict[str, Door]:
    def csrf() -> str:
        found = re.search(r'name="csrf" value="([0-9a-f]+)"', web.get("/").text)
        return found.group(1) if found else ""

    token = csrf()

    def rest(**fields: Any) -> Door:
        def send(text: str) -> str:
            body = {k: (text if v is None else v) for k, v in fields.items()}
            body.setdefault("content", f"记录 {label(text)} record")
            if "metadata" in body:
                body["metadata"] = {"note": text}
            return status(api.post("/api/memories", json=body).status_code)

        return send

    def rest_import(field: str) -> Door:
        def send(text: str) -> str:
            item: dict[str, Any] = {"content": text} if field == "content" else {
                "content": f"导入 {label(text)} item", field: {"note": text}}  # fmt: skip
            if field == "entity":
                item["entity"] = text
            done = api.post("/api/import", json=[item])
            if done.status_code != 200:
                return "other"
            data = done.json()
            return "stored" if data["added"] else "refused" if data["refused"] else "other"

        return send

    base = api.post("/api/memories", json={"content": "补丁基线 patch base"}).json()["entry"]

    def patch(text: str) -> str:
        done = api.patch(f"/api/memories/{base['id']}", json={"content": text})
        if done.status_code == 200:
            base.update(done.json()["entry"])
        return status(done.status_code)

    def form(keep_both: bool) -> Door:
        def send(text: str) -> str:
            data = {"csrf": token, "content": text, **({"keep_both": "1"} if keep_both else {})}
            return status(web.post("/memories", data=data).status_code)

        return send

    page_base = api.post("/api/memories", json={"content": "网页基线 page base"}).json()["entry"]

    def edit(text: str) -> str:
        done = web.post(f"/m/{page_base['id']}/edit", data={"csrf": token, "content": text})
        if done.status_code == 303:
            page_base["id"] = done.headers["location"].split("/m/")[1].split("?")[0]
        return status(done.status_code)

    return {
        "REST save": rest(content=None),
        "REST save keep_both": rest(content=None, keep_both=True),
        "REST save metadata": rest(metadata=None),
        "REST save entity": rest(entity=None),
        "REST import content": rest_import("content"),
        "REST import metadata": rest_import("metadata"),
        "REST import entity": rest_import("entity"),
        "REST import facts": rest_import("facts"),
        "REST PATCH": patch,
        "web save form": form(False),
        "web keep both": form(True),
        "web edit form": edit,
    }


# -- running ------------------------------------------------------------------------------
def measure(name: str, door: Door, texts: list[str], want: str) -> Row:
    """`want` "refused" for secrets (a stored one is wrong), "stored" for facts and for
    --force (a refused one is wrong; a conflict or duplicate is neither)."""
    got = {t: door(t) for t in texts}
    bad = "stored" if want == "refused" else "refused"
    wrong = [t for t, o in got.items() if o == bad]
    return {"path": name, "tried": len(texts), "stored": sum(o == "stored" for o in got.values()),
            "refused": sum(o == "refused" for o in got.values()), "wrong": len(wrong),
            "examples": wrong[:5]}  # fmt: skip


def run(secrets: list[str], benign: list[str], *, quick: bool) -> tuple[list[Row], list[Row]]:
    found, false = [], []
    with tempfile.TemporaryDirectory(prefix="remem-bench-secrets-") as name:
        tmp = Path(name)

        def each(label: str, build: Callable[[Memory, Path], dict[str, Door]]) -> None:
            for which, texts, want, out in (("s", secrets, "refused", found),
                                            ("b", benign, "stored", false)):  # fmt: skip
                root = tmp / f"{label}-{which}"
                (root / ".git").mkdir(parents=True)
                for door_name, door in build_one(build, root):
                    out.append(measure(door_name, door, texts, want))

        each("lib", lambda mem, root: library_doors(mem, root))
        each("model", model_doors)
        each("files", lambda mem, root: file_doors(root))
        if quick:
            return found, false
        for which, texts, want, out in (("s", secrets, "refused", found),
                                        ("b", benign, "stored", false)):  # fmt: skip
            for force in (False, True):
                for door_name, door in cli_doors(tmp / f"cli-{which}-{force}.db", tmp,
                                                 force).items():  # fmt: skip
                    if force and want == "stored":
                        continue
                    row = measure(door_name, door, texts, "stored" if force else want)
                    out.append(row)
            for door_name in server_names():
                with server(tmp / f"srv-{which}-{abs(hash(door_name))}.db") as (api, web):
                    door = server_doors(api, web)[door_name]
                    out.append(measure(door_name, door, texts, want))
    return found, false


def server_names() -> list[str]:
    return ["REST save", "REST save keep_both", "REST save metadata", "REST save entity",
            "REST import content", "REST import metadata", "REST import entity",
            "REST import facts", "REST PATCH", "web save form", "web keep both",
            "web edit form"]  # fmt: skip


def build_one(
    build: Callable[[Memory, Path], dict[str, Door]], root: Path
) -> Iterator[tuple[str, Door]]:
    """Each door of `build` on its own new store (a secret stored by one door must not make
    the next door's try a duplicate)."""
    names = list(build(Memory(root / "probe.db", project="p", embedder=None), root))
    for i, door_name in enumerate(names):
        mem = Memory(root / f"door{i}.db", project="p", embedder=None)
        sub = root / f"door{i}"
        (sub / ".git").mkdir(parents=True, exist_ok=True)
        yield door_name, build(mem, sub)[door_name]


def detector(secrets: list[str], benign: list[str]) -> tuple[int, int, float]:
    from remem.secrets import find_secrets

    for text in secrets + benign:  # the patterns compile on first use: each rule a text reaches
        find_secrets(text, contacts=False)
    start = time.perf_counter()
    # what the door refuses at a user's save: secrets, not contacts (those only in automatic ones)
    missed = sum(not find_secrets(s, contacts=False) for s in secrets)
    flagged = sum(bool(find_secrets(b, contacts=False)) for b in benign)
    per = (time.perf_counter() - start) / max(1, len(secrets) + len(benign)) * 1000
    return missed, flagged, per


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--secrets", type=Path, action="append", help="secret statements")
    parser.add_argument("--benign", type=Path, action="append", help="ordinary facts")
    parser.add_argument("--quick", action="store_true", help="library, model and file doors")
    parser.add_argument("--detector", action="store_true", help="only the detector's figures")
    parser.add_argument("--json", type=Path, help="write the rows as JSON here")
    args = parser.parse_args(argv)
    os.environ.setdefault("REMEM_HOME", tempfile.mkdtemp(prefix="remem-bench-"))
    os.environ["REMEM_EMBEDDER"] = "none"  # the doors, not the model: keywords only
    secrets = corpus(args.secrets or [DATA / n for n in SECRETS])
    benign = corpus(args.benign or [DATA / n for n in BENIGN])
    missed, flagged, per = detector(secrets, benign)
    print(f"detector: {len(secrets) - missed}/{len(secrets)} secrets found "
          f"({(len(secrets) - missed) / max(1, len(secrets)):.1%}), {flagged}/{len(benign)} "
          f"ordinary facts flagged ({flagged / max(1, len(benign)):.1%}), "
          f"{per:.2f} ms a text")  # fmt: skip
    if args.detector:
        return 0
    found, false = run(secrets, benign, quick=args.quick)
    print(f"\n{'path':58} {'secrets':>8} {'stored':>7}   {'facts':>6} {'refused':>8}")
    by_path = {r["path"]: r for r in false}
    for r in found:
        fp = by_path.get(r["path"])
        facts = f"{fp['tried']:>6} {fp['wrong']:>8}" if fp else f"{'':>6} {'':>8}"
        print(f"{r['path'][:58]:58} {r['tried']:>8} {r['stored']:>7}   {facts}")
    if args.json:
        doc = {"secrets": found, "benign": false}
        args.json.write_text(json.dumps(doc, ensure_ascii=False, indent=1), encoding="utf-8")
    leaks = sum(r["stored"] for r in found if "--force" not in r["path"])
    fps = sum(r["wrong"] for r in false)
    tried = sum(r["tried"] for r in false) or 1
    print(f"\nsecrets stored without --force: {leaks} (target 0); ordinary facts refused: "
          f"{fps}/{tried} = {fps / tried:.1%} (target <= 2%)")  # fmt: skip
    return 0 if leaks == 0 and fps / tried <= 0.02 else 1


if __name__ == "__main__":
    sys.exit(main())
