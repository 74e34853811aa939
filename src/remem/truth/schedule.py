"""When and how often something happens, said with no linking verb (Chinese):

    每天早上九点站会          -> (站会 time, 每天早上九点)
    工作日早上 10 点上班       -> (上班 time, 工作日早上 10 点)
    每天下午 3 点同步一次数据   -> (同步数据 time, 每天下午 3 点)
    我们每两周发一次版         -> (发版 frequency, 每两周)
    热卤摊晚上6点出摊          -> (热卤摊 出摊 time, 晚上6点): what it is of, first
    改5点半出摊               -> (出摊 time, 5点半), a change

The event is the subject, so a later "上班时间提前到 9 点半" or "现在改成每周发一次版" is
a change of the same thing. English says how often after the verb:

    We release every two weeks      -> (release frequency, every two weeks)
    Backups run nightly             -> (backups frequency, nightly)

and how much of something per day or week, the thing (or, for a measure, the activity)
and the period being the subject:

    I drink two coffees a day       -> (coffees a day, two)
    I cut down to one coffee a day  -> the same subject, a change
    I run 5 km every day            -> (run km every day, 5)
"""

from __future__ import annotations

from remem.truth import keys as keymod
from remem.truth import lexicon as lx
from remem.truth.grammar import Clause, strip_subject
from remem.truth.predicates import Predicate
from remem.truth.segment import SENTENCE_END, Tok, solid
from remem.truth.table import words
from remem.truth.values import ONE_OFF, date_like, nounish, value_ok

# Days that are kinds of days, not dates: "工作日早上 10 点"
_DAY_KINDS = words("day kind", "zh")
# "同步一次数据", "发一次版": how many times, between a verb and its object
_TIMES = words("times", "zh")
_STARTS = words("start verb", "zh")  # 开始: "8点半开始出"
_SWITCHED = words("source switch", "zh")  # 改 / 改成: "改5点半出摊"
_MAX_WHOSE = 3  # tokens naming what the event is of: a stall, a shop
_PARTS = words("part of day", "zh")


def _when(head: list[Tok]) -> bool:
    words = all(
        t.tag[:1] in ("t", "m") or t.low.startswith("每") or t.low in _DAY_KINDS or date_like([t])
        for t in head
    )
    once = any(t.low.startswith(ONE_OFF) for t in head)
    return bool(head) and words and not once and date_like(head)


def _event(tail: list[Tok]) -> list[Tok] | None:
    """What happens: a noun ("站会"), a verb ("上班", "发版") or a verb and its object
    with a count between ("同步一次数据" is 同步 数据), after "开始" ("5点开始包汤包")."""
    while len(tail) > 1 and tail[0].low in _STARTS:
        tail = tail[1:]
    if all(t.is_han and nounish(t) for t in tail):
        return tail
    if len(tail) == 1 and tail[0].is_han and tail[0].tag[:1] == "v":
        return tail
    if len(tail) == 2 and tail[0].is_han and tail[0].tag[:1] == "v" and nounish(tail[1]):
        return tail  # "包汤包", "拿藕": a verb and its object
    if len(tail) == 3 and tail[1].low in _TIMES and tail[0].is_han and tail[0].tag[:1] in "vdn":
        return [tail[0], tail[2]] if tail[2].is_han and nounish(tail[2]) else None
    return None


def _names_whose(tok: Tok) -> bool:
    """A noun of what an event is of ("热卤摊"), not a time, a kind of day or a person."""
    if not tok.is_han or not nounish(tok) or tok.tag == "nr":
        return False
    return not (tok.low in _DAY_KINDS or tok.tag[:1] in ("t", "m") or tok.low.startswith("每"))


def _modifies(tok: Tok) -> bool:
    """A word before a noun saying which ("清理任务": jieba tags 清理 an adjective)."""
    return tok.is_han and tok.tag in ("a", "vn", "v") and len(tok.text) == 2


def scheduled(sent: list[Tok]) -> Clause | None:
    """A time, then what happens at it (its subject): see the module. The owner may
    come first, and "现在" or "改" says it changed ("我现在每天 6 点起床", "改5点半出摊");
    so may what it is of ("热卤摊晚上6点出摊": the stall's 出摊)."""
    toks = [t for t in solid(sent) if t.text not in SENTENCE_END]
    owner = None
    if toks and (toks[0].low in lx.ZH_OWNERS_USER or toks[0].low in lx.ZH_OWNERS_WE):
        owner, toks = "user" if toks[0].low in lx.ZH_OWNERS_USER else "we", toks[1:]
    change = bool(toks) and (toks[0].low in lx.ZH_CHANGE_ADVERBS or toks[0].low in _SWITCHED)
    toks = toks[1:] if change else toks
    whose: list[Tok] = []
    while toks and (
        _names_whose(toks[0]) or (len(toks) > 1 and _modifies(toks[0]) and _names_whose(toks[1]))
    ):
        whose, toks = [*whose, toks[0]], toks[1:]
    if len(whose) > _MAX_WHOSE:
        return None
    for cut in (len(toks) - 1, len(toks) - 2, len(toks) - 3, len(toks) - 4):
        head, tail = toks[:cut], toks[cut:]
        event = _event(tail) if cut > 0 and _when(head) else None
        if event is not None and value_ok(head, 1) and strip_subject(event).usable:
            pred = Predicate(attr="time")
            # the part of the day says which of a thing's events ("校车早上7:10到村口" /
            # "校车下午4:40到村口": the morning and the afternoon bus)
            part = [t for t in head if t.low in _PARTS] if whose else []
            value = [t for t in head if t not in part] or head
            subject = [*whose, *part, *event]
            return Clause(owner, subject, pred=pred, value=value, attrs=["time"], change=change)
    return None


def _period_end(toks: list[Tok]) -> int:
    """Where the period of "每两周", "每周" ends (0: none starts toks)."""
    k = 0
    while k < len(toks) and (toks[k].low.startswith("每") or (k and toks[k].tag[:1] in "mqt")):
        k += 1
    return k


def rate_split(toks: list[Tok]) -> tuple[list[Tok], list[Tok]] | None:
    """(the event, how often) of "每两周发一次版", "每周发一次版"; None for other words."""
    k = _period_end(toks)
    rest = toks[k:]
    if not k or not toks[0].low.startswith("每") or len(rest) != 3:
        return None
    verb, times, obj = rest
    if times.low not in _TIMES or not (verb.is_han and verb.tag[:1] == "v"):
        return None
    return ([verb, obj], toks[:k]) if obj.is_han and obj.tag[:1] in "nv" else None


def _rotation(toks: list[Tok]) -> list[Tok] | None:
    """How often of "每周轮换一次" after its subject (值班): the period and the count."""
    k = _period_end(toks)
    rest = toks[k:]
    if k and len(rest) == 2 and rest[0].is_han and rest[0].tag[:1] == "v" and rest[1].low in _TIMES:
        return [*toks[:k], rest[1]]
    return None


def rate(sent: list[Tok]) -> Clause | None:
    """How often an owner does something: "我们每两周发一次版" -> (发版 frequency, 每两周)."""
    toks = [t for t in solid(sent) if t.text not in SENTENCE_END]
    start = next((k for k, t in enumerate(toks) if t.low.startswith("每")), None)
    if start is None:
        return None
    owner, before, _, _, usable = strip_subject(toks[:start])
    if before and usable and (how_often := _rotation(toks[start:])) is not None:
        return Clause(owner, before, value=how_often, attrs=["frequency"])
    found = rate_split(toks[start:])
    if found is None or before or not usable:
        return None
    event, how_often = found
    return Clause(owner, event, value=how_often, attrs=["frequency"])


_EN_LEADS = words("frequency lead", "en")
_EN_PER = words("per", "en")
_EN_PERIODS = words("period", "en")
_EN_COUNTS = words("count word", "en")
# words between the owner and an amount that say it changed ("cut down to one coffee")
_EN_AMOUNT_CHANGES = words("amount change", "en")


def en_rate(sent: list[Tok]) -> Clause | None:
    """How often something happens, said after its verb: "We release every two weeks"
    (the verb is the event), "The release train leaves every two weeks" (the noun
    before the verb is)."""
    toks = [t for t in solid(sent) if t.text not in SENTENCE_END]
    start = next(
        (k for k, t in enumerate(toks) if t.low in _EN_LEADS or t.low in keymod.FREQUENCIES),
        None,
    )
    if start is None or start < 1 or any(t.is_han for t in toks):
        return None
    how_often = toks[start:]
    if not keymod.is_frequency(tuple(t.low for t in how_often)):
        return None
    owner, before, change, _, usable = strip_subject(toks[:start])
    if any(t.kind == "num" or t.low in _EN_COUNTS for t in before):
        return None  # "I run 5 km every day": an amount a day (`en_amount`)
    if not usable or not before or before[-1].kind != "word":
        return None
    event = before if len(before) == 1 else before[:-1]  # the verb, or what does it
    while len(event) > 1 and event[-1].low in ("now", "still", "also", "usually"):
        change, event = change or event[-1].low == "now", event[:-1]
    return Clause(owner, event, value=how_often, attrs=["frequency"], change=change)


def _per_period(toks: list[Tok]) -> int | None:
    """Where "a day" / "per week" / "every morning" starts at the end of `toks`."""
    if len(toks) >= 2 and toks[-2].low in _EN_PER and toks[-1].low.rstrip("s") in _EN_PERIODS:
        return len(toks) - 2
    return None


def en_amount(sent: list[Tok]) -> Clause | None:
    """How much of something someone has per period: see the module."""
    toks = [t for t in solid(sent) if t.text not in SENTENCE_END]
    if any(t.is_han for t in toks) or (per := _per_period(toks)) is None:
        return None
    at = next((k for k, t in enumerate(toks) if t.kind == "num" or t.low in _EN_COUNTS), None)
    if at is None or not 0 < at < per - 1:
        return None
    owner, before, change, _, usable = strip_subject(toks[:at])
    things = toks[at + 1 : per]
    if not usable or not all(t.kind == "word" and nounish(t) for t in things):
        return None
    verbs = [t for t in before if t.low not in _EN_AMOUNT_CHANGES]
    changed = change or len(verbs) < len(before)
    if len(verbs) > 1 or not (verbs or changed):
        return None  # a verb of having ("drink", "run"), or a change, nothing else
    measure = all(t.low in lx.UNITS or t.low in ("km", "miles", "pages") for t in things)
    subject = [*(verbs if measure else []), *things, toks[-1]]  # "a day" is the day's
    return Clause(owner, subject, value=[toks[at]], change=changed)


_EN_DAYS = words("day", "en")


def en_days(sent: list[Tok]) -> Clause | None:
    """On which days someone does something: "I run on Tuesdays and Thursdays" ->
    (the user's run time, Tuesdays Thursdays); the verb is the event, not "runs on"."""
    toks = [t for t in solid(sent) if t.text not in SENTENCE_END]
    if len(toks) < 4 or toks[0].low not in ("i", "we") or toks[2].low != "on":
        return None
    verb, days = toks[1], toks[3:]
    if verb.kind != "word" or not any(t.low.rstrip("s") in _EN_DAYS for t in days):
        return None
    if not all(t.low.rstrip("s") in _EN_DAYS or t.low in ("and", ",", "or") for t in days):
        return None
    owner = "user" if toks[0].low == "i" else "we"
    value = [t for t in days if t.low.rstrip("s") in _EN_DAYS]
    return Clause(owner, [verb], pred=Predicate(attr="time"), value=value, attrs=["time"])


_EN_COMMUTE_TO = words("commute to", "en")
_EN_MODES = words("commute mode", "en")


def en_commute(sent: list[Tok]) -> Clause | None:
    """How someone gets to work: "I bike to work now" -> (the user's commute, bike), as
    "I commute by car" says it (the verb is the value)."""
    toks = [t for t in solid(sent) if t.text not in SENTENCE_END]
    owner, k = ("user", 1) if toks and toks[0].low == "i" else (None, 0)
    change = False
    while k < len(toks) and toks[k].low in ("now", "usually", "mostly", "always", "just"):
        change, k = change or toks[k].low == "now", k + 1
    if owner is None or k + 2 >= len(toks) or toks[k].low not in _EN_MODES:
        return None
    rest = [t.low for t in toks[k + 1 :]]
    place = next((n for n in (2, 1) if " ".join(rest[1 : 1 + n]) in _EN_COMMUTE_TO), None)
    if rest[0] != "to" or place is None:
        return None
    tail = rest[1 + place :]
    if not all(w in lx.EN_TRAILING for w in tail):
        return None
    change = change or "now" in tail or "instead" in tail
    pred = Predicate(attr="commute")
    return Clause(owner, [], pred=pred, value=[toks[k]], attrs=["commute"], change=change)
