"""The web page of `remem serve`: see, search and fix memories in a browser.

Server-rendered HTML (Jinja2 templates and a stylesheet shipped in the package, a few
lines of plain JavaScript, no build step). The page signs in with an API token: the
login form puts it in an HttpOnly, SameSite=Strict cookie; every form that changes
something carries a CSRF token (an HMAC of the session under a key of this process)
and must come from this origin. A read-only token sees no write forms and gets 403.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlencode, urlsplit

from fastapi import APIRouter, Depends, FastAPI, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from remem.entry import SCOPES, SOURCES, TYPES, Entry, is_type, parse_type, utcnow
from remem.memory import Memory
from remem.retrieval import ranking
from remem.servers.api import export_doc
from remem.servers.backend import Backend
from remem.store.protocol import ApiToken

HERE = Path(__file__).resolve().parent
COOKIE = "remem_token"
LOGIN_COOKIE = "remem_login"  # the login form's CSRF token (see `login_page`)
PAGE = 50  # memories per page
templates = Jinja2Templates(directory=HERE / "templates")
router = APIRouter(include_in_schema=False)


class LoginNeeded(Exception):
    """A page was asked for without a valid session: go to the login form."""


def mount(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    app.include_router(router)

    @app.exception_handler(LoginNeeded)
    async def to_login(request: Request, exc: LoginNeeded) -> Response:
        if request.method != "GET":
            return page(request, "error.html", {"message": "Sign in again."}, status=401)
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return RedirectResponse("/login?" + urlencode({"next": target}), status_code=303)


@dataclass
class Session:
    """The signed-in token, its Memory in the page's project, and the page's CSRF token."""

    token: ApiToken
    memory: Memory
    project: str
    csrf: str

    def link(self, path: str, **params: Any) -> str:
        query = {"project": self.project, **{k: v for k, v in params.items() if v}}
        return f"{path}?{urlencode(query)}"


def _backend(request: Request) -> Backend:
    backend: Backend = request.app.state.backend
    return backend


def _csrf(backend: Backend, token: str) -> str:
    return hmac.new(backend.csrf_key, token.encode(), hashlib.sha256).hexdigest()[:32]


def session(request: Request, project: str | None = None) -> Session:
    backend = _backend(request)
    raw = request.cookies.get(COOKIE)
    token = backend.check(raw)
    if token is None or raw is None:
        raise LoginNeeded()
    name = backend.project(project)
    return Session(token, backend.memory(token, name), name, _csrf(backend, raw))


def same_origin(request: Request) -> None:
    """403 for a form posted from another site: the browser says so (Sec-Fetch-Site,
    sent with or without an Origin), or its Origin, else its Referer, names another
    scheme, host or port than this server's."""
    if request.headers.get("sec-fetch-site", "").strip().lower() == "cross-site":
        raise HTTPException(403, "a form from another site")
    here = f"{request.url.scheme}://{request.url.netloc}"
    origin = request.headers.get("origin")
    referer = request.headers.get("referer")
    if origin is None and referer:
        parts = urlsplit(referer)
        origin = f"{parts.scheme}://{parts.netloc}"
    if origin is not None and origin != here:
        raise HTTPException(403, "a form from another site")


async def changing(request: Request, project: str | None = None) -> Session:
    """A session allowed to change memories, from a form of this origin with its CSRF."""
    same_origin(request)
    form = await request.form()
    s = session(request, project or _text(form.get("project")))
    if not hmac.compare_digest(_text(form.get("csrf")), s.csrf):
        raise HTTPException(403, "the form has expired; reload the page and try again")
    if s.token.read_only:
        raise HTTPException(403, "this token may only read memories; nothing was changed")
    return s


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


Viewer = Annotated[Session, Depends(session)]
Changer = Annotated[Session, Depends(changing)]


def page(request: Request, name: str, context: dict[str, Any], *, status: int = 200) -> Response:
    return templates.TemplateResponse(request, name, context, status_code=status)


def when(value: datetime | None) -> str:
    return value.strftime("%Y-%m-%d %H:%M") if value else ""


templates.env.filters["when"] = when


def row(s: Session, entry: Entry, now: datetime, **extra: Any) -> dict[str, Any]:
    """What the page shows of an entry."""
    stale = ranking.is_stale(entry, now, s.memory.ranking)
    return {"e": entry, "stale": stale, "link": s.link(f"/m/{entry.id}"), **extra}


# -- signing in --------------------------------------------------------------------------
def login_page(request: Request, next: str, error: str | None, status: int = 200) -> Response:
    """The sign-in form with its login CSRF token, which the POST must bring back beside
    the same value in a SameSite=Strict cookie: a form on another site can send neither."""
    nonce = request.cookies.get(LOGIN_COOKIE) or secrets.token_urlsafe(24)
    context = {"next": next, "error": error, "login_csrf": nonce}
    response = page(request, "login.html", context, status=status)
    response.set_cookie(
        LOGIN_COOKIE,
        nonce,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        max_age=3600,
    )
    return response


@router.get("/login")
def login_form(request: Request, next: str = "/") -> Response:
    return login_page(request, next, None)


@router.post("/login")
def login(
    request: Request,
    token: Annotated[str, Form()],
    next: Annotated[str, Form()] = "/",
    login_csrf: Annotated[str, Form()] = "",
) -> Response:
    same_origin(request)
    expected = request.cookies.get(LOGIN_COOKIE, "")
    if not expected or not hmac.compare_digest(expected.encode(), login_csrf.encode()):
        raise HTTPException(403, "the sign-in form has expired; reload the page and try again")
    token = token.strip()
    if _backend(request).check(token) is None:
        return login_page(request, next, "That token is unknown or revoked.", 401)
    target = next if next.startswith("/") and not next.startswith("//") else "/"
    response = RedirectResponse(target, status_code=303)
    response.set_cookie(
        COOKIE,
        token,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        max_age=30 * 24 * 3600,
    )
    return response


@router.post("/logout")
def logout(s: Changer) -> Response:
    response = RedirectResponse("/login", status_code=303)
    response.delete_cookie(COOKIE)
    return response


# -- reading -----------------------------------------------------------------------------
@router.get("/", response_class=HTMLResponse)
def index(
    request: Request,
    s: Viewer,
    q: str = "",
    type: str = "",
    scope: str = "",
    source: str = "",
    stale: str = "",
    p: int = 1,
) -> Response:
    """The search box with its filters, and the memories that match."""
    mem, now = s.memory, utcnow()
    kind = parse_type(type) if type else None  # an unknown type: a 400, not an empty page
    if q.strip():
        hits = mem.search(q, limit=200, types=[kind] if kind else None)
        found: list[tuple[Entry, float | None]] = [(h.entry, h.score) for h in hits]
    else:
        found = [(e, None) for e in mem.list(type=kind)]
    rows = [
        row(s, e, now, score=score)
        for e, score in found
        if (not scope or e.scope == scope) and (not source or e.source == source)
    ]
    if stale:
        rows = [r for r in rows if r["stale"] == (stale == "yes")]
    p = max(1, p)
    shown = rows[(p - 1) * PAGE : p * PAGE]
    filters = {"q": q, "type": type, "scope": scope, "source": source, "stale": stale}
    more = s.link("/", **filters, p=p + 1) if len(rows) > p * PAGE else None
    context = {
        "s": s,
        "rows": shown,
        "total": len(rows),
        "filters": filters,
        "more": more,
        "types": TYPES,
        "scopes": SCOPES,
        "sources": SOURCES,
        "searched": bool(q.strip()),
    }
    return page(request, "index.html", context)


@router.get("/m/{entry_id}", response_class=HTMLResponse)
def memory_page(request: Request, entry_id: str, s: Viewer) -> Response:
    """One memory: its fields, its versions as a timeline, its audit log, its forms."""
    entry = s.memory.get(entry_id)
    hist = s.memory.history(entry.id)
    now = utcnow()
    timeline = [  # when each version held (valid_from -> valid_to), not only when written
        row(s, v, now, since=v.valid_from or v.created_at, until=v.valid_to) for v in hist.versions
    ]
    audit = [
        {"r": r, "detail": json.dumps(r.detail, ensure_ascii=False) if r.detail else ""}
        for r in hist.audit
    ]
    context = {"s": s, "m": row(s, entry, now), "timeline": timeline, "audit": audit}
    return page(request, "memory.html", context)


@router.get("/review", response_class=HTMLResponse)
def review_page(request: Request, s: Viewer) -> Response:
    """The memories saved automatically, waiting to be accepted, edited or rejected."""
    from remem.hooks.review import pending

    now = utcnow()
    rows = [row(s, e, now) for e in pending(s.memory)]
    return page(request, "review.html", {"s": s, "rows": rows})


@router.get("/export")
def export(s: Viewer) -> Response:
    """Everything visible here as remem's export, downloaded as a file."""
    doc = export_doc(s.memory)
    name = f"remem-export-{utcnow().strftime('%Y%m%d-%H%M%S')}.json"
    return Response(
        json.dumps(doc, ensure_ascii=False, indent=1),
        media_type="application/json; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


# -- changing ----------------------------------------------------------------------------
@router.post("/memories")
def save(
    request: Request,
    s: Changer,
    content: Annotated[str, Form()],
    type: Annotated[str, Form()] = "fact",
    scope: Annotated[str, Form()] = "project",
    replace_id: Annotated[str, Form()] = "",
    keep_both: Annotated[str, Form()] = "",
) -> Response:
    """A new memory from the page; a conflict shows both and the two ways out."""
    result = s.memory.save(
        content,
        type=type if is_type(type) else "fact",
        scope="global" if scope == "global" else "project",
        replace_id=replace_id or None,
        force=bool(keep_both),
        allow_secret=False,  # "keep both" settles a conflict; it never lets a secret in
    )
    if result.status == "conflict":
        now = utcnow()
        clashes = [
            row(s, e, now, reason=why)
            for e, why in zip(result.conflicts, result.reasons, strict=True)
        ]
        context = {"s": s, "new": result.entry, "clashes": clashes, "type": type, "scope": scope}
        return page(request, "conflict.html", context, status=409)
    return RedirectResponse(s.link(f"/m/{result.entry.id}"), status_code=303)


Back = Annotated[str, Form()]  # "review": the form was on the review page, go back there


@router.post("/m/{entry_id}/edit")
def edit(entry_id: str, s: Changer, content: Annotated[str, Form()], back: Back = "") -> Response:
    result = s.memory.edit(entry_id, content)
    where = "/review" if back == "review" else f"/m/{result.entry.id}"
    return RedirectResponse(s.link(where), status_code=303)


@router.post("/m/{entry_id}/verify")
def verify(entry_id: str, s: Changer, back: Back = "") -> Response:
    entry = s.memory.verify(entry_id)
    where = "/review" if back == "review" else f"/m/{entry.id}"
    return RedirectResponse(s.link(where), status_code=303)


@router.get("/m/{entry_id}/delete", response_class=HTMLResponse)
def confirm_delete(request: Request, entry_id: str, s: Viewer) -> Response:
    entry = s.memory.get(entry_id)
    versions = len(s.memory.history(entry.id).versions)
    context = {"s": s, "m": row(s, entry, utcnow()), "versions": versions}
    return page(request, "delete.html", context)


@router.post("/m/{entry_id}/delete")
def delete(entry_id: str, s: Changer, back: Back = "") -> Response:
    s.memory.delete(entry_id)
    where = "/review" if back == "review" else "/"
    return RedirectResponse(s.link(where, deleted=entry_id), status_code=303)


def error_page(request: Request, message: str, status: int) -> Response:
    return page(request, "error.html", {"message": message}, status=status)
