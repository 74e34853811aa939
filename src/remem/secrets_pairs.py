"""A login given as its user, a slash and its password (issue 29; moved from
`remem.secrets_cues`): "admin / nasAdmin!2025" in a sentence about logging in, "root /
Tr0ub4dor&3" after an admin's name, "zhoulei / Zl#gitee2024" in a password's full shape,
后台 daozha / 88886666, "till login Sam / 4412", a hotspot's name / key (手机热点：X / Y, a
key of eight or more); or a line that is nothing but the pair, a handle and a password's
shape ("Kiln_Room / ashglaze7pots").

    slash_pairs("NAS login: admin / nasAdmin!2025")     # the span of nasAdmin!2025
    slash_pairs("read / write access for the team")     # []

A path ("registry.acme.io/web:2.8.1") or a pair of plain words ("km / h") is no login. Used
by `remem.secrets_cues`. A login after its service's label and a colon, the user, then the
password named (its noun typed in haste too, "passwrd", 密玛): "Dropbox for the proofs:
jo.prints, password paper-cuts!" (`labelled_pairs`).
"""

from __future__ import annotations

import re

from remem.secrets_nouns import PASS_TYPED
from remem.secrets_shapes import PLACEHOLDER, Lazy, strong, very_strong, wifi_key

__all__ = ["labelled_pairs", "slash_pairs"]

_PAIR = Lazy(
    # or a Chinese mobile as the user: 后台登录 13912345678 / X
    r"(?<![\w@./-])(?P<user>[A-Za-z][\w.@-]{1,30}|1[3-9]\d{9})"
    r"\s*(?:/|\s:\s)\s*(?P<pw>[^\s/，。,;]{4,})"
)
_LOGIN_RIGHT_BEFORE = Lazy(r"(?i)(?<![a-z])(?:log[ -]?in|sign[ -]?in)\s*[:：]?\s+$")
_LOGIN = Lazy(
    r"(?i)(?<![A-Za-z])(?:log[ -]?in|logon|log\s+into|sign[ -]?in|creds|credentials?|account"
    r"|user(?:name)?|(?:admin\s+)?(?:panel|console|dashboard|portal)|online|wi-?fi|wlan|ssid)"
    r"(?![A-Za-z])"  # a plan managed online, a wifi: its name / key is a login too
    r"|账号|帐号|登录|登陆|用户名|账户|后台|控制台|管理页"
)


# a wifi's name (caps, a digit or a hyphen in it) / a long lower-case word with its symbol
# ("carpetshop!"), or three lower-case words or more joined as one ("rain-on-the-roof"), ending
# the note: the key ("OfficeNet / downstairs" says where, "ask-at-the-bar" whom to ask)
_WIFI_NAME_KEY = Lazy(
    r"(?i:wi-?fi|wlan|ssid)\s+(?=\S*[A-Z0-9_-])[A-Za-z][\w-]{3,30}\s+/\s+(?:[a-z]{8,24}[!#$*@]+$"
    r"|(?!(?:ask|see|check|on|in|at|behind|under|printed|written)[-_])"
    r"[a-z]{2,12}(?:([-_])[a-z]{1,12})(?:\1[a-z]{1,12}){1,4}(?=\s*[.!;]?\s*$))"
)
_ADMIN = frozenset("root admin administrator sa pi ubuntu postgres sysadmin superuser".split())
# a hotspot's name / key (手机热点：X / Y): a wifi's key is eight characters or more, so not a
# topic's pair (今日热点：AI / Web3); two names are no name and key (`_hotspot_key`)
_HOTSPOT = Lazy(r"(?i:hotspot)|热点")
_SLASH_AFTER = Lazy(r"\s*/")
_SLASH_BEFORE = Lazy(r"/\s*$")
_NAMES = Lazy(r"(?i)(?<![a-z])(?:names?|ssids?|called)(?![a-z])|名称|名字|叫")  # two networks


def slash_pairs(text: str) -> list[tuple[int, int]]:
    """ "admin / nasAdmin!2025" in a sentence about logging in, or after an admin's name
    ("root / Tr0ub4dor&3"), or a password's full shape ("zhoulei / Zl#gitee2024")."""
    found = []
    for m in _PAIR.finditer(text):
        start = max(0, text.rfind("\n", 0, m.start()))
        pw = m["pw"].rstrip(".,;:)，。：；！？")
        said = _LOGIN.search(text, start, min(len(text), m.end() + 40)) is not None
        spaced = re.search(r"\s/\s", m[0]) is not None  # "registry.acme.io/web:2.8.1" is a path
        said = said or (spaced and (m["user"].lower() in _ADMIN or very_strong(pw)))
        # an admin account's name, a slash, then letters and digits ending the clause: a login
        # unspaced too ("the till's back office admin/tillpass42"), not a path that goes on
        admin = m["user"].lower() in _ADMIN and re.match(
            r"\s*(?:[,;!，。；！]|\.?\s*$)", text[m.end() :]
        )
        said = said or bool(admin and len(pw) >= 6 and re.search(r"\d", pw))
        # 后台 daozha / 88886666: a login's user, then digits for its password
        # till login Sam / 4412: the login word right before the pair, a PIN of four or more
        # (a name's capital, the pair ending the clause: not "login page / 2024 redesign")
        named = m["user"][0].isupper() and re.match(r"\s*(?:[,.;!]|$)", text[m.end() :])
        right = _LOGIN_RIGHT_BEFORE.search(text, max(0, m.start() - 12), m.start())
        least = 4 if named and right else 6
        digits = said and spaced and pw.isdigit() and len(pw) >= least and m["user"].isalpha()
        digits = digits or bool(spaced and said and _WIFI_NAME_KEY.search(text, start, m.end()))
        alone = (spaced or " : " in m[0]) and _alone(text, m, pw)
        if (said and (strong(pw) or digits)) or alone or _hotspot_key(text, m, start, pw):
            found.append((m.start("pw"), m.start("pw") + len(pw)))
    return found


def _hotspot_key(text: str, m: re.Match[str], start: int, pw: str) -> bool:
    """A hotspot's name, a slash and a wifi's key (eight or more, "winding-road-77"), not
    two networks' names, a path or a list that goes on ("ChatGPT5 / Sora2024 / 新能源")."""
    hotspot = _HOTSPOT.search(text, start, m.start()) is not None
    names = _NAMES.search(text, start, m.start()) is not None
    listed = _SLASH_AFTER.match(text, m.end()) or _SLASH_BEFORE.search(text, start, m.start())
    return hotspot and not (names or listed) and len(pw) >= 8 and wifi_key(pw)


_LINE_END = Lazy(r"[ \t.!]*(?:\n|$)")
_HANDLE = Lazy(r"[_.@]|^[a-z]+\d+$")  # a user's name as a site takes it: "Kiln_Room", "sam84"
_INNER_DIGIT = Lazy(r"[A-Za-z]\d+[A-Za-z]")  # "ashglaze7pots": a digit inside the word
# the app or site the login is for, named first: "Deliveroo sam84 / ..." (a word or two, capitals
# first), 美团 lixiao99 / ... (a Chinese name of a few characters)
_SERVICE = Lazy(
    r"\s*(?:[\u4e00-\u9fff]{2,8}|[A-Z][\w&.'’-]{1,20}(?:\s+[A-Z][\w&.'’-]{1,20})?)\s*[:：]?\s*"
)


def _alone(text: str, m: re.Match[str], pw: str) -> bool:
    """A line that is nothing but a login, user / password: a handle, then a token of a
    password's shape, eight or more ("Kiln_Room / ashglaze7pots"; not "75% equities / 25%
    bonds", a product's pair)."""
    line_start = text.rfind("\n", 0, m.start()) + 1
    label = text[line_start : m.start()]  # the service's name before it perhaps (`_SERVICE`)
    if (label.strip() and not _SERVICE.fullmatch(label)) or not _LINE_END.match(
        text, m.start("pw") + len(pw)
    ):
        return False
    marked = _HANDLE.search(m["user"]) or very_strong(pw) or _INNER_DIGIT.search(pw)
    return bool(marked) and strong(pw) and len(pw) >= 8 and any(c.isdigit() for c in pw)


# A service's label and a colon, then its user and its password named: "Dropbox for client
# work: jo.prints, password paper-cuts!", "the NAS: admin, pw Harbour7" (a pair after a label
# is a login; a note's "Reminder: Sam, password reset sent" is talk: its user is a name and
# its value no password's shape)
_LABELLED = Lazy(  # or after a login word, no colon: "the till login sam4, pw rock-salt-lamp"
    r"(?i)(?:[:：]|(?<![a-z])(?:log[ -]?in|user(?:name)?|account)\s+)\s*(?P<u>[\w.@+-]{2,40})"
    r"(?:\s*[,，;；]\s*|\s+)"  # "jo@x.org pw ...": a space
    # the noun typed in haste too ("passwrd", 密玛): a login's label says what it is
    rf"(?:password|passcode|passwd|pwd|pw|{PASS_TYPED}|pass|密[码碼马玛]|秘码|蜜码)"
    r"\s*(?:is\s+|[:：=]\s*|[是为]\s*)?(?P<p>[^\s,;，；。]{4,40})"
)
_LABELLED_HINT = Lazy(r"(?i)pas|pss|psw|pw|密|蜜|秘码")
# a password with a slash between digits ("Tempo3/4!", a time signature): no path's shape
_SLASHED = Lazy(r"(?=[^/]*[A-Za-z])[\w!@#$%^&*?~+=.-]*\d/\d[\w!@#$%^&*?~+=.-]*")
_JOINED = Lazy(r"[A-Za-z]{2,}(?:[-_][A-Za-z]{2,})+[!?#*$@%&]*")  # "paper-cuts!": words joined
_CLAUSE_END = Lazy(r"\s*(?:$|[.,;!?)—–]|\s[-–]\s)")
_TALK = Lazy(r"(?i)reset|chang|expir|protect|manag|recover|forg[oe]t|polic|less|free|requir")


# A service's label, then an e-mail as its user and, after a comma, a token of a password's
# shape ending the clause, the password unnamed: "shop's cloud drive: ops@firm.co, Ledger_Blue_42"
# (not a contact's line: "Support: help@firm.co, Mon-Fri")
# Or the label "is" the e-mail: "the Apple ID for the tablet is x@y.com, Tide-Pool4"
_MAILED = Lazy(
    r"(?i)(?<![a-z])(?P<label>[a-z][^:：\n]{0,40}?)(?:[:：]|\s(?P<is>is|was)(?:\s+still)?(?=\s))\s*"
    r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+\s*[,，;；]\s*"
    r"(?P<p>[^\s,;，；。@]{6,40})(?=\s*(?:$|[.,;!?)，。；！]))"
)
_ACCOUNT = Lazy(
    r"(?i)(?<![a-z])(?:id|account|log[ -]?in|sign[ -]?in|user(?:name)?|profile)(?![a-z])"
)
# the password "is" said of the e-mail it logs in as: "the mail for shop@kiln is still clayp1geon"
# (a password's shape: a digit inside letters, or letters, digits and a symbol)
# or of the login itself, unchanged or new: "the streaming login is still popcorn7night"
_FOR_USER = Lazy(
    r"(?i)(?<![a-z])(?:(?P<label>[a-z][\w -]{0,30}?)\s+for\s+[\w.+-]+@[\w-]+(?:\.[\w-]+)*\s+"
    r"(?:is|was)\s+(?:still\s+|now\s+)?"
    r"|(?:log[ -]?in|account|e-?mail)\s+(?:is|was)\s+(?:still|now)\s+)"
    r"(?P<p>[^\s,;，；。@]{6,40})(?=\s*(?:$|[.,;!?)，。；！]))"
)
_NOT_LOGIN = Lazy(r"(?i)order|invoice|ticket|booking|ref|track|case|customer|member|number|no\.")
_CONTACT_LABEL = Lazy(
    r"(?i)(?<![a-z])(?:contact|e-?mail|support|help|sales|enquir|info|billing|invoice|accounts"
    r"|office|reception|phone|tel|address|write|reach|cc|from|to|reply|booking|order|ref|ticket)"
)


def labelled_pairs(text: str, low: str) -> list[tuple[int, int]]:
    """The password of each login given after a label's colon: its user, then it named (or,
    the user an e-mail, its shape alone)."""
    out = []
    for m in _MAILED.finditer(text) if "@" in text else ():
        pw = m["p"].rstrip(".!?)")
        mixed = any(c.isdigit() for c in pw) and any(c.isalpha() for c in pw)
        said = m["is"] is None or _ACCOUNT.search(m["label"])  # "is": an account's name
        if mixed and strong(pw) and len(pw) >= 8 and said and not _CONTACT_LABEL.search(m["label"]):
            out.append((m.start("p"), m.start("p") + len(pw)))
    out += _for_user(text, low)
    for m in _LABELLED.finditer(text) if _LABELLED_HINT.search(low) else ():
        pw = m["p"].rstrip(".,;:)!?") or m["p"]
        handle = _HANDLE.search(m["u"]) is not None or any(c.isdigit() for c in m["u"])
        ends = _CLAUSE_END.match(text, m.end()) is not None  # "password self-service down": talk
        joined = _JOINED.fullmatch(m["p"].rstrip(".,;:)")) and len(pw) >= 8 and ends
        slashed = _SLASHED.fullmatch(pw) is not None and len(pw) >= 6
        shaped = strong(pw) or slashed or (handle and joined and not _TALK.search(pw))
        if shaped and not PLACEHOLDER.match(pw):
            out.append((m.start("p"), m.start("p") + len(pw)))
    return out


def _for_user(text: str, low: str) -> list[tuple[int, int]]:
    """The password said of the e-mail it logs in as, or of the login, still or now."""
    out = []
    for m in _FOR_USER.finditer(text) if "@" in text or " still " in low or " now " in low else ():
        pw = m["p"].rstrip(".!?)")
        made_up = _INNER_DIGIT.search(pw) is not None or very_strong(pw)
        if made_up and re.search(r"[a-z]", pw) and not _NOT_LOGIN.search(m["label"] or ""):
            out.append((m.start("p"), m.start("p") + len(pw)))
    return out
