"""Misnested legacy markup (issue 25, item 3): WPT matches equal a browser's DOM, within a budget.

Each page of ``fixtures/wpt/legacy/`` is a 2000s snippet whose formatting tags a browser
repairs with the adoption agency algorithm (a ``<font>`` around paragraphs, an ``<a>``
around a card ``div``, ``<center><b>`` or ``<u>`` spanning blocks, nested ``<a>``). The
template has one block per element of html5lib's tree, with the XPath a browser's "Copy
XPath" gives it (computed here from html5lib's tree: ``//*[@id="x"]/...`` below the nearest
id, positions only where same-name siblings need them). The matches (path and text) must
be exactly lxml's XPath over html5lib's tree, without a ``wpt:`` warning, in every chunking.

With ``max_misnest_nodes=0`` nothing is held: the matches are the streaming ones, and every
difference carries a warning (so past the budget nothing is silent). A hostile page (thousands
of unclosed ``<b>``/``<font>``, a block held under them that grows, the adoption agency churning
on every row) stays bounded: what the sink keeps is the same at n, 2n and 4n rows, the work
grows linearly (lines executed), and the warning comes.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest

from stream_mf2 import Parser, parse
from stream_mf2.wpt import Block, Template, collect_pages
from stream_mf2.wpt._compile import compile_xpath
from tests.support import chunking
from tests.support.suites import REPO
from tests.support.work import lines_executed

html5lib = pytest.importorskip("html5lib")
pytest.importorskip("lxml.etree")

LEGACY = sorted((REPO / "fixtures" / "wpt" / "legacy").glob("*.html"))
MAX_GROWTH = 2.6


def copy_xpath(el: Any) -> str:
    """The XPath a browser's "Copy XPath" gives ``el`` (Chrome's form)."""
    steps: list[str] = []
    while True:
        parent = el.getparent()
        if parent is None:
            steps.append(f"/{el.tag}")
            break
        if el.get("id") is not None:
            steps.append(f'//*[@id="{el.get("id")}"]')
            break
        same = [s for s in parent if s.tag == el.tag]
        steps.append(f"/{el.tag}" + (f"[{same.index(el) + 1}]" if len(same) > 1 else ""))
        el = parent
    return "".join(reversed(steps))


def canonical(el: Any) -> str:
    """The path our matches report: every step with its position among same-name siblings."""
    steps = []
    while el is not None:
        steps.append(f"/{el.tag}[{1 + sum(1 for _ in el.itersiblings(el.tag, preceding=True))}]")
        el = el.getparent()
    return "".join(reversed(steps))


def oracle(data: bytes) -> tuple[list[str], list[list[tuple[str, str]]]]:
    """Every element's "Copy XPath" on html5lib's tree, and what lxml selects with each."""
    doc = html5lib.parse(data, treebuilder="lxml", namespaceHTMLElements=False)
    paths = sorted({copy_xpath(e) for e in doc.getroot().iter() if isinstance(e.tag, str)})
    want = [[(canonical(e), " ".join("".join(e.itertext()).split())) for e in doc.xpath(p)] for p in paths]
    return paths, want


def template(paths: list[str]) -> Template:
    blocks = tuple(Block(None, None, None, compile_xpath(p), None, True, (), 0, 0) for p in paths)
    return Template("copy-xpath", None, None, blocks, 0, 0, "example.com")


def stream(t: Template, chunks: list[bytes], **options: Any) -> tuple[list[list[tuple[str, str]]], list[str]]:
    parser = Parser("http://example.com/", wpt=t, **options)
    events = []
    for c in chunks:
        events.extend(parser.feed_events(c))
    events.extend(parser.close_events())
    page = collect_pages(events)[0]
    got = [[(m["xpath"], " ".join(m["text"].split())) for m in b["matches"]] for b in page["blocks"]]
    return got, [e for e in page.get("errors", []) if e.startswith("wpt: ")]


def runs(data: bytes) -> list[tuple[str, list[bytes]]]:
    out: list[tuple[str, list[bytes]]] = [("whole", [data]), ("bytes", chunking.one_by_one(data))]
    two = list(chunking.two_way(data))
    out.extend(two[:: max(1, len(two) // 24)])
    out.extend(chunking.three_way(data, 12))
    out.extend((f"random({chunking.SEED + k})", chunking.random_chunks(data, chunking.SEED + k)) for k in range(3))
    return out


def test_the_snippets_are_misnested() -> None:
    """At least ten pages, and in each the adoption agency moves an element a path goes through."""
    assert len(LEGACY) >= 10
    moved = 0
    for path in LEGACY:
        data = path.read_bytes()
        paths, want = oracle(data)
        got, warnings = stream(template(paths), [data], max_misnest_nodes=0)
        if got != want:
            moved += 1
            assert warnings, f"{path.name}: streaming matches differ without a warning"
    # (what holding repairs: without it, most of the pages lose matches)
    assert moved >= 10


@pytest.mark.parametrize("path", LEGACY, ids=[p.name for p in LEGACY])
def test_copy_xpath_matches_equal_html5lib_in_every_chunking(path: Path) -> None:
    data = path.read_bytes()
    paths, want = oracle(data)
    assert all(want), "every Copy XPath selects its element"
    t = template(paths)
    for label, chunks in runs(data):
        got, warnings = stream(t, chunks)
        bad = [(p, w, g) for p, w, g in zip(paths, want, got, strict=True) if w != g]
        assert not bad, f"{path.name} [{label}]: {bad[:3]}"
        assert not warnings, f"{path.name} [{label}]: {warnings}"


def test_parse_gives_the_same_matches() -> None:
    """``parse()`` (the JSON front end) agrees with the event stream on a legacy page."""
    data = (REPO / "fixtures" / "wpt" / "legacy" / "anchor-card.html").read_bytes()
    paths, want = oracle(data)
    doc = parse(data, "http://example.com/", wpt=template(paths))
    got = [[(m["xpath"], " ".join(m["text"].split())) for m in b["matches"]] for b in doc["wpt"][0]["blocks"]]
    assert got == want


def hostile(rows: int, opens: int = 1000) -> str:
    """Thousands of unclosed ``<b>``/``<font>``, then one block held under them that grows
    with the rows (each row misnesting ``<b>`` around a paragraph), closed by ``</b>`` at the
    end: the adoption agency moves the block after it outgrew the budget."""
    head = "<!doctype html><html><head><title>Deals</title></head><body>"
    churn = "".join(
        f'<div class="row"><b><p class="deal">Deal {i}<i> now</b> only</i></p><a href="/d/{i}">more</a></div>'
        for i in range(rows)
    )
    return head + '<b><font size="2">' * opens + '<b><div id="deals">' + churn + "</b><p>end</p>"


#: paths a browser gives to the rows once the final ``</b>`` moved them into a clone of ``<b>``
HOSTILE_PATHS = ['//*[@id="deals"]/b/div/p', '//*[@id="deals"]/b/div/a']
BUDGET = 300


def stored(root: Any) -> int:
    """Every node the sink's tree holds (open elements, kept and held subtrees, text)."""
    n = 0
    stack = [root]
    while stack:
        node = stack.pop()
        n += 1
        stack.extend(getattr(node, "children", ()))
    return n


def _run_hostile(rows: int, budget: int) -> tuple[int, list[str]]:
    """The most nodes the sink held at once over the page, and the page's warnings."""
    data = hostile(rows).encode()
    # (max_prefix_nodes=0: the body's tentative content is not what is measured here)
    parser = Parser("http://example.com/", wpt=template(HOSTILE_PATHS), max_misnest_nodes=budget, max_prefix_nodes=0)
    most = 0
    events = []
    for i, chunk in enumerate(chunking.random_chunks(data, chunking.SEED)):
        events.extend(parser.feed_events(chunk))
        if i % 16 == 0:
            most = max(most, stored(parser._sink.document))
    events.extend(parser.close_events())
    page = collect_pages(events)[0]
    return most, [e for e in page.get("errors", []) if e.startswith("wpt: ")]


def test_hostile_page_stays_bounded_and_warns() -> None:
    n = 250
    held = []
    for rows in (n, 2 * n, 4 * n):
        most, warnings = _run_hostile(rows, BUDGET)
        plain, _ = _run_hostile(rows, 0)  # nothing held: the open elements alone
        held.append(most - plain)
        # past the budget: the streaming matches, with the warning where a path changed
        assert warnings, rows
    # flat: the same at n, 2n and 4n rows (up to where the samples fall in a row)
    assert max(held) - min(held) <= 16, held
    assert 0 < held[0] < 3 * BUDGET, held


def test_hostile_page_work_is_linear() -> None:
    n = 150
    t = template(HOSTILE_PATHS)
    work = [
        lines_executed(
            partial(parse, hostile(k, k), "http://example.com/", wpt=t, max_misnest_nodes=BUDGET), ("/stream_mf2/",)
        )
        for k in (n, 2 * n, 4 * n)
    ]
    ratios = [work[1] / work[0], work[2] / work[1]]
    assert max(ratios) < MAX_GROWTH, (work, ratios)


def test_within_the_budget_the_hostile_shape_is_exact() -> None:
    """The same shape, small enough to be held whole: exact, no warning."""
    data = hostile(12, 40).encode()  # (about 100 elements held)
    paths, want = oracle(data)
    got, warnings = stream(template(paths), chunking.random_chunks(data, chunking.SEED))
    assert got == want and not warnings
