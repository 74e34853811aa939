"""Settings, resolved once at the edge (CLI, MCP, or `Memory()`) and passed down."""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from remem.errors import InvalidInput

DB_NAME = "memory.db"


@dataclass(frozen=True, slots=True)
class RankingConfig:
    """Every knob of ranking and injection (what they serve: docs/design.md, RT1-RT8)."""

    k1: float = 1.2
    b: float = 0.75
    pseudo_docs: int = 10
    floor: float = 0.2  # minimum relevance for automatic injection
    # SPEC RT8. A cold entry (not written, verified or injected for `warm_days`) must
    # answer about a third of the query to be injected unasked: one shared rare word of
    # a three-word query (~0.2-0.3) is enough for a memory in current use, not for one
    # nobody has touched in a week. Explicit searches ignore tiers.
    warm_days: float = 7.0
    cold_floor: float = 0.35
    hot_boost: float = 1.1  # this session's memories win close calls for the budget
    candidates: int = 100
    # With embeddings, semantic candidates cover what the most common query terms would
    # add, so keyword candidates come from a smaller postings budget (half the time at
    # 100k entries; `git show 711d3dc:benchmarks/README.md`).
    hybrid_postings: int = 4_000
    # A keyword match answering this much of the query (BM25 relevance, 1 = every term
    # once) settles it: vectors are not consulted, so no model is loaded. With the
    # spread fusion the vectors help even the best keyword matches (LoCoMo R@10 0.79 at
    # a gate of 0.8, where half of its questions skip them; 0.849 at 1.5, where 1-2%
    # do; 0.850 with no gate; MADial and the zh paraphrase set never reach it), so by
    # default nothing settles a query (session 9 of benchmarks/README.md at 711d3dc). A lower value
    # trades that recall for never embedding queries a keyword match answers.
    keyword_confident: float = math.inf
    max_entries: int = 10
    window: int = 200_000
    stale_days: float = 30.0
    near_duplicate: float = 0.9
    # A query naming an entity is about that entity's memories: at 1.2 the boost was
    # lost in BM25's length noise (LoCoMo R@5 +0.03 on both held-apart conversations).
    entity_boost: float = 1.4
    # A query naming a month or year ("in June", "2023年3月") prefers memories written
    # then: the date of a memory is part of what it is about, though not in its words.
    date_boost: float = 1.5
    decay_floor: float = 0.35  # an old entry keeps this share of its score
    semantic_weight: float = 1.0  # scales each embedder's own weight (Embedder.weight)
    # Hybrid order (ranking.spread_fusion): the vectors' weight in spreads of the keyword
    # scores. Measured on LoCoMo, MADial zh/en and the zh paraphrase set at once
    # (benchmarks/fusion_lab.py): LoCoMo R@10 holds 0.80-0.82 from 1.15 to 1.6 (additive
    # fusion 0.77); from 1.0 to 1.9 MADial moves within +-0.01, and at 1.6 it finds at
    # least as many relevant memories at 5, 10 and 20 as the additive fusion did.
    vector_share: float = 1.6
    # A conversation turn next to one of the `neighbour_hits` best hits (same session,
    # at most `neighbour_turns` turns away) gains `neighbour_share` of that hit's score:
    # the turns around an answer are its context ("Yes, last weekend!"). LoCoMo R@10,
    # conversation 26 / 30: hybrid 0.824 / 0.829 -> 0.837 / 0.841, keyword-only 0.749 /
    # 0.785 -> 0.762 / 0.806 (benchmarks/README.md at 711d3dc); memories saved one by one (MADial)
    # have no turns and do not move.
    neighbour_hits: int = 3
    neighbour_turns: int = 2
    neighbour_share: float = 0.1
    # In hybrid search, a conversation turn among the `asked_hits` best that holds the
    # query's words only in its questions ("How'd you feel while painting it?") loses its
    # keyword part: asking about a thing says nothing of it. LoCoMo R@10 conversation 26 /
    # 30: 0.837 / 0.841 -> 0.853 / 0.841; MADial and the zh set hold no such memory and do
    # not move. 15 bounds the entries read for it (10: 26 at 0.849; 15-200: the same R@10;
    # benchmarks/README.md at 711d3dc).
    asked_hits: int = 15
    half_life_days: dict[str, float] = field(
        default_factory=lambda: dict(
            preference=365.0,
            fact=180.0,
            decision=60.0,
            milestone=90.0,
            change=30.0,
            summary=60.0,
            conversation=120.0,
            tool_result=14.0,
        )
    )
    source_weight: dict[str, float] = field(
        default_factory=lambda: {
            "user_explicit": 1.0,
            "import": 0.95,
            "model": 0.9,
            "tool": 0.8,
            "auto_extracted": 0.75,
        }
    )
    type_weight: dict[str, float] = field(
        default_factory=lambda: dict(
            preference=1.0,
            decision=1.0,
            fact=1.0,
            milestone=0.9,
            change=0.85,
            summary=0.85,
            conversation=0.8,
            tool_result=0.6,
        )
    )

    def budget(self, window: int | None = None) -> int:
        """Token budget of the memory block: max(500, min(5000, window / 200))."""
        return max(500, min(5000, (window or self.window) // 200))


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # an undecodable byte of a folder name or an argument
        return False
    return True


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


_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


def check_location(db: str | os.PathLike[str]) -> None:
    """A store location must be a file path or a postgresql:// URL: `mysql://…` is an
    error, not the name of a new SQLite file."""
    if "\x00" in str(os.fspath(db)):
        from remem.errors import InvalidInput

        raise InvalidInput("the store location holds a NUL byte: no file can have that name")
    match = _SCHEME.match(os.fspath(db)) if isinstance(db, str) else None
    if match and not is_url(db):
        from remem.errors import InvalidInput

        raise InvalidInput(
            f"unsupported store URL scheme {match.group(1)!r}: use a file path or "
            "postgresql://user@host/db"
        )


def _sync(value: str) -> str:
    mode = value.strip().upper() or "FULL"
    if mode not in ("FULL", "NORMAL", "EXTRA"):
        from remem.errors import InvalidInput

        raise InvalidInput(f"REMEM_SYNC={value!r} is unknown: use full, normal or extra")
    return mode


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
        if db is not None and not os.fspath(db).strip():
            raise InvalidInput("the store location is empty: give a file or a postgresql:// URL")
        db_value = db if db is not None else env.get("REMEM_DB")
        db_path: Path | str = home / DB_NAME
        if db_value:
            check_location(db_value)
            db_path = str(db_value) if is_url(db_value) else Path(db_value).expanduser()
        key = project_key(project, cwd)
        for what, value in (("project", key), ("user id", user_id), ("agent id", agent_id)):
            if value is not None and not _utf8(value):
                raise InvalidInput(f"the {what} is not valid UTF-8: {ascii(value)}")
        return cls(
            home=home,
            db=db_path,
            project=key,
            user_id=user_id,
            agent_id=agent_id,
            session_id=session_id,
            synchronous=_sync(env.get("REMEM_SYNC", "")),
        )


def describe(location: str | os.PathLike[str]) -> str:
    """A store location for messages, with any password in a URL masked."""
    if isinstance(location, str) and is_url(location):
        from urllib.parse import urlsplit

        parts = urlsplit(location)
        if parts.password:
            netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
            return parts._replace(netloc=netloc).geturl()
    return os.fspath(location)


# -- the environment -----------------------------------------------------------------
# Every REMEM_* variable is read in this module (tests/test_package.py checks it), so
# this is the one list of what the environment can change; README's "Configuration"
# says what each is for. `env` stands in for os.environ in tests.


def _env(env: Mapping[str, str] | None, name: str) -> str:
    return (os.environ if env is None else env).get(name, "").strip()


def tokenizer_name(env: Mapping[str, str] | None = None) -> str:
    """`REMEM_TOKENIZER` as given ('' for the default); `remem.tokens` checks it."""
    return _env(env, "REMEM_TOKENIZER")


def estimate_tokens_unless_set() -> None:
    """`REMEM_TOKENIZER=estimate` unless the user chose one: for an agent's hook, whose
    block budget needs no exact count (the exact tokenizer's first load takes seconds)."""
    os.environ.setdefault("REMEM_TOKENIZER", "estimate")


def hook_tokens(env: Mapping[str, str] | None = None) -> int | None:
    """`REMEM_HOOK_TOKENS`: the budget of the block an agent's hook adds (None: default)."""
    value = _env(env, "REMEM_HOOK_TOKENS")
    if not value:
        return None
    try:
        tokens = int(value)
    except ValueError:
        tokens = 0
    if tokens < 1:  # 0 or less would add no memory at all, silently
        raise InvalidInput(f"REMEM_HOOK_TOKENS={value!r} is not a positive whole number")
    return tokens


def warm_service_wanted(env: Mapping[str, str] | None = None) -> bool:
    """`REMEM_WARM` (default on): one-shot commands use the warm vector service."""
    value = (os.environ if env is None else env).get("REMEM_WARM", "1")
    return value.strip().lower() not in ("0", "no", "off", "")


def locations(env: Mapping[str, str] | None = None) -> list[str]:
    """`REMEM_HOME` and `REMEM_DB` where set: a process answering for another (the warm
    service, a prompt's hook) must not read relative ones from its own folder."""
    raw = os.environ if env is None else env
    return [raw[name] for name in ("REMEM_HOME", "REMEM_DB") if raw.get(name)]


def warm_idle(default: float, env: Mapping[str, str] | None = None) -> float:
    """`REMEM_WARM_IDLE`: seconds without a request before the warm service exits."""
    value = (os.environ if env is None else env).get("REMEM_WARM_IDLE")
    return float(value) if value is not None else default


def subjects_by_model(env: Mapping[str, str] | None = None) -> bool:
    """`REMEM_SUBJECTS=llm`: the configured model reads subjects the rules cannot and
    judges the changes they and the small judge leave unsure."""
    return _env(env, "REMEM_SUBJECTS").lower() == "llm"


def pg_pool_size(default: int = 4, env: Mapping[str, str] | None = None) -> int:
    """`REMEM_PG_POOL`: connections in a PostgreSQL store's read pool."""
    value = (os.environ if env is None else env).get("REMEM_PG_POOL")
    return int(value) if value is not None else default


@dataclass(frozen=True, slots=True)
class ModelEnv:
    """What `REMEM_LLM_*` and `REMEM_EMBED*` say about the models (None when unset or
    blank; `remem.llm` adds the OPENAI_* fallbacks, `remem.retrieval.embedding` reads
    `embedder` and the embedding endpoint's)."""

    llm_base_url: str | None
    llm_api_key: str | None = field(repr=False)
    llm_model: str | None
    embedder: str  # REMEM_EMBEDDER, lower-cased; '' when unset
    embed_model: str | None
    embed_base_url: str | None
    embed_api_key: str | None = field(repr=False)

    @classmethod
    def read(cls, env: Mapping[str, str] | None = None) -> ModelEnv:
        raw = os.environ if env is None else env

        def get(name: str) -> str | None:
            return _env(env, name) or None

        return cls(
            llm_base_url=get("REMEM_LLM_BASE_URL"),
            llm_api_key=get("REMEM_LLM_API_KEY"),
            llm_model=get("REMEM_LLM_MODEL"),
            embedder=_env(env, "REMEM_EMBEDDER").lower(),
            embed_model=raw.get("REMEM_EMBED_MODEL") or None,
            embed_base_url=raw.get("REMEM_EMBED_BASE_URL") or None,
            embed_api_key=raw.get("REMEM_EMBED_API_KEY") or None,
        )
