"""A secret said as where its value comes from instead of the value: "my bank PIN is the
last four digits of my phone number", "the alarm code is my son's birthday", "取款密码是
我手机号后六位". remem keeps the phone number and the birthday as memories of their own,
so such a memory gives the secret away to whoever reads the store: it is a secret too.

    derived_spans("My bank PIN is the last four digits of my phone number.")  # [(15, 54)]
    derived_spans("The extension is the last four of the main number.")       # [] (no secret)
    derived_spans("The Wi-Fi password is on the back of the router.")         # [] (where, not what)

A secret's noun (`secrets_nouns.KEY`: a password's or a code's), a link ("is", 是, 就是,
设成) and a number or date of a person's own right after it: the last digits of a phone,
ID or card number, a birthday, an anniversary, a house number, a car's plate.
"""

from __future__ import annotations

from remem.secrets_nouns import KEY
from remem.secrets_shapes import ZH_DIGITS, Lazy

__all__ = ["derived_spans"]

_SECRET_CLASSES = ("code", "codezh", "pass", "passzh")
_FEW = r"(?:four|4|six|6|three|3|five|5|two|2|eight|8|ten|10)"
_WHOSE = (
    r"(?:my|our|his|her|their|your|the|mum's|mom's|dad's|(?:[a-z]+['’]s))\s+"
    r"(?:(?:own|old|new|first|eldest|youngest|oldest|wife's|husband's|son's|daughter's"
    r"|kid's|kids'|child's|partner's|mum's|mom's|dad's|mother's|father's|dog's|cat's)\s+)*"
)
_NUMBERED = (
    r"(?:(?:mobile|cell|phone|home|work|office)\s+)?(?:phone|mobile|cell|landline|number"
    r"|id|id card|passport|card|licen[cs]e|driving licen[cs]e|registration|reg|plate"
    r"|number plate|postcode|post code|zip|zip code|account|ssn|social security number"
    r"|national insurance number|student number|staff number|employee number)(?:\s+number)?"
)
_DATED = (
    r"(?:birthday|birth ?date|date of birth|dob|birth year|year of birth|anniversary"
    r"|wedding (?:date|day|anniversary)|house number|door number|flat number|street number)"
)
_EN = Lazy(
    # "the PIN for the card is ...": what the secret is of, a word or two
    r"(?i)(?:\s+(?:for|of|on|to)\s+(?:the|my|our|his|her|their)?\s*[a-z'’-]+(?:\s+[a-z'’-]+)?)?"
    r"\s*(?:is|was|'s|’s|=|:|are|will be)\s+(?:just|simply|always|still|basically|only)?\s*"
    rf"(?P<v>(?:the\s+)?(?:last|first|final|end)\s+{_FEW}\s*(?:digits|numbers|figures"
    rf"|characters)?\s+(?:of|from|in|on)\s+{_WHOSE}{_NUMBERED}"
    rf"|{_WHOSE}{_DATED}|{_WHOSE}{_NUMBERED}(?:['’]s)?\s+(?:last|first)\s+{_FEW}"
    r"(?:\s*(?:digits|numbers|figures))?)(?![a-z])"
)
_ZH_WHO = r"(?:我|我们|他|她|你|老婆|老公|孩子|儿子|女儿|爸|妈|爸爸|妈妈|店里|公司)?(?:家)?的?"
_ZH_TAIL = rf"(?:的)?(?:后|前|末|最后)\s*[{ZH_DIGITS}0-9]+\s*位"
# a number or date of its own; a phone, an ID card or a bank card only by its digits
# ("密码是我手机收到的验证码" names where a code arrives, not what it is)
_ZH_SOURCE = (
    r"(?:(?:手机号码?|电话号码|身份证号码?|银行卡号|卡号|车牌号?|门牌号?|房号|工号|学号)"
    rf"(?:{_ZH_TAIL})?|(?:生日|出生年月日?|出生日期|出生年份|结婚纪念日|纪念日)"
    rf"|(?:手机|电话|身份证|银行卡|车牌){_ZH_TAIL})"
)
_ZH = Lazy(
    r"\s*(?:就是|是|用的是|用|设成了?|设的是|设置成了?|改成了?|为|=|：|:)\s*"
    rf"(?P<v>{_ZH_WHO}{_ZH_SOURCE})"
)


def derived_spans(text: str) -> list[tuple[int, int]]:
    """The spans of the references a secret's value is said by, in `text`."""
    out: list[tuple[int, int]] = []
    for noun in KEY.finditer(text):
        if noun.lastgroup not in _SECRET_CLASSES:
            continue
        if m := _EN.match(text, noun.end()) or _ZH.match(text, noun.end()):
            out.append(m.span("v"))
    return out
