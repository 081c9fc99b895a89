"""One long text run, fed in pieces, grows in place: linear time, memory about the text's size.

``node.data += piece`` copied the whole text at every piece (the node held the old string),
so a 100 MB ``p-name`` took minutes and twice its size in memory. The sinks now grow a text
node with ``grow_text``, which lets the string be resized in place. Measured here as peak
traced memory (deterministic, unlike time): with copies the old and the new text are alive
together at each piece, about twice the text; grown in place, about the text alone.
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable

import pytest

import stream_mf2
from stream_mf2.html.dom import Text, grow_text
from stream_mf2.html.sink import DomSink
from stream_mf2.html.tokenizer import Tokenizer
from stream_mf2.html.treebuilder import TreeBuilder

SIZE = 8 << 20
PIECE = "x" * (64 << 10)


def _peak(run: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_grow_text_appends() -> None:
    node = Text("ab")
    grow_text(node, "cd")
    grow_text(node, "")
    assert node.data == "abcd"


def test_bounded_sink_grows_a_long_value_in_place() -> None:
    def run() -> None:
        parser = stream_mf2.Parser("http://x/", max_item_chars=2 * SIZE)
        items = parser.feed("<div class=h-entry><p class=p-name>")
        for _ in range(SIZE // len(PIECE)):
            items += parser.feed(PIECE)
        items += parser.feed("</p></div>") + parser.close()
        (item,) = items
        assert len(item["properties"]["name"][0]) == SIZE

    assert _peak(run) < 1.5 * SIZE


@pytest.mark.parametrize("where", ["body", "table"])
def test_dom_sink_grows_a_long_text_in_place(where: str) -> None:
    def run() -> None:
        sink = DomSink()
        tok = Tokenizer(TreeBuilder(sink))
        tok.feed("<table><tr><td>" if where == "table" else "<p>")
        for _ in range(SIZE // len(PIECE)):
            tok.feed(PIECE)
        tok.close()

    assert _peak(run) < 1.5 * SIZE
