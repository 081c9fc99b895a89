"""Chunkings of one input, so every conformance test also runs split anywhere.

``chunkings(data)`` yields ``(label, chunks)`` pairs: the whole input, one
character (or byte) at a time, every 2-way split, a bounded sample of 3-way
splits, and random chunk sizes from a seed that is part of the label, so a
failure can be replayed.
"""

from __future__ import annotations

import io
import os
import random
from collections.abc import Iterator
from typing import Any, TypeVar

S = TypeVar("S", str, bytes)

#: Seed for the random chunkings; printed in every label. Override to explore.
SEED = int(os.environ.get("STREAM_MF2_SEED", "20261122"))
#: At most this many 3-way splits per input (evenly spread over all of them).
MAX_THREE_WAY = int(os.environ.get("STREAM_MF2_MAX_3WAY", "40"))
#: How many random chunkings per input.
RANDOM_RUNS = int(os.environ.get("STREAM_MF2_RANDOM_RUNS", "3"))


def whole(data: S) -> list[S]:
    return [data]


def one_by_one(data: S) -> list[S]:
    return [data[i : i + 1] for i in range(len(data))]


def two_way(data: S) -> Iterator[tuple[str, list[S]]]:
    for i in range(1, len(data)):
        yield f"split@{i}", [data[:i], data[i:]]


def _kth_pair(n: int, k: int) -> tuple[int, int]:
    """The k-th (i, j) with 1 <= i < j <= n - 1 in lexicographic order, computed directly."""
    i = 1
    row = n - 2  # pairs whose first index is i
    while k >= row:
        k -= row
        i += 1
        row -= 1
    return i, i + 1 + k


def three_way(data: S, limit: int = MAX_THREE_WAY) -> Iterator[tuple[str, list[S]]]:
    n = len(data)
    if n < 3:
        return
    total = (n - 1) * (n - 2) // 2
    step = max(1, total // limit)
    for k in range(0, total, step)[:limit]:
        i, j = _kth_pair(n, k)
        yield f"split@{i},{j}", [data[:i], data[i:j], data[j:]]


def random_chunks(data: S, seed: int) -> list[S]:
    rng = random.Random(seed)
    out: list[S] = []
    i = 0
    while i < len(data):
        size = rng.choice((1, 1, 2, 3, 5, 8, 13, 64, 1024))
        out.append(data[i : i + size])
        i += size
    return out


def chunkings(data: S, *, seed: int = SEED, splits: bool = True) -> Iterator[tuple[str, list[S]]]:
    """Every chunking the conformance tests use, with a replayable label."""
    yield "whole", whole(data)
    yield "one-by-one", one_by_one(data)
    if splits:
        yield from two_way(data)
        yield from three_way(data)
    for k in range(RANDOM_RUNS):
        s = seed + k
        yield f"random(seed={s})", random_chunks(data, s)


class Pipe(io.RawIOBase):
    """A non-seekable byte stream (a pipe or socket) that gives ``data`` at most ``piece``
    bytes per read, for the readers' paths that cannot look ahead."""

    def __init__(self, data: bytes, piece: int = 100) -> None:
        self._b = io.BytesIO(data)
        self._piece = piece

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        data = self._b.read(min(len(b), self._piece))
        b[: len(data)] = data
        return len(data)
