"""Held candidates: which open element blocks each popped kept element, and waking them.

:func:`_classify` decides a candidate's fate by the proof of the package
docstring: ready, or held for a blocker (an open formatting element above an
open special one, the outermost open table, an open descendant, an open select
for ``selectedcontent``, or ``_FRAMESET`` while the frameset-ok flag is "ok").
Held candidates are grouped per blocker (:class:`_Held`); when the blocker
pops, :func:`_wake` decides again, passing whole groups that lie below one open
element (a climb from that element decides them all) and chaining groups held
again for one blocker (:func:`_chain`).

Invariant (checked under ``check_shortcuts``): a group passed on whole, or a
chain, holds only candidates that a classification of their own would hold for
the same blocker (:func:`~.reference.check_woken`, :func:`~.reference.check_chain`);
a classification that skipped the walk for open descendants equals the walked one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stream_mf2.html.bounded.climbs import _climb, _climb_remembered, _hop
from stream_mf2.html.bounded.docorder import _insert, _open_before, _pending, _start_order
from stream_mf2.html.bounded.flags import (
    _CHAIN_MIN,
    _FRAMESET,
    _INSIDE,
    _KEPT,
    _MAX_PROXIES,
    _NOT_BLOCKED,
    _OPEN,
    _PENDING,
    _READY,
    _frameset_possible,
)
from stream_mf2.html.bounded.reference import blocked_groups, check_chain, check_classified, check_top, check_woken
from stream_mf2.html.bounded.release import _drop
from stream_mf2.html.dom import (
    HTML_NS,
    Document,
    Element,
    Node,
    ParentNode,
)

if TYPE_CHECKING:
    from stream_mf2.html.bounded.sink import BoundedSink


class _Held:
    """Candidates held for one blocker: ``items``, and earlier groups passed on whole.

    Every candidate lies below ``entry`` (the candidate itself, a popped
    blocker, or an open element) with only popped elements between them, unless
    ``epoch`` is -1 (the open entry's children were moved since: see
    :func:`_wake`); ``size`` counts them.

    A *chain* (``links`` >= 0) has no items; its ``groups`` lie under open
    elements each below the next one (deepest first), ``entry`` is the last
    (the top one) and ``links`` counts the groups whose element was popped or had
    its children moved since (:func:`_wake`); ``links`` is -1 otherwise.
    """

    __slots__ = ("entry", "epoch", "groups", "items", "links", "size")

    def __init__(self, items: list[Element], groups: list[_Held], entry: Element, epoch: int, size: int) -> None:
        self.items = items
        self.groups = groups
        self.entry = entry
        self.epoch = epoch
        self.size = size
        self.links = -1

    def members(self) -> list[Element]:
        out: list[Element] = []
        stack: list[_Held] = [self]
        while stack:
            held = stack.pop()
            out.extend(held.items)
            stack.extend(held.groups)
        return out


def _classify_unchecked(sink: BoundedSink, el: Element) -> tuple[str, int]:
    """("root" | "nested" | "covered" | "detached" | "blocked", blocker key) for popped kept ``el``."""
    key, top, crossed_fragment, end = _climb(sink, el.parent, False)
    if key != _NOT_BLOCKED:
        if sink._selectedcontent:
            # the select first: its selected option's pop (before the table's) may still
            # clone into a held selectedcontent, which looks for its select's holds
            select = _clone_target_select(sink, el)
            if select is not None:
                return "blocked", id(select)
        return "blocked", key
    if top is not None:
        watch = sink.watch_nested if sink.on_nested is not None else None
        if watch is None or crossed_fragment or not isinstance(end, Document) or not watch(el, top):
            return "covered", 0
    elif crossed_fragment or not isinstance(end, Document):
        return "detached", 0
    if _frameset_possible(sink):
        return "blocked", _FRAMESET
    if sink._selectedcontent:
        select = _clone_target_select(sink, el)
        if select is not None:
            return "blocked", id(select)
    # An element can leave the stack before its descendants (the "a" start
    # tag and the adoption agency algorithm when a table is open inside it):
    # content still goes into those open descendants. Those are open and
    # inside a kept subtree, so with none such there is nothing to look for.
    if not sink._open_inside:
        return ("nested" if top is not None else "root"), 0
    # Subtrees found without open elements stay so until nodes move or a new
    # element goes into a popped one (foster parenting): popped elements never
    # open again, and nothing else is inserted below them. Each nested
    # candidate's subtree was otherwise walked again for every kept ancestor
    # that pops after it (n nested items, quadratic). Every element walked is
    # remembered, not only the walk's root: candidates woken together (at an
    # open table's pop) come outermost first, and each walked all the others'
    # subtrees again (n items in n nested tables, quadratic).
    stamp = sink._moves + sink._open_added
    if sink._closed_stamp != stamp:
        sink._closed_stamp = stamp
        if sink._closed:
            sink._closed = {}
    closed = sink._closed
    if closed and closed.get(id(el)) is el:
        return ("nested" if top is not None else "root"), 0
    walked: list[Element] = []
    stack: list[Node] = list(el.children)
    while stack:
        n = stack.pop()
        if isinstance(n, Element):
            if n.sink_state & _OPEN:
                return "blocked", id(n)
            if closed and closed.get(id(n)) is n:
                continue
            walked.append(n)
            stack.extend(n.children)
            if n.template_contents is not None:
                stack.extend(n.template_contents.children)
    closed[id(el)] = el
    for n in walked:
        closed[id(n)] = n
    return ("nested" if top is not None else "root"), 0


def _clone_target_select(sink: BoundedSink, el: Element) -> Element | None:
    """The open ``select`` around ``el`` if ``el`` is or holds a ``selectedcontent``.

    Until that select is popped, the pop of its selected ``option`` may
    replace the selectedcontent's children with clones of the option's (HTML
    "maybe clone an option into selectedcontent"). (One inside an option is
    disabled and never gets clones; it is held all the same, which changes
    nothing but the time of its hand-over.)
    """
    selects = sink._selects
    if selects and not all(s.sink_state & _OPEN for s in selects):
        selects = sink._selects = [s for s in selects if s.sink_state & _OPEN]
    if not selects:
        return None  # (no climb while no select is open)
    related = el.name == "selectedcontent" and el.namespace == HTML_NS
    node: ParentNode | None = el.parent
    while type(node) is Element:
        if node.namespace == HTML_NS:
            if node.name == "select":
                break
            if node.name == "selectedcontent":
                # inside a selectedcontent: an option's clone replaces its children
                related = True
        node = node.parent
    if type(node) is not Element or not node.sink_state & _OPEN:
        return None
    if not related:
        stack: list[Node] = list(el.children)
        while stack:
            n = stack.pop()
            if type(n) is Element:
                if n.name == "selectedcontent" and n.namespace == HTML_NS:
                    related = True
                    break
                stack.extend(n.children)
    return node if related else None


def _take_blocker(sink: BoundedSink) -> Element | None:
    """The blocking element :func:`_climb` left in ``_blocker`` (then cleared, so that it
    keeps no element alive); a method, as each climb between sets it anew."""
    blocker = sink._blocker
    sink._blocker = None
    return blocker


def _ready_or_hold(sink: BoundedSink, el: Element) -> None:
    if not el.sink_state:
        return
    sink._blocker = None
    kind, blocker = _classify(sink, el)
    proxy = _take_blocker(sink)
    if kind == "root" and sink._kept_open:
        # (normally no kept element is open outside a root candidate: see _open_before)
        before = _open_before(sink, el)
        if before is not None:
            kind, blocker = "blocked", id(before)
            proxy = before  # (it precedes el)
    if kind == "root" or kind == "nested":
        if not el.sink_state & _READY:
            el.sink_state |= _READY
            sink._ready.append(el)
    elif kind == "blocked":
        # (the climb's blocker is el's ancestor; a select's or an open descendant's
        # key is another element's: no proxy)
        _hold(sink, blocker, _Held([el], [], el, sink._epoch, 1), proxy if id(proxy) == blocker else None)
        if sink._order is not None and not _insert(sink, el):
            _start_order(sink, [*_pending(sink), el])
    elif kind == "detached":
        _drop(sink, el)
    else:
        # covered: it will be handed over with the kept element that covers it
        el.sink_state &= ~_PENDING


def _wake_unchecked(sink: BoundedSink, blocker: Element, woken: list[_Held]) -> None:
    """``blocker`` was popped: decide again for the candidates it held.

    Usually only popped elements lie between each of them and an open
    element (the blocker's open parent, or the open element they were
    grouped under), so the rest of their climb is the same for all below
    that element: one climb from there decides whether they are held again,
    and if so by what; then they are passed on as one group under that
    element. Each candidate is otherwise woken and held again at every level
    of n nested blockers above it (quadratic; fuzz finding F7), or at each
    of n misnested end tags whose adoption agency algorithm moves a clone of
    the blocker below the next open element above them. A group's popped
    elements never have children moved away (only an open element's move,
    in the adoption agency algorithm), so it stays whole unless its open
    element's children are moved (:meth:`reparent_children` breaks it).
    The others are classified one by one. Many groups under open elements one
    below the other, held again for one blocker, become one chain
    (:func:`_chain`, :func:`_wake_chain`).
    """
    slow: list[_Held] = []
    # id(open element) -> (that element, the helds below it, how many candidates)
    fast: dict[int, tuple[Element, list[_Held], list[int]]] = {}
    # (a select may hold first: _classify; one candidate alone gains nothing from a group)
    plain = not sink._selectedcontent and (len(woken) > 1 or woken[0].size > 1)
    epoch = sink._epoch
    loose: list[_Held] = []  # groups of chains not held again whole
    for held in woken:
        sink._n_blocked -= held.size
        if held.links >= 0:
            _wake_chain(sink, held, slow, loose)
            continue
        _group(sink, held, plain, fast, slow)
    for held in loose:
        _group(sink, held, True, fast, slow)
    found: list[tuple[Element, list[_Held], int, int, Element | None]] = []
    for under, helds, size in fast.values():
        sink._blocker = None
        # (not checked against the plain climb: mid-wake the remembered climb may answer
        # "not blocked" for a group that is, which only sends it to the slow path below)
        key = _climb_remembered(sink, under, False)[0]
        if key != _NOT_BLOCKED:
            proxy = _take_blocker(sink)  # (an ancestor of under, so of every candidate)
            found.append((under, helds, size[0], key, proxy if id(proxy) == key else None))
        else:
            slow.extend(helds)
    if len(found) >= _CHAIN_MIN and _may_chain(sink):
        found = _chain(sink, found, epoch)
    for under, helds, count, key, proxy in found:
        held = _Held([], helds, under, epoch, count)
        _hold(sink, key, held, proxy)
        roots = sink._roots.get(id(under))
        if roots is None or roots[0] is not under:
            if len(sink._roots) > 64 + sink._n_blocked:
                # (entries of popped elements: their children move no more)
                sink._roots = {k: v for k, v in sink._roots.items() if v[0].sink_state & _OPEN}
            roots = sink._roots[id(under)] = (under, [])
        roots[1].append(held)
    for held in slow:
        for cand in held.members():
            _ready_or_hold(sink, cand)


def _group(
    sink: BoundedSink,
    held: _Held,
    plain: bool,
    fast: dict[int, tuple[Element, list[_Held], list[int]]],
    slow: list[_Held],
) -> None:
    """Put ``held`` in the group of the open element its candidates lie under, if any (:func:`_wake`)."""
    if plain and held.epoch >= 0:
        entry = held.entry
        under: ParentNode | None
        if entry.sink_state & _OPEN:
            under = entry
        else:
            under = entry.parent
            if type(under) is Element and not under.sink_state & _OPEN:
                under = _hop(sink, under)[0]
        if type(under) is Element and under.sink_state & _OPEN:
            group = fast.get(id(under))
            if group is None:
                group = fast[id(under)] = (under, [], [0])
            group[1].append(held)
            group[2][0] += held.size
            return
    slow.append(held)


def _may_chain(sink: BoundedSink) -> bool:
    """Can chains be made or kept whole? Not with an open table (foster parenting moves
    nodes out from under open elements without popping them), template contents
    (their climbs cross to the host) or a possible frameset (it removes the body)."""
    return not (
        sink._open_tables or sink._templates or sink._tentative or sink._selectedcontent or _frameset_possible(sink)
    )


def _chain(
    sink: BoundedSink, found: list[tuple[Element, list[_Held], int, int, Element | None]], epoch: int
) -> list[tuple[Element, list[_Held], int, int, Element | None]]:
    """Make chains of the groups of ``found`` held for one blocker (their ancestor) whose
    open elements lie each below the next; return the others.

    In the adoption agency algorithm's misnested end tags under n open special
    elements, every group below the formatting element's clone is woken at each
    of them and held again for the next clone: n groups for each of n end tags
    (quadratic). A chain is woken as a whole (:func:`_wake_chain`).
    """
    by_key: dict[int, list[int]] = {}
    for i, f in enumerate(found):
        if f[4] is not None:
            by_key.setdefault(f[3], []).append(i)
    taken: set[int] = set()
    for key, idx in by_key.items():
        if len(idx) < _CHAIN_MIN:
            continue
        at = {id(found[i][0]): i for i in idx}
        # The nearest grouped element above each one: one walk per element, stopping at
        # the first grouped or already walked node (linear in the nodes passed).
        above: dict[int, int] = {}
        below: dict[int, int] = {}
        walked: set[int] = set()
        ok = True
        for i in idx:
            node = found[i][0].parent
            while node is not None and id(node) not in at and id(node) not in walked:
                walked.add(id(node))
                node = node.parent
            if node is None:
                continue  # (the top one)
            j = at.get(id(node))
            if j is None or j in below:
                ok = False  # (not one line: two below one element, or a walked node)
                break
            above[i] = j
            below[j] = i
        if not ok or len(above) != len(idx) - 1:
            continue
        bottom = next(i for i in idx if i not in below)
        subs: list[_Held] = []
        step: int | None = bottom
        while step is not None:
            under, helds, size, _key, _proxy = found[step]
            subs.append(_Held([], helds, under, epoch, size))
            step = above.get(step)
        chain = _Held([], subs, subs[-1].entry, epoch, sum(sub.size for sub in subs))
        chain.links = 0
        for sub in subs:
            sink._chained[id(sub.entry)] = (sub, chain)
        _hold(sink, key, chain, subs[-1].entry if key not in sink._blocked else found[idx[0]][4])
        taken.update(idx)
    return [f for i, f in enumerate(found) if i not in taken] if taken else found


def _wake_chain(sink: BoundedSink, chain: _Held, slow: list[_Held], loose: list[_Held]) -> None:
    """Decide again for a chain (:func:`_chain`) whose blocker was popped.

    The climb from an element below another passes it, with every special
    element met by the upper one's climb met too: if the climbs from the top
    and the bottom group's elements are held for one blocker, so are those
    from every element between them. The top groups are freed one by one
    (the adoption agency algorithm moves the top of the chain out from under
    the formatting element), the rest stays one chain. A chain some of whose
    elements were popped or had their children moved (``links``) is broken up.
    """
    subs = chain.groups
    size = chain.size
    chained = sink._chained
    key = _NOT_BLOCKED
    proxy: Element | None = None
    ok = _may_chain(sink)
    while subs and ok:
        sub = subs[-1]
        if sub.epoch < 0:
            # (popped, or its children moved: _unchain) on its own, as before the chain
            subs.pop()
            chain.links -= 1
            size -= sub.size
            loose.append(sub)
            continue
        if not sub.entry.sink_state & _OPEN:
            ok = False
            break
        sink._blocker = None
        key = _climb(sink, sub.entry, False)[0]
        proxy = _take_blocker(sink)
        if key != _NOT_BLOCKED:
            break
        subs.pop()
        chained.pop(id(sub.entry), None)
        size -= sub.size
        slow.append(sub)
    if ok and chain.links == 0 and len(subs) > 1 and id(proxy) == key:
        sink._blocker = None
        deep = _climb(sink, subs[0].entry, False)[0]
        sink._blocker = None
        if deep == key:
            chain.size = size
            chain.entry = subs[-1].entry
            chain.epoch = sink._epoch
            _hold(sink, key, chain, chain.entry if key not in sink._blocked else proxy)
            return
    for sub in subs:
        if chained.get(id(sub.entry), (None,))[0] is sub:
            del chained[id(sub.entry)]
        loose.append(sub)


def _unchain(sink: BoundedSink, element: Element | ParentNode) -> None:
    """``element`` is popped or its children move: a chain through it is broken (:func:`_wake_chain`)."""
    link = sink._chained.pop(id(element), None)
    if link is not None and link[0].entry is element:
        link[0].epoch = -1
        link[1].epoch = -1
        link[1].links += 1


def _hold_unchecked(sink: BoundedSink, key: int, held: _Held, proxy: Element | None) -> None:
    """Hold ``held``'s candidates for the blocker ``key``; ``proxy``: an element at or
    before each of them in document order, or ``None`` (see ``_proxies``)."""
    groups = sink._blocked.get(key)
    if groups is None:
        sink._blocked[key] = [held]
        if proxy is not None:
            sink._proxies[key] = (proxy, sink._epoch)
    else:
        groups.append(held)
        if sink._proxies:
            if proxy is None:
                sink._proxies.pop(key, None)
            else:
                known = sink._proxies.get(key)
                if known is not None and id(known[0]) != key and not _in_chain(sink, held.entry, known[0]):
                    # (a chain's top element is at or before its own candidates only)
                    if id(proxy) == key:
                        sink._proxies[key] = (proxy, known[1])
                    else:
                        del sink._proxies[key]
        # (else an entry stays with the older epoch, or none: a group had no proxy)
    sink._n_blocked += held.size


def _in_chain(sink: BoundedSink, node: Element, top: Element) -> bool:
    """Is ``node`` at or below an element of the chain whose top is ``top``? (A short look up:
    the adoption agency algorithm's misnested end tags hold items right below the chain.)"""
    chained = sink._chained
    cur: ParentNode | None = node
    for _ in range(_MAX_PROXIES):
        if cur is None:
            return False
        link = chained.get(id(cur))
        if link is not None and link[0].entry is cur:
            return link[1].entry is top and link[1].links == 0
        cur = cur.parent
    return False


def _held(sink: BoundedSink) -> list[Element]:
    """Every held candidate still tracked."""
    return [c for groups in sink._blocked.values() for held in groups for c in held.members() if c.sink_state]


def _top_kept(sink: BoundedSink, el: Element) -> Element | None:
    """The outermost kept ancestor of ``el``.

    Remembered for every element climbed (the outermost kept element at or
    above it) until nodes move, are detached or become kept
    (:func:`_forget_runs`): n nested items handed over one by one otherwise
    each climbed all their ancestors.
    """
    tops = sink._tops
    path: list[Element] = []
    top: Element | None = None
    node = el.parent
    while isinstance(node, Element):
        hit = tops.get(id(node))
        if hit is not None and hit[0] is node:
            top = hit[1]
            break
        path.append(node)
        st = node.sink_state
        if st and not st & _INSIDE:
            break  # not kept and no kept ancestor (so an element moved far below one stops near it)
        node = node.parent
    for n in reversed(path):
        if top is None and n.sink_state & _KEPT:
            top = n
        tops[id(n)] = (n, top)
    return top


def _watched(sink: BoundedSink, el: Element) -> bool:
    watch = sink.watch_nested
    if watch is None:
        return False
    top = _nested_top(sink, el)
    return top is not None and watch(el, top)


def _nested_top_shortcut(sink: BoundedSink, el: Element) -> Element | None:
    """:func:`_top_kept` (the outermost kept ancestor of ``el``), through the remembered climbs.

    The climb that decides ``el``'s fate (:func:`_climb`) knows its
    outermost kept ancestor, or else the blocker above it: if that is kept or
    inside a kept subtree, the outermost kept element at or above it is
    ``el``'s, and the climb goes on from there (a few times at most). The
    adoption agency algorithm moves a clone of a formatting element down a
    chain of n open elements at each misnested end tag, with nested items
    below the chain: :func:`_top_kept` climbed it for each item watched or
    handed over (quadratic), as its answers are forgotten at every move.
    (:func:`_top_kept` stops at template contents, the climb goes on to
    their host: with any template made, it is asked.)
    """
    if sink._templates:
        return _top_kept(sink, el)
    node = el
    for _ in range(_MAX_PROXIES):
        sink._blocker = None
        key, top, _crossed, _end = _climb(sink, node.parent, False)
        if key == _NOT_BLOCKED:
            return node if top is None and node is not el and node.sink_state & _KEPT else top
        blocker = _take_blocker(sink)
        if blocker is None or id(blocker) != key or not blocker.sink_state & _INSIDE:
            break  # (a kept element between node and the blocker may be the outermost)
        node = blocker  # kept, or inside a kept subtree: the outermost is at or above it
    top = _top_kept(sink, node)
    return node if top is None and node is not el and node.sink_state & _KEPT else top


def _nested_top(sink: BoundedSink, el: Element) -> Element | None:
    """:func:`_nested_top_shortcut`, checked against its reference walk under the debug switch."""
    got = _nested_top_shortcut(sink, el)
    if sink._check:
        check_top(sink, el, got)
    return got


def _wake(sink: BoundedSink, blocker: Element, woken: list[_Held]) -> None:
    """:func:`_wake_unchecked`; under the debug switch, the groups it passes on whole are checked."""
    if sink._check:
        before = blocked_groups(sink)
        _wake_unchecked(sink, blocker, woken)
        check_woken(sink, before)
    else:
        _wake_unchecked(sink, blocker, woken)


def _classify(sink: BoundedSink, el: Element) -> tuple[str, int]:
    """:func:`_classify_unchecked`; under the debug switch, checked against the classification
    that walks ``el``'s subtree for open elements (which a zero ``_open_inside`` skips)."""
    got = _classify_unchecked(sink, el)
    if sink._check:
        saved = sink._open_inside
        sink._open_inside = saved + 1  # forces the walk for open descendants
        try:
            walked = _classify_unchecked(sink, el)
        finally:
            sink._open_inside = saved
        check_classified(sink, got, walked)
    return got


def _hold(sink: BoundedSink, key: int, held: _Held, proxy: Element | None) -> None:
    """:func:`_hold_unchecked`; under the debug switch a chain is checked first."""
    if sink._check and held.links >= 0:
        check_chain(sink, key, held, _classify)
    _hold_unchecked(sink, key, held, proxy)
