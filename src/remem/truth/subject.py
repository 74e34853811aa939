"""What a memory is about: its subject and the value it states, read by a small grammar
over segmented tokens, in Chinese and English.

    SUBJECT [adverbs] PREDICATE VALUE [role | list | trailing particles]

A predicate is a closed class of linking verbs (`lexicon`): 用 / 使用 / 是 / 在 / 改用 /
换成 / 调整为 / uses / is / listens on / switched to / prefer …, each saying whether it
states a change, a stop (不再用, no longer), or implies an attribute (在 -> location,
listens on -> port). Qualifiers stay in the subject ("测试环境的 Redis", "billing
service"); an owner-only subject ("我们用 X", "I prefer X") takes the kind of its value
("the user's editor"). Anything the grammar cannot read whole gives no claim: the
callers then fall back on the surface rules (SPEC LT10).

    read("部署脚本改到了 tools/deploy.py")
    # Claim(subject="部署脚本 location", value="tools/deploy.py", change=True)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache

from remem.truth import keys as keymod
from remem.truth import lexicon as lx
from remem.truth import predicates as pr
from remem.truth import when
from remem.truth.bare import bare_of, one_part, owner_noun
from remem.truth.forms import (
    after_switch,
    manner_preference,
    noted_user,
    owner_first,
    switched_thing,
)
from remem.truth.grammar import (
    QUESTION,
    Clause,
    clause_end,
    concept,
    copula,
    ends_with_attr,
    implied_attrs,
    promote_attrs,
    read_value,
    relative_clause,
    split_time,
    strip_subject,
    subject_part,
    trim_value,
    without_purpose,
)
from remem.truth.markers import markers
from remem.truth.predicates import Predicate
from remem.truth.replacement import replaced
from remem.truth.schedule import (
    en_amount,
    en_commute,
    en_days,
    rate_split,
)
from remem.truth.segment import (
    Tok,
    normal,
    sentences,
    solid,
    tokenize,
)
from remem.truth.sourced import sourced
from remem.truth.table import mapping, words
from remem.truth.values import NEGATORS, ONE_OFF, PRONOUNS, span_text, value_ok
from remem.truth.verbs import noun_before_verb, predicate_at


@dataclass(frozen=True, slots=True)
class Claim:
    """A memory's subject (as shown: "测试数据库", "billing service port", "the user's
    editor") and value ("SQLite"; None when it says only that a value stopped).

    `change`: the text states a change; `dropped`: the value it says stopped ("不再用
    X", "from X to Y"); `whole`: the claim is all the memory says (no other clause)."""

    subject: str
    value: str | None
    change: bool = False
    dropped: str | None = None
    whole: bool = True
    via: str = "rules"
    # the subject key stored with the memory (`keys` of its subject and value then)
    stored_key: str | None = field(default=None, compare=False, repr=False)
    # and the value terms stored with that key
    stored_terms: tuple[str, ...] | None = field(default=None, compare=False, repr=False)

    @property
    def key(self) -> str:
        if self.stored_key:
            return self.stored_key
        return keymod.keys(self.subject, self.value)[0]

    @property
    def value_terms(self) -> tuple[str, ...]:
        if self.stored_terms is not None:
            return self.stored_terms
        return keymod.keys(self.subject, self.value)[1]


def _owned_by(part: list[Tok], by: int, pred: Predicate) -> Clause:
    """ "报表服务由王强负责": the owner after 由; "改由小周负责" states a change of owner."""
    owner, subject, _, _, usable = strip_subject(part[:by])
    value = part[by + 1 :]
    ok, moved = bool(usable and subject and value_ok(value, 1)), part[by].low != "由"
    return Clause(
        owner, subject, pred=pred, value=value, attrs=["owner"], change=moved, complete=ok
    )


def _subject_of(
    pred: Predicate,
    part: list[Tok],
    owner: str | None,
    subject: list[Tok],
    change: bool,
    dropped: str | None,
) -> tuple[str | None, list[Tok], str | None]:
    """(owner, subject, dropped) once the predicate is known: the user of an agent's
    note, an owner noun named, a one-off time left out, a known value before a change."""
    if pred.pref and noted_user(subject):
        owner, subject = "user", []
    if not subject and pred.attr in ("name", "owner"):
        subject = owner_noun(part)  # "the project was renamed"
    if pred.change or pred.attr == "move" or change:  # "我上个月搬到了深圳": when it changed
        subject = [t for t in subject if not (t.is_han and t.low.startswith(ONE_OFF))]
    if pred.change and dropped is None and _known_value(subject, part):
        dropped, subject = span_text(subject), []  # "把 Datadog 换成了 Grafana"
    return owner, subject, dropped


def _clause(toks: list[Tok], start: int, i: int, pred: Predicate, j: int) -> Clause | None:
    """The clause whose predicate spans toks[i:j]; its subject is looked for in toks[start:i]."""
    before = toks[i - 1].low if i > start else ""
    if before in NEGATORS and not pred.negation and not pred.change:
        pred = replace(pred, negation=True)
    part = subject_part(toks, start, i)
    by = next((k for k, t in enumerate(part) if t.low in lx.ZH_BY), None)
    if pred.inverse and pred.attr == "owner" and by is not None:  # "报表服务由王强负责"
        return _owned_by(part, by, pred)
    owner, subject, change, dropped, usable = strip_subject(part)
    if not usable:
        return None
    owner, subject, dropped = _subject_of(pred, part, owner, subject, change, dropped)
    value, obj = read_value(toks, j, pred)
    if pred.transitive and obj and _old_name(pred, toks[j], obj):
        dropped, subject = span_text(obj), []  # "renamed master to main": the old name
    elif pred.transitive and obj and not all(t.low in PRONOUNS for t in obj):
        subject = obj  # "moved the deploy script to tools/": the object is the subject
    vtoks, located, trailing_change = trim_value(value.toks, pred)
    vtoks = without_purpose(vtoks)
    rated = (split := rate_split(vtoks) if not subject else None) is not None
    if split is not None:
        subject, vtoks = split  # "改成每周发一次版": how often 发版 happens
    if pred.attr in pr.HABITS and not (value.role or subject):
        return Clause(owner, subject, pred=pred, complete=False)  # "I drink coffee"
    vtoks, where = _where(vtoks)
    subject = [*subject, *where]  # "Caching is disabled in dev": dev's caching
    if not subject and not pred.inverse and _kindless(vtoks):
        subject = owner_noun(part)  # "团队扩到 12 人"
    timed = split_time(vtoks) if pred.attr in ("location", "move") else None
    if timed is not None:  # "计划在 6月30日 上线": when it goes live is 6月30日
        vtoks, verb = timed
        pred = replace(pred, attr="time")
        value.role = [verb, *value.role]
    swap = copula(pred, toks[i:j]) and (
        ends_with_attr(vtoks) and not ends_with_attr(subject) or _possessed(subject, vtoks)
    )
    if (swap or pred.inverse) and not value.of:
        # "王强是报表服务的负责人", "Redis 用于缓存", "王强负责支付服务": the value comes first
        subject, vtoks = vtoks, subject
        if subject and (whose := _WHOSE.get(subject[0].low)):  # "Redis is our cache"
            owner, subject = whose, subject[1:]
    attrs = implied_attrs(pred, vtoks, located) if not pred.inverse else [pred.attr or ""]
    if attrs is None or not value.complete or not value_ok(vtoks, value.items):
        return Clause(owner, subject, pred=pred, complete=False)
    if not subject and "location" in attrs and pred.attr in ("location", "move"):
        subject = owner_noun(part)  # "我们公司在杭州"
    if pred.attr not in _PERSON_ATTRS:  # "The platform team owns /api": a team, whole
        vtoks = promote_attrs(vtoks, attrs)
    attrs = [a for a in attrs if a] + [t.text for t in value.role] + ["frequency"] * rated
    if value.of:  # "Carol is the owner of the order service"
        subject, vtoks, attrs = value.of, subject, [t.text for t in vtoks]
    change = change or pred.change or value.change or trailing_change
    dropped = value.dropped or dropped
    return Clause(
        owner, subject, pred=pred, value=vtoks, attrs=attrs, change=change, dropped=dropped
    )


_PERSON_ATTRS = words("person concept", "en")
_POSSESSIVES = words("possessive")
_WHOSE = mapping("whose")


def _possessed(subject: list[Tok], value: list[Tok]) -> bool:
    """ "Dance is my stress fix", "Redis is our cache": what is someone's comes second."""
    return (
        len(value) >= 2
        and value[0].low in _POSSESSIVES
        and 0 < len(subject) <= 2
        and not any(t.low in _POSSESSIVES for t in subject)
    )


_ENVIRONMENTS = words("environment concept", "en")


def _where(value: list[Tok]) -> tuple[list[Tok], list[Tok]]:
    """A value and the environment a trailing "in dev" / "in prod" says it is of."""
    if len(value) >= 3 and value[-2].low in ("in", "on", "for") and not value[-1].is_han:
        if concept(value[-1].low) in _ENVIRONMENTS:
            return value[:-2], value[-1:]
    return value, []


def _kindless(value: list[Tok]) -> bool:
    """A number (a count, a size) no kind names: what it is of must be said, and a team
    or a project is then the subject, not just whose it is ("团队扩到 12 人")."""
    numeric = any(t.kind == "num" for t in value)
    return numeric and keymod.value_kind(keymod.value_terms(span_text(value))) is None


def _old_name(pred: Predicate, first: Tok, obj: list[Tok]) -> bool:
    """ "renamed master to main": a bare name after "renamed" is the old value, not
    the thing renamed ("renamed the project to Osprey")."""
    bare = first.low not in lx.EN_DETERMINERS and first.low not in lx.EN_OWNERS_WE
    return (
        pred.attr == "name"
        and bare
        and len(obj) == 1
        and first.low not in lx.EN_OWNERS_USER
        and obj[0].low not in lx.OWNER_NOUNS
    )


def _known_value(subject: list[Tok], part: list[Tok]) -> bool:
    """Whether the object of 把 is a well-known value rather than a subject: what is
    changed "把 Datadog 换成 Grafana" is the monitoring, not Datadog."""
    if not subject or not any(t.low in lx.ZH_BA for t in part):
        return False
    return keymod.value_kind(keymod.value_terms(span_text(subject))) is not None


def _implied(clause: Clause) -> list[str]:
    """Attributes a predicate implies (as opposed to words of the text)."""
    return ["location", "platform", "time", "name", "port", "owner", "launch time"]


def _subject_text(clause: Clause, value: str) -> str | None:
    """The subject as shown, or None when the clause names none it can stand for."""
    words = span_text(clause.subject)
    have = set(keymod.keys(words, None)[0].split()) if words else set()
    extra: list[str] = []
    implied = set(_implied(clause))
    for attr in clause.attrs:
        if attr in implied and ends_with_attr(clause.subject):
            continue  # "the default branch was renamed to trunk": the branch is the subject
        if concept(attr) not in have:
            have.add(concept(attr))
            extra.append(attr)
    kind = keymod.value_kind(keymod.value_terms(value))
    if not words:
        if kind is None and not extra:
            return None  # "我们用 X" / "I like X" of an unknown kind: several may hold
        named = any(a not in implied and concept(a) in lx.ATTRIBUTES | lx.KINDS for a in extra)
        if kind is not None and kind not in have and not named:  # "Apache 2.0 许可证": a license
            extra.insert(0, kind.replace("_", " "))
    elif clause.pred.pref and kind is None:
        return None  # "Bart likes pizza": likes are many, not one value
    text = " ".join(w for w in (words, *extra) if w)
    return f"the user's {text}" if clause.owner == "user" else text


# -- sentences ---------------------------------------------------------------------------
def _skip(sent: list[Tok]) -> bool:
    """A question or a tentative statement: no fact is read from it."""
    words = solid(sent)
    if words and words[-1].text in "?？":
        return True
    for k, tok in enumerate(words):
        if tok.is_han and (tok.low in lx.ZH_TENTATIVE or tok.low in QUESTION):
            return True
        if not tok.is_han and tok.low in lx.EN_TENTATIVE and tok.text != "May":
            after = words[k + 1].low if k + 1 < len(words) else ""
            if tok.low in ("plan", "plans") and after not in ("to", "on"):
                continue  # "the Pro plan" is a noun; "we plan to" is not a fact yet
            return True
        if tok.low in ("will", "shall", "can", "cannot", "can't", "gonna"):
            return True
    return False


def _noise(tok: Tok) -> bool:
    low = tok.low
    return (
        tok.kind == "punct"
        or low in lx.ZH_DISCOURSE
        or low in lx.EN_DISCOURSE
        or (low in lx.ZH_OWNERS_WE or low in lx.EN_OWNERS_WE or low in lx.EN_DETERMINERS)
    )


def _sentence(sent: list[Tok], inherited: Clause | None) -> tuple[list[Clause], bool]:
    """The clauses of one sentence, and whether every word of it belongs to one."""
    toks = solid(sent)
    clauses: list[Clause] = []
    covered: set[int] = set()
    start = i = 0
    while i < len(toks):
        found = predicate_at(toks, i)
        if found is None:
            i += 1
            continue
        pred, j = found
        if noun_before_verb(toks, start, i, j):
            i = j  # "print runs go to Corbel": "runs" names the thing, "go to" states it
            continue
        if relative_clause(toks, start, i, j):
            i = j  # "the ORM we use is SQLAlchemy": "we use" says which ORM, "is" states it
            continue
        clause = _clause(toks, start, i, pred, j)
        end = clause_end(toks, j)
        if clause is not None and clause.complete:
            if (
                not clause.subject
                and clause.owner is None
                and (prev := clauses[-1:] or ([inherited] if inherited else []))
            ):
                clause.subject, clause.owner = prev[0].subject, prev[0].owner
                clause.attrs = [*prev[0].attrs, *clause.attrs]
            clauses.append(clause)
            covered.update(range(start, end))
        start = i = max(end, j)
    whole = all(k in covered or _noise(t) for k, t in enumerate(toks))
    return clauses, whole


def _claim(clause: Clause) -> Claim | None:
    value = span_text(clause.value)
    subject = _subject_text(clause, value)
    if subject is None or not keymod.keys(subject, value)[0]:
        return None
    if clause.pred.negation:
        return Claim(subject, None, change=True, dropped=value)
    return Claim(subject, value, change=clause.change, dropped=clause.dropped)


def _combine(claims: list[Claim], whole: bool) -> Claim | None:
    """One claim per memory: clauses about one subject merge ("不再用 MySQL，改用
    PostgreSQL"); clauses about several subjects are several facts, not one."""
    if not claims or len({c.key for c in claims}) != 1:
        return None
    positive = [c for c in claims if c.value is not None]
    change = any(c.change for c in claims)
    dropped = next((c.dropped for c in reversed(claims) if c.dropped), None)
    if not positive:
        return replace(claims[-1], whole=whole)
    chosen = next((c for c in reversed(positive) if c.change), positive[-1])
    whole = whole and len({c.value_terms for c in positive}) == 1
    return replace(chosen, change=change, dropped=dropped, whole=whole)


@lru_cache(maxsize=4096)
def read(content: str) -> Claim | None:
    """The subject and value `content` states, by rules; None when it states none the
    rules can read whole (events, several facts, questions, plans)."""
    text, corrected = markers(normal(content))
    # when a change starts is neither its subject nor its value ("从下周一起夜间ETL改成…",
    # "… goes to £240 from the start of March"): the fact is read without it
    text = when.present_tail(when.lead(text) or text)
    claims: list[Claim] = []
    whole = True
    last: Clause | None = None
    sents = sentences(tokenize(text))
    alone = sum(bool(solid(s)) for s in sents) == 1
    for sent in sents:
        if _skip(sent):
            whole = False
            continue
        if (cut := after_switch(sent)) is not None:  # "换了新电脑，现在用 ThinkPad X1"
            last, sent, whole = cut[0], cut[1], False
        swap = replaced(sent) or manner_preference(sent) or owner_first(sent) or en_amount(sent)
        swap = swap or en_days(sent) or en_commute(sent) or sourced(sent)
        if swap is not None:
            clauses, covered = [swap], True
        else:
            clauses, covered = _sentence(sent, last)
        if not clauses:
            bare = bare_of(sent, alone)
            clauses, covered = ([bare], True) if bare is not None else (clauses, covered)
        if not clauses and (part := one_part(sent)) is not None:
            clauses, covered = [part], False  # "11月起改5点开门，早市人多": and why
        if not clauses and (which := switched_thing(sent)) is not None:
            last, whole = which, False  # "I switched dentists; it's Dr. Kim now"
            continue
        whole = whole and covered
        for clause in clauses:
            if (claim := _claim(clause)) is not None:
                claims.append(claim)
        last = clauses[-1] if clauses else last
    found = _combine(claims, whole)
    if found is not None and corrected:
        found = replace(found, change=True)
    return found
