"""Phrases that say a text states a change or corrects an earlier one ("actually",
"correction:", "switched to", 更正), blanked out before the grammar reads the text
(offsets kept), and "X changed: Y" / "New X: Y" read as "X is Y"."""

from __future__ import annotations

import re

from remem.truth import lexicon as lx

_EN_MARKERS = re.compile(
    r"\b(?:"
    + "|".join(re.escape(p) for p in (*lx.EN_CHANGE_PHRASES, *lx.EN_CORRECTIONS))
    + r")\b[:,]?",
    re.I,
)


_EN_CHANGED = re.compile(r"(?<=\w )(?:changed|updated|switched|changes|update)\s*:", re.I)


_EN_NEW = re.compile(r"^\s*new\b(?=[^:.!?]{1,40}:)", re.I)


# "Update: the offsite is in Chicago", "Heads up - …": a note that what follows changed
_EN_UPDATE = re.compile(r"^\s*(?:update|updated|heads up|fyi)\s*[:,\-–—]", re.I)


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
