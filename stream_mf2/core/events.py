"""The union of every event a :class:`~stream_mf2.Parser` yields.

Each consumer defines its own event values (:mod:`stream_mf2.events` for
microformats2 and the document end, :mod:`stream_mf2.wpt.events` for Website
Parse Templates, :mod:`stream_mf2.jsonld.events`, :mod:`stream_mf2.metadata.events`,
:mod:`stream_mf2.microdata.events` and :mod:`stream_mf2.rdfa.events` for the other
syntaxes); the core, which
wires the consumers together, is the one place that names them all. A new
consumer adds its events here.
"""

from __future__ import annotations

from stream_mf2.events import DocumentEnd, ItemEvent, MetaItemEvent
from stream_mf2.jsonld.events import JsonLdItem
from stream_mf2.metadata.events import DublinCoreItem, OpenGraphItem, TwitterCardItem
from stream_mf2.microdata.events import MicrodataItem
from stream_mf2.rdfa.events import RdfaTriple
from stream_mf2.wpt.events import WptMatchEvent, WptPageEnd

__all__ = ["Event"]

Event = (
    ItemEvent
    | MetaItemEvent
    | DocumentEnd
    | WptMatchEvent
    | WptPageEnd
    | JsonLdItem
    | OpenGraphItem
    | TwitterCardItem
    | DublinCoreItem
    | MicrodataItem
    | RdfaTriple
)
