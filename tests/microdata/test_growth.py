"""Work grows linearly with the page, and memory does not grow with it.

Work is counted as lines of the microdata consumer executed (``sys.settrace``,
``tests/support/work.py``), never time: at n, 2n and 4n linear work doubles
with each step. Memory is checked by counting what the consumer holds
(subtrees, ids waited for) after each chunk of a long page, not by RSS.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

import pytest

from tests.microdata.drive import Engine, microdata
from tests.support.builds import pure_only
from tests.support.work import lines_executed

MAX_GROWTH = 2.6
_CONSUMER = ("/stream_mf2/microdata/",)


def _row(n: int) -> str:
    return '<div itemscope itemtype="https://schema.org/Thing"><span itemprop="name">x</span></div>' * n


def _nested_items(n: int) -> str:
    return "<div itemscope>" + '<div itemprop="p" itemscope>' * n + '<span itemprop="name">x</span>'


def _nested_props(n: int) -> str:
    # every level is a property whose text is its whole subtree: quadratic but for the work budget
    return "<div itemscope>" + '<div itemprop="p">' * n + "x"


def _itemrefs_after(n: int) -> str:
    ids = " ".join(f"t{i}" for i in range(n))
    return f'<div itemscope itemref="{ids}"></div>' + "".join(f'<p id="t{i}" itemprop="a">{i}</p>' for i in range(n))


def _items_waiting(n: int) -> str:
    return "".join(f'<div itemscope itemref="t{i}"><b itemprop="a">x</b></div>' for i in range(n)) + "".join(
        f'<p id="t{i}" itemprop="b">{i}</p>' for i in range(n)
    )


def _target_shared(n: int) -> str:
    # n items name one target with a large subtree
    return '<div itemscope itemref="t"></div>' * n + '<div id="t">' + "<i>y</i>" * n + '<b itemprop="b">z</b></div>'


SHAPES: dict[str, tuple[Callable[[int], str], int]] = {
    "items-in-a-row": (_row, 100),
    "nested-items": (_nested_items, 100),
    "nested-text-properties": (_nested_props, 300),
    "itemrefs-after": (_itemrefs_after, 100),
    "items-waiting": (_items_waiting, 100),
    "shared-target": (_target_shared, 300),
}


@pure_only
@pytest.mark.parametrize("form", ["extruct", "whatwg"])
@pytest.mark.parametrize("shape", list(SHAPES))
def test_work_is_linear(shape: str, form: str) -> None:
    make, n = SHAPES[shape]
    work = [
        lines_executed(partial(microdata, make(k), microdata_form=form, max_microdata_work_ratio=4), _CONSUMER)
        for k in (n, 2 * n, 4 * n)
    ]
    ratios = [work[1] / work[0], work[2] / work[1]]
    assert max(ratios) < MAX_GROWTH, f"{shape}: lines executed {work}, ratios {ratios}"


def test_the_work_budget_says_so() -> None:
    run = microdata(_nested_props(3000), max_microdata_work_ratio=4)
    assert any("max_microdata_work_ratio" in n for n in run.notes)
    small = microdata(_nested_props(20), max_microdata_work_ratio=4)
    assert small.notes == []
    assert small.events[0].item["properties"]["p"][0] == "x"


def _chunks(count: int, per_chunk: int) -> Iterator[str]:
    yield "<!doctype html><html><head><title>many</title></head><body>"
    item = '<div itemscope itemtype="https://schema.org/Thing"><span itemprop="name">n</span></div>\n'
    for _ in range(count // per_chunk):
        yield item * per_chunk
    yield "</body></html>"


def _held_after_each_chunk(count: int) -> tuple[int, int]:
    run = Engine()
    most = 0
    for chunk in _chunks(count, 500):
        run.feed(chunk)
        most = max(most, run.consumer.held(), run.sink.tracked)
        run.events.clear()  # (what a caller does with yielded items)
    run.close()
    return most, run.consumer.held()


def test_a_long_page_of_small_items_holds_nothing() -> None:
    most, left = _held_after_each_chunk(20_000)
    assert left == 0
    assert most < 50, f"held {most} objects at a time"


@pytest.mark.slow
def test_a_page_of_a_million_items_holds_nothing() -> None:
    most, left = _held_after_each_chunk(1_000_000)
    assert left == 0
    assert most < 50, f"held {most} objects at a time"


def test_a_page_item_does_not_keep_the_page() -> None:
    """Inside ``<html itemscope>`` each item still leaves as it closes: nothing piles up."""
    run = Engine()
    run.feed('<!doctype html><html itemscope itemtype="https://schema.org/WebPage"><head><title>t</title></head><body>')
    most = 0
    for _ in range(40):
        run.feed('<div itemscope><span itemprop="name">n</span></div><p itemprop="text">t</p>\n' * 250)
        most = max(most, run.consumer.held(), run.sink.tracked)
    run.close()
    assert most < 50, f"held {most} objects at a time"
    assert len(run.events) == 10_001 and run.events[-1].page == 0
    assert run.events[-1].item["properties"]["text"] == ["t"] * 10_000


def test_remembered_subtrees_stay_within_their_budget() -> None:
    run = Engine(max_microdata_recent_nodes=2000)
    run.feed("<!doctype html><body>")
    most = 0
    for i in range(100):
        run.feed("".join(f'<div itemscope id="i{i}-{k}"><span itemprop="n">n</span></div>' for k in range(100)))
        most = max(most, run.consumer.remembered_nodes())
    run.close()
    assert 0 < most <= 2000
    assert run.consumer.remembered_nodes() == 0
