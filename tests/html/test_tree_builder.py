"""Unit tests of the tree builder and DomSink beyond the html5lib-tests suite."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import orjson
import pytest

import stream_mf2
from stream_mf2.errors import LimitExceeded
from stream_mf2.html.dom import HTML_NS, SVG_NS, Element, ParentNode, Text, iter_descendants
from stream_mf2.html.sink import DomSink
from stream_mf2.html.testing import parse_document, parse_fragment, tree_for_test
from stream_mf2.html.testing.tree import build, dump_tree
from stream_mf2.html.tokenizer import Tokenizer
from stream_mf2.html.treebuilder import TreeBuilder
from tests.support.builds import pure_only
from tests.support.chunking import chunkings
from tests.support.streamed import stream_events
from tests.support.work import lines_executed


def body_dump(html: str) -> str:
    doc = parse_document(html)
    html_el = doc.children[-1]
    assert isinstance(html_el, Element)
    body = html_el.children[-1]
    assert isinstance(body, Element)
    return dump_tree(body)


def test_parse_document_and_fragment() -> None:
    doc = parse_document("<!DOCTYPE html><title>T</title><p class=x>Hi")
    assert doc.mode == "no-quirks"
    names = [n.name for n in iter_descendants(doc) if isinstance(n, Element)]
    assert names == ["html", "head", "title", "body", "p"]
    frag = parse_fragment("<td>cell</td><td>2", context="tr")
    assert [c.name for c in frag.children if isinstance(c, Element)] == ["td", "td"]
    frag = parse_fragment("<path/><foreignObject><p>x</p></foreignObject>", context="svg svg")
    first = frag.children[0]
    assert isinstance(first, Element) and first.namespace == SVG_NS and first.name == "path"


def test_chunks_give_same_tree() -> None:
    html = "<!doctype html><pre>\nx</pre><textarea>\n\ny</textarea><table>a<tr><td>b</table>"
    whole = tree_for_test([html])
    for size in (1, 2, 3, 7):
        assert tree_for_test([html[i : i + size] for i in range(0, len(html), size)]) == whole
    assert '"x"' in whole and '"\ny"' in whole


def test_quirks_modes() -> None:
    assert parse_document("<p>").mode == "quirks"
    assert parse_document('<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">').mode == "quirks"
    assert (
        parse_document(
            '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd">'
        ).mode
        == "limited-quirks"
    )
    assert (
        parse_document('<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "x">').mode == "limited-quirks"
    )
    # The one tree difference: <table> closes an open <p> except in quirks mode.
    assert body_dump("<p><table>") == "| <p>\n|   <table>"
    assert body_dump("<!doctype html><p><table>") == "| <p>\n| <table>"


def test_template_contents_not_in_document() -> None:
    doc = parse_document("<template><div class=h-x>t</div></template>")
    names = [n.name for n in iter_descendants(doc) if isinstance(n, Element)]
    assert "div" not in names
    tmpl = next(n for n in iter_descendants(doc) if isinstance(n, Element) and n.name == "template")
    assert tmpl.template_contents is not None
    assert isinstance(tmpl.template_contents.children[0], Element)


def test_noscript_is_markup_with_scripting_off() -> None:
    out = body_dump("<body><noscript><p class=x>a</p></noscript>")
    assert out == '| <noscript>\n|   <p>\n|     class="x"\n|     "a"'


def test_select_relaxed_parser() -> None:
    out = body_dump("<select><div><option>a</option></div><hr><button>b</button></select>")
    assert "<div>" in out and "<hr>" in out and "<button>" in out
    # <select> is a scope boundary: a formatting end tag outside it is ignored.
    assert body_dump("<font><select><option>a</option></font></select>").startswith("| <font>\n|   <select>")


def test_selectedcontent_clone() -> None:
    out = body_dump("<select><button><selectedcontent></button><option>X<option selected>Y</select>")
    assert '<selectedcontent>\n|       "Y"' in out


def test_adoption_agency_step_4_3() -> None:
    out = tree_for_test(["<b><em><foo><foob><fooc><aside></b></em>"], "div")
    assert out == ("| <b>\n|   <em>\n|     <foo>\n|       <foob>\n|         <fooc>\n| <aside>\n|   <b>")


class RecordingSink:
    """A DomSink seen through a wrapper that records pops and which token they followed."""

    def __init__(self) -> None:
        self._inner = DomSink()
        self.events: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def pop(self, element: Element) -> None:
        self.events.append("pop " + element.name)
        self._inner.pop(element)


def test_pops_come_after_the_token() -> None:
    sink = RecordingSink()
    tb = TreeBuilder(sink)  # a TreeSink by delegation
    tok = Tokenizer(tb)
    tok.feed("<!doctype html><body><p><b>x<div>")
    sink.events.append("--")
    tok.feed("</p>")  # implies </b>? No: </p> with no p in button scope inserts one
    sink.events.append("--")
    tok.feed("<p>a<p>b")
    tok.close()
    # The <p> start tag pops the previous p: reported after that token.
    assert sink.events[-1] == "pop html"
    assert "pop p" in sink.events


@pure_only  # counts executed Python lines (sys.settrace), which compiled code does not report
def test_no_quadratic_scope_checks() -> None:
    """Linear growth: engine lines executed at n, 2n, 4n (deterministic, see tests/support/work.py)."""

    def growth(make: Callable[[int], str], n: int) -> tuple[list[int], list[float]]:
        # not the dump: its indentation is quadratic in depth
        work = [lines_executed(partial(parse_document, make(k))) for k in (n, 2 * n, 4 * n)]
        return work, [work[1] / work[0], work[2] / work[1]]

    work, ratios = growth(lambda n: "<p>x" * n, 1_000)
    assert max(ratios) < 2.6, (work, ratios)
    # Open divs: every <div> start asks "p in button scope?" (a counter makes it O(1)).
    work, ratios = growth(lambda n: "<div>" * n, 1_000)
    assert max(ratios) < 2.6, (work, ratios)


def test_deep_nesting_no_recursion_error() -> None:
    depth = 200_000
    sink = DomSink()
    build(["<div>" * depth, "x", "</div>" * depth], sink, max_depth=depth + 5)
    node: ParentNode = sink.document
    levels = 0
    while node.children:
        last = node.children[-1]
        if not isinstance(last, Element):
            assert isinstance(last, Text)
            break
        node = last
        levels += 1
    assert levels == depth + 2  # html, body, then the divs
    del sink, node  # freeing a deep chain must not crash either


def test_max_depth_limit() -> None:
    with pytest.raises(LimitExceeded) as info:
        build(["<span>" * 101], DomSink(), max_depth=100)
    assert info.value.limit == "max_depth" and info.value.value == 100


def test_foster_parenting_before_table() -> None:
    out = body_dump("<table><tr><td>in</td></tr>out<b>bold</b></table>")
    assert out.index('"out"') < out.index("<table>")
    assert out.index("<b>") < out.index("<table>")


def test_foreign_attributes() -> None:
    out = tree_for_test(['<svg viewbox="0 0 1 1" xlink:href=a><foreignobject/></svg><math definitionurl=x>'])
    assert 'viewBox="0 0 1 1"' in out and 'xlink href="a"' in out
    assert "<svg foreignObject>" in out and 'definitionURL="x"' in out
    doc = parse_document("<svg><g xml:lang=en>")
    g = next(n for n in iter_descendants(doc) if isinstance(n, Element) and n.name == "g")
    assert g.attrs == {"xml:lang": "en"} and g.namespace == SVG_NS
    assert HTML_NS != SVG_NS


# ------------------------------------------------------------- in column group (a fuzz finding)


@pytest.mark.parametrize(
    "doc",
    [
        "<template><col>x y",
        "<template><col> a\tb \nc ",
        "<table><template><col>1 2</template></table>",
        "<div class=h-x><div class=e-content><template><col>x y z</template></div></div>",
    ],
)
def test_column_group_under_template_is_chunk_independent(doc: str) -> None:
    expected = tree_for_test(list(doc))  # one character token at a time
    for label, chunks in chunkings(doc):
        assert tree_for_test(chunks) == expected, label
    if "h-x" in doc:
        want = orjson.dumps(stream_mf2.parse(doc))
        for label, chunks in chunkings(doc):
            assert orjson.dumps(_parse_chunks(chunks)) == want, label


def test_column_group_under_template_keeps_the_space() -> None:
    assert '"  "' not in tree_for_test(["<template><col>x y"])
    assert '" "' in tree_for_test(["<template><col>x y"])


def _parse_chunks(chunks: list[bytes] | list[str], url: str | None = None, **options: Any) -> dict[str, Any]:
    return stream_events(chunks, url, **options)[0]
