"""Ranking (SPEC RT2, RT4, RT4a, RT5, RT8): BM25 relevance, time decay, weights, floors,
hot/warm/cold tiers, packing.

Relevance is Okapi BM25 over jieba/English terms, divided by the score an
average-length entry matching every query term once would get, so it reads as
"how much of the query this entry answers" and one floor works for small and
large stores alike. The corpus is smoothed with a few empty pseudo-documents so
that in a store of three entries a shared word is not worthless.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from remem import text
from remem.entry import Entry, utcnow
from remem.settings import RankingConfig
from remem.store.candidates import Candidate, load_entries
from remem.store.protocol import CorpusStats
from remem.truth import dedup

DAY = 86400.0

Tier = Literal["hot", "warm", "cold"]


@dataclass(frozen=True, slots=True)
class Hit:
    """One search result: the entry, its final score, and how that score was made.
    `tier` (SPEC RT8) is None until `Memory` assigns it (see `tier_of`)."""

    entry: Entry
    score: float
    relevance: float
    decay: float
    stale: bool
    tier: Tier | None = None
    # a newer hit that likely replaced this one (`retrieval.newer`): shown, marked
    replaced_by: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Its JSON form (`remem search --json`, the REST API): scores to 4 places."""
        return {
            "score": round(self.score, 4),
            "relevance": round(self.relevance, 4),
            "decay": round(self.decay, 4),
            "stale": self.stale,
            "tier": self.tier,
            "entry": self.entry.to_dict(),
        }


_MONTHS = (
    "january february march april may june july august september october november december"
).split()
_EN_MONTH = re.compile(r"\b(" + "|".join(_MONTHS) + r")\b")
# "may" is also a verb: a month only next to a number ("May 3", "3 May", "May, 2023").
_MAY = re.compile(r"\d\s*(?:st|nd|rd|th)?\s*(?:of\s+)?may\b|\bmay,?\s*\d")
_ZH_MONTH = re.compile(r"(\d{1,2}|十[一二]?|[一二三四五六七八九])\s*月(?!份?[以之]?[前后内])")
_ZH_NUMERALS = {"十一": 11, "十二": 12, "十": 10} | {
    c: i for i, c in enumerate("一二三四五六七八九", 1)
}
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")


@dataclass(frozen=True, slots=True)
class QueryDates:
    """The months (1-12) and years a query names."""

    months: frozenset[int] = frozenset()
    years: frozenset[int] = frozenset()

    def matches(self, when: datetime) -> bool:
        """Named something, and `when` is in every kind of period named."""
        if not self.months and not self.years:
            return False
        return (not self.months or when.month in self.months) and (
            not self.years or when.year in self.years
        )


def query_dates(query: str) -> QueryDates:
    """Months and years named in a query, English or Chinese."""
    low = query.lower()
    months = {_MONTHS.index(m) + 1 for m in _EN_MONTH.findall(low) if m != "may"}
    if _MAY.search(low):
        months.add(5)
    for m in _ZH_MONTH.findall(query):
        n = int(m) if m.isdigit() else _ZH_NUMERALS[m]
        if 1 <= n <= 12:
            months.add(n)
    return QueryDates(frozenset(months), frozenset(int(y) for y in _YEAR.findall(query)))


def _idf(df: int, docs: int) -> float:
    return math.log(1.0 + (docs - df + 0.5) / (df + 0.5))


def bm25_relevance(
    doc_terms: Sequence[str],
    query: Sequence[str],
    stats: CorpusStats,
    cfg: RankingConfig,
    idfs: Sequence[float] | None = None,
) -> float:
    """`idfs`: the query terms' idf (`query_idfs`), when many documents are scored."""
    if idfs is None:
        idfs = query_idfs(query, stats, cfg)
    avg = stats.avg_len or 1.0
    norm = cfg.k1 * (1 - cfg.b + cfg.b * len(doc_terms) / avg)
    score = ideal = 0.0
    count = doc_terms.count  # a query has a few terms: cheaper than a Counter of the doc
    for term, idf in zip(query, idfs, strict=True):
        ideal += idf
        if tf := count(term):
            score += idf * tf * (cfg.k1 + 1) / (tf + norm)
    return score / ideal if ideal else 0.0


def keyword_relevances(
    candidates: Sequence[Candidate], query: Sequence[str], stats: CorpusStats, cfg: RankingConfig
) -> list[float]:
    """The BM25 relevance of each candidate: `bm25_relevance`, the same arithmetic in the
    same order with what is the same for every candidate computed once (what
    `score_candidates` starts from, computed once when a search also needs the best)."""
    idfs = query_idfs(query, stats, cfg)
    ideal = 0.0
    for idf in idfs:
        ideal += idf
    if not ideal:
        return [0.0] * len(candidates)
    k1, b, avg = cfg.k1, cfg.b, stats.avg_len or 1.0
    k1_1, pairs = k1 + 1, list(zip(query, idfs, strict=True))
    out = []
    for cand in candidates:
        terms = cand.terms
        count, norm = terms.count, k1 * (1 - b + b * len(terms) / avg)
        score = 0.0
        for term, idf in pairs:
            if tf := count(term):
                score += idf * tf * k1_1 / (tf + norm)
        out.append(score / ideal)
    return out


def query_idfs(query: Sequence[str], stats: CorpusStats, cfg: RankingConfig) -> list[float]:
    docs = stats.docs + cfg.pseudo_docs
    return [_idf(stats.doc_freq.get(term, 0), docs) for term in query]


def fuse(keyword: float, semantic: float, cfg: RankingConfig) -> float:
    """Keyword and semantic relevance in one: embeddings add to what keywords leave
    unexplained, so they lift paraphrases without drowning exact matches. Keyword
    relevance above 1 (repeated terms) leaves nothing to fill, never a penalty."""
    return keyword + cfg.semantic_weight * semantic * max(0.0, 1.0 - keyword)


def spread_fusion(keyword: Sequence[float], cosine: Sequence[float], share: float) -> list[float]:
    """One query's candidates scored by keywords and vectors at once (each score already
    times the candidate's decay and weights): keyword + w x cosine, where w is `share`
    times the spread (standard deviation) of the keyword scores over that of the cosines.
    Each signal then counts by how much it separates this query's candidates, whatever
    BM25's scale is for the query (a short question's best match scores 1.4, a long
    dialogue's 0.05); with no keyword spread at all the vectors alone order them."""
    sk, sc = _spread(keyword), _spread(cosine)
    w = share * sk / sc if sk > 0 and sc > 0 else float(sk == 0)
    return [k + w * c for k, c in zip(keyword, cosine, strict=True)]


def _spread(values: Sequence[float]) -> float:
    """Standard deviation; 0 for values equal but for rounding (their mean's last bits
    would otherwise give a spread of ~1e-17 and a weight of ~1e15)."""
    if not values:
        return 0.0
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
    return sd if sd > 1e-12 * max(abs(v) for v in values) else 0.0


def decay(entry: Entry, now: datetime, cfg: RankingConfig) -> float:
    return _decay(entry.type, entry.created_at, now, cfg)


def _decay(type_: str, created_at: datetime, now: datetime, cfg: RankingConfig) -> float:
    age_days = max(0.0, (now - created_at).total_seconds() / DAY)
    half_life = cfg.half_life_days.get(type_, 90.0)
    return float(cfg.decay_floor + (1 - cfg.decay_floor) * 0.5 ** (age_days / half_life))


def is_stale(entry: Entry, now: datetime, cfg: RankingConfig) -> bool:
    """SPEC LT12: not verified for `stale_days`, or a linked file changed since."""
    verified = entry.last_verified_at or entry.created_at
    if now - verified > timedelta(days=cfg.stale_days):
        return True
    for path in entry.linked_paths:
        try:
            if os.stat(path).st_mtime > verified.timestamp():
                return True
        except OSError:
            continue
    return False


def tier_of(
    entry: Entry,
    now: datetime,
    cfg: RankingConfig,
    *,
    session_id: str | None,
    used_at: datetime | None,
    served: bool = False,
) -> Tier:
    """SPEC RT8: which tier an entry is in for a session.

    hot: a session-scope entry of `session_id` (written in this session), or one this
    session has already injected (`served`);
    warm: injected (`used_at`), written, updated or verified within `cfg.warm_days`;
    cold: everything else. Cold entries are searched as usual but need
    `cfg.cold_floor` relevance to be injected automatically."""
    if served or (session_id is not None and entry.session_id == session_id):
        return "hot"
    since = now - timedelta(days=cfg.warm_days)
    touched = (entry.created_at, entry.updated_at, entry.last_verified_at, used_at)
    if any(t is not None and t >= since for t in touched):
        return "warm"
    return "cold"


def injection_floor(hit: Hit, cfg: RankingConfig) -> float:
    """The relevance a hit needs to be injected unasked: higher for cold ones (RT8)."""
    return cfg.cold_floor if hit.tier == "cold" else cfg.floor


def score_candidates(
    candidates: Sequence[Candidate],
    query: Sequence[str],
    stats: CorpusStats,
    cfg: RankingConfig,
    *,
    now: datetime | None = None,
    semantic: Mapping[str, float] | None = None,
    cosine: Mapping[str, float] | None = None,
    dates: QueryDates | None = None,
    keyword: Sequence[float] | None = None,
    limit: int | None = None,
) -> list[Hit]:
    """Hits for every candidate with some relevance, best first (the best `limit`). `semantic`
    maps entry ids to calibrated embedding relevance, fused with BM25 (SPEC RT3) into each
    hit's relevance (what the floors read); with `cosine` (entry id -> cosine with the
    query) too, hits are scored and ordered by `spread_fusion`. `dates`, the periods the
    query names, favour the memories written in them. `keyword`: the candidates' BM25
    relevances when already computed (`keyword_relevances`). Only the hits returned read
    their candidate's entry."""
    now = now or utcnow()
    if keyword is None:
        keyword = keyword_relevances(candidates, query, stats, cfg)
    query_set = set(query)
    named: dict[str, bool] = {}  # entity -> does the query name it (segmenting is costly)
    kept: list[tuple[Candidate, float, float]] = []  # candidate, relevance, decay
    scores: list[float] = []
    parts: list[tuple[float, float]] = []  # per kept candidate: BM25, decay x weights
    for cand, kw in zip(candidates, keyword, strict=True):
        rel = kw
        if semantic is not None:
            rel = fuse(rel, semantic.get(cand.id, 0.0), cfg)
        if rel <= 0 and cosine is None:
            continue  # (with cosines it still counts in the spreads, then is dropped)
        d = _decay(cand.type, cand.created_at, now, cfg)
        weight = cfg.source_weight.get(cand.source, 0.8) * cfg.type_weight.get(cand.type, 0.8)
        if cand.entity and _names(cand.entity, query_set, named):
            weight *= cfg.entity_boost
        if dates is not None and dates.matches(cand.created_at):
            weight *= cfg.date_boost
        kept.append((cand, rel, d))
        scores.append(rel * d * weight)
        parts.append((kw, d * weight))
    order: Sequence[int] = range(len(kept))
    if cosine is not None and kept:
        scores = _spread_scores(kept, parts, cosine, cfg.vector_share)
        order = [i for i in order if kept[i][1] > 0]
    best = sorted(order, key=lambda i: (-scores[i], -kept[i][0].created_at.timestamp()))
    if cosine is not None and cfg.asked_hits > 0:
        best = _without_asked(best, [c for c, _, _ in kept], parts, scores, query_set, named, cfg)
    if cfg.neighbour_share > 0 and cfg.neighbour_hits > 0:
        best, scores = _with_neighbours(best, [c for c, _, _ in kept], scores, cfg)
    top = best[:limit]
    load_entries(kept[i][0] for i in top)  # one read of the entries of the hits returned
    hits = []
    for i in top:
        cand, rel, d = kept[i]
        if (entry := cand.loaded()) is not None:  # (None: deleted since it was found)
            hits.append(Hit(entry, scores[i], rel, d, is_stale(entry, now, cfg)))
    return hits


_SENTENCE = re.compile(r"[^.!?。！？\n]+[.!?。！？]*")


def only_asks(content: str, terms: set[str]) -> bool:
    """Whether `content` holds some of `terms` and each of them only in its questions
    ("How'd you feel while painting it?" asks about painting, it says nothing of it)."""
    if "?" not in content and "？" not in content:
        return False
    asked = False
    for sentence in _SENTENCE.findall(content):
        if not terms.intersection(text.terms(sentence)):
            continue
        if not sentence.rstrip().endswith(("?", "？")):
            return False
        asked = True
    return asked


def _without_asked(
    order: list[int],
    cands: Sequence[Candidate],
    parts: Sequence[tuple[float, float]],
    scores: list[float],
    query: set[str],
    named: Mapping[str, bool],
    cfg: RankingConfig,
) -> list[int]:
    """`order` again after each conversation turn among the `cfg.asked_hits` best that
    only asks about the query's words (names aside: the entity boost counts who spoke)
    loses its keyword part (BM25 x multipliers; `scores` changed in place): the turn
    that answers is the memory. Hybrid search only: its vectors still place the question
    by what it means (keyword-only, it would have nothing left)."""
    names = {t for entity, yes in named.items() if yes for t in text.query_terms(entity)}
    terms = query - names
    turns = [
        i for i in order[: cfg.asked_hits] if parts[i][0] > 0 and cands[i].type == "conversation"
    ]
    load_entries(cands[i] for i in turns)  # their contents, in one read
    moved = False
    for i in turns:
        entry = cands[i].loaded()
        if entry is not None and only_asks(entry.content, terms):
            scores[i] -= parts[i][0] * parts[i][1]
            moved = True
    if not moved:
        return order
    return sorted(order, key=lambda i: (-scores[i], -cands[i].created_at.timestamp()))


def _turn_of(cand: Candidate) -> tuple[str, int] | None:
    """(session, position) of a conversation turn (`remem.conversation`), else None."""
    if cand.type != "conversation":
        return None
    meta = cand.metadata
    session, turn = meta.get("session_id"), meta.get("turn")
    if not isinstance(session, str) or not isinstance(turn, int) or isinstance(turn, bool):
        return None
    return session, turn


def _with_neighbours(
    order: list[int], cands: Sequence[Candidate], scores: list[float], cfg: RankingConfig
) -> tuple[list[int], list[float]]:
    """`order` (indices of `cands`, best first by `scores`) where each conversation turn
    within `cfg.neighbour_turns` of one of the `cfg.neighbour_hits` best, in its session,
    gains `cfg.neighbour_share` of that hit's score (the most it gets from any of them),
    ordered again; and the scores. Only hits already found move: a neighbour no signal
    found stays out."""
    anchors: dict[str, list[tuple[int, float]]] = {}
    for i in order[: cfg.neighbour_hits]:
        if (at := _turn_of(cands[i])) is not None:
            anchors.setdefault(at[0], []).append((at[1], cfg.neighbour_share * scores[i]))
    if not anchors:
        return order, scores
    reach, moved = cfg.neighbour_turns, list(scores)
    for i in order:
        at = _turn_of(cands[i])
        near = anchors.get(at[0]) if at is not None else None
        if at is None or near is None:
            continue
        if gain := max((g for t, g in near if 0 < abs(t - at[1]) <= reach), default=0.0):
            moved[i] = scores[i] + gain
    if moved != scores:
        order = sorted(order, key=lambda i: (-moved[i], -cands[i].created_at.timestamp()))
    return order, moved


def _spread_scores(
    kept: Sequence[tuple[Candidate, float, float]],
    parts: Sequence[tuple[float, float]],
    cosine: Mapping[str, float],
    share: float,
) -> list[float]:
    """The `spread_fusion` scores of `kept` candidates from (BM25, multiplier) each; a
    candidate without a vector yet (not embedded) counts as the least similar of the
    others."""
    ids = [c.id for c, _, _ in kept]
    least = min((cosine[i] for i in ids if i in cosine), default=0.0)
    return spread_fusion(
        [kw * m for kw, m in parts],
        [max(0.0, cosine.get(i, least)) * m for i, (_, m) in zip(ids, parts, strict=True)],
        share,
    )


def named_entities(entities: Iterable[str | None], query: Sequence[str]) -> list[str]:
    """The distinct `entities` that a query of terms `query` names (every term of the
    entity is among the query's), in first-seen order."""
    query_set, seen = set(query), dict[str, bool]()
    for entity in entities:
        if entity and entity not in seen:
            _names(entity, query_set, seen)
    return [entity for entity, named in seen.items() if named]


def _names(entity: str, query: set[str], seen: dict[str, bool]) -> bool:
    """Whether the query holds every term of `entity` (memoised per query)."""
    if entity not in seen:
        terms = text.query_terms(entity)
        seen[entity] = bool(terms) and query.issuperset(terms)
    return seen[entity]


def drop_overridden_globals(hits: Sequence[Hit]) -> list[Hit]:
    """SPEC RT4a: a global entry that a project entry contradicts is not injected."""
    project = [h.entry for h in hits if h.entry.scope == "project"]
    kept = []
    for hit in hits:
        if hit.entry.scope == "global" and any(
            (m := dedup.relation(p, hit.entry)) and m.relation == "conflict" for p in project
        ):
            continue
        kept.append(hit)
    return kept


def select_for_injection(
    hits: Sequence[Hit],
    cfg: RankingConfig,
    *,
    max_tokens: int,
    cost: Callable[[Hit], int],
    exclude_texts: Sequence[str] = (),
) -> list[Hit]:
    """SPEC RT4-RT5, RT7, RT8: above the floor of its tier, not already in the
    conversation, no near-duplicates, at most `max_entries`, within `max_tokens` by
    `cost`; hot hits are taken first when their score, times `hot_boost`, is higher."""
    present = [text.canonicalize(t) for t in exclude_texts]
    chosen: list[Hit] = []
    chosen_canon: list[str] = []
    used = 0
    eligible = [h for h in hits if h.relevance >= injection_floor(h, cfg)]
    eligible.sort(key=lambda h: -h.score * (cfg.hot_boost if h.tier == "hot" else 1.0))
    for hit in drop_overridden_globals(eligible):
        canon = text.canonicalize(hit.entry.content)
        if any(canon and canon in p for p in present):
            continue
        if any(text.near_duplicate(canon, c, cfg.near_duplicate) for c in chosen_canon):
            continue
        tokens = cost(hit)
        if used + tokens > max_tokens:
            continue
        chosen.append(hit)
        chosen_canon.append(canon)
        used += tokens
        if len(chosen) >= cfg.max_entries:
            break
    return chosen
