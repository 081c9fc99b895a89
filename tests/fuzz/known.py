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


def _late_body_lang(f: Finding) -> bool:
    # an item yielded before a later <body lang=...> merged its language into the body
    return f.check == "full-dom-differs" and "lang" in f.detail and _has(r"<body[^>]*\slang\s*=")(f)


def _itemref_child_streamed(f: Finding) -> bool:
    # stream_children after a <base>: an mf1 child built before its itemref target's content
    return f.check == "stream-children-differs" and _has(r"itemref")(f) and _has(r"<base[\s/>]")(f)


KNOWN_DEFECTS: list[KnownDefect] = [
    KnownDefect(
        "late-body-lang",
        "README Limits, known gaps: a <body lang> merged after an item inside the body was yielded",
        _late_body_lang,
    ),
    KnownDefect(
        "itemref-child-streamed-early",
        "README Limits, known gaps: stream_children, <base>, an mf1 child whose itemref names a later sibling",
        _itemref_child_streamed,
    ),
]


def known(finding: Finding) -> KnownDefect | None:
    for defect in KNOWN_DEFECTS:
        if defect.covers(finding):
            return defect
    return None
