"""Another place said in Chinese ("和平路口" / "建设路口", "小区东门" / "小区北门") is
something new, never a repeat of the memory naming the first, however alike the two read to
the judges
(session 43's read a stall's moved pitch a repeat at 0.93). Sentences of our own."""

from __future__ import annotations

import pytest

from remem.truth.repeats import adds_nothing


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("每天早上6点在光明路口卖包子。", "早上在胜利路口那卖，6点"),
        ("取货点在人民公园门口。", "取货点是体育馆门口"),
        ("取货点在小区东门。", "取货点是小区北门"),  # one word before, another place word
        ("周六在实验小学门口摆摊。", "周六：菜市场门口摆摊"),
    ],
)
def test_another_place_is_no_repeat(old: str, new: str) -> None:
    assert not adds_nothing(new, old)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("每天早上6点在光明路口卖包子。", "光明路口那个包子摊 早上6点开卖"),  # the same place
        ("代码仓库托管在 GitLab", "代码托管在 GitLab 上"),  # no place at all
        ("前台的打印机在二楼走廊", "打印机放在二楼走廊"),  # one place, said again
    ],
)
def test_the_same_place_said_again_may_repeat(old: str, new: str) -> None:
    assert adds_nothing(new, old)
