"""`Memory.add_messages` and `remem add-messages` (a conversation in, one findable
memory per turn), and the MADial-Bench harness of `remem bench retrieval`."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from remem import Memory
from remem.cli.app import cli
from remem.errors import InvalidInput
from remem.retrieval.vector_index import embed_text

SESSION = [
    {"role": "system", "content": "You are a helpful assistant."},
    {"role": "user", "name": "Caroline", "content": "I went to a support group yesterday."},
    {"role": "assistant", "content": "How did it feel?", "metadata": {"mood": "curious"}},
    {"role": "user", "name": "Caroline", "content": "Powerful. I want to study counseling."},
    {"role": "tool", "content": "search results ...", "tool_call_id": "x"},
    {"role": "user", "content": ""},
]


def test_add_messages_stores_speaker_context_and_date(tmp_path: Path) -> None:
    at = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    with Memory(tmp_path / "m.db", project="p", embedder=None) as mem:
        results = mem.add_messages(SESSION, at=at, session_id="s1")
        assert [r.status for r in results] == ["added"] * 3  # system, tool, empty skipped
        first, reply, last = (r.entry for r in results)
        assert (first.entity, reply.entity) == ("Caroline", "assistant")
        assert first.type == "conversation" and first.created_at == at
        assert reply.created_at > first.created_at  # the session's order survives
        assert reply.metadata["context"] == "I went to a support group yesterday."
        assert reply.metadata["mood"] == "curious" and reply.metadata["session_id"] == "s1"
        assert reply.source == "model" and first.source == "import"
        assert "context" not in first.metadata
        # The reply is found by the turn it answers; the speaker's turns by the speaker.
        hits = mem.search("support group", limit=3)
        assert reply.id in [h.entry.id for h in hits]
        assert mem.search("Caroline counseling")[0].entry.id == last.id
        # Identifiers in metadata are not words of the memory.
        assert mem.search("s1") == []


def test_turns_are_embedded_with_the_turns_around_them(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", project="p", embedder=None) as mem:
        first, reply, last = (r.entry for r in mem.add_messages(SESSION))
        assert first.metadata["reply"] == "How did it feel?" and "reply" not in last.metadata
        assert embed_text(reply) == (
            "I went to a support group yesterday.\nassistant: How did it feel?\n"
            "Powerful. I want to study counseling."
        )
        # The next turn is embedded, not searched: "feel" finds the turn saying it and
        # the one answering it, not the one before.
        found = {h.entry.id for h in mem.search("feel")}
        assert found == {reply.id, last.id}


def test_add_messages_refuses_secrets_and_bad_input(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", project="p", embedder=None) as mem:
        results = mem.add_messages(
            [{"role": "user", "content": "my api_key is sk-abcdefghijklmnopqrstuvwx1234"},
             {"role": "user", "content": "ok, and the meeting is at ten"}]
        )  # fmt: skip
        assert [r.status for r in results] == ["refused", "added"]
        assert len(mem.list()) == 1
        for bad in ("hello", [{"content": "no role"}], [{"role": "user", "name": 3}], [7]):
            with pytest.raises(InvalidInput):
                mem.add_messages(bad)  # type: ignore[arg-type]
        assert len(mem.list()) == 1  # nothing half-written


def test_add_messages_command(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    path = tmp_path / "chat.json"
    path.write_text(json.dumps({"messages": SESSION}), encoding="utf-8")
    run = CliRunner().invoke
    out = run(cli, ["--db", db, "--project", "p", "add-messages", str(path), "--at",
                    "2023-05-08T13:56:00", "--session", "s1", "--json"])  # fmt: skip
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["counts"] == {"added": 3}
    assert data["results"][0]["entry"]["created_at"].startswith("2023-05-08T13:56")
    secret = json.dumps([{"role": "user", "content": "password: hunter2hunter2"}])
    piped = run(cli, ["--db", db, "--project", "p", "add-messages", "-"], input=secret)
    assert piped.exit_code == 1 and "refused" in piped.output
    bad = run(cli, ["--db", db, "add-messages", "-"], input="not json")
    assert bad.exit_code == 2 and "not JSON" in bad.output


def _madial(folder: Path, lang: str) -> Path:
    memories = {
        "1": {"time": "2023-12-25", "event": "Bart danced at the Christmas party.", "user-id": 1},
        "2": {"time": "2023-03-07", "event": "Bart won the 100 meters race.", "user-id": 1},
        "3": {"time": "2023-05-15", "event": "Bart tried mango ice cream.", "user-id": 1},
    }
    dialogues = [
        {"dialogue": ["<BOD>\n", "<Bart>: \"I will dance at the New Year party!\"\n",
                      "<Assistant>: \"Great!\"\n", "<EOD>\n"],
         "test-turn": [2], "relevant-id": [1, 99], "user-id": 1},
        {"dialogue": ["<BOD>\n", "<Bart>: \"I love ice cream, mango most of all.\"\n",
                      "<Assistant>: \"Yum\"\n"],
         "test-turn": [2], "relevant-id": [3], "user-id": 1},
    ]  # fmt: skip
    (folder / f"MADial-Bench-{lang}-memory.json").write_text(json.dumps([memories]), "utf-8")
    path = folder / f"MADial-Bench-{lang}-dialogue.json"
    path.write_text(json.dumps(dialogues), encoding="utf-8")
    return path


def test_madial_harness(tmp_path: Path) -> None:
    from remem.bench import madial

    path = _madial(tmp_path, "en")
    (corpus,) = madial.load(path)
    assert [q.relevant for q in corpus.queries] == [{"1"}, {"3"}]  # unknown ids dropped
    assert "<BOD>" not in corpus.queries[0].text and "Great" not in corpus.queries[0].text
    out = CliRunner().invoke(cli, ["bench", "retrieval", str(path), "--k", "1,2", "--json"])
    assert out.exit_code == 0, out.output
    systems = {s["system"]: s for s in json.loads(out.output)["systems"]}
    assert systems["remem"]["recall"]["2"] == 1.0
    assert systems["remem"]["interval"]["2"] == [1.0, 1.0]  # every question found: no spread
    human = CliRunner().invoke(cli, ["bench", "retrieval", str(path), "--k", "1,2"])
    assert human.exit_code == 0 and "R@2 95%" in human.output and "[1.000, 1.000]" in human.output
    (tmp_path / "MADial-Bench-en-memory.json").unlink()
    missing = CliRunner().invoke(cli, ["bench", "retrieval", str(path)])
    assert missing.exit_code == 2 and "memory.json" in missing.output
    other = tmp_path / "notes.json"  # a file of neither set: one line, no traceback
    other.write_text('{"a": 1}', encoding="utf-8")
    wrong = CliRunner().invoke(cli, ["bench", "retrieval", str(other)])
    assert wrong.exit_code == 2 and "notes.json: no questions in it" in wrong.output
    none = CliRunner().invoke(cli, ["bench", "retrieval"])  # where the public sets come from
    assert none.exit_code == 2
    assert "github.com/snap-research/locomo" in none.output
    assert "github.com/hejunqing/MADial-Bench" in none.output


def _turns(*texts: str) -> list[dict[str, str]]:
    return [{"role": "user", "name": "Jon", "content": t} for t in texts]


def test_turns_next_to_the_best_hit_rise_with_it(tmp_path: Path) -> None:
    """Two turns match "beach" alike; the one two turns after the turn that answers the
    rest of the question comes first, and only because of that neighbour."""
    from dataclasses import replace

    from remem.settings import RankingConfig, Settings

    at = datetime(2023, 5, 8, tzinfo=UTC)
    orders = []
    for share in (RankingConfig().neighbour_share, 0.0):
        db = tmp_path / f"m{share}.db"
        settings = Settings.resolve(db=db, project="p")
        settings = replace(settings, ranking=replace(settings.ranking, neighbour_share=share))
        with Memory(settings=settings, embedder=None) as mem:
            near = mem.add_messages(
                _turns("We adopted a puppy named Rex", "Oh wow congrats", "Loves the beach"),
                at=at, session_id="s1",
            )[2].entry  # fmt: skip
            far = mem.add_messages(
                _turns("Work was busy", "Quiet weekend here", "Walked the beach"),
                at=at, session_id="s2",
            )[2].entry  # fmt: skip
            hits = [h.entry.id for h in mem.search("Rex puppy beach", limit=5)]
            assert hits[0] != near.id and {near.id, far.id} <= set(hits)
            orders.append(hits.index(near.id) < hits.index(far.id))
    assert orders == [True, False]


def test_a_turn_asking_about_the_query_yields_to_the_turn_saying_it(tmp_path: Path) -> None:
    """Both turns hold "painting" twice; the one asking about it ranks first only when
    the rule is off: with it, the asking turn keeps its vector's place, not its words'."""
    from dataclasses import replace

    from remem.retrieval.embedding import FakeEmbedder
    from remem.settings import RankingConfig, Settings

    at = datetime(2023, 5, 8, tzinfo=UTC)
    firsts = []
    for asked_hits in (RankingConfig().asked_hits, 0):
        settings = Settings.resolve(db=tmp_path / f"m{asked_hits}.db", project="p")
        settings = replace(settings, ranking=replace(settings.ranking, asked_hits=asked_hits))
        with Memory(settings=settings, embedder=FakeEmbedder()) as mem:
            session = _turns(
                "Gina showed me her canvas",
                "Wow! How did you feel while painting it? Was painting it hard?",
            )
            asks = mem.add_messages(session, at=at, session_id="s1")[1].entry
            session = _turns(
                "Busy week at the studio", "My painting of the lake took a month, painting calms me"
            )
            says = mem.add_messages(session, at=at, session_id="s2")[1].entry
            mem.add_messages(
                _turns("Went hiking on Sunday", "The weather was lovely"), at=at, session_id="s3"
            )
            hits = [h.entry.id for h in mem.search("What has Jon been painting?", limit=5)]
            assert {asks.id, says.id} <= set(hits)
            firsts.append("says" if hits[0] == says.id else "asks" if hits[0] == asks.id else "")
    assert firsts == ["says", "asks"]
    with Memory(tmp_path / "kw.db", project="p", embedder=None) as mem:  # keyword-only: as before
        mem.add_messages(_turns("Was painting it hard?"), at=at, session_id="s1")
        mem.add_messages(_turns("Painting the lake took a month"), at=at, session_id="s2")
        assert mem.search("painting", limit=2)[0].entry.content == "Was painting it hard?"


@pytest.mark.parametrize(
    ("content", "query", "asks"),
    [
        ("How'd you feel while painting it?", "What has Melanie painted?", True),
        ("Wow, that's great! The blue is so strong. How'd you feel painting it?", "painting", True),
        ("I painted a sunrise. Do you like it?", "painting", False),  # said, then asked
        ("Did you paint it yourself? I painted mine last year.", "painting", False),
        ("Do you play any instruments?", "painting", False),  # none of its words
        ("No question about painting here.", "painting", False),
        ("你周末去爬山了吗？", "爬山", True),
        ("我周末去爬山了。你呢？", "爬山", False),
    ],
)
def test_only_asks(content: str, query: str, asks: bool) -> None:
    from remem import text
    from remem.retrieval.ranking import only_asks

    terms = set(text.query_terms(query)) - set(text.query_terms("Melanie"))
    assert only_asks(content, terms) is asks


def test_bootstrap_interval_of_recall() -> None:
    """The interval a benchmark prints beside a recall: around the mean, narrower with
    more questions, none for equal values, the same on every run (fixed seed)."""
    from remem.bench.harness import interval

    assert interval([]) == (0.0, 0.0)
    assert interval([0.5] * 40) == (0.5, 0.5)
    few, many = interval([0.0, 1.0] * 38), interval([0.0, 1.0] * 400)
    assert few[0] < 0.5 < few[1] and many[0] < 0.5 < many[1]
    assert 0.35 < few[0] and few[1] < 0.65  # 76 questions: about +-0.11 for a coin
    assert many[1] - many[0] < few[1] - few[0]
    assert interval([0.0, 1.0] * 38) == few
    assert interval([0.0, 1.0] * 38, level=0.5)[1] - interval([0.0, 1.0] * 38, level=0.5)[0] < (
        few[1] - few[0]
    )


def _one_save_a_turn(mem: Memory, messages: list[dict[str, str]], at: datetime) -> list[Any]:
    """What `add_messages` did before it batched: `save` each turn on its own."""
    from remem import conversation
    from remem.errors import SecretRefused
    from remem.secrets import looks_secret

    out: list[Any] = []
    for turn in conversation.turns(messages, at=at, session_id="s1", hidden=looks_secret):
        try:
            out.append(mem.save(
                turn.content, type="conversation", source=turn.source, entity=turn.entity,
                created_at=turn.created_at, metadata=turn.metadata,
            ))  # fmt: skip
        except SecretRefused:
            out.append(None)
    return out


def test_batched_turns_decide_as_one_save_each(tmp_path: Path) -> None:
    """add_messages decides its turns `TURNS_PER_WRITE` to a transaction: every status,
    and what the store holds afterwards, is what one save per turn gives (repeats of
    the store's turns and of the same conversation, across batches, a secret)."""
    said = ["The deploy runs at 9", "我们周五上线", "Thanks!", "The deploy runs at 9",
            "My token is ghp_" + "a1B2" * 9, "我们周五上线", "ok", "Thanks!"]  # fmt: skip
    messages = [{"role": "user" if i % 2 else "assistant", "name": "Ann" if i % 2 else "",
                 "content": f"{said[i % len(said)]}" + (f" (round {i // 40})" if i % 3 else "")}
                for i in range(130)]  # fmt: skip
    at = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
    held = []
    for name, batched in (("one.db", False), ("batched.db", True)):
        with Memory(tmp_path / name, project="p", embedder=None, session_id="s1") as mem:
            _one_save_a_turn(mem, messages[:20], at)  # the store knows some turns already
            got = (mem.add_messages(messages, at=at, session_id="s1") if batched
                   else _one_save_a_turn(mem, messages, at))  # fmt: skip
            statuses = [r.status if r is not None else "refused" for r in got]
            rows = sorted((e.content, e.type, e.entity, str(e.created_at), e.superseded_by
                           is None) for e in mem.list(include_history=True))  # fmt: skip
            held.append((statuses, rows))
    assert held[0] == held[1]
    statuses = held[1][0]
    assert {"added", "duplicate", "refused"} <= set(statuses) and len(statuses) == 130
