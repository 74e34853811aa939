"""Every fenced shell and Python example in README.md runs, as a reader would run it.

The shell blocks of a `## ` section run line by line in one bash session (exports, `cd`
and `source` carry over, as in a reader's terminal)
inside a temp git repository, with HOME (so ~/.remem) in a temp folder and the
repository's .venv on PATH. What a line needs from outside gets a real local stand-in: a local clone
for `git clone <this repository>`, the test's PostgreSQL for `postgresql://…`, a
`remem serve` on a free port for the examples that talk to one, the local OpenAI-style
server (tests/openai_server.py) for the model of `remem chat`. A reader's own files
(`chat.json`, `history.json`, a session of `remem chat`) are made first. The README
itself says the rest:

- `# … exit N` in a line's comment: the line must exit with N (a refused save);
- `# shows "text"`: what the line prints must hold that text;
- `<id>`, `<old-id>`, `ID`: the last memory (or session) id an earlier line printed;
  `<token-id>`: the last one `remem token list` printed; `rmm_…`: the first token
  `remem token create` printed;
- `[not run: why]` in a line's comment: the line is not run (a client that is not here).

JSON and TOML blocks must parse. Slow blocks (an install, the test suite) are marked
slow: `pytest -m "not slow"` skips them locally; CI runs them.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import textwrap
import time
import tomllib
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from openai_server import OpenAIServer
from remem.context.ledger import SessionLedger

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
VENV_BIN = ROOT / ".venv" / "bin"
FENCE = re.compile(
    r"^(?P<indent> *)```(?P<lang>[\w-]*)\n(?P<body>.*?)^(?P=indent)```\s*$", re.M | re.S
)
NOT_RUN = re.compile(r"\[not run: ([^\]]+)\]")
EXIT = re.compile(r"\bexit (\d+)\b")
SHOWS = re.compile(r'\bshows "([^"]+)"')
MEMORY_ID = re.compile(r"\b[0-9a-f]{12}\b|\b\d{8}-\d{6}-[0-9a-f]{6}\b")  # memories, sessions
PLACEHOLDER = re.compile(r"<(?:old-)?id>|\bID\b")
TOKEN = re.compile(r"\brmm_[A-Za-z0-9_-]{20,}")  # what `remem token create` prints
TOKEN_ID = re.compile(r"^([0-9a-f]{8})  user=", re.M)  # a line of `remem token list`
PG_URL = re.compile(r"postgresql://[^\s'\"]*")
# What makes a section take more than a few seconds: an install, the demo, a server, a
# model session, PostgreSQL, or many commands (each one ~1-2 s: a new process).
SLOW = ("make ", "pip install", "pipx install", "uv tool install", "remem serve", "remem chat",
        "postgresql://")  # fmt: skip


@dataclass(frozen=True)
class Block:
    lang: str
    line: int
    heading: str
    body: str
    section: str  # the `## ` heading it is under: a reader's one terminal

    def __str__(self) -> str:
        return f"README.md:{self.line} ({self.heading})"


def read_blocks(text: str) -> list[Block]:
    out = []
    for m in FENCE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        headings = re.findall(r"^#+ (.+)$", text[: m.start()], re.M)
        sections = re.findall(r"^## (.+)$", text[: m.start()], re.M)
        body = textwrap.dedent(m["body"])
        heading, section = (headings or [""])[-1], (sections or ["top"])[-1]
        out.append(Block(m["lang"], line, heading, body, section))
    return out


BLOCKS = read_blocks(README.read_text(encoding="utf-8"))


def split_comment(line: str) -> tuple[str, str]:
    """(command, comment) of a shell line: a `#` outside quotes, at the start or after a
    space, starts the comment."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip(), line[i + 1 :].strip()
    return line.rstrip(), ""


def commands(body: str) -> list[tuple[str, str]]:
    """The (command, comment) lines of a shell block, continuation lines joined."""
    out: list[tuple[str, str]] = []
    pending, mark = "", ""
    for raw in body.splitlines():
        command, comment = split_comment(raw)
        if not command and NOT_RUN.search(comment):
            mark = comment  # a mark on its own line is the next command's
        if command.endswith("\\"):
            pending += command[:-1] + " "
            continue
        command, pending = (pending + command).strip(), ""
        if command:
            out.append((command, f"{comment} {mark}".strip()))
            mark = ""
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Shell:
    """One reader at a terminal: the environment and folder carry from line to line."""

    cwd: Path
    env: dict[str, str]
    state: Path
    ids: list[str] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    secrets: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    servers: list[subprocess.Popen[str]] = field(default_factory=list)
    model: OpenAIServer | None = None  # the local model, when the section uses one

    def run(self, command: str, expect: int = 0, timeout: float = 240) -> str:
        state = f'pwd > "{self.state}.pwd"\nenv -0 > "{self.state}.env"'
        script = f"{command}\n__rc=$?\n{state}\nexit $__rc\n"
        proc = subprocess.run(
            ["bash", "-c", script], cwd=self.cwd, env=self.env, capture_output=True, text=True,
            timeout=timeout, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        out = proc.stdout + proc.stderr
        self.log.append(f"$ {command}\n{out}")
        assert proc.returncode == expect, (
            f"{command!r} exited {proc.returncode}, the README says {expect}\n"
            + "\n".join(self.log)
        )
        self.cwd = Path(Path(f"{self.state}.pwd").read_text().strip())
        pairs = Path(f"{self.state}.env").read_text().split("\0")
        self.env = dict(p.split("=", 1) for p in pairs if "=" in p)
        self.ids += MEMORY_ID.findall(out)
        self.tokens += TOKEN_ID.findall(out)
        self.secrets += TOKEN.findall(out)
        return out

    def background(self, command: str) -> None:
        proc = subprocess.Popen(
            ["bash", "-c", f"exec {command}"], cwd=self.cwd, env=self.env,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        self.servers.append(proc)

    def stop(self) -> None:
        for proc in self.servers:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()


def wait_for(url: str, proc: subprocess.Popen[str], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the server exited: {proc.stdout.read() if proc.stdout else ''}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"no answer from {url}")


# -- the world a reader's commands run in ---------------------------------------------------
@pytest.fixture
def shell(tmp_path: Path) -> Iterator[Shell]:
    project = tmp_path / "myproject"
    project.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    for name in (".venv", "benchmarks"):  # the README's commands run in the clone
        (project / name).symlink_to(ROOT / name)
    (project / "chat.json").write_text(
        json.dumps([{"role": "user", "name": "Ann", "content": "我下周去杭州出差"},
                    {"role": "assistant", "content": "需要我订酒店吗？"}], ensure_ascii=False),
        encoding="utf-8",
    )  # fmt: skip
    history = [{"role": "system", "content": "You are a coding agent."}]
    for n in range(40):
        asked = f"Step {n}: run the tests " + "and read the log " * 40
        history += [{"role": "user", "content": asked},
                    {"role": "assistant", "content": f"Step {n} passed in {n}.5 s."}]  # fmt: skip
    (project / "history.json").write_text(json.dumps(history), encoding="utf-8")
    with SessionLedger(project) as ledger:  # a `remem chat` session the reader had
        ledger.checkpoint(history[:5])
    env = dict(os.environ)
    env.pop("REMEM_HOME", None)  # the README's default: ~/.remem, in this test's HOME
    env.update(PATH=f"{VENV_BIN}:/usr/local/bin:/usr/bin:/bin",
               HOME=str(tmp_path), GIT_AUTHOR_NAME="r", GIT_AUTHOR_EMAIL="r@example.com",
               GIT_COMMITTER_NAME="r", GIT_COMMITTER_EMAIL="r@example.com")  # fmt: skip
    for name in ("REMEM_DB", "VIRTUAL_ENV", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        env.pop(name, None)
    sh = Shell(project, env, tmp_path / "state")
    try:
        yield sh
    finally:
        sh.stop()


def tools(sh: Shell) -> None:
    """pipx and uv (from the dev extra) put their environments and commands under this
    test's HOME; `pip` is a fresh virtualenv's, active; downloads come from PyPI through
    the usual caches, and uv uses this Python (it may not download one)."""
    home = Path(sh.env["HOME"])
    venv = home / "venv"
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    real_cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    sh.env.update(
        PIPX_HOME=str(home / "pipx"), PIPX_BIN_DIR=str(home / "pipx-bin"),
        UV_TOOL_DIR=str(home / "uv-tools"), UV_TOOL_BIN_DIR=str(home / "uv-bin"),
        UV_PYTHON=sys.executable, UV_PYTHON_DOWNLOADS="never",
        UV_CACHE_DIR=str(real_cache / "uv"), PIP_CACHE_DIR=str(real_cache / "pip"),
        VIRTUAL_ENV=str(venv),
        PATH=f"{venv / 'bin'}:{home / 'pipx-bin'}:{home / 'uv-bin'}:{sh.env['PATH']}",
    )  # fmt: skip


def substitute(sh: Shell, command: str, extras: dict[str, str]) -> str:
    """The command with the README's placeholders and the stand-ins filled in."""
    if "<token-id>" in command:
        assert sh.tokens, f"{command!r} names a token id, but no earlier line printed one"
        command = command.replace("<token-id>", sh.tokens[-1])
    if "rmm_…" in command:
        assert sh.secrets, f"{command!r} names a token, but no earlier line printed one"
        command = command.replace("rmm_…", sh.secrets[0])
    if PLACEHOLDER.search(command):
        assert sh.ids, f"{command!r} names an id, but no earlier line printed one"
        command = PLACEHOLDER.sub(sh.ids[-1], command)
    for old, new in extras.items():
        if old != "pg":  # the test's PostgreSQL stands in for a URL, below; a token may hold "pg"
            command = command.replace(old, new)
    if "pg" in extras:
        command = PG_URL.sub(extras["pg"], command)
    return command


def run_block(block: Block, sh: Shell, extras: dict[str, str]) -> None:
    for command, comment in commands(block.body):
        if NOT_RUN.search(comment):
            continue
        match = EXIT.search(comment)
        command = substitute(sh, command, extras)
        if re.search(r"\bremem\b.*\bserve\b", command) and "--json" not in command:
            port = str(free_port())
            command = re.sub(r"--port \d+", "", command).replace("0.0.0.0", "127.0.0.1")
            sh.background(f"{command} --port {port}")
            wait_for(f"http://127.0.0.1:{port}/api/health", sh.servers[-1])
            extras.setdefault("127.0.0.1:8765", f"127.0.0.1:{port}")  # where later lines go
            continue
        if sh.model is not None and "remem chat" in command:
            sh.model.clear()  # what the model answers to this command
            if "--plan" in command:  # the planner answers with its plan first
                task = {"id": 1, "title": "Add /health", "description": "Add a health "
                        "endpoint to myapp and a test for it", "depends_on": []}  # fmt: skip
                sh.model.script([json.dumps({"tasks": [task]})])
            sh.model.script(["好的，已完成。"] * 20)
        out = sh.run(command, int(match.group(1)) if match else 0)
        for shown in SHOWS.findall(comment):
            assert shown in out, f"{command!r} should show {shown!r}\n" + "\n".join(sh.log)


def needs(block: Block, *words: str) -> bool:
    """Whether a command of the block (not a comment) holds one of `words`."""
    return any(w in command for command, _ in commands(block.body) for w in words)


def slug(heading: str) -> str:
    return "-".join(re.findall(r"[a-z0-9]+", heading.lower()))[:40] or "top"


def is_slow(block: Block) -> bool:
    return needs(block, *SLOW) or len(commands(block.body)) >= 6


def sections() -> Iterator[Block]:
    """The shell blocks of each `## ` section as one (a reader runs them in one terminal)."""
    shells = [b for b in BLOCKS if b.lang in ("bash", "sh", "shell")]
    for name in dict.fromkeys(b.section for b in shells):
        mine = [b for b in shells if b.section == name]
        body = "\n".join(b.body for b in mine)
        yield Block("bash", mine[0].line, mine[0].heading, body, name)


SHELL = [
    pytest.param(b, id=slug(b.section), marks=[pytest.mark.slow] if is_slow(b) else [])
    for b in sections()
]
PYTHON = [pytest.param(b, id=slug(b.heading)) for b in BLOCKS if b.lang == "python"]


@pytest.mark.parametrize("block", SHELL)
@pytest.mark.slow
def test_shell_example(block: Block, shell: Shell, request: pytest.FixtureRequest) -> None:
    extras = {"<this repository>": str(ROOT), "make test": "make -n test"}
    if PG_URL.search(block.body):
        extras["pg"] = request.getfixturevalue("pg_url")
    if needs(block, "make "):
        shell.cwd = ROOT  # the Makefile is the clone's
    if needs(block, "pipx install", "uv tool install"):
        tools(shell)
    if needs(block, "--from ~/.remem/memory.db"):  # a reader with memories to move
        shell.run('remem save "部署脚本在 scripts/deploy.sh"')
    with contextlib_chain(block, shell, extras):
        run_block(block, shell, extras)


@contextmanager
def contextlib_chain(block: Block, sh: Shell, extras: dict[str, str]) -> Iterator[None]:
    """Start what the block's lines talk to: a team server, a model."""
    if needs(block, "REMEM_LLM_BASE_URL="):
        with OpenAIServer() as srv:
            extras["https://api.deepseek.com/v1"] = srv.base_url
            sh.model = srv
            yield
        return
    yield


@pytest.mark.parametrize("block", PYTHON)
@pytest.mark.slow
def test_python_example(block: Block, shell: Shell) -> None:
    script = shell.cwd / "example.py"
    script.write_text(block.body, encoding="utf-8")
    if "OPENAI_BASE_URL" not in block.body:
        shell.run(f"{sys.executable} example.py")
        return
    with OpenAIServer() as model:  # the example's OpenAI-compatible endpoint
        model.script(["Hello Ann!", "Your name is Ann."])
        shell.env.update(OPENAI_BASE_URL=model.base_url, OPENAI_API_KEY="test-key")
        out = shell.run(f"{sys.executable} example.py")
        assert "Your name is Ann." in out
        sent = json.dumps(model.requests[-1]["messages"], ensure_ascii=False)
        assert "Hi, I'm Ann" in sent and "Hello Ann!" in sent  # the session's history


def test_json_and_toml_examples_parse() -> None:
    for block in BLOCKS:
        if block.lang == "json":
            json.loads(block.body)
        elif block.lang == "toml":
            tomllib.loads(block.body)


def test_every_example_is_run_by_a_test() -> None:
    langs = {b.lang for b in BLOCKS}
    assert langs <= {"bash", "python", "json", "toml", ""}, langs
    untested = [str(b) for b in BLOCKS if b.lang == "" and "remem" in b.body and "$" in b.body]
    assert not untested


def test_marks_are_few_and_say_why() -> None:
    marks = [NOT_RUN.search(c) for b in BLOCKS if b.lang == "bash" for _, c in commands(b.body)]
    reasons = [m.group(1) for m in marks if m]
    assert len(reasons) <= 4, reasons
    assert all(len(r.split()) >= 2 for r in reasons), reasons
