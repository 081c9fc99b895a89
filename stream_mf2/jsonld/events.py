"""The event of the JSON-LD consumer, and extruct's result shape from a stream of them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["JsonLdItem", "extruct_result"]


@dataclass(frozen=True, slots=True)
class JsonLdItem:
    """One item of a JSON-LD block, yielded when its ``</script>`` is final.

    ``item`` is the block's top-level object, or one element of its top-level
    array (a block holding an array gives one event per element, as extruct
    lists them). ``block`` counts the document's JSON-LD blocks from 0, in the
    order they complete (document order); ``source`` is the ``script``
    element's source span (character offsets in the decoded input: from the end
    of the markup before its start tag to the end of its end tag; see
    :class:`~stream_mf2.html.dom.Element`), ``(-1, -1)`` when not known.
    """

    item: Any
    block: int
    source: tuple[int, int] = (-1, -1)


def extruct_result(events: Iterable[object]) -> list[Any]:
    """extruct's ``"json-ld"`` list: the items of the :class:`JsonLdItem` events, in order."""
    return [e.item for e in events if type(e) is JsonLdItem]
