"""Items held in nested open tables are handed over in linear time (fuzz finding F5).

A kept element inside an open ``table`` is held until no open table is above it
(foster parenting could still put content before it). With n nested tables, each
holding an item, the bounded sink used to wake every held item at each table's
pop and climb all of its ancestors again, and to sort the ready items by their
child-index paths (as long as the depth): cubic work. Now a held item waits for
the outermost open table, runs of popped ancestors are climbed once, and items
are put in document order by one walk of their ancestors.

Work is the number of engine lines executed (deterministic, see
``tests/support/work.py``) at n, 2n and 4n; output is checked against the
full-DOM parse and in every chunking.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pytest

import stream_mf2
from stream_mf2.html.testing import parse_document
from stream_mf2.mf2 import Options, parse_dom
from tests.support import chunking
from tests.support.builds import pure_only
from tests.support.work import lines_executed

_FUZZ_FIRST = "<th>text<keygen><table><tr><td>\t\r"
_FUZZ_SECOND = (
    "<colgroup shape=\"default\"><select><option><search class='org' title=\"T\" href=\"/a\">></caption>"
    "<LISTING class='p-author dtend h-geo' itemref=\"id2 id1\">\U0001f600<pre class='entry-title'>"
)

PATTERNS: dict[str, Callable[[int], str]] = {
    # the fuzz finding as found (tests.fuzz.growth.document of its blocks)
    "fuzz-f5": lambda n: "</dir>" + _FUZZ_FIRST * n + _FUZZ_SECOND * n,
    "item-in-each-nested-table": lambda n: "<table><tr><td><div class=h-card>x</div>" * n,
    "then-items-after": lambda n: "<table><tr><td><div class=h-card>x</div>" * n + "<p class=h-card>y</p>" * n,
}


@pure_only  # counts executed Python lines (sys.settrace), which compiled code does not report
@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_work_grows_linearly(name: str) -> None:
    make = PATTERNS[name]
    work = [lines_executed(partial(stream_mf2.parse, make(n))) for n in (50, 100, 200)]
    ratios = [work[1] / work[0], work[2] / work[1]]
    assert all(r < 2.6 for r in ratios), f"{name}: lines executed {work}, ratios {ratios}"


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_output_equals_full_dom_in_every_chunking(name: str) -> None:
    doc = PATTERNS[name](6)
    url = "http://example.com/"
    expected = parse_dom(parse_document(doc), url, Options())["items"]
    assert expected, "the pattern must make items"
    for label, chunks in chunking.chunkings(doc, splits=False):
        parser = stream_mf2.Parser(url)
        items = [i for c in chunks for i in parser.feed(c)] + parser.close()
        assert items == expected, label
