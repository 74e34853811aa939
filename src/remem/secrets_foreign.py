"""A password said in another language than the rules read ("la contraseña del wifi es
Gato-Azul-77", "das Passwort ist …", "パスワードは …"): the word for a password, what it is
of, and the language's "is", read as "password is" so that every rule that reads English
reads it (the value keeps its place in the text).

    foreign_said("a senha do wifi é Gato-Azul-77")
    # ("password is Gato-Azul-77", [0, 0, ...])
"""

from __future__ import annotations

from remem.secrets_shapes import Lazy, rewritten

# the word for a password, then (in the European languages) what it is of, then "is"
_SAID = Lazy(
    r"(?i)(?:(?<![^\W\d_])(?:"
    r"(?:contrase[ñn]a|clave)(?:\s+(?:del?|de\s+la|para)\s+[^\s:=]{1,30}(?:\s+[^\s:=]{1,30})?)?"
    r"\s*(?:\ses\s|[:=])"
    r"|senha(?:\s+(?:d[oae]s?|para)\s+[^\s:=]{1,30}(?:\s+[^\s:=]{1,30})?)?\s*(?:\s[ée]\s|[:=])"
    r"|(?:passwort|kennwort)(?:\s+(?:f[üu]r|vom|von|des|der)\s+[^\s:=]{1,30}"
    r"(?:\s+[^\s:=]{1,30})?)?\s*(?:\s(?:ist|lautet)\s|[:=])"
    r"|mot\s+de\s+passe(?:\s+(?:du|de\s+la|de|des)\s+[^\s:=]{1,30}(?:\s+[^\s:=]{1,30})?)?"
    r"\s*(?:\sest\s|[:=])"
    r"|(?:parola\s+d['’]ordine|password)(?:\s+(?:del|della|dello|di)\s+[^\s:=]{1,30})?"
    r"\s*(?:\s[èÈ]\s)"
    r"|wachtwoord(?:\s+(?:van|voor)\s+[^\s:=]{1,30}(?:\s+[^\s:=]{1,30})?)?\s*(?:\sis\s|[:=])"
    r"|l[öo]senord(?:et)?(?:\s+(?:till|f[öo]r)\s+[^\s:=]{1,30})?\s*(?:\s[äa]r\s|[:=])"
    r"|(?:passord(?:et)?|adgangskode(?:n)?)(?:\s+(?:til|for)\s+[^\s:=]{1,30})?"
    r"\s*(?:\ser\s|[:=])"
    r"|salasana\s*(?:\son\s|[:=])"
    r"|has[łl]o(?:\s+do\s+[^\s:=]{1,30})?\s*(?:\s(?:to|jest)\s|[:=])"
    r"|пароль(?:\s+(?:от|для)\s+[^\s:=—]{1,30})?\s*(?:\s(?:—|-|это)\s|[:=])"
    r")|パスワード\s*(?:は|：|:)"  # (a word of its own in a script without spaces)
    r"|비밀번호\s*(?:는|은|:|：)"
    r")\s*"
)
_HINTS = ("contrase", "clave", "senha", "passwort", "kennwort", "de passe", "parola", "password",
          "wachtwoord", "senord", "passord", "adgangskode", "salasana", "hasł", "hasl", "пароль",
          "パスワード", "비밀번호")  # fmt: skip
_PLAIN = "password is "


def foreign_said(text: str) -> tuple[str, list[int]] | None:
    """`text` with each password said in another language read as "password is ", and
    the index in `text` of each character; None when there is none."""
    low = text.lower()
    if not any(h in low for h in _HINTS):
        return None
    pieces = [(m.start(), m.end(), _PLAIN, [m.start()] * len(_PLAIN)) for m in _SAID.finditer(text)]
    return rewritten(text, pieces)
