"""``stream-mf2 tokens`` and ``stream-mf2 tree``: the engine's output in the html5lib-tests formats."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO

from stream_mf2.cli._common import (
    PROG,
    ArgumentParser,
    UserError,
    add_fetch_arguments,
    dump,
    encoding_option,
    fetch_options,
    fetch_page,
    refuse_empty,
)


def _debug_parser(name: str, what: str) -> argparse.ArgumentParser:
    p = ArgumentParser(prog=f"{PROG} {name}", description=what)
    p.add_argument("file", metavar="FILE|URL|-", help="an HTML file, an http(s):// URL, or - for standard input")
    p.add_argument(
        "--encoding",
        help="character encoding label, as if sent by the server (default for a URL: the charset the server sent)",
    )
    # the page command's fetch flags, through the same helper: a page that needs a crawler's
    # User-Agent or a cookie is debugged as it is read
    add_fetch_arguments(p)
    return p


def _byte_chunks(f: IO[bytes]) -> Iterator[bytes]:
    while chunk := f.read(64 * 1024):
        yield chunk


def _decoded_chunks(ns: argparse.Namespace) -> Iterator[str]:
    """The page's text, decoded as the page command decodes it. The page is opened, and refused
    when it is empty, before the first chunk is asked for (as the page command does), and
    ``--encoding`` is checked as there: an unknown label is a warning and is ignored."""
    chunks, encoding, close = _open_page(ns)
    return _decode(chunks, encoding, close)


def _open_page(ns: argparse.Namespace) -> tuple[Iterable[bytes], str | None, Callable[[], None]]:
    from stream_mf2.io.fetch import is_url

    path: str = ns.file
    encoding = encoding_option(ns.encoding)
    if is_url(path):
        resp = fetch_page(path, fetch_options(ns), f"{PROG} warc")
        if encoding is None:
            encoding = resp.charset  # the transport-layer encoding, as the page command takes it
        return resp, encoding, resp.close
    if path == "-":
        refuse_empty(path, sys.stdin.buffer)
        return _byte_chunks(sys.stdin.buffer), encoding, lambda: None
    try:
        f = open(path, "rb")  # noqa: SIM115  # closed by the returned closer
    except OSError as e:
        raise UserError(f"cannot open {path}: {e.strerror or e}") from None
    try:
        refuse_empty(path, f)
    except BaseException:
        f.close()
        raise
    return _byte_chunks(f), encoding, f.close


def _decode(chunks: Iterable[bytes], encoding: str | None, close: Callable[[], None]) -> Iterator[str]:
    from stream_mf2.html.decode import Decoder

    decoder = Decoder(encoding)
    try:
        for chunk in chunks:
            text = decoder.feed(chunk)
            if text:
                yield text
        text = decoder.close()
        if text:
            yield text
    finally:
        close()


def cmd_tokens(argv: Sequence[str], out: IO[bytes]) -> int:
    p = _debug_parser("tokens", "Print the tokenizer's tokens as JSON lines, in the html5lib-tests format.")
    p.add_argument("--errors", action="store_true", help='also print parse errors, as {"error": ...} lines')
    ns = p.parse_args(argv)
    from stream_mf2.html.testing import tokenize_for_test

    tokens, errors = tokenize_for_test(_decoded_chunks(ns), collect_errors=ns.errors)
    for token in tokens:
        out.write(dump(token))
    for err in errors:
        out.write(dump({"error": err}))
    out.flush()
    return 0


def cmd_tree(argv: Sequence[str], out: IO[bytes]) -> int:
    ns = _debug_parser("tree", "Print the tree-construction dump in the html5lib-tests format.").parse_args(argv)
    testing = importlib.import_module("stream_mf2.html.testing")
    tree_for_test = getattr(testing, "tree_for_test", None)
    if tree_for_test is None:
        raise UserError("the tree dump (stream_mf2.html.testing.tree_for_test) is not available in this build")
    dump = tree_for_test(_decoded_chunks(ns))
    text = dump if isinstance(dump, str) else "\n".join(dump)
    out.write(text.encode("utf-8") + (b"" if text.endswith("\n") else b"\n"))
    out.flush()
    return 0
