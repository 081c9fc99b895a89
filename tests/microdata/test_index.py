"""Each item's ``MicrodataItem.index`` is its place in the page's list, final when it is emitted.

The line front ends write each microdata item as its event comes, at the place the event
says (:mod:`stream_mf2.core.syntax_results`): so on every page, in both forms, whole and in
random chunkings, the indexes are the list's places exactly, each item's entry is the list's
entry there, and only the page item (``<html itemscope>``/``<body itemscope>``, emitted at the
end) lands before items emitted already, including one whose ``<body>`` gains ``itemscope``
from a later start tag, and items held for ``itemref`` targets.
"""

from __future__ import annotations

import pytest

from stream_mf2 import Parser
from stream_mf2.microdata import MicrodataItem
from stream_mf2.microdata.events import extruct_result
from tests.microdata.pages import PAGES
from tests.support.chunking import RANDOM_RUNS, SEED, random_chunks

URL = "https://shop.example/"
#: A WordPress theme's late ``<body itemscope>`` (a second body tag, from a plugin's template),
#: after items, with an item waiting for an ``itemref`` target that comes after it.
LATE_BODY = (
    '<!doctype html><title>Shop</title><div itemscope itemtype="https://schema.org/Organization">'
    '<b itemprop="name">Kettle &amp; Leaf</b></div><body class="home"><p itemprop="headline">x</p>'
    '<div itemscope itemtype="https://schema.org/Product" itemref="price-1"><i itemprop="name">Pot</i></div>'
    '<body itemscope itemtype="https://schema.org/WebPage"><p itemprop="name">Home</p>'
    '<p id="price-1" itemprop="price">20.00</p><div itemscope itemtype="https://schema.org/Offer">3</div>'
)
CASES = {**PAGES, "late-body-itemscope": LATE_BODY}


def _events(chunks: list[str], form: str) -> list[MicrodataItem]:
    parser = Parser(URL, syntaxes={"microdata"}, microdata_form=form)
    out: list[object] = []
    for chunk in chunks:
        out += parser.feed_events(chunk)
    out += parser.close_events()
    return [e for e in out if type(e) is MicrodataItem]


@pytest.mark.parametrize("form", ["extruct", "whatwg"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_index_is_the_place_in_the_list(name: str, form: str) -> None:
    html = CASES[name]
    for chunks in [[html], *(random_chunks(html, SEED + k) for k in range(RANDOM_RUNS))]:
        events = _events(chunks, form)
        listed = extruct_result(events)
        assert sorted(e.index for e in events) == list(range(len(listed)))
        assert all(listed[e.index] == e.item for e in events)
        pages = [e for e in events if e.page >= 0]
        # emitted in the list's order, but the page item: last, with its place
        others = [e.index for e in events if e.page < 0]
        assert others == sorted(others)
        if pages:
            assert pages == [events[-1]] and events[-1].index == events[-1].page


def test_the_cases_have_page_items_placed_before_items_emitted() -> None:
    """Else the test above would not see the page item land before what was emitted."""
    for name in ("page-item-body", "page-item-html", "late-body-itemscope"):
        events = _events([CASES[name]], "extruct")
        assert events[-1].page >= 0 and events[-1].index < len(events) - 1, name
