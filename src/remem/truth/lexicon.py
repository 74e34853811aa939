"""The words the subject grammar (`remem.truth.subject`) is built from besides its
predicates (`remem.truth.predicates`): the markers of a change, a correction or a
tentative statement, owners, the concepts a subject key is made of, and the kind of
well-known values.

The words are rows of the word table (`remem.truth.table`), named here by their role:
a closed class of function words or a bilingual table of common attribute nouns — never
a sentence or a sample of the data.
"""

from __future__ import annotations

from functools import cache

from remem import glossary
from remem.truth.table import mapping, ordered, rows, words

# "翻译改由小周负责": 由 glued to a change adverb
ZH_BY = words("by", "zh")
ZH_BA = words("object marker", "zh")  # "给猫改名叫豆豆": the subject follows 给

# A change stated by an adverb before the predicate: "现在用 X", "from now on we use X".
ZH_CHANGE_ADVERBS = words("change adverb", "zh")
EN_CHANGE_ADVERBS = words("change adverb", "en")
# A state that holds from an event on: "… since the promotion", "自从搬家…", "换了 CDN 之后…"
SINCE = words("since")
# Words closing a clause that say its value is a change: "… is 2 replicas again"
EN_CHANGE_TAILS = words("change tail", "en")
EN_CHANGE_PHRASES = ordered("change phrase", "en")
# Corrections: the earlier value was wrong; the new one replaces it.
ZH_CORRECTIONS = ordered("correction", "zh")
EN_CORRECTIONS = ordered("correction", "en")
# The value that stops: "从 X 改为 Y", "from X to Y", "instead of X", "而不是 X".
ZH_FROM = words("from", "zh")
EN_FROM = words("from", "en")
ZH_INSTEAD = ordered("instead", "zh")
EN_INSTEAD = ordered("instead", "en")

# A statement that is not (yet) a fact: no claim is read from it.
ZH_TENTATIVE = words("tentative", "zh")
EN_TENTATIVE = words("tentative", "en")
# jieba sometimes glues a copula to the word before it ("副本数是"); a token ending in
# 是 or 为 is split unless it is one of these words (or a predicate itself).
ZH_WORDS_ENDING_IN_COPULA = words("word ending in copula", "zh")
ZH_GLUED = "是为从在"  # "游泳课在周日": jieba's 课在 is 课 + 在
# Words that end in 用 and are not "X" + the verb 用 (费用 is a fee, 常用 "in common use").
ZH_WORDS_ENDING_IN_USE = words(
    "word ending in use", "zh"
)  # the one-character function words jieba glues to the word before
# Leading words that carry no meaning of the subject ("对了，", "note:", "remember").
ZH_DISCOURSE = ordered("discourse", "zh")
EN_DISCOURSE = words("discourse", "en")
EN_DETERMINERS = words("determiner", "en")
EN_OWNERS_USER = words("owner user", "en")
EN_OWNERS_WE = words("owner we", "en")
ZH_OWNERS_USER = words("owner user", "zh")
ZH_OWNERS_WE = words("owner we", "zh")
OWNER_NOUNS = words("owner noun")

# Words a line of talk starts with, never a value: "Melanie: Hey Caroline!", "Jon: Thanks!"
SPEECH = words("speech")
# People a fact can be of besides the user: "My parents live in Portland" is not where
# the user lives, however "I moved to Denver" is read.
PEOPLE = words("person")

# "X 由 Y 负责": Y is X's owner.
ZH_OWNER_VERBS = words("owner verb", "zh")
# Words of praise or feeling: "that painting is amazing" says how something felt, not a
# value it has, and two such remarks never conflict.
EVALUATIVE = words("evaluative")
# Where a value ends: coordinators and the starts of subordinate clauses.
ZH_VALUE_STOPS = words("value stop", "zh")
EN_VALUE_STOPS = words("value stop", "en")
ZH_COORD = words("coordinator", "zh")
EN_COORD = words("coordinator", "en")
# Trailing particles and locatives stripped from a value ("k8s 集群上" -> "k8s 集群").
ZH_TRAILING = words("trailing", "zh")
ZH_LOCATIVE = words("locative", "zh")
ZH_LEADING = words("leading", "zh")
EN_LEADING = words("leading", "en")
EN_TRAILING = words("trailing", "en")

# Generic words that add nothing to what a subject is ("the Redis version" is "Redis").
GENERIC = words("generic")
# Concepts that say what kind of thing a value is: a subject naming one is complete
# ("测试数据库用 SQLite"); one naming none gets the value's kind ("测试环境用 SQLite").
KINDS = words("kind concept", "en")
# Attributes: a value's last word naming one belongs to the subject ("监听 9090 端口").
ATTRIBUTES = words("attribute concept", "en")


@cache
def concepts() -> dict[str, str]:
    """spelling -> the concept a subject key is made of ("端口" -> port): the words of
    a subject key, Chinese and English (English lower-case and singular)."""
    return mapping("concept")


# Value spellings folded to one ("postgres" is "postgresql"; "JDK 17" is Java 17).
ALIASES = mapping("alias")
UNITS = mapping("unit")


@cache
def value_kinds() -> dict[str, str]:
    """A well-known value (lower-case) -> the concept naming its kind."""
    table: dict[str, str] = {}
    for name, kinds in glossary.GLOSSARY.items():
        kind = next((k for marker, k in rows("kind marker") if marker in kinds.split()), None)
        if kind is not None:
            table[name.lower()] = kind
    # the kinds the glossary does not know ("dark" is a theme, "zsh" a shell)
    table.update(mapping("value kind"))
    for alias, name in ALIASES.items():
        if name in table:
            table.setdefault(alias, table[name])
    return table
