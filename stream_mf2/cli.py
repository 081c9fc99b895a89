"""The ``stream-mf2`` command.

::

    stream-mf2 [options] FILE|URL|-          whole-document JSON (or --jsonl: one item per line)
    stream-mf2 warc [options] FILE...        JSON Lines of items from WARC archives
    stream-mf2 tokens FILE                   tokenizer output, html5lib-tests format
    stream-mf2 tree FILE                     tree-construction dump, html5lib-tests format
    stream-mf2 conformance [PATH]            pass counts on the official microformats suites
    stream-mf2 wpt TEMPLATE.xml INPUT...     Website Parse Template blocks, JSON Lines
    stream-mf2 xpath PAGE [--id X] [--text T]  full XPaths of elements, to write templates

User errors (unreadable files, bad options, failed fetches, a closed output
pipe) end with a one-line message and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any, NoReturn

from stream_mf2._json import dumps
from stream_mf2.errors import StreamMF2Error

PROG = "stream-mf2"
COMMANDS = ("warc", "tokens", "tree", "conformance", "wpt", "xpath")

#: Exit status for a closed output pipe (128 + SIGPIPE, as a shell reports it).
EXIT_BROKEN_PIPE = 141


class UserError(Exception):
    """Something the user can fix; printed as one line."""


class _ArgumentParser(argparse.ArgumentParser):
    """argparse with a one-line error message (the full usage is one ``--help`` away)."""

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: error: {message} (see '{self.prog} --help')", file=sys.stderr)
        raise SystemExit(2)


def _dump(obj: Any, *, indent: bool = False) -> bytes:
    return dumps(obj, indent=indent)


# (flag, option, help) for the integer limits every parse command takes; see stream_mf2._options.
_LIMIT_FLAGS = (
    ("--max-token-chars", "max_token_chars", "longest unfinished tag, comment or attribute value, in characters"),
    ("--max-depth", "max_depth", "deepest stack of open elements"),
    ("--max-kept-nodes", "max_kept_nodes", "most nodes kept for one item subtree"),
    ("--max-held-items", "max_held_items", "items held waiting for include targets (a recovery: see the Parser docs)"),
    ("--max-held-children", "max_held_children", "stream-children: children kept until a <base> is known (a budget)"),
    ("--max-nested-html-chars", "max_nested_html_chars", "e-* html nested inside e-* values, per item (then empty html)"),
    ("--max-item-chars", "max_item_chars", "JSON characters of one item, nested items counted where placed (then emptied values)"),
    ("--max-output-ratio", "max_output_ratio", "output allowance of an item or rel link per character of its source"),
    ("--output-floor-chars", "output_floor_chars", "output allowance of an item or rel link whatever its source length"),
    ("--max-reparse-bytes", "max_reparse_bytes", "bytes held for a late <meta charset> re-parse (0: off)"),
)


def _add_parser_options(p: argparse.ArgumentParser, *, url: bool = True) -> None:
    g = p.add_argument_group("parser options")
    if url:
        g.add_argument("--url", help="document URL, the base for relative URLs (default: the fetched URL, if any)")
    g.add_argument("--encoding", help="character encoding label, as if sent by the server (overrides HTTP charset)")
    g.add_argument(
        "--text",
        choices=("spec", "normalized"),
        default="spec",
        help="plain-text algorithm: DOM textContent (spec) or whitespace-normalized",
    )
    g.add_argument("--lang", action="store_true", help="add lang to items and e-* values")
    g.add_argument("--metaformats", action="store_true", help="add a meta-item built from <head>")
    g.add_argument(
        "--filter-roots",
        nargs="?",
        const="",
        default=None,
        metavar="NAMES",
        help="ignore root class names that are utility CSS (Tailwind's h-full, h-screen, ...); NAMES "
        "(comma-separated) gives your own list instead",
    )
    lim = p.add_argument_group("limits (max-token-chars, max-depth, max-kept-nodes stop with an error naming them; the others are recoveries)")
    for flag, _, what in _LIMIT_FLAGS:
        lim.add_argument(flag, type=int, metavar="N", help=what)


def _parser_options(ns: argparse.Namespace) -> dict[str, Any]:
    opts: dict[str, Any] = {"text": ns.text, "lang": ns.lang, "metaformats": ns.metaformats}
    if ns.encoding:
        from stream_mf2.html.decode import lookup_encoding

        if lookup_encoding(ns.encoding) is None:
            print(f"{PROG}: warning: unknown encoding label {ns.encoding!r}, ignored", file=sys.stderr)
        else:
            opts["encoding"] = ns.encoding
    if ns.filter_roots is not None:
        names = frozenset(n.strip() for n in ns.filter_roots.split(",") if n.strip())
        opts["filter_roots"] = names or True
    for _flag, name, _what in _LIMIT_FLAGS:
        value = getattr(ns, name)
        if value is not None:
            opts[name] = value
    from stream_mf2._options import check_options

    try:
        check_options(opts)
    except (TypeError, ValueError) as e:
        raise UserError("--" + str(e).replace("_", "-")) from None
    return opts


def _version() -> str:
    """``stream-mf2 VERSION (build)``: the build as :mod:`stream_mf2._build` names it."""
    from stream_mf2 import _build_info

    return _build_info()


# -- stream-mf2 FILE ----------------------------------------------------------------------------


def _parse_command_parser() -> argparse.ArgumentParser:
    p = _ArgumentParser(
        prog=PROG,
        description="Extract microformats2 from HTML as it streams in.",
        epilog=(
            "other commands (see 'stream-mf2 COMMAND --help'):\n"
            "  warc FILE...        items from WARC archives, as JSON Lines\n"
            "  tokens FILE         tokenizer output in html5lib-tests format\n"
            "  tree FILE           tree-construction dump in html5lib-tests format\n"
            "  conformance [PATH]  pass counts on the official microformats test suites"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=_version(), help="print the version and build, then exit")
    p.add_argument("source", metavar="FILE|URL|-", help="an HTML file, an http(s):// URL, or - for standard input")
    p.add_argument(
        "--jsonl",
        action="store_true",
        help='print JSON Lines, each with a "kind": an "item" line as soon as each item completes, a '
        '"meta-item" line, a last "document" line with the rels, or an "error" line before a failure exit',
    )
    p.add_argument("--pretty", action="store_true", help="indent the JSON (default: compact)")
    p.add_argument(
        "--stream-children",
        nargs="?",
        const="",
        default=None,
        metavar="TYPES",
        help="with --jsonl, print the children of a container item (e.g. a page-wide h-feed) as they close, as "
        'item lines with a "path" [i, j], and the container later with "children-streamed": N; '
        "TYPES (comma-separated, e.g. h-feed) limits which containers (default: every top-level item)",
    )
    http = p.add_argument_group("fetching (for an http(s):// URL)")
    http.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for the server (default 30)")
    http.add_argument("--user-agent", metavar="UA", help="User-Agent header (default stream-mf2/VERSION)")
    http.add_argument(
        "--header",
        action="append",
        default=[],
        metavar="'NAME: VALUE'",
        help="an extra request header (repeatable)",
    )
    http.add_argument("--max-redirects", type=int, default=10, metavar="N", help="redirects to follow (default 10)")
    http.add_argument(
        "--max-bytes",
        type=int,
        default=None,
        metavar="N",
        help="largest decoded body to read (default 256 MiB)",
    )
    _add_parser_options(p)
    return p


def _stream_children_option(value: str | None) -> bool | frozenset[str]:
    if value is None:
        return False
    types = frozenset(t.strip() for t in value.split(",") if t.strip())
    return types or True


def _jsonl_item(event: Any) -> dict[str, Any]:
    """The JSON Lines form of an item event."""
    line: dict[str, Any] = {"kind": "item"}
    if event.path:
        line["path"] = list(event.path)
    if event.children_streamed:
        line["children-streamed"] = event.children_streamed
    line["item"] = event.item
    return line


def _headers(values: list[str]) -> dict[str, str]:
    headers: dict[str, str] = {}
    for value in values:
        name, sep, rest = value.partition(":")
        if not sep or not name.strip() or name != name.strip():
            raise UserError(f"--header wants 'NAME: VALUE', not {value!r}")
        headers[name] = rest.strip()
    return headers


def _open_source(ns: argparse.Namespace) -> tuple[Any, str | None, Callable[[], None]]:
    """The source for ``ns.source`` by the input rule, the document URL and a closer."""
    from pathlib import Path

    from stream_mf2 import _http

    src: str = ns.source
    if _http.is_url(src):
        from stream_mf2._http import DEFAULT_MAX_BYTES

        if ns.max_redirects < 0:
            raise UserError("--max-redirects must be at least 0")
        resp = _http.fetch(
            src,
            headers=_headers(ns.header),
            user_agent=ns.user_agent,
            timeout=ns.timeout,
            max_redirects=ns.max_redirects,
            max_bytes=DEFAULT_MAX_BYTES if ns.max_bytes is None else ns.max_bytes,
        )
        # the response itself: iter_events takes its charset and URL, and applies the stall rule
        return resp, ns.url, resp.close
    if src == "-":
        return sys.stdin.buffer, ns.url, lambda: None
    return Path(src), ns.url, lambda: None


def _cmd_parse(argv: Sequence[str], out: IO[bytes]) -> int:
    ns = _parse_command_parser().parse_args(argv)
    from stream_mf2.events import DocumentEnd, ItemEvent, MetaItemEvent
    from stream_mf2.reassemble import reassemble
    from stream_mf2.sources import iter_events

    opts = _parser_options(ns)
    stream_children = _stream_children_option(ns.stream_children)
    if stream_children:
        opts["stream_children"] = stream_children
    source, url, close = _open_source(ns)
    pretty = bool(ns.pretty)
    try:
        item_events: list[Any] = []
        events = iter_events(source, url, **opts)
        doc_url = url if url is not None else getattr(source, "url", None)
        for event in events:
            if type(event) is ItemEvent:
                if ns.jsonl:
                    out.write(_dump(_jsonl_item(event), indent=pretty))
                    out.flush()
                else:
                    item_events.append(event)
            elif type(event) is MetaItemEvent:
                if ns.jsonl:
                    out.write(_dump({"kind": "meta-item", "item": event.item}, indent=pretty))
                    out.flush()
            elif type(event) is DocumentEnd:
                if ns.jsonl:
                    doc: dict[str, Any] = {
                        "kind": "document",
                        "url": doc_url,
                        "encoding": event.encoding,
                        "rels": event.rels,
                        "rel-urls": event.rel_urls,
                    }
                    out.write(_dump(doc, indent=pretty))
                else:
                    whole: dict[str, Any] = {
                        "items": reassemble(item_events),
                        "rels": event.rels,
                        "rel-urls": event.rel_urls,
                    }
                    if event.meta_item is not None:
                        whole["meta-item"] = event.meta_item
                    out.write(_dump(whole, indent=pretty))
                out.flush()
    except StreamMF2Error as e:
        if ns.jsonl:
            out.write(_dump({"kind": "error", "error": " ".join(str(e).split()) or type(e).__name__}))
            out.flush()
        raise
    finally:
        close()
    return 0


# -- stream-mf2 warc (its own module) -----------------------------------------------------------


def _cmd_warc(argv: Sequence[str], out: IO[bytes]) -> int:
    from stream_mf2._cli_warc import main as warc_main

    return warc_main(argv, out)


# -- stream-mf2 tokens / tree --------------------------------------------------------------------


def _debug_parser(name: str, what: str) -> argparse.ArgumentParser:
    p = _ArgumentParser(prog=f"{PROG} {name}", description=what)
    p.add_argument("file", metavar="FILE", help="an HTML file, or - for standard input")
    p.add_argument("--encoding", help="character encoding label, as if sent by the server")
    return p


def _decoded_chunks(path: str, encoding: str | None) -> Iterator[str]:
    from stream_mf2.html.decode import Decoder

    decoder = Decoder(encoding)
    if path == "-":
        f: IO[bytes] = sys.stdin.buffer
        owned = False
    else:
        try:
            f = open(path, "rb")  # noqa: SIM115  # closed in the finally below
        except OSError as e:
            raise UserError(f"cannot open {path}: {e.strerror or e}") from None
        owned = True
    try:
        while chunk := f.read(64 * 1024):
            text = decoder.feed(chunk)
            if text:
                yield text
        text = decoder.close()
        if text:
            yield text
    finally:
        if owned:
            f.close()


def _cmd_tokens(argv: Sequence[str], out: IO[bytes]) -> int:
    p = _debug_parser("tokens", "Print the tokenizer's tokens as JSON lines, in the html5lib-tests format.")
    p.add_argument("--errors", action="store_true", help='also print parse errors, as {"error": ...} lines')
    ns = p.parse_args(argv)
    from stream_mf2.html.testing import tokenize_for_test

    tokens, errors = tokenize_for_test(_decoded_chunks(ns.file, ns.encoding), collect_errors=ns.errors)
    for token in tokens:
        out.write(_dump(token))
    for err in errors:
        out.write(_dump({"error": err}))
    out.flush()
    return 0


def _cmd_tree(argv: Sequence[str], out: IO[bytes]) -> int:
    ns = _debug_parser("tree", "Print the tree-construction dump in the html5lib-tests format.").parse_args(argv)
    testing = importlib.import_module("stream_mf2.html.testing")
    tree_for_test = getattr(testing, "tree_for_test", None)
    if tree_for_test is None:
        raise UserError("the tree dump (stream_mf2.html.testing.tree_for_test) is not available in this build")
    dump = tree_for_test(_decoded_chunks(ns.file, ns.encoding))
    text = dump if isinstance(dump, str) else "\n".join(dump)
    out.write(text.encode("utf-8") + (b"" if text.endswith("\n") else b"\n"))
    out.flush()
    return 0


# -- stream-mf2 conformance ----------------------------------------------------------------------


def _cmd_conformance(argv: Sequence[str], out: IO[bytes]) -> int:
    p = _ArgumentParser(
        prog=f"{PROG} conformance",
        description="Run the official microformats test suites (a checkout of github.com/microformats/tests) "
        "through the streaming parser and print pass counts per suite.",
    )
    p.add_argument(
        "path",
        nargs="?",
        metavar="PATH",
        help="the microformats-tests folder, its tests/ folder, or a folder holding microformats-tests/ "
        "(default: $STREAM_MF2_TESTSUITES, else ../shared/testsuites if it exists)",
    )
    p.add_argument("--failures", type=int, default=0, metavar="N", help="also list the first N failures (default 0)")
    p.add_argument("--strict", action="store_true", help="exit with status 1 when any case fails")
    ns = p.parse_args(argv)
    from stream_mf2.conformance import find_suite_root, run_microformats_suite

    root = ns.path or os.environ.get("STREAM_MF2_TESTSUITES")
    if not root and os.path.isdir(os.path.join("..", "shared", "testsuites")):
        root = os.path.join("..", "shared", "testsuites")
    if not root:
        raise UserError("give the path of the microformats test suite (or set STREAM_MF2_TESTSUITES)")
    try:
        find_suite_root(root)
    except FileNotFoundError as e:
        raise UserError(str(e)) from None
    report = run_microformats_suite(root)
    out.write((report.format(max_failures=max(ns.failures, 0)) + "\n").encode("utf-8"))
    out.flush()
    return 1 if ns.strict and not report.passed else 0


# -- entry point ---------------------------------------------------------------------------------

_COMMANDS: dict[str, Callable[[Sequence[str], IO[bytes]], int]] = {
    "warc": _cmd_warc,
    "tokens": _cmd_tokens,
    "tree": _cmd_tree,
    "conformance": _cmd_conformance,
    # Website Parse Template commands live in their own module (stream_mf2/_cli_wpt.py).
    "wpt": lambda argv, out: importlib.import_module("stream_mf2._cli_wpt").cmd_wpt(argv, out),
    "xpath": lambda argv, out: importlib.import_module("stream_mf2._cli_wpt").cmd_xpath(argv, out),
}


def _fail(message: str, status: int = 1) -> NoReturn:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    raise SystemExit(status)


def _silence_stdout() -> None:
    # The reader went away: point stdout at /dev/null so the interpreter's final flush is quiet.
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    out = sys.stdout.buffer
    try:
        if args and args[0] in _COMMANDS:
            return _COMMANDS[args[0]](args[1:], out)
        return _cmd_parse(args, out)
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except UserError as e:
        _fail(str(e))
    except StreamMF2Error as e:
        _fail(" ".join(str(e).split()) or type(e).__name__)
    except OSError as e:
        _fail(f"{e.strerror or e}" + (f": {e.filename}" if getattr(e, "filename", None) else ""))
