"""Issue 29: malformed requests to every REST endpoint of a real `remem serve` end in a
4xx with a one-line JSON `detail`, never a 5xx; every field is capped like content; the
web login refuses a cross-site POST."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from remem.servers.auth import issue_token
from remem.servers.backend import Backend
from remem.servers.http import build_app, running
from remem.settings import Settings


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, str, Backend]]:
    backend = Backend(Settings.resolve(db=tmp_path / "memory.db", project="p"))
    token = issue_token(backend.store, "alice")[0]
    try:
        with running(build_app(backend)) as url:
            yield url, token, backend
    finally:
        backend.close()


# Bodies no JSON parser of ours should accept, as raw bytes with a content type each.
RAW_BODIES: list[tuple[bytes, str]] = [
    (b'{"content": NaN}', "application/json"),
    (b'{"content": "x", "metadata": {"a": NaN}}', "application/json"),
    (b'{"content": "x", "metadata": {"a": 1e999}}', "application/json"),
    (b'{"content": "x", "importance": -1e999}', "application/json"),
    (b'{"content": "\\ud800 lone"}', "application/json"),
    (b'{"content": "ok", "entity": "\\udfff"}', "application/json"),
    (b'{"content": "ok", "metadata": {"\\ud800": 1}}', "application/json"),
    ('\ufeff{"content": "bom"}'.encode(), "application/json"),
    (b'{"content": "a", "content": "b"}', "application/json"),
    (b'{"content": "x", "keyword": "y", "keyword": 3}', "application/json"),
    (b"content=hello&force=true", "application/x-www-form-urlencoded"),
    (b"hello there", "text/plain"),
    (b"\xff\xfe\x00garbage", "application/json"),
    (b"[" * 5000 + b"]" * 5000, "application/json"),
    (
        b'{"entries": [{"content": "x", "metadata": {"a": {"b": ' * 50 + b"1" + b"}" * 100,
        "application/json",
    ),
    (b"", "application/json"),
    (b"null", "application/json"),
    (b'"just a string"', "application/json"),
    (b"12", "application/json"),
    (b'{"format": "remem-export", "entries": [{"content": "\\u0000nul"}]}', "application/json"),
    (
        b'{"format": "remem-export", "entries": [{"content": "x", "created_at": "not a time"}]}',
        "application/json",
    ),  # fmt: skip
    (
        b'{"format": "remem-export", "entries": [{"content": "x", "importance": NaN}]}',
        "application/json",
    ),  # fmt: skip
    (b'[{"content": "x", "facts": {"k": 1}}]', "application/json"),
    (b'{"content": "x", "type": "nope"}', "application/json"),
    (b'{"content": "x", "importance": 1' + b"0" * 5000 + b"}", "application/json"),
    (b'{"content": "x", "importance": 1' + b"0" * 400 + b"}", "application/json"),
]
ENDPOINTS = [
    ("POST", "/api/memories"),
    ("PATCH", "/api/memories/{id}"),
    ("POST", "/api/forget"),
    ("POST", "/api/import"),
    ("POST", "/api/memories/{id}/verify"),
    ("DELETE", "/api/memories/{id}"),
]
QUERIES = [
    ("GET", "/api/search?q=%ED%A0%80"),  # a lone surrogate, percent-encoded
    ("GET", "/api/search?q=x&since=not-a-date"),
    ("GET", "/api/search?q=x&limit=1e999"),
    ("GET", "/api/search?q=" + "a" * 30_000),
    ("GET", "/api/context?q=x&max_tokens=99999999999999999999"),
    ("GET", "/api/context?q=%00"),
    ("GET", "/api/memories?limit=NaN"),
    ("GET", "/api/memories/%00"),
    ("GET", "/api/memories/" + "a" * 5000),
    ("GET", "/api/memories/..%2F..%2Fetc%2Fpasswd/history"),
    ("GET", "/api/memories?project=%ED%A0%80"),
    ("GET", "/api/export?project=" + "p" * 10_000),
    ("GET", "/api/me?project=%00"),
]


@pytest.mark.slow
def test_malformed_requests_never_get_a_5xx(server: tuple[str, str, Backend]) -> None:
    url, token, _ = server
    statuses: dict[str, int] = {}
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=60) as c:
        entry_id = c.post("/api/memories", json={"content": "The wiki is at wiki.example"})
        eid = entry_id.json()["entry"]["id"]
        for n, ((method, path), (body, kind)) in enumerate(
            itertools.product(ENDPOINTS, RAW_BODIES)
        ):
            r = c.request(method, path.format(id=eid), content=body, headers={"Content-Type": kind})
            statuses[f"#{n} {method} {path} {body[:40]!r} {kind}"] = r.status_code
            _one_json_line(r)
        for method, path in QUERIES:
            r = c.request(method, path)
            statuses[f"{method} {path[:60]}"] = r.status_code
            _one_json_line(r)
    failed = {k: v for k, v in statuses.items() if v >= 500}
    assert len(statuses) >= 150 and not failed, failed


def _one_json_line(r: httpx.Response) -> None:
    if r.status_code < 400:
        return
    detail = r.json()["detail"]
    text = detail if isinstance(detail, str) else json.dumps(detail)
    assert "Traceback" not in text and "\n" not in text, text


@pytest.mark.parametrize("field", ["metadata", "entity", "facts"])
def test_every_field_is_capped_like_content(server: tuple[str, str, Backend], field: str) -> None:
    url, token, backend = server
    big: Any = {
        "metadata": {"blob": "x" * 200_000},
        "entity": "e" * 200_000,
        "facts": {"k": "v" * 200_000},
    }[field]
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=60) as c:
        if field != "facts":
            r = c.post("/api/memories", json={"content": "A capped memory", field: big})
            assert r.status_code in (400, 413, 422), r.text
            assert re.search(r"at most|too (long|large)", r.text), r.text
        doc = {"format": "remem-export", "entries": [{"content": "Imported one", field: big}]}
        r = c.post("/api/import", json=doc)
        assert r.status_code in (400, 413, 422), r.text
        assert c.get("/api/memories").json() == [] or field != "facts"


def test_login_refuses_a_cross_site_post(server: tuple[str, str, Backend]) -> None:
    url, token, _ = server
    with httpx.Client(base_url=url, timeout=30) as web:
        form = web.get("/login")
        nonce = re.search(r'name="login_csrf" value="([^"]+)"', form.text)
        assert nonce, form.text
        for headers in ({"Origin": "https://evil.example"},
                        {"Referer": "https://evil.example/page"}):  # fmt: skip
            r = web.post("/login", data={"token": token, "login_csrf": nonce.group(1)},
                         headers=headers)  # fmt: skip
            assert r.status_code == 403 and "remem_token" not in r.headers.get("set-cookie", "")
    # Without the form's cookie (a cross-site form cannot send it: SameSite=Strict).
    with httpx.Client(base_url=url, timeout=30) as other:
        r = other.post("/login", data={"token": token, "login_csrf": "guessed"})
        assert r.status_code == 403 and "remem_token" not in r.headers.get("set-cookie", "")
    with httpx.Client(base_url=url, timeout=30) as web:
        nonce = re.search(r'name="login_csrf" value="([^"]+)"', web.get("/login").text)
        assert nonce
        r = web.post("/login", data={"token": token, "login_csrf": nonce.group(1)},
                     headers={"Origin": url})  # fmt: skip
        assert r.status_code == 303 and "remem_token=" in r.headers["set-cookie"]
