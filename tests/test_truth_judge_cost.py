"""What a save's pair judge leaves out to cost less (issue 32) changes no decision: the
candidates `verdicts.judged` would not read are not judged, and the shortcuts of the
judge's features and networks give the same values to the bit."""

from __future__ import annotations

import itertools
from operator import add, mul

import pytest
from hypothesis import given
from hypothesis import strategies as st

from remem.entry import Entry
from remem.truth import judge, overlap, verdicts

_TEXTS = [
    "The staging database runs on PostgreSQL 14.",
    "We moved the staging database to PostgreSQL 16.",
    "Staging deploys happen on Mondays.",
    "The production database runs on MySQL 8.",
    "Daily standup is at 9:30 in room 4B.",
    "Standup moved to 10:00.",
    "我们的项目用 Python 3.12",
    "项目改用 Python 3.13 了",
    "周三下午开周会",
    "周会改到周四下午",
]


@pytest.mark.parametrize(
    ("new", "silent", "loose"), list(itertools.product(_TEXTS, *[(True, False)] * 2))
)
def test_the_candidates_ranked_leaves_out_change_no_decision(
    new: str, silent: bool, loose: bool
) -> None:
    incoming = Entry(content=new)
    olds = [Entry(content=t, id=f"m{i}") for i, t in enumerate(_TEXTS) if t != new]
    for cosines in (None, {old.id: 0.5 + i / 40 for i, old in enumerate(olds)}):
        least = verdicts.least_shared(new, silent=silent, loose=loose)
        every = verdicts.ranked(incoming, olds, cosines)
        some = verdicts.ranked(incoming, olds, cosines, least=least)
        kept = [(v, o) for v, o in every if len(judge.shared_terms(o.content, new)) >= least]
        assert some == kept
        for scored in (every, some):
            found = verdicts.judged(incoming, scored, cosines, silent=silent, loose=loose)
            assert found == verdicts.judged(incoming, every, cosines, silent=silent, loose=loose)


def test_the_networks_give_the_floats_of_a_plain_loop() -> None:
    """`_Ensemble.logits` (a yes feature added without a product) against each
    network's first layer summed one weight at a time."""
    words = judge.load("words")
    assert words is not None
    dense, buckets = judge.features(_TEXTS[0], _TEXTS[1], None)
    dense = dense[: words.width]
    for net, got in zip(words.nets, words._ensemble.logits(dense, buckets, None), strict=True):
        h = list(net.b1)
        for x, row in zip(dense, net.dense, strict=True):
            h = [a + x * w for a, w in zip(h, row, strict=True)] if x else h
        assert net.buckets is not None
        for i in buckets:
            h = list(map(add, h, net.buckets[i]))
        h = [a if a > 0 else 0.0 for a in h]
        want = [b + sum(map(mul, row, h)) for row, b in zip(net.w2, net.b2, strict=True)]
        assert [float.hex(v) for v in got] == [float.hex(v) for v in want]


_HAN = st.text(alphabet="进程池游泳跑步家庭医生", min_size=1, max_size=4)


@given(_HAN, st.lists(_HAN, max_size=6))
def test_a_chinese_word_inside_another_as_same_reads_it(form: str, han: list[str]) -> None:
    others = [f for f in han if f != form]
    assert overlap._inside(form, others) == any(overlap._same(form, f) for f in others)
