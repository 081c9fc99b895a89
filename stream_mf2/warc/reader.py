"""Microformats out of WARC archives, record by record, with every problem reported.

:func:`iter_warc` (a :class:`WarcReader`) and :func:`aiter_warc` (an
:class:`AsyncWarcReader`, reading in a worker thread) yield the entries of
:mod:`stream_mf2.warc.entries` in archive order; their options
(:class:`WarcReaderOptions`, :class:`WarcOptions`) are checked when they are
called. This module opens the source and picks out the stretch to read
(``offset``/``length``); the rest is done, one way, by

* :mod:`~stream_mf2.warc.entries` — the entries and the summary;
* :mod:`~stream_mf2.warc.framing` — gzip members, record framing, WARC and HTTP heads;
* :mod:`~stream_mf2.warc.walker` — the walk over the archive's units: which records
  are HTML, per-record errors, resynchronisation after damage;
* :mod:`~stream_mf2.warc.parallel` — several worker processes (``--workers``), on top of this module.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import IO, Any, TypedDict, Unpack

from stream_mf2.core.options import OPTION_NAMES, ParseOptions, check_options
from stream_mf2.errors import SourceError, StreamMF2Error
from stream_mf2.io.payload import DEFAULT_MAX_DECODED_BYTES, DEFAULT_MAX_EXPANSION
from stream_mf2.warc.entries import RecordConsumer, WarcEntry, WarcSummary
from stream_mf2.warc.prefilter import DEFAULT_MAX_PREFILTER_BYTES
from stream_mf2.warc.walker import Walker


def open_archive(source: str | os.PathLike[str] | IO[bytes]) -> tuple[IO[bytes], bool]:
    if isinstance(source, str | os.PathLike):
        try:
            return open(source, "rb"), True  # closed by the reader
        except (OSError, ValueError) as e:
            reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            raise SourceError(f"cannot open {os.fspath(source)!r}: {reason}") from e
    return source, False


class _Window:
    """``length`` bytes of a file from where it stands: a record picked out by offset and length."""

    def __init__(self, f: IO[bytes], length: int) -> None:
        self._f = f
        self._left = length

    def read(self, n: int = -1) -> bytes:
        if self._left <= 0:
            return b""
        data = self._f.read(self._left if n is None or n < 0 else min(n, self._left))
        self._left -= len(data)
        return data

    def seekable(self) -> bool:
        return False

    def tell(self) -> int:
        return self._f.tell()


class WarcReaderOptions(TypedDict, total=False):
    """The reader options of :func:`iter_warc`, :func:`aiter_warc` and
    :func:`~stream_mf2.warc.parallel.iter_warc_parallel`.

    ``types`` (default ``None``: every item), ``warc_file`` (default: the path),
    ``max_decoded_bytes`` (default ``DEFAULT_MAX_DECODED_BYTES``) and
    ``max_expansion`` (default ``DEFAULT_MAX_EXPANSION``) and ``consumer`` (default
    ``None``: items only), ``prefilter`` (default ``False``) and ``max_prefilter_bytes``
    (default ``DEFAULT_MAX_PREFILTER_BYTES``); see :func:`iter_warc`.
    """

    types: Sequence[str] | frozenset[str] | str | None
    warc_file: str | None
    max_decoded_bytes: int | None
    max_expansion: float | None
    consumer: RecordConsumer | None
    prefilter: bool
    max_prefilter_bytes: int | None


class WarcOptions(ParseOptions, WarcReaderOptions, total=False):
    """Every keyword option of the WARC entry points: the reader's and the parser's."""


PARSER_OPTIONS = frozenset(OPTION_NAMES)


def check_warc_options(options: WarcOptions, where: str) -> None:
    """The parser options among ``options`` are checked as every entry point checks them."""
    check_options({k: v for k, v in options.items() if k not in READER_OPTIONS}, where)


#: Reader options a parallel reader passes on to its workers' readers.
READER_OPTIONS = frozenset(WarcReaderOptions.__annotations__)


def check_call(source: object, options: dict[str, Any], where: str, allowed: frozenset[str] = PARSER_OPTIONS) -> None:
    """Refuse a wrong source or option name at call time, not when iteration starts."""
    if not isinstance(source, str | os.PathLike) and not callable(getattr(source, "read", None)):
        raise TypeError(
            f"{where}() takes a path (str or os.PathLike) or a binary file object, not {type(source).__name__}"
        )
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise TypeError(
            f"{where}() got unknown option(s) {', '.join(unknown)}; parser options are {', '.join(sorted(PARSER_OPTIONS))}"
        )


def _types_option(types: Sequence[str] | frozenset[str] | str | None) -> frozenset[str] | None:
    if types is None:
        return None
    if isinstance(types, str):
        types = types.split(",")
    found = frozenset(t.strip() for t in types if t.strip())
    return found or None


class WarcReader:
    """Iterate once over a WARC archive's entries; :attr:`summary` counts as it goes.

    Build it with :func:`iter_warc`.
    """

    def __init__(
        self,
        source: str | os.PathLike[str] | IO[bytes],
        *,
        offset: int | None = None,
        length: int | None = None,
        start: int | None = None,
        max_units: int | None = None,
        gzip: bool | None = None,
        warc_file: str | None = None,
        types: Sequence[str] | frozenset[str] | str | None = None,
        max_decoded_bytes: int | None = DEFAULT_MAX_DECODED_BYTES,
        max_expansion: float | None = DEFAULT_MAX_EXPANSION,
        consumer: RecordConsumer | None = None,
        prefilter: bool = False,
        max_prefilter_bytes: int | None = DEFAULT_MAX_PREFILTER_BYTES,
        **options: Any,
    ) -> None:
        check_call(source, options, "iter_warc")
        if length is not None and length < 0:
            raise ValueError("length must be >= 0")
        if prefilter and consumer is not None:
            raise ValueError("prefilter skips records without mf2 root class names: it cannot serve a consumer")
        if prefilter and set(options.get("syntaxes", ())) - {"mf2"}:
            raise ValueError("prefilter skips records without mf2 root class names: it cannot serve other syntaxes")
        if max_prefilter_bytes is not None and max_prefilter_bytes < 0:
            raise ValueError("max_prefilter_bytes must be >= 0 or None")
        self._prefilter = prefilter
        self._max_prefilter_bytes = max_prefilter_bytes
        self.summary = WarcSummary()
        self._gzip = gzip
        self._source = source
        self._start = start if offset is None else offset
        self._length = length
        self._max_units = max_units
        self._options = options
        self._used = False
        if warc_file is None and isinstance(source, str | os.PathLike):
            warc_file = os.fspath(source)
        self._warc_file = warc_file
        self._types = _types_option(types)
        self._max_decoded_bytes = max_decoded_bytes
        self._max_expansion = max_expansion
        self._consumer = consumer
        #: Where the unit being read starts (the resume point after the last complete one).
        self.position: int | None = None
        #: ``True`` for a gzip-compressed archive once known.
        self.gzip: bool | None = gzip

    def __iter__(self) -> Iterator[WarcEntry]:
        return (e for e in self.iter_with_positions() if not isinstance(e, int))

    def iter_with_positions(self) -> Iterator[WarcEntry | int]:
        """Entries, and the offset of each unit as it starts (see :class:`~stream_mf2.warc.walker.Walker`): for resuming."""
        if self._used:
            raise StreamMF2Error("a WarcReader can be iterated only once")
        self._used = True
        return self._run()

    def _run(self) -> Iterator[WarcEntry | int]:
        f, owned = open_archive(self._source)
        t0 = time.perf_counter()
        try:
            if self._start is not None:
                try:
                    f.seek(self._start)
                except (OSError, ValueError) as e:
                    raise SourceError(f"cannot seek to offset {self._start}: {e}") from e
            stream: Any = f if self._length is None else _Window(f, self._length)
            walker = Walker(
                stream,
                self.summary,
                self._options,
                max_units=self._max_units,
                gzip=self._gzip,
                warc_file=self._warc_file,
                types=self._types,
                max_decoded_bytes=self._max_decoded_bytes,
                max_expansion=self._max_expansion,
                consumer=self._consumer,
                prefilter=self._prefilter,
                max_prefilter_bytes=self._max_prefilter_bytes,
            )
            for entry in walker.walk():
                if isinstance(entry, int):
                    self.position = entry
                    self.gzip = walker.gzip
                yield entry
        finally:
            self.summary.seconds += time.perf_counter() - t0
            if owned:
                f.close()


def iter_warc(
    source: str | os.PathLike[str] | IO[bytes],
    *,
    offset: int | None = None,
    length: int | None = None,
    **options: Unpack[WarcOptions],
) -> WarcReader:
    """Items and records of every HTML record of a WARC archive (``.warc`` or ``.warc.gz``).

    ``source`` is a path (``str`` or ``os.PathLike``: an archive is never given
    as content) or a binary file object (a non-seekable stream works, with less
    recovery for damaged uncompressed archives); anything else, or an unknown
    option name, raises :class:`TypeError` at once. Iterating yields
    :class:`~stream_mf2.warc.entries.WarcItem`, :class:`~stream_mf2.warc.entries.WarcRecord`
    and :class:`~stream_mf2.warc.entries.WarcError` entries in archive order; ``reader.summary`` is final when iteration ends.

    Reader options: ``offset`` and ``length`` (read only that stretch of the
    file, as a CDX index gives one record), ``types`` (``"h-entry,h-card"`` or
    a set: yield only items of those types, found at any depth, each with its
    ``path``), ``warc_file`` (the name written in entries; default the path),
    ``max_decoded_bytes`` and ``max_expansion`` (the decompression cap of
    :class:`stream_mf2.io.payload.BodyDecoder`, defaults ``DEFAULT_MAX_DECODED_BYTES``
    and ``DEFAULT_MAX_EXPANSION``; ``None`` turns one off): one definition,
    :class:`WarcReaderOptions`, for the three WARC entry points. Every
    other option is a :class:`~stream_mf2.Parser` option (``stream_children``,
    ``metaformats``, …); an ``encoding`` option overrides every record's HTTP
    charset. ``consumer`` (a :class:`~stream_mf2.warc.entries.RecordConsumer`) turns the parser's
    other events (e.g. those of the ``wpt`` option) into :class:`~stream_mf2.warc.entries.WarcExtra` entries.
    ``prefilter=True`` (for a run that wants items only) does not parse an HTML record whose
    bytes cannot hold a root class name (:mod:`stream_mf2.warc.prefilter`): its
    :class:`~stream_mf2.warc.entries.WarcRecord` has ``parsed=False`` and no ``rels``;
    ``max_prefilter_bytes`` caps the bytes held while deciding (past it the record is parsed).
    """
    check_warc_options(options, "iter_warc")
    return WarcReader(source, offset=offset, length=length, **options)


def _take(it: Iterator[WarcEntry], n: int, budget: float) -> tuple[list[WarcEntry], bool]:
    out: list[WarcEntry] = []
    deadline = time.perf_counter() + budget
    for entry in it:
        out.append(entry)
        if len(out) >= n or time.perf_counter() > deadline:
            return out, False
    return out, True


class AsyncWarcReader:
    """Async iteration over a WARC archive; the reading runs in a worker thread.

    Entries are handed over in small batches (at most 64 entries or 50 ms of
    work), so the event loop is never blocked by archive reading or parsing.
    """

    def __init__(self, source: str | os.PathLike[str] | IO[bytes], **options: Any) -> None:
        self._reader = WarcReader(source, **options)

    @property
    def summary(self) -> WarcSummary:
        """Counts so far; final once iteration ends."""
        return self._reader.summary

    def __aiter__(self) -> AsyncIterator[WarcEntry]:
        return self._run()

    async def _run(self) -> AsyncIterator[WarcEntry]:
        from stream_mf2.io.threads import run_in_thread  # (asyncio: only for the async reader)

        it = iter(self._reader)
        try:
            while True:
                batch, done = await run_in_thread(_take, it, 64, 0.05)
                for entry in batch:
                    yield entry
                if done:
                    return
        finally:
            close = getattr(it, "close", None)
            # If we were cancelled while a batch was being read, the thread still runs the
            # generator and it cannot be closed from here; it is then finalised when dropped.
            if close is not None:
                with contextlib.suppress(ValueError):
                    close()


def aiter_warc(
    source: str | os.PathLike[str] | IO[bytes],
    *,
    offset: int | None = None,
    length: int | None = None,
    **options: Unpack[WarcOptions],
) -> AsyncWarcReader:
    """Async version of :func:`iter_warc`: ``async for entry in aiter_warc(path): …``."""
    check_warc_options(options, "aiter_warc")
    return AsyncWarcReader(source, offset=offset, length=length, **options)
