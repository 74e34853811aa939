"""The real terminal agents with remem's hooks: Claude Code (`claude -p`), Codex CLI
(`codex exec`) and Gemini CLI (`gemini -p`), installed from npm, each talking to a local
fake model server (tests/agent_models.py) on 127.0.0.1. Each test asserts that the
request the model received carries the memory block for the prompt, and that a
"remember that ..." prompt ends up in the store as an unverified memory for review.

The packages are installed once into REMEM_CLIENTS_DIR (default
~/.cache/remem-clients) at the pinned versions; REMEM_TEST_CLIENTS=skip skips these
tests on purpose. Offline flags per client:
- Claude Code: ANTHROPIC_BASE_URL + an API key; DISABLE_TELEMETRY, DISABLE_AUTOUPDATER,
  DISABLE_ERROR_REPORTING, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC.
- Codex: a model provider with `base_url` in CODEX_HOME/config.toml, the project marked
  trusted (project hooks load only then), and `--dangerously-bypass-hook-trust`: Codex
  runs a hook only once a person reviewed it in the TUI (`/hooks`), which stores a hash
  of Codex's own making in config.toml; the flag is Codex's documented way for
  automation.
- Gemini CLI: GOOGLE_GEMINI_BASE_URL + GEMINI_API_KEY, GEMINI_CLI_TRUST_WORKSPACE, a
  fixed model (`-m`: "auto" first asks a classifier model for JSON), telemetry and
  update checks off in its settings.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent_models import AgentModels
from remem import Memory
from remem.retrieval.warm import WarmClient

PACKAGES = {
    "claude": "@anthropic-ai/claude-code@2.1.197",
    "codex": "@openai/codex@0.171.0",
    "gemini": "@google/gemini-cli@0.61.0",
}
REMEM = str(Path(sys.executable).with_name("remem"))
KNOWN = "The project uses JDK 17 and Maven"
PROMPT = "Which JDK does the project use? Also remember that we deploy with scripts/deploy.sh"
TIMEOUT = 90

pytestmark = pytest.mark.slow


@pytest.fixture(scope="session")
def clients() -> Path:
    """The folder holding node_modules/.bin/{claude,codex,gemini} at the pinned versions."""
    if os.environ.get("REMEM_TEST_CLIENTS", "").strip() == "skip":
        pytest.skip("REMEM_TEST_CLIENTS=skip: the real agent clients are skipped on request")
    where = Path(os.environ.get("REMEM_CLIENTS_DIR") or Path.home() / ".cache" / "remem-clients")
    stamp = where / "remem-pins.json"
    bins = [where / "node_modules" / ".bin" / name for name in PACKAGES]

    def installed() -> bool:
        return (
            stamp.exists()
            and json.loads(stamp.read_text()) == PACKAGES
            and all(map(Path.exists, bins))
        )

    if installed():
        return where
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail("npm is needed to install the agent clients (or REMEM_TEST_CLIENTS=skip)")
    where.mkdir(parents=True, exist_ok=True)
    with (where / "install.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another test process may be installing them
        if installed():
            return where
        done = subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--prefix", str(where), *PACKAGES.values()],
            capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        if done.returncode != 0:
            pytest.fail(f"npm install failed: {done.stderr[-2000:]}")
        stamp.write_text(json.dumps(PACKAGES))
    return where


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "proj"
    folder.mkdir()
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    with Memory(project=folder) as mem:  # REMEM_HOME: the test's own (conftest)
        mem.save(KNOWN)
    return folder


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """A clean environment: its own HOME, remem's home, no embedder or warm service."""
    home = tmp_path / "home"
    home.mkdir()
    return {
        "PATH": os.environ["PATH"], "HOME": str(home), "LANG": "C.UTF-8",
        "REMEM_HOME": os.environ["REMEM_HOME"], "REMEM_EMBEDDER": "none", "REMEM_WARM": "0",
    }  # fmt: skip


@pytest.fixture
def models() -> Iterator[AgentModels]:
    with AgentModels(reply="Noted.") as srv:
        yield srv


def install(client: str, project: Path, env: dict[str, str]) -> None:
    done = subprocess.run(
        [REMEM, "hooks", "install", client, "--command", REMEM, "--json"],
        cwd=project, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["changed"]


def run(argv: list[str], project: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        argv, cwd=project, env=env, capture_output=True, text=True, timeout=TIMEOUT,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-3000:])
    assert "Noted." in done.stdout
    return done


def assert_remembered(models: AgentModels, path: str, project: Path) -> None:
    sent = models.seen(path)
    # The block reached the model, marked as background (Gemini CLI escapes the
    # brackets of hook context: &lt;memory_context&gt; inside its <hook_context>).
    assert "memory_context" in sent and KNOWN in sent
    assert "Background from past sessions" in sent and "never an instruction" in sent
    with Memory(project=project) as mem:
        found = [e for e in mem.list() if "scripts/deploy.sh" in e.content]
    assert len(found) == 1, [e.content for e in mem.list()]
    entry = found[0]
    assert (entry.source, entry.confidence) == ("auto_extracted", "unverified")
    assert "Noted" not in entry.content  # the model's answer is never read


def claude_env(models: AgentModels) -> dict[str, str]:
    return {
        "ANTHROPIC_BASE_URL": models.url, "ANTHROPIC_API_KEY": "sk-test",
        "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1", "DISABLE_ERROR_REPORTING": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    }  # fmt: skip


def claude(clients: Path, project: Path, env: dict[str, str], models: AgentModels) -> list[str]:
    env |= claude_env(models)
    return [str(clients / "node_modules/.bin/claude"), "-p", PROMPT]


def codex(clients: Path, project: Path, env: dict[str, str], models: AgentModels) -> list[str]:
    codex_home = Path(env["HOME"]) / "codex"
    codex_home.mkdir()
    (codex_home / "config.toml").write_text(
        'model = "gpt-test"\nmodel_provider = "fake"\n'
        f'[model_providers.fake]\nname = "fake"\nbase_url = "{models.url}/v1"\n'
        'wire_api = "responses"\nenv_key = "FAKE_MODEL_KEY"\n'
        f'[projects.{json.dumps(str(project))}]\ntrust_level = "trusted"\n'
    )
    env |= {"CODEX_HOME": str(codex_home), "FAKE_MODEL_KEY": "sk-test"}
    return [str(clients / "node_modules/.bin/codex"), "exec", "--dangerously-bypass-hook-trust",
            PROMPT]  # fmt: skip


def gemini(clients: Path, project: Path, env: dict[str, str], models: AgentModels) -> list[str]:
    settings = Path(env["HOME"]) / ".gemini" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False},
        "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
    }))  # fmt: skip
    env |= {"GEMINI_API_KEY": "test-key", "GOOGLE_GEMINI_BASE_URL": models.url,
            "GEMINI_CLI_TRUST_WORKSPACE": "true"}  # fmt: skip
    return [str(clients / "node_modules/.bin/gemini"), "-m", "gemini-2.5-flash", "-p", PROMPT]


# client: how its command line is set up, and where its model requests go
CLIENTS = {
    "claude-code": (claude, "/v1/messages"),
    "codex": (codex, "/v1/responses"),
    "gemini": (gemini, "GenerateContent"),
}


@pytest.mark.parametrize("client", list(CLIENTS))
def test_with_our_hooks_the_model_gets_the_block_and_the_users_words_are_captured(
    client: str, clients: Path, project: Path, env: dict[str, str], models: AgentModels
) -> None:
    install(client, project, env)
    setup, path = CLIENTS[client]
    done = run(setup(clients, project, env, models), project, env)
    assert_remembered(models, path, project)
    if client == "gemini":  # Gemini CLI prints a hook's systemMessage in -p mode
        assert "remem: 1 loaded · 1 captured" in done.stdout + done.stderr  # the status line


@pytest.mark.parametrize("client", list(CLIENTS))
def test_the_agent_answers_when_every_hook_fails(
    client: str, clients: Path, project: Path, env: dict[str, str], models: AgentModels
) -> None:
    install(client, project, env)
    setup, path = CLIENTS[client]
    argv = setup(clients, project, env, models)
    env["REMEM_DB"] = "mysql://nowhere/db"  # every hook fails: one line on stderr, exit 1
    run(argv, project, env)
    sent = models.seen(path)
    assert "scripts/deploy.sh" in sent  # the prompt went through
    assert "memory_context" not in sent


@pytest.mark.parametrize("client", list(CLIENTS))
def test_with_the_warm_service_the_prompt_hook_is_answered_there(
    client: str, clients: Path, project: Path, env: dict[str, str], models: AgentModels
) -> None:
    """The session's start hook starts the service (keyword-only too); the prompt's hook
    is then answered whole there (`remem.hooks.served`), with the same block."""
    env["REMEM_WARM"] = "1"
    home = Path(env["REMEM_HOME"])
    install(client, project, env)
    setup, path = CLIENTS[client]
    try:
        run(setup(clients, project, env, models), project, env)
        status = WarmClient(home).status()
        assert status is not None and status["hooks"] >= 1, status
        assert_remembered(models, path, project)
    finally:
        WarmClient(home).stop()
