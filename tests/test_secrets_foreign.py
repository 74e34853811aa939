"""A password said in another language than English or Chinese is refused like one said
in English: the word for a password, what it is of, and that language's "is"."""

from __future__ import annotations

import pytest

from remem.secrets import find_secrets


def found(text: str) -> list[str]:
    return [text[h.span[0] : h.span[1]] for h in find_secrets(text, contacts=False)]


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("la contraseña del router es Luna-Verde-31", "Luna-Verde-31"),
        ("a senha do portal é Sol-Amarelo-58", "Sol-Amarelo-58"),
        ("das Kennwort für den Server lautet Baum-Gruen-19", "Baum-Gruen-19"),
        ("le mot de passe de la box est Lune-Rouge-64", "Lune-Rouge-64"),
        ("wachtwoord voor de kassa: molen-Blauw-27", "molen-Blauw-27"),
        ("lösenordet till nätet är Skog-Gran-45", "Skog-Gran-45"),
        ("hasło do konta to Kot-Rudy-83", "Kot-Rudy-83"),
        ("пароль от роутера — Les-Zeleny-12", "Les-Zeleny-12"),
        ("ルーターのパスワードは Sakura-Hana-90", "Sakura-Hana-90"),
        ("공유기 비밀번호는 Haneul-Parang-71", "Haneul-Parang-71"),
    ],
)
def test_a_password_said_in_another_language(said: str, value: str) -> None:
    assert found(said) == [value]


@pytest.mark.parametrize(
    "said",
    [
        "la contraseña del wifi es la de siempre",  # which one, not it
        "das Passwort ist geändert",  # changed, no value
        "la clave del éxito es la paciencia",  # a saying
        "le mot de passe est sur le frigo",  # where it is
    ],
)
def test_no_password_given_in_another_language(said: str) -> None:
    assert found(said) == []
