"""The sans-IO parser: bytes (or text) in, microformats items out.

One :class:`Parser` per document. It resolves its options once into a
:class:`~stream_mf2.core.options.ParserConfig`, has the stages built from it
(:func:`~stream_mf2.core.pipeline.build_pipeline`), and owns the decoder, the
encoding decisions and the error state; it does no I/O, so every source (files,
sockets, async streams, WARC records, the CLI) is a thin loop around
:meth:`Parser.feed`.

    decoder → tokenizer → tree builder → bounded sink → consumers (capture → mf2; WPT)

A ``<meta>`` that changes the encoding after non-ASCII input makes the parser
start again from the bytes it holds, but only while no event has been produced
and the tag ends within ``max_reparse_bytes``: both are stream positions, so the
result is the same in every chunking. Otherwise the first encoding stays, with a
note in :attr:`Parser.errors`. After :meth:`Parser.close` (or a failed feed) the
parser breaks the links between its stages (``_release``), so reference
counting frees the document at once instead of the cyclic garbage collector.

Feeding after :meth:`Parser.close`, or after a fatal error (a limit was
exceeded), raises :class:`~stream_mf2.errors.ParserStateError`: the parser never
produces output from a half-processed state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import IO, TYPE_CHECKING, Any, Final, Literal, Never, Unpack

from stream_mf2.core.consumer_failure import consumer_failure
from stream_mf2.core.options import (
    DEFAULT_MAX_REPARSE_BYTES,
    DEFAULT_MAX_TOKEN_CHARS,
    ParseOptions,
    ParserConfig,
    check_options,
    default_parser_config,
    parser_config,
)
from stream_mf2.core.pipeline import build_pipeline
from stream_mf2.core.reassemble import reassemble
from stream_mf2.core.syntaxes import DEFAULT_SYNTAXES
from stream_mf2.errors import ParserStateError
from stream_mf2.events import DocumentEnd, Item, ItemEvent
from stream_mf2.html.decode import Decoder, decoded_length
from stream_mf2.html.dom import Element
from stream_mf2.mf2.capture import DEFAULT_MAX_HELD_CHILDREN, DEFAULT_MAX_HELD_ITEMS
from stream_mf2.mf2.options import (
    DEFAULT_MAX_ITEM_CHARS,
    DEFAULT_MAX_NESTED_HTML_CHARS,
    DEFAULT_MAX_OUTPUT_RATIO,
    DEFAULT_OUTPUT_FLOOR_CHARS,
)

if TYPE_CHECKING:
    # (annotations only: the event union names every consumer's events, and the pattern budget
    # is the WPT model's; a parse without a template imports neither)
    from stream_mf2.core.events import Event
    from stream_mf2.wpt.model import PatternBudget, WptSpec

__all__ = ["Parser", "parse"]


# The WPT model (and its dataclasses, threading) is imported by the first parse with a template.
def _page_budget(seconds: float) -> PatternBudget:
    from stream_mf2.wpt.model import PatternBudget

    return PatternBudget(seconds)


def _current_budget(budget: PatternBudget | None) -> PatternBudget | None:
    from stream_mf2.wpt.model import pattern_budget

    return pattern_budget(budget)

_PRODUCED_BEFORE: Final = "output (an item or the meta item) was produced before it"


def _no_element(_id: str) -> Element | None:
    """The id resolver of a closed parser's context (nothing is resolved any more)."""
    return None


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
    encoding, whatever the chunking. After non-ASCII content the spec parses the
    document again from the start with the new encoding, confidence certain. The
    parser does so while it still can: it has produced no event at all before that
    ``<meta>`` (no item, no meta item), and the tag ends within the first
    ``max_reparse_bytes`` bytes (default 1 MiB; ``0`` turns re-parsing off). For
    that it holds the bytes it is fed until the first event, the budget, or a
    certain encoding, whichever comes first (then it holds nothing). Both
    conditions are positions in the stream, so chunking never changes the answer.
    The re-parse is recorded in :attr:`errors`; where it is not possible the
    encoding is kept (certain), with a note in :attr:`errors` saying why.

    Options: ``text`` (``"spec"``: DOM textContent, trimmed; ``"normalized"``: the
    whitespace-normalising algorithm), ``lang`` (add ``lang`` to items and e-*
    values), ``metaformats`` (build a ``meta-item`` from ``<head>``),
    ``filter_roots`` (drop Tailwind-style ``h-*`` names, or a given set),
    ``mf2py_compat`` (where the spec is silent, mf2py's choice: see
    :class:`stream_mf2.mf2.options.Options`), ``stream_children`` (``True``, or a set of types such as
    ``frozenset({"h-feed"})``: yield the children of an outermost container
    item as they close, so memory stays flat when one ``h-feed`` wraps the
    page; see :class:`~stream_mf2.events.ItemEvent` and
    :func:`~stream_mf2.core.reassemble.reassemble`; :meth:`feed` then returns those
    children as plain items too, before their container).

    Limits (each raises :class:`~stream_mf2.errors.LimitExceeded` naming itself):
    ``max_token_chars`` (one unfinished tag, attribute value, comment or doctype),
    ``max_depth`` (the stack of open elements), ``max_formatting_elements``
    (active formatting elements reopened after each block, a recovery recorded
    in :attr:`errors`, not an error: see docs/reference/limits.md), ``max_kept_nodes`` (one kept
    subtree), ``max_held_items`` (items waiting for include targets; a recovery,
    not an error: see :mod:`stream_mf2.mf2.capture`), ``max_held_children`` (with
    ``stream_children``: children kept in their container, not streamed, while
    a first ``<base href>``, or with ``lang`` the document language, may still
    come and change them; past it they stream, and such a late tag is recorded
    in :attr:`errors`; a budget, not an error), ``max_nested_html_chars`` (the
    e-* ``html`` of values nested inside other e-* values, which grows with the
    square of the nesting depth; past it those values keep their text and get an
    empty ``html``, recorded in :attr:`errors`), ``max_item_chars`` (about the
    JSON characters of one item, counting a nested item at every place it is a
    property value, which can double per nesting level; past it the item's
    later values are emptied and nested items placed reduced, recorded in
    :attr:`errors`; a budget, not an error: see
    :class:`~stream_mf2.mf2.options.Options`), ``max_output_ratio`` and
    ``output_floor_chars`` (the output allowance of each item and rel link,
    ``output_floor_chars + max_output_ratio * span`` characters, ``span`` being
    the length of the input its element covers, less its children's; past it an
    item's values are emptied and a rel link is left out, recorded in
    :attr:`errors`; a budget: see :class:`~stream_mf2.mf2.options.Options`), ``max_prefix_nodes`` (the
    content of an ``html``/``body`` held until the first kept element, so that a
    late ``<body class="h-*">`` still has it; past it the content is dropped, and a
    later such merge is recorded in :attr:`errors`; a budget, not an error), ``max_pending_items``
    (completed kept subtrees held back so that items leave in document order while content
    can still be placed before them, e.g. foster-parented before an open table; 10,000 by
    default; past it they are handed over in the order they have then, which
    :attr:`errors` records once; a budget, not an error). ``max_reparse_bytes`` (above) is a
    budget, not an error: past it the encoding is kept as described.

    ``tokenizer_fast_path=False`` runs the tokenizer's state machine alone (no
    whole-tag fast path, no fused leaf calls): the same output, slower; it lets
    tests check the fast paths in either build.

    ``wpt``: a Website Parse Template (:func:`stream_mf2.wpt.load`) or one of its
    templates, or a sequence of either (several sites' WPT files, or several for one
    site); the page's block matches come as
    :class:`~stream_mf2.wpt.WptMatchEvent` from the same parse (see
    :mod:`stream_mf2.wpt`). A whole WPT applies the templates chosen by ``url``
    (every template when ``url`` is ``None``); of a sequence, each applies as if given
    alone, so two WPT files for one host both apply. ``max_pattern_chars`` bounds the
    window of ``ow:pattern`` blocks over the page source; ``max_pattern_seconds``
    (1.0 by default) the CPU time the template's patterns may take on this page together
    (each search runs under the ``regex`` module's ``timeout=``): past it a page-source
    or element pattern is an error in the page's ``errors`` (its block fails there, the
    page goes on), a URL pattern raises :class:`~stream_mf2.errors.PatternTimeout`.
    ``max_misnest_nodes`` (4096 by default) bounds the elements held at once below
    misnested formatting tags, whose paths the adoption agency algorithm may still
    change (:mod:`stream_mf2.wpt._misnest`): within it such matches are exact; past
    it the matches there are the streaming ones, with a warning where they change.

    ``syntaxes``: the structured-data syntaxes extracted in the same pass, a set
    of names (:mod:`stream_mf2.core.syntaxes`): ``"mf2"`` (the default, alone),
    ``"json-ld"``, ``"microdata"``, ``"rdfa"``, ``"opengraph"``, ``"twitter"``,
    ``"dublincore"``. Each syntax's events (:class:`~stream_mf2.jsonld.JsonLdItem`,
    :class:`~stream_mf2.metadata.OpenGraphItem`, ...) come from :meth:`feed_events`
    as each completes, in the same outbox as the items; without ``"mf2"`` there are
    no items, rels or meta item. An unknown name raises
    :class:`~stream_mf2.errors.UnknownSyntax`. ``max_jsonld_chars`` bounds the text
    of one JSON-LD block (a budget: past it the block is skipped, with a note).
    ``microdata_form`` gives microdata items in extruct's shape (``None``, the
    default, or ``"extruct"``) or the WHATWG JSON form (``"whatwg"``); the
    ``max_microdata_*`` and ``max_itemref_ids`` budgets bound the microdata
    consumer (:mod:`stream_mf2.microdata.consumer`).
    ``max_rdfa_list_items`` bounds the RDFa list members held until their list's
    element closes (a budget: past it later members are dropped, with a note).
    """

    # (Slots: one parser per document; no per-instance dict to fill in the pure build.)
    __slots__ = (
        "_budget",
        "_capture",
        "_config",
        "_consumers",
        "_ctx",
        "_decoder",
        "_encoding_notes",
        "_events_before_meta",
        "_fed",
        "_held",
        "_held_tail",
        "_input_kind",
        "_meta_encoding",
        "_no_reparse",
        "_out",
        "_produced",
        "_sink",
        "_state",
        "_syntax_notes",
        "_tokenizer",
        "_tree",
        "_wpt",
        "_wpt_events",
        "_wpt_notes",
        "url",
    )

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
        filter_roots: bool | frozenset[str] | set[str] = False,
        mf2py_compat: bool = False,
        stream_children: bool | frozenset[str] | set[str] = False,
        max_token_chars: int = DEFAULT_MAX_TOKEN_CHARS,
        max_depth: int | None = None,
        max_formatting_elements: int | None = None,
        max_kept_nodes: int | None = None,
        max_prefix_nodes: int | None = None,
        max_held_items: int = DEFAULT_MAX_HELD_ITEMS,
        max_held_children: int = DEFAULT_MAX_HELD_CHILDREN,
        max_nested_html_chars: int = DEFAULT_MAX_NESTED_HTML_CHARS,
        max_item_chars: int = DEFAULT_MAX_ITEM_CHARS,
        max_output_ratio: int = DEFAULT_MAX_OUTPUT_RATIO,
        output_floor_chars: int = DEFAULT_OUTPUT_FLOOR_CHARS,
        max_reparse_bytes: int = DEFAULT_MAX_REPARSE_BYTES,
        collect_parse_errors: bool = False,
        tokenizer_fast_path: bool = True,
        wpt: WptSpec | None = None,
        max_pattern_chars: int | None = None,
        max_pattern_seconds: float | None = None,
        max_misnest_nodes: int | None = None,
        max_pending_items: int | None = None,
        syntaxes: Iterable[str] | None = None,
        max_jsonld_chars: int | None = None,
        microdata_form: str | None = None,
        max_microdata_held_items: int | None = None,
        max_microdata_held_nodes: int | None = None,
        max_itemref_ids: int | None = None,
        max_microdata_values: int | None = None,
        max_microdata_work_ratio: int | None = None,
        max_microdata_recent_nodes: int | None = None,
        max_rdfa_list_items: int | None = None,
        **unknown: Never,
    ) -> None:
        # ``Never``: a type checker rejects any other keyword; at run time it is named here
        # with the valid ones, as every other entry point does.
        if unknown:
            check_options(unknown, "Parser")
        self.url = url
        # Every option, checked and resolved once; a re-parse builds its stages from it too.
        # Most parsers take every default (parse(html, url)): their configuration is made
        # once, and the keywords are not passed on to be compared again (a small document's
        # fixed cost). The tests are parser_config's own: a value equal to a default but of
        # another type goes the long way, to be rejected there.
        config: ParserConfig
        if (
            encoding is None
            and syntaxes is None
            and wpt is None
            and lang is False
            and metaformats is False
            and filter_roots is False
            and mf2py_compat is False
            and stream_children is False
            and collect_parse_errors is False
            and detect_utf8 is True
            and tokenizer_fast_path is True
            and max_depth is None
            and max_formatting_elements is None
            and max_kept_nodes is None
            and max_prefix_nodes is None
            and max_pattern_chars is None
            and max_pattern_seconds is None
            and max_misnest_nodes is None
            and max_pending_items is None
            and max_jsonld_chars is None
            and microdata_form is None
            and max_microdata_held_items is None
            and max_microdata_held_nodes is None
            and max_itemref_ids is None
            and max_microdata_values is None
            and max_microdata_work_ratio is None
            and max_microdata_recent_nodes is None
            and max_rdfa_list_items is None
            and default_encoding == "windows-1252"
            and type(default_encoding) is str
            and text == "spec"
            and type(text) is str
            and max_token_chars == DEFAULT_MAX_TOKEN_CHARS
            and type(max_token_chars) is int
            and max_held_items == DEFAULT_MAX_HELD_ITEMS
            and type(max_held_items) is int
            and max_held_children == DEFAULT_MAX_HELD_CHILDREN
            and type(max_held_children) is int
            and max_nested_html_chars == DEFAULT_MAX_NESTED_HTML_CHARS
            and type(max_nested_html_chars) is int
            and max_item_chars == DEFAULT_MAX_ITEM_CHARS
            and type(max_item_chars) is int
            and max_output_ratio == DEFAULT_MAX_OUTPUT_RATIO
            and type(max_output_ratio) is int
            and output_floor_chars == DEFAULT_OUTPUT_FLOOR_CHARS
            and type(output_floor_chars) is int
            and max_reparse_bytes == DEFAULT_MAX_REPARSE_BYTES
            and type(max_reparse_bytes) is int
        ):
            config = default_parser_config()
        else:
            config = parser_config(
                encoding=encoding,
                default_encoding=default_encoding,
                detect_utf8=detect_utf8,
                text=text,
                lang=lang,
                metaformats=metaformats,
                filter_roots=filter_roots,
                mf2py_compat=mf2py_compat,
                stream_children=stream_children,
                max_token_chars=max_token_chars,
                max_depth=max_depth,
                max_formatting_elements=max_formatting_elements,
                max_kept_nodes=max_kept_nodes,
                max_prefix_nodes=max_prefix_nodes,
                max_held_items=max_held_items,
                max_held_children=max_held_children,
                max_nested_html_chars=max_nested_html_chars,
                max_item_chars=max_item_chars,
                max_output_ratio=max_output_ratio,
                output_floor_chars=output_floor_chars,
                max_reparse_bytes=max_reparse_bytes,
                collect_parse_errors=collect_parse_errors,
                tokenizer_fast_path=tokenizer_fast_path,
                wpt=wpt,
                max_pattern_chars=max_pattern_chars,
                max_pattern_seconds=max_pattern_seconds,
                max_misnest_nodes=max_misnest_nodes,
                max_pending_items=max_pending_items,
                # (None, not the frozenset, as the default: a compiled __init__ with a default mypyc
                # cannot spell has no signature, and help(Parser) and the docs read it)
                syntaxes=DEFAULT_SYNTAXES if syntaxes is None else syntaxes,
                max_jsonld_chars=max_jsonld_chars,
                microdata={
                    "microdata_form": microdata_form,
                    "max_microdata_held_items": max_microdata_held_items,
                    "max_microdata_held_nodes": max_microdata_held_nodes,
                    "max_itemref_ids": max_itemref_ids,
                    "max_microdata_values": max_microdata_values,
                    "max_microdata_work_ratio": max_microdata_work_ratio,
                    "max_microdata_recent_nodes": max_microdata_recent_nodes,
                },
                max_rdfa_list_items=max_rdfa_list_items,
            )
        self._config = config
        # The page's time for template patterns (the URL's too: choosing templates is part of
        # the build), current while this parser runs the matcher (see feed_events).
        self._budget = _page_budget(config.max_pattern_seconds) if config.wpt is not None else None
        previous = _current_budget(self._budget) if self._budget is not None else None
        try:
            # A <meta> past the prescan window may change the encoding (see _feed_text): the
            # tokenizer counts the characters of the input as fed.
            self._build(count_raw=True)
        finally:
            if self._budget is not None:
                _current_budget(previous)
        self._decoder = Decoder(
            config.encoding, default=config.default_encoding, detect_utf8=config.detect_utf8, keep_for_change=True
        )
        self._meta_encoding: str | None = None
        self._encoding_notes: list[str] = []
        self._input_kind: type | None = None
        self._state: Literal["open", "closed", "failed"] = "open"
        # For a re-parse (see _reparse): every byte fed so far, while one is possible.
        # A chunk that takes the total past the budget is referenced, not copied, in
        # _held_tail until the end of its feed(); the buffer is dropped then.
        self._held: bytearray | None = bytearray() if config.max_reparse_bytes > 0 else None
        self._held_tail = b""
        self._fed = 0
        # Why _held is None, for the note when a re-parse is refused.
        self._no_reparse = "re-parsing is off (max_reparse_bytes=0)"
        # Whether any event has been produced (taken or queued), and whether one had
        # been when the <meta> being decided was met.
        self._produced = False
        self._events_before_meta = False
        # The notes the syntax consumers returned at the document's end.
        self._syntax_notes: tuple[str, ...] = ()

    def _build(self, *, count_raw: bool) -> None:
        """Make the stages after the decoder (again, for a re-parse): :func:`build_pipeline`."""
        stages = build_pipeline(self._config, self.url, self._on_meta_encoding, count_raw=count_raw)
        self._ctx = stages.ctx
        self._out = stages.out
        self._capture = stages.capture
        self._sink = stages.sink
        self._tree = stages.tree
        self._tokenizer = stages.tokenizer
        self._wpt = stages.wpt
        self._wpt_events = stages.wpt_events
        self._wpt_notes = stages.wpt_notes
        if self._budget is not None and self._wpt is not None:
            # An element's pattern out of time is then the page's error, not the parse's end.
            self._budget.report_to(self._wpt.errors)
        self._consumers = stages.consumers

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
        budget = self._budget  # the page's time for patterns, current while the matcher may run
        previous = _current_budget(budget) if budget is not None else None
        try:
            if isinstance(data, bytes):  # (exactly bytes or str by now: the same test as kind is bytes)
                if self._held is not None:
                    self._hold(data)
                self._feed_text(self._decoder.feed(data))
                if self._held is not None:
                    self._settle_held()
            else:
                self._held = None
                self._tokenizer.count_raw = False
                if self._wpt is not None and self._wpt.wants_source:
                    self._wpt.source(data)
                self._tokenizer.feed(data)
        except BaseException as e:
            self._state = "failed"
            self._release()
            failure = consumer_failure(e) if self._wpt is not None or self._consumers else None
            if failure is not None:
                raise failure from e  # a consumer's bug: this document's error, not the run's
            raise
        finally:
            if budget is not None:
                _current_budget(previous)
        return self._take()

    def close_events(self) -> list[Event]:
        """Like :meth:`close`, as events; the last one is :class:`DocumentEnd`."""
        self._check_open()
        budget = self._budget  # the page's time for patterns, current while the matcher may run
        previous = _current_budget(budget) if budget is not None else None
        try:
            if self._input_kind is not str:
                self._feed_text(self._decoder.close())
            self._tokenizer.close()
            self._capture.finish()
            if self._wpt is not None:
                self._wpt.finish()
                self._held = None  # nothing is held any more: the WPT events go out now
            if self._consumers:
                self._syntax_notes = tuple([note for consumer in self._consumers for note in consumer.finish()])
        except BaseException as e:
            self._state = "failed"
            self._release()
            failure = consumer_failure(e) if self._wpt is not None or self._consumers else None
            if failure is not None:
                raise failure from e  # a consumer's bug: this document's error, not the run's
            raise
        finally:
            if budget is not None:
                _current_budget(previous)
        self._state = "closed"
        self._release()
        events = self._take()
        events.append(DocumentEnd(self.rels, self.rel_urls, self.meta_item, self.encoding, tuple(self.notes)))
        return events

    def commit_encoding(self) -> None:
        """Decide the encoding now with the bytes seen so far.

        For a stream that stalls before the 1024-byte prescan window is full:
        the sources call this after a short timeout so items keep flowing.
        """
        self._check_open()
        if self._input_kind is str:
            return
        budget = self._budget  # the page's time for patterns, current while the matcher may run
        previous = _current_budget(budget) if budget is not None else None
        try:
            self._feed_text(self._decoder.commit())
            if self._held is not None:
                self._settle_held()
        except BaseException as e:
            self._state = "failed"
            self._release()
            failure = consumer_failure(e) if self._wpt is not None or self._consumers else None
            if failure is not None:
                raise failure from e  # a consumer's bug: this document's error, not the run's
            raise
        finally:
            if budget is not None:
                _current_budget(previous)

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
    def awaiting_encoding(self) -> bool:
        """Whether bytes are (or will be) held back for the encoding decision: not yet decided, not str input.

        The sources' stall rule asks this; see :meth:`commit_encoding`.
        """
        return self._input_kind is not str and self._decoder.encoding is None

    @property
    def encoding_confidence(self) -> str | None:
        """``"certain"`` or ``"tentative"``, as the spec names them."""
        return None if self._input_kind is str else self._decoder.confidence

    @property
    def errors(self) -> list[str]:
        """:attr:`notes`, then the HTML parse errors when ``collect_parse_errors`` is on."""
        out = self.notes
        for code, line, col in getattr(self._tokenizer, "errors", None) or ():
            out.append(f"{line}:{col}: {code}")
        return out

    @property
    def notes(self) -> list[str]:
        """Recoveries that changed the output, one line each: values emptied past the output
        budget, unresolved include targets, a late ``<body lang>`` or ``<base>``, an encoding
        kept although a late ``<meta>`` asked for another, a WPT match that may be missing,
        what the syntax consumers report (a JSON-LD block that could not be read, with its
        position).

        The same lines end the stream as :attr:`DocumentEnd.notes <stream_mf2.events.DocumentEnd>`.
        """
        out = list(self._capture.notes)
        rels_note = self._ctx.rels.note()
        if rels_note is not None:
            out.append(rels_note)
        out.extend(self._sink.notes)
        out.extend(self._tree.notes)
        out.extend(self._encoding_notes)
        if self._wpt is not None:
            out.extend(self._wpt_notes)
            out.extend(self._wpt.errors)
        out.extend(self._syntax_notes)
        return out

    # -- encoding provenance (for WARC record lines) ---------------------------
    @property
    def encoding_source(self) -> str | None:
        """What chose the encoding: ``"bom"``, ``"transport"``, ``"meta"``, ``"xml"``, ``"utf8-detect"``,
        ``"default"``, ``"meta-change"`` or ``"meta-reparse"`` (``None`` until decided, or for str input)."""
        return None if self._input_kind is str else self._decoder.source

    # -- internals ------------------------------------------------------------
    def _feed_text(self, text: str) -> None:
        """Tokenize decoded ``text``, carrying out an encoding change a late ``<meta>`` asks for.

        HTML *change the encoding* (13.2.3.4), for a declaration the prescan did not
        see. Step 5, the switch on the fly, is made when every character before the
        end of the ``<meta>`` tag is ASCII (and both encodings are ASCII-compatible).
        That criterion, unlike the spec's "the bytes converted so far", does not
        depend on where chunks end. The tokenizer stops right after the tag, the text
        it had not consumed is dropped, and the bytes from the tag's end are decoded
        again with the new encoding. The decoder keeps those bytes only while a switch
        is possible: the confidence is tentative and no non-ASCII character has been
        consumed; they are released as the tokenizer consumes text, so what is kept
        is bounded by the tokenizer's lookahead plus the chunk being parsed.

        Step 6, navigating to the document again, is :meth:`_reparse`, when
        :meth:`_reparse_refusal` finds nothing against it.
        """
        tokenizer = self._tokenizer
        if text:
            if self._wpt is not None and self._wpt.wants_source:
                self._wpt.source(text)
            tokenizer.feed(text)
        while tokenizer.suspended:
            encoding = self._meta_encoding
            assert encoding is not None
            self._meta_encoding = None
            decoder = self._decoder
            before = decoder.encoding
            assert before is not None
            at = tokenizer.raw_consumed
            in_use, redecoded = decoder.change_encoding_at(encoding, at)
            if in_use and decoder.encoding != before:
                tokenizer.discard_unconsumed()
                if redecoded:
                    tokenizer.feed(redecoded)
                continue
            again = decoder.reparse_encoding
            if again is not None:
                refusal = self._reparse_refusal(before, at)
                if refusal is None:
                    self._reparse(again, encoding, before)
                    return
                self._note_kept_encoding(encoding, before, refusal)
            tokenizer.resume()
        if tokenizer.count_raw:
            self._decoder.release(tokenizer.raw_consumed)
            if not self._decoder.keeping and self._held is None:
                tokenizer.count_raw = False  # no switch and no re-parse is possible any more

    def _on_meta_encoding(self, encoding: str) -> None:
        """Tree builder hook: a ``<meta>`` handled by the "in head" rules declares ``encoding``."""
        decoder = self._decoder
        if self._input_kind is not bytes or decoder.confidence != "tentative":
            return
        if decoder.confirm_current(encoding):
            # The encoding in use (the prescan read this very tag, as a rule): the change
            # only makes the confidence certain, which does not depend on where the tag
            # ends, so the tokenizer need not stop after it.
            return
        if self._tokenizer.count_raw:
            # Decide once the tokenizer has stopped right after this tag (_feed_text).
            # Events are produced in token order, so "any event before this tag" is
            # the same in every chunking.
            self._meta_encoding = encoding
            self._events_before_meta = self._produced or bool(self._out)
            self._tokenizer.suspend()
        else:
            # A non-ASCII character was consumed before this tag and the bytes are no
            # longer held: neither a switch nor a re-parse is possible.
            before = decoder.encoding
            decoder.change_encoding(encoding)
            if decoder.reparse_encoding is not None:
                produced = self._produced or bool(self._out)
                self._note_kept_encoding(encoding, before, _PRODUCED_BEFORE if produced else self._no_reparse)

    # -- re-parsing -------------------------------------------------------------
    def _hold(self, data: bytes) -> None:
        """Keep ``data`` for a possible re-parse (before it is decoded)."""
        held = self._held
        assert held is not None
        self._fed += len(data)
        if self._fed <= self._config.max_reparse_bytes:
            held += data
        else:
            self._held_tail = data  # dropped (or, before the decision, kept) by _settle_held

    def _settle_held(self) -> None:
        """After a chunk: drop the held bytes once no later ``<meta>`` can use them.

        That is when an event has been produced, when the encoding is certain, or when
        the total fed is past the budget and the encoding has been decided: the
        decoder has then turned the first ``max_reparse_bytes`` bytes into text (all but
        an incomplete sequence at their end, which is what "the tag ends within the
        budget" means, see :meth:`_reparse_refusal`) and the tokenizer has emitted every
        tag whose ``>`` is in that text, so any later ``<meta>`` ends past the budget.
        Before the decision (a budget smaller than the prescan window) the bytes are
        kept, at most the prescan window.
        """
        held = self._held
        assert held is not None
        decoder = self._decoder
        reason = None
        if self._out:
            reason = _PRODUCED_BEFORE
        elif decoder.confidence == "certain":
            reason = "the encoding is certain"
        elif decoder.decided and self._fed > self._config.max_reparse_bytes:
            reason = self._past_budget()
        if reason is not None:
            self._held = None
            self._held_tail = b""
            self._no_reparse = reason
            if not decoder.keeping:
                self._tokenizer.count_raw = False
        elif self._held_tail:
            held += self._held_tail
            self._held_tail = b""

    def _reparse_refusal(self, current: str, at: int) -> str | None:
        """Why the document cannot be parsed again for a ``<meta>`` ending at character ``at``.

        ``None`` when it can: every byte is still held, no event had been produced
        before the tag, and the tag ends within the first ``max_reparse_bytes`` bytes:
        their text, as the decoder gives it before it has seen more, includes the tag's
        ``>``. (That is the byte offset of the tag's end, except where a decoder holds
        an ASCII byte back after an invalid lead byte, as Python's EUC-JP does after
        ``0x8F``; either way it depends on the bytes only, not on the chunking.)
        """
        # Events first: the held bytes may have been dropped for the budget in one
        # chunking and for an event in another, and the note must not differ.
        if self._events_before_meta:
            return _PRODUCED_BEFORE
        held = self._held
        if held is None:
            return self._no_reparse
        budget = self._config.max_reparse_bytes
        if self._fed > budget:
            # This chunk crossed the budget: does the tag end within it? ``at`` counts
            # characters, so compare with the text of the first ``budget`` bytes.
            prefix = bytes(held[:budget]) + self._held_tail[: max(0, budget - len(held))]
            if decoded_length(current, prefix) < at:
                return self._past_budget()
        return None

    def _past_budget(self) -> str:
        # One wording whichever way the budget is found exceeded (the same in every chunking).
        return f"the tag ends past the first {self._config.max_reparse_bytes} bytes (max_reparse_bytes)"

    def _reparse(self, encoding: str, declared: str, before: str) -> None:
        """Step 6 of *change the encoding*: parse the held bytes again as ``encoding``, certain.

        Nothing has left the parser yet, so a fresh pipeline fed the same bytes gives
        exactly what parsing with that encoding from the start gives.
        """
        held = self._held
        assert held is not None
        data = bytes(held) + self._held_tail
        closed = self._decoder.closed
        self._held = None
        self._held_tail = b""
        self._no_reparse = "the document was parsed again already"
        self._build(count_raw=False)
        self._decoder = Decoder.for_reparse(encoding)
        self._encoding_notes.append(
            f"encoding: a <meta> beyond the prescan window declares {declared}; the bytes before it do not"
            f" mean the same in {before}, so the document was parsed again from the start as {encoding}"
        )
        text = self._decoder.feed(data)
        if closed:
            text += self._decoder.close()
        self._feed_text(text)

    def _note_kept_encoding(self, encoding: str, kept: str | None, reason: str) -> None:
        self._encoding_notes.append(
            f"encoding: a <meta> beyond the prescan window declares {encoding}; kept {kept}, since"
            " switching needs a re-parse (non-ASCII before it, or an encoding that is not"
            f" ASCII-compatible), and {reason}"
        )

    def _release(self) -> None:
        """Break the links between the stages once the parser takes no more input.

        Tokenizer, tree builder, sink and parser refer to each other (the
        builder's meta hook is a method of this parser): left alone, each
        document's stages would wait for the cyclic garbage collector. Everything
        read after close (items, rels, errors, encoding) is kept.
        """
        self._tree.release()
        self._sink.release()
        # The capture's id resolver (a method of the capture, which holds the context):
        # no item is built after close.
        self._ctx.resolve_id = _no_element
        self._capture.release()

    def _check_open(self) -> None:
        if self._state == "closed":
            raise ParserStateError("this Parser is closed; create a new one for another document")
        if self._state == "failed":
            raise ParserStateError("this Parser stopped after an error; create a new one")

    def _take(self) -> list[Event]:
        # A copy: the consumers keep appending to the outbox itself.
        events = self._out[:]
        if events:
            self._produced = True
            self._out.clear()
        # Page-source pattern matches wait while a re-parse is possible (they never count
        # as output that prevents one: their timing, unlike items', depends on the window).
        # The WPT page ends come on the same list, after the last of them (WptConsumer.finish).
        if self._wpt_events and self._held is None:
            events = events + self._wpt_events if events else list(self._wpt_events)
            self._wpt_events.clear()
        return events


def parse(
    doc: str | bytes | IO[bytes] | IO[str],
    url: str | None = None,
    **options: Unpack[ParseOptions],
) -> dict[str, Any]:
    """Parse a whole document: ``{"items": [...], "rels": {...}, "rel-urls": {...}}``.

    ``doc`` is text, bytes, or a file object opened in either mode (read in
    64 KiB chunks). With ``metaformats=True`` the result also has ``"meta-item"``
    when the document yields one. Built on :class:`Parser`, so it gives exactly
    what streaming gives.

    Options (keywords, all optional; :class:`stream_mf2.ParseOptions`):
    ``encoding``, ``default_encoding``, ``detect_utf8``, ``text`` (``"spec"`` or
    ``"normalized"``), ``lang``, ``metaformats``, ``filter_roots``,
    ``stream_children``, ``collect_parse_errors``, and the limits
    ``max_token_chars``, ``max_depth``, ``max_kept_nodes``, ``max_held_items``,
    ``max_nested_html_chars``, ``max_reparse_bytes`` (see :class:`Parser`). An
    unknown option is a :class:`TypeError`, a bad value a :class:`ValueError`.
    With ``syntaxes``, each syntax other than ``"mf2"`` adds its results under its
    name (:func:`document_result`).
    """
    check_options(options, "parse")
    return document_result(
        parse_events(doc, url, **options), wpt=options.get("wpt") is not None, syntaxes=options.get("syntaxes")
    )


def parse_events(
    doc: str | bytes | IO[bytes] | IO[str],
    url: str | None = None,
    **options: Unpack[ParseOptions],
) -> list[Event]:
    """Every event of a whole document, :class:`DocumentEnd` last (see :func:`parse`)."""
    parser = Parser(url, **options)
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
    return events


def document_result(
    events: Sequence[Event], *, wpt: bool = False, syntaxes: Iterable[str] | None = None
) -> dict[str, Any]:
    """The whole-document result (``items``, ``rels``, ``rel-urls``, ``meta-item``, with ``wpt``
    the template pages) of a complete stream of events, :class:`DocumentEnd` last.

    With ``syntaxes`` (the parse's ``syntaxes=``), each syntax other than ``mf2`` adds
    its results under its name, in extruct's shape (``"json-ld"``: the JSON-LD items, ...).
    """
    end = events[-1]
    assert isinstance(end, DocumentEnd)
    # with stream_children, streamed children go back into their containers
    result: dict[str, Any] = {"items": reassemble(events), "rels": end.rels, "rel-urls": end.rel_urls}
    if end.meta_item is not None:
        result["meta-item"] = end.meta_item
    if wpt:
        from stream_mf2.wpt.events import collect_pages

        result["wpt"] = collect_pages(events)
    if syntaxes is not None:
        from stream_mf2.core.syntaxes import SYNTAXES, result_function

        for name in SYNTAXES:
            if name != "mf2" and name in syntaxes:
                result[name] = result_function(name)(events)
    return result
