"""The HTML ``selectedcontent`` *disabled* state, in both sinks.

A selectedcontent is disabled when an ``option`` or a ``selectedcontent`` lies
above it, or more than one ``select`` (its post-connection steps, run again
whenever it is moved). "Get a select's enabled selectedcontent" is the select's
first selectedcontent descendant in tree order, nested selects' included, or
none when that one is disabled (a later one is not looked at) or the select has
``multiple``. An option's end clones it only into that one: no clone target lies
inside an option, so a clone never copies earlier clones (a selectedcontent in
its own option, repeated, was exponential work).
"""

from __future__ import annotations

from functools import partial

import pytest

import stream_mf2
from stream_mf2 import Parser
from stream_mf2.html.dom import HTML_NS, Element
from stream_mf2.html.sink import enabled_selectedcontent, selectedcontent_disabled
from stream_mf2.html.testing import parse_document, tree_for_test
from stream_mf2.mf2 import Options, parse_dom
from tests.support.builds import pure_only
from tests.support.chunking import chunkings
from tests.support.work import lines_executed

URL = "http://example.com/"

_FOREIGN_SELECT = "<svg><foreignObject><select>"  # (a select nests in another only through foreign content)

#: (document, its html5lib-tests tree dump, below ``| <html>``/``|   <head>``/``|   <body>``)
TREES = [
    pytest.param(
        "<select><option selected>a<selectedcontent>b</selectedcontent></option><option>c</select>",
        """
|     <select>
|       <option>
|         selected=""
|         "a"
|         <selectedcontent>
|           "b"
|       <option>
|         "c"
""",
        id="in-its-option",
    ),
    pytest.param(
        # the inner selectedcontent has two selects above it; the outer select's first
        # selectedcontent is that (disabled) one, so the later enabled one gets nothing
        "<select>" + _FOREIGN_SELECT + "<selectedcontent></selectedcontent><option>in</select></foreignObject></svg>"
        "<button><selectedcontent></selectedcontent></button><option>x</select>",
        """
|     <select>
|       <svg svg>
|         <svg foreignObject>
|           <select>
|             <selectedcontent>
|             <option>
|               "in"
|       <button>
|         <selectedcontent>
|       <option>
|         "x"
""",
        id="in-a-nested-select",
    ),
    pytest.param(
        "<selectedcontent><select><selectedcontent></selectedcontent><option>x</select>",
        """
|     <selectedcontent>
|       <select>
|         <selectedcontent>
|         <option>
|           "x"
""",
        id="in-another-selectedcontent",
    ),
    pytest.param(
        "<select multiple><button><selectedcontent></selectedcontent></button><option>x</select>",
        """
|     <select>
|       multiple=""
|       <button>
|         <selectedcontent>
|       <option>
|         "x"
""",
        id="multiple",
    ),
    pytest.param(
        "<select><option>a<selectedcontent></selectedcontent></option>"
        "<button><selectedcontent></selectedcontent></button><option selected>b</select>",
        """
|     <select>
|       <option>
|         "a"
|         <selectedcontent>
|       <button>
|         <selectedcontent>
|       <option>
|         selected=""
|         "b"
""",
        id="first-disabled-second-enabled",
    ),
    pytest.param(
        # the enabled one first: it gets the option's children, a (disabled) selectedcontent included
        "<select><button><selectedcontent></selectedcontent></button><option>a<selectedcontent></selectedcontent>"
        "</option></select>",
        """
|     <select>
|       <button>
|         <selectedcontent>
|           "a"
|           <selectedcontent>
|       <option>
|         "a"
|         <selectedcontent>
""",
        id="first-enabled",
    ),
    pytest.param(
        # the adoption agency algorithm moves it out of the option: enabled again there
        "<select><b><option>o<div><selectedcontent>s</b>x</select>",
        """
|     <select>
|       <b>
|         <option>
|           "o"
|       <div>
|         <b>
|           <selectedcontent>
|             "o"
|         "x"
""",
        id="moved-out-of-its-option",
    ),
]


@pytest.mark.parametrize(("doc", "tree"), TREES)
def test_tree(doc: str, tree: str) -> None:
    expected = "| <html>\n|   <head>\n|   <body>" + tree.rstrip("\n")
    for name, chunks in chunkings(doc, splits=False):
        assert tree_for_test(chunks) == expected, name


def test_template_contents_follow_the_same_rule() -> None:
    # Template contents are not connected, so HTML never runs the post-connection steps
    # there and every selectedcontent stays enabled; the sink applies the same rule as in
    # the document instead (a documented choice: otherwise a template would bring the
    # exponential clones back).
    tree = tree_for_test(["<template><select><option>a<selectedcontent>b</select></template>"])
    assert tree.endswith('<selectedcontent>\n|               "b"\n|   <body>')


def _selectedcontents(doc: str) -> list[Element]:
    found: list[Element] = []
    stack: list[object] = [parse_document(doc)]
    while stack:
        node = stack.pop()
        if isinstance(node, Element) and node.name == "selectedcontent" and node.namespace == HTML_NS:
            found.append(node)
        stack.extend(reversed(getattr(node, "children", [])))
    return found


def test_disabled_state_and_enabled_selectedcontent() -> None:
    first, second = _selectedcontents(str(TREES[4].values[0]))
    assert selectedcontent_disabled(first) and not selectedcontent_disabled(second)
    select = first.parent.parent if first.parent is not None else None
    assert isinstance(select, Element) and select.name == "select"
    assert enabled_selectedcontent(select) is None  # (the first one decides)
    inner, outer = _selectedcontents(str(TREES[1].values[0]))
    assert selectedcontent_disabled(inner) and not selectedcontent_disabled(outer)


#: Items around disabled and enabled selectedcontent elements: the streamed items equal the
#: full DOM's, in every chunking and with ``stream_children``, with no note.
EXACT = [
    "<select><option>a<selectedcontent class=h-x>b</selectedcontent></option><option>c</select>",
    "<select><option class=h-y>a<selectedcontent class=p-name>b</selectedcontent></option></select>",
    "<select>" + _FOREIGN_SELECT + "<selectedcontent class=h-x>i</selectedcontent><option>in</select></foreignObject>"
    "</svg><button><selectedcontent class=h-y></selectedcontent></button><option>x</select>",
    "<select>" + _FOREIGN_SELECT + "<selectedcontent>i</selectedcontent><option>in</select></foreignObject>"
    "</svg><button><selectedcontent class=h-y></selectedcontent></button><option>x</select>",
    "<select>" + _FOREIGN_SELECT + "<option>in</select></foreignObject>"
    "</svg><button><selectedcontent class=h-y></selectedcontent></button><option>x</select>",
    "<selectedcontent class=h-x><select><selectedcontent class=h-y>y</selectedcontent><option>x</select>",
    "<select multiple><button><selectedcontent class=h-x></selectedcontent></button><option>x</select>",
    "<select><option>a<selectedcontent></selectedcontent></option>"
    "<button><selectedcontent class=h-x>k</selectedcontent></button><option selected>b</select>",
    "<select><option>a<selectedcontent class=h-z></selectedcontent></option>"
    "<button><selectedcontent class=h-x>k</selectedcontent></button><option selected>b</select>",
    "<select><button><selectedcontent class=h-x></selectedcontent></button><option>a<selectedcontent class=h-y>"
    "</selectedcontent></option></select>",
    "<div class=h-x><select><b><option>o<div><selectedcontent class=p-name>s</b>x</select></div>",
    "<select><option>a<selectedcontent class=h-x>b</select><p class=h-y>after",
]


@pytest.mark.parametrize("doc", EXACT)
def test_items_equal_the_full_dom(doc: str) -> None:
    full = parse_dom(parse_document(doc), URL, Options())["items"]
    assert full
    for stream_children in (False, True):
        for label, chunks in chunkings(doc):
            parser = Parser(URL, stream_children=stream_children)
            items = [i for c in chunks for i in parser.feed(c)] + parser.close()
            assert items == full, (label, stream_children)
            assert parser.errors == [], (label, stream_children)


_FUZZ_BLOCK = (
    "<MARQUEE></p><pre class='h- value' itemref=\"id1\"></applet><select><option>&amp;<body class=h-entry>"
    '<selectedcontent alt="Alt" lang="en">'
)

#: n blocks, each nesting the next (a <marquee> is a scope boundary, so the selects nest).
GROWTH = {
    # each option's end cloned its whole subtree, earlier clones included: exponential
    "own-option-nested": lambda n: "<select><option><selectedcontent></selectedcontent>x<marquee>" * n,
    "own-option-nested-items": lambda n: "<p class=h-y>y</p>"
    + "<select><option><selectedcontent class=h-x></selectedcontent>x<marquee>" * n,
    # the fuzz finding (n² clones: each selectedcontent held every later block)
    "fuzz": lambda n: "</td>text" + "</caption>" * n + _FUZZ_BLOCK * n,
    # an enabled selectedcontent in each select, and options nested in the same way
    "button-nested": lambda n: "<select><button><selectedcontent></selectedcontent></button><option>x<marquee>" * n,
    # n nested selects, one selectedcontent in the innermost: the first of every select
    # (each walked all the later ones at every option's end)
    "selectedcontent-last": lambda n: "<select><option>x<marquee>" * n + "<selectedcontent>",
    "selectedcontent-last-in-item": lambda n: "<div class=h-x>" + "<select><option>x<marquee>" * n + "<selectedcontent>",
    # which option is selected: a walk of all the options at each option's end
    "many-options": lambda n: "<select><button><selectedcontent></selectedcontent></button>" + "<option>x" * n,
    "many-selected-options": lambda n: "<p class=h-y>y</p>" + "<div>" * n
    + "<select><button><selectedcontent class=h-x></selectedcontent></button>"
    + "<option selected>x" * n,
}


@pure_only  # counts executed Python lines (sys.settrace), which compiled code does not report
@pytest.mark.parametrize("sink", ["bounded", "full-dom"])
@pytest.mark.parametrize("name", sorted(GROWTH))
def test_work_grows_linearly(name: str, sink: str) -> None:
    make = GROWTH[name]

    def run(doc: str) -> object:
        return stream_mf2.parse(doc, URL) if sink == "bounded" else parse_document(doc)

    work = [lines_executed(partial(run, make(n))) for n in (50, 100, 200)]
    ratios = [work[1] / work[0], work[2] / work[1]]
    assert all(r < 2.6 for r in ratios), f"{name} {sink}: lines executed {work}, ratios {ratios}"


@pytest.mark.parametrize("name", sorted(GROWTH))
def test_growth_patterns_equal_the_full_dom(name: str) -> None:
    doc = GROWTH[name](6)
    full = parse_dom(parse_document(doc), URL, Options())
    for stream_children in (False, True):
        for label, chunks in chunkings(doc, splits=False):
            parser = Parser(URL, stream_children=stream_children)
            items = [i for c in chunks for i in parser.feed(c)] + parser.close()
            assert items == full["items"], (label, stream_children)
