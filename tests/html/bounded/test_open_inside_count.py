"""BoundedSink's count of open elements inside kept subtrees, against a full count.

(Also the outermost kept ancestors ``_top_kept`` remembers, against plain climbs.)

``_classify`` skips its walk for open descendants of a popped kept element
while the sink's ``open_inside`` count is 0. Here that count is compared,
after every pop and every hand-over, with a count over every element the sink
created; and every classification is compared with the one the full walk gives.
The short unlinking path at hand-over (taken when the count is 0) is checked
to meet no open element. Inputs: the html5lib-tests tree-construction cases and random tag soup, with
the nested hand-over on and off, and with a tiny ``max_pending`` (forced
hand-overs of subtrees that still hold open elements).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from stream_mf2.html.bounded import sink as bs
from stream_mf2.html.bounded.reference import count_open_inside
from stream_mf2.html.dom import Element
from stream_mf2.html.testing.tree import build, context_element
from tests.support import chunking
from tests.support.bounded_sink import KEEPS, tag_soup
from tests.support.sink_shortcuts import checked_sink
from tests.support.tree_cases import require_cases


class CountingSink:
    """A sink checking its shortcuts (``check_shortcuts``: remembered tops, the unlinking
    short path, classifications without the walk), and its open-inside count against a
    count over every element it made."""

    def __init__(
        self,
        keep: Callable[[Element], bool],
        on_nested: Callable[[Element, Element, bool], int] | None = None,
        max_pending: int | None = None,
    ) -> None:
        self.created: list[Element] = []
        self.handed = 0

        def recording_keep(el: Element) -> bool:
            # The keep predicate is asked once for every created element.
            self.created.append(el)
            return keep(el)

        self.sink = checked_sink(recording_keep, on_nested, on_complete=self._complete, max_pending=max_pending)

    def _complete(self, el: Element) -> bool:
        self.handed += 1
        self.check()
        return True

    def check(self) -> None:
        # (an element whose attributes a later <html>/<body> merged is asked twice)
        assert self.sink.open_inside == count_open_inside(self.created)


def _run(chunks: list[str], keep_name: str, fragment: str | None, mode: int) -> CountingSink:
    max_pending = 1 if mode == 2 else None
    nested: Callable[[Element, Element, bool], int] | None = None
    if mode == 1:
        answers = [bs.NESTED_KEEP, bs.NESTED_EMPTY, bs.NESTED_REMOVE]
        calls = [0]

        def on_nested(el: Element, top: Element, alone: bool) -> int:
            calls[0] += 1
            counting.check()
            return answers[calls[0] % 3]

        nested = on_nested
    counting = CountingSink(KEEPS[keep_name], nested, max_pending)
    build(chunks, counting.sink, context_element(fragment) if fragment else None)
    counting.check()
    return counting


@pytest.mark.parametrize("mode", [0, 1, 2], ids=["plain", "nested", "forced"])
@pytest.mark.parametrize("keep_name", list(KEEPS))
def test_counts_tree_construction(keep_name: str, mode: int) -> None:
    from stream_mf2.html.testing.tree import TreeTest

    for case in require_cases():
        assert isinstance(case, TreeTest)
        _run([case.data], keep_name, case.fragment_context, mode)


@pytest.mark.parametrize("mode", [0, 1, 2], ids=["plain", "nested", "forced"])
def test_counts_random_tag_soup(mode: int) -> None:
    rng = random.Random(chunking.SEED + mode)
    for _ in range(300):
        html = tag_soup(rng)
        chunks = chunking.random_chunks(html, rng.randint(0, 10**6))
        for keep_name in KEEPS:
            _run(chunks, keep_name, None, mode)


def test_in_order_root_needs_no_walk() -> None:
    """The common case: an outermost kept element popped after its contents."""
    sink = _run(['<div class="h-card"><p><a>x</a></p><span>y</span></div>'], "h-class", None, 0)
    assert sink.handed == 1
    assert sink.sink.checks["unlink"] == 1
    assert sink.sink.open_inside == 0
