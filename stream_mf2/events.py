"""Events a :class:`~stream_mf2.Parser` produces, as small frozen values.

A stream of events carries everything a whole-document parse returns, in the
order it becomes known, so a caller never has to parse twice:

* :class:`ItemEvent` for each top-level item, as soon as its outermost root closes;
  with the ``stream_children`` option also for each child of a container item
  (``path`` non-empty), before the container itself;
* :class:`MetaItemEvent` once, at the end of ``<head>``, when metaformats is on
  and the head yields a meta item;
* :class:`DocumentEnd` last, with the final ``rels``, ``rel-urls`` and encoding.

With a Website Parse Template (``Parser(wpt=...)``) also
:class:`~stream_mf2.wpt.WptMatchEvent` for each block match as soon as its
element is final, and :class:`~stream_mf2.wpt.WptPageEnd` per applied template
before :class:`DocumentEnd` (see :mod:`stream_mf2.wpt`).

This module sits below every stage and imports none of them: each consumer
defines its own events (the WPT ones live in :mod:`stream_mf2.wpt.events`), and
:data:`stream_mf2.Event`, the union of all of them, is defined by the core that
wires the consumers together (:mod:`stream_mf2.core.events`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Item = dict[str, Any]


@dataclass(frozen=True, slots=True)
class ItemEvent:
    """A completed microformats item.

    A top-level item has an empty ``path``. With the ``stream_children``
    option, a child of a container item (an item in the container's
    ``children`` list) is an event of its own, yielded as soon as it is final,
    before its container: its ``path`` is ``(i, j)``, meaning the whole-document
    result has it at ``items[i]["children"][j]``. The container's own event
    comes later, without those children (its ``children`` list holds only the
    ones that were not streamed, or is absent), and ``children_streamed``
    says how many were. :func:`stream_mf2.reassemble` puts them back.
    """

    item: Item
    path: tuple[int, ...] = ()
    children_streamed: int = 0


@dataclass(frozen=True, slots=True)
class MetaItemEvent:
    """The metaformats item of the document, ready when ``<head>`` ends."""

    item: Item


@dataclass(frozen=True, slots=True)
class DocumentEnd:
    """The end of the document: what is only final once all input is seen.

    ``notes`` are the recoveries that changed the output (values emptied past the output
    budget, an include target that never came, a late ``<body lang>``, ...), one line each:
    :attr:`stream_mf2.Parser.notes`. Front ends show them (the ``notes`` field of JSON Lines
    and WARC lines, warnings of the ``stream_mf2`` logger); an empty tuple means none.
    """

    rels: dict[str, list[str]]
    rel_urls: dict[str, dict[str, Any]]
    meta_item: Item | None
    encoding: str | None
    notes: tuple[str, ...] = ()


Mf2Event = ItemEvent | MetaItemEvent
"""The events of the microformats2 consumer (:mod:`stream_mf2.mf2.capture`)."""
