"""A model's second opinion on the changes the rules and the small judge leave unsure
(`remem.extract.referee`): asked only then, with the few memories the judge gives some
chance, before the write lock; its answer checked in code (the old value quoted from the
memory, the new one from the text), a refused or failed answer leaving the judge's own
verdict. Driven through the scripted model and the real OpenAI client against the local
server."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from openai_server import OpenAIServer, openai_server_fixture  # noqa: F401 (the fixture)
from remem import Entry, Memory
from remem.cli.app import cli
from remem.extract.referee import LLMReferee, check_ruling
from remem.llm import LLMSettings, OpenAIChatModel, ScriptedChatModel

OLD = "The office plants get watered by Lena on Mondays."
NEW = "Watering the office plants is Omar's job since Lena left."  # the rules read no change
FILLER = "The cafeteria does taco Tuesday."


def change(number: int = 1, old: str = "Lena", new: str | None = "Omar") -> str:
    return json.dumps({"relation": "change", "memory": number, "old_value": old, "new_value": new})


@pytest.mark.parametrize(
    ("reply", "why"),
    [
        (change(old="Sam"), "the old value is not written in that memory"),
        (change(new="Priya"), "the new value is not written in the new text"),
        (change(number=2), "memory is not the number of one memory sent"),
        (change(number=True), "memory is not the number of one memory sent"),  # type: ignore[arg-type]
        (change(old="Lena", new="lena"), "the new value is the old one"),
        ('{"relation": "change", "memory": 1, "why": "x"}', "not {relation"),
        ('{"relation": "maybe", "memory": 1}', "unknown relation"),
        ("Sure! It changed.", "not strict JSON"),
        (
            '{"relation": "repeat", "memory": 1, "old_value": null, "new_value": null}',
            "a repeat that",
        ),
    ],
)
def test_a_reply_that_fails_a_check_is_refused(reply: str, why: str) -> None:
    old = Entry(content=OLD)
    incoming = Entry(content=NEW if "repeat" not in reply else "Lena waters them on day 2.")
    refused = check_ruling(reply, incoming, [old])
    assert isinstance(refused, str) and refused.startswith(why)


def test_a_checked_reply_rules_a_change_a_repeat_or_nothing() -> None:
    old, incoming = Entry(content=OLD), Entry(content=NEW)
    [ruled] = check_ruling(f"```json\n{change()}\n```", incoming, [old])  # type: ignore[misc]
    assert (ruled.entry, ruled.relation) == (old, "supersede") and "Lena → Omar" in ruled.reason
    [ended] = check_ruling(change(new=None), incoming, [old])  # type: ignore[misc]
    assert ended.relation == "supersede" and "Lena ended" in ended.reason
    same = Entry(content="Lena waters the office plants every Monday.")
    [repeat] = check_ruling('{"relation": "repeat", "memory": 1}', same, [old])  # type: ignore[misc]
    assert repeat.relation == "duplicate"
    assert check_ruling('{"relation": "different", "memory": null}', incoming, [old]) == []


def test_the_model_is_asked_only_what_the_rules_leave_unsure(db: Path) -> None:
    model = ScriptedChatModel([change()])
    with Memory(db, project="p", embedder=None, referee=LLMReferee(model)) as mem:
        mem.save(FILLER)
        old = mem.save(OLD).entry
        assert model.requests == []  # nothing it could change: not asked
        result = mem.save(NEW)
        assert result.status == "superseded" and result.replaced is not None
        assert result.replaced.id == old.id and "Lena → Omar" in result.reasons[0]
        sent = model.requests[0].messages[1]["content"]
        assert "1. " + OLD in sent and sent.endswith("New text: " + NEW) and FILLER not in sent
        asked = len(model.requests)
        assert mem.save("数据库改用 PostgreSQL 16").status == "added"
        assert mem.save("数据库从 PostgreSQL 16 改用 MySQL 8").status == "superseded"
        assert len(model.requests) == asked  # the rules read that change themselves


def test_different_or_a_refused_answer_keeps_both(db: Path) -> None:
    model = ScriptedChatModel(['{"relation": "different", "memory": null}', change(old="Sam")])
    referee = LLMReferee(model)
    with Memory(db, project="p", embedder=None, referee=referee) as mem:
        mem.save(OLD)
        assert mem.save(NEW).status == "added"
        # the words judge's own verdict stands: asked (0.78 of the first), nothing replaced
        third = mem.save("We put the office plants on a drip system Omar set up.")
        assert third.status in ("added", "conflict")
        kept = 3 if third.status == "added" else 2  # a conflict waits for the caller
        assert len(model.requests) == 2 and len(mem.list()) == kept
    assert referee.refusals == ["the old value is not written in that memory"]


@pytest.mark.slow
def test_the_model_is_asked_before_the_write_lock(
    openai_server: OpenAIServer, db: Path, tmp_path: Path
) -> None:
    """While the model thinks (3 s here), another writer on the same store saves at once."""
    openai_server.script([change()])
    openai_server.delay(3.0)
    settings = LLMSettings(base_url=openai_server.base_url, model="test-model", max_retries=0)
    with Memory(db, project="p", embedder=None) as other:
        other.save(OLD)
    outcome: list[str] = []
    with OpenAIChatModel(settings) as model:
        mem = Memory(db, project="p", embedder=None, referee=LLMReferee(model))
        waiting = threading.Thread(target=lambda: outcome.append(mem.save(NEW).status))
        waiting.start()
        while not openai_server.requests:
            waiting.join(0.02)
        with Memory(db, project="p", embedder=None) as other:
            other.save("The printer on floor 2 takes A3 paper.")
        assert waiting.is_alive()  # the other save finished while the model was still asked
        waiting.join(10)
        mem.close()
    assert outcome == ["superseded"]


def test_remem_subjects_llm_brings_the_referee_to_the_cli(
    openai_server: OpenAIServer, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for var in [v for v in os.environ if v.startswith(("REMEM_LLM", "OPENAI_"))]:
        monkeypatch.delenv(var)
    monkeypatch.setenv("REMEM_SUBJECTS", "llm")
    monkeypatch.setenv("REMEM_LLM_BASE_URL", openai_server.base_url)
    monkeypatch.setenv("REMEM_LLM_MODEL", "test-model")
    monkeypatch.setenv("REMEM_EMBEDDER", "none")
    # the rules read no subject of either text: the model is asked for each, then judges
    openai_server.script(['{"subject": null}', '{"subject": null}', change()])
    runner = CliRunner()
    base = ["--db", str(db), "--project", "p"]
    assert runner.invoke(cli, [*base, "save", OLD]).exit_code == 0
    saved = runner.invoke(cli, [*base, "save", "--json", NEW])
    assert saved.exit_code == 0, saved.output
    assert json.loads(saved.output)["status"] == "superseded"
    assert len(openai_server.requests) == 3
    assert "Memories:\n1. " + OLD in openai_server.requests[2]["messages"][1]["content"]
