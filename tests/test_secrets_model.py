"""The learned second opinion on secrets (issue 29): `remem.secrets_model` and its place
in `find_secrets`, `redact` and the door's refusal."""

from __future__ import annotations

import subprocess
import sys
from importlib import resources

import pytest

from remem import Memory, secrets_model
from remem.errors import SecretRefused
from remem.secrets import find_secrets, looks_secret, redact

# Written for these tests, in phrasings no rule lists: the rules alone pass each of them.
MODEL_ONLY = [
    "Bike lock on the blue shed, first 44, then 8120 after that",  # (ending there: a rule)
    "Dad's bank code is 4408, he wants me to remember it.",  # (a card's code: a rule)
    # (a wifi key: a rule; "network X, pass Y" too since round 12)
    "Guest network at the lake house: Birch_Lane, q7Vm3xTz to join.",
    # (a service's name, its user / password: a rule since round 55)
    "Steam: kai.lundqvist and mountainPine84",
]
ORDINARY = [
    "The standup moved to 9:30 on Tuesdays.",
    "We ship version 2.4.1 to staging on Friday.",
    "The hotel room is 1984 on the nineteenth floor.",
    "Order #48213 arrived yesterday, two boxes.",
    "Flight LH 1234 lands at 18:40, terminal 2.",
    "The Wi-Fi network at the office is called CedarNest.",
    "Set the thermostat to 21 degrees at night.",
    "孩子的钢琴课改到周四下午四点半。",
    "我们的数据库端口是 5432，版本 PostgreSQL 15。",
    "The password manager we use is Bitwarden.",
]


def test_the_model_ships_and_loads() -> None:
    assert resources.files("remem").joinpath("secrets_model.json").is_file()
    assert 0.5 < secrets_model.threshold() < 1.0
    assert secrets_model.probability(MODEL_ONLY[0]) > 0.0


@pytest.mark.parametrize("text", MODEL_ONLY + ORDINARY + ["", "x", "a" * 700, "ключ 1234"])
def test_a_probability_is_in_0_1(text: str) -> None:
    assert 0.0 <= secrets_model.probability(text) <= 1.0


@pytest.mark.parametrize("text", MODEL_ONLY)
def test_the_model_catches_what_no_rule_names(text: str) -> None:
    assert find_secrets(text, contacts=False, model=False) == []
    assert looks_secret(text)
    assert "likely_secret" in [hit.kind for hit in find_secrets(text)]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_sentences_pass(text: str) -> None:
    assert secrets_model.probability(text) < secrets_model.threshold()
    assert not looks_secret(text)


def test_redact_hides_the_likely_value() -> None:
    assert (
        redact(MODEL_ONLY[1])
        == "Dad's bank code is [REDACTED:likely_secret], he wants me to remember it."
    )
    assert "mountainPine84" not in redact(MODEL_ONLY[3])


def test_secret_span_falls_back_to_a_cue_then_the_whole_text() -> None:
    text = "the vault phrase is velvet harbor lantern"
    start, end = secrets_model.secret_span(text)
    assert text[start:end] == "velvet harbor lantern"
    assert secrets_model.secret_span("nothing here") == (0, len("nothing here"))


def test_the_refusal_says_it_was_the_models_judgement(mem: Memory) -> None:
    with pytest.raises(SecretRefused) as caught:
        mem.save(MODEL_ONLY[0])
    assert "model" in caught.value.reason
    assert caught.value.kinds == ("likely_secret",)
    assert mem.save(MODEL_ONLY[0], force=True).status == "added"


def test_the_model_abstains_on_long_texts_and_long_key_like_tokens() -> None:
    assert secrets_model.probability(MODEL_ONLY[1] + " " + "and so on. " * 60) == 0.0
    public = "My public SSH key is ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGx7Qk2vR9mP4q dana@lap"
    assert secrets_model.probability(public) == 0.0
    assert secrets_model.probability("The build hash is 9f2c1ab7e4d06c35f1a2") == 0.0
    # words and numbers joined as a passphrase is made are the model's to read
    assert secrets_model.probability("Staff wifi passphrase is kettle-morning-58-harbour") > 0.0


def test_a_long_output_is_read_line_by_line() -> None:
    """A tool's output or a pasted file runs past what the model learned from: each line
    no rule named anything in is read alone (an offloaded output kept them before)."""
    build_log = "\n".join(f"step {i}: 14 files copied, ok" for i in range(400))
    for secret in MODEL_ONLY:
        output = f"{build_log}\n{secret}\n{build_log}"
        assert secret not in redact(output, contacts=False)
        assert redact(build_log, contacts=False) == build_log
    named = "Door code is 4471.\n" + MODEL_ONLY[1] + "\n" + "." * 700
    assert [h.kind for h in find_secrets(named, contacts=False)] == ["password", "likely_secret"]


def test_importing_the_detector_does_not_load_the_model() -> None:
    code = "import remem.secrets, remem.secrets_model as m\nprint(m._load.cache_info().currsize)\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0"


def test_a_phone_number_is_no_secret_to_the_model() -> None:
    # a contact is kept at an explicit save; the model read bare phone numbers as secrets
    assert not looks_secret("07700 900777")
