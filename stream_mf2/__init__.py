"""stream_mf2: microformats2 out of HTML as it streams in.

* :func:`parse` — a whole document to ``{"items", "rels", "rel-urls"}``.
* :class:`Parser` — the sans-IO push parser: ``feed()`` chunks, get items as
  their outermost root closes; ``close()``; then ``rels``/``rel_urls``.
* :mod:`stream_mf2.events` — the same as small frozen event values.
"""

from __future__ import annotations

from stream_mf2._parser import Parser, parse
from stream_mf2.errors import LimitExceeded, ParserStateError, SourceError, StreamMF2Error
from stream_mf2.events import DocumentEnd, Event, ItemEvent, MetaItemEvent

__version__ = "0.1.0"

__all__ = [
    "DocumentEnd",
    "Event",
    "ItemEvent",
    "LimitExceeded",
    "MetaItemEvent",
    "Parser",
    "ParserStateError",
    "SourceError",
    "StreamMF2Error",
    "__version__",
    "parse",
]
