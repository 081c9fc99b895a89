"""Which pending matches a completed kept subtree holds, in every regime of ``complete``.

When an outermost kept subtree is final (here an mf2 ``h-feed`` the capture keeps whole), the
WPT consumer finds the pending block matches inside it: through their parent links when few
(up to 8; 3 entries give 7 candidates), else in a walk of the subtree, unless, with at most 256
candidates, the walk takes more than two steps a candidate: then by climbs that stop at the
first ancestor an earlier climb answered (20 and 100 entries: 47 and 234 candidates; 150
entries, 350 candidates, are walked; in the table, whose rows are completed together, the walks
end within their budget but for the last rows with ``filler``). Each way must give exactly what
the same page gives without the ``h-feed`` class (each match then its own kept subtree,
completed alone), whole and in chunks.
"""

from __future__ import annotations

from typing import Any

import pytest

from stream_mf2 import Parser, parse
from stream_mf2.wpt import collect_pages, load
from tests.support import chunking

OW = 'xmlns:ow="http://www.omfica.org/schemas/ow/0.9"'
TEMPLATE = f"""<ow:wpt {OW} ow:host="example.com"><ow:template ow:name="feed">
<ow:block ow:xpath="//h2" ow:type="repeatable">entry.name</ow:block>
<ow:block ow:xpath='//p[contains(@class, "summary")]/text()' ow:type="repeatable">entry.summary</ow:block>
<ow:block ow:xpath="//article" ow:type="repeatable">entry<ow:block ow:xpath=".//a/@href" ow:type="repeatable">entry.link</ow:block></ow:block>
<ow:block ow:xpath="//h1">page.name</ow:block>
</ow:template></ow:wpt>"""


def page(entries: int, feed: bool, filler: int = 0, table: bool = False) -> bytes:
    """A page of ``entries`` entries: in a ``section`` (an ``h-feed`` if ``feed``), or ``table``:
    rows of a table (each an ``h-entry`` if ``feed``: completed together when the table closes)."""
    cell = "<td>" if table else ""
    tr = '<tr class="h-entry"><td>' if feed else "<tr><td>"
    rows = "".join(
        (tr if table else '<div class="row">')
        + f'<h2>Entry <b>{i}</b></h2>{cell}<p class="summary">About {i}</p>'
        + "<div><span>filler</span> <i>x</i></div>" * filler
        + (f'<article><a href="/e/{i}">read</a> <span><a href="/t/{i}">tag</a></span></article>' if i % 3 == 0 else "")
        + ("</td></tr>\n" if table else "</div>\n")
        for i in range(entries)
    )
    cls = ' class="h-feed"' if feed and not table else ""
    body = (
        f"<table><tbody>{rows}</tbody></table>" if table else f'<section{cls}><div class="wrap">{rows}</div></section>'
    )
    return (
        f"<!doctype html><html><head><title>t</title></head><body><h1>Feed</h1>"
        f"<main>{body}</main><footer><h2>After</h2></footer></body></html>"
    ).encode()


def wpt_of(pages: list[dict[str, Any]]) -> list[Any]:
    return [b["matches"] for b in pages[0]["blocks"]]


@pytest.mark.parametrize(
    ("entries", "filler", "table"),
    [(3, 0, False), (20, 0, False), (100, 3, False), (150, 3, False), (20, 0, True), (150, 3, True)],
)
def test_matches_inside_a_kept_root_are_those_of_the_page_without_it(entries: int, filler: int, table: bool) -> None:
    template = load(TEMPLATE).templates[0]
    want = wpt_of(parse(page(entries, False, filler, table), "http://example.com/", wpt=template)["wpt"])
    data = page(entries, True, filler, table)
    doc = parse(data, "http://example.com/", wpt=template)
    assert doc["items"] and doc["items"][0]["type"] == ["h-entry" if table else "h-feed"]  # (kept roots)
    assert wpt_of(doc["wpt"]) == want
    assert len(want[0]) == entries + 1 and len(want[2]) == (entries + 2) // 3
    for label, chunks in [("whole", [data]), *list(chunking.three_way(data, 6))]:
        parser = Parser("http://example.com/", wpt=template)
        events = [e for c in chunks for e in parser.feed_events(c)] + parser.close_events()
        assert wpt_of(collect_pages(events)) == want, label
