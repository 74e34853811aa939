"""The index fields of an entry with its subject key, and the one-off computation of
subject keys for entries stored before remem read subjects (or copied raw)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from remem.entry import Entry
from remem.store.protocol import IndexFields, Store

NOTIFY_AT = 5_000  # entries to key before it is worth telling
# The version of the subject rules (`remem.truth.subject.read`): raise it when they read
# differently, so that the memories stored as having no subject are read once more
# (tests/test_truth_changes.py holds a fingerprint of the readings that says when).
# 2: replacements, times before events, rates, retention and schedules (session 3).
# 3: value-last owners, preferences of manner, values before the copula; from 3 on a
#    raise also keys stored subjects again (their concepts may have changed).
# 4: sessions 4-5's shapes; value terms kept beside each key.
# 5: whom one reports to, sending and deploying verbs, a product's own version, "system"
#    and "service" heads, platform over deployment, how often and how much a day, a
#    team as owner (session 6, probe set k).
# 6: "Dr." ends no sentence, a switch of which thing ("I switched dentists; it's Dr.
#    Kim now"), who handles or chairs (处理, 主持, handles) (session 6, probe set l);
#    how the user has a thing ("I like my coffee black"), times out after, 最近 (set m).
# 7: 用户 prefers (an agent's note), jieba's glued 在 ("课在"), tightened/relaxed X to Y,
#    commute by, "repository" an owner noun (session 6, probe set n).
# 8: are served from, shortened to, 扩充到, 交接给, 工作 heads (session 6, probe set o).
# 9: habits of a time or meal (drink, 喝), rebuilt/rewrote X with Y, relicensed, pushed
#    back to, a model year ("a 2015 Civic"), numbers "-ed to" / "X到" by form, 一共, 要求,
#    rotations (每周轮换一次, 两周一轮), days of an activity ("I run on Tuesdays"), a
#    kind word of the text over the value's (session 7, probe sets p and q).
# 10: "voted and the X is …" (the subject after what was done), 打网球 keyed as 网球,
#    Chinese numerals with their unit (七天 is 7d), 现在只 inside a subject (session 8,
#    probe sets t-y), transferred X to Y.
# 11: "again" closing a value states a change (back to an earlier one), "scratch that",
#    "change of plan", "Update:" / "Heads up:", ended up with, has gone to,
#    加到/减回/恢复到…, 改约到, 交给 (session 9, probe sets z1-z4, b1-b4, c1-c4).
# 12: an owner's 's is no word of a value ("desk's top drawer" holds "top desk drawer",
#    session 19).
# 13: when a change starts is read apart from the fact ("Standup is at 10:00 starting
#    next week" holds 10:00; "from the start of March" is no value left), a noun's 's
#    before a preposition is "is" ("patrol RIB's on jetty D"), a common noun is a place
#    ("钥匙在前台"), "A" before a Chinese noun a label (session 24).
# 14: a number, then 点到 / 号到, ends a range of times ("9 点到 6 点" is a value, not a
#    change "到 6") (session 28).
# 15: a start said by a weekday alone is when, not part of the subject ("As of Monday the
#    nightly backup runs at 4 AM" is of the nightly backup) (session 31).
# 16: the period a value holds for ("... this season") is no word of its subject; "go to"
#    an amount is what a value becomes, not where it is sent (session 34).
# 17: "is rated to" a number holds, no change; 改 and a verb states one (改卖, 改走); a
#    place pointed into (北门那个角上), a day cut short ("Sat"), a plural noun before a
#    verb ("print runs go to") (session 38).
# 18: where a thing is got from is its source ("面粉找城北李姐拿"); a price in 块 / 元 and
#    one a thing sells at ("小份卖14"); a time, then what happens at it, of a thing named
#    first ("热卤摊晚上6点出摊") or after 改 / 开始 (session 40).
# 19: a shop or a thing jieba took for a person ("汤馆", "冷藏柜") is a noun; a rare
#    character before a noun is its own ("糁" + "汤馆"); "人多" is no number; the one part
#    of a sentence cut at commas that states a fact, the rest a reason (session 41).
# 20: a start said with this or the coming days is when, not part of the fact ("本周六起
#    改成9点开门", "从明天起…") (session 42).
SUBJECT_RULES = 20


def subject_key(entry: Entry) -> str:
    """The normalised key of the entry's subject ("" when it has none)."""
    return subject_keys(entry)[0]


def subject_keys(entry: Entry) -> tuple[str, tuple[str, ...]]:
    """The entry's subject key and its value's terms ("" and () when it has no subject)."""
    from remem.truth import keys  # the rules load on a write, not on every open

    return keys.keys(entry.subject, entry.value) if entry.subject else ("", ())


def fields(entry: Entry) -> IndexFields:
    """`IndexFields.of(entry)` with its subject key and value terms: what every write by
    truth passes."""
    key, terms = subject_keys(entry)
    return replace(IndexFields.of(entry), subject=key, value_terms=terms)


def backfill(
    store: Store,
    *,
    batch: int = 1000,
    notify: Callable[[str], None] | None = None,
    rules: int = SUBJECT_RULES,
) -> int:
    """Give every entry without a subject key its subject (read by the rules where it
    has none stored) and key, after forgetting the keys computed under older `rules`;
    returns how many (0 on a read-only store)."""
    if not store.writable:
        return 0
    if (store.subject_rules() or 1) < rules:  # newer rules' keys stay: no back and forth
        store.reread_subjects(rules)
    done = 0
    while rows := store.unkeyed(batch):
        from remem.truth.subject import read

        if notify is not None and done == 0 and len(rows) == batch:
            notify("remem: reading the subjects of older memories (once)")
        keyed = []
        for entry in rows:
            if not entry.subject and (claim := read(entry.content)) is not None:
                entry.subject, entry.value = claim.subject, claim.value
            keyed.append((entry, *subject_keys(entry)))
        store.set_subjects(keyed)
        done += len(rows)
        if done >= NOTIFY_AT * 100:
            break  # a runaway (entries keyed concurrently): the rest waits for the next open
    return done
