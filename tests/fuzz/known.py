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


KNOWN_DEFECTS: list[KnownDefect] = [
    KnownDefect(
        "selectedcontent-in-option",
        "an h-* <selectedcontent> inside its own selected <option> is handed over when it pops, before the"
        " option's pop clones the option's content into it: the full DOM's item has that clone as a child"
        " (tests/test_hardening_selectedcontent.py)",
        lambda f: f.check == "full-dom-differs" and _has(r"<selectedcontent")(f),
    ),
    KnownDefect(
        "bounded-sink-classify",
        "the bounded sink's _classify walks every ancestor of each completed kept element: n items inside n"
        " nested elements cost n^2 ('<div>' * k + '<i class=h-cite></i>' * k: 4000 -> 8.5 s; fuzz findings F5"
        " and F7, both this walk)",
        lambda f: f.check == "time-growth" and f.signature.endswith("_bounded_sink.py:_classify"),
    ),
    KnownDefect(
        "bounded-sink-of",
        "time grows faster than the square in the bounded sink's `of` (found by seed 20261127, round seed"
        " 1827048263): '<p><button>x<code><pre class=\"h-card\">' * k takes 0.10 / 0.69 / 5.1 s for k = 100 /"
        " 200 / 400 (15 KB); '<code><pre class=h-card>' * k alone is linear (nested roots under reopened"
        " formatting elements inside a button)",
        lambda f: f.check == "time-growth"
        and (f.signature.endswith("_bounded_sink.py:of") or f.signature.endswith("_bounded_sink.py:_in_document_order")),
    ),
]


def known(finding: Finding) -> KnownDefect | None:
    for defect in KNOWN_DEFECTS:
        if defect.covers(finding):
            return defect
    return None
