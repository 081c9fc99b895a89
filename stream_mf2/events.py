"""Events a :class:`~stream_mf2.Parser` produces, as small frozen values.

A stream of events carries everything a whole-document parse returns, in the
order it becomes known, so a caller never has to parse twice:

* :class:`ItemEvent` for each top-level item, as soon as its outermost root closes;
* :class:`MetaItemEvent` once, at the end of ``<head>``, when metaformats is on
  and the head yields a meta item;
* :class:`DocumentEnd` last, with the final ``rels``, ``rel-urls`` and encoding.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Item = dict[str, Any]


@dataclass(frozen=True, slots=True)
class ItemEvent:
    """A completed top-level microformats item."""

    item: Item


@dataclass(frozen=True, slots=True)
class MetaItemEvent:
    """The metaformats item of the document, ready when ``<head>`` ends."""

    item: Item


@dataclass(frozen=True, slots=True)
class DocumentEnd:
    """The end of the document: what is only final once all input is seen."""

    rels: dict[str, list[str]]
    rel_urls: dict[str, dict[str, Any]]
    meta_item: Item | None
    encoding: str | None


Event = ItemEvent | MetaItemEvent | DocumentEnd
