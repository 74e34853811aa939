"""The words the subject grammar (`remem.truth.subject`) is built from besides its
predicates (`remem.truth.predicates`): the markers of a change, a correction or a
tentative statement, owners, the concepts a subject key is made of, and the kind of
well-known values.

Everything here is a closed class of function words or a bilingual table of common
attribute nouns — never a sentence or a sample of the data.
"""

from __future__ import annotations

from functools import cache

from remem import glossary
from remem.truth.kinds import EXTRA_KINDS, KIND_MARKERS

# "翻译改由小周负责": 由 glued to a change adverb
ZH_BY = frozenset({"由", "改由", "现由", "换由", "转由", "改为由", "交由", "现在由", "归", "改归"})
ZH_BA = frozenset({"把", "将", "给"})  # "给猫改名叫豆豆": the subject follows 给

# A change stated by an adverb before the predicate: "现在用 X", "from now on we use X".
ZH_CHANGE_ADVERBS = frozenset(
    """现在 如今 以后 今后 往后 此后 从此 从现在起 从现在开始 从今天起 从今往后
    已经 已 终于 最终 后来 新 新的 又 重新 再次 刚刚 随后 最近 近来 这阵子 这段时间""".split()
)
EN_CHANGE_ADVERBS = frozenset({"now", "henceforth", "anymore", "instead", "new"})
# A state that holds from an event on: "… since the promotion", "自从搬家…", "换了 CDN 之后…"
SINCE = frozenset({"since", "自从", "之后"})
# Words closing a clause that say its value is a change: "… is 2 replicas again"
EN_CHANGE_TAILS = frozenset({"now", "instead", "anymore", "again"})
EN_CHANGE_PHRASES = (
    "from now on", "going forward", "as of now", "as of today", "from today", "these days",
    "nowadays", "lately", "recently", "right now", "at the moment", "by now", "change of plan",
    "change of plans",
)  # fmt: skip
# Corrections: the earlier value was wrong; the new one replaces it.
ZH_CORRECTIONS = (
    "更正",
    "纠正",
    "订正",
    "说错了",
    "写错了",
    "记错了",
    "不对",
    "搞错了",
    "其实",
    "实际上",
    "准确地说",
)
EN_CORRECTIONS = ("correction", "actually", "i meant", "to correct", "sorry,", "in fact",
                  "i was wrong", "not quite", "that was wrong", "scratch that")  # fmt: skip
# The value that stops: "从 X 改为 Y", "from X to Y", "instead of X", "而不是 X".
ZH_FROM = frozenset({"从", "由"})
EN_FROM = frozenset({"from"})
ZH_INSTEAD = ("而不是", "而非", "不是", "取代", "代替")
EN_INSTEAD = ("instead of", "rather than", "in place of", "over")

# A statement that is not (yet) a fact: no claim is read from it.
ZH_TENTATIVE = frozenset(
    """可能 也许 或许 大概 打算 准备 考虑 想 想要 试试 试一下 要不要 是否 或者 还是说
    应该会 可以考虑 建议 希望 如果 假如 要是 万一""".split()
)
EN_TENTATIVE = frozenset(
    """maybe might may perhaps probably could should would plan plans planning planned
    want wants considering consider thinking suppose if unless hope hopefully wonder
    whether try trying propose proposed suggest suggested""".split()
)
# jieba sometimes glues a copula to the word before it ("副本数是"); a token ending in
# 是 or 为 is split unless it is one of these words (or a predicate itself).
ZH_WORDS_ENDING_IN_COPULA = frozenset(
    """但是 就是 还是 于是 总是 可是 要是 只是 倒是
    若是 凡是 或是 算是 正是 真是 而是 像是 不是 都是
    也是 即是 便是 乃是 硬是 老是 自是 光是 尤其是
    特别是 因为 以为 认为 作为 行为 成为 称为 视为 作为
    难为 人为 无为 有为 为 是 自从 服从 随从 听从 遵从 无从 侍从 从 打从 自打
    现在 正在 存在 实在 所在 自在 好在 内在 外在 潜在 健在 旨在 在""".split()
)
ZH_GLUED = "是为从在"  # "游泳课在周日": jieba's 课在 is 课 + 在
# Words that end in 用 and are not "X" + the verb 用 (费用 is a fee, 常用 "in common use").
ZH_WORDS_ENDING_IN_USE = frozenset(
    """费用 信用 作用 日用 家用 民用 商用 公用 专用 备用 实用 通用 常用 效用 功用 零用 自用
    试用 多用 应用 利用 调用 引用 启用 禁用 停用 复用 适用 有用 没用 无用 不用 够用 耐用 占用
    挪用 沿用 借用 滥用 享用 食用 饮用 服用 录用 雇用 任用 起用 重用 善用 惯用 合用 共用 混用
    两用 军用 御用 选用 采用 使用 运用 动用 取用 续用 套用 征用 租用 停用 留用 待用 好用""".split()
)  # the one-character function words jieba glues to the word before
# Leading words that carry no meaning of the subject ("对了，", "note:", "remember").
ZH_DISCOURSE = tuple(
    """请记住 记住 记一下 备注 补充 补充一下 顺便说一下 顺便 提醒 提醒一下 注意 说明 另外 还有 对了
    那个 嗯 好的 好 然后 所以 因此 总之 目前 当前 现在
    统一 一律 都 也 还 仍然 依然 仍 一直 还是 则 就
    全部 通常 一般 平时 基本上 主要 计划 预计 预定 请 麻烦 务必 一定 必须 最 决定 商定
    再 最后 暂时 临时 先 均 皆 便 总是 依旧 照旧 照样 始终 向来 一向 目前为止 统统
    一共 总共 共计 合计 总计""".split()
)
EN_DISCOURSE = frozenset(
    """note fyi remember btw so ok okay well also and but then currently still always
    usually generally just already today nowadays basically mostly please decided chose
    agreed opted to""".split()
)
EN_DETERMINERS = frozenset({"the", "a", "an", "this", "that", "these", "those", "its", "their"})
EN_OWNERS_USER = frozenset({"i", "me", "my", "mine", "i'm", "i've", "i'd"})
EN_OWNERS_WE = frozenset({"we", "our", "us", "ours", "we're", "we've", "we'd"})
ZH_OWNERS_USER = frozenset({"我", "本人", "我个人"})
ZH_OWNERS_WE = frozenset({"我们", "咱们", "我们的", "咱们的", "大家", "我司", "本项目", "咱"})
OWNER_NOUNS = frozenset(
    {"项目", "团队", "project", "team", "repo", "repository", "仓库", "公司", "组", "家里"}
    | {"家中", "我家"}
    | {"office", "办公室", "部门", "department"}
)

# Words a line of talk starts with, never a value: "Melanie: Hey Caroline!", "Jon: Thanks!"
SPEECH = frozenset(
    """hey hi hello thanks thank wow yes yeah yep no nope oh ok okay sure well haha lol
    great cool nice awesome sounds that's it's i i'm i've you you're we we're what how
    why did do does can could would so just omg aww bye agreed congrats congratulations it
    that this 嗯 哈哈 好的 谢谢 你好 我 你 我们 哇 是的 对 对啊 嗨 再见 拜拜 恭喜""".split()
)
# People a fact can be of besides the user: "My parents live in Portland" is not where
# the user lives, however "I moved to Denver" is read.
PEOPLE = frozenset(
    """parent parents mother mom mum father dad sister brother sibling wife husband partner
    spouse son daughter kid kids child children friend boss colleague roommate grandma
    grandpa grandmother grandfather aunt uncle cousin neighbour neighbor girlfriend boyfriend
    父母 爸妈 爸爸 妈妈 我妈 我爸 父亲 母亲 姐姐 妹妹 哥哥 弟弟 我哥 我姐 老婆 老公 妻子
    丈夫 太太 儿子 女儿 孩子 朋友 同事 老板 室友 爷爷 奶奶 外公 外婆 姥姥 姥爷 舅舅 阿姨
    叔叔 邻居 男朋友 女朋友 advisor adviser supervisor mentor teacher tutor coach landlord
    coworker teammate classmate 导师 老师 同学 房东 教练""".split()
)

# "X 由 Y 负责": Y is X's owner.
ZH_OWNER_VERBS = frozenset(
    "负责 维护 管理 主导 牵头 主管 负责维护 对接 跟进 处理 负责处理 主持 接手 打理".split()
)
# Words of praise or feeling: "that painting is amazing" says how something felt, not a
# value it has, and two such remarks never conflict.
EVALUATIVE = frozenset(
    """amazing awesome great cool beautiful gorgeous stunning nice lovely wonderful fantastic
    incredible impressive fancy cute fun funny adorable brilliant excellent perfect terrible
    awful horrible bad good sweet neat inspiring exciting interesting boring beautifully
    so very really super too pretty quite truly absolutely such
    important crucial essential vital key helpful useful
    漂亮 好看 厉害 棒 很棒 不错 很好 太好了 可爱 有趣 好玩 精彩 酷 美 很美 糟糕 无聊""".split()
)
# Where a value ends: coordinators and the starts of subordinate clauses.
ZH_VALUE_STOPS = frozenset(
    """和 与 及 以及 并 并且 而 而且 但 但是 因为 所以
    因此 以便 为了 来 去 以 让 使 后 时 的时候 之后
    之前 如果 或 或者 跟 同时 还有 并用 然后 再""".split()
)
EN_VALUE_STOPS = frozenset(
    """and but or because since so which that when while if unless although though with
    for to from instead rather than over until till after before as by via except of""".split()
)
ZH_COORD = frozenset({"和", "与", "及", "以及", "或", "或者", "、", "跟"})
EN_COORD = frozenset({"and", "or", ",", "&", "/"})
# Trailing particles and locatives stripped from a value ("k8s 集群上" -> "k8s 集群").
ZH_TRAILING = frozenset("了 吧 啦 呢 的 哦 呀 嘛 啊 哈 喔 咯 么 哟 了吧 啦啦".split())
ZH_LOCATIVE = frozenset("上 里 中 内 下 里面 上面 下面 中间 之中 当中".split())
ZH_LEADING = frozenset("了 的 成 为 到 是 在 着 过 用 于 至".split())
EN_LEADING = frozenset({"the", "a", "an", "to", "at", "in", "on", "of", "be"})
EN_TRAILING = frozenset({"now", "instead", "today", "again", "too", "anymore", "for now",
                         "as well", "here", "there", "please", "old", "yesterday",
                         "recently", "last week", "last month", "last year", "last night",
                         "this week", "this month", "this year", "a while ago",
                         "last sprint", "this sprint", "last quarter", "this quarter",
                         "last release", "starting", "effective", "beginning"})  # fmt: skip

# Concepts a subject key is made of: the first word of each group names the concept,
# the rest are its other spellings (English forms are lower-case and singular).
_CONCEPTS = """
location 位置 路径 目录 地址 路径名 文件夹 所在地 地点 path location dir directory folder
    address url link 链接 网址 where 存放位置 存放路径 位置是 存储 存放 storage
port 端口 端口号 port
local 本地 本机 local localhost
name 名字 名称 名 名叫 叫法 name title 名儿 代号 codename 项目名
time 时间 日期 日子 时候 时刻 time date day when schedule 时间点 截止 截止日期 deadline due
owner 负责人 维护者 所有者 owner maintainer lead 负责 主管 manager 经理
budget 预算 budget 经费
timeout 超时 超时时间 timeout
timezone 时区 timezone tz
frequency 频率 频次 frequency cadence 节奏 interval 间隔
plan 套餐 plan subscription 订阅
tier tier 档位
limit 上限 最大 最大值 限额 limit max maximum cap
retention 保留 保留期 保留时间 保留期限 保存 保存期 保存时间 保存期限 retention
backup 备份 backup
provider 服务商 供应商 提供商 provider vendor
license 许可证 许可协议 开源协议 license licence
threshold 门槛 阈值 最低要求 要求 threshold minimum
version 版本 版本号 version ver
launch 上线 发布 发版 launch release go-live golive
environment 环境 environment env
test 测试 test testing
production 生产 线上 正式 production prod live
development 开发 dev development
staging 预发 预发布 staging pre-prod preprod 灰度
database 数据库 库 database db datastore
cache 缓存 cache caching
queue 消息队列 队列 queue mq messaging broker
editor 编辑器 editor ide
language 语言 编程语言 开发语言 language lang runtime 运行时 运行环境
framework 框架 framework
frontend 前端 frontend front-end fe
backend 后端 服务端 backend back-end server-side
service 服务 service svc
ci 持续集成 ci
build 构建 build 编译 compile
package_manager 包管理 包管理器
test_framework 测试框架
monitoring 监控 monitoring observability 可观测性 告警 alerting
theme 主题 theme 配色
indentation 缩进 indentation indent
reply_language 回复语言 回答语言 回答 回复 answer reply response
user 用户 user
default 默认 default
branch 分支 branch
deployment 部署 deploy deployment hosting 托管
script 脚本 script
config 配置 配置文件 config configuration settings setting
log 日志 log logging logs
email 邮箱 邮件 email mail
server 服务器 server host 主机 机器 machine
region 区域 地域 region zone
count 数 数量 个数 count number amount total
shell shell
platform 平台 platform
code_host 代码托管 代码仓库 code_host
chat 沟通工具 聊天工具 即时通讯 im chat messenger
issue_tracker 需求管理 缺陷管理 issue tracker
wiki 文档平台 知识库 wiki
os 操作系统 os
registry 镜像仓库 registry
bundler 打包工具 bundler 打包 bundling
preferred 首选 偏好 favorite favourite preferred choice 最爱 常用 惯用 日常 go-to goto 主力
browser 浏览器 browser
tool 工具 tool 软件 software
"""
_PHRASES = {
    "package manager": "package_manager", "test framework": "test_framework",
    "testing framework": "test_framework", "color scheme": "theme", "message queue": "queue",
    "dark mode": "theme", "code style": "style", "front end": "frontend", "back end": "backend",
    "back up": "backup", "code owner": "owner", "code owners": "owner",
    "state management": "state",
}  # fmt: skip
# Generic words that add nothing to what a subject is ("the Redis version" is "Redis").
GENERIC = frozenset(
    {"version", "environment", "count", "preferred", "的", "of", "for", "in", "on", "at", "to",
     "tool", "use", "provider"}
)  # fmt: skip
# Concepts that say what kind of thing a value is: a subject naming one is complete
# ("测试数据库用 SQLite"); one naming none gets the value's kind ("测试环境用 SQLite").
KINDS = frozenset(
    """database cache queue editor language framework ci build package_manager
    test_framework monitoring theme indentation reply_language platform search_engine
    web_server ml_framework shell chat issue_tracker wiki os registry bundler browser
    code_host license timezone""".split()
)
# Attributes: a value's last word naming one belongs to the subject ("监听 9090 端口").
ATTRIBUTES = frozenset(
    """location port name time owner budget timeout version branch region email plan tier
    timezone""".split()
)


@cache
def concepts() -> dict[str, str]:
    """spelling -> concept."""
    table: dict[str, str] = {}
    # an indented line goes on with the group of the line before
    for line in _CONCEPTS.strip().replace("\n    ", " ").splitlines():
        words = line.split()
        for word in words:
            table.setdefault(word.lower(), words[0])
    # multi-word spellings written with spaces in the table: "package manager"
    for phrase, concept in _PHRASES.items():
        table[phrase] = concept
    return table


# Value spellings folded to one ("postgres" is "postgresql"; "JDK 17" is Java 17).
ALIASES = {
    "postgres": "postgresql", "pg": "postgresql", "psql": "postgresql", "jdk": "java",
    "openjdk": "java", "golang": "go", "k8s": "kubernetes", "js": "javascript",
    "ts": "typescript", "node": "node.js", "nodejs": "node.js", "vs code": "vscode",
    "visual studio code": "vscode", "nvim": "neovim", "py": "python", "python3": "python",
    "mongo": "mongodb", "es": "elasticsearch", "gh actions": "github actions",
    "深色": "dark", "暗色": "dark", "深色模式": "dark", "暗色模式": "dark", "dark mode": "dark",
    "浅色": "light", "亮色": "light", "浅色模式": "light", "light mode": "light",
    "中文": "chinese", "汉语": "chinese", "简体中文": "chinese", "英文": "english",
    "英语": "english", "空格": "spaces", "space": "spaces", "tab": "tabs", "制表符": "tabs",
}  # fmt: skip
UNITS = {
    "秒": "s", "秒钟": "s", "s": "s", "sec": "s", "secs": "s", "second": "s", "seconds": "s",
    "分钟": "min", "分": "min", "min": "min", "mins": "min", "minute": "min", "minutes": "min",
    "小时": "h", "个小时": "h", "h": "h", "hr": "h", "hrs": "h", "hour": "h", "hours": "h",
    "天": "d", "日": "d", "d": "d", "day": "d", "days": "d", "毫秒": "ms", "ms": "ms",
    "gb": "gb", "g": "gb", "mb": "mb", "m": "mb", "kb": "kb", "个": "", "人": "",
    "台": "", "次": "", "条": "", "核": "core", "cores": "core", "core": "core",
    "岁": "y", "周岁": "y", "year": "y", "years": "y", "yr": "y", "yrs": "y",
}  # fmt: skip


@cache
def value_kinds() -> dict[str, str]:
    """A well-known value (lower-case) -> the concept naming its kind."""
    table: dict[str, str] = {}
    for name, kinds in glossary.GLOSSARY.items():
        kind = next((k for marker, k in KIND_MARKERS if marker in kinds.split()), None)
        if kind is not None:
            table[name.lower()] = kind
    table.update({"java": "language", "jdk": "language", "openjdk": "language"})
    table.update({"go": "language", "golang": "language", "node.js": "language"})
    table.update({"deno": "language", "bun": "language", "npm": "package_manager"})
    table.update({"pnpm": "package_manager", "yarn": "package_manager"})
    table.update({"uv": "package_manager", "pip": "package_manager"})
    table.update({"poetry": "package_manager", "postgresql": "database"})
    table.update(EXTRA_KINDS)
    for alias, name in ALIASES.items():
        if name in table:
            table.setdefault(alias, table[name])
    return table
