"""What every pass of a save reads (`Draft`), and the store lookups the passes make
for it: the memories of its domain holding its rarest words, or any of its words."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from remem import text
from remem.entry import Entry
from remem.store.protocol import Domain, Filter, IndexFields, Near, Store, Visibility
from remem.truth import verdicts, versions
from remem.truth.dedup import Match, SimilarityCheck
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
    _replaced: list[tuple[Entry, Entry]] | None = None
    ruled: bool = False  # a referee (a model) answered: the readings after it keep quiet

    def earlier(self, entry: Entry) -> list[Entry]:
        """The versions a candidate replaced: where a change left its thing's words."""
        return versions.earlier(self.store, entry)

    def through_versions(self) -> list[Entry]:
        """The current memories whose replaced versions hold the text's words: a third note
        may say the words of a thing's first version only ("亲子扎染班停了" of "亲子班改到3点",
        which replaced "周六下午有亲子扎染班"), which no lookup of current memories finds."""
        return list(dict((h.id, h) for _, h in self.replaced()).values())

    def replaced(self) -> list[tuple[Entry, Entry]]:
        """(a replaced version holding the text's words, the current memory it led to),
        the versions best at the text's words first; for a current memory found so, itself.
        Looked up once: several passes read them."""
        if self._replaced is None:
            self._replaced = self._lookup_replaced()
        return list(self._replaced)

    def _lookup_replaced(self) -> list[tuple[Entry, Entry]]:
        e = self.entry
        seen = Visibility(e.project, e.session_id, e.user_id, e.agent_id)
        every = Filter(seen, types=(e.type,), include_history=True)
        found, _ = self.store.keyword(self.fields.terms, every, limit=_REPLACED)
        pairs: list[tuple[Entry, Entry]] = []
        for candidate in found:
            at = candidate.entry
            for _ in range(8):  # along the chain to its current version
                if at.superseded_by is None or (later := self.store.get(at.superseded_by)) is None:
                    break
                at = later
            if at.superseded_by is None and at.is_current and Domain.of(at) == Domain.of(e):
                if at.id != e.id:
                    pairs.append((candidate.entry, at))
        return pairs

    def stand_ins(
        self, found: Sequence[Entry], *, of_found: bool = False
    ) -> dict[str, tuple[Entry, Entry]]:
        """A version each current memory not `found` (or, `of_found`, any) replaced that
        holds the text's words, as if current, by its id, with the memory: a thing's words
        are in its versions ("冒菜33一斤" of "每斤涨2块", which replaced "冒菜按斤称……29块一
        斤"). Read by a pass in place of the memory, its match made of the memory
        (`as_heads`)."""
        seen, out = set() if of_found else {e.id for e in found}, {}
        for version, head in self.replaced():
            if version.id != head.id and head.id not in seen:
                seen.add(head.id)
                out[version.id] = (
                    dataclasses.replace(version, superseded_by=None, valid_to=None),
                    head,
                )
        return out

    def sharing(self) -> list[Entry]:
        """The candidates and the memories holding the text's rarest words (looked up
        once: the judge, stop and heading passes each read them)."""
        if self._sharing is None:
            held = holding(self.store, self.entry, self.fields.terms)
            self._sharing = [c.entry for c in (*self.candidates, *held)]
        return list(self._sharing)


def as_heads(matches: list[Match], stand_in: dict[str, tuple[Entry, Entry]]) -> list[Match]:
    """Matches of versions standing in (`Draft.stand_ins`) made of the memories now
    current; a repeat of a replaced version is no repeat of what holds now (a value gone
    back)."""
    out = []
    for m in matches:
        if m.entry.id not in stand_in:
            out.append(m)
        elif m.relation != "duplicate":
            out.append(dataclasses.replace(m, entry=stand_in[m.entry.id][1]))
    return out


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
