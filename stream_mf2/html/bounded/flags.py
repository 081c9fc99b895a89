"""The sink's per-element flags, its limits' defaults, and the small helpers every module uses.

Every element the sink tracks carries a bit set in ``Element.sink_state``
(0: not tracked, or released). The invariants each flag keeps, and where:

* ``_TRACKED`` is set on every tracked element, so a tracked state is never 0
  (:attr:`BoundedSink.tracked <stream_mf2.html.bounded.sink.BoundedSink.tracked>` counts them);
* ``_OPEN``: the element is on the tree builder's stack of open elements
  (cleared in ``BoundedSink.pop``);
* ``_KEPT``: the keep predicate (or a merge, or the observer) made it a kept root;
  ``_INSIDE``: it is kept or has a kept ancestor, except between a move and the next
  settle (:mod:`.mutation`: ``_unsettled`` lists the elements whose descendants wait);
* ``_READY``/``_PENDING``: the element is in ``_ready``/``_order`` (:mod:`.handover`,
  :mod:`.docorder`), so membership needs no search;
* ``_MEMO``: the element has remembered climbs (:mod:`.climbs`); ``_TABLE``: an open
  HTML table counted in ``_open_tables``;
* ``_TENTATIVE``: an ``html``/``body`` whose content is stored (:mod:`.tentative`);
* ``_CAPTURE``, ``_WATCH``, ``_LOST``, ``_LOST_ALL``, ``_ITEMS``: options outside kept
  subtrees that a ``selectedcontent`` may copy (:mod:`.selected`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stream_mf2.html.dom import (
    HTML_NS,
    DocumentFragment,
    Element,
    ParentNode,
)
from stream_mf2.html.tree_tables import SPECIAL_FOREIGN, SPECIAL_HTML

if TYPE_CHECKING:
    from stream_mf2.html.bounded.sink import BoundedSink


#: ``on_nested`` answers: keep the nested subtree, drop its children, drop it whole.
NESTED_KEEP: Final = 0


NESTED_EMPTY: Final = 1


NESTED_REMOVE: Final = 2


# Per-element flags, kept in ``Element.sink_state`` (0: not tracked by the sink).
_KEPT: Final = 1


_OPEN: Final = 2


_INSIDE: Final = 4  # the element is kept or has a kept ancestor


_TRACKED: Final = 8  # set on every element the sink tracks, so a tracked state is never 0


_TENTATIVE: Final = 16  # an html/body whose content is stored until a merge may make it kept


_READY: Final = 32  # in BoundedSink._ready (so that a check for it needs no search of the list)


_PENDING: Final = 64  # in BoundedSink._order (ready and waiting, or held)


_MEMO: Final = 128  # an open element with an entry in BoundedSink._memo


# Outside kept subtrees, an element whose content is stored because it is (or is
# inside) the option that a held selectedcontent may still be cloned from.
_CAPTURE: Final = 256


# Outside kept subtrees, an open option (or an element made inside one) whose content is
# not stored: content lost there is remembered on the option (_LOST), since a kept enabled
# selectedcontent that comes later (moved out of the option by misnested tags, say) gets
# a clone of the whole option.
_WATCH: Final = 512


_LOST: Final = 1024


_ITEMS: Final = 4096  # a watched option a kept subtree was handed over from


# An open HTML table (counted in BoundedSink._open_tables; cleared when it pops).
_TABLE: Final = 8192


# A watched option that _lose has marked: the marked open ones are always the oldest
# (an option opened later was marked with them or not at all), so _lose stops at one.
_LOST_ALL: Final = 16384


_CAPTURE_OR_WATCH: Final = 768  # _CAPTURE | _WATCH


_TENTATIVE_MEMO_TABLE: Final = 8336  # _TENTATIVE | _MEMO | _TABLE


_INSIDE_CAPTURE_OR_WATCH: Final = 772  # _INSIDE | _CAPTURE | _WATCH


# The states of a new element, spelled out: pure Python would compute each ``|`` per element.
_NEW_PLAIN: Final = 10  # _TRACKED | _OPEN: outside kept subtrees, not kept (nearly every element)


_NEW_INSIDE: Final = 14  # _TRACKED | _OPEN | _INSIDE


_NEW_KEPT: Final = 15  # _TRACKED | _KEPT | _INSIDE | _OPEN


#: Default bound on held (completed but not yet final) kept subtrees.
DEFAULT_MAX_PENDING_ITEMS: Final = 10_000


#: Default bound on nodes stored in kept subtrees not yet handed over.
DEFAULT_MAX_KEPT_NODES: Final = 2_000_000


#: Default bound on the content stored for a tentative ``html``/``body`` (module docstring).
DEFAULT_MAX_PREFIX_NODES: Final = 512


#: Text characters stored for a tentative element, per node of ``max_prefix_nodes``.
PREFIX_CHARS_PER_NODE: Final = 64


#: HTML element names that create_element_in sets up beyond the element itself.
_SET_UP: Final = frozenset(("template", "selectedcontent", "html", "body", "option", "select", "table"))


#: Leaf names that append_leaf sends through create_element_in.
_LEAF_SET_UP: Final = frozenset(("selectedcontent", "option"))


assert _CAPTURE_OR_WATCH == _CAPTURE | _WATCH and _INSIDE_CAPTURE_OR_WATCH == _CAPTURE_OR_WATCH | _INSIDE


assert _NEW_PLAIN == _TRACKED | _OPEN and _NEW_INSIDE == _NEW_PLAIN | _INSIDE and _NEW_KEPT == _NEW_INSIDE | _KEPT


_FRAMESET: Final = 0  # blocked_by key for "the frameset-ok flag is still ok"


# At most this many blockers are compared with a ready item (handover._before_held).
_MAX_PROXIES: Final = 8


_NOT_BLOCKED: Final = -1  # (no object's id)


# At least this many groups woken together, one below the other and held again for one
# blocker, are kept as one chain (hold._wake).
_CHAIN_MIN: Final = 16


# The attributes of BoundedSink's probe element between two leaves (never changed).
_NO_ATTRS: Final[dict[str, str]] = {}


#: Put in BoundedSink._recheck while INSIDE flags wait for _settle (never tracked: skipped there).
_SETTLE: Final = Element("", HTML_NS, _NO_ATTRS)


def _is_special(el: Element) -> bool:
    if el.namespace == HTML_NS:
        return el.name in SPECIAL_HTML
    return (el.namespace, el.name) in SPECIAL_FOREIGN


def _host(fragment: DocumentFragment) -> Element | None:
    """The tracked template element whose contents ``fragment`` is, if any."""
    host = fragment.host
    return host if host is not None and host.sink_state else None


def _push_elements_below(node: Element, stack: list[Element]) -> None:
    """Push ``node``'s element children, and its template contents' (a subtree walk's step)."""
    for c in node.children:
        if type(c) is Element:
            stack.append(c)
    contents = node.template_contents
    if contents is not None:
        for c in contents.children:
            if type(c) is Element:
                stack.append(c)


def _inside(parent: ParentNode) -> bool:
    if type(parent) is Element:
        return bool(parent.sink_state & _INSIDE)
    if type(parent) is DocumentFragment:
        host = parent.host
        return host is not None and bool(host.sink_state & _INSIDE)
    return False


def _frameset_possible(sink: BoundedSink) -> bool:
    b = sink._builder
    return b is not None and bool(b.frameset_ok) and bool(b.open) and not b.fragment_case
