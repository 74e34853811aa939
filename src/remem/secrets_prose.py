"""Secrets stated in prose (issue 29), in Chinese and English: a password, 口令, PIN, code,
card, account or ID number named or implied, with its value said the way people say it.

    find_prose("The shared admin password is purplemonkey")   # [("password", (29, 41))]
    find_prose("数据库密码分两段记：前半段 Qz81，后半段 kLm7")   # both halves
    find_prose("The password policy requires 12 characters")  # []

A secret noun ("password", "door code", "卡号") ties to a value by a link ("is", "was
changed to", ":", "设成", "是") or stands right before one that looks made up. After the
link the first word is the value unless it reads as talk about the secret ("is stored
in Vault", "is at least 12 characters", "用 bcrypt 哈希"); later words of the same sentence
that look made up are parts of a split value ("first half Qz81, second half kLm7").
Numbers named as cards, accounts or IDs need no checksum; `remem.secrets` checks the
unnamed ones (Luhn, the ID check character, IBAN's mod 97).
"""

from __future__ import annotations

import re

from remem.secrets_described import said_again
from remem.secrets_nouns import CAPS_HINTS as _CAPS_HINTS
from remem.secrets_nouns import HINTS as _HINTS
from remem.secrets_nouns import KEY as _KEY
from remem.secrets_nouns import KINDS as _KINDS
from remem.secrets_nouns import LOCK_CODE, caps_code, keyed_code
from remem.secrets_nouns import in_context as _in_context
from remem.secrets_numbers import iban_valid, ibans, lettered_id, luhn
from remem.secrets_shapes import PLACEHOLDER, SPOKEN, ZH_DIGITS, Lazy, counted, spelled_end
from remem.secrets_shapes import excluded as _excluded
from remem.secrets_shapes import no_number as _no_number
from remem.secrets_shapes import strong as _strong

__all__ = ["PLACEHOLDER", "find_prose", "iban_valid", "luhn", "talks_about"]

# What ties a noun to its value.
_LINK_VERBS = (
    r"(?:is|was|are|were|'s)(?:\s+(?:now|still|currently|always|just|simply|actually|also"
    r"|literally|basically|really"
    # "changed from 4410 to 9921": the old value, then the new one (both secrets)
    r"|the\s+default:?|set\s+to|(?:chang(?:ed|ing)|updated|reset|switched)\s+(?:to|from)"
    r"|spelled(?:\s+out)?(?:\s+as)?))*"
    r"|has\s+been\s+(?:changed|set|reset|updated|switched)\s+(?:to|from)|(?:got\s+|will\s+)?(?:chang"
    r"(?:ed|es|e)|set|reset|updated|switch(?:ed|es)?|rotated)\s+(?:to|from)|went\s+from|becomes?|reads"
    r"|equals|starts\s+with|begins\s+with"
    r"|ends\s+with|changed(?:(?:\s+(?!(?:is|was)\b)[\w'’]+){1,3}?\s*[,;—–]|\s+(?:again|recently|today"
    r"|yesterday))?\s*[,;—–-]?\s*(?:it['’]s|it\s+is"
    r"|now)(?:\s+now)?"
    # 是 in pinyin, not before a question word: "mima shi X", not "mima shi shenme"
    r"|shi(?![a-z])(?!\s+(?:shenme|sha|duoshao|nage|na\s?ge)(?![a-z]))"
)
_NOT_LINK = r"(?!(?:is|was|are|were)\b)"
_EN_LINK = Lazy(  # "paste this token back in: X": where it goes, then the value
    r"(?i)(?:\s+itself|\s+(?:back\s+)?in(?=\s*[:：]))?(?:,?\s+spelled(?:\s+out)?(?=\s*[:：]))?"
    r"(?:\s+(?:that\s+)?(?:I|we|you|he|she|they)(?:\s+" + _NOT_LINK + r"[a-z']+){1,2})?"
    r"(?:\s+(?:sent|texted|emailed|given|issued))?"  # "reset code sent to the phone: 4 9 2 7"
    r"(?:\s+(?:for|of|on|to|at|in|with|from)\s+(?:(?:the|my|our|your|his|her|their|a|an)\s+)?"
    rf"{_NOT_LINK}[\w'’.@-]+(?:\s+{_NOT_LINK}(?:of|on|for|the|my|our|[£$€]?[\w'’.@-]+)){{0,5}})?"
    r"(?:\s*[(（][^()（）\n]{1,40}[)）]|,\s[^,;:.!?()\n\d]{2,30}?,)?"  # an aside: ", ok, is"
    rf"\s*(?:[:=：–—]|\s-\s|\s(?:{_LINK_VERBS})(?![A-Za-z])\s*[:=：]?)\s*"  # not "reset tomorrow"
)
_PART_ZH = (  # 前半段 Qz81，后四位 9876: a part of a split value
    r"[前后上下]半(?:段|截|部分)?|[前后末头尾][一二三四五六七八九两\d]位|第[一二三\d][段部]|开头|结尾"
)
_ZH_LINK = Lazy(
    r"(?:\s*[(（][^()（）\n]{1,20}[)）])?"  # 助记词（中文版）：..., an aside
    r"\s*(?P<fill>[\u4e00-\u9fffA-Za-z ]{0,8}?)(?:是|为|為|成|叫|用|：|:|=|" + _PART_ZH + r")了?\s*"
    r"(?:(?<=[是为成])[：:]\s*)?"  # 验证码是：四 七 二 八
    # a word before the value (前半段 / 三个单词：), unless it is the value: 六 四 九 二
    rf"(?P<word>(?![{ZH_DIGITS}](?:\s*[{ZH_DIGITS}]){{3}})[\u4e00-\u9fff]{{1,6}}[：:\s]*)?"
)
_META_ZH = Lazy(
    r"策略|规则|长度|复杂|要求|过期|有效期|哈希|加密|算法|字段|重置|找回|输错|错误|强度|格式|位数|规范"
    r"|提示|管理器|学|功能|存在|存放|放在|保存|托管|轮换|检查|校验|生成|加盐|框|页面|链接|必须|至少|不少于"
    r"|容量|大小|数量|个数|上限|下限|阈值|时间|期限|次数|文件|路径|目录|位置|地址|类型|名称|名字|接口|有效|失效"
    r"|规定|[天月周年]一换|^在"  # 密码按规定90天一换: a policy; 密码在贴纸上: where it is
)
_AFTER_ZH = Lazy(
    r"\s*(?:哈希|加密|加盐|算法|存储|存库|保存|管理|生成|校验|里|中|上|位|个|字符|秒|分钟|小时|天|次)"
)
_SENT_END = Lazy(r"[。！？\n]|[!?.;](?=\s|$)")
_TOKEN = Lazy(r"[^\s\"'“”‘’，。；、（）()\[\]<>{}]+")
_QUOTED = Lazy(r"[\"'“‘]([^\"'”’\n]{3,60})[\"'”’]")
_SPELLED = Lazy(
    r"(?:[A-Za-z0-9](?:\s*[-,]\s*|\s+)){3,}[A-Za-z0-9](?![A-Za-z0-9])"
    r"|(?i:(?:(?:capital|upper(?:case)?|lower(?:case)?|small)\s+[a-z]|zero|oh|one|two|three"
    r"|four|five|six|seven|eight|nine|[a-z0-9])(?:\s*,\s*|\s+|\s*-\s*)){3,}"
    r"(?i:(?:capital|upper(?:case)?|lower(?:case)?|small)\s+[a-z]|zero|one|two|three|four"
    r"|five|six|seven|eight|nine|[a-z0-9])(?![A-Za-z0-9])"
    r"|(?:(?:大写的?|小写的?|数字)?\s*[A-Za-z0-9零一二三四五六七八九幺两]"
    r"(?:\s*[，,、]\s*|\s+|(?=大写|小写|数字))){3,}[A-Za-z0-9零一二三四五六七八九幺两](?![A-Za-z0-9])"
)
_MIXED_ZH = Lazy(
    r"(?=.*[\u4e00-\u9fff])(?=(?:.*[A-Za-z0-9]){3})(?=.*\d)[\u4e00-\u9fffA-Za-z0-9!@#$%&*_-]{5,}"
)
_ZH_WORDS = Lazy(r"[\u4e00-\u9fff]{1,4}(?:\s+[\u4e00-\u9fff]{1,4}){5,}")  # 助记词：苹果 河流 ...
_ZH_DIGITS = Lazy(rf"[{ZH_DIGITS}]{{4,}}")
_SPOKEN = Lazy(SPOKEN)
_SHORT_CODE = Lazy(  # 提取码是 x7k2: letters and digits, one short token
    r"(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{4,10}(?![\w.-])"
)
_LETTERED = Lazy(r"[A-Za-z]{1,3}-?\d{3,8}(?![\w.-])")
_NAME_THEN_CODE = Lazy(r"[\u4e00-\u9fff]{1,4}(?=[A-Za-z0-9]*\d)[A-Za-z0-9!@#$%&*_-]{4,}")
_ADVERBS = Lazy(r"(?i)(?:(?:now|still|currently|just|simply|it['’]s|it\s+is)\s+)*")
_TALK_COLON = Lazy(r"[^:：.!?\n]{1,30}?[:：]\s*")
# "backup codes, in case I lose my phone: 4831", or with no comma: "codes if I lose my phone: 4831"
_ASIDE = Lazy(r"(?:,|\s+(?=(?i:if|in\s+case|should|when)\s))[^:：\n]{1,40}?[:：]\s*")
_DIGITS = Lazy(r"[*#]{0,2}\d(?:[ #*-]?\d){2,11}#?(?![\d])")  # *#0518#: a service menu's code
_CODE_VALUE = Lazy(
    r"(?=[A-Za-z0-9-]*\d)(?=[A-Za-z0-9-]*[A-Za-z])[A-Za-z0-9]{3,6}(?:-[A-Za-z0-9]{3,6}){1,5}"
    r"|(?=(?:[A-Za-z-]*\d){5})[A-Za-z]{1,2}\d{0,3}(?:-\d{2,4}){2,3}(?![\w-])"  # B7-440-19
)
_CARD_VALUE = Lazy(r"(?<![\d])\d(?:[ -]?\d){11,18}(?![\d])")
_ACCT_VALUE = Lazy(
    r"(?<![\dA-Za-z])(?:[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?"
    r"|\d(?:[ -]?\d){7,33})(?![\dA-Za-z])"
)
# capitals first: a UK licence's surname (MORGA753116SM9IJ), an NI number's pair (AB 12 34 56 C)
_ID_VALUE = Lazy(r"(?<![\dA-Za-z])(?:[A-Z]{0,5}|[A-Z]{2} )\d(?:[ -]?[\dA-Z]){5,22}(?![\dA-Za-z])")
# a password of words and then digits, right after its noun ("pw pawsome_walks_22"): the shape
# of a name in code (an identifier), but a person's password by a password's noun
_WORDS_THEN_DIGITS = Lazy(r"[a-z]{3,}(?:[_.-][a-z]{2,})*[_.-]?\d{2,4}")
_THING_WORDS = frozenset(
    "link field page form policy hint file name user email manager token key id config env var"
    " value length rule box prompt screen setting settings history attempt attempts reset change"
    " expiry hash".split()
)
_SUBJECT = Lazy(r"\s+(?:is|was|are|were|has|had|will|gets?|got|needs?)(?![a-z])")


def _worded(token: str, after: str) -> bool:
    """Words then digits after a password's noun, as a value ("tea_and_toast_19 if you need
    it"), not a thing about the password ("reset_link_24 was sent")."""
    if len(token) < 8 or not _WORDS_THEN_DIGITS.fullmatch(token) or _SUBJECT.match(after):
        return False
    words = re.findall(r"[a-z]+", token)
    return not _THING_WORDS.intersection(words)


_FOURS = Lazy(r"\d{4}(?:[ -]\d{4}){3}")


# Words after "password is" that talk about the password, not give it.
_STOP = frozenset(
    "a an the in on at to into inside from under behind via by with using through not too very"
    " still now also just only same different stored kept saved managed handled shared required"
    " needed optional mandatory expired changed reset rotated set unset empty blank missing wrong"
    " incorrect correct invalid valid weak strong long short secure insecure safe encrypted"
    " hashed salted visible hidden masked case sensitive written printed taped attached listed"
    " documented known unknown given sent emailed texted available unavailable generated random"
    " unique complex simple easy hard what which something nothing anything whatever there here"
    " somewhere elsewhere"
    " below above shown displayed defined configured tied linked synced used reused being going"
    " about usually always never often currently probably based derived one two three four five"
    " six seven eight nine ten at least more less than longer shorter same as split this that"
    " these those it its my your our their his her due enforced disabled enabled off none null"
    " supposed meant going part for of and or but if when so such like unchanged read kept"
    " made built held taken done known stolen leaked lost found broken forgotten chosen put"
    " left told paid got gotten really actually typically normally generally basically easily"
    " rarely mostly mainly likely unlikely daily weekly monthly yearly regularly quarterly"
    " automatically manually periodically only usually eleven twelve sixteen eighteen twenty"
    " dozen few several many words".split()
)
_STOP_PREV = frozenset(
    "in into inside from under behind via by with using through to at on commit build version"
    " release tag issue pr port ticket order invoice room ref reference".split()
)
_PART_EN = frozenset("one two 1 2 3 half part first second last rest".split())
_MORE_STOP = _STOP_PREV - {"with", "by", "to", "one"}  # "ends with kLm7" goes on
_UNITS = Lazy(
    r"(?i)\s*(?:characters?|chars?|digits?|letters?|days?|hours?|minutes?|mins?|seconds?|secs?"
    r"|times?|attempts?|tries|weeks?|months?|years?|mb|gb|kb|位|个|次|天|秒|分钟|小时|字符|周|月|年"
    r"|(?:mm|cm|km|kg|lbs?|metres?|meters?|feet|ft|inch(?:es)?)(?![a-z]))"
)


def _luhn_ok(text: str) -> bool:
    return luhn(re.sub(r"[^0-9]", "", text))


def talks_about(said: str, after: str) -> bool:
    """`said` ("密码长度是 12", "令牌的有效期是 3600") names a property of a secret, or
    `after` ("秒", " characters") gives the value's unit: no secret value is stated."""
    value = _TOKEN.match(said.split()[-1]) if said.split() else None
    path = value is not None and "/" in value[0]
    return bool(_META_ZH.search(said) or _UNITS.match(after) or _AFTER_ZH.match(after) or path)


def _clean(token: str) -> str:
    # a "!" or "?" stays: "Hunter2024!" ends in one as often as a sentence does
    return token.rstrip(".,;:)，。：；！？")


def _plain(token: str, after: str) -> bool:
    """A word right after a link that gives the value ("is purplemonkey"), not one that
    talks about it ("is stored", "is 12 characters")."""
    token = token.rstrip("!?") or token
    low = token.lower()
    if _excluded(token) or low in _STOP or not token.isascii():
        return False
    if token.isdigit():
        return len(token) >= 4 and not _UNITS.match(after)
    if re.fullmatch(r"[A-Za-z]+(?:-[A-Za-z]+)+", token):  # "Vault-managed", "case-sensitive"
        return not any(_talk_word(w) for w in low.split("-"))
    if token.isalpha() and token.isascii():
        if re.match(r"\s+(?:from|by|via|through|into|under)\b", after):
            return False  # "are read from the environment"
        return len(token) >= 4 and not _talk_word(low)
    return True


def _talk_word(word: str) -> bool:
    """A word that talks about a secret ("stored", "rotating", "readable"), not one."""
    return word in _STOP or re.search(r"(?:ed|ing|able|ible)$", word) is not None


def _sentence_end(text: str, start: int, limit: int = 120) -> int:
    found = _SENT_END.search(text, start, min(len(text), start + limit))
    if found is None:
        return min(len(text), start + limit)
    return found.end() if found[0] in "!?" else found.start()  # "is Hunter2024!" keeps its "!"


def _tokens(text: str, start: int, end: int) -> list[tuple[str, int, int]]:
    out = []
    for m in _TOKEN.finditer(text, start, end):
        token = _clean(m[0])
        if token:
            out.append((token, m.start(), m.start() + len(token)))
    return out


def _after_link(text: str, pos: int, end: int, cls: str, zh: bool) -> list[tuple[int, int]]:
    """The value (and its later parts) from `pos`, just after a link."""
    pos = _ADVERBS.match(text, pos, end).end()  # type: ignore[union-attr]  # "— now 7419"
    if (q := _QUOTED.match(text, pos, end)) is not None:
        return [q.span(1)]
    if (spelled := spelled_end(text[:end], pos)) is not None:
        return [(pos, spelled)]  # "p as in papa, 4, capital M, 9, exclamation mark"
    if cls in ("pass", "code") and (sp := _SPELLED.match(text, pos, end)) is not None:
        if sum(c.isalnum() for c in sp[0]) >= 4:
            return [(sp.start(), sp.end())]
    tokens = _tokens(text, pos, end)
    if cls == "code":  # digits, said ones too: 四七二八一六, "four eight two nine"
        m = _DIGITS.match(text, pos, end) or _CODE_VALUE.match(text, pos, end)
        m = m or _SPOKEN.match(text, pos, end)
        m = m or (_SHORT_CODE.match(text, pos, end) if zh else keyed_code(text, pos, end))
        m = m or (_LETTERED.match(text, pos, end) if zh else None)  # 取件码：A-0423
        if m is not None and not _UNITS.match(text, m.end()):
            return [m.span(), *_more(text, m.end(), end)]
        again = said_again(text, pos, end, _sentence_end)
        return [again] if again and not _UNITS.match(text, again[1]) else []
    if cls != "code" and (split := _split_digits(text, pos, end)) is not None:
        return [split]
    found: list[tuple[int, int]] = []
    weak = cls == "weak"  # a token or key: its value looks made up, a word is talk
    for i, (token, a, b) in enumerate(tokens[:10]):
        prev = tokens[i - 1][0].lower() if i else ""
        if prev in _STOP_PREV or token.lower() in _STOP_PREV - {"one"}:
            break  # "is in 1Password", "is stored under secret/ci": where, not what
        if zh and not token.isascii():
            if i == 0 and _MIXED_ZH.fullmatch(token) and not _META_ZH.search(token):
                found.append((a, b))  # 月亮代表我的心1999: words with digits
                break
            if i and _NAME_THEN_CODE.fullmatch(token) and not found:
                found.append((a, b))  # 是狗的名字加年份，豆豆2019: described, then given
                break
            continue
        if (length_said := counted(text, a, end)) is not None:
            found.append(length_said)  # "8 位数字 20180612": a length, then a value that long
            break
        if zh and _AFTER_ZH.match(text, b):
            break  # "用 bcrypt 哈希", "至少 12 位"
        first = ((not found and i == 0) or zh) and not weak
        shortest = 3 if prev in _PART_EN else 4 + weak  # "part one Zx7"
        if (first and _plain(token, text[b:])) or (_strong(token) and len(token) >= shortest):
            found.append((a, b))
            break
        if not zh and text[b : b + 1] in (",", ";"):
            break  # "token: str, api_key=...": a list of names, not a value said
    if not found and not weak and (q := _QUOTED.search(text, pos, end)) is not None:
        said = text[pos : q.start()].lower()
        if not set(said.split()) & _STOP_PREV or re.search(r"part|half|halves|piece", said):
            found.append(q.span(1))  # 'is the word "falcon" followed by 88'
    if not found and zh and (n := _ZH_DIGITS.match(text, pos, end)) is not None:
        found.append(n.span())  # 密码是一二三四五六
    if found:
        found += _more(text, found[-1][1], end)
    return found


def _more(text: str, pos: int, end: int) -> list[tuple[int, int]]:
    """Later parts of a split value in the same sentence ("后半段 kLm7", "and 51827364")."""
    out = []
    for token, a, b in _tokens(text, pos, end):
        if token.lower() in _MORE_STOP:
            break  # "... in the vault": where it is, not another part
        if not token.isascii() and not re.search(_PART_ZH + r"|半|段|部分|再|和|跟|及", token):
            break  # "，电话 138…": another thing of its own, not a part
        if _strong(token) or (token.isdigit() and len(token) >= 4 and not _UNITS.match(text, b)):
            out.append((a, b))
    return out


_NOT_PHRASE = _STOP_PREV | {"the", "a", "an", "stored", "kept", "written", "saved", "not"}
_GLUE = _STOP_PREV | {"for", "of", "every", "each", "per", "when", "if", "before", "after"}


def _phrase(text: str, pos: int, end: int) -> list[tuple[int, int]]:
    """A passphrase of plain words ("is correct horse battery staple"), not a place."""
    words = _tokens(text, pos, end)
    first = words[0][0].lower() if words else ""
    if len(words) < 4 or first in _NOT_PHRASE or re.search(r"(?:ed|ing|able|ible)$", first):
        return []  # "is required for every deploy", "is written on paper"
    if sum(w.lower() in _STOP for w, _, _ in words) > 1:
        return []  # "is long and memorable", "is four random words"
    alpha = sum(w.isascii() and w.isalpha() and w.lower() not in _GLUE for w, _, _ in words)
    if alpha >= len(words) - 1 and alpha >= 3 and all(w.isalnum() for w, _, _ in words):
        return [(words[0][1], words[-1][2])]  # "tangerine submarine 44 waltz"
    return []


def _zh_meta(text: str, z: re.Match[str]) -> bool:
    """Words about a password (密码的有效时间是...), not what its digits are: 密码是开演时间1930."""
    said = z[0]
    if z["word"] and text[z.end() : z.end() + 4].isdigit():
        said = text[z.start() : z.start("word")]
    return _META_ZH.search(said) is not None


def _split_digits(text: str, pos: int, end: int) -> tuple[int, int] | None:
    """Six digits or more said in groups ("主持人密钥 608 412", "key is 4471 2209"): a
    password's or a key's value, not a size ("2048 位")."""
    m = _DIGITS.match(text, pos, end)
    if m is None or " " not in m[0] or sum(c.isdigit() for c in m[0]) < 6:
        return None
    return None if _UNITS.match(text, m.end()) or _AFTER_ZH.match(text, m.end()) else m.span()


_CLAUSE_END = Lazy(r"\s*(?:[.,;!]|\s[-–—]\s|$)")
_PIN = Lazy(r"(?i)(?<![a-z])(?:pinn?|pass\s?code)(?:[ -]?(?:code|number))?$")
# what a PIN is for, in words, then the PIN ending the clause: "PIN for the van 3395" (not
# "code for order 4410": a thing named by its number)
_FOR_GAP = Lazy(
    r"(?i)\s+(?:for|of|on)\s+(?:(?:the|my|our|his|her|their|a)\s+)?(?:[a-z'’-]+\s+){0,2}?"
    r"(?!(?:order|number|no|ref|room|flat|unit|account|invoice|ticket|booking|case|bus|route"
    r"|flight|table|seat|item|line|ext|card|model|version|year|page)s?\s)[a-z'’-]+\s+(?=[*#]?\d)"
)


def _pass_value(text: str, key_end: int, end: int, cls: str, zh: bool) -> list[tuple[int, int]]:
    if (m := _EN_LINK.match(text, key_end, end)) is not None:
        if _PHRASE_KEY.search(text, max(0, key_end - 14), key_end) and (
            words := _phrase(text, m.end(), end)
        ):
            return words
        if zh and _PHRASE_KEY.search(text, max(0, key_end - 4), key_end):
            if w := _ZH_WORDS.match(text, m.end(), end):
                return [w.span()]  # 助记词：苹果 河流 安静 ...
        found = _after_link(text, m.end(), end, cls, zh=zh)
        if not found and cls in ("pass", "code") and (c := _TALK_COLON.match(text, m.end(), end)):
            found = _after_link(text, c.end(), end, cls, zh=zh)  # "is all lowercase: bluebird"
        return found
    if (z := _ZH_LINK.match(text, key_end, end)) is not None and not _zh_meta(text, z):
        if not (z["fill"] or "").strip() or re.search(r"[\u4e00-\u9fff]", z[0]):
            if _PHRASE_KEY.search(text, max(0, key_end - 4), key_end) and (
                w := _ZH_WORDS.match(text, z.end(), end)
            ):
                return [w.span()]
            part = cls == "pass" and re.search(_PART_ZH, z[0])  # 前三位 472: read as a code
            if found := _after_link(text, z.end(), end, "code" if part else cls, zh=True):
                return found
    if cls != "weak" and (c := _ASIDE.match(text, key_end, end)) is not None:
        if found := _after_link(text, c.end(), end, cls, zh=zh):
            return found
    gap = re.match(r"\s*[:=：]?\s*", text[key_end:end])
    pos = key_end + (gap.end() if gap else 0)
    tokens = _tokens(text, pos, end)
    if not tokens or tokens[0][1] != pos:
        return _quoted_later(text, key_end, end)
    if cls != "weak" and (sp := _SPELLED.match(text, pos, end)) is not None:
        if sum(c.isdigit() for c in sp[0]) >= 4:
            return [sp.span()]  # 保险箱密码 6 2 8 3
    if (split := _split_digits(text, pos, end)) is not None:
        return [split]
    token, a, b = tokens[0]
    if not token[0].isascii() and _META_ZH.search(token):
        return []  # "密码都存在1Password里", "密码的链接24小时内有效": words about it, not a value
    if (
        zh
        and (n := _ZH_DIGITS.match(text, pos, end))
        and not re.match(r"[\u4e00-\u9fff]", text[n.end() :])
    ):
        return [n.span()]  # 备用密码 八八零四七二
    if cls == "code":  # no link: "PIN 8421", not "Security code 200 means OK"
        return _code_value(text, key_end, pos, end, zh)
    # "passwrod 7788 - ...": four digits right after the word, the clause ending there
    least = 4 if zh or (a == key_end + 1 and _CLAUSE_END.match(text, b)) else 6
    digits = token.isdigit() and len(token) >= least and not _UNITS.match(text, b)
    worded = cls == "pass" and _worded(token, text[b:])
    return [(a, b)] if _strong(token) or worded or (digits and cls != "weak") else []


def _code_value(text: str, key_end: int, pos: int, end: int, zh: bool) -> list[tuple[int, int]]:
    """A code's value said right after its name, no link word ("PIN 8421", "提取码 x7k2")."""
    g = _FOR_GAP.match(text, key_end, end) if _PIN.search(text, 0, key_end) else None
    if g is not None:  # "PIN for the van 3395" (a booking's "confirmation code for" is no PIN)
        d = _DIGITS.match(text, g.end(), end)
        return [d.span()] if d and len(d[0]) >= 4 and _CLAUSE_END.match(text, d.end()) else []
    m = _DIGITS.match(text, pos, end) or _CODE_VALUE.match(text, pos, end)
    if m is None and (m := _SHORT_CODE.match(text, pos, end) if zh else caps_code(text, pos, end)):
        return [m.span()]  # 提取码 x7k2, "device verification code 8HRT3K"
    if m is None or _UNITS.match(text, m.end()):
        return []
    short = LOCK_CODE.search(text, max(0, key_end - 12), key_end) is not None
    least = 3 if short and _CLAUSE_END.match(text, m.end()) else 4  # a lock's "code 318"
    return [m.span()] if sum(c.isdigit() for c in m[0]) >= least else []


def _quoted_later(text: str, pos: int, end: int) -> list[tuple[int, int]]:
    """Quoted made-up words later in the sentence: 'the vault password, "trout", and the
    second half, "Ledger#19"'."""
    quoted = [q.span(1) for q in _QUOTED.finditer(text, pos, end)]
    if any(_strong(text[a:b]) for a, b in quoted):
        return [(a, b) for a, b in quoted if " " not in text[a:b]]
    return []


# another number named in a later clause, before the value: "护照下个月到期，… 预约编号 YY2024…"; a
# number to call: "账号被锁了，打 400-… 解锁" (打 right before the value, past the end searched)
_OTHER_NUMBER = Lazy(
    r"(?i)[，,;；][^，,;；]*?(?:编号|单号|订单|预约号|流水号|工单|票号|(?<![a-z])(?:booking|order|reference|ref"
    r"|invoice|ticket|confirmation|appointment|tracking|call|ring|phone)(?![a-z])|拨打?|致电|电话|热线|打\s*$)"
)


_COLON = Lazy(r"[:：]\s*")
# what the number is for, said before its link: "passport number for the ferry in May is X"
_FOR_THEN_LINK = Lazy(r"(?i)\s+(?:for|of|on|at|with|in)\s+[^,;:.!?\n\d]{1,60}?\s(?:is|was)\s+")


def _number_value(text: str, key_end: int, end: int, cls: str) -> list[tuple[int, int]]:
    pattern = {"card": _CARD_VALUE, "acct": _ACCT_VALUE, "id": _ID_VALUE}[cls]
    window_end = min(end, key_end + 40)  # the value starts in the window, may end past it
    if (colon := _COLON.search(text, key_end, min(end, key_end + 60))) is not None:
        window_end = max(window_end, colon.end() + 2)  # "NHS number for the patient in …: 943 …"
    if (link := _FOR_THEN_LINK.match(text, key_end, end)) is not None:
        window_end = max(window_end, link.end() + 2)
    for m in pattern.finditer(text, key_end, end):
        if m.start() > window_end or _OTHER_NUMBER.search(text, key_end, m.start()):
            break
        value = m[0]
        lettered = cls == "id" and lettered_id(value)
        if sum(c.isdigit() for c in value) >= (6 if cls == "id" else 8) or lettered:
            if not (_no_number(value) or _UNITS.match(text, m.end())):
                return [m.span()]
    return []


_PHRASE_KEY = Lazy(r"(?i)phrase|mnemonic|助记词|(?:seed|recovery|backup|secret|wallet)[ -]words")
_WEAK = Lazy(r"(?i)token|(?<![a-z])keys?(?![a-z])|secret|令牌|钥|授权码")  # made-up values
_STRONG_KEY = Lazy(  # values may be digits ("host key is 481726"), or a word for a bare wifi key
    r"(?i)wi-?fi|wpa|network|master|seed|recovery|mnemonic|助记|host|pairing|activation|setup"
    r"|licen[cs]e|product|^key$"
)


def find_prose(text: str) -> list[tuple[str, tuple[int, int]]]:
    """(kind, span of the value) of each secret stated in prose in `text`."""
    found: list[tuple[str, tuple[int, int]]] = []
    lowered = text.lower()
    named = _HINTS.search(lowered) or _CAPS_HINTS.search(text)
    keys = _KEY.finditer(text) if named else ()
    for m in keys:
        group = m.lastgroup or ""
        cls, zh = group.removesuffix("zh"), group.endswith("zh")
        end = _sentence_end(text, m.end())
        start = max(text.rfind("\n", 0, m.start()), 0)
        if not _in_context(m[0], text[start:end]):
            continue
        if cls in ("pass", "code"):
            weak = cls == "pass" and bool(_WEAK.search(m[0])) and not _STRONG_KEY.search(m[0])
            spans = _pass_value(text, m.end(), end, "weak" if weak else cls, zh)
        else:
            spans = _number_value(text, m.end(), end, cls)
            if re.fullmatch(r"(?i)card|visa", m[0]):  # "card 4111 ... 1112": a bare word
                spans = [
                    sp
                    for sp in spans
                    if _luhn_ok(text[sp[0] : sp[1]])
                    or (m[0].lower() == "visa" and _FOURS.fullmatch(text[sp[0] : sp[1]]))
                ]  # or a Visa laid out as one: "My Visa is 4532 7153 ..." (a loyalty card is not)
        found += [(_KINDS[cls], span) for span in spans]
    found += [("bank_account", span) for span in ibans(text)]
    return found
