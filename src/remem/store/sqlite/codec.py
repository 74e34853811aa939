"""How the SQLite store keeps a vector on disk: int8 components and one float32 scale.

A 512-d float32 vector is a ~2,060-byte row, and only one such row fits a 4 KB page, so
each took ~4.1 KB; as int8 it is 516 bytes and seven share a page (~8x less disk).
The scale is the least-squares one for the rounded components (the decoded vector is the
closest multiple of them to the original), so a cosine read back is within ~2e-3 of
float32's for unit vectors (typically ~4e-4: the rounding error, 1/254 of the largest
component, spread over every dimension). Callers never see the format: `decode` gives
little-endian float32 bytes again, and rows written as float32 by an older remem (told
apart by their length, 4 * dim against dim + 4) are read as they are. Without numpy,
`encode` keeps float32 (still readable) and `decode` falls back to pure Python.
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Sequence
from typing import Any

LEVELS = 127  # int8 components in [-127, 127]: symmetric, so -x decodes as -(x)


def packed_size(dim: int) -> int:
    """Bytes of one encoded vector of `dim` components."""
    return 4 + dim


def encode(blobs: Sequence[bytes], dim: int) -> list[bytes]:
    """The encoded form of float32 vectors of `dim` components; a blob of any other
    length is kept as it is (it is never compared with the others either)."""
    try:
        import numpy as np
    except ImportError:
        return list(blobs)
    at = [i for i, b in enumerate(blobs) if len(b) == 4 * dim]
    out = list(blobs)
    if not at or dim < 1:
        return out
    x = np.frombuffer(b"".join(blobs[i] for i in at), dtype="<f4").reshape(len(at), dim)
    top = np.abs(x).max(axis=1, keepdims=True)
    q = np.rint(x * (LEVELS / np.where(top > 0, top, 1.0))).astype(np.int8)
    qf = q.astype(np.float32)
    norm2 = (qf * qf).sum(axis=1)
    scale = np.where(norm2 > 0, (x * qf).sum(axis=1) / np.where(norm2 > 0, norm2, 1.0), 0.0)
    scale = _exact_scales(x, qf, scale.astype(np.float32))
    rows = np.empty((len(at), 4 + dim), dtype=np.uint8)
    rows[:, :4] = scale.astype("<f4").reshape(-1, 1).view(np.uint8)
    rows[:, 4:] = q.view(np.uint8)
    for k, i in enumerate(at):
        out[i] = rows[k].tobytes()
    return out


def _exact_scales(x: Any, qf: Any, scale: Any) -> Any:
    """`scale`, except for rows that some float32 scale times their int8 components
    gives back bit for bit (a vector read back from this store, copied into another by
    `remem migrate`): for those, that scale, so that a copy is exact, not re-rounded."""
    import numpy as np

    top = np.abs(qf).argmax(axis=1)
    pick = np.arange(len(qf))
    base = (x[pick, top] / np.where(qf[pick, top] != 0, qf[pick, top], 1)).astype(np.float32)
    done = np.zeros(len(qf), dtype=bool)
    for guess in (base, np.nextafter(base, np.inf), np.nextafter(base, -np.inf)):
        exact = ~done & ((qf * guess[:, None]).astype(np.float32) == x).all(axis=1)
        scale, done = np.where(exact, guess, scale), done | exact
    return scale


def decode(blobs: Sequence[bytes], dims: Sequence[int]) -> list[bytes]:
    """Little-endian float32 bytes of stored vectors (`dims[i]` components each), encoded
    or not; a blob of neither length is returned as it is."""
    at = [i for i, b in enumerate(blobs) if len(b) == packed_size(dims[i]) != 4 * dims[i]]
    out = list(blobs)
    if not at:
        return out
    try:
        import numpy as np
    except ImportError:
        for i in at:
            out[i] = _decode_one(blobs[i])
        return out
    by_dim: dict[int, list[int]] = {}
    for i in at:
        by_dim.setdefault(dims[i], []).append(i)
    for dim, group in by_dim.items():
        raw = np.frombuffer(b"".join(blobs[i] for i in group), dtype=np.uint8)
        raw = raw.reshape(len(group), 4 + dim)
        scale = raw[:, :4].copy().view("<f4")
        x = (raw[:, 4:].view(np.int8).astype(np.float32) * scale).astype("<f4")
        for k, i in enumerate(group):
            out[i] = x[k].tobytes()
    return out


def _decode_one(blob: bytes) -> bytes:
    (scale,) = struct.unpack("<f", blob[:4])
    values = array("f", (scale * v for v in array("b", blob[4:])))
    return struct.pack(f"<{len(values)}f", *values)
