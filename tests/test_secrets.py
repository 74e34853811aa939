"""Sensitive-data detection (SPEC SE3, EX3) and the explicit-save refusal in Memory.save."""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from remem import Memory
from remem.errors import InvalidInput, SecretRefused
from remem.secrets import find_secrets, looks_secret, redact, sensitive_word

ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)


def cn_id(first17: str) -> str:
    """A Chinese ID number with its real check character."""
    total = sum(int(c) * w for c, w in zip(first17, ID_WEIGHTS, strict=True))
    return first17 + "10X98765432"[total % 11]


def luhn(prefix: str) -> str:
    """`prefix` plus the Luhn check digit."""
    total = 0
    for i, ch in enumerate(reversed(prefix)):
        d = int(ch) * (1 if i % 2 else 2)
        total += d - 9 if d > 9 else d
    return prefix + str((10 - total % 10) % 10)


def hits(text: str) -> list[tuple[str, str]]:
    return [(h.kind, text[h.span[0] : h.span[1]]) for h in find_secrets(text)]


PRIVATE_KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH PRIVATE KEY-----"
JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.dozjgNryP4J3jVmNHl0w5N"


# Each text marks the one item that must be found with ⟦ ⟧.
@pytest.mark.parametrize(
    ("kind", "marked"),
    [
        ("openai_key", "key ⟦sk-proj-9f8e7d6c5b4a3f2e1d0c9b8a⟧ ok"),
        ("anthropic_key", "⟦sk-ant-api03-AbCdEfGhIjKlMnOpQrSt⟧"),
        ("github_token", "⟦ghp_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ⟧，"),
        ("gitlab_token", "⟦glpat-abcdefghij0123456789⟧"),
        ("aws_access_key", "id ⟦AKIAIOSFODNN7EXAMPLE⟧"),
        ("slack_token", "⟦xoxb-1234567890-abcdefghij⟧"),
        ("google_api_key", "⟦AIzaSyA1234567890abcdefghijklmnopqrstuv⟧"),
        ("stripe_key", "⟦sk_live_1234567890abcdefgh⟧"),
        ("jwt", f"t ⟦{JWT}⟧"),
        ("bearer_token", "Authorization: ⟦Bearer abcdefghijklmnop0123⟧"),
        ("private_key", f"⟦{PRIVATE_KEY}⟧"),
        ("password", "DB_PASSWORD=⟦xyz123⟧"),
        ("password", 'api_key: "⟦abcd1234efgh⟧"'),
        ("password", "the password is ⟦Summer2024!⟧"),
        ("password", "数据库密码是 ⟦Hunter2!xyz⟧，你帮我连一下"),
        ("password", "口令：⟦abcd1234⟧"),
        ("credential_url", "⟦postgres://admin:s3cret@db.example.com:5432⟧/app"),
        ("phone_number", "我的手机号是 ⟦13812345678⟧，"),
        ("phone_number", "call ⟦+86 138 1234 5678⟧"),
        ("phone_number", "Tel: ⟦+44 20 7946 0958⟧"),
        ("phone_number", "office ⟦(415) 555-0134⟧"),
        ("phone_number", "座机 ⟦010-12345678⟧"),
        ("id_number", f"身份证 ⟦{cn_id('11010519491231002')}⟧。"),
        ("id_number", "SSN ⟦123-45-6789⟧"),
        ("id_number", "护照号码：⟦E12345678⟧"),
        ("email", "发到⟦alice.wang@example.com⟧吧"),
        ("card_number", "card ⟦4111 1111 1111 1111⟧"),
        ("card_number", f"银行卡 ⟦{luhn('622202100000000000')}⟧"),
    ],
)
def test_finds_each_kind(kind: str, marked: str) -> None:
    text = marked.replace("⟦", "").replace("⟧", "")
    value = marked[marked.index("⟦") + 1 : marked.index("⟧")]
    assert hits(text) == [(kind, value)]
    contact = kind in ("phone_number", "email", "im_account")  # sensitive, not a secret
    assert looks_secret(text, contacts=True) and looks_secret(text) is not contact


@pytest.mark.parametrize(
    "text",
    [
        "Python 3.11 and Node 20 on port 8443",
        "released 2024-01-15 at 12:30:45, version 1.2.3-4",
        "commit a1b2c3d4e5f60718293a4b5c6d7e8f9012345678",
        "uuid 550e8400-e29b-41d4-a716-446655440000",
        "ip 192.168.1.10:8080, timeout 30000 ms",
        "timestamp 1718000000000 and 20240115123045",
        "价格 1,234,567.89 元，请求超时 30000 毫秒，端口 5432",
        "git@github.com:org/repo.git",
        "the password is required; token expired",
        "token: str, api_key=api_key, secret = os.environ['SECRET'], password: string",
        "max_tokens=4000 and token_count: 12",
        "密码至少 8 位，token 是 abc",
        "Bearer token auth is used",
        "https://example.com:8443/path?q=1",
        "order 1234567890123 and id 11010519491231002Y",
        f"not an ID {cn_id('11010519491231002')[:-1]}9",  # wrong check character
        "card 4111 1111 1111 1112",  # fails Luhn
        "I use vim@work and @types/node",
    ],
)
def test_leaves_ordinary_text_alone(text: str) -> None:
    assert find_secrets(text) == []
    assert not looks_secret(text)
    assert redact(text) == text


def test_redact_replaces_each_item_with_its_kind() -> None:
    text = "我的 token 是 ghp_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ，电话 13812345678。"
    assert redact(text) == "我的 token 是 [REDACTED:github_token]，电话 [REDACTED:phone_number]。"


def test_overlapping_patterns_become_one_hit_of_the_specific_kind() -> None:
    # "api_key is <value>" and the OpenAI key pattern both match the same value
    text = "My api_key is sk-proj-9f8e7d6c5b4a3f2e1d0c9b8a, use it"
    assert [h.kind for h in find_secrets(text)] == ["openai_key"]
    assert redact(text) == "My api_key is [REDACTED:openai_key], use it"


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("my password is long", "password"),
        ("Tokens are counted", "Tokens"),
        ("用 bearer 认证", "bearer"),
        ("我的邮箱换了", "邮箱"),
        ("身份证丢了", "身份证"),
        ("send me an e-mail", "e-mail"),
        ("We use tiktoken to count", None),
        ("项目使用 JDK 17", None),
    ],
)
def test_sensitive_word(text: str, word: str | None) -> None:
    assert sensitive_word(text) == word


# -- generated secrets are always found --------------------------------------------------


def regex(pattern: str) -> st.SearchStrategy[str]:
    return st.from_regex(pattern, fullmatch=True)


_alnum = st.text(string.ascii_letters + string.digits, min_size=36, max_size=40)
_id17 = r"[1-6][0-9]{5}(19[5-9][0-9]|20[01][0-9])(0[1-9]|1[0-2])(0[1-9]|1[0-9]|2[0-8])[0-9]{3}"
SECRETS = st.one_of(
    regex(r"1[3-9][0-9]{9}"),
    st.builds(lambda s: "ghp_" + s, _alnum),
    st.builds(lambda s: "sk-proj-" + s, _alnum),
    st.builds(lambda s: "AKIA" + s, regex(r"[A-Z0-9]{16}")),
    regex(r"[a-z]{3,8}\.[a-z]{2,6}@[a-z]{3,8}\.(com|cn|io|org)"),
    st.builds(cn_id, regex(_id17)),
    st.builds(luhn, regex(r"4[0-9]{14}")),
    st.builds(
        lambda u, p: f"mysql://{u}:{p}@db.internal/app",
        regex(r"[a-z]{3,8}"),
        regex(r"[A-Za-z0-9]{6,12}"),
    ),
)
FILLER = st.text(alphabet="我们项目使用的是统一 ，。abc xyz", max_size=30)


@settings(max_examples=200, deadline=None)
@given(SECRETS, FILLER, FILLER)
def test_generated_secrets_are_found_and_redacted(secret: str, before: str, after: str) -> None:
    text = f"{before} {secret} {after}"
    assert looks_secret(text, contacts=True)  # phones and e-mail among them: sensitive
    assert secret not in redact(text)


# -- SE3: explicit saves ----------------------------------------------------------------


def test_explicit_save_of_a_secret_needs_force(mem: Memory) -> None:
    secret = "ghp_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ"
    with pytest.raises(SecretRefused) as caught:
        mem.save(f"我的 GitHub token 是 {secret}")
    message = str(caught.value)
    assert caught.value.kinds == ("github_token",)
    assert "a GitHub token" in message and "--force" in message
    assert secret not in message and "\n" not in message
    assert isinstance(caught.value, InvalidInput)
    assert mem.list() == []
    assert mem.save(f"我的 GitHub token 是 {secret}", force=True).status == "added"


def test_auto_extracted_saves_are_refused_too(mem: Memory) -> None:
    with pytest.raises(SecretRefused) as caught:
        mem.save("call me at 13812345678", source="auto_extracted")
    assert caught.value.kinds == ("phone_number",)
    assert mem.list() == []


@pytest.mark.parametrize(
    "fact",
    [
        "My sister's new cell is 415-555-0173, she switched carriers.",
        "Send the invoices to priya.n@example.com from now on.",
        "老王的手机号是 13912345678，周末找他。",
        "我的 QQ 号是 3141592653，备注写项目名。",
    ],
)
def test_a_contact_the_user_saves_is_kept_but_never_extracted(mem: Memory, fact: str) -> None:
    # a contact detail is an ordinary fact to remember when asked (issue 29's facts hold
    # them), but automatic paths drop it (EX3)
    assert not looks_secret(fact) and looks_secret(fact, contacts=True)
    assert mem.save(fact).status == "added"
    with pytest.raises(SecretRefused):
        mem.save(fact + " ", source="auto_extracted")
    assert fact not in redact(fact)


def test_ordinary_text_is_saved_as_before(mem: Memory) -> None:
    assert mem.save("项目使用 JDK 17，端口 8443，版本 3.11").status == "added"


LAZY_MODULES = (
    "remem.secrets",
    "remem.secrets_access",
    "remem.secrets_answers",
    "remem.secrets_contacts",
    "remem.secrets_cues",
    "remem.secrets_described",
    "remem.secrets_dial",
    "remem.secrets_model",
    "remem.secrets_prose",
    "remem.secrets_shapes",
)


@pytest.mark.parametrize("name", LAZY_MODULES)
def test_every_lazy_pattern_compiles(name: str) -> None:
    # a pattern compiled on first use would otherwise show a typo only when a text reaches it
    import importlib
    import re

    from remem.secrets_shapes import Lazy

    module = importlib.import_module(name)
    patterns = [v for v in vars(module).values() if isinstance(v, Lazy)]
    assert patterns
    eager = [k for k, v in vars(module).items() if isinstance(v, re.Pattern)]
    assert eager == []  # each compiled at import costs every one-shot save
    for pattern in patterns:
        assert pattern.compiled.pattern == pattern.pattern


def test_importing_the_detector_compiles_no_rule_pattern() -> None:
    # a one-shot `remem save` pays for the rules its text reaches, not all of them at import
    import subprocess
    import sys

    code = (
        "import importlib, remem.secrets\n"
        "from remem.secrets_shapes import Lazy\n"
        f"names = {LAZY_MODULES!r}\n"
        "done = [k for n in names for k, v in vars(importlib.import_module(n)).items()\n"
        "        if isinstance(v, Lazy) and v._compiled is not None]\n"
        "print(done)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
