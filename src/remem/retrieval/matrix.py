"""The in-process copy of one embedding model's vectors, searched by inner product.

Up to `IVF_MIN` vectors a query scans them all (float16 in faiss when installed,
else float32 numpy), and the scores are the cosines (within 1e-4). Past it, faiss keeps
only 4-bit product-quantised codes of every row (fast-scan: 2 dimensions a code, 128
bytes a 512-d row against float16's 1,024) and the matrix is no longer `exact`: its
scores only choose candidates, which the caller re-scores from the store's own rows
(`VectorIndex`: the best `REFINE` times the rows asked for). At 1M x 512 that is 128 MB
in memory instead of 1.1 GB with a float16 copy beside the codes. With 50 asked, x5 of
these codes find more of the exact top 50 than x20 of codes of 4 dimensions a code (the
layout before) and read a quarter of the rows: 1.000 / 0.919 of it for 60k USE vectors /
90k random ones, against 0.999 / 0.817 (`benchmarks/bench_refine.py`). The codes are trained
once, on a sample of the rows when the count first crosses `IVF_MIN` (the rows are no
longer held after that, so they are not trained again; later rows use the same
codebooks). Semantic candidates only feed the ranking.
"""

from __future__ import annotations

import importlib
import importlib.util
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from remem.retrieval.embedding import Vectors

IVF_MIN = 50_000  # below this an exhaustive float16 scan costs <= ~3 ms
IVF_SAMPLE = 30_000  # vectors the codes are trained on
REFINE = 5  # rows re-scored from the store, per row asked for (see the module)
PER_CODE = 2  # dimensions a 4-bit code stands for
TRAIN_ROUNDS = 10
CHUNK = 8192


class Matrix(Protocol):
    """The in-process copy of one model's vectors: rows appended in store order,
    searched by inner product."""

    dim: int
    exact: bool  # are the scores of `top` cosines, or only estimates to re-score?

    def __len__(self) -> int: ...
    def add(self, rows: Vectors) -> None: ...
    def top(self, vector: Vectors, n: int) -> tuple[list[int], list[float]]: ...


class NumpyMatrix:
    """One contiguous float32 matrix with spare capacity (appends are amortised
    O(1)), searched by one BLAS matrix-vector product. ~8 ms at 100k x 512."""

    def __init__(self, dim: int) -> None:
        import numpy as np

        self.dim = dim
        self.exact = True
        self._data = np.empty((0, dim), dtype=np.float32)
        self._size = 0

    def __len__(self) -> int:
        return self._size

    def add(self, rows: Vectors) -> None:
        import numpy as np

        need = self._size + len(rows)
        if need > len(self._data):
            grown = np.empty((max(need, 2 * len(self._data), 1024), self.dim), np.float32)
            grown[: self._size] = self._data[: self._size]
            self._data = grown
        self._data[self._size : need] = rows
        self._size = need

    def top(self, vector: Vectors, n: int) -> tuple[list[int], list[float]]:
        import numpy as np

        scores = self._data[: self._size] @ vector.reshape(-1)
        n = min(n, self._size)
        top = np.argpartition(-scores, n - 1)[:n]
        top = top[np.argsort(-scores[top])]
        return top.tolist(), scores[top].tolist()


class FaissMatrix:
    """The same rows as float16 in faiss: half the memory of float32, a SIMD scan ~2x
    faster than numpy's, cosines within 1e-4 of float32 (so no re-scoring). An
    exhaustive index up to `IVF_MIN` rows, fast-scan codes past it (see the module)."""

    def __init__(self, dim: int) -> None:
        self._faiss: Any = importlib.import_module("faiss")
        # One query per search: OpenMP threads only spin-wait against each other
        # (and against SQLite) on a small machine.
        self._faiss.omp_set_num_threads(1)
        self.dim = dim
        self.trained_at = 0  # rows when the codes were trained (0: exhaustive)
        self.exact = True
        self._index = self._faiss.IndexScalarQuantizer(
            dim, self._faiss.ScalarQuantizer.QT_fp16, self._faiss.METRIC_INNER_PRODUCT
        )

    def __len__(self) -> int:
        return int(self._index.ntotal)

    def add(self, rows: Vectors) -> None:
        self._index.add(rows)
        size = len(self)
        # Reorganised as soon as a batch crosses the line, so that the rest of a large
        # first load goes straight into the codes.
        if self.exact and size >= IVF_MIN and self.dim % 8 == 0:
            self._index = self._codes(size)
            self.trained_at, self.exact = size, False

    def top(self, vector: Vectors, n: int) -> tuple[list[int], list[float]]:
        scores, rows = self._index.search(vector.reshape(1, -1), min(n, len(self)))
        return rows[0].tolist(), scores[0].tolist()

    def _codes(self, size: int) -> Any:
        """Fast-scan codes of the current rows, trained on a random sample, filled a
        chunk at a time (the rows are decoded from the float16 index, which is dropped
        after: the extra memory is the sample and one chunk)."""
        import numpy as np

        faiss, old = self._faiss, self._index
        ip = faiss.METRIC_INNER_PRODUCT
        index = faiss.IndexPQFastScan(self.dim, self.dim // PER_CODE, 4, ip)
        # 10 k-means rounds, not 25: twice the codes of the layout before trained in its
        # CPU time (2.2 s at 30k x 512), the same recall (bench_refine.py: 1.000 / 0.926)
        index.pq.cp.niter = TRAIN_ROUNDS
        sample = np.random.default_rng(size).choice(size, min(size, IVF_SAMPLE), replace=False)
        index.train(old.reconstruct_batch(np.sort(sample).astype("int64")))
        for start in range(0, size, CHUNK):
            index.add(old.reconstruct_n(start, min(CHUNK, size - start)))
        return index


_threads: list[Any] = []  # the ThreadpoolController, once made (None without threadpoolctl)


def one_thread() -> AbstractContextManager[object]:
    """BLAS on one thread for one query's products (its embedding, a scan for one vector):
    there, threads gain nothing and spin-wait against each other and every other busy
    process; on a shared 2-core machine under load they cost 4-5x the CPU time of a
    hybrid search at 100k (141 vs 30 ms). The warm service runs so throughout
    (`remem.retrieval.warm.service_env`); batches keep every thread."""
    if not _threads:
        try:
            from threadpoolctl import ThreadpoolController
        except ImportError:
            _threads.append(None)
        else:
            _threads.append(ThreadpoolController())  # ~30 us a use after that
    controller = _threads[0]
    if controller is None:
        return nullcontext()
    limited: AbstractContextManager[object] = controller.limit(limits=1, user_api="blas")
    return limited


def new_matrix(dim: int, kind: str = "auto") -> Matrix:
    """faiss when installed (`remem[embed]`), else numpy; `kind` forces one."""
    if kind == "faiss" or (kind == "auto" and importlib.util.find_spec("faiss")):
        return FaissMatrix(dim)
    return NumpyMatrix(dim)
