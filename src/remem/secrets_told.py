"""Secrets told around their noun rather than after it (issue 29): the value said first
and named in the next sentence, a question and its answer, digits given by position, by
count, in parts (前两位47，最后一位是9; 左边两位29，右边两位06; a lock's first part alone, the
rest held back) or as another number's tail, a list of backup codes, a login given as an
e-mail (or a stock user: admin, root, or any user then "the other one") and a password (an
address as what a service is: "PayPal is x@y.com with Ailer0n-Roll-2023": `remem.secrets_logins`),
a value before its noun in one sentence (`value_first`), in Chinese and English.

    told_spans("6639. That's the alarm code, don't share it.", ...)          # 6639
    told_spans("Q: the PIN on Dad's card? A: 0739.", ...)                    # 0739
    told_spans("锁的密码，第一位 3，第二位 0，第三位 9。", ...)                # the digits
    told_spans("Backup codes: Q7T2X, 8KD4M, P3ZW9, 6HJ2N", ...)              # the list
    told_spans("I log in with mo@mail.com and Fig-Tree-31", ...)             # Fig-Tree-31
    told_spans("2024. That's the year we moved.", ...)                       # []
    value_first("otter-mango-7731 is the password, user admin", ...)         # the value

Each rule wants a value of a secret's shape and a word that names it a secret (a
password, a code, a PIN, a security question, a login) where this way of telling puts
it. Used by `remem.secrets_cues`.
"""

from __future__ import annotations

import re

from remem.secrets_access_words import ZH_DOOR
from remem.secrets_answers import PUBLIC_CODE as _PUBLIC_CODE
from remem.secrets_answers import QUESTION
from remem.secrets_logins import admin_pairs, mail_pairs, user_logins
from remem.secrets_shapes import SPOKEN, Lazy, excluded, scan, sentence, strong

__all__ = ["told_spans", "value_first"]

_ZH_ONE = "零一二三四五六七八九两"
_DIAL = r"\d{1,2}(?:\s*[,，、]\s*\d{1,2}){2,3}(?![\d,])"  # a dial's numbers: 17, 42, 9
_ZH_LIST = rf"[{_ZH_ONE}](?:\s*[、，, ]\s*[{_ZH_ONE}]){{3,}}"  # 六、二、八、八
# -- the value first, named in the next sentence: "K9-fern-77. That's the new passphrase" --
_FIRST = Lazy(
    r"(?i)(?:^|(?<=[.!?。！？\n])\s*)(?:(?:remember|note|reminder|fyi|记住|记下|记得|记一下|备忘)\s*[:：,，]\s*)?"
    r"(?:[^.!?。！？\n:：\d]{1,16}[:：]\s*){0,2}"  # lead-ins: "一个一个念：七、七、一、九、零。"
    r"(?:the\s+(?:numbers|digits)\s+(?:are|were)\s+)?"  # "The numbers are 17, 42, 9."
    rf"[\"“]?(?P<v>[*#]?\d(?:[ -]?\d){{3,11}}#?|{SPOKEN}|{_ZH_LIST}|{_DIAL}|[!-~]{{6,40}})"
    r"\s*(?:[.!。！,，]|(?:[—–]|--)\s*)"
)
_SPOKEN = Lazy(SPOKEN)
_NAMED_NEXT = Lazy(
    r"(?i)(?<![a-z])(?:that['’]?s|that\s+is|this\s+is|it['’]s|it\s+is)(?![a-z])[^.!?\n]{0,40}?"
    r"(?:(?<![a-z])(?:pass(?:word|phrase|code)|pin|pw|combo|combination"
    r"|(?:the|my|our|your|his|her|their|a|new|old)\s+(?:[a-z]+\s+){0,2}?code(?!\s+(?:base|review"
    r"|freeze|name|style|snippet|sample|change|path|block|of\s+conduct)))"
    r"(?![a-z])|what\s+(?:you|the|I|we)\b[^.!?\n]{0,40}?(?<![a-z])(?:type|enter|punch|key"
    r"|press|wants?|takes?|needs?|asks?\s+for)(?![a-z])"
    r"|what\s+(?:gets|lets)\s+(?:you|me|us|them)\s+in)"  # "that's what gets you into ..."
    r"|(?:这|那)(?:个|就)?是[^。！？\n]{0,16}?(?:密码|口令|门禁|验证码|开锁码|PIN|锁|保险柜|保险箱)"
)


def _made_up(value: str) -> bool:
    """Letters with digits ("bj-6629-tea"), or a strong token: here the next words name
    it a secret, so a name's shape is no reason to doubt it."""
    letters, digits = any(c.isalpha() for c in value), any(c.isdigit() for c in value)
    return not excluded(value) and (strong(value) or (letters and digits and len(value) >= 6))


def _named_after(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for m in scan(_FIRST, text, low, "that", "this", "it", "这", "那"):
        value = m["v"].rstrip(".!").rstrip('"”')  # '"Copperfield19" — that's what ...'
        start, end = sentence(text, m.end() + 1)
        named = _NAMED_NEXT.search(text, m.end(), max(end, m.end() + 1))
        if named is None or named.start() - m.end() > 60:
            continue
        if (kind := re.search(r"(\w+)\s+code$", named[0])) and _PUBLIC_CODE.match(kind[1] + " "):
            continue  # "94110. That's the zip code"
        digits = sum(c.isdigit() for c in value) >= 4 or re.fullmatch(_DIAL, value) is not None
        spoken = _SPOKEN.fullmatch(value) is not None or "、" in value
        if digits or spoken or _made_up(value):
            out.append((m.start("v"), m.start("v") + len(value)))
    return out


# -- a question and its answer: "Q: what's the PIN on Grandpa's card? A: 0739" ------------
_QA = Lazy(
    r"(?i)(?:^|(?<=\s))(?:Q|问)\s*[:：.]\s*(?P<q>[^\n]{3,120}?[?？])\s*(?:A|答)\s*[:：.]\s*"
    r"(?P<v>[^\s.,;。，；！!][^\n.,;。，；！!]{0,40})"
)
# A security question is kept as a prompt ("name of your first school?"); one asked of a
# person ("what's your favourite colour?", 你最喜欢...？) is conversation
_ASKING = Lazy(
    r"(?i)\s*(?:what|what['’]s|which|who|how|where|when|why|do|did|are|is|你|您|什么|哪)"
)
_QA_SECRET = Lazy(  # not a bare "code" or "key": "Q: which port does the key service use?"
    r"(?i)(?<![a-z])(?:pass(?:word|code|phrase)?|pin|combo|combination|pw|(?:door|gate|alarm|lock"
    r"|safe|access|entry|keypad|security|verification|unlock|card|locker)\s+code)(?![a-z])"
    r"|密码|口令|验证码"
)


_QA_PASS = Lazy(r"(?i)(?<![a-z])(?:pass(?:word|phrase)?|pw)(?![a-z])|密码|口令")
# one word with a digit or a sign in it, not a sentence ("on the fridge")
_MADE_UP = Lazy(r"(?=\S*[A-Za-z])(?=\S*[\d\-_!@#$%^&*+=~])[^\s?？]{6,40}")


def _qa(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for m in scan(_QA, text, low, "q", "问"):
        value = m["v"].strip()
        secret = _QA_SECRET.search(m["q"]) is not None
        # a password asked for is what answers, one made-up word ("tiger-lily-42")
        made_up = _QA_PASS.search(m["q"]) is not None and _MADE_UP.fullmatch(value) is not None
        if secret and (sum(c.isdigit() for c in value) >= 4 or strong(value.split()[0]) or made_up):
            out.append((m.start("v"), m.start("v") + len(value)))
        elif QUESTION.search(m["q"]) and not _ASKING.match(m["q"]):
            if value[:1].isupper() or not value[:1].isascii():  # a security answer
                out.append((m.start("v"), m.start("v") + len(value)))
    return out


# -- digits by position or by count: "第一位 3，第二位 0", "three digits: four, oh, nine" --
_NTH = (
    r"(?i:(?<![a-z])(?:first|second|third|fourth|fifth|sixth|last)(?:\s+(?:digit|number|one))?"
    r"(?:\s+(?:is|was))?\s*[:：]?\s*(?:\d|zero|oh|one|two|three|four|five|six|seven|eight|nine)"
    rf"(?![\da-z])|第[一二三四五六1-6]位(?:数字?)?\s*(?:是|为|[:：])?\s*[\d{_ZH_ONE}](?!\d))"
)
_BY_POSITION = Lazy(rf"{_NTH}(?:\s*(?:[,，、;；]|and|then|然后)?\s*{_NTH}){{2,}}")
_POSITION_CUE = Lazy(
    r"(?i)(?<![a-z])(?:pass(?:word|code)?|pin|code|combo|combination|lock|padlock|safe|keypad"
    r"|alarm|gate|door)(?![a-z])|密码|口令|锁|保险|门禁|验证码"
)
_COUNT_WORDS = {"three": 3, "four": 4, "five": 5, "six": 6, "三": 3, "四": 4, "五": 5, "六": 6}
_COUNTED = Lazy(
    r"(?i)(?P<n>[3-6]|three|four|five|six|[三四五六])\s*(?:个数字?|位(?:数字?)?|(?:digits?|numbers?))"
    r"\s*(?:[:：,，—–-]\s*|\s(?:is|are)\s+)"
    rf"(?P<v>[\d{_ZH_ONE}](?:\s*[、，,\s-]?\s*[\d{_ZH_ONE}])+"
    r"|(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)(?:\s*[,-]?\s*(?:zero|oh|one|two"
    r"|three|four|five|six|seven|eight|nine)(?![a-z]))+)"
)


# Digits in parts by where they stand: 前两位47，最后一位是9; "first two are 35, last two 80"
_ZH_N = "一二两三四五六"
# a part's digits named one by one: 3和9, 五、二, "6 and 1" (counted as digits, not characters)
_ONE_BY_ONE = rf"[\d{_ZH_ONE}](?:\s*(?:和|与|跟|、|(?i:and)|&)\s*[\d{_ZH_ONE}](?![\d{_ZH_ONE}]))+"
_SAID_DIGIT = Lazy(rf"[\d{_ZH_ONE}]")
_PART = (
    rf"(?:(?:前|头|最?后|末|尾|中间|[左右](?:边|侧|面)?)(?P<n>[{_ZH_N}1-6])位(?:数字?)?\s*(?:是|为|[:：])?"
    r"(?:(?<=是)[^\d，,。；;\n]{1,10}?(?=\s*\d))?"  # 后两位是我生日的日子 12: what it is, then it
    r"|(?i:(?<![a-z])(?:first|last|final|middle|left|right)\s+(?P<e>one|two|three|four|digit)"
    r"(?:\s+(?:digits?|numbers?))?"
    rf"(?:\s+(?:is|are|was|were))?\s*[:：]?))\s*(?P<d>{_ONE_BY_ONE}|\d{{1,6}}(?!\d)|[{_ZH_ONE}]{{1,6}})"
)
_PART_ONE = Lazy(_PART)
_NEXT_PART = _PART.replace("?P<", "?P<x")  # the same, its groups renamed
_PARTS = Lazy(
    rf"{_PART}(?:(?:\s*(?:[,，、;；]|and|then|然后|再)\s*|\s+)(?:then\s+|the\s+)?{_NEXT_PART})+"
)  # 前两位五九，后两位零三; 前三位317 后三位940
_HOW_MANY = {"digit": 1, "one": 1, "two": 2, "three": 3, "four": 4, "six": 6, "两": 2}
_HOW_MANY |= {c: i for i, c in enumerate("一二三四五六", 1)} | {str(i): i for i in range(1, 7)}
# A code said as the last digits of another number: 就是科室电话后四位 6217; "the key box is
# the last four of the office phone, 6217"
_TAIL_OF = Lazy(
    r"(?:就是|是|用的?|设的?)[^。，,；;\n\d]{0,12}?(?:后|末|尾)(?P<n>[四六46])位(?:数字?)?\s*"
    r"(?:是|为|[:：，,])?\s*(?P<v>\d{4,6})(?!\d)"
    r"|(?i:(?<![a-z])(?:is|it['’]s|uses?)\s+(?:the\s+)?(?:last|final)\s+(?P<e>four|six)(?:\s+digits)?"
    r"\s+of\s+[^.;\n\d]{1,40}?[,:—–-]?\s+(?:so\s+|i\.e\.\s+|which\s+is\s+)?(?P<w>\d{4,6})(?!\d))"
)
# what is said to be another number's tail when it is a number of its own: "the extension is
# the last four of the main line", "the order ref is the last six of ..."
_OWN_NUMBER = Lazy(
    r"(?i)(?<![a-z])(?:number|no|extension|ext|line|phone|mobile|fax|account|ref(?:erence)?|id"
    r"|order|ticket|invoice|card|serial|tracking|policy|member(?:ship)?)(?![a-z])[^a-z]*$"
)
_TAIL_CUE = Lazy(
    r"(?i)(?<![a-z])(?:pass(?:word|code)?|pin|code|combo|combination|(?:pad)?lock(?:er)?|keypad|key\s?box"
    r"|lock\s?box|key\s?safe|safe|alarm|gate|door)(?![a-z])|密码|口令|锁|保险|门禁|柜(?!台|员)|箱|盒"
    r"|(?<!烟雾)(?<!烟感)(?<!火灾)(?<!消防)(?:报警器|警报器|报警主机)"  # a burglar alarm's
)


# A lock's code said with its length first, all of it: 柜子四位数 九三零七, 三位密码锁 六二九
_WHOLE_COUNT = Lazy(
    rf"(?<![{_ZH_ONE}十\d])(?P<n>[三四五六3-6])位(?:数字?|的?密码锁?|码)?\s*(?:是|为|[:：])?\s*"
    rf"(?P<d>\d{{3,6}}|[{_ZH_ONE}〇]{{3,6}})(?![\d{_ZH_ONE}〇位个])"
)


# The first part of a door's or a lock's code said alone, the rest held back or said far later:
# 仓库门前两位47，后两位让他发你……算了，13 (each part as long as it says; a door named, not
# a 门牌 or a phone's first digits)
_FIRST_PART = Lazy(
    rf"(?:(?:前|头|左(?:边|侧|面)?)(?P<n>[{_ZH_N}1-4])位(?:数字?)?\s*(?:是|为|[:：])?\s*"
    # "the first two digits of the warehouse door are 47, the rest later"
    r"|(?i:(?<![a-z])(?:first|left)\s+(?P<w>two|three|four)(?:\s+(?:digits?|numbers?))?"
    r"(?:\s+of\s+[^,.;:\d\n]{1,30}?)?(?:\s+(?:is|are|was|were)\s+|\s*[:：]\s*|\s+)))"
    r"(?P<d>\d{1,4})(?![\d.,:/-]?\d|\s*(?:[A-Za-z%]|[号层楼个元块米]))"  # not 12mm, 12号
    r"(?:[^。！？\n]{0,30}?(?:后|右(?:边|侧|面)?)(?P<m>[一二两三四1-4])位"
    r"[^。！？\n\d]{0,30}?(?P<e>\d{1,4})(?!\d))?"
)
_PART_DOOR = Lazy(ZH_DOOR + r"(?![店诊票户面牌号口])")


# The head and the tail, apart: "the key box starts with 41, I'll text the rest: it ends 09"
_HEAD_TAIL = Lazy(
    r"(?i)(?<![a-z])(?:starts|begins)\s+with\s+(?P<a>\d{2,3})(?![\d,.]\d)[^.!?\n]{0,60}?"
    r"(?<![a-z])ends\s+(?:with\s+|in\s+|on\s+)?(?P<b>\d{2,3})(?!\d|[.,]\d)"
)


def _in_parts(text: str, low: str) -> list[tuple[int, int]]:
    """Digits told in parts by position, each part as long as it says, or as the tail of
    another number, in a sentence about a code or a lock."""
    out = []
    for m in scan(_PARTS, text, low, "位", "first", "last", "final", "middle", "left", "right"):
        parts = list(_PART_ONE.finditer(text, m.start(), m.end()))
        sizes = [_HOW_MANY[(p["n"] or p["e"]).lower()] for p in parts]
        counts = [len(_SAID_DIGIT.compiled.findall(p["d"])) for p in parts]  # "3和9": two
        if counts == sizes:
            if _TAIL_CUE.search(text, *sentence(text, m.start())):
                out.append((parts[0].start("d"), parts[-1].end("d")))
    for m in scan(_FIRST_PART, text, low, "前", "头", "左", "first", "left"):
        start, end = sentence(text, m.start())
        said = any(a <= m.start("d") < b for a, b in out)  # both parts said together: above
        lock = _TAIL_CUE.search(text, start, m.end()) or _PART_DOOR.search(text, start, m.start())
        if said or not lock or len(m["d"]) != _HOW_MANY[(m["n"] or m["w"]).lower()]:
            continue
        out.append(m.span("d"))
        if m["e"] is not None and len(m["e"]) == _HOW_MANY[m["m"]]:
            out.append(m.span("e"))
    for m in scan(_HEAD_TAIL, text, low, "starts", "begins"):
        if _TAIL_CUE.search(text, *sentence(text, m.start())):
            out.append((m.start("a"), m.end("b")))
    for m in scan(_TAIL_OF, text, low, "位", "last", "final"):
        v, n = ("v", m["n"]) if m["v"] is not None else ("w", m["e"])
        start, _ = sentence(text, m.start())
        # "the shutter is the last four of the old landline, 6620": a thing said to be
        # another number's tail is opened by it, unless it is a number of its own
        thing = v == "w" and not _OWN_NUMBER.search(text, max(start, m.start() - 24), m.start())
        cue = _TAIL_CUE.search(text, start, m.start()) or thing
        if len(m[v]) == _HOW_MANY[n.lower()] and cue:
            out.append(m.span(v))
    for m in scan(_WHOLE_COUNT, text, low, "位"):
        start, _ = sentence(text, m.start())
        if len(m["d"]) == _HOW_MANY[m["n"]] and _TAIL_CUE.search(text, start, m.start("d")):
            out.append(m.span("d"))
    return out


def _by_digit(text: str, low: str) -> list[tuple[int, int]]:
    out = _in_parts(text, low)
    for m in scan(_BY_POSITION, text, low, "first", "second", "第"):
        start, end = sentence(text, m.start())
        if _POSITION_CUE.search(text, start, end):
            out.append(m.span())
    for m in scan(_COUNTED, text, low, "digit", "number", "个数", "位"):
        items = re.findall(rf"[\d{_ZH_ONE}]|[a-z]+", m["v"].lower())
        start, end = sentence(text, m.start())
        n = int(m["n"]) if m["n"].isdigit() else _COUNT_WORDS[m["n"].lower()]
        if len(items) == n and _POSITION_CUE.search(text, start, end):
            out.append(m.span("v"))  # 密码三个数：四、零、九 (a count, then that many)
    return out


# -- a list of backup codes: "Steam backup codes R7K2P, M9XQ4, T3VW8" --------------------
_LIST_CUE = Lazy(
    r"(?i)(?<![a-z])(?:2fa|two[- ]factor|2-step|two[- ]step|mfa|otp|authenticator|steam\s+guard"
    r"|(?:backup|recovery|scratch|verification|one[- ]time|login|security)\s+codes?)(?![a-z])"
    r"|验证码|备用码|恢复码|备份码|两步验证|二次验证|二步验证|双重验证"
)
_ONE_CODE = r"(?=[A-Za-z0-9-]*\d)[A-Za-z0-9]{4,10}(?:-[A-Za-z0-9]{3,10})?"
_CODES = Lazy(
    rf"(?<![\w-])(?:{_ONE_CODE})(?:(?:\s*[,，、;；]\s*|\s+)(?:and\s+)?(?:{_ONE_CODE})){{2,}}(?![\w-])"
)


def _code_list(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for cue in _LIST_CUE.finditer(text) if re.search(r"\d", text) else ():
        start, end = sentence(text, cue.start())
        for m in _CODES.finditer(text, cue.end(), end):
            codes = re.findall(r"[A-Za-z0-9-]+", m[0].replace(" and ", " "))
            if all(len(c) >= 5 for c in codes) and len(set(codes)) == len(codes):
                out.append(m.span())
                break
    return out


# An old password is a secret still: "change the password from Ch33se!Board to ...",
# 把密码从 Spring2024! 换掉
_FROM = Lazy(
    r"(?i)(?<![a-z])(?:pass(?:word|phrase)|pw|pwd)\s+from\s+(?P<v>[^\s,;]{6,40})\s+to(?![a-z])"
    r"|密码从\s*(?P<z>[!-~]{4,40})\s*(?:换|改|变)"
)
# A SIM's PUK is eight digits: the word and that shape in one sentence are enough
_PUK = Lazy(r"(?i)(?<![a-z])puk2?(?![a-z])[^.。\n]{0,60}?(?<![\d-])(?P<v>\d{8})(?![\d-])")


def told_spans(text: str, low: str) -> list[tuple[int, int]]:
    """Spans of the values these rules find in `text` (`low`: it lower-cased)."""
    out = _named_after(text, low) + _qa(text, low) + _by_digit(text, low)
    out += [m.span("v") for m in scan(_PUK, text, low, "puk")]
    for m in scan(_FROM, text, low, " from ", "密码从"):
        group = "v" if m["v"] is not None else "z"
        if strong(m[group]):
            out.append(m.span(group))
    out += user_logins(text, low)
    return out + _code_list(text, low) + mail_pairs(text, low) + admin_pairs(text, low)


# The value first: "bluebird88 is my email password", "Abc12345 是我的邮箱密码"
_REVERSED = Lazy(
    r"(?i)(?<![\w@./-])(?P<v>[^\s,;:]{4,40})\s+(?:is|was)\s+(?:my|the|our|his|her|their)\s+"
    r"(?:[\w'’-]+\s+){0,3}?(?P<k>password|passcode|passphrase|pin|pin\s+code|code)"
    r"(?:\s+(?:for|on|to)\s+[^.;,!?\n]{1,30}?)?\s*(?:[.!;,]|$)"
    r"|(?<![!-~])(?P<z>[!-~]{4,40})\s*(?:就)?是(?:我|他|她|我们|公司)?的?"
    r"[\u4e00-\u9fffA-Za-z ]{0,8}?(?:密码|口令|PIN码?)(?:[。，,！!]|$)"
)
# The noun asked, the value answered: "My password? It's sunflower22", "card's PIN? 3390"
_ASKED = Lazy(
    r"(?i)(?<![a-z])(?:password|passcode|passphrase|pin|code|combo)\s*[?？]\s*"
    r"(?:(?:it['’]s|it\s+is|that['’]s)\s+)?(?P<v>[^\s,;]+)"
)


def value_first(text: str, low: str) -> list[tuple[int, int]]:
    """A value said before its noun, or after the noun asked as a question."""
    out = []
    for m in scan(_REVERSED, text, low, "pass", "pin", "code", "密码", "口令"):
        group = "v" if m["v"] is not None else "z"
        v, pin = m[group], (m["k"] or "").lower() not in ("password", "passphrase", "")
        mixed = re.search(r"\d", v) and re.search(r"[A-Za-z]", v) and not excluded(v)
        made_up = len(v) >= 6 and (strong(v) or mixed)  # "creeper-toast-1123 is the password"
        if (pin and re.fullmatch(r"\d{4,10}", v)) or (not pin and made_up):
            out.append(m.span(group))
    for m in scan(_ASKED, text, low, "?", "？"):
        v = m["v"].rstrip(".!?)。")
        if (v.isdigit() and len(v) >= 4) or (strong(v) and len(v) >= 6):
            out.append((m.start("v"), m.start("v") + len(v)))
    return out
