"""What every pass of a save reads (`Draft`), and the store lookups the passes make
for it: the memories of its domain holding its rarest words, or any of its words."""

from __future__ import annotations

from dataclasses import dataclass

from remem import text
from remem.entry import Entry
from remem.store.protocol import Domain, Filter, IndexFields, Near, Store, Visibility
from remem.truth import verdicts, versions
from remem.truth.dedup import SimilarityCheck
from remem.truth.subject import Claim

_REPLACED = 8  # versions (current or not) holding the text's words looked up


@dataclass(slots=True)
class Draft:
    """What every pass of a save reads: the new entry, what the rules read of it once
    (its index fields and claim), the current memories of its domain the store found
    for it, and the semantic check (None without an embedder)."""

    store: Store
    entry: Entry
    fields: IndexFields
    claim: Claim | None
    candidates: list[Near]
    semantic: SimilarityCheck | None
    referee: verdicts.Referee | None = None
    _sharing: list[Entry] | None = None
    ruled: bool = False  # a referee (a model) answered: the readings after it keep quiet

    def earlier(self, entry: Entry) -> list[Entry]:
        """The versions a candidate replaced: where a change left its thing's words."""
        return versions.earlier(self.store, entry)

    def through_versions(self) -> list[Entry]:
        """The current memories whose replaced versions hold the text's words: a third note
        may say the words of a thing's first version only ("亲子扎染班停了" of "亲子班改到3点",
        which replaced "周六下午有亲子扎染班"), which no lookup of current memories finds."""
        e = self.entry
        seen = Visibility(e.project, e.session_id, e.user_id, e.agent_id)
        every = Filter(seen, types=(e.type,), include_history=True)
        found, _ = self.store.keyword(self.fields.terms, every, limit=_REPLACED)
        heads: dict[str, Entry] = {}
        for candidate in found:
            at = candidate.entry
            for _ in range(8):  # along the chain to its current version
                if at.superseded_by is None or (later := self.store.get(at.superseded_by)) is None:
                    break
                at = later
            if at.superseded_by is None and at.is_current and Domain.of(at) == Domain.of(e):
                heads.setdefault(at.id, at)
        return [h for h in heads.values() if h.id != e.id]

    def sharing(self) -> list[Entry]:
        """The candidates and the memories holding the text's rarest words (looked up
        once: the judge, stop and heading passes each read them)."""
        if self._sharing is None:
            held = holding(self.store, self.entry, self.fields.terms)
            self._sharing = [c.entry for c in (*self.candidates, *held)]
        return list(self._sharing)


_EACH = 4  # words of a change looked up one by one


def holding(store: Store, entry: Entry, terms: list[str]) -> list[Near]:
    """Memories of `entry`'s domain holding its rarest words, else any one of its first
    words: which words are rare is counted over the whole store, so another project's
    memories can make rare a word the changed memory does not hold ("单仓库管理工具换成了
    Nx": 管理工具, in another project, but not in "单仓库用 Lerna 管理")."""
    domain = Domain.of(entry)
    found = store.same_domain(domain, IndexFields(terms, "", "", {}), limit=8)
    if len(found) >= 8:
        return found
    seen = {near.entry.id for near in found}
    for term in list(dict.fromkeys(terms))[:_EACH]:
        more = store.same_domain(domain, IndexFields([term], "", "", {}), limit=8)
        found += [near for near in more if near.entry.id not in seen]
        seen.update(near.entry.id for near in more)
    return found


def sharing_any(store: Store, entry: Entry, terms: list[str], most: int = 12) -> list[Near]:
    """Memories of `entry`'s domain holding any one of its first `most` words that say
    something (a lookup per word)."""
    domain, found, seen = Domain.of(entry), [], set()
    said = [t for t in dict.fromkeys(terms) if t not in text.EN_STOPWORDS | text.ZH_STOPWORDS]
    for term in said[:most]:
        for near in store.same_domain(domain, IndexFields([term], "", "", {}), limit=4):
            if near.entry.id not in seen:
                seen.add(near.entry.id)
                found.append(near)
    return found
