"""A reference for the machine a benchmark ran on, printed beside its figures so runs on
different machines (or on one machine under different load) can be compared:
the median wall time of `python -c pass`, of a fixed numpy product, and the load."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from typing import Any


def reference(runs: int = 7) -> dict[str, Any]:
    """`python -c pass` median (ms), a fixed float32 512x512 @ 512x512 product repeated
    20 times on one thread's worth of data (median ms), and the 1-minute load average."""
    starts = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        starts.append((time.perf_counter() - t) * 1000)
    out: dict[str, Any] = {"python_pass_ms": round(statistics.median(starts), 1)}
    try:
        import numpy as np
    except ImportError:
        out["numpy_ms"] = None
    else:
        a = np.random.default_rng(0).standard_normal((512, 512)).astype(np.float32)
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            for _ in range(20):
                a @ a
            times.append((time.perf_counter() - t) * 1000)
        out["numpy_ms"] = round(statistics.median(times), 1)
    out["load"] = round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None
    return out


def line(ref: dict[str, Any] | None = None) -> str:
    """One line to print beside a table."""
    ref = ref or reference()
    return (
        f"machine: python -c pass {ref['python_pass_ms']} ms, numpy 20x(512x512 @ 512x512) "
        f"{ref['numpy_ms']} ms, load {ref['load']}"
    )


if __name__ == "__main__":
    print(line())
