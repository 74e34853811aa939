"""How `Memory` reads (SPEC RT1-RT8): the keyword pass, the vectors when there are
any, the tiers of the hits, and the record of what was injected."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING

from remem import text
from remem.entry import utcnow
from remem.errors import StoreError
from remem.retrieval import block, newer, ranking
from remem.retrieval.ranking import Hit
from remem.settings import RankingConfig
from remem.store.protocol import Filter, SearchStore
from remem.tokens import count_tokens

if TYPE_CHECKING:
    from remem.retrieval.vector_index import VectorIndex

_LONG_AGO = datetime(1970, 1, 1, tzinfo=UTC)
_HAN_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")


def han_pieces(content: str) -> list[str]:
    """The two-character pieces of `content`'s Han runs beside a character jieba left
    alone: a name it cuts into single characters ("老/吴", "小/邓涨") is no term at all,
    and it cuts one phrase apart differently by what is around it ("用/中通" but "快递从中/
    通"). Read where an older version stands for its current one (`Recall._current`);
    not indexed: in every search the pieces add noise (MADial zh keyword R@10 0.67 ->
    0.65)."""
    words = set(text.terms(content))
    hans = _HAN_RUN.findall(unicodedata.normalize("NFKC", content).lower())
    out: list[str] = []
    for han, cut in zip(hans, text.cut_for_search(hans), strict=True):
        alone = [True] * len(han)
        for word in {w for w in cut if len(w) > 1}:
            at = han.find(word)
            while at >= 0:
                alone[at : at + len(word)] = [False] * len(word)
                at = han.find(word, at + 1)
        pairs = (han[i : i + 2] for i in range(len(han) - 1) if alone[i] or alone[i + 1])
        out += [p for p in pairs if p not in words]
    return out


class Recall:
    """Ranking over one store for one session: `rank` a query, give hits their tier,
    `mark_used` what was injected (remembering it, so this session sees it hot)."""

    def __init__(
        self,
        store: SearchStore,
        cfg: RankingConfig,
        vectors: VectorIndex | None,
        session_id: str | None,
    ) -> None:
        self.store = store
        self.cfg = cfg
        self.vectors = vectors
        self.session_id = session_id
        # ids injected here (hot for the session, RT8) and when the use was recorded
        self.served: dict[str, datetime] = {}

    def rank(self, query: str, flt: Filter, limit: int | None = None) -> list[Hit]:
        """Hits for `query` passing `flt`, best first (the best `limit`)."""
        terms = text.query_terms(query)
        net = flt.as_of is None and not flt.include_history
        wanted, limit = limit, limit if limit is None or not net else max(limit, newer.TOP)
        # what is true now read over every version (`_current`): twice as many hits, some
        # being versions of one memory
        asked, flt = flt, replace(flt, include_history=True) if net else flt
        shown, limit = limit, limit * 2 if limit is not None and net else limit
        if self.vectors is None:
            if not terms:
                return []
            candidates, stats = self.store.keyword(terms, flt, limit=self.cfg.candidates)
            dates = ranking.query_dates(query)
            hits = ranking.score_candidates(
                candidates, terms, stats, self.cfg, dates=dates, limit=limit
            )
        else:
            hits = self._hybrid(self.vectors, query, terms, flt, limit)
        if net:  # what is true now: a missed change shows (read over the first TOP)
            hits = self._current(hits, asked, shown, terms, han_pieces(query))
            # the judges reading the hits' vectors where this process embeds (numpy
            # loaded); a one-shot command leaving the model to the warm service reads
            # the words judge, as importing numpy would cost it 0.1-0.3 s
            index, read = self.vectors, None
            if index is not None and index.warm is None:
                read = (partial(index.store.vectors_of, index.model), index.model)
            hits = newer.newer_first(query, hits, read)[:wanted]
        return hits

    def _current(
        self,
        hits: list[Hit],
        flt: Filter,
        limit: int | None,
        terms: Sequence[str],
        pieces: Sequence[str] = (),
    ) -> list[Hit]:
        """`hits` of a search that read every version, each older version in the place of
        the version that replaced it now (the question may be worded as the fact was
        first said: "Who signs for the controlled drugs?" of "Controlled drugs get signed
        for by Raj", replaced by "CD sign-off: Helen"), each memory once, what `flt` sees
        (`limit` of them: the search asked for more, some being versions of one). An
        older version stands for its current one only where it holds two of the
        question's words (all, if it has one): "Which editor do I use?" of "The gateway
        uses Hazelcast for caching" would put "Correction: the gateway cache is
        Memcached" before the editor. The pieces of the question's Chinese words
        (`han_pieces`) count as its words here: "头抽要发酵多少天" of
        "头抽发酵从180天改成210天了", replaced by "不对，是240天"."""
        asked = {*terms, *pieces}
        enough = min(2, len(set(terms)) or len(asked))
        hits = [
            h
            for h in hits
            if h.entry.superseded_by is None
            or len(asked & {*text.terms(h.entry.content), *han_pieces(h.entry.content)}) >= enough
        ]
        heads = {h.entry.id: h.entry for h in hits}  # each hit's latest version found
        every = replace(flt, include_history=True)
        for _ in range(8):  # a step along each chain of versions at a time
            ahead = {e.superseded_by for e in heads.values() if e.superseded_by is not None}
            later = {c.id: c.entry for c in self.store.candidates(sorted(ahead), every)}
            moved = {
                k: later[e.superseded_by] for k, e in heads.items() if e.superseded_by in later
            }
            if not moved:
                break
            heads.update(moved)
        wanted = {e.id for e in heads.values()}
        current = {c.id: c.entry for c in self.store.candidates(sorted(wanted), flt)}
        out: list[Hit] = []
        for hit in hits:  # each memory once, where it ranks best
            if (head := current.pop(heads[hit.entry.id].id, None)) is not None:
                out.append(hit if head.id == hit.entry.id else replace(hit, entry=head))
        return out[:limit] if limit is not None else out

    def _hybrid(
        self, vectors: VectorIndex, query: str, terms: list[str], flt: Filter, limit: int | None
    ) -> list[Hit]:
        """Hybrid search (SPEC RT3): keyword candidates from a smaller postings budget
        (the semantic ones cover common terms); unless one of them answers the query
        well enough (`cfg.keyword_confident`), the nearest entries too, every candidate
        ordered by its BM25 and its cosine with the query (`ranking.spread_fusion`);
        the best `limit` hits."""
        cfg, n = self.cfg, self.cfg.candidates
        dates = ranking.query_dates(query)
        keyword: list[float] = []
        if terms:
            candidates, stats = self.store.keyword(
                terms, flt, limit=n, postings=cfg.hybrid_postings
            )
            keyword = ranking.keyword_relevances(candidates, terms, stats, cfg)
            if max(keyword, default=0.0) >= cfg.keyword_confident:
                # settled by keywords: no query embedding, no model loaded
                return ranking.score_candidates(
                    candidates, terms, stats, cfg, dates=dates, keyword=keyword, limit=limit
                )
        else:
            candidates, stats = [], self.store.keyword([], flt, limit=1)[1]
        seen = {c.id for c in candidates}
        names = ranking.named_entities((c.entity for c in candidates), terms)
        near, extra = vectors.semantic(query, n // 2, flt, seen, names)
        beyond = [e for e in seen if e not in near]
        cosine = vectors.candidate_cosines(query, beyond, names) | near
        w = vectors.embedder.weight
        semantic = {e: w * rel for e, cos in near.items() if (rel := vectors.calibrate(cos))}
        keyword += ranking.keyword_relevances(extra, terms, stats, cfg)
        return ranking.score_candidates(
            [*candidates, *extra],
            terms,
            stats,
            cfg,
            semantic=semantic,
            cosine=cosine,
            dates=dates,
            keyword=keyword,
            limit=limit,
        )

    def with_tiers(self, hits: list[Hit]) -> list[Hit]:
        """`hits` with their SPEC RT8 tier, from one look-up of when they were last used."""
        if not hits:
            return hits
        try:
            used = self.store.last_used([h.entry.id for h in hits])
        except StoreError:
            used = {}  # e.g. an old store opened read-only, without the usage table
        now = utcnow()
        tiered = []
        for hit in hits:
            eid = hit.entry.id
            tier = ranking.tier_of(
                hit.entry,
                now,
                self.cfg,
                session_id=self.session_id,
                used_at=used.get(eid),
                served=eid in self.served,
            )
            tiered.append(replace(hit, tier=tier))
        return tiered

    def mark_used(self, ids: Sequence[str]) -> None:
        """Record an injection (SPEC RT8) without ever failing it: a read-only or busy
        store only forgets this use, which at worst lets the entries cool down sooner."""
        now = utcnow()
        # Tiers count days, so a use already recorded by this object within the hour
        # needs no new write (each write is a commit: an fsync with REMEM_SYNC=full).
        fresh = [i for i in ids if now - self.served.get(i, _LONG_AGO) > timedelta(hours=1)]
        if not fresh:
            return
        self.served.update(dict.fromkeys(fresh, now))
        try:
            self.store.mark_used(fresh, now)
        except StoreError:
            pass

    def block_for(
        self, query: str, flt: Filter, budget: int, exclude_texts: Sequence[str]
    ) -> tuple[str, list[Hit]]:
        """The memory block for `query` within `budget` tokens (`Memory.context_for`) and
        the hits it holds, which are recorded as used."""
        budget -= count_tokens(block.frame())
        lowest = min(self.cfg.floor, self.cfg.cold_floor)
        hits = self.with_tiers([h for h in self.rank(query, flt) if h.relevance >= lowest])
        chosen = ranking.select_for_injection(
            hits,
            self.cfg,
            max_tokens=budget,
            cost=lambda h: count_tokens(block.line(h)) + 1,
            exclude_texts=exclude_texts,
        )
        self.mark_used([h.entry.id for h in chosen])
        return block.render(chosen), chosen
