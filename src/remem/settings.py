"""Settings, resolved once at the edge (CLI, MCP, or `Memory()`) and passed down."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from remem.retrieval import RankingConfig

DB_NAME = "memory.db"


def home_dir(env: Mapping[str, str] | None = None) -> Path:
    """`REMEM_HOME`, else ~/.remem."""
    env = os.environ if env is None else env
    value = env.get("REMEM_HOME")
    return Path(value).expanduser() if value else Path.home() / ".remem"


def project_root(start: Path | None = None) -> Path:
    """The nearest folder upward holding `.git`, else the starting folder."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / ".git").exists():
            return folder
    return here


def project_key(project: str | os.PathLike[str] | None, cwd: Path | None = None) -> str:
    """What entries of project scope are filed under: the project root's absolute path
    for a path (anything with a separator, or starting with . or ~), else a plain name
    (`--project myapp`) used as given."""
    if project is None:
        return str(project_root(cwd))
    value = os.fspath(project)
    if isinstance(project, os.PathLike) or os.sep in value or value.startswith((".", "~")):
        return str(project_root(Path(value).expanduser().resolve()))
    return value


def is_url(db: str | os.PathLike[str]) -> bool:
    """A server store (`postgresql://…`) rather than a file path."""
    return isinstance(db, str) and db.startswith(("postgresql://", "postgres://"))


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything a `Memory` needs to know about its surroundings."""

    home: Path
    db: Path | str  # a SQLite file, or a postgresql:// URL (kept as the string given)
    project: str
    user_id: str | None = None
    agent_id: str | None = None
    session_id: str | None = None
    max_content_chars: int = 32_000
    synchronous: str = "FULL"  # REMEM_SYNC=normal trades power-loss durability for speed
    ranking: RankingConfig = field(default_factory=RankingConfig)

    @classmethod
    def resolve(
        cls,
        *,
        db: str | os.PathLike[str] | None = None,
        project: str | os.PathLike[str] | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        session_id: str | None = None,
        cwd: Path | None = None,
        env: Mapping[str, str] | None = None,
    ) -> Settings:
        env = os.environ if env is None else env
        home = home_dir(env)
        db_value = db if db is not None else env.get("REMEM_DB")
        db_path: Path | str = home / DB_NAME
        if db_value:
            db_path = str(db_value) if is_url(db_value) else Path(db_value).expanduser()
        return cls(
            home=home,
            db=db_path,
            project=project_key(project, cwd),
            user_id=user_id,
            agent_id=agent_id,
            session_id=session_id,
            synchronous=env.get("REMEM_SYNC", "FULL").upper(),
        )
