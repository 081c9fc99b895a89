"""Every growth pattern of the bounded sink costs linear work: one table, n, 2n and 4n.

The rows are :data:`tests.html.bounded.growth.GROWTH`; work is the number of
engine lines executed (deterministic: ``tests/support/work.py``), so the test
runs against the pure-Python build.
"""

from __future__ import annotations

from functools import partial

import pytest

import stream_mf2
from stream_mf2.html.bounded import NESTED_EMPTY, NESTED_KEEP, NESTED_REMOVE, BoundedSink
from stream_mf2.html.dom import Element
from stream_mf2.html.testing.tree import build
from tests.html.bounded.growth import GROWTH, Growth
from tests.support.bounded_sink import KEEPS
from tests.support.builds import pure_only
from tests.support.work import lines_executed

_ANSWERS = {"sink-nested": NESTED_KEEP, "sink-nested-empty": NESTED_EMPTY, "sink-nested-remove": NESTED_REMOVE}


def _run(row: Growth, doc: str) -> None:
    if row.run.startswith("parse"):
        stream_mf2.parse(doc, "http://example.com/", stream_children=row.run == "parse-children")
        return
    if row.run == "sink":
        sink = BoundedSink(KEEPS["h-class"], lambda el: True)
    else:
        answer = _ANSWERS[row.run]

        def on_nested(el: Element, top: Element, alone: bool) -> int:
            return answer

        sink = BoundedSink(KEEPS["h-class"], lambda el: True, on_nested=on_nested, watch_nested=lambda el, top: True)
    build([doc], sink)


@pure_only  # counts executed Python lines (sys.settrace), which compiled code does not report
@pytest.mark.parametrize("row", GROWTH, ids=[row.name for row in GROWTH])
def test_work_grows_linearly(row: Growth) -> None:
    work = [lines_executed(partial(_run, row, row.make(n))) for n in (row.n, 2 * row.n, 4 * row.n)]
    ratios = [work[1] / work[0], work[2] / work[1]]
    assert all(r < 2.6 for r in ratios), f"{row.name} ({row.run}): lines executed {work}, ratios {ratios}"


def test_the_table_has_every_kind_of_run() -> None:
    assert {row.run for row in GROWTH} == {
        "parse",
        "parse-children",
        "sink",
        "sink-nested",
        "sink-nested-empty",
        "sink-nested-remove",
    }
    assert len({row.name for row in GROWTH}) == len(GROWTH)
