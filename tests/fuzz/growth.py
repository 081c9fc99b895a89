"""Time per input byte stays bounded: generated soup blocks, repeated to n and to 4n bytes.

A document is a prefix, then a first block k times, then a second block k times.
Each repetition gets its own ids (``id="id1"`` becomes ``id="n<k>"``), so patterns
that need distinct elements (formatting elements with distinct attributes are
not merged by the "Noah's Ark" clause) grow too. Linear work takes about 4x the
time for 4x the input; the check fails above :data:`RATIO` (a generous margin on
a loaded machine) once the larger input takes at least :data:`FLOOR` seconds,
so that timer noise on tiny inputs cannot fail it, and only when three
measurements agree. Times are the process's CPU time (best of several runs):
wall time on a shared machine, under ``nice``, measures the scheduler.

Time is measured against the work asked for: input *and output*. Some outputs
grow faster than the input by nature (nested ``h-*`` roots that are also
``dt-*``/``p-*`` properties repeat the text of everything inside them at every
level, so the JSON grows with the square of the nesting). Before a ratio counts
as a finding, the documents of n/4 and n bytes are parsed in full (bounded by
:data:`OUTPUT_CAP`) and the bound is scaled by how much faster than 4x their
input plus output grew: time per byte of input and output must stay bounded.
"""

from __future__ import annotations

import contextlib
import cProfile
import pstats
import time

from hypothesis import strategies as st

import stream_mf2

from .inputs import tag_soup
from .invariants import URL, Finding

#: Bytes of the smaller document (the larger one is four times as long).
SMALL_BYTES = 12000
#: Largest allowed time ratio between 4n and n (linear: about 4; quadratic: about 16).
RATIO = 10.0
#: The larger input must take at least this long (seconds) before the ratio counts.
FLOOR = 0.1
#: A parse of the smaller document is stopped after this much CPU time (seconds); the larger
#: one once its time is past the ratio bound (it cannot pass any more).
CAP = 1.0
#: A failure whose larger parse took less CPU time than this (seconds) is confirmed at 4x the sizes.
CONFIRM_BELOW = 0.5
#: Bytes fed at a time while timing (the cap is checked between pieces).
FEED_BYTES = 2048
#: CPU seconds allowed for the full parse that measures a larger document's output.
OUTPUT_CAP = 3.0
#: Output counted up to this many times the input (past it, the output is what grew).
OUTPUT_FACTOR = 1000


Blocks = tuple[str, str, str]


def blocks() -> st.SearchStrategy[Blocks]:
    """``(prefix, first, second)``: the document is the prefix, ``first`` k times, then ``second``
    k times (the quadratic patterns open n elements and then act n times on them)."""
    piece = tag_soup(max_pieces=8)
    return st.tuples(tag_soup(max_pieces=4), piece, piece).filter(
        lambda b: len((b[1] + b[2]).encode("utf-8", "surrogatepass")) >= 4
    )


def document(blocks: Blocks, size: int) -> bytes:
    """The prefix, then ``first`` and ``second`` each repeated (ids made distinct) until the
    result has ``size`` bytes or more."""
    prefix, first, second = blocks
    one = len((first + second).encode("utf-8", "surrogatepass"))
    k = max(1, -(-(size - len(prefix.encode("utf-8", "surrogatepass"))) // one))
    parts = [prefix]
    parts.extend(first.replace('id="id1"', f'id="n{i}"') for i in range(k))
    parts.extend(second.replace('id="id1"', f'id="m{i}"') for i in range(k))
    return "".join(parts).encode("utf-8", "surrogatepass")


def _seconds(data: bytes, runs: int, cap: float) -> float:
    """The best CPU time of ``runs`` parses of ``data``; a parse is stopped once it has taken
    ``cap`` seconds (the time is then at least ``cap``, which is all the check needs)."""
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        parser = stream_mf2.Parser(URL)
        with contextlib.suppress(stream_mf2.StreamMF2Error):  # a limit is a documented stop; its time counts
            for i in range(0, len(data), FEED_BYTES):
                parser.feed(data[i : i + FEED_BYTES])
                if time.process_time() - start > cap:
                    break
            else:
                parser.close()
        best = min(best, time.process_time() - start)
    return best


def _work_bytes(data: bytes, cap: float) -> int | None:
    """Input plus JSON output bytes of a full parse of ``data``; ``None`` past ``cap`` seconds."""
    start = time.process_time()
    parser = stream_mf2.Parser(URL)
    items: list[object] = []
    try:
        for i in range(0, len(data), FEED_BYTES):
            items.extend(parser.feed(data[i : i + FEED_BYTES]))
            if time.process_time() - start > cap:
                return None
        items.extend(parser.close())
    except stream_mf2.StreamMF2Error:
        pass  # a documented stop: what was produced counts
    return len(data) + output_size(items, OUTPUT_FACTOR * len(data))


def output_size(items: object, limit: int | None = None) -> int:
    """Characters of strings and keys in ``items`` (and 1 per other scalar), counted up to
    ``limit`` if given, without serialising or recursing (an output that grows with the
    square can take gigabytes as JSON)."""
    total = 0
    stack: list[object] = [items]
    while stack and (limit is None or total <= limit):
        obj = stack.pop()
        if isinstance(obj, str):
            total += len(obj)
        elif isinstance(obj, dict):
            total += sum(len(k) for k in obj)
            stack.extend(obj.values())
        elif isinstance(obj, list | tuple):
            stack.extend(obj)
        else:
            total += 1
    return total


def _output_scale(little: bytes, big: bytes) -> float:
    """How much more work than 4x the larger document asks for (at least 1)."""
    w_little, w_big = _work_bytes(little, OUTPUT_CAP), _work_bytes(big, OUTPUT_CAP)
    if w_little is None or w_big is None:
        return 1.0
    return max(1.0, w_big / w_little / (len(big) / len(little)))


def _hottest(data: bytes, cap: float) -> str:
    """The stream_mf2 function with the most own time in a (capped) parse of ``data``: it names
    the cause in the finding's signature, so that different slow paths are told apart."""
    profile = cProfile.Profile()
    profile.enable()
    try:
        _seconds(data, 1, cap)
    finally:
        profile.disable()
    stats = pstats.Stats(profile).stats
    best = ("?", 0.0)
    for (filename, _line, function), (_cc, _nc, own, _cum, _callers) in stats.items():
        if "stream_mf2" in filename and own > best[1]:
            best = (f"{filename.rsplit('stream_mf2', 1)[1].lstrip('/')}:{function}", own)
    return best[0]


def check_growth(block: Blocks, small: int = SMALL_BYTES) -> None:
    """Raise a ``time-growth`` :class:`Finding` if ``block``'s CPU time at 4n bytes exceeds the
    bound relative to n bytes. A short failing measurement (the larger parse under
    ``CONFIRM_BELOW`` seconds, where a loaded machine's noise is a large share) is confirmed
    one size step up (4n against 16n): superlinear growth only shows more clearly there."""
    try:
        _check_growth_at(block, small)
    except Finding as finding:
        if finding.extra.get("large_seconds", CONFIRM_BELOW) >= CONFIRM_BELOW:
            raise
        _check_growth_at(block, 4 * small)


def _check_growth_at(block: Blocks, small: int) -> None:
    little, big = document(block, small), document(block, 4 * small)
    t_little = t_big = 0.0
    scale: float | None = None  # measured only when the plain bound is exceeded
    bound = RATIO
    attempts = 0
    while attempts < 2:  # confirmed twice, so a burst of load cannot fail it
        t_little = _seconds(little, 3, CAP)
        # the larger parse is stopped once the ratio is surely exceeded: bounded cost
        t_big = _seconds(big, 1, max(FLOOR, bound * t_little) * 1.2)
        if t_big < FLOOR or t_big <= bound * t_little:
            return
        if scale is None:
            # measured one size step lower (n/4 and n): the full output of the 4n document
            # can take gigabytes when it grows with the square
            scale = _output_scale(document(block, small // 4), little)
            if scale > 1.0:
                bound = RATIO * scale
                continue  # measured again against the scaled bound (the parse above was stopped)
        attempts += 1
    ratio = t_big / max(t_little, 1e-4)
    hot = _hottest(big, max(FLOOR, bound * t_little) * 1.2)
    raise Finding(
        "time-growth",
        f"{len(little)} bytes: {t_little:.3f} s, {len(big)} bytes: {t_big:.3f} s "
        f"(ratio {ratio:.1f} > {bound:.1f}, output growth x{scale or 1.0:.1f} counted;"
        f" the larger parse is stopped past the bound); most time in {hot}",
        f"time-growth:{hot}",
        "".join(block).encode("utf-8", "surrogatepass"),
        extra={"block": block, "small_bytes": len(little), "large_bytes": len(big), "large_seconds": t_big},
    )
