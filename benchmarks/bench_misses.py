"""Where the relevant memories that retrieval misses at k are, before changing anything.

    .venv/bin/python benchmarks/bench_misses.py [FILES...] [--k 10] [--near 50] [--quiet]

Each data set goes in as `bench_retrieval.py quality` writes it (LoCoMo through
`Memory.add_messages`, MADial and the paraphrase set through `Memory.save`). For every
relevant memory not among a query's k best hits it prints its rank in the search (up to
300), among the keyword candidates (by BM25 alone, as hybrid search fetches them) and by
cosine with the query's vector among every memory; then how many misses were among the
keyword candidates only, the `--near` nearest only, both (an ordering problem) or
neither (no candidate: a problem of what is searched, not of how it is ranked).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import machine  # noqa: E402
from bench_retrieval import corpora, data_sets  # noqa: E402
from remem import Memory, text  # noqa: E402
from remem.bench.harness import Corpus, Query  # noqa: E402
from remem.entry import Entry  # noqa: E402
from remem.retrieval import ranking  # noqa: E402
from remem.retrieval.embedding import embedder_from_env  # noqa: E402

DEEP = 300  # how far down the search a miss is looked for


def keyword_order(mem: Memory, query: str) -> list[str]:
    """Entry ids of the keyword candidates hybrid search fetches, best BM25 first."""
    cfg, flt = mem.ranking, mem._filter()
    terms = text.query_terms(query)
    if not terms:
        return []
    cands, stats = mem.store.keyword(terms, flt, limit=cfg.candidates, postings=cfg.hybrid_postings)
    scores = ranking.keyword_relevances(cands, terms, stats, cfg)
    return [c.id for c, _ in sorted(zip(cands, scores, strict=True), key=lambda t: -t[1])]


def vector_order(mem: Memory, query: str, ids: list[str]) -> list[str]:
    """Every entry id by cosine with the query's vector as a search makes it."""
    if mem.vectors is None:
        return []
    cfg, flt = mem.ranking, mem._filter()
    terms = text.query_terms(query)
    cands = mem.store.keyword(terms, flt, limit=cfg.candidates)[0] if terms else []
    names = ranking.named_entities((c.entity for c in cands), terms)
    cos = mem.vectors.cosines(mem.vectors.embed_query(query, names), ids)
    return sorted(cos, key=lambda e: -cos[e])


def misses(mem: Memory, corpus: Corpus, k: int, near: int, counts: Counter[str]) -> None:
    """Print each question's misses at `k` and count them by where they were."""
    entries = {e.id: e for e in mem.store.find(mem._filter())}
    key_of = {eid: str(e.metadata.get(corpus.key, "")) for eid, e in entries.items()}
    for q in corpus.queries:
        _misses(mem, entries, key_of, q, k, near, counts)


def _misses(
    mem: Memory, entries: dict[str, Entry], key_of: dict[str, str], q: Query, k: int, near: int,
    counts: Counter[str],
) -> None:  # fmt: skip
    found = [key_of.get(h.entry.id, "") for h in mem.search(q.text, limit=DEEP)]
    missed = sorted(r for r in q.relevant if r not in found[:k])
    if not missed:
        return
    by_key = {key: eid for eid, key in key_of.items()}
    kw = [key_of[e] for e in keyword_order(mem, q.text)]
    vec = [key_of[e] for e in vector_order(mem, q.text, list(entries))]
    print(f"\n{q.text[:160]!r} ({len(missed)} of {len(q.relevant)} missed at {k})")
    for key in missed:
        rank = {n: o.index(key) + 1 if key in o else None for n, o in
                (("search", found), ("keyword", kw), ("cosine", vec))}  # fmt: skip
        in_kw, in_near = rank["keyword"] is not None, (rank["cosine"] or near + 1) <= near
        counts["both" if in_kw and in_near else "keyword only" if in_kw else
               f"{near} nearest only" if in_near else "neither"] += 1  # fmt: skip
        entry = entries[by_key[key]]
        who = f"[{entry.entity}] " if entry.entity else ""
        print(f"  {key:>8} search {rank['search']} keyword {rank['keyword']}/{len(kw)} "
              f"cosine {rank['cosine']}  {who}{entry.content[:100]!r}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*")
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--near", type=int, default=50)
    args = parser.parse_args()
    embedder = embedder_from_env()
    sets = data_sets(args.files) if args.files else {
        n: p for n, p in data_sets([]).items() if n.startswith("LoCoMo")
    }  # fmt: skip
    for name, paths in sets.items():
        counts: Counter[str] = Counter()
        for corpus in corpora(paths):
            with tempfile.TemporaryDirectory() as tmp:
                mem = Memory(Path(tmp) / "m.db", project=corpus.name, embedder=embedder)
                corpus.ingest(mem)
                mem.reindex()
                print(f"\n=== {name}: {corpus.name}")
                misses(mem, corpus, args.k, args.near, counts)
                mem.close()
        print(f"\n{name}: misses at {args.k}: {dict(counts)}")
    print(machine.line())


if __name__ == "__main__":
    main()
