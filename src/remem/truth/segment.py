"""Tokens for the subject grammar: paths, URLs, English words and numbers kept whole,
Chinese segmented and tagged by jieba, punctuation and spaces kept (they bound
clauses and values), every token with its place in the text."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import NamedTuple

from remem.text import jieba_tag
from remem.truth.table import mapping, ordered, words

_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_SEG = r"[A-Za-z0-9_.@+\-]+"
_ATOM = re.compile(
    rf"(?P<url>[A-Za-z][A-Za-z0-9+.\-]*://[^\s{_HAN}，。；、）)」』\"'<>]+)"
    # (a slash within a segment's length looked for first: tried at each character of a
    # long run with no slash, the segment would be read to its end every time)
    rf"|(?P<path>(?:~|\.{{1,2}})?/{_SEG}(?:/{_SEG})*/?|(?=[A-Za-z0-9_.@+\-]{{1,256}}/){_SEG}(?:/{_SEG})+/?"
    rf"|[A-Za-z]:\\[^\s{_HAN}]+)"
    r"|(?P<word>(?<![\d:])\d{1,2}:\d\d(?::\d\d)?(?![\d:])(?:am|pm)?"
    r"|(?<![\d,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])"  # "1,000 requests", "100,000"
    r"|[a-z0-9][a-z0-9_.\-]*:\d[A-Za-z0-9_.\-]*"  # an image tag or host:port: "ubuntu:22.04"
    r"|[A-Za-z0-9_][A-Za-z0-9_.+#'\-]*)"
    rf"|(?P<han>[{_HAN}]+)"
    r"|(?P<space>\s+)"
    r"|(?P<punct>.)",
    re.DOTALL,
)
SENTENCE_END = frozenset("。！？!?；;\n")
CLAUSE_PUNCT = frozenset("，,：:、")
QUOTES = frozenset("\"'“”‘’「」『』《》`()（）[]【】")


class Tok(NamedTuple):
    """One token: its text, lower-case form, kind (han, word, num, path, url, space,
    punct), jieba's part-of-speech tag for Chinese, and its span in the text. A named
    tuple: a save makes ~20 a text read, ~4x faster than a frozen dataclass's."""

    text: str
    low: str
    kind: str
    tag: str
    start: int
    end: int

    @property
    def is_space(self) -> bool:
        return self.kind == "space"

    @property
    def is_han(self) -> bool:
        return self.kind == "han"


def normal(text: str) -> str:
    """The form the grammar reads: NFKC (full-width letters, digits and punctuation as
    ASCII); hours "12 till 5" one range, "12-5" (not "9 to 5": "moved from 9 to 10")."""
    return _TILL.sub(r"\1-\2", unicodedata.normalize("NFKC", text))


_HOUR = r"\d{1,2}(?:[:.]\d\d)?(?:\s?[ap]m)?"
_TILL = re.compile(rf"(?<![\d:.])({_HOUR})\s+(?:till|until|til|'til)\s+({_HOUR})\b", re.I)


def _path_like(value: str) -> bool:
    """ "tools/deploy.py", "/var/log", "src/"; not "CI/CD" or "TCP/IP" (upper-case pairs)."""
    if value.startswith(("/", "~", ".")) or value.endswith("/") or value.count("/") >= 2:
        return True
    last = value.rsplit("/", 1)[-1]
    return not value.replace("/", "").isupper() and ("." in last or value.islower())


def tokenize(text: str) -> list[Tok]:
    """The tokens of `text` (already `normal`), in order, spans into `text`."""
    return list(_tokens(text))


# A save segments the same short texts several times (its content for the subject, the
# secrets scan and dates; the subjects and values of its candidates): remember them.
@lru_cache(maxsize=8192)
def _tokens(text: str) -> tuple[Tok, ...]:
    out: list[Tok] = []
    for m in _ATOM.finditer(text):
        kind, value, start = m.lastgroup or "punct", m.group(), m.start()
        if kind == "han":
            after_number = bool(out) and out[-1].kind in ("num", "space")
            after_number = after_number and any(t.kind == "num" for t in out[-2:])
            run = (_han_run if len(value) <= _RUN_CACHED else _han_run.__wrapped__)(
                value, after_number
            )
            out.extend(run if start == 0 else [_at(t, start) for t in run])
            continue
        if kind == "path" and not _path_like(value):
            out.extend(tokenize_plain(value, start))
            continue
        if kind == "word":
            trimmed = value.rstrip(".'-")  # "9090." at a sentence end, "users'" possessive
            if trimmed != value:
                out.append(_word(trimmed, start))
                for i, ch in enumerate(value[len(trimmed) :]):
                    p = start + len(trimmed) + i
                    out.append(Tok(ch, ch, "punct", "x", p, p + 1))
                continue
            out.extend(_noun_is(value, start, text, m.end()) or _contraction(value, start))
            continue
        out.append(Tok(value, value.lower(), kind, "x", start, start + len(value)))
    return tuple(out)


# A fresh text is mostly runs of Chinese seen in other texts ("的端口是", "部署在"): each
# run is segmented once, its tokens kept with spans from 0 and moved to where it is (the
# rules below read a run alone, its neighbours only by whether a number comes before);
# a long run (a pasted page) is not kept.
_RUN_CACHED = 64


@lru_cache(maxsize=16384)
def _han_run(value: str, after_number: bool) -> tuple[Tok, ...]:
    """The tokens of one run of Chinese characters, spans from 0 (`after_number`: a
    number comes right before it, or a number and a space)."""
    pos, run = 0, list[Tok]()
    for word, tag in jieba_tag(value):
        if after_number and not run and len(word) == 2 and word[0] == "个":
            # "8 个人" is 8 + 个 + 人, not "personal"
            run += [_han("个", "q", pos), _han(word[1], "n", pos + 1)]
            pos += 2
            continue
        run.extend(_unglue(word, tag, pos))
        pos += len(word)
    return tuple(_split_verbs(_join_known(_join_rare(run))))


_NOT_RARE = frozenset("每各某该本另")  # jieba tags 每 a morpheme too: 每 + 小时 stays two


def _join_rare(run: list[Tok]) -> list[Tok]:
    """A rare character jieba knows no word for, before a noun, is the noun's ("糁" +
    "汤馆": the 糁汤 shop, not a morpheme and a shop)."""
    out: list[Tok] = []
    for tok in run:
        last = out[-1] if out else None
        if (
            last is not None
            and last.tag == "zg"
            and len(last.text) == 1
            and last.text not in _NOT_RARE
            and tok.tag == "n"
        ):
            word = last.text + tok.text
            out[-1] = Tok(word, word, "han", "n", last.start, tok.end)
            continue
        out.append(tok)
    return out


def _han(text: str, tag: str, at: int) -> Tok:
    """A Chinese token `text` (its own lower case) starting at `at`."""
    return Tok(text, text, "han", tag, at, at + len(text))


def _at(tok: Tok, by: int) -> Tok:
    return Tok(tok.text, tok.low, tok.kind, tok.tag, tok.start + by, tok.end + by)


_HABIT_VERBS = ordered("habit verb", "zh")
_PLACE_ENDS = words("place end", "zh")
_NOT_OBJECTS = frozenset("醉惊饱完掉过了到得着亏苦力香紧")  # 喝醉, 吃惊: no thing had


def _habit_verb(word: str) -> str | None:
    verb = next((v for v in _HABIT_VERBS if word.startswith(v)), None)
    if verb is None or len(word) == len(verb) or word[len(verb)] in _NOT_OBJECTS:
        return None
    return verb


def _no_person(word: str) -> bool:
    """Whether a word jieba tagged a person's name names a place ("汤馆") or, three
    characters or more, starts with no common surname ("冷藏柜")."""
    from remem.zh_names import BEFORE_SURNAME, SURNAMES

    if len(word) >= 2 and word[-1] in _PLACE_ENDS:
        return True
    return len(word) >= 3 and word[0] not in SURNAMES | BEFORE_SURNAME | {"阿"}


def _unglue(word: str, tag: str, pos: int) -> list[Tok]:
    """ "数是" -> "数", "是": a copula jieba glued to the word before it."""
    from remem.truth.lexicon import ZH_GLUED, ZH_WORDS_ENDING_IN_COPULA
    from remem.truth.predicates import ZH_PREDICATES

    end = len(word) - 1
    if (verb := _habit_verb(word)) is not None:  # "喝咖啡": 喝 + 咖啡, what is drunk
        return [_han(verb, "v", pos), _han(word[len(verb) :], "n", pos + len(verb))]
    if len(word) == 2 and word[1] in "涨降" and tag == "v":  # "月费涨到": 月 / 费涨 / 到
        return [_han(word[0], "n", pos), _han(word[1], "v", pos + 1)]
    if word[0] == "我" and len(word) >= 2 and word[1:] in ZH_PREDICATES:  # 我用 -> 我 + 用
        return [_han("我", "r", pos), _han(word[1:], "v", pos + 1)]
    if word[0] == "由" and tag == "nr" and len(word) >= 3:  # "前端由小王负责": 由 + a name
        return [_han("由", "p", pos), _han(word[1:], "nr", pos + 1)]
    if tag == "nr" and _no_person(word):  # "汤馆", "冷藏柜": jieba's guess of a name
        return [_han(word, "n", pos)]
    if (
        len(word) > 1
        and word[-1] in ZH_GLUED
        and word not in ZH_WORDS_ENDING_IN_COPULA
        and (word not in ZH_PREDICATES)
    ):
        return [_han(word[:end], "n", pos), _han(word[-1], "v", pos + end)]
    return [_han(word, tag, pos)]


def _join_known(run: list[Tok]) -> list[Tok]:
    """A value the lexicon knows that jieba cut into pieces ("钉钉" -> 钉 + 钉) is one token."""
    from remem.truth.lexicon import value_kinds

    known, out, i = value_kinds(), [], 0
    texts = [t.text for t in run]
    while i < len(run):
        j = next(
            (j for j in range(min(len(run), i + 4), i + 1, -1) if "".join(texts[i:j]) in known),
            None,
        )
        if j is None:
            out.append(run[i])
            i += 1
            continue
        word = "".join(texts[i:j])
        out.append(Tok(word, word, "han", "nz", run[i].start, run[j - 1].end))
        i = j
    return out


def _split_verbs(run: list[Tok]) -> list[Tok]:
    """ "版本升级" + "到" -> "版本", "升级", "到": a verb jieba glued to the noun before
    it, where the verb and the next word make a predicate ("升级到")."""
    from remem.truth.predicates import ZH_PREDICATES

    out: list[Tok] = []
    if run and (last := run[-1]).text[-1:] == "用" and len(last.text) > 1:
        from remem.truth.lexicon import ZH_WORDS_ENDING_IN_USE

        if last.text not in ZH_PREDICATES and last.text not in ZH_WORDS_ENDING_IN_USE:
            # "组件库用 Ant Design": jieba glued 用 to the noun before a Latin name
            head = last.text[:-1]
            run = [
                *run[:-1],
                Tok(head, head, "han", "n", last.start, last.end - 1),
                Tok("用", "用", "han", "v", last.end - 1, last.end),
            ]
    for i, tok in enumerate(run):
        after = run[i + 1].text if i + 1 < len(run) else ""
        cut = next(
            (k for k in (2, 1) if len(tok.text) > k + 1 and tok.text[-k:] + after in ZH_PREDICATES),
            None,
        )
        if after and cut is None and _named(tok):
            cut = 1  # "猫叫咪咪": jieba's 猫叫 (a meow) is 猫 + 叫 before a name
        if after and cut is not None:
            head, verb, at = tok.text[:-cut], tok.text[-cut:], tok.start + len(tok.text) - cut
            out += [
                Tok(head, head, "han", "n", tok.start, at),
                Tok(verb, verb, "han", "v", at, tok.end),
            ]
        else:
            out.append(tok)
    return out


def _named(tok: Tok) -> bool:
    """Whether `tok` is a noun glued to 叫 ("is called"): "猫叫", not "尖叫" or "呼叫"."""
    if len(tok.text) != 2 or tok.text[1] != "叫":
        return False
    return [t for _, t in jieba_tag(tok.text[0])] == ["n"]


def tokenize_plain(value: str, start: int) -> list[Tok]:
    """A path-shaped run that is not a path: its words and slashes."""
    out = []
    for m in re.finditer(r"[^/]+|/", value):
        s = start + m.start()
        part = m.group()
        out.append(_word(part, s) if part != "/" else Tok("/", "/", "punct", "x", s, s + 1))
    return out


_BE = mapping("contraction", "en")


def _contraction(value: str, start: int) -> list[Tok]:
    """ "I'm" is I + am, "we're" is we + are: the copula is the predicate ("I'm on UTC-5")."""
    if "'" not in value and "’" not in value:
        return [_word(value, start)]
    low = value.lower()
    for short, full in _BE.items():
        if low.endswith(short) and low[: -len(short)] in ("i", "we", "you", "they"):
            cut = start + len(value) - len(short)
            head = _word(value[: -len(short)], start)
            return [head, Tok(value[-len(short) :], full, "word", "eng", cut, start + len(value))]
    return [_word(value, start)]


# "linen trolley's in 2A", "Sam's the lead now": a noun's 's before a preposition, an
# article or an adverb is "is" (a possessive is followed by what is owned)
_IS_AFTER = words("after a noun's is", "en")
_NEXT_WORD = re.compile(r"\s+([A-Za-z]+)(?![\w'’-])")
_PRONOUN_IS = words("pronoun copula", "en")


def _noun_is(value: str, start: int, text: str, end: int) -> list[Tok] | None:
    """ "trolley's" as trolley + is where the next word says so; None otherwise."""
    low = value.lower()
    if len(low) < 4 or not low.endswith(("'s", "’s")) or low in _PRONOUN_IS:
        return None
    if (m := _NEXT_WORD.match(text, end)) is None or m.group(1).lower() not in _IS_AFTER:
        return None
    cut = start + len(value) - 2
    return [_word(value[:-2], start), Tok(value[-2:], "is", "word", "eng", cut, start + len(value))]


_VERSION = re.compile(r"[vV]\d[\d.]*")  # "v2", "V1.5": a number


def _word(value: str, start: int) -> Tok:
    kind = "num" if value[:1].isdigit() or _VERSION.fullmatch(value) else "word"
    return Tok(
        value, value.lower(), kind, "m" if kind == "num" else "eng", start, start + len(value)
    )


def sentences(toks: list[Tok]) -> list[list[Tok]]:
    """Tokens split after sentence ends (。！？；, a full stop after a word, a new line);
    each sentence keeps its end mark, so a question can be told from a statement."""
    out: list[list[Tok]] = [[]]
    for i, tok in enumerate(toks):
        out[-1].append(tok)
        if (
            tok.text in SENTENCE_END
            or (tok.is_space and "\n" in tok.text)
            or (
                tok.text == "."
                and (i + 1 == len(toks) or toks[i + 1].is_space)
                and not (i and toks[i - 1].low in _ABBREVIATIONS and i + 1 < len(toks))
            )
        ):
            out.append([])
    return [s for s in out if any(not t.is_space and t.kind != "punct" for t in s)]


# "Dr. Patel", "Mr. Lee": a full stop after these ends no sentence
_ABBREVIATIONS = words("abbreviation", "en")


def solid(toks: list[Tok]) -> list[Tok]:
    """The tokens that are not spaces."""
    return [t for t in toks if t.kind != "space"]


def span(text: str, toks: list[Tok]) -> str:
    """The text the tokens cover, as written (spaces inside kept)."""
    if not toks:
        return ""
    return text[toks[0].start : toks[-1].end].strip()
