"""Semantic compression (SPEC EX6, EX7; seed 002, SimpleMem's three stages).

1. trigger: rules (explicit "remember", decision, changed value, milestone, a preference
   said [3] times), then a model, when given, must be [0.7] sure (explicit asks excepted);
2. structure: entity, type, one-sentence summary, facts, confidence, by rules or by a
   model in strict JSON (validated; one retry, then rules); the back-check then requires
   every number, amount, date, version, time and ID of the source in the summary or a
   fact value, else the item is redone once, else kept verbatim;
3. merge: the same entity and kind of statement within [7] days supersedes the older entry
   (its other facts carried over); later only a changed value does (LT11 keeps history).

    Compressor().process("预算调整为 8 万", memory).result.status     # "replaced", ...
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from decimal import Decimal
from functools import cache
from typing import TYPE_CHECKING, Any, Literal, get_args

from remem import text
from remem.entry import Entry, to_utc, utcnow
from remem.errors import InvalidInput
from remem.llm import LLMError

if TYPE_CHECKING:
    from remem.llm import ChatModel
    from remem.memory import Memory, SaveResult
    from remem.messages import Message

__all__ = [
    "CompressedItem", "CompressionConfig", "Compressor", "ItemType", "NumberToken", "Outcome",
    "Trigger", "compress_by_rules", "missing_numbers", "number_tokens", "parse_item",
]  # fmt: skip

ItemType = Literal["fact", "preference", "decision", "milestone", "change"]
Kind = Literal["decision", "change", "milestone", "preference"]
ITEM_TYPES: tuple[str, ...] = get_args(ItemType)
# Statements of how things stand merge with each other: "预算调整为 8 万" (a change)
# replaces "预算 5 万" (a fact). Preferences and milestones merge only with their own kind.
_STATE: tuple[ItemType, ...] = ("fact", "decision", "change")
_MERGES: dict[str, tuple[ItemType, ...]] = {t: _STATE for t in _STATE}
_MERGES |= {"preference": ("preference",), "milestone": ("milestone",)}

# -- numbers (EX7) ---------------------------------------------------------------------------
_MON = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\b\.?"
)
_TOKEN = re.compile(
    r"(?P<date_ymd>(?<![\d.])\d{4}[-/.]\d{1,2}[-/.]\d{1,2}(?!\d|\.\d))"
    r"|(?P<date_ym>(?<![\d.])\d{4}[-/]\d{1,2}(?![\d/-]|\.\d))"
    r"|(?P<date_cn>(?:\d{4}\s*年\s*)?\d{1,2}\s*月(?:\s*\d{1,2}\s*[日号])?)"
    rf"|(?P<date_en>{_MON}\s+\d{{1,2}}(?:st|nd|rd|th)?(?!\d)(?:,?\s+\d{{4}})?|{_MON}\s+\d{{4}})"
    rf"|(?P<date_dm>(?<![\d.])\d{{1,2}}(?:st|nd|rd|th)?\s+{_MON}(?:,?\s+\d{{4}})?)"
    r"|(?P<time>(?<![\d.:])\d{1,2}:\d{2}(?::\d{2})?(?![\d:]))"
    r"|(?P<amount>[$¥€£]\s?\d+(?:\.\d+)?\s?(?:bn|[mMbB])(?![A-Za-z])"
    r"|(?<![\w.])[$¥€£]?\s?\d+(?:\.\d+)?\s?(?:万亿|亿|千万|百万|万|千|k|K|w)(?![A-Za-z])"
    r"|(?<![\w.])\d+(?:\.\d+)?\s(?:thousand|million|billion)\b)"
    r"|(?P<percent>(?<![\w.])\d+(?:\.\d+)?\s?%)"
    r"|(?P<id>(?<![\w#-])(?:#\d+|[A-Z][A-Za-z]*\d*(?:[-_][A-Za-z0-9]+)+|[A-Z]{2,}\d{3,}\w*)"
    r"|(?<!\w)(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?!\w)"
    r"|(?<!\w)(?=[A-Z0-9]*[A-Z])(?=[A-Z0-9]*\d)[A-Z0-9]{8,}(?!\w))"
    r"|(?P<num>(?<![\w.])[A-Za-z]*\d+(?:\.\d+)*(?:-(?:rc|alpha|beta|dev|pre)[.\d]*)?)",
    re.ASCII,
)
_CN_DATE = re.compile(r"(?:(\d{4})\s*年\s*)?(\d{1,2})\s*月(?:\s*(\d{1,2})\s*[日号])?")
_MONTHS = {m: i for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), 1)}
_SCALE = {"万亿": 10**12, "亿": 10**8, "千万": 10**7, "百万": 10**6, "万": 10**4, "千": 1000}
_SCALE |= {"k": 1000, "w": 10**4, "m": 10**6, "b": 10**9, "bn": 10**9, "thousand": 1000}
_SCALE |= {"million": 10**6, "billion": 10**9}


@dataclass(frozen=True, slots=True)
class NumberToken:
    """A number-like value as written, the key it is compared by ("5 万" -> 50000), its kind
    (date, time, amount, percent, id, version, number), and every key it covers (a full
    date also covers its year and its month-day)."""

    surface: str
    key: str
    kind: str
    aliases: frozenset[str]


def _normalise(value: str) -> str:
    """Full-width to ASCII, thousands separators dropped: "１２，５００" -> "12500"."""
    return re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", unicodedata.normalize("NFKC", value))


def _date(y: str | None, m: str | int, d: str | None) -> tuple[str, set[str]]:
    month = f"{int(m):02d}"
    md = f"{month}-{int(d):02d}" if d else f"m{month}"
    key = f"{y}-{md}" if y and d else (f"{y}-{month}" if y else md)
    return key, {key, md, f"m{month}", *([y, f"{y}-{month}"] if y else [])}


def _keys(kind: str, s: str) -> tuple[str, set[str]]:
    """The comparison key of one token and every key it covers."""
    nums = re.findall(r"\d+(?:\.\d+)?", s)
    if kind in ("date_ymd", "date_ym"):
        return _date(nums[0], nums[1], nums[2] if kind == "date_ymd" else None)
    if kind == "date_cn":
        return _date(*_CN_DATE.fullmatch(s).groups())  # type: ignore[union-attr]
    if kind in ("date_en", "date_dm"):
        month = _MONTHS[re.search(r"[A-Z][a-z]{2}", s).group().lower()]  # type: ignore[union-attr]
        year = next((n for n in nums if len(n) == 4), None)
        return _date(year, month, next((n for n in nums if len(n) <= 2), None))
    if kind == "amount":
        unit = re.sub(r"[\d.\s$¥€£]", "", s)
        value = Decimal(nums[0]) * _SCALE[unit if unit in _SCALE else unit.lower()]
        key = format(value.normalize(), "f")
    elif kind == "time":
        key = f"{int(s.split(':')[0])}:{s.split(':', 1)[1]}"
    elif kind == "percent":
        key = f"{nums[0]}%"
    elif kind == "id":
        key = s.lstrip("#").upper()
    else:  # integers, decimals, versions: "JDK17" -> 17, "v1.2.3" -> 1.2.3
        key = re.sub(r"^[A-Za-z]*", "", s).lower()
    return key, {key}


def number_tokens(source: str) -> list[NumberToken]:
    """Every number-like value in `source`, in order, repeats dropped."""
    normal = _normalise(source)
    spans = [(m.start(), m.lastgroup or "num", m.group()) for m in _TOKEN.finditer(normal)]
    spans = [s for s in spans if re.search(r"\d", s[2])]
    covered = {i for start, _, s in spans for i in range(start, start + len(s))}
    # A safety net: digits no pattern claims ("abc.5") are checked all the same.
    spans += [(m.start(), "num", m.group()) for m in re.finditer(r"\d+", normal)
              if m.start() not in covered]  # fmt: skip
    found: dict[str, NumberToken] = {}
    for _, group, surface in sorted(spans):
        key, aliases = _keys(group, surface)
        kind = group.split("_")[0]
        if kind == "num":
            kind = "version" if re.match(r"[vV]\d|\d+\.\d+\.\d", surface) else "number"
        found.setdefault(key, NumberToken(surface.strip(), key, kind, frozenset(aliases)))
    return list(found.values())


def missing_numbers(source: str, summary: str, facts: Mapping[str, str]) -> list[str]:
    """The values of `source` (as written) that neither `summary` nor a fact value keeps."""
    kept = {
        a for part in (summary, *facts.values()) for t in number_tokens(part) for a in t.aliases
    }
    return [t.surface for t in number_tokens(source) if t.key not in kept]


# -- cue words: trigger and type -------------------------------------------------------------
def _cues(zh: str, en: str) -> re.Pattern[str]:
    return re.compile(rf"{zh}|\b(?:{en})\b", re.I)


_EXPLICIT = re.compile(
    r"记住|记一下|记下来?|别忘了|请记|帮我记|(?:^|[.,;:!]\s*)(?:please\s+)?"
    r"(?:remember|note that|keep in mind|don'?t forget|make a note)\b",
    re.I,
)
_KINDS: tuple[tuple[Kind, re.Pattern[str]], ...] = (
    ("decision", _cues(
        "决定|定了|定下来|定为|定在|就按|就用|改成|敲定|拍板|选定|最终(?:采用|选择|选用|用)|确定用",
        r"we decided|decided (?:to|on)|let'?s go with|we'?ll go with|going with|agreed (?:on|to)"
        r"|settled on|final decision",
    )),
    ("change", _cues(
        "(?:调整|升级|降级|提高|降低|增加|减少|增长|扩大|缩减|提升|下降|上涨|延期|推迟|提前|迁移|"
        "涨|降|升|改|变更|变)(?:为|到|至|成)|换成|延至",
        r"changed (?:to|from)|bumped|switched|(?:raised|lowered|increased|reduced|upgraded"
        r"|downgraded|updated|moved|postponed|pushed|extended) to",
    )),
    ("milestone", _cues(
        "上线|发布|完成|交付|验收通过|通过验收|合并|合入|发版|达成|签约|已支付|已付款|付清",
        r"released|shipped|launched|went live|deployed|merged|completed|finished|delivered"
        r"|signed|passed",
    )),
    ("preference", _cues(
        "喜欢|偏好|习惯|倾向|讨厌|宁愿|不要|别再|总是|一律|以后都|统一用",
        r"i prefer|prefer|i like|i love|i hate|i don'?t like|always|never|please don'?t",
    )),
)  # fmt: skip
_NOT_DONE = _cues("(?:没有?|未|尚未|还没)(?:完成|上线|发布|交付|合并)", r"not (?:yet )?\w+ed")
_TENTATIVE = _cues(  # EX8: tentative talk is no decision and no preference
    "试试|试一下|尝试一下|也许|或许|可能会|考虑一下|看看",
    r"maybe|perhaps|might|try|trying|thinking about|not sure",
)
_CONFIDENCE = {"decision": 0.85, "change": 0.85, "milestone": 0.8, "preference": 0.75}


def _cue(sentence: str) -> tuple[Kind, str] | None:
    """The kind of statement (decision > change > milestone > preference) and its cue."""
    for kind, pattern in _KINDS:
        found = pattern.search(sentence)
        if found and not (kind == "milestone" and _NOT_DONE.search(sentence)):
            return kind, found.group()
    return None


def _is_cue(word: str) -> bool:
    return any(p.fullmatch(word) for _, p in _KINDS) or bool(_EXPLICIT.fullmatch(word))


# -- summary and entity (rules) -------------------------------------------------------------
_FILLER = re.compile(
    r"(^|[，,。；;：:！!？?]\s*)(?:嗯+|呃+|额+|唔+|那个|就是说|对了|话说|顺便(?:说|提)一?[下句]|"
    r"好的|好吧|um+|uh+|erm|well|so|oh|btw|by the way|anyway|basically|actually|you know|"
    r"ok(?:ay)?)(?:[，,、\s]+|$)",
    re.I,
)
_INSTRUCTION = re.compile(
    r"^\s*(?:请|麻烦)?(?:帮我|你)?(?:记住|记一下|记下来?|别忘了)[:：，,\s]*"
    r"|^\s*(?:please\s+)?(?:remember|note|keep in mind|don'?t forget)(?:\s+that)?[:,\s]+",
    re.I,
)
_PARTICLES = re.compile(r"[吧啊呀哈哦嘛]+(?=[。！!，,]*\s*$)")
_SENTENCE = re.compile(r"(?<=[。！？!?；;])|\n+|(?<=\.)\s+(?=[A-Z])")
_LINKS = text.EN_STOPWORDS & {"is", "are", "was", "were", "be", "to", "now", "has", "have"}
_LINKS |= set(
    """是 为 用 使用 采用 作为 改为 改成 调整 调整为 调整到 升级 升级到 升到 降级 降到
    定为 定 设为 设置 设置为 换成 变更 变更为 变为 变成 延至 延期 推迟 提前 增加 减少
    提高 降低 涨到 迁移 到 至 成 需要 大约 约 目前 当前 现在 仍 保持 等于 达到 有 在 于
    涨 降 升 uses use using will runs run had costs cost takes take needs need should must
    changed bumped raised lowered increased reduced upgraded downgraded updated moved
    switched set stays remains hit hits reached""".split()
)
_EDGE = text.EN_STOPWORDS | _LINKS | set(_MONTHS) | {"june", "july", "march", "april", "sept"}
_EDGE |= set(
    """我 我们 咱们 你 你们 他们 团队 大家 最后 最终 决定 确定 同意 一致 把 将 的 了 就
    也 都 已 已经 不 没 没有 别 请 再 又 对 给 跟 和 与 被 让 以后 今后 默认 个 let s ll
    go going decided""".split()
)
_GENERIC = {"项目", "团队", "公司", "大家", "project", "team", "company", "everyone"}


def _trim(sentence: str) -> str:
    """A sentence without filler (嗯, 那个, by the way), "remember that" and end particles."""
    out = _INSTRUCTION.sub("", sentence)
    while (shorter := _FILLER.sub(r"\1", out)) != out:
        out = shorter
    out = _PARTICLES.sub("", out.strip())
    return " ".join(out.split()).strip(" ，,。.；;：:！!")


def _sentences(source: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(source) if s and s.strip()]


@cache
def _jieba() -> Any:
    import rjieba

    return rjieba


def _clean(words: Sequence[str]) -> str:
    """Words joined, without the pronouns, particles, links and cue words at their edges."""
    kept = list(words)
    for end in (0, -1):
        while kept and (not kept[end].strip() or kept[end].lower() in _EDGE
                        or end and _is_cue(kept[end])):  # fmt: skip
            kept.pop(end)
    phrase = " ".join("".join(kept).split())[-24:].strip()  # the head noun comes last
    return "" if len(phrase) < 2 or phrase.lower() in _GENERIC else phrase


def _side(words: Sequence[str], start: int, step: int) -> list[str]:
    """The words from `start` going `step` (-1 or +1) up to punctuation, a number or a link
    word; going back, "X 从 Y" gives X (the subject, not the old value)."""
    out: list[str] = []
    i = start
    while 0 <= i < len(words):
        w = words[i].strip().lower()
        if w in ("从", "由", "from"):
            if step > 0:
                break
            out = []
        elif w and (re.search(r"\d", w) or re.fullmatch(r"[\W_]+", w) or w in _LINKS):
            if w not in ("$", "¥", "€", "£") or out:  # "$80k": the sign is no stop
                break
        else:
            out.append(words[i])
        i += step
    return out[::-1] if step < 0 else out


def _entity(sentence: str) -> str:
    """The named thing: the words before the first link word or number ("预算调整为 8 万" ->
    预算), after it when those are generic ("项目使用 JDK 17" -> JDK); an ID is part of the
    name ("订单 ORD-7"); else the first ID or version; else ""."""
    sentence = re.sub(r"(?<=\S)([从由])(?=\s*[\w$¥€£])", r" \1 ", sentence)  # jieba: "数从"
    words: list[str] = [w for w in _jieba().cut(unicodedata.normalize("NFKC", sentence)) if w]
    links = [i for i, w in enumerate(words) if w.lower() in _LINKS or re.search(r"\d", w)]
    for i in links or [i for i, w in enumerate(words) if _is_cue(w)]:
        name = _clean(_side(words, i - 1, -1))
        if any(t.kind == "id" for t in number_tokens(words[i])):
            return f"{name} {words[i].strip()}".strip()
        if name or (name := _clean(_side(words, i + 1, +1))):
            return name
    named = [w for w in words if re.fullmatch(r"[vV]\d+(?:\.\d+)+", w)]
    return ([t.surface for t in number_tokens(sentence) if t.kind == "id"] + named + [""])[0]


# -- structured items ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CompressedItem:
    """One compressed memory. `verbatim`: the back-check failed twice, so the summary is
    the source itself; `redone`: the first attempt lost a number."""

    entity: str
    type: ItemType
    summary: str
    facts: dict[str, str]
    confidence: float
    source_text: str
    verbatim: bool = False
    redone: bool = False
    method: Literal["rules", "model"] = "rules"


_FROM_TO = re.compile(
    r"(?:从|由|\bfrom\b)([^，,。；;]{1,24}?)(?:到|为|成|至|\bto\b)([^，,。；;]{1,24})"
)


def _rule_facts(source: str, entity: str) -> dict[str, str]:
    """Name -> value for the numbers of `source`: named values ("预算 8 万" -> 预算: 8万),
    the new value of a "from X to Y" (the old one as <name>_before), then dates, times,
    amounts, percentages, IDs and versions under their kind."""
    normal = _normalise(source)
    tokens = {t.key: t for t in number_tokens(normal)}
    names: dict[str, tuple[str, str]] = {}  # token key -> (name, value as named)
    for name, value in text.named_values(normal).items():
        found = number_tokens(value)
        if len(found) == 1 and found[0].key in tokens:
            names.setdefault(found[0].key, (name, value))
    facts: dict[str, str] = {}
    named: set[str] = set()  # token keys with a fact
    for match in _FROM_TO.finditer(normal):
        old, new = number_tokens(match[1]), number_tokens(match[2])
        if not old or not new or {old[-1].key, new[0].key} & named:
            continue
        if names.get(new[0].key, ("\0",))[0] in match[2].lower():
            continue  # "从 MySQL 5.7 迁移到 PostgreSQL 16": two things, not one value
        name = (names.get(old[-1].key) or [entity.lower() or names.get(new[0].key, ("",))[0]])[0]
        if name:
            facts[f"{name}_before"], facts[name] = old[-1].surface, new[0].surface
            named |= {old[-1].key, new[0].key}
    for key, (name, value) in names.items():
        if key not in named and name not in facts:
            facts[name] = value
            named.add(key)
    for key, token in tokens.items():
        if token.kind != "number" and key not in named:  # named by kind: date, id, ...
            n = sum(k == token.kind or k.startswith(f"{token.kind}_") for k in facts)
            facts[f"{token.kind}_{n + 1}" if n else token.kind] = token.surface
    return facts


def _verbatim(source: str) -> str:
    return " ".join(source.split())


Redo = Callable[[list[str]], "CompressedItem | None"]


def _back_check(item: CompressedItem, redo: Redo) -> CompressedItem:
    """EX7: `item` if it kept every number; else `redo(missing)` once; else verbatim."""
    missing = missing_numbers(item.source_text, item.summary, item.facts)
    if not missing:
        return item
    again = redo(missing)
    if again is not None and not missing_numbers(again.source_text, again.summary, again.facts):
        return replace(again, redone=True)
    summary = _verbatim(item.source_text)
    return replace(again or item, summary=summary, verbatim=True, redone=True)


def compress_by_rules(source: str) -> CompressedItem:
    """Offline structuring: the sentence with the cue (else the first with a number),
    trimmed, is the summary; the redo trims the whole text instead."""
    sentences = _sentences(source) or [source]
    cued = [(s, c) for s in sentences if (c := _cue(s))]
    main = cued[0][0] if cued else next((s for s in sentences if re.search(r"\d", s)), source)
    kind: ItemType = cued[0][1][0] if cued else "fact"
    entity = _entity(_trim(main)) or _entity(_trim(source))
    confidence = 0.9 if _EXPLICIT.search(source) else _CONFIDENCE.get(kind, 0.7)
    summary = _trim(main) or _verbatim(source)
    item = CompressedItem(entity, kind, summary, _rule_facts(source, entity), confidence, source)
    return _back_check(item, lambda _: replace(item, summary=_trim(source) or summary))


# -- strict JSON from a model -------------------------------------------------------------
_FIELDS = {"entity", "type", "summary", "facts", "confidence"}
STRUCTURE_PROMPT = """Compress the user's text into one long-term memory entry. Reply with \
only a JSON object with exactly these keys: {"entity": "<the named thing it is about>", \
"type": "fact" | "preference" | "decision" | "milestone" | "change", "summary": "<one \
sentence>", "facts": {"<name>": "<value>"}, "confidence": <0..1>}. Keep every number, \
amount, date, version and ID of the text exactly as written in the summary or a fact value; \
drop filler and small talk. decision: something was decided; change: a value changed; \
milestone: something was done or released; preference: how the user wants things; fact: \
anything else. confidence: 1 when stated outright, lower when inferred."""
RETRY_PROMPT = "That reply is not valid: {errors}. Reply with only the JSON object."
REDO_PROMPT = """Your entry lost these values of the text: {missing}. Write it again keeping \
each of them exactly as written in the summary or a fact value. Only the JSON object."""
TRIGGER_PROMPT = """Is this message from the user worth keeping in long-term memory (a \
decision, a changed value, a milestone, a lasting preference or fact; not small talk, not a \
tentative remark)? Reply with only {"remember": true|false, "confidence": <0..1>}."""


def _user(content: str) -> Message:
    return {"role": "user", "content": content}


def _messages(system: str, source: str) -> list[Message]:
    return [{"role": "system", "content": system}, _user(source)]


def _json_object(reply: str) -> tuple[dict[str, Any] | None, str]:
    body = reply.strip()
    fenced = re.fullmatch(r"```(?:json)?\s*(.*?)\s*```", body, re.S)
    try:
        data = json.loads(fenced.group(1) if fenced else body)
    except ValueError as exc:
        return None, f"not JSON ({exc})"
    return (data, "") if isinstance(data, dict) else (None, "not a JSON object")


def _is_score(value: object) -> bool:
    number = isinstance(value, int | float) and not isinstance(value, bool)
    return number and math.isfinite(value) and 0.0 <= value <= 1.0  # type: ignore[arg-type,operator]


def parse_item(reply: str, source: str) -> tuple[CompressedItem | None, list[str]]:
    """A model's reply as an item, or None and everything wrong with it."""
    data, problem = _json_object(reply)
    if data is None:
        return None, [problem]
    errors = [] if set(data) == _FIELDS else [f"keys must be exactly {', '.join(sorted(_FIELDS))}"]
    entity, summary, facts = data.get("entity"), data.get("summary"), data.get("facts")
    if not isinstance(entity, str) or not entity.strip() or len(entity) > 100:
        errors.append("entity must be a non-empty string of at most 100 characters")
    if data.get("type") not in ITEM_TYPES:
        errors.append(f"type must be one of {', '.join(ITEM_TYPES)}")
    if not isinstance(summary, str) or not summary.strip():
        errors.append("summary must be a non-empty string")
    if not isinstance(facts, dict) or not all(
        isinstance(k, str) and k.strip() and isinstance(v, str) for k, v in facts.items()
    ):
        errors.append("facts must map names to string values")
    if not _is_score(data.get("confidence")):
        errors.append("confidence must be a number from 0 to 1")
    if errors:
        return None, errors
    item = CompressedItem(
        " ".join(str(entity).split()), data["type"], " ".join(str(summary).split()),
        dict(facts or {}), float(data["confidence"]), source, method="model",
    )  # fmt: skip
    return item, []


# -- the pipeline -------------------------------------------------------------------------
TriggerReason = Literal[Kind, "explicit", "question", "tentative", "none", "model"]


@dataclass(frozen=True, slots=True)
class Trigger:
    """Whether a text is worth compressing, why, and the words (`cue`) that said so."""

    fired: bool
    reason: TriggerReason
    cue: str = ""
    confidence: float = 1.0
    detail: str = ""


@dataclass(frozen=True, slots=True)
class CompressionConfig:
    """The seeds' defaults: merge window [7] days, a preference counts once said [3] times,
    a model must be [0.7] sure that a text is worth remembering."""

    window_days: float = 7.0
    repeat_threshold: int = 3
    model_threshold: float = 0.7
    max_tokens: int = 600
    counter_size: int = 256  # preferences counted per Compressor (oldest forgotten first)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What `Compressor.process` did; no item and no result when the trigger did not fire."""

    trigger: Trigger
    item: CompressedItem | None = None
    result: SaveResult | None = None


def _entity_key(entity: str | None) -> str:
    return text.canonicalize(entity or "").replace(" ", "")


def _when(entry: Entry) -> datetime:
    return entry.created_at


class Compressor:
    """Trigger, structure, back-check and merge (SPEC EX6, EX7); offline without a model.
    An instance counts how often each preference was said: keep one per user or session."""

    def __init__(self, model: ChatModel | None = None, config: CompressionConfig | None = None):
        self.model = model
        self.config = config or CompressionConfig()
        self._said: OrderedDict[str, int] = OrderedDict()

    def trigger(self, source: str) -> Trigger:
        """Rules first; then a model, when set, must confirm (explicit instructions excepted)."""
        if found := _EXPLICIT.search(source):
            return Trigger(True, "explicit", found.group().strip(" .,;:!"))
        if re.search(r"(?:[?？]|吗[。！!]?)\s*$", source):
            return Trigger(False, "question")
        if found := _TENTATIVE.search(source):
            return Trigger(False, "tentative", found.group())
        if (cue := _cue(source)) is None:
            return Trigger(False, "none")
        if cue[0] != "preference":
            return self._confirm(source, Trigger(True, cue[0], cue[1]))
        key = text.canonicalize(_trim(source))
        said = self._said[key] = self._said.pop(key, 0) + 1
        while len(self._said) > self.config.counter_size:
            self._said.popitem(last=False)
        detail = f"said {said} of {self.config.repeat_threshold} times"
        if said < self.config.repeat_threshold:
            return Trigger(False, "preference", cue[1], detail=detail)
        return self._confirm(source, Trigger(True, "preference", cue[1], detail=detail))

    def _confirm(self, source: str, rule: Trigger) -> Trigger:
        if self.model is None:
            return rule
        ask = _messages(TRIGGER_PROMPT, source)
        try:
            reply = self.model.complete(ask, max_tokens=60, purpose="compression").content
        except LLMError as exc:
            return replace(rule, detail=f"model unavailable, rules only: {exc}")
        data, _ = _json_object(reply)
        if not (data and set(data) == {"remember", "confidence"} and _is_score(data["confidence"])
                and isinstance(data["remember"], bool)):  # fmt: skip
            return replace(rule, detail="model reply unusable, rules only")
        score = float(data["confidence"]) if data["remember"] else 0.0
        if score < self.config.model_threshold:
            detail = f"{rule.reason} not confirmed by the model ({score:.2f})"
            return Trigger(False, "model", rule.cue, score, detail)
        return replace(rule, confidence=score)

    def compress(self, source: str) -> CompressedItem:
        """A structured item that keeps every number of `source` (EX7)."""
        if not isinstance(source, str) or not source.strip():
            raise InvalidInput("nothing to compress")
        item = self._compress_with_model(source) if self.model is not None else None
        return item or compress_by_rules(source)

    def _ask(self, chat: list[Message], source: str, tries: int) -> tuple[
        CompressedItem | None, list[Message]
    ]:  # fmt: skip
        """An item from the model (retried once when `tries` is 2), and the conversation."""
        assert self.model is not None
        for attempt in range(tries):
            cap = self.config.max_tokens
            reply = self.model.complete(chat, max_tokens=cap, purpose="compression").content
            item, errors = parse_item(reply, source)
            chat = [*chat, {"role": "assistant", "content": reply}]
            if item is not None or attempt == tries - 1:
                return item, chat
            chat.append(_user(RETRY_PROMPT.format(errors="; ".join(errors))))
        return None, chat

    def _compress_with_model(self, source: str) -> CompressedItem | None:
        """Strict JSON, one retry when invalid, one redo when a number is lost; None (use
        the rules) when the model fails or never answers validly."""
        try:
            item, chat = self._ask(_messages(STRUCTURE_PROMPT, source), source, tries=2)

            def redo(missing: list[str]) -> CompressedItem | None:
                ask = _user(REDO_PROMPT.format(missing=", ".join(missing)))
                return self._ask([*chat, ask], source, tries=1)[0]

            return _back_check(item, redo) if item is not None else None
        except LLMError:
            return None

    def process(self, source: str, memory: Memory, *, at: datetime | str | None = None) -> Outcome:
        """Trigger, compress and apply one thing the user said."""
        trigger = self.trigger(source)
        if not trigger.fired:
            return Outcome(trigger)
        item = self.compress(source)
        return Outcome(trigger, item, self.apply(item, memory, at=at))

    def apply(
        self, item: CompressedItem, memory: Memory, *, at: datetime | str | None = None
    ) -> SaveResult:
        """Save `item` to project scope as auto_extracted, superseding the entry it updates:
        the newest of the same entity and kind within the window (its other facts carried
        over), else one whose value for a shared fact changed, else a conflicting older one.
        A conflict with a newer entry writes nothing (the item is the stale one)."""
        when = to_utc(at) if at else utcnow()
        target, merge = self._target(item, memory, when)
        carried = {k: v for k, v in (target.facts if target and merge else {}).items()
                   if k not in item.facts and not k.endswith("_before")}  # fmt: skip
        content = item.summary
        if carried:
            content += " (" + "; ".join(f"{k}: {v}" for k, v in carried.items()) + ")"
        meta = {"source_text": item.source_text, "verbatim": item.verbatim, "method": item.method}
        fields: dict[str, Any] = {
            "type": item.type, "source": "auto_extracted", "entity": item.entity or None,
            "facts": {**carried, **item.facts}, "importance": round(item.confidence, 3),
            "created_at": when, "metadata": {"compression": meta},
        }  # fmt: skip
        if target is not None:
            return memory.save(content, replace_id=target.id, **fields)
        result = memory.save(content, **fields)
        older = [c for c in result.conflicts if c.created_at <= when]
        if result.status != "conflict" or not older:
            return result
        return memory.save(content, replace_id=max(older, key=_when).id, **fields)

    def _target(self, item: CompressedItem, memory: Memory, when: datetime) -> tuple[
        Entry | None, bool
    ]:  # fmt: skip
        """The entry `item` supersedes, and whether it merges with it (within the window)."""
        key = _entity_key(item.entity)
        pool = [
            e for kind in _MERGES[item.type] for e in memory.list(type=kind, scope="project")
            if e.created_at <= when and (not e.entity or _entity_key(e.entity) == key)
        ]  # fmt: skip
        same = sorted((e for e in pool if key and e.entity), key=_when)
        if (
            same
            and same[-1].type == item.type
            and (_entity_key(same[-1].content) == _entity_key(item.summary))
        ):
            return None, False  # said again: the store refreshes it as a duplicate
        if same and when - same[-1].created_at <= timedelta(days=self.config.window_days):
            return same[-1], True
        changed = [e for e in pool if _contradicts(e, item.facts, loose=not e.entity)]
        return (max(changed, key=_when) if changed else None), False


def _value(value: str) -> tuple[str, ...]:
    return tuple(t.key for t in number_tokens(value)) or (_entity_key(value),)


def _contradicts(entry: Entry, facts: Mapping[str, str], *, loose: bool) -> bool:
    """A shared fact with another value; for an entry without an entity only named facts
    count ("jdk", "预算"), not those named by kind ("date", "amount_2")."""
    generic = {"date", "time", "amount", "percent", "id", "version"}
    return any(
        k in entry.facts and _value(entry.facts[k]) != _value(v) and not k.endswith("_before")
        and not (loose and re.sub(r"_\d+$", "", k) in generic)
        for k, v in facts.items()
    )  # fmt: skip
