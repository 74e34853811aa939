"""Phrases that say a text states a change or corrects an earlier one ("actually",
"correction:", "switched to", 更正), blanked out before the grammar reads the text
(offsets kept), "X changed: Y" / "New X: Y" read as "X is Y", and whether a text states
a change at all (`states_change`)."""

from __future__ import annotations

import re
from functools import lru_cache

from remem.truth import lexicon as lx
from remem.truth.replacement import replaced
from remem.truth.segment import normal, sentences, solid, tokenize
from remem.truth.table import alternation
from remem.truth.verbs import predicate_at

_EN_MARKERS = re.compile(
    r"\b(?:"
    + "|".join(re.escape(p) for p in (*lx.EN_CHANGE_PHRASES, *lx.EN_CORRECTIONS))
    + r")\b[:,]?",
    re.I,
)


_EN_CHANGED = re.compile(rf"(?<=\w )(?:{alternation('changed heading', 'en')})\s*:", re.I)


_EN_NEW = re.compile(r"^\s*new\b(?=[^:.!?]{1,40}:)", re.I)


# "Update: the offsite is in Chicago", "Heads up - …": a note that what follows changed
_EN_UPDATE = re.compile(rf"^\s*(?:{alternation('update heading', 'en')})\s*[:,\-–—]", re.I)


def markers(text: str) -> tuple[str, bool]:
    """The text with change and correction phrases blanked out (offsets kept), and
    whether there was one."""
    found = False

    def blank(m: re.Match[str]) -> str:
        nonlocal found
        found = True
        return " " * len(m.group())

    text = _EN_MARKERS.sub(blank, text)
    # "Offsite location changed: Porto": what changed, then its value
    text, changed = _EN_CHANGED.subn(lambda m: "is".ljust(len(m.group())), text)
    text, new = _EN_NEW.subn(lambda m: " " * len(m.group()), text)  # "New standup link: …"
    text, update = _EN_UPDATE.subn(lambda m: " " * len(m.group()), text)
    changed += new + update
    found = found or changed > 0
    for word in lx.ZH_CORRECTIONS:
        if word in text:
            found = True
            text = text.replace(word, " " * len(word))
    return text, found


# "木炭换了", "面筋换了家": a thing said switched; "不送了", "不找老刘了": a thing no longer
# done (not an amount's "不少了", a judgement's "不错了", "不了了之")
_ZH_SWITCHED = re.compile(r"(?<=[\u4e00-\u9fff])换了")
_ZH_NO_LONGER = re.compile(r"不(?!少|多|错|久|了|行|好|对|够|是)[\u4e00-\u9fff]{1,4}了")


@lru_cache(maxsize=4096)
def states_change(content: str) -> bool:
    """Whether `content` says something changed or stopped (改用, 不再, switched to, now
    uses, a correction), whatever else the grammar makes of it."""
    text, corrected = markers(normal(content))
    if corrected or _ZH_SWITCHED.search(text) or _ZH_NO_LONGER.search(text):
        return True
    for sent in sentences(tokenize(text)):
        if replaced(sent) is not None:
            return True
        toks = solid(sent)
        if toks and toks[0].low == "after":  # "After the reorg, …": a state since an event
            return True
        for i, tok in enumerate(toks):
            if tok.low in lx.ZH_CHANGE_ADVERBS or tok.low in lx.EN_CHANGE_TAILS:
                return True
            if tok.low in lx.SINCE:  # "… since we added seats", "自从搬家"
                return True
            if tok.low in lx.ZH_BY and tok.low != "由":  # 改由
                return True
            found = predicate_at(toks, i)
            if found is not None and (found[0].change or found[0].negation):
                return True
    return False
