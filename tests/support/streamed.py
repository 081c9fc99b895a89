"""One way for tests to stream chunks through the event API and read the result back.

``feed_events(chunks, url, **options)`` returns every event and the errors;
``stream_events(chunks, url, **options)`` feeds ``chunks`` to a
:class:`~stream_mf2.Parser` through ``feed_events``/``close_events`` (so items
streamed with ``stream_children`` are reassembled into their containers) and
returns the document's result (``items``, ``rels``, ``rel-urls`` and, when there
is one, ``meta-item``) with the parser's ``errors``. ``post_order(root)`` lists
elements in the order a streaming parser completes them.
"""

from __future__ import annotations

from typing import Any

from stream_mf2 import Parser, reassemble
from stream_mf2.core.events import Event
from stream_mf2.events import DocumentEnd
from stream_mf2.html.dom import Element, Node, ParentNode


def feed_events(chunks: list[str] | list[bytes], url: str | None, **options: Any) -> tuple[list[Event], list[str]]:
    """Every event of ``chunks`` fed through ``feed_events``/``close_events``, and the parser's errors."""
    parser = Parser(url, **options)
    events: list[Event] = []
    for c in chunks:
        events.extend(parser.feed_events(c))
    events.extend(parser.close_events())
    return events, parser.errors


def stream_events(chunks: list[str] | list[bytes], url: str | None, **options: Any) -> tuple[dict[str, Any], list[str]]:
    events, errors = feed_events(chunks, url, **options)
    end = events[-1]
    assert isinstance(end, DocumentEnd)
    out: dict[str, Any] = {"items": reassemble(events), "rels": end.rels, "rel-urls": end.rel_urls}
    if end.meta_item is not None:
        out["meta-item"] = end.meta_item
    return out, errors


def post_order(root: ParentNode) -> list[Element]:
    """Elements in the order a streaming parser completes them (children first)."""
    out: list[Element] = []
    stack: list[tuple[Node, bool]] = [(c, False) for c in reversed(root.children)]
    while stack:
        node, done = stack.pop()
        if not isinstance(node, Element):
            continue
        if done:
            out.append(node)
            continue
        stack.append((node, True))
        stack.extend((c, False) for c in reversed(node.children))
    return out
