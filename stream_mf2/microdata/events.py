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


MicrodataEvent = MicrodataItem
"""The events of the microdata consumer (:mod:`stream_mf2.microdata.consumer`)."""


def extruct_result(events: Iterable[object]) -> list[Any]:
    """extruct's ``"microdata"`` list: the items of the :class:`MicrodataItem` events, in order."""
    return [e.item for e in events if type(e) is MicrodataItem]
