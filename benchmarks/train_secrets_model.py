"""Train the secret model of `remem.secrets_model`, write src/remem/secrets_model.json.

    .venv/bin/python benchmarks/train_secrets_model.py --cv      # leave each blind set out
    .venv/bin/python benchmarks/train_secrets_model.py           # --cv, then train and write

The texts (benchmarks/data):
- secrets: secrets*.txt and secrets_heldout/secrets_h*.txt;
- benign: benign*.txt, contacts.txt (a contact is allowed at an explicit save) and
  secrets_heldout/benign_h*.txt;
- ordinary: every text of the truth sets (truth_*/*.json, truth_probes.json), the
  extraction dev set and the other corpora that hold no secret (commands, paths,
  injections), minus the few the rules flag (wifi passwords and door codes said in a
  truth chain: secrets, not ordinary). Thousands of them: together they weigh as much as
  the benign corpora, so they do not swamp them.

Class-balanced (the secrets weigh as much as all the rest), L2, full-batch Adam over a
sparse design matrix in numpy (no scipy). `--cv` leaves each blind set h1..h6 out in
turn (its secrets and its benign), with a random ORDINARY_TEST share of the ordinary
texts held out (fixed seed), and finds per fold the lowest threshold that keeps the
model's false positives <= MAX_FP of the left-out benign and of the held-out ordinary
texts; the shipped threshold is the highest of those, so every fold keeps the bound.
It prints, per fold, rules alone / model alone / rules or model (found, flagged).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))  # this tree's remem, not the installed one

from remem.secrets import find_secrets  # noqa: E402
from remem.secrets_model import DENSE, dense, grams  # noqa: E402

DATA = HERE / "data"
HELD = DATA / "secrets_heldout"
SETS = ("h1", "h2", "h3", "h4", "h5", "h6")
OUT = HERE.parent / "src" / "remem" / "secrets_model.json"
SEED = 29
ORDINARY_TEST = 0.2
MAX_FP = 0.005
L2 = 1e-5
STEPS = 400
MIN_DF = 2  # an n-gram in one training text only is not kept
PRUNE = 0.05  # smaller weights are not shipped (the file stays a few hundred KB)
SKIP_KEYS = {"about", "kind", "lang", "label", "id", "expect", "forbid"}
NOT_SECRET = ("local_commands.txt", "fetching_commands.txt", "instruction_paths.txt",
              "injections.txt", "planted_memories.txt")  # fmt: skip


def lines(path: Path) -> list[str]:
    rows = path.read_text(encoding="utf-8").splitlines()
    return list(dict.fromkeys(r.strip() for r in rows if r.strip() and not r.startswith("#")))


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in SKIP_KEYS:
                yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, str) and len(value) >= 6:
        yield value


def rules_flag(text: str) -> bool:
    return bool(find_secrets(text, contacts=False, model=False))


def corpora() -> dict[str, list[str]]:
    """name -> texts: "secrets", "benign", "ordinary", and "secrets_hN" / "benign_hN"."""
    out = {
        "secrets": [t for p in sorted(DATA.glob("secrets*.txt")) for t in lines(p)],
        "benign": [t for p in sorted(DATA.glob("benign*.txt")) for t in lines(p)]
        + lines(DATA / "contacts.txt"),
    }
    for name in SETS:
        out[f"secrets_{name}"] = lines(HELD / f"secrets_{name}.txt")
        out[f"benign_{name}"] = lines(HELD / f"benign_{name}.txt")
    ordinary: list[str] = []
    for path in sorted(DATA.glob("truth_*/*.json")) + [DATA / "truth_probes.json"]:
        ordinary += _strings(json.loads(path.read_text(encoding="utf-8")))
    for row in (DATA / "extraction_dev.jsonl").read_text(encoding="utf-8").splitlines():
        ordinary.append(json.loads(row)["input"])
    for name in NOT_SECRET:
        ordinary += lines(DATA / name)
    known = {t for texts in out.values() for t in texts}
    ordinary = sorted({t for t in ordinary if t not in known})
    out["ordinary"] = [t for t in ordinary if not rules_flag(t)]
    return out


class Design:
    """The sparse design matrix of a list of texts over a fixed n-gram vocabulary."""

    def __init__(self, texts: list[str], vocab: dict[str, int]) -> None:
        rows: list[int] = []
        cols: list[int] = []
        vals: list[float] = []
        self.dense = np.array([dense(t) for t in texts], dtype=np.float64)
        for i, text in enumerate(texts):
            found = grams(text)
            scale = 1.0 / np.sqrt(len(found) or 1)  # what the model divides by too
            kept = [vocab[g] for g in found if g in vocab]
            rows += [i] * len(kept)
            cols += kept
            vals += [scale] * len(kept)
        self.rows, self.cols = np.array(rows), np.array(cols)
        self.vals = np.array(vals)
        self.n, self.width = len(texts), len(vocab)

    def scores(self, w: np.ndarray, d: np.ndarray, b: float) -> np.ndarray:
        sparse = np.bincount(self.rows, weights=self.vals * w[self.cols], minlength=self.n)
        return np.asarray(sparse + self.dense @ d + b)

    def back(self, r: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
        gw = np.bincount(self.cols, weights=self.vals * r[self.rows], minlength=self.width)
        return gw, self.dense.T @ r, float(r.sum())


def vocabulary(texts: list[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for text in texts:
        for g in grams(text):
            counts[g] = counts.get(g, 0) + 1
    kept = sorted(g for g, c in counts.items() if c >= MIN_DF)
    return {g: i for i, g in enumerate(kept)}


def fit(pos: list[str], neg: list[str], ordinary: list[str]) -> dict[str, Any]:
    """Logistic regression: the secrets weigh as much as benign plus ordinary texts, and
    the ordinary ones together as much as the benign ones."""
    texts = pos + neg + ordinary
    vocab = vocabulary(texts)
    x = Design(texts, vocab)
    y = np.array([1.0] * len(pos) + [0.0] * (len(neg) + len(ordinary)))
    sw = np.concatenate([np.full(len(pos), 2.0 / len(pos)), np.full(len(neg), 1.0 / len(neg)),
                         np.full(len(ordinary), 1.0 / len(ordinary))])  # fmt: skip
    sw /= sw.sum()
    params = [np.zeros(len(vocab)), np.zeros(DENSE), np.zeros(1)]
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
    for step in range(1, STEPS + 1):
        z = x.scores(params[0], params[1], float(params[2][0]))
        r = (1.0 / (1.0 + np.exp(-z)) - y) * sw
        gw, gd, gb = x.back(r)
        grads = [gw + L2 * params[0], gd + L2 * params[1], np.array([gb])]
        for p, g, (m, v) in zip(params, grads, moments, strict=True):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            p -= 0.05 * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    names = sorted(vocab, key=vocab.__getitem__)
    weights = {g: round(float(w), 3) for g, w in zip(names, params[0], strict=True)}
    return {
        "grams": {g: w for g, w in weights.items() if abs(w) >= PRUNE},
        "dense": [round(float(v), 4) for v in params[1]],
        "bias": round(float(params[2][0]), 4),
    }


def predict(model: dict[str, Any], texts: list[str]) -> np.ndarray:
    from remem.secrets_model import _Model

    m = _Model({**model, "threshold": 0.5})
    return np.array([m.probability(t) for t in texts])


def lowest_threshold(*benign: np.ndarray) -> float:
    """The lowest threshold at which each benign set's flagged share is <= MAX_FP."""
    need = 0.0
    for p in benign:
        allowed = int(MAX_FP * len(p))
        ranked = np.sort(p)[::-1]
        if allowed < len(ranked):  # flag strictly above the (allowed+1)-th highest
            need = max(need, float(np.nextafter(ranked[allowed], 1.0)))
    return need


def split(ordinary: list[str]) -> tuple[list[str], list[str]]:
    shuffled = list(ordinary)
    random.Random(SEED).shuffle(shuffled)
    cut = int(len(shuffled) * ORDINARY_TEST)
    return shuffled[cut:], shuffled[:cut]


def cross_validate(data: dict[str, list[str]]) -> tuple[float, list[dict[str, Any]]]:
    train_ord, test_ord = split(data["ordinary"])
    folds: list[dict[str, Any]] = []
    for out in SETS:
        pos = data["secrets"] + [t for s in SETS if s != out for t in data[f"secrets_{s}"]]
        neg = data["benign"] + [t for s in SETS if s != out for t in data[f"benign_{s}"]]
        model = fit(pos, neg, train_ord)
        secrets, benign = data[f"secrets_{out}"], data[f"benign_{out}"]
        fold = {
            "set": out,
            "p_secret": predict(model, secrets),
            "p_benign": predict(model, benign),
            "p_ordinary": predict(model, test_ord),
            "rules_secret": np.array([rules_flag(t) for t in secrets]),
            "rules_benign": np.array([rules_flag(t) for t in benign]),
            "secrets": secrets,
            "benign": benign,
        }
        fold["threshold"] = lowest_threshold(fold["p_benign"], fold["p_ordinary"])
        folds.append(fold)
    return max(f["threshold"] for f in folds), folds


def report(chosen: float, folds: list[dict[str, Any]], ordinary_n: int) -> str:
    out = [f"leave-one-set-out; model flags p >= threshold; FP bound {MAX_FP:.1%}",
           f"ordinary held-out texts: {ordinary_n}"]  # fmt: skip
    for label, pick in (("own", None), ("chosen", chosen)):
        out.append(f"-- threshold: {'per fold (oracle)' if pick is None else f'{pick:.4f}'}")
        for f in folds:
            t = f["threshold"] if pick is None else pick
            ms, mb = f["p_secret"] >= t, f["p_benign"] >= t
            rs, rb = f["rules_secret"], f["rules_benign"]
            mo = int((f["p_ordinary"] >= t).sum())
            out.append(
                f"{f['set']} t={t:.4f}  rules {rs.sum()}/200 flag {rb.sum()}/200 | model "
                f"{ms.sum()}/200 flag {mb.sum()}/200 ordinary {mo}/{ordinary_n} | rules|model "
                f"{(rs | ms).sum()}/200 flag {(rb | mb).sum()}/200 | of the rules' misses "
                f"the model catches {(ms & ~rs).sum()}/{(~rs).sum()}"
            )
        if label == "chosen":
            for f in folds:
                ms = f["p_secret"] >= chosen
                caught = [s for s, m, r in zip(f["secrets"], ms, f["rules_secret"], strict=True)
                          if m and not r]  # fmt: skip
                flagged = [
                    s for s, p in zip(f["benign"], f["p_benign"], strict=True) if p >= chosen
                ]
                out += [f"  {f['set']} caught: {s}" for s in caught]
                out += [f"  {f['set']} benign flagged: {s}" for s in flagged]
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cv", action="store_true", help="leave-one-set-out only")
    args = parser.parse_args()
    started = time.time()
    data = corpora()
    sizes = {k: len(v) for k, v in data.items()}
    print(f"texts: {sizes}")
    chosen, folds = cross_validate(data)
    print(report(chosen, folds, len(folds[0]["p_ordinary"])))
    print(f"({time.time() - started:.0f} s)")
    if args.cv:
        return
    pos = data["secrets"] + [t for s in SETS for t in data[f"secrets_{s}"]]
    neg = data["benign"] + [t for s in SETS for t in data[f"benign_{s}"]]
    model = fit(pos, neg, data["ordinary"])
    model["threshold"] = round(chosen, 4)
    model["about"] = "remem secret model: benchmarks/train_secrets_model.py; n-gram -> weight"
    text = json.dumps(model, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    OUT.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(text) // 1024} KB, {len(model['grams'])} n-grams)")


if __name__ == "__main__":
    main()
