"""Time per input byte stays bounded: one generated soup block, repeated to n and to 4n bytes.

Each repetition gets its own ids (``id="id1"`` becomes ``id="n<k>"``), so patterns
that need distinct elements (formatting elements with distinct attributes are
not merged by the "Noah's Ark" clause) grow too. Linear work takes about 4x the
time for 4x the input; the check fails above :data:`RATIO` (a generous margin on
a loaded machine) once the larger input takes at least :data:`FLOOR` seconds,
so that timer noise on tiny inputs cannot fail it, and only when three
measurements agree. Times are the process's CPU time (best of several runs):
wall time on a shared machine, under ``nice``, measures the scheduler.
"""

from __future__ import annotations

import contextlib
import time

from hypothesis import strategies as st

import stream_mf2

from .inputs import tag_soup
from .invariants import URL, Finding

#: Bytes of the smaller document (the larger one is four times as long).
SMALL_BYTES = 6000
#: Largest allowed time ratio between 4n and n (linear: about 4; quadratic: about 16).
RATIO = 10.0
#: The larger input must take at least this long (seconds) before the ratio counts.
FLOOR = 0.25


def blocks() -> st.SearchStrategy[str]:
    return tag_soup(max_pieces=12).filter(lambda s: len(s.encode("utf-8", "surrogatepass")) >= 8)


def document(block: str, size: int) -> bytes:
    """``block`` repeated (ids made distinct) until the result has ``size`` bytes or more."""
    parts: list[str] = []
    total = 0
    k = 0
    while total < size:
        piece = block.replace('id="id1"', f'id="n{k}"')
        parts.append(piece)
        total += len(piece.encode("utf-8", "surrogatepass"))
        k += 1
    return "".join(parts).encode("utf-8", "surrogatepass")


def _seconds(data: bytes, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        with contextlib.suppress(stream_mf2.StreamMF2Error):  # a limit is a documented stop; its time counts
            stream_mf2.parse(data, URL)
        best = min(best, time.process_time() - start)
    return best


def check_growth(block: str, small: int = SMALL_BYTES) -> None:
    little, big = document(block, small), document(block, 4 * small)
    t_big = _seconds(big, 1)
    if t_big < FLOOR:
        return
    for _attempt in range(3):  # confirmed three times, so a burst of load cannot fail it
        t_little = _seconds(little, 3)
        t_big = min(t_big, _seconds(big, 2))
        ratio = t_big / max(t_little, 1e-4)
        if t_big < FLOOR or ratio <= RATIO:
            return
    if t_big >= FLOOR and ratio > RATIO:
        raise Finding(
            "time-growth",
            f"{len(little)} bytes: {t_little:.3f} s, {len(big)} bytes: {t_big:.3f} s (ratio {ratio:.1f} > {RATIO})",
            "time-growth",
            block.encode("utf-8", "surrogatepass"),
            extra={"block": block, "small_bytes": len(little), "large_bytes": len(big)},
        )
