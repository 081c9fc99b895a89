"""Handing over: ready items leave in document order, kept subtrees and nested items alike.

Invariant: ``on_complete`` sees outermost kept subtrees in document order,
each once, when final. A ready item goes when no held item precedes it: one
comparison with each blocker's *proxy* tells (:func:`_before_held`, checked
against document positions under ``check_shortcuts``), else the kept order
decides (:mod:`.docorder`). With ``on_nested``, :func:`_emit_nested` hands over
a nested item inside its outermost kept ancestor, and applies the consumer's
answer (keep, empty, remove); :func:`_alone` tells whether that ancestor is
the next outermost subtree (checked against :func:`~.reference.plain_alone`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stream_mf2.html.bounded.climbs import _forget_runs, _memo_changed
from stream_mf2.html.bounded.docorder import (
    _before,
    _end_order,
    _in_document_order,
    _insert_all,
    _outermost_open,
    _pending,
    _start_order,
)
from stream_mf2.html.bounded.flags import (
    _INSIDE,
    _MAX_PROXIES,
    _PENDING,
    _READY,
    NESTED_EMPTY,
    NESTED_KEEP,
    NESTED_REMOVE,
    _inside,
)
from stream_mf2.html.bounded.hold import _held, _nested_top
from stream_mf2.html.bounded.reference import check_alone, check_before_held, check_order, check_tops
from stream_mf2.html.bounded.release import _cascade, _forget_tops, _untrack
from stream_mf2.html.bounded.selected import _lose_items
from stream_mf2.html.dom import (
    Element,
    Node,
    ParentNode,
    Text,
)
from stream_mf2.html.sink import (
    detach,
)

if TYPE_CHECKING:
    from stream_mf2.html.bounded.sink import BoundedSink


def _before_held_shortcut(sink: BoundedSink, ready: list[Element]) -> bool:
    """Is each of ``ready`` before every held candidate in document order?

    Told by one comparison with each blocker's proxy (an ancestor of its
    candidates, or an element before them) when every blocker has one and no
    node moved since. A root candidate the adoption agency algorithm moved
    out of a formatting element lies right before that element's clone, whose
    items are held deep below it: a comparison with those items climbed the
    whole chain of open elements between them, for each of n misnested end
    tags (quadratic), and the kept order was made again after each move.
    """
    proxies = sink._proxies
    if len(proxies) != len(sink._blocked) or len(proxies) > _MAX_PROXIES:
        return False
    epoch = sink._epoch
    for _proxy, at in proxies.values():
        if at != epoch:
            return False
    for el in ready:
        for proxy, _at in proxies.values():
            if not _before(el, proxy):
                return False
    return True


def _hand_over_unchecked(sink: BoundedSink) -> None:
    ready = sink._ready
    if sink._n_blocked == 0 and sink._order is None:
        if ready:
            if len(ready) > 1:
                ready = _in_document_order(ready)
            sink._ready = []
            for el in ready:
                _emit(sink, el)
        return
    if ready and not sink._waiting and _before_held(sink, ready):
        # Before everything that waits: handed over now, the kept order (if any) unchanged.
        if len(ready) > 1:
            ready = _in_document_order(ready)
        sink._ready = []
        for el in ready:
            _emit(sink, el)
        return
    if sink._order is None:
        if sink._n_blocked + len(ready) > sink.max_pending:
            _force(sink, ready)
            return
        # Something is held: from now on the pending items are kept in document
        # order as they come (a sort of all of them at every hand-over was quadratic).
        sink._ready = []
        _start_order(sink, ready + _held(sink))
        sink._waiting = len(ready)
    else:
        sink._ready = []
        if sink._order_moves == sink._moves and _insert_all(sink, ready):
            sink._waiting += len(ready)
        else:
            # Nodes moved (or an order could not be told): sort everything again.
            _start_order(sink, _pending(sink) + ready)
            sink._waiting = sum(1 for el in sink._order or () if el.sink_state & _READY)
        if sink._n_blocked + sink._waiting > sink.max_pending:
            _force(sink, [])
            return
    # Ready items before the first held one (document order) go now, the rest wait.
    order = sink._order
    assert order is not None
    emit: list[Element] = []
    i = 0
    for el in order:
        st = el.sink_state
        if st & _PENDING:
            if not st & _READY:
                break  # held
            emit.append(el)
        i += 1
    if i:
        del order[:i]
    sink._waiting -= len(emit)
    if not order:
        sink._order = None
        sink._waiting = 0
    for el in emit:
        _emit(sink, el)


def _force(sink: BoundedSink, ready: list[Element]) -> None:
    """More than ``max_pending`` items wait: hand every one over now, in document order."""
    everything = ready + _held(sink)
    if sink._order is not None:
        everything += [el for el in sink._order if el.sink_state & _PENDING]
        _end_order(sink)
    sink._blocked = {}
    sink._proxies = {}
    sink._n_blocked = 0
    sink._roots = {}
    sink._chained = {}
    sink._ready = []
    unique = list({id(el): el for el in everything}.values())
    forced = len(unique) - sum(1 for el in unique if el.sink_state & _READY)
    if forced and not sink.forced:
        # Said once per document: a long table of items forces a hand-over every
        # max_pending items, and one line tells the reader all there is to know.
        sink.notes.append(
            f"more than {sink.max_pending} completed subtrees waited for their document order "
            "(max_pending_items); they were handed over in the order they had then, which "
            "differs from the full document only if content was later placed before them "
            "(foster-parented before an open table, or moved by misnested tags)"
        )
    sink.forced += forced
    for el in _in_document_order(unique):
        if el.sink_state:
            _emit(sink, el)


def _emit(sink: BoundedSink, el: Element) -> None:
    if not el.sink_state:
        return  # a nested candidate whose outermost kept ancestor was handed over first
    el.sink_state &= ~(_READY | _PENDING)
    parent = el.parent
    if parent is not None and _inside(parent):
        _emit_nested(sink, el)
        return
    released = sink.on_complete(el)
    parent = el.parent
    if sink._watch_open and type(parent) is Element:
        _lose_items(sink, parent)
    if sink._jumps or sink._above or sink._tops or sink._closed:
        _forget_runs(sink)  # (_closed: only nested candidates' subtrees are looked up again)
    if sink._memo and sink._open_inside:
        _memo_changed(sink, parent, False)  # (a forced hand-over: open elements inside)
    if sink._alone_seen:
        sink._alone_seen = {}
    detach(el)
    # Parent links are cleared only when nothing can still look up through them:
    # the consumer said it is done, and no held candidate (or nested hand-over)
    # could still be placed in document order by its path (_doc_position).
    _untrack(sink, el, unlink=bool(released) and not sink._blocked)
    if parent is not None:
        _cascade(sink, parent)


def _alone_shortcut(sink: BoundedSink, top: Element) -> bool:
    """Is ``top`` the only outermost kept subtree not handed over yet (open or held)?

    Only then is ``top`` sure to be the next outermost subtree handed over.
    """
    outer = _outermost_open(sink)
    for el in outer.values():
        if el is not top:
            parent = el.parent
            if parent is None or not _inside(parent):
                return False
    # (held items: a group below an open element inside a kept subtree holds only
    # nested candidates, and the kept order's items are held ones unless some wait
    # ready: n nested items handed over one by one each looked at every held one)
    cands = [*sink._ready, *sink._recheck]
    if sink._waiting and sink._order is not None:
        cands += sink._order
    for cand in cands:
        if cand is not top and cand.sink_state:
            parent = cand.parent
            if parent is None or not _inside(parent):
                return False
    # Held groups found nested before are not looked at again until flags or parents
    # may change (_alone_seen): a blocker (an open table) holding n nested candidates,
    # one group each, was looked at whole for each of n items handed over.
    seen = sink._alone_seen
    blocked = sink._blocked
    if len(seen) > 2 * len(blocked) + 16:
        seen = sink._alone_seen = {k: v for k, v in seen.items() if blocked.get(k) is v[0]}
    for key, groups in blocked.items():
        known = seen.get(key)
        start = known[1] if known is not None and known[0] is groups else 0
        if start == len(groups):
            continue
        stack = groups[start:]
        clean = True  # (top itself held: the answer holds for this top only)
        while stack:
            held = stack.pop()
            if not held.items and held.epoch >= 0 and held.entry.sink_state & _INSIDE:
                continue  # (every candidate lies below the entry: module _Held)
            for cand in held.items:
                if cand is top:
                    clean = False
                elif cand.sink_state:
                    parent = cand.parent
                    if parent is None or not _inside(parent):
                        return False
            stack += held.groups
        if clean:
            seen[key] = (groups, len(groups))
    return True


def _emit_nested(sink: BoundedSink, el: Element) -> None:
    on_nested = sink.on_nested
    if on_nested is None:
        return
    top = _nested_top(sink, el)
    if top is None:
        return
    action = on_nested(el, top, _alone(sink, top))
    if action != NESTED_KEEP:
        # Removing a subtree changes no other element's outermost kept ancestor, nor
        # any run of popped elements that starts outside it: what _top_kept and _hop
        # remembered stays true but for the removed nodes (forgotten below).
        # Forgetting it all made n items nested n deep climb n each.
        tops, jumps = sink._tops, sink._jumps
        _forget_runs(sink)
        sink._tops, sink._jumps = tops, jumps
        if sink._memo and sink._open_inside:
            _memo_changed(sink, el, False)
    if action == NESTED_EMPTY:
        if sink._alone_seen:
            sink._alone_seen = {}  # (children lose their parent link)
        children = el.children
        el.children = []
        for c in children:
            c.parent = None
            _forget_tops(sink, c)
            _untrack(sink, c)
    elif action == NESTED_REMOVE:
        parent = el.parent
        if parent is not None:
            siblings = parent.children
            i = _sibling_index(sink, parent, siblings, el)
            if i >= 0:
                if i > 0 and type(siblings[i - 1]) is Text:
                    i -= 1
                    siblings[i].parent = None
                    del siblings[i]  # text is not counted in max_kept_nodes
                del siblings[i]
                sink._removed_parent = id(parent)
                sink._removed_index = i
            el.parent = None
        _forget_tops(sink, el)
        _untrack(sink, el)


def _sibling_index(sink: BoundedSink, parent: ParentNode, siblings: list[Node], el: Element) -> int:
    """The index of ``el`` in ``parent``'s ``siblings``, looked for from the last removal's place.

    Nested items are handed over in document order: the next one removed from
    the same parent is at or after the index the last one left (its siblings
    before it stay, as placeholders or kept). Looking from either end instead
    passed every sibling left before or after it, for each item (n items
    removed from one parent: quadratic). The place is a guess checked by
    identity, so a stale one only costs the fallback scan. -1: not there.
    """
    n = len(siblings)
    start = sink._removed_index if sink._removed_parent == id(parent) else n
    if start > n:
        start = n
    for i in range(start, n):
        if siblings[i] is el:
            return i
    for i in range(start - 1, -1, -1):
        if siblings[i] is el:
            return i
    return -1  # (not there: only its parent link goes, as detach() does)


def _before_held(sink: BoundedSink, ready: list[Element]) -> bool:
    """:func:`_before_held_shortcut`, checked against its reference walk under the debug switch."""
    got = _before_held_shortcut(sink, ready)
    if sink._check:
        check_before_held(sink, ready, got)
    return got


def _alone(sink: BoundedSink, top: Element) -> bool:
    """:func:`_alone_shortcut`, checked against its reference walk under the debug switch."""
    got = _alone_shortcut(sink, top)
    if sink._check:
        check_alone(sink, top, got)
    return got


def _hand_over(sink: BoundedSink) -> None:
    """:func:`_hand_over_unchecked`, the kept order checked under the debug switch."""
    _hand_over_unchecked(sink)
    if sink._check:
        check_order(sink)
        check_tops(sink)
