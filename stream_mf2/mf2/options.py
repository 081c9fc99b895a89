"""Parser options for the mf2 layer."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

# Utility-CSS class names that look like mf2 roots but are not (Tailwind's
# height utilities); used when ``filter_roots`` is ``True``. Names such as
# ``h-1`` or ``h-1/2`` are already invalid mf2 names and need no entry.
TAILWIND_ROOTS: frozenset[str] = frozenset(
    {"h-auto", "h-fit", "h-full", "h-max", "h-min", "h-px", "h-screen", "h-svh", "h-lvh", "h-dvh", "h-lh"}
)


@dataclass(frozen=True)
class Options:
    """How the mf2 rules are applied.

    ``text``: ``"spec"`` gives DOM textContent with the spec's replacements,
    trimmed (what the official test suite expects); ``"normalized"`` applies
    the whitespace-normalising textContent-parsing algorithm used by mf2py and
    php-mf2.

    ``lang``: add ``lang`` to items and e-* values, from the nearest ancestor
    ``lang`` attribute, else ``<html lang>``, else a ``Content-Language`` meta.

    ``metaformats``: add a top-level ``"meta-item"`` built from ``<head>``.

    ``filter_roots``: ignore root class names that are really utility CSS
    classes; ``True`` uses :data:`TAILWIND_ROOTS`, a frozenset gives the
    class names to ignore (``"h-full"``, or ``"full"`` as mf2py spells it).
    """

    text: Literal["spec", "normalized"] = "spec"
    lang: bool = False
    metaformats: bool = False
    filter_roots: bool | frozenset[str] = False

    @property
    def ignored_roots(self) -> frozenset[str]:
        """The root class names that ``filter_roots`` rules out (``h-`` prefixed)."""
        if self.filter_roots is True:
            return TAILWIND_ROOTS
        if self.filter_roots is False:
            return frozenset()
        return _prefixed(self.filter_roots)


@lru_cache(maxsize=64)
def _prefixed(names: frozenset[str]) -> frozenset[str]:
    # accept "h-full" as well as mf2py's bare "full"
    return frozenset(n if n.startswith("h-") else "h-" + n for n in names)
