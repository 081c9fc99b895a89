"""html5lib-tests tree construction: every case, whole and split into chunks.

Cases marked ``#script-on`` are skipped (this parser runs with scripting
disabled) and the ``scripted/`` folder is not read. Each case runs in five
modes: the whole input, one character per chunk, a bounded set of 2-way
splits, a bounded sample of 3-way splits and random chunkings (seed in the
label). Every 2-way split runs by default; ``STREAM_MF2_MAX_2WAY=N`` bounds
them to N evenly spread positions per case.
"""

from __future__ import annotations

import os

import pytest

from stream_mf2.html.testing.tree import TreeTest, tree_for_test
from tests.support import chunking
from tests.support.tree_cases import CASES

MAX_TWO_WAY = int(os.environ.get("STREAM_MF2_MAX_2WAY", "0"))




def _two_way(data: str) -> list[tuple[str, list[str]]]:
    splits = list(chunking.two_way(data))
    if MAX_TWO_WAY <= 0:
        return splits
    step = max(1, -(-len(splits) // MAX_TWO_WAY))
    return splits[::step]


def _chunkings(mode: str, data: str) -> list[tuple[str, list[str]]]:
    if mode == "whole":
        return [("whole", chunking.whole(data))]
    if mode == "one-by-one":
        return [("one-by-one", chunking.one_by_one(data))]
    if mode == "split2":
        return _two_way(data)
    if mode == "split3":
        return list(chunking.three_way(data))
    return [
        (f"random(seed={chunking.SEED + k})", chunking.random_chunks(data, chunking.SEED + k))
        for k in range(chunking.RANDOM_RUNS)
    ]


def test_suite_present() -> None:
    from tests.support.suites import require_suite

    require_suite("html5lib-tests")
    assert len(CASES) == 1784  # 1,792 cases in the top folder minus 8 #script-on


@pytest.mark.parametrize("mode", ["whole", "one-by-one", "split2", "split3", "random"])
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_tree_construction(case: TreeTest, mode: str) -> None:
    for label, chunks in _chunkings(mode, case.data):
        got = tree_for_test(chunks, case.fragment_context)
        assert got == case.document, f"{case.id} [{label}] input={case.data!r}"
