"""Streaming the children of a container (``stream_children``) costs linear work in the nesting.

The capture asks, for each final nested root or rel link, which root will list
it among its ``children`` (:func:`stream_mf2.mf2.child_of`), whether a rel link
encloses it, and what scope folding it needs (:func:`stream_mf2.mf2.fold_nested`).
Each climbed every ancestor: quadratic for n nested roots. They now share a
:class:`~stream_mf2.mf2.items.ScopeChain` that remembers the ancestors of the
last element asked about.

Work is the number of lines executed (deterministic, see
``tests/support/work.py``) at n, 2n and 4n of the patterns in
``tests/support/nesting_patterns.py``: of the mf2 layer and the
capture for every pattern, and of the whole package for the patterns whose tree
building is linear too. Output is checked against the full-DOM parse, whole and
in every chunking, with and without ``stream_children``. A white-box check
compares the remembered scopes with plain climbs while elements move.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial

import pytest

import stream_mf2
from stream_mf2.html.dom import HTML_NS, Document, Element, Node, ParentNode, iter_descendants
from stream_mf2.html.sink import append_child
from stream_mf2.html.testing import parse_document
from stream_mf2.mf2 import Mf2Context, Options, child_of, element_root_types, parse_dom
from stream_mf2.mf2 import items as items_module
from stream_mf2.mf2.classes import class_list
from stream_mf2.mf2.items import ScopeChain
from stream_mf2.mf2.rels import is_rel_link
from tests.support import chunking
from tests.support.bounded_sink import tag_soup
from tests.support.builds import pure_only
from tests.support.nesting_patterns import PATTERNS
from tests.support.streamed import stream_events
from tests.support.work import lines_executed

URL = "http://example.com/"

#: Patterns whose tree building (the bounded sink) is not linear yet: only the mf2
#: layer and the capture are measured for them.
SINK_BOUND: frozenset[str] = frozenset()

MAX_GROWTH = 2.6

#: Patterns built at 4n: counting the lines of the whole parse takes seconds (``slow``).
SLOW_WHOLE_PARSE = frozenset(("items-in-nested-tables-woken-together", "rows-held-by-a-table-while-items-go"))
_MF2_LAYER = ("/stream_mf2/mf2/", "/stream_mf2/mf2/capture.py")


def _growth(doc: Callable[[int], str], modules: tuple[str, ...]) -> tuple[list[int], list[float]]:
    work = [
        lines_executed(partial(stream_mf2.parse, doc(n), URL, stream_children=True), modules) for n in (50, 100, 200)
    ]
    return work, [work[1] / work[0], work[2] / work[1]]


@pure_only  # counts executed Python lines (sys.settrace), which compiled code does not report
@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_mf2_layer_work_grows_linearly(name: str) -> None:
    work, ratios = _growth(PATTERNS[name], _MF2_LAYER)
    assert max(ratios) < MAX_GROWTH, f"{name}: lines executed {work}, ratios {ratios}"


@pure_only  # counts executed Python lines
@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW_WHOLE_PARSE else n for n in sorted(set(PATTERNS) - SINK_BOUND)]
)
def test_whole_parse_work_grows_linearly(name: str) -> None:
    work, ratios = _growth(PATTERNS[name], ("/stream_mf2/",))
    assert max(ratios) < MAX_GROWTH, f"{name}: lines executed {work}, ratios {ratios}"


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_output_equals_full_dom_in_every_chunking(name: str) -> None:
    doc = PATTERNS[name](5)
    expected = parse_dom(parse_document(doc), URL, Options())["items"]
    assert expected, "the pattern must make items"
    for label, chunks in chunking.chunkings(doc, splits=False):
        for stream_children in (False, True):
            parser = stream_mf2.Parser(URL, stream_children=stream_children)
            items = [i for c in chunks for i in parser.feed(c)] + parser.close()
            assert items == expected, f"{name} {label} stream_children={stream_children}"
            streamed, _errors = stream_events(chunks, URL, stream_children=stream_children)
            assert streamed["items"] == expected, f"{name} {label} stream_children={stream_children} (events)"


#: Patterns whose output nests 4n items deep: compared at a size whose output ``==``
#: still stays within the interpreter's recursion limit.
DEEP = frozenset(("items-in-nested-tables-woken-together", "rows-held-by-a-table-while-items-go"))


def test_whole_parse_at_size() -> None:
    for name, make in PATTERNS.items():
        doc = make(100 if name in DEEP else 300)
        assert stream_mf2.parse(doc, URL, stream_children=True) == stream_mf2.parse(doc, URL), name


# ------------------------------------------------------------------ white box


def _ancestors(element: Element) -> list[Element]:
    out: list[Element] = []
    node: ParentNode | None = element.parent
    while isinstance(node, Element):
        out.append(node)
        node = node.parent
    out.reverse()
    return out


def reference_scope(element: Element, ctx: Mf2Context) -> tuple[Element | None, bool, bool]:
    """The nearest root above ``element``, whether a property lies between the outermost
    root and ``element``, whether a template encloses it: every ancestor climbed."""
    frame: items_module._Frame | None = None
    blocked = template = False
    for ancestor in _ancestors(element):
        classes = class_list(ancestor)
        if frame is not None and not blocked and (classes or frame.backcompat):
            blocked = bool(items_module._scope_properties(ancestor, classes, frame))
        if classes:
            types, is_bc = element_root_types(ancestor, classes, ctx, frame)
            if types:
                frame = items_module._Frame(ancestor, types, is_bc, ())
        if ancestor.name == "template" and ancestor.namespace == HTML_NS:
            template = True
    return (frame.element if frame is not None else None), blocked, template


def reference_in_rel_link(element: Element, top: Element) -> bool:
    node: ParentNode | None = element.parent
    while isinstance(node, Element):
        if is_rel_link(node):
            return True
        if node is top:
            break
        node = node.parent
    return False


def _check_document(doc: Document, rng: random.Random) -> int:
    ctx = Mf2Context(URL, Options())
    scopes = ScopeChain(ctx)
    version = 0
    scopes.sync(version)
    checked = 0
    elements = [n for n in iter_descendants(doc) if isinstance(n, Element)]
    for step in range(3 * len(elements)):
        r = rng.random()
        if r < 0.15 and len(elements) > 2:
            # move an element (and its subtree) under another one outside that subtree
            node, target = rng.sample(elements, 2)
            if not _is_inside(target, node):
                append_child(target, node)
                version += 1
        elif r < 0.2:
            body = next((e for e in elements if e.name == "body"), None)
            if body is not None:  # a later <body> tag merged a class in
                body.attrs["class"] = rng.choice(["h-feed", "p-x h-y", "x"])
        scopes.sync(version)
        # mostly in document order (the hand-over's), sometimes anywhere
        element = elements[step % len(elements)] if rng.random() < 0.7 else rng.choice(elements)
        want_root, want_blocked, want_template = reference_scope(element, ctx)
        frame, blocked, template, _rel = scopes.scope_of(element)
        assert (frame.element if frame is not None else None) is want_root
        assert template == want_template
        if want_root is not None:
            assert blocked == want_blocked
        tops = _ancestors(element)
        if tops:
            top = rng.choice(tops)
            assert scopes.in_rel_link(element, top) == reference_in_rel_link(element, top)
        assert child_of(element, ctx, scopes) is child_of(element, ctx)
        checked += 1
    return checked


def _is_inside(node: Node, ancestor: Element) -> bool:
    current: Node | ParentNode | None = node
    while current is not None:
        if current is ancestor:
            return True
        current = current.parent
    return False


_CLASSES = ["h-x", "h-y p-a", "p-b", "vcard", "hreview", "item", "fn", "u-url h-card", ""]


def _soup(rng: random.Random) -> str:
    out: list[str] = []
    tags = ["div", "a", "span", "b", "template", "p", "table", "td", "link", "area"]
    for _ in range(rng.randint(5, 60)):
        r = rng.random()
        if r < 0.55:
            tag = rng.choice(tags)
            cls = rng.choice(_CLASSES)
            rel = " rel=me href=/x" if tag in ("a", "link", "area") and rng.random() < 0.6 else ""
            out.append(f"<{tag} class='{cls}'{rel}>")
        elif r < 0.85:
            out.append(f"</{rng.choice(tags)}>")
        else:
            out.append("x")
    return "".join(out)


@pytest.mark.parametrize("seed", range(chunking.SEED, chunking.SEED + 3))
def test_scope_chain_equals_plain_climbs(seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    docs = [_soup(rng) for _ in range(80)] + [tag_soup(rng) for _ in range(40)]
    docs += [make(4) for make in PATTERNS.values()]
    for html in docs:
        checked += _check_document(parse_document(html), rng)
    assert checked > 1000
