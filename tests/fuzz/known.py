"""Open defects the harness recognises, so that it keeps looking for new ones.

Each entry names one open defect that is being fixed (the project's hardening
list, and defects this harness found and reported to the code's owners), and
says exactly which findings it covers. A finding it covers is counted (and
its first example saved under ``known/``), not reported as new. No entry loosens
an invariant: the checks are the same with or without this list. When a defect
is fixed, delete its entry; ``KNOWN_DEFECTS = []`` makes every finding new again.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .invariants import Finding


@dataclass(frozen=True)
class KnownDefect:
    name: str
    description: str
    covers: Callable[[Finding], bool]


def _text(finding: Finding) -> str:
    return finding.data.decode("utf-8", "replace")


def _has(pattern: str) -> Callable[[Finding], bool]:
    compiled = re.compile(pattern, re.IGNORECASE)
    return lambda f: compiled.search(_text(f)) is not None


def _limit_in(finding: Finding, limit: str) -> bool:
    return f"'{limit}'" in finding.extra.get("expected", "") + finding.extra.get("got", "")


_FORMATTING = r"<(a|b|big|code|em|font|i|nobr|s|small|strike|strong|tt|u)[\s/>]|<button[\s/>]"


def _late_body_html(f: Finding) -> bool:
    return f.check in ("full-dom-differs", "chunking-differs", "chunking-differs-str") and _has(
        r"<(body|html)[\s/][^>]*(class|lang)"
    )(f)


def _plain_length_damage(touch: str) -> bool:
    """A damage that hits a record's header block (Content-Length among it) or changes its length."""
    _record, where, kind = touch.split(":")
    return where == "head" or kind in ("insert", "delete", "truncate")


def _gzip_fake_magic(f: Finding) -> bool:
    return ":warc.gz:" in f.signature and bool(re.search(r"kind='insert', record=\d+, offset=0, arg=b'[^']*\\x1f\\x8b", _ops(f)))


def _duplicate_ids(f: Finding) -> bool:
    ids = re.findall(r"""\bid\s*=\s*["']?([^"'\s>]+)""", _text(f), re.IGNORECASE)
    return len(ids) != len(set(ids))


def _ops(f: Finding) -> str:
    ops: Any = f.extra.get("ops", "")
    return str(ops)


KNOWN_DEFECTS: list[KnownDefect] = [
    KnownDefect(
        "late-body-html-class",
        "an h-* class (or lang) on a late <body>/<html> merged into the existing element is lost",
        _late_body_html,
    ),
    KnownDefect(
        "max-token-chars-lookahead",
        "max_token_chars counts unread input after a <meta charset> pause or a '<' that starts no tag",
        lambda f: f.check.startswith("chunking-differs") and _limit_in(f, "max_token_chars"),
    ),
    KnownDefect(
        "template-col-text",
        "<template><col> followed by text: the tree depends on chunk boundaries",
        lambda f: f.check.startswith("chunking-differs") and _has(r"<template")(f) and _has(r"<col")(f),
    ),
    KnownDefect(
        "stream-children-base",
        "stream_children=True resolves against a <base> that arrives before the item closes",
        lambda f: f.check == "stream-children-differs" and _has(r"<base[\s/>]")(f),
    ),
    KnownDefect(
        "quadratic-formatting-and-button-scope",
        "formatting-list scans, reconstruction and 'p in button scope' walks grow with the square of the input",
        lambda f: f.check == "time-growth" and _has(_FORMATTING)(f),
    ),
    KnownDefect(
        "reset-insertion-mode-walk",
        "'reset the insertion mode' walks the whole stack of open elements after </table> (fuzz finding F1)",
        lambda f: f.check == "time-growth" and f.signature.endswith(":_reset_insertion_mode"),
    ),
    KnownDefect(
        "scope-walk-after-html-end-tag",
        "'has a body element in scope' of </html> walks the whole stack of nested elements (fuzz finding F2)",
        lambda f: f.check == "time-growth" and f.signature.endswith(":_in_scope") and _has(r"</(html|body)")(f),
    ),
    KnownDefect(
        "include-duplicate-id",
        "mf1 include pattern: a reference is resolved to a later element with a duplicate id (fuzz finding F3)",
        lambda f: f.check == "full-dom-differs" and _has(r"itemref|headers|include")(f) and _duplicate_ids(f),
    ),
    KnownDefect(
        "bounded-sink-classify",
        "the bounded sink's _classify grows with the square of kept roots in nested tables (fuzz finding F5)",
        lambda f: f.check == "time-growth" and f.signature.endswith("_bounded_sink.py:_classify"),
    ),
    KnownDefect(
        "warc-head-damage",
        "damage to the first two bytes of an archive (or junk before it) loses every record",
        lambda f: f.check.startswith("warc-")
        and bool(re.search(r"record=0, offset=[01],|kind='insert', record=0, offset=0", _ops(f))),
    ),
    KnownDefect(
        "warc-gzip-fake-magic",
        ".warc.gz: junk holding a gzip magic between members loses the next intact record (fuzz finding W1)",
        _gzip_fake_magic,
    ),
    KnownDefect(
        "warc-gzip-flag-bits",
        ".warc.gz: a flipped FLG bit (FEXTRA...) makes the reader skip the intact members after it (fuzz finding W3)",
        lambda f: ":warc.gz:" in f.signature and bool(re.search(r"kind='flip', record=\d+, offset=3,", _ops(f))),
    ),
    KnownDefect(
        "warc-plain-separator",
        "plain .warc: a damaged CRLF CRLF after a record loses the next record silently (fuzz finding W2)",
        lambda f: ":warc:" in f.signature and any(t.endswith(":tail:flip") for t in f.extra.get("touches", ())),
    ),
    KnownDefect(
        "warc-plain-content-length",
        "plain .warc: a record with a missing or wrong Content-Length swallows or loses the records after it",
        lambda f: ":warc:" in f.signature and any(_plain_length_damage(t) for t in f.extra.get("touches", ())),
    ),
]


def known(finding: Finding) -> KnownDefect | None:
    for defect in KNOWN_DEFECTS:
        if defect.covers(finding):
            return defect
    return None
