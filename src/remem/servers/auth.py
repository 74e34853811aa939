"""Who may use `remem serve`: per-user API tokens, kept hashed in the store.

A token reads `rmm_<id>_<secret>`: `id` is the public handle (`remem token list`,
`remem token revoke`), the secret 256 random bits. The store keeps only the SHA-256 of
the whole token, so a copy of the database lets nobody in. A fast hash is enough here
(as for GitHub's or PyPI's tokens): slow password hashes protect guessable secrets,
and nobody guesses 256 random bits. Every request carries its token and acts as the
token's user (and agent): it sees and changes only that partition (`remem.memory`
enforces it), and a read-only token changes nothing.

No web framework is imported here: `remem token ...` stays quick.
"""

from __future__ import annotations

import hashlib
import ipaddress
import re
import secrets
import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from remem.entry import utcnow
from remem.errors import InvalidInput, RememError
from remem.store.protocol import ApiToken, TokenStore

__all__ = ["PREFIX", "ReadOnlyToken", "TokenCheck", "digest_of", "is_loopback", "issue_token"]

PREFIX = "rmm_"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.@:+-]{0,127}")
_TOKEN = re.compile(r"rmm_[0-9a-f]{8}_[A-Za-z0-9_-]{43}")
TOUCH_EVERY = timedelta(minutes=5)  # how stale `last used` may be (each record is a write)


class ReadOnlyToken(RememError):
    """A write was asked for with a read-only token."""


def digest_of(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def check_name(value: str | None, what: str) -> str | None:
    """A user or agent id as a token may carry it: letters, digits, `_ . @ : + -`."""
    if value is None:
        return None
    value = value.strip()
    if not _NAME.fullmatch(value):
        raise InvalidInput(
            f"{what} must be 1-128 letters, digits or _ . @ : + - (got {ascii(value)[:60]})"
        )
    return value


def issue_token(
    store: TokenStore,
    user_id: str,
    *,
    agent_id: str | None = None,
    read_only: bool = False,
    name: str = "",
) -> tuple[str, ApiToken]:
    """Create a token for `user_id` (and `agent_id`): the token itself, shown once and
    never stored, and its record in `store`."""
    user = check_name(user_id, "the user id")
    assert user is not None
    if len(name) > 200 or any(ord(c) < 32 for c in name):
        raise InvalidInput("a token name is one line of at most 200 characters")
    token_id = secrets.token_hex(4)
    token = f"{PREFIX}{token_id}_{secrets.token_urlsafe(32)}"
    record = ApiToken(
        id=token_id,
        digest=digest_of(token),
        user_id=user,
        agent_id=check_name(agent_id, "the agent id"),
        read_only=read_only,
        created_at=utcnow(),
        name=name.strip(),
    )
    store.add_token(record)
    return token, record


@dataclass
class TokenCheck:
    """The server's look-up of tokens: every request asks the store (a primary-key read),
    so a revoked token stops working at once, and `last used` is written at most once
    per TOUCH_EVERY per token."""

    store: TokenStore
    _touched: dict[str, datetime] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, token: str | None) -> ApiToken | None:
        """The token's record, or None for no token, a malformed, unknown or revoked one."""
        if not token or not _TOKEN.fullmatch(token):
            return None
        record = self.store.token(digest_of(token))
        if record is not None:
            self._touch(record.id)
        return record

    def _touch(self, token_id: str) -> None:
        now = utcnow()
        with self._lock:
            last = self._touched.get(token_id)
            if last is not None and now - last < TOUCH_EVERY:
                return
            self._touched[token_id] = now
        try:
            self.store.token_used(token_id, now)
        except RememError:
            pass  # a busy or read-only store only forgets when the token was used

    def active(self) -> int:
        return sum(t.revoked_at is None for t in self.store.tokens())


def bearer(header: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header."""
    if not header:
        return None
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def is_loopback(host: str) -> bool:
    """Only this machine can reach `host` (127.0.0.0/8, ::1, localhost)."""
    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a host name: it may resolve to anything
