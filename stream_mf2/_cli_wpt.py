"""``stream-mf2 wpt`` and ``stream-mf2 xpath``: Website Parse Template from the command line.

::

    stream-mf2 wpt TEMPLATE.xml INPUT... [--url URL] [--strict] [--template NAME] [--matches] [-o OUT]
    stream-mf2 xpath PAGE [--id X] [--text T]

``wpt`` reads each INPUT (a file, an ``http(s)://`` URL or ``-``) and writes
JSON Lines: one page object per page and applied template
(``{"kind": "wpt", "template", "host", "url", "url_captures", "blocks"}``), or
with ``--matches`` one line per block match as soon as it is final
(``{"kind": "wpt-match", "template", "url", "block", "concept", "match"}``). The
template is chosen by the page URL (``--url``, else the fetched URL); without
one every template applies. An INPUT ending in ``.warc`` or ``.warc.gz`` is a
WARC archive: each HTML ``response``/``resource`` record is a page whose
templates are chosen by its ``WARC-Target-URI``; its lines carry ``warc_file``,
``offset`` and ``record_id``, and a record that cannot be read gives an
``{"kind": "error", ...}`` line. ``xpath`` prints the full and id-anchored XPaths
of the elements with that id or text, to help write templates.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from stream_mf2.cli import PROG, UserError, _add_parser_options, _ArgumentParser, _dump, _parser_options

__all__ = ["cmd_wpt", "cmd_xpath"]


def _wpt_parser() -> argparse.ArgumentParser:
    p = _ArgumentParser(
        prog=f"{PROG} wpt",
        description="Extract Website Parse Template blocks (and nothing else) from HTML pages, in one streaming "
        "pass. Writes JSON Lines: one page object per page and applied template.",
    )
    p.add_argument("template", metavar="TEMPLATE.xml", help="the WPT file")
    p.add_argument("inputs", nargs="+", metavar="INPUT",
                   help="HTML files, http(s):// URLs, - for standard input, or WARC archives (.warc, .warc.gz)")
    p.add_argument("--strict", action="store_true", help="undeclared concepts are errors, not warnings")
    p.add_argument("--template", dest="use_template", metavar="NAME",
                   help="apply this template to every page, whatever its URL")
    p.add_argument("--matches", action="store_true", help="one line per block match, as soon as it is final")
    p.add_argument("--max-pattern-chars", type=int, default=None, metavar="N",
                   help="window of page-source patterns, in characters (default 65536)")
    p.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for a URL's server (default 30)")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="write here instead of standard output: X.jsonl, X.jsonl.gz or X.jsonl.zst (as stream-mf2 warc)")
    _add_parser_options(p)
    return p


def _open(src: str, url: str | None, timeout: float, opts: dict[str, Any]) -> tuple[Any, str | None, Any]:
    from stream_mf2 import _http

    if _http.is_url(src):
        resp = _http.fetch(src, timeout=timeout)
        if resp.charset and "encoding" not in opts:
            opts["encoding"] = resp.charset
        return resp, url or resp.url, resp.close
    if src == "-":
        return sys.stdin.buffer, url, lambda: None
    try:
        f = open(src, "rb")  # noqa: SIM115  # closed by the returned closer
    except OSError as e:
        raise UserError(f"cannot open {src}: {e.strerror or e}") from None
    return f, url, f.close


def cmd_wpt(argv: Sequence[str], out: IO[bytes]) -> int:
    """``stream-mf2 wpt``."""
    ns = _wpt_parser().parse_args(argv)
    from stream_mf2.sources import iter_events
    from stream_mf2.wpt import TemplateError, load

    try:
        wpt = load(Path(ns.template), strict=ns.strict)
    except OSError as e:
        raise UserError(f"cannot open {ns.template}: {e.strerror or e}") from None
    except TemplateError as e:
        raise UserError(f"{ns.template}:{e}") from None
    for w in wpt.warnings:
        print(f"{PROG} wpt: warning: {ns.template}:{w}", file=sys.stderr)
    spec: Any = wpt
    opts_base = _parser_options(ns)
    if ns.max_pattern_chars is not None:
        opts_base["max_pattern_chars"] = ns.max_pattern_chars
    chosen = getattr(ns, "use_template", None)
    if chosen:
        try:
            spec = wpt.template(chosen)
        except KeyError:
            raise UserError(f"no template named {chosen!r} in {ns.template}") from None
    write, finish, abandon = _line_writer(ns.output, out)
    try:
        for src in ns.inputs:
            if src.endswith((".warc", ".warc.gz")):
                _warc_pages(src, spec, opts_base, ns.matches, write)
                continue
            opts = dict(opts_base)
            source, url, close = _open(src, ns.url, ns.timeout, opts)
            try:
                _write_events(iter_events(source, url, wpt=spec, **opts), ns.matches, write, {})
            finally:
                close()
    except BaseException:
        abandon()
        raise
    finish()
    return 0


Line = dict[str, Any]


def _line_writer(path: str | None, out: IO[bytes]) -> tuple[Callable[[Line], None], Callable[[], None], Callable[[], None]]:
    """``(write, finish, abandon)`` for the output: standard output (each line flushed as it comes) or
    ``-o`` OUT with the writers of ``stream-mf2 warc`` (``.jsonl``, ``.jsonl.gz``, ``.jsonl.zst``;
    written under a temporary name and moved into place at the end)."""
    if path is None or path == "-":

        def write(line: Line) -> None:
            out.write(_dump(line))
            out.flush()

        return write, lambda: None, lambda: None
    if path.endswith(".parquet"):
        raise UserError("wpt output is JSON Lines (.jsonl, .jsonl.gz, .jsonl.zst): Parquet holds the warc item schema")
    from stream_mf2._outputs import open_writer

    writer = open_writer(path)
    return writer.write, writer.close, writer.abandon


def _write_events(events: Any, matches: bool, write: Callable[[Line], None], extra: dict[str, Any]) -> None:
    """Write the WPT events of one page: page objects, or match lines with ``matches``."""
    from stream_mf2.wpt import WptMatchEvent, WptPageEnd
    from stream_mf2.wpt.events import page_header

    pages: dict[int, dict[str, Any]] = {}
    for event in events:
        if isinstance(event, WptMatchEvent):
            if matches:
                block = event.page.template.blocks[event.block]
                write({"kind": "wpt-match", **extra, "template": event.page.template.name,
                       "url": event.page.url, "block": event.block, "concept": block.concept, "match": event.match})
            else:
                page = pages.get(id(event.page))
                if page is None:
                    page = pages[id(event.page)] = page_header(event.page)
                page["blocks"][event.block]["matches"].append(event.match)
        elif isinstance(event, WptPageEnd):
            if not matches:
                page = pages.pop(id(event.page), None) or page_header(event.page)
                if event.errors:
                    page["errors"] = list(event.errors)
                write({**page, **extra} if extra else page)
            elif event.errors:
                write({"kind": "wpt-errors", **extra, "template": event.page.template.name,
                       "url": event.page.url, "errors": list(event.errors)})


def _warc_pages(path: str, spec: Any, opts: dict[str, Any], matches: bool, write: Callable[[Line], None]) -> None:
    """The WPT lines of every HTML record of a WARC archive (templates chosen by target URI)."""
    import logging

    from warcio.archiveiterator import ArchiveIterator

    logging.getLogger("warcio").addHandler(logging.NullHandler())
    try:
        f = open(path, "rb")  # noqa: SIM115  # closed below
    except OSError as e:
        raise UserError(f"cannot open {path}: {e.strerror or e}") from None
    with f:
        it = ArchiveIterator(f)
        try:
            _warc_records(it, path, spec, opts, matches, write)
        except Exception as e:  # warcio raises plain exceptions on a damaged archive: report, stop this file
            message = " ".join(str(e).split()) or type(e).__name__
            write({"kind": "error", "warc_file": path, "offset": it.offset, "record_id": None, "uri": None,
                   "message": f"cannot read on: {message}"})


def _warc_records(
    it: Any, path: str, spec: Any, opts: dict[str, Any], matches: bool, write: Callable[[Line], None]
) -> None:
    from stream_mf2 import Parser
    from stream_mf2._payload import HTML_TYPES, decode_body, media_type, sniff_html
    from stream_mf2.errors import StreamMF2Error

    for record in it:
        if record.rec_type not in ("response", "resource"):
            continue
        head = record.rec_headers
        uri = head.get_header("WARC-Target-URI")
        # ``offset`` is where the current record starts (get_record_offset() would read its body first)
        extra: dict[str, Any] = {"warc_file": path, "offset": it.offset, "record_id": head.get_header("WARC-Record-ID")}
        try:
            if record.http_headers is not None:
                content_type = record.http_headers.get_header("Content-Type")
            else:
                content_type = head.get_header("Content-Type")
            essence, charset = media_type(content_type)
            http = record.http_headers
            transfer = (http.get_header("Transfer-Encoding") or "") if http is not None else ""
            raw = record.raw_stream

            def read(raw: Any = raw) -> bytes:
                data: bytes = raw.read(65536)
                return data

            # The project's body decoder (chunked, gzip, deflate, br), not warcio's.
            pieces = decode_body(
                iter(read, b""),
                chunked="chunked" in transfer.lower(),
                content_encoding=http.get_header("Content-Encoding") if http is not None else None,
            )
            first = b""
            for piece in pieces:
                first += piece
                if len(first) >= 1445:
                    break
            if essence not in HTML_TYPES and not (essence is None and sniff_html(first[:1445])):
                continue
            page_opts = dict(opts)
            if charset and "encoding" not in page_opts:
                page_opts["encoding"] = charset
            parser = Parser(uri, wpt=spec, **page_opts)

            def events(parser: Any = parser, pieces: Any = pieces, first: bytes = first) -> Any:
                if first:
                    yield from parser.feed_events(first)
                for piece in pieces:
                    yield from parser.feed_events(piece)
                yield from parser.close_events()

            _write_events(events(), matches, write, extra)
        except (StreamMF2Error, OSError, ValueError, EOFError) as e:
            write({"kind": "error", **extra, "uri": uri, "message": " ".join(str(e).split())})


def _xpath_parser() -> argparse.ArgumentParser:
    p = _ArgumentParser(
        prog=f"{PROG} xpath",
        description="Print the full XPath (and the id-anchored one) of the elements of PAGE with an id or a "
        "text, as JSON Lines, to help write WPT blocks. Paths are those of the WHATWG DOM (tbody inserted).",
    )
    p.add_argument("page", metavar="PAGE", help="an HTML file, an http(s):// URL, or -")
    p.add_argument("--id", help="elements whose id is this")
    p.add_argument("--text", help="innermost elements whose whitespace-collapsed text is this")
    p.add_argument("--encoding", help="character encoding label (default: detected)")
    p.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for a URL's server (default 30)")
    return p


def cmd_xpath(argv: Sequence[str], out: IO[bytes]) -> int:
    """``stream-mf2 xpath``."""
    ns = _xpath_parser().parse_args(argv)
    if ns.id is None and ns.text is None:
        raise UserError("give --id or --text (or both)")
    from stream_mf2.html.decode import Decoder
    from stream_mf2.wpt.find import element_paths

    opts: dict[str, Any] = {}
    source, _, close = _open(ns.page, None, ns.timeout, opts)
    try:
        data = source.read()
    finally:
        close()
    decoder = Decoder(ns.encoding or opts.get("encoding"))
    html = decoder.feed(data) + decoder.close()
    found = element_paths(html, id=ns.id, text=ns.text)
    for f in found:
        out.write(_dump(f))
    out.flush()
    return 0 if found else 1
