"""The versioned line schema of ``stream-mf2 warc`` (and ``stream-mf2 wpt`` over WARC).

The output schema (version :data:`SCHEMA_VERSION`) is JSON Lines; every line
has a ``"kind"``. Keys are the attribute names of the Python entries, except
the mf2 names ``rel-urls``, ``meta-item`` and ``children-streamed``, and ``error``
for :attr:`WarcError.message` (as in the page-level ``stream-mf2 --jsonl`` lines):

``item``
    ``syntax`` (``"mf2"``, or with ``syntaxes=`` another syntax of
    :mod:`stream_mf2.core.syntaxes`: ``"json-ld"``, ``"microdata"``, ...),
    ``warc_file``, ``offset`` (of the record), ``record_id``, ``uri``, ``path``
    (where the item sits in the record's whole-document ``items``: the top-level
    index, then keys and indexes, e.g. ``[0, "children", 3]``; for another
    syntax ``[i]``, its index in that syntax's list of :func:`stream_mf2.parse`'s
    result), ``item``, and ``children-streamed`` (a container whose children were
    written before it). The item lines of JSON-LD, microdata, OpenGraph and Twitter
    cards come as their elements complete; those of RDFa and Dublin Core at the
    record's end (:mod:`stream_mf2.core.syntax_results`), before its ``record`` line.
    A syntax's lines come in its list's order but for a microdata page item
    (``<html itemscope>``/``<body itemscope>``): it comes last, at the record's end,
    with its place in ``path``.
``record``
    one per HTML record, always, after its items and errors: ``schema``,
    ``warc_file``, ``offset``, ``length``, ``record_id``, ``uri``, ``date``,
    ``status``, ``content_type``, ``warc_type``, ``encoding``, ``encoding_source``,
    ``items`` (item lines written for it, of every syntax), ``rels``, ``rel-urls``, ``notes`` (the
    recoveries that changed the record's output, one line each; ``[]`` when none),
    ``parsed`` (``false`` when ``--prefilter`` found no root class name in the
    record's bytes and did not parse it), and ``meta-item`` with ``--metaformats``
    when the head gives one.
``error``
    ``schema``, ``scope`` (``record``: a record or stretch of the archive;
    ``file``: the input could not be opened or read on), ``warc_file``,
    ``offset``, ``record_id``, ``uri``, ``error`` (the message).
``summary``
    last line of a run: ``schema``, ``files``, ``files_failed``, ``records``,
    ``html_records``, ``items``, ``errors``, ``skipped``, ``unparsed`` (HTML
    records the ``prefilter`` did not parse), and, with a
    ``consumer``, the number of its lines of each kind (e.g. ``"wpt": 12``).

A ``consumer`` (:class:`LineConsumer`, e.g. the Website Parse Template lines of
``stream-mf2 wpt``) adds its own lines, written after a record's items and
before its ``record`` line; each gets ``warc_file``, ``offset``,
``record_id`` and ``uri`` after its ``kind``. The runner knows nothing of
what they hold. ``Options.items`` ``False`` leaves the ``item`` lines out (the
``items`` counts still count the mf2 items found).

The schema version is the ``schema`` field of ``record``, ``error`` and
``summary`` lines (and the ``stream_mf2.schema`` metadata of Parquet files).
Version 2 added ``notes`` to ``record`` lines (and the records table); version 3
added ``parsed`` to them (``false``: the ``prefilter`` left the record unparsed, so it
has no items, ``rels``, ``rel-urls``, ``notes`` or ``encoding``) and ``unparsed`` to
the summary line. Version 4 added ``syntax`` to ``item`` lines (and a ``syntax``
column to the items table): with ``syntaxes=`` the item lines hold every syntax's
results, and a record's ``items`` and the summary's ``items`` count them all.
"""

from __future__ import annotations

from typing import Any

from stream_mf2.warc.entries import WarcEntry, WarcError, WarcExtra, WarcItem, WarcRecord

#: Version of the output schema (see the module docs).
SCHEMA_VERSION = 4

#: Exit status: every input was read (damaged records are reported, not failures).
EXIT_OK = 0
#: Exit status: the output could not be written, or another fatal error.
EXIT_FATAL = 1
#: Exit status: some inputs could not be read (each has an ``error`` line with ``scope`` ``file``).
EXIT_SOME_FAILED = 3
#: Exit status: no input could be read.
EXIT_ALL_FAILED = 4



def item_line(e: WarcItem) -> dict[str, Any]:
    line: dict[str, Any] = {
        "kind": "item",
        "syntax": e.syntax,
        "warc_file": e.warc_file,
        "offset": e.offset,
        "record_id": e.record_id,
        "uri": e.uri,
        "path": list(e.path),
        "item": e.item,
    }
    if e.children_streamed:
        line["children-streamed"] = e.children_streamed
    return line


def record_line(e: WarcRecord) -> dict[str, Any]:
    line: dict[str, Any] = {
        "kind": "record",
        "schema": SCHEMA_VERSION,
        "warc_file": e.warc_file,
        "offset": e.offset,
        "length": e.length,
        "record_id": e.record_id,
        "uri": e.uri,
        "date": e.date,
        "status": e.status,
        "content_type": e.content_type,
        "warc_type": e.warc_type,
        "encoding": e.encoding,
        "encoding_source": e.encoding_source,
        "items": e.items,
        "rels": e.rels,
        "rel-urls": e.rel_urls,
        "notes": list(e.notes),
        "parsed": e.parsed,
    }
    if e.meta_item is not None:
        line["meta-item"] = e.meta_item
    return line


def error_line(e: WarcError) -> dict[str, Any]:
    return {
        "kind": "error",
        "schema": SCHEMA_VERSION,
        "scope": e.scope,
        "warc_file": e.warc_file,
        "offset": e.offset,
        "record_id": e.record_id,
        "uri": e.uri,
        "error": e.message,
    }


def extra_line(e: WarcExtra) -> dict[str, Any]:
    """A consumer's line, with the record's position after its ``kind``."""
    line = e.line
    return {
        "kind": line["kind"],
        "warc_file": e.warc_file,
        "offset": e.offset,
        "record_id": e.record_id,
        "uri": e.uri,
        **{k: v for k, v in line.items() if k != "kind"},
    }


def entry_line(e: WarcEntry) -> dict[str, Any]:
    """The schema line of an entry."""
    if type(e) is WarcItem:
        return item_line(e)
    if type(e) is WarcRecord:
        return record_line(e)
    if type(e) is WarcExtra:
        return extra_line(e)
    assert isinstance(e, WarcError)
    return error_line(e)
