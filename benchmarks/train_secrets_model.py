"""Train the secret model of `remem.secrets_model`, write src/remem/secrets_model.json.

    .venv/bin/python benchmarks/train_secrets_model.py --cv      # cross-validation only
    .venv/bin/python benchmarks/train_secrets_model.py           # --cv, then train and write
    .venv/bin/python benchmarks/train_secrets_model.py --out /tmp/m.json   # ... elsewhere

The texts (benchmarks/data):
- secrets: secrets*.txt and the blind sets' secrets_hN.txt, h1-h61 (SETS);
- benign: benign*.txt, contacts.txt (a contact is allowed at an explicit save) and the
  blind sets' benign_hN.txt, h1-h61;
- ordinary: every text of the truth sets (truth_*/*.json, truth_probes.json), the
  extraction dev set and the other corpora that hold no secret (commands, paths,
  injections), minus the few the rules flag (wifi passwords and door codes said in a
  truth chain: secrets, not ordinary). ~85,000 of them: together they weigh as much as
  the benign corpora, so they do not swamp them.
The check set h62 (CHECK) is never trained on, nor kept among the ordinary texts: after
training, its figures at the shipped threshold are printed, a report and no tuner.

Class-balanced (the secrets weigh as much as all the rest), L2, full-batch Adam over a
sparse design matrix in numpy (no scipy); each text's n-grams are read once for every
fit. `--cv` leaves out FOLDS blocks of contiguous sets in turn (h1-h8, h9-h16, ...,
h55-h61: their secrets and their benign), with a random ORDINARY_TEST share of the
ordinary texts held out (fixed seed), and finds per fold the lowest threshold that keeps
the model's false positives <= MAX_FP of the left-out benign and of the held-out
ordinary texts; the threshold written is the highest of those, so every fold keeps the
bound (`remem.secrets_model` flags at max(it, FLOOR)). It prints, per fold, rules alone /
model alone / rules or model (found, flagged) and the rules' misses the model catches,
at each fold's own threshold, the chosen one and FLOOR. Nine fits of ~100 s: 14-17 min on
the shared two-core box.

The shipped file is NOT from this version's data: it was trained on h1-h6 (700926d,
leave-one-of-six-out, 0.8323). Trained here on h1-h61 (session 41), the model was not
shipped: see the comment above FLOOR in `remem.secrets_model` for both models' figures.
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
from remem.secrets_model import DENSE, FLOOR, dense, grams  # noqa: E402

DATA = HERE / "data"
HELD = DATA / "secrets_heldout"
SETS = tuple(f"h{n}" for n in range(1, 62))  # the blind sets trained on: h1-h61
CHECK = "h62"  # never trained or tuned on: its figures are reported, nothing more
FOLDS = 8  # cross-validation leaves out blocks of contiguous sets, not one set a fold
OUT = HERE.parent / "src" / "remem" / "secrets_model.json"
SEED = 29
ORDINARY_TEST = 0.2
MAX_FP = 0.005
L2 = 1e-5
STEPS = 400
MIN_DF = 2  # an n-gram in one training text only is not kept
# smaller weights are not shipped: trained on h1-h61, 0.05 kept 58k n-grams (770 KB),
# 0.1 keeps 32k (420 KB) and the cv's figures move by 0-3 secrets of 1,153 at 0.9-0.95
PRUNE = 0.1
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
    """name -> texts: "secrets", "benign", "ordinary", and "secrets_hN" / "benign_hN" (the
    check set's too: read for its report, and kept out of the ordinary texts)."""
    out = {
        "secrets": [t for p in sorted(DATA.glob("secrets*.txt")) for t in lines(p)],
        "benign": [t for p in sorted(DATA.glob("benign*.txt")) for t in lines(p)]
        + lines(DATA / "contacts.txt"),
    }
    for name in (*SETS, CHECK):
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


class Grams:
    """Every text's n-grams as ids into one index, read once (a fold keeps its own
    vocabulary: the n-grams of two or more of its training texts)."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}
        self.ids: dict[str, np.ndarray] = {}

    def of(self, text: str) -> np.ndarray:
        if text not in self.ids:
            index = self.index
            found = [index.setdefault(g, len(index)) for g in grams(text)]
            self.ids[text] = np.array(sorted(found), dtype=np.int64)
        return self.ids[text]


class Design:
    """The sparse design matrix of a list of texts over the n-grams of two or more of them
    (MIN_DF), with the dense features."""

    def __init__(self, texts: list[str], table: Grams) -> None:
        ids = [table.of(t) for t in texts]
        sizes = np.array([len(i) for i in ids])
        every = np.concatenate(ids)
        counts = np.bincount(every, minlength=len(table.index))
        names = sorted(g for g, i in table.index.items() if counts[i] >= MIN_DF)
        local = np.full(len(table.index), -1)
        local[[table.index[g] for g in names]] = np.arange(len(names))
        rows = np.repeat(np.arange(len(texts)), sizes)
        cols = local[every]
        kept = cols >= 0
        self.rows, self.cols = rows[kept], cols[kept]
        self.scale = 1.0 / np.sqrt(np.maximum(sizes, 1))  # what the model divides by too
        self.dense = np.array([dense(t) for t in texts], dtype=np.float64)
        self.names = names
        self.n, self.width = len(texts), len(names)

    def scores(self, w: np.ndarray, d: np.ndarray, b: float) -> np.ndarray:
        sparse = np.bincount(self.rows, weights=w[self.cols], minlength=self.n) * self.scale
        return np.asarray(sparse + self.dense @ d + b)

    def back(self, r: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
        rs = r * self.scale
        gw = np.bincount(self.cols, weights=rs[self.rows], minlength=self.width)
        return gw, self.dense.T @ r, float(r.sum())


def fit(pos: list[str], neg: list[str], ordinary: list[str], table: Grams) -> dict[str, Any]:
    """Logistic regression: the secrets weigh as much as benign plus ordinary texts, and
    the ordinary ones together as much as the benign ones."""
    x = Design(pos + neg + ordinary, table)
    y = np.array([1.0] * len(pos) + [0.0] * (len(neg) + len(ordinary)))
    sw = np.concatenate([np.full(len(pos), 2.0 / len(pos)), np.full(len(neg), 1.0 / len(neg)),
                         np.full(len(ordinary), 1.0 / len(ordinary))])  # fmt: skip
    sw /= sw.sum()
    params = [np.zeros(x.width), np.zeros(DENSE), np.zeros(1)]
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
    weights = {g: round(float(w), 3) for g, w in zip(x.names, params[0], strict=True)}
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


def blocks() -> list[tuple[str, ...]]:
    """SETS in FOLDS blocks of contiguous sets (h1-h8, h9-h16, ...)."""
    cuts = np.array_split(np.arange(len(SETS)), FOLDS)
    return [tuple(SETS[i] for i in cut) for cut in cuts]


def cross_validate(data: dict[str, list[str]], table: Grams) -> tuple[float, list[dict[str, Any]]]:
    train_ord, test_ord = split(data["ordinary"])
    rules = {
        t: rules_flag(t) for s in SETS for k in ("secrets", "benign") for t in data[f"{k}_{s}"]
    }
    folds: list[dict[str, Any]] = []
    for block in blocks():
        started = time.time()
        rest = [s for s in SETS if s not in block]
        pos = data["secrets"] + [t for s in rest for t in data[f"secrets_{s}"]]
        neg = data["benign"] + [t for s in rest for t in data[f"benign_{s}"]]
        model = fit(pos, neg, train_ord, table)
        secrets = [t for s in block for t in data[f"secrets_{s}"]]
        benign = [t for s in block for t in data[f"benign_{s}"]]
        fold = {
            "set": f"{block[0]}-{block[-1]}",
            "p_secret": predict(model, secrets),
            "p_benign": predict(model, benign),
            "p_ordinary": predict(model, test_ord),
            "rules_secret": np.array([rules[t] for t in secrets]),
            "rules_benign": np.array([rules[t] for t in benign]),
            "secrets": secrets,
            "benign": benign,
        }
        fold["threshold"] = lowest_threshold(fold["p_benign"], fold["p_ordinary"])
        folds.append(fold)
        print(f"fold {fold['set']}: {time.time() - started:.0f} s", flush=True)
    return max(f["threshold"] for f in folds), folds


def line(name: str, t: float, p: dict[str, np.ndarray], rules: dict[str, np.ndarray]) -> str:
    """rules alone / model alone / rules or model, and the rules' misses the model catches."""
    ms, mb = p["secret"] >= t, p["benign"] >= t
    rs, rb = rules["secret"], rules["benign"]
    n, m = len(rs), len(rb)
    text = (
        f"{name} t={t:.4f}  rules {rs.sum()}/{n} flag {rb.sum()}/{m} | model {ms.sum()}/{n} "
        f"flag {mb.sum()}/{m}"
    )
    if "ordinary" in p:
        text += f" ordinary {(p['ordinary'] >= t).sum()}/{len(p['ordinary'])}"
    return text + (
        f" | rules|model {(rs | ms).sum()}/{n} flag {(rb | mb).sum()}/{m} | of the rules' "
        f"misses the model catches {(ms & ~rs).sum()}/{(~rs).sum()}"
    )


def report(chosen: float, folds: list[dict[str, Any]]) -> str:
    out = [
        f"{len(folds)} folds, each leaves a block of sets out; model flags p >= threshold; FP "
        f"bound {MAX_FP:.1%} of the left-out benign and of the held-out ordinary texts"
    ]
    picks = [("per fold (oracle)", None), (f"chosen {chosen:.4f}", chosen)]
    if FLOOR > chosen:
        picks.append((f"shipped max(chosen, FLOOR) {FLOOR}", FLOOR))
    for label, pick in picks:
        out.append(f"-- threshold: {label}")
        for f in folds:
            p = {k: f[f"p_{k}"] for k in ("secret", "benign", "ordinary")}
            rules = {"secret": f["rules_secret"], "benign": f["rules_benign"]}
            out.append(line(f["set"], f["threshold"] if pick is None else pick, p, rules))
    shipped = max(chosen, FLOOR)
    for f in folds:
        ms = f["p_secret"] >= shipped
        caught = [s for s, m, r in zip(f["secrets"], ms, f["rules_secret"], strict=True)
                  if m and not r]  # fmt: skip
        flagged = [s for s, p in zip(f["benign"], f["p_benign"], strict=True) if p >= shipped]
        out += [f"  {f['set']} caught: {s}" for s in caught]
        out += [f"  {f['set']} benign flagged: {s}" for s in flagged]
    return "\n".join(out)


def check(model: dict[str, Any], data: dict[str, list[str]]) -> str:
    """The check set, never trained on, at the shipped threshold: a report, not a tuner."""
    secrets, benign = data[f"secrets_{CHECK}"], data[f"benign_{CHECK}"]
    p = {"secret": predict(model, secrets), "benign": predict(model, benign)}
    rules = {"secret": np.array([rules_flag(t) for t in secrets]),
             "benign": np.array([rules_flag(t) for t in benign])}  # fmt: skip
    return line(CHECK, max(model["threshold"], FLOOR), p, rules)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cv", action="store_true", help="cross-validation only")
    parser.add_argument("--out", type=Path, default=OUT, help=f"where to write ({OUT.name})")
    args = parser.parse_args()
    started = time.time()
    data = corpora()
    sizes = {k: len(v) for k, v in data.items() if not k[-1].isdigit()}
    print(f"texts: {sizes}; sets {SETS[0]}-{SETS[-1]} x 2 x 200; check set {CHECK}")
    table = Grams()
    chosen, folds = cross_validate(data, table)
    print(report(chosen, folds))
    print(f"({time.time() - started:.0f} s)")
    if args.cv:
        return
    pos = data["secrets"] + [t for s in SETS for t in data[f"secrets_{s}"]]
    neg = data["benign"] + [t for s in SETS for t in data[f"benign_{s}"]]
    model = fit(pos, neg, data["ordinary"], table)
    model["threshold"] = round(chosen, 4)
    model["about"] = "remem secret model: benchmarks/train_secrets_model.py; n-gram -> weight"
    print(check(model, data))
    text = json.dumps(model, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    args.out.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({len(text) // 1024} KB, {len(model['grams'])} n-grams; "
          f"{time.time() - started:.0f} s)")  # fmt: skip


if __name__ == "__main__":
    main()
