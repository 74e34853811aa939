"""The secret nouns of `remem.secrets_prose` (issue 29), in Chinese and English, by what
their value looks like: a password's ("password", 口令, "safe word"), a code's ("PIN",
"door code", 取件码, "PUK"), a card's, a bank account's, an ID's.

    KEY.search("the door code is 4471")["code"]   # "door code"
    in_context("combo", "the combo meal is 12")    # False: a combo is a lock's by a lock

`KEY` names each noun's group by its class (`code`, `pass`, `card`, `acct`, `id`, and the
same with `zh` for the Chinese ones); `KINDS` gives the kind of secret each class holds. A
code's value is digits, but a device's verification or activation code is capitals and digits
too (`caps_code`, `keyed_code`); a licence number of a UK driving licence's layout is an ID's.
"""

from __future__ import annotations

import re

from remem.secrets_numbers import UK_LICENCE
from remem.secrets_shapes import KEYED, ZH_DIGITS, Lazy

__all__ = [
    "CAPS_HINTS",
    "HINTS",
    "KEY",
    "KINDS",
    "LOCK_CODE",
    "PASS_TYPED",
    "SAFE_WORD_FOR",
    "caps_code",
    "in_context",
    "keyed_code",
]

_AW = r"(?<![A-Za-z0-9_])"  # an ASCII word start (CJK around a key is fine)
_AZ = r"(?![A-Za-z0-9_])"

# "password" typed in haste: pasword, passwrd, pssword, paswd (a login's label reads it too)
PASS_TYPED = r"pa?s{1,2}(?:w(?:or|ro|o|r)?d|owrd)"
# The secret nouns, by what their value looks like.
_PASS = (
    r"(?i:pass(?:word|wd|phrase)s?|pass[ -](?:word|phrase)s?|pwd|pw|pword|creds|credentials?"
    rf"|{PASS_TYPED}s?"
    r"|pass(?=\s*[:=：])"
    r"|(?:wi[- ]?fi|wlan|network|router)[ -](?:codes?|pass(?=\s+is\s))"  # "router pass is X"
    r"|(?:client|shared|app|webhook)[ _-]secrets?|requirepass|masterauth|unseal[ -]keys?"
    r"|secret[ _-]keys?|(?:api|access|app|wi[- ]?fi|wpa2?|wpa|network|master|encryption"
    r"|license|product|recovery|backup|setup|host|pairing|activation)[ _-]?keys?"
    r"|(?:seed|recovery|backup|secret|wallet|encryption|vault|master|unlock|access|login"
    r"|security)[ -](?:phrase|words)"
    r"|licen[cs]e[ _-]?(?:serials?|codes?)"  # a licence's serial unlocks the software, as its key
    r"|(?:secret|code|safe)[ -]?words?"
    r"|watchwords?"
    r"|memorable[ -](?:word|information|info|phrase|answer)s?"  # a UK bank's second secret
    r"|macaroons?"  # a Lightning node's bearer credential (admin.macaroon)
    r"|mnemonic(?: phrase)?"
    r"|tokens?"
    r"|mi\s?ma"  # 密码 in pinyin: "wo de mima shi ..."
    # 密码 by its initials, as typed in a chat: "mm是 X" (with a digit: "mm是 Lily" is a sister)
    r"|mm(?=\s*(?:是|为|[:：])\s*[!-~]*\d)"
    r"|key(?=\s+(?:is|was)\s)"  # a wifi's, by its sentence only (_NEEDS)
    # the word for a password in another language: "wachtwoord X", "Passwort: X", "senha é X"
    r"|wachtwoord|passwort|kennwort|mot[ -]de[ -]passe|contrase[ñn]a|senha|palavra[ -]passe"
    r"|parola\s+d['’]ordine|has[łl]o|l[öo]senord|passord|adgangskode|salasana|jelsz[óo]|heslo"
    # a wifi's key named by its scheme, then given: "WPA2 for the shop router: X"
    r"|(?:wpa[23]?(?:[ -]?psk)?|psk)(?=(?:\s+(?:for|on)\s[^:：=\n]{1,40}?)?\s*[:=：]))"
)
# "combi", a combination said short as a Briton says it ("the cage combi: 5 1 6"); not a combi
# boiler, oven or ticket, things of that name
COMBI = (
    r"combi(?![a-z])"
    r"(?!\s+(?:boiler|oven|microwave|steamer|ticket|deal|drill|unit|set|kit|pack|van)s?\b)"
)
_CODE = (  # "pinn": a PIN's typo
    r"(?i:(?:pinn?|puk2?)(?:[ -]?(?:code|number))?s?|passcodes?|pass[ -]codes?"
    r"|(?:door|gate|alarm|lock|access|entry|keypad|garage|safe|unlock|security|verification"
    r"|confirmation|one[- ]time"
    r"|opener|disarm|arming|lockbox|lock[ -]box|locker|mailbox|intercom|buzzer|padlock|entrance"
    r"|call[ -]?box|elevator|lobby|shed|cabinet|vault|storage|store[ -]?room|cage|suitcase|luggage"
    r"|briefcase|key[ -]?(?:box|safe)|room"  # a room's code opens its door: "the boot room code"
    r"|immobili[sz]er"  # a vehicle's lock
    r"|(?:lock[ -]?)?screen|phone|tablet|ipad|iphone|laptop|device|sim|voicemail|bike"
    r"|otp|2fa|mfa|sms|text|login|auth(?:entication|ori[sz]ation)?"  # a bank's authorisation code
    r"|backup|recovery|claim|redemption|redeem"
    r"|(?:clock|sign)[ -]?(?:in|on)|log[ -]?on"  # what one clocks in with at a rota's app
    r"|activation|pairing|host|lockout|override|reset"  # "the alarm reset code"
    r"|collection|pick[ -]?up|parcel|release"  # a locker's one-time code
    # an appliance's service code: "the engineer service code", "installer menu code"
    r"|(?:installer|engineer|technician)(?:[ -](?:service|mode|menu))?"
    r"|atm|(?:(?:bank|debit|credit|cash|atm)[ -]?)?card|key|duress|master|admin|panel"
    r"|supervisor|mana?ger|till|refund|void)[ -]codes?"  # a till's codes that authorise
    # ("manger code": the manager's, typed in haste, as "pasword" is a password)
    r"|keycodes?"  # an ATM's PIN by another name, an alarm's duress code
    # "the override is 88-12-03", "manager override: eight eight zero eight"
    # or of any thing that locks or lets through: "the barrier override at the car park is ..."
    r"|(?:emergency|manual|master|alarm|door|keypad|mana?ger|supervisor|till|barrier|gate|lock"
    r"|safe|panel|security|staff|admin|shutter|turnstile|drawer)(?:['’]s)?"
    r"(?:[ -][a-z]+)?[ -]override"  # or of a part of it: "the till drawer override is ..."
    r"(?:[ -]codes?)?"  # "manager override code 7719": the noun said in full
    r"|otp|cvv2?|cvc2?"
    rf"|combination|combo|{COMBI}"
    # a building's way in "number" is its keypad's code (a raffle's entry number is no building's)
    r"|(?:building|block|flat|apartment|office|site|lobby|front|main|side|back|rear|staff|yard)"
    r"[ -]entry[ -](?:number|no\.?)"
    r"|(?:phone|tablet|ipad|iphone|laptop|computer|pc|mac|device)[ -]unlock(?:[ -](?:code|pin))?)"
)
_CARD = (
    r"(?i:(?:credit|debit|bank|payment)[ -]?card|card(?:[ -]?(?:number|no\.?|#))?|visa"
    r"|(?:amex|mastercard|discover)(?:[ -]?(?:number|no\.?|#))?)"
)
_ACCT = (
    r"(?i:(?:bank[ -])?account(?:[ -]?(?:number|no\.?|#))?|acct(?:[ -]?(?:number|no\.?|#))?"
    r"|iban)"  # a routing number or sort code names a bank branch, public
)
_ID = (
    r"(?i:ssn|social[ -]security(?:[ -]number)?|passport(?:[ -](?:number|no\.?))?"
    # a learner's licence is a driving licence too ("her learner's licence number: ...")
    r"|(?:driver'?s|driving|driver\s+[a-z]+['’]s|learner['’]?s?)[ -]licen[cs]e"
    r"(?:[ -](?:number|no\.?))?"
    # any licence's number of a UK driving licence's shape: "licence no. for the hire: ..."
    rf"|licen[cs]e[ -](?:number|no\.?)(?=[^.;!?\n\d]{{0,40}}?(?-i:{UK_LICENCE})(?![A-Za-z0-9]))"
    r"|(?:national[ -])?id[ -](?:number|no\.|no(?=\s*[:：#]?\s*\d))|tax[ -]id|national[ -]id"
    # an identity number named by the country that issued it: "my Turkish ID is ...", "the
    # Polish ID no. for the form" (a capitalised nationality, then ID in capitals)
    r"|(?-i:[A-Z][a-z]+(?:ish|ian|ese|an|ic|ch|i)[ -]ID)(?:[ -](?:number|no\.|card))?"
    r"|sin|social[ -]insurance[ -]number|ni[ -](?:number|no\.?)"  # a UK National Insurance no.
    # or NI alone, in capitals, before a value of its shape: "my NI is AB 12 34 56 C"
    r"|(?-i:NI)(?=(?:\s+(?:for|on|at|of)\s[^:：.\n\d]{1,40}?)?\s*(?:is|was|[:：#])?\s*"
    r"[A-Z]{2}\s?\d\d\s?\d\d\s?\d\d\s?[A-D](?![A-Za-z0-9]))"  # "NI for the rota: AB 12 34 56 C"
    r"|(?:nhs|medicare|health[ -]card|national[ -]insurance"
    r"|tax[ -]file)[ -]number|national[ -]insurance|(?-i:NINO)|aadhaar(?:[ -]number)?|itin"
    r"|taxpayer[ -]id(?:entification)?"
    # a personal number by the name its country gives it (Irish PPS, Dutch BSN, a UK UTR: a
    # taxpayer's own reference, not a letter's; a dummy that counts, 12345 67890, stays a note)
    r"|pps(?:n|[ -](?:number|no\.?))|ird[ -](?:number|no\.?)|nric|bsn|pesel|cpf|codice[ -]fiscale"
    r"|utr(?:[ -](?:number|no\.?))?|unique[ -]tax(?:payer)?[ -]reference(?:[ -]number)?"
    # a certificate that vouches for a person (a criminal record check), not for a boiler
    r"|(?:dbs|pvg|disclosure|criminal[ -]records?(?:[ -]check)?|background[ -]check)"
    r"(?:[ -](?:check|update))?[ -](?:certificate|cert)(?:[ -](?:number|no\.?))?"
    r"|dbs[ -](?:number|no\.?)"
    r"|hkid|personnummer|kimlik(?:[ -]no\.?)?|(?-i:CNP|CURP|CNIC|NIN)"
    r"(?:[ -]number)?|(?:medicare|medicaid)(?:[ -](?:id|card)(?:[ -]number)?)?"
    r"|employer[ -]identification[ -]number|(?-i:F?EIN|NIE|DNI|NIF)"  # "ein", "nie": German
    # an identity card, named in the language of the country that issued it
    r"|(?:national[ -])?(?:identity|id)[ -]card(?:[ -](?:number|no\.?))?"
    r"|carta\s+d['’]identit[àa]|carte\s+d['’]identit[ée]|personalausweis(?:nummer)?"
    r"|documento\s+(?:nacional\s+)?de\s+identidad|c[ée]dula(?:\s+de\s+identidad)?"
    # a document that lets a person live, work or stay in a country, by its name or its
    # abbreviation in capitals: a residence permit or card (a UK BRP, Taiwan's ARC), a green
    # card, a work permit, an alien registration number, a tax file number (TFN)
    r"|(?:(?:biometric|permanent|temporary)[ -])?residen(?:ce|t|cy)[ -](?:permit|card)"
    r"(?:[ -](?:number|no\.?))?|(?:green|pr|resident\s+alien)[ -]card(?:[ -](?:number|no\.?))?"
    r"|(?:work|residence|stay)[ -]permit[ -](?:number|no\.?)|alien[ -]registration[ -]number"
    r"|(?-i:BRP|BRC|TRC|IRP|EAD|TFN|NIK|KTP|QID)(?:[ -](?:number|no\.?|card))?"
    # ... those that are other words too only with their noun: "ARC number", "TIN no."
    r"|(?-i:ARC|TIE|TIN|NID)[ -](?:number|no\.?|card))"
)
# 密马, 蜜码: 密码 as a pinyin keyboard types it in haste
_PASS_ZH = r"密码|密碼|秘码|密[马玛]|蜜码|口令|暗号|密钥|秘钥|私钥|令牌|助记词|授权码|推流码|串流码"
_CODE_ZH = (
    r"验证码|校验码|动态码|安全码|恢复码|备份码|门禁码|门禁密码|门禁|开锁码|解锁码|取件码|取货码"
    r"|提货码|密码锁|撤防码|布防码|解除码|开门码|开柜码|备用码|提取码|访问码|取款码|取现码"
    r"|启动码|激活码|兑换码|登录码|登陆码|登入码|进入码|维修码|工程码|卡密|管理员码"
    r"|万能码|管理码|总码"  # a master code opens every lock of a set
    r"|配对码"  # a remote's or a device's pairing code: whoever has it pairs a new one
    r"|(?:解锁|开锁|开门|开柜)(?:指令|命令)码"  # a command that unlocks: 解锁指令码
    r"|(?:密码)?组合(?=\s*(?:是|为|[:：]))"  # U型锁，组合是 3916: a lock's combination
    r"|(?:撤防|布防)(?=\s*(?:是|为|[:：])?\s*\d{4,8}(?!\d|\s*年))"  # 撤防1978: a year's shape
    r"|(?<![A-Za-z])(?i:yzm|yanzhengma)(?![A-Za-z])"  # 验证码 in pinyin, as typed in chat
    r"|(?<![A-Za-z0-9])(?i:puk)(?![A-Za-z0-9])\s*码?"
    # any 码 said, then Chinese digits: 开箱码：五五二零一三 (not a 号码, 编码 or 条码)
    rf"|(?<![号编条维邮区代源乱页尺价])码(?=\s*(?:是|为|[:：])\s*[{ZH_DIGITS}]{{4}})"
)
_CARD_ZH = r"卡号|银行卡|信用卡|储蓄卡|借记卡|工资卡"
# a utility's 户号 (电表户号 0033...) is printed on every bill: no bank account
# nor a merchant's 商户号, printed on its receipts and payment codes
_ACCT_ZH = (
    r"账号|账户|帐号|帐户"
    r"|(?<!电表|电费|水表|水费|燃气|煤气|电力|宽带|物业|暖气|供暖|缴费|交费)(?<!商)户号"
)
_ID_ZH = (
    r"身份证|护照|社保号|社保卡号|驾驶证|驾照|通行证|居住证|军官证|台胞证|回乡证|学籍号|医保号"
    r"|医保卡号|社会保障号|纳税人识别号"
    r"|居留证|居留许可|居留卡|永居证|绿卡|工作许可证?"  # a foreigner's right to live or work
)
KEY = Lazy(
    rf"{_AW}(?P<code>{_CODE}){_AZ}|(?P<codezh>{_CODE_ZH})"
    rf"|{_AW}(?P<pass>{_PASS}){_AZ}|(?P<passzh>{_PASS_ZH})"
    rf"|{_AW}(?P<card>{_CARD}){_AZ}|(?P<cardzh>{_CARD_ZH})"
    rf"|{_AW}(?P<acct>{_ACCT}){_AZ}|(?P<acctzh>{_ACCT_ZH})"
    rf"|{_AW}(?P<id>{_ID}){_AZ}|(?P<idzh>{_ID_ZH})"
)
# A code a device or an account is verified, activated, paired or unlocked with, named right
# before its value: capitals and digits as a sticker or a screen shows them ("the doorbell's
# verification code is 7KQZ2W", "activation code XK42PR"), not only a PIN's digits (a flight's
# confirmation code is its reference, and a door's code is keyed: neither is read so)
_DEVICE_CODE = Lazy(
    r"(?i)(?<![a-z])(?:verification|activation|pairing|setup|claim|redemption|recovery|backup"
    r"|unlock)[ -]codes?(?![a-z])[^.;!?\n]{0,40}$"
)
_CAPS_CODE = Lazy(r"(?=[A-Z0-9]*\d)(?=(?:\d*[A-Z]){2})[A-Z0-9]{5,10}(?![\w-]|\.\w)")
# a lock's code may have three digits ("the cupboard lock code 318"), a combination's too
LOCK_CODE = Lazy(
    r"(?i)(?<![a-z])(?:door|gate|lock|padlock|locker|safe|keypad|shed|cabinet"
    r"|(?:lock|key)[ -]?(?:box|safe))[ -]codes?$"
    rf"|(?<![a-z])(?:combination|combo|{COMBI})s?$"  # a dial's wheels: "the lockbox, combo 319"
)
KINDS = {
    "pass": "password",
    "code": "password",
    "card": "card_number",
    "acct": "bank_account",
    "id": "id_number",
}


# Substrings one of which every secret noun holds: most texts skip the big pattern. One
# alternation, not `any(h in text)` over ~70 words: a gate every text passes through.
HINTS = Lazy(
    "|".join(
        (
            *"pas pss pw cred secret key token phrase mnemonic pin code otp cvv cvc combo".split(),
            *"combi card visa acc routing iban sort ssn social passport licen sin nhs".split(),
            *"medica insurance aadhaar tax itin amex mastercard discover ein unlock".split(),
            *"puk safew watchword mima memorable macaroon yzm yanzhengma override".split(),
            *"wpa psk identit personalausweis cédula cedula".split(),
            *"wachtw kennw contrase senha palavra parola hasł hasl".split(),
            "de passe",
            *"lösen losen passord adgangs salasana jelsz heslo".split(),
            *"ppsn nric bsn pesel cpf fiscale hkid personnummer utr dbs pvg disclosure".split(),
            *"criminal background kimlik residen permit alien".split(),
            *("entry n", "entry-n"),
            *("pps number", "pps no", "ird number", "ird no"),
            "mi ma ",
            *"mm是 mm为 mm：".split(),
            "safe w",
            "id number",
            "id no",
            "id card",
            "id-card",
            "ni number",
            "ni no",
            *"密 蜜码 口令 暗号 钥 令牌 助记词 码 卡 账 帐 户号 身份证 护照 社保 驾 门禁".split(),
            *"撤防 布防 组合".split(),
            *"通行证 居住证 军官证 台胞证 回乡证 学籍 医保 社会保障 纳税".split(),
            *"居留 永居 绿卡 许可".split(),
        )
    )
)


# Spain's NIE, DNI and NIF, and a UK NI or NINO, are only nouns in capitals ("nie" is German,
# "nif" is in "unified"): a gate of their own on the text as written, not lower-cased like HINTS.
CAPS_HINTS = Lazy(
    r"(?<![A-Za-z])(?:NIE|DNI|NIF|NI|NINO|CNP|CURP|CNIC|NIN|BRP|BRC|ARC|TRC|IRP|TIE|EAD|TFN|TIN"
    r"|NID|NIK|KTP|QID)(?![A-Za-z])|[a-z][ -]ID(?![A-Za-z])"
)


# a safe word that proves who someone is (a family's, a school pickup's) is a secret
SAFE_WORD_FOR = Lazy(
    r"(?i)famil|kids?\b|child|pick(?:ing|s)?\s+(?:\w+\s+){0,2}up|school|verify|prove|identity|scam"
    r"|caller|grand(?:ma|pa|parent)|alarm|bank|monitor|家人|孩子|接送"
)
_NEEDS = [  # a noun that is a secret's only beside these words in its sentence
    (Lazy(r"(?i)^key$"), Lazy(r"(?i)wi-?fi|wlan|router|hotspot|ssid|无线")),
    (  # a store, a shed, a cage or a cabinet is locked by a combination too
        Lazy(r"(?i)^(?:combination|combo|combis?)$"),
        Lazy(r"(?i)safe|lock|vault|gate|door|dial|stores?\b|shed|cage|cabinet|cupboard|保险"),
    ),
    (Lazy(r"^(?:密码)?组合$"), Lazy(r"锁|保险|柜|箱|门")),
    (Lazy(r"(?i)^safe[ -]?words?$"), SAFE_WORD_FOR),  # a class's safe word stops a scene
    (  # a bank's memorable word, not a trip's
        Lazy(r"(?i)^memorable"),
        Lazy(r"(?i)bank|building\s+society|savings|log\s?-?in|sign\s?-?in|account|security"),
    ),
    (
        Lazy(r"(?i)^account$"),
        Lazy(r"(?i)bank|checking|savings|routing|iban|deposit|wire|银行"),
    ),
]


def in_context(key: str, sentence: str) -> bool:
    return all(need.search(sentence) for noun, need in _NEEDS if noun.match(key))


def caps_code(text: str, pos: int, end: int) -> re.Match[str] | None:
    """The value at `pos` of a device's or an account's code named just before it, of
    capitals and digits ("8HRT3K")."""
    if _DEVICE_CODE.search(text, max(0, pos - 60), pos) is None:
        return None
    return _CAPS_CODE.match(text, pos, end)


def keyed_code(text: str, pos: int, end: int) -> re.Match[str] | None:
    """A code's value at `pos` after its link, not all digits: a keypad's letter with its
    digits ("C4718"), or a device's capitals and digits (`caps_code`)."""
    return KEYED.match(text, pos, end) or caps_code(text, pos, end)
