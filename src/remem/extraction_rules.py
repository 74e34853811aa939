"""The deterministic side of extraction: the user's message cut into sentences and
clauses, the sensitive-data pre-filter (EX3), the rules that find stated preferences and
project facts (EX5, EX8), and the code checks every model quote must pass (EX4).

Used through `remem.extraction.Extractor`; nothing here stores or calls a model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from remem.guard import Origin, Piece, pieces
from remem.secrets import SecretHit, find_secrets, redact, sensitive_word

FactType = Literal["fact", "preference", "decision"]
ORIGIN_REASON: dict[Origin, str] = {
    "own": "the user's own words",
    "code": "a code block",
    "output": "program output",
    "quoted_line": "a quoted line",
    "quoted": "quoted text",
    "pasted": "pasted text",
}
Found = tuple[list["Candidate"], list[tuple[int, "Refusal"]]]  # refusals with their position


@dataclass(frozen=True, slots=True)
class ExtractionConfig:
    """The seeds' limits: input length [5..4000], quote length [5..180], facts [3]."""

    min_chars: int = 5
    max_chars: int = 4000
    quote_min: int = 5
    quote_max: int = 180
    max_facts: int = 3


@dataclass(frozen=True, slots=True)
class Candidate:
    """A fact to save: verbatim text from the user's message, its type, who found it."""

    content: str
    type: FactType = "fact"
    via: Literal["rules", "model"] = "rules"
    start: int = 0  # where it begins in the user's message

    def to_dict(self) -> dict[str, str]:
        return {"content": self.content, "type": self.type}


@dataclass(frozen=True, slots=True)
class Refusal:
    """Something that was not saved, and why (redacted: never a secret)."""

    text: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"text": self.text, "reason": self.reason}


def _clip(value: str, limit: int = 120) -> str:
    value = " ".join(value.split())
    return value if len(value) <= limit else value[: limit - 1] + "…"


def shown(value: str) -> str:
    """`value` for a refusal: secrets redacted, one line, at most 120 chars."""
    return _clip(redact(value))


# -- word lists (EX3, EX4, EX5, EX8) ----------------------------------------------------


def _words(zh: str, en: str = "") -> re.Pattern[str]:
    """Chinese alternatives (any position) and English ones (whole words, any case),
    separated by white space; a line starting with | continues the one before."""
    zh, en = (re.sub(r"\s*\n\s*\|", "|", words) for words in (zh, en))
    parts = zh.split()
    if en.strip():
        parts.append(r"(?i:\b(?:" + "|".join(en.split()) + r")\b)")
    return re.compile("|".join(parts))


_TRIGGER = _words(
    """我 项目 仓库 团队 偏好 习惯 默认 统一 使用 采用 基于 构建 技术栈 语言 框架
    版本 编码 规范 禁止 不要 一律 以后 总是 今后 每次 记住 记一下 别忘了""",
    r"""i we our us my project repo repository codebase team prefer preference habit default
    always never use uses using adopt based build built stack language framework version
    encoding convention style standard don't must remember from\s+now\s+on by\s+default
    every\s+time whenever going\s+forward keep\s+in\s+mind note\s+that don't\s+forget
    memori[sz]e""",
)
_STANDING_PHRASES = _words(
    "从现在开始 从现在起 从今天起 从今天开始 从今以后", r"from\s+now\s+on starting\s+today"
)
_TEMPORARY = _words(  # EX4's list, its English equivalents, and other passing states
    r"""今天 今晚 现在 刚刚 刚才 这次 本次 本轮 这一轮 临时 暂时 顺便 报错 昨天 明天 这会儿
    待会 等会 一会儿 马上 以前 之前 原来 原先 曾经 过去
    (?<![优首事预原领率祖争抢])先(?![进生前后锋驱例])""",
    r"""today tonight now right\s+now this\s+time temporarily temporary for\s+the\s+moment
    at\s+the\s+moment just this\s+once this\s+(?:week|sprint) yesterday tomorrow
    for\s+this\s+(?:task|session|run|pr|change|release|sprint|week|demo|ticket)
    used\s+to previously formerly fail(?:s|ed|ing)? broken crash(?:es|ed|ing)?
    (?:is|are)\s+down""",
)
_TENTATIVE = _words(  # EX8, and conditions
    r"""试试 试一下 试一试 试用 尝试 也许 (?<!尽)可能 或许 大概 考虑 要不 不如 看看 打算
    说不定 好像 似乎 再说 再看 回头 改天 吧$ 如果 假如 要是 万一 的话""",
    r"""maybe perhaps might could try trying possibly probably consider(?:ing)?
    thinking\s+(?:about|of) not\s+sure i\s+guess i\s+think what\s+if let'?s wondering if
    unless whether""",
)
_QUESTION = _words(
    r"""[?？] (?:吗|呢|么)$ 是不是 是否 能不能 可不可以 要不要 有没有 会不会 对不对 对吗
    好吗 行吗 为什么 为啥 怎么样 怎么办 如何 哪个 哪些 哪里 哪儿 对吧 是吧 没错吧""",
    r"""^(?:do|does|did|is|are|was|were|should|shall|can|could|would|will|what|why|how
    |which|who|whom|whose|whether|am) right$ correct$ isn't\s+it(?:$|\?)""",
)
_TASK = _words(
    r"""帮我 帮忙 麻烦 给我 替我 你来 你帮 能否 可否 请你 ^请 我想让你 我要你 我需要你
    一下 ^把 ^(?:写(?:一|个|段|篇|些|点)|创建|新建|修复|生成|删除|删掉|运行|执行|跑一下
    |看下|看一下|解释|总结|翻译|重构|改一下|加上|去掉|打开|查一下|列出|告诉)""",
    r"""please for\s+me let\s+me\s+know (?:can|could|would|will)\s+you go\s+ahead
    i\s+(?:want|need)\s+you
    ^(?:write|fix|create|make|add|implement|generate|build|run|show|explain|summari[sz]e
    |help|refactor|update|delete|remove|check|find|tell|give|change|rename|move|install
    |deploy|open|read|look|review|test|translate|convert|debug|investigate|skip|set\s+up
    |list|compare|analy[sz]e|draft|send|email|call|start|stop|restart|clean|lint|commit
    |push|merge|rewrite|optimi[sz]e|print|search|get|go|do)""",
)
_SUBJECT = _words(
    "我们 咱们 我司 项目 仓库 代码库 团队 公司",
    r"""we our ours us the\s+project this\s+project the\s+repo this\s+repo the\s+repository
    this\s+repository the\s+codebase the\s+team""",
)
_SELF = _words("^我(?!们)", r"i my i'm")
_PREFER = _words(
    "偏好 喜欢 习惯 倾向 讨厌 更爱", "prefer prefers preferred like likes love hate dislike rather"
)
_STANDING = _words(
    """以后 今后 总是 一律 默认 每次 始终 永远 平时 通常 一般 统一 约定 规定 规范 守则
    原则 惯例""",
    r"""always never conventions? rules? policy guidelines? from\s+now\s+on by\s+default
    every\s+time whenever going\s+forward as\s+a\s+rule usually generally""",
)
_PREDICATE = _words(
    r"""(?<![费作有没应])用(?!户|例|途|量) 是(?!不是|否)
    (?<![因认以作成行])为(?!了|什么|啥) 基于 构建 名为 叫 监听 部署在 部署到 遵循
    遵守 按照 保持 依赖 支持 要求 必须 禁止 不准 放在 统一 运行在 跑在 位于 定为
    设为 固定 锁定""",
    r"""use uses used using built\s+with based\s+on runs?\s+on listens?\s+on lives?\s+in
    located\s+in deployed\s+(?:to|on) hosted\s+on stored\s+in written\s+in prefer prefers
    follows? requires? must should called named targets? supports? depends?\s+on
    reli(?:es|y)\s+on stick\s+(?:to|with) deploys?\s+(?:to|on|with|via) hosts? ships?
    stores? releases? sits?\s+behind reads?\s+from keep avoid never always only
    pin(?:s|ned)?
    (?:communicates?|talks?|connects?|publish(?:es)?|logs?|sends?)\s+(?:to|over|via
    |through|with)
    (?:writes?|codes?|develops?|works?|tests?|builds?|lints?|formats?)\s+(?:in|with|on)
    (?:is|are)\s+(?:built|based|written|deployed|hosted|stored|kept|located|configured
    |set|pinned|called|named|using|on|in)
    our\s+[\w.+#-]+(?:\s+[\w.+#-]+)?\s+(?:is|are)""",
)
_ACTION = _words(
    "回答 回复 写 加 带 放 命名 缩进 注释 提交 输出 说 跑 运行 执行 检查",
    """reply respond answer write add include put name format indent comment commit wrap
    explain run call ask tell show log test""",
)
_PROHIBIT = _words(
    "^(?:不要|别|禁止|不准|不许|严禁|不得|切勿|千万别|一律不)", r"^(?:never|don't|do\s+not|avoid)"
)
_CONTINUE = _words(
    "^(?:不用|不要|不是|而不是|而非|别|不|也|并且|而且)",
    r"^(?:not|rather\s+than|instead\s+of|but\s+not|and)",
)
_DEICTIC = _words(
    "这个 这段 这里 这些 这样 这么 那个 那些 那样 那里 它 上面 下面",
    "this that these those it here there above below",
)
_FILLER = _words("不客气 没关系 别担心 不要紧 别急", r"never\s+mind don't\s+worry no\s+worries")
_DECISION = _words(
    "决定 定为 定了 选定 敲定 拍板", r"decided chose chosen agreed settled\s+on going\s+with"
)
_PREF_TYPE = _words(
    "偏好 喜欢 习惯 倾向 以后 今后 总是 一律 每次 始终 永远 不要 禁止 别",
    r"prefer prefers like always never from\s+now\s+on don't do\s+not avoid",
)
_REMEMBER_LEAD = _words(
    r"^(?:请|麻烦)?你?(?:帮我)?(?:记住|记一下|记下来|记下|记着|牢记|别忘了|不要忘了)"
    r"(?:这个|这点|一下)?[\s：:，,、]*",
    r"""^(?:please\s+)?(?:remember|note(?:\s+that|:)|keep\s+in\s+mind|don't\s+forget
    |never\s+forget|memori[sz]e)(?:\s+that)?\s*[:,]?\s*""",
)
_CONNECTIVE = _words(  # bullets, and words that open a sentence without adding to it
    r"""^(?:[-*•·]|\d{1,2}[.)、])\s+
    ^(?:(?:另外|对了|还有|此外|而且|然后|总之|顺便说一下|顺便提一下|顺便一提)[\s，,：:、!！]*)+""",
    r"^(?:(?:by\s+the\s+way|btw|also|besides|oh|ok|okay|and|but|so|anyway|plus)[\s,:!]*)+",
)
_BOUNDARY = re.compile(
    r"[。！？；]+|[!?;]+(?=\s|$|[^\x00-\x7f])|\n+|\.(?=\s|$)"
    r"|(?<=[，,])\s*(?=另外|对了|还有|此外|顺便说一下|顺便提一下)"
    r"|(?i:(?<=,)\s*(?=by the way|btw\b|also\b|besides\b))"
)
_CLAUSE = re.compile(r"[，：]|,(?!\d)|:(?=\s)")
_MARKS = "。！？!?；;.，,"
_EDGE = " \t\r\n。！？!?；;.，,：:、…"


# -- the input cut into sentences (EX3) -------------------------------------------------


@dataclass
class MessageView:
    """A user message as the extractor sees it: pieces by origin, sentences, and what
    the sensitive-data pre-filter deleted (their spans replaced by a line break)."""

    text: str
    pieces: list[Piece]
    sentences: list[tuple[int, int]]
    hits: list[SecretHit]
    deleted: list[tuple[int, int]] = field(default_factory=list)
    sanitised: str = ""
    refused: list[tuple[int, Refusal]] = field(default_factory=list)

    def excerpt(self, start: int, end: int) -> str:
        """text[start:end] for a refusal: secrets redacted, one line, at most 120 chars."""
        out, pos = [], start
        for hit in self.hits:
            a, b = max(hit.span[0], start), min(hit.span[1], end)
            if a < b:
                out += [self.text[pos:a], f"[REDACTED:{hit.kind}]"]
                pos = b
        out.append(self.text[pos:end])
        return _clip("".join(out))

    def origin_reason(self, start: int, end: int) -> str | None:
        """Why [start, end) is not the user's own words, or None when it is."""
        for piece in self.pieces:
            if piece.origin != "own" and piece.start < end and start < piece.end:
                return ORIGIN_REASON[piece.origin]
        return None

    def asks(self, start: int, end: int) -> bool:
        """Is the sentence [start, end) (trimmed of its end mark) a question?"""
        tail = self.text[end : end + 3].lstrip(" \t")
        return _QUESTION.search(self.text[start:end]) is not None or tail[:1] in ("?", "？")

    def own_sentences(self) -> list[tuple[int, int]]:
        return [s for s in self.sentences if not self._deleted(*s) and self._has_own(*s)]

    def _deleted(self, start: int, end: int) -> bool:
        return any(a <= start and end <= b for a, b in self.deleted)

    def _has_own(self, start: int, end: int) -> bool:
        return any(p.origin == "own" and p.start < end and start < p.end for p in self.pieces)


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start] in _EDGE:
        start += 1
    while end > start and text[end - 1] in _EDGE:
        end -= 1
    return start, end


def _split(text: str, start: int, end: int, pattern: re.Pattern[str]) -> list[tuple[int, int]]:
    spans, pos = [], start
    for m in pattern.finditer(text, start, end):
        spans.append(_trim(text, pos, m.end()))
        pos = m.end()
    spans.append(_trim(text, pos, end))
    return [(a, b) for a, b in spans if a < b]


def view_of(user_text: str) -> MessageView:
    """Cut a message into pieces and sentences and delete its sensitive sentences."""
    view = MessageView(
        user_text,
        pieces(user_text),
        _split(user_text, 0, len(user_text), _BOUNDARY),
        find_secrets(user_text),
    )
    for start, end in view.sentences:
        hit = next((h for h in view.hits if h.span[0] < end and start < h.span[1]), None)
        word = sensitive_word(user_text[start:end])
        if hit is not None or word is not None:
            why = f"sensitive: {hit.label}" if hit else f"sensitive word {word!r}"
            while end < len(user_text) and user_text[end] in _MARKS:  # its end mark too
                end += 1
            view.deleted.append((start, end))
            view.refused.append((start, Refusal(view.excerpt(start, end), why)))
    chunks, pos = [], 0
    for start, end in view.deleted:
        chunks += [user_text[pos:start], "\n"]
        pos = end
    chunks.append(user_text[pos:])
    view.sanitised = "".join(chunks)
    for piece in view.pieces:
        body = user_text[piece.start : piece.end].strip()
        if piece.origin != "own" and body and not _inside(piece, view.deleted):
            reason = ORIGIN_REASON[piece.origin]
            view.refused.append(
                (piece.start, Refusal(view.excerpt(piece.start, piece.end), reason))
            )
    return view


def _inside(piece: Piece, spans: list[tuple[int, int]]) -> bool:
    return any(a <= piece.start and piece.end <= b for a, b in spans)


# -- rules (EX5, EX8) -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Verdict:
    kind: Literal["fact", "more", "lead", "neutral", "refused"]
    reason: str = ""
    type: FactType = "fact"
    poison: bool = False  # a leading "for now," / "maybe," covers the clauses after it


def _first(pattern: re.Pattern[str], value: str) -> str | None:
    match = pattern.search(value)
    return match[0] if match else None


def fact_type(clause: str) -> FactType:
    if _DECISION.search(clause):
        return "decision"
    personal = _SELF.search(clause) and (_PREFER.search(clause) or _STANDING.search(clause))
    if _PREF_TYPE.search(clause) or personal:
        return "preference"
    return "fact"


def _is_fact(clause: str, *, explicit: bool, standing: bool) -> bool:
    if explicit:
        return True
    predicate = _PREDICATE.search(clause) is not None
    if _SUBJECT.search(clause) and predicate:
        return True
    if _SELF.search(clause) and (_PREFER.search(clause) or standing):
        return True
    if standing and (predicate or _ACTION.search(clause)):
        return True
    return _PROHIBIT.search(clause) is not None and _DEICTIC.search(clause) is None


def _refusal(clause: str, carried: bool) -> _Verdict | None:
    """Why a clause can never be a stable fact: a task, temporary, or tentative."""
    calm = _STANDING_PHRASES.sub(" ", clause)
    standing = carried or _STANDING.search(calm) is not None
    task = _first(_TASK, clause)
    if task and not (standing and (_PREDICATE.search(clause) or _ACTION.search(clause))):
        return _Verdict("refused", f"task request ({task!r})")
    if word := _first(_TEMPORARY, calm):
        return _Verdict("refused", f"temporary word {word!r}", poison=True)
    if word := _first(_TENTATIVE, clause):
        return _Verdict("refused", f"tentative ({word!r})", poison=True)
    return None


def _verdict(clause: str, *, explicit: bool, carried: bool, min_chars: int) -> _Verdict:
    """fact; more (extends a fact before it); lead (a bare "from now on," that a fact
    after it takes along); neutral; or refused with a reason."""
    if refused := _refusal(clause, carried):
        return refused
    standing = carried or _STANDING.search(_STANDING_PHRASES.sub(" ", clause)) is not None
    deictic = _DEICTIC.search(clause) is not None
    if _FILLER.search(clause):
        return _Verdict("neutral")
    if len(clause) >= min_chars and _is_fact(
        clause, explicit=explicit or carried, standing=standing
    ):
        return _Verdict("fact", type=fact_type(clause))
    if _CONTINUE.search(clause) or (_PREDICATE.search(clause) and not deictic):
        return _Verdict("more")
    if _STANDING.search(clause) or _STANDING_PHRASES.search(clause):
        return _Verdict("lead", type="preference")
    if _TRIGGER.search(clause) and len(clause) >= min_chars:
        return _Verdict("refused", "no stated fact")
    return _Verdict("neutral")


def _skip(text: str, start: int, end: int, pattern: re.Pattern[str]) -> tuple[int, int]:
    match = pattern.match(text[start:end])
    return _trim(text, start + (match.end() if match else 0), end)


def _clauses(
    view: MessageView, start: int, end: int, cfg: ExtractionConfig
) -> list[tuple[int, int, _Verdict]]:
    text = view.text
    explicit = False
    if (lead := _REMEMBER_LEAD.match(text[start:end])) and lead.end():
        explicit, start = True, start + lead.end()
    out: list[tuple[int, int, _Verdict]] = []
    poisoned: _Verdict | None = None
    carried = False
    for a, b in _split(text, start, end, _CLAUSE):
        a, b = _skip(text, a, b, _CONNECTIVE)
        if a >= b:
            continue
        why = view.origin_reason(a, b)
        if why is not None:
            verdict = _Verdict("refused", f"contains {why}")
        else:
            verdict = poisoned or _verdict(
                text[a:b], explicit=explicit, carried=carried, min_chars=cfg.quote_min
            )
        poisoned = verdict if verdict.poison else poisoned
        carried = carried or verdict.kind == "lead"
        out.append((a, b, verdict))
    return out


def _sentence_facts(view: MessageView, start: int, end: int, cfg: ExtractionConfig) -> Found:
    text = view.text
    start, end = _skip(text, start, end, _CONNECTIVE)
    if start >= end:
        return [], []
    if view.asks(start, end):
        return [], [(start, Refusal(view.excerpt(start, end), "question"))]
    clauses = _clauses(view, start, end, cfg)
    facts: list[Candidate] = []
    refused: list[tuple[int, Refusal]] = []
    i = 0
    while i < len(clauses):
        a, _, verdict = clauses[i]
        j = i + 1
        if verdict.kind == "fact":
            first = i
            while first > 0 and clauses[first - 1][2].kind == "lead":
                first -= 1
            a = clauses[first][0]
            while j < len(clauses) and clauses[j][2].kind in ("fact", "more"):
                j += 1
            content = text[a : clauses[j - 1][1]]
            types = {c[2].type for c in clauses[first:j] if c[2].kind in ("fact", "lead")}
            kind = next(t for t in ("decision", "preference", "fact") if t in types)
            if len(content) > cfg.quote_max:
                why = f"too long ({len(content)} chars)"
                refused.append((a, Refusal(view.excerpt(a, a + len(content)), why)))
            else:
                facts.append(Candidate(content, kind, "rules", a))
        elif verdict.kind == "refused":
            refused.append((a, Refusal(view.excerpt(a, clauses[i][1]), verdict.reason)))
        i = j
    if not facts and not refused:
        refused.append((start, Refusal(view.excerpt(start, end), "no stated fact")))
    elif not facts:
        refused = [(start, Refusal(view.excerpt(start, end), refused[0][1].reason))]
    return facts, refused


def has_trigger(view: MessageView) -> bool:
    """EX3's third pass: the user's own, non-sensitive words hold a trigger word."""
    return any(_TRIGGER.search(view.text[a:b]) for a, b in view.own_sentences())


def rule_facts(view: MessageView, cfg: ExtractionConfig) -> Found:
    """The facts the rules find in the user's own sentences, and every refusal."""
    facts: list[Candidate] = []
    refused: list[tuple[int, Refusal]] = []
    for start, end in view.own_sentences():
        found, why = _sentence_facts(view, start, end, cfg)
        facts += found
        refused += why
    return facts, refused


def refusal_reason(quote: str) -> str | None:
    """Why a model's quote can never be a stable fact, or None: EX4's temporary words
    first, then what the rules refuse too (tentative talk, task requests)."""
    if word := _first(_TEMPORARY, _STANDING_PHRASES.sub(" ", quote)):
        return f"temporary word {word!r}"
    verdict = _refusal(quote, carried=False)
    return verdict.reason if verdict else None
