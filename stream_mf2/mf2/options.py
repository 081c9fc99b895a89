"""Parser options for the mf2 layer."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Final, Literal

# Utility-CSS class names that look like mf2 roots but are not (Tailwind's
# height utilities); used when ``filter_roots`` is ``True``. Names such as
# ``h-1`` or ``h-1/2`` are already invalid mf2 names and need no entry.
TAILWIND_ROOTS: Final[frozenset[str]] = frozenset(
    {"h-auto", "h-fit", "h-full", "h-max", "h-min", "h-px", "h-screen", "h-svh", "h-lvh", "h-dvh", "h-lh"}
)


#: Default budget for e-* html nested inside other e-* values, per top-level item.
DEFAULT_MAX_NESTED_HTML_CHARS: Final = 1024 * 1024

#: Default budget for the output of one item (see ``Options.max_item_chars``).
DEFAULT_MAX_ITEM_CHARS: Final = 8 * 1024 * 1024

#: Default output allowance per character of a unit's source span (see ``Options.max_output_ratio``).
DEFAULT_MAX_OUTPUT_RATIO: Final = 32
#: Default output allowance of a unit whatever its source span (see ``Options.max_output_ratio``).
DEFAULT_OUTPUT_FLOOR_CHARS: Final = 4096


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

    ``mf2py_compat``: where the parsing spec is silent, make mf2py 2.0's choice
    (the :mod:`stream_mf2.mf2py` drop-in sets it): classic (mf1) roots get
    ``"id"`` and ``{"value", "alt"}`` image objects as h-* roots do (by default
    they get neither, as the microformats-v1 suite expects), and fragment-only
    URLs in e-* ``html`` (``href="#fn1"``) are made absolute like every other.

    ``max_nested_html_chars``: how many characters of e-* ``html`` one
    top-level item may serialise for e-* values that lie inside another e-*
    value (a nested e-* property, or a nested item that is an e-* property).
    Each such ``html`` repeats markup an enclosing value already holds, so
    nesting them N deep makes output (and work) grow as N squared; e-* values
    not inside another one are never limited (together they are at most the
    input). Once the budget is spent, further nested values get ``"html": ""``
    (their ``value`` text is still computed) and the context records a note in
    :attr:`Mf2Context.notes`.

    ``max_item_chars``: about how many characters of JSON one item may give
    (the characters of its strings plus a few per key and value, escapes
    not counted), counting an item nested as a property value at every
    place it appears. An h-* root that is the value of two properties
    (``class="p-a dt-b h-x"``) is placed twice, so nesting such roots k deep
    repeats the innermost one 2**k times in the JSON (``parse`` shares the
    objects, a serialiser does not); nested ``p-*`` roots each repeat the
    text of everything below them. Sizes are summed bottom-up as items
    finish. An item's ``children`` are items of their own, each with its own
    budget (they appear once; a nested item's children count where it is
    placed). Once a value would take an item past the budget, the item is
    *over*: that value and every later one of the item is emptied (``""``;
    an e-* value ``{"html": "", "value": ""}``; a nested item placed as a
    property becomes ``{"value": "", "type": [...], "properties": {}}``,
    ``"html": ""`` too for e-*), an over item gets no implied properties and
    its values are not computed, and an over nested item makes the item it
    is placed in over. Output past the budget is then linear in the input.
    The context records a note in :attr:`Mf2Context.notes` per outermost
    item walked (and per nested item parsed ahead of its container).

    ``max_output_ratio`` and ``output_floor_chars``: the output *allowance*
    of a unit relative to the input that produced it, so that many separate
    units cannot amplify the input (one long ``<base href>`` resolved by
    thousands of short links, or many items each just under
    ``max_item_chars``). A unit is an item (at every level) or one rel link.
    Its allowance is ``output_floor_chars + max_output_ratio * span``
    characters (counted as for ``max_item_chars``), where ``span`` is the
    length of its element's source span (``Element.source_start`` to
    ``source_end``: its own tags, attributes and everything parsed while it
    was open), less the spans of the items in its ``children`` (each is a
    unit with its own allowance; an item inside one of its property elements,
    or placed as a property value, counts in its output instead). An item
    whose own output (its values, without its ``children``) is past its
    allowance is *reduced*: every value emptied as above, no implied
    properties, nested items placed as values reduced, its ``children``
    kept; one note per outermost item walked. A rel link whose ``rels`` and
    ``rel-urls`` entries (counted as if new) are past its allowance is left
    out of both, and the collector counts it (``RelCollector.dropped``). The
    allowance of one unit does not depend on any other unit, so it is the
    same in every chunking and with ``stream_children``. An element without
    a source span (a DOM built by hand, a copy) gets no allowance, only
    ``max_item_chars``. Spans of the units are disjoint (but where the tree
    builder moves elements), so the output is at most ``units *
    output_floor_chars + max_output_ratio * input`` characters plus the
    JSON around them.
    """

    text: Literal["spec", "normalized"] = "spec"
    lang: bool = False
    metaformats: bool = False
    filter_roots: bool | frozenset[str] = False
    max_nested_html_chars: int = DEFAULT_MAX_NESTED_HTML_CHARS
    max_item_chars: int = DEFAULT_MAX_ITEM_CHARS
    max_output_ratio: int = DEFAULT_MAX_OUTPUT_RATIO
    output_floor_chars: int = DEFAULT_OUTPUT_FLOOR_CHARS
    mf2py_compat: bool = False

    # computed once per Options: the item walker asks for it per element
    @cached_property
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


@lru_cache(maxsize=64, typed=True)
def options_for(
    text: Literal["spec", "normalized"],
    lang: bool,
    metaformats: bool,
    filter_roots: bool | frozenset[str],
    max_nested_html_chars: int,
    max_item_chars: int = DEFAULT_MAX_ITEM_CHARS,
    max_output_ratio: int = DEFAULT_MAX_OUTPUT_RATIO,
    output_floor_chars: int = DEFAULT_OUTPUT_FLOOR_CHARS,
    mf2py_compat: bool = False,
) -> Options:
    """One shared :class:`Options` per option set: every document of a crawl uses the same few,
    so a parser takes a frozen instance (and its computed ``ignored_roots``) instead of
    building and initialising a new one."""
    return Options(
        text,
        lang,
        metaformats,
        filter_roots,
        max_nested_html_chars,
        max_item_chars,
        max_output_ratio,
        output_floor_chars,
        mf2py_compat,
    )
