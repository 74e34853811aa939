"""The API tokens of `remem serve` in SQL, written once for both SQL backends (the
`api_tokens` table: SQLite's migration 6, PostgreSQL's 4). A mixin of `SQLStore`, kept
apart so that the shared core stays within its size budget; it uses only the core's
`:name` statements and the backend's `Dialect`."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import TYPE_CHECKING, Any

from remem.entry import to_utc
from remem.store.protocol import ApiToken
from remem.store.rows import Dialect

_COLUMNS = "id, digest, user_id, agent_id, read_only, name, created_at, last_used_at, revoked_at"


def _row_to_token(row: Sequence[Any]) -> ApiToken:
    tid, digest, user, agent, read_only, name, created, used, revoked = row
    return ApiToken(
        id=tid,
        digest=digest,
        user_id=user,
        agent_id=agent,
        read_only=bool(read_only),
        created_at=to_utc(created),
        name=name,
        last_used_at=to_utc(used) if used else None,
        revoked_at=to_utc(revoked) if revoked else None,
    )


class TokenTable:
    """`Store.add_token`, `tokens`, `token`, `revoke_token` and `token_used` in SQL."""

    dialect: Dialect
    read_only = False  # a SQLite file opened read-only (a backend sets it)

    if TYPE_CHECKING:  # supplied by SQLStore and the backend

        def write(self) -> AbstractContextManager[None]: ...
        def _rows(self, sql: str, params: dict[str, Any] | None = None) -> list[Any]: ...
        def _run(self, sql: str, params: dict[str, Any] | None = None) -> None: ...

    def add_token(self, token: ApiToken) -> None:
        t = self.dialect.time
        with self.write():
            self._run(
                f"INSERT INTO api_tokens({_COLUMNS}) VALUES (:id, :digest, :user, :agent, "
                ":read_only, :name, :created, NULL, NULL)",
                {
                    "id": token.id,
                    "digest": token.digest,
                    "user": token.user_id,
                    "agent": token.agent_id,
                    "read_only": int(token.read_only),
                    "name": token.name,
                    "created": t(token.created_at),
                },
            )

    def tokens(self) -> list[ApiToken]:
        rows = self._rows(f"SELECT {_COLUMNS} FROM api_tokens ORDER BY created_at, id")
        return [_row_to_token(r) for r in rows]

    def token(self, digest: str) -> ApiToken | None:
        rows = self._rows(
            f"SELECT {_COLUMNS} FROM api_tokens WHERE digest = :d AND revoked_at IS NULL",
            {"d": digest},
        )
        return _row_to_token(rows[0]) if rows else None

    def revoke_token(self, token_id: str, at: datetime) -> bool:
        with self.write():
            found = self._rows(
                "SELECT id FROM api_tokens WHERE id = :id AND revoked_at IS NULL", {"id": token_id}
            )
            if found:
                self._run(
                    "UPDATE api_tokens SET revoked_at = :at WHERE id = :id",
                    {"id": token_id, "at": self.dialect.time(at)},
                )
        return bool(found)

    def token_used(self, token_id: str, at: datetime) -> None:
        if self.read_only:
            return  # a read-only store still answers; it just forgets when
        with self.write():
            self._run(
                "UPDATE api_tokens SET last_used_at = :at WHERE id = :id",
                {"id": token_id, "at": self.dialect.time(at)},
            )
