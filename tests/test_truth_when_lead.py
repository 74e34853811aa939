"""A change whose start is said relative to now ("下个月起透析改为周二、四、六", "Labour goes
to £74/hr from 1 January") is read again without it, as the fact alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from remem import Memory
from remem.truth.when import lead


@pytest.mark.parametrize(
    ("content", "rest"),
    [
        ("下个月起透析改为周二、四、六", "透析改为周二、四、六"),
        ("从下周一起晨会改到九点半", "晨会改到九点半"),
        ("From next week the choir meets in the crypt", "The choir meets in the crypt"),
        ("From April the gym opens at 6", "The gym opens at 6"),
        ("The parking permit goes to £90 from 1 March.", "The parking permit goes to £90."),
        ("I moved to Porto last month", None),
        ("From here we walk", None),
    ],
)  # fmt: skip
def test_the_start_is_cut(content: str, rest: str | None) -> None:
    assert lead(content) == rest


def test_a_change_said_with_its_start_supersedes_as_without_it(db: Path) -> None:
    with Memory(db, embedder=None) as mem:
        first = mem.save("数仓夜间ETL凌晨2点开始跑").entry
        result = mem.save("从下周一起夜间ETL改成凌晨3点半启动")
        assert result.status == "superseded"
        assert first.id not in {e.id for e in mem.list()}
