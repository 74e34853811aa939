"""The rule side of semantic compression (SPEC EX6, EX8): cue words that say what kind
of statement a sentence is, the trimming of filler and instructions, and the heuristics
that find the named thing (the entity) and its facts.

Used through `remem.extract.compression.Compressor`; nothing here stores or calls a model.

    find_cue("预算调整为 8 万")           # ("change", "调整为")
    find_entity("预算调整为 8 万")        # "预算"
    rule_facts("预算从 5 万调整为 8 万", "预算")  # {"预算_before": "5 万", "预算": "8 万"}
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Literal

from remem import text
from remem.named_values import named_values
from remem.numbers import MONTHS, normalise, number_tokens

Kind = Literal["decision", "change", "milestone", "preference"]


# -- cue words: trigger and type -------------------------------------------------------------
def _cues(zh: str, en: str) -> re.Pattern[str]:
    return re.compile(rf"{zh}|\b(?:{en})\b", re.I)


EXPLICIT = re.compile(
    r"记住|记一下|记下来?|别忘了|请记|帮我记|(?:^|[.,;:!]\s*)(?:please\s+)?"
    r"(?:remember|note that|keep in mind|don'?t forget|make a note)\b",
    re.I,
)
QUESTION = re.compile(r"(?:[?？]|吗[。！!]?)\s*$")
_DECISION = _cues(
    "决定|定了|定下来|定为|定在|就按|就用|改成|敲定|拍板|选定|最终(?:采用|选择|选用|用)|确定用",
    r"we decided|decided (?:to|on)|let'?s go with|we'?ll go with|going with"
    r"|agreed (?:on|to)|settled on|final decision",
)
_CHANGE = _cues(
    "(?:调整|升级|降级|提高|降低|增加|减少|增长|扩大|缩减|提升|下降|上涨|延期|推迟|提前|迁移|"
    "涨|降|升|改|变更|变)(?:为|到|至|成)|换成|延至",
    r"changed (?:to|from)|bumped|switched|(?:raised|lowered|increased|reduced|upgraded"
    r"|downgraded|updated|moved|postponed|pushed|extended) to",
)
_MILESTONE = _cues(
    "上线|发布|完成|交付|验收通过|通过验收|合并|合入|发版|达成|签约|已支付|已付款|付清",
    r"released|shipped|launched|went live|deployed|merged|completed|finished|delivered"
    r"|signed|passed",
)
_PREFERENCE = _cues(
    "喜欢|偏好|习惯|倾向|讨厌|宁愿|不要|别再|总是|一律|以后都|统一用",
    r"i prefer|prefer|i like|i love|i hate|i don'?t like|always|never|please don'?t",
)
_KINDS: tuple[tuple[Kind, re.Pattern[str]], ...] = (
    ("decision", _DECISION),
    ("change", _CHANGE),
    ("milestone", _MILESTONE),
    ("preference", _PREFERENCE),
)
_NOT_DONE = _cues("(?:没有?|未|尚未|还没)(?:完成|上线|发布|交付|合并)", r"not (?:yet )?\w+ed")
TENTATIVE = _cues(  # EX8: tentative talk is no decision and no preference
    "试试|试一下|尝试一下|也许|或许|可能会|考虑一下|看看",
    r"maybe|perhaps|might|try|trying|thinking about|not sure",
)
CONFIDENCE = {"decision": 0.85, "change": 0.85, "milestone": 0.8, "preference": 0.75}


def find_cue(sentence: str) -> tuple[Kind, str] | None:
    """The kind of statement (decision > change > milestone > preference) and its cue."""
    for kind, pattern in _KINDS:
        found = pattern.search(sentence)
        if found and not (kind == "milestone" and _NOT_DONE.search(sentence)):
            return kind, found.group()
    return None


def _is_cue(word: str) -> bool:
    return any(p.fullmatch(word) for _, p in _KINDS) or bool(EXPLICIT.fullmatch(word))


# -- summary and entity ----------------------------------------------------------------------
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
_EDGE = text.EN_STOPWORDS | _LINKS | set(MONTHS) | {"june", "july", "march", "april", "sept"}
_EDGE |= set(
    """我 我们 咱们 你 你们 他们 团队 大家 最后 最终 决定 确定 同意 一致 把 将 的 了 就
    也 都 已 已经 不 没 没有 别 请 再 又 对 给 跟 和 与 被 让 以后 今后 默认 个 let s ll
    go going decided""".split()
)
_GENERIC = {"项目", "团队", "公司", "大家", "project", "team", "company", "everyone"}


def trim(sentence: str) -> str:
    """A sentence without filler (嗯, 那个, by the way), "remember that" and end particles."""
    out = _INSTRUCTION.sub("", sentence)
    while (shorter := _FILLER.sub(r"\1", out)) != out:
        out = shorter
    out = _PARTICLES.sub("", out.strip())
    return " ".join(out.split()).strip(" ，,。.；;：:！!")


def split_sentences(source: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(source) if s and s.strip()]


def _clean(words: Sequence[str]) -> str:
    """Words joined, without the pronouns, particles, links and cue words at their edges."""
    kept = list(words)
    for end in (0, -1):
        while kept and (
            not kept[end].strip() or kept[end].lower() in _EDGE or end and _is_cue(kept[end])
        ):
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


def find_entity(sentence: str) -> str:
    """The named thing: the words before the first link word or number ("预算调整为 8 万" ->
    预算), after it when those are generic ("项目使用 JDK 17" -> JDK); an ID is part of the
    name ("订单 ORD-7"); else the first ID or version; else ""."""
    sentence = re.sub(r"(?<=\S)([从由])(?=\s*[\w$¥€£])", r" \1 ", sentence)  # jieba: "数从"
    words: list[str] = [w for w in text.jieba().cut(unicodedata.normalize("NFKC", sentence)) if w]
    links = [i for i, w in enumerate(words) if w.lower() in _LINKS or re.search(r"\d", w)]
    for i in links or [i for i, w in enumerate(words) if _is_cue(w)]:
        name = _clean(_side(words, i - 1, -1))
        if any(t.kind == "id" for t in number_tokens(words[i])):
            return f"{name} {words[i].strip()}".strip()
        if name or (name := _clean(_side(words, i + 1, +1))):
            return name
    named = [w for w in words if re.fullmatch(r"[vV]\d+(?:\.\d+)+", w)]
    return ([t.surface for t in number_tokens(sentence) if t.kind == "id"] + named + [""])[0]


# -- facts -----------------------------------------------------------------------------------
_FROM_TO = re.compile(
    r"(?:从|由|\bfrom\b)([^，,。；;]{1,24}?)(?:到|为|成|至|\bto\b)([^，,。；;]{1,24})"
)


def rule_facts(source: str, entity: str) -> dict[str, str]:
    """Name -> value for the numbers of `source`: named values ("预算 8 万" -> 预算: 8万),
    the new value of a "from X to Y" (the old one as <name>_before), then dates, times,
    amounts, percentages, IDs and versions under their kind."""
    normal = normalise(source)
    tokens = {t.key: t for t in number_tokens(normal)}
    names: dict[str, tuple[str, str]] = {}  # token key -> (name, value as named)
    for name, value in named_values(normal).items():
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
