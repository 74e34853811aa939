"""Sensitive data in text (SPEC SE3, EX3): keys, tokens, passwords, phone and ID numbers,
e-mail addresses, credentials in URLs, card numbers, in Chinese and English text.

    find_secrets("我的 GitHub token 是 ghp_...")   # [SecretHit(kind="github_token", span=(...))]
    redact("call 13812345678")                    # "call [REDACTED:phone_number]"
    looks_secret("Python 3.11 on port 8443")      # False

Patterns are specific on purpose: versions ("3.11"), ports, dates and commit hashes
are not secrets, and an explicit save that trips a pattern needs --force, so a false
positive costs the user a flag. `sensitive_word` is the broader EX3 word list the
automatic extractor uses to drop whole sentences before anything else sees them.

Contact details (phones, e-mail, QQ/WeChat: `remem.secrets_contacts`) are sensitive,
not secret: `find_secrets` and `redact` report them unless `contacts=False`; the door
(`admit`) refuses them only in automatic saves, and session files keep them.

When no rule names a secret in a memory-sized text, a small learned model
(`remem.secrets_model`) gives a second opinion: a "likely_secret" hit, whose refusal says
it was the model's judgement.

A value the text itself says is public (a helpline's number, a wifi network's name with
its key withheld, weak passwords listed as ones not to use: `remem.secrets_public`) is
no secret, for the rules or the model; digits said aloud ("4 double 1 7", 三个七再三个一:
`remem.secrets_digits`) are read as the digits they say.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from remem import secrets_model
from remem.secrets_contacts import CONTACT_HINTS, CONTACT_KINDS, CONTACT_RULES
from remem.secrets_cues import find_cued
from remem.secrets_derived import derived_spans
from remem.secrets_digits import spoken_digits
from remem.secrets_disguise import unmask
from remem.secrets_foreign import foreign_said
from remem.secrets_numbers import card_named, card_valid, cn_id_valid, id_named
from remem.secrets_prose import PLACEHOLDER as _PLACEHOLDER
from remem.secrets_prose import find_prose, talks_about
from remem.secrets_public import blanked, public_spans
from remem.secrets_shapes import Lazy, one_case_run, pinyin_phrase, zh_punctuated
from remem.secrets_typos import typed_nouns

__all__ = [
    "KIND_LABELS",
    "SecretHit",
    "find_secrets",
    "kinds_of",
    "looks_secret",
    "redact",
    "sensitive_word",
]


@dataclass(frozen=True, slots=True)
class SecretHit:
    """One sensitive item: what it looks like and where it is (start, end)."""

    kind: str
    span: tuple[int, int]

    @property
    def label(self) -> str:
        return KIND_LABELS.get(self.kind, self.kind.replace("_", " "))


KIND_LABELS = {
    "openai_key": "an OpenAI API key",
    "anthropic_key": "an Anthropic API key",
    "github_token": "a GitHub token",
    "gitlab_token": "a GitLab token",
    "huggingface_token": "a Hugging Face token",
    "npm_token": "an npm token",
    "aws_access_key": "an AWS access key",
    "slack_token": "a Slack token",
    "webhook_url": "a webhook URL",
    "google_api_key": "a Google API key",
    "stripe_key": "a Stripe key",
    "service_token": "a service token (Telegram, SendGrid, Azure, Discord ...)",
    "jwt": "a JSON Web Token",
    "bearer_token": "a bearer token",
    "private_key": "a private key",
    "password": "a password or secret",
    "credential_url": "a URL with a password in it",
    "likely_secret": "a likely secret (the secret model's judgement: no rule named it)",
    "phone_number": "a phone number",
    "id_number": "an ID number",
    "email": "an e-mail address",
    "card_number": "a payment card number",
    "bank_account": "a bank account number",
    "im_account": "a QQ or WeChat account",
}

_PRIORITY = {kind: i for i, kind in enumerate(KIND_LABELS)}  # specific kinds first

_A = r"(?<![A-Za-z0-9_])"  # an ASCII word start (\b would treat CJK as word characters)
_Z = r"(?![A-Za-z0-9_])"
_KEYWORDS = (
    r"(?:password|passwd|passphrase|pwd|secret|client[_-]?secret|api[ _-]?key|apikey"
    r"|access[ _-]?key|secret[ _-]?key|private[ _-]?key|account[_-]?key|(?:access|auth|refresh)?"
    r"[_-]?token|credentials?)"
)
# the shapes detect-secrets' plugins know, and a few more
_SERVICE_TOKENS = (
    r"(?<![0-9])[0-9]{8,10}:AA[0-9A-Za-z_-]{30,40}(?![\w-])",  # Telegram bot
    _A + r"SG\.[\w-]{22}\.[\w-]{43}",  # SendGrid
    r"(?i:AccountKey)\s*[=:]\s*[A-Za-z0-9+/]{86}==",  # Azure
    _A + r"[A-Za-z0-9+/]{86}==",  # Azure
    _A + r"[MNO][\w-]{23,25}\.[\w-]{6}\.[\w-]{27}" + _Z,  # Discord bot
    _A + r"(?:AC|SK)[a-f0-9]{32}" + _Z,  # Twilio
    _A + r"[0-9a-f]{32}-us[0-9]{1,2}" + _Z,  # Mailchimp
    _A + r"pypi-AgE[\w-]{70,}",  # PyPI
    _A + r"sq0(?:csp|atp)-[\w-]{22,43}",  # Square
    _A + r"(?:dckr_pat_|whsec_|shpat_|shpss_|xapp-|rk_live_|pk_live_)[\w-]{20,}",
    _A + r"AKC[a-zA-Z0-9]{10,}",  # Artifactory
    r"(?<![\d-])\d{6}(?:-\d{6}){7}(?![\d-])",  # a BitLocker recovery key
)
_PATTERNS: list[tuple[str, Lazy]] = [
    (
        "private_key",
        Lazy(
            r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:.*?-----END [A-Z0-9 ]*-----|.*)",
            re.DOTALL,
        ),
    ),
    ("anthropic_key", Lazy(_A + r"sk-ant-[A-Za-z0-9_-]{16,}")),
    ("openai_key", Lazy(_A + r"sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}")),
    ("github_token", Lazy(_A + r"(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,})")),
    ("gitlab_token", Lazy(_A + r"glpat-[A-Za-z0-9_-]{20,}")),
    ("huggingface_token", Lazy(_A + r"hf_[A-Za-z0-9]{30,}")),
    ("npm_token", Lazy(_A + r"npm_[A-Za-z0-9]{30,}")),
    ("aws_access_key", Lazy(_A + r"(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}" + _Z)),
    ("slack_token", Lazy(_A + r"xox[abposr]-[A-Za-z0-9-]{10,}")),
    (
        "webhook_url",
        Lazy(  # the secret is in the path or the query: whoever has it can post
            r"https://(?:hooks\.slack\.com/services|discord(?:app)?\.com/api/webhooks"
            r"|open\.(?:feishu\.cn|larksuite\.com)/open-apis/bot/v2/hook"
            r"|oapi\.dingtalk\.com/robot/send\?access_token="
            r"|qyapi\.weixin\.qq\.com/cgi-bin/webhook/send\?key="
            r"|[\w-]+\.webhook\.office\.com/webhookb2|hooks\.zapier\.com/hooks/catch)/?[\w/=-]+"
        ),
    ),
    ("google_api_key", Lazy(_A + r"(?:AIza[0-9A-Za-z_-]{35}|ya29\.[0-9A-Za-z_-]{20,})")),
    ("stripe_key", Lazy(_A + r"[rs]k_(?:live|test)_[0-9A-Za-z]{16,}")),
    ("service_token", Lazy("|".join(_SERVICE_TOKENS))),
    ("jwt", Lazy(_A + r"eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}")),
    (
        "bearer_token",
        Lazy(r"(?i)" + _A + r"(?:bearer|authorization:\s*basic)\s+[A-Za-z0-9._~+/-]{16,}=*"),
    ),
    (
        "credential_url",
        Lazy(r"(?i)" + _A + r"[a-z][a-z0-9+.-]{1,20}://[^\s:/@]*:[^\s/@]+@[^\s/?#]+"),
    ),
]
_CODE_ASSIGN = Lazy(
    r"(?i)" + _A + r"(?:[A-Za-z0-9]+[_-])*(?:[A-Za-z0-9]{0,12}?(?=password|passwd|secret|token))?"
    r"(?:" + _KEYWORDS + r"|(?<=[_-])(?:pass|pw))"
    r"[\"']?\s*[:=]\s*([\"']?)(?P<v>[^\s\"',;]{4,})"
)
_PROSE_ASSIGN = Lazy(  # "the admin password for the router is X", "passphrase is 'a b c'"
    r"(?i)" + _A + r"(?:" + _KEYWORDS + r"|pass(?=\s*[:=])|(?P<n>pin(?: code| number)?|(?:"
    r"verification|one-time|otp|2fa|mfa|security|auth(?:entication)?|login|sms) code))"
    r"(?:\s+(?:for|of|to|on)\s+"
    r"[\w .'-]{1,40}?)?(?:\s+(?:is|was)\s+|\s*[=:]\s*)(?:([\"'“])(?P<q>[^\"'”\n]{4,60})[\"'”]"
    r"|(?P<v>[^\s\"',;]{4,}))"
)
_CJK_KEYS = (  # 密吗, 密马: 密码 typed as its homophone (not 秘密吗, 亲密吗)
    r"密码|密碼|(?<![秘保机亲紧精严细])密[吗马玛]|口令|密钥|秘钥|私钥|令牌|授权码|验证码|认证码"
    r"|[Pp][Ii][Nn] ?码?|[Tt]oken|TOKEN"
)
_EN_KEYS = r"|(?i:(?:api|access|secret|account|app|client)[ _-]?(?:key|secret))"
_TOUCHING = r"(?:\s+|(?<=[\u4e00-\u9fff])(?=[A-Za-z0-9]))"  # 密码abc_2024: no space, as typed
_ZH_ASSIGN = Lazy(  # "登录密码统一是 X", "密码：X", "wifi 密码 88889999", "门禁 PIN 是 4821"
    r"(?:" + _CJK_KEYS + _EN_KEYS + r")\s*[\u4e00-\u9fff]{0,4}\s*(?:是|为|為|改成|改为|设为|设置为"
    r"|设置成)了?\s*[\"'“]?(?P<v>[!-~]{4,})"
    r"|(?:" + _CJK_KEYS + r")\s*[：:=]\s*[\"'“]?(?P<c>[!-~]{4,})"
    r"|(?P<k>" + _CJK_KEYS + _EN_KEYS + r")" + _TOUCHING + r"(?P<w>[!-~]{4,})"
)
_CLI_SECRET = Lazy(  # passwords given on a command line
    r"(?i)" + _A + r"(?:sshpass\s+(?:-\w+\s+)*-p\s*|(?:mysql|mysqldump|mariadb)\b[^\n|;]*?\s-p"
    r"|(?:docker|podman|helm|oras|skopeo)\s+(?:registry\s+)?login\b[^\n|;]*?\s(?:-p|--password)"
    r"(?:\s+|=)|redis-cli\b[^\n|;]*?\s-a\s+|\s--pass(?:word)?(?:\s+|=)"
    r"|(?:curl|wget)\b[^\n|;]*?\s(?:-u|--user)\s+[^\s:]+:)"
    r"(?P<v>'[^'\n]{3,}'|\"[^\"\n]{3,}\"|[^\s'\"]{3,})"
)
_NAME = Lazy(r"(?i)^[a-z]+(?:[-_][a-z]+)+$")  # log-triage, DEPLOY_TOKEN, Vault-managed
_IDENTIFIER = Lazy(r"^[a-z]+(?:[_.][a-z]+)+(?:\(\))?$")  # api_key=api_key, cfg.token
_CN_ID = Lazy(
    r"(?<![0-9A-Za-z])[1-9][0-9]{5}(?:18|19|20)[0-9]{2}(?:0[1-9]|1[0-2])"
    r"(?:0[1-9]|[12][0-9]|3[01])[0-9]{3}[0-9Xx](?![0-9A-Za-z])"
)
_NAMED_ID = Lazy(
    r"(?i)(?:身份证(?:号码?)?|护照(?:号码?)?|社保号|passport(?: number| no\.?)?|ssn"
    r"|social security(?: number)?|id number)\s*(?:是|为|：|:|is|#)?\s*"
    r"(?P<v>[A-Za-z]?[0-9]{6,}[0-9Xx]?)"
)
_US_SSN = Lazy(r"(?<![0-9-])[0-9]{3}-[0-9]{2}-[0-9]{4}(?![0-9-])")
_CARD = Lazy(r"(?<![0-9.,-])[2-6](?:[ -]?[0-9]){12,18}(?![0-9]|[.,][0-9]|/)")  # "… 11/26": expiry

_SENSITIVE = Lazy(
    r"(?i)(?<![a-z])(?:password|passwd|passphrase|secret|token|api[_ -]?key|apikey|bearer"
    r"|credentials?|private[ _-]key|access[ _-]key|ssh[ _-]key|e-?mail(?: address)?"
    r"|phone(?: number)?|mobile number|credit card|ssn|passport|id number)s?(?![a-z])"
    r"|密码|密碼|密钥|秘钥|私钥|口令|令牌|凭证|凭据|手机号|手机号码|电话号码|联系电话|身份证|邮箱|电子邮件"
    r"|银行卡|信用卡|护照|社保号|账号密码"
)


def _secret_ish(value: str) -> bool:
    """A prose value ("the password is X") that looks like a credential, not a word."""
    if _PLACEHOLDER.match(value):
        return False
    has_digit = any(c.isdigit() for c in value)
    if not has_digit and _NAME.match(value.rstrip(".,;:!?)")):
        return False  # "令牌 log-triage", "is DEPLOY_TOKEN": a name, not a credential
    has_symbol = any(not c.isalnum() for c in value.rstrip(".,;:!?)"))
    mixed = any(c.isupper() for c in value[1:]) and any(c.islower() for c in value)
    return has_digit or has_symbol or mixed


_Check = Callable[[re.Match[str]], bool]
_VALUE_RULES: list[tuple[str, Lazy, _Check]] = [
    ("password", _CODE_ASSIGN, lambda m: _code_value(m["v"])),
    ("password", _PROSE_ASSIGN, lambda m: _prose_value(m)),
    ("password", _ZH_ASSIGN, lambda m: _zh_value(m)),
    ("password", _CLI_SECRET, lambda m: _code_value(m["v"].strip("'\""))),
    ("id_number", _CN_ID, lambda m: cn_id_valid(m[0]) or id_named(m)),
    ("id_number", _NAMED_ID, lambda m: True),
    ("id_number", _US_SSN, lambda m: not m[0].startswith(("000", "666", "9"))),
    ("card_number", _CARD, lambda m: card_valid(m[0]) or card_named(m)),
]
AUTOMATIC = ("auto_extracted", "tool")  # sources whose saves drop contacts too (EX3)


def _prose_value(m: re.Match[str]) -> bool:
    if m["q"] is not None:  # a quoted passphrase: any words
        return not _PLACEHOLDER.match(m["q"])
    if m["n"]:  # a PIN or a one-time code: digits
        return m["v"].rstrip(".,;:!?)").isdigit()
    if re.match(r"(?i)secrets?\s", m[0]) and len(m["v"]) < 8:
        return False  # "the secret of our success is GPT-4o": a secret, not a credential
    return len(m["v"]) >= 6 and _secret_ish(m["v"]) and _code_value(m["v"])


def _zh_value(m: re.Match[str]) -> bool:
    """ "密码是 X" takes any X but a placeholder; "密码 X" (no verb) one that looks made up: a
    digit, a symbol, mixed case, words joined by "_", pinyin, a generated one-case run."""
    if talks_about(m[0], m.string[m.end() :]):
        return False  # "令牌的有效期是 3600 秒": about the token, not one
    if m["w"] is None:
        return not _PLACEHOLDER.match(m["v"] or m["c"])
    pinyin = not m["k"].isascii() and (pinyin_phrase(m["w"]) or one_case_run(m["w"]))
    joined = "_" in m["w"] and m["k"] in ("密码", "口令") and _NAME.match(m["w"])  # 密码 shop_admin
    if m.end("k") == m.start("w") and not (pinyin or joined or re.search(r"[\d\W_]", m["w"])):
        return False  # 密码iCloud里: a product touching the key, unless digits or pinyin
    word = m["w"].rstrip("\"'”’")  # 'said "PIN blocked"': the quote ends the phrase, no value
    return m["k"] in ("授权码", "验证码", "认证码") or _secret_ish(word) or pinyin or bool(joined)


def _code_value(value: str) -> bool:
    """`key = value` in code or config: a literal, not a placeholder or another name."""
    return not (_PLACEHOLDER.match(value) or _IDENTIFIER.match(value))


# What a text must contain for a pattern to have a chance (lower-cased substrings, or a
# cheap regex): scanning 4000 characters with ~25 patterns costs milliseconds otherwise.
_DIGITS3 = Lazy(r"[0-9]{3}")
_Hint = tuple[str, ...] | Lazy
_TOKEN_HINTS: list[_Hint] = [
    ("private key",),
    ("sk-ant-",),
    ("sk-",),
    ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    ("glpat-",),
    ("hf_",),
    ("npm_",),
    ("akia", "asia", "abia", "acca"),
    ("xox",),
    ("hooks.slack", "discord", "open-apis/bot", "dingtalk", "qyapi", "webhook", "zapier"),
    ("aiza", "ya29."),
    ("_live_", "_test_"),
    Lazy(
        r"[0-9]:AA|SG\.|==|\.[\w-]{6}\.|[0-9a-f]{32}|pypi-|sq0|[0-9]{6}-[0-9]{6}"
        r"|dckr_|whsec_|shp|xapp-|pk_live|AKC"
    ),
    ("eyj",),
    ("bearer", "basic"),
    ("://",),
]
_KEY_WORDS = ("pass", "pwd", "secret", "key", "token", "credential")
_HINTS: dict[Lazy, _Hint] = {
    **dict(zip([p for _, p in _PATTERNS], _TOKEN_HINTS, strict=True)),
    _CODE_ASSIGN: _KEY_WORDS,
    _PROSE_ASSIGN: (*_KEY_WORDS, "pin", " code"),
    _ZH_ASSIGN: tuple("密 秘钥 口令 令牌 token 私钥 授权码 验证码 认证码 pin key secret".split()),
    _CLI_SECRET: ("sshpass", "mysql", "mariadb", "login", "redis-cli", "--pass", "curl", "wget"),
    _CN_ID: Lazy(r"[0-9]{17}"),
    _NAMED_ID: ("身份证", "护照", "社保", "passport", "ssn", "social security", "id number"),
    _US_SSN: Lazy(r"[0-9]-[0-9]"),
    _CARD: _DIGITS3,
    **CONTACT_HINTS,
}


# Each pattern with its hint, looked up once: a compiled pattern hashes its whole program
# each time it is a dict key (~30 lookups a scan).
_SCAN = [(kind, pattern, _HINTS[pattern]) for kind, pattern in _PATTERNS]
_VALUE_SCAN = [(kind, pattern, check, _HINTS[pattern]) for kind, pattern, check in _VALUE_RULES]
_CONTACT_SCAN = [(kind, pattern, check, _HINTS[pattern]) for kind, pattern, check in CONTACT_RULES]


def _worth(hint: _Hint, text: str, lowered: str) -> bool:
    if isinstance(hint, Lazy):
        return hint.search(text) is not None
    return any(h in lowered for h in hint)


def _value_span(m: re.Match[str]) -> tuple[int, int]:
    """Where the secret itself is: the value group that matched, else the whole match."""
    for group in ("v", "q", "c", "w"):
        if group in m.re.groupindex and m[group] is not None:
            return m.span(group)
    return m.span()


def find_secrets(text: str, *, contacts: bool = True, model: bool = True) -> list[SecretHit]:
    """Every sensitive item in `text`, in order, without overlaps (the earliest, then
    longest, wins); with `contacts` False, secrets only (no phone, e-mail or QQ). When no
    rule names a secret as written, the rules read the text unmasked (`secrets_disguise`:
    "my bank ＰＩＮ is 6504", "b4nk p1n 7261"), with digits said aloud written
    (`secrets_digits`: "4 double 1 7") and a password said in another language read as
    English (`secrets_foreign`: "la contraseña del wifi es X") and a secret's noun typed one
    slip off read as spelled (`secrets_typos`: "combinaton is 31-15-48"), then
    `remem.secrets_model` gives its second opinion ("likely_secret"); `model` False asks
    the rules alone (its training script measures them). A value the text says is public
    (`secrets_public`: a helpline, a wifi network's name) is no hit, and the model reads
    the text without it."""
    text = zh_punctuated(text)  # same length: the hits' spans are the caller's
    public = public_spans(text, text.lower())
    found = _unpublic(_by_rules(text, contacts=True), public)
    for reading in (unmask, spoken_digits, foreign_said, typed_nouns):
        if not all(hit.kind in CONTACT_KINDS for hit in found) or not (read := reading(text)):
            continue
        plain, where = read
        for hit in _by_rules(plain, contacts=False):
            start, end = hit.span
            found.append(SecretHit(hit.kind, (where[start], where[end - 1] + 1)))
        found = _unpublic(found, public)
    # no rule named anything: a contact is no secret at an explicit save, and the model
    # read phone numbers as secrets
    if model:
        found += _by_model(text, public, found)
    if not contacts:
        found = [hit for hit in found if hit.kind not in CONTACT_KINDS]
    return _merged(found)


_LINE = Lazy(r"[^\n]+")


def _by_model(text: str, public: list[tuple[int, int]], found: list[SecretHit]) -> list[SecretHit]:
    """The model's opinion where no rule named anything: of the text, or, past the length
    it learned from (a tool's output, a pasted file: 16 of h14's 200 secrets were left
    in an offloaded output where the detector alone let 10 by), of each line of it no
    rule named anything in."""
    if len(text) <= secrets_model.MAX_CHARS:
        pieces = [] if found else [(0, text)]
    else:
        named = [hit.span for hit in found]
        pieces = [
            (m.start(), m[0])
            for m in _LINE.finditer(text)
            if len(m[0]) <= secrets_model.MAX_CHARS
            and not any(s < m.end() and m.start() < e for s, e in named)
        ]
    out = []
    for at, piece in pieces:
        mine = [(s - at, e - at) for s, e in public if at <= s and e <= at + len(piece)]
        seen = blanked(piece, mine) if mine else piece
        if secrets_model.probability(seen) >= secrets_model.threshold():
            start, end = secrets_model.secret_span(piece)
            out.append(SecretHit("likely_secret", (at + start, at + end)))
    return out


def _unpublic(found: list[SecretHit], public: list[tuple[int, int]]) -> list[SecretHit]:
    """`found` without the hits inside a value the text says is public."""
    if not public:
        return found
    return [h for h in found if not any(s <= h.span[0] and h.span[1] <= e for s, e in public)]


def _by_rules(text: str, contacts: bool) -> list[SecretHit]:
    """What the rules find in `text` as written (overlaps not yet merged)."""
    lowered = text.lower()
    found: list[SecretHit] = []
    for kind, pattern, hint in _SCAN:
        if _worth(hint, text, lowered):
            found += [SecretHit(kind, m.span()) for m in pattern.finditer(text)]
    for kind, pattern, check, hint in _VALUE_SCAN + (_CONTACT_SCAN if contacts else []):
        if not _worth(hint, text, lowered):
            continue
        found += [SecretHit(kind, _value_span(m)) for m in pattern.finditer(text) if check(m)]
    found += [SecretHit(kind, span) for kind, span in find_prose(text)]  # said in words
    found += [SecretHit(kind, span) for kind, span in find_cued(text)]  # by a cue, no noun
    found += [SecretHit("password", span) for span in derived_spans(text)]  # "is my birthday"
    return found


def _merged(found: list[SecretHit]) -> list[SecretHit]:
    """`found` in order, overlapping hits made one (of the more specific kind)."""
    found.sort(key=lambda h: (h.span[0], -h.span[1]))
    kept: list[SecretHit] = []
    for hit in found:
        if kept and hit.span[0] < kept[-1].span[1]:  # overlapping: one hit, the specific kind
            last = kept[-1]
            kind = min(last.kind, hit.kind, key=_PRIORITY.__getitem__)
            kept[-1] = SecretHit(kind, (last.span[0], max(last.span[1], hit.span[1])))
            continue
        kept.append(hit)
    return kept


def looks_secret(text: str, *, contacts: bool = False) -> bool:
    """True when `text` holds a secret (with `contacts`, a phone, e-mail or QQ too)."""
    return bool(kinds_of(text, contacts))  # cached: add-messages asks before the save does


def told_across(before: str, text: str) -> bool:
    """Whether `text`, said right after `before` (the turn before it), holds a part of a
    secret told across the two ("... starts with Qz81" / "and ends with kLm7", "Q: server
    password?" / "A: tiger-lily-42"): a secret read in them joined that ends in `text`."""
    if len(text.encode()) > _REPLY_BYTES and not _GOES_ON.match(text):
        return False  # a sentence of its own, not the rest of the one before
    joined = f"{before} {text}"
    return any(hit.span[1] > len(before) + 1 for hit in find_secrets(joined, contacts=False))


# A turn that finishes what the one before said: a short reply, or one going on from it
_REPLY_BYTES = 40  # ~40 letters, ~13 Chinese characters
_GOES_ON = Lazy(r"(?i)\s*(?:and|then|plus|also|a\s*[:：]|答\s*[:：]?|然后|后面|后半|再|还有|和)")


def redact(text: str, *, contacts: bool = True) -> str:
    """`text` with each sensitive item (without `contacts`, each secret) replaced by
    `[REDACTED:<kind>]`."""
    out: list[str] = []
    last = 0
    for hit in find_secrets(text, contacts=contacts):
        start, end = hit.span
        out.append(text[last:start])
        out.append(f"[REDACTED:{hit.kind}]")
        last = end
    out.append(text[last:])
    return "".join(out)


def sensitive_word(text: str) -> str | None:
    """The first EX3 sensitive word in `text` (password, token, 密码, 手机号 ...), if any."""
    match = _SENSITIVE.search(text)
    return match[0] if match else None


@lru_cache(maxsize=4096)
def kinds_of(text: str, contacts: bool, model: bool = True) -> tuple[str, ...]:
    # cached: Memory.save (and an import, a batch at a time) asks before it decides, the
    # store's insert asks again
    hits = find_secrets(text, contacts=contacts, model=model)
    return tuple(dict.fromkeys(hit.kind for hit in hits))
