"""Contact details (SPEC EX3): phone numbers, e-mail addresses, QQ and WeChat accounts.
They are sensitive for the automatic extractor, which drops any sentence holding one,
but not secrets: an explicit save of "Mom's new number is 617-555-0198" is kept, as the
user asked (issue 29: a memory system that refuses contacts fails ordinary facts).

    CONTACT_KINDS            # {"phone_number", "email", "im_account"}
    CONTACT_RULES            # (kind, pattern, check) for `remem.secrets`' scan

A company's public line (400-820-8820, 1-800-..., a hotline) and a role mailbox
(support@...) are not even contacts of a person.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from remem.secrets_shapes import Lazy

__all__ = ["CONTACT_HINTS", "CONTACT_KINDS", "CONTACT_RULES"]

CONTACT_KINDS = frozenset({"phone_number", "email", "im_account"})

_IM_ACCOUNT = Lazy(  # QQ and WeChat numbers: personal contacts, like a phone number
    r"(?<![A-Za-z])(?:QQ|qq|Qq)\s*(?:号码?)?\s*(?:是|为|：|:|=)?\s*(?P<v>[1-9][0-9]{4,11})(?![0-9])"
    r"|微信(?:号)?\s*(?:是|为|：|:)\s*(?P<w>[A-Za-z][\w-]{5,19})"
)
_CN_MOBILE = Lazy(r"(?<![0-9])(?:\+?86[\s-]?)?1[3-9][0-9](?:[\s-]?[0-9]{4}){2}(?![0-9])")
_PHONE = Lazy(
    r"(?<![\w+])\+[1-9][0-9]{0,2}[\s.-]?(?:\([0-9]{1,4}\)[\s.-]?)?[0-9]{1,4}"
    r"(?:[\s.-]?[0-9]{2,4}){1,4}(?![0-9])"
    r"|(?<![0-9])\([0-9]{3}\)\s?[0-9]{3}[-.\s][0-9]{4}(?![0-9])"
    r"|(?<![0-9-])[0-9]{3}-[0-9]{3}-[0-9]{4}(?![0-9-])"
    r"|(?<![0-9-])0[0-9]{2,3}-[0-9]{7,8}(?![0-9-])"
)
# A number said as a phone's, in the groups people write one in: "phone is 020 7946 0813",
# a UK area code and a six-digit line: "01983 294771"
_SAID_PHONE = Lazy(
    r"(?i)(?:(?<![a-z])(?:phone|tel|telephone|mobile|cell|landline|fax)(?:\s+(?:number|no\.?))?"
    r"(?:['’]s)?\s*(?:is|was|[:：])?\s*(?:now\s+)?|(?:电话|手机|座机)(?:号码?)?\s*(?:是|为|[:：])?\s*)"
    r"(?P<v>\+?\d{2,5}(?:[ .-]\d{2,6}){1,4})(?!\d|[.-]\d)"  # 01983 294771: a 6-digit line
)


_EMAIL = Lazy(
    r"(?<![A-Za-z0-9._%+-])(?P<local>[A-Za-z0-9][A-Za-z0-9._%+-]*)@"
    r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![A-Za-z0-9-])"
)
_ROLE = Lazy(  # a shared mailbox of a company or a tool, not a person's address
    r"(?i)git|hg|support|help|info|contact|sales|hello|noreply|no-reply|do-not-reply|team|office"
    r"|billing|press|jobs|careers|hr|feedback|service|enquiries|inquiries|marketing|security"
    r"|abuse|postmaster|webmaster|admin|privacy|legal"
)


def _digit_count(text: str) -> int:
    return sum(ch.isdigit() for ch in text)


_TOLL_FREE = ("400", "800", "888", "877", "866", "855", "844", "833")
_HOTLINE = Lazy(
    r"(?i)(?:hotline|helpline|help line|support line|customer service|toll[- ]free|call center"
    r"|front desk|reception|dial-in|dial in|switchboard|main line|help ?desk|concierge|front office"
    r"|前台|总台|服务台"
    r"|热线|客服|售后|服务电话|投诉电话|咨询电话|总机)[^\n。.]{0,16}$"
)


def _personal(m: re.Match[str], *, toll_free: bool = True) -> bool:
    """A phone number of a person, not a company's public line (400-820-8820, 1-800-...)."""
    digits = re.sub(r"[^0-9]", "", m[0])
    national = digits[1:] if len(digits) == 11 and digits[0] == "1" else digits
    if toll_free and national[:3] in _TOLL_FREE and len(national) == 10:
        return False
    return _HOTLINE.search(m.string, max(0, m.start() - 40), m.start()) is None


_Check = Callable[[re.Match[str]], bool]
CONTACT_RULES: list[tuple[str, Lazy, _Check]] = [
    ("im_account", _IM_ACCOUNT, lambda m: True),
    ("phone_number", _CN_MOBILE, lambda m: _personal(m, toll_free=False)),
    ("phone_number", _PHONE, lambda m: 8 <= _digit_count(m[0]) <= 15 and _personal(m)),
    ("email", _EMAIL, lambda m: not _ROLE.fullmatch(m["local"])),
    ("phone_number", _SAID_PHONE, lambda m: 8 <= _digit_count(m["v"]) <= 15 and _personal(m)),
]
# What a text must contain for each pattern to have a chance (see `remem.secrets`).
CONTACT_HINTS: dict[Lazy, tuple[str, ...] | Lazy] = {
    _IM_ACCOUNT: ("qq", "微信"),
    _CN_MOBILE: Lazy(r"[0-9]{3}"),
    _PHONE: Lazy(r"\+[0-9]|\([0-9]|[0-9]-[0-9]"),
    _EMAIL: ("@",),
    _SAID_PHONE: ("phone", "tel", "mobile", "cell", "landline", "fax", "电话", "手机", "座机"),
}
