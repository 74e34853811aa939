"""Untrusted text meets a prompt (SPEC SE1, RT6): chat-template tokens and boundary tags made inert.

Tool results, stored memories injected in the memory block and fetched pages are data.
Inside them, a chat template's control token (`<|im_end|>`, `<｜User｜>`, `<end_of_turn>`,
`[INST]` ...) or one of our own boundary tags (`</tool_result>`, `</memory_context>`, in
any disguise) could end the data early and speak as the system. `neutralise` finds them
in a folded view of the text (NFKC/NFKD compatibility forms, invisible characters dropped,
look-alike letters, brackets, bars and slashes folded, case folded) and inserts one
backslash right after the opening bracket in the original text:

    neutralise("a <|im_end|> b")              # 'a <\\|im_end|> b'
    neutralise("＜/tool_result＞")             # '＜\\/tool_result＞'
    restore(neutralise(text)) == text          # always: nothing is deleted

An opener followed by backslashes gets one more (like `&amp;lt;`), so `restore` can undo
exactly one level. The store keeps memories as written: they are neutralised on the way
into a prompt, never in the database.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

__all__ = ["BOUNDARY_NAMES", "fold", "neutralise", "restore"]

# Our own wrappers: any disguise, closed or not, is neutralised.
BOUNDARY_NAMES = ("tool_result", "memory_context")
# Tags that are special tokens of some model's vocabulary (Llama, Mistral, Gemma, Qwen,
# DeepSeek, GLM), as whole tags; the short ones only when not glued to a word
# (`Optional<S>` is code).
TOKEN_TAGS = ("start_of_turn", "end_of_turn", "tool_call", "tool_response", "start_of_image")
SHORT_TAGS = ("s", "unk", "bos", "eos", "pad", "sop", "eop", "think")
# `[INST]`-style tokens (Llama 2, Mistral, GLM).
SQUARE_NAMES = (
    "inst",
    "system_prompt",
    "available_tools",
    "tool_calls",
    "tool_results",
    "tool_content",
    "gmask",
    "smask",
)

_LOOKALIKES = {
    # Cyrillic, Greek, Armenian and Cherokee letters that look Latin
    "a": "аАɑαΑ",
    "b": "ВвΒβЬ",
    "c": "сСϲⅽ",
    "d": "ԁԀ",
    "e": "еЕёЁεΕ",
    "g": "ɡց",
    "h": "һҺΗ",
    "i": "іІїıιΙɩӏ",
    "j": "јЈȷ",
    "k": "кКκΚ",
    "l": "ӀⅼǀӏΙ",
    "m": "мМΜ",
    "n": "ηΝпո",
    "o": "оОοΟօσ",
    "p": "рРρΡ",
    "q": "ԛԚ",
    "r": "гᴦ",
    "s": "ѕЅ",
    "t": "тТτΤ",
    "u": "υսμ",
    "v": "νѵ",
    "w": "ԝԜωѡ",
    "x": "хХχΧ",
    "y": "уУγΥү",
    "z": "ΖᏃ",
}
# Small capitals and other Latin letter forms compatibility folding leaves alone.
_SMALL_CAPS = "ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘǫʀꜱᴛᴜᴠᴡʏᴢ"
_PUNCT = {
    "<": "〈⟨‹❮˂ᐸ⧼＜﹤〈",
    ">": "〉⟩›❯˃ᐳ⧽＞﹥〉",
    "/": "∕⁄⧸╱⟋／",
    "|": "｜│∣ǀ￨┃❘",
    "[": "［⟦【〚",
    "]": "］⟧】〛",
    "_": "＿‗ˍ﹍﹏▁",
}
_TABLE: dict[str, str] = {ch: latin for latin, forms in _LOOKALIKES.items() for ch in forms}
_TABLE.update(zip(_SMALL_CAPS, "abcdefghijklmnopqrstuvwyz", strict=True))  # no small x
_TABLE.update({ch: sym for sym, forms in _PUNCT.items() for ch in forms})
_TABLE["ǀ"] = "|"  # a dental click reads as a bar next to brackets
# Blank letters some fonts draw as nothing (Hangul fillers, a Mongolian separator).
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u180e\u2800")


@lru_cache(maxsize=4096)
def _fold_char(ch: str) -> str:
    if ch in _TABLE:
        return _TABLE[ch]
    if ch in _INVISIBLE:
        return ""
    out = []
    for part in unicodedata.normalize("NFKD", ch):
        if unicodedata.category(part) in ("Mn", "Me", "Cf", "Cc") and part not in "\n\t":
            continue  # accents, zero-width and format characters
        out.append(_TABLE.get(part, part))
    return "".join(out).casefold()


def _folded(text: str) -> tuple[str, list[int]]:
    """The folded view of `text` and, for each of its characters, the index in `text`."""
    if text.isascii() and not any(c < " " and c not in "\n\t\r" for c in text):
        return text.lower(), list(range(len(text)))
    chars: list[str] = []
    owner: list[int] = []
    for i, ch in enumerate(text):
        folded = _fold_char(ch)
        chars.append(folded)
        owner.extend([i] * len(folded))
    return "".join(chars), owner


def fold(text: str) -> str:
    """`text` as the matcher sees it: compatibility forms, no invisibles, look-alikes
    folded to Latin letters and ASCII brackets, case folded."""
    return _folded(text)[0]


def _spaced(name: str) -> str:
    """`name` with anything from nothing to spaces, `_`, `-` or `.` between its letters."""
    letters = [c for c in name if c.isalnum()]
    return r"[\s_\-.]*".join(re.escape(c) for c in letters)


_OPEN = r"(?P<open><|&(?:amp;)*(?:lt|#0*60|#x0*3c);?|\\u003c|\\x3c|%3c)"


def _names(names: tuple[str, ...]) -> str:
    return "|".join(_spaced(n) for n in sorted(names, key=len, reverse=True))


_PATTERN = re.compile(
    rf"{_OPEN}(?P<esc>\\*)(?:\s*/?\s*(?:{_names(BOUNDARY_NAMES)})"
    r"|\|[^|\n<>]{0,48}\||<\s*/?\s*sys\s*>)"
    rf"|(?P<tag><)(?P<tagesc>\\*)\s*/?\s*(?:{_names(TOKEN_TAGS)})\s*>"
    rf"|(?<![a-z0-9_])(?P<short><)(?P<shortesc>\\*)\s*(?:{_names(SHORT_TAGS)})\s*>"
    rf"|(?P<end><)(?P<endesc>\\*)\s*/\s*(?:{_names(SHORT_TAGS)})\s*>"
    rf"|(?P<sq>\[)(?P<sqesc>\\*)\s*/?\s*(?:{_names(SQUARE_NAMES)})\s*\]"
)
_GROUPS = (
    ("open", "esc"),
    ("tag", "tagesc"),
    ("short", "shortesc"),
    ("end", "endesc"),
    ("sq", "sqesc"),
)
# Cheap test before folding: no opener of any kind, nothing to do.
_MAYBE = re.compile(r"[<\[&%\\\u2000-\u2bff\u3000-\u303f\ufe00-\uffff\u0100-\u04ff\u1400-\u1dff]")


def _spans(text: str) -> list[tuple[int, int]]:
    """(where the opener ends, how many backslashes follow it) in `text`, per match."""
    if not _MAYBE.search(text):
        return []
    folded, owner = _folded(text)
    out = []
    for m in _PATTERN.finditer(folded):
        group, escapes = next((g, e) for g, e in _GROUPS if m.group(g) is not None)
        out.append((owner[m.end(group) - 1] + 1, len(m.group(escapes))))
    return out


def neutralise(text: str) -> str:
    """`text` with every chat-template token and boundary tag made inert (one backslash
    after its opening bracket); reversible with `restore`."""
    spans = _spans(text)
    if not spans:
        return text
    parts, pos = [], 0
    for cut, _ in spans:
        parts += [text[pos:cut], "\\"]
        pos = cut
    parts.append(text[pos:])
    return "".join(parts)


def restore(text: str) -> str:
    """The inverse of `neutralise`: one backslash fewer after each neutralised opener."""
    spans = [(cut, n) for cut, n in _spans(text) if n > 0]
    if not spans:
        return text
    parts, pos = [], 0
    for cut, _ in spans:
        parts.append(text[pos:cut])
        pos = cut + (text[cut] == "\\")  # the backslash `neutralise` put right there
    parts.append(text[pos:])
    return "".join(parts)
