"""Where the embedders used to live; they are in `remem.retrieval.embedding` now, and
this name keeps code written against the old path working."""

from remem.retrieval.embedding import *  # noqa: F403
from remem.retrieval.embedding import __all__ as __all__
