"""The word lists of automatic extraction (SPEC EX3 trigger words, EX4 temporary words,
EX5 stated facts and preferences, EX8 tentative talk), in Chinese and English.

Each list is one regular expression. English words are matched as whole words in
ASCII-lowered text (see `extraction_rules`), so they are written in lower case; Chinese
ones match anywhere. Data only: the rules that use them are in `extraction_rules`.
"""

from __future__ import annotations

import re


def _words(zh: str, en: str = "") -> re.Pattern[str]:
    """Chinese alternatives (any position) and English ones (whole words, searched in
    ASCII-lowered text, so written lower-case), separated by white space; a line that
    starts with | continues the one before."""
    zh, en = (re.sub(r"\s*\n\s*\|", "|", listed) for listed in (zh, en))
    parts = zh.split()
    if en.strip():
        parts.append(r"\b(?:" + "|".join(en.split()) + r")\b")  # on ASCII-lowered text
    return re.compile("|".join(parts))


TRIGGER = _words(
    """我 项目 仓库 团队 偏好 习惯 默认 统一 使用 采用 基于 构建 技术栈 语言 框架
    版本 编码 规范 禁止 不要 一律 以后 总是 今后 每次 记住 记一下 别忘了""",
    r"""i we our us my project repo repository codebase team prefer preference habit default
    always never use uses using adopt based build built stack language framework version
    encoding convention style standard don't must remember from\s+now\s+on by\s+default
    every\s+time whenever going\s+forward keep\s+in\s+mind note\s+that don't\s+forget
    memori[sz]e""",
)
STANDING_PHRASES = _words(
    "从现在开始 从现在起 从今天起 从今天开始 从今以后", r"from\s+now\s+on starting\s+today"
)
TEMPORARY = _words(  # EX4's list, its English equivalents, and other passing states
    r"""今天 今晚 现在 刚刚 刚才 这次 本次 本轮 这一轮 临时 暂时 顺便 报错 昨天 明天 这会儿
    待会 等会 一会儿 马上 以前 之前 原来 原先 曾经 过去
    (?<![优首事预原领率祖争抢])先(?![进生前后锋驱例])""",
    r"""today tonight now right\s+now this\s+time temporarily temporary for\s+the\s+moment
    at\s+the\s+moment just this\s+once this\s+(?:week|sprint) yesterday tomorrow
    for\s+this\s+(?:task|session|run|pr|change|release|sprint|week|demo|ticket)
    used\s+to previously formerly fail(?:s|ed|ing)? broken crash(?:es|ed|ing)?
    (?:is|are)\s+down""",
)
TENTATIVE = _words(  # EX8, and conditions
    r"""试试 试一下 试一试 试用 尝试 也许 (?<!尽)可能 或许 大概 考虑 要不 不如 看看 打算
    说不定 好像 似乎 再说 再看 回头 改天 吧$ 如果 假如 要是 万一 的话""",
    r"""maybe perhaps might could try trying possibly probably consider(?:ing)?
    thinking\s+(?:about|of) not\s+sure i\s+guess i\s+think what\s+if let'?s wondering if
    unless whether""",
)
QUESTION = _words(
    r"""[?？] (?:吗|呢|么)$ 是不是 是否 能不能 可不可以 要不要 有没有 会不会 对不对 对吗
    好吗 行吗 为什么 为啥 怎么样 怎么办 如何 哪个 哪些 哪里 哪儿 对吧 是吧 没错吧""",
    r"""^(?:do|does|did|is|are|was|were|should|shall|can|could|would|will|what|why|how
    |which|who|whom|whose|whether|am) right$ correct$ isn't\s+it(?:$|\?)""",
)
TASK = _words(
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
SUBJECT = _words(
    "我们 咱们 我司 项目 仓库 代码库 团队 公司",
    r"""we our ours us the\s+project this\s+project the\s+repo this\s+repo the\s+repository
    this\s+repository the\s+codebase the\s+team""",
)
SELF = _words("^我(?!们)", r"i my i'm")
PREFER = _words(
    "偏好 喜欢 习惯 倾向 讨厌 更爱", "prefer prefers preferred like likes love hate dislike rather"
)
STANDING = _words(
    """以后 今后 总是 一律 默认 每次 始终 永远 平时 通常 一般 统一 约定 规定 规范 守则
    原则 惯例""",
    r"""always never conventions? rules? policy guidelines? from\s+now\s+on by\s+default
    every\s+time whenever going\s+forward as\s+a\s+rule usually generally""",
)
PREDICATE = _words(
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
ACTION = _words(
    "回答 回复 写 加 带 放 命名 缩进 注释 提交 输出 说 跑 运行 执行 检查",
    """reply respond answer write add include put name format indent comment commit wrap
    explain run call ask tell show log test""",
)
PROHIBIT = _words(
    "^(?:不要|别|禁止|不准|不许|严禁|不得|切勿|千万别|一律不)", r"^(?:never|don't|do\s+not|avoid)"
)
CONTINUE = _words(
    "^(?:不用|不要|不是|而不是|而非|别|不|也|并且|而且)",
    r"^(?:not|rather\s+than|instead\s+of|but\s+not|and)",
)
DEICTIC = _words(
    "这个 这段 这里 这些 这样 这么 那个 那些 那样 那里 它 上面 下面",
    "this that these those it here there above below",
)
FILLER = _words("不客气 没关系 别担心 不要紧 别急", r"never\s+mind don't\s+worry no\s+worries")
DECISION = _words(
    "决定 定为 定了 选定 敲定 拍板", r"decided chose chosen agreed settled\s+on going\s+with"
)
PREF_TYPE = _words(
    "偏好 喜欢 习惯 倾向 以后 今后 总是 一律 每次 始终 永远 不要 禁止 别",
    r"prefer prefers like always never from\s+now\s+on don't do\s+not avoid",
)
REMEMBER_LEAD = _words(
    r"^(?:请|麻烦)?你?(?:帮我)?(?:记住|记一下|记下来|记下|记着|牢记|别忘了|不要忘了)"
    r"(?:这个|这点|一下)?[\s：:，,、]*",
    r"""^(?:please\s+)?(?:remember|note(?:\s+that|:)|keep\s+in\s+mind|don't\s+forget
    |never\s+forget|memori[sz]e)(?:\s+that)?\s*[:,]?\s*""",
)
CONNECTIVE = _words(  # bullets, and words that open a sentence without adding to it
    r"""^(?:[-*•·]|\d{1,2}[.)、])\s+
    ^(?:(?:另外|对了|还有|此外|而且|然后|总之|顺便说一下|顺便提一下|顺便一提)[\s，,：:、!！]*)+""",
    r"^(?:(?:by\s+the\s+way|btw|also|besides|oh|ok|okay|and|but|so|anyway|plus)[\s,:!]*)+",
)
BOUNDARY = re.compile(
    r"[。！？；]+|[!?;]+(?=\s|$|[^\x00-\x7f])|\n+|\.(?=\s|$)"
    r"|(?<=[，,])\s*(?=另外|对了|还有|此外|顺便说一下|顺便提一下)"
    r"|(?i:(?<=,)\s*(?=by the way|btw\b|also\b|besides\b))"
)
CLAUSE = re.compile(r"[，：]|,(?!\d)|:(?=\s)")
