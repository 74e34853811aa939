"""One secret check at the one door every write passes (issue 29, SPEC SE3): a secret in
the content, metadata, entity or facts is refused by `Store.insert` itself, so every path
that writes — Memory.save and "keep both", import, add-messages, the CLI, REST, the web
page's forms, MCP and the chat's save_memory — refuses it; `--force` (and force=True, the
REST import's ?force=true) is the only override; ordinary facts go through. Ledgers and
offloaded tool outputs keep the secret's value out of the files they write."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from click.testing import CliRunner

from remem import Memory
from remem.cli.app import cli
from remem.entry import Entry
from remem.errors import SecretRefused
from remem.store.protocol import Store
from remem.truth import index

SECRET = "The root password on the build box is now blu3-Harbor-88"
VALUE = "blu3-Harbor-88"
PROSE = [
    "部署机的 root 密码统一设成 Tr0ub4dor&3",
    "数据库密码分两段记：前半段 Qz81，后半段 kLm7",
    "我的银行卡号是 6222 0212 3456 7890 123",
    "The shared admin password is purplemonkey",
]
FACT = "The password policy requires 12 characters"


def everything(mem: Memory) -> str:
    """Every stored entry, every field, as one text (what is on disk, near enough)."""
    rows = [[e.content, e.entity, e.facts, e.metadata] for e in mem.store.iter_all()]
    return json.dumps(rows, ensure_ascii=False)


# -- the door itself ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "fields",
    [
        {"content": SECRET},
        {"content": "备注 alpha", "metadata": {"note": SECRET}},
        {"content": "备注 beta", "metadata": {"deep": [{"password": "hunter2-x"}]}},
        {"content": "备注 gamma", "entity": SECRET},
        {"content": "备注 delta", "facts": {"wifi password": "sunflower42"}},
    ],
)
def test_the_store_refuses_a_secret_in_any_field(store: Store, fields: dict[str, Any]) -> None:
    entry = Entry(**fields)
    with pytest.raises(SecretRefused) as caught:
        store.insert(entry, index.fields(entry), action="add", detail={})
    assert VALUE not in str(caught.value) and "hunter2-x" not in str(caught.value)
    assert store.get(entry.id) is None
    store.insert(entry, index.fields(entry), action="add", detail={}, allow_secret=True)
    assert store.get(entry.id) is not None
    assert store.audit(entry.id)[-1].detail.get("secret_forced") is True


def test_an_ordinary_entry_goes_in_without_a_mark(store: Store) -> None:
    entry = Entry(content=FACT, metadata={"note": "I reset my password yesterday"})
    store.insert(entry, index.fields(entry), action="add", detail={})
    assert store.get(entry.id) is not None
    assert "secret_forced" not in store.audit(entry.id)[-1].detail


def test_an_update_passes_the_same_door(store: Store) -> None:
    entry = Entry(content="The build box runs Debian 12", metadata={"note": "plain"})
    store.insert(entry, index.fields(entry), action="add", detail={})
    changes = [("content", SECRET), ("metadata", {"note": PROSE[1]}), ("entity", PROSE[0]),
               ("facts", {"note": "the safe opens with 36-12-48"})]  # fmt: skip
    for field, value in changes:
        changed = Entry.from_dict({**entry.to_dict(), field: value})
        with pytest.raises(SecretRefused):
            store.update(changed, index.fields(changed), action="update", detail={})
        kept = store.get(entry.id)
        assert kept is not None and VALUE not in json.dumps(kept.to_dict(), ensure_ascii=False)
        assert kept.content == entry.content and kept.metadata == {"note": "plain"}
    changed = Entry.from_dict({**entry.to_dict(), "content": SECRET})
    store.update(changed, index.fields(changed), action="update", detail={}, allow_secret=True)
    forced = store.get(entry.id)
    assert forced is not None and forced.content == SECRET
    forced.last_verified_at = forced.created_at  # a verify or supersede of a --force'd row
    store.update(forced, index.fields(forced), action="verify", detail={})


# -- the library ------------------------------------------------------------------------------
@pytest.mark.parametrize("secret", [SECRET, *PROSE])
def test_memory_save_refuses_in_every_field_and_keep_both(mem: Memory, secret: str) -> None:
    for kwargs in (
        {}, {"force": True, "allow_secret": False}, {"metadata": {"note": secret}},
        {"entity": secret}, {"facts": {"note": secret}},
    ):  # fmt: skip
        content = secret if not kwargs or "force" in kwargs else "备注 kappa"
        with pytest.raises(SecretRefused):
            mem.save(content, **kwargs)  # type: ignore[arg-type]
    assert mem.list() == []
    assert mem.save(secret, force=True).status == "added"  # --force: the one override


def test_a_replace_and_an_edit_pass_the_door_too(mem: Memory) -> None:
    old = mem.save("The build box runs Debian 12").entry
    with pytest.raises(SecretRefused):
        mem.save(SECRET, replace_id=old.id)
    assert [e.content for e in mem.list()] == ["The build box runs Debian 12"]


def test_import_refuses_secrets_in_metadata_entity_and_facts(mem: Memory, tmp_path: Path) -> None:
    doc = tmp_path / "in.json"
    items = [{"content": SECRET}, {"content": "导入 one", "metadata": {"note": SECRET}},
             {"content": "导入 two", "entity": PROSE[0]}, {"content": "导入 three",
             "facts": {"note": PROSE[1]}}, {"content": FACT}]  # fmt: skip
    doc.write_text(json.dumps(items, ensure_ascii=False), encoding="utf-8")
    done = mem.import_(doc)
    assert [e.content for e in done.added] == [FACT] and len(done.refused) == 4
    assert all(VALUE not in r.reason for r in done.refused)
    assert VALUE not in everything(mem) and "Tr0ub4dor" not in everything(mem)
    assert len(mem.import_(doc, force=True).added) == 4  # --force imports them


def test_import_checks_the_audit_log_and_linked_paths_and_rereads_subjects(
    mem: Memory, tmp_path: Path
) -> None:
    doc = tmp_path / "in.json"
    pin = {"content": "The kiwi service listens on port 7018", "id": "123412341234"}
    path = {"content": "Otter notes are archived weekly", "linked_paths": ["/tmp/bank-pin-2272"]}
    told = {"content": "Ferret notes are archived weekly", "subject": "bank PIN", "value": "7838"}
    audit = [{"entry_id": "123412341234", "action": "add", "at": "2026-01-01T00:00:00Z",
              "detail": {"note": "my bank PIN is 1161"}}]  # fmt: skip
    export = {"format": "remem-export", "version": 1, "entries": [pin, path, told], "audit": audit}
    doc.write_text(json.dumps(export), encoding="utf-8")
    done = mem.import_(doc)
    assert sorted(r.reason.split(" looks")[0] for r in done.refused) == [
        "its audit log", "its linked path"
    ]  # fmt: skip
    [ferret] = done.added  # its subject is what its text says, not what the file said
    claim = mem.subjects(told["content"])
    assert claim is not None and (ferret.subject, ferret.value) == (claim.subject, claim.value)
    stored = everything(mem) + json.dumps([e.to_dict() for e in mem.store.iter_all()])
    stored += json.dumps([r.detail for r in mem.store.audit()])
    assert "1161" not in stored and "7838" not in stored and "2272" not in stored
    assert len(mem.import_(doc, force=True).added) == 2  # --force imports them


def test_an_audit_record_of_versions_is_not_a_secret() -> None:
    from remem.entry import new_id
    from remem.secrets_door import detail_secrets

    for action in ("add", "update", "supersede", "import", "delete", "verify"):
        for _ in range(100):  # ids are random hex: the model alone may suspect one
            ids = {"by": new_id(), "supersedes": new_id(), "removed": new_id()}
            assert detail_secrets({"action": action, "detail": ids}) == [], ids
    assert detail_secrets({"action": "add", "detail": {"note": "my bank PIN is 1161"}})


def test_a_linked_path_that_names_a_secret_is_refused_and_a_plain_one_kept(mem: Memory) -> None:
    with pytest.raises(SecretRefused):
        mem.save("The yak notes live in the wiki", linked_paths=["/tmp/x/pin-is-8050.txt"])
    plain = ["/srv/pin-codes/2024/report.md", "/home/u/src/app/v2/main.py", "/tmp/card-reader",
             "/srv/data/6a9ebfd9-bd01-4e4a-b8f9-e28172f0649d.csv", "/srv/token_b6999f9c.json",
             "/home/u/pin-tool/v13/key_8d6287779d33.pem"]  # fmt: skip
    assert mem.save("The yak notes live in the wiki", linked_paths=plain).status == "added"


def test_add_messages_keeps_a_refused_turn_out_of_its_neighbours(mem: Memory) -> None:
    said = [
        {"role": "user", "content": "Can you help me set up the build box?"},
        {"role": "assistant", "content": "Sure, what do you need?"},
        {"role": "user", "content": SECRET},
        {"role": "assistant", "content": "Got it, I will use it for the deploy."},
    ]
    results = mem.add_messages(said)
    assert [r.status for r in results] == ["added", "added", "refused", "added"]
    assert VALUE not in everything(mem)
    before, after = results[1].entry, results[3].entry
    assert "reply" not in before.metadata and "context" not in after.metadata
    assert results[0].entry.metadata["reply"] == "Sure, what do you need?"


def test_a_turns_own_metadata_is_checked(mem: Memory) -> None:
    said = [{"role": "user", "content": "Deploy on Friday", "metadata": {"note": PROSE[0]}}]
    assert [r.status for r in mem.add_messages(said)] == ["refused"]
    assert "Tr0ub4dor" not in everything(mem)


# -- the command line ---------------------------------------------------------------------------
def run(db: Path, *args: str) -> Any:
    return CliRunner().invoke(cli, ["--db", str(db), "--project", "p", *args])


def test_cli_save_edit_and_import(db: Path, tmp_path: Path) -> None:
    refused = run(db, "save", SECRET)
    assert refused.exit_code == 1 and "--force" in refused.output and VALUE not in refused.output
    assert run(db, "save", FACT).exit_code == 0
    with Memory(db, project="p") as mem:
        fact = mem.list()[0]
    assert run(db, "edit", fact.id, PROSE[0]).exit_code == 1
    doc = tmp_path / "in.json"
    doc.write_text(json.dumps([{"content": PROSE[1]}], ensure_ascii=False), encoding="utf-8")
    imported = run(db, "import", "--json", str(doc))
    assert imported.exit_code == 0 and json.loads(imported.output)["refused"]
    with Memory(db, project="p") as mem:
        assert [e.content for e in mem.list()] == [FACT]
    assert run(db, "save", "--force", SECRET).exit_code == 0
    assert run(db, "import", "--force", str(doc)).exit_code == 0
    with Memory(db, project="p") as mem:
        assert {SECRET, PROSE[1]} <= {e.content for e in mem.list()}


# -- REST and the web page ------------------------------------------------------------------
@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[httpx.Client, httpx.Client, Path]]:
    from remem.servers.auth import issue_token
    from remem.servers.backend import Backend
    from remem.servers.http import build_app, running
    from remem.settings import Settings

    db = tmp_path / "srv.db"
    backend = Backend(Settings.resolve(db=db, project="p"))
    token = issue_token(backend.store, "alice")[0]
    try:
        with running(build_app(backend)) as url:
            auth = {"Authorization": f"Bearer {token}"}
            with httpx.Client(base_url=url, headers=auth, timeout=30) as api, httpx.Client(
                base_url=url, timeout=30, follow_redirects=False
            ) as web:  # fmt: skip
                form = re.search(r'name="login_csrf" value="([^"]+)"', web.get("/login").text)
                assert form is not None
                login = {"token": token, "login_csrf": form.group(1)}
                assert web.post("/login", data=login).status_code == 303
                yield api, web, db
    finally:
        backend.close()


def test_rest_refuses_every_field_keep_both_patch_and_import(served: Any) -> None:
    api, _, db = served
    for body in ({"content": SECRET}, {"content": SECRET, "keep_both": True},
                 {"content": "记录 one", "metadata": {"note": SECRET}},
                 {"content": "记录 two", "entity": PROSE[0]}):  # fmt: skip
        refused = api.post("/api/memories", json=body)
        assert refused.status_code == 422 and VALUE not in refused.text
    base = api.post("/api/memories", json={"content": FACT})
    assert base.status_code == 201
    assert api.patch(f"/api/memories/{base.json()['entry']['id']}",
                     json={"content": PROSE[3]}).status_code == 422  # fmt: skip
    items = [{"content": PROSE[2]}, {"content": "导入 x", "facts": {"note": PROSE[1]}}]
    done = api.post("/api/import", json=items).json()
    assert done["added"] == 0 and len(done["refused"]) == 2
    with Memory(db, project="p", user_id="alice") as mem:
        assert [e.content for e in mem.list()] == [FACT]
    assert api.post("/api/import?force=true", json=items).json()["added"] == 2


def test_the_web_pages_save_keep_both_and_edit_forms(served: Any) -> None:
    api, web, db = served
    found = re.search(r'name="csrf" value="([0-9a-f]+)"', web.get("/").text)
    assert found is not None
    csrf = found.group(1)
    for form in ({"content": SECRET}, {"content": SECRET, "keep_both": "1"},
                 {"content": PROSE[1], "keep_both": "1"}):  # fmt: skip
        answer = web.post("/memories", data={"csrf": csrf, **form})
        assert answer.status_code == 422 and VALUE not in answer.text
    base = api.post("/api/memories", json={"content": FACT}).json()["entry"]
    edited = web.post(f"/m/{base['id']}/edit", data={"csrf": csrf, "content": PROSE[0]})
    assert edited.status_code == 422
    assert web.post("/memories", data={"csrf": csrf, "content": "网页 ok"}).status_code == 303
    with Memory(db, project="p", user_id="alice") as mem:
        assert sorted(e.content for e in mem.list()) == sorted([FACT, "网页 ok"])


# -- the model's tools ---------------------------------------------------------------------------
def test_mcp_and_chat_save_memory_refuse_even_with_keep_both(mem: Memory, tmp_path: Path) -> None:
    from remem.agent.manager import MemoryManager
    from remem.agent.tools import Toolbox
    from remem.servers.mcp import MemoryTools

    tools = MemoryTools(mem)
    guard = tools.guard("client")
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    box = Toolbox(root, manager=MemoryManager(mem, root=root, home=root / ".home"),
                  user_text=lambda: "记住这个")  # fmt: skip
    for secret in (SECRET, *PROSE):
        for keep_both in (False, True):
            with pytest.raises(SecretRefused):
                tools.save(guard, secret, keep_both=keep_both)
            out = box.run("save_memory", {"content": secret, "keep_both": keep_both})
            assert out.startswith("refused: not saved")
    assert mem.list() == []
    assert tools.save(guard, FACT)["status"] == "added"


# -- files beside the project ---------------------------------------------------------------------
def test_ledgers_and_offloads_keep_no_prose_secret(tmp_path: Path) -> None:
    from remem.context.ledger import SessionLedger
    from remem.context.offload import Offloader

    root = tmp_path / "proj"
    root.mkdir()
    with SessionLedger(root) as ledger:
        off = Offloader(root, ledger.id)
        for secret in (SECRET, *PROSE):
            ledger.message({"role": "user", "content": f"帮我连一下：{secret}"})
            off.process("execute_command", f"{secret}\n" + "." * 9000)
        ledger.message({"role": "user", "content": FACT})
    text = ledger.path.read_text(encoding="utf-8")
    text += "".join(p.read_text(encoding="utf-8") for p in off.folder.glob("*.txt"))
    for value in (VALUE, "Tr0ub4dor&3", "Qz81", "kLm7", "6222 0212 3456 7890 123", "purplemonkey"):
        assert value not in text
    assert FACT in text
