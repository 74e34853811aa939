"""`remem extract` and `remem bench extraction`: automatic extraction from the command
line, and scoring it on a golden set (SPEC EX2-EX5, EX9, SE2, BM1)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from remem.cli.common import emit, json_option
from remem.errors import InvalidInput
from remem.extract.extractor import ExtractionResult, Extractor
from remem.extract.guard import ExternalGuard
from remem.files import read_text

if TYPE_CHECKING:
    from remem.llm import ChatModel
    from remem.memory import Memory

__all__ = ["GoldenCase", "GoldenScore", "bench", "extract", "load_golden", "score_golden"]


@dataclass(frozen=True, slots=True, kw_only=True)
class GoldenCase:
    """One line of a golden set: the user's message, phrases a saved entry must contain,
    phrases none may contain; `external_context` marks the session as external."""

    id: str
    input: str
    expect: tuple[str, ...] = ()
    forbid: tuple[str, ...] = ()
    external_context: bool = False


@dataclass
class GoldenScore:
    """Precision, recall and F1 of saved entries against a golden set, false writes
    (an entry saved where nothing is expected, or holding a forbidden phrase), latency."""

    cases: int = 0
    expected: int = 0
    found: int = 0
    saved: int = 0
    correct: int = 0
    misses: list[tuple[str, str]] = field(default_factory=list)  # (case id, phrase)
    false_writes: list[tuple[str, str]] = field(default_factory=list)  # (case id, content)
    latencies_ms: list[float] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.correct / self.saved if self.saved else 1.0

    @property
    def recall(self) -> float:
        return self.found / self.expected if self.expected else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def percentile(self, q: float) -> float:
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "cases": self.cases,
            "expected": self.expected,
            "found": self.found,
            "saved": self.saved,
            "correct": self.correct,
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
            "false_writes": len(self.false_writes),
            "p50_ms": round(self.percentile(0.5), 3),
            "p95_ms": round(self.percentile(0.95), 3),
            "misses": [list(m) for m in self.misses],
            "false_write_entries": [list(f) for f in self.false_writes],
        }


def load_golden(path: str | Path) -> list[GoldenCase]:
    """Read a golden set (JSON lines: id, input, expect, forbid, external_context)."""
    cases: list[GoldenCase] = []
    lines = read_text(path, "the golden set").splitlines()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            doc = json.loads(line)
            case = GoldenCase(
                id=str(doc.get("id", f"line-{number}")),
                input=doc["input"],
                expect=tuple(doc.get("expect", ())),
                forbid=tuple(doc.get("forbid", ())),
                external_context=bool(doc.get("external_context", False)),
            )
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
            raise InvalidInput(f"{path}:{number}: not a golden case ({exc})") from exc
        if not isinstance(case.input, str) or not all(
            isinstance(p, str) for p in case.expect + case.forbid
        ):
            raise InvalidInput(f"{path}:{number}: input, expect and forbid must be text")
        cases.append(case)
    return cases


def score_golden(
    cases: list[GoldenCase], *, model: ChatModel | None = None, repeat: int = 1
) -> GoldenScore:
    """Run the extractor (no store) on every case; time each turn `repeat` times."""
    score = GoldenScore(cases=len(cases))
    for case in cases:
        guard = ExternalGuard()
        if case.external_context:
            guard.mark_external("golden case")
        extractor = Extractor(None, model=model, guard=guard)
        saved: list[str] = []
        for run in range(max(1, repeat) if model is None else 1):
            began = time.perf_counter()
            result = extractor.extract(case.input)
            score.latencies_ms.append((time.perf_counter() - began) * 1000)
            saved = [c.content for c in result.saved] if run == 0 else saved
        _score_case(score, case, saved)
    return score


def _score_case(score: GoldenScore, case: GoldenCase, saved: list[str]) -> None:
    score.expected += len(case.expect)
    for phrase in case.expect:
        if any(phrase in content for content in saved):
            score.found += 1
        else:
            score.misses.append((case.id, phrase))
    for content in saved:
        score.saved += 1
        forbidden = any(phrase in content for phrase in case.forbid)
        if not case.expect or forbidden:
            score.false_writes.append((case.id, content))
        elif any(phrase in content for phrase in case.expect):
            score.correct += 1


# -- commands ---------------------------------------------------------------------------


def _memory() -> Memory:
    from remem.cli.common import Ctx

    state = click.get_current_context().find_object(Ctx)
    if state is None:  # called outside the `remem` group (tests, embedding)
        raise click.UsageError("run this as `remem extract`")
    return state.memory


def _message(text: str | None, file: str | None) -> str:
    if (text is None) == (file is None):
        raise click.UsageError("give the user's message with exactly one of --text or --file")
    if text is not None:
        return text
    assert file is not None
    return read_text(file, "the message file")


def _model(rules_only: bool) -> tuple[ChatModel | None, str]:
    from remem.llm import LLMSettings, OpenAIChatModel

    settings = LLMSettings.from_env()
    if rules_only or not settings.configured:
        return None, "rules"
    return OpenAIChatModel(settings), f"rules + LLM {settings.model}"


def _ask(content: str) -> bool:
    return click.confirm(f"I am about to remember: {content}. Save?", default=True, err=True)


def _print_result(result: ExtractionResult, dry_run: bool, how: str) -> None:
    verb = "Would save" if dry_run else "Saved"
    click.echo(f"{verb} {len(result.saved)} ({how}):")
    ids = {e.content: e.id for e in result.entries}
    for cand in result.saved:
        where = f"{ids[cand.content]}  " if cand.content in ids else ""
        click.echo(f"  {where}[{cand.type}] {cand.content}")
    if result.refused:
        click.echo(f"Refused {len(result.refused)}:")
    for refusal in result.refused:
        click.echo(f"  {refusal.text or '(model)'}  <- {refusal.reason}")


@click.command()
@click.option("--text", "text_", metavar="TEXT", help="The user's own message.")
@click.option("--file", "file_", metavar="FILE", help="Read the message from FILE (- = stdin).")
@click.option("--external", is_flag=True, help="The session read web/MCP/network content.")
@click.option("--dry-run", is_flag=True, help="Show what would be saved; save nothing.")
@click.option("--rules-only", is_flag=True, help="Never call the LLM, even if configured.")
@click.option("--confirm", is_flag=True, help="Ask before saving each fact.")
@json_option
def extract(
    text_: str | None,
    file_: str | None,
    external: bool,
    dry_run: bool,
    rules_only: bool,
    confirm: bool,
    as_json: bool,
) -> None:
    """Find stable preferences and project facts in a user message and save them to
    project scope (auto_extracted, unverified). Prints what was saved and, for each
    candidate refused, why. Uses the LLM (quote-only) after the rules when one is
    configured (REMEM_LLM_*). --external marks the session as having read external
    content, which turns automatic extraction off.

    \b
    Example:
      remem extract --text "帮我写个脚本。对了，我们项目统一使用 JDK 17。" --json
      remem extract --file message.txt --dry-run
    """
    message = _message(text_, file_)
    guard = ExternalGuard()
    if external:
        guard.mark_external("remem extract --external")
    model, how = _model(rules_only)
    extractor = Extractor(
        _memory(), model=model, guard=guard, confirm=_ask if confirm and not dry_run else None
    )
    try:
        result = extractor.extract(message, dry_run=dry_run)
    finally:
        close = getattr(model, "close", None)
        if close is not None:
            close()
    emit(as_json, result.to_dict(), lambda: _print_result(result, dry_run, how))


@click.group()
def bench() -> None:
    """Measure remem: extraction on a golden set (the clone's own, or yours), retrieval
    on the public LoCoMo and MADial-Bench sets (`remem bench retrieval --help` says where
    each comes from and how to fetch it)."""


@bench.command("extraction")
@click.argument("file", required=False, type=click.Path(exists=True, dir_okay=False))
@click.option("--llm", is_flag=True, help="Add the configured LLM stage (default: rules only).")
@click.option(
    "--repeat",
    default=5,
    show_default=True,
    type=click.IntRange(min=1),
    help="Time each turn this many times (rules only).",
)
@json_option
def bench_extraction(file: str | None, llm: bool, repeat: int, as_json: bool) -> None:
    """Score automatic extraction on a golden set (JSON lines with id, input, expect,
    forbid, optional external_context): precision, recall, F1, false writes, and the
    time per user turn. An expected phrase is found when a saved entry contains it.

    \b
    The clone of remem holds a development set: benchmarks/data/extraction_dev.jsonl.

    \b
    Example:
      remem bench extraction benchmarks/data/extraction_dev.jsonl
      remem bench extraction --json golden.jsonl
    """
    if file is None:
        raise click.UsageError(
            "name a golden set (JSON lines); the clone of remem holds "
            "benchmarks/data/extraction_dev.jsonl"
        )
    cases = load_golden(file)
    model, how = _model(rules_only=not llm)
    if llm and model is None:
        raise click.UsageError("--llm needs a configured LLM (REMEM_LLM_MODEL and _BASE_URL)")
    score = score_golden(cases, model=model, repeat=repeat)
    data = {"file": file, "extractor": how, **score.to_dict()}

    def human() -> None:
        click.echo(f"{file}: {score.cases} cases, extractor: {how}")
        click.echo(f"{'precision':>12} {'recall':>8} {'F1':>8} {'false writes':>13}")
        click.echo(
            f"{score.precision:>12.3f} {score.recall:>8.3f} {score.f1:>8.3f} "
            f"{len(score.false_writes):>13}"
        )
        click.echo(
            f"per turn: p50 {score.percentile(0.5):.3f} ms, p95 {score.percentile(0.95):.3f} ms"
        )
        for case_id, phrase in score.misses:
            click.echo(f"  missed      {case_id}: {phrase}")
        for case_id, content in score.false_writes:
            click.echo(f"  false write {case_id}: {content}")

    emit(as_json, data, human)


def _cutoffs(ks: str) -> tuple[int, ...]:
    """--k's cut-offs, sorted, each once."""
    try:
        cutoffs = tuple(sorted({int(k) for k in ks.split(",") if k.strip()}))
    except ValueError as exc:
        raise click.UsageError(f"--k takes numbers like 5,10,20: {exc}") from exc
    if not cutoffs or min(cutoffs) < 1:
        raise click.UsageError("--k takes positive numbers like 5,10,20")
    return cutoffs


NO_DATA = (
    "name the data files: LoCoMo (git clone --depth 1 https://github.com/snap-research/locomo,"
    " then locomo/data/locomo10.json) or MADial-Bench (git clone --depth 1"
    " https://github.com/hejunqing/MADial-Bench, then"
    " MADial-Bench/data/ch/MADial-Bench-zh-dialogue.json); see --help"
)


@bench.command("retrieval")
@click.argument("data", nargs=-1, type=click.Path(exists=True, dir_okay=False))
@click.option("--k", "ks", default="5,10,20", show_default=True, help="Cut-offs, comma-separated.")
@click.option("--chart", "chart_out", metavar="PNG", help="Draw recall against tokens.")
@json_option
def bench_retrieval(data: tuple[str, ...], ks: str, chart_out: str | None, as_json: bool) -> None:
    """Recall of remem on conversations and memories in the public formats, side by
    side with keyword-only remem, plain vector search and plain BM25: recall@k, tokens
    injected per query, query and ingest latency per turn, and a bootstrap 95% interval
    of the middle recall (how far other questions of the kind could move it). LoCoMo
    conversations go in through `add_messages` (evidence recall, categories 1-4);
    MADial-Bench `…-dialogue.json` files (their `…-memory.json` beside them) through
    `save` (memory recall). REMEM_EMBEDDER picks the embedder.

    Neither data set ships with remem (licences): LoCoMo is in
    https://github.com/snap-research/locomo (data/locomo10.json, its ten
    conversations; CC BY-NC 4.0), MADial-Bench in
    https://github.com/hejunqing/MADial-Bench (data/ch/ and data/en/: each
    …-dialogue.json with its …-memory.json; MIT). Clone them, or download those files.

    \b
    Example:
      git clone --depth 1 https://github.com/snap-research/locomo
      git clone --depth 1 https://github.com/hejunqing/MADial-Bench
      remem bench retrieval locomo/data/locomo10.json --chart recall.png
      remem bench retrieval MADial-Bench/data/ch/MADial-Bench-zh-dialogue.json --json
    """
    from remem.bench import datasets, harness
    from remem.retrieval.embedding import embedder_from_env

    if not data:  # a new user's first try: say where the data comes from
        raise click.UsageError(NO_DATA)
    cutoffs = _cutoffs(ks)
    if chart_out:  # say so before the run, not after it
        import importlib.util

        from remem.errors import MissingExtra

        if importlib.util.find_spec("matplotlib") is None:
            raise MissingExtra("--chart", "matplotlib", "chart")
    systems = harness.run(datasets.corpora(data), cutoffs, embedder_from_env())
    if chart_out:
        harness.chart(systems, chart_out)
    rows = [s.to_dict() for s in systems]

    mid = cutoffs[len(cutoffs) // 2]  # the cutoff whose bootstrap interval is shown

    def human() -> None:
        head = " ".join(f"{'R@' + str(k):>7} {'tok@' + str(k):>7}" for k in cutoffs)
        click.echo(
            f"{'system':<34} {head} {'query p50/p95 ms':>17} {'ingest p50/p95 ms':>18}"
            f" {'R@' + str(mid) + ' 95%':>16}"
        )
        for r in rows:
            cells = " ".join(f"{r['recall'][k]:>7.3f} {r['tokens'][k]:>7.0f}" for k in cutoffs)
            q, i = r["query_ms"], r["ingest_ms"]
            low, high = r["interval"][mid]
            click.echo(
                f"{r['system']:<34} {cells} {q['p50']:>8.2f}/{q['p95']:<8.2f} "
                f"{i['p50']:>8.2f}/{i['p95']:<8.2f}   [{low:.3f}, {high:.3f}]"
            )

    emit(as_json, {"files": list(data), "systems": rows}, human)
