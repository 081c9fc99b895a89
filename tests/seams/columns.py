"""The columns of the seam matrix: each front end, how it is run, and what it has no place for.

A :class:`Column` runs its front end over every page of :mod:`tests.seams.inputs` and gives
each page's output as a :class:`~tests.seams.rows.Seen` (one of the shapes the rows read). The
in-process front ends run per page; the commands over the archives run once for all pages and
all rows (one run per output format, one Dask run), and are ``shared``: the matrix runs them
once per test session, whichever worker asks first.

``na`` declares, with the reason, each row a front end has no place for (the cell is skipped
and says why); ``defects`` marks a cell that shows a known product defect (a strict xfail,
naming it). A new front end is one new entry in :data:`COLUMNS`.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
import logging
import subprocess
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import stream_mf2
from stream_mf2.io.sources import aiter_events, aiter_items, iter_events, iter_items
from tests.seams.inputs import CLI_OPTIONS, OPTIONS, WPT, Inputs, Page
from tests.seams.rows import SYNTAX_ROWS, WPT_ROWS, Line, Seen
from tests.support.chunking import SEED, Pipe, one_by_one, random_chunks
from tests.support.cli import run_cli

#: What a column's run gives: each page's output, by the page's URL.
Outputs = dict[str, Seen]
Run = Callable[[Inputs, Path], Outputs]


@dataclass(frozen=True)
class Column:
    """One front end: a name (the cell ids), what it is, how to run it, and its declarations."""

    name: str
    what: str
    run: Run
    #: rows this front end has no place for: row name -> why
    na: Mapping[str, str] = field(default_factory=dict)
    #: cells that show a known product defect: row name -> the defect (strict xfail)
    defects: Mapping[str, str] = field(default_factory=dict)
    marks: tuple[pytest.MarkDecorator, ...] = ()
    #: run once per test session, shared by the xdist workers (a command or a cluster)
    shared: bool = False


# -- notes logged or printed as warnings --------------------------------------------------------------


class _Warnings(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def _without_url(message: str, url: str) -> str:
    return message.removeprefix(f"{url}: ")


@contextlib.contextmanager
def logged_notes(url: str) -> Iterator[list[str]]:
    """The notes the ``stream_mf2`` logger warns of meanwhile (``URL: note``), without the URL."""
    logger = logging.getLogger("stream_mf2")
    handler = _Warnings()
    logger.addHandler(handler)
    notes: list[str] = []
    try:
        yield notes
    finally:
        logger.removeHandler(handler)
        notes.extend(_without_url(m, url) for m in handler.messages)


def printed_notes(stderr: bytes, url: str) -> tuple[str, ...]:
    """The notes a command printed on standard error (``stream-mf2: warning: URL: note``)."""
    prefix = "stream-mf2: warning: "
    return tuple(
        _without_url(line.removeprefix(prefix), url) for line in stderr.decode().splitlines() if line.startswith(prefix)
    )


def reference(inputs: Inputs) -> Outputs:
    """What :func:`stream_mf2.parse` gives for each page's bytes, with the template: every cell's expectation."""
    out: Outputs = {}
    for page in inputs.pages:
        with logged_notes(page.url) as notes:
            doc = stream_mf2.parse(page.body, page.url, wpt=WPT, **OPTIONS)
        out[page.url] = Seen("result", doc, tuple(notes))
    return out


# -- in-process front ends, page by page ---------------------------------------------------------------


def per_page(run: Callable[[Inputs, Page], Seen], *, concurrent: bool = False) -> Run:
    """Run a front end over each page; ``concurrent``: the pages at once (a command per page)."""

    def run_all(inputs: Inputs, work: Path) -> Outputs:
        if not concurrent:
            return {page.url: run(inputs, page) for page in inputs.pages}
        with ThreadPoolExecutor(max_workers=4) as pool:
            seen = list(pool.map(lambda page: run(inputs, page), inputs.pages))
        return {page.url: s for page, s in zip(inputs.pages, seen, strict=True)}

    return run_all


def _parse_path(inputs: Inputs, page: Page) -> Seen:
    with logged_notes(page.url) as notes:
        doc = stream_mf2.parse(inputs.page_file(page), page.url, wpt=WPT, **OPTIONS)
    return Seen("result", doc, tuple(notes))


def _parse_without_template(inputs: Inputs, page: Page) -> Seen:
    with logged_notes(page.url) as notes:
        doc = stream_mf2.parse(page.body, page.url, **OPTIONS)
    return Seen("result", doc, tuple(notes))


def _fed(chunks: Sequence[bytes], url: str) -> Seen:
    parser = stream_mf2.Parser(url, wpt=WPT, **OPTIONS)
    events: list[object] = []
    for chunk in chunks:
        events += parser.feed_events(chunk)
    events += parser.close_events()
    return Seen("events", events)


def _extract_path(inputs: Inputs, page: Page) -> Seen:
    """``stream_mf2.extract`` (extruct's shape) read as parse()'s: its ``microformat`` are the items."""
    with logged_notes(page.url) as notes:
        found = stream_mf2.extract(inputs.page_file(page), page.url, **OPTIONS)
    doc: dict[str, Any] = {"items": found.pop("microformat")}
    doc.update(found)
    return Seen("result", doc, tuple(notes))


def _parser_random_chunks(inputs: Inputs, page: Page) -> Seen:
    return _fed(random_chunks(page.body, SEED), page.url)


def _parser_one_by_one(inputs: Inputs, page: Page) -> Seen:
    return _fed(one_by_one(page.body), page.url)


def _parser_attributes(inputs: Inputs, page: Page) -> Seen:
    """``feed()``/``close()`` items, and what the Parser holds after ``close()``."""
    parser = stream_mf2.Parser(page.url, wpt=WPT, **OPTIONS)
    items: list[dict[str, Any]] = []
    for chunk in random_chunks(page.body, SEED + 1):
        items += parser.feed(chunk)
    items += parser.close()
    doc: dict[str, Any] = {"items": items, "rels": parser.rels, "rel-urls": parser.rel_urls}
    if parser.meta_item is not None:
        doc["meta-item"] = parser.meta_item
    return Seen("result", doc, tuple(parser.notes))


def _iter_events_pipe(inputs: Inputs, page: Page) -> Seen:
    return Seen("events", list(iter_events(Pipe(page.body, 97), page.url, wpt=WPT, **OPTIONS)))


def _iter_items_path(inputs: Inputs, page: Page) -> Seen:
    with logged_notes(page.url) as notes:
        items = list(iter_items(inputs.page_file(page), page.url, wpt=WPT, **OPTIONS))
    return Seen("result", {"items": items}, tuple(notes))


async def _chunks(chunks: Sequence[bytes]) -> AsyncIterator[bytes]:
    for chunk in chunks:
        yield chunk
        await asyncio.sleep(0)


def _aiter_events_chunks(inputs: Inputs, page: Page) -> Seen:
    async def collect() -> list[object]:
        source = _chunks(random_chunks(page.body, SEED + 2))
        return [e async for e in aiter_events(source, page.url, wpt=WPT, **OPTIONS)]

    return Seen("events", asyncio.run(collect()))


def _aiter_items_path(inputs: Inputs, page: Page) -> Seen:
    async def collect() -> list[dict[str, Any]]:
        return [item async for item in aiter_items(inputs.page_file(page), page.url, wpt=WPT, **OPTIONS)]

    with logged_notes(page.url) as notes:
        items = asyncio.run(collect())
    return Seen("result", {"items": items}, tuple(notes))


# -- the commands ------------------------------------------------------------------------------------------


def _command(*args: str) -> subprocess.CompletedProcess[bytes]:
    """``python -m stream_mf2 ARGS``, which must succeed."""
    r = run_cli(*args)
    assert r.returncode == 0, f"stream-mf2 {' '.join(args)}: exit {r.returncode}\n{r.stderr.decode()}"
    return r


def _json_lines(data: bytes) -> list[Line]:
    return [json.loads(line) for line in data.splitlines()]


def _page_json(inputs: Inputs, page: Page) -> Seen:
    r = _command(str(inputs.page_file(page)), "--url", page.url, *CLI_OPTIONS)
    return Seen("result", json.loads(r.stdout), printed_notes(r.stderr, page.url))


def _page_jsonl(inputs: Inputs, page: Page) -> Seen:
    r = _command(str(inputs.page_file(page)), "--url", page.url, "--jsonl", *CLI_OPTIONS)
    return Seen("lines", _json_lines(r.stdout), printed_notes(r.stderr, page.url))


def _page_output(name: str) -> Callable[[Inputs, Page], Seen]:
    """The page command with ``-o PAGE.NAME``: the format by the name (JSON or JSON Lines)."""

    def run(inputs: Inputs, page: Page) -> Seen:
        file = inputs.page_file(page)
        out = file.with_name(f"{file.name}.{name}")
        r = _command(str(file), "--url", page.url, "-o", str(out), *CLI_OPTIONS)
        assert r.stdout == b""
        if name == "json":
            return Seen("result", json.loads(out.read_bytes()), printed_notes(r.stderr, page.url))
        return Seen("lines", read_jsonl(out), printed_notes(r.stderr, page.url))

    return run


def _wpt_page(*flags: str) -> Callable[[Inputs, Page], Seen]:
    def run(inputs: Inputs, page: Page) -> Seen:
        r = _command("wpt", str(inputs.template), str(inputs.page_file(page)), "--url", page.url, "--items",
                     *flags, *CLI_OPTIONS)
        return Seen("lines", _json_lines(r.stdout), printed_notes(r.stderr, page.url))

    return run


def read_jsonl(path: Path) -> list[Line]:
    """The lines of a ``.jsonl``, ``.jsonl.gz`` or ``.jsonl.zst`` output (every member or frame)."""
    if path.name.endswith(".gz"):
        with gzip.open(path) as f:
            return _json_lines(f.read())
    if path.name.endswith(".zst"):
        import zstandard

        with path.open("rb") as raw, zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True) as z:
            return _json_lines(z.read())
    return _json_lines(path.read_bytes())


def read_parquet(path: Path, tables: Sequence[str]) -> list[Line]:
    """The rows of a ``.parquet`` output's tables, turned back into the lines they were written from.

    JSON columns are decoded; a null cell is a key the line does not have; the items table's
    ``type`` column (a copy of the item's types, for filtering) must equal them and is dropped.
    """
    import pyarrow.parquet as pq

    from stream_mf2.warc import outputs
    from stream_mf2.warc.outputs import item_types

    columns = {
        "item": outputs.ITEM_COLUMNS,
        "record": outputs.RECORD_COLUMNS,
        "error": outputs.ERROR_COLUMNS,
        "wpt": outputs.WPT_COLUMNS,
        "wpt-match": outputs.WPT_MATCH_COLUMNS,
    }
    lines: list[Line] = []
    for kind, file in outputs.parquet_paths(str(path), tables).items():
        types = dict(columns[kind])
        for row in pq.read_table(file).to_pylist():
            line: Line = {"kind": kind}
            for name, value in row.items():
                if value is not None:
                    line[name] = json.loads(value) if types[name] == "json" else value
            if kind == "item":
                assert line.pop("type") == item_types(line["syntax"], line["item"])
            lines.append(line)
    return lines


def by_page(lines: Sequence[Line], inputs: Inputs) -> Outputs:
    """The lines of a run over the archives, by record (page); a run without error lines."""
    assert not [line for line in lines if line["kind"] == "error"], "the archive reads without errors"
    out: dict[str, list[Line]] = {page.url: [] for page in inputs.pages}
    for line in lines:
        if line["kind"] != "summary":
            out[line["uri"]].append(line)
    return {url: Seen("lines", page_lines) for url, page_lines in out.items()}


def _archive(command: str, output: str, *flags: str, tables: Sequence[str] = ()) -> Run:
    """``stream-mf2 COMMAND [TEMPLATE] ARCHIVE... -o OUTPUT FLAGS``, read back."""

    def run(inputs: Inputs, work: Path) -> Outputs:
        out = work / output
        template = (str(inputs.template),) if command == "wpt" else ()
        archives = [str(w) for w in inputs.warcs]
        _command(command, *template, *archives, "-o", str(out), "--no-progress", *flags, *CLI_OPTIONS)
        if output.endswith(".parquet"):
            return by_page(read_parquet(out, tables), inputs)
        lines = read_jsonl(out)
        assert lines[-1]["kind"] == "summary"
        return by_page(lines, inputs)

    return run


def _dask(inputs: Inputs, work: Path) -> Outputs:
    """``stream-mf2 warc --dask local:2 --output-dir DIR``: the parts' lines (one part per archive),
    in the summary's order."""
    out = work / "parts"
    archives = [str(w) for w in inputs.warcs]
    _command("warc", *archives, "--dask", "local:2", "--output-dir", str(out), "--no-progress", *CLI_OPTIONS)
    summary = json.loads((out / "_summary.json").read_text())
    lines: list[Line] = []
    for part in summary["parts"]:
        assert part["status"] == "done", part
        lines += read_jsonl(out / part["part"])
    return by_page(lines, inputs)


# -- the table ------------------------------------------------------------------------------------------------

_NO_WPT_PAGE = "the page command takes no template (Website Parse Templates are 'stream-mf2 wpt')"
_NO_WPT_WARC = "'stream-mf2 warc' takes no template ('stream-mf2 wpt' over the same archives is its own column)"
_ITEMS_ONLY = "yields items only (its notes go to the stream_mf2 logger)"
_WPT_PAGE_LINES = (
    "'stream-mf2 wpt' over a page writes item and WPT lines only: no document line (rels, rel-urls), no meta-item line"
)
_ONE_LINE_PER_MATCH = "--matches writes one line per match and no page object"


def _none(rows: Sequence[str], why: str) -> dict[str, str]:
    return dict.fromkeys(rows, why)


_DASK = (pytest.mark.dask, pytest.mark.network_local)

COLUMNS: tuple[Column, ...] = (
    Column("parse-path", "stream_mf2.parse(Path): the input rule's file path (read as a stream)", per_page(_parse_path)),
    Column(
        "parse-no-template",
        "stream_mf2.parse(bytes) without a template: the WPT consumer beside mf2 changes no mf2 result",
        per_page(_parse_without_template),
        na=_none(WPT_ROWS, "no template given: this column checks the mf2 results without one"),
    ),
    Column(
        "extract-path",
        "stream_mf2.extract(Path): every syntax in extruct's result shape (its 'microformat' are the items)",
        per_page(_extract_path),
        na=_none(("rels", "rel-urls", "meta-item", *WPT_ROWS), "extruct's shape has a list per syntax only"),
    ),
    Column("Parser-random-chunks", "Parser.feed_events over seeded random chunks, close_events",
           per_page(_parser_random_chunks)),
    Column("Parser-one-by-one", "Parser.feed_events one byte at a time, close_events", per_page(_parser_one_by_one)),
    Column(
        "Parser-feed-attributes",
        "Parser.feed/close (items) over random chunks, then Parser.rels, rel_urls, meta_item, notes",
        per_page(_parser_attributes),
        na=_none(
            (*WPT_ROWS, *SYNTAX_ROWS),
            "feed() and close() return items only: WPT matches and the other syntaxes come as events "
            "(the Parser-* columns)",
        ),
    ),
    Column("iter_events-pipe", "iter_events over a non-seekable byte stream (97-byte reads)", per_page(_iter_events_pipe)),
    Column(
        "iter_items-path",
        "iter_items over a file path",
        per_page(_iter_items_path),
        na=_none(("rels", "rel-urls", "meta-item", *WPT_ROWS, *SYNTAX_ROWS), _ITEMS_ONLY),
    ),
    Column("aiter_events-chunks", "aiter_events over an async iterable of random chunks", per_page(_aiter_events_chunks)),
    Column(
        "aiter_items-path",
        "aiter_items over a file path (aiofiles)",
        per_page(_aiter_items_path),
        na=_none(("rels", "rel-urls", "meta-item", *WPT_ROWS, *SYNTAX_ROWS), _ITEMS_ONLY),
    ),
    Column(
        "cli-page-json",
        "python -m stream_mf2 FILE --url URL: whole-document JSON, notes as warnings on standard error",
        per_page(_page_json, concurrent=True),
        na=_none(WPT_ROWS, _NO_WPT_PAGE),
        shared=True,
    ),
    Column(
        "cli-page-jsonl",
        "python -m stream_mf2 FILE --url URL --jsonl: item, meta-item and document lines",
        per_page(_page_jsonl, concurrent=True),
        na=_none(WPT_ROWS, _NO_WPT_PAGE),
        shared=True,
    ),
    *(
        Column(
            f"cli-page-o-{name}",
            f"python -m stream_mf2 FILE --url URL -o X.{name}: the page command's output file, its format by the name",
            per_page(_page_output(name), concurrent=True),
            na=_none(WPT_ROWS, _NO_WPT_PAGE),
            shared=True,
        )
        for name in ("json", "jsonl.zst")
    ),
    Column(
        "cli-wpt-page",
        "stream-mf2 wpt TEMPLATE FILE --url URL --items: item and wpt lines, notes on standard error",
        per_page(_wpt_page(), concurrent=True),
        na=_none(("rels", "rel-urls", "meta-item"), _WPT_PAGE_LINES),
        shared=True,
    ),
    Column(
        "cli-wpt-page-matches",
        "stream-mf2 wpt TEMPLATE FILE --url URL --items --matches: item and wpt-match lines",
        per_page(_wpt_page("--matches"), concurrent=True),
        na={**_none(("rels", "rel-urls", "meta-item"), _WPT_PAGE_LINES), "wpt-pages": _ONE_LINE_PER_MATCH},
        shared=True,
    ),
    *(
        Column(
            f"warc-{fmt}",
            f"stream-mf2 warc A.warc.gz B.warc -o X.{fmt}: item and record lines",
            _archive("warc", f"out.{fmt}", tables=("item", "record", "error")),
            na=_none(WPT_ROWS, _NO_WPT_WARC),
            shared=True,
        )
        for fmt in ("jsonl", "jsonl.gz", "jsonl.zst", "parquet")
    ),
    Column(
        "warc-workers2",
        "stream-mf2 warc A.warc.gz B.warc --workers 2 -o X.jsonl: records parsed in 2 processes",
        _archive("warc", "out.jsonl", "--workers", "2"),
        na=_none(WPT_ROWS, _NO_WPT_WARC),
        shared=True,
    ),
    Column(
        "wpt-warc-jsonl",
        "stream-mf2 wpt TEMPLATE A.warc.gz B.warc --items -o X.jsonl: item, wpt and record lines from one parse",
        _archive("wpt", "out.jsonl", "--items"),
        shared=True,
    ),
    Column(
        "wpt-warc-parquet",
        "stream-mf2 wpt TEMPLATE A.warc.gz B.warc --items -o X.parquet: X.parquet, X.wpt.parquet, X.records.parquet",
        _archive("wpt", "out.parquet", "--items", tables=("item", "wpt", "record", "error")),
        shared=True,
    ),
    Column(
        "wpt-warc-matches-zst",
        "stream-mf2 wpt TEMPLATE A.warc.gz B.warc --items --matches -o X.jsonl.zst: item, wpt-match and record lines",
        _archive("wpt", "out.jsonl.zst", "--items", "--matches"),
        na={"wpt-pages": _ONE_LINE_PER_MATCH},
        shared=True,
    ),
    Column(
        "wpt-warc-workers2",
        "stream-mf2 wpt TEMPLATE A.warc.gz B.warc --items --workers 2 -o X.jsonl.gz: records parsed in 2 processes",
        _archive("wpt", "out.jsonl.gz", "--items", "--workers", "2"),
        shared=True,
    ),
    Column(
        "dask-local2",
        "stream-mf2 warc A.warc.gz B.warc --dask local:2 --output-dir DIR: the parts (jsonl.gz) of a LocalCluster run",
        _dask,
        na=_none(WPT_ROWS, "'stream-mf2 warc' takes no template and 'stream-mf2 wpt' has no --dask"),
        marks=_DASK,
        shared=True,
    ),
)
