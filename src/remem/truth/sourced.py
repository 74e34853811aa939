"""Where a thing is got from, said in Chinese with the source between a preposition and
the verb of getting it:

    面粉找城北李姐拿                -> (面粉 source, 城北李姐)
    熬猪油的板油是从肉联厂小黄那拿的  -> (熬猪油的板油 source, 肉联厂小黄)
    砂锅改在1688上订了              -> (砂锅 source, 1688), a change

The linking-verb grammar reads none of these: 找 / 从 / 在 link nothing there, and the verb
of getting ends the clause. The thing got is the subject, where it comes from the value,
so a later note naming another source is a new value of the same subject. A clause after
it ("，一次十袋") says more of the thing and is left unread; two such frames in one
sentence are two facts ("面粉找李姐拿，油找老王拿"), and nothing is read.
"""

from __future__ import annotations

from remem.truth import lexicon as lx
from remem.truth.grammar import Clause, strip_subject
from remem.truth.segment import CLAUSE_PUNCT, SENTENCE_END, Tok, solid
from remem.truth.table import words
from remem.truth.values import NEGATORS, date_like, nounish

_PREPOSITIONS = words("source preposition", "zh")  # 从 / 在 / 找 ...
_GETTING = words("getting verb", "zh")  # 拿 / 进 / 订 / 买 ...
_HAVING_DONE = words("having-done verb", "zh")  # 做 / 修: what someone is asked to make
_ASKING = words("asking preposition", "zh")  # 找 / 请: the one asked makes it
_THERE = words("source place", "zh")  # 那 / 那里 / 上: "老周那拿", "1688上订"
_TAIL = words("source tail", "zh")  # 了 / 的 / 过来
_LINKS = words("source link", "zh")  # 是 / 都 / 一直
_SWITCHED = words("source switch", "zh")  # "砂锅改在1688上订": a new source
_MAX_SOURCE = 8  # tokens: a name and where it is, not a story


def sourced(sent: list[Tok]) -> Clause | None:
    """The (thing, source) clause of `sent`, or None (see the module)."""
    toks = [t for t in solid(sent) if t.text not in SENTENCE_END]
    cut = next((k for k, t in enumerate(toks) if t.text in CLAUSE_PUNCT), len(toks))
    found = _frame(toks[:cut])
    if found is None or any(_framed(part) for part in _clauses(toks[cut + 1 :])):
        return None
    return found


def _framed(part: list[Tok]) -> bool:
    """Whether a clause after the first is a frame of its own, however the tokenizer cut
    it ("油找 / 老王 / 拿")."""
    said = "".join(t.low for t in part)
    last = part[-1].low
    return any(p in said for p in _PREPOSITIONS) and any(last.endswith(v) for v in _GETTING)


def _clauses(toks: list[Tok]) -> list[list[Tok]]:
    parts: list[list[Tok]] = [[]]
    for tok in toks:
        if tok.text in CLAUSE_PUNCT:
            parts.append([])
        else:
            parts[-1].append(tok)
    return [p for p in parts if p]


def _frame(toks: list[Tok]) -> Clause | None:
    """SUBJECT [是 / adverbs] PREPOSITION SOURCE [那] VERB [了 / 的]: one clause."""
    at = next((k for k, t in enumerate(toks) if t.is_han and t.low in _PREPOSITIONS), None)
    if at is None or at == 0:
        return None
    end = len(toks)
    while end > at and toks[end - 1].low in _TAIL:
        end -= 1
    if end - at < 3:
        return None
    verb = toks[end - 1]
    glued = _glued(verb, toks[at].low)
    if glued is None:
        return None
    source = toks[at + 1 : end - 1] + glued
    while source and source[-1].low in _THERE:
        source = source[:-1]
    if source and source[-1].tag == "q" and source[-2:-1] and source[-2].low in _THERE:
        source = source[:-2] + source[-1:]  # "枫溪那家陶瓷厂": which shop
    if not 0 < len(source) <= _MAX_SOURCE or any(_stop(t) for t in source):
        return None
    if date_like(source):
        return None  # "周报改到周五下午发": when, not where from
    return _clause(toks[:at], source)


def _gets(verb: str, preposition: str) -> bool:
    return verb in _GETTING or (verb in _HAVING_DONE and preposition in _ASKING)


def _glued(verb: Tok, preposition: str) -> list[Tok] | None:
    """The verb of getting at the end of `verb`'s text, and what the tokenizer glued to it
    ("店买": 店 ends the source; "那进", "上订": the place word; "寄过来": its direction),
    as the source's last token ([] where nothing); None when it holds no such verb."""
    core = verb.low
    for tail in sorted(_TAIL, key=len, reverse=True):
        if core.endswith(tail) and len(core) > len(tail):
            core = core[: -len(tail)]
            break
    for size in (2, 1):
        head, said = core[:-size], core[-size:]
        if len(core) >= size and _gets(said, preposition):
            if not head or head in _THERE:
                return []
            return [Tok(head, head, "han", "n", verb.start, verb.start + len(head))]
    return None


def _stop(tok: Tok) -> bool:
    """A word no source holds: a negation, another preposition or a verb of getting (two
    frames, or a story)."""
    return tok.low in NEGATORS or tok.low in _PREPOSITIONS or tok.low in _GETTING


def _clause(before: list[Tok], source: list[Tok]) -> Clause | None:
    if any(t.low in NEGATORS or t.low.startswith(("不", "没")) for t in before):
        return None  # "酸菜不从外面进了": where it no longer comes from, a stop
    change = False
    named = list(before)
    while named and named[-1].low in _LINKS | _SWITCHED | lx.ZH_CHANGE_ADVERBS:
        change = change or named[-1].low not in _LINKS
        named.pop()
    while named and named[-1].is_han and named[-1].tag[:1] in ("d", "r", "t"):
        named.pop()  # "每天", "现在", "一直": when or how often, not what
    owner, subject, said_change, _, usable = strip_subject(named)
    if not usable or not subject or not nounish(subject[-1]) or subject[-1].tag == "nr":
        return None  # a person is who gets, not what is got
    return Clause(owner, subject, value=source, attrs=["source"], change=change or said_change)
