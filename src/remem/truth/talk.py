"""Talk, not a fact: a question, or several sentences ("Hey Mel! Long time no talk. …"),
which no rule reads as one fact that changed (`talk`), and the short notes of a few
sentences that may still state one (`chatty`)."""

from __future__ import annotations

from remem.truth.segment import Tok, normal, tokenize


def talk(content: str) -> bool:
    """A question, or several sentences ("Hey Mel! Long time no talk. …"): talk, not a
    fact (a fact's clauses are joined by commas and semicolons)."""
    ends = _sentence_ends(content)
    return (
        "?" in content
        or "？" in content
        or len(ends) > 1
        or bool(ends and ends[-1].end < len(content.rstrip()))
    )


# A note of a few short sentences ("Correction - row C reefers run off panel 5, not 3.
# Panel 3 is row B."): a change said with its chatter, not a story
CHATTY_SENTENCES, CHATTY_CHARS = 3, 200


def chatty(content: str) -> bool:
    """Talk that may still state one changed fact: no question, at most
    `CHATTY_SENTENCES` sentences and `CHATTY_CHARS` characters."""
    if "?" in content or "？" in content or len(content) > CHATTY_CHARS:
        return False
    return len(_sentence_ends(content)) <= CHATTY_SENTENCES


def _sentence_ends(content: str) -> list[Tok]:
    return [t for t in tokenize(normal(content)) if t.text in "。！？!?."]
