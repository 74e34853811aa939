"""Chinese people as notes name them, for the words a text is searched and compared by:
小 / 老 / 大 and a surname (小陈, 老黄, 大刘), 阿 and a name (阿芳). jieba knows few of them
and cuts the rest into characters, which are no terms ("小陈改成4点半到了" would name
nobody), so `joined` makes them one word again.

    joined(["小", "陈", "改成"])   # ["小陈", "改成"]
    joined(["小", "刘不干"])       # ["小刘", "不干"]: a surname jieba glued to a verb
    joined(["一", "小时"])         # ["一", "小时"]: a word jieba kept whole is left alone
"""

from __future__ import annotations

__all__ = ["BEFORE_SURNAME", "SURNAMES", "joined"]

# the hundred commonest surnames
SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
)
BEFORE_SURNAME = frozenset("小老大")  # 小陈, 老黄, 大刘
_HAN_FIRST, _HAN_LAST = "\u4e00", "\u9fff"


def joined(cut: list[str]) -> list[str]:
    """`cut` (jieba's words of a run of Chinese) with each person it cut into characters
    one word again."""
    out: list[str] = []
    for token in cut:
        if out and len(token) == 1 and _joins(out[-1], token):
            out[-1] += token
        elif len(token) > 1 and token[1] in _GLUED and (k := _before(out, token)) is not None:
            out[k] += token[0]  # 小 / 刘不干 ("小刘不干了"): 小刘 / 不干
            if token[1:] not in out[k + 1 :]:
                out.append(token[1:])
        else:
            out.append(token)
    return out


def _before(out: list[str], token: str) -> int | None:
    """Where in `out` the 小 / 老 / 大 before `token` is, past the pieces of `token` a
    search cut gives first (老 / 不来 / 赵不来), if `token` opens with a surname."""
    k = len(out) - 1
    while k >= 0 and out[k] in token:
        k -= 1
    return k if k >= 0 and _joins(out[k], token[0]) else None


# words that open what a person does or is, which jieba glues to a surname it cut from
# 小 / 老 / 大 ("小刘不干了": 小 / 刘不干; "燃气站的小李送": 小 / 李送); no word of a thing
# opens so ("小金鱼", "大石头")
_GLUED = frozenset("不没也都又还就才在说要来去给跟和把被让叫请已送做管带收拿接")


def _joins(before: str, char: str) -> bool:
    if before == "阿":
        return _HAN_FIRST <= char <= _HAN_LAST
    return before in BEFORE_SURNAME and char in SURNAMES
