"""One long table of rows matched by a repeatable block (the bench's price list): what is held.

The rows of an open ``table`` are held by the bounded sink until the table closes: foster
parenting may still put later content *before* the table, so before them in document order.
Holding is bounded by the sink's ``max_pending`` held items (10,000 in a parse): past it the
earliest are handed over as they are (``forced``). So what the parser holds grows with the rows
up to that bound and then stays flat, and every row is matched, with its nested cells, either
way. Counted in held nodes (the sink's tracked elements, the WPT consumer's places and
candidates), at n, 2n and 4n rows.
"""

from __future__ import annotations

from collections.abc import Iterator

from bench.wpt_bench import SHAPES, TABLE_TEMPLATE
from stream_mf2.html.bounded.observed import ObservedSink
from stream_mf2.html.testing.tree import build
from stream_mf2.wpt import WptMatchEvent, load
from stream_mf2.wpt._match import WptConsumer
from stream_mf2.wpt.apply import pages_for
from stream_mf2.wpt.events import WptPageEnd

N = 120


def _one_table(rows: int, max_pending: int) -> tuple[int, int, int]:
    """(rows matched with all three nested cells, the most held while the table was open, forced
    hand-overs) for a price list of ``rows`` rows, fed row by row."""
    template = load(TABLE_TEMPLATE).templates[0]
    pages, _ = pages_for(template, "https://shop.example/prices")
    events: list[WptMatchEvent | WptPageEnd] = []
    consumer = WptConsumer(pages, events.append)
    sink = ObservedSink(lambda el: False, consumer.complete, consumer, max_pending=max_pending)
    head, row, tail = SHAPES["table"]
    most = 0

    def chunks() -> Iterator[str]:
        nonlocal most
        yield head.decode()
        for i in range(rows):
            yield row(i)
            most = max(most, sink.tracked + len(consumer._places) + len(consumer._candidates))
        yield tail.decode()

    build(chunks(), sink)
    consumer.finish()
    matched = 0
    for e in events:
        if isinstance(e, WptMatchEvent):
            nested = e.match["blocks"]
            assert [len(b["matches"]) for b in nested] == [1, 1, 1], e.match["xpath"]
            matched += 1
    return matched, most, sink.forced


def test_held_rows_are_bounded_by_max_pending_whatever_the_rows() -> None:
    runs = [_one_table(k * N, max_pending=40) for k in (1, 2, 4)]
    assert [m for m, _, _ in runs] == [N, 2 * N, 4 * N]  # exactly the rows, each with its cells
    held = [h for _, h, _ in runs]
    assert held[0] == held[1] == held[2], held  # flat: the same most at n, 2n and 4n rows
    assert held[0] < 41 * 9  # (a held row counts 8: its elements' tracking and places)
    # the rows past the bound were handed over before the table closed, more with more rows
    forced = [f for _, _, f in runs]
    assert 0 < forced[0] < forced[1] < forced[2], forced


def test_below_the_bound_an_open_table_holds_every_row() -> None:
    # The cause: with no bound reached, every row waits for </table> (the foster-parenting order).
    runs = [_one_table(k * N, max_pending=10_000) for k in (1, 2, 4)]
    assert [m for m, _, _ in runs] == [N, 2 * N, 4 * N]
    held = [h for _, h, _ in runs]
    per_row = (held[2] - held[1]) / (2 * N)
    assert (held[1] - held[0]) / N == per_row == 8  # linear in the rows: 8 a row
    assert [f for _, _, f in runs] == [0, 0, 0]
