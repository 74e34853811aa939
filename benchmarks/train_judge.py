"""Train the pair judges of `remem.truth.judge`, write src/remem/truth/judge-<kind>.json.

    .venv/bin/python benchmarks/train_judge.py            # train the embed and vectors judges
    .venv/bin/python benchmarks/train_judge.py --cv       # leave each dev set out in turn

The pairs (old memory, new text, label) come from:
- benchmarks/data/truth_probes.json: each later version of a chain against the one
  before (change), look-alikes (distinct), a look-alike against the later versions of
  the chain its twin starts (distinct: the crossings), repeats (repeat), and, within a
  set, a version against the first version of another chain sharing the most words
  with it (distinct: what the store's lookup brings up);
- benchmarks/data/truth_train/*.json, written by people who never read the rules:
  labelled pairs ({"pairs": [{"old", "new", "label", "kind", "lang"}]}) or sets shaped
  like the held-out ones (read as those are);
- the held-out sets that have had their blind measurement (DEV_SETS, named one by one):
  each later step against the one before (change), against the texts of the set one
  store holding it would find for it (`HARD` nearest by words and by cosine: distinct),
  look-alikes (distinct) and repeats. The newest blind set is never read here.

The shipped judges are this script's default run, each kind by its recipe (`RECIPES`).
"words" (session 41): h1-h50, truth_train_a-z and the probes (103,451 pairs: 17,147
changes, 81,944 distinct, 4,360 repeats), every feature. On the pairs of h51-h54 (never
trained on; 780 changes, 4,069 distinct, 200 repeats) against session 30's judge, at the
thresholds a save uses: 0.75 reads 413 changes and 137 distinct pairs (before 371 / 126),
0.88 231 / 36 (191 / 41), 0.97 48 / 3 (29 / 2); repeats at 0.82 112 (106), the others
the same. End to end (`bench_heldout.py`, keyword, a store a chain, this session's rules
either way, asking at 0.77 / 0.72 for 0.75 / 0.71: the same share of distinct pairs)
h51-h54 handled 553 -> 560 of 780; the probes caught 1,122 of 1,237 either way, refused
5 -> 7 of 550, and asked 8 more times about a look-alike after a change of its twin
(48 -> 56 of 478, all questions, none replaced). It took ~70 min on the two shared cores.
"embed" and "vectors" (session 43, trained in session 42): the same pairs and features
(24 min alone on the two cores: the features are read once for both). On the pairs of
h51-h56 (never trained on; 1,170 changes, 6,032 distinct, 300 repeats) their mean against
session 20's, the thresholds a save uses: 0.7 reads 721 changes and 165 distinct pairs
(before 597 / 194), 0.9 390 / 32 (248 / 34), 0.97 133 / 8 (73 / 6); repeats at 0.85 203
and 10 others (177 / 34). End to end (`bench_heldout.py --modes embedder`, a store a
chain, thresholds unchanged) h51-h56 handled 920 -> 965 of 1,170, superseded without
asking 332 -> 388, current-first 640 -> 663 of 780, as_of 1,048 -> 1,063, repeats 125 ->
138 of 300, refused 13 -> 14 of 420, look-alike questions 800 -> 799 of 840, touched 0;
but the probes' look-alikes asked after a twin's change 51 -> 80 of 478: shipped with the
bars of `truth.verdicts` raised where they read fewer of h51-h56's distinct pairs than the
judges before (941 handled, the probes' 69).
"words" before (session 30): h1-h28, truth_train_a-w and the probes (72,442 pairs).
On h29-h32's pairs (never trained on) it reads as many distinct pairs as session 28's
(h1-h20, a-s) at each threshold and 1-5% more changes; end to end (`bench_heldout.py
--mixed --unforced`, keyword-only), the thresholds unchanged and this session's rules
either way, changes handled 481 -> 488 of 777. Session 28's against session 20's, on
h21-h27: 773 -> 800 of 1,363. "embed" and "vectors" before (session 20): h1-h10 and
truth_train_a-o, the first 40 features. Retrained the same way in session 27 (h1-h20,
a-s) they read more changes with the embedder (h21-h26 822 -> 843) but broke examples the
tests hold; in session 30 (h1-h28, a-w: branch `judges30`) h29-h32 577 -> 599 with USE,
asked about a wrong memory in one store 53 -> 41, but on the probes look-alikes touched
by the other's change 49 -> 69 of 478, refused 2 -> 8: not shipped either.
Session 22 added p-s (640 chains by four blind writers) and trained on h1-h15
with them (`--dev 15 --upto s`), h16 and h17 held out. On their pairs, at the
thresholds a save uses, the embed and vectors judges' mean at 0.7 read 91 / 76 of 195
changes and 21 / 22 of 932 / 1,000 distinct pairs before, 97 / 78 and 18 / 21 after;
the words judge 70 / 68 and 19 / 25 before, 75 / 79 and 20 / 23 after. End to end
(`bench_heldout.py`): h16 keyword 77 -> 85 changes handled, USE 115 -> 119; h17 76 -> 76
and 106 -> 105. Not shipped: on examples the tests hold, they asked about a look-alike
("My flight to Tokyo departs March 14." / "My return flight departs March 22.", 0.77;
two services' max heaps, 0.83), superseded one of MADial's stories by another a week
apart without asking, and read a diary's two carousel rides a repeat (0.97); wider
networks (64 units, 1,000 steps) read no more changes (the embed judge at 0.8 on h16 /
h17: 57 / 50 -> 56 / 45). More writers' data moved session 20's judges further: on h11's
pairs, at 2% of the look-alikes a store finds for a step, the embed and vectors judges'
mean read 72 of 195 changes before f-o and 92 with them; the aligned features
(`judge._aligned`) then 89 -> 97 (h12: 85 -> 88); the words judge 18 before f-o, 57 with
them, 65 with the aligned features (h12: 44 -> 58).

Each judge is an ensemble of MEMBERS small networks (one hidden layer of HIDDEN ReLU
units, class-balanced, L2, full-batch Adam in numpy). "words" reads the hand-made
features and the hashed words; "embed" adds the embedder's cosine; "vectors" reads the
hand-made features, the cosine and the shipped embedder's vectors of both texts
(`judge.pair_vector`), and no hashed words (they made it worse on every dev set). A
logistic regression over the same features (the judge before) caught about half as
many of a dev set's changes at the same look-alikes. `--cv` leaves each dev set out in
turn and prints how the thresholds would act on it.
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
import tempfile
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
# Blind once, measured, now development data. truth_h11 is the set the shipped judges'
# thresholds were chosen on (never trained on)
DEV_SETS = tuple(f"truth_h{i}" for i in range(1, 11))
# How each shipped judge was trained: the dev sets truth_h1 .. truth_hN, the lettered
# training sets truth_train_a .. truth_train_<letter> (the narratives always), and how
# many of `judge.features` it reads (the first N)
RECIPES = {kind: (50, "z", judge._DENSE) for kind in ("words", "embed", "vectors")}
OUT = ROOT.parent / "src" / "remem" / "truth"  # judge-<kind>.json
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


HARD = 3  # look-alikes of a step a set's store would find, by words and by meaning each


def chain_pairs(data: dict[str, Any], group: str) -> list[Pair]:
    """The pairs of a set shaped like the held-out sets: each later step against the one
    before (change) and against the `HARD` texts of other chains, look-alikes, repeats
    and fillers nearest it by words and the `HARD` nearest by the embedder's cosine
    (distinct: what one store holding the whole set finds for it, where a judge trained
    only on a chain's own steps asked about the wrong memory), look-alikes (distinct)
    and repeats."""
    out: list[Pair] = []
    chains = [[step["text"] for step in chain["steps"]] for chain in data["chains"]]
    others = [p[k] for p in (*data["look_alikes"], *data["repeats"]) for k in ("a", "b")]
    pool = [t for steps in chains for t in steps] + others + data["fillers"]
    near = _Nearest(pool)
    for steps in chains:
        for before, after in zip(steps, steps[1:], strict=False):
            out.append((before, after, "change", group))
            out += [(o, after, "distinct", group) for o in near.of(after, set(steps))]
    out += [(p["a"], p["b"], "distinct", group) for p in data["look_alikes"]]
    out += [(p["a"], p["b"], "repeat", group) for p in data["repeats"]]
    return out


class _Nearest:
    """The texts of a pool nearest a text by word overlap and by cosine."""

    def __init__(self, pool: list[str]) -> None:
        self.pool = list(dict.fromkeys(pool))
        self.words = [set(text.terms(t)) for t in self.pool]
        self.vectors = _cached_vectors(self.pool) if HARD else None

    def of(self, new: str, own: set[str]) -> list[str]:
        if not HARD:
            return []
        mine = set(text.terms(new))
        jac = np.array([len(mine & w) / max(len(mine | w), 1) for w in self.words])
        assert self.vectors is not None
        cos = self.vectors @ self.vectors[self.pool.index(new)]
        skip = np.array([t in own for t in self.pool])
        jac[skip], cos[skip] = -1.0, -2.0
        picked = [i for i in np.argsort(-jac)[:HARD] if jac[i] >= 0.1]
        picked += [i for i in np.argsort(-cos)[:HARD] if i not in picked]
        return [self.pool[i] for i in picked]


def event_pairs(groups: list[dict[str, Any]], group: str, most: int = 2) -> list[Pair]:
    """Each event against the `most` others of its person sharing the most words with
    it (what a store's lookup brings up): distinct."""
    out: list[Pair] = []
    for g in groups:
        events = g["events"]
        words = [set(text.terms(e)) for e in events]
        for i, new in enumerate(events):
            score = [len(words[i] & w) / max(len(words[i] | w), 1) for w in words]
            others = sorted((j for j in range(len(events)) if j != i), key=score.__getitem__)
            others.reverse()
            out += [(events[j], new, "distinct", group) for j in others[:most]]
    return out


def dev_set_pairs(sets: tuple[str, ...]) -> list[Pair]:
    out: list[Pair] = []
    for name in sets:
        out += chain_pairs(json.loads((HELD_OUT / f"{name}.json").read_text("utf-8")), name)
    return out


def file_pairs(upto: str = "z") -> list[Pair]:
    """The training files: labelled pairs, or sets shaped like the held-out ones (the
    lettered sets up to `upto`)."""
    out: list[Pair] = []
    for path in sorted(TRAIN.glob("*.json")):
        letter = path.stem.removeprefix("truth_train_")
        if len(letter) == 1 and letter > upto:
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        if "chains" in data:
            out += chain_pairs(data, path.stem)
            continue
        if "pairs" not in data:  # separate events of one person each: all distinct
            out += event_pairs(data["groups"], path.stem)
            continue
        for p in data["pairs"]:
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
    pairs (a few dozen of a thousand are set per row)."""

    def __init__(self, dense: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> None:
        self.dense, self.rows, self.cols = dense, rows, cols

    def __len__(self) -> int:
        return len(self.dense)

    def onehot(self) -> np.ndarray:
        out = np.zeros((len(self), judge.BUCKETS), np.float32)
        out[self.rows, self.cols] = 1.0
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


HIDDEN = 32  # units of each network
MEMBERS = 3  # networks averaged (one alone is overconfident on what it never saw)


def vector_pairs(pairs: list[Pair]) -> np.ndarray:
    """`judge.pair_vector` of each pair's two texts."""
    texts = sorted({t for p in pairs for t in p[:2]})
    vecs = _cached_vectors(texts)
    at = {t: i for i, t in enumerate(texts)}
    u = vecs[[at[p[0]] for p in pairs]]
    v = vecs[[at[p[1]] for p in pairs]]
    return np.hstack([u * v, np.abs(u - v)]).astype(np.float32)


def fit_net(
    x: Rows, vectors: np.ndarray | None, y: np.ndarray, *, seed: int, buckets: bool,
    l2: float = 1e-3, steps: int = 600,
) -> dict[str, Any]:  # fmt: skip
    """One network (dense features, hashed buckets if `buckets`, the pair vectors if
    given -> HIDDEN ReLU -> classes), class-balanced, full-batch Adam; returned as
    `judge._Net` reads it, the standardisation folded into the first layer."""
    parts = [x.dense] + ([vectors] if vectors is not None else [])
    scaled = np.hstack(parts).astype(np.float32)
    mu, sd = scaled.mean(0), scaled.std(0)
    sd[sd < 1e-3] = 1.0  # a constant column (the bias; the cosine without an embedder)
    mu[0] = 0.0  # the bias column stays 1
    a = (scaled - mu) / sd
    if buckets:
        a = np.hstack([a, x.onehot()])
    rng = np.random.default_rng(seed)
    k, (n, f) = len(judge.CLASSES), a.shape
    params = [
        rng.normal(0, np.sqrt(2 / f), (f, HIDDEN)).astype(np.float32),
        np.zeros(HIDDEN, np.float32),
        rng.normal(0, np.sqrt(1 / HIDDEN), (HIDDEN, k)).astype(np.float32),
        np.zeros(k, np.float32),
    ]
    counts = np.bincount(y, minlength=k).astype(np.float32)
    weight = (n / (k * np.maximum(counts, 1)))[y] / n
    onehot_y = np.eye(k, dtype=np.float32)[y]
    m = [np.zeros_like(q) for q in params]
    v = [np.zeros_like(q) for q in params]
    for t in range(1, steps + 1):
        w1, b1, w2, b2 = params
        h = np.maximum(a @ w1 + b1, 0)
        g = (_softmax(h @ w2 + b2) - onehot_y) * weight[:, None]
        gh = (g @ w2.T) * (h > 0)
        grads = (a.T @ gh + l2 * w1, gh.sum(0), h.T @ g + l2 * w2, g.sum(0))
        for i, grad in enumerate(grads):
            m[i] = 0.9 * m[i] + 0.1 * grad
            v[i] = 0.999 * v[i] + 0.001 * grad * grad
            params[i] -= 0.01 * (m[i] / (1 - 0.9**t)) / (np.sqrt(v[i] / (1 - 0.999**t)) + 1e-8)
    w1, b1, w2, b2 = params
    width = scaled.shape[1]
    folded = w1[:width] / sd[:, None]
    b1 = b1 - (mu / sd) @ w1[:width]
    dense = folded[: x.dense.shape[1]]
    dense[0] += b1  # the bias feature is always 1: the hidden biases live in its row

    def b64(rows: np.ndarray) -> str:
        return base64.b64encode(rows.astype("<f4").tobytes()).decode("ascii")

    return {
        "hidden": HIDDEN,
        "dense": b64(dense),
        "buckets": b64(w1[width:]) if buckets else None,
        "vectors": b64(folded[x.dense.shape[1] :]) if vectors is not None else None,
        "b1": [0.0] * HIDDEN,
        "w2": [[round(float(c), 5) for c in row] for row in w2.T],
        "b2": [round(float(c), 5) for c in b2],
    }


def fit_linear(x: Rows, y: np.ndarray, *, l2: float = 1e-3, steps: int = 1500) -> np.ndarray:
    """A class-balanced multinomial logistic regression over the dense features and the
    buckets (classes x features), full-batch Adam."""
    a = np.hstack([x.dense, x.onehot()])
    k = len(judge.CLASSES)
    counts = np.bincount(y, minlength=k).astype(float)
    weight = (len(y) / (k * np.maximum(counts, 1)))[y] / len(y)
    onehot_y = np.eye(k)[y]
    w = np.zeros((k, a.shape[1]))
    m, v = np.zeros_like(w), np.zeros_like(w)
    for t in range(1, steps + 1):
        grad = ((_softmax(a @ w.T) - onehot_y) * weight[:, None]).T @ a + l2 * w
        grad[:, 0] -= l2 * w[:, 0]  # the bias is not shrunk
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad**2
        w -= 0.05 * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return w


def fit_judge(
    x: Rows, vectors: np.ndarray | None, y: np.ndarray, *, buckets: bool
) -> dict[str, Any]:
    """The ensemble `judge.Judge` reads."""
    members = [fit_net(x, vectors, y, seed=s, buckets=buckets) for s in range(MEMBERS)]
    out: dict[str, Any] = {"members": members}
    if vectors is None:  # the networks on words alone are erratic on plain pairs
        out["linear"] = [[round(float(c), 4) for c in row] for row in fit_linear(x, y)]
    if vectors is not None:
        from remem.retrieval.embedding import USEEmbedder

        out["embedder"] = USEEmbedder.name  # the vectors it was trained on
    return out


def _softmax(logits: np.ndarray) -> np.ndarray:
    logits = logits - logits.max(1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(1, keepdims=True)


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


def predict_judge(raw: dict[str, Any], x: Rows, vectors: np.ndarray | None) -> np.ndarray:
    """What `judge.Judge(raw)` gives each row, computed in numpy."""
    total = np.zeros((len(x), len(judge.CLASSES)))
    for net in raw["members"]:

        def rows(key: str, net: dict[str, Any] = net) -> np.ndarray:
            return np.frombuffer(base64.b64decode(net[key]), "<f4").reshape(-1, net["hidden"])

        width = rows("dense").shape[0]  # a judge trained on fewer features reads those
        h = x.dense[:, :width] @ rows("dense") + np.asarray(net["b1"])
        if net["buckets"]:
            h += x.onehot() @ rows("buckets")
        if net["vectors"]:
            assert vectors is not None
            h += vectors @ rows("vectors")
        h = np.maximum(h, 0)
        total += _softmax(h @ np.asarray(net["w2"]).T + np.asarray(net["b2"]))
    nets = total / len(raw["members"])
    if not raw.get("linear"):
        return nets
    weights = np.asarray(raw["linear"])
    width = weights.shape[1] - judge.BUCKETS
    linear = _softmax(np.hstack([x.dense[:, :width], x.onehot()]) @ weights.T)
    return (nets + linear) / 2


_read: dict[tuple[tuple[Pair, ...], bool], Rows] = {}


def train(pairs: list[Pair], kind: str, width: int = judge._DENSE) -> dict[str, Any]:
    y = np.array([LABEL[p[2]] for p in pairs])
    vectors = vector_pairs(pairs) if kind == "vectors" else None
    # the embed and vectors judges read the same features: computed once (the grammar's
    # reading of ~100k pairs is most of an hour)
    key = (tuple(pairs), kind != "words")
    if key not in _read:
        _read.clear()
        _read[key] = matrix(pairs, kind != "words")
    full = _read[key]
    x = Rows(full.dense[:, :width], full.rows, full.cols)
    return fit_judge(x, vectors, y, buckets=kind != "vectors")


def held_report(raw: dict[str, Any], kind: str, held: list[Pair], args: Any) -> None:
    """How the pairs left out read to weights that never saw them, group by group."""
    vectors = vector_pairs(held) if kind == "vectors" else None
    probs = predict_judge(raw, matrix(held, kind != "words"), vectors)
    truth = np.array([LABEL[p[2]] for p in held])
    for group in sorted({p[3] for p in held}):
        mine = np.array([p[3] == group for p in held])
        print(report(group, probs[mine], truth[mine], args.sure, args.ask), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cv", action="store_true", help="Leave each dev set out in turn.")
    parser.add_argument("--sure", type=float, default=0.97)
    parser.add_argument("--ask", type=float, default=0.8)
    parser.add_argument("--kinds", default="words,embed,vectors")
    parser.add_argument("--exclude", default="", help="Groups left out (comma-separated).")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--hard", type=int, default=HARD, help="look-alikes a step (0: none)")
    parser.add_argument("--dev", type=int, help="read truth_h1 .. truth_hN (default: RECIPES)")
    parser.add_argument("--upto", default="z", help="read truth_train_a .. this letter")
    args = parser.parse_args()
    globals()["HARD"] = args.hard
    left_out = set(filter(None, args.exclude.split(",")))
    out: dict[str, Any] = {}
    for kind in args.kinds.split(","):
        n, upto, width = RECIPES[kind]
        if args.dev is not None:  # a recipe of one's own: these sets, every feature
            n, upto, width = args.dev, args.upto, judge._DENSE
        dev = tuple(f"truth_h{i}" for i in range(1, n + 1))
        every = probe_pairs() + file_pairs(upto) + dev_set_pairs(dev)
        pairs = [p for p in every if p[3] not in left_out]
        held = [p for p in every if p[3] in left_out]
        y = np.array([LABEL[p[2]] for p in pairs])
        counts = dict(zip(judge.CLASSES, np.bincount(y), strict=True))
        print(f"== {kind}: {len(pairs)} pairs {counts}, h1-h{n}", flush=True)
        if args.cv:
            for name in dev:
                raw = train([p for p in pairs if p[3] != name], kind, width)
                held_report(raw, kind, [p for p in pairs if p[3] == name], args)
            continue
        out[kind] = train(pairs, kind, width)
        if held:
            held_report(out[kind], kind, held, args)
    for kind, raw in out.items():
        path = args.out / f"judge-{kind}.json"
        path.write_text(json.dumps(raw, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {path} ({path.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
