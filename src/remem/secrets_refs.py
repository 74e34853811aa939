"""A number that tracks a thing, not one that opens it (`remem.secrets_public`): a serial, a
device's hardware identifier (an IMEI, a MAC address), a courier's or an application's reference,
an order's number, a part's or a stock number and the model it fits, a make and model said with
its size or price, a size with its unit said with a price, a product's ratings listed (volts,
watts, an IP rating, a colour temperature).

    t = "the IMEI is 356938035643809, for the insurer"
    references(t, t.lower())                                   # [(12, 27)]: the IMEI
"""

from __future__ import annotations

from remem.secrets_access_words import ACCESS_RE
from remem.secrets_numbers import UK_LICENCE
from remem.secrets_shapes import Lazy, scan, sentence

__all__ = ["SECRET_WORD", "references"]

SECRET_WORD = Lazy(r"(?i)pass|pin|code|key|token|cvv|密码|口令|验证码|密钥|令牌|码")
# A number that tracks a thing, not one that opens it: a serial on a frame, a courier's or an
# application's reference, an order's number; in capitals and digits only (a password has
# lower case), "PEX 4417 2093", "EMS 1173 0426 891", "ALM-778201", 序列号 WTU194C03421
_REFERENCE = Lazy(
    r"(?i)(?<![a-z])(?<!for\s)(?:serial(?:\s+(?:number|no\.?))?|s/n|frame\s+number|vin|chassis"
    r"\s+number|(?:tracking|order|case|ticket|application|booking|reference|ref|consignment"
    r"|parcel|shipment|waybill|reservation|invoice|confirmation|appointment)"
    r"(?:\s+(?:number|no\.?|reference|ref)|\s*#)|reference|ref|tracking"
    r"|batch(?:\s+(?:number|no\.?|#|code))?|lot\s+(?:number|no\.?|#)"  # a drug's or food's batch
    # what names a stocked item: a part's, a product's, a stock or catalogue number, a SKU
    r"|(?P<s>(?:part|product|item|stock|catalog(?:ue)?|article)\s+(?:number|no\.?|#|code)|sku)"
    r"|(?:ticket|incident)(?=\s+[A-Z]{2,5}-?\d)"  # an IT desk's ticket: "ticket INC0098812"
    # a device's hardware identifier, printed on it and its box and asked for on every warranty
    # or insurance form: a phone's IMEI or MEID, a SIM's ICCID, a MAC address, an asset tag
    r"|(?:imei|meid|esn|iccid|mac\s+address|(?:device|hardware|equipment|unit)\s+(?:id|serial)"
    r"|(?:asset|service)\s+tag)(?:\s+(?:number|no\.?|#))?"
    # a trade's or a firm's entry on a public register, shown on its van, site and certificates
    # (an alien's registration and a driver's licence are IDs: `remem.secrets_nouns`)
    r"|(?<!alien\s)(?<!driver's\s)(?<!driver’s\s)(?<!drivers\s)(?<!driver\s)(?<!driving\s)"
    r"(?<!learner's\s)(?<!learner’s\s)(?<!learners\s)(?<!learner\s)"
    # (a bank's membership or a check's certificate number logs one in: not public)
    r"(?:registration|(?P<l>licen[cs]e)|accreditation|company|vat|charity"
    # a certificate a thing passed (gas safety, an inspection, a calibration), on file and
    # shown to whoever asks; a person's vetting check's logs one in (`_VETTING`)
    r"|(?P<c>cert(?:ificate)?))"
    r"\s+(?:number|no\.?|#))"
    r"(?:(?<=#)|(?![a-z]))(?:(?:\s+(?:for|of|on)\s+[^.,;:!?\n]{1,30}?)?\s+(?:is|was)(?![a-z])|\s*[:：#])?"
    r"|(?:快递|运|物流|订|工|申请|受理|回执|参考|查询|追踪)单?号|快递单|订单(?:编号)?|序列号|车架号|申请编号|受理编号"
    r"|批号|批次号|串号|(?i:imei|meid)\s*号?码?|设备(?:编)?号|机身(?:编)?号|(?i:mac)\s*地址|资产编号"
    r"|(?:注册|登记|执照|营业执照|资质证书)(?:编号|号码?)|统一社会信用代码"
)
# ... or said right after the word, in capitals, a hyphen perhaps, even after "for" ("collection
# for order KB-44120", "invoice INV-20417"): a firm's reference, printed on its paperwork (a
# password has lower case)
_NAMED_REF = Lazy(
    r"(?i:(?<![a-z])(?:order|booking|invoice|job|return|consignment|parcel"
    r"|shipment))\s+(?P<v>[A-Z]{1,5}-?\d{3,12}(?:-[A-Z0-9]{1,6})?)(?![\w-])"
)
_VETTING = Lazy(
    r"(?i)(?<![a-z])(?:dbs|pvg|crb|disclosure|vetting|background|criminal\s+records?|check)"
    r"(?:\s+check)?\s+$"
)
_REF_VALUE = Lazy(  # "EMS 1173 0426 891", "HLF-NL-22-01453": a carrier's or a scheme's letters
    r"\s*(?:是|为|[:：])?\s*(?P<v>(?:[A-Z]{2,5}[ -]){0,3}[A-Z0-9]*\d[A-Z0-9]*(?:[ -][A-Z0-9]{2,}"
    r"|-[A-Z0-9])*)"  # "20250302-C": a letter after a hyphen too
    r"(?![A-Za-z0-9_-])"  # Chinese may follow: 订单3712…发顺丰
)
_UK_LICENCE = Lazy(UK_LICENCE)
_PRODUCT_KEY = Lazy(r"[A-Z0-9]{4,6}(?:-[A-Z0-9]{4,6}){3,}")  # a software serial: a key
# A product's make and model: "is a Master Lock 1500iD", "bought a Yale YRD256", 型号 X
_MODEL = Lazy(
    r"(?<![A-Za-z])(?:(?:a|an)\s+(?:[A-Z][\w-]*\s+){1,3}|(?i:model(?:\s+(?:number|no\.?))?)"
    r"\s*(?:is\s+|[:：]\s*)?|型号\s*(?:是|为|[:：])?\s*)"
    r"(?P<v>(?=[A-Za-z/-]*\d)[A-Za-z0-9-]{3,20}(?:/[A-Za-z0-9-]{1,10})?)(?![\w/-])"
)  # "an Ingenico Move/5000": a model's name may hold a slash
# ... or a make and model said with the thing's size, weight or price after it: 保险箱是得力
# 4078，高 45 厘米; "the safe is Honeywell 2087, 30 litres" (a code is never given its size)
_MAKE_MODEL = Lazy(
    r"(?:是|买了?|选了?|换了?|用的|入了)\s*(?P<zb>[\u4e00-\u9fff]{2,4}?)\s*"
    r"(?P<z>[A-Za-z]{0,4}-?\d[A-Za-z0-9-]{1,10})(?![\w-])"
    r"|(?<![A-Za-z])(?:is|bought|got|picked)\s+(?:the\s+)?[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\s+"
    r"(?P<v>[A-Za-z]{0,4}-?\d[A-Za-z0-9-]{1,10})(?![\w-])"
)
_SPEC = Lazy(
    r"(?i)[高宽长深厚重]\s*\d|\d\s*(?:厘米|公分|毫米|公斤|千克|升|寸|瓦|元|块钱)|尺寸|容量|重量|价格"
    r"|\d\s*(?:cm|mm|kg|lbs?|litres?|liters?|inches|in|watts?)(?![a-z])|(?<![a-z])(?:tall|high|wide"
    r"|deep|heavy|weighs|costs?)(?![a-z])|[£$€¥]\s*\d"
)
_NOT_BRAND = Lazy(r"[码号锁门密生日年月]|数字|这个|那个|我的|他的|她的")


# A model's name (MX4120, RTX4090, X-T5) or a size with its unit (70-200mm, 500GB): what a shop
# stocks and sells, said with its price or its part number, names no secret
_MODEL_NAME = Lazy(r"(?<![\w/.-])[A-Z]{1,4}-?\d{2,6}[A-Za-z]{0,2}(?![\w/-])")
_MEASURE = Lazy(
    r"(?i)(?<![\w/.-])\d+(?:\.\d+)?(?:\s?[-–x×]\s?\d+(?:\.\d+)?)*\s?(?:mm|cm|km|kg|mg|ml|mah|gb|tb|mb"
    r"|kwh?|inch(?:es)?)(?![\w/-])"
)

# A product's ratings with their units, as a datasheet lists them ("12V, 9.6W/m, IP67, 4000K",
# 灯带 12V，100W): two or more in a sentence naming no secret are its specs, not a code
_RATING = Lazy(
    r"(?i)(?<![\w/.-])(?:\d+(?:\.\d+)?(?:\s?(?:w/m|w/ft|lm/w|vac|vdc|kw|mah|wh|lm|lux|k?hz)"
    r"|(?:v|w|a|ma|k))|ip[0-6x][0-9x])(?![\w/-])"  # a single letter touches its number
)
_RATING_HINT = Lazy(r"(?i)\d\s?(?:v|w|ma|a|k|lm|lux|hz)(?![a-z])|ip[0-6x][0-9x]")


def _ratings(text: str) -> list[tuple[int, int]]:
    if _RATING_HINT.search(text) is None:
        return []
    out: list[tuple[int, int]] = []
    by_sentence: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for m in _RATING.finditer(text):
        by_sentence.setdefault(sentence(text, m.start()), []).append(m.span())
    for (start, end), spans in by_sentence.items():
        if len(spans) >= 2 and not SECRET_WORD.search(text, start, end):
            out += spans
    return out


def _model_names(text: str, at: int) -> list[tuple[int, int]]:
    """The model names in the sentence at `at`, unless it names a secret or a lock."""
    start, end = sentence(text, at)
    if SECRET_WORD.search(text, start, end) or ACCESS_RE.search(text, start, end):
        return []
    return [n.span() for n in _MODEL_NAME.finditer(text, start, end)]


def references(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    hints = ("serial", "s/n", "frame", "vin", "chassis", "ref", "track", "order", "case",
             "ticket", "incident", "application", "booking", "consignment", "parcel", "shipment",
             "waybill", "reservation", "invoice", "confirmation", "appointment", "batch", "lot",
             "part", "product", "item", "stock", "catalog", "article", "sku", "imei", "meid",
             "esn", "iccid", "mac", "device", "hardware", "equipment", "unit", "tag", "地址",
             "regist", "licen", "accredit", "company", "vat", "charity", "cert",
             "代码",
             "号", "单")  # fmt: skip
    for m in scan(_REFERENCE, text, low, *hints):
        v = _REF_VALUE.match(text, m.end())
        if m["c"] is not None and _VETTING.search(text, max(0, m.start() - 30), m.start()):
            continue  # "my DBS certificate number": a person's check, asked for to log in
        if m["l"] is not None and v is not None and _UK_LICENCE.fullmatch(v["v"]):
            continue  # a licence number of a driving licence's shape: a person's ID
        if v is not None and v.start("v") - m.end() <= 3 and not _PRODUCT_KEY.fullmatch(v["v"]):
            out.append(v.span("v"))  # not VK7JG-NPHTM-C97JM-...: a software serial is a key
            if m["s"] is not None:  # a stocked item's number: the model it fits is named too
                out += _model_names(text, m.start())
    for m in scan(_NAMED_REF, text, low, "order", "booking", "invoice", "job", "return",
                  "consignment", "parcel", "shipment"):  # fmt: skip
        if not SECRET_WORD.search(text, *sentence(text, m.start())):
            out.append(m.span("v"))
    out += [m.span("v") for m in scan(_MODEL, text, low, "a ", "an ", "model", "型号")]
    for m in scan(_MAKE_MODEL, text, low, "是", "买", "选", "换", "用的", "入了", "is ", "bought",
                  "got ", "picked"):  # fmt: skip
        group = "v" if m["v"] is not None else "z"
        start, end = sentence(text, m.start())
        brand_ok = group == "v" or not _NOT_BRAND.search(m["zb"])
        named = SECRET_WORD.search(text, start, m.start(group)) is not None
        if brand_ok and not named and _SPEC.search(text, m.end(group), end):
            out.append(m.span(group))
    for m in scan(_MEASURE, text, low, "mm", "cm", "km", "kg", "mg", "ml", "mah", "gb", "tb",
                  "mb", "kw", "inch"):  # fmt: skip
        start, end = sentence(text, m.start())
        if _SPEC.search(text, m.end(), end) and not SECRET_WORD.search(text, start, end):
            out.append(m.span())  # "RF 70-200mm lens, £1,499": a size said with a price
    return out + _ratings(text)
