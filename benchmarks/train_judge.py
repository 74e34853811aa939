"""Train the pair judge of `remem.truth.judge` and write src/remem/truth/judge.json.

    .venv/bin/python benchmarks/train_judge.py            # train both weight sets, write them
    .venv/bin/python benchmarks/train_judge.py --cv       # grouped cross-validation only

The pairs (old memory, new text, label) come from:
- benchmarks/data/truth_probes.json: each later version of a chain against the one
  before (change), look-alikes (distinct), a look-alike against the later versions of
  the chain its twin starts (distinct: the crossings), repeats (repeat), and, within a
  set, a version against the first version of another chain sharing the most words
  with it (distinct: what the store's lookup brings up);
- benchmarks/data/truth_train/*.json: labelled pairs written by people who never read
  the rules ({"pairs": [{"old", "new", "label", "kind", "lang"}]});
- the held-out sets that have had their blind measurement (DEV_SETS, named one by one):
  each later step against the one before (change), against the first step of the other
  chain or filler sharing the most words with it (distinct), look-alikes (distinct) and
  repeats. The newest blind set is never read here.

The model is a multinomial logistic regression (L2, class-balanced), fitted by
gradient descent in numpy; `--cv` leaves out one group at a time (a probe set, a
training file) and prints how a change/ask/repeat threshold would act on it.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent / "src"))

from remem import text  # noqa: E402
from remem.truth import judge  # noqa: E402

PROBES = ROOT / "data" / "truth_probes.json"
TRAIN = ROOT / "data" / "truth_train"
HELD_OUT = ROOT / "data" / "truth_heldout"
# Blind once, measured, now development data; truth_h4 is the blind set of this model
DEV_SETS = ("truth_h1", "truth_h2", "truth_h3")
OUT = ROOT.parent / "src" / "remem" / "truth" / "judge.json"
LABEL = {name: i for i, name in enumerate(judge.CLASSES)}

Pair = tuple[str, str, str, str]  # old, new, label, group


def _nearest_other(new: str, firsts: list[str], own: str) -> str | None:
    mine = set(text.terms(new))
    best, score = None, 0.0
    for first in firsts:
        if first == own:
            continue
        theirs = set(text.terms(first))
        s = len(mine & theirs) / max(len(mine | theirs), 1)
        if s > score:
            best, score = first, s
    return best if score >= 0.15 else None


def probe_pairs() -> list[Pair]:
    sets = json.loads(PROBES.read_text(encoding="utf-8"))["sets"]
    out: list[Pair] = []
    for name, probe in sets.items():
        firsts = [chain[0] for chain in probe["updates"]]
        for chain in probe["updates"]:
            for before, after in zip(chain, chain[1:], strict=False):
                out.append((before, after, "change", name))
                if (other := _nearest_other(after, firsts, chain[0])) is not None:
                    out.append((other, after, "distinct", name))
        for a, b in probe["look_alikes"]:
            out.append((a, b, "distinct", name))
            for chain in (c for c in probe["updates"] if c[0] == a):
                out += [(b, later, "distinct", name) for later in chain[1:]]
        out += [(a, b, "repeat", name) for a, b in probe["repeats"]]
    return out


def dev_set_pairs() -> list[Pair]:
    out: list[Pair] = []
    for name in DEV_SETS:
        data = json.loads((HELD_OUT / f"{name}.json").read_text(encoding="utf-8"))
        firsts = [c["steps"][0]["text"] for c in data["chains"]] + data["fillers"]
        for chain in data["chains"]:
            steps = [step["text"] for step in chain["steps"]]
            for before, after in zip(steps, steps[1:], strict=False):
                out.append((before, after, "change", name))
                if (other := _nearest_other(after, firsts, steps[0])) is not None:
                    out.append((other, after, "distinct", name))
        out += [(p["a"], p["b"], "distinct", name) for p in data["look_alikes"]]
        out += [(p["a"], p["b"], "repeat", name) for p in data["repeats"]]
    return out


def file_pairs() -> list[Pair]:
    out: list[Pair] = []
    for path in sorted(TRAIN.glob("*.json")):
        for p in json.loads(path.read_text(encoding="utf-8"))["pairs"]:
            if p.get("label") in LABEL and p.get("old") and p.get("new"):
                out.append((p["old"], p["new"], p["label"], path.stem))
    return out


CACHE = Path(tempfile.gettempdir()) / "remem-judge-vectors.npz"


def _cached_vectors(texts: list[str]) -> np.ndarray:
    """The texts' vectors, kept between runs (embedding them is most of a run)."""
    from remem.retrieval.embedding import USEEmbedder

    known: dict[str, np.ndarray] = {}
    if CACHE.exists():
        with np.load(CACHE) as data:
            known = dict(zip(json.loads(str(data["texts"])), data["vectors"], strict=True))
    missing = [t for t in texts if t not in known]
    if missing:
        known.update(zip(missing, USEEmbedder().embed(missing), strict=True))
        names = list(known)
        np.savez(CACHE, texts=json.dumps(names), vectors=np.stack([known[t] for t in names]))
    return np.stack([known[t] for t in texts])


def cosines(pairs: list[Pair]) -> list[float]:
    """Each pair's cosine under the shipped embedder."""
    texts = sorted({t for p in pairs for t in p[:2]})
    vecs = _cached_vectors(texts)
    at = {t: i for i, t in enumerate(texts)}
    return [float(vecs[at[a]] @ vecs[at[b]]) for a, b, _, _ in pairs]


class Rows:
    """Feature rows: the dense part as a matrix, the hashed buckets as (row, bucket)
    pairs (a few dozen of a thousand are set per row: kept sparse, so a fit takes
    seconds on a busy machine)."""

    def __init__(self, dense: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> None:
        self.dense, self.rows, self.cols = dense, rows, cols

    def __len__(self) -> int:
        return len(self.dense)

    def take(self, mask: np.ndarray) -> Rows:
        keep = mask[self.rows]
        renumber = np.cumsum(mask) - 1
        return Rows(self.dense[mask], renumber[self.rows[keep]], self.cols[keep])

    def logits(self, w: np.ndarray) -> np.ndarray:
        width = self.dense.shape[1]
        out = self.dense @ w[:, :width].T
        wb = w[:, width:]
        for k in range(w.shape[0]):
            out[:, k] += np.bincount(self.rows, weights=wb[k, self.cols], minlength=len(self))
        return out

    def gradient(self, g: np.ndarray) -> np.ndarray:
        """g (rows x classes) back onto the weights (classes x features)."""
        width = self.dense.shape[1]
        out = np.zeros((g.shape[1], width + judge.BUCKETS))
        out[:, :width] = g.T @ self.dense
        for k in range(g.shape[1]):
            out[k, width:] = np.bincount(
                self.cols, weights=g[self.rows, k], minlength=judge.BUCKETS
            )
        return out


def matrix(pairs: list[Pair], embed: bool) -> Rows:
    """The features of `pairs`; `embed`: with the embedder's cosine (the weights used
    when one is loaded)."""
    cos = cosines(pairs) if embed else None
    dense = np.zeros((len(pairs), judge._DENSE))
    rows: list[int] = []
    cols: list[int] = []
    for i, (old, new, _, _) in enumerate(pairs):
        d, words = judge.features(old, new, cos[i] if cos is not None else None)
        dense[i] = d
        rows += [i] * len(words)
        cols += words
    return Rows(dense, np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64))


def fit(x: Rows, y: np.ndarray, *, l2: float = 1e-3, steps: int = 1500) -> np.ndarray:
    """Class-balanced multinomial logistic regression by full-batch gradient descent
    (Adam)."""
    k = len(judge.CLASSES)
    counts = np.bincount(y, minlength=k).astype(float)
    sample_w = (len(y) / (k * np.maximum(counts, 1)))[y]
    onehot = np.eye(k)[y]
    w = np.zeros((k, x.dense.shape[1] + judge.BUCKETS))
    m, v = np.zeros_like(w), np.zeros_like(w)
    lr, b1, b2 = 0.05, 0.9, 0.999
    for t in range(1, steps + 1):
        p = _softmax(x.logits(w))
        grad = x.gradient((p - onehot) * sample_w[:, None]) / len(y) + l2 * w
        grad[:, 0] -= l2 * w[:, 0]  # the bias is not shrunk
        m = b1 * m + (1 - b1) * grad
        v = b2 * v + (1 - b2) * grad**2
        w -= lr * (m / (1 - b1**t)) / (np.sqrt(v / (1 - b2**t)) + 1e-8)
    return w


def _softmax(logits: np.ndarray) -> np.ndarray:
    logits = logits - logits.max(1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(1, keepdims=True)


def predict(w: np.ndarray, x: Rows) -> np.ndarray:
    return _softmax(x.logits(w))


def report(name: str, p: np.ndarray, y: np.ndarray, sure: float, ask: float) -> str:
    ch, di, rep = (y == 0), (y == 1), (y == 2)
    caught = (p[ch, 0] >= sure).sum()
    asked = ((p[ch, 0] >= ask) & (p[ch, 0] < sure)).sum()
    touched = (p[di, 0] >= sure).sum()
    refused = ((p[di, 0] >= ask) & (p[di, 0] < sure)).sum()
    dup = (p[rep, 2] >= sure).sum()
    false_dup = (p[di, 2] >= sure).sum()
    return (
        f"{name:<14} changes {caught}+{asked}/{ch.sum()}  distinct touched {touched}, "
        f"asked {refused}/{di.sum()}  repeats {dup}/{rep.sum()}  false repeats {false_dup}"
    )


def cross_validate(pairs: list[Pair], x: Rows, y: np.ndarray, sure: float,
                   ask: float, say: Callable[[str], None]) -> None:  # fmt: skip
    groups = np.array([p[3] for p in pairs])
    probs = np.zeros((len(pairs), len(judge.CLASSES)))
    for g in sorted(set(groups)):
        held = groups == g
        w = fit(x.take(~held), y[~held])
        probs[held] = predict(w, x.take(held))
    for g in sorted(set(groups)):
        held = groups == g
        say(report(g, probs[held], y[held], sure, ask))
    say(report("ALL", probs, y, sure, ask))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cv", action="store_true", help="Cross-validate only.")
    parser.add_argument("--sure", type=float, default=0.85)
    parser.add_argument("--ask", type=float, default=0.6)
    parser.add_argument("--kinds", default="words,embed")
    parser.add_argument("--exclude", default="", help="Groups left out (comma-separated).")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    left_out = set(filter(None, args.exclude.split(",")))
    every = probe_pairs() + file_pairs() + dev_set_pairs()
    pairs = [p for p in every if p[3] not in left_out]
    held = [p for p in every if p[3] in left_out]
    y = np.array([LABEL[p[2]] for p in pairs])
    print(f"{len(pairs)} pairs: {dict(zip(judge.CLASSES, np.bincount(y), strict=True))}")
    out: dict[str, Any] = {}
    for kind in args.kinds.split(","):
        x = matrix(pairs, kind == "embed")
        print(f"== {kind}")
        if args.cv:
            cross_validate(pairs, x, y, args.sure, args.ask, print)
            continue
        w = fit(x, y)
        out[kind] = [[round(float(v), 4) for v in row] for row in w]
        if held:  # how the pairs left out read to weights that never saw them
            probs = predict(w, matrix(held, kind == "embed"))
            truth = np.array([LABEL[p[2]] for p in held])
            for group in sorted(left_out):
                mine = np.array([p[3] == group for p in held])
                print(report(group, probs[mine], truth[mine], args.sure, args.ask))
    if out:
        args.out.write_text(json.dumps(out, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
