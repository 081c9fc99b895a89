"""The sans-IO parser: bytes (or text) in, microformats items out.

One :class:`Parser` per document. It wires the stages together and owns the
error state; it does no I/O, so every source (files, sockets, async streams,
WARC records, the CLI) is a thin loop around :meth:`Parser.feed`.

    decoder → tokenizer → tree builder → bounded sink → capture → mf2

Feeding after :meth:`Parser.close`, or after a fatal error (a limit was
exceeded), raises :class:`~stream_mf2.errors.ParserStateError`: the parser never
produces output from a half-processed state.
"""

from __future__ import annotations

from typing import IO, Any, Literal

from stream_mf2.capture import DEFAULT_MAX_HELD_ITEMS, Capture
from stream_mf2.errors import ParserStateError
from stream_mf2.events import DocumentEnd, Event, Item, ItemEvent
from stream_mf2.html.decode import Decoder, lookup_encoding
from stream_mf2.html.sink import BoundedSink
from stream_mf2.html.tokenizer import Tokenizer
from stream_mf2.html.treebuilder import TreeBuilder
from stream_mf2.mf2 import Mf2Context, Options
from stream_mf2.mf2.options import DEFAULT_MAX_NESTED_HTML_CHARS
from stream_mf2.reassemble import reassemble

__all__ = ["Parser", "parse"]

#: Default limit on one unfinished token (tag, attribute value, comment), in characters.
DEFAULT_MAX_TOKEN_CHARS = 16 * 1024 * 1024


class Parser:
    """Push parser for one document: :meth:`feed` chunks, then :meth:`close`.

    ``url`` is the document URL (base for relative URLs until a ``<base href>``).
    ``encoding`` is a transport-layer charset label (e.g. from an HTTP
    ``Content-Type``); it beats ``<meta charset>`` but not a byte order mark.
    ``default_encoding`` is used when nothing declares one (the spec's
    windows-1252); ``detect_utf8`` picks UTF-8 for undeclared input whose first
    bytes are valid, non-ASCII UTF-8. A ``<meta>`` declaration past the first 1024
    bytes still changes the encoding while the confidence is tentative, when every
    character before the end of that tag is ASCII: the rest is decoded with the new
    encoding, whatever the chunking. After non-ASCII content the spec would re-parse
    the document, which a stream cannot: the encoding is then kept and a note added
    to :attr:`errors`.

    Options: ``text`` (``"spec"``: DOM textContent, trimmed; ``"normalized"``: the
    whitespace-normalising algorithm), ``lang`` (add ``lang`` to items and e-*
    values), ``metaformats`` (build a ``meta-item`` from ``<head>``),
    ``filter_roots`` (drop Tailwind-style ``h-*`` names, or a given set),
    ``stream_children`` (``True``, or a set of types such as
    ``frozenset({"h-feed"})``: yield the children of an outermost container
    item as they close, so memory stays flat when one ``h-feed`` wraps the
    page; see :class:`~stream_mf2.events.ItemEvent` and
    :func:`~stream_mf2.reassemble.reassemble`; :meth:`feed` then returns those
    children as plain items too, before their container).

    Limits (each raises :class:`~stream_mf2.errors.LimitExceeded` naming itself):
    ``max_token_chars`` (one unfinished tag, attribute value, comment or doctype),
    ``max_depth`` (the stack of open elements), ``max_kept_nodes`` (one kept
    subtree), ``max_held_items`` (items waiting for include targets; a recovery,
    not an error: see :mod:`stream_mf2.capture`), ``max_nested_html_chars`` (the
    e-* ``html`` of values nested inside other e-* values, which grows with the
    square of the nesting depth; past it those values keep their text and get an
    empty ``html``, recorded in :attr:`errors`).
    """

    def __init__(
        self,
        url: str | None = None,
        *,
        encoding: str | None = None,
        default_encoding: str = "windows-1252",
        detect_utf8: bool = True,
        text: Literal["spec", "normalized"] = "spec",
        lang: bool = False,
        metaformats: bool = False,
        filter_roots: bool | frozenset[str] = False,
        stream_children: bool | frozenset[str] = False,
        max_token_chars: int = DEFAULT_MAX_TOKEN_CHARS,
        max_depth: int | None = None,
        max_kept_nodes: int | None = None,
        max_held_items: int = DEFAULT_MAX_HELD_ITEMS,
        max_nested_html_chars: int = DEFAULT_MAX_NESTED_HTML_CHARS,
        collect_parse_errors: bool = False,
    ) -> None:
        self.url = url
        options = Options(
            text=text,
            lang=lang,
            metaformats=metaformats,
            filter_roots=filter_roots,
            max_nested_html_chars=max_nested_html_chars,
        )
        self._ctx = Mf2Context(url, options)
        self._capture = Capture(self._ctx, max_held_items=max_held_items, stream_children=stream_children)
        sink_limits: dict[str, Any] = {}
        if max_kept_nodes is not None:
            sink_limits["max_kept_nodes"] = max_kept_nodes
        self._sink = BoundedSink(self._capture.keep, self._capture.complete, **sink_limits)
        if stream_children:
            self._sink.set_nested(self._capture.nested, self._capture.watch_nested)
        tb_limits: dict[str, Any] = {}
        if max_depth is not None:
            tb_limits["max_depth"] = max_depth
        self._tree = TreeBuilder(self._sink, **tb_limits)
        self._tokenizer = Tokenizer(self._tree, collect_errors=collect_parse_errors, max_token_chars=max_token_chars)
        self._tree.set_tokenizer(self._tokenizer)
        self._decoder = Decoder(encoding, default=default_encoding, detect_utf8=detect_utf8, keep_for_change=True)
        # A <meta> past the prescan window may change the encoding (see _feed_text).
        self._tokenizer.count_raw = True
        self._tree.meta_encoding_hook = self._on_meta_encoding
        self._meta_encoding: str | None = None
        self._encoding_notes: list[str] = []
        self._input_kind: type | None = None
        self._state: Literal["open", "closed", "failed"] = "open"

    # -- feeding --------------------------------------------------------------
    def feed(self, data: bytes | str) -> list[Item]:
        """Parse a chunk; return the top-level items it completed (maybe none)."""
        return [e.item for e in self.feed_events(data) if type(e) is ItemEvent]

    def close(self) -> list[Item]:
        """Signal end of input; return the remaining items. ``rels`` etc. are final after this."""
        return [e.item for e in self.close_events() if type(e) is ItemEvent]

    def feed_events(self, data: bytes | str) -> list[Event]:
        """Like :meth:`feed`, as events (items and, at the end of ``<head>``, the meta item)."""
        self._check_open()
        kind = type(data)
        if kind is not bytes and kind is not str:
            if isinstance(data, (bytes, bytearray, memoryview)):
                data = bytes(data)
                kind = bytes
            else:
                raise TypeError(f"feed() takes bytes or str, not {kind.__name__}")
        if self._input_kind is None:
            self._input_kind = kind
        elif self._input_kind is not kind:
            raise TypeError("feed() got both bytes and str in one document; use one kind")
        try:
            if kind is bytes:
                self._feed_text(self._decoder.feed(data))  # type: ignore[arg-type]
            else:
                self._tokenizer.count_raw = False
                self._tokenizer.feed(data)  # type: ignore[arg-type]
        except BaseException:
            self._state = "failed"
            raise
        return self._take()

    def close_events(self) -> list[Event]:
        """Like :meth:`close`, as events; the last one is :class:`DocumentEnd`."""
        self._check_open()
        try:
            if self._input_kind is not str:
                self._feed_text(self._decoder.close())
            self._tokenizer.close()
            self._capture.finish()
        except BaseException:
            self._state = "failed"
            raise
        self._state = "closed"
        events = self._take()
        events.append(DocumentEnd(self.rels, self.rel_urls, self.meta_item, self.encoding))
        return events

    def commit_encoding(self) -> None:
        """Decide the encoding now with the bytes seen so far.

        For a stream that stalls before the 1024-byte prescan window is full:
        the sources call this after a short timeout so items keep flowing.
        """
        self._check_open()
        if self._input_kind is str:
            return
        try:
            self._feed_text(self._decoder.commit())
        except BaseException:
            self._state = "failed"
            raise

    # -- results --------------------------------------------------------------
    @property
    def rels(self) -> dict[str, list[str]]:
        """The document's ``rels`` (final after :meth:`close`)."""
        return self._ctx.rels.rels

    @property
    def rel_urls(self) -> dict[str, dict[str, Any]]:
        """The document's ``rel-urls`` (final after :meth:`close`)."""
        return self._ctx.rels.rel_urls

    @property
    def meta_item(self) -> Item | None:
        """The metaformats item, once ``<head>`` has ended (``metaformats=True`` only)."""
        return self._capture.meta_item

    @property
    def encoding(self) -> str | None:
        """The character encoding in use (``None`` until decided; ``None`` for str input)."""
        return None if self._input_kind is str else self._decoder.encoding

    @property
    def encoding_confidence(self) -> str | None:
        """``"certain"`` or ``"tentative"``, as the spec names them."""
        return None if self._input_kind is str else self._decoder.confidence

    @property
    def errors(self) -> list[str]:
        """Recoveries that changed the output (e.g. unresolved include targets), and parse errors if collected."""
        out = list(self._capture.notes)
        out.extend(self._encoding_notes)
        for code, line, col in getattr(self._tokenizer, "errors", None) or ():
            out.append(f"{line}:{col}: {code}")
        return out

    # -- internals ------------------------------------------------------------
    def _feed_text(self, text: str) -> None:
        """Tokenize decoded ``text``, carrying out an encoding change a late ``<meta>`` asks for.

        HTML *change the encoding* (13.2.3.4), for a declaration the prescan did not
        see: the switch is made when every character before the end of the ``<meta>``
        tag is ASCII (and both encodings are ASCII-compatible). That criterion, unlike
        the spec's "the bytes converted so far", does not depend on where chunks
        end. The tokenizer stops right after the tag, the text it had not consumed
        is dropped, and the bytes from the tag's end are decoded again with the new
        encoding. The decoder keeps those bytes only while a switch is possible: the
        confidence is tentative and no non-ASCII character has been consumed; they
        are released as the tokenizer consumes text, so what is kept is bounded by
        the tokenizer's lookahead plus the chunk being parsed.
        """
        tokenizer = self._tokenizer
        if text:
            tokenizer.feed(text)
        while tokenizer.suspended:
            encoding = self._meta_encoding
            assert encoding is not None
            self._meta_encoding = None
            before = self._decoder.encoding
            in_use, redecoded = self._decoder.change_encoding_at(encoding, tokenizer.raw_consumed)
            if in_use and self._decoder.encoding != before:
                tokenizer.discard_unconsumed()
                if redecoded:
                    tokenizer.feed(redecoded)
            else:
                self._note_kept_encoding(encoding, in_use, before)
                tokenizer.resume()
        if tokenizer.count_raw:
            self._decoder.release(tokenizer.raw_consumed)
            if not self._decoder.keeping:
                tokenizer.count_raw = False  # no switch is possible any more

    def _on_meta_encoding(self, encoding: str) -> None:
        """Tree builder hook: a ``<meta>`` handled by the "in head" rules declares ``encoding``."""
        decoder = self._decoder
        if self._input_kind is not bytes or decoder.confidence != "tentative":
            return
        if self._tokenizer.count_raw:
            # Decide once the tokenizer has stopped right after this tag (_feed_text).
            self._meta_encoding = encoding
            self._tokenizer.suspend()
        else:
            # A non-ASCII character was consumed before this tag: no switch possible.
            before = decoder.encoding
            self._note_kept_encoding(encoding, decoder.change_encoding(encoding), before)

    def _note_kept_encoding(self, encoding: str, in_use: bool, kept: str | None) -> None:
        if not in_use and kept not in ("UTF-16BE", "UTF-16LE") and lookup_encoding(encoding) != kept:
            self._encoding_notes.append(
                f"encoding: a <meta> beyond the prescan window declares {encoding}; kept {kept}, since"
                " switching needs a re-parse (non-ASCII before it, or an encoding that is not"
                " ASCII-compatible), which a stream cannot do"
            )

    def _check_open(self) -> None:
        if self._state == "closed":
            raise ParserStateError("this Parser is closed; create a new one for another document")
        if self._state == "failed":
            raise ParserStateError("this Parser stopped after an error; create a new one")

    def _take(self) -> list[Event]:
        events = self._capture.events
        if not events:
            return []
        self._capture.events = []
        return events


def parse(
    doc: str | bytes | IO[bytes] | IO[str],
    url: str | None = None,
    *,
    encoding: str | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Parse a whole document: ``{"items": [...], "rels": {...}, "rel-urls": {...}}``.

    ``doc`` is text, bytes, or a file object opened in either mode (read in
    64 KiB chunks). With ``metaformats=True`` the result also has ``"meta-item"``
    when the document yields one. Built on :class:`Parser`, so it gives exactly
    what streaming gives.
    """
    parser = Parser(url, encoding=encoding, **options)
    events: list[Event] = []
    if isinstance(doc, (str, bytes, bytearray, memoryview)):
        events.extend(parser.feed_events(doc if isinstance(doc, (str, bytes)) else bytes(doc)))
    else:
        read = doc.read
        while True:
            chunk = read(65536)
            if not chunk:
                break
            events.extend(parser.feed_events(chunk))
    events.extend(parser.close_events())
    # with stream_children, streamed children go back into their containers
    items: list[Item] = reassemble(events)
    result: dict[str, Any] = {"items": items, "rels": parser.rels, "rel-urls": parser.rel_urls}
    if parser.meta_item is not None:
        result["meta-item"] = parser.meta_item
    return result
