"""The REST API of `remem serve`: the library's operations as JSON over HTTP.

Each handler takes the `Memory` of the request's token and project (see
`remem.servers.http`) and calls it, as a CLI command does; writes need a token that
may write (403 otherwise), every route a valid token (401).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Depends, HTTPException, Query, Request, Response
from pydantic import BaseModel, Field, StrictBool

from remem.entry import Entry, EntryType, Scope, Source, utcnow
from remem.memory import Memory, SaveResult
from remem.retrieval import ranking
from remem.retrieval.ranking import Hit
from remem.servers.auth import bearer
from remem.servers.backend import PROJECT_HEADER
from remem.store.protocol import ApiToken

DESCRIPTION = """\
Every request needs `Authorization: Bearer <token>` (`remem token create --user NAME`).
A request sees and changes only its token's user (and agent) partition, plus shared
memories it may read; a read-only token changes nothing (403). `?project=NAME` (or the
`X-Remem-Project` header) picks the project; the server's own is the default. Ids may be
shortened to a unique prefix of 4+ characters. Errors: `{"detail": "one line"}`.
"""

router = APIRouter(prefix="/api")

ProjectParam = Annotated[
    str | None, Query(description="Project of this request (default: the server's).")
]


def unauthorized(
    detail: str = "an API token is required: Authorization: Bearer <token>",
) -> HTTPException:
    return HTTPException(401, detail, headers={"WWW-Authenticate": 'Bearer realm="remem"'})


def token_of(request: Request) -> ApiToken:
    token: ApiToken | None = request.app.state.backend.check(
        bearer(request.headers.get("authorization"))
    )
    if token is None:
        raise unauthorized()
    return token


def _memory(request: Request, token: ApiToken, project: str | None) -> Iterator[Memory]:
    backend = request.app.state.backend
    mem = backend.memory(token, project or request.headers.get(PROJECT_HEADER))
    with backend.turn():
        yield mem


def reader(
    request: Request, token: Annotated[ApiToken, Depends(token_of)], project: ProjectParam = None
) -> Iterator[Memory]:
    yield from _memory(request, token, project)


def writer(
    request: Request, token: Annotated[ApiToken, Depends(token_of)], project: ProjectParam = None
) -> Iterator[Memory]:
    if token.read_only:
        raise HTTPException(403, "this token may only read memories; nothing was changed")
    yield from _memory(request, token, project)


Reader = Annotated[Memory, Depends(reader)]
Writer = Annotated[Memory, Depends(writer)]


# -- bodies and results ------------------------------------------------------------------
class SaveIn(BaseModel):
    content: str = Field(description="The memory, one fact or preference (≤ 32,000 chars).")
    type: EntryType = "fact"
    scope: Literal["project", "global"] = "project"
    entity: str | None = Field(None, description="What it is about (boosts such queries).")
    metadata: dict[str, Any] | None = None
    replace_id: str | None = Field(None, description="Replace this memory (a new version).")
    # strict: "keep_both": "yes" is a mistake to answer, not a yes to guess
    keep_both: StrictBool = Field(False, description="Save even if it conflicts (keep both).")


class EditIn(BaseModel):
    content: str = Field(description="The new text; the old one stays in the history.")


class ForgetIn(BaseModel):
    keyword: str
    dry_run: StrictBool = False


class SaveOut(BaseModel):
    status: Literal["added", "duplicate", "conflict", "replaced", "superseded", "refused"]
    entry: dict[str, Any]
    conflicts: list[dict[str, Any]] = []
    reasons: list[str] = []
    replaced: dict[str, Any] | None = None


class Item(BaseModel):
    entry: dict[str, Any]
    stale: bool = Field(
        description="Possibly stale: not verified for 30 days, or a linked file changed."
    )


class HitOut(Item):
    score: float
    relevance: float
    tier: str | None


class HistoryOut(BaseModel):
    versions: list[Item] = Field(description="Every version, oldest first.")
    audit: list[dict[str, Any]]


class ImportOut(BaseModel):
    added: int
    history: int
    duplicates: int
    conflicts: list[dict[str, Any]]
    refused: list[dict[str, str]] = Field(
        [], description="Not imported (a secret, without force): the id and why, never the text."
    )


def item(mem: Memory, entry: Entry, now: datetime | None = None) -> Item:
    stale = ranking.is_stale(entry, now or utcnow(), mem.ranking)
    return Item(entry=entry.to_dict(), stale=stale)


def hit_out(hit: Hit) -> HitOut:
    return HitOut.model_validate(hit.to_dict())  # its `decay` is not in the API


def save_out(result: SaveResult) -> SaveOut:
    return SaveOut(**result.to_dict())


# -- routes ------------------------------------------------------------------------------
@router.get("/health", tags=["server"])
def health() -> dict[str, str]:
    """Liveness, without a token: the server answers and its version."""
    from remem import __version__

    return {"status": "ok", "version": __version__}


@router.get("/me", tags=["server"])
def me(
    request: Request, token: Annotated[ApiToken, Depends(token_of)], project: ProjectParam = None
) -> dict[str, Any]:
    """Who this token is: its user, agent, whether it may write, and the project."""
    return {
        "token": token.id,
        "user": token.user_id,
        "agent": token.agent_id,
        "read_only": token.read_only,
        "project": request.app.state.backend.project(project),
    }


@router.post(
    "/memories",
    tags=["memories"],
    response_model=SaveOut,
    responses={201: {"description": "Added"}, 409: {"description": "Conflict: nothing saved"}},
)
def save(body: SaveIn, mem: Writer, response: Response) -> SaveOut:
    """Save a memory. A duplicate refreshes the existing one (200); a conflict writes
    nothing and lists the existing memories (409): send it again with `replace_id` or
    `keep_both`. Text that looks like a secret is refused (422)."""
    result = mem.save(
        body.content,
        type=body.type,
        scope=body.scope,
        entity=body.entity,
        metadata=body.metadata,
        replace_id=body.replace_id,
        force=body.keep_both,
        allow_secret=False,  # keep_both settles a conflict; it never lets a secret in
    )
    response.status_code = {"added": 201, "conflict": 409}.get(result.status, 200)
    return save_out(result)


def select(
    mem: Memory, entries: list[Entry], *, source: str | None, stale: bool | None
) -> list[Item]:
    now = utcnow()
    items = [item(mem, e, now) for e in entries if source is None or e.source == source]
    return [i for i in items if stale is None or i.stale == stale]


@router.get("/memories", tags=["memories"])
def list_memories(
    mem: Reader,
    limit: Annotated[int, Query(ge=1, le=1000)] = 50,
    offset: Annotated[int, Query(ge=0)] = 0,
    scope: Scope | None = None,
    type: EntryType | None = None,
    source: Source | None = None,
    stale: bool | None = None,
    history: bool = False,
) -> list[Item]:
    """Memories visible here, newest first; `stale=true` only the possibly stale ones."""
    wanted = None if source or stale is not None else offset + limit
    entries = mem.list(limit=wanted, scope=scope, type=type, include_history=history)
    return select(mem, entries, source=source, stale=stale)[offset : offset + limit]


@router.get("/memories/{entry_id}", tags=["memories"])
def show(entry_id: str, mem: Reader) -> Item:
    """One memory by id or unique prefix."""
    return item(mem, mem.get(entry_id))


@router.get("/memories/{entry_id}/history", tags=["memories"])
def history(entry_id: str, mem: Reader) -> HistoryOut:
    """Every version of a memory, oldest first, and its audit log."""
    hist = mem.history(entry_id)
    now = utcnow()
    return HistoryOut(
        versions=[item(mem, v, now) for v in hist.versions],
        audit=[r.to_dict() for r in hist.audit],
    )


@router.patch("/memories/{entry_id}", tags=["memories"])
def edit(entry_id: str, body: EditIn, mem: Writer) -> SaveOut:
    """Change a memory's text: a new version replaces it, the old stays in its history."""
    old = mem.get(entry_id)
    result = mem.save(
        body.content,
        type=old.type,
        scope=old.scope,
        replace_id=old.id,
        entity=old.entity,
        metadata=old.metadata,
        linked_paths=old.linked_paths,
    )
    return save_out(result)


@router.post("/memories/{entry_id}/verify", tags=["memories"])
def verify(entry_id: str, mem: Writer) -> Item:
    """Confirm a memory is still true (resets its staleness)."""
    return item(mem, mem.verify(entry_id))


@router.delete("/memories/{entry_id}", tags=["memories"])
def delete(entry_id: str, mem: Writer) -> Item:
    """Delete a memory and its older versions (the audit log keeps that it happened)."""
    return item(mem, mem.delete(entry_id))


@router.get("/search", tags=["recall"])
def search(
    mem: Reader,
    q: Annotated[str, Query(description="What to look for, in any language.")],
    limit: Annotated[int, Query(ge=1, le=200)] = 10,
    type: Annotated[list[EntryType] | None, Query()] = None,
    history: bool = False,
    entity: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
) -> list[HitOut]:
    """Memories ranked for `q`, best first."""
    hits = mem.search(
        q,
        limit=limit,
        types=type,
        include_history=history,
        entity=entity,
        since=since,
        until=until,
    )
    return [hit_out(h) for h in hits]


@router.get("/context", tags=["recall"])
def context(
    mem: Reader,
    q: str,
    max_tokens: Annotated[int | None, Query(ge=1)] = None,
    window: Annotated[int | None, Query(ge=1)] = None,
) -> dict[str, str]:
    """The memory block an agent puts into its prompt for `q` ("" when none is relevant)."""
    return {"context": mem.context_for(q, max_tokens=max_tokens, window=window)}


@router.post("/forget", tags=["memories"])
def forget(body: ForgetIn, mem: Writer) -> dict[str, Any]:
    """Delete this project's memories containing `keyword` (any case), with their older
    versions; `dry_run` only lists."""
    gone = mem.forget(body.keyword, dry_run=body.dry_run)
    return {"dry_run": body.dry_run, "deleted": [e.to_dict() for e in gone]}


def export_doc(mem: Memory) -> dict[str, Any]:
    """The export (remem's JSON format) of what `mem` sees."""
    with tempfile.TemporaryDirectory(prefix="remem-export-") as tmp:
        path = Path(tmp) / "export.json"
        mem.export(path)
        doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return doc


@router.get("/export", tags=["exchange"])
def export(mem: Reader) -> dict[str, Any]:
    """Every memory visible here, with history and audit log, as remem's export format."""
    return export_doc(mem)


@router.post("/import", tags=["exchange"])
def import_(
    mem: Writer,
    document: Annotated[Any, Body(description="An export (or a JSON array of entries).")],
    force: bool = False,
) -> ImportOut:
    """Import an export: duplicates skipped, conflicts reported and not written unless
    `force`; nothing is written from an invalid document."""
    with tempfile.TemporaryDirectory(prefix="remem-import-") as tmp:
        path = Path(tmp) / "import.json"
        path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
        res = mem.import_(path, force=force)
    return ImportOut(
        added=len(res.added),
        history=res.history,
        duplicates=len(res.duplicates),
        conflicts=[
            {
                "entry": c.entry.to_dict(),
                "existing": [e.to_dict() for e in c.existing],
                "reasons": c.reasons,
            }
            for c in res.conflicts
        ],
        refused=[{"id": r.entry.id, "reason": r.reason} for r in res.refused],
    )
