"""What a login asks for besides a password (issue 29): a security question's answer, a
phone's unlock pattern, a one-time code just received (a bank's, by who got it or by its
text), a wallet's words numbered in halves, a password a command "takes", and the word a
caller asks for to prove who is on the line ('when the monitoring centre calls, the word they
ask for is "marigold"', 保安公司打电话来核实，要报的词是"蓝瓶子"), in Chinese and English.

    answer_spans("For the bank's maiden name question I put Kowalczyk")   # Kowalczyk
    answer_spans("The code they texted me is 682415")                     # 682415
    answer_spans("I forgot my security question, so I called the bank")   # []

Each rule wants a cue (a security question, an unlock pattern, a code received, numbered
words) and a value said after a link; talk about the thing ("the answer is written down",
"密保问题我还没设置") gives no value. Used by `remem.secrets_cues`.
"""

from __future__ import annotations

import re

from remem.secrets_last import YEAR
from remem.secrets_nouns import SAFE_WORD_FOR
from remem.secrets_shapes import PLACEHOLDER, SPOKEN, Lazy, excluded, scan, sentence

__all__ = ["PUBLIC_CODE", "QUESTION", "answer_spans"]

# A security question: named, or one of the questions banks ask.
_NAMED_QUESTION = (
    r"(?i:(?<![a-z])(?:security|secret|challenge|recovery|verification)\s+(?:question|answer)s?"
    r"(?![a-z]))|密保|安全问题|预留问题|提示问题|密码问题"
)
_ASKED_ABOUT = (  # what the questions ask
    r"(?i:(?<![a-z])(?:maiden\s+name|first\s+pet|first\s+car|childhood\s+(?:best\s+)?friend"
    r"|favou?rite\s+teacher|grow\s+up\s+on|street\s+(?:did\s+)?you\s+gr[eo]w"
    r"|city\s+(?:were\s+)?you\s+(?:were\s+)?born|name\s+of\s+your\s+first"
    r"|(?:city|town|place|where)\s+(?:where\s+)?(?:you|(?:your|my|our)\s+[a-z]+)\s+(?:were\s+born"
    r"|was\s+born"
    r"|grew\s+up|met|got\s+married)"  # "city where your parents met"
    r"|favou?rite\s+(?:food|book|movie|film|band|song|colou?r|sport|team|place|childhood\s+\w+)"
    r"|memorable\s+(?:word|answer))(?![a-z]))"
    r"|出生(?:城市|地|的城市|的医院)|最喜欢的(?:食物|老师|电影|书|颜色|歌|运动)|(?:母亲|父亲|妈妈|爸爸)的"
    r"(?:名字|姓名)|第一(?:只|个)宠物|小学(?:的)?(?:名字|校名|班主任)|初恋的名字"
)
QUESTION = Lazy(f"{_NAMED_QUESTION}|{_ASKED_ABOUT}")
_NAMED = Lazy(_NAMED_QUESTION)
_ASKED = Lazy(_ASKED_ABOUT)
# The question, then its answer: "security question first pet = Biscuit2009", "maiden name:
# Nowak"; after "is" only with a security question named ("my first pet was Rex" is a fact).
_QUESTION_IS = Lazy(
    rf"(?:{_ASKED_ABOUT}|{_NAMED_QUESTION})(?:的(?:名字|姓名|名称))?(?:\s+questions?)?(?:\s+answers?)?"
    r"(?:\s*[(（][^)）\n]{1,30}[)）])?"  # "security question answer (favorite teacher) is X"
    r"(?P<used>\s+I\s+(?:used|gave|put|set|chose|use)(?:\s+[^.;!?\n]{1,40}?)?)?"
    r"\s*"
    r"(?:(?P<eq>[:=：]|——|—|--)|\s(?:is|was)\s)\s*[\"“]?(?P<v>[^\s,;.!?\"”，。；][^,;!?\"”\n，。；]{0,30})"
)
# "answer ... is X", "I put X", "answer for the bank is X"; "，我填的是 X", "答案写的是 X"
_ANSWER = Lazy(
    r"(?i)(?<![a-z])(?:answer(?:s)?(?:\s+(?:to|for|on|of)\s+[^.;!?\n]{1,60}?)?\s*(?:\s(?:is|was)|:)"
    r"|I\s+(?:(?:always|usually|just|normally|still|then)\s+)?(?:put|wrote|gave|entered|typed|used"
    r"|chose|picked|set\s+it\s+to|said|say|answer(?:ed)?|use|put\s+down))\s+"
    r"[\"“]?(?P<v>[^\s,;.!?\"”][^,;!?\"”\n]{0,40})"
    r"|(?:答案|答|回答|填|写|设)[^。，,；;\n]{0,3}?(?:是|为|[:：])\s*(?P<z>[^\s。，,；;？?][^。，,；;\n]{0,24})"
)
_FOR_BANK = Lazy(
    r"(?i)^answers?\s+(?:for|on|with|at)\s+(?:the\s+|my\s+|our\s+)?[\w'’-]*\s*"
    r"(?:bank|account|login|recovery|reset)(?![a-z])"
)
_NOT_ANSWER = Lazy(  # talk about the answer, or a question back
    r"(?i)^(?:the|a|an|my|it|them|that|this|these|those|written|stored|saved|somewhere|in|on|at"
    r"|not|no|something|wrong|correct|right|easy|hard|what|which|who)(?![a-z])"
    r"|什么|吗|呢|哪|多少|在|写在|记在|放在|忘|随机|生成|保存|存在|存放|管理器|一样|相同|乱|^还?[没未不]"
)
# A phone's unlock pattern: a shape said in words.
_PATTERN = Lazy(
    r"(?i)(?<![a-z])(?:(?:unlock|lock[ -]?screen|screen[ -]?lock|swipe|phone)\s+pattern)\s*"
    r"(?:\s(?:is|was)\s+|[:：]\s*)(?P<v>[^\s,;.][^;!?\n]{2,80})"
    r"|(?:解锁图案|手势密码|图案锁|锁屏图案|图案密码)\s*(?:是|为|[:：])\s*(?P<z>[^。\n]{2,40})"
)
_NOT_PATTERN = Lazy(
    r"(?i)^(?:off|on|disabled|enabled|turned|not|too|easy|hard|simple|stored|saved|set|the\s+same)"
    r"(?![a-z])|^(?:关|开|没|不|太|很)"
)
# A one-time code as a screen or a text shows it, in pairs: "90 43 17", "41-08-26-93"
_PAIRS = r"\d{2}(?:[ -]\d{2}){2,3}(?![\d.,:/-]?\d)"
# A code just received or read off a device: the bare word "code" with who sent it, or the
# message that brought it ("code from the council's parking text: 90 43 17")
_CODE_GOT = Lazy(
    r"(?i)(?<![a-z])(?P<q>[a-z]+\s+)?code\s+(?:(?:they|he|she|it|the\s+bank|the\s+app|you)\s+"
    r"(?:just\s+)?(?:texted|sent|emailed|gave|read)(?:\s+(?:me|us|to\s+me))?"
    r"|(?P<msg>(?:on|from|in)\s+(?:the|my|that|a|an|their|his|her|our)\s+(?:[\w'’&.-]+\s+){0,4}?"
    r"(?:text|sms|message|e-?mail|notification|alert)(?:\s+message)?"
    r"(?:\s+from\s+(?:the\s+|a\s+)?[\w'’&.-]+(?:\s+[\w'’&.-]+){0,2}?)?)"  # "in the text from X"
    r"|(?:on|from|in)\s+(?:the|my|that)\s+[\w'’-]+(?:\s+[\w'’-]+)?)\s*(?:\s(?:is|was)\s+|[:：]\s*)"
    rf"(?P<v>\d{{3}}[ -]?\d{{3}}(?!\d)|(?P<p>{_PAIRS})|\d{{4,8}}(?!\d)|{SPOKEN})"
    r"(?P<more>\s+(?!(?:to|is|for|and|if|so|then|before|on)(?![a-z]))[a-z])?"
)
_CODE_SENT = Lazy(  # "the bank just texted a code, 583 027": the code after the sending
    r"(?i)(?<![a-z])(?:(?:texted|sent|emailed|messaged|gave)\s+(?:me\s+|us\s+|him\s+|her\s+)?(?:a"
    r"|the|another|this|my|his|her)\s+(?P<q>[a-z-]+\s+)?"
    # a message's verb needs no article: "the bank texted code 638204 for the card reader"
    r"|(?P<bare>texted|messaged|e-?mailed)\s+(?:me\s+|us\s+|him\s+|her\s+)?)"
    r"code\s*(?:[,:：—–]\s*|\s+of\s+|\s+)(?P<v>\d{3}[ -]?\d{3}(?!\d)|\d{4,8}(?!\d))"
)
# what follows a bare "texted code 4471": what it is for, or the clause ends ("code 1200 lines")
_BARE_NEXT = Lazy(r"(?i)\s*(?:$|[.,;:!?)—–]|(?:to|is|for|and|if|so|then|from|as|when)(?![a-z]))")
# A code a bank sent, by who got it or by the message: "the code Ellie got from the bank for the
# transfer was 739-204", "text from the bank says 904 311 to confirm", 银行短信说 482 913
_BANK = r"(?:the|my|our|his|her|their)\s+(?:bank|building\s+society|card\s+(?:company|issuer))"
_CONFIRM = r"(?:confirm|verify|approve|authori[sz]e|add|set\s+up)(?![a-z])"  # a step a code makes
_MSG = r"(?:text|sms|message)"
_SENDER = rf"(?:{_BANK}(?![a-z])|(?:the\s+|my\s+|our\s+)?[\w&.-]+(?:\s+[\w&.-]+){{0,2}}?)"
_BANK_SAID = Lazy(r"(?i)bank|building\s+society|card\s+(?:company|issuer)")
_FROM_BANK = Lazy(
    r"(?i)(?<![a-z])(?:code|otp|pin)\s+(?:[\w'’]+\s+){0,2}?(?:just\s+)?(?:got|received|was\s+sent"
    rf"|was\s+given)\s+from\s+{_BANK}(?![a-z])[^.;:!?\n]{{0,50}}?(?:\s(?:is|was)\s+|[:：]\s*)"
    r"(?P<v>\d{3}[ -]?\d{3}(?!\d)|\d{4,8}(?!\d))"
    # the text from the bank, the bank's text, the text the bank sent; or anyone's, sent to
    # confirm a step ("the council's text to verify the booking says 551 203": its `why`)
    rf"|(?<![a-z])(?:{_MSG}\s+from\s+{_SENDER}|{_SENDER}['’]s\s+{_MSG}"
    rf"|{_MSG}\s+(?:that\s+)?{_SENDER}\s+(?:just\s+)?sent(?:\s+(?:me|us))?)"
    # what the text was about: "text from the bank for the shop account said 204 118", or
    # what it is to confirm: "the building society's text to approve the transfer says 318 004"
    r"(?:\s+(?:(?:for|about|on)\s+(?:the|my|our|his|her|their)|(?P<why>to\s+" + _CONFIRM + r")"
    r"(?:\s+(?:the|my|our|his|her|their|a|an))?)(?:\s+[\w'’-]+){1,3}?(?=\s+(?:says|said|reads)))?"
    r"(?:\s+(?:just|now|earlier|today|again|this\s+morning)(?![a-z]))*"  # "... earlier says"
    r"\s*(?:says|said|reads|is|was|:)"
    # "said 448 201, pay", "says 4417 2290": in two groups
    r"\s*:?\s*(?P<w>\d{3,4}[ -]?\d{3,4}(?![ -]?\d|[.,]\d)|\d{6,8}(?!\d|[.,]\d))"
    r"(?!\s+(?!(?:to|is|for|and|if|so|then)(?![a-z]))[a-z])"  # not "says 904 311 payments"
    rf"|(?<![a-z]){_BANK}\s+(?:just\s+)?(?:texted|sent|messaged)\s+(?:me\s+|us\s+|him\s+|her\s+)?"
    r"(?P<t>\d{3}[ -]?\d{3}(?![\d.,])|\d{6,8}(?![\d.,]))"  # "the bank just texted 482 915 for"
    r"(?!\s+(?!(?:to|is|for|and|if|so|then)(?![a-z]))[a-z])"
    r"|(?:银行|网银|支付宝|微信支付)(?:刚刚?)?(?:(?:发来|发过来|发给我|发的|发了)的?"
    r"(?:短信|消息|信息|(?=\s*[:：]))|的?(?:短信|消息|信息))"  # 银行发的：X, what it sent
    r"[^。，,；;\n\d]{0,8}?(?:是|说|写着|[:：])\s*(?P<z>\d{3}[ -]?\d{3}|\d{6})"
    r"(?!\d|\s*[年月日元块万])"
)
# A one-time code any system sent, by the message or by how it came: "the text the ticketing
# system just sent me says 604918", "the portal gave me 551 203 to confirm", "login code just
# came through as 882146", "the portal just texted me seven three nine zero four one"
_OTP = rf"(?P<v>\d{{3}}[ -]?\d{{3}}(?!\d|[.,]\d)|{_PAIRS}|\d{{6,8}}(?!\d|[.,]\d)|{SPOKEN})"
_SYSTEM = r"(?:system|portal|app|site|website|service|platform|account)"
_SYSTEM_SENT = Lazy(
    r"(?i)(?<![a-z])(?:(?:text|sms|message|e-?mail)\s+(?:that\s+)?(?:the\s+)?(?:[\w-]+\s+){0,3}?"
    rf"{_SYSTEM}\s+(?:just\s+)?sent\s+(?:me|us)\s+(?:says|said|reads|is)\s*:?"
    rf"|{_SYSTEM}\s+(?:just\s+)?(?:(?:gave|sent)\s+(?:me|us)|(?:texted|messaged|emailed)(?:\s+(?:me|us))?)"
    # the code by its name or, after "a code", by a pronoun: "2FA just came through: 118 732",
    # "wants a code, mine came through as 662 918"
    r"|(?:code|2fa|otp|mfa|(?<=code,\s)(?:mine|it|one)|(?<=code\s)(?:and\s+)?(?:mine|it))"
    # "the code that came through for the shop's login: 715 402": what it came for between
    r"\s+(?:(?:that|which)\s+)?(?:just\s+)?(?:came\s+through|came\s+in|arrived)"
    r"(?:\s+(?:for|on|from|to)\s+[^.;:!?\n]{1,50}?)?\s*(?:as|[:：]|(?<=\s)(?:is|was))"
    # the message that carries the code, from whom, then it: "the security text from the bank
    # just came: 390115"
    r"|(?:verification|confirmation|security|login|otp|2fa|mfa)\s+(?:text|sms|message|e-?mail)"
    r"(?:\s+from\s+[\w.&'’-]+(?:\s+[\w.&'’-]+)?)?\s+(?:just\s+)?(?:came(?:\s+through|\s+in)?"
    r"|arrived)\s*(?:[:：]|as|with))\s*"
    rf"{_OTP}(?!\s+(?!(?:to|is|for|and|if|so|then|quick|before|can|please)(?![a-z]))[a-z])"
)
# A code of a one-time code's shape said with the hurry it expires in: 码 705 318，快点输，要过
# 期了; "code 441 902, quick, it runs out" (a shop's promo code by the word before it)
_EXPIRES = (
    r"[^。.!?\n]{{0,{}}}?(?:过期|失效|快点?输|赶紧|马上|分钟内"
    r"|(?<![a-z])(?:expir\w*|quick(?:ly)?|hurry|runs?\s+out|times?\s+out)(?![a-z]))"
)
_HURRIED = Lazy(
    r"(?i)(?:(?<![号尺条维邮编惠请销])码|(?<![a-z])(?P<q>[a-z]+\s+)?code)"
    r"\s*(?:是|为|[:：]|\s(?:is|was)\s)?\s*(?P<v>\d{3}[ -]?\d{3}(?!\d|[.,]\d))"
    rf"(?={_EXPIRES.format(30)})"
    # or a number a service sent, no noun, for a login and said to run out: "X sent 8821 to the
    # till for the login, it expires in five minutes" (money sent is for no login)
    r"|(?<![a-z])(?:sent|texted|messaged|pushed)\s+(?:me\s+|us\s+)?(?P<s>\d{4,8})(?![\d.,]\d)"
    r"(?=\s+(?:to|through|for)\s[^.!?\n]{0,50}?(?:log(?:\s?-?in|\s+on)|sign(?:\s?-?in|\s+on)|verif"
    rf"|confirm))(?={_EXPIRES.format(80)})"
)
PUBLIC_CODE = Lazy(  # a code that names a place or a result, not one that opens
    r"(?i)^(?:zip|postal|post|area|country|dial(?:ling)?|status|error|exit|return|http|response"
    r"|promo|discount|coupon|product|item|sku|airport|iata|station|tracking|dress|colou?r|source"
    r"|bar|qr|morse|tax|course|class|exam|swift|bic|sort|routing|zone|fare)\s+$"
)
_AUTHENTICATOR = Lazy(  # "Authenticator says 305 918", "my 2FA app shows 418 227"
    r"(?i)(?<![a-z])(?:authenticator|authy|2fa|totp|otp|mfa)(?:\s+app)?\s+(?:says|shows|reads"
    r"|is\s+showing|gave\s+me|gives|code\s+is)\s*:?\s*(?P<v>\d{3}[ -]?\d{3}(?!\d)|\d{6,8}(?!\d))"
)
# A wallet's words in numbered halves: "words 1 to 12: harbor swift ...", "words 13 to 24 are ..."
_NUMBERED_WORDS = Lazy(
    r"(?i)(?<![a-z])words?\s+\d{1,2}\s*(?:to|-|–|through|thru)\s*\d{1,2}\s*(?:[:：]|\s(?:are|were)\s)"
    r"\s*(?P<v>[a-z]{3,8}(?:[ ,]+[a-z]{3,8}){5,23})"
)
# "sudo on the Pi takes raspberry-lemon-91": what a login command takes is its password.
# "the camera logs in with fox_den_2020": what a thing logs in with is its password too.
_TAKES_PW = Lazy(
    r"(?i)(?:(?<![a-z])(?:sudo|su|login|log\s*in|sign\s*in|ssh|unlock|root|admin)(?![a-z])"
    r"[^.;:!?\n]{0,40}?\s(?:takes|wants|needs|accepts|asks\s+for)"
    r"|(?<![a-z])(?P<logs>(?:logs?|signs?)\s+(?:in|on)\s+(?:with|using)))\s+(?P<v>[^\s,;]+)"
)
_JOINED = Lazy(r"[a-z][_-]\w*\d|[!#$%&*?^]")  # "fox_den_2020", not "Windows10"


# A card of one-time codes read by cell: 动态口令卡 A3 是 8392，B7 是 1174; "grid card: B4 = 6621"
_GRID_CARD = Lazy(
    r"(?i)(?:动态)?(?:口令|密码|矩阵)卡|(?<![a-z])(?:otp|grid|matrix|security|code|tan)\s+card(?![a-z])"
)
_CELL = Lazy(r"(?<![A-Za-z0-9])[A-Za-z]\d{1,2}\s*(?:是|为|[:：=]|is)?\s*(?P<v>\d{3,8})(?!\d)")


def _grid(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for m in scan(_GRID_CARD, text, low, "卡", "card"):
        _, end = sentence(text, m.start())
        out += [c.span("v") for c in _CELL.finditer(text, m.end(), end)]
    return out


def _answer(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for m in scan(_ANSWER, text, low, "answer", "i ", "答", "填", "写", "设"):
        start, end = sentence(text, m.start())
        cue = QUESTION.search(text, start, end)
        if cue is None and text[max(0, start - 2) : start].rstrip().endswith(("?", "？")):
            # "安全问题：您的出生地？我填的是 X": a question named before (not one asked of
            # a person: "问：你最喜欢的食物？答：饺子")
            cue = _NAMED.search(text, sentence(text, start - 2)[0], start)
        bank = _FOR_BANK.search(m[0]) is not None  # "answer for the bank is", not "to my complaint"
        if cue is None and not bank:
            continue
        group = "v" if m["v"] is not None else "z"
        value = m[group].strip().rstrip("。.")
        named = group == "z" or value[:1].isupper() or m[0][-len(m[group]) - 1] in '"“'
        if not value or _NOT_ANSWER.search(value) or not named:
            continue  # "I put the questions off", "答案是什么来着"
        out.append((m.start(group), m.start(group) + len(m[group].rstrip("。. "))))
    return out


_QUESTION_WORDS = (  # one of which every question _QUESTION_IS reads holds
    *"security secret challenge recovery verification maiden pet car friend teacher".split(),
    *"grow street city name memorable 密保 安全问题 预留问题 提示问题 密码问题".split(),
    *"where favo 出生 喜欢 母亲 父亲 妈妈 爸爸 宠物 小学 初恋".split(),
)
_COUNT_WORD = Lazy(r"(?:one|two|three|four|five|six|seven|eight|nine|ten|all|both|none|some)")


def _question_is(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    matches = list(scan(_QUESTION_IS, text, low, *_QUESTION_WORDS))
    for m in matches:
        if _ASKED.match(text, m.start("v")) and (inner := _QUESTION_IS.match(text, m.start("v"))):
            matches.append(inner)  # "security answers: city where my parents met is Dundee"
        value = m["v"].strip().rstrip("。.")
        start, end = sentence(text, m.start())
        named = m["eq"] or m["used"] or _NAMED.search(text, start, end) is not None
        first = value.split()[0].lower() if value.split() else ""
        if _COUNT_WORD.fullmatch(first) or (first.isdigit() and len(first) < 4):
            continue  # "security questions: 3 of them", "... : two, both about school"
        asked = _ASKED.search(text, start, end) is not None  # 安全问题 is a lab's safety too
        made_up = value[:1].isupper() or any(c.isdigit() for c in value)
        made_up = made_up or (not value.isascii() and asked)
        if named and made_up and value and not _NOT_ANSWER.search(value):
            at = m.start("v") + (value.rfind("—") + 1)  # 密保：母亲的名字——李桂芬: the answer
            out.append((at, m.start("v") + len(value)))
    return out


# Answers listed under a security question named before: "Security questions: first pet
# Biscuit, mother's maiden name Ferreira", the value a name right after what is asked.
_LISTED = Lazy(  # the answer ends its item: "..., Ferreira." (not "Ms Lee said hi")
    rf"(?:{_ASKED_ABOUT})\s+(?P<v>(?:Mr|Mrs|Ms|Dr|Miss)?\.?\s*[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)"
    r"(?=\s*(?:[,;.!]|$|\s+and\s))"
)


_NAMED_WORDS = (
    *"security secret challenge recovery verification".split(),
    *"密保 安全问题 预留问题 提示问题 密码问题".split(),
)
_COLON = Lazy(r"[:：]")


def _listed(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for named in scan(_NAMED, text, low, *_NAMED_WORDS):
        _, end = sentence(text, named.start())
        colon = _COLON.search(text, named.end(), end)  # a heading: "Security questions ...:"
        if colon is None:
            continue
        for m in _LISTED.finditer(text, colon.end(), end):
            if not _NOT_ANSWER.search(m["v"]):
                out.append(m.span("v"))
    return out


def _not_sent(m: re.Match[str]) -> bool:
    """A code read off a message in pairs or as a year, no one-time code: "code on the receipt:
    12 30 45" (pairs only from a message), "... newsletter email: 12 03 24 about the trip" (a
    date, words after it), "code from the council text: 2024" (a year)."""
    if "msg" not in m.re.groupindex:
        return False
    if m["msg"] is None:
        return m["p"] is not None
    return m["more"] is not None or YEAR.fullmatch(m["v"]) is not None


# The word a caller asks for to prove who is on the line, no secret noun: "when the monitors
# call, the word they ask for is "marigold"", "the word to give them is haystack",
# 保安公司打电话来核实，要报的词是"蓝瓶子" (by a call and one who checks: an alarm's monitors,
# a bank, a school at pick-up; not "the word the teacher wants is 'therefore'")
_WORD_ASKED = Lazy(
    r"(?i)(?<![a-z])(?:the\s+(?:(?:call-?back|check|verbal|challenge)\s+)?word\s+(?:(?:that\s+)?"
    r"(?:they|he|she|you|we|the\s+[\w'’-]+(?:\s+[\w'’-]+){0,2})\s+(?:(?:will|['’]ll)\s+)?"
    r"(?:wants?|ask(?:s|ed)?\s+for|needs?|expects?|listens?\s+for|checks?\s+for|want\s+to\s+hear)"
    r"(?:\s+(?:to\s+hear|from\s+(?:you|us|me|them)))?"
    r"|to\s+(?:give|say|tell|use)(?:\s+(?:them|him|her|it))?)"
    r"|(?:call-?back|verbal|challenge)\s+word)\s+(?:is|was)\s*:?\s*"
    r"(?:[\"“‘'](?P<q>[^\"”’'\n]{3,40})[\"”’']|(?P<v>[A-Za-z][\w-]{3,30})(?=\s*(?:[,.;!?—–]|$)))"
    r"|(?:(?:要|得|需要)?(?:说|报|对|讲|给)的?(?:那个)?(?:词|字眼|暗语)|(?:他们|对方)要(?:听)?的(?:那个)?词)"
    r"(?:是|为)\s*[“\"「]?(?P<z>[\u4e00-\u9fff]{2,12})(?=[”\"」，,。；;！!\s]|$)"
)
_CALLED = Lazy(
    r"(?i)(?<![a-z])(?:ring|rings|rang|call|calls|called|calling|phone|phones|phoned|on\s+the\s+line"
    r"|call-?back)(?![a-z])|电话|来电|打来|回电"
)
_ZH_CHECKS = Lazy(r"报警|安保|保安|银行|核实|核对|身份|家人|孩子|接送")
_ZH_ASKED = Lazy(r"什么|多少|哪|吗|呢")


def _word_asked(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for m in scan(_WORD_ASKED, text, low, "word", "词", "字眼", "暗语"):
        start, end = sentence(text, m.start())
        checks = SAFE_WORD_FOR.search(text, start, end) or _ZH_CHECKS.search(text, start, end)
        group = next(g for g in "qvz" if m[g] is not None)
        if not (checks and _CALLED.search(text, start, end)) or _ZH_ASKED.search(m[group]):
            continue  # 要说的词是什么: a question, no word
        if group == "z" or not (PLACEHOLDER.match(m[group]) or excluded(m[group])):
            out.append(m.span(group))
    return out


def answer_spans(text: str, low: str) -> list[tuple[int, int]]:
    """Spans of the values these rules find in `text` (`low`: it lower-cased)."""
    out = _answer(text, low) + _question_is(text, low) + _listed(text, low) + _grid(text, low)
    out += _word_asked(text, low)
    for m in scan(_PATTERN, text, low, "pattern", "图案", "手势"):
        group = "v" if m["v"] is not None else "z"
        if not _NOT_PATTERN.search(m[group]):
            out.append(m.span(group))
    for got in (_CODE_GOT, _CODE_SENT):
        for m in scan(got, text, low, "code"):
            bare = "bare" in m.re.groupindex and m["bare"] and not _BARE_NEXT.match(text, m.end())
            if not (m["q"] and PUBLIC_CODE.match(m["q"]) or bare or _not_sent(m)):
                out.append(m.span("v"))
    for m in scan(_FROM_BANK, text, low, "bank", "building society", "card co", "card is", "银行",
                  "支付宝", "微信支付", "confirm", "verif", "approv", "authori"):  # fmt: skip
        if m["w"] is not None and m["why"] is None and not _BANK_SAID.search(m[0]):
            continue  # a text from anyone holds a code only when sent to confirm a step
        out.append(m.span(next(g for g in ("v", "w", "t", "z") if m[g] is not None)))
    for m in scan(_SYSTEM_SENT, text, low, "sent", "gave", "texted", "messaged", "emailed", "came",
                  "arrived"):  # fmt: skip
        before = text[max(0, m.start() - 24) : m.start()].split()
        coded = m[0][:4].lower() == "code" and before  # "the tracking code that came through"
        if not (coded and PUBLIC_CODE.match(before[-1] + " ")):
            out.append(m.span("v"))
    out += [m.span("v") for m in scan(_AUTHENTICATOR, text, low, "auth", "2fa", "otp", "mfa")]
    for m in scan(_HURRIED, text, low, "码", "code", "sent", "texted", "messaged", "pushed"):
        if not (m["q"] and PUBLIC_CODE.match(m["q"])):
            out.append(m.span("v" if m["v"] is not None else "s"))
    out += [m.span("v") for m in scan(_NUMBERED_WORDS, text, low, "word")]
    for m in scan(_TAKES_PW, text, low, "takes", "wants", "needs", "accepts", "asks for", " in ",
                  " on "):  # fmt: skip
        value = m["v"].rstrip(".!?)")
        letters, digits = any(c.isalpha() for c in value), any(c.isdigit() for c in value)
        # what one logs in with may be an app ("Windows10"): a made-up one joins its words
        joined = m["logs"] is None or _JOINED.search(value.lower())
        if letters and digits and len(value) >= 6 and not excluded(value) and joined:
            out.append((m.start("v"), m.start("v") + len(value)))
    return out
