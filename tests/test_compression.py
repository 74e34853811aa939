"""Semantic compression (SPEC EX6, EX7): the trigger rules, rule and model structuring with
the numeric back-check, and merge-and-supersede through a real SQLite `Memory`. The LLM
path runs scripted, and once through the real OpenAI client against a local server."""

from __future__ import annotations

import json
import re
import unicodedata
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from openai_server import OpenAIServer, openai_server_fixture  # noqa: F401 (the fixture)
from remem import Memory, ScriptedChatModel
from remem.extract.compression import (
    STRUCTURE_PROMPT,
    CompressedItem,
    CompressionConfig,
    Compressor,
    compress_by_rules,
    missing_numbers,
    number_tokens,
    parse_item,
)
from remem.llm import LLMError, LLMSettings, OpenAIChatModel

CORPUS = [
    json.loads(line)
    for line in (Path(__file__).parent / "data" / "compression_corpus.jsonl")
    .read_text(encoding="utf-8")
    .splitlines()
    if line.strip()
]
T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def digit_runs(value: str) -> set[str]:
    """Every run of digits, independent of the module's own tokenizer."""
    value = re.sub(r"(?<=\d),(?=\d{3})", "", unicodedata.normalize("NFKC", value))
    return set(re.findall(r"\d+", value))


def kept_digits(item: CompressedItem) -> set[str]:
    return digit_runs(" ".join([item.summary, *item.facts.values()]))


def reply(**fields: Any) -> str:
    base: dict[str, Any] = {
        "entity": "预算",
        "type": "change",
        "summary": "预算调整为 8 万，2024-05-01 生效",
        "facts": {"预算": "8万", "生效日期": "2024-05-01"},
        "confidence": 0.9,
    }
    return json.dumps(base | fields, ensure_ascii=False)


BUDGET = "嗯，那个，预算调整为 8 万，2024-05-01 生效吧。"


# -- the corpus ------------------------------------------------------------------------------
def test_corpus_is_large_and_mixed() -> None:
    assert len(CORPUS) >= 50
    chinese = [c for c in CORPUS if re.search(r"[\u4e00-\u9fff]", c["text"])]
    assert 20 <= len(chinese) <= len(CORPUS) - 20
    kinds = {t.kind for c in CORPUS for t in number_tokens(c["text"])}
    assert kinds == {"amount", "percent", "id", "date", "time", "version", "number"}


@pytest.mark.parametrize("case", CORPUS, ids=[c["text"][:24] for c in CORPUS])
def test_offline_compression_keeps_every_number(case: dict[str, str]) -> None:
    source = case["text"]
    item = Compressor().compress(source)
    assert missing_numbers(source, item.summary, item.facts) == []
    assert digit_runs(source) <= kept_digits(item)
    assert item.source_text == source and item.method == "rules"
    assert item.summary and item.type in ("fact", "preference", "decision", "milestone", "change")
    assert 0 < item.confidence <= 1
    if "expect_entity" in case:
        assert item.entity == case["expect_entity"]
    if "expect_type" in case:
        assert item.type == case["expect_type"]


def test_the_rules_shorten_the_corpus_and_never_fall_back_to_verbatim() -> None:
    items = [compress_by_rules(c["text"]) for c in CORPUS]
    redone = [i.source_text for i in items if i.redone]
    assert not [i for i in items if i.verbatim]  # the rules never need the last resort
    assert len(redone) == 2, redone  # a number outside the cued sentence: whole text
    shorter = [i for i in items if len(i.summary) < len(i.source_text.strip())]
    assert len(shorter) >= 20  # filler and end punctuation really go


# -- numbers ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("written", "key"),
    [
        ("预算 5 万", "50000"),
        ("budget 50,000", "50000"),
        ("１２，５００ 元", "12500"),
        ("$3.5k", "3500"),
        ("$2.5M", "2500000"),
        ("1.2 亿元", "120000000"),
        ("60w", "600000"),
        ("1.8 million rows", "1800000"),
        ("增长 18.5%", "18.5%"),
        ("v1.2.3", "1.2.3"),
        ("Python 3.10", "3.10"),
        ("2.0.0-rc1", "2.0.0-rc1"),
        ("JDK17", "17"),
        ("2024-05-01", "2024-05-01"),
        ("2024/5/1", "2024-05-01"),
        ("2024年5月1日", "2024-05-01"),
        ("5月3号", "05-03"),
        ("May 3, 2024", "2024-05-03"),
        ("3 May", "05-03"),
        ("March 2024", "2024-03"),
        ("at 9:30", "9:30"),
        ("#1234", "1234"),
        ("ORD-2024-0042", "ORD-2024-0042"),
        ("sku BX20240517001", "BX20240517001"),
        ("commit a1b2c3d4e", "A1B2C3D4E"),
        ("abc.5", "5"),
    ],
)
def test_each_way_of_writing_a_number_gives_one_canonical_key(written: str, key: str) -> None:
    assert [t.key for t in number_tokens(written)] == [key]


def test_missing_numbers_compares_values_not_spelling() -> None:
    source = "预算 5 万，截止 5月3日，版本 v3.10，工单 ABC-12"
    assert (
        missing_numbers(source, "预算 50000", {"d": "2026-05-03", "v": "3.10", "t": "ABC-12"}) == []
    )
    assert missing_numbers(source, "50000 5月3日 3.10 ticket 12", {}) == ["ABC-12"]
    assert missing_numbers(source, "预算 5 万，版本 3.1", {"t": "ABC-12"}) == ["5月3日", "v3.10"]
    assert missing_numbers("2024-05-01 上线", "5月1日上线", {}) == ["2024-05-01"]


# -- trigger (EX6 stage 1) ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("said", "fired", "reason"),
    [
        ("记住：测试环境端口是 8080", True, "explicit"),
        ("Remember that the staging DB runs on port 5433.", True, "explicit"),
        ("我们决定用 PostgreSQL 16", True, "decision"),
        ("OK, let's go with Redis 7.2.", True, "decision"),
        ("预算调整为 8 万", True, "change"),
        ("The API rate limit was bumped to 200 req/s", True, "change"),
        ("支付服务 v1.4.2 已上线", True, "milestone"),
        ("We shipped 3.8.0 to the App Store.", True, "milestone"),
        ("支付服务还没上线", False, "none"),
        ("要不要把预算改为 8 万？", False, "question"),
        ("预算改成 8 万了吗", False, "question"),
        ("我试试 Flask 吧", False, "tentative"),
        ("maybe we switch to Flask later", False, "tentative"),
        ("今天天气不错", False, "none"),
        ("我不喜欢周末收到消息", False, "preference"),
    ],
)
def test_the_trigger_fires_on_explicit_decision_change_and_milestone_words_only(
    said: str, fired: bool, reason: str
) -> None:
    trigger = Compressor().trigger(said)
    assert (trigger.fired, trigger.reason) == (fired, reason), trigger
    assert trigger.cue or reason in ("question", "none")


def test_a_preference_triggers_when_said_the_third_time() -> None:
    compressor = Compressor()
    said = ["我不喜欢周末收到消息", "嗯，我不喜欢周末收到消息吧。", "我不喜欢 周末收到消息！"]
    triggers = [compressor.trigger(s) for s in said]
    assert [t.fired for t in triggers] == [False, False, True]
    assert triggers[2].reason == "preference" and triggers[2].detail == "said 3 of 3 times"
    assert Compressor().trigger(said[0]).fired is False  # the count is per instance
    assert compressor.trigger("I prefer tabs").fired is False  # another preference


def test_the_preference_counter_is_configurable_and_bounded() -> None:
    compressor = Compressor(config=CompressionConfig(repeat_threshold=2, counter_size=2))
    assert not compressor.trigger("我喜欢用表格汇报").fired
    compressor.trigger("I prefer tabs")
    compressor.trigger("I always want dark mode")  # pushes the first one out
    assert not compressor.trigger("我喜欢用表格汇报").fired
    assert compressor.trigger("我喜欢用表格汇报").fired


@pytest.mark.parametrize(
    ("verdict", "fired", "reason"),
    [
        ('{"remember": true, "confidence": 0.9}', True, "change"),
        ('{"remember": true, "confidence": 0.7}', True, "change"),
        ('{"remember": true, "confidence": 0.69}', False, "model"),
        ('{"remember": false, "confidence": 0.95}', False, "model"),
        ("yes!", True, "change"),  # unusable: the rules decide
        ('{"remember": true, "confidence": 0.9, "why": "x"}', True, "change"),
        (LLMError("down"), True, "change"),
    ],
)
def test_a_model_confirms_rule_triggers_at_0_7(verdict: Any, fired: bool, reason: str) -> None:
    model = ScriptedChatModel([verdict])
    trigger = Compressor(model).trigger("预算调整为 8 万")
    assert (trigger.fired, trigger.reason) == (fired, reason), trigger
    assert model.requests[0].purpose == "compression"
    assert model.requests[0].messages[-1]["content"] == "预算调整为 8 万"


def test_the_model_is_asked_only_when_rules_fire_and_never_for_explicit() -> None:
    model = ScriptedChatModel([])  # any call would raise ScriptExhausted
    compressor = Compressor(model)
    assert compressor.trigger("记住：预算 5 万").fired
    assert not compressor.trigger("今天天气不错").fired
    assert model.requests == []


# -- structuring with a model ------------------------------------------------------------------
def test_a_valid_model_reply_becomes_the_item() -> None:
    model = ScriptedChatModel(["```json\n" + reply() + "\n```"])
    item = Compressor(model).compress(BUDGET)
    facts = {"预算": "8万", "生效日期": "2024-05-01"}
    summary = "预算调整为 8 万，2024-05-01 生效"
    wanted = CompressedItem(
        entity="预算",
        type="change",
        summary=summary,
        facts=facts,
        confidence=0.9,
        source_text=BUDGET,
        method="model",
    )
    assert item == wanted
    request = model.requests[0]
    assert request.messages[0]["content"] == STRUCTURE_PROMPT
    assert request.messages[1]["content"] == BUDGET and request.purpose == "compression"


def test_a_lost_number_is_redone_once_then_kept_verbatim() -> None:
    lossy = reply(summary="预算上调了", facts={"预算": "8万"})
    model = ScriptedChatModel([lossy, lossy])
    item = Compressor(model).compress(BUDGET)
    assert item.verbatim and item.redone and item.method == "model"
    assert item.summary == BUDGET and item.entity == "预算" and item.type == "change"
    assert len(model.requests) == 2
    *_, answer, redo = model.requests[1].messages
    assert answer == {"role": "assistant", "content": lossy}
    assert "2024-05-01" in redo["content"] and "8 万" not in redo["content"]  # what was lost


def test_a_redo_that_keeps_the_numbers_is_used() -> None:
    model = ScriptedChatModel([reply(summary="预算上调", facts={}), reply()])
    item = Compressor(model).compress(BUDGET)
    assert item.redone and not item.verbatim
    assert item.summary == "预算调整为 8 万，2024-05-01 生效"


def test_an_invalid_redo_still_ends_verbatim() -> None:
    model = ScriptedChatModel([reply(summary="预算上调", facts={}), "not json"])
    item = Compressor(model).compress(BUDGET)
    assert item.verbatim and item.summary == BUDGET and item.method == "model"


BAD_REPLIES = [
    "Sure! The budget is now 80k.",
    "[1, 2]",
    reply(extra="x"),
    json.dumps({"entity": "预算", "type": "change", "summary": "s", "facts": {}}),
    reply(entity=""),
    reply(entity=["预算"]),
    reply(type="event"),
    reply(summary=None),
    reply(facts={"预算": 80000}),
    reply(facts=["8万"]),
    reply(confidence="high"),
    reply(confidence=1.5),
    reply(confidence=-0.1),
    reply(confidence=True),
]


@pytest.mark.parametrize("bad", BAD_REPLIES)
def test_invalid_json_is_retried_once_then_the_rules_take_over(bad: str) -> None:
    model = ScriptedChatModel([bad, bad])
    item = Compressor(model).compress(BUDGET)
    assert item == compress_by_rules(BUDGET)
    assert item.method == "rules" and item.facts == {"预算": "8万", "date": "2024-05-01"}
    retry = model.requests[1].messages
    assert retry[-2] == {"role": "assistant", "content": bad}
    assert retry[-1]["content"].startswith("That reply is not valid: ")
    assert parse_item(bad, BUDGET)[0] is None


def test_a_retry_that_is_valid_is_used() -> None:
    model = ScriptedChatModel([reply(confidence=2), reply()])
    item = Compressor(model).compress(BUDGET)
    assert item.method == "model" and not item.redone
    assert "confidence must be a number from 0 to 1" in model.requests[1].messages[-1]["content"]


def test_a_failing_model_falls_back_to_the_rules() -> None:
    model = ScriptedChatModel([LLMError("HTTP 503")])
    assert Compressor(model).compress(BUDGET) == compress_by_rules(BUDGET)


def test_parse_item_names_every_problem() -> None:
    item, errors = parse_item(json.dumps({"type": "x", "confidence": 3, "facts": {"a": 1}}), "s")
    assert item is None and len(errors) == 6


def test_nothing_to_compress() -> None:
    with pytest.raises(ValueError):
        Compressor().compress("  ")


# -- merge and supersede (EX6 stage 3, LT11) ---------------------------------------------------
def test_a_changed_budget_supersedes_instead_of_duplicating(mem: Memory) -> None:
    compressor = Compressor()
    first = compressor.apply(compressor.compress("预算 5 万"), mem, at=T0)
    second = compressor.apply(compressor.compress("预算 8 万"), mem, at=T0 + timedelta(days=2))
    assert (first.status, second.status) == ("added", "replaced")
    assert second.replaced is not None and second.replaced.id == first.entry.id
    current = mem.list()
    assert [(e.content, e.entity, e.facts) for e in current] == [
        ("预算 8 万", "预算", {"预算": "8万"})
    ]
    assert len(mem.list(include_history=True)) == 2
    history = mem.history(second.entry.id)
    assert [v.content for v in history.versions] == ["预算 5 万", "预算 8 万"]
    assert history.versions[0].superseded_by == second.entry.id
    assert [h.entry.content for h in mem.search("预算")] == ["预算 8 万"]
    new = current[0]
    assert (new.source, new.confidence, new.importance) == ("auto_extracted", "unverified", 0.7)
    assert new.metadata["compression"] == {
        "source_text": "预算 8 万", "verbatim": False, "method": "rules"
    }  # fmt: skip


def test_the_story_end_to_end_through_process(db: Path) -> None:
    compressor = Compressor()
    with Memory(db, project="proj") as mem:
        first = compressor.process("记住：预算 5 万", mem, at=T0)
        second = compressor.process(BUDGET, mem, at=T0 + timedelta(hours=3))
        chat = compressor.process("今天天气不错", mem)
    assert first.trigger.reason == "explicit" and second.trigger.reason == "change"
    assert first.result and second.result and second.result.status == "replaced"
    assert chat.item is None and chat.result is None
    with Memory(db, project="proj") as mem:  # reopened from the file
        [current] = mem.list()
        assert current.content == "预算调整为 8 万，2024-05-01 生效"
        assert current.type == "change" and current.facts == {"预算": "8万", "date": "2024-05-01"}
        assert len(mem.history(current.id).versions) == 2


def test_saying_it_again_is_a_duplicate_not_a_version(mem: Memory) -> None:
    compressor = Compressor()
    first = compressor.apply(compressor.compress("预算 5 万"), mem, at=T0)
    again = compressor.apply(compressor.compress("嗯，预算 5 万。"), mem, at=T0 + timedelta(days=1))
    assert again.status == "duplicate" and again.entry.id == first.entry.id
    assert len(mem.list(include_history=True)) == 1


def test_within_the_window_the_old_facts_are_carried_over(mem: Memory) -> None:
    compressor = Compressor()
    compressor.apply(compressor.compress("预算 5 万，截止日期 3月15日"), mem, at=T0)
    result = compressor.apply(
        compressor.compress("预算调整为 8 万"), mem, at=T0 + timedelta(days=6)
    )
    assert result.status == "replaced"
    assert result.entry.facts == {"预算": "8万", "date": "3月15日"}
    assert result.entry.content == "预算调整为 8 万 (date: 3月15日)"
    assert missing_numbers("预算 5 万，截止日期 3月15日", result.entry.content, {}) == ["5 万"]


def test_three_versions_carry_no_old_values_forward(mem: Memory) -> None:
    compressor = Compressor()
    compressor.apply(compressor.compress("预算 5 万"), mem, at=T0)
    second = compressor.apply(compressor.compress("预算从 5 万调整为 8 万"), mem, at=T0)
    assert second.entry.facts == {"预算_before": "5 万", "预算": "8 万"}
    third = compressor.apply(compressor.compress("预算调整为 9 万"), mem, at=T0)
    assert (third.entry.content, third.entry.facts) == ("预算调整为 9 万", {"预算": "9万"})
    assert len(mem.history(third.entry.id).versions) == 3


def test_after_the_window_only_a_changed_value_supersedes(mem: Memory) -> None:
    compressor = Compressor()
    old = compressor.apply(compressor.compress("预算 5 万，截止日期 3月15日"), mem, at=T0)
    later = T0 + timedelta(days=30)
    other = compressor.apply(compressor.compress("预算审批人是张三"), mem, at=later)
    assert other.status == "added"  # same entity, nothing contradicted: both stay
    changed = compressor.apply(compressor.compress("预算调整为 8 万"), mem, at=later)
    assert changed.status == "replaced" and changed.replaced is not None
    assert changed.replaced.id == old.entry.id
    assert changed.entry.facts == {"预算": "8万"}  # no merge after the window
    assert sorted(e.content for e in mem.list()) == ["预算审批人是张三", "预算调整为 8 万"]


def test_the_window_is_configurable(mem: Memory) -> None:
    compressor = Compressor(config=CompressionConfig(window_days=1))
    compressor.apply(compressor.compress("预算 5 万，截止日期 3月15日"), mem, at=T0)
    result = compressor.apply(compressor.compress("预算 8 万"), mem, at=T0 + timedelta(days=2))
    assert result.status == "replaced" and result.entry.facts == {"预算": "8万"}


def test_other_kinds_and_entities_do_not_merge(mem: Memory) -> None:
    compressor = Compressor()
    compressor.apply(compressor.compress("支付服务 v1.4.2 已上线"), mem, at=T0)
    compressor.apply(compressor.compress("支付服务超时改成 30 秒"), mem, at=T0)
    compressor.apply(compressor.compress("订单服务 v2.0.0 已上线"), mem, at=T0)
    result = compressor.apply(compressor.compress("支付服务 v1.4.3 已上线"), mem, at=T0)
    assert result.status == "replaced" and result.replaced is not None
    assert result.replaced.content == "支付服务 v1.4.2 已上线"
    assert len(mem.list()) == 3


def test_an_older_statement_never_replaces_a_newer_one(mem: Memory) -> None:
    compressor = Compressor()
    compressor.apply(compressor.compress("预算 8 万"), mem, at=T0)
    stale = compressor.apply(compressor.compress("预算 5 万"), mem, at=T0 - timedelta(days=1))
    assert stale.status == "conflict"
    assert [e.content for e in mem.list(include_history=True)] == ["预算 8 万"]


def test_a_conflict_the_store_sees_is_resolved_for_the_newer_item(mem: Memory) -> None:
    old = mem.save("The API budget is 50k per month", created_at=T0)
    item = Compressor().compress("Budget changed to 80k")
    assert item.entity == "Budget" and old.entry.entity is None
    result = Compressor().apply(item, mem, at=T0 + timedelta(days=1))
    assert result.status == "replaced" and result.replaced is not None
    assert result.replaced.id == old.entry.id


def test_an_explicit_save_without_entity_is_superseded_by_a_changed_value(mem: Memory) -> None:
    old = mem.save("项目使用 JDK 17", created_at=T0)  # the user's /save: facts, no entity
    assert old.entry.facts == {"jdk": "17"} and old.entry.entity is None
    result = Compressor().process("我们决定把 JDK 升级到 21", mem, at=T0 + timedelta(days=40))
    assert result.item is not None and result.item.type == "decision"
    assert result.result is not None and result.result.status == "replaced"
    assert result.result.replaced is not None and result.result.replaced.id == old.entry.id


def test_facts_named_only_by_kind_do_not_tie_unrelated_entries(mem: Memory) -> None:
    mem.save("发布会安排好了", facts={"date": "2026-06-28"}, created_at=T0)
    result = Compressor().apply(Compressor().compress("截止日期定为 2026-07-01"), mem, at=T0)
    assert result.status == "added" and len(mem.list()) == 2


def test_an_item_without_an_entity_is_just_saved(mem: Memory) -> None:
    item = CompressedItem(
        entity="",
        type="fact",
        summary="第 3 期已结束",
        facts={},
        confidence=0.7,
        source_text="第 3 期已结束",
    )
    assert Compressor().apply(item, mem, at=T0).status == "added"
    assert Compressor().apply(item, mem, at=T0).status == "duplicate"


# -- through the real OpenAI client ------------------------------------------------------------
def test_process_through_the_openai_client(openai_server: OpenAIServer, mem: Memory) -> None:
    settings = LLMSettings(base_url=openai_server.base_url, model="test-model", backoff=0.001)
    openai_server.script(
        ['{"remember": true, "confidence": 0.92}', reply(type="oops"), reply(), reply()]
    )
    with OpenAIChatModel(settings) as model:
        compressor = Compressor(model)
        first = compressor.process(BUDGET, mem, at=T0)
        second = compressor.compress("预算调整为 8 万，2024-05-01 生效")
    assert first.trigger.fired and first.trigger.confidence == 0.92
    assert first.item is not None and first.item.method == "model"
    assert first.result is not None and first.result.status == "added"
    assert first.result.entry.facts == {"预算": "8万", "生效日期": "2024-05-01"}
    assert second.method == "model"
    bodies = openai_server.requests
    assert len(bodies) == 4 and bodies[0]["max_tokens"] == 60
    assert bodies[1]["messages"][0]["content"] == STRUCTURE_PROMPT
    assert "type must be one of" in bodies[2]["messages"][-1]["content"]


# -- property: offline, every generated number survives ------------------------------------------
values = st.one_of(
    st.integers(0, 10**9).map(str),
    st.integers(1, 99_999).map(lambda n: f"{n:,}"),
    st.decimals(0, 10**6, places=2, allow_nan=False).map(str),
    st.builds("{}.{}.{}".format, st.integers(0, 30), st.integers(0, 30), st.integers(0, 99)),
    st.builds("v{}.{}".format, st.integers(0, 30), st.integers(0, 30)),
    st.builds("{} 万".format, st.integers(1, 999)),
    st.builds("${}k".format, st.integers(1, 999)),
    st.builds("{}%".format, st.integers(0, 100)),
    st.builds(
        "{}-{:02d}-{:02d}".format, st.integers(1990, 2099), st.integers(1, 12), st.integers(1, 28)
    ),  # fmt: skip
    st.builds("{}月{}日".format, st.integers(1, 12), st.integers(1, 28)),
    st.builds("May {}, {}".format, st.integers(1, 28), st.integers(1990, 2099)),
    st.builds("#{}".format, st.integers(1, 99_999)),
    st.builds("ABC-{}".format, st.integers(1, 99_999)),
    st.builds("{}:{:02d}".format, st.integers(0, 23), st.integers(0, 59)),
)
subjects = st.sampled_from(
    ["预算", "服务器费用", "JDK", "The budget", "Node", "订单 ORD-77", "上线日期", "API limit"]
)
links = st.sampled_from([" 调整为 ", " 是 ", "定为", " changed to ", " is ", " 从 1 升级到 ", ": "])
fillers = st.sampled_from(["", "嗯，", "那个，", "By the way, ", "记住："])
tails = st.one_of(
    st.just(""), values.map("，另外还有 {}。".format), values.map("; ticket {}.".format)
)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fillers, subjects, links, values, tails)
def test_every_generated_number_survives(
    filler: str, subject: str, link: str, value: str, tail: str
) -> None:
    source = f"{filler}{subject}{link}{value}{tail}"
    item = compress_by_rules(source)
    assert digit_runs(source) <= kept_digits(item), item
    assert missing_numbers(source, item.summary, item.facts) == []
    assert not item.verbatim
