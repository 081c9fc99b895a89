"""Repeatable blocks over many rows: work linear in the rows, memory flat.

``WptConsumer.complete`` filtered every pending candidate with ``is_ancestor`` for each
handed-over root. The rows of one table are all held until the table closes (an open
table may still receive foster-parented content before its rows), then handed over one
by one, so that filter made 8,000 rows take 6.3 s (the plain parse: 0.15 s). Work is
counted as lines executed (``tests/support/work.py``), not timed: linear work doubles at
n, 2n, 4n, the quadratic filter gave about 3.4 per doubling at these sizes.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pytest

from stream_mf2 import Parser, parse
from stream_mf2.wpt import Template, WptMatchEvent, load
from tests.support.builds import pure_only
from tests.support.work import lines_executed

OW = 'xmlns:ow="http://www.omfica.org/schemas/ow/0.9"'
MAX_GROWTH = 2.6


def _template(block: str) -> Template:
    return load(f'<ow:wpt {OW} ow:host="h"><ow:template ow:name="T">{block}</ow:template></ow:wpt>').templates[0]


ROWS = _template(
    '<ow:block ow:xpath="/html/body/table/tbody/tr" ow:type="repeatable">row'
    '<ow:block ow:xpath="td[2]">row.price</ow:block></ow:block>'
)
DIVS = _template(
    '<ow:block ow:xpath=\'//*[@id="list"]/div\' ow:type="repeatable">row'
    '<ow:block ow:xpath="a">row.link</ow:block></ow:block>'
)


def _table(n: int) -> str:
    return "<!doctype html><table>" + "".join(f"<tr><td>item <b>{i}</b><td>{i}.99" for i in range(n)) + "</table>"


def _divs(n: int) -> str:
    return (
        "<!doctype html><div id=list>" + "".join(f'<div><a href="/{i}">item {i}</a></div>' for i in range(n)) + "</div>"
    )


SHAPES: dict[str, tuple[Template, Callable[[int], str]]] = {"rows of one table": (ROWS, _table), "divs": (DIVS, _divs)}


@pure_only
@pytest.mark.parametrize("shape", list(SHAPES))
def test_work_is_linear_in_the_rows(shape: str) -> None:
    template, make = SHAPES[shape]
    n = 250
    work = [
        lines_executed(partial(parse, make(k), "http://h/", wpt=template), ("/stream_mf2/",)) for k in (n, 2 * n, 4 * n)
    ]
    ratios = [work[1] / work[0], work[2] / work[1]]
    assert max(ratios) < MAX_GROWTH, (shape, work, ratios)
    doc = parse(make(n), "http://h/", wpt=template)
    rows = doc["wpt"][0]["blocks"][0]["matches"]
    assert len(rows) == n and all(r["blocks"][0]["matches"] for r in rows)


def _held(parser: Parser) -> int:
    wpt = parser._wpt
    assert wpt is not None
    return (
        parser._sink.tracked
        + len(wpt._places)
        + len(wpt._candidates)
        + sum(len(q.entries) for q in wpt._queues.values())
    )


@pytest.mark.parametrize(
    "block",
    [
        '<ow:block ow:xpath=\'//*[@id="list"]/div\' ow:type="repeatable">row<ow:block ow:xpath="a">link</ow:block></ow:block>',
        '<ow:block ow:xpath="//div[@class=\'row\']/a/@href" ow:type="repeatable">link</ow:block>',
        '<ow:block ow:xpath="/html/body//div[contains(@class, \'row\')]/a/text()" ow:type="repeatable">t</ow:block>',
        "<ow:block ow:xpath='//*[@id=\"list\"]/div[last()]'>last</ow:block>",
    ],
)
def test_memory_is_flat_on_a_long_repeatable_stream(block: str) -> None:
    """What the parser holds (kept nodes, places, candidates, waiting matches) is the same
    after n and after 4n rows."""
    parser = Parser("http://h/", wpt=_template(block))
    parser.feed_events("<!doctype html><body><div id=list>")
    held: list[int] = []
    matches = 0
    n = 500
    for i in range(4 * n):
        events = parser.feed_events(f'<div class="row"><a href="/{i}">row {i}</a> <span>n{i}</span></div>\n')
        matches += sum(isinstance(e, WptMatchEvent) for e in events)
        if i + 1 in (n, 4 * n):
            held.append(_held(parser))
    events = parser.feed_events("</div>") + parser.close_events()
    matches += sum(isinstance(e, WptMatchEvent) for e in events)
    assert matches == (1 if "last()" in block else 4 * n)
    assert held[0] == held[1] and held[1] < 30, held
