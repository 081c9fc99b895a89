"""``stream-mf2 tokens`` and ``stream-mf2 tree``: the engine's output in the html5lib-tests formats."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Iterator, Sequence
from typing import IO

from stream_mf2.cli._common import PROG, ArgumentParser, UserError, dump


def _debug_parser(name: str, what: str) -> argparse.ArgumentParser:
    p = ArgumentParser(prog=f"{PROG} {name}", description=what)
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


def cmd_tokens(argv: Sequence[str], out: IO[bytes]) -> int:
    p = _debug_parser("tokens", "Print the tokenizer's tokens as JSON lines, in the html5lib-tests format.")
    p.add_argument("--errors", action="store_true", help='also print parse errors, as {"error": ...} lines')
    ns = p.parse_args(argv)
    from stream_mf2.html.testing import tokenize_for_test

    tokens, errors = tokenize_for_test(_decoded_chunks(ns.file, ns.encoding), collect_errors=ns.errors)
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
    dump = tree_for_test(_decoded_chunks(ns.file, ns.encoding))
    text = dump if isinstance(dump, str) else "\n".join(dump)
    out.write(text.encode("utf-8") + (b"" if text.endswith("\n") else b"\n"))
    out.flush()
    return 0
