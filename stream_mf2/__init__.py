"""stream_mf2: microformats2 out of HTML as it streams in.

Input rule, the same for every entry point: ``str`` and ``bytes`` are the
document itself; an :class:`os.PathLike` (``pathlib.Path``) is a file; file
objects, sockets, HTTP responses (:func:`fetch`, httpx, requests, aiohttp) and
(async) iterables of chunks are streams; a URL goes through :func:`fetch`;
anything else is a :class:`TypeError`. See :mod:`stream_mf2.io.sources`.

* :func:`parse` — a whole document to ``{"items", "rels", "rel-urls"}``.
* :class:`Parser` — the sans-IO push parser: ``feed()`` chunks, get items as
  their outermost root closes; ``close()``; then ``rels``/``rel_urls``.
* :mod:`stream_mf2.events` — the same as small frozen event values.
* :func:`reassemble` — whole-document items from events streamed with
  ``stream_children`` (children of a page-wide container yielded as they close).
* :func:`iter_items` / :func:`aiter_items` (and ``*_events``) — sync and async
  iteration over files, sockets, iterables and async streams.
* :func:`fetch` / :func:`afetch` — open an ``http(s)://`` URL (headers,
  user agent, timeout, redirects, size limit) as a source for all of the above.
* :class:`ParseOptions` — every parse option, typed (``**options``).
* :mod:`stream_mf2.mf2py` — a drop-in for mf2py's ``parse``/``Parser`` (its output shape).
* :func:`iter_warc` / :func:`aiter_warc` — items from WARC archives, with damaged
  records reported per record.
* ``syntaxes=`` (every entry point) — JSON-LD, OpenGraph, Twitter cards, Dublin Core
  (and microdata, RDFa) in the same pass, as typed events (:class:`JsonLdItem`, ...);
  :func:`extract` gives extruct's result shape, :mod:`stream_mf2.extruct` is a drop-in.
* :data:`COMPILED` — ``True`` when the parse path runs the mypyc-compiled build.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from stream_mf2._build import COMPILED, build_info
from stream_mf2._version import __version__
from stream_mf2.core.options import ParseOptions
from stream_mf2.core.parser import Parser
from stream_mf2.core.reassemble import reassemble
from stream_mf2.errors import (
    LimitExceeded,
    ParserStateError,
    SourceError,
    StreamMF2Error,
    SyntaxUnavailable,
    UnknownSyntax,
)
from stream_mf2.events import DocumentEnd, ItemEvent, MetaItemEvent
from stream_mf2.io.api import parse

if TYPE_CHECKING:
    # The I/O front ends are imported on first use (module __getattr__ below):
    # parse() of text or bytes and Parser need none of asyncio, sockets, http.client or warcio;
    # nor the event union (Event), which names every consumer's events.
    from stream_mf2.core.events import Event
    from stream_mf2.extraction import extract
    from stream_mf2.io.fetch import UrlResponse, afetch, fetch
    from stream_mf2.io.sources import aiter_events, aiter_items, iter_events, iter_items
    from stream_mf2.jsonld.events import JsonLdItem
    from stream_mf2.metadata.events import DublinCoreItem, OpenGraphItem, TwitterCardItem
    from stream_mf2.warc.entries import WarcError, WarcItem, WarcRecord, WarcSummary
    from stream_mf2.warc.parallel import iter_warc_parallel
    from stream_mf2.warc.reader import aiter_warc, iter_warc


# Public name -> the module that defines it, imported when the name is first read.
_LAZY = {
    "Event": "stream_mf2.core.events",
    "extract": "stream_mf2.extraction",
    "JsonLdItem": "stream_mf2.jsonld.events",
    "DublinCoreItem": "stream_mf2.metadata.events",
    "OpenGraphItem": "stream_mf2.metadata.events",
    "TwitterCardItem": "stream_mf2.metadata.events",
    "UrlResponse": "stream_mf2.io.fetch",
    "afetch": "stream_mf2.io.fetch",
    "fetch": "stream_mf2.io.fetch",
    "aiter_events": "stream_mf2.io.sources",
    "aiter_items": "stream_mf2.io.sources",
    "iter_events": "stream_mf2.io.sources",
    "iter_items": "stream_mf2.io.sources",
    "WarcError": "stream_mf2.warc.entries",
    "WarcItem": "stream_mf2.warc.entries",
    "WarcRecord": "stream_mf2.warc.entries",
    "WarcSummary": "stream_mf2.warc.entries",
    "aiter_warc": "stream_mf2.warc.reader",
    "iter_warc": "stream_mf2.warc.reader",
    "iter_warc_parallel": "stream_mf2.warc.parallel",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'stream_mf2' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later reads skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


def _build_info() -> str:
    """The version and which build runs: pure Python or compiled with mypyc (``--version``)."""
    return build_info(__version__)


__all__ = [
    "COMPILED",
    "DocumentEnd",
    "DublinCoreItem",
    "Event",
    "ItemEvent",
    "JsonLdItem",
    "LimitExceeded",
    "MetaItemEvent",
    "OpenGraphItem",
    "ParseOptions",
    "Parser",
    "ParserStateError",
    "SourceError",
    "StreamMF2Error",
    "SyntaxUnavailable",
    "TwitterCardItem",
    "UnknownSyntax",
    "UrlResponse",
    "WarcError",
    "WarcItem",
    "WarcRecord",
    "WarcSummary",
    "__version__",
    "afetch",
    "aiter_events",
    "aiter_items",
    "aiter_warc",
    "extract",
    "fetch",
    "iter_events",
    "iter_items",
    "iter_warc",
    "iter_warc_parallel",
    "parse",
    "reassemble",
]
