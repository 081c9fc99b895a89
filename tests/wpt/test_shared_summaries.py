"""A template's summaries of states tuples are shared by the parses of its plan.

A summary (what an element name can do to a states tuple, and the start-tag table filled from
it) is a function of the paths, the states tuple, the paths still followed and whether
misnested formatting is held: the plan keeps one set per such case for every page the template
parses (``WptConsumer._summary``). A page parsed after others with the same template object
must give exactly what it gives with a template loaded afresh (a new plan, no summaries yet),
whole and in chunks, in either order of the pages, with holding on and off (a start-tag table
made without holding lets formatting elements by unnoted).
"""

from __future__ import annotations

from typing import Any

import pytest

from bench.wpt_bench import REALISTIC, forum_pages
from stream_mf2 import Parser, parse
from stream_mf2.wpt import collect_pages, load
from tests.support.suites import REPO

PAGES = sorted((REPO / "fixtures" / "wpt" / "pages").glob("*.html")) + sorted(
    (REPO / "fixtures" / "wpt" / "legacy").glob("*.html")
)


def _data() -> list[bytes]:
    return [p.read_bytes() for p in PAGES] + [forum_pages()[1][1]]


def _wpt(data: bytes, template: Any, **options: Any) -> Any:
    return parse(data, "http://example.com/", wpt=template, **options)["wpt"]


@pytest.mark.parametrize("name", [name for name, _, _ in REALISTIC])
def test_a_page_after_others_is_as_with_a_fresh_template(name: str) -> None:
    xml = {n: x for n, _, x in REALISTIC}[name]
    pages = _data()
    modes: list[dict[str, Any]] = [{}, {"max_misnest_nodes": 0}]
    want = [[_wpt(data, load(xml).templates[0], **options) for options in modes] for data in pages]
    shared = load(xml).templates[0]
    for order in (list(range(len(pages))), list(range(len(pages)))[::-1]):
        for i in order:
            for m in (0, 1, 0):  # the default misnesting budget, none, the default again
                assert _wpt(pages[i], shared, **modes[m]) == want[i][m], [*PAGES, "forum-21"][i]
    # in chunks too, after all of that
    data = pages[-1]
    parser = Parser("http://example.com/", wpt=shared)
    events = [e for i in range(0, len(data), 7) for e in parser.feed_events(data[i : i + 7])] + parser.close_events()
    assert collect_pages(events) == want[-1][0]


#: ``//`` paths to special elements only: the formatting elements around them are let by the
#: start-tag tables, which must note them when holding (and only then)
SPECIAL = (
    '<ow:wpt xmlns:ow="http://www.omfica.org/schemas/ow/0.9" ow:host="example.com"><ow:template ow:name="s">'
    + "".join(
        f'<ow:block ow:xpath="//{n}" ow:type="repeatable">b.{n}</ow:block>'
        for n in ("p", "div", "li", "h1", "h2", "h3", "table", "td", "tr", "ul", "blockquote", "center", "dd")
    )
    + "</ow:template></ow:wpt>"
)


def test_legacy_pages_holding_and_not_share_nothing_they_should_not() -> None:
    """The misnested legacy pages (where holding changes the matches): not holding (as with
    ``stream_children``, whose nested hand-overs holding does not support), holding,
    not holding again with one template object, each as with a fresh one."""
    modes: list[dict[str, Any]] = [{"stream_children": True}, {}]
    differ = 0
    legacy = sorted((REPO / "fixtures" / "wpt" / "legacy").glob("*.html"))
    want = {p: [_wpt(p.read_bytes(), load(SPECIAL).templates[0], **options) for options in modes] for p in legacy}
    differ = sum(w[0] != w[1] for w in want.values())
    assert differ >= 10  # (holding matters on most of them)
    shared = load(SPECIAL).templates[0]
    for m in (0, 1, 0, 1):
        for path in legacy:
            assert _wpt(path.read_bytes(), shared, **modes[m]) == want[path][m], (path.name, m)
