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


KNOWN_DEFECTS: list[KnownDefect] = []


def known(finding: Finding) -> KnownDefect | None:
    for defect in KNOWN_DEFECTS:
        if defect.covers(finding):
            return defect
    return None
