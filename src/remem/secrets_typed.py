"""Passwords said with how they are typed or made (issue 29): a word and then digits ("the
unlock is the word otter and then 42, no space"), a value followed by how to type it
("bluefinch, all lower case", qingshan2019，全小写, "Kx7 mR, no spaces"), a value said to be
the same as a name, then given (密码跟店名一样，yezijidian), in Chinese and English.

    typed_spans("the tablet unlock is the word otter and then 42", ...)   # otter and then 42
    typed_spans("WiFi 密码跟店名一样，laomiandian，全小写", ...)           # laomiandian
    typed_spans("type your name in lower case", ...)                       # []
    typed_spans("the password rules: letters only, all lower case", ...)   # []

How a value is to be typed (its case, no space, one word) is said of a value someone will
type, not of talk about one; each rule also wants a word of a password, a lock or a login
in the sentence, and a value of a made-up shape (digits, pinyin, a long word that is not an
adjective's or a verb's form). Used by `remem.secrets_cues`.
"""

from __future__ import annotations

from remem.secrets_shapes import Lazy, pinyin_phrase, scan, sentence, strong

__all__ = ["typed_spans"]

_CUE = Lazy(
    r"(?i)(?<![a-z])(?:pass(?:word|code|phrase)?s?|pw|pwd|pin|code|log[ -]?in|sign[ -]?in"
    r"|unlock(?:s|ed)?|(?:pad)?locks?|key|wi[- ]?fi|combination|combo"
    # a machine one logs into: what is typed at it is its login ("lab PC: X, all lowercase")
    r"|pcs?|computers?|laptops?|desktops?|workstations?|terminals?|tablets?|ipads?|macs?"
    r"|kiosks?|pos|accounts?|e-?mail|inbox|router|server|nas|portal|admin)(?![a-z])"
    r"|密码|口令|锁|登录|解锁|开机|电脑|笔记本|平板|账号|邮箱|后台"
)
# how a value is typed: its case, no space in it, one word
_NOTE = (
    r"(?:(?:all|in|type\s+it|typed)\s+){0,2}(?:(?:lower|upper|small)[\s-]?case|small\s+letters"
    r"|capitals|caps)(?![a-z])|no\s+spaces?(?![a-z])|(?:all\s+)?one\s+word(?![a-z])"
    r"|(?:全|全部|都是?|都用|要)?(?:小写|大写)(?:字母)?|(?:中间)?(?:不带|没有?|不要|无|不加)空格"
    # the case of one letter of it: "with a capital Q", "lower-case k", L大写, 首字母大写
    r"|(?P<one>(?:with\s+)?(?:an?\s+)?(?:capital|big|upper[\s-]?case|lower[\s-]?case|small)"
    r"\s+(?-i:[A-Za-z])(?![A-Za-z])|(?-i:[A-Za-z])\s*(?:要|是)?(?:大写|小写)"
    r"|(?:首字母|第一个字母|开头(?:字母)?)(?:要|是)?(?:大写|小写))"
    r"|连着(?:写|打|输)"
)
# a word, then digits typed straight after it: "is the word plough and then 77, no space";
# any word when how it is typed is said, else named "the word" ("then 77 times": a count)
_WORD_THEN = Lazy(
    r"(?i)(?<![a-z])(?:(?P<said>the\s+word)\s+[\"'“‘]?(?P<w>[a-z]{3,20})[\"'”’]?|(?P<b>[a-z]{3,20}))"
    r"\s*,?\s+(?:and\s+then|then|followed\s+by|plus|and)\s+(?:the\s+(?:number|digits)\s+)?"
    r"(?P<d>\d{1,6})(?![\d.,:/-]?\d)"
    rf"(?:(?P<note>\s*[,;(—–-]?\s*(?:{_NOTE}))|(?=\s*(?:[.,;!?—–]|$)))"
)
# a value, then how it is typed, after a link or a pause: ", yezijidian, 全小写"
_VALUE_NOTE = Lazy(
    r"(?i)(?:[,，:：]|(?<![a-z])(?:is|was)|是|为)\s*[\"“]?"
    r"(?P<v>[A-Za-z0-9][^\s,，;；。:：\"“”()（）]{3,39}?)[\"”]?"
    rf"\s*[,，;；(（—–-]?\s*(?:{_NOTE})"
)
# a value said the same as a name, then given: 密码跟店名一样，yezijidian; "the wifi key is the
# same as the shop's name, bluefinch7"
_SAME_THEN = Lazy(
    r"(?i)(?:密码|口令)[^。！？\n]{0,12}?(?:一样|相同)|(?<![a-z])(?:pass(?:word|code)?|key|pin)"
    r"(?![a-z])[^.!?\n]{0,30}?(?<![a-z])same\s+as\s+[^.,;!?\n]{1,30}?"
)
_SAME_VALUE = Lazy(
    r"\s*[，,:：—–]\s*(?:就是|也就是|即|i\.e\.\s*)?[\"“]?"
    r"(?P<v>[A-Za-z0-9][A-Za-z0-9_.@!#$%&*-]{3,39})[\"”]?(?=\s*(?:[，,。；;！!.]|$))"
)
_NOTE_HINTS = ("case", "letters", "capital", "caps", "big ", "small ", "space", "one word", "小写",
               "大写", "空格", "连着")  # fmt: skip
_NOT_TYPED = frozenset("the and then this that with your our their same only just".split())
# a word's form, not a made-up value: "different", "longer", "required", "lowercase"
_WORD_FORM = Lazy(
    r"(?i)(?:ed|ing|able|ible|tion|sion|ment|ness|ly|ent|ant|ive|ous|ful|less|er|est|ise|ize"
    r"|case|word|words|letters?|space|spaces)$"
)


def _made_up(value: str) -> bool:
    """Digits, a made-up token, pinyin, or a long plain word not of a word's common form."""
    if any(c.isdigit() for c in value) or strong(value) or pinyin_phrase(value):
        return True
    plain = value.isalpha() and len(value) >= 7 and value.lower() not in _NOT_TYPED
    return plain and _WORD_FORM.search(value) is None


def typed_spans(text: str, low: str) -> list[tuple[int, int]]:
    """Spans of the values `text` gives with how they are typed or made (`low`: lower-cased)."""
    out: list[tuple[int, int]] = []
    for m in scan(_WORD_THEN, text, low, "then", "followed", "plus", " and "):
        word = m["w"] or m["b"]
        if (m["said"] is None and m["note"] is None) or word.lower() in _NOT_TYPED:
            continue
        if _CUE.search(text, *sentence(text, m.start())):
            out.append((m.start("w" if m["w"] else "b"), m.end("d")))
    for m in scan(_VALUE_NOTE, text, low, *_NOTE_HINTS):
        value = m["v"].rstrip(".!?")
        # one letter's case is said of a made-up value, not of a name ("Patterson, capital P")
        made_up = strong(value) or any(c.isdigit() for c in value)
        shaped = made_up if m["one"] else _made_up(value)
        if shaped and _CUE.search(text, *sentence(text, m.start())):
            out.append((m.start("v"), m.start("v") + len(value)))
    for m in scan(_SAME_THEN, text, low, "一样", "相同", "same as"):
        v = _SAME_VALUE.match(text, m.end())
        if v is None:
            continue
        value = v["v"].rstrip(".")
        if any(c.isdigit() for c in value) or strong(value) or pinyin_phrase(value):
            out.append((v.start("v"), v.start("v") + len(value)))
    return out
