from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from remem import text
from remem.named_values import named_values


def test_chinese_is_segmented_and_single_characters_dropped() -> None:
    terms = text.terms("项目使用 JDK 17 和 Maven，数据库连接池")
    assert "项目" in terms and "使用" in terms and "数据库" in terms and "连接池" in terms
    assert "jdk" in terms and "17" in terms and "maven" in terms
    assert "和" not in terms and "，" not in terms
    assert all(len(t) > 1 or t.isdigit() for t in terms)


def test_english_words_are_stemmed_and_stopwords_dropped() -> None:
    assert text.terms("The frameworks we are using") == ["framework", "use"]
    assert "3.11" in text.terms("Python 3.11") and "spring-boot" in text.terms("Spring-Boot app")
    assert "spring" in text.terms("Spring-Boot app")


def test_stems_are_the_ones_stored_terms_were_computed_with() -> None:
    """The C stemmer (PyStemmer) gives snowballstemmer 3.1.1's pure-Python stems, which
    the stores written before it hold: a word stemmed otherwise would miss its memories
    (1,800 words of docs and code, 1,500 of them changed by the stemmer; all 242,514
    distinct words of this checkout and its Python libraries were compared once)."""
    path = Path(__file__).parent / "data" / "english_stems.tsv"
    pairs = [line.split("\t") for line in path.read_text().splitlines()[1:]]
    assert len(pairs) == 1800
    stemmer = text._stemmer()
    assert [stemmer.stemWord(word) for word, _ in pairs] == [stem for _, stem in pairs]


def test_irregular_forms_and_joined_hyphenated_words_meet_their_base() -> None:
    assert text.terms("she went and took the children") == ["go", "take", "child"]
    assert text.terms("where did she go") == ["go"]
    assert "destress" in text.terms("running to de-stress") and "stress" in text.terms("de-stress")
    assert text.terms("left saw") == ["left", "saw"]  # other meanings: not verbs for sure


def test_query_terms_are_distinct() -> None:
    assert text.query_terms("jdk JDK jdk 项目 项目") == ["jdk", "项目"]


def test_canonical_form_folds_case_space_punctuation_and_particles() -> None:
    assert text.canonicalize("项目使用 JDK 17！") == text.canonicalize("项目使用JDK 17")
    assert text.canonicalize("我的 IDE 是 IntelliJ") == text.canonicalize("我 IDE IntelliJ")
    assert text.canonicalize("Use  `ruff`,   always.") == "use ruff always"
    # Symbols that carry meaning in technical text are kept.
    assert text.canonicalize("#tag /path @user 50% a_b c-d") == "#tag /path @user 50% a_b c-d"
    assert text.canonicalize("Python 3.11") != text.canonicalize("Python 311")


def test_skeleton_removes_numbers_and_versions() -> None:
    assert text.skeleton(text.canonicalize("项目用 Java 17")) == text.skeleton(
        text.canonicalize("项目用 Java 21")
    )
    assert text.skeleton("no numbers here") == ""


def test_dice_is_one_for_equal_texts_zero_for_disjoint_ones_and_between_for_near_ones() -> None:
    assert text.dice("abcd", "abcd") == 1.0
    assert text.dice("abcd", "wxyz") == 0.0
    assert 0.3 < text.dice("项目使用maven构建", "项目使用gradle构建") < 0.8


def test_named_values_find_the_thing_and_its_value() -> None:
    assert named_values("项目使用 JDK 17 和 Maven") == {"jdk": "17"}
    assert named_values("预算调整为 8 万") == {"预算": "8万"}
    assert named_values("Java 版本定为 17") == {"java": "17"}
    assert named_values("Budget changed to 80k") == {"budget": "80k"}
    assert named_values("We use Node 18 and Python 3.12") == {"node": "18", "python": "3.12"}
    assert named_values("我有 2 个孩子") == {}
    assert named_values("no numbers") == {}


@given(st.text(max_size=300))
def test_text_functions_never_fail(value: str) -> None:
    text.terms(value)
    canon = text.canonicalize(value)
    assert canon == text.canonicalize(canon)
    text.skeleton(canon)
    named_values(value)
    assert 0.0 <= text.dice(canon, text.canonicalize(value[::-1])) <= 1.0


def test_named_values_take_the_new_value_of_a_change() -> None:
    assert named_values("预算从 5 万调整为 8 万") == {"预算": "8万"}
    assert named_values("Budget changed from 50k to 80k") == {"budget": "80k"}
    assert named_values("JDK 17 和 21") == {"jdk": "17"}
    assert named_values("Released v1.2 today") == {"released": "1.2"}


def test_terms_are_the_same_from_many_threads_at_once() -> None:
    """Stemming from concurrent threads (a server's requests) gives the serial result:
    one shared snowball stemmer raised IndexError or returned other words' stems."""
    from concurrent.futures import ThreadPoolExecutor

    words = [f"{w}ations {w}izing {w}fulness {w}ements" for w in
             ("optim", "organ", "deploy", "billing", "configur", "rational", "nation")]  # fmt: skip
    texts = [" ".join(words[i:] + words[:i]) * 4 for i in range(len(words))] * 12
    expected = [text.terms(t) for t in texts]
    with ThreadPoolExecutor(8) as pool:
        assert list(pool.map(text.terms, texts)) == expected


_BOUNDARIES = "\u303f\u3040\u30ff\u3100\u33ff\u3400\u4dbf\u4dc0\u4e00\u9fff\ua000\uf900\ufaff"
_BOUNDARIES += "\ufb00\uabff\uac00\ud7af\ud7b0 a1。"


@given(
    st.text(
        max_size=400,
        alphabet=st.one_of(
            st.characters(),
            st.characters(min_codepoint=0x3000, max_codepoint=0xFAFF),
            st.sampled_from(_BOUNDARIES),
        ),
    )
)
def test_runs_split_by_hand_are_the_patterns_runs(value: str) -> None:
    # short texts are split without compiling the pattern (cold start), long ones with it
    assert text._runs(value) == re.findall(text._RUNS, value)


def _terms_in_a_fresh_process(cut: bool) -> dict[str, Any]:
    script = f"""
import json, sys
from remem import text
from remem.named_values import named_values
asked = []
def cutter(runs):
    asked.append(runs)
    return None if len(asked) > 1 else [["测试", "数据", "数据库"], ["部署", "脚本"]]
if {cut}:
    text.cut_elsewhere(cutter)
first = text.terms("测试数据库用 SQLite，部署脚本改到了 tools/deploy.py")
loaded = "rjieba" in sys.modules
second = text.terms("生产环境的 Redis 是 7.0")
print(json.dumps({{"first": first, "loaded": loaded, "second": second, "asked": asked}}))
"""
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def test_han_runs_are_cut_elsewhere_until_jieba_loads_here() -> None:
    # the registered cutter's answer is used and jieba never loads; once it declines,
    # jieba loads here and the terms are a plain process's
    plain, cut = _terms_in_a_fresh_process(False), _terms_in_a_fresh_process(True)
    assert plain["loaded"] and not cut["loaded"]
    assert cut["first"][:3] == ["测试", "数据", "数据库"] and "脚本" in cut["first"]
    assert cut["second"] == plain["second"]
    assert cut["asked"] == [["测试数据库用", "部署脚本改到了"], ["生产环境的", "是"]]


def test_cached_segmentations_are_fresh_lists() -> None:
    from remem.truth.segment import normal, tokenize

    words = text.tagged("测试数据库用 SQLite")
    words.append(("extra", "x"))
    assert ("extra", "x") not in text.tagged("测试数据库用 SQLite")
    toks = tokenize(normal("测试数据库用 SQLite"))
    toks.clear()
    assert [t.text for t in tokenize(normal("测试数据库用 SQLite"))][-1] == "SQLite"


@given(st.lists(st.sampled_from(["测试数据库用", "8 个人", "部署在", " ", "v2", "，", "端口是 8080",
                                 "猫叫咪咪", "喝咖啡", "我用", "x/y"]), max_size=8))  # fmt: skip
def test_kept_chinese_runs_give_the_tokens_of_a_run_read_afresh(parts: list[str]) -> None:
    # each run of Chinese is segmented once and its tokens moved to where it stands:
    # the same tokens, spans and all, as segmenting that text from scratch
    from remem.truth import segment

    sample = segment.normal("".join(parts))
    kept = segment._tokens.__wrapped__(sample)
    segment._han_run.cache_clear()
    fresh = segment._tokens.__wrapped__(sample)
    assert kept == fresh
    assert all(sample[t.start : t.end] == t.text for t in fresh if t.kind == "han")


def test_kept_numbers_are_fresh_lists() -> None:
    from remem.numbers import number_tokens

    found = number_tokens("端口从 8080 改成 9090")
    assert [t.key for t in found] == ["8080", "9090"]
    found.clear()
    assert [t.key for t in number_tokens("端口从 8080 改成 9090")] == ["8080", "9090"]
    long = "port 8080 " * 100  # longer than the texts kept: read each time, the same
    assert [t.key for t in number_tokens(long)] == ["8080"]


def test_terms_of_many_texts_are_each_texts_terms() -> None:
    texts = ["项目后端使用 Spring Boot 3", "", "ok", "消息队列 Kafka，缓存用 Redis", "かな 한국"]
    assert text.terms_of(texts) == [text.terms(t) for t in texts]


def test_a_text_without_a_digit_names_no_value_and_loads_no_jieba() -> None:
    code = (
        "import sys; from remem.named_values import named_values; "
        "print(named_values('部署流程 uses the amber wiki'), 'rjieba' in sys.modules, "
        "named_values('项目使用 JDK １７'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "{} False {'jdk': '17'}"  # a full-width digit still counts


def _cuts_in_a_new_process(home: Path, runs: list[str]) -> list[Any]:
    code = (
        "import json, sys; from remem import text; "
        "cuts = text.cut_for_search(json.loads(sys.argv[1])); "
        "print(json.dumps([cuts, 'rjieba' in sys.modules], ensure_ascii=False))"
    )
    env = {**os.environ, "REMEM_HOME": str(home)}
    out = subprocess.run([sys.executable, "-c", code, json.dumps(runs)], env=env,
                         capture_output=True, text=True, check=True)  # fmt: skip
    return list(json.loads(out.stdout))


def test_word_sized_runs_are_cut_from_the_cache_as_jieba_cuts_them(tmp_path: Path) -> None:
    words = ["我家", "男朋友", "同事", "组"]
    here = text.cut_for_search(words)
    assert _cuts_in_a_new_process(tmp_path, words) == [here, True]  # jieba, then kept
    (cache,) = (tmp_path / "cache").glob("cuts-*")
    assert _cuts_in_a_new_process(tmp_path, words) == [here, False]  # no jieba at all
    longer = [*words, "测试数据库用"]  # a longer run: jieba for it, as before
    assert _cuts_in_a_new_process(tmp_path, longer) == [text.cut_for_search(longer), True]
    for junk in (b"", b"\x00junk", b"{"):
        cache.write_bytes(junk)
        assert _cuts_in_a_new_process(tmp_path, words) == [here, True]  # built again


def test_a_cutter_that_declined_is_not_asked_again() -> None:
    """A warm service that did not answer (none running, or busy) costs a process one
    wait at most: neither its cutter nor its tagger is asked again; jieba cuts here."""
    code = """
import json
from remem import text
from remem.named_values import named_values
asked = []
def busy(what, timeout=1.0):
    asked.append(what)
    return None
text.cut_elsewhere(busy, busy)
runs = ["周五上线的服务", "数据库迁移脚本"]
first = text.cut_for_search(runs)
text.cut_for_search(["部署流程改到"])
text.jieba_tag("部署流程改到周四")
print(json.dumps([asked, first == [text.jieba().cut_for_search(r) for r in runs]]))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [[["周五上线的服务", "数据库迁移脚本"]], True]


def test_a_catalogue_number_shaped_like_a_date_is_no_date() -> None:
    from remem.numbers import number_tokens

    # a month of 44 once raised IndexError on save ("Object 1987.44.2 ...")
    assert [(t.key, t.kind) for t in number_tokens("Object 1987.44.2 - stable")] == [
        ("1987.44.2", "version")
    ]
    assert [t.key for t in number_tokens("due 2024.12.31")] == ["2024-12-31"]


def test_a_price_in_yuan_and_jiao_is_one_amount() -> None:
    from remem.numbers import missing_numbers, number_tokens

    assert [(t.key, t.kind) for t in number_tokens("红薯收购 1块2一斤")] == [("1.2", "amount")]
    assert [t.key for t in number_tokens("3元5角")] == ["3.5"]
    assert [t.key for t in number_tokens("10块2个")] == ["10", "2"]  # two for 10
    assert missing_numbers("红薯是1块1", "红薯 1块2一斤") == ["1块1"]  # not the 1 of 1块2


@pytest.mark.parametrize(
    ("said", "values"),
    [
        ("班车十点半发车", {"10"}),
        ("二十三号床", {"23"}),
        ("一百零五块钱", {"105"}),
        ("两个人值夜班", {"2"}),
        ("下午一点半交班", {"1"}),
        # words, not numbers: "a bit", "together", "three or five"
        ("早一点到", set()),
        ("一起去仓库", set()),
        ("三五个人", set()),
    ],
)  # fmt: skip
def test_numbers_said_in_chinese_numerals_with_a_unit(said: str, values: set[str]) -> None:
    from remem.numbers import spoken_zh

    assert spoken_zh(said) == values


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="abcXYZ019 .,-'!?:;()/$@*<=>[]^`{|}~\"£€", max_size=30))
def test_plain_english_is_tagged_as_jieba_tags_it(said: str) -> None:
    """Plain English is tagged without loading jieba (~80 ms of a one-shot save), and
    exactly as jieba tags it: what reads the tags (a note's labels) reads the same."""
    import rjieba

    from remem import plain

    assert plain.tags(said) == [(w, t) for w, t in rjieba.tag(said)]
