"""Text processing shared by every backend: search terms, canonical forms, named values.

Chinese is segmented with jieba (jieba-rs), English split into words and stemmed;
single characters (but digits) and punctuation never become terms (SPEC RT2).
"""

from __future__ import annotations

import re
import sys
import threading
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache, lru_cache
from itertools import groupby
from typing import Any

from remem import plain
from remem.zh_names import joined

_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_KANA_HANGUL = "\u3040-\u30ff\uac00-\ud7af"
_RUNS = rf"([{_HAN}]+)|([{_KANA_HANGUL}]+)|([^{_HAN}{_KANA_HANGUL}]+)"
# Words keep inner . _ - + # so "3.11", "spring-boot", "c++", "node.js" stay whole.
_WORD = re.compile(r"[0-9a-z]+(?:[._\-+#][0-9a-z]+)*[+#]*")
_DIGITS = re.compile(r"\d+(?:\.\d+)*")


EN_STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is it
    its itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself yourselves
    us also let lets via per""".split()
)
ZH_STOPWORDS = frozenset(
    """什么 怎么 怎样 为什么 如何 哪个 哪些 这个 那个 这些 那些 这样 那样 这里 那里 我们 你们 他们
    她们 它们 自己 一个 一些 一下 没有 可以 因为 所以 如果 但是 而且 或者 就是 还是 然后 已经 应该
    需要 可能 不是 只是 的话 吗 呢 吧 之后 之前 时候 现在 请问 帮我 告诉 一直 还有""".split()
)
# Irregular English forms the stemmer cannot join to their base ("went" -> "go"): a
# question asks "where did she go", the memory says "she went". Forms that are also
# common words of another meaning (left, saw, rose, bit, found, lay) are left alone.
_IRREGULAR = dict(
    pair.split(":")
    for pair in """ate:eat awoke:wake became:become began:begin begun:begin bent:bend bled:bleed
    blew:blow blown:blow broke:break broken:break brought:bring built:build burnt:burn
    bought:buy caught:catch chose:choose chosen:choose came:come crept:creep dealt:deal
    dug:dig drew:draw drawn:draw dreamt:dream drank:drink drunk:drink drove:drive
    driven:drive eaten:eat fell:fall fallen:fall fed:feed fought:fight fled:flee flew:fly
    flown:fly forgot:forget forgotten:forget forgave:forgive forgiven:forgive froze:freeze
    frozen:freeze got:get gotten:get gave:give given:give went:go gone:go grew:grow
    grown:grow hung:hang heard:hear hid:hide hidden:hide held:hold kept:keep knelt:kneel
    knew:know known:know led:lead leapt:leap learnt:learn lent:lend lost:lose made:make
    meant:mean met:meet paid:pay rode:ride ridden:ride rang:ring rung:ring ran:run
    said:say seen:see sought:seek sold:sell sent:send shook:shake shaken:shake shone:shine
    shot:shoot shown:show sang:sing sung:sing sank:sink sunk:sink sat:sit slept:sleep
    slid:slide spoke:speak spoken:speak spent:spend spun:spin stood:stand stole:steal
    stolen:steal stuck:stick struck:strike swore:swear sworn:swear swept:sweep swam:swim
    swum:swim took:take taken:take taught:teach tore:tear torn:tear told:tell
    thought:think threw:throw thrown:throw understood:understand woke:wake woken:wake
    wore:wear worn:wear won:win wept:weep wrote:write written:write children:child
    men:man women:woman feet:foot teeth:tooth mice:mouse""".split()
)
_CANON_KEEP = set("#/@\\%_-")
_CANON_PARTICLES = set("的地得是")


_LOCAL = threading.local()


def _stemmer() -> Any:
    """This thread's English stemmer (Snowball, PyStemmer's C build: ~1 us a word against
    ~20 us for snowballstemmer's pure Python, the same stems). A stemmer keeps the word
    it works on in itself, so threads sharing one (a server's requests) would corrupt
    each other's stems."""
    stemmer = getattr(_LOCAL, "stemmer", None)
    if stemmer is None:
        import Stemmer

        stemmer = _LOCAL.stemmer = Stemmer.Stemmer("english")
    return stemmer


_JIEBA_LOCK = threading.Lock()
_JIEBA: Any = None


def jieba() -> Any:
    """rjieba, its dictionary given the names it lacks once. Under a lock: rjieba raises
    "Already borrowed" when a word is added while another thread cuts (eight threads'
    first saves at once)."""
    global _JIEBA
    if _JIEBA is None:
        with _JIEBA_LOCK:
            if _JIEBA is None:
                import rjieba

                for word in _NAMES_JIEBA_LACKS:
                    rjieba.add_word(word, None, "nz")
                _JIEBA = rjieba
    return _JIEBA


# Names everyone uses that jieba's dictionary lacks and cuts into pieces no term keeps
# (饿了么 into 饿 / 了 / 么, 飞书 into 飞 / 书): a note about them had no word to find it by
_NAMES_JIEBA_LACKS = (
    "饿了么 拼多多 货拉拉 钉钉 飞书 唯品会 快团团 企查查 开市客 名创优品 美图秀秀 "
    # and those its guess finds alone but glues to a neighbour (美团店, 发小红书)
    "美团 美团外卖 大众点评 小红书 抖音 快手 微信 企业微信 天猫 闲鱼 得物 盒马 叮咚买菜 "
    "永辉 瑞幸 喜茶 蜜雪冰城 茶百道 收钱吧 拉卡拉 顺丰 中通 韵达 高德 知乎 微博 "
    "哔哩哔哩 云闪付 花呗 腾讯会议 学习通"
).split()


@lru_cache(maxsize=1 << 16)
def _stem(word: str) -> str:
    # Cached: a save stems its words several times over (index terms, subject keys).
    word = _IRREGULAR.get(word, word)
    if word.isascii() and word.isalpha() and len(word) > 3:
        return str(_stemmer().stemWord(word))
    return word


def _english_terms(chunk: str, out: list[str]) -> None:
    for word in _WORD.findall(chunk):
        if word in EN_STOPWORDS:
            continue
        if len(word) > 1 or word.isdigit():
            out.append(_stem(word))
        parts = re.split(r"[._\-+#]+", word)
        if len(parts) > 1:
            out.extend(_stem(p) for p in parts if (len(p) > 1 or p.isdigit()) and p != word)
            if "-" in word and word.replace("-", "").isalpha():
                out.append(_stem(word.replace("-", "")))  # "de-stress" is found by "destress"


def _bigrams(run: str) -> list[str]:
    return [run[i : i + 2] for i in range(len(run) - 1)] or []


def _kind(ch: str) -> int:
    """0 for a Han character, 1 for kana or hangul, 2 for anything else (the classes of
    `_RUNS`)."""
    o = ord(ch)
    if o < 0x3040:
        return 2
    if o <= 0x30FF:
        return 1
    if 0x3400 <= o <= 0x4DBF or 0x4E00 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF:
        return 0
    return 1 if 0xAC00 <= o <= 0xD7AF else 2


@cache
def _runs_pattern() -> re.Pattern[str]:
    return re.compile(_RUNS)


_BY_HAND = 256  # characters: shorter texts are split without the pattern


def _runs(text: str) -> list[tuple[str, str, str]]:
    """`_RUNS.findall(text)`: (Han run, kana/hangul run, other run), one of the three set
    per run. Compiling `_RUNS` (classes of ~43,000 characters) costs a process 5-15 ms,
    more than a one-shot search's whole query work, so short texts (queries, most
    memories) are split by hand and the pattern compiles only for a long one."""
    if text.isascii():
        return [("", "", text)] if text else []
    if len(text) > _BY_HAND:
        return _runs_pattern().findall(text)
    out: list[tuple[str, str, str]] = []
    for kind, chars in groupby(text, _kind):
        run = "".join(chars)
        out.append((run, "", "") if kind == 0 else ("", run, "") if kind == 1 else ("", "", run))
    return out


# Loading jieba's dictionary costs a process ~80 ms (more than the rest of a one-shot
# `remem search`). A one-shot command may have its Han runs cut by a process that holds
# it loaded already — the warm service of `remem.retrieval.warm`, running the same
# jieba — until this process loads jieba itself. The cutter answers None to decline.
# (Both take `timeout=`: seconds to wait for the answer.)
Cutter = Callable[..., "list[list[str]] | None"]
# and its part-of-speech tags of texts (jieba's `tag`, as pairs), None to decline
Tagger = Callable[..., "list[list[tuple[str, str]]] | None"]
_elsewhere: list[Cutter] = []
_tag_elsewhere: list[Tagger] = []


def cut_elsewhere(cutter: Cutter | None, tagger: Tagger | None = None) -> None:
    """Let `cutter` cut Han runs (and `tagger` tag texts) for this process while it has
    not loaded jieba (None: always here). Set by a one-shot CLI command; the answers are
    jieba's either way."""
    _elsewhere[:] = [cutter] if cutter is not None else []
    _tag_elsewhere[:] = [tagger] if tagger is not None else []


# Inside a write transaction the cutter has this long to answer, and once it has not,
# it is not asked again until the transaction ends: a save holding the write lock never
# waits on another process for longer (issue 32).
IN_WRITE_TIMEOUT = 0.1


@contextmanager
def in_write() -> Iterator[None]:
    """Cut and tag inside a write transaction (see IN_WRITE_TIMEOUT)."""
    before, _LOCAL.in_write = getattr(_LOCAL, "in_write", 0), 1
    try:
        yield
    finally:
        _LOCAL.in_write = before


def _ask(ask: Callable[..., Any], what: list[str]) -> Any:
    """What the registered cutter answers for `what`, or None (then jieba here)."""
    state = getattr(_LOCAL, "in_write", 0)  # 0: outside a write, 1: in one, 2: gave up
    if "rjieba" in sys.modules or state == 2:
        return None
    answer = ask(what, timeout=IN_WRITE_TIMEOUT) if state else ask(what)
    if answer is None and state:
        _LOCAL.in_write = 2
    return answer


def jieba_tag(text: str) -> list[tuple[str, str]]:
    """jieba's words of `text` with their part-of-speech tags (here, or by the
    registered tagger)."""
    if _tag_elsewhere:
        tags = _ask(_tag_elsewhere[0], [text])
        if tags is not None and len(tags) == 1:
            return list(tags[0])
    return [(str(w), str(t)) for w, t in jieba().tag(text)]


def cut_for_search(runs: list[str]) -> list[list[str]]:
    """jieba's cut_for_search of each Han run (from the cache of word-sized runs, here,
    or by the registered cutter)."""
    if not runs:
        return []
    known = _word_cuts()
    if all(run in known for run in runs):
        return [list(known[run]) for run in runs]
    cuts: list[list[str]] | None = None
    if _elsewhere:
        asked = _ask(_elsewhere[0], runs)
        if asked is not None and len(asked) == len(runs):
            cuts = [list(cut) for cut in asked]
    if cuts is None:
        cutter = jieba()
        cuts = [cutter.cut_for_search(run) for run in runs]
    _learn(known, runs, cuts)
    return cuts


# A save asks jieba for the words of the truth rules' lexicons (我家, 同事, 男朋友 ...)
# whatever its own text, so a process would load jieba's dictionary (80-170 ms) or ask
# the warm service ~50-150 times for them. Cuts of runs this short are kept in
# `$REMEM_HOME/cache/` (named by a digest of jieba's build and this module) and read
# back by the next process: the same cuts, jieba only for a text's own longer runs.
_WORD_RUN = 3
_word_state: dict[str, Any] = {}  # "cuts": run -> cut; "path": the cache; "new": unsaved


def _word_cuts() -> dict[str, tuple[str, ...]]:
    if "cuts" not in _word_state:
        import marshal

        path = _word_cuts_path()
        cuts: dict[str, tuple[str, ...]] = {}
        try:
            loaded = marshal.loads(path.read_bytes()) if path is not None else {}
            if isinstance(loaded, dict) and all(
                isinstance(k, str) and isinstance(v, tuple) and all(isinstance(w, str) for w in v)
                for k, v in loaded.items()
            ):
                cuts = loaded
        except (OSError, EOFError, ValueError, TypeError):
            pass  # none yet, or unreadable: learned again
        _word_state.update(cuts=cuts, path=path, new=False)
    known: dict[str, tuple[str, ...]] = _word_state["cuts"]
    return known


def _word_cuts_path() -> Any:
    """The cache's path (a `Path`), or None when jieba's build cannot be told."""
    import hashlib
    import marshal
    from importlib.util import find_spec
    from pathlib import Path

    from remem.settings import home_dir

    try:
        spec = find_spec("rjieba")
        if spec is None or spec.origin is None:
            return None
        digest = hashlib.sha256(f"{sys.version}|{spec.origin}".encode())
        for each in sorted(Path(spec.origin).parent.iterdir()):
            stat = each.stat()
            digest.update(f"{each.name}|{stat.st_size}|{stat.st_mtime_ns}".encode())
        digest.update(Path(__file__).read_bytes())
    except (OSError, ValueError, ImportError):
        return None
    return home_dir() / "cache" / f"cuts-{digest.hexdigest()[:24]}-m{marshal.version}"


def _learn(known: dict[str, tuple[str, ...]], runs: list[str], cuts: list[list[str]]) -> None:
    """Remember the cuts of word-sized runs; saved when the process exits."""
    fresh = {r: tuple(c) for r, c in zip(runs, cuts, strict=True) if len(r) <= _WORD_RUN}
    # `<=`, not `not fresh.keys() - known.keys()`: a difference with a view walks all
    # of `known` (every cut this install learnt: ~0.5 ms a call at a few thousand)
    if fresh.keys() <= known.keys():
        return
    known.update(fresh)
    if not _word_state["new"] and _word_state["path"] is not None:
        import atexit

        _word_state["new"] = True
        atexit.register(_save_word_cuts)


def _save_word_cuts() -> None:
    import marshal

    from remem.tokens import write_whole

    write_whole(_word_state["path"], marshal.dumps(dict(_word_state["cuts"])))
    _word_state["new"] = False


def terms(text: str) -> list[str]:
    """Search terms of a text, in order, repeats kept (term frequency matters for BM25)."""
    if len(text) <= _CACHED:
        return list(_cached_terms(text))
    return _terms(text)


# A save computes the terms of the same short texts (its content, each subject and
# value, the candidates' subjects) about four times over: remember recent ones.
_CACHED = 512


@lru_cache(maxsize=8192)
def _cached_terms(text: str) -> tuple[str, ...]:
    return tuple(_terms(text))


def terms_of(texts: list[str]) -> list[list[str]]:
    """`terms` of each text, the Han runs of all of them cut in one go (one request
    when a cutter elsewhere answers)."""
    runs = [_runs(unicodedata.normalize("NFKC", t).lower()) for t in texts]
    cuts = iter(cut_for_search([han for r in runs for han, _, _ in r if han]))
    return [_joined(r, cuts) for r in runs]


def _terms(text: str) -> list[str]:
    runs = _runs(unicodedata.normalize("NFKC", text).lower())
    return _joined(runs, iter(cut_for_search([han for han, _, _ in runs if han])))


# When a change starts, said before the thing ("下礼拜起小份卖14"): jieba guesses 起 and the
# word after it are one unknown word, and the thing has no term of its own
_STARTS_GLUED = frozenset("起")


# Characters that are words of grammar, numbers or units, never half of a thing's name
_FUNCTION_CHARS = frozenset(
    "的了是在我你他她它们和与或也都就还又把被让给从到向对为于以而着过吗呢吧啊呀哦嘛么这那哪"
    "谁每各某个些不没很太最更再才只已将要会能可该等得地之其此及并且但若如则即便仍亦却乃有"
    "零一二三四五六七八九十百千万两半几俩仨号月日年点分秒天周次回遍块元毛角斤公里米多少起改换"
)


def _paired(words: list[str]) -> list[str]:
    """The first two of each run of characters jieba cut apart that are no words of
    grammar ("藕盒" of 藕 / 盒, "苕皮" of 苕 / 皮 / 卖): a thing's name it does not know,
    which would have no term at all (a verb after it stays apart)."""
    out, run = [], ""
    for word in [*words, ""]:
        if len(word) == 1 and word not in _FUNCTION_CHARS:
            run += word
            continue
        if len(run) > 1:
            out.append(run[:2])
        run = ""
    return out


_DAY = re.compile(r"(?:周|星期|礼拜)([一二三四五六日天])")


def _days(han: str) -> list[str]:
    """The days of the week a run names, as 周X, however jieba cut it ("每周四截单":
    每周 / 四截 / 单; "星期天" is 周日)."""
    return ["周" + ("日" if d == "天" else d) for d in _DAY.findall(han)]


def _joined(runs: list[tuple[str, str, str]], cuts: Iterator[list[str]]) -> list[str]:
    """The terms of a text's runs, its Han runs' cuts taken in order from `cuts`."""
    out: list[str] = []
    for han, other_cjk, rest in runs:
        if han:
            words = joined(next(cuts))  # 小 陈 -> 小陈
            for token in words:
                if len(token) > 1 and token not in ZH_STOPWORDS:
                    out.append(token)
                if len(token) > 2 and token[0] in _STARTS_GLUED and token[1:] not in words:
                    out.append(token[1:])  # "8月起豆皮": jieba's guess glued 起 to 豆皮
            out.extend(_paired(words))
            out.extend(d for d in _days(han) if d not in words)
        elif other_cjk:
            out.extend(_bigrams(other_cjk))
        else:
            _english_terms(rest, out)
    return out


def query_terms(text: str) -> list[str]:
    """Distinct terms of a query, in first-seen order."""
    return list(dict.fromkeys(terms(text)))


@lru_cache(maxsize=4096)
def canonicalize(text: str) -> str:
    """The dedup form of a content (SPEC LT8)."""
    text = unicodedata.normalize("NFKC", text).lower()
    chars: list[str] = []
    for i, ch in enumerate(text):
        if ch in _CANON_PARTICLES:
            continue
        if ch.isspace():
            chars.append(" ")
        elif ch in _CANON_KEEP or ch.isalnum():
            chars.append(ch)
        elif (
            ch == "." and 0 < i < len(text) - 1 and text[i - 1].isdigit() and text[i + 1].isdigit()
        ):
            chars.append(ch)
        else:
            chars.append(" ")
    folded = " ".join("".join(chars).split())
    # Spaces next to Han characters carry no meaning: "使用JDK" == "使用 JDK".
    return re.sub(rf"(?<=[{_HAN}]) | (?=[{_HAN}])", "", folded)


@lru_cache(maxsize=4096)  # both sides of every candidate pair weighed by surface
def skeleton(canon: str) -> str:
    """A canonical form with its numbers and versions removed ("" if it had none)."""
    if not _DIGITS.search(canon):
        return ""
    return " ".join(_DIGITS.sub(" ", canon).split())


def dice(left: str, right: str) -> float:
    """Character-bigram Dice coefficient of two canonical forms."""
    a, b = _bigram_counts(left), _bigram_counts(right)
    total = a.total() + b.total()
    if total == 0:
        return 1.0 if left == right else 0.0
    # over the bigrams both hold (a set intersection, in C), not every bigram of one
    return 2 * sum(min(a[k], b[k]) for k in a.keys() & b.keys()) / total


@lru_cache(maxsize=4096)  # a new memory's form is weighed against each candidate's
def _bigram_counts(canon: str) -> Counter[str]:
    """The bigrams of a canonical form, counted (shared: never changed)."""
    return Counter(_bigrams(canon.replace(" ", "")))


def near_duplicate(left: str, right: str, threshold: float) -> bool:
    """Nearly the same wording and the same numbers (numbers carry the meaning)."""
    return _DIGITS.findall(left) == _DIGITS.findall(right) and dice(left, right) >= threshold


def tagged(text: str) -> list[tuple[str, str]]:
    """The words of `text` (lower case, no blanks) with jieba's part-of-speech tags."""
    return list(_tagged(text))


@lru_cache(maxsize=4096)  # a save tags its content twice, and its candidates' phrases
def _tagged(text: str) -> tuple[tuple[str, str], ...]:
    normal = unicodedata.normalize("NFKC", text)
    words = plain.tags(normal)
    words = jieba_tag(normal) if words is None else words
    return tuple((w.lower(), t) for w, t in words if w.strip())
