"""A ``selectedcontent`` inside its own selected ``option`` (found by fuzzing).

"Clone an option into a selectedcontent" clones the option's children first and
then replaces the selectedcontent's children with the clones. Cloning straight
into a selectedcontent that lies inside the option copied its own copies
without end (a one-line document exhausted memory).
"""

from __future__ import annotations

import json

import pytest

from stream_mf2 import Parser, parse
from stream_mf2.html.testing import parse_document, tree_for_test
from stream_mf2.mf2 import Options, parse_dom
from tests.chunking import chunkings

SELF = "<select><option>a<selectedcontent>b</select>"
FUZZ = (
    "<select><option><selectedcontent class='h-product'>&notin;</area><del class='entry-title'></"
    '<br class=p-org name="author" title="2000-01-01"></textarea>'
)


def test_a_selectedcontent_in_its_option_gets_the_option_s_children_as_they_were() -> None:
    # the clones are made before the selectedcontent is emptied: its clone keeps "b"
    assert tree_for_test([SELF]).splitlines() == [
        "| <html>",
        "|   <head>",
        "|   <body>",
        "|     <select>",
        "|       <option>",
        '|         "a"',
        "|         <selectedcontent>",
        '|           "a"',
        "|           <selectedcontent>",
        '|             "b"',
    ]


@pytest.mark.parametrize("k", [1, 3, 12])
def test_repeated_nested_selects_grow_linearly(k: int) -> None:
    # one line per node or attribute (the text grows with the depth's indentation)
    small = len(tree_for_test([FUZZ * k]).splitlines())
    big = len(tree_for_test([FUZZ * (4 * k)]).splitlines())
    assert big < 5 * small


def test_streaming_equals_the_whole_document_for_a_selectedcontent_item_outside_the_option() -> None:
    doc = (
        '<div class="h-card"><select><option><span class=p-name>Ann</span></option>'
        '<selectedcontent class="h-card"><span class=p-name>x</span></selectedcontent></select></div>'
    )
    whole = parse_dom(parse_document(doc), "http://example.com/", Options())
    for name, chunks in chunkings(doc, splits=False):
        parser = Parser("http://example.com/")
        items = [item for chunk in chunks for item in parser.feed(chunk)]
        items += parser.close()
        assert items == whole["items"], name


def test_streaming_equals_the_whole_document() -> None:
    doc = '<div class="h-card">' + SELF.replace("<selectedcontent>", "<selectedcontent class=p-name>") + "</div>" + FUZZ * 20
    whole = parse_dom(parse_document(doc), "http://example.com/", Options())
    assert whole["items"][0]["properties"]["name"] == ["ab", "b"]
    assert json.dumps(parse(doc, "http://example.com/"), sort_keys=True) == json.dumps(whole, sort_keys=True)
    for name, chunks in chunkings(doc, splits=False):
        parser = Parser("http://example.com/")
        items = [item for chunk in chunks for item in parser.feed(chunk)]
        items += parser.close()
        assert items == whole["items"], name


HELD = [
    # an h-* selectedcontent alone in its option: the option's pop clones it into itself
    "<select><option><selectedcontent class=h-product>x</selectedcontent></option></select><p class=h-card>after",
    "<select><option><selectedcontent class=h-x>b</selectedcontent>tail</option></select>",
    # an earlier option (released when popped) is the selected one: no clone
    "<select><option>a</option><option><selectedcontent class=h-x>b</selectedcontent></option></select>",
    "<select><option selected>a</option><option><selectedcontent class=h-x>b</selectedcontent></option></select>",
    # a kept element holding the selectedcontent
    "<select><option><span class=h-x><selectedcontent>b</selectedcontent></span></option></select>",
]


@pytest.mark.parametrize("stream_children", [False, True])
@pytest.mark.parametrize("doc", HELD)
def test_a_kept_selectedcontent_is_held_until_its_select_closes(doc: str, stream_children: bool) -> None:
    whole = parse_dom(parse_document(doc), "http://example.com/", Options())
    assert whole["items"]
    for name, chunks in chunkings(doc, splits=False):
        parser = Parser("http://example.com/", stream_children=stream_children)
        items = [item for chunk in chunks for item in parser.feed(chunk)]
        items += parser.close()
        assert items == whole["items"], name
