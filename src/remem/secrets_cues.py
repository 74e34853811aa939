"""Secrets said without a secret noun, or said in a shape the noun-and-link reading of
`remem.secrets_prose` misses (issue 29): the value's shape plus a cue of access, unlock,
login or keys nearby, in Chinese and English.

    find_cued("I set the hotel room safe to 0619")            # an access code, no noun
    find_cued("the safe opens with 36-12-48")                  # an unlock verb
    find_cued("Gym locker combination: 18 right, 32 left, 7 right")   # a dial
    find_cued("高德的 key：bcc01e7da2499d80959c506ad8ca8dd7")   # a key-like string by a key cue
    find_cued("p as in papa, 4, capital M, 9, exclamation mark")  # [] (no secret named)

Each rule wants two things at once, a value of a secret's shape and a cue that it opens
something, so "set the thermostat to 2100" or "the zip code is 94110" stay ordinary. The
values' shapes are in `remem.secrets_shapes`.
"""

from __future__ import annotations

import re

from remem.secrets_access import access_spans, opens_with_word
from remem.secrets_access_words import NUM
from remem.secrets_answers import answer_spans
from remem.secrets_changed import changed_spans
from remem.secrets_described import card_code_spans, described_spans
from remem.secrets_dial import word_lock_spans
from remem.secrets_halves import half_spans
from remem.secrets_nouns import SAFE_WORD_FOR
from remem.secrets_pairs import labelled_pairs, slash_pairs
from remem.secrets_pieces import piece_spans
from remem.secrets_shapes import (
    ASIDE,
    PLACEHOLDER,
    SPOKEN,
    ZH_DIGITS,
    Lazy,
    excluded,
    first_strong,
    full_shape_spans,
    key_spans,
    scan,
    sentence,
    spelled_end,
    strong,
    very_strong,
)
from remem.secrets_told import told_spans, value_first
from remem.secrets_typed import typed_spans
from remem.secrets_vouchers import voucher_spans
from remem.secrets_wifi import wifi_spans

__all__ = ["find_cued"]


# A password said by its possessive: "my ATM pin's 9063", "the wifi password's Kx7!mR".
_POSSESSIVE = Lazy(  # "my ATM pin's 9063", "gate code's changed to 8080", "the door's 4471"
    r"(?i)(?<![a-z])(?:pin|passcode|pa?s{1,2}(?:w(?:or|ro|o|r)?d|owrd)|pass ?code|code|combo"
    r"|(?P<a>door|gate|garage|alarm|keypad|lock|safe))['’]s\s+(?:now\s+|still\s+|just\s+|been\s+)*(?:(?:changed|set|reset"
    r"|updated)\s+(?:to|as)\s+)?(?P<v>[^\s,;]+)"
)
_MEASURE = Lazy(r"(?i)\s*(?:mm|cm|m|ft|feet|foot|inch|inches|in|meters?|kg|lbs?|years?|%)\b")
# A noun, a few words of who or why, then the value: "The password IT gave me is X".
_GAP = Lazy(
    r"(?i)(?<![a-z])(?P<k>password|passcode|passphrase|pin|puk|(?:safe|code)\s?word|(?:verification"
    r"|security|access|door|gate|login|one-time|confirmation|sms|2fa|otp"
    # a thing that locks, named before its code: "the props room code tonight is 2044"
    r"|room|locker|(?:pad)?lock|safe|alarm|keypad|entry|garage|cupboard|cabinet|shed|cage|vault"
    r"|lobby)\s+code)\s+"
    r"(?P<gap>(?:[\w'’-]+\s+){1,10}?)(?:is|was)\s+(?:now\s+|still\s+|just\s+)*"
    r"(?:[\"“](?P<q>[^\"”\n]{3,60})[\"”]|(?P<v>[^\s,;]+))"
)
_GAP_TALK = Lazy(
    r"(?i)(?<![a-z])(?:polic(?:y|ies)|rules?|length|manager|field|reset|hint|requirements?"
    r"|format|strength|expiry|prompt|page|screen|box|link|form|dialog|setting|settings|change"
    r"|history|entry|attempts?|limit|timeout|not|never)(?![a-z])"
)
# "creds are admin/admin": a pair after a word of logging in, weak as its password may be
_CREDS = Lazy(
    r"(?i)(?<![a-z])(?:creds|credentials|log-?ins?|sign-?ins?|user(?:name)?\s+and\s+pass(?:word)?)"
    r"(?:\s+(?:for|to|on|of|at)\s+[^.\n:：]{1,40}?)?(?:\s+(?:is|are|was|were)\s+|\s*[:：]\s*)"
    r"(?P<u>[\w.@-]{2,30})\s*/\s*(?P<p>[^\s/，。,;]{3,})(?!/)"
    r"|(?:账号|帐号|用户名)(?:和|及|与|/)?密码[^。\n]{0,6}?(?:是|为|都是|[:：])\s*(?P<zu>[\w.@-]{2,30})\s*/\s*"
    r"(?P<zp>[^\s/，。,;]{3,})"
)
_NOT_PW = Lazy(
    r"(?i)(?:pass(?:word)?|pwd|email|e-mail|user(?:name)?|sso|oauth|otp|2fa|key|token|phone|sms"
    r"|密码|账号|手机)$"
)
_SPELL_KEY = Lazy(  # "the vault pass is: capital Q, w, e, r, 7, 7, hash"
    r"(?i)(?<![a-z])(?:pass(?:word|code|phrase)?|pin|code|key|combo|combination|pw"
    r"|(?P<a>keypad|lock|safe|door|gate|alarm|locker))(?![a-z])[^.\n]{0,24}?(?:\s(?:is|was)\s*:?|[:：])\s*"
)
# "if it asks for a PIN, it's 1357", "the new one is Cobalt-Finch-63", "a PIN? ours is 5521"
_PRONOUN = Lazy(
    r"(?i)(?<![a-z])(?:(?:it|that|ours|mine|yours|his|hers|theirs)(?:['’]s|\s+is)|(?:the\s+)?"
    r"(?:new|old|current|temp(?:orary)?)\s+one\s+is|now\s+it['’]s|use|try)\s+(?:now\s+|just\s+)?"
    r"(?P<v>[^\s,;]+)(?=\s*$|[.,;!?)]|\s+(?:and|but|then|for|on|at|to)\b)"
    # 其实就是 5529..., after a password described in the sentence before
    r"|(?:其实|实际上)?也?就是\s*(?P<z>[^\s,;，。；]+)(?=\s*(?:$|[。，,.;；！!]))"
)
_TRAIL = Lazy(  # "..., 5691" ends a line; or in words: "shed padlock, twenty-one sixteen"
    # or the code named after the pause: "the spare is in the lockbox, code 4471"
    rf"(?m)[,，][ \t]*(?:(?i:code|pin|combo)[ \t]+)?"
    rf"(?P<v>[*#]?\d{{4,12}}#?|{SPOKEN})(?:[ \t]*[,!—–][ \t]*{ASIDE})?[.!。]?[ \t]*$"
)
# The code said between commas right after its noun: "gave her the trunk combo, 0412, and left"
# (three digits for a combination's dial)
_APPOSED = Lazy(
    r"(?i)(?<![a-z])(?:(?P<c>combination|combo)|pin|passcode|(?:door|gate|alarm|(?:pad)?lock|locker"
    r"|safe|keypad|access|entry|garage|key\s?safe|lock\s?box)\s+code)s?\s*[,，—–]\s*"
    r"(?P<v>[*#]?\d{3,8}#?)(?=\s*(?:[,，;.!—–]|$))"
)
_CODE_NOUN = Lazy(
    r"(?i)(?<![a-z])(?:pin|passcode|pass\s+code|(?:door|gate|alarm|lock|access|entry|keypad|garage"
    r"|safe|unlock|screen|security|verification|digit)\s+code|combo|combination)(?![a-z])|密码|口令|验证码"
)
_CODE_ONLY = Lazy(  # things that open by a code alone: "in a lockbox by the door, 0912"
    r"(?i)(?<![a-z])(?:lock\s?box(?:es)?|key\s?safe|keypad|padlock|combination\s+lock)(?![a-z])"
)
_PASS_NOUN = Lazy(r"(?i)(?<![a-z])(?:pass(?:word|phrase)s?|pw|pwd)(?![a-z])")
_MONTH = Lazy(r"(?i)(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\s*$")
_ZH_SAME = Lazy(  # 微信支付密码跟银行卡密码一样，都是 201314
    r"(?:密码|口令|(?<![A-Za-z])(?:PIN|pin))(?:[^。\n]{0,20}?[，,]\s*"
    # 现在是 2580; 管理密码，是 X; 取款密码，他说是 X (who told it, then the value)
    r"(?:(?:[\u4e00-\u9fff]{1,4}?(?:说|讲|讲的|告诉我|交代))?(?:都|也|就|统一|全|现在)?是"
    r"|现在|(?:改|换|变)(?:成|为)了?)"
    # or said (not) changed, then the value: 密码锁改了，新的是 九八二零; 一直没改，是 X
    r"|[^。\n，,]{0,20}?[没未改换变][^。\n，,]{0,3}[，,]\s*(?:新的|现在的)?(?:还是|是|为)"
    r"|(?<=[改换]密码|[改换]口令)了?[，,])\s*"  # 改密码了，六一四八: changed, then the new one
    rf"(?P<v>[*#]?\d(?:[ -]?\d){{3,11}}#?|[!-~]{{6,40}}|[{ZH_DIGITS}]{{4,12}})"
    r"(?![\d!-~]|\s*[年月日号个位次天])"
)
_ZH_SAME_WORDS = tuple("是 现在 成 为 改 换 变 没 未".split())
_ZH_WORD_PASS = Lazy(  # 口令是 天王盖地虎: a watchword of words; 口令：长江；回令：昆仑, a pair
    r"(?:口令|暗号|接头暗号|密语|(?P<pair>回令|答令))\s*(?:是|为|：|:)\s*[“\"「]?"
    r"(?P<v>[\u4e00-\u9fff]{3,12}|[\u4e00-\u9fff]{2}(?=[；;，,。\s」”\"]|$))"
)
_ZH_NOT_WORD = Lazy(  # a question, or talk about the word rather than the word
    r"什么|多少|哪|吗|呢|^(?:不|没|在|放|由|被|写|要|需|已|很|都|也|还|就|的|了|对|错|忘|定期|每"
    r"|这个|游戏)"
)
_CUE_SENTENCE = Lazy(
    r"(?i)(?<![a-z])(?:pass(?:word|wd|code|phrase)?|pwd|pw|log(?:ged)?[ -]?in(?:to)?"
    r"|sign(?:ed)?[ -]?in|unlock|user(?:name)?)(?![a-z])|密码|口令|登录|解锁|开机"
)
_SEED = Lazy(  # a wallet's 12 or 24 words
    r"(?i)(?<![a-z])(?:seed|mnemonic|recovery|backup)(?:\s+(?:phrase|words))?(?:\s+in\s+order)?"
    r"\s*(?:[:：]|\s(?:is|are)\s*:?\s)"
    r"\s*(?P<v>[a-z]{3,8}(?:[ ,]+[a-z]{3,8}){11,23})"
)
_CREDS_AND = Lazy(  # "the shared login for the kiosk is kiosk and kiosk123"
    r"(?i)(?<![a-z])(?:creds|credentials|log-?ins?|sign-?ins?)(?:\s+(?:for|to|on|of|at)\s+"
    r"[^.\n:：]{1,40}?)?\s+(?:is|are|was|were)\s+(?P<u>[\w.@-]{2,30})\s+and\s+"
    r"(?P<p>(?=\S*\d)(?=\S*[A-Za-z])[^\s,;]{4,})"
)
_ZH_PAIR = Lazy(  # 用户名 root 密码 root, 账密 admin admin888: weak as the password may be
    r"(?:用户名|账号|帐号|登录名|(?<![A-Za-z])(?:user(?:name)?|login))\s*(?:是|为|[:：])?\s*"
    r"(?P<u>[A-Za-z0-9_.@-]{2,30})\s*[，,;；]?\s*(?:(?:登录)?密码|口令|(?<![A-Za-z])(?:password|pwd|pw|pass))"
    r"\s*(?:是|为|[:：=])?\s*(?P<p>[!-~]{2,40})"
    r"|账密\s*[:：]?\s*(?P<zu>[!-~]{2,30})\s*[ /]\s*(?P<zp>[!-~]{3,40})"
)
# "pass is" in a login's sentence; "the pass for the station tablet is X" (a pass for a thing
# is its password when the value is made up; a bus pass's is a price or a date)
_LOGIN_PASS = Lazy(
    r"(?i)(?<![a-z])pass(?P<for>\s+(?:for|to|on|of)\s+(?:the\s+|my\s+|our\s+|your\s+)?"
    r"[\w'’-]+(?:\s+[\w'’-]+){0,4}?)?\s+(?:is|was)\s+"
)
_DEVICE = Lazy(  # what a pass logs into, not a ticket's event ("the pass for the festival")
    r"(?i)(?<![a-z])(?:tablet|ipad|iphone|phone|laptop|computer|pc|mac|desktop|router|wi-?fi"
    r"|account|app|server|nas|console|portal|dashboard|e-?mail|kiosk|terminal|workstation|mixer"
    r"|camera|dvr|nvr|tv|printer|controller|vpn|database|db|admin|email|inbox|login"
    r"|spotify|netflix|hulu|disney\+?|youtube|twitch|steam|xbox|psn|instagram|facebook|tiktok"
    r"|paypal|amazon|ebay|etsy|gmail|icloud|dropbox)s?(?![a-z])"
)
_DEVICE_PASS = Lazy(_DEVICE.pattern + r"\s+$")  # the device right before "pass"
_FIRST_TOKEN = Lazy(r"[^\s,;]+")
_WORDS_DIGITS = Lazy(r"[A-Za-z]+(?:[-_.][A-Za-z]+)*[-_.]?\d{2,}")  # "swan-lake-44"
# "it's Harbour_Lights_7 for the bar's netflix": a made-up token said to be a login's
_IT_FOR = Lazy(
    r"(?i)(?<![a-z])(?:it['’]s|it\s+is)\s+(?:just\s+|still\s+|now\s+)?(?P<v>[^\s,;]{8,40})"
    r"\s+for\s+(?P<f>[^.,;!?\n]{1,40})"
)
_LOGIN_CUE = Lazy(  # an e-mail address given too is the login: "paypal is x@y.com, the pass is"
    r"(?i)(?<![a-z])(?:user(?:name)?|log[ -]?in|sign[ -]?in|account)(?![a-z])|\w@\w[\w-]*\.[a-z]"
)
_REPEAT = Lazy(  # "eight 8s", "8 个 8": a value said by how many times a digit repeats
    r"(?i)(?<![a-z0-9])(?:\d{1,2}|four|five|six|seven|eight|nine|ten|twelve)\s+(?P<d>\d)['’]?s(?![a-z])"
    r"|(?:\d{1,2}|[四五六七八九十])\s*个\s*(?P<z>[\d零一二三四五六七八九])(?!\d)"
)
_REPEAT_CUE = Lazy(r"(?i)pass|pin|code|wi-?fi|key|密码|口令|码")


_DIGIT = Lazy(r"\d")
_POSSESSIVE_WORDS = tuple(
    f"{noun}{mark}"
    for noun in ("pin", "code", "word", "wrd", "wd", "combo", "door", "gate", "garage", "alarm")
    for mark in "'’"
) + tuple(f"{noun}{mark}" for noun in ("keypad", "lock", "safe") for mark in "'’")
_SPELL_WORDS = (
    "pass",
    "pin",
    "code",
    "key",
    "combo",
    "pw",
    "lock",
    "safe",
    "door",
    "gate",
    "alarm",
)
_NOUN_WORDS = ("pin", "code", "pass", "pw", "combo", "combination", "密码", "口令", "验证码")
_CUE_WORDS = ("pass", "pw", "log", "sign", "unlock", "user", "密码", "口令", "登录", "解锁", "开机")


def _said(text: str, low: str, digits: bool) -> list[tuple[int, int]]:
    """Passwords tied to their noun in ways the link grammar does not read."""
    out = []
    for m in scan(_POSSESSIVE, text, low, *_POSSESSIVE_WORDS):
        v = m["v"].rstrip(".,;:)")
        if m["a"] and not (v.isdigit() and len(v) >= 4) or _MEASURE.match(text, m.end()):
            continue  # "the door's 4 feet wide": a thing's number is a code when it is one
        if (v.isdigit() and len(v) >= 4) or (strong(v) and len(v) >= 6):
            out.append((m.start("v"), m.start("v") + len(v)))
    for m in scan(_GAP, text, low, "passw", "passc", "passp", "pin ", "puk", " code", "word"):
        if _GAP_TALK.match(m["gap"]):  # "password manager we use is X": talk
            continue
        code = re.search(r"(?i)pin|puk|code$", m["k"]) is not None
        if m["q"] is not None:  # 'safe word for the school run is "purple tractor"'
            safe = m["k"].lower().startswith("safe")
            if safe and not SAFE_WORD_FOR.search(text, *sentence(text, m.start())):
                continue  # 'the safe word in our improv class is "pineapple"': no secret
            if not code and not PLACEHOLDER.match(m["q"]):
                out.append(m.span("q"))
            continue
        if len(m["gap"].split()) > 6:
            continue  # a long aside before a bare value: more likely another thing's
        v = m["v"].rstrip(".,;:)")
        if (code and re.fullmatch(r"[*#]?\d{4,10}[*#]?", v)) or (
            not code and strong(v) and len(v) >= 6
        ):
            out.append((m.start("v"), m.start("v") + len(v)))
    for m in scan(_ZH_PAIR, text, low, "密码", "口令", "账密", "pass", "pw"):
        group = "p" if m["p"] is not None else "zp"
        pw = m[group].rstrip(".,;:!?)。")
        user = m["u"] if m["u"] is not None else m["zu"]
        en = m[0][:1].isascii()  # "username admin password reset": talk unless it looks set
        shaped = strong(pw) or any(c.isdigit() for c in pw) or pw == user
        if pw and not (PLACEHOLDER.match(pw) or _NOT_PW.match(pw)) and (shaped or not en):
            out.append((m.start(group), m.start(group) + len(pw)))
    for m in scan(_CREDS_AND, text, low, " and "):
        out.append((m.start("p"), m.start("p") + len(m["p"].rstrip(".!?)"))))
    for m in scan(_CREDS, text, low, "/"):
        en = m["u"] is not None
        user, (start, _) = (m["u"] if en else m["zu"]), m.span("p" if en else "zp")
        pw = (m["p"] if en else m["zp"]).rstrip(".,;:!?)")
        if not (_NOT_PW.match(pw) or _NOT_PW.match(user) or pw.startswith(("<", "$", "{"))):
            out.append((start, start + len(pw)))
    for m in scan(_SPELL_KEY, text, low, *(_SPELL_WORDS if digits or "," in low else ())):
        at = m.end()
        if (e := spelled_end(text, at)) is None and (c := text.find(":", at, at + 30)) > 0:
            at, e = c + 1 + len(text[c + 1 :]) - len(text[c + 1 :].lstrip()), None
            e = spelled_end(text, at)  # "is 4 digits: 2, 0, 1, 9"
        if e is not None and (m["a"] is None or sum(ch.isdigit() for ch in text[at:e]) >= 3):
            out.append((at, e))
    out += _pronoun(text, low) + value_first(text, low) + _for_a_login(text, low)
    for m in scan(_ZH_SAME, text, low, *_ZH_SAME_WORDS):
        v = m["v"]  # 改了密码，现在是 shop_2023: words joined to digits, a login's too
        if v[0].isdigit() or v[0] in "*#" + ZH_DIGITS or strong(v) or _WORDS_DIGITS.fullmatch(v):
            out.append(m.span("v"))
    paired = "回令" in text or "答令" in text  # a challenge and its countersign
    for m in scan(_ZH_WORD_PASS, text, low, "口令", "暗号", "密语", "回令", "答令"):
        if not _ZH_NOT_WORD.search(m["v"]) and (len(m["v"]) > 2 or paired):
            out.append(m.span("v"))
    return out + _parts_and_shapes(text, low, digits)


def _for_a_login(text: str, low: str) -> list[tuple[int, int]]:
    """ "it's X for the Y": X has letters, digits and a symbol (no name's shape), Y logs in."""
    out = []
    for m in scan(_IT_FOR, text, low, " for "):
        v = m["v"].rstrip(".!?")
        joined = "_" in v[1:-1] and strong(v) and re.search(r"\d", v) is not None
        if (very_strong(v) or joined) and _DEVICE.search(m["f"]):
            out.append((m.start("v"), m.start("v") + len(v)))
    return out


def _parts_and_shapes(text: str, low: str, digits: bool) -> list[tuple[int, int]]:
    """Halves, a login's "pass is", a wifi's value, a digit said N times."""
    out: list[tuple[int, int]] = []
    out += half_spans(text, low)
    for m in scan(_LOGIN_PASS, text, low, "pass "):
        start, end = sentence(text, m.start())
        if _LOGIN_CUE.search(text, start, end):
            out += first_strong(text, m.end(), end, 6)
        elif _DEVICE_PASS.search(text, max(start, m.start() - 20), m.start()):
            # "the PayPal pass is", a service's own: letters and digits ("judo-throw-44")
            if (v := _FIRST_TOKEN.match(text, m.end())) is not None:
                word = v[0].rstrip(".!?")
                shaped = strong(word) or _WORDS_DIGITS.fullmatch(word)  # not "2024-ready"
                if shaped and re.search(r"\d", word) and len(word) >= 6:
                    out.append((v.start(), v.start() + len(word)))
        elif m["for"] is not None and _DEVICE.search(m["for"]):
            out += [
                (a, b)
                for a, b in first_strong(text, m.end(), min(end, m.end() + 30), 6)
                if re.search(r"[A-Za-z]", text[a:b]) and re.search(r"\d", text[a:b])
            ]
    out += wifi_spans(text, low)
    for m in scan(_REPEAT, text, low, *(("s", "个") if digits else ("个",))):
        start, _ = sentence(text, m.start())
        if _REPEAT_CUE.search(text, start, m.start()):
            out.append(m.span())
    return out


def _pronoun(text: str, low: str) -> list[tuple[int, int]]:
    """A value after "it's" or "the new one is", or at the end after a comma, in a sentence
    that named a code or a password before it; or a code between commas after its noun."""
    out = []
    for m in scan(_PRONOUN, text, low, *_NOUN_WORDS):
        start, _ = sentence(text, m.start())
        if start > 1 and not text[start : m.start()].strip():  # "... a four digit code. It's 1066"
            start = sentence(text, start - 2)[0]
        group = "v" if m["v"] is not None else "z"
        v = m[group].rstrip(".)") or m[group]  # "it's 3061." ends the sentence
        span = (m.start(group), m.start(group) + len(v))
        if _CODE_NOUN.search(text, start, m.start()) and re.fullmatch(NUM, v):
            out.append(span)
        elif _PASS_NOUN.search(text, start, m.start()) and strong(v) and len(v) >= 6:
            out.append(span)
    for t in _TRAIL.finditer(text) if "," in text or "，" in text else ():
        start, _ = sentence(text, t.start())
        named = any(n.search(text, start, t.start()) for n in (_CODE_NOUN, _CODE_ONLY, _PASS_NOUN))
        if named and not _MONTH.search(text, start, t.start()):
            out.append(t.span("v"))
    for m in scan(_APPOSED, text, low, "combo", "combination", "pin", "passcode", " code"):
        if m["c"] is not None or len(m["v"].strip("*#")) >= 4:
            out.append(m.span("v"))
    return out


# what comes right before a value said at last: "..., so Marcus77", "，也就是 19900712wang"
_TOLD_COLON = (":", "：", "i.e.", "namely")
_TOLD = (" so", " which is", " that is", " that's", "也就是", "就是", "即")
_AFTER_WORD = Lazy(  # a made-up token after these is where or what for, not the value
    r"(?i)(?:^|\s)(?:on|in|into|for|from|to|at|by|with|via|of|the|a|an|my|our|your|its|their"
    r"|his|her|this|that|version|v)\s*$"
)


def _later_value(token: str, before: str) -> bool:
    """Later in a password's sentence, a token of a password's length and shape: letters
    and digits, eight or more, not after a preposition ("reset it on Windows11")."""
    letters, digits = any(c.isalpha() for c in token), any(c.isdigit() for c in token)
    shaped = letters and digits and len(token) >= 8 and strong(token)
    return shaped and _AFTER_WORD.search(before) is None


def _cued_strong(text: str, low: str) -> list[tuple[int, int]]:
    """A token of a password's shape in a sentence about a password or logging in."""
    out = []
    for m in scan(_CUE_SENTENCE, text, low, *_CUE_WORDS):
        start, end = sentence(text, m.start())
        window = text[m.end() : min(end, m.end() + 100)]
        for t in re.finditer(r"[^\s,，;；()（）\"“”]+", window):
            token = t[0].rstrip(".:!?")
            before, after = window[: t.start()].rstrip(), window[t.end() :]
            told = before.endswith(_TOLD_COLON) or (
                before.endswith(_TOLD)
                and re.match(r"\s*(?:$|[.,;!?。，；！？])", after) is not None
            )  # "..., so Marcus77." ends its clause; "so IT2024 release notes" goes on
            if _PASS_NOUN.fullmatch(m[0]) and _later_value(token, window[: t.start()]):
                told = True  # "so just store Pumpkin2016", "which are 20931 and Blue.Canoe.77"
            if very_strong(token) or (told and strong(token) and len(token) >= 5):
                out.append((m.end() + t.start(), m.end() + t.start() + len(token)))
                break
    return out


def find_cued(text: str) -> list[tuple[str, tuple[int, int]]]:
    """(kind, span) of each secret `text` states by a cue rather than by its noun."""
    low = text.lower()
    digits = _DIGIT.search(text) is not None  # most rules want a digit in the value
    found = [("password", sp) for sp in key_spans(text)]
    if not digits and _WORDS_CUE.search(low) is None:
        return found  # most ordinary texts: no digit and none of the words a rule needs
    spoken = digits or _SPOKEN_HINT.search(low) is not None  # "seven seven three one"
    spans = access_spans(text, low) + changed_spans(text, low) if spoken else []
    spans += _said(text, low, digits) + opens_with_word(text, low)
    spans += _cued_strong(text, low) if digits else []
    spans += slash_pairs(text) if "/" in text or " : " in text else []
    spans += labelled_pairs(text, low)  # each of its rules has its own gate
    spans += answer_spans(text, low) + described_spans(text, low) + told_spans(text, low)
    spans += piece_spans(text, low) + word_lock_spans(text, low) + typed_spans(text, low)
    spans += full_shape_spans(text) if digits and _FULL_HINT.search(text) else []
    spans += voucher_spans(text, low) if digits else []  # a gift card's code spends it
    spans += [m.span("v") for m in scan(_SEED, text, low, "seed", "mnemonic", "recovery", "backup")]
    spans += [
        m.span(m.lastgroup or 0)
        for m in scan(_ZH_LOGIN_ON, text, low, *_ZH_LOGIN_WORDS)
        if not excluded(m[m.lastgroup or 0])
    ]
    found += [("password", sp) for sp in spans]
    return found + [("card_number", sp) for sp in card_code_spans(text, low, digits)]


# A machine's login said by how it starts or lets one in, no noun: 电脑开机是 X, 锁屏 X,
# 那台电脑 X 就能进 (lower-case letters then digits, typed pinyin perhaps: a made-up token; a
# product's name is capitalised, Windows11, iPhone15; one capital inside a word typed in
# pinyin, muBan2024, is a password's "大写" letter)
_TOKEN = r"(?=[a-z]{2})(?=[A-Za-z]{5})[a-z]+(?:[A-Z][a-z]+)?[a-z_.-]*\d{2,}[!@#$]*(?![\w.!@#$-])"
_ZH_LOGIN_ON = Lazy(
    rf"(?:开机|锁屏|解锁|进系统)(?:密码)?\s*(?:[要得先]|需要)?"  # 开机要输 X: what is typed
    rf"(?:是|为|用|输入?|[:：])?\s*(?P<v>{_TOKEN})"
    r"|(?:电脑|主机|笔记本|平板|收银机)[^。，,；;\n]{0,8}?\s*"
    rf"(?P<w>{_TOKEN})\s*(?:就能|就可以|就|才能)(?:进|登)"
    # or digits right after how it starts, ending the clause: 锁屏258036，...
    r"|(?:开机|锁屏|解锁)(?:密码)?\s*(?P<d>\d{4,8})(?=\s*(?:[，,。；;！!]|$))"
    # what one logs in with, a token of letters and digits ending the clause: 登录用 Xyz2024
    # (a capital first too: typed pinyin with its capital, not a product by a word after it)
    r"|(?:登录|登陆)(?:时|的时候)?(?:要|得)?用\s*"
    r"(?P<l>[A-Z]?[a-z]{2,}(?:_[a-z]+)*[_.-]?\d{2,}[!@#$]*)(?=\s*(?:[，,。；;！!]|$))"
)
_ZH_LOGIN_WORDS = tuple("开机 锁屏 解锁 进系统 就 登录用 登陆用 时用 候用 要用 得用".split())
_FULL_HINT = Lazy(r"[!@#$%^&*?~]")
_SPOKEN_HINT = Lazy(
    r"(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|teen|ty|double)"
    rf"[\s,-]|[{ZH_DIGITS}]{{4}}|[{ZH_DIGITS}]十|十[{ZH_DIGITS}]"  # 三十八: a dial's number
    # 锁：五一八, 挂锁零六零, 密码二四七, 是三位数的，七二九: a lock's three
    rf"|[:：是为锁码，,]\s*[{ZH_DIGITS}](?: ?[{ZH_DIGITS}]){{2}}"  # 锁 三 八 一: spaced
)
# Every word a rule without a digit in its value needs (the spelled, worded and paired ones).
_WORDS_CUE = Lazy(
    r"pass|pin|code|word|combo|wi-?fi|wlan|hotspot|seed|mnemonic|recovery|backup|助记词|短语|恢复词"
    r"|备份词|cred|log|sign|wallet|crypto|ledger|trezor|metamask|钱包|combin"
    r"|user|/|key|unlock|open|个|口令|暗号|密语|密码|admin|half|six|twelve|[前后]六|[前后]十二"
    r"|词|字眼|暗语"  # the word a caller asks for (`secrets_answers`)
    r"|answer|question|pattern|i put|i wrote|i gave|maiden|pet|密保|问题|图案|手势|答案"
    r"|q\s*[:：.]|问\s*[:：]|@"
    r"|lock|door|gate|safe|garage|alarm|cabinet|vault|dial|门|锁|柜|箱|盒|转盘|拨盘|报警|警报"
    r"|lower\s?case|小写"  # a value then how it is typed (`secrets_typed`)
)
