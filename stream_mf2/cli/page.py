"""``stream-mf2 FILE|URL|-``: one page to whole-document JSON, or JSON Lines as items complete."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any, NoReturn

from stream_mf2.cli._common import (
    COMMAND_HELP,
    PROG,
    ArgumentParser,
    UsageError,
    UserError,
    add_fetch_arguments,
    add_parser_options,
    dump,
    fetch_options,
    fetch_page,
    is_warc_content,
    jsonl_item,
    jsonl_syntax_item,
    output_name_kind,
    parser_options,
    refuse_empty,
    stream_children_option,
    version,
)
from stream_mf2.errors import StreamMF2Error


class _PageParser(ArgumentParser):
    """The page command's parser: several pages are answered with what to do instead of
    argparse's "unrecognized arguments"."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._extra: list[str] = []

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> tuple[Any, list[str]]:
        ns, extra = super().parse_known_args(args, namespace)
        self._extra = extra
        return ns, extra

    def error(self, message: str) -> NoReturn:
        extra = self._extra
        if extra and message.startswith("unrecognized arguments") and all(not a.startswith("-") for a in extra):
            raise UsageError(
                f"the page command reads one page, not {len(extra) + 1}: run it once per page (with -o to keep "
                f"each output), or read several with '{PROG} wpt TEMPLATE.xml PAGE... --items'"
            )
        super().error(message)


def _parse_command_parser() -> argparse.ArgumentParser:
    p = _PageParser(
        prog=PROG,
        description="Extract microformats2 from HTML as it streams in.",
        epilog="other commands (see 'stream-mf2 COMMAND --help'):\n"
        + "\n".join(f"  {name:<12} {what}" for name, what in COMMAND_HELP.items()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=version(), help="print the version and build, then exit")
    p.add_argument("source", metavar="FILE|URL|-", help="an HTML file, an http(s):// URL, or - for standard input")
    p.add_argument(
        "--jsonl",
        action="store_true",
        help='print JSON Lines, each with a "kind": an "item" line as soon as each item completes, a '
        '"meta-item" line, a last "document" line with the rels, or an "error" line before a failure exit; '
        'with --syntaxes every item line has a "syntax" ("mf2", "json-ld", ...), one line per entry of '
        "that syntax's results",
    )
    p.add_argument("--pretty", action="store_true", help="indent the whole-document JSON (default: compact; not with --jsonl)")
    p.add_argument(
        "--stream-children",
        nargs="?",
        const="",
        default=None,
        metavar="TYPES",
        help="with --jsonl, print the children of a container item (e.g. a page-wide h-feed) as they close, as "
        'item lines with a "path" [i, j], and the container later with "children-streamed": N; '
        "--stream-children=TYPES (comma-separated, e.g. h-feed; or as the next argument) limits which containers "
        "(default: every top-level item)",
    )
    p.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        help="write to OUT instead of standard output, by its ending: .json the whole-document JSON, .jsonl (or "
        ".ndjson) JSON Lines as with --jsonl, either with .gz or .zst to compress; any other name what the flags "
        "say. A file is written under OUT.partial and renamed into place when the page was read (JSON Lines: "
        "with its error line if it failed); a named pipe or a device is written in place; - is standard output",
    )
    add_fetch_arguments(p)
    add_parser_options(p)
    return p


class _WriterOut:
    """The page command's output written through a :class:`~stream_mf2.warc.outputs.JsonlWriter`
    (``-o FILE``): the bytes it is given, flushed when asked."""

    def __init__(self, writer: Any) -> None:
        self._writer = writer

    def write(self, data: bytes) -> int:
        self._writer.write_bytes(data)
        return len(data)

    def flush(self) -> None:
        self._writer.flush()


def _output_target(ns: argparse.Namespace) -> Any:
    """The resolved ``-o`` target (``None``: standard output); ``ns.jsonl`` set when its name says
    JSON Lines. A name that says another format than the flags, or Parquet, is a usage error."""
    from stream_mf2.warc.target import resolve_output

    name: str | None = ns.output
    if name is None or name == "-":
        return None
    kind = output_name_kind(name)
    if kind == "parquet":
        raise UsageError(
            f"-o {name}: the page command writes JSON (.json) or JSON Lines (.jsonl); Parquet tables of items are "
            f"written by '{PROG} warc' (WARC archives) and '{PROG} wpt --items' (pages)"
        )
    if kind == "json" and ns.jsonl:
        raise UsageError(f"--jsonl writes JSON Lines, but -o {name} names a JSON file: name it .jsonl, or drop --jsonl")
    if kind == "jsonl":
        ns.jsonl = True  # the name says JSON Lines, as warc's -o X.jsonl does
    return resolve_output(name)


def _open_source(ns: argparse.Namespace) -> tuple[Any, str | None, Callable[[], None]]:
    """The source for ``ns.source`` by the input rule, the document URL and a closer."""
    from pathlib import Path

    from stream_mf2.io import fetch as _http

    src: str = ns.source
    if _http.is_url(src):
        resp = fetch_page(src, fetch_options(ns), f"{PROG} warc")
        # the response itself: iter_events takes its charset and URL, and applies the stall rule
        return resp, ns.url, resp.close
    if src == "-":
        return sys.stdin.buffer, ns.url, lambda: None
    if src.endswith((".warc", ".warc.gz")):
        _refuse_archive(src)
    if not _is_regular_or_missing(src):
        # A named pipe (or /dev/stdin): opened here, so that its first byte can be peeked
        # at for the empty-page check, as standard input's is; the parse reads the rest.
        try:
            f = open(src, "rb")  # noqa: SIM115  # closed by the returned closer
        except OSError as e:
            raise UserError(f"cannot open {src}: {e.strerror or e}") from None
        return f, ns.url, f.close
    return Path(src), ns.url, lambda: None


def _is_regular_or_missing(path: str) -> bool:
    """Whether ``path`` is a regular file or a folder, or cannot be looked at: the parse opens
    those itself (and says why it cannot); anything else, a named pipe, is opened here."""
    import os
    import stat

    try:
        mode = os.stat(path).st_mode
    except OSError:
        return True
    return stat.S_ISREG(mode) or stat.S_ISDIR(mode)


def _refuse_archive(path: str) -> None:
    """A binary file named like a WARC archive: say which command reads it (the parse would only
    say "not HTML (binary data)"). An unreadable file is left to the parse's own error."""
    from stream_mf2.io.responses import SNIFF_BINARY_BYTES, looks_binary

    try:
        with open(path, "rb") as f:
            head = f.read(SNIFF_BINARY_BYTES)
    except OSError:
        return
    if looks_binary(head):
        raise UserError(f"{path}: not HTML (binary data); a WARC archive is read by '{PROG} warc {path}'")


#: A top-level item with this many children (a page-wide feed) gets the --stream-children hint.
HINT_CHILDREN = 1000


def main(argv: Sequence[str], out: IO[bytes]) -> int:
    ns = _parse_command_parser().parse_args(argv)
    target = _output_target(ns)
    if target is None:
        return _run(ns, out)
    from stream_mf2.warc.outputs import open_writer
    from stream_mf2.warc.target import OutputLock

    with OutputLock(target):  # a second run naming this output fails at once, as warc's and wpt's
        writer: Any = open_writer(target)
        try:
            status = _run(ns, _WriterOut(writer))
        except (StreamMF2Error, UserError) as e:
            if ns.jsonl and not isinstance(e, UsageError):
                writer.close()  # its lines end with the error line, as on standard output
            else:
                writer.discard()  # no half a JSON document under the name
            raise
        except BaseException:
            writer.discard()
            raise
        writer.close()
    return status


def _run(ns: argparse.Namespace, out: Any) -> int:
    from stream_mf2.core.reassemble import reassemble
    from stream_mf2.core.syntax_results import SyntaxResults
    from stream_mf2.events import DocumentEnd, ItemEvent, MetaItemEvent
    from stream_mf2.io.sources import iter_events

    if ns.pretty and ns.jsonl:
        # an indented object spans several lines: the output would no longer be JSON Lines
        raise UsageError(
            "--pretty indents each object over several lines, which is not JSON Lines: drop --pretty "
            "with --jsonl (or pipe the lines through 'jq .' to read them)"
        )
    if ns.stream_children is not None and not ns.jsonl:
        # the whole-document JSON has every child in its container: the flag would change nothing
        raise UsageError("--stream-children writes the children as item lines as they close: give it with --jsonl")
    opts = parser_options(ns)
    stream_children = stream_children_option(ns.stream_children)
    if stream_children:
        opts["stream_children"] = stream_children
    # --syntaxes: the other syntaxes' entries, as parse() lists them (item lines with a "syntax")
    syntaxes = "syntaxes" in opts
    results = SyntaxResults(opts["syntaxes"]) if syntaxes else None
    found: dict[str, list[Any]] = {}

    def write_entries(entries: list[tuple[str, int, Any]]) -> None:
        for name, index, entry in entries:
            if ns.jsonl:
                out.write(dump(jsonl_syntax_item(name, index, entry), indent=pretty))
                out.flush()
            else:
                # (at its place: a microdata page item comes last and goes before items found already)
                found.setdefault(name, []).insert(index, entry)

    pretty = bool(ns.pretty)
    close: Callable[[], None] = lambda: None  # noqa: E731  # until the source is open
    try:
        # (opened inside: a failed fetch or a refused file gets its error line as a failed parse does)
        source, url, close = _open_source(ns)
        refuse_empty(ns.source, source)
        item_events: list[Any] = []
        most_children = 0  # of a top-level item: a hint past HINT_CHILDREN without --stream-children
        events = iter_events(source, url, **opts)
        doc_url = url if url is not None else getattr(source, "url", None)
        for event in events:
            if type(event) is ItemEvent:
                if not event.path:
                    most_children = max(most_children, len(event.item.get("children", ())))
                if ns.jsonl:
                    out.write(dump(jsonl_item(event, syntaxes=syntaxes), indent=pretty))
                    out.flush()
                else:
                    item_events.append(event)
            elif type(event) is MetaItemEvent:
                if ns.jsonl:
                    out.write(dump({"kind": "meta-item", "item": event.item}, indent=pretty))
                    out.flush()
            elif type(event) is DocumentEnd:
                if results is not None:
                    write_entries(results.finish())
                if ns.jsonl:
                    doc: dict[str, Any] = {
                        "kind": "document",
                        "url": doc_url,
                        "encoding": event.encoding,
                        "rels": event.rels,
                        "rel-urls": event.rel_urls,
                        "notes": list(event.notes),
                    }
                    out.write(dump(doc, indent=pretty))
                else:
                    whole: dict[str, Any] = {
                        "items": reassemble(item_events),
                        "rels": event.rels,
                        "rel-urls": event.rel_urls,
                    }
                    if event.meta_item is not None:
                        whole["meta-item"] = event.meta_item
                    for name in results.names if results is not None else ():
                        whole[name] = found.get(name, [])
                    out.write(dump(whole, indent=pretty))
                out.flush()
            elif results is not None:
                write_entries(results.add(event))
    except UsageError:
        raise  # a bad command line: no run, no line
    except (StreamMF2Error, UserError) as e:
        message = " ".join(str(e).split()) or type(e).__name__
        hint = is_warc_content(ns.source, message)
        if hint:  # a WARC archive under another name
            message += f"; it is a WARC archive: read it with '{PROG} warc {ns.source}'"
        if ns.jsonl:
            out.write(dump({"kind": "error", "error": message}))
            out.flush()
        if hint:
            raise UserError(message) from None
        raise
    finally:
        close()
    if not stream_children and most_children >= HINT_CHILDREN:
        print(
            f"{PROG}: hint: an item held {most_children} children until it closed; --stream-children "
            "(with --jsonl) writes them as they close, in constant memory",
            file=sys.stderr,
        )
    return 0
