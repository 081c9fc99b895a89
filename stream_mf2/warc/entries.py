"""What a WARC reader yields, entry by entry, and what it counts.

:func:`~stream_mf2.warc.reader.iter_warc` yields, in archive order, for each HTML
``response`` / ``resource`` record a :class:`WarcItem` per item and then one
:class:`WarcRecord` (always, even when the record has no item: it carries the
record's position, encoding, ``rels`` and ``rel-urls``), and a
:class:`WarcError` for each damaged record or stretch of the file; the
:class:`WarcSummary` on the returned reader counts records, HTML records,
items, errors and skipped records. A :class:`RecordConsumer` given to the reader
turns the parser's other events into :class:`WarcExtra` entries.

Offsets are byte offsets in the file: of the gzip member for compressed
archives, of the record for uncompressed ones; a :class:`WarcRecord`'s
``length`` spans the member (compressed) or the record and its trailing
``\\r\\n\\r\\n`` (uncompressed), which is what a CDX index holds.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar, Protocol, TypeAlias

Path: TypeAlias = tuple[int | str, ...]


@dataclass(frozen=True, slots=True)
class WarcItem:
    """One item of one HTML record.

    ``path`` locates the item in the record's whole-document ``items``: the
    top-level index first, then keys and indexes (``(0, "children", 3)``,
    ``(1, "properties", "author", 0)``); ``()`` only when built by hand.
    ``children_streamed`` counts the children of a container that were written
    as items of their own before it (``stream_children``). ``syntax`` is the
    syntax the item is of (``syntaxes=``): ``"mf2"``, or another name of
    :mod:`stream_mf2.core.syntaxes`, whose ``item`` is one entry of that syntax's
    list in :func:`stream_mf2.parse`'s result and whose ``path`` is ``(index,)`` in it.
    """

    kind: ClassVar[str] = "item"

    uri: str | None
    record_id: str | None
    date: str | None
    status: int | None  #: HTTP status; ``None`` for ``resource`` records
    content_type: str | None  #: media type essence (``text/html``), ``None`` when sniffed
    item: dict[str, Any]
    warc_file: str | None = None  #: the archive's name (path or URL as given)
    offset: int | None = None  #: the record's offset in the archive (see the module docs)
    path: Path = ()
    children_streamed: int = 0
    syntax: str = "mf2"


@dataclass(frozen=True, slots=True)
class WarcRecord:
    """One HTML record, after its items: position, encoding, ``rels``, counts."""

    kind: ClassVar[str] = "record"

    uri: str | None
    record_id: str | None
    date: str | None
    status: int | None
    content_type: str | None
    warc_type: str  #: ``response`` or ``resource``
    encoding: str | None  #: the encoding the page was decoded with (Encoding Standard name)
    #: how it was chosen: ``bom``, ``transport`` (HTTP charset), ``option`` (the ``encoding``
    #: option), ``meta``, ``xml``, ``utf8-detect``, ``default``, ``meta-change``, ``meta-reparse``
    encoding_source: str | None
    warc_file: str | None
    offset: int | None
    length: int | None  #: bytes of the record in the archive (see the module docs)
    items: int  #: item entries written for this record
    rels: dict[str, list[str]] = field(default_factory=dict)
    rel_urls: dict[str, dict[str, Any]] = field(default_factory=dict)
    meta_item: dict[str, Any] | None = None  #: with ``metaformats=True``, when the head gives one
    #: recoveries that changed this record's output (:attr:`stream_mf2.Parser.notes`), one line each
    notes: tuple[str, ...] = ()
    #: ``False`` when the ``prefilter`` found no root class name in the body (or the body failed
    #: before it decided): the record was not parsed (no items, ``rels``, ``notes``, ``encoding``;
    #: see :mod:`stream_mf2.warc.prefilter`)
    parsed: bool = True


@dataclass(frozen=True, slots=True)
class WarcError:
    """A record (or a stretch of the file, or the whole input) that could not be read."""

    kind: ClassVar[str] = "error"

    record_id: str | None
    offset: int | None
    uri: str | None
    message: str
    warc_file: str | None = None
    scope: str = "record"  #: ``record`` (a record or stretch of the archive) or ``file`` (the input)


@dataclass(frozen=True, slots=True)
class WarcExtra:
    """A line that a reader's ``consumer`` made from one of a record's parser events.

    Yielded only when a :class:`RecordConsumer` is given, before the record's
    :class:`WarcRecord`; ``line`` is the consumer's (e.g. a Website Parse
    Template page, ``{"kind": "wpt", ...}``), the other fields locate the record.
    """

    kind: ClassVar[str] = "extra"

    uri: str | None
    record_id: str | None
    warc_file: str | None
    offset: int | None
    line: dict[str, Any]


class RecordConsumer(Protocol):
    """Turns the parser events of HTML records that are not mf2's into lines (:class:`WarcExtra`).

    The reader calls :meth:`start` when a record's parse starts, then
    :meth:`lines` with every event other than items, the meta item and the
    document end. It must be picklable to go to
    :func:`~stream_mf2.warc.parallel.iter_warc_parallel`'s workers (each gets its own copy).
    """

    def start(self) -> None:
        """A record starts: forget what a record that ended in an error left."""

    def lines(self, event: object) -> list[dict[str, Any]]:
        """The lines for ``event`` (often none)."""
        ...


WarcEntry: TypeAlias = WarcItem | WarcRecord | WarcError | WarcExtra


@dataclass(slots=True)
class WarcSummary:
    """Counts over everything read so far; final once iteration ends."""

    kind: ClassVar[str] = "summary"

    records: int = 0  #: WARC records seen (every type)
    html_records: int = 0  #: records parsed as HTML
    items: int = 0  #: items yielded
    errors: int = 0  #: errors yielded
    skipped_non_html: int = 0  #: response / resource records that are not HTML
    skipped_revisit: int = 0  #: revisit records
    skipped_other: int = 0  #: request, warcinfo, metadata, … records
    unparsed: int = 0  #: HTML records not parsed (``WarcRecord.parsed`` ``False``; counted in ``html_records``)
    bytes_read: int = 0  #: bytes read from the archive
    seconds: float = 0.0  #: wall-clock time spent reading

    COUNTS: ClassVar[tuple[str, ...]] = (
        "records",
        "html_records",
        "items",
        "errors",
        "skipped_non_html",
        "skipped_revisit",
        "skipped_other",
        "unparsed",
        "bytes_read",
    )

    @property
    def skipped(self) -> int:
        """All skipped records."""
        return self.skipped_non_html + self.skipped_revisit + self.skipped_other

    def add(self, other: WarcSummary) -> None:
        """Add another summary's counts (from a worker) to this one."""
        for name in self.COUNTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def as_dict(self) -> dict[str, Any]:
        """The counts as a plain dict, ``skipped`` included."""
        d = asdict(self)
        d["skipped"] = self.skipped
        return d
