"""The shapes of secret values (issue 29), shared by `remem.secrets_prose` and
`remem.secrets_cues`: a token that looks made up, a generated key, a value spelled out
item by item, and what is no value at all (a placeholder, a version, a path, a product).

    strong("blu3-Harbor-88")      # True: letters with digits
    strong("log-triage")          # False: a name
    very_strong("Maple#Leaf7")    # True: letters, digits and a symbol
    key_like("8fK2mQ9xL4vB7nR3tY6wZ1cE5", cued=True)   # True
    spelled_end("p as in papa, 4, capital M, 9!", 0)    # the end of the four items
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator

__all__ = [
    "first_strong",
    "ASIDE",
    "EXCLUDED",
    "KEYED",
    "Lazy",
    "PLACEHOLDER",
    "RANDOM",
    "SPEED",
    "SPOKEN",
    "SPOKEN3",
    "SPOKEN_DIAL",
    "counted",
    "no_number",
    "ZH_DIGITS",
    "excluded",
    "full_shape_spans",
    "key_like",
    "key_spans",
    "scan",
    "sentence",
    "spelled_end",
    "strong",
    "one_case_run",
    "pinyin_phrase",
    "typed_words",
    "very_strong",
    "wifi_key",
    "zh_punctuated",
]


class Lazy:
    """A pattern compiled on its first use: a one-shot save checks one text, and most
    rules wait behind a word the text lacks (compiling all of one module's took ~55 ms
    of every `remem save`)."""

    __slots__ = ("_source", "_flags", "_compiled")

    def __init__(self, source: str, flags: int = 0) -> None:
        self._source, self._flags = source, flags
        self._compiled: re.Pattern[str] | None = None

    # the methods read `_compiled` before the property: a scan calls them ~30 times a text
    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self._source, self._flags)
        return self._compiled

    @property
    def pattern(self) -> str:
        return self._source

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return (self._compiled or self.compiled).search(text, pos, endpos)

    def match(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return (self._compiled or self.compiled).match(text, pos, endpos)

    def fullmatch(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return (self._compiled or self.compiled).fullmatch(text, pos, endpos)

    def finditer(
        self, text: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> Iterator[re.Match[str]]:
        return (self._compiled or self.compiled).finditer(text, pos, endpos)


RANDOM = Lazy(  # a run as long as a generated key; it may touch Chinese (Secret是odFE...)
    r"(?<![A-Za-z0-9_+/=.@:-])[A-Za-z0-9][A-Za-z0-9+/_.-]{15,}={0,2}(?![A-Za-z0-9_+/=-])"
)
_HEX = Lazy(r"[0-9a-fA-F]+")
_ADDRESS = Lazy(r"0x[0-9a-fA-F]{40}")  # an Ethereum-style address (a private key has 64)
_UUID = Lazy(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


# (a variable, a command's output "$(gh auth token)", a template, a mask, a type name ...)
PLACEHOLDER = Lazy(
    r"(?i)^(?:<.*>|\$\{?\w+\}?|\$\(.*|\{\{.*\}\}|\*+|x{3,}|\.{3,}|null|none|nil|true|false|str|string"
    r"|int|bytes|optional\[?.*|required|undefined|empty|missing|expired|invalid|redacted"
    r"|hidden|your[_-].*|os\.environ.*|process\.env.*|getenv.*|env\(.*|settings\..*"
    r"|config\..*|self\..*|example.*)[.,;:!?)]*$"
)  # a value that is no value: shared with remem.secrets
_PRODUCTS = Lazy(
    r"(?i)^(?:1password|lastpass|bitwarden|keepass(?:xc)?|dashlane|vault|keychain|okta|sso|ldap"
    r"|oauth2?|saml|bcrypt|scrypt|argon2(?:id|i|d)?|pbkdf2|sha-?\d+|md5|[rhe]s\d{3}|totp|hotp"
    r"|u2f|fido2?|webauthn|yubikey|kms|aws|gcp|azure|github|gitlab|slack|sms|email|e-mail)$"
)
EXCLUDED = Lazy(
    r"(?i)^(?:v?\d+(?:\.\d+)+[\w.+-]*|\d{4}-\d{2}-\d{2}\S*|\d{1,2}:\d{2}(?::\d{2})?"
    r"|\d+(?:\.\d+)?%|#\d+|[a-z][\w+.-]*://\S*|\S*/\S*|(?:[a-z0-9-]+\.)+[a-z]{2,}"
    r"|\$\{?\w+\}?|(?-i:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)"  # DEPLOY_TOKEN, not Jd_2024
    r"|\d{1,3}(?:,\d{3})+(?:\.\d+)?)$"  # "2,000": a count in thousands, not a code
)
_MEASURE = Lazy(r"\d+-[a-z]+(?:-[a-z]+)*$")  # "20-character", "256-bit", "6-digit"
_IDENT = Lazy(r"^[a-z][a-z0-9]*(?:[_.-][a-z0-9]+)+$|^[a-z]+(?:-[a-z]+)+$")


def excluded(token: str) -> bool:
    return bool(
        len(token) < 3
        or EXCLUDED.match(token)
        or _PRODUCTS.match(token)
        or PLACEHOLDER.match(token)
    )


def strong(token: str) -> bool:
    """A token that looks made up: letters with digits, a symbol inside, or a capital
    inside a lower-case word ("jenkinsRocks"), and not a name, version or path."""
    if excluded(token) or _IDENT.match(token) or _MEASURE.match(token):
        return False
    letters = any(c.isalpha() for c in token)
    digits = any(c.isdigit() for c in token)
    inner = token[1:-1]
    symbol = any(not c.isalnum() and c not in "-_." for c in inner) or (
        any(c in "-_." for c in inner) and digits
    )
    camel = any(c.isupper() for c in token[1:]) and any(c.islower() for c in token)
    return (letters and digits) or symbol or (camel and len(token) >= 6)


_BASE32 = Lazy(r"[A-Z2-7]+")


def key_like(token: str, cued: bool) -> bool:
    """A token that reads as a generated key: long, letters with digits, not a name,
    path, URL or version; hex and UUIDs only by a key cue (else a commit or a record)."""
    body = token.rstrip("=.")
    letters = sum(c.isalpha() for c in body)
    digits = sum(c.isdigit() for c in body)
    if digits < 2 or letters < 2 or body.count("/") > 2 or "//" in body or ".." in body:
        return False
    if re.search(r"\.[a-z]{2,4}$", body) or re.fullmatch(r"v?\d+(?:\.\d+)+.*", body):
        return False  # a file name or a version
    if re.search(r"(?:^|[-_])[a-z]{3,}(?:[-_]|$)", body) and digits < 6:
        return False  # prod-deploy-2024, id_ed25519_work: a name, not a generated key
    if re.search(r"[a-z]{2,}\.[a-z]{2,}", body):
        return False  # a host name
    upper = sum(c.isupper() for c in body)
    lower = sum(c.islower() for c in body)
    if _ADDRESS.fullmatch(body):
        return False  # a wallet's address is given out to be paid
    if cued and _BASE32.fullmatch(body) and digits and len(body) in (16, 26, 32, 52, 64):
        return True  # an authenticator's seed: base32, in the lengths its secrets take
    if _HEX.fullmatch(body) or _UUID.fullmatch(body.lower()):
        return cued and len(body) >= 20
    if cued:
        return len(body) >= 16 and (digits >= 3 or (upper >= 2 and lower >= 2))
    return len(body) >= 28 and upper >= 3 and lower >= 3 and digits >= 3


def very_strong(token: str) -> bool:
    """Letters, digits and a symbol in one token ("Maple#Leaf7", "tplink@2024"): a
    password's shape, not a name's, once an e-mail address or a path is set aside."""
    if len(token) < 6 or "://" in token or re.fullmatch(r"[\w.+-]+@[\w-]+\.[\w.]+", token):
        return False
    if token.startswith(("/", "~", "@", "#", "$")) or re.search(r"\.[a-z]{2,4}$", token):
        return False
    symbol = any(not c.isalnum() and c not in "-_.'’" for c in token[1:])
    return symbol and any(c.isdigit() for c in token) and any(c.isalpha() for c in token)


# Digits said as words, four or more: "seven seven three one", 四四七一, 幺洞拐两 (the radio
# words: 幺 1, 洞 0, 拐 7, 两 2). Only a value by a cue: "一五一十" alone is an idiom.
# a keypad's digits with a letter at an end, "C4729X" (a booking's QX7P2M is mostly letters)
KEYED = Lazy(r"(?=[A-Za-z]\d|\d+[A-Za-z])[A-Za-z]?\d{4,8}[A-Za-z]?(?![\w-]|\.\w)")
ZH_DIGITS = "零〇一二三四五六七八九幺两洞拐壹贰叁肆伍陆柒捌玖"  # 大写 too: 叁玖柒壹
_U = r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)(?![a-z])"
_B = (  # a word of two digits: "seventeen", "forty-two", "double seven"
    rf"(?:(?:double|triple)\s+{_U}|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
    rf"(?:-{_U})?(?![a-z])|(?:ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen"
    r"|eighteen|nineteen)(?![a-z]))"
)
_S = r"(?:\s*[,-]\s*|\s+)"
_N = (  # one number word up to 99: "nine", "fourteen", "twenty-one"
    r"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ]" + _U + r")?"
    r"|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen"
    r"|" + _U + r")(?![a-z])"
)
# A dial's three or four numbers in words: "three, nine, twenty-one" (by a lock or a
# combination only: "one, two, three" alone is counting).
SPOKEN_DIAL = rf"(?i:{_N}(?:\s*[,-]\s*(?:then\s+|and\s+)?{_N}|\s+(?:then|and)\s+{_N}){{2,3}})"
# A lock's three digits in words, by a lock only: "the float tin lock is seven three three"
# (or joined by hyphens, as written: "one-five-nine")
SPOKEN3 = rf"(?i:{_U}(?:[ \t]+{_U}){{2}}|{_U}(?:-{_U}){{2}})(?![ \t,-]*{_U})"
SPOKEN = (  # four single digits, or two words of two digits among others (4 digits or more)
    rf"(?i:{_U}(?:{_S}{_U}){{3,}}|(?:{_U}{_S}){{0,4}}{_B}(?:{_S}{_U}){{0,4}}{_S}{_B}"
    rf"(?:{_S}(?:{_B}|{_U})){{0,6}}"
    rf"|{_B}(?:{_S}{_U}){{2,6}}|(?:{_U}{_S}){{2,6}}{_B})"  # "forty-one-oh-six": a pair, two singles
    rf"|[{ZH_DIGITS}]{{4,}}"
)


_COUNT = Lazy(  # "8 位数字 20180612", "six digits: 482913": a length, then the value
    r"(?i)(?P<n>\d{1,2}|[四五六七八九十]|four|five|six|seven|eight|nine|ten|twelve)\s*"
    r"(?:位数字|位数|位|个数字|个字符|(?:digits?|characters?|chars?|numbers?)(?:\s+long)?)"
    r"[\s，,：:;—-]*(?:(?:just|only|namely|i\.e\.|就是|即)\s*)?(?P<v>[!-~]{4,40})"
)
_COUNTS = {"四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10, "four": 4, "five": 5}
_COUNTS |= {"six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "twelve": 12}


def counted(text: str, pos: int, end: int) -> tuple[int, int] | None:
    """The span of a value said after its length, when it is that long: "8 位数字
    20180612" (not "至少 12 位" or "8 digits, like a date")."""
    m = _COUNT.match(text, pos, end)
    if m is None:
        return None
    n = int(m["n"]) if m["n"].isdigit() else _COUNTS[m["n"].lower()]
    value = m["v"].rstrip(".,;:!?)")
    if len(value) != n or excluded(value):
        return None
    return m.start("v"), m.start("v") + len(value)


def no_number(value: str) -> bool:
    """A value no card's, account's or ID's number is: a version, a date, a count in thousands
    (`EXCLUDED`), or the ten digits once each, nothing else, counted up or down ("12345
    67890", "5432109876"): a dummy's, not a number anyone was given."""
    if EXCLUDED.match(value):
        return True
    digits = [int(c) for c in value if c.isdigit()]
    steps = {(b - a) % 10 for a, b in zip(digits, digits[1:], strict=False)}
    plain = all(c.isdigit() or c in " -" for c in value)
    return plain and len(digits) == 10 and steps in ({1}, {9})


_FULL_TOKEN = Lazy(r"[^\s,，;；()（）\"“”'‘’<>\[\]{}`。、]+")
_FULL_SYMBOLS = frozenset("!@#$%^&*?~")  # not = + . - _: code, versions, names
_NOT_FULL = Lazy(
    r"^[@#$/~\\]|://|^[\w.+-]+@[\w-]+\.[\w.]+$|[a-z]\.[a-z]|A-Z|a-z|0-9|\\"  # mail, paths, regexes
    r"|[?!]\.|::|->|=>|&&|\|\||\.\w+\?"  # code: obj?.Value2, a::B1, x&&Y2
)


def full_shape_spans(text: str) -> list[tuple[int, int]]:
    """Tokens with a capital, a small letter, a digit and a symbol, eight or more long
    ("Secur3!Pass", "Tr0ub4dor&3"): a password's full shape, with no word of one needed
    (a name, a version, an address or a regex has not all four)."""
    out = []
    for m in _FULL_TOKEN.finditer(text):
        t = m[0].rstrip(".,:;!?)")
        if len(t) < 8 or not (t.isascii() and t.isprintable()) or _NOT_FULL.search(t):
            continue
        if not any(c in _FULL_SYMBOLS for c in t[1:]):
            continue
        if any(c.isupper() for c in t) and any(c.islower() for c in t):
            if any(c.isdigit() for c in t):
                out.append((m.start(), m.start() + len(t)))
    return out


# -- a value spelled out: "p as in papa, 4, capital M, 9, exclamation mark" -------------
_SYMBOLS = (
    r"exclamation\s+(?:mark|point)|dollar\s+sign|at\s+sign|(?:hash|pound|number)\s+sign|hash|pound"
    r"|hashtag|underscore|dash|hyphen|dot|period|full\s+stop|star|asterisk|percent(?:\s+sign)?"
    r"|ampersand|plus(?:\s+sign)?|equals(?:\s+sign)?|question\s+mark|caret|tilde|slash"
    r"|backslash|colon|semicolon|comma"
)
_ITEM = Lazy(
    r"(?i)(?:an?\s+)?(?:(?:capital|upper[ -]?case|lower[ -]?case|small|big)\s+)?"
    r"(?:(?P<as>[a-z]\s+(?:as\s+in|for)\s+[a-z-]+)|[a-z0-9](?![a-z0-9])|\d{2,6}(?![a-z0-9])"
    rf"|zero|oh|one|two|three|four|five|six|seven|eight|nine|{_SYMBOLS})(?![a-z])"
)
_SEP = Lazy(r"(?i)\s*(?:,\s*|\s+)(?:(?:and\s+)?then\s+|and\s+|followed\s+by\s+)?")


def spelled_end(text: str, pos: int) -> int | None:
    """The end of a value spelled out item by item from `pos`, four items or more (three
    when a letter is told by a word, "C for clear then 19 then 52": a value read out)."""
    count, end, at, told = 0, None, pos, False
    while (m := _ITEM.match(text, at)) is not None:
        count, end, told = count + 1, m.end(), told or m["as"] is not None
        sep = _SEP.match(text, m.end())
        if sep is None or sep.end() == m.end():
            break
        at = sep.end()
    return end if count >= 4 or (count == 3 and told) else None


# A sentence ends at 。！？ or a line break, and at . ! ? only before a space or the end:
# "Pr1nt3r!Adm1n", "Blue.Canoe.77" and "jordan.lee@..." go on.
SPEED = Lazy(r"(?i)^\d+(?:\.\d+)?(?:mbps|gbps|kbps|ghz|mhz|g|m|mb|gb|kb|e)$")  # a line's speed


def wifi_key(v: str) -> bool:
    """A network key said by a key word: made up, eight digits, or words with digits
    ("woodsmoke-lantern-87": a name's shape, but here a key's)."""
    letters, digits = any(c.isalpha() for c in v), any(c.isdigit() for c in v)
    if SPEED.match(v) or excluded(v):
        return False
    return (
        (strong(v) and len(v) >= 6)
        or (v.isdigit() and len(v) >= 8)
        or (letters and digits and len(v) >= 8)
    )


def first_strong(
    text: str, pos: int, end: int, size: int, digits: int = 0
) -> list[tuple[int, int]]:
    """The first token from `pos` to `end` of a password's shape (`size` long, or `digits`
    digits): not a line's speed."""
    for m in re.finditer(r"[^\s,，;；()（）\"“”]+", text[pos:end]):
        token = m[0].rstrip(".:!?")
        if SPEED.match(token):
            continue
        if (strong(token) and len(token) >= size) or (
            digits and token.isdigit() and len(token) >= digits
        ):
            return [(pos + m.start(), pos + m.start() + len(token))]
    return []


# Plain words said with how they are typed ("sleepyhollowlane, all lower case", "purple otter
# all one word"): a value someone is to type, not talk about one
_TYPED = Lazy(
    r"(?i)(?P<v>[a-z]{3,}(?:\s+[a-z]{3,}){0,3}?)\s*[,;(—–-]?\s*(?:(?:all|in)\s+)?(?:(?:lower|upper|small)"
    r"[\s-]?case|one\s+word|no\s+spaces|small\s+letters|caps)(?![a-z])"
)
_NOT_TYPED = frozenset("the a an is was in on at of for and or it its same your my our".split())


def typed_words(text: str, pos: int) -> tuple[int, int] | None:
    """The span of plain words from `pos` said with how they are typed; a single word
    needs eight letters, as a key is no shorter."""
    m = _TYPED.match(text, pos)
    if m is None or _NOT_TYPED.intersection(m["v"].lower().split()):
        return None
    return m.span("v") if " " in m["v"] or len(m["v"]) >= 8 else None


# how a value is vouched for after it, no word of what it is: "..., 1969, yes really"
ASIDE = (
    r"(?i:(?:(?:yes|yeah|yep)[ \t,]+)?(?:really|honestly|seriously|truly|no[ \t]+joke"
    r"|not[ \t]+kidding|i[ \t]+know|trust[ \t]+me|lol|haha)[.!]*)"
)
# One toneless pinyin syllable: a Chinese speaker's password is often a phrase typed in pinyin.
_SYLLABLE = (
    r"(?:zh|ch|sh|[bpmfdtnlgkhjqxrzcsyw])?"
    r"(?:iang|iong|uang|ang|eng|ing|ong|iao|ian|uai|uan|ai|ei|ao|ou|an|en|in|un|ia|ie|iu|ua|uo"
    r"|ui|ue|er|a|o|e|i|u|v)"
)
_PINYIN = Lazy(rf"(?i)(?:{_SYLLABLE}){{3,}}")


def pinyin_phrase(word: str) -> bool:
    """A run of three or more pinyin syllables, eight letters at least ("qingshanlvshui"
    style): after 密码 in a Chinese note it is the password, not an English word."""
    word = word.rstrip(".,;:!?()（）")
    return len(word) >= 8 and word.isascii() and _PINYIN.fullmatch(word) is not None


def one_case_run(word: str) -> bool:
    """Twelve letters or more all in one case ("KJHGTREWQZXCVBNM", a mail client's
    authorisation code): generated, not a product's name (iCloud) nor a word."""
    word = word.rstrip(".,;:!?()（）")
    one_case = word.isupper() or word.islower()
    return len(word) >= 12 and word.isascii() and word.isalpha() and one_case


_START = Lazy(r"[。！？\n]|[.!?](?=\s)")
_END = Lazy(r"[。！？\n]|[!?](?=\s|$)")


def sentence(text: str, pos: int) -> tuple[int, int]:
    """(start, end) of the sentence around `pos`; a "." ends the one before, not this one
    (a value after "code." may still belong to it)."""
    start = 0
    for m in _START.finditer(text, 0, pos):
        start = m.end()
    end = _END.search(text, pos)
    return start, end.start() if end else len(text)


# A key-like string: long, random-looking, by a word of keys and secrets.
_KEY_CUE = Lazy(
    # a key's or a token's string or value written as one word: "the API keystring for ..."
    r"(?i)(?<![a-z])(?:[a-z]*secret|(?:[a-z]*keys?|tokens?)(?:strings?|values?)?|seed|ak|sk"
    r"|credentials?|passphrase"
    r"|private|apikey|appkey|authenticator|totp|2fa|mfa|licen[cs]e[ _-]?(?:serial|code)s?)"
    r"(?![a-z])|密钥|秘钥|私钥|令牌|凭证|口令|密码"
    r"|授权码|推流码|种子|验证器"
)
_PUBLIC = Lazy(
    r"(?i)(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-\S+|sha256:|md5:)\s*$|fingerprint|public|公钥|指纹"
    r"|名字|名称|叫|named|called|address|地址|公开"
)
# A key given in groups: "KZXW 6YTB OI4D GMRT QJ3E 2LNV" (an authenticator's setup key), or
# three joined by dashes, as a router's or a licence's key is printed ("4HJ2-KX9M-T7PW")
_GROUPED = Lazy(r"(?<![\w-])[A-Z0-9]{4}(?:(?:[ -][A-Z0-9]{4}){3,7}|(?:-[A-Z0-9]{4}){2})(?![\w-])")


def key_spans(text: str) -> list[tuple[int, int]]:
    """Spans of key-like strings: long and random-looking, by a word of keys and secrets
    in the same sentence ("高德的 key：bcc01e…"), or long and mixed enough alone."""
    out = []
    for m in RANDOM.finditer(text):
        start, _ = sentence(text, m.start())
        if _PUBLIC.search(text, max(start, m.start() - 60), m.start()):
            continue  # a public key or a fingerprint is meant to be shown
        cued = _KEY_CUE.search(text, max(start, m.start() - 60), m.start()) is not None
        if key_like(m[0], cued):
            out.append(m.span())
    for m in _GROUPED.finditer(text) if " " in text or "-" in text else ():
        start, _ = sentence(text, m.start())
        if _PUBLIC.search(text, max(start, m.start() - 60), m.start()):
            continue
        cued = _KEY_CUE.search(text, max(start, m.start() - 80), m.start()) is not None
        body = re.sub(r"[ -]", "", m[0])  # three groups: short for a key, but printed as one
        three = len(body) == 12 and sum(c.isdigit() for c in body) >= 3 and not body.isdigit()
        if cued and (key_like(body, cued) or (three and sum(c.isalpha() for c in body) >= 3)):
            out.append(m.span())
    return out


def scan(
    pattern: re.Pattern[str] | Lazy, text: str, low: str, *hints: str
) -> Iterator[re.Match[str]]:
    """`pattern`'s matches, when `low` holds one of the substrings it cannot match without
    (a scan of every text with every rule costs more than the rest of the check)."""
    if not hints:
        return iter(())
    gate = _GATES.get(hints)
    if gate is None:
        gate = _GATES[hints] = re.compile("|".join(map(re.escape, hints)))
    return pattern.finditer(text) if gate.search(low) else iter(())


_GATES: dict[tuple[str, ...], re.Pattern[str]] = {}


# Chinese typed with an English keyboard's marks ("密码改过了,新密码当面告诉你"): the rules
# end a Chinese clause at its full-width mark, and read past a half-width one into the
# words after as the value. One character for one: the spans stay the text's.
_HALF_BY_HAN = Lazy(r"(?<=[\u4e00-\u9fff])[,;!?]|[,;!?](?=[\u4e00-\u9fff])")
_FULL_WIDTH = {",": "，", ";": "；", "!": "！", "?": "？"}


def zh_punctuated(text: str) -> str:
    """`text` with each half-width comma, semicolon, ! or ? beside a Chinese character
    made full-width."""
    return _HALF_BY_HAN.compiled.sub(lambda m: _FULL_WIDTH[m[0]], text)


Piece = tuple[int, int, str, list[int]]  # a span of a text, what it reads as, where each char was


def rewritten(text: str, pieces: list[Piece]) -> tuple[str, list[int]] | None:
    """`text` with each piece's span read as its new text (in order, none overlapping), and
    the index in `text` of each character of the result: a reading the rules run on whose
    hits map back to the text (`secrets_digits`, `secrets_foreign`). None without a piece."""
    if not pieces:
        return None
    out: list[str] = []
    where: list[int] = []
    last = 0
    for start, end, new, at in pieces:
        out.append(text[last:start])
        where += range(last, start)
        out.append(new)
        where += at
        last = end
    out.append(text[last:])
    where += range(last, len(text))
    return "".join(out), where


# Money said in a sentence ("paid £45", "the bill's split", "30块钱"): its numbers are prices
# and sums, no code
MONEY = Lazy(
    r"(?i)[£$€¥]|(?<![a-z])(?:quid|pounds?|dollars?|euros?|bucks|amount|sum|paid|pay|owe[sd]?"
    r"|bill|cost|costs|price|priced|bought|buy|buying|sale)(?![a-z])|元|块钱"
)
