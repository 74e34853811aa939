"""The learned pair judge (remem.truth.judge), the save pass that uses it
(truth.verdicts, last of truth.writes.PASSES), the read-time safety net
(retrieval.newer) and dates a save must never refuse."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from remem import Memory
from remem.entry import Entry
from remem.retrieval import block
from remem.truth import index, judge, writes

if TYPE_CHECKING:
    from remem.retrieval.embedding import USEEmbedder

T0 = datetime(2026, 3, 2, 9, tzinfo=UTC)
# What neither the rules nor the judge's word features get right yet (the judge gives
# these changes 0.3-0.7; the rules read both look-alikes as one subject): strict, so that
# getting one right fails here until it moves out of the list.
_NOT_YET = pytest.mark.xfail(strict=True, reason="not caught yet: see benchmarks/README")


def test_the_passes_are_named_in_order_and_the_judge_comes_after_the_rules() -> None:
    names = [name for name, _ in writes.PASSES]
    assert names == [
        "subject", "restatement", "topic", "tail", "overlap", "when", "judge",
        "corrected", "moved from", "stop", "shorter", "heading", "restated", "moved",
    ]  # fmt: skip


@pytest.mark.parametrize("kind", ["words", "embed", "vectors"])
def test_every_judge_ships(kind: str) -> None:
    model = judge.load(kind)
    assert model is not None and model.nets
    assert (model.vectors is not None) == (kind == "vectors")


def test_the_vectors_judge_reads_the_shipped_embedders_vectors() -> None:
    np = pytest.importorskip("numpy")
    from remem.retrieval.embedding import USEEmbedder

    model = judge.load("vectors")
    assert model is not None and model.vectors == USEEmbedder.name
    old, new = "Error tracking goes to Sentry.", "We moved error reporting over to Rollbar."
    with pytest.raises(ValueError, match="vectors"):
        model.verdict(old, new)
    u, v = np.full(512, 512**-0.5, np.float32), np.zeros(512, np.float32)
    v[0] = 1.0
    pair = judge.PairVectors(v.tobytes(), {"old": u.tobytes(), "short": u[:10].tobytes()})
    cosine, features = pair.of("old")  # type: ignore[misc]
    assert cosine == pytest.approx(float(u @ v)) and features.shape == (1024,)
    assert pair.of("short") is None and pair.of("missing") is None
    verdict = model.verdict(old, new, cosine, features)
    assert verdict.change + verdict.distinct + verdict.repeat == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("old", "new", "shared"),
    [
        # jieba cuts one phrase two ways by what is around it: the word is in both texts
        ("美团团购69块的套餐在上", "团购：79元 足疗+肩颈", {"团购"}),
        ("鱼贩子老黄每周一来收鱼", "老黄不来收了 跟别人合作了", {"老黄"}),
        ("The gate code is 1290", "Gate code changed", {"gate", "code"}),
        ("周三下午开周会", "周会改到周四下午", {"下午", "周会"}),
        ("团里一共41个人", "又走了俩", set()),  # nothing in common
        ("Hive 2 was requeened", "hive 3 thriving", {"hive"}),  # not a letter run inside a word
    ],
)
def test_shared_words_count_a_chinese_word_found_whole_in_the_other_text(
    old: str, new: str, shared: set[str]
) -> None:
    assert judge.shared_terms(old, new) == shared
    assert judge.shared_terms(new, old) == shared


def test_a_verdict_is_a_distribution() -> None:
    model = judge.load("words")
    assert model is not None
    v = model.verdict("Error tracking goes to Sentry.", "Error tracking goes to Rollbar.")
    assert v.change + v.distinct + v.repeat == pytest.approx(1.0)
    assert v.best in judge.CLASSES


def test_a_pair_adding_a_value_is_no_repeat_to_the_judges_reading_the_cosine() -> None:
    """The rules know a text naming a day, number or name the memory lacks repeats
    nothing: the judges reading the cosine give "repeat" nothing there, and what they
    held between change and distinct stands; the words judge reads as it learnt; a pair
    adding nothing keeps its repeat."""
    told = judge.no_repeat(judge.Verdict(0.16, 0.01, 0.83))
    assert told.change == pytest.approx(0.16 / 0.17) and told.repeat == 0.0
    assert told.own_change == 0.16  # what a save may supersede on, unasked
    both = judge.mean([told, judge.Verdict(0.5, 0.5, 0.0)])
    assert both.own_change == pytest.approx((0.16 + 0.5) / 2)
    assert judge.Verdict(0.4, 0.6, 0.0).own_change == 0.4
    old, new = "The glass bank is emptied on Mondays.", "Glass bank emptied every Thursday."
    dense, words = judge.features(old, new, 0.8)
    assert dense[judge.ADDS] == 1.0 and dense[judge.COSINE] == 1.0
    model = judge.load("embed")
    assert model is not None
    v = model.weigh(dense, words)
    assert v.repeat == 0.0 and v.change + v.distinct == pytest.approx(1.0)
    words_only = judge.load("words")
    assert words_only is not None
    assert words_only.verdict(old, new).repeat > 0.0
    same, _ = judge.features(old, "Mondays: the glass bank gets emptied.", 0.9)
    assert same[judge.ADDS] == 0.0


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Our CI runs on Jenkins.", "We switched CI over to GitHub Actions last sprint."),
        ("Error tracking goes to Sentry.", "Error tracking goes to Rollbar."),
        ("We support IE11.", "We dropped IE11 support."),  # asked: the stop reading
        # the grammar reads two subjects ("Guest mooring fee" / "guest moorings"), the words
        # judge a change (0.92, 0.91, 0.93): asked
        ("Guest mooring fee is £2.80 per metre per night.", "guest moorings up 20p a metre"),
        ("Matinee tickets for Hamlet are £16", "hamlet matinee up £2"),
        (
            "Evening swim session is at 7:15 on Fridays.",
            "friday evening swim is 15 mins later from now on",
        ),
        pytest.param("前端状态管理用的Vuex", "Vuex已经被我们干掉了，现在用Pinia", marks=_NOT_YET),
    ],
)
def test_changes_nobody_listed_are_caught(mem: Memory, old: str, new: str) -> None:
    first = mem.save(old, created_at=T0)
    second = mem.save(new, created_at=T0 + timedelta(days=3))
    assert second.status in ("superseded", "conflict"), second
    if second.status == "superseded":
        assert second.replaced is not None and second.replaced.id == first.entry.id
    else:
        assert first.entry.id in {e.id for e in second.conflicts}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "The API gateway timeout is 30 seconds.",
            "We bumped the API gateway timeout by 15 seconds.",
        ),
        ("We support IE11.", "We dropped IE11 support."),
        # read as a repeat (0.8 and more) before the judges were told it adds a day
        (
            "The recycling van empties the glass bank on Mondays.",
            "Glass bank emptied by the recycling van every Thursday afternoon.",
        ),
    ],
)
def test_the_vectors_judge_catches_what_the_words_cannot_read(
    tmp_path: Path, old: str, new: str, use_embedder: USEEmbedder
) -> None:
    """With the shipped embedder the judge reads both texts' vectors: a change the
    grammar cannot read whole and that says no change word is asked about."""
    pytest.importorskip("numpy")

    with Memory(tmp_path / "m.db", project="p", embedder=use_embedder) as mem:
        mem.save("Saw a heron at the pond this morning.", created_at=T0)
        first = mem.save(old, created_at=T0)
        second = mem.save(new, created_at=T0 + timedelta(days=3))
        assert second.status in ("superseded", "conflict"), second
        assert first.entry.id in {e.id for e in (*second.conflicts, second.replaced) if e}
        assert any("judged" in r for r in second.reasons)


def test_a_change_the_vectors_judges_are_sure_of_supersedes_unasked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, use_embedder: USEEmbedder
) -> None:
    """Read not whole by the grammar, judged a change at 0.9 or more by the judges
    reading both vectors, of the one memory sharing two words with it: superseded
    (asked before `SURE_LOOSE`)."""
    pytest.importorskip("numpy")
    from remem.truth import verdicts

    embedder = use_embedder
    old = "Milk tanker collects 6am daily."
    new = "The dairy has changed the milk tanker pickup to 5:15am."
    monkeypatch.setattr(verdicts, "SURE", 1.01)  # only the loose rule may supersede
    for sure, status in ((verdicts.SURE_LOOSE, "superseded"), (1.01, "conflict")):
        monkeypatch.setattr(verdicts, "SURE_LOOSE", sure)
        with Memory(tmp_path / f"{status}.db", project="p", embedder=embedder) as mem:
            mem.save("Saw a heron at the pond this morning.", created_at=T0)
            first = mem.save(old, created_at=T0)
            second = mem.save(new, created_at=T0 + timedelta(days=3))
            assert second.status == status, second
            assert first.entry.id in {e.id for e in (*second.conflicts, second.replaced) if e}
            assert second.reasons[0].startswith("judged")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Kiln firing schedule: cone 6 on Fridays.", "Kiln firing switched to Thursdays now. "
         "Fridays were too busy."),
        ("Our office printer is the HP in room 204.", "Printer got replaced by a Brother laser. "
         "Same room, 204."),
    ],
)  # fmt: skip
def test_a_change_said_with_a_little_chatter_is_asked_never_superseded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, use_embedder: USEEmbedder, old: str, new: str
) -> None:
    """A note of two short sentences is talk to the grammar, but a change the judges
    read is asked about (a conflict naming it), never superseded unasked; with the few
    sentences left out, as before `CHATTY`, it was added beside the old one."""
    pytest.importorskip("numpy")
    from remem.truth import verdicts

    for chatty, status in ((True, "conflict"), (False, "added")):
        monkeypatch.setattr(verdicts, "CHATTY", chatty)
        with Memory(tmp_path / f"{status}.db", project="p", embedder=use_embedder) as mem:
            mem.save("Saw a heron at the pond this morning.", created_at=T0)
            first = mem.save(old, created_at=T0)
            second = mem.save(new, created_at=T0 + timedelta(days=3))
            assert second.status == status, second
            if chatty:
                assert [e.id for e in second.conflicts] == [first.entry.id]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("我们的项目用 Python 3.12", "项目使用 JDK 17、Maven 3.9"),
        ("服务器 s1 的机房在 上海1 区", "服务器 s2 的机房在 上海2 区"),
        ("My flight to Tokyo departs March 14.", "My return flight departs March 22."),
        ("家里的狗叫豆豆，每个月要驱虫一次。", "We renamed FLAGS_URL to FEATURE_FLAGS_ENDPOINT."),
        # a change said with no subject ("time", read from 下周) is none of a memory sharing
        # no word with it ("Sports day": a day, a time)
        ("Sports day bunting - ask the caretaker for 30", "从下周起改成每天早上跑步"),
        # two plans, two services: each names itself by a word of its own (the judge 0.86)
        (
            "The Team plan is priced at $15 per seat",
            "The Enterprise plan now starts at $40 per seat",
        ),
        ("测试环境的用户服务的上线日期是 6月30日", "测试环境的通知服务的上线日期是 9月1日"),
    ],
)
def test_look_alikes_stay_apart(mem: Memory, a: str, b: str) -> None:
    first = mem.save(a, created_at=T0)
    second = mem.save(b, created_at=T0 + timedelta(days=1))
    assert second.status == "added", second
    assert first.entry.id in {e.id for e in mem.list()}


def test_a_past_end_date_never_raises(mem: Memory) -> None:
    sept = datetime(2026, 9, 10, tzinfo=UTC)
    r = mem.save("The v1 API is supported until June 30.", created_at=sept)
    assert r.entry.valid_to == datetime(2027, 7, 1, tzinfo=UTC)  # the next June 30
    assert r.notes == []
    r = mem.save("The v0 API was supported until June 30, 2025.", created_at=sept)
    assert r.status == "added"
    assert r.entry.valid_to == r.entry.valid_from  # it had ended when it was written
    assert r.notes == [
        "the period it states had already ended when it was written: kept as ended on 2026-09-10"
    ]
    assert r.to_dict()["notes"] == r.notes


def _side_by_side(mem: Memory, *texts: str) -> None:
    """Current memories written as a save that missed a change leaves them: straight
    into the store, past every decision."""
    for i, content in enumerate(texts):
        entry = mem._build(content, scope="project", created_at=T0 + timedelta(days=9 * i))
        mem.store.insert(entry, index.fields(entry), action="add", detail={})


def test_search_puts_the_newer_of_a_missed_change_first_and_marks_the_older(
    mem: Memory,
) -> None:
    _side_by_side(mem, "Our CI runs on Jenkins.", "Our CI runs on GitHub Actions.")
    hits = mem.search("Where does our CI run?")
    assert len(hits) == 2
    assert "GitHub Actions" in hits[0].entry.content
    assert hits[1].replaced_by == hits[0].entry.id
    assert "possibly replaced by a newer line" in block.line(hits[1])
    as_before = mem.search("Where does our CI run?", as_of=T0 + timedelta(days=20))
    assert all(h.replaced_by is None for h in as_before)  # the past is not second-guessed
    # one hit asked for: the net still reads the first few, then keeps the newer
    [only] = mem.search("Where does our CI run?", limit=1)
    assert "GitHub Actions" in only.entry.content


@pytest.mark.parametrize(
    ("older", "newer_one", "query"),
    [
        # h11 (development data): session 20's words judge 0.30, the judges reading the
        # vectors 0.62; session 28's words judge 0.42 (moved without the embedder too)
        (
            "Teaching the bow rehair class at the college, term 2, Thursdays.",
            "College has cut the bow rehair class.",
            "Is the bow rehair class at the college still on?",
        ),
        # session 19's judges 0.46; session 20's read it a likely repeat (0.77; change 0.23);
        # read as the change it is since session 43's judges (h1-h50)
        (
            "Teaching the pottery taster course at the community centre, spring term, Tuesdays.",
            "Community centre has cut the pottery taster course.",
            "Is the pottery taster course at the community centre still on?",
        ),
    ],
)
def test_with_the_embedder_the_net_reads_the_memories_vectors(
    tmp_path: Path, use_embedder: USEEmbedder, older: str, newer_one: str, query: str
) -> None:
    """A change the judges reading both memories' vectors find likely: moved with the
    embedder."""
    pytest.importorskip("numpy")

    with Memory(tmp_path / "v.db", project="p", embedder=use_embedder) as mem:
        _side_by_side(mem, older, newer_one)
        hits = mem.search(query)
        assert hits[0].entry.content == newer_one
        assert hits[1].replaced_by == hits[0].entry.id
        # look-alikes stay as the question asks, with the vectors read too
        _side_by_side(
            mem, "My flight to Tokyo departs March 14.", "My return flight departs March 22."
        )
        hits = mem.search("When does my flight to Tokyo depart?")
        assert "Tokyo" in hits[0].entry.content
        assert all(h.replaced_by is None for h in hits)


def test_a_question_naming_one_look_alike_keeps_the_ranking(mem: Memory) -> None:
    mem.save("My flight to Tokyo departs March 14.", created_at=T0)
    mem.save("My return flight departs March 22.", created_at=T0 + timedelta(days=1))
    hits = mem.search("When does my flight to Tokyo depart?")
    assert all(h.replaced_by is None for h in hits)
    assert "Tokyo" in hits[0].entry.content


def test_look_alikes_that_read_as_repeats_are_not_marked_replaced(mem: Memory) -> None:
    services = ["billing", "ledger", "metrics", "payments", "notifier", "search", "auth"]
    _side_by_side(
        mem,
        *(f"The {s} service is built with JDK {17 + 4 * (i % 2)}" for i, s in enumerate(services)),
    )
    hits = mem.search("Which JDK do the services build with?")
    assert len(hits) >= 5
    assert all(h.replaced_by is None for h in hits)


def test_a_question_naming_only_the_older_needs_a_surer_change(mem: Memory) -> None:
    _side_by_side(mem, "The staging database is Postgres 14.", "The database is Postgres 16 now.")
    # the judge finds it likely, not sure (0.65): moved unless the question names the
    # word only the older holds (it may ask for that one)
    moved = mem.search("Which Postgres does the database run?")
    assert "16" in moved[0].entry.content and moved[1].replaced_by == moved[0].entry.id
    kept = mem.search("Which Postgres does the staging database run?")
    assert "14" in kept[0].entry.content
    assert all(h.replaced_by is None for h in kept)


def test_the_net_leaves_two_memories_sharing_one_word(mem: Memory) -> None:
    from remem import text
    from remem.retrieval import newer

    # the judge reads "stopped …" as a likely change of almost anything that shares a word
    # (0.56): with a question naming a word only the older holds, it must be surer
    older, newer_one = "lab meeting: Mondays at 10", "stopped the vitamin D, labs came back normal"
    asked = set(text.query_terms("When is the lab meeting?"))
    assert newer._needed(asked, older, newer_one) == newer.CHANGED_ASKED_OLDER
    _side_by_side(mem, older, newer_one)
    hits = mem.search("When is the lab meeting?")
    assert hits[0].entry.content == older
    assert all(h.replaced_by is None for h in hits)
    moved = "lab meeting moved to Tuesdays at 10"
    assert newer._needed(asked, older, moved) == newer.CHANGED
    # a question holding no word only the older does: one word shared, a surer judge
    assert newer._needed(set(text.query_terms("labs?")), older, newer_one) == newer.ONE_WORD
    # the vectors' thresholds are looked up by the words judge's: each must be its own
    assert (
        len(newer._WITH_VECTORS)
        == len({newer.CHANGED, newer.CHANGED_ASKED_OLDER, newer.ONE_WORD})
        == 3
    )


@pytest.mark.parametrize(
    ("older", "newer_one", "query"),
    [
        # the newer said in few words, the question worded as the older: one word shared
        (
            "Radio headsets for tour groups: 24 sets in the back office.",
            "bought 6 more headsets",
            "How many radio headsets do we have for tour groups?",
        ),
        ("烧烤摊下午5点出摊，晚上11点收。", "提前一个小时出摊，收摊时间不变", "烧烤摊几点出摊？"),
    ],
)
def test_a_terse_change_goes_first_for_a_question_worded_as_the_older(
    mem: Memory, older: str, newer_one: str, query: str
) -> None:
    _side_by_side(mem, older, newer_one)
    hits = mem.search(query)
    assert hits[0].entry.content == newer_one
    assert hits[1].replaced_by == hits[0].entry.id


@pytest.mark.parametrize(
    ("one", "other", "query"),
    [
        # the words judge 0.44: a likely change to it, of memories of one shape
        ("Tina Choi's favourite dish is ramen", "Tina Park's Friday lunch is usually ramen",
         "ramen Tina"),
        # a repeat to it, with another value in its place (`_swapped`)
        ("韩霞涵是dorzenpel班的宏观经济学老师", "马宇婷是nixbelmor班的宏观经济学老师",
         "宏观经济学 老师"),
    ],
)  # fmt: skip
def test_two_subjects_the_grammar_read_apart_are_not_marked(
    mem: Memory, one: str, other: str, query: str
) -> None:
    """Many memories of one shape, each of its own person, are facts side by side: the
    net asks of them what a save asks of a change of one (`verdicts.ASK_APART_READ_WORDS`)."""
    _side_by_side(mem, one, other)
    hits = mem.search(query)
    assert len(hits) == 2
    assert all(h.replaced_by is None for h in hits)


@pytest.mark.parametrize(
    ("one", "other", "query"),
    [
        ("Karen Larsen owes me 410 dollars for the Auckland tickets",
         "Karen Larsen's resting heart rate is about 59 bpm", "Karen Larsen"),
        ("In Kyoto Wendy Rossi stayed near the old town",
         "Wendy Rossi's Friday lunch is usually pizza", "Wendy Rossi"),
    ],
)  # fmt: skip
def test_two_facts_sharing_only_a_persons_name_are_not_marked(
    mem: Memory, one: str, other: str, query: str
) -> None:
    """Whose they are is all they share: two facts of one person (the words judge read
    each a likely change)."""
    _side_by_side(mem, one, other)
    hits = mem.search(query)
    assert len(hits) == 2
    assert all(h.replaced_by is None for h in hits)


def test_people_named_are_read_as_index_terms() -> None:
    from remem.truth.people import people_named

    assert people_named("Karen Larsen's resting heart rate") == {"karen", "larsen"}
    assert people_named("In Kyoto Wendy Rossi stayed") == {"kyoto", "wendi", "rossi"}
    # a first word alone, a month, a day: no names
    assert people_named("Moved #37 from shed D onto the slipway") == set()
    assert people_named("Hull 37 in shed D.") == set()
    assert people_named("Chloe's class moved to Friday in May") == set()


def test_two_peoples_facts_of_one_shape_are_not_marked(mem: Memory) -> None:
    # each opens on its own person: two facts side by side (a store of many such)
    _side_by_side(mem, "高婷子在北京的酒店预算每晚 770 元", "程俊伟在北京的酒店预算每晚 1930 元")
    hits = mem.search("北京 酒店 预算")
    assert len(hits) == 2
    assert all(h.replaced_by is None for h in hits)


def test_a_person_named_as_the_value_is_still_a_change(mem: Memory) -> None:
    # the person opens the older note but is its value (who does it): still marked
    _side_by_side(mem, "张工负责装药工序", "装药工序换成李工了")
    hits = mem.search("装药工序谁负责？")
    assert hits[0].entry.content == "装药工序换成李工了"
    assert hits[1].replaced_by == hits[0].entry.id


def test_who_a_note_opens_on() -> None:
    from remem.truth.people import head_person

    assert head_person("高婷子在北京的酒店预算每晚 770 元") == {"高婷子"}
    assert head_person("小王负责前端") == {"小王"}
    assert head_person("Tina Choi's favourite dish is ramen") == {"tina choi"}
    # a person later in the note, a place, a thing: nobody at its head
    assert head_person("装药工序换成李工了") == set()
    assert head_person("In Kyoto Wendy Rossi stayed near the old town") == set()
    assert head_person("烤包子摊在二道桥市场门口。") == set()


def test_a_question_naming_a_number_only_the_older_holds_asks_for_the_older() -> None:
    from remem import text
    from remem.retrieval import newer

    # "round 7", "1号": the question says which thing, as a look-alike's question does
    older, newer_one = "The Tuesday round uses truck 12", "tuesday round is on the old Dennis now"
    named = set(text.query_terms("Which truck does the Tuesday round use, 12?"))
    assert newer._needed(named, older, newer_one) is None
    asked = set(text.query_terms("Which truck does the Tuesday round use?"))
    assert newer._needed(asked, older, newer_one) == newer.CHANGED_ASKED_OLDER


def test_a_question_worded_as_the_older_version_finds_the_current_one(mem: Memory) -> None:
    # the question shares no word with the version that replaced the one it matches
    old = mem.save("The bike shed key hangs in the kitchen", created_at=T0).entry
    new = mem.save("moved it to reception, top drawer", replace_id=old.id).entry
    hits = mem.search("Where does the bike shed key hang?")
    assert [h.entry.id for h in hits] == [new.id]
    then = mem.search("Where does the bike shed key hang?", as_of=T0 + timedelta(hours=1))
    assert [h.entry.id for h in then] == [old.id]  # what was true then is the older


def test_an_older_version_sharing_one_word_of_the_question_brings_nothing(mem: Memory) -> None:
    old = mem.save("The gateway uses Hazelcast for caching", created_at=T0).entry
    mem.save("Correction: the gateway cache is Memcached", replace_id=old.id)
    mem.save("I switched to vim.")
    hits = mem.search("Which editor do I use?")
    assert all("Memcached" not in h.entry.content for h in hits)


def test_three_versions_side_by_side_read_newest_first(mem: Memory) -> None:
    _side_by_side(
        mem, "Our CI runs on Jenkins.", "Our CI runs on CircleCI.", "Our CI runs on GitHub Actions."
    )
    hits = mem.search("Where does our CI run?")
    assert len(hits) == 3
    assert "GitHub Actions" in hits[0].entry.content
    assert hits[0].replaced_by is None
    assert all(h.replaced_by for h in hits[1:])


def test_twins_in_form_stay_in_the_order_the_question_asks(mem: Memory) -> None:
    _side_by_side(mem, "Room 4A's projector is an Epson.", "Room 4B's projector is a BenQ.")
    for query, want in (
        ("Which projector is in room 4A?", "Epson"),
        ("What projector does 4B have?", "BenQ"),
    ):
        hits = mem.search(query)
        assert want in hits[0].entry.content
        assert all(h.replaced_by is None for h in hits)


def test_a_repeat_in_other_words_is_a_duplicate(mem: Memory) -> None:
    first = mem.save("I keep my passport in the top desk drawer.", created_at=T0)
    again = mem.save("Passport lives in the desk's top drawer.", created_at=T0 + timedelta(days=2))
    assert again.status == "duplicate", again
    assert again.entry.id == first.entry.id  # the same value: "desk's top drawer"
    assert [e.content for e in mem.list()] == ["I keep my passport in the top desk drawer."]


@pytest.mark.parametrize(
    ("new", "old", "adds_nothing"),
    [
        (
            "3C's rent has to be paid by the 1st each month.",
            "Rent for 3C is due on the first.",
            True,
        ),
        ("Band practice is Sunday afternoons at 3.", "We rehearse Sundays, 3pm.", True),
        (
            "Leah (NP) covers the Thursday clinic.",
            "The nurse practitioner on Thursdays is Leah.",
            True,
        ),
        ("Dentist appointment on June 8.", "Dentist appointment on May 3.", False),
        (
            "Priya handed the coordinator role to Marcus.",
            "Priya coordinates the volunteers.",
            False,
        ),
        ("透析安排：每周一、三、五上午。", "透析改成每周二、周五两次。", False),
        ("Practice moved to Sunday afternoons.", "Practice is on Sunday afternoons.", False),
        # a time said in Chinese numerals the memory lacks; the same one said so is no clash
        ("快递车十点半到站", "快递车每天晚上11点到站。", False),
        ("快递车十一点到站", "快递车每天晚上11点到站。", True),
        # a name opening the note: two capitalised words, the first no function word
        ("Blue Team for me, still nights.", "I'm on Amber Team, nights.", False),
        ("The Amber Team has me, nights.", "I'm on Amber Team, nights.", True),
        # a range the other way round, however alike the rest
        ("Porters on late cover, 22:00-06:00.", "Porters on early cover, 06:00-22:00.", False),
        # a start said: a change to come; a time past the hour; another count of one thing
        ("下周三起，晨练7点半集合", "晨练每天7点集合。", False),
        ("晨练七点半集合", "晨练每天7点半集合。", True),
        ("洗碗每顿再加一次消毒", "洗碗每顿消毒两次。", False),
        ("每隔两个钟头巡一次", "每两小时巡一次", True),
    ],
)
def test_a_repeat_adds_nothing(new: str, old: str, adds_nothing: bool) -> None:
    from remem.truth import repeats

    assert repeats.adds_nothing(new, old) is adds_nothing


def test_a_fact_turned_around_is_never_a_repeat() -> None:
    from remem.truth import repeats

    assert not repeats.adds_nothing("My doctor took me off lisinopril.", "I take lisinopril daily.")
    assert not repeats.adds_nothing("我不再喝咖啡了", "我每天喝咖啡")
    assert repeats.adds_nothing("Coffee: none after 2pm, never.", "I never drink coffee after 2pm.")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I prefer spaces for indentation.", "Indentation uses tabs."),  # same subject
        (
            "The order service timeout was raised to 45 seconds.",
            "The search service timeout is 45 seconds.",
        ),
        ("The billing service listens on port 3023.", "The scheduler listens on port 3023."),
    ],
)
def test_what_reads_like_a_repeat_but_says_something_else_is_kept(
    mem: Memory, old: str, new: str
) -> None:
    mem.save(old, created_at=T0)
    second = mem.save(new, created_at=T0 + timedelta(days=2))
    assert second.status != "duplicate", second  # added, or a change asked about


def test_strings_of_random_words_are_never_repeats_on_words_alone(mem: Memory) -> None:
    import random

    rng, words = (
        random.Random(7),
        "alpha bravo charlie delta echo golf kilo lima papa tango".split(),
    )
    texts = {" ".join(rng.choice(words) for _ in range(12)) for _ in range(40)}
    assert all(mem.save(t, force=True).status == "added" for t in texts)


def test_two_memories_of_one_instant_are_never_ordered_by_a_guess(
    tmp_path: Path, use_embedder: USEEmbedder
) -> None:
    """Two accounts of a day's events imported with their date are two facts of that
    day: the judge (a guess) asks about neither as the other's next version; said a
    week later, the second is asked about."""
    pytest.importorskip("numpy")
    lost = "Bart参加了学校的美术比赛，因为十分紧张没有画好，最终没有得奖，感到失落。"
    won = "Bart参加了学校的美术比赛，比赛前Bart十分紧张，但是Bart克服了紧张最终取得了好名次。"
    for later, status in ((timedelta(0), "added"), (timedelta(days=7), "conflict")):
        with Memory(tmp_path / f"{status}.db", project="p", embedder=use_embedder) as mem:
            first = mem.save(lost, created_at=T0)
            second = mem.save(won, created_at=T0 + later)
            assert second.status == status, second
            assert mem.get(first.entry.id).is_current


@pytest.mark.parametrize(
    ("new", "shared_word", "status"),
    [
        ("The choir stopped rehearsing on Tuesdays.", True, "conflict"),
        ("The choir rehearses on Tuesdays in the hall.", True, None),
        ("Rehearsals were cancelled, the conductor is ill.", False, None),
    ],
)
def test_a_text_saying_something_stopped_is_asked_at_even_odds(
    new: str, shared_word: bool, status: str | None
) -> None:
    """A likely change (0.6: below `ASK`) is asked about when the text says something
    changed or stopped and, the judges reading both texts' vectors, shares a word with
    the memory; a text that says no such thing, or shares no word, is not asked."""
    from remem.truth import judge, verdicts

    old = Entry(content="Choir practice is on Mondays in the church hall.", id="old1")
    assert verdicts.ASK_SAID <= 0.6 < verdicts.ASK
    assert bool(judge.content_terms(new) & judge.content_terms(old.content)) == shared_word
    scored = [(judge.Verdict(0.6, 0.3, 0.1), old)]
    found = verdicts.judged(Entry(content=new), scored, {}, silent=False, loose=True)
    assert [m.relation for m in found] == ([status] if status else [])


@pytest.mark.parametrize(
    "new",
    [
        "From next month choir practice is on Thursdays.",  # when the change starts
        "Choir practice is half an hour earlier now",  # by how much it moved
        "下个月起合唱排练改在周四",
    ],
)
@pytest.mark.parametrize(
    ("cosines", "likely"), [(None, 0.72), ({}, 0.6)], ids=["words judge", "vectors judges"]
)
def test_a_change_said_by_its_start_or_its_amount_is_asked_at_lower_odds(
    new: str, cosines: dict[str, float] | None, likely: float
) -> None:
    """A likely change below what a plain text needs (`ASK_WORDS`, `ASK`) is asked about
    when the text says when the change starts or by how much a value moved."""
    from remem.truth import judge, verdicts

    assert verdicts.ASK_SAID_WORDS <= 0.72 < verdicts.ASK_WORDS
    old = Entry(content="Choir practice is on Mondays in the church hall.", id="old1")
    assert verdicts.says_so(new)
    assert not verdicts.says_so("Choir practice is on Thursdays in the church hall.")
    scored = [(judge.Verdict(likely, 1 - likely - 0.05, 0.05), old)]
    found = verdicts.judged(Entry(content=new), scored, cosines, silent=True)
    assert [m.relation for m in found] == ["conflict"]
    plain = verdicts.judged(Entry(content="Choir: Thursdays"), scored, cosines, silent=True)
    assert plain == []


def test_a_text_saying_something_stopped_is_never_dropped_as_a_repeat(
    mem: Memory, use_embedder: USEEmbedder, tmp_path: Path
) -> None:
    """The judges read "stepped down from the Friday class" as a sure repeat of "the
    Friday class is run by Hannah" (0.98): dropping it would lose that she left."""
    pytest.importorskip("numpy")
    with Memory(tmp_path / "e.db", project="p", embedder=use_embedder) as store:
        store.save("The Friday pottery class is run by Hannah.", created_at=T0)
        r = store.save(
            "Hannah stepped down from the Friday pottery class.",
            created_at=T0 + timedelta(days=3),
        )
        assert r.status in ("conflict", "superseded"), r


@pytest.mark.parametrize(
    ("old", "new", "clash"),
    [
        ("晚自习我值周二周四", "晚自习值班改到周一 周三", [1.0, 1.0, 0.0]),
        ("Locker rent is £40 a term", "Locker rent: £45 a term", [1.0, 0.0, 1.0]),
        ("Locker rent is £40 a term", "Locker rent per term is £40", [0.0, 0.0, 0.0]),
    ],
)
def test_the_judge_reads_a_value_swapped_for_another_of_its_kind(
    old: str, new: str, clash: list[float]
) -> None:
    from remem.truth import judge

    assert judge.features(old, new, None)[0][29:32] == clash


@pytest.mark.parametrize(
    ("old", "new", "early_swap", "differs_first"),
    [
        ("1号工位的美甲灯坏了", "2号工位的美甲灯上周刚换新的", 1.0, 1.0),
        ("North meadow gets cut after 15 July", "South meadow gets cut end of August", 1.0, 1.0),
        ("The gate code is 1290", "The gate code is 4471", 0.0, 0.0),
    ],
)
def test_the_judge_reads_where_two_texts_differ(
    old: str, new: str, early_swap: float, differs_first: float
) -> None:
    """A look-alike swaps the word naming which thing and goes on the same; a change
    keeps the start and differs in its value."""
    from remem.truth import judge

    aligned = judge.features(old, new, None)[0][32:]
    assert (aligned[2], aligned[5]) == (early_swap, differs_first)
    assert aligned[4] == 1.0  # both differ at the end


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("Type 1 sub-base is £18.50 a tonne.", "Type 1 up £1.20 a tonne", [1.0, 0, 0, 0, 0]),
        ("茶位费每位8元。", "下个月起茶位费10元一位", [0, 0, 1.0, 0, 0]),
        (
            "The Friday yoga class runs at 6pm.",
            "The Friday yoga class is cancelled.",
            [0, 0, 0, 1.0, 0],
        ),
        ("The Friday yoga class is cancelled.", "Friday yoga is at 7pm now.", [0, 0, 0, 0, 1.0]),
        ("The gate code is 1290", "The gate code is 4471", [0, 0, 0, 0, 0]),
    ],
)
def test_the_judge_reads_which_kind_of_change_the_rules_read(
    old: str, new: str, said: list[float]
) -> None:
    """The last five features: the new text moves a value by an amount, takes one back,
    starts from a date, says something stopped; the old says something stopped."""
    from remem.truth import judge

    dense = judge.features(old, new, None)[0]
    assert len(dense) == judge._DENSE and dense[40:] == said


def test_how_a_feeling_is_told() -> None:
    from remem.truth import verdicts

    assert verdicts.episode("Bart在户外草地上玩捉迷藏感到非常开心。")
    assert verdicts.episode("Lily was so happy riding the carousel at the county fair.")
    assert not verdicts.episode("Standup moved to 10am.")


@pytest.mark.parametrize(
    ("before", "after", "judged"),
    [
        # the judges alone read the second a likely change of the first (0.78)
        (
            "Bart在户外草地上玩捉迷藏感到非常开心。",
            "Bart和新邻居红红一起在小区草坪上捉迷藏，感觉很开心。",
            "conflict",
        ),
        # ... a repeat: session 20's judges read 0.82, below `REPEAT` (MADial's summer camp
        # and summer picnic read 0.81), session 43's 0.99: `episode` alone keeps the two
        (
            "Lily was so happy riding the carousel at the county fair.",
            "Lily went to the county fair and loved the carousel ride, feeling very happy.",
            "duplicate",
        ),
        # MADial's two days of one boy: session 43's judges read a repeat (0.95); "had a
        # great time" tells how it felt as "very happy" does
        (
            "Dad gave Bart a red and blue Ultraman toy as a birthday gift, "
            "and Bart was very happy.",
            "Bart and his dad went swimming together and had a great time.",
            "duplicate",
        ),
        (
            "小明在海洋馆看海豚表演时开心极了。",
            "小明去海洋馆玩，很喜欢海豚表演，感到非常开心。",
            "duplicate",
        ),
    ],
)
def test_two_experiences_and_how_they_felt_are_never_judged_against_each_other(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    use_embedder: USEEmbedder,
    before: str,
    after: str,
    judged: str,
) -> None:
    """A diary's two events a month apart, each telling how it felt, are two memories:
    neither a change nor a repeat of each other."""
    pytest.importorskip("numpy")
    from remem.truth import verdicts

    real = verdicts.episode
    for i, (rule, status) in enumerate(((real, "added"), (lambda content: False, judged))):
        monkeypatch.setattr(verdicts, "episode", rule)
        with Memory(tmp_path / f"{i}.db", project="p", embedder=use_embedder) as mem:
            mem.save(before, created_at=T0)
            second = mem.save(after, created_at=T0 + timedelta(days=30))
            assert second.status == status, second


@pytest.mark.parametrize(
    ("old", "new", "judged"),
    [
        ("Team quiz report, table no. 11, due Friday", "新茶具在景德镇订的 说11月底到货", False),
        ("Fire drill for block 7 is on Thursday", "订的窗帘 7号送到", False),
        ("Fire drill for block 7 is on Thursday", "Fire drill moved to Friday", True),
    ],
)
def test_the_words_judge_reads_no_pair_sharing_only_a_number(
    old: str, new: str, judged: bool
) -> None:
    """Keyword-only, a memory sharing nothing but a number with the text is no candidate
    of the words judge (in one store it asked "…说11月底交货" about "…no. 11, due Monday",
    0.94)."""
    from remem.truth import verdicts

    found = verdicts.ranked(Entry(content=new), [Entry(content=old, id="m1")], None)
    assert bool(found) == judged


def test_two_memories_a_text_may_change_are_asked_about_together() -> None:
    """A 3-step chain whose second step was kept beside the first: both current memories
    read as likely changes of the third are asked about, the likelier first, and no more
    than `ASK_AT_MOST`; one the judges read below the ask threshold is not."""
    from remem.truth import verdicts

    new = Entry(content="Hall hire is £50 an hour from June")
    olds = [Entry(content=c) for c in ("Hall hire is £40 an hour", "hall hire up £5", "x", "y")]
    scored = [
        (judge.Verdict(0.9, 0.1, 0.0), olds[0]),
        (judge.Verdict(0.8, 0.2, 0.0), olds[1]),
        (judge.Verdict(0.75, 0.25, 0.0), olds[2]),
        (judge.Verdict(0.3, 0.7, 0.0), olds[3]),
    ]
    cosines = {o.id: 0.8 for o in olds}
    asked = verdicts.judged(new, scored, cosines, silent=False)
    assert [m.relation for m in asked] == ["conflict"] * verdicts.ASK_AT_MOST
    assert [m.entry.id for m in asked] == [olds[0].id, olds[1].id]
    alone = verdicts.judged(new, [scored[0], scored[3]], cosines, silent=False)
    assert [m.entry.id for m in alone] == [olds[0].id]
