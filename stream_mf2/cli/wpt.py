"""``stream-mf2 wpt`` and ``stream-mf2 xpath``: Website Parse Template from the command line.

::

    stream-mf2 wpt TEMPLATE.xml INPUT... [--strict] [--template NAME] [--matches | --records --jsonld] [--items] [--warc] [-o OUT] ...
    stream-mf2 wpt --templates PATH [--templates PATH]... INPUT... [...]
    stream-mf2 wpt lint TEMPLATE.xml [PAGE...] [--url URL] [--strict]
    stream-mf2 xpath PAGE [--id X] [--text T] | --skeleton [--url URL]

``wpt`` over WARC archives (inputs named ``*.warc``/``*.warc.gz``, or any
input with ``--warc`` or ``--input-list``) runs the WARC runner of
``stream-mf2 warc`` (:mod:`stream_mf2.warc.runner`) with a
:class:`~stream_mf2.wpt.lines.WptLines` consumer: the same inputs, outputs,
``--workers``, ``--resume``, summary and exit statuses, the template chosen per
record by its target URI. Over HTML pages (files, ``http(s)://`` URLs, ``-``)
it writes the same WPT lines per page, each with ``"source"`` (the input as named: a path, a URL,
``-``) after its ``kind`` where a WARC record's line has ``warc_file``. A page that cannot be read
is an ``error`` line with its ``source``; the run goes on with the next page and exits with
status 3 (4 when no page was read), as over WARC archives. Several WPT files (``--templates`` given a
file or a folder of ``*.xml``, as often as needed; or a folder as ``TEMPLATE``)
apply together: each page gets the templates of every file whose host and URL
patterns choose it. ``xpath`` prints the full and
id-anchored XPaths of the elements with that id or text, to help write templates;
``xpath --skeleton`` a starting template for the page (:mod:`stream_mf2.wpt.skeleton`).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from stream_mf2.cli._common import (
    FETCH_FLAGS,
    PROG,
    ArgumentParser,
    UsageError,
    UserError,
    add_fetch_arguments,
    add_parser_options,
    dump,
    encoding_option,
    fetch_options,
    fetch_page,
    is_warc_content,
    is_warc_name,
    jsonl_item,
    jsonl_syntax_item,
    other_syntaxes,
    parser_options,
    positive_seconds,
    refuse_empty,
    stream_children_option,
)
from stream_mf2.errors import StreamMF2Error

if TYPE_CHECKING:
    from stream_mf2.warc.outputs import JsonlWriter, Writer

__all__ = ["cmd_wpt", "cmd_xpath"]

WPT_PROG = f"{PROG} wpt"

EPILOG = """\
inputs:
  WARC archives (names ending .warc or .warc.gz; any name with --warc; every name of --input-list files):
  local paths and globs, - for standard input, http(s):// URLs (streamed; --offset/--length become a range
  request) and fsspec URLs (s3://, ...), exactly as 'stream-mf2 warc'. Each HTML record is a page whose
  templates are chosen by its WARC-Target-URI. Otherwise the inputs are HTML pages (files, http(s):// URLs,
  -), whose templates are chosen by --url or the fetched URL (every template applies when there is none).

output (-o NAME by its ending, as 'stream-mf2 warc': .jsonl, .jsonl.gz, .jsonl.zst, .parquet; stdout when absent):
  {"kind": "wpt", "template", "host", "url", "url_captures", "blocks"[, "errors"]}
      one per page (record) and applied template, at the page's end
  with --matches instead: {"kind": "wpt-match", "template", "url", "block", "concept", "match"} per block
      match as soon as it is final, and {"kind": "wpt-errors", "template", "url", "errors"} for a page with errors
  with --records instead: {"kind": "wpt-record", "template", "host", "url", "block", "xpath", "data"[, "errors"]}
      per record (the page's first, with the page's errors; then one per repeatable match), keyed by concept
  with --jsonld instead (or as well): {"kind": "wpt-jsonld", "template", "url", "jsonld"[, "errors"]} per page
  with --items also the mf2 "item" lines of 'stream-mf2 warc' (one parse gives both); HTML pages with
      --metaformats also a {"kind": "meta-item", "item"} line (JSON Lines only; a WARC record line carries it)
  HTML pages: every line has "source" after its "kind": the input as named on the command line (a path, a
  URL, - for standard input), so the lines of several pages can be told apart ("url" is --url or the fetched
  URL, null without them).
  WARC inputs: every WPT line has "warc_file", "offset", "record_id", "uri" after its "kind", and the run
  writes the "record", "error" and "summary" lines of 'stream-mf2 warc' (its "schema"; the summary counts the
  WPT lines by kind, e.g. "wpt": 12). Parquet: X.wpt.parquet (pages), X.wpt-matches.parquet (matches and
  page errors), X.wpt-records.parquet (records), X.wpt-jsonld.parquet (JSON-LD) beside X.records.parquet,
  X.errors.parquet and, with --items, X.parquet. HTML pages: the WPT tables, X.parquet (--items) and
  X.errors.parquet (pages that could not be read); every table has a "source" column (null for WARC rows).

templates: TEMPLATE.xml is one WPT file, or a folder (every *.xml in it, in name order); --templates PATH
  (a file or a folder, repeatable) names them instead, and then every positional argument is an input.
  Each page (record) gets the templates of every file whose ow:host and URL patterns choose it, so two
  files for one host both apply.

exit status: 0 all read, 1 fatal, 2 bad command line, 3 some inputs unreadable, 4 none readable. An HTML
  page that cannot be opened, fetched or read to its end gets a {"kind": "error", "source", "error"} line
  where its lines stop (and a message on stderr); the run goes on with the next page and keeps its output.
"""


def _wpt_parser() -> argparse.ArgumentParser:
    from stream_mf2.cli.warc import add_run_arguments

    p = ArgumentParser(
        prog=WPT_PROG,
        description="Extract Website Parse Template blocks from HTML pages or WARC archives, in one streaming "
        "pass (mf2 items too with --items).",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "files",
        nargs="*",
        metavar="TEMPLATE.xml INPUT",
        help="the WPT file (or a folder of them; left out with --templates), then the inputs: WARC archives, or "
        "HTML files, http(s):// URLs, - for standard input",
    )
    p.add_argument(
        "--templates",
        action="append",
        default=[],
        metavar="PATH",
        help="a WPT file or a folder of them (*.xml); repeatable; the positional arguments are then all inputs",
    )
    p.add_argument("--strict", action="store_true", help="undeclared concepts are errors, not warnings")
    p.add_argument(
        "--template", dest="use_template", metavar="NAME", help="apply this template to every page, whatever its URL"
    )
    p.add_argument("--matches", action="store_true", help="one line per block match, as soon as it is final")
    p.add_argument(
        "--records",
        action="store_true",
        help="one wpt-record line per record (the page's, then one per repeatable match), keyed by concept",
    )
    p.add_argument("--jsonld", action="store_true", help="one wpt-jsonld line per page: its records as JSON-LD")
    p.add_argument("--vocab", metavar="IRI", help="--jsonld's vocabulary (@vocab; default: the site's /wpt/ONTOLOGY#)")
    p.add_argument("--items", action="store_true", help="also write the pages' mf2 items (item lines)")
    p.add_argument(
        "--type",
        metavar="TYPES",
        help="with --items: only mf2 items of these types (comma-separated, e.g. h-entry,h-card), found at any "
        "depth, with their path, as 'stream-mf2 warc --type' (the items of other --syntaxes are all written)",
    )
    p.add_argument(
        "--stream-children",
        nargs="?",
        const="",
        default=None,
        metavar="TYPES",
        help="with --items: write the children of container items (e.g. a page-wide h-feed) as item lines as they "
        'close, with their "path", and the container later with "children-streamed": N, as \'stream-mf2 warc '
        "--stream-children' (--stream-children=TYPES or --stream-children TYPES limits which containers)",
    )
    p.add_argument("--warc", action="store_true", help="the inputs are WARC archives whatever their names")
    p.add_argument(
        "--max-pattern-chars",
        type=int,
        default=None,
        metavar="N",
        help="window of page-source patterns, in characters (default 65536)",
    )
    p.add_argument(
        "--max-pattern-seconds",
        type=positive_seconds,
        default=None,
        metavar="S",
        help="CPU time the template's patterns may take on one page together; past it a page-source pattern "
        "or an element's is a page error, the URL's pattern the page's (the record's) error (default 1.0)",
    )
    add_run_arguments(p)  # with --timeout, for a WARC URL and a page's
    add_fetch_arguments(p, timeout=False)
    add_parser_options(p)
    return p


def _template_files(paths: Sequence[str]) -> list[str]:
    """The WPT files named: each path a file, or a folder whose ``*.xml`` files are taken in name order."""
    files: list[str] = []
    for path in paths:
        p = Path(path)
        if p.is_dir():
            found = sorted(str(f) for f in p.iterdir() if f.suffix.lower() == ".xml" and f.is_file())
            if not found:
                raise UserError(f"no WPT file (*.xml) in the folder {path}")
            files.extend(found)
        else:
            files.append(path)
    return files


def _template_bytes(name: str) -> bytes:
    """The bytes of the WPT file ``name`` (an unreadable file is a :class:`UserError`)."""
    try:
        return Path(name).read_bytes()
    except OSError as e:
        raise UserError(f"cannot open {name}: {e.strerror or e}") from None


_is_warc_name = is_warc_name


def _open(src: str, url: str | None, fetch: dict[str, Any], opts: dict[str, Any]) -> tuple[Any, str | None, Any]:
    """``src`` opened; ``fetch``: the :func:`~stream_mf2.io.fetch.fetch` options of a URL (``fetch_options``)."""
    from stream_mf2.io import fetch as _http

    if _http.is_url(src):
        resp = fetch_page(src, fetch, f"{WPT_PROG} TEMPLATE.xml")
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


def read_page(src: str, url: str | None, fetch: dict[str, Any], opts: dict[str, Any]) -> tuple[bytes, str | None]:
    """The whole page ``src`` (a file, an http(s):// URL or ``-``) and its URL, for the commands
    that read a page at once (``xpath``, ``wpt lint``). Binary data (a WARC archive, an image) is a
    :class:`UserError`, as the page command says: it would decode to a page where nothing matches."""
    from stream_mf2.io.responses import SNIFF_BINARY_BYTES, looks_binary

    source, page_url, close = _open(src, url, fetch, opts)
    try:
        refuse_empty(src, source)
        # a file or standard input has read(); a fetched URL is an iterable of body chunks
        data = source.read() if hasattr(source, "read") else b"".join(source)
    finally:
        close()
    if looks_binary(data[:SNIFF_BINARY_BYTES]):
        hint = f"; a WARC archive is read by '{WPT_PROG} TEMPLATE.xml {src}'" if _is_warc_name(src) else ""
        raise UserError(f"{'<stdin>' if src == '-' else src}: not HTML (binary data){hint}")
    return data, page_url


def cmd_wpt(argv: Sequence[str], out: IO[bytes]) -> int:
    """``stream-mf2 wpt`` (``stream-mf2 wpt lint`` is :mod:`stream_mf2.cli.wpt_lint`)."""
    parser = _wpt_parser()
    ns = parser.parse_args(argv)
    from stream_mf2.cli import warc as _cli_warc
    from stream_mf2.wpt import TemplateError, load
    from stream_mf2.wpt.lines import WptLines

    if ns.matches and (ns.records or ns.jsonld):
        raise UsageError("--matches writes a line per match as it is found; --records and --jsonld are per page")
    if ns.vocab is not None and not ns.jsonld:
        raise UsageError("--vocab applies to --jsonld")
    if not ns.templates:
        if not ns.files:
            parser.error("the following arguments are required: TEMPLATE.xml (or --templates PATH)")
        ns.templates, ns.files = [ns.files[0]], ns.files[1:]
    files = _template_files(ns.templates)
    wpts: list[Any] = []
    digests: list[str] = []
    for name in files:
        data = _template_bytes(name)
        try:
            wpt = load(data, strict=ns.strict)
        except TemplateError as e:
            raise UserError(f"{name}:{e}") from None
        for w in wpt.warnings:
            print(f"{WPT_PROG}: warning: {name}:{w}", file=sys.stderr)
        wpts.append(wpt)
        digests.append(hashlib.sha256(data).hexdigest())
    specs: list[Any] = wpts
    chosen = ns.use_template
    if chosen:
        having = [w for w in wpts if any(t.name == chosen for t in w.templates)]
        if not having:
            raise UserError(f"no template named {chosen!r} in {', '.join(files)}")
        if len(having) > 1:
            raise UserError(f"several WPT files have a template named {chosen!r}: give one file")
        specs = [having[0].template(chosen)]
    # A resumed run must use the same template files and choice.
    # (One file: the hash of the file, as before several were accepted.)
    fingerprint = (digests[0] if len(digests) == 1 else hashlib.sha256(",".join(digests).encode()).hexdigest()) + (
        f":{chosen}" if chosen else ""
    )
    lines = WptLines(
        specs[0] if len(specs) == 1 else tuple(specs),
        matches=ns.matches,
        records=ns.records,
        jsonld=ns.jsonld,
        vocab=ns.vocab,
        max_pattern_chars=ns.max_pattern_chars,
        fingerprint=fingerprint,
    )
    _cli_warc.check_run_arguments(ns, WPT_PROG)
    if ns.type is not None and not ns.items:
        raise UsageError("--type chooses which item lines are written: give it with --items")
    types = _cli_warc.type_option(ns.type, WPT_PROG)
    opts = parser_options(ns)
    if ns.stream_children is not None:
        if not ns.items:
            # the children would be streamed for item lines that are not written: it would change nothing
            raise UsageError("--stream-children writes the children as item lines as they close: give it with --items")
        opts["stream_children"] = stream_children_option(ns.stream_children)
    if other_syntaxes(opts) and not ns.items:
        raise UsageError("--syntaxes writes item lines: give it with --items")
    if ns.max_pattern_seconds is not None:
        opts["max_pattern_seconds"] = ns.max_pattern_seconds
    from stream_mf2.core.options import check_options

    try:
        check_options({**opts, **lines.parser_options()})
    except (TypeError, ValueError) as e:
        raise UsageError("--" + str(e).replace("_", "-")) from None
    inputs = _cli_warc.run_inputs(ns, WPT_PROG)
    warc = [_is_warc_name(n) for n in ns.files]
    if ns.warc or ns.input_list or all(warc):
        if ns.url is not None:
            raise UsageError("--url applies to HTML pages: a WARC record's templates are chosen by its target URI")
        for flag, dest, default in FETCH_FLAGS:
            if getattr(ns, dest) != default:
                raise UsageError(f"{flag} applies to HTML pages fetched from http(s):// URLs, not to WARC inputs")
        _cli_warc.check_workers(ns, WPT_PROG, inputs)
        options = _cli_warc.run_options(ns, opts, consumer=lines, items=ns.items, types=types)
        # Records no template is for are skipped quietly, but a run where none applied at all
        # (WARC-Target-URIs on another host than ow:host, say) deserves a word. (With --matches
        # an applied template whose blocks all miss writes nothing either: no word then.)
        none = (
            None
            if ns.matches
            else "no template applied to any HTML record (a record's templates are chosen by its "
            "WARC-Target-URI, by each template's ow:host and URL pattern; --template NAME applies one to every record)"
        )
        return _cli_warc.run(ns, inputs, options, out, WPT_PROG, no_lines=none)
    if any(warc):
        raise UsageError("give either WARC archives or HTML pages (or --warc to read every input as an archive)")
    from stream_mf2.io.payload import DEFAULT_MAX_DECODED_BYTES, DEFAULT_MAX_EXPANSION

    for flag, used in (
        ("--resume", ns.resume),
        ("--workers", ns.workers != 1),
        ("--offset", ns.offset is not None),
        ("--length", ns.length is not None),
        ("--summary-json", ns.summary_json is not None),
        ("--max-decoded-bytes", ns.max_decoded_bytes != DEFAULT_MAX_DECODED_BYTES),
        ("--max-expansion", ns.max_expansion != DEFAULT_MAX_EXPANSION),
    ):
        if used:
            raise UsageError(f"{flag} applies to WARC inputs")
    if ns.metaformats:
        # A WARC record line carries the meta-item; an HTML page has none, so the meta-item is a
        # line of its own (as in 'stream-mf2 --jsonl'), with the page's other mf2 lines.
        if not ns.items:
            raise UsageError("--metaformats on HTML pages writes a meta-item line: give it with --items")
        if ns.output is not None and ns.output.endswith(".parquet"):
            raise UsageError("--metaformats on HTML pages writes meta-item lines, which Parquet has no table for: use .jsonl")
    return _pages(ns, inputs, lines, opts, out, types)


def _pages(
    ns: argparse.Namespace,
    inputs: Sequence[str],
    lines: Any,
    opts_base: dict[str, Any],
    out: IO[bytes],
    types: frozenset[str] | None,
) -> int:
    """WPT lines (and items with ``--items``) of HTML pages; standard output is flushed line by line."""
    from stream_mf2.warc.outputs import JsonlWriter, open_writer
    from stream_mf2.warc.target import OutputLock, resolve_output

    target = resolve_output(ns.output)
    stdout = JsonlWriter(None, stream=out) if target.kind == "stdout" else None
    # the error table too: a page that cannot be read is an error line (Parquet: X.errors.parquet)
    tables = (*(("item",) if ns.items else ()), *lines.kinds(), "error")
    with OutputLock(target):  # a second run naming this output fails at once
        writer = stdout if stdout is not None else open_writer(target, tables=tables)
        return _write_pages(ns, inputs, lines, opts_base, writer, stdout, types)


def _write_pages(
    ns: argparse.Namespace,
    inputs: Sequence[str],
    lines: Any,
    opts_base: dict[str, Any],
    writer: Writer,
    stdout: JsonlWriter | None,
    types: frozenset[str] | None,
) -> int:
    """Write the lines of each page; a page that cannot be read (opened, fetched, parsed to its
    end) is an ``error`` line and a message, and the run goes on with the next page, as a WARC
    run goes on past an unreadable input; the exit status says how many failed."""
    from stream_mf2.warc.schema import EXIT_ALL_FAILED, EXIT_OK, EXIT_SOME_FAILED

    failed = 0
    try:
        for src in inputs:
            page = _Page(src)
            found = _page_lines(ns, src, lines, opts_base, page, types)
            while True:
                # Only reading the page is caught: an output that cannot be written stops the run.
                try:
                    line = next(found)
                except StopIteration:
                    break
                except (StreamMF2Error, UserError, OSError) as e:
                    failed += 1
                    message = " ".join(str(e).split()) or type(e).__name__
                    if is_warc_content(src, message):
                        message += "; it is a WARC archive: give --warc to read every input as one"
                    line = {"kind": "error", "error": message}
                    name = "<stdin>" if src == "-" else src
                    print(f"{WPT_PROG}: error: {message if name in message else f'{name}: {message}'}", file=sys.stderr)
                    page.failed = True
                # the page it came from, after its kind (as a WARC line's warc_file)
                writer.write({"kind": line["kind"], "source": src, **line})
                if stdout is not None:
                    stdout.flush()  # each line as soon as it is known
                if page.failed:
                    break
            if not page.applied and not page.failed:
                # A crawl's records no template is for are skipped quietly; a page named on the
                # command line is not: say why it gave nothing (as 'wpt lint' does).
                name = "<stdin>" if src == "-" else src
                at = f" at {page.url!r}" if page.url is not None and page.url != src else ""
                print(
                    f"{WPT_PROG}: warning: no template applies to {name}{at} (--template NAME applies one whatever the URL)",
                    file=sys.stderr,
                )
        writer.close()
    except BaseException:
        writer.abandon()
        raise
    if not failed:
        return EXIT_OK
    print(f"{WPT_PROG}: {failed} of {len(inputs)} pages failed (see their error lines)", file=sys.stderr)
    return EXIT_ALL_FAILED if failed == len(inputs) else EXIT_SOME_FAILED


class _Page:
    """What the run learns of one page while its lines are written."""

    def __init__(self, src: str) -> None:
        self.src = src
        self.url: str | None = None
        self.applied = False  # a WptPageEnd per applied template, even one without matches
        self.failed = False


def _page_lines(
    ns: argparse.Namespace, src: str, lines: Any, opts_base: dict[str, Any], page: _Page, types: frozenset[str] | None
) -> Iterator[dict[str, Any]]:
    """The lines of the page ``src`` (without their ``source``), as they are found. ``types``
    (``--type``): the item lines are the items of those types at any depth, each with its path
    (as a WARC record's: the top-level index, then ``children``/``properties`` steps)."""
    from stream_mf2.core.syntax_results import SyntaxResults, syntax_of
    from stream_mf2.events import DocumentEnd, ItemEvent, MetaItemEvent
    from stream_mf2.io.sources import iter_events
    from stream_mf2.warc.walker import select_types as select  # the walk of `warc --type`: the same lines
    from stream_mf2.wpt.events import WptPageEnd

    syntaxes = "syntaxes" in opts_base
    opts = {**opts_base, **lines.parser_options()}
    source, page.url, close = _open(src, ns.url, fetch_options(ns), opts)
    results = SyntaxResults(opts["syntaxes"]) if syntaxes else None
    top = 0  # index of the next top-level item (the first step of a --type item's path)
    try:
        refuse_empty(src, source)  # no page line for a page of nothing (an error line instead)
        lines.start()
        for event in iter_events(source, page.url, **opts):
            if type(event) is WptPageEnd:
                page.applied = True
            if type(event) is ItemEvent and types is not None:
                if event.path:  # a streamed child: its container's index, then its steps
                    base: tuple[int | str, ...] = (event.path[0], "children", *event.path[1:])
                else:
                    base = (top,)
                    top += 1
                head: dict[str, Any] = {"kind": "item", "syntax": "mf2"} if syntaxes else {"kind": "item"}
                found = [{**head, "path": list(path), "item": item} for path, item in select(event.item, base, types)]
            elif type(event) is ItemEvent:
                found = [jsonl_item(event, syntaxes=syntaxes)] if ns.items else []
            elif type(event) is MetaItemEvent:
                found = [{"kind": "meta-item", "item": event.item}] if ns.items else []
            elif results is not None and syntax_of(event) is not None:
                found = [jsonl_syntax_item(name, i, entry) for name, i, entry in results.add(event)]
            elif results is not None and type(event) is DocumentEnd:
                found = [jsonl_syntax_item(name, i, entry) for name, i, entry in results.finish()]
                found += lines.lines(event)
            else:
                found = lines.lines(event)
            yield from found
    finally:
        close()


def _xpath_parser() -> argparse.ArgumentParser:
    p = ArgumentParser(
        prog=f"{PROG} xpath",
        description="Print the full XPath (and the id-anchored one) of the elements of PAGE with an id or a "
        "text, as JSON Lines, to help write WPT blocks. Paths are those of the WHATWG DOM (tbody inserted).",
    )
    p.add_argument("page", metavar="PAGE", help="an HTML file, an http(s):// URL, or -")
    p.add_argument("--id", help="elements whose id is this")
    p.add_argument("--text", help="innermost elements whose whitespace-collapsed text is this")
    p.add_argument(
        "--repeats",
        action="store_true",
        help='add "repeats": the paths generalised over each repeating step (every row, every cell of the row), '
        "each with the number of elements it selects, for repeatable blocks",
    )
    p.add_argument(
        "--skeleton",
        action="store_true",
        help="print a starting template for PAGE instead (WPT XML: a block per element with an id, the first "
        "h1 and each run of 3 or more same-name children; it loads without warnings and every block matches)",
    )
    p.add_argument("--url", help="the page's URL, for --skeleton's ow:host and ow:url (default: a fetched URL)")
    p.add_argument("--encoding", help="character encoding label (default: detected)")
    add_fetch_arguments(p)
    return p


def cmd_xpath(argv: Sequence[str], out: IO[bytes]) -> int:
    """``stream-mf2 xpath``."""
    ns = _xpath_parser().parse_args(argv)
    if ns.skeleton and (ns.id is not None or ns.text is not None):
        raise UsageError("--skeleton describes the whole page: give it without --id and --text")
    if not ns.skeleton and ns.id is None and ns.text is None:
        raise UsageError("give --id or --text (or both), or --skeleton")
    from stream_mf2.html.decode import Decoder
    from stream_mf2.wpt.find import element_paths

    opts: dict[str, Any] = {}
    data, page_url = read_page(ns.page, ns.url, fetch_options(ns), opts)
    decoder = Decoder(encoding_option(ns.encoding) or opts.get("encoding"))
    html = decoder.feed(data) + decoder.close()
    if ns.skeleton:
        from stream_mf2.wpt.skeleton import skeleton

        if page_url is None:
            raise UsageError("--skeleton needs the page's URL: give --url")
        try:
            out.write(skeleton(html, page_url).encode("utf-8"))
        except ValueError as e:
            raise UserError(f"--url: {e}") from None
        out.flush()
        return 0
    found: list[dict[str, Any]] = list(element_paths(html, id=ns.id, text=ns.text))
    if ns.repeats:
        from stream_mf2.wpt.generalise import repeated_paths

        for f, repeats in zip(found, repeated_paths(html, [str(f["xpath"]) for f in found]), strict=True):
            f["repeats"] = repeats
    if not found:
        wanted = [f"{what} {value!r}" for what, value in (("id", ns.id), ("text", ns.text)) if value is not None]
        raise UserError(f"{'<stdin>' if ns.page == '-' else ns.page}: no element with {' and '.join(wanted)}")
    for f in found:
        out.write(dump(f))
    out.flush()
    return 0
