"""The microdata consumer's event: one top-level item, as soon as it is final.

The item is a dictionary in extruct's shape (see :mod:`stream_mf2.microdata.items`);
``start`` and ``end`` are the source span of the item's element (offsets in the
preprocessed input, see :class:`stream_mf2.html.dom.Element`), ``-1`` when none
was recorded.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["MicrodataEvent", "MicrodataItem", "extruct_result"]


@dataclass(frozen=True, slots=True)
class MicrodataItem:
    """A top-level microdata item (``{"type", "id", "properties"}`` or ``{"type", "value"}``),
    yielded when its element closes, or when the ``itemref`` targets it waits for are in."""

    item: dict[str, Any]
    start: int = -1
    end: int = -1
    #: For the page item (an ``<html itemscope>`` or ``<body itemscope>``, emitted at the
    #: document's end): how many items came before its element, its place in the list; else -1.
    page: int = -1
    #: The item's place in the document's list (:func:`extruct_result`), known when it is
    #: emitted: the items emitted before it, plus one once a page item's element has come
    #: (the page item goes before every item emitted after its element); the page item's is
    #: ``page``. So a line front end can write each item at once with its final place
    #: (:mod:`stream_mf2.core.syntax_results`). ``-1``: not given (an event made by hand).
    index: int = -1


MicrodataEvent = MicrodataItem
"""The events of the microdata consumer (:mod:`stream_mf2.microdata.consumer`)."""


def extruct_result(events: Iterable[object]) -> list[Any]:
    """extruct's ``"microdata"`` list: the items of the :class:`MicrodataItem` events, in
    document order (the page item, which comes last, back where its element is)."""
    items: list[Any] = []
    page: MicrodataItem | None = None
    for event in events:
        if type(event) is MicrodataItem:
            if event.page >= 0:
                page = event
            else:
                items.append(event.item)
    if page is not None:
        items.insert(min(page.page, len(items)), page.item)
    return items
