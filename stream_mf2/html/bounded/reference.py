"""The reference walks: the plain, slow answers every shortcut of the sink must equal.

Each shortcut of the bounded sink (a remembered climb, a proxy comparison, a
cached set) answers a question a plain walk of the tree could answer too, in
time proportional to the depth of the tree or the number of pending items. The
sink uses the shortcuts because those walks, repeated at every pop, were
quadratic on some inputs; this module keeps the walks as the definition of the
answers.

With ``BoundedSink(..., check_shortcuts=True)`` every shortcut taken is
asserted against its walk here (:func:`check_climb` and the others), and
:attr:`BoundedSink.checks <stream_mf2.html.bounded.sink.BoundedSink.checks>`
counts the checks made, by shortcut. Off (the default) the sink pays one flag
test per shortcut. Nothing here changes the sink's state.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from stream_mf2.html.bounded.docorder import _doc_position, _in_document_order
from stream_mf2.html.bounded.flags import _INSIDE, _KEPT, _NOT_BLOCKED, _OPEN, _PENDING, _host, _inside, _is_special
from stream_mf2.html.dom import HTML_NS, DocumentFragment, Element, Node, ParentNode
from stream_mf2.html.tree_tables import FORMATTING

if TYPE_CHECKING:
    from stream_mf2.html.bounded.hold import _Held
    from stream_mf2.html.bounded.sink import BoundedSink

#: What a climb finds (:func:`plain_climb`): the blocker's id (or ``-1``), the outermost kept
#: element passed, whether template contents were crossed, the node the climb ended at.
Climb = tuple[int, Element | None, bool, ParentNode | None]


def _open_table(node: Element) -> bool:
    return bool(node.sink_state & _OPEN) and node.namespace == HTML_NS and node.name == "table"


def plain_outer_table(table: Element) -> Element:
    """The outermost open HTML table above ``table`` (or ``table``), climbing every ancestor."""
    outer = table
    node: ParentNode | None = table.parent
    while node is not None:
        if isinstance(node, Element):
            if _open_table(node):
                outer = node
            node = node.parent
        elif isinstance(node, DocumentFragment):
            node = _host(node)
        else:
            break
    return outer


def plain_next_table(table: Element) -> Element | None:
    """The nearest open HTML table above ``table``, climbing every ancestor."""
    node: ParentNode | None = table.parent
    while node is not None:
        if isinstance(node, Element):
            if _open_table(node):
                return node
            node = node.parent
        elif isinstance(node, DocumentFragment):
            node = _host(node)
        else:
            break
    return None


def plain_climb(start: ParentNode | None) -> Climb:
    """What holds a popped kept element below ``start`` (the proof in the package docstring).

    Climbing every ancestor: an open table holds it (its outermost open table
    is the blocker), or an open formatting element above an open special
    one; else it is not blocked (``-1``), with the outermost kept element
    passed, whether template contents were crossed, and where the climb ended.
    """
    seen_special = False
    node = start
    crossed = False
    top: Element | None = None
    while node is not None:
        if isinstance(node, Element):
            st = node.sink_state
            if st & _OPEN:
                if node.namespace == HTML_NS and node.name == "table":
                    return id(plain_outer_table(node)), None, False, None
                if _is_special(node):
                    seen_special = True
                elif seen_special and node.namespace == HTML_NS and node.name in FORMATTING:
                    return id(node), None, False, None
            if st & _KEPT:
                top = node
            node = node.parent
        elif isinstance(node, DocumentFragment):
            crossed = True
            node = _host(node)
        else:
            break
    return _NOT_BLOCKED, top, crossed, node


def plain_top_kept(el: Element) -> Element | None:
    """The outermost kept ancestor of ``el`` (not crossing template contents)."""
    top = None
    node: ParentNode | None = el.parent
    while isinstance(node, Element):
        if node.sink_state & _KEPT:
            top = node
        node = node.parent
    return top


def held_items(sink: BoundedSink) -> list[Element]:
    """Every held candidate still tracked, from every blocker's groups."""
    out: list[Element] = []
    for groups in sink._blocked.values():
        for held in groups:
            out.extend(c for c in held.members() if c.sink_state)
    return out


def plain_alone(sink: BoundedSink, top: Element) -> bool:
    """Is ``top`` the only outermost kept subtree not handed over (open, ready or held)?"""
    for el in sink._kept_open.values():
        if el is not top and (el.parent is None or not _inside(el.parent)):
            return False
    for cand in [*sink._ready, *sink._recheck, *held_items(sink), *(sink._order or ())]:
        if cand is not top and cand.sink_state and (cand.parent is None or not _inside(cand.parent)):
            return False
    return True


def _root(node: Node) -> Node:
    while node.parent is not None:
        node = node.parent
    return node


def before_every_held(sink: BoundedSink, ready: list[Element]) -> bool:
    """Is each of ``ready`` before every held candidate of its tree, by document positions?"""
    held = held_items(sink)
    for el in ready:
        root = _root(el)
        for cand in held:
            if cand is not el and _root(cand) is root and not _doc_position(el) < _doc_position(cand):
                return False
    return True


def _count(sink: BoundedSink, name: str) -> None:
    checks = sink.checks
    checks[name] = checks.get(name, 0) + 1


def check_climb(sink: BoundedSink, start: ParentNode | None, got: Climb) -> None:
    """A remembered climb (with no special element met yet) equals :func:`plain_climb`."""
    want = plain_climb(start)
    if want[0] != _NOT_BLOCKED:
        assert got[0] == want[0], (got, want)
    else:
        assert got[0] == want[0] and got[1] is want[1] and got[2] == want[2] and got[3] is want[3], (got, want)
    assert not sink._unsettled, "INSIDE flags read before they were settled"
    _count(sink, "climb")


def check_next_table(sink: BoundedSink, table: Element, got: Element | None) -> None:
    assert got is plain_next_table(table), table
    _count(sink, "next_table")


def check_outer_table(sink: BoundedSink, table: Element, got: Element) -> None:
    assert got is plain_outer_table(table), table
    _count(sink, "outer_table")


def check_top(sink: BoundedSink, el: Element, got: Element | None) -> None:
    assert got is plain_top_kept(el), el
    _count(sink, "nested_top")


def check_alone(sink: BoundedSink, top: Element, got: bool) -> None:
    assert got == plain_alone(sink, top), top
    _count(sink, "alone")


def check_before_held(sink: BoundedSink, ready: list[Element], got: bool) -> None:
    """A true answer of the proxy comparison holds by document positions (false is only slower)."""
    if got:
        assert before_every_held(sink, ready), ready
        _count(sink, "before_held")


def blocked_groups(sink: BoundedSink) -> set[int]:
    """The held groups now (to tell the ones a wake makes: :func:`check_woken`)."""
    return {id(held) for groups in sink._blocked.values() for held in groups}


def check_woken(sink: BoundedSink, before: set[int]) -> None:
    """Groups passed on whole by a wake are held by what classifying each candidate again gives."""
    for key, groups in sink._blocked.items():
        for held in groups:
            if id(held) not in before and held.groups:
                for cand in held.members():
                    if cand.sink_state:
                        assert plain_climb(cand.parent)[0] == key, cand
                        _count(sink, "passed_on")


def check_order(sink: BoundedSink) -> None:
    """The kept order (``_order``) lists its pending items in document order."""
    order = sink._order
    if order is not None:
        pending = [el for el in order if el.sink_state & _PENDING]
        assert pending == _in_document_order(pending)
        _count(sink, "order")


def check_runs(sink: BoundedSink) -> None:
    """Runs filled from a run are its dependents while their top's step leads there (never a popped top)."""
    memo = sink._memo
    for entry in memo.values():
        for d in entry.run.dependents.values():
            top = d.top
            if top.run is d and top.known:
                assert memo.get(id(top.element) << 2 | top.mode) is top
    _count(sink, "runs")


def check_tops(sink: BoundedSink) -> None:
    """The outermost kept elements ``_top_kept`` remembers equal plain climbs."""
    for el, top in sink._tops.values():
        plain = None
        node: ParentNode | None = el
        while isinstance(node, Element):
            if node.sink_state & _KEPT:
                plain = node
            node = node.parent
        assert top is plain, el
    _count(sink, "tops")


def check_unlink(sink: BoundedSink, root: Node) -> None:
    """The short unlinking path meets no open element (nor one outside kept subtrees)."""
    stack: list[Node] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, Element):
            st = node.sink_state
            assert not st & _OPEN and (st == 0 or st & _INSIDE), node
            stack.extend(node.children)
            if node.template_contents is not None:
                stack.extend(node.template_contents.children)
    _count(sink, "unlink")


def check_classified(sink: BoundedSink, got: tuple[str, int], walked: tuple[str, int]) -> None:
    """A classification that skipped the walk for open descendants equals the walked one."""
    assert got == walked
    _count(sink, "classify")


def _below(node: Element, top: Element) -> bool:
    cur: ParentNode | None = node.parent
    while cur is not None:
        if cur is top:
            return True
        cur = cur.parent
    return False


def check_chain(
    sink: BoundedSink, key: int, held: _Held, classify: Callable[[BoundedSink, Element], tuple[str, int]]
) -> None:
    """A chain being held: its groups lie each below the next, under open elements, and each
    candidate is held for ``key`` by its own classification (``classify``, the walk's)."""
    subs = held.groups
    assert held.links == 0 and held.entry is subs[-1].entry
    assert held.size == sum(sub.size for sub in subs)
    for lower, upper in itertools.pairwise(subs):
        assert _below(lower.entry, upper.entry)
    for sub in subs:
        assert sub.entry.sink_state & _OPEN and sub.epoch >= 0
        for cand in sub.members():
            if cand.sink_state:
                blocker = sink._blocker
                kind, own = classify(sink, cand)
                sink._blocker = blocker
                assert (kind, own) == ("blocked", key), (cand, kind)
                assert cand is sub.entry or _below(cand, sub.entry)
    _count(sink, "chain")


def count_open_inside(elements: Iterable[Element]) -> int:
    """How many of ``elements`` (each once) are open and inside kept subtrees, by their flags:
    what :attr:`BoundedSink.open_inside` must equal when ``elements`` are all the sink made."""
    unique = {id(el): el for el in elements}.values()
    return sum(1 for el in unique if el.sink_state & _OPEN and el.sink_state & _INSIDE)
