"""The pieces of Chinese words jieba cuts apart (`recall.han_pieces`): a search reads them
where an older version of a memory stands for the one that replaced it."""

from __future__ import annotations

from remem import Memory, text
from remem.retrieval.recall import han_pieces


def test_a_name_cut_into_single_characters_is_a_term_not_a_piece() -> None:
    # jieba reads no word 老吴 here (老 and 吴 alone); the terms join them again
    assert "老吴" in text.terms("木料下周让老吴送过来")
    assert "老吴" in text.terms("老吴什么时候送木料")
    assert "老吴" not in han_pieces("木料下周让老吴送过来")


def test_a_piece_jieba_cuts_apart_that_is_no_name() -> None:
    assert "中通" in han_pieces("发货的快递从中通换成韵达了")


def test_no_pieces_where_jieba_read_every_character_into_a_word() -> None:
    assert han_pieces("每天早上开会讨论项目进度") == []
    assert han_pieces("The deploy runs at 9") == []


def test_pieces_are_no_words_the_text_already_has() -> None:
    pieces = han_pieces("发货的快递从中通换成韵达了")
    assert "中通" in pieces and "中通" not in text.terms("发货的快递从中通换成韵达了")
    assert not set(han_pieces("小邓下个月调去仓库")) & set(text.terms("小邓下个月调去仓库"))


def test_a_short_correction_is_found_by_the_words_of_the_version_it_replaced(
    mem: Memory,
) -> None:
    """The question and the first version share one word as jieba cuts them (一车) and
    a name it cuts apart in both (老吴): enough for the older version to stand for the
    correction that replaced it, which shares no word with the question."""
    first = mem.save("找老吴拉炭，一车八百")
    fixed = mem.save("不对，是九百，上回记错了", replace_id=first.entry.id)
    mem.save("仓库的灯坏了，明天买灯泡")
    assert [h.entry.id for h in mem.search("老吴拉一车炭多少钱", limit=3)] == [fixed.entry.id]
