"""Where the embedders used to live; they are in `remem.retrieval.embedding` now, and
this name keeps code written against the old path working."""

from remem.retrieval.embedding import (
    E5Embedder,
    Embedder,
    FakeEmbedder,
    OpenAIEmbedder,
    USEEmbedder,
    embedder_from_env,
)

__all__ = [
    "E5Embedder",
    "Embedder",
    "FakeEmbedder",
    "OpenAIEmbedder",
    "USEEmbedder",
    "embedder_from_env",
]
