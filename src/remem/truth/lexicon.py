"""The words the subject grammar (`remem.truth.subject`) is built from: predicates that
link a subject to its value, the markers of a change, a correction or a tentative
statement, the concepts a subject key is made of, and the kind of well-known values.

Everything here is a closed class of function words or a bilingual table of common
attribute nouns — never a sentence or a sample of the data.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from remem import glossary
from remem.truth.kinds import EXTRA_KINDS, KIND_MARKERS


@dataclass(frozen=True, slots=True)
class Predicate:
    """How a verb links subject and value.

    `change`: the text says the value changed (改用, switched to); `negation`: it says
    the value stopped (不再用, no longer uses); `attr`: the attribute it implies
    ("location" for 在 / lives in, "port" for listens on); `pref`: a preference verb
    (its subject is the user's choice of a kind); `inverse`: the value comes first
    ("Redis 用于缓存": subject 缓存); `transitive`: "moved X to Y", "把 X 改成 Y" —
    the subject may stand between the verb and `to`."""

    change: bool = False
    negation: bool = False
    attr: str | None = None
    pref: bool = False
    inverse: bool = False
    transitive: bool = False
    links: frozenset[str] = frozenset({"to", "into", "onto"})  # where a transitive object ends


_P = Predicate()
_CHANGE = Predicate(change=True)
_LOC = Predicate(attr="location")
_MOVE = Predicate(change=True, attr="move")  # location for a path, time for a date
_NAME = Predicate(attr="name")
_PREF = Predicate(pref=True)
_NEG = Predicate(negation=True)


def _many(words: str, pred: Predicate) -> dict[str, Predicate]:
    return dict.fromkeys(words.split(), pred)


def _en(phrases: str, pred: Predicate) -> dict[str, Predicate]:
    return dict.fromkeys((p.strip() for p in phrases.split("|") if p.strip()), pred)


# Chinese predicates, matched over consecutive jieba tokens joined without spaces.
ZH_PREDICATES: dict[str, Predicate] = {
    **_many(
        "是 为 就是 都是 用 使用 采用 选用 选择 选定 选的是 用的是 使用的是 采用的是 "
        "设为 设置为 设成 设定为 定为 等于 基于 统一用 统一使用 "
        "一律用 固定为 固定用 写成 配置为 配置成 跑在 运行在 运行于 托管在",
        _P,
    ),
    **_many("默认是 默认为 默认用 默认使用", Predicate(attr="default")),  # 新用户默认是免费版
    **_many(
        "在 位于 放在 存放在 保存在 存储在 存在于 放到 放于 装在 存到 存入 存于 住在 居住在 "
        "生活在 定居在",
        _LOC,
    ),
    **_many("部署在 部署于 部署到", Predicate(attr="deployment")),
    **_many("叫 叫做 名为 名叫 命名为 取名为", _NAME),
    **_many("监听 监听在", Predicate(attr="port")),
    **_many("偏好 喜欢 偏爱 更喜欢 习惯用 习惯使用 爱用 喜欢用 偏好使用 更倾向于", _PREF),
    **_many(
        "改用 改为 改成 改在 改回 改设为 换成 换为 换用 更换为 换成了 调整为 调整到 调为 "
        "换回 切回 改回到 换回到 回到 退回到 调大到 调小到 调高到 调低到 加大到 放宽到 收紧到 "
        "扩容到 缩容到 扩到 扩大到 缩小到 缩减到 削减到 涨到 涨至 放大到 放大至 扩大至 提升至 "
        "压缩到 压缩至 精简到 下调到 上调到 下调至 上调至 "
        "调到 调成 升级到 升级为 升到 升至 降级到 降级为 降到 降为 降至 切换到 切换为 "
        "切换成 切到 切成 更新为 更新到 变为 变成 变更为 更改为 修改为 替换为 替换成 "
        "提高到 提高至 提升到 增加到 增至 减少到 减到 降低到 延长到 缩短到 推迟到 提前到 "
        "延期到 改期到 定成 转为 转成 转到 转向 成为 变更到 "
        "缩短为 延长为 提高为 降低为 增加为 减少为 提升为 调整成 提前为 推迟为 追加到 追加至 "
        "涨价到 上涨到 下降到",
        _CHANGE,
    ),
    **_many(
        "改到 迁移到 迁移至 迁到 迁至 搬到 搬至 移到 移至 挪到 移动到 改存到 改存在 改放到 改放在 "
        "改存 改放 改存放到 转移到 转存到 换到 换至",
        _MOVE,
    ),
    **_many("定在 定于 安排在 约在 排在 放到了", Predicate(attr="move")),
    **_many("改名为 更名为 重命名为 改叫 改名叫", Predicate(change=True, attr="name")),
    **_many("停用 弃用 废弃 不再用 不再使用 不再采用 停止使用 不用 不再是 不再为 不再担任", _NEG),
    **_many("用于 用来 用作 作为 当作 充当", Predicate(inverse=True)),
    **_many("负责 维护 主导 牵头", Predicate(inverse=True, attr="owner")),
}

# English predicates, matched over words joined by one space; longest match wins.
EN_PREDICATES: dict[str, Predicate] = {
    **_en(
        "is|are|am|uses|use|using|is using|are using|am using|runs|run|runs on|run on|"
        "is running on|am on|"
        "is on|are on|is set to|are set to|defaults to|default to|is configured to|"
        "targets|is based on|is built with|is written in|are written in|points to|"
        "equals|stays|remains|go with|goes with|sticks with|stick with|go through|goes through|"
        "are processed by|is processed by|are handled by|is handled by|"
        "is done with|are done with|is done using|are done using|is done via|are done via",
        _P,
    ),
    # "We deploy with Ansible": the tool an activity is done with (not where it goes)
    **_en(
        "deploy with|deploys with|deploy using|deploys using|is deployed with|are deployed with",
        Predicate(attr="deployment tool"),
    ),
    **_en("test with|tests with|are tested with|is tested with", Predicate(attr="testing tool")),
    **_en(
        "monitor with|monitors with|is monitored with|are monitored with",
        Predicate(attr="monitoring tool"),
    ),
    # "The free tier allows 1,000 requests per day": a limit of the subject
    **_en(
        "allows|allow|permits|permit|allows up to|allow up to|is limited to|are limited to",
        Predicate(attr="limit"),
    ),
    **_en("now allows|now allow|now permits|now permit", Predicate(change=True, attr="limit")),
    **_en("last|lasts|runs for|run for", Predicate(attr="length")),
    **_en("is licensed under|are licensed under", Predicate(attr="license")),
    **_en(
        "relicensed to|relicensed under|was relicensed to|was relicensed under|"
        "is now licensed under",
        Predicate(change=True, attr="license"),
    ),
    # "Mobile releases are signed by Tom" / "Anna signs the mobile releases"
    **_en("is signed by|are signed by", Predicate(attr="signer")),
    **_en("signs|signs off", Predicate(inverse=True, attr="signer")),
    **_en("is approved by|are approved by", Predicate(attr="approver")),
    **_en("is reviewed by|are reviewed by", Predicate(attr="reviewer")),
    **_en(
        "lives in|live in|lives at|is in|are in|am in|is at|are at|am at|is under|are under|"
        "am based in|is based in|are based in|"
        "is located at|is located in|located at|is stored in|are stored in|is stored at|"
        "is kept in|are kept in|sits in|resides in|is found in|is served at|is served from",
        _LOC,
    ),
    **_en(
        "is deployed to|is deployed on|is deployed at|are deployed to|are deployed on|"
        "deploys to|deploy to|is hosted on|is hosted at|are hosted on",
        Predicate(attr="deployment"),
    ),
    **_en("is called|is named|are called|are named|goes by", _NAME),
    **_en(
        "go to|goes to|are sent to|is sent to|get sent to|gets sent to|are routed to|"
        "is routed to|route to|routes to|are forwarded to|is forwarded to|are reported to|"
        "is reported to|report to|reports to",
        Predicate(attr="destination"),
    ),
    **_en(
        "is kept for|are kept for|is retained for|are retained for|is stored for|"
        "are stored for|expires after|expire after|is deleted after|are deleted after",
        Predicate(attr="retention"),
    ),
    **_en(
        "is now kept for|are now kept for|is now retained for|are now retained for|"
        "now expires after|now expire after",
        Predicate(change=True, attr="retention"),
    ),
    **_en(
        "happen on|happens on|happen at|happens at|take place on|takes place on|"
        "is held on|are held on|is held at|are held at|occur on|occurs on|"
        "start at|starts at|begin at|begins at|run at|runs at",
        Predicate(attr="time"),
    ),
    **_en(
        "goes live on|go live on|goes live|launches on|launch on|ships on|is released on|"
        "is launched on|will go live on",
        Predicate(attr="launch time"),
    ),
    **_en("depends on|depend on|relies on|rely on|is built on|are built on", _P),
    **_en("listens on|listen on|is listening on|serves on|is served on", Predicate(attr="port")),
    **_en(
        "prefer|prefers|like|likes|love|loves|favor|favour|favors|favours|'d rather use|"
        "would rather use|always use|prefer to use|prefers to use|like to use",
        _PREF,
    ),
    **_en(
        "switched to|switch to|has switched to|have switched to|changed to|was changed to|"
        "has changed to|has been changed to|is changed to|were changed to|migrated to|"
        "has migrated to|have migrated to|was migrated to|upgraded to|was upgraded to|"
        "has been upgraded to|downgraded to|was downgraded to|bumped to|was bumped to|"
        "updated to|was updated to|has been updated to|became|has become|have become|"
        "now uses|now use|now runs on|now is|is now|are now|was raised to|raised to|"
        "increased to|was increased to|reduced to|was reduced to|decreased to|lowered to|"
        "was lowered to|extended to|was extended to|postponed to|was postponed to|"
        "rescheduled to|was rescheduled to|pushed to|was pushed to|moved up to|"
        "was set to|has been set to|now defaults to|now points to|back to|went back to|"
        "going back to|switched back to|changed back to|moved back to|reverted to|"
        "has reverted to|was reverted to|returned to|is back to|are back to|is back on|"
        "settled on|have settled on|has settled on|went with|now prefer|now prefers|"
        "was rewritten in|is rewritten in|has been rewritten in|were rewritten in|"
        "got rewritten in|rewritten in|was ported to|has been ported to|ported to|"
        "tightened to|was tightened to|loosened to|was loosened to|relaxed to|was relaxed to|"
        "cut to|was cut to|trimmed to|doubled to|halved to|dropped to|grew to|expanded to|"
        "shrunk to|shrank to|capped at|is now capped at|scaled to|was scaled to|scaled up to|"
        "went up to|went down to|goes up to|go up to|jumped to|rose to|fell to|climbed to|"
        "turned|just turned|has turned|has just turned|"
        "was rebuilt with|rebuilt with|has been rebuilt with|is now built with|was rebuilt in|"
        "was rewritten with|is now written in|are now written in",
        _CHANGE,
    ),
    **_en(
        "come around to|came around to|have come around to|'ve come around to|"
        "now prefer to use|have switched over to|switched over to",
        Predicate(change=True, pref=True),
    ),
    **_en(
        "moved to|has moved to|have moved to|was moved to|were moved to|is moved to|"
        "relocated to|was relocated to|now lives in|now lives at|now sits in|"
        "is now in|is now at|is now under|now lives under",
        _MOVE,
    ),
    **_en(
        "was renamed to|renamed to|is renamed to|has been renamed to|is now called|is now named",
        Predicate(change=True, attr="name"),
    ),
    **_en(
        "no longer uses|no longer use|no longer runs on|no longer is|is no longer|"
        "are no longer|stopped using|stop using|dropped|has dropped|deprecated|"
        "has deprecated|no longer listens on|no longer lives in",
        _NEG,
    ),
    **_en("is used for|are used for|is used as|serves as|acts as", Predicate(inverse=True)),
    **_en(
        "is owned by|is maintained by|is managed by|is run by|is led by|belongs to|"
        "are owned by|are maintained by",
        Predicate(attr="owner"),
    ),
    **_en("owns|maintains|leads|runs the", Predicate(inverse=True, attr="owner")),
    # "Marco took over as design lead": the role is the subject, the person its new value
    **_en(
        "took over as|has taken over as|takes over as|stepped in as|has stepped in as|"
        "was promoted to|is now acting as",
        Predicate(inverse=True, change=True, attr="owner"),
    ),
}
# "moved the deploy script to tools/", "set the timeout to 60s", "replaced X with Y".
EN_TRANSITIVE = frozenset(
    """moved changed switched set bumped upgraded downgraded renamed raised lowered
    increased reduced updated migrated pinned extended postponed rescheduled relocated
    move change switch bump upgrade downgrade rename raise lower increase reduce update
    migrate pin extend postpone reschedule relocate""".split()
)
EN_TRANSITIVE_LINKS = frozenset({"to", "into", "onto"})
# "we keep the wiki on Confluence", "host the docs at …": where the object is
EN_PLACING = frozenset("keep keeps store stores host hosts put puts".split())
EN_PLACING_LINKS = frozenset({"in", "on", "at", "under"})
# "翻译改由小周负责": 由 glued to a change adverb
ZH_BY = frozenset({"由", "改由", "现由", "换由", "转由", "改为由", "交由", "现在由"})
ZH_BA = frozenset({"把", "将", "给"})  # "给猫改名叫豆豆": the subject follows 给

# A change stated by an adverb before the predicate: "现在用 X", "from now on we use X".
ZH_CHANGE_ADVERBS = frozenset(
    """现在 如今 以后 今后 往后 此后 从此 从现在起 从现在开始 从今天起 从今往后
    已经 已 终于 最终 后来 新 新的 又 重新 再次 刚刚 随后""".split()
)
EN_CHANGE_ADVERBS = frozenset({"now", "henceforth", "anymore", "instead", "new"})
EN_CHANGE_PHRASES = (
    "from now on", "going forward", "as of now", "as of today", "from today", "these days",
    "nowadays", "lately", "recently", "right now", "at the moment", "by now",
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
                  "i was wrong", "not quite", "that was wrong")  # fmt: skip
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
    难为 人为 无为 有为 为 是 自从 服从 随从 听从 遵从 无从 侍从 从 打从 自打""".split()
)
ZH_GLUED = "是为从"
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
    {"项目", "团队", "project", "team", "repo", "仓库", "公司", "组", "家里", "家中", "我家"}
)

# "X 由 Y 负责": Y is X's owner.
ZH_OWNER_VERBS = frozenset("负责 维护 管理 主导 牵头 主管 负责维护 对接 跟进".split())
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
                         "this week", "this month", "this year", "a while ago"})  # fmt: skip

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
frequency 频率 频次 frequency cadence 节奏
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
preferred 首选 偏好 favorite favourite preferred choice 最爱 常用 惯用 日常
browser 浏览器 browser
tool 工具 tool 软件 software
"""
_PHRASES = {
    "package manager": "package_manager", "test framework": "test_framework",
    "testing framework": "test_framework", "color scheme": "theme", "message queue": "queue",
    "dark mode": "theme", "code style": "style", "front end": "frontend", "back end": "backend",
    "back up": "backup",
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
