"""Secrets given in pieces (issue 29): a one-time code said in groups of digits (or whole,
after what it is for: "2FA for the payroll portal 662018", "sign-in code X-204981", or in
capitals and digits as an app shows it: "the code came through as Q7X2K"; a code
someone sent, said to have come in ("the code from the bank's app just came in, 417 262", 码刚
发过来, or from where a moment ago: "code from the council login just now, 518 204") or one to
approve a thing is one too), a wallet's recovery words (its "wallet words") given whole or a
part at a time, a code keyed a digit at a time ("9 1 1 4", moved from `remem.secrets_access`), a
one-time code said by how it came and that it runs out (平台发的那个六位数 962731，要过期了;
发来一个 847362，五分钟内有效) or said whole with what it is for ("the shop sent 663190 to
confirm the change", "type 917 402 into the bank screen, it times out"), a crypto wallet's
twelve words after a colon, in Chinese and English (a password or a code in halves:
`remem.secrets_halves`).

    piece_spans("the OTP is 482 913", ...)                                  # 482 913
    piece_spans("网银动态口令是 273 840", ...)                              # 273 840
    piece_spans("seed words, first six: lemon drift rocket pilot saddle humor", ...)
    piece_spans("后六个：velvet orange ...，和前六个连起来", ...)          # the six words
    piece_spans("Revolut texted me a code for the payee: 481 227", ...)      # 481 227
    piece_spans("order 273 840 shipped", ...)                               # []

A code read off a phone comes in the groups the screen shows it in ("482 913"), and
recovery words are sent in parts so no one message holds them all; each piece is still
the secret. Each rule wants the cue that names the code or the words
before the piece, or, for a piece sent alone, the words that join it to the rest. Used
by `remem.secrets_cues`.
"""

from __future__ import annotations

import re

from remem.secrets_answers import PUBLIC_CODE
from remem.secrets_shapes import MONEY, Lazy, scan, sentence

__all__ = ["piece_spans"]

# -- a one-time code in groups: "the OTP is 482 913", 动态口令刚刚是 273 840 ----------------
_ONE_TIME = Lazy(
    r"(?i)(?<![a-z])(?:otp|one[- ]time\s+(?:pass)?code|one[- ]time\s+password"
    r"|(?:2fa|mfa)(?:\s+code)?"  # "2FA for the payroll portal 662018"
    r"|(?:verification|security|log-?in|sign-?in|log-?on|sms|auth(?:entication)?|authenticator"
    r"|approval|authori[sz]ation|two[- ]factor|2-?step|text|e-?mail|reset|(?P<c>confirmation))"
    r"\s+code"
    # the message that brings one: "the security text has 804 215", "verification sms: ..."
    r"|(?:verification|security|log-?in|sign-?in|confirmation|bank)\s+(?:text|sms|message)s?"
    # a code someone sent is a one-time code: "the building society sent me a code for the payee"
    r"|(?:sent|texted|messaged|e-?mailed|pinged)\s+(?:(?:me|us|you|him|her|them)\s+)?"
    r"(?:a|the|another|my|your|his|her|their|our)\s+(?:new\s+|fresh\s+)?(?P<q>[a-z-]+\s+)?code"
    r"|code\s+(?:that\s+)?(?:[\w'’-]+\s+){1,3}?(?:sent|texted|messaged|e-?mailed)"  # "code X sent"
    # or a code said to have come, from whom perhaps: "the code from the bank's app just came in"
    r"|code\s+(?:from\s+[^.;:,\n\d]{1,40}?\s+)?(?:(?:that|which)\s+)?(?:just\s+|finally\s+)?"
    r"(?:came|come|arrived)(?:\s+(?:through|in))?"
    # or from whom a moment ago, the coming unsaid: "code from the tax portal just now, ..."
    r"|code\s+from\s+[^.;:,\n\d]{1,40}?\s+(?:just\s+now|a\s+(?:moment|minute|few\s+minutes)\s+ago)"
    # or a code said to approve or confirm something: "code from the bank to approve it"
    r"|code\s+(?:from\s+[^.;:\n\d]{1,30}?\s+)?to\s+(?:approve|confirm|verify|authori[sz]e|sign\s+in"
    r"|log\s+in))"
    r"(?![a-z])|动态口令|动态码|动态密码|验证码|校验码|短信码|一次性密码|令牌码"
    r"|(?:发来|发过来|发给我|短信)的?码"  # 平台发来的码: a code sent is a one-time code
    # or said to have come: 平台的码刚发过来 (not a QR code's, a promo's, a size's)
    r"|(?<![号尺条维邮编惠请销区代源乱页价])码(?:刚刚?|才|已经)?(?:发过来|发来|到了?|来了)"
    r"|(?:刚才|刚刚)[^，,。；;\n\d]{1,12}?的码"  # 刚才税务网站的码: a moment ago, from where
)
# six digits in threes a service sent: "the bank texted me 602 913, read it back", or a
# text said to hold them: "the text from the bank says 602 913"
_SENT = Lazy(  # "the bank just texted 418 277 for the transfer": who to is unsaid, what for after
    r"(?i)(?<![a-z])(?:(?:sent|texted|messaged)\s+(?:me|us|you|him|her)|texted|messaged"
    r"|(?:text|sms|message)(?:\s+(?:from|off)\s+[^.;\n\d]{1,30}?)?\s+(?:says|said|reads|read"
    r"|shows|showed|has|had|gave|with))\s*[:：]?\s*(?P<v>\d{3} \d{3})"
    r"(?![\d.,:/-]?\d|\s*(?:(?!(?:for|to|as|so|and|then|before|on)\s)[a-z%]|[£$€]))"
)
_GROUPS = Lazy(  # two to four groups of digits, as a screen or a text message shows them
    r"(?<![\d.,:/-])\d{2,4}(?:[ -]\d{2,4}){1,3}(?!\d|[.,:/-]\d|\s*(?:[a-z%]|[秒分天次元个位]))"
)
_GROUPS_FIRST = Lazy(r"(?<![\d.,:/-])\d{2,4}(?:[ -]\d{2,4}){1,3}(?![\d.,:/-]?\d)")  # a link follows
# ... or whole, six to eight digits, a service's letter before them perhaps ("X-204981"), after
# what it is for: "2FA for the payroll portal 662018" (not a year, a sum, a phone's tail)
_WHOLE_CODE = Lazy(  # it may touch Chinese: 我手机收到的是731458
    r"(?<![A-Za-z0-9_.,:/£$€¥#-])(?<!\d\s)(?:[A-Z]-)?\d{6,8}"
    r"(?![\w%]|[.,:/-]\d|\s*(?:[秒分天次元个位]"
    r"|(?!(?:for|to|and|then|before|so|if|please|pls|on|in)\s)[A-Za-z]))"  # not "in 600000 ms"
)
# ... or in capitals and digits, as an authenticator or a game's app shows it ("came through as
# Q7X2K", 验证码刚发过来，是 K7P2X): two letters or more and a digit, five to eight long
_CAPS_CODE = Lazy(r"(?<![\w-])(?=[A-Z0-9]*\d)(?=(?:\d*[A-Z]){2})[A-Z0-9]{5,8}(?![\w-]|\.\w)")
_OTHER_NUMBER = Lazy(  # not "sent a code to my phone, 734 009": the phone it came to, no number
    r"(?i)(?<![a-z])(?:number|no\.|order|ticket|ref(?:erence)?|case|invoice|line"
    r"|(?<!my\s)(?<!his\s)(?<!her\s)(?<!our\s)(?<!your\s)(?<!their\s)phone)(?![a-z])"
    r"|#|号|单|电话|热线"
)
_WORD_BEFORE = Lazy(r"(?i)(?<![a-z])[a-z]+\s+$")  # the word before a bare "code"
_ONE_TIME_WORDS = ("otp", "one-time", "one time", "2fa", "mfa", "code", " text", " sms", " message",
                   "动态", "验证码", "校验码", "短信码", "一次性", "令牌码", "的码",
                   "来码", "码刚", "码才", "码已", "码发", "码到", "码来")  # fmt: skip


# A one-time code said by how it came and that it runs out, no code named: 平台发的那个六位数
# 962731，快点发我，要过期了; "the bank sent 962731, read it back before it expires" (four or
# six digits, or as many as said; not points or a voucher's sum that expire)
_RUNS_OUT = Lazy(
    r"(?i)(?<![a-z])(?:expir\w*|runs?\s+out|times?\s+out|timed\s+out)(?![a-z])|过期|失效|有效期"
    r"|(?:分钟|秒|小时)(?:内|之内)有效"  # 五分钟内有效: good for minutes only
    r"|(?i:(?<![a-z])(?:good|valid|live)\s+for\s+(?:\d+|an?|one|two|three|five|ten|fifteen)\s+"
    r"(?:min|sec|hour)\w*)"  # "only good for 5 minutes"
)
_CAME = Lazy(
    r"(?i)(?<![a-z])(?:sent|texted|messaged|text|sms)(?![a-z])|发的|发来|发了|发过来|发给?我的|短信|收到的"
)
_BARE_CODE = Lazy(
    r"(?<![\d.,:/£$€¥-])(?:(?P<n>[四六4-8])位数?(?:字|码)?\s*)?(?P<v>\d{4,8})"
    r"(?![\d.,:/-]?\d|\s*(?:[a-z%]|[秒分天次元块个位积点]))"
)
_SUM = Lazy(
    r"(?i)(?<![a-z])(?:points?|vouchers?|credits?|miles|balance)(?![a-z])|积分|优惠|券|余额|元|块"
)
_WHEN = Lazy(r"(?i)(?<![a-z])(?:on|in|at|by|until|till|since|from|of|year)\s*$|[年月]\s*$")
_YEARISH = Lazy(r"(?:19|20)\d\d(?:0[1-9]|1[0-2])?$")  # 2025, 202401: a year, a month
_ONE_TIME_COUNT = dict(zip("四六45678", [4, 6, 4, 5, 6, 7, 8], strict=True))


def _expiring(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for cue in scan(_RUNS_OUT, text, low, "expir", "run", "time", "过期", "失效", "有效", " for "):
        start, end = sentence(text, cue.start())
        if not _CAME.search(text, start, end) or _SUM.search(text, start, end):
            continue
        for m in _BARE_CODE.finditer(text, start, cue.start()):  # the code, then that it expires
            n, before = len(m["v"]), text[max(start, m.start() - 12) : m.start()]
            if _WHEN.search(before) or _OTHER_NUMBER.search(text, start, m.start()):
                continue  # "sent on 1204", 合同编号 202401: a date, another number
            counted = m["n"] is not None and _ONE_TIME_COUNT[m["n"]] == n
            if counted or (m["n"] is None and n in (4, 6) and not _YEARISH.match(m["v"])):
                out.append(m.span("v"))
        break
    return out


# A one-time code said whole with no code named: one a service sent, or one to key into a
# screen, and what it is for (to confirm, to log in) or that it runs out: "the shop sent
# 663190 to confirm the change", "type 917 402 into the bank screen, it times out"
_SENT_WHOLE = Lazy(
    r"(?i)(?<![a-z])(?:(?:sent|texted|messaged|e-?mailed|got|received)(?:\s+(?:me|us|you|him|her|them))?"
    r"|(?:type|enter|key|put|punch)(?:\s+in)?"
    # the message it came in: "got a text with 448120", "an email came through with 730915"
    r"|(?:a|an|the|their|his|her|my|your)\s+(?:[\w'’-]+\s+){0,2}?(?:text|sms|message|e-?mail"
    r"|notification)(?:\s+(?:from|off)\s+[^.;\n\d]{1,30}?)?(?:\s+(?:came|come|arrived)"
    r"(?:\s+(?:through|in))?)?\s+(?:with|saying|says|reading|reads|containing|that\s+says))"
    r"\s+(?P<v>\d{6,8}|\d{3}\s\d{3}|\d\d\s\d\d\s\d\d)"  # read in threes or in pairs
    r"(?![\d.,:/-]?\d|\s*(?:[%£$€¥]|(?!(?:to|for|from|into|in|on|so|and|then|before|if)\s"
    r"|(?:came|arrived)(?![a-z]))[a-z]))"
    r"(?P<into>\s+(?:in|into|on)\s+(?:the\s+|my\s+|your\s+|their\s+)?(?:[\w'’-]+\s+){0,2}?"
    r"(?:screen|app|site|website|portal|page|field|box)s?(?![a-z]))?"
    # 手机上收到 302918，说是登录用的: six digits come, and what they are for
    r"|(?:收到|发来|发了|发过来|短信里?有|短信上?写着|短信里?说)了?(?:一个|个|的是)?\s*"
    r"(?P<z>\d{6})(?![\d.]|\s*[元块个号件位次张])"
)
_FOR_WHAT = Lazy(
    r"(?i)(?<![a-z])(?:confirm|verify|approve|authori[sz]e|log\s?-?in|sign\s?-?in"
    r"|read\s+(?:it|them)\s+(?:back|out|to)"  # a code read to whoever asks for it
    r"|(?:type|key|punch|tap)\s+(?:it|them|that)\s+in"  # a code that came, to be typed in
    r"|security|two[- ]factor|2fa)(?![a-z])|登录|登陆|验证|确认|注册|绑定|改密码|填"
)


def _sent_whole(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for m in scan(_SENT_WHOLE, text, low, "sent", "text", "message", "mail", "got", "sms",
                  "notification", "received", "type", "enter", "key", "put", "punch", "收到",
                  "发", "短信"):  # fmt: skip
        start, end = sentence(text, m.start())
        group = "v" if m["v"] is not None else "z"
        keyed = re.match(r"(?i)type|enter|key|put|punch", m[0]) is not None
        # a round sum or a month is no code: "received 500000 in donations", "enter 202406"
        digits = m[group].replace(" ", "")
        shaped = not (digits.endswith("000") or _YEARISH.match(digits))
        if (keyed and m["into"] is None) or not shaped or MONEY.search(text, start, end):
            continue  # "enter 150000 in cell B2", "sent 250000 for the deposit"
        if _FOR_WHAT.search(text, start, end) or _RUNS_OUT.search(text, start, end):
            out.append(m.span(group))
    return out


# the groups said first, the cue naming them: "texted 602 913 as my OTP", 273 840 是验证码
_NAMED_AS = Lazy(
    r"(?i)\s*(?:[,，—–-]\s*)?(?:as|is|was|for)\s+(?:(?:my|the|your|our|his|her|their|a|an"
    r"|this|today['’]s|new)\s+)+(?:[a-z'’]+\s+){0,2}$"  # "as my bank's one-time code"
    r"|\s*(?:[,，]\s*)?(?:就|这)?(?:是|为|作为)(?:我|你|他|她|我们)?的?[\u4e00-\u9fff]{0,4}$"
)


# a bank's card of one-time codes, read by row: 动态口令卡第三组 402719, "OTP card row 2: ..."
_CARD_ROW = Lazy(
    r"(?i)\s*(?:卡|card)\s*(?:第[一二三四五六七八九十\d]{1,3}(?:组|行|格|个)|(?:row|group|line)\s*\d{1,2})"
    r"\s*(?:是|为|[:：]|is)?\s*(?P<v>\d{6,8})(?!\d)"
)


def _codes_before(text: str, cue: re.Match[str], start: int) -> list[tuple[int, int]]:
    """The last digit groups before `cue` in its sentence, tied to it by a link alone."""
    before = list(_GROUPS_FIRST.finditer(text, max(start, cue.start() - 40), cue.start()))
    if not before or not _NAMED_AS.match(text[before[-1].end() : cue.start()]):
        return []
    return [before[-1].span()]


# what names a thing's reference, not a login's code: "the order code came through as AB12CD"
_REF_CODE = Lazy(
    r"(?i)(?:order|booking|reservation|ref(?:erence)?|ticket|case|invoice|voucher|gift|coupon"
    r"|referral|invite|share|delivery|shipping|product|seat|gate|flight)\s+$"
)


def _caps_code(text: str, cue: re.Match[str], end: int) -> tuple[int, int] | None:
    """A code of capitals and digits soon after the cue, no other number's word between nor
    a reference's before a bare "code"."""
    word = _WORD_BEFORE.search(text, 0, cue.start()) if cue[0][:4].lower() == "code" else None
    if word is not None and _REF_CODE.search(word[0]):
        return None
    m = _CAPS_CODE.search(text, cue.end(), min(end, cue.end() + 64))
    if m is None or re.search(r"\d", text[cue.end() : m.start()]):
        return None
    return None if _OTHER_NUMBER.search(text, cue.end(), m.start()) else m.span()


def _grouped_codes(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for cue in scan(_ONE_TIME, text, low, *_ONE_TIME_WORDS):
        start, end = sentence(text, cue.start())
        if (row := _CARD_ROW.match(text, cue.end())) is not None:
            out.append(row.span("v"))  # a code card's row, whole
            continue
        if cue["q"] is not None and PUBLIC_CODE.match(cue["q"]):
            continue  # "they emailed me a promo code": a code to hand out
        bare = cue[0][:4].lower() == "code"
        word = _WORD_BEFORE.search(text, start, cue.start()) if bare else None
        if word is not None and PUBLIC_CODE.match(word[0]):
            continue  # "the tracking code the courier sent": a code that names a thing
        # "OTP from the bank for the March payment is 602 913": what it is for, then it
        m = _GROUPS.search(text, cue.end(), min(end, cue.end() + 64))
        if m is None and cue["c"] is None and (caps := _caps_code(text, cue, end)) is not None:
            out.append(caps)
            continue
        if m is None and cue["c"] is None:  # a booking's confirmation code is its reference
            m = _WHOLE_CODE.search(text, cue.end(), min(end, cue.end() + 64))
            m = None if m is not None and _YEARISH.match(m[0]) else m  # "the 2fa since 202401"
        spans = [m.span()] if m else _codes_before(text, cue, start)
        if m is not None and _OTHER_NUMBER.search(text, cue.end(), m.start()):
            continue  # 验证码收不到，工单号 482 913: another number's
        out += [(a, b) for a, b in spans if 6 <= sum(c.isdigit() for c in text[a:b]) <= 8]
    sent = ("sent", "texted", "messaged", "text", "sms", "message")
    return out + [m.span("v") for m in scan(_SENT, text, low, *sent)]


# -- recovery words in parts: "first six: maple ocean ...", 前六个：lemon drift ... ---------
_SEED_CUE = Lazy(  # a wallet's words are its recovery words: "her wallet words, in a hurry: ..."
    r"(?i)(?<![a-z])(?:seed\s+(?:phrase|words)|mnemonic|(?:recovery|backup|secret|wallet)\s+(?:words"
    r"|phrase|seed)|(?P<bare>seeds?))(?![a-z])|助记词|恢复短语|种子短语|恢复词|备份词"
    r"|钱包[\u4e00-\u9fff]{0,6}?(?:单词|词组|短语)"  # 钱包那十二个单词: its words, counted perhaps
)
_WALLET = Lazy(  # a bare "seed" is a wallet's only beside one: "the seed catalogue lists ..."
    r"(?i)(?<![a-z])(?:wallet|ledger|trezor|metamask|crypto|bitcoin|btc|eth|ethereum)(?![a-z])"
    r"|钱包|比特币"
)
# six words or more of a wallet's list (lower case, 3-8 letters), after a colon or "is"
_WORDS = Lazy(  # "the rest goes ...", "it starts with ...": a list read out goes on
    r"(?i:(?<![a-z])(?:is|are|goes|go|runs|reads|continues(?:\s+with)?"
    r"|(?:starts|begins|ends)\s+with)\s+|[:：]\s*)"
    r"(?P<v>[a-z]{3,8}(?:[ ,]+[a-z]{3,8}){5,23})(?![A-Za-z])"
)
_PROSE = frozenset(  # words of a sentence, never of a wallet's list
    "the and are was were with that this from have has will you your our into been they them "
    "then than what when where which its not but just also very some".split()
)


# A crypto wallet named, then a list as long as its recovery words (12, 15, 18, 21 or 24), no
# seed named: "the club's crypto wallet, keep it offline: velvet orbit ... noble" (a wallet
# alone may be a purse: "wallet shopping list: bread milk ...")
_CRYPTO = Lazy(
    r"(?i)(?<![a-z])(?:(?:crypto\w*|bitcoin|btc|eth|ethereum|web3|cold|hardware)\s+(?:[\w'’-]+\s+)"
    r"{0,2}?wallets?|ledger|trezor|metamask)(?![a-z])|(?:比特币|加密货币|数字|冷|硬件)[\u4e00-\u9fff]{0,4}?钱包"
)
_WALLET_COLON = Lazy(r"(?i)(?<![a-z])wallets?\s*[:：]$|钱包\s*[:：]$")  # "coinbase wallet: ..."
_WALLET_LIST = Lazy(r"[:：]\s*(?P<v>[a-z]{3,8}(?:[ ,]+[a-z]{3,8}){11,23})\s*(?:[.。!]?\s*$|\n)")
_CRYPTO_WORDS = ("crypto", "bitcoin", "btc", "eth", "ledger", "trezor", "metamask", "web3",
                 "比特币", "加密货币", "钱包")  # fmt: skip


def _wallet_list(text: str, low: str) -> list[tuple[int, int]]:
    if not any(w in low for w in (*_CRYPTO_WORDS, "wallet")):
        return []
    crypto = _CRYPTO.search(text) is not None
    out = []
    for m in _WALLET_LIST.finditer(text):
        words = re.findall(r"[a-z]+", m["v"])
        named = crypto or _WALLET_COLON.search(text, 0, m.start() + 1) is not None
        if named and len(words) in (12, 15, 18, 21, 24) and not _PROSE.intersection(words):
            out.append(m.span("v"))
    return out


def _seed_parts(text: str, low: str) -> list[tuple[int, int]]:
    cue = _SEED_CUE.search(text) if any(w in low for w in _SEED_WORDS) else None
    if cue is None or (cue["bare"] and _WALLET.search(text) is None):
        return _wallet_list(text, low)
    out = []
    pos = cue.end()
    while (m := _WORDS.search(text, pos)) is not None:
        start, value = m.start("v"), m["v"]
        if "," in value and re.match(r"\s*[:：]", text[m.end() :]):
            value = value[: value.rindex(",")]  # "..., last six: hover ...": a label ends it
        words = re.findall(r"[a-z]+", value)
        if len(words) >= 6 and value.islower() and not _PROSE.intersection(words):
            out.append((start, start + len(value)))
            pos = m.end()
        else:  # "starts with a b c, and the rest goes ...": the list may start inside
            pos = start
    return out


# A part of a word list named by its count and place, no wallet named: 后六个：velvet orange
# ..., "last six: ...", "words 7-12 are ..."; the words the other part completes
_PART_CUE = Lazy(
    r"(?i)(?<![a-z])(?:(?:first|last|next|other|remaining|final|second)\s+(?:six|twelve|6|12)"
    r"(?:\s+words)?|words\s+(?:1|7|13|19)\s*(?:-|to|through|–)\s*(?:6|12|18|24))(?![a-z])"
    r"|(?:前|后|剩下的?|另外的?|最后的?|第二组)(?:六|十二|6|12)个(?:词|单词)?"
)
_JOIN = Lazy(  # the list said to be one with another part
    r"(?i)(?<![a-z])(?:together|joined|combined|complete|full\s+(?:list|set|phrase)|the\s+rest"
    r"|other\s+(?:six|half))(?![a-z])|连起来|拼起来|合起来|完整|凑齐|另外六个|剩下的"
)


def _counted_parts(text: str, low: str) -> list[tuple[int, int]]:
    """Six words or more after a part's count ("last six:"), with no comma between them (a
    list copied off a card) or with the other part named in the text."""
    out = []
    for cue in scan(_PART_CUE, text, low, "six", "twelve", "6", "12", "六", "十二"):
        m = _WORDS.match(text, cue.end())
        if m is None:
            continue
        value, start = m["v"], m.start("v")
        words = re.findall(r"[a-z]+", value)
        if len(words) < 6 or not value.islower() or _PROSE.intersection(words):
            continue
        if "," not in value or _JOIN.search(text) is not None:
            out.append((start, start + len(value)))
    return out


_SEED_WORDS = ("seed", "mnemonic", "recovery", "backup", "secret", "wallet", "助记词", "短语",
               "恢复词", "备份词", "钱包")  # fmt: skip


# -- a code keyed a digit at a time: "9 1 1 4", "5-5-2-9", 按 2 5 8 0 ---------------------
# Single digits one by one, four or more: "9 1 1 4", "5-5-2-9", 按 2 5 8 0. Said this way a
# number is being keyed in; an order, a phone or a price is never spaced digit by digit.
_ONE_BY_ONE = Lazy(
    r"(?<![\w.,:/#*+\[(-])\d(?P<s>[ -])\d(?:(?P=s)\d){2,4}(?!\w|[.,/-]\w|[ -]\d|\s*[\])])"
)
_OF_THINGS = Lazy(  # "1 2 4 8 seconds": a series of amounts
    r"(?i)\s*(?:seconds?|secs?|ms|minutes?|mins?|hours?|days?|weeks?|times|items|pages|mb|gb|kb"
    r"|px|pt|feet|ft|inches|cm|mm|meters?|kg|lbs?|dollars|percent|%|秒|分钟|小时|天|次|个|元)(?![a-z])"
)
_CALL = Lazy(r"(?i)(?<![a-z])(?:call|dial|phone|text|ext|extension)(?![a-z])|电话|拨")
_LIST_HEAD = Lazy(  # "ages 3 5 7 9", "rooms 1 2 3 4": a list of small numbers
    r"(?i)(?<![a-z])(?:ages?|sizes?|scores?|formation|rows?|rooms?|steps?|grades?|levels?|versions?"
    r"|ratios?|lanes?|platforms?|seats?|tables?|chapters?|pages?|items?|kids|children|players"
    r"|years|numbers|digits|numbered|labell?ed|marked)\s*(?:are|were|of|:)?\s*$"
    r"|号码?\s*(?:是|为|[:：])?\s*$"  # 房间号 8 3 0 7, 座位号: a thing's number, not a key's
)


def _keyed(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for m in scan(_ONE_BY_ONE, text, low, " ", "-"):
        start, _ = sentence(text, m.start())
        listed = _LIST_HEAD.search(text, start, m.start()) or _OF_THINGS.match(text, m.end())
        if not (listed or _CALL.search(text, start, m.start())):
            out.append(m.span())  # 4 to 6 digits: a phone said digit by digit has more
    return out


def piece_spans(text: str, low: str) -> list[tuple[int, int]]:
    """Spans of the pieces these rules find in `text` (`low`: it lower-cased)."""
    out = _grouped_codes(text, low) + _seed_parts(text, low) + _counted_parts(text, low)
    return out + _keyed(text, low) + _expiring(text, low) + _sent_whole(text, low)
