"""A value given in halves or parts (issue 29; moved from `remem.secrets_pieces`): each part
named as one ("first half of the router pass is Pangolin", 密码一半是 abc，另一半是 789!), the
other half sent in its own message and said to be joined ("the second half is _Tide42Moon, no
space between") or given after a colon ("first half is 39 — the other half in its own message:
71"), the parts then the whole ("together it's 538062"), a lock's code split between people
("I've got half of it (36), Tom's got the rest (91)", "I've the first half, 37; Jo has the
second, 92", "the vault needs both halves: I've got 5521, Priya's got 8804", 保险柜要两半：我这半是
6150，老周那半是 2784).

    half_spans("first half of the router pass is Pangolin", ...)           # Pangolin
    half_spans("the second half is _Tide42Moon, no space between", ...)    # _Tide42Moon
    half_spans("the first half of the film was slow", ...)                 # []

Passwords and codes are sent in halves so no one message holds them all; each half is still
the secret. Each rule wants what the parts are of (a code, a lock) or the words that join
them. Used by `remem.secrets_cues`.
"""

from __future__ import annotations

import re

from remem.secrets_shapes import MONEY, Lazy, excluded, scan, sentence, strong

__all__ = ["half_spans"]


# -- a value in halves: "first part of the code is 38", 密码一半是 abc，另一半是 789! ----------
_HALF = Lazy(
    r"(?i)(?<![a-z])(?:(?:(?:first|second|last|other)\s+)?(?:half|part|bit|piece)"
    r"(?:\s+(?:one|two|three|[1-3a-c]))?"  # "part one is", "piece two:"
    r"|the\s+(?:first|second|third|last|other|rest)(?:\s+one)?"  # "The first is Qz81"
    r"|(?:the\s+)?(?:first|last)\s+(?:two|three|four|five|six|[2-6])(?:\s+(?:digits|numbers))?)"
    r"(?:\s+of\s+(?:it|(?:the|my|his|her|our|your)(?:\s+[\w-]+){1,3}))?(?:,?\s+(?:which|that))?"
    r"\s*(?:\s(?:is|was|are|were)\s|[:：])"  # "she has the second half, which is 16"
    r"\s*[\"“]?(?P<v>[^\s,，;；\"”]{2,})"
    # 我这半是 27, 他那半是 64: each keeps a half
    r"|(?:另一半|一半|前半[段截]?|后半[段截]?|前半部分|后半部分|前一半|后一半|[这那]一?半)"
    r"\s*(?:是|为|：|:|\s)\s*"
    r"(?P<z>[^\s,，;；。]{2,})"
)
_HALF_CUE = Lazy(r"(?i)pass|pin|code|combo|combination|key|ssn|social|密码|口令|验证码")
# the halves said to be joined: a split value's other part, sent in its own message ("...and
# the second half is _Rides42Bikes, no space between them", 和前半段连起来)
_JOINED = Lazy(
    r"(?i)(?<![a-z])(?:no\s+spaces?|together|joined|combined|put\s+(?:them|it)\s+together"
    r"|in\s+one\s+go)(?![a-z])|连起来|拼起来|合起来|拼在一起|连在一起|接起来"
)
# the half of a pass or code it names: "first half of the router pass is Pangolin"
_HALF_OF = Lazy(
    r"(?i)\sof\s.*(?<![a-z])(?:pass(?:word|code|phrase)?|pw|pin|code)\s*(?:\s(?:is|was)\s|[:：])"
)
# a lock's code in halves names no code: the lock is named (a gate or a door is keyed in:
# a gate's takings come in halves too), and digits end each half ("Boat shed padlock: first
# half is 40, second half is 17"; "side gate: first half 62, second half 09, key them in")
_HALF_LOCK = Lazy(
    r"(?i)(?<![a-z])(?:(?:pad)?locks?|safes?|keypads?|lockers?|key\s?safe|lock\s?box|alarms?|doors?"
    r"|cupboards?|cabinets?|sheds?|cages?|hatch(?:es)?|chests?|trunks?"  # things that lock
    r"|opens|unlocks|opened|unlocked)"  # or the halves said to open it: "together it opens"
    r"(?![a-z])"  # a door has no takings: its halves are a code's
    r"|门禁|门锁|锁|保险柜|保险箱|柜"
    r"|(?<![a-z])(?:gates?|doors?)(?![a-z]).*(?<![a-z])(?:punch|key|tap|enter|type|press)"
    r"(?:es|ed|s)?\s+(?:(?:them|it|both)\s+)?in(?![a-z])"
)
# the other half said bare, no "is": "first half is 39, second half 16"; or said to come in its
# own message, then given after a colon: "the second half in its own message, as agreed: 71"
_BARE_HALF = Lazy(
    r"(?i)(?<![a-z])(?:second|other|last)\s+half\s+\d{2,4}(?![\d\w])"
    r"|(?<![a-z])(?:(?:second|other|last)\s+(?:half|part|bit|two|three|four)|the\s+rest)(?![a-z])"
    r"[^.;:!?\n\d]{1,60}?[:：—–]\s*\d{2,4}(?![\d\w]|[.,:/]\d)"
)
_HALF_END = Lazy(r"\s*(?:[,，;；。.!]|\s[—–-]\s|$|(?:and|then)(?![a-z]))")
# "half the lockbox number was in my text, the rest is 17": the rest of a half said elsewhere
_REST = Lazy(r"(?i)the\s+rest")
_HALF_SAID = Lazy(r"(?i)(?<![a-z])half(?![a-z])")
# the parts said, then the whole: 53 和 8062 分开发的，合起来是538062; "together it's 538062"
_WHOLE = Lazy(
    r"(?i)(?:(?<![a-z])(?:together|combined|joined\s+up)\s*(?:it['’]s|that['’]s|it\s+is|is|[:：])"
    r"|(?:合起来|连起来|拼起来|连在一起|拼在一起)(?:就)?(?:是|为|[:：]))\s*(?P<v>\d{4,12})(?!\d)"
)
_WHOLE_CUE = Lazy(r"(?i)pass|pin|code|combo|key|lock|safe|密码|口令|码|锁")
_HALF_WORDS = ("half", "part", "bit", "piece", "first", "second", "last", "rest", "半")


# A code split between people, each part said right after its word, no "is": "I've got half
# of it (36), Tom's got the rest (91)", 我记前一半 36，另一半在老李那 91 (both parts, by a lock)
_HELD_HALF = Lazy(
    r"(?i)(?<![a-z])(?:half|the\s+rest|(?:the\s+)?other\s+half|(?:first|second|last)\s+(?:half|part|bit)"
    # the next part by its order alone, once a half is said: "I've the first half, 37; Jo has
    # the second, 92" (a sentence naming a lock or a code, both parts in it: below)
    r"|the\s+(?:second|other|last)(?=\s*[:：—–,-]?\s*\d{2,4}(?![\d.,:/]?\d))"
    r")"
    # of the code, or of a thing's code: "the first half of the safe combo, 38"
    r"(?:\s+of\s+(?:it|(?:the|my|our|his|her|their)\s+(?:[\w'’-]+\s+){0,2}?"
    r"(?:code|number|combo|combination|pin|passcode)))?"
    # the part in brackets, who keeps it said first perhaps ("half of it is with me (12)")
    r"(?:(?:(?:\s+(?:is|are|stays|sits))?\s+(?:with|at|in)\s+[^.;:\d\n()（）]{1,24}?)?"
    r"\s*[(（]\s*(?P<p>\d{2,4})\s*[)）]"
    # "the first half, 44, ...", "first half 41 and ...", "the other 77 with Priya"
    r"|\s*[:：—–,-]?\s*(?P<v>\d{2,4})(?![\d.,:/]?\d|\s*(?!(?:with|and|then)\s)[a-z%]))"
    r"|(?:一半|另一半|前一半|后一半|剩下的|其余的?)[^。，,；;\d\n]{0,8}?\s*[(（]?\s*(?P<z>\d{2,4})"
    r"(?![\d.,:/]?\d|\s*[个位号块元])"
)


_ORDER_ONLY = Lazy(r"(?i)the\s+(?:second|other|last)(?!\s+half)")


def _held_halves(text: str, low: str) -> list[tuple[int, int]]:
    halves = list(scan(_HELD_HALF, text, low, "half", "rest", "part", "bit", "半", "剩下", "其余"))
    out = []
    for m in halves:
        start, end = sentence(text, m.start())
        parts = [h for h in halves if start <= h.start() < end]
        first = parts[0].start(parts[0].lastgroup or 0)  # the lock or the code named first
        named = _HALF_LOCK.search(text, start, first) or _HALF_CUE.search(text, start, first)
        halved = any(_ORDER_ONLY.match(h[0]) is None for h in parts)  # "the second" after a half
        if len(parts) > 1 and named and halved:
            out.append(m.span(m.lastgroup or 0))
    return out


# A code said to need both halves (or to be split between people), then who holds which, each
# part said after its holder: "the vault needs both halves: I've got 5521, Priya's got 8804";
# 保险柜要两半：我这半是 6150，老周那半是 2784 (two holders or more, after the split is said)
_SPLIT = Lazy(
    r"(?i)(?<![a-z])(?:(?:both|two)\s+(?:halves|parts|pieces|bits|codes)|half\s+each"
    r"|split\s+(?:between|across|in\s+two|into\s+two)|(?:each|one)\s+(?:of\s+us\s+)?(?:has|knows"
    r"|keeps|holds)\s+half)(?![a-z])|两半|两段|两部分|一人一半|各[记管拿有]一半|分成?两"
)
_HOLDER_DIGITS = r"(?P<{}>\d{{2,6}})(?![\d.,:/]?\d|\s*[A-Za-z%£$€元块个号位次年])"
_HOLDER = Lazy(
    r"(?<![A-Za-z])(?:I['’]ve\s+got|I\s+(?:have|hold|keep|know)|[Mm]ine(?:['’]s|\s+is)"
    r"|[Mm]y\s+(?:half|part|bit)\s+is|[A-Z][a-z]+(?:['’]s\s+got|\s+(?:has|holds|keeps|knows)"
    r"|['’]s\s+(?:half|part|bit)?\s*is|['’]s))\s*[:：,]?\s*"
    + _HOLDER_DIGITS.format("v")
    + r"|(?<![\u4e00-\u9fff])(?:我|[\u4e00-\u9fff]{1,3}?)(?:[这那]一?半|手里|手上)?的?"
    r"(?:是|记着?|有|拿着?|管着?|知道)\s*" + _HOLDER_DIGITS.format("z")
)
# what the parts are keyed into: a lock named, or the parts said to be keyed ("enter mine first")
_SPLIT_CUE = Lazy(
    r"(?i)(?<![a-z])(?:vaults?|(?:strong|cash|lock|key)\s?box(?:es)?"
    r"|(?:enter|key|punch|type|put)\s+(?:in\s+)?(?:mine"
    r"|yours|his|hers|theirs|both|them))(?![a-z])|库房|机房|输|按"
)


def _split_holders(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for split in scan(_SPLIT, text, low, "both", "two", "half", "split", "两", "一半"):
        start, end = sentence(text, split.start())
        held = list(_HOLDER.finditer(text, split.end(), end))
        cued = _HALF_LOCK.search(text, start, end) or _HALF_CUE.search(text, start, end)
        if len(held) > 1 and (cued or _SPLIT_CUE.search(text, start, end)):
            if not MONEY.search(text, start, end):  # "the bill's split between us: I've got 45"
                out += [h.span(h.lastgroup or 0) for h in held]
    return out


def half_spans(text: str, low: str) -> list[tuple[int, int]]:
    """Each half or part of a value, named as one, in a sentence (or one of the two before)
    that names what it is a part of, or says the parts are joined."""
    out: list[tuple[int, int]] = []
    said = list(scan(_HALF, text, low, *_HALF_WORDS))
    for m in said:
        start, end = sentence(text, m.start())
        for _ in range(2):  # named in one of the two sentences before: "... in two pieces."
            start = sentence(text, start - 2)[0] if start > 1 else start
        group = "v" if m["v"] is not None else "z"
        value = m[group].rstrip(".!?") or m[group]
        shaped = value.isdigit() or (re.search(r"\d|[^\w\s]", m[group]) and not excluded(value))
        cued = _HALF_CUE.search(text, start, end) is not None
        if value.isdigit() and _HALF_END.match(text, m.start(group) + len(value)):
            bare = _BARE_HALF.search(text, m.end(), end)
            if not cued:
                both = sum(start <= h.start() < end for h in said) > 1  # both halves said
                both = both or bool(_REST.match(m[0]) and _HALF_SAID.search(text, start, m.start()))
                lock = _HALF_LOCK.search(text, start, end) is not None
                cued = (both or bare is not None) and lock
            if cued and bare is not None:  # the bare half is the code's other half
                out.append((bare.end() - len(bare[0].split()[-1]), bare.end()))
        if not shaped and group == "v" and _HALF_OF.search(m[0]):  # "...router pass is Pangolin"
            shaped = value.isalpha() and value.istitle() and len(value) >= 5 and not excluded(value)
        elif not cued and _JOINED.search(text, start, end):  # the other half, named in its own
            cued = re.search(r"[A-Za-z]", value) is not None and strong(value)
        if shaped and cued:
            out.append((m.start(group), m.start(group) + len(m[group].rstrip("."))))
    for m in scan(_WHOLE, text, low, "together", "combined", "joined", "起来", "在一起"):
        start, end = sentence(text, m.start())
        if _WHOLE_CUE.search(text, start, end):
            out.append(m.span("v"))
    return out + _held_halves(text, low) + _split_holders(text, low)
