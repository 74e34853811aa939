"""`remem serve` through a real uvicorn server on 127.0.0.1, driven by an HTTP client:
every REST endpoint, tokens (401 without one, 403 for a read-only one's writes),
partitions between users, MCP over streamable HTTP at /mcp, and the CLI around it.
The API tests run on both backends (SQLite file, PostgreSQL test server)."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx2 as httpx
import pytest
from click.testing import CliRunner

import remem
from remem.cli.app import cli
from remem.servers.auth import is_loopback, issue_token
from remem.servers.backend import Backend
from remem.servers.http import build_app, running
from remem.settings import Settings


@dataclass
class Team:
    """A running server and clients for alice, bob and a read-only token of alice's."""

    url: str
    backend: Backend
    tokens: dict[str, str]

    def client(self, who: str | None, **kwargs: Any) -> httpx.Client:
        headers = {"Authorization": f"Bearer {self.tokens[who]}"} if who else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=30, **kwargs)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.slow)])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "store" / "memory.db")
    return str(request.getfixturevalue("pg_url"))


def start(location: str) -> Iterator[Team]:
    backend = Backend(Settings.resolve(db=location, project="p"))
    tokens = {
        "alice": issue_token(backend.store, "alice")[0],
        "bob": issue_token(backend.store, "bob")[0],
        "reader": issue_token(backend.store, "alice", read_only=True)[0],
    }
    try:
        with running(build_app(backend)) as url:
            yield Team(url, backend, tokens)
    finally:
        backend.close()


@pytest.fixture
def team(location: str) -> Iterator[Team]:
    yield from start(location)


@pytest.fixture
def sqlite_team(tmp_path: Path) -> Iterator[Team]:
    yield from start(str(tmp_path / "store" / "memory.db"))


def ok(response: httpx.Response, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def save(c: httpx.Client, content: str, status: int = 201, **fields: Any) -> dict[str, Any]:
    return ok(c.post("/api/memories", json={"content": content, **fields}), status)  # type: ignore[no-any-return]


# -- every endpoint --------------------------------------------------------------------------
@pytest.mark.slow
def test_every_endpoint_does_what_the_library_does(team: Team) -> None:
    with team.client("alice") as c:
        assert ok(c.get("/api/me")) == {
            "token": team.tokens["alice"][4:12], "user": "alice", "agent": None,
            "read_only": False, "project": "p",
        }  # fmt: skip
        first = save(c, "项目使用 JDK 17 和 Maven")
        assert first["status"] == "added" and first["entry"]["user_id"] == "alice"
        old = first["entry"]["id"]
        assert save(c, "项目使用 JDK 17 和 Maven", 200)["status"] == "duplicate"
        clash = save(c, "项目使用 JDK 21", 409)
        assert clash["status"] == "conflict" and [e["id"] for e in clash["conflicts"]] == [old]
        assert clash["reasons"]
        replaced = save(c, "项目使用 JDK 21", 200, replace_id=old[:6])
        assert replaced["status"] == "replaced" and replaced["replaced"]["id"] == old
        new = replaced["entry"]["id"]
        both = save(c, "项目使用 JDK 11", 201, keep_both=True, type="fact")
        assert both["status"] == "added"
        save(c, "回答用中文", scope="global", type="preference")
        save(c, "The deploy script lives in scripts/deploy.sh")

        hits = ok(c.get("/api/search", params={"q": "创建 Java 项目用什么 JDK"}))
        assert {h["entry"]["id"] for h in hits} == {new, both["entry"]["id"]}
        assert all(h["score"] > 0 and "stale" in h for h in hits)
        english = ok(c.get("/api/search", params={"q": "where is the deploy script"}))
        assert english[0]["entry"]["content"] == "The deploy script lives in scripts/deploy.sh"
        assert ok(c.get("/api/search", params={"q": "JDK", "type": "preference"})) == []
        block = ok(c.get("/api/context", params={"q": "帮我再创建一个 Java 项目"}))["context"]
        assert "项目使用 JDK 21" in block and "JDK 17" not in block

        listed = ok(c.get("/api/memories"))
        assert len(listed) == 4 and listed[0]["entry"]["content"].startswith("The deploy")
        assert [m["entry"]["scope"] for m in ok(c.get("/api/memories?scope=global"))] == ["global"]
        assert len(ok(c.get("/api/memories", params={"history": "true"}))) == 5
        assert len(ok(c.get("/api/memories", params={"limit": 2, "offset": 3}))) == 1
        assert ok(c.get("/api/memories", params={"stale": "true"})) == []
        assert ok(c.get("/api/memories", params={"source": "import"})) == []

        shown = ok(c.get(f"/api/memories/{new[:5]}"))
        assert shown["entry"]["id"] == new and shown["stale"] is False
        hist = ok(c.get(f"/api/memories/{new}/history"))
        assert [v["entry"]["id"] for v in hist["versions"]] == [old, new]
        assert [a["action"] for a in hist["audit"]] == ["add", "refresh", "replace", "supersede"]

        edited = ok(c.patch(f"/api/memories/{new}", json={"content": "项目使用 JDK 21 和 Gradle"}))
        assert edited["status"] == "replaced" and edited["replaced"]["id"] == new
        head = edited["entry"]["id"]
        assert len(ok(c.get(f"/api/memories/{head}/history"))["versions"]) == 3
        assert ok(c.post(f"/api/memories/{head}/verify"))["entry"]["confidence"] == "confirmed"
        assert ok(c.get(f"/api/memories/{head}/history"))["audit"][-1]["action"] == "verify"

        exported = ok(c.get("/api/export"))
        assert exported["format"] == "remem-export" and len(exported["entries"]) == 6
        assert ok(c.delete(f"/api/memories/{head}"))["entry"]["id"] == head
        assert c.get(f"/api/memories/{head}").status_code == 404
        dry = ok(c.post("/api/forget", json={"keyword": "deploy", "dry_run": True}))
        assert [e["content"] for e in dry["deleted"]] == [
            "The deploy script lives in scripts/deploy.sh"
        ]
        assert len(ok(c.get("/api/memories"))) == 3
        assert len(ok(c.post("/api/forget", json={"keyword": "deploy"}))["deleted"]) == 1
        assert len(ok(c.get("/api/memories"))) == 2

        # the earlier export back: what is still here is a duplicate, a conflict (JDK 21 vs
        # the JDK 11 kept) is reported and not written, until force keeps both
        result = ok(c.post("/api/import", json=exported))
        assert (result["added"], result["duplicates"], result["history"]) == (1, 2, 0)
        assert [x["entry"]["id"] for x in result["conflicts"]] == [head]
        assert [e["content"] for e in result["conflicts"][0]["existing"]] == ["项目使用 JDK 11"]
        forced = ok(c.post("/api/import", params={"force": "true"}, json=exported))
        assert (forced["added"], forced["duplicates"], forced["history"]) == (1, 3, 2)
        assert c.post("/api/import", json={"format": "nope"}).status_code == 400
        assert len(ok(c.get("/api/memories"))) == 4

        assert c.post("/api/memories", json={"content": "  "}).status_code == 400
        assert c.post("/api/memories", json={"content": "x", "type": "nonsense"}).status_code == 422
        secret = c.post("/api/memories", json={"content": "api_key=sk-live-4f9a8b7c6d5e4f3a2b1c"})
        assert secret.status_code == 422 and "secret" in secret.json()["detail"]
        assert c.get("/api/memories/abc").status_code == 404
    with httpx.Client(base_url=team.url) as anonymous:
        assert ok(anonymous.get("/api/health"))["version"] == remem.__version__
        schema = ok(anonymous.get("/openapi.json"))
    assert {"/api/memories", "/api/search", "/api/context", "/api/export", "/api/import",
            "/api/forget", "/api/memories/{entry_id}/history"} <= set(schema["paths"])  # fmt: skip
    assert schema["info"]["version"] == remem.__version__


def test_projects_are_chosen_per_request(sqlite_team: Team) -> None:
    with sqlite_team.client("alice") as c:
        assert ok(
            c.post("/api/memories?project=billing", json={"content": "我们用 Stripe 收款"}), 201
        )
        c.headers["X-Remem-Project"] = "auth"
        save(c, "登录用 OAuth2")
        assert [m["entry"]["project"] for m in ok(c.get("/api/memories"))] == ["auth"]
        del c.headers["X-Remem-Project"]
        assert ok(c.get("/api/memories")) == []
        billing = ok(c.get("/api/search", params={"q": "Stripe", "project": "billing"}))
        assert [h["entry"]["content"] for h in billing] == ["我们用 Stripe 收款"]


# -- tokens ----------------------------------------------------------------------------------
ROUTES = [
    ("GET", "/api/me"), ("GET", "/api/memories"), ("POST", "/api/memories"),
    ("GET", "/api/memories/abcd1234"), ("GET", "/api/memories/abcd1234/history"),
    ("PATCH", "/api/memories/abcd1234"), ("DELETE", "/api/memories/abcd1234"),
    ("POST", "/api/memories/abcd1234/verify"), ("GET", "/api/search?q=x"),
    ("GET", "/api/context?q=x"), ("POST", "/api/forget"), ("GET", "/api/export"),
    ("POST", "/api/import"), ("POST", "/mcp"), ("GET", "/mcp"),
]  # fmt: skip


@pytest.mark.slow
def test_no_token_or_a_bad_one_is_401(sqlite_team: Team) -> None:
    with sqlite_team.client("alice") as c:
        save(c, "项目使用 JDK 17")
    forged = sqlite_team.tokens["alice"][:-4] + "AAAA"
    headers: list[dict[str, str]] = [
        {}, {"Authorization": f"Bearer {forged}"},
        {"Authorization": "Bearer rmm_00000000_" + "A" * 43},
        {"Authorization": f"Basic {sqlite_team.tokens['alice']}"},
        {"Cookie": f"remem_token={sqlite_team.tokens['alice']}"},  # the API takes no cookie
    ]  # fmt: skip
    with httpx.Client(base_url=sqlite_team.url) as c:
        for header in headers:
            for method, path in ROUTES:
                r = c.request(method, path, headers=header, json={"content": "x", "keyword": "x"})
                assert r.status_code == 401, (method, path, header, r.text)
                assert r.headers["www-authenticate"].startswith("Bearer")
    store = sqlite_team.backend.store
    alice = next(t for t in store.tokens() if t.user_id == "alice" and not t.read_only)
    assert store.revoke_token(alice.id, remem.entry.utcnow())
    with sqlite_team.client("alice") as c:
        assert c.get("/api/memories").status_code == 401  # revoked: refused at once
    with sqlite_team.client("bob") as c:
        assert c.get("/api/memories").status_code == 200


def test_a_read_only_token_reads_and_never_writes(team: Team) -> None:
    with team.client("alice") as c:
        entry = save(c, "项目使用 JDK 17 和 Maven")["entry"]
        before = ok(c.get("/api/export"))["entries"]
    with team.client("reader") as r:
        assert ok(r.get("/api/me"))["read_only"] is True
        assert [h["entry"]["id"] for h in ok(r.get("/api/search", params={"q": "JDK"}))] == [
            entry["id"]
        ]
        assert ok(r.get(f"/api/memories/{entry['id']}"))["entry"]["id"] == entry["id"]
        assert ok(r.get("/api/export"))["entries"] == before
        writes = [
            r.post("/api/memories", json={"content": "项目使用 JDK 21"}),
            r.post("/api/memories", json={"content": "新的记忆：周五上线"}),
            r.patch(f"/api/memories/{entry['id']}", json={"content": "项目使用 JDK 21"}),
            r.post(f"/api/memories/{entry['id']}/verify"),
            r.delete(f"/api/memories/{entry['id']}"),
            r.post("/api/forget", json={"keyword": "JDK"}),
            r.post("/api/import", json={"format": "remem-export", "version": 1, "entries": []}),
        ]
        assert [w.status_code for w in writes] == [403] * len(writes)
        assert all("read" in w.json()["detail"] for w in writes)
    with team.client("alice") as c:
        assert ok(c.get("/api/export"))["entries"] == before


# -- partitions ------------------------------------------------------------------------------
@pytest.mark.slow
def test_alice_never_reads_or_changes_bobs_memories(team: Team) -> None:
    with team.client("bob") as bob:
        salary = save(bob, "Bob 的工资是 3 万")["entry"]
        save(bob, "Bob prefers vim", type="preference", scope="global")
    with team.client("alice") as alice:
        for given in (salary["id"], salary["id"][:4], salary["id"][:8]):
            for method, path, body in [
                ("GET", f"/api/memories/{given}", None),
                ("GET", f"/api/memories/{given}/history", None),
                ("PATCH", f"/api/memories/{given}", {"content": "Bob 的工资是 9 万"}),
                ("POST", f"/api/memories/{given}/verify", None),
                ("DELETE", f"/api/memories/{given}", None),
            ]:
                r = alice.request(method, path, json=body)
                assert r.status_code == 404, (method, path, r.text)  # as if it did not exist
                assert "工资" not in r.text
        crossed = alice.post(
            "/api/memories", json={"content": "工资 9 万", "replace_id": salary["id"]}
        )
        assert crossed.status_code == 404 and "工资是" not in crossed.text
        save(alice, "Alice 负责支付服务")
        assert ok(alice.get("/api/search", params={"q": "工资"})) == []
        assert ok(alice.get("/api/search", params={"q": "vim"})) == []
        contents = [m["entry"]["content"] for m in ok(alice.get("/api/memories?history=true"))]
        assert contents == ["Alice 负责支付服务"]
        assert [e["content"] for e in ok(alice.get("/api/export"))["entries"]] == contents
        assert "工资" not in ok(alice.get("/api/context", params={"q": "Bob 的工资"}))["context"]
        assert ok(alice.post("/api/forget", json={"keyword": "Bob"}))["deleted"] == []
    with team.client("bob") as bob:
        assert len(ok(bob.get("/api/memories"))) == 2
        kept = ok(bob.get(f"/api/memories/{salary['id']}"))["entry"]
        assert kept == salary  # not edited, verified or deleted
        assert len(ok(bob.get(f"/api/memories/{salary['id']}/history"))["versions"]) == 1


# -- MCP over HTTP -----------------------------------------------------------------------------
def test_mcp_at_slash_mcp_acts_as_the_tokens_user(sqlite_team: Team) -> None:
    from mcp.client import Client
    from mcp.client.streamable_http import streamable_http_client

    @contextlib.asynccontextmanager
    async def client(who: str) -> AsyncIterator[Any]:
        headers = {"Authorization": f"Bearer {sqlite_team.tokens[who]}"}
        async with httpx.AsyncClient(headers=headers, timeout=30) as http:
            url = f"{sqlite_team.url}/mcp"
            async with Client(streamable_http_client(url, http_client=http)) as c:
                yield c

    def data(result: Any) -> dict[str, Any]:
        assert not result.is_error, result.content
        return dict(result.structured_content or json.loads(result.content[0].text))

    async def main() -> None:
        async with client("alice") as c:
            assert c.server_info.name == "remem" and c.server_info.version == remem.__version__
            names = {t.name for t in (await c.list_tools()).tools}
            assert {"save_memory", "search_memory", "memory_context", "list_memories"} <= names
            saved = data(await c.call_tool("save_memory", {"content": "项目使用 JDK 17 和 Maven"}))
            assert saved["status"] == "added"
            hits = data(await c.call_tool("search_memory", {"query": "JDK"}))["hits"]
            assert [h["id"] for h in hits] == [saved["entry"]["id"]]
            await c.call_tool("note_external_content", {"source": "web_search"})
            refused = data(await c.call_tool("save_memory", {"content": "部署在周五"}))
            assert refused["status"] == "refused"
        async with client("bob") as c:
            assert data(await c.call_tool("search_memory", {"query": "JDK"}))["hits"] == []
            listed = data(await c.call_tool("list_memories", {}))["memories"]
            assert listed == []
        async with client("reader") as c:
            hits = data(await c.call_tool("search_memory", {"query": "JDK"}))["hits"]
            assert len(hits) == 1
            denied = await c.call_tool("save_memory", {"content": "回答用中文"})
            assert denied.is_error and "read" in denied.content[0].text
            assert (await c.call_tool("forget_memory", {"keyword": "JDK"})).is_error

    anyio.run(main)
    with sqlite_team.client("alice") as c:
        assert [m["entry"]["content"] for m in ok(c.get("/api/memories"))] == [
            "项目使用 JDK 17 和 Maven"
        ]


# -- the command line --------------------------------------------------------------------------
def test_token_commands_keep_only_a_hash(db: Path) -> None:
    runner = CliRunner()
    out = runner.invoke(cli, ["--db", str(db), "token", "create", "--user", "alice", "--json"])
    assert out.exit_code == 0, out.output
    made = json.loads(out.output)
    assert made["token"].startswith("rmm_") and made["user"] == "alice"
    reader = runner.invoke(
        cli, ["--db", str(db), "token", "create", "--user", "ci", "--agent", "nightly",
              "--read-only", "--name", "CI 读者"],
    )  # fmt: skip
    assert reader.exit_code == 0 and reader.stdout.strip().startswith("rmm_")
    listed = runner.invoke(cli, ["--db", str(db), "token", "list"])
    assert "user=alice" in listed.output and "agent=nightly  read-only" in listed.output
    assert "CI 读者" in listed.output
    data = b"".join(p.read_bytes() for p in db.parent.iterdir())
    assert made["token"].encode() not in data  # only its digest is stored
    assert runner.invoke(cli, ["--db", str(db), "token", "revoke", made["id"]]).exit_code == 0
    again = runner.invoke(cli, ["--db", str(db), "token", "revoke", made["id"]])
    assert again.exit_code == 1 and "no active token" in again.output
    rows = json.loads(runner.invoke(cli, ["--db", str(db), "token", "list", "--json"]).output)
    assert [r["revoked_at"] is not None for r in rows] == [True, False]
    bad = runner.invoke(cli, ["--db", str(db), "token", "create", "--user", "a b"])
    assert bad.exit_code == 2 and "user id" in bad.output


def test_serve_refuses_a_public_address_without_a_token(db: Path) -> None:
    out = CliRunner().invoke(cli, ["--db", str(db), "serve", "--host", "0.0.0.0", "--port", "1"])
    assert out.exit_code == 1 and "no API token exists yet" in out.output
    shown = json.loads(CliRunner().invoke(cli, ["--db", str(db), "serve", "--json"]).stdout)
    assert shown["mcp"] == "http://127.0.0.1:8765/mcp" and shown["active_tokens"] == 0
    assert [is_loopback(h) for h in ("127.0.0.1", "127.3.2.1", "::1", "[::1]", "localhost")] == [
        True
    ] * 5
    assert not any(is_loopback(h) for h in ("0.0.0.0", "::", "10.0.0.5", "example.com"))


def test_other_commands_never_load_the_web_stack(tmp_path: Path) -> None:
    code = (
        "import sys\nfrom remem.cli.app import main\n"
        "try:\n    main(['search', 'JDK'])\nexcept SystemExit:\n    pass\n"
        "web = ('fastapi', 'starlette', 'uvicorn', 'jinja2')\n"
        "print(sorted(m for m in web if m in sys.modules))"
    )
    env = {**os.environ, "REMEM_HOME": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    ).stdout
    assert out.strip().splitlines()[-1] == "[]"


def sign_in(web: httpx.Client, token: str, **form: str) -> httpx.Response:
    """POST the login form as a browser does: with the login CSRF of the form's page."""
    import re

    nonce = re.search(r'name="login_csrf" value="([^"]+)"', web.get("/login").text)
    assert nonce is not None
    return web.post("/login", data={"token": token, "login_csrf": nonce.group(1), **form})


def test_a_cross_site_login_is_refused_without_an_origin(sqlite_team: Team) -> None:
    import re

    token = sqlite_team.tokens["alice"]
    with sqlite_team.client(None, follow_redirects=False) as web:
        nonce = re.search(r'name="login_csrf" value="([^"]+)"', web.get("/login").text)
        assert nonce is not None
        form = {"token": token, "login_csrf": nonce.group(1), "next": "/"}
        for fetch_site in ("cross-site", "Cross-Site"):  # the pair of CSRF values is right
            refused = web.post("/login", data=form, headers={"Sec-Fetch-Site": fetch_site})
            assert refused.status_code == 403, refused.text
            assert "remem_token" not in refused.headers.get("set-cookie", "")
        same = web.post("/login", data=form, headers={"Sec-Fetch-Site": "same-origin"})
        assert same.status_code == 303 and "remem_token" in same.headers["set-cookie"]


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1.evil.example",
                                  "localhost.evil.example:{port}", ""])  # fmt: skip
def test_a_loopback_server_answers_only_a_loopback_host(sqlite_team: Team, host: str) -> None:
    port = sqlite_team.url.rsplit(":", 1)[1]
    with sqlite_team.client("alice") as c:
        for path in ("/api/health", "/api/me", "/login"):
            answer = c.get(path, headers={"Host": host.format(port=port)})
            assert answer.status_code == 421, (path, answer.text)
        assert c.get("/api/me").status_code == 200
        for name in ("127.0.0.1", "localhost", "LOCALHOST", "[::1]"):
            for shown in (name, f"{name}:{port}"):
                answer = c.get("/api/me", headers={"Host": shown})
                assert answer.status_code == 200, (shown, answer.text)


def test_the_web_page_signs_in_with_a_cookie_and_guards_its_forms(sqlite_team: Team) -> None:
    import re

    with sqlite_team.client(None, follow_redirects=False) as web:
        assert web.get("/").headers["location"].startswith("/login")
        bad = sign_in(web, "rmm_00000000_" + "A" * 43)
        assert bad.status_code == 401 and "remem_token" not in bad.headers.get("set-cookie", "")
        signed = sign_in(web, sqlite_team.tokens["reader"], next="/")
        assert signed.status_code == 303
        cookie = signed.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=strict" in cookie
        page = web.get("/")
        assert page.status_code == 200 and "read-only" in page.text
        assert 'action="/memories"' not in page.text  # no write forms for a reader
        csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page.text)
        assert csrf is not None
        form = {"csrf": csrf.group(1), "content": "只读令牌不能写"}
        assert web.post("/memories", data=form).status_code == 403
    with sqlite_team.client(None, follow_redirects=False) as web:
        sign_in(web, sqlite_team.tokens["alice"])
        csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', web.get("/").text)
        assert csrf is not None
        form = {"csrf": csrf.group(1), "content": "从别的网站提交的表单"}
        other = web.post("/memories", data=form, headers={"Origin": "http://evil.example"})
        assert other.status_code == 403
        assert web.post("/memories", data={**form, "csrf": "0" * 32}).status_code == 403
        saved = web.post("/memories", data=form)
        assert saved.status_code == 303 and saved.headers["location"].startswith("/m/")
        exported = web.get("/export")
        assert "attachment" in exported.headers["content-disposition"]
        assert [e["content"] for e in exported.json()["entries"]] == ["从别的网站提交的表单"]
    with sqlite_team.client("bob") as bob:
        bobs = save(bob, "Bob 的工资是 3 万")["entry"]["id"]
    with sqlite_team.client(None, follow_redirects=False) as web:
        sign_in(web, sqlite_team.tokens["alice"])
        csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', web.get("/").text)
        assert csrf is not None
        for page in (f"/m/{bobs}", f"/m/{bobs[:4]}", f"/m/{bobs}/delete"):
            seen = web.get(page)
            assert seen.status_code == 404 and "工资" not in seen.text, page
        for action in ("edit", "verify", "delete"):
            form = {"csrf": csrf.group(1), "content": "改掉 Bob 的"}
            assert web.post(f"/m/{bobs}/{action}", data=form).status_code == 404, action
    with sqlite_team.client("bob") as bob:
        assert ok(bob.get(f"/api/memories/{bobs}"))["entry"]["content"] == "Bob 的工资是 3 万"
