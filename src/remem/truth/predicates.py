"""The predicates that link a subject to its value, Chinese and English: copulas and
verbs of use, place, name, ownership, preference, change and stop, with the attribute
each implies ("listens on" -> port, 搬到 -> a move). A closed class of verbs, never a
sentence or a sample of the data."""

from __future__ import annotations

from dataclasses import dataclass


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
    numeric: bool = False  # a predicate only before a number ("门槛提到了 80%", not 提到了他)


_P = Predicate()
_CHANGE = CHANGE = Predicate(change=True)
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
        "在 位于 放 放在 存放在 保存在 存储在 存在于 放到 放于 装在 存到 存入 存于 住在 居住在 "
        "生活在 定居在",
        _LOC,
    ),
    **_many("部署在 部署于 部署到", Predicate(attr="deployment")),
    **_many("叫 叫做 名为 名叫 命名为 取名为", _NAME),
    # "单测覆盖率要求 70%", "面试一共 4 轮": said only before a number
    **_many("要求 要求是 要求为 要求达到", Predicate(attr="threshold", numeric=True)),
    **_many("一共 总共 共有 一共有 共计", Predicate(numeric=True)),
    **_many("砍到 砍至 砍成", Predicate(change=True, numeric=True)),
    **_many("发到 发送到 推送到 推到 发往 上报到", Predicate(attr="destination")),  # 告警发到钉钉群
    **_many(
        "改发 改发到 改推 改推到 改推送到 改发送到", Predicate(change=True, attr="destination")
    ),
    **_many("提到 提到了 提至", Predicate(change=True, numeric=True)),  # 门槛提到了 80%
    **_many("监听 监听在", Predicate(attr="port")),
    **_many("喝 常喝 爱喝 只喝", Predicate(attr="drink")),
    **_many("吃 常吃 爱吃 只吃", Predicate(attr="food")),
    **_many("改喝", Predicate(change=True, attr="drink")),
    **_many("改吃", Predicate(change=True, attr="food")),
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
        "涨价到 上涨到 下降到 扩充到 扩充至 扩张到 扩招到 缩到 缩至 减至 缩为 "
        "加到 加至 加回 减回 缩回 降回 涨回 调回 恢复到 恢复为 恢复成",
        _CHANGE,
    ),
    **_many(
        "改到 迁移到 迁移至 迁到 迁至 搬到 搬至 移到 移至 挪到 移动到 改存到 改存在 改放到 改放在 "
        "改存 改放 改存放到 转移到 转存到 换到 换至 转学到 转学去",
        _MOVE,
    ),
    **_many("定在 定于 安排在 约在 排在 放到了", Predicate(attr="move")),
    **_many("改约到 改约在 改约 改期为 改期在", _MOVE),
    **_many(
        "改名为 更名为 重命名为 改叫 改名叫 改名成 更名成 重命名成",
        Predicate(change=True, attr="name"),
    ),
    **_many("停用 弃用 废弃 不再用 不再使用 不再采用 停止使用 不用 不再是 不再为 不再担任", _NEG),
    **_many("用于 用来 用作 作为 当作 充当", Predicate(inverse=True)),
    **_many("负责 维护 主导 牵头 负责处理 主持 接手 管", Predicate(inverse=True, attr="owner")),
    # "发布工作交接给了小钱": who owns it now
    **_many("交接给 交接给了 移交给 转交给 交给了 交给", Predicate(change=True, attr="owner")),
}

# English predicates, matched over words joined by one space; longest match wins.
EN_PREDICATES: dict[str, Predicate] = {
    **_en(
        "is|are|am|uses|use|using|is using|are using|am using|runs|run|runs on|run on|"
        "is running on|am on|"
        "is on|are on|is set to|are set to|defaults to|default to|is configured to|"
        "targets|is based on|is built with|is written in|are written in|points to|"
        "equals|stays|remains|go with|goes with|sticks with|stick with|go through|goes through|"
        "are processed by|is processed by|"
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
    **_en("times out after|time out after|timeouts after", Predicate(attr="timeout")),
    **_en("commute by|commutes by|commute via|go to work by", Predicate(attr="commute")),
    # "The build takes about 12 minutes", "I weigh 75 kg": a measure, said before a number
    **_en(
        "takes|take|took|usually takes|takes about|takes around|takes roughly",
        Predicate(attr="length", numeric=True),
    ),
    **_en("weigh|weighs|weighed", Predicate(attr="weight", numeric=True)),
    # "Builds are down to 7 minutes", "I'm down to 70 kg": a number changed
    **_en(
        "is down to|are down to|'m down to|am down to|is up to|are up to|'m up to|am up to|"
        "is back up to|are back up to|is back down to|are back down to|back up to|"
        "back down to|got down to|got up to",
        Predicate(change=True, numeric=True),
    ),
    # "I drink coffee in the morning": what one has (at a time of day) is a habit's value
    **_en("drink|drinks|usually drink|mostly drink", Predicate(attr="drink")),
    **_en("eat|eats|usually eat|mostly eat|have for breakfast", Predicate(attr="food")),
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
        "is kept in|are kept in|sits in|resides in|is found in|is served at|is served from|"
        "are served at|are served from",
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
        "is reported to|are shipped to|is shipped to|are streamed to|is streamed to|"
        "are pushed to|is pushed to|are exported to|is exported to|are uploaded to|"
        "is uploaded to|are synced to|is synced to|are published to|is published to|"
        "are delivered to|is delivered to|are piped to|is piped to",
        Predicate(attr="destination"),
    ),
    # "I report to Priya": whom one reports to is one's manager
    **_en(
        "report to|reports to|report directly to|reports directly to|now report to|now reports to",
        Predicate(attr="manager"),
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
        "start at|starts at|begin at|begins at|run at|runs at|goes out on|go out on|"
        "is sent out on|are sent out on|gets sent out on|go out|goes out",
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
        "ended up with|ended up going with|ended up on|ended up at|ended up using|"
        "has gone to|have gone to|has gone up to|has gone down to|have gone up to|"
        "have gone down to|"
        "was rewritten in|is rewritten in|has been rewritten in|were rewritten in|"
        "got rewritten in|rewritten in|was ported to|has been ported to|ported to|"
        "tightened to|was tightened to|loosened to|was loosened to|relaxed to|was relaxed to|"
        "cut to|was cut to|trimmed to|doubled to|halved to|dropped to|grew to|expanded to|"
        "shrunk to|shrank to|capped at|is now capped at|scaled to|was scaled to|scaled up to|"
        "went up to|went down to|goes up to|go up to|jumped to|rose to|fell to|climbed to|"
        "turned|just turned|has turned|has just turned|"
        "was rebuilt with|rebuilt with|has been rebuilt with|is now built with|was rebuilt in|"
        "was rewritten with|is now written in|are now written in|shortened to|"
        "was shortened to|lengthened to|was lengthened to|"
        "pushed back to|was pushed back to|has been pushed back to|pushed out to|"
        "was pushed out to|delayed to|was delayed to|has been delayed to|slipped to|"
        "has slipped to|brought forward to|was brought forward to|has been postponed to|"
        "got changed to|got switched to|got bumped to|got pushed to|got pushed back to|"
        "got postponed to|got rescheduled to|got upgraded to|got raised to|got cut to|"
        "is switching to|are switching to|'re switching to|is changing to|are changing to|"
        "'re changing to",
        _CHANGE,
    ),
    **_en(
        "come around to|came around to|have come around to|'ve come around to|"
        "now prefer to use|have switched over to|switched over to",
        Predicate(change=True, pref=True),
    ),
    **_en(
        "moved to|has moved to|have moved to|was moved to|were moved to|is moved to|"
        "moved over to|has moved over to|was moved over to|transferred to|has transferred to|"
        "got moved to|got moved over to|is moving to|are moving to|'re moving to|"
        "was transferred to|"
        "relocated to|was relocated to|now lives in|now lives at|now sits in|"
        "is now in|is now at|is now under|now lives under|is now served from|"
        "are now served from|is now served at|are now served at",
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
    **_en(
        "owns|maintains|leads|runs the|handles|is in charge of|takes care of",
        Predicate(inverse=True, attr="owner"),
    ),
    **_en("are handled by|is handled by", Predicate(attr="owner")),
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
    migrate pin extend postpone reschedule relocate tightened loosened relaxed tighten
    loosen relax cut trimmed scaled brought moving changing switching bumping raising
    lowering increasing reducing upgrading updating extending postponing migrating
    transferred transfer ported""".split()
)
EN_TRANSITIVE_LINKS = frozenset({"to", "into", "onto"})
# "we keep the wiki on Confluence", "host the docs at …": where the object is
EN_PLACING = frozenset("keep keeps store stores host hosts put puts".split())
EN_PLACING_LINKS = frozenset({"in", "on", "at", "under"})
# "we send our logs to Loki", "deploy the frontend to Vercel": where the object goes
EN_SENDING = {
    **_many(
        "send sends ship ships forward forwards route routes stream streams push pushes "
        "export exports upload uploads sync syncs publish publishes pipe pipes",
        Predicate(transitive=True, attr="destination"),
    ),
    **_many("deploy deploys host hosts", Predicate(transitive=True, attr="deployment")),
}
EN_SENDING_LINKS = frozenset({"to", "on", "onto"})
# "We rebuilt the docs site with MkDocs", "rewrote the CLI in Rust": what it is built with now
EN_REBUILDING = frozenset(
    """rebuilt rebuild rebuilds rewrote rewrite rewrites reimplemented reimplement
    reimplements redid redo redesigned redesign replatformed remade""".split()
)
EN_REBUILDING_LINKS = frozenset({"with", "in", "using", "on"})
# "I drink coffee in the morning", "我早上喝咖啡": what one drinks or eats is a habit of a
# time or a meal, a value only with that time (coffee and wine are both drunk)
HABITS = frozenset({"drink", "food"})
HABIT_WHEN = frozenset({"in", "at", "with", "for", "after", "before", "during", "every", "on"})
# "We relicensed the repo under Apache 2.0"
EN_RELICENSING = frozenset({"relicensed", "relicense", "relicenses"})
EN_RELICENSING_LINKS = frozenset({"under", "to", "as"})
# "cut the loop down to 3 rounds": a particle of the verb before its link, no object word
EN_PARTICLES = frozenset({"down", "up", "back", "over"})
