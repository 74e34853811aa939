"""Embedders: the fake's determinism, the environment's choice, the OpenAI-compatible
endpoint (served locally), and vectors kept per model in the store."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from remem import Memory
from remem.errors import RememError
from remem.retrieval.embedding import (
    FakeEmbedder,
    OpenAIEmbedder,
    USEEmbedder,
    embedder_from_env,
)
from remem.store.sqlite.store import SQLiteStore


def test_fake_is_deterministic_normalised_and_literal() -> None:
    emb = FakeEmbedder()
    a = emb.embed(["项目使用 Spring Boot", "Java 框架", "项目使用 Spring Boot"])
    assert a.dtype == np.float32 and a.shape == (3, emb.dim)
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(a[0], a[2])
    assert float(a[0] @ a[1]) < 0.3  # synonyms do not match: only shared terms do
    assert emb.embed([]).shape == (0, emb.dim)


def test_embedder_from_env() -> None:
    assert embedder_from_env({"REMEM_EMBEDDER": "none"}) is None
    assert isinstance(embedder_from_env({}), USEEmbedder)  # hybrid wherever it is installed
    assert embedder_from_env({}, default="none") is None
    assert isinstance(embedder_from_env({"REMEM_EMBEDDER": "use"}), USEEmbedder)
    assert isinstance(embedder_from_env({"REMEM_EMBEDDER": "fake"}), FakeEmbedder)
    openai = embedder_from_env({"REMEM_EMBED_MODEL": "m", "REMEM_LLM_BASE_URL": "http://x/v1"})
    assert isinstance(openai, OpenAIEmbedder) and openai.name == "openai:m"
    with pytest.raises(RememError):
        embedder_from_env({"REMEM_EMBEDDER": "bogus"})
    with pytest.raises(RememError):
        embedder_from_env({"REMEM_EMBEDDER": "openai"})


class _Handler(BaseHTTPRequestHandler):
    seen: list[dict[str, Any]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.seen.append(body)
        vectors = FakeEmbedder(8).embed(body["input"]).tolist()
        data = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)]
        reply = {"object": "list", "data": data[::-1], "model": body["model"],
                 "usage": {"prompt_tokens": 1, "total_tokens": 1}}  # fmt: skip
        raw = json.dumps(reply).encode()
        self.send_response(200 if self.path.endswith("/embeddings") else 404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    httpd = HTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()
    httpd.server_close()


def test_openai_embedder_orders_and_normalises(server: str) -> None:
    emb = OpenAIEmbedder("embed-small", base_url=server, api_key=None)
    out = emb.embed(["alpha beta", "gamma"])
    assert out.shape == (2, 8) and emb.dim == 8
    assert np.allclose(out, FakeEmbedder(8).embed(["alpha beta", "gamma"]), atol=1e-6)
    assert _Handler.seen[-1]["model"] == "embed-small"


def test_openai_embedder_failure_is_a_clean_error() -> None:
    emb = OpenAIEmbedder("m", base_url="http://127.0.0.1:9/v1", api_key="k")
    emb._client = None
    import openai

    emb._client = openai.OpenAI(base_url="http://127.0.0.1:9/v1", api_key="k", max_retries=0)
    with pytest.raises(RememError, match="embeddings endpoint failed"):
        emb.embed(["x"])


def test_vectors_are_tagged_per_model_and_switching_reembeds(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with Memory(db, project="p", embedder=FakeEmbedder(16)) as mem:
        mem.save("项目使用 Spring Boot", metadata={"k": [1, "二", {"x": None}]})
        mem.save("数据库是 PostgreSQL", type="conversation")
        assert mem.reindex() == 1  # the fact was embedded on save (LT9), the turn now
        assert mem.reindex() == 0
        assert mem.search("PostgreSQL")[0].entry.content == "数据库是 PostgreSQL"
    other = FakeEmbedder(32)
    other.name = "fake-32"
    with Memory(db, project="p", embedder=other) as mem:
        ticks: list[int] = []
        assert mem.reindex(ticks.append) == 2 and sum(ticks) == 2
        assert mem.search("Spring")[0].entry.metadata == {"k": [1, "二", {"x": None}]}
    store = SQLiteStore(db)
    ids, blobs = store.vectors("fake-32")
    assert len(ids) == 2 and all(len(b) == 4 * 32 for b in blobs)
    assert store.vectors("fake-hash") == ([], [])  # one space per store: never mixed
    assert store._q("SELECT DISTINCT model, dim FROM vectors") == [("fake-32", 32)]
    assert store._q("SELECT max(version) FROM schema_migrations")[0][0] >= 3
    store.close()


def test_deleting_an_entry_drops_its_vectors(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", project="p", embedder=FakeEmbedder()) as mem:
        entry = mem.save("临时记录 alpha").entry
        mem.reindex()
        mem.delete(entry.id)
        assert mem.store.vectors("fake-hash") == ([], [])
        assert mem.search("alpha") == []


def test_cache_grows_with_new_entries(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", project="p", embedder=FakeEmbedder()) as mem:
        mem.save("alpha beta gamma", type="conversation")
        # Each query also names something no memory says, so keywords do not settle it
        # and the vectors are asked (RankingConfig.keyword_confident).
        assert mem.search("alpha omega")[0].entry.content == "alpha beta gamma"
        assert mem.vectors is not None and len(mem.vectors._positions) == 1
        mem.save("delta epsilon", type="conversation")  # embedded lazily by the next search
        mem.save("zeta eta theta")  # embedded on save (semantic check)
        assert mem.search("epsilon omega")[0].entry.content == "delta epsilon"
        matrix = mem.vectors._matrix
        assert len(mem.vectors._positions) == 3 and matrix is not None and len(matrix) == 3
        assert mem.reindex() == 0 and not mem.vectors._positions  # a full pass reloads
        assert mem.vectors._matrix is None
        assert mem.search("theta omega")[0].entry.content == "zeta eta theta"
        assert len(mem.vectors._positions) == 3
