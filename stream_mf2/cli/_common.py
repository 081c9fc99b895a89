"""What every ``stream-mf2`` subcommand shares: the program name, the one-line error,
the parser-option flags (``--text``, ``--lang``, limits, ...) and JSON output.

Each subcommand module imports from here, never from the dispatcher
(:mod:`stream_mf2.cli`), so the command modules form no import cycle.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import re
import sys
from collections.abc import Iterable, Iterator
from typing import Any, NoReturn, TypeVar, overload

from stream_mf2.io.json_output import dumps

PROG = "stream-mf2"

_N = TypeVar("_N")

#: Exit status for a closed output pipe (128 + SIGPIPE, as a shell reports it).
EXIT_BROKEN_PIPE = 141


#: The subcommands, with the line ``stream-mf2 --help`` shows for each (the dispatcher's keys).
COMMAND_HELP: dict[str, str] = {
    "warc": "items from WARC archives, as versioned JSON Lines or Parquet",
    "wpt": "Website Parse Template blocks of pages or WARC archives",
    "xpath": "the XPaths of a page's elements, to write templates",
    "conformance": "pass counts on the official microformats test suites",
    "tokens": "tokenizer output in html5lib-tests format (debugging)",
    "tree": "tree-construction dump in html5lib-tests format (debugging)",
}

#: Flags whose value is optional. The value is attached (``--stream-children=h-feed``) or, as a
#: separate argument, a comma-separated list of ``h-*`` names (``--stream-children h-feed,h-entry``):
#: anything else after the flag (``--stream-children page.html``) is the next argument, not its value.
ATTACHED_VALUE_FLAGS = ("--stream-children", "--filter-roots")
_TYPE_LIST = re.compile(r"h-[a-z0-9]+(?:-[a-z0-9]+)*(?:,h-[a-z0-9]+(?:-[a-z0-9]+)*)*\Z")


def attach_values(args: Iterable[str]) -> list[str]:
    """``args`` with the value of each :data:`ATTACHED_VALUE_FLAGS` flag attached (``flag=value``)."""
    items = list(args)
    out: list[str] = []
    i = 0
    while i < len(items):
        arg = items[i]
        i += 1
        if arg == "--":
            out.extend(items[i - 1 :])
            break
        if arg not in ATTACHED_VALUE_FLAGS:
            out.append(arg)
        elif i < len(items) and _TYPE_LIST.match(items[i]):
            out.append(f"{arg}={items[i]}")
            i += 1
        else:
            out.append(f"{arg}=")  # the next argument is read on its own (another flag, the input)
    return out


class UserError(Exception):
    """Something the user can fix; printed as one line (exit status 1)."""


class UsageError(UserError):
    """A bad command line: an option's value or a combination of options (exit status 2)."""


class ArgumentParser(argparse.ArgumentParser):
    """argparse with a one-line error message (the full usage is one ``--help`` away), exit status 2.

    A flag of :data:`ATTACHED_VALUE_FLAGS` takes the next argument as its value only when
    it is a list of ``h-*`` names: ``--stream-children page.html`` is the flag and the input.

    No abbreviations: a prefix of a flag is not that flag. Sibling commands share flag names
    and prefixes (``--jsonl`` of the page command is a prefix of ``wpt``'s ``--jsonld``), so a
    flag given to the wrong command must be refused, not read as another.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: error: {message} (see '{self.prog} --help')", file=sys.stderr)
        raise SystemExit(2)

    @overload
    def parse_known_args(
        self, args: Iterable[str] | None = None, namespace: None = None
    ) -> tuple[argparse.Namespace, list[str]]: ...
    @overload
    def parse_known_args(self, args: Iterable[str] | None, namespace: _N) -> tuple[_N, list[str]]: ...
    @overload
    def parse_known_args(self, *, namespace: _N) -> tuple[_N, list[str]]: ...

    def parse_known_args(self, args: Iterable[str] | None = None, namespace: Any = None) -> tuple[Any, list[str]]:
        if args is None:
            args = sys.argv[1:]
        # Flags may come between the inputs of a command that takes several (``stream-mf2 wpt
        # t.xml --items a.html b.html``), where argparse alone takes the inputs before the first
        # flag only: intermixed parsing (which calls this method again, then plainly).
        if not getattr(self, "_intermixing", False) and any(
            not a.option_strings and a.nargs in ("*", "+") for a in self._actions
        ):
            self._intermixing = True
            try:
                return self.parse_known_intermixed_args(attach_values(args), namespace)
            finally:
                self._intermixing = False
        return super().parse_known_args(attach_values(args), namespace)


def positive_seconds(text: str) -> float:
    """argparse type: a finite number of seconds above 0."""
    return _positive(text, "a number of seconds")


def nonneg_number(text: str) -> float:
    """argparse type: a finite number, 0 or more."""
    return _positive(text, "a number", zero=True)


def _positive(text: str, what: str, *, zero: bool = False) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not {what}: {text!r}") from None
    if not (value >= 0 if zero else value > 0) or not value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be {what} {'of 0 or more' if zero else 'above 0'}, not {text}")
    return value


def nonneg_int(text: str) -> int:
    """argparse type: a whole number, 0 or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0: {text!r}")
    return value


def dump(obj: Any, *, indent: bool = False) -> bytes:
    return dumps(obj, indent=indent)


# (flag, option, help) for the integer limits every parse command takes; see stream_mf2.core.options.
LIMIT_FLAGS = (
    ("--max-token-chars", "max_token_chars", "longest unfinished tag, comment or attribute value, in characters"),
    ("--max-depth", "max_depth", "deepest stack of open elements"),
    ("--max-kept-nodes", "max_kept_nodes", "most nodes kept for one item subtree"),
    ("--max-held-items", "max_held_items", "items held waiting for include targets (a recovery: see the Parser docs)"),
    ("--max-held-children", "max_held_children", "stream-children: children kept until a <base> is known (a budget)"),
    (
        "--max-nested-html-chars",
        "max_nested_html_chars",
        "e-* html nested inside e-* values, per item (then empty html)",
    ),
    (
        "--max-item-chars",
        "max_item_chars",
        "JSON characters of one item, nested items counted where placed (then emptied values)",
    ),
    ("--max-output-ratio", "max_output_ratio", "output allowance of an item or rel link per character of its source"),
    (
        "--output-floor-chars",
        "output_floor_chars",
        "output allowance of an item or rel link whatever its source length",
    ),
    ("--max-reparse-bytes", "max_reparse_bytes", "bytes held for a late <meta charset> re-parse (0: off)"),
    # the budgets of the other syntaxes (--syntaxes), docs/reference/limits.md
    ("--max-jsonld-chars", "max_jsonld_chars", "json-ld: text of one JSON-LD <script> (then skipped, with a note)"),
    ("--max-microdata-held-items", "max_microdata_held_items", "microdata: items held for itemref targets"),
    ("--max-microdata-held-nodes", "max_microdata_held_nodes", "microdata: nodes of the subtrees held for itemref"),
    ("--max-itemref-ids", "max_itemref_ids", "microdata: itemref ids waited for at once"),
    ("--max-microdata-values", "max_microdata_values", "microdata: values of one item in the WHATWG form"),
    ("--max-microdata-work-ratio", "max_microdata_work_ratio", "microdata: nodes walked per node of an item"),
    (
        "--max-microdata-recent-nodes",
        "max_microdata_recent_nodes",
        "microdata: nodes remembered for a later item's itemref",
    ),
    ("--max-rdfa-list-items", "max_rdfa_list_items", "rdfa: inlist members held until their list closes"),
)


def add_parser_options(p: argparse.ArgumentParser, *, url: bool = True) -> None:
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
        "--syntaxes",
        metavar="NAMES",
        help="the structured-data syntaxes to extract in the same pass, comma-separated: "
        + ", ".join(_syntax_names())
        + ", or all (default: mf2); each other than mf2 adds its results under its name (JSON) "
        'or item lines with a "syntax" (JSON Lines)',
    )
    g.add_argument(
        "--microdata-form",
        choices=("extruct", "whatwg"),
        help="with --syntaxes microdata: the shape of the items, extruct's (default) or the WHATWG JSON form",
    )
    g.add_argument(
        "--filter-roots",
        nargs="?",
        const="",
        default=None,
        metavar="NAMES",
        help="ignore root class names that are utility CSS (Tailwind's h-full, h-screen, ...); "
        "--filter-roots=NAMES (comma-separated h-* names) gives your own list instead",
    )
    lim = p.add_argument_group(
        "limits (max-token-chars, max-depth, max-kept-nodes stop with an error naming them; the others are recoveries)"
    )
    for flag, _, what in LIMIT_FLAGS:
        lim.add_argument(flag, type=int, metavar="N", help=what)


def encoding_option(label: str | None) -> str | None:
    """``--encoding LABEL`` of any command: the label, or ``None`` (with a warning) when it names
    no encoding, which is then ignored as an unknown transport charset is."""
    if not label:
        return None
    from stream_mf2.html.decode import lookup_encoding

    if lookup_encoding(label) is None:
        print(f"{PROG}: warning: unknown encoding label {label!r}, ignored", file=sys.stderr)
        return None
    return label


def parser_options(ns: argparse.Namespace) -> dict[str, Any]:
    opts: dict[str, Any] = {"text": ns.text, "lang": ns.lang, "metaformats": ns.metaformats}
    encoding = encoding_option(ns.encoding)
    if encoding is not None:
        opts["encoding"] = encoding
    if ns.filter_roots is not None:
        names = frozenset(n.strip() for n in ns.filter_roots.split(",") if n.strip())
        opts["filter_roots"] = names or True
    for _flag, name, _what in LIMIT_FLAGS:
        value = getattr(ns, name)
        if value is not None:
            opts[name] = value
    if getattr(ns, "syntaxes", None) is not None:
        opts["syntaxes"] = syntaxes_option(ns.syntaxes)
    if getattr(ns, "microdata_form", None) is not None:
        if "microdata" not in opts.get("syntaxes", ()):
            # (it would be accepted and change nothing: no microdata is extracted)
            raise UsageError("--microdata-form shapes the microdata items: give it with --syntaxes microdata (or all)")
        opts["microdata_form"] = ns.microdata_form
    from stream_mf2.core.options import check_options

    try:
        check_options(opts)
    except (TypeError, ValueError) as e:
        raise UsageError("--" + str(e).replace("_", "-")) from None
    return opts


def _syntax_names() -> tuple[str, ...]:
    from stream_mf2.core.syntaxes import SYNTAXES

    return SYNTAXES


def syntaxes_option(value: str) -> frozenset[str]:
    """``--syntaxes NAMES``: comma-separated registry names, or ``all``; an unknown name is a
    :class:`UsageError` naming the known ones. A known syntax whose package is missing from
    this installation raises :class:`~stream_mf2.errors.SyntaxUnavailable` (one line, status 1)."""
    from stream_mf2.core.syntaxes import SYNTAXES, resolve_syntaxes

    names = [n.strip() for n in value.split(",") if n.strip()]
    if not names:
        raise UsageError(f"--syntaxes needs at least one name: {', '.join(SYNTAXES)}, or all")
    chosen: set[str] = set()
    for name in names:
        if name == "all":
            chosen.update(SYNTAXES)
        elif name not in SYNTAXES:
            raise UsageError(f"--syntaxes: unknown syntax {name!r}; the syntaxes are {', '.join(SYNTAXES)}, or all")
        else:
            chosen.add(name)
    return resolve_syntaxes(chosen)


def other_syntaxes(opts: dict[str, Any]) -> frozenset[str]:
    """The syntaxes other than mf2 among the parse options ``opts`` (empty without ``syntaxes``)."""
    return frozenset(opts.get("syntaxes", ())) - {"mf2"}


def jsonl_syntax_item(syntax: str, index: int, entry: Any) -> dict[str, Any]:
    """The JSON Lines form of one entry of a syntax's results (:mod:`stream_mf2.core.syntax_results`):
    ``path`` ``[index]`` is its place in the syntax's list (a microdata page item comes last, with
    a place before items written already)."""
    return {"kind": "item", "syntax": syntax, "path": [index], "item": entry}


def version() -> str:
    """``stream-mf2 VERSION (build)``: the build as :mod:`stream_mf2._build` names it."""
    from stream_mf2._build import build_info
    from stream_mf2._version import __version__

    return build_info(__version__)


def stream_children_option(value: str | None) -> bool | frozenset[str]:
    if value is None:
        return False
    types = frozenset(t.strip() for t in value.split(",") if t.strip())
    return types or True


def jsonl_item(event: Any, *, syntaxes: bool = False) -> dict[str, Any]:
    """The JSON Lines form of an item event; ``syntaxes`` (``--syntaxes`` given): with ``"syntax": "mf2"``."""
    line: dict[str, Any] = {"kind": "item", "syntax": "mf2"} if syntaxes else {"kind": "item"}
    if event.path:
        line["path"] = list(event.path)
    if event.children_streamed:
        line["children-streamed"] = event.children_streamed
    line["item"] = event.item
    return line


def headers(values: list[str]) -> dict[str, str]:
    headers: dict[str, str] = {}
    for value in values:
        name, sep, rest = value.partition(":")
        if not sep or not name.strip() or name != name.strip():
            raise UsageError(f"--header wants 'NAME: VALUE', not {value!r}")
        headers[name] = rest.strip()
    return headers


class _Warnings(logging.Handler):
    """The library's warnings (:mod:`stream_mf2.io.notes`) as ``stream-mf2: warning: …`` lines."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            print(f"{PROG}: warning: {record.getMessage()}", file=sys.stderr, flush=True)
        except Exception:
            self.handleError(record)


@contextlib.contextmanager
def show_warnings() -> Iterator[None]:
    """While a command runs, print the ``stream_mf2`` logger's warnings on standard error
    (and nowhere else); the logger is as it was afterwards (``main`` may be called in a
    process that logs for itself)."""
    logger = logging.getLogger("stream_mf2")
    handler = _Warnings(logging.WARNING)
    propagate = logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate


def refuse_empty(src: str, source: object) -> None:
    """Refuse a page of no bytes at all: standard input or a file (a path, or an open file).

    A parse of nothing is an empty document (no items, no rels): the library gives that, but a
    command given a page of zero bytes was almost always given the output of a command that
    failed (``curl … | stream-mf2 -``) or a file that was never written, so every page command
    (the page command, ``wpt`` over pages, ``xpath``, ``wpt lint``) says so and fails instead of
    writing an empty result. A fetched body is the server's answer and is parsed as it is.
    Peeking reads nothing away: a buffered file keeps what it peeked.
    """
    import os
    import stat
    from pathlib import Path

    from stream_mf2.errors import SourceError

    if isinstance(source, Path):
        try:
            st = os.stat(source)
        except OSError:
            return  # the parse says why it cannot be opened
        empty = stat.S_ISREG(st.st_mode) and st.st_size == 0
    else:
        peek = getattr(source, "peek", None)
        empty = peek is not None and not peek(1)
    if empty:
        name = "<stdin>" if src == "-" else src
        raise SourceError(f"{name}: empty input (0 bytes), no HTML page to read; was the page written or sent?")


#: The fetch options of :func:`add_fetch_arguments`, as ``(flag, dest, default)``: what a command
#: that reads no page URL (``wpt`` over WARC archives) refuses when it is changed.
FETCH_FLAGS: tuple[tuple[str, str, object], ...] = (
    ("--deadline", "deadline", 600.0),
    ("--user-agent", "user_agent", None),
    ("--header", "header", []),
    ("--max-redirects", "max_redirects", 10),
    ("--max-bytes", "max_bytes", None),
)


def add_fetch_arguments(p: argparse.ArgumentParser, *, timeout: bool = True) -> None:
    """The options of fetching an ``http(s)://`` page (the page command, ``wpt`` over pages,
    ``xpath``, ``wpt lint``): one declaration, so a flag of one is a flag of every other.
    ``timeout`` False: the command declares ``--timeout`` itself (``wpt``: also for WARC URLs)."""
    http = p.add_argument_group("fetching (for an http(s):// URL)")
    if timeout:
        http.add_argument(
            "--timeout",
            type=positive_seconds,
            default=30.0,
            metavar="S",
            help="seconds to wait for each read (default 30)",
        )
    http.add_argument(
        "--deadline",
        type=positive_seconds,
        default=600.0,
        metavar="S",
        help="seconds for the whole request, however slowly the server sends (default 600)",
    )
    http.add_argument("--user-agent", metavar="UA", help="User-Agent header (default stream-mf2/VERSION)")
    http.add_argument(
        "--header",
        action="append",
        default=[],
        metavar="'NAME: VALUE'",
        help="an extra request header (repeatable)",
    )
    http.add_argument(
        "--max-redirects", type=nonneg_int, default=10, metavar="N", help="redirects to follow (default 10)"
    )
    http.add_argument(
        "--max-bytes",
        type=nonneg_int,
        default=None,
        metavar="N",
        help="largest decoded body to read (default 256 MiB)",
    )


def fetch_options(ns: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`stream_mf2.io.fetch.fetch` given by :func:`add_fetch_arguments`."""
    from stream_mf2.io.fetch import DEFAULT_MAX_BYTES

    return {
        "headers": headers(ns.header),
        "user_agent": ns.user_agent,
        "timeout": ns.timeout,
        "deadline": ns.deadline,
        "max_redirects": ns.max_redirects,
        "max_bytes": DEFAULT_MAX_BYTES if ns.max_bytes is None else ns.max_bytes,
    }


def output_name_kind(name: str) -> str | None:
    """What an output name says of its format, compression suffixes (``.gz``, ``.zst``) aside:
    ``"json"`` (``.json``), ``"jsonl"`` (``.jsonl``, ``.ndjson``), ``"parquet"``, or ``None``."""
    lower = name.lower()
    for suffix in (".gz", ".zst"):
        lower = lower.removesuffix(suffix)
    if lower.endswith((".jsonl", ".ndjson")):
        return "jsonl"
    if lower.endswith(".json"):
        return "json"
    if lower.endswith(".parquet"):
        return "parquet"
    return None


def is_warc_name(name: str) -> bool:
    """Whether an input name (a path or URL, without its query) ends ``.warc`` or ``.warc.gz``."""
    base = name.split("?", 1)[0].split("#", 1)[0]
    return base.endswith((".warc", ".warc.gz"))


def fetch_page(src: str, fetch: dict[str, Any], archive_command: str) -> Any:
    """:func:`stream_mf2.io.fetch.fetch` of the page URL ``src`` (``fetch``: :func:`fetch_options`).
    A URL named like a WARC archive that is not HTML gets the command that reads it
    (``archive_command``, e.g. ``stream-mf2 warc``) in its message, as a local file does."""
    from stream_mf2.errors import SourceError
    from stream_mf2.io import fetch as _http

    try:
        return _http.fetch(src, **fetch)
    except SourceError as e:
        if not is_warc_name(src) or "not HTML" not in str(e):
            raise
        raise UserError(f"{e}; a WARC archive is read by '{archive_command} {src}'") from None


def is_warc_content(src: str, message: str) -> bool:
    """Whether the page ``src`` refused with ``message`` as binary data is a WARC archive under
    another name (``crawl.bin``, ``x.warc.gz.1``): archives are known by name, so the message
    should say how to read it. Only a local file is looked at (its first bytes, gunzipped)."""
    if "not HTML (binary data)" not in message or src == "-" or is_warc_name(src):
        return False
    import gzip
    import zlib

    try:
        with open(src, "rb") as f:
            head = f.read(5)
            if head[:2] == b"\x1f\x8b":
                f.seek(0)
                with gzip.GzipFile(fileobj=f) as z:
                    head = z.read(5)
    except (OSError, EOFError, zlib.error):
        return False
    return head == b"WARC/"
