"""Logins told without a password's noun (issue 29; moved from `remem.secrets_told`): an
e-mail address and then its password ("use mo@mail.com with Fig-Tree-31", an address as what
a service is: "PayPal is x@y.com with Ailer0n-Roll-2023", or a quoted word after a dash:
'x@y.com — "gracias2019"'), a device's stock user then its password ("the NAS is admin then
fern-42", 后台是 root 然后 tplink-2020, "the NAS is admin with Lantern_42b"), any user then
"the other one", a user, a slash and a made-up password by a machine ("the microfilm PC is
archivist / Fiche-Reel-1851"), a login said as who one is and what with ("logged in as sam.k
with Quay4Side"), or only what with, a code ("everyone clocks in on the rota tablet with the
same code, 5521", "Ravi logs in with 4826, Meg with 1739", 小李用 4826 登录，小张用 1739), a user's
number at a machine and its code ("till: cashier 7 pin 5521").

    mail_pairs("I log in with mo@mail.com and Fig-Tree-31", ...)     # Fig-Tree-31
    admin_pairs("the NAS is admin then fern-42", ...)                # fern-42
    mail_pairs("jane@x.com / +44 20 7946 0000", ...)                  # []: a phone, no password
    user_logins("the till is logged in as sam.k with Quay4Side", ...)  # Quay4Side

Each rule wants a value of a password's shape (letters with digits, a made-up token) where the
login's way of telling puts it. Used by `remem.secrets_told`.
"""

from __future__ import annotations

import re

from remem.secrets_last import YEAR
from remem.secrets_shapes import Lazy, excluded, scan, sentence, strong, very_strong

__all__ = ["admin_pairs", "mail_pairs", "user_logins"]


# -- a login as an e-mail and a password: "use mo@mail.com with Fig-Tree-31" ---------------
_MAIL_PAIR = Lazy(
    r"(?i)(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+\s*(?:/\s*|\s:\s|\s+(?:with|and|\+|pw|pass(?:word)?)"
    r"\s+(?:(?:the\s+)?(?:password|pw|pass)\s+|(?P<it>it['’]s|it\s+is)\s+)?"
    r"|\s*,\s*(?:password|pw|pass)\s*[:：]?\s*"
    r"|\s*[—–:-]\s*(?P<qt>[\"“‘'])"  # or quoted after a dash: 'x@y.com — "gracias2019"'
    r"|(?P<bare>\s+))(?P<v>[^\s,;/\"“”‘’']{6,40})"  # or only a space: "login x@y.co.uk Cod4Ever!"
    r"(?(qt)[\"”’'](?=\s*(?:[,.;!?，。；]|$)))"  # the quote closes the clause
)
_LOGIN_BEFORE = Lazy(
    r"(?i)(?:log\s*-?in|sign\s*-?in|creds|credentials|account)\s*[:：]?\s*$|登录\s*[:：]?\s*$"
)
_MAIL_CUE = Lazy(
    r"(?i)(?<![a-z])(?:use|using|log(?:ged)?\s*in(?:to)?|sign(?:ed)?\s*in|login|account|portal|admin"
    r"|creds|credentials)(?![a-z])|登录|账号|帐号"
)


_IS_BEFORE = Lazy(r"(?i)(?:(?:\s(?:is|was)|['’]s)(?:\s+(?:under|on|as))?|[:：])\s*$")  # "'s under"
_ENDS = Lazy(r"\s*(?:[,.;!?，。；]|$)")


def _is_login(text: str, m: re.Match[str], start: int, value: str) -> bool:
    """An address said as what a thing is, then a word of a password's shape (eight or more,
    letters and digits) that ends the clause."""
    stated = _IS_BEFORE.search(text, start, m.start()) is not None
    shaped = len(value) >= 8 and re.search(r"\d", value) and re.search(r"[A-Za-z]", value)
    return bool(stated and shaped and _ENDS.match(text, m.start("v") + len(value)))


def mail_pairs(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for m in scan(_MAIL_PAIR, text, low, "@"):
        value = m["v"].rstrip(".!?)")
        start, end = sentence(text, m.start())
        joint = m[0][: m.start("v") - m.start()].lower()
        slash = "/" in joint or "pass" in joint or "pw" in joint  # "x@y.org, pass Z" says it
        # "x@y.org and it's Fig7Tree": what goes with the address, a made-up word with digits
        slash = slash or (m["it"] is not None and bool(re.search(r"\d", value)))
        # the address and a quoted word with a digit, alone in the clause: its password
        slash = slash or (m["qt"] is not None and bool(re.search(r"\d", value)))
        cued = slash or _MAIL_CUE.search(text, start, end) is not None
        # what a service "is": an address with a made-up word ending the clause ("PayPal is
        # x@y.com with Z9-a"; not "... with Q3report2024 attached")
        cued = cued or _is_login(text, m, start, value)
        letters = any(c.isalpha() for c in value)  # not a phone: "jane@x.com / +44-20-..."
        if m["bare"] is not None:  # no word between the two: a login named just before
            cued = _LOGIN_BEFORE.search(text, max(0, m.start() - 30), m.start()) is not None
            value = m["v"].rstrip(".,)") if very_strong(m["v"].rstrip(".,)")) else value
            cued = cued and (very_strong(value) or sum(c.isdigit() for c in value) >= 2)
        if cued and letters and strong(value) and "@" not in value and len(value) >= 6:
            out.append((m.start("v"), m.start("v") + len(value)))
    return out


# A device's login said as its stock user and then the password, no noun named: "the NAS
# is admin then fern-42", "the camera box is admin with Otter_22b", 后台是 root 然后 tplink-2020,
# "the camera: admin / Heron7",
# "it's admin and then X", 账号 admin，后面是 X (the user named as one, the rest after it)
_ADMIN_PAIR = Lazy(
    r"(?i)(?:是|为|[:：]|账号|帐号|用户名?|(?<![a-z])(?:is|as|with|use|using|it['’]s"
    r"|user(?:name)?|login))\s*"
    r"(?:admin(?:istrator)?|root|guest|pi|ubuntu|postgres|sa)(?![\w-])"
    r"\s*(?:[,，]?\s*(?:然后|再|接着|加上?|后面(?:是|跟|接)?|之后是"
    r"|(?<![a-z])(?:(?:and\s+)?then|and|plus|with)(?![a-z]))\s*[,，:：]?|/)"  # "is admin with X"
    # the value ends its clause, or where Chinese goes on: 摄像头还是root/hik12345没换过 (a default)
    r"\s*(?P<v>[!-~]{6,40}?)(?=\s*(?:[,，。;；!！)、\u4e00-\u9fff]|\.(?:\s|$)|$))"
)
# Any user named as one, then its password as "the other one", no noun: 用户名 lizhitan，
# 后面那个是 X; "username lizhitan, the other one's X" (a made-up token: letters and digits)
_USER_THEN = Lazy(
    r"(?i)(?:用户名|账号|帐号|登录名|(?<![a-z])(?:user(?:name)?|login))\s*(?:是|为|[:：]|is\s)?\s*"
    r"[A-Za-z0-9_.@-]{2,30}\s*[,，;；]\s*(?:and\s+|then\s+)?"
    r"(?:后面(?:那个|的)?|另一个|另外那?个|第二个|然后|接着|(?:the\s+)?(?:other|second)\s+(?:one"
    r"|bit|part)|the\s+rest|then)\s*(?:是|为|[:：]|is\s|['’]s\s)?\s*"
    r"(?P<v>[!-~]{6,40}?)(?=\s*(?:[,，。;；!！)、]|\.(?:\s|$)|$))"
)
# digits said as words inside a value: "spoke-nine-nine", "otter-four-two" (a password's
# digits, spelled so the value reads aloud)
_WORD_DIGIT = Lazy(  # one word of several: "nine" alone is a word, not a password
    r"(?i)[-_.](?:zero|one|two|three|four|five|six|seven|eight|nine)(?=$|[-_.])"
)


# A machine's login said as any user, a slash and a made-up password: "the microfilm PC is
# archivist / Fiche-Reel-1851", a network's name and key: "staff wifi: Staff5G / kettle-morning-58"
# (a slash between two plain words is "read/write", "km / h")
_USER_PAIR = Lazy(
    # after a link, or after a Chinese word and a space: 网盘 user / pass
    r"(?i)(?:(?<![a-z])(?:is|as|use|using|it['’]s)|[:：]|是|(?<=[\u4e00-\u9fff])\s)\s*"
    r"[a-z][a-z0-9._-]{2,24}"
    r"\s+/\s+(?P<v>[!-~]{6,40}?)(?=\s*(?:[,，。;；!！)、—–-]\s|\.(?:\s|$)|[,，。;；!！]|$))"
)
_MACHINE = Lazy(
    r"(?i)(?<![a-z])(?:pc|computer|desktop|laptop|server|nas|router|terminal|workstation"
    r"|console|portal|dashboard|kiosk|controller|tablet|account|admin|panel|box|wi-?fi|wlan"
    r")s?(?![a-z])|电脑|主机|后台|服务器|账号|帐号|系统|平台|无线|网盘|云盘|邮箱|网站"
)


def admin_pairs(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for m in scan(_USER_PAIR, text, low, " / "):
        value, (start, end) = m["v"], sentence(text, m.start())
        mixed = any(c.isdigit() for c in value) and any(c.isalpha() for c in value)
        # "shh-quiet-please-44", not a version ("ubuntu-22.04-lts")
        made_up = strong(value) or (
            len(value) >= 8 and not excluded(value) and not re.search(r"\d\.\d", value)
        )
        if mixed and made_up and _MACHINE.search(text, start, end) is not None:
            out.append(m.span("v"))
    for m in scan(
        _USER_THEN,
        text,
        low,
        "后面",
        "另",
        "第二",
        "other",
        "second",
        "rest",
        "然后",
        "接着",
        "then",
    ):
        v = m["v"]
        if not excluded(v) and re.search(r"\d", v) and re.search(r"[A-Za-z]", v):
            out.append(m.span("v"))
    for m in scan(_ADMIN_PAIR, text, low, "admin", "root", "guest", "pi", "ubuntu", "postgres",
                  "sa"):  # fmt: skip
        value = m["v"]
        letters, digits = any(c.isalpha() for c in value), any(c.isdigit() for c in value)
        digits = digits or _WORD_DIGIT.search(value) is not None  # "spoke-nine-nine"
        if _WITH.search(m[0]) and not _MADE_UP_WITH.fullmatch(value):
            continue  # "as admin with Windows11", "with WPA2-PSK": what it runs, not a password
        if not excluded(value) and (strong(value) or (letters and digits)):
            out.append(m.span("v"))
    return out


_WITH = Lazy(r"(?i)(?<![a-z])with(?![a-z])")
# after "with", a made-up word: lower case and digits joined by a symbol ("Otter_22b"), no
# version's dot between digits, nor a product's name and its version ("windows-11", "node_18")
_MADE_UP_WITH = Lazy(
    r"(?![a-z]+[-_]\d+$)(?=.*[a-z])(?=.*\d)(?!.*\d\.\d)(?=.*[A-Za-z0-9][^A-Za-z0-9\s]+[A-Za-z0-9]).+"
)


# -- a login said as who one is and what with: "the till is logged in as sam.k with Quay4Side",
# "sign in as ops2 using Lantern-88 if it drops" (any user; a made-up word with digits after it)
_AS_WITH = Lazy(
    r"(?i)(?<![a-z])(?:log(?:s|ged|ging)?|sign(?:s|ed|ing)?|clock(?:s|ed|ing)?)[ -]?(?:in|on)"
    r"(?![a-z])(?:\s+(?:to|on|at|into)\s+[^.;:!?\n]{1,40}?)?"
    r"\s+(?:as\s+[\w.@+-]{2,40}\s*,?\s+(?:with|using|and)\s+"
    r"(?:(?:the\s+|a\s+)?(?:password|pass|pw)\s+)?(?P<v>[^\s,;]{6,40})"
    # or with no user, what with named a code: "everyone clocks in on the till with the same
    # code, 5521", "signs in to the kiosk using her PIN 0921" (a shared login's code)
    r"|(?:with|using)\s+(?:(?:the|a|an|my|our|your|his|her|their|its)\s+)?"
    r"(?:(?:same|usual|shared|own|one|staff|team|new|old)\s+)*(?:code|pin|passcode|pass\s*code"
    # "with the same four digits, 3308"
    r"|(?:four|five|six|seven|eight|[4-8])[ -]?(?:digits?|numbers)(?:\s+code)?)"
    r"\s*[,:：—–]?\s*(?:of\s+)?(?P<c>\d{4,8})(?![\d.,:/-]?\d)"
    # or the digits alone: "Ravi logs in with 4826" (a person's code at a shared machine)
    r"|(?:with|using)\s+(?P<b>\d{4,8})(?![\d.,:/-]?\d))"
    # or the code first, then what it is used to do: "everyone uses 5521 to clock in"
    r"|(?<![a-z])(?:uses?|using|enters?|types?|keys?|punch(?:es)?)\s+(?:in\s+)?(?P<f>\d{4,8})"
    r"\s+to\s+(?:clock|sign|log)[ -]?(?:in|on)(?![a-z])"
)
# the others after the first, each with theirs: "..., Meg with 1739", "and Joe using 9013"
_NEXT_WITH = Lazy(
    r"\s*(?:[,;]\s*(?:and\s+)?|\s+and\s+)(?:[A-Z][a-z'’-]+|the\s+[a-z]+)\s+(?:with|using|on)\s+"
    r"(?P<v>\d{4,8})(?![\d.,:/-]?\d)"
)
# 小李用 4826 登录，小张用 1739: digits a person logs in or clocks on with, then the others'
_ZH_WITH = Lazy(
    r"用\s*(?P<v>\d{4,8})\s*(?:登录|登陆|登入|签到|打卡|上机|开机)"
    r"|(?:登录|登陆|登入|签到|打卡)(?:都|时|的时候)?用\s*(?P<w>\d{4,8})(?!\d|\s*[元块个号位次年])"
)
_ZH_NEXT = Lazy(
    r"\s*[，,；;、]\s*[\u4e00-\u9fff]{1,3}?用\s*(?P<v>\d{4,8})"
    r"(?!\d|\s*[元块个号位次年])"
)
_SYMBOL_WORDS = Lazy(r"[A-Za-z]{3,}[!#$%^*=?~][A-Za-z]{3,}")  # not &: "Marks&Spencer", a name
_JOINED_DIGITS = Lazy(r"[a-z]{2,}(?:[-_.][a-z]{2,})+[-_.]\d{2,6}")
# the value ends its clause, or a clause of when goes on: "... with Quay4Side if it logs out"
_THEN_WHEN = Lazy(
    r"(?i)\s*(?:$|[.,;!?)—–]|(?:if|when|whenever|once|until|unless|after|before|and|so|then"
    r"|each|every)(?![a-z]))"
)
_CODE_ENDS = Lazy(r"(?i)\s*(?:for|to|on|at)(?![a-z])")  # a code's use: "code 7713 for refunds"

# A user's number at a machine, then the code it signs in with: "till: cashier 7 pin 5521",
# "staff no. 14 passcode 0921", "Clerk 4's code is 8812" (a code for a person is a login)
_USER_CODE = Lazy(
    r"(?i)(?<![a-z])(?:operator|cashier|clerk|user|staff|employee|server|login|sign[ -]?in|agent"
    r"|driver|engineer|op)\s*(?:no\.?\s*|number\s+|#\s*|id\s*)?[A-Z]?\d{1,6}(?:['’]s)?"
    r"\s*(?:[,;/]\s*|\s+)(?:(?:and|with)\s+)?(?:(?:the|its|their|his|her|my)\s+)?(?:code|pin|passcode|pass\s*code)"
    r"\s*(?:is\s+|[:=：#]\s*)?(?P<v>\d{4,8})(?![\d.,:/-]?\d)"
)


def user_logins(text: str, low: str) -> list[tuple[int, int]]:
    """The password of a login said as its user, then what one logs in with (letters and
    digits: not "as admin with two-factor", "as jo with Google"); a user's number, then its
    code (not "user 2, code 1500 lines")."""
    out = []
    for m in scan(
        _AS_WITH, text, low, " as ", "code", "pin", "digit", "number", " to ", " with ", " using "
    ):
        if m["f"] is not None:
            out.append(m.span("f"))
            continue
        if m["c"] is not None:  # a code that ends the clause: not "code 1500 lines"
            used = _CODE_ENDS.match(text, m.end()) and not YEAR.fullmatch(m["c"])  # "2024 for"
            if _THEN_WHEN.match(text, m.end()) or used:
                out.append(m.span("c"))
            continue
        if m["b"] is not None:  # bare digits end the clause, no year: not "with 1500 others"
            if _THEN_WHEN.match(text, m.end()) and not YEAR.fullmatch(m["b"]):
                out += [m.span("b"), *_each_next(text, m.end(), _NEXT_WITH)]
            continue
        value = m["v"].rstrip(".!?)")
        mixed = re.search(r"\d", value) and re.search(r"[A-Za-z]", value)
        ends = _THEN_WHEN.match(text, m.start("v") + len(value)) is not None
        # a login's words joined, then its digits, is made up too ("as kds with till-four-2024")
        joined = _JOINED_DIGITS.fullmatch(value) is not None and not excluded(value)
        # or words with a keyboard symbol inside, no digit ("as van.music with Bench!Press"): made
        # up, unlike a name ("as jo with O'Neill's", "with Sofa-Nights")
        symbol = _SYMBOL_WORDS.fullmatch(value) is not None and not excluded(value)
        if (mixed and (strong(value) or joined) or symbol) and "@" not in value and ends:
            out.append((m.start("v"), m.start("v") + len(value)))
    for m in scan(_USER_CODE, text, low, "code", "pin"):
        if _THEN_WHEN.match(text, m.end()) or _CODE_ENDS.match(text, m.end()):  # not "4471 errors"
            out.append(m.span("v"))
    for m in scan(_ZH_WITH, text, low, "用"):
        group = "v" if m["v"] is not None else "w"
        if not YEAR.fullmatch(m[group]):
            out += [m.span(group), *_each_next(text, m.end(), _ZH_NEXT)]
    return out


def _each_next(text: str, at: int, step: Lazy) -> list[tuple[int, int]]:
    """The codes of the others said after the first, each by its person."""
    out = []
    while (n := step.match(text, at)) is not None and not YEAR.fullmatch(n["v"]):
        out.append(n.span("v"))
        at = n.end()
    return out
