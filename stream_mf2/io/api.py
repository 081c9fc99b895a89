"""The public :func:`parse`: the input rule without importing the I/O machinery for text and bytes.

``parse(str | bytes)`` goes straight to the sans-IO parser; any other source
(a path, a file object, a socket, an HTTP response, an iterable) is read by
:func:`stream_mf2.io.sources.parse_source`, imported on first use, so that
``import stream_mf2; stream_mf2.parse(html)`` loads neither asyncio nor sockets.
"""

from __future__ import annotations

from typing import Any, Unpack

from stream_mf2.core.options import ParseOptions, check_options
from stream_mf2.core.parser import document_result, parse_events
from stream_mf2.events import DocumentEnd
from stream_mf2.io.notes import log_notes

__all__ = ["parse"]


def parse(doc: object, url: str | None = None, **options: Unpack[ParseOptions]) -> dict[str, Any]:
    """Parse a whole document: ``{"items": [...], "rels": {...}, "rel-urls": {...}}``.

    ``doc`` follows the input rule (:mod:`stream_mf2.io.sources`): ``str``/``bytes``
    are the document, an :class:`os.PathLike` a file, file objects, sockets, HTTP
    responses (``stream_mf2.parse(stream_mf2.fetch(url))``) and iterables are
    streams read to the end; anything else is a :class:`TypeError`. With
    ``metaformats=True`` the result also has ``"meta-item"`` when the document
    yields one. Built on :class:`~stream_mf2.Parser`, so it gives exactly what
    streaming gives. The notes of the parse (:attr:`stream_mf2.Parser.notes`) are logged
    as warnings of the ``stream_mf2`` logger (:mod:`stream_mf2.io.notes`).

    Options (keywords, all optional; :class:`stream_mf2.ParseOptions`):
    ``encoding``, ``default_encoding``, ``detect_utf8``, ``text`` (``"spec"`` or
    ``"normalized"``), ``lang``, ``metaformats``, ``filter_roots``,
    ``stream_children``, ``collect_parse_errors``, and the limits
    ``max_token_chars``, ``max_depth``, ``max_kept_nodes``, ``max_held_items``,
    ``max_nested_html_chars``, ``max_item_chars``, ``max_output_ratio``, ``output_floor_chars``, ``max_reparse_bytes`` (see :class:`~stream_mf2.Parser`).
    An unknown option is a :class:`TypeError`, a bad value a :class:`ValueError`.

    ``syntaxes`` (default ``{"mf2"}``) names the structured-data syntaxes extracted in
    the same pass (:mod:`stream_mf2.core.syntaxes`): each one other than ``"mf2"`` adds
    its results under its name, in extruct's shape (``result["json-ld"]``, ...).
    """
    check_options(options, "parse")
    if isinstance(doc, str | bytes | bytearray | memoryview):
        events = parse_events(doc if isinstance(doc, str | bytes) else bytes(doc), url, **options)
        end = events[-1]
        assert isinstance(end, DocumentEnd)
        log_notes(end, url)
        return document_result(events, wpt=options.get("wpt") is not None, syntaxes=options.get("syntaxes"))
    from stream_mf2.io.sources import parse_source

    return parse_source(doc, url, **options)
