"""`remem serve` (the team server) and `remem token` (who may use it)."""

from __future__ import annotations

import click

from remem.cli.common import current_memory, emit, json_option, tell
from remem.store.protocol import ApiToken


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(1, 65535))
@click.option("--json", "as_json", is_flag=True, help="Print the settings and exit.")
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, as_json: bool) -> None:
    """Serve the memory to a team: REST API, MCP over HTTP (/mcp) and a web page (/).

    Every request needs an API token (`remem token create`). Listens on this machine
    only unless --host says otherwise, which needs a token to exist first. The project
    of a request is its ?project= (or X-Remem-Project header), else --project's.
    Without TLS, put it behind a reverse proxy that terminates HTTPS before you expose
    it: tokens travel in every request.

    \b
    Example:
      remem token create --user alice
      remem serve                                  # http://127.0.0.1:8765/
      remem --db postgresql://… serve --host 0.0.0.0 --port 8765
      remem serve --json                           # what it would serve, then exit
    """
    try:
        import uvicorn

        from remem.servers.auth import is_loopback
        from remem.servers.backend import Backend
        from remem.servers.http import build_app
    except ImportError as exc:  # the web stack is the `serve` extra
        from remem.errors import MissingExtra

        missing = MissingExtra("remem serve", exc.name or "the serve extra", "serve")
        raise click.ClickException(str(missing)) from exc
    from remem.retrieval.embedding import embedder_from_env

    settings = ctx.find_root().obj.settings
    backend = Backend(settings, embedder=None if as_json else embedder_from_env())
    active = backend.check.active()
    shown = f"[{host}]" if ":" in host else host
    if as_json:
        backend.close()
        data = _what_it_serves(f"http://{shown}:{port}", backend.store.path, settings.project)
        data.update(loopback=is_loopback(host), active_tokens=active)
        emit(True, data, lambda: None)
        return
    if not is_loopback(host) and active == 0:
        backend.close()
        raise click.ClickException(
            f"refusing to listen on {host}: no API token exists yet, so anyone reaching "
            "it would be refused and nobody could use it; create one first "
            "(remem token create --user NAME) or listen on 127.0.0.1"
        )
    tell(f"remem serve: http://{shown}:{port}/ (web page), /api (REST, /openapi.json), /mcp")
    tell(f"  store {backend.store.path}, default project {settings.project}")
    if active == 0:
        tell("  no API token yet: every request is refused until `remem token create --user NAME`")
    try:
        uvicorn.run(build_app(backend, host=host), host=host, port=port, log_level="info")
    finally:
        backend.close()


def _what_it_serves(url: str, db: str, project: str) -> dict[str, object]:
    return {
        "url": f"{url}/",
        "api": f"{url}/api",
        "openapi": f"{url}/openapi.json",
        "mcp": f"{url}/mcp",
        "db": db,
        "project": project,
    }


@click.group()
def token() -> None:
    """Create, list and revoke the API tokens of `remem serve`.

    \b
    Example:
      remem token create --user alice
      remem token list
      remem token revoke 3f2a9c1b
    """


def _token_dict(t: ApiToken) -> dict[str, object]:
    return {
        "id": t.id,
        "user": t.user_id,
        "agent": t.agent_id,
        "read_only": t.read_only,
        "name": t.name,
        "created_at": t.created_at.isoformat(timespec="seconds"),
        "last_used_at": t.last_used_at.isoformat(timespec="seconds") if t.last_used_at else None,
        "revoked_at": t.revoked_at.isoformat(timespec="seconds") if t.revoked_at else None,
    }


@token.command("create")
@click.option("--user", "user_id", required=True, metavar="ID", help="Whose memories.")
@click.option("--agent", "agent_id", metavar="ID", help="Also bind it to one agent.")
@click.option("--read-only", is_flag=True, help="It may read, never change.")
@click.option("--name", default="", help="A note for `token list` (whose laptop, which CI).")
@json_option
def create(user_id: str, agent_id: str | None, read_only: bool, name: str, as_json: bool) -> None:
    """Create a token; it is printed once and only its hash is kept.

    \b
    Example:
      remem token create --user alice
      remem token create --user ci --agent nightly --read-only --name "CI reader"
    """
    from remem.servers.auth import issue_token

    secret, record = issue_token(
        current_memory().store, user_id, agent_id=agent_id, read_only=read_only, name=name
    )

    def human() -> None:
        kind = "read-only token" if read_only else "token"
        who = f"user {record.user_id}" + (f", agent {record.agent_id}" if record.agent_id else "")
        tell(f"Created {kind} {record.id} for {who}. It is shown only now; keep it secret:")
        click.echo(secret)

    emit(as_json, {**_token_dict(record), "token": secret}, human)


@token.command("list")
@json_option
def list_tokens(as_json: bool) -> None:
    """List every token (never the token itself).

    \b
    Example:
      remem token list --json
    """
    tokens = current_memory(reads_only=True).store.tokens()

    def human() -> None:
        if not tokens:
            click.echo("No tokens. Create one: remem token create --user NAME")
        for t in tokens:
            d = _token_dict(t)
            state = f"revoked {d['revoked_at']}" if t.revoked_at else "active"
            mode = "read-only" if t.read_only else "read-write"
            agent = f" agent={t.agent_id}" if t.agent_id else ""
            used = f", last used {d['last_used_at']}" if t.last_used_at else ""
            note = f"  ({t.name})" if t.name else ""
            click.echo(
                f"{t.id}  user={t.user_id}{agent}  {mode}  {state}  "
                f"created {d['created_at']}{used}{note}"
            )

    emit(as_json, [_token_dict(t) for t in tokens], human)


@token.command("revoke")
@click.argument("token_id", metavar="ID")
@json_option
def revoke(token_id: str, as_json: bool) -> None:
    """Revoke a token at once (its record stays for `token list`).

    \b
    Example:
      remem token revoke 3f2a9c1b
    """
    from remem.entry import utcnow

    if not current_memory().store.revoke_token(token_id.strip(), utcnow()):
        raise click.ClickException(f"no active token with id {token_id!r}")
    emit(as_json, {"revoked": token_id}, lambda: click.echo(f"Revoked {token_id}."))
