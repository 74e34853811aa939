"""Calibrating the fusion of keyword and vector relevance on every data set at once.

    .venv/bin/python benchmarks/fusion_lab.py [--models use,e5]

Each corpus (LoCoMo conversations through add_messages, MADial zh/en through save, the
Chinese paraphrase set) is written once into a keyword-only store; then, per question,
the keyword candidates remem ranks (with every multiplier: decay, weights, entity and
date boosts) and the cosine of every memory under each model are computed once, and
fusion rules are scored offline in milliseconds. Embeddings are cached under
$REMEM_LAB_CACHE (default /tmp/remem-lab) by model and text.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import machine
from remem import Memory, text
from remem.bench import locomo, madial
from remem.bench.harness import Corpus, Query
from remem.retrieval import ranking
from remem.retrieval.embedding import E5Embedder, Embedder, USEEmbedder
from remem.retrieval.vector_index import embed_text, query_vector

SHARED = next(
    (
        p / "shared" / "data"
        for p in Path(__file__).resolve().parents
        if (p / "shared" / "data").is_dir()
    ),
    Path("shared/data"),
)
ZH = Path(__file__).resolve().parents[1] / "tests" / "data" / "zh_hybrid.json"
CACHE = Path(os.environ.get("REMEM_LAB_CACHE", "/tmp/remem-lab"))


class Cached:
    """An embedder whose vectors are cached on disk by text."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.dir = CACHE / inner.name
        self.dir.mkdir(parents=True, exist_ok=True)

    def embed(self, texts: list[str], *, query: bool = False) -> np.ndarray:
        keys = [hashlib.sha1(f"{query}|{t}".encode()).hexdigest() for t in texts]
        missing = [i for i, k in enumerate(keys) if not (self.dir / f"{k}.npy").exists()]
        if missing:
            vecs = self.inner.embed([texts[i] for i in missing], query=query)
            for i, v in zip(missing, vecs, strict=True):
                np.save(self.dir / f"{keys[i]}.npy", v)
        return np.stack([np.load(self.dir / f"{k}.npy") for k in keys])


def zh_corpus() -> Corpus:
    data = json.loads(ZH.read_text(encoding="utf-8"))

    def ingest(mem: Memory) -> int:
        for i, c in enumerate(data["memories"]):
            mem.save(c, metadata={"key": str(i)})
        return len(data["memories"])

    texts = {str(i): c for i, c in enumerate(data["memories"])}
    queries = [Query(q["q"], frozenset({str(q["expect"])})) for q in data["queries"]]
    return Corpus("zh_hybrid", ingest, texts, queries, key="key")


def corpora() -> dict[str, list[Corpus]]:
    lo = [locomo.corpus(locomo.load(p)) for p in sorted((SHARED / "locomo").glob("*.json"))]
    out = {f"locomo-{c.name}": [c] for c in lo}
    for lang in ("zh", "en"):
        out[f"madial-{lang}"] = madial.load(
            SHARED / "madial" / f"MADial-Bench-{lang}-dialogue.json"
        )
    out["zh_hybrid"] = [zh_corpus()]
    return out


@dataclass
class QueryData:
    relevant: frozenset[str]
    kw: dict[str, float]  # key -> keyword relevance (remem's BM25, candidates only)
    mult: dict[str, float]  # key -> decay x weights x boosts, every memory
    tokens: dict[str, int]
    cos: dict[str, np.ndarray]  # model -> cosine of every memory (in `keys` order)


@dataclass
class Prepared:
    name: str
    keys: list[str]
    queries: list[QueryData]


def prepare(corpus: Corpus, models: dict[str, Cached], tmp: Path) -> Prepared:
    from remem.retrieval import block
    from remem.retrieval.ranking import Hit
    from remem.tokens import count_tokens

    mem = Memory(tmp / f"{corpus.name}.db", project=corpus.name, embedder=None)
    corpus.ingest(mem)
    entries = {str(e.metadata.get(corpus.key)): e for e in mem.store.find(mem._filter())}
    keys = sorted(entries)
    docs = {m: cached.embed([embed_text(entries[k]) for k in keys]) for m, cached in models.items()}
    cfg = mem.ranking
    now = ranking.utcnow()
    out = []
    for q in corpus.queries:
        terms = text.query_terms(q.text)
        cands, stats = mem.store.keyword(terms, mem._filter(), limit=cfg.candidates)
        kw = {
            str(c.entry.metadata.get(corpus.key)): ranking.bm25_relevance(
                c.terms, terms, stats, cfg
            )
            for c in cands
        }
        dates = ranking.query_dates(q.text)
        qset, named = set(terms), {}
        mult = {}
        for k in keys:
            e = entries[k]
            w = cfg.source_weight.get(e.source, 0.8) * cfg.type_weight.get(e.type, 0.8)
            if e.entity and ranking._names(e.entity, qset, named):
                w *= cfg.entity_boost
            if dates.matches(e.created_at):
                w *= cfg.date_boost
            mult[k] = ranking.decay(e, now, cfg) * w
        tokens = {k: count_tokens(block.line(Hit(entries[k], 0, 0, 1, False))) for k in keys}
        # the query's vector as a search makes it (named entities: query_vector)
        names = ranking.named_entities((c.entry.entity for c in cands), terms)
        cos = {m: docs[m] @ query_vector(cached, q.text, names) for m, cached in models.items()}  # type: ignore[arg-type]
        out.append(QueryData(q.relevant, kw, mult, tokens, cos))
    mem.close()
    return Prepared(corpus.name, keys, out)


Rule = Callable[[Prepared, QueryData], list[str]]


def evaluate(preps: list[Prepared], rule: Rule, ks: tuple[int, ...] = (5, 10, 20)) -> dict:
    recall = {k: [] for k in ks}
    tokens = {k: [] for k in ks}
    for p in preps:
        for q in p.queries:
            ranked = rule(p, q)
            for k in ks:
                top = ranked[:k]
                recall[k].append(len(q.relevant & set(top)) / len(q.relevant))
                tokens[k].append(sum(q.tokens[t] for t in top))
    return {k: (float(np.mean(recall[k])), float(np.mean(tokens[k]))) for k in ks}


def _calibrated(model: Embedder, cos: np.ndarray) -> np.ndarray:
    return np.clip((cos - model.low) / (model.high - model.low), 0.0, 1.0)


def keyword_rule(p: Prepared, q: QueryData) -> list[str]:
    return sorted(q.kw, key=lambda k: -q.kw[k] * q.mult[k])


def nearest(p: Prepared, q: QueryData, m: str, n: int) -> list[str]:
    return [p.keys[i] for i in np.argsort(-q.cos[m])[:n]]


def fuse_rule(model: Embedder, m: str, w: float, gate: float = math.inf) -> Rule:
    """remem's fusion: keyword + w * semantic * (1 - keyword), over the keyword candidates
    and the 50 nearest, times the multipliers; keyword only when the best keyword
    relevance reaches `gate`."""

    def rule(p: Prepared, q: QueryData) -> list[str]:
        if q.kw and max(q.kw.values()) >= gate:
            return keyword_rule(p, q)
        near = set(nearest(p, q, m, 50))
        sem = dict(zip(p.keys, _calibrated(model, q.cos[m]), strict=True))

        def score(k: str) -> float:
            kw = q.kw.get(k, 0.0)
            s = sem[k] if k in near else 0.0
            return (kw + w * s * max(0.0, 1.0 - kw)) * q.mult[k]

        return sorted(set(q.kw) | near, key=lambda k: -score(k))

    return rule


def spread_rule(m: str, share: float, gate: float = math.inf) -> Rule:
    """remem's hybrid order (`ranking.spread_fusion`): over the keyword candidates and
    the 50 nearest, keyword x multipliers + w x cosine x multipliers with w = `share` x
    the keyword scores' spread over the cosines'; keyword only at `gate`."""

    def rule(p: Prepared, q: QueryData) -> list[str]:
        if q.kw and max(q.kw.values()) >= gate:
            return keyword_rule(p, q)
        pool = sorted(set(q.kw) | set(nearest(p, q, m, 50)))
        cos = dict(zip(p.keys, q.cos[m].tolist(), strict=True))
        scores = ranking.spread_fusion(
            [q.kw.get(k, 0.0) * q.mult[k] for k in pool],
            [max(0.0, cos[k]) * q.mult[k] for k in pool],
            share,
        )
        return [k for _, k in sorted(zip(scores, pool, strict=True), key=lambda t: -t[0])]

    return rule


def rrf_rule(m: str, k0: int, wv: float) -> Rule:
    def rule(p: Prepared, q: QueryData) -> list[str]:
        scores: dict[str, float] = {}
        for rank, key in enumerate(keyword_rule(p, q)):
            scores[key] = scores.get(key, 0.0) + 1 / (k0 + rank + 1)
        for rank, key in enumerate(nearest(p, q, m, 50)):
            scores[key] = scores.get(key, 0.0) + wv / (k0 + rank + 1)
        return sorted(scores, key=lambda k: -scores[k])

    return rule


def report(sets: dict[str, list[Prepared]], makers: dict[str, Embedder]) -> None:
    rules: dict[str, Rule] = {"keyword": keyword_rule}
    for m, model in makers.items():
        rules[f"vector {m}"] = lambda p, q, m=m: nearest(p, q, m, 20)
        for w in (0.05, 0.1, 0.15, 0.2, 0.3, 0.6):
            rules[f"fuse {m} w={w}"] = fuse_rule(model, m, w)
        for k0, wv in ((10, 0.5), (60, 1.0)):
            rules[f"rrf {m} k={k0} wv={wv}"] = rrf_rule(m, k0, wv)
        for share in (1.0, 1.3, 1.6, 1.9):
            rules[f"spread {m} share={share}"] = spread_rule(m, share)
    if "use" in makers:
        for gate in (0.5, 0.8, 1.0):
            rules[f"fuse use w=0.1 gate={gate}"] = fuse_rule(makers["use"], "use", 0.1, gate)
        for gate in (0.8, 1.0, 1.5):
            rules[f"spread use 1.6 gate={gate}"] = spread_rule("use", 1.6, gate)
    print(f"{'rule':<26} " + " ".join(f"{n:>24}" for n in sets))
    print(f"{'':<26} " + " ".join(f"{'R@5/10/20 tok@10':>24}" for _ in sets))
    for label, rule in rules.items():
        cells = []
        for preps in sets.values():
            r = evaluate(preps, rule)
            cells.append(f"{r[5][0]:.3f}/{r[10][0]:.3f}/{r[20][0]:.3f} {r[10][1]:>4.0f}")
        print(f"{label:<26} " + " ".join(f"{c:>24}" for c in cells))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", default="use,e5")
    args = parser.parse_args()
    makers: dict[str, Embedder] = {"use": USEEmbedder(), "e5": E5Embedder()}
    chosen = {m: makers[m] for m in args.models.split(",")}
    models = {m: Cached(e) for m, e in chosen.items()}
    with tempfile.TemporaryDirectory() as tmp:
        sets = {name: [prepare(c, models, Path(tmp)) for c in cs] for name, cs in corpora().items()}
    print({n: sum(len(p.queries) for p in ps) for n, ps in sets.items()}, "questions")
    report(sets, chosen)
    print(machine.line())


if __name__ == "__main__":
    main()
