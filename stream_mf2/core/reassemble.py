"""Put streamed children back into their containers.

With the ``stream_children`` option a :class:`~stream_mf2.Parser` yields each
child of a container item as an :class:`~stream_mf2.events.ItemEvent` with a
``path`` ``(i, j)``, and later the container without those children, with
``children_streamed`` set. :func:`reassemble` turns such an event stream back
into the top-level items a whole-document parse returns (for a stream without
streamed children it just collects the items).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from stream_mf2.events import Item, ItemEvent

if TYPE_CHECKING:
    from stream_mf2.core.events import Event

__all__ = ["reassemble"]


def reassemble(events: Iterable[Event]) -> list[Item]:
    """The top-level items of ``events``, with streamed children in their places.

    Raises :class:`ValueError` when the events do not fit together (a child
    without its container, or a container whose count does not match).

    A child whose index is past the container's children goes after them: a
    later ``<body>`` tag that gave the body an mf2 class (``Parser.errors``
    says so) took children held in the ``<html>`` container before it into
    the body's item or property, where the whole parse has them too.
    """
    items: list[Item] = []
    pending: list[tuple[int, Item]] = []
    for event in events:
        if type(event) is not ItemEvent:
            continue
        if event.path:
            if len(event.path) != 2 or event.path[0] != len(items):
                raise ValueError(f"streamed child at {event.path} does not belong to top-level item {len(items)}")
            pending.append((event.path[1], event.item))
            continue
        if event.children_streamed != len(pending):
            raise ValueError(
                f"container expects {event.children_streamed} streamed children, {len(pending)} were streamed"
            )
        item = event.item
        if pending:
            item = _with_children(item, pending)
            pending = []
        items.append(item)
    if pending:
        raise ValueError(f"{len(pending)} streamed children without their container")
    return items


def _with_children(container: Item, streamed: list[tuple[int, Item]]) -> Item:
    """A copy of ``container`` whose ``children`` has each streamed child at its index."""
    children = list(container.get("children", ()))
    for index, child in sorted(streamed, key=lambda pair: pair[0]):
        # (past the end: children before it moved into the body's item; see reassemble)
        children.insert(min(index, len(children)), child)
    out: Item = {}
    placed = False
    for key, value in container.items():
        # "children" comes after "type", "properties" and "id", before "lang" (the item's key order)
        if key == "children":
            continue
        if not placed and key not in ("type", "properties", "id"):
            out["children"] = children
            placed = True
        out[key] = value
    if not placed:
        out["children"] = children
    return out
