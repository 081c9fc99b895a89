"""The observed sink's ``withdraw`` and ``keep_holding`` (used by the WPT consumer's holding of
misnested markup, ``stream_mf2/wpt/_misnest.py``) keep the sink's invariants.

The WPT consumer runs on an :class:`ObservedSink` with the debug switch on (``check_shortcuts``:
every shortcut against its reference walk), over the legacy pages of ``fixtures/wpt/legacy/``
and a page that withdraws held subtrees again and again (a tiny ``max_misnest_nodes``), in
several chunkings. After every hand-over the count of open elements inside kept subtrees equals
a full count; the matches equal the parser's (which ``tests/wpt/test_legacy_misnesting.py``
compares with lxml over html5lib's tree); withdrawn content is released (the sink ends holding
no more than with holding off).
"""

from __future__ import annotations

from typing import Any

import pytest

from stream_mf2 import Parser
from stream_mf2.html.bounded.observed import ObservedSink
from stream_mf2.html.bounded.reference import count_open_inside
from stream_mf2.html.dom import Element
from stream_mf2.html.testing.tree import build
from stream_mf2.wpt import Block, Template, collect_pages
from stream_mf2.wpt._compile import compile_xpath
from stream_mf2.wpt._match import WptConsumer
from stream_mf2.wpt.apply import pages_for
from tests.support import chunking
from tests.support.suites import REPO

PATHS = [
    "//p",
    "//div/a",
    "/html/body/div/b/div/p",
    "/html/body/p[2]/font",
    '//*[@id="deals"]/b/div/p',
    "/html/body/ul/li[1]/div/a[1]/span",
    "/html/body/div/i/font/b",
]
TEMPLATE = Template(
    "t", None, None, tuple(Block(None, None, None, compile_xpath(p), None, True, (), 0, 0) for p in PATHS), 0, 0, "x"
)


def _churn(rows: int) -> str:
    return (
        '<body><b><font size="2"><b><div id="deals">'
        + "".join(
            f'<div class="row"><b><p>Deal {i}<i> now</b> only</i></p><a href="/{i}">more</a></div>' for i in range(rows)
        )
        + "</b><p>end</p>"
    )


PAGES = [(p.name, p.read_text("utf-8")) for p in sorted((REPO / "fixtures" / "wpt" / "legacy").glob("*.html"))]
PAGES.append(("churn", _churn(40)))
# a held subtree with a <select> inside: the sink refuses to withdraw it (held until handed over)
PAGES.append(
    ("select-churn", _churn(20).replace('<div id="deals">', '<div id="deals"><select><option>a<option>b</select>'))
)


def _checked(chunks: list[str], budget: int) -> tuple[list[list[str]], ObservedSink, list[str]]:
    """The matches, the sink, and the sink calls of the holding that did something."""
    created: list[Element] = []
    calls: list[str] = []
    events: list[Any] = []
    pages, _ = pages_for(TEMPLATE, "http://x/")
    wpt = WptConsumer(pages, events.append, max_misnest_nodes=budget)
    sink: ObservedSink

    def keep(el: Element) -> bool:
        created.append(el)
        return False

    def complete(root: Element) -> bool:
        assert sink.open_inside == count_open_inside(created)
        return wpt.complete(root)

    def withdraw(el: Element) -> bool:
        done = sink.withdraw(el)
        if done:
            calls.append("withdraw")
            assert sink.open_inside == count_open_inside(created)
        return done

    def keep_holding(el: Element) -> bool:
        done = sink.keep_holding(el)
        if done:
            calls.append("keep_holding")
            assert sink.open_inside == count_open_inside(created)
        return done

    sink = ObservedSink(keep, complete, wpt, check_shortcuts=True)
    wpt.attach_holding(withdraw, keep_holding)
    build(chunks, sink)
    assert sink.open_inside == count_open_inside(created)
    wpt.finish()
    page = collect_pages(events)[0]
    return [[m["xpath"] for m in b["matches"]] for b in page["blocks"]], sink, calls


def _parsed(html: str, budget: int) -> list[list[str]]:
    parser = Parser("http://x/", wpt=TEMPLATE, max_misnest_nodes=budget)
    events = parser.feed_events(html) + parser.close_events()
    return [[m["xpath"] for m in b["matches"]] for b in collect_pages(events)[0]["blocks"]]


@pytest.mark.parametrize("budget", [4096, 12, 0])
@pytest.mark.parametrize(("name", "html"), PAGES, ids=[p[0] for p in PAGES])
def test_holding_keeps_the_sink_invariants(name: str, html: str, budget: int) -> None:
    want = _parsed(html, budget)
    runs = [("whole", [html]), ("random", chunking.random_chunks(html, chunking.SEED))]
    if len(html) < 800:
        runs.append(("one-by-one", chunking.one_by_one(html)))
    for label, chunks in runs:
        got, sink, calls = _checked(chunks, budget)
        assert got == want, (name, label)
        assert sink.kept_nodes == 0, (name, label)
        if name == "churn" and budget == 12:
            assert "withdraw" in calls  # (the path this test is for)
        if name == "nested-bold-font.html" and budget == 4096:
            assert calls  # the adoption agency's clones around the held div
