"""Remembered climbs: what holds a popped kept element, found without climbing every ancestor.

Whether a popped kept element is final (the proof in the package docstring)
is decided by a climb from it: an open table above it, or an open formatting
element above an open special one, holds it. A plain climb
(:func:`~.reference.plain_climb`) passes every ancestor, which was quadratic for
n items under n open elements. So each open element on such a climb remembers
the rest of the climb from it (:class:`_Memo`, one per kind: ``_PLAIN``,
``_SEEN_SPECIAL``, ``_NEAREST_TABLE``, ``_OUTER_TABLE``); members whose summary
is their upper neighbour's share one :class:`_Run`, so a change above a run
costs one update; popped stretches are passed in jumps (:func:`_hop`).

Invariant (checked under ``check_shortcuts``: :func:`_climb`,
:func:`_next_table`, :func:`_outer_table`, :func:`_popped_memo`): every
remembered answer equals the plain walk's. It is kept by forgetting: a move or
removal forgets what passes the old parent (:func:`_memo_changed`, called by the
mutation hook of :mod:`.mutation`), a pop forgets the popped element's entries
(:func:`_popped_memo`), and the jump and table caches go whole
(:func:`_forget_runs`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stream_mf2.html.bounded.flags import _KEPT, _MEMO, _NOT_BLOCKED, _OPEN, _TABLE, _host, _is_special
from stream_mf2.html.bounded.reference import check_climb, check_next_table, check_outer_table, check_runs
from stream_mf2.html.dom import (
    HTML_NS,
    DocumentFragment,
    Element,
    ParentNode,
)
from stream_mf2.html.tree_tables import FORMATTING

if TYPE_CHECKING:
    from stream_mf2.html.bounded.sink import BoundedSink


#: Popped ancestors _classify climbs one by one before it climbs whole runs (_hop): the
#: usual short climb costs no more than before, a long one is linear over all candidates.
_INLINE_POPPED: Final = 16


#: Open ancestors _classify climbs one by one before it uses remembered summaries (_summary).
_INLINE_OPEN: Final = 16


#: Open tables _outer_table passes one by one before it uses remembered summaries (a cell
#: is three open elements below its table: about as many open elements as _INLINE_OPEN).
_INLINE_TABLES: Final = 4


#: A remembered climb (climbs._summary): blocking element, whether it is a table,
#: outermost kept element, whether template contents were crossed, the end node.
_Summary = tuple[Element | None, bool, Element | None, bool, ParentNode | None]


#: The kinds of remembered climbs (:class:`_Memo`): those of :func:`_climb` with no
#: open special element met yet, or with one met (``seen_special``), the climb to the
#: nearest open table (:func:`_next_table`), which only tables end, and the
#: climb to the outermost open table (:func:`_outer_table`), where tables
#: count as kept elements do in the others (the outermost one is the answer).
_PLAIN: Final = 0


_SEEN_SPECIAL: Final = 1


_NEAREST_TABLE: Final = 2


_OUTER_TABLE: Final = 3


class _Run:
    """Remembered climbs that share one summary (:func:`_summary`).

    The members form a chain from ``top`` down to ``bottom`` (``_Memo.up`` and
    ``_Memo.down``): the climb from each member below the top reaches the member
    above it through popped elements only, none of them kept and no template
    contents, with the same ``mode``, and its own element is neither kept
    nor a table nor changes the mode; so its summary is the one above's. (For
    ``_NEAREST_TABLE`` and ``_OUTER_TABLE`` only tables count: kept elements and
    template contents do not matter there.)
    A change of the tree above a run then costs one update of the run, not one
    per member: the adoption agency algorithm moves the top of a long chain of
    open elements at every misnested end tag.
    """

    __slots__ = ("bottom", "dependents", "size", "summary", "top")

    def __init__(self, top: _Memo) -> None:
        self.top = top
        self.bottom = top
        self.size = 1
        self.summary: _Summary | None = None
        # Runs whose top's climb goes on at a member of this one, by id; those with a
        # summary were filled from this one's (entries of runs merged away since stay
        # until the next clear: harmless).
        self.dependents: dict[int, _Run] = {}


class _Memo:
    """The remembered climb of one kind (``mode``: ``_PLAIN`` ... ``_OUTER_TABLE``) from one open element.

    A run's top also remembers its own step (``known``): up to the next open
    element (``target``, that element's entry, with the outermost kept element
    ``own_top`` of the element and the popped ones passed, and whether template
    contents were crossed), or, with ``target`` ``None``, the climb's own end
    (``terminal``). A member below the top needs none: its step leads to ``up``.
    """

    __slots__ = ("crossed", "down", "element", "known", "mode", "own_top", "run", "target", "terminal", "up")

    def __init__(self, element: Element, mode: int) -> None:
        self.element = element
        self.mode = mode
        self.up: _Memo | None = None
        self.down: _Memo | None = None
        self.run = _Run(self)
        self.known = False
        self.target: _Memo | None = None
        self.own_top: Element | None = None
        self.crossed = False
        self.terminal: _Summary | None = None


def _climb_remembered(
    sink: BoundedSink, start: ParentNode | None, seen_special: bool
) -> tuple[int, Element | None, bool, ParentNode | None]:
    """The walk up from ``start`` that decides a popped kept element's fate.

    Returns (blocker key or ``_NOT_BLOCKED``, outermost kept ancestor,
    whether a template's contents were crossed, the node the walk ended on).
    An open HTML ``table`` blocks (key: the outermost open table); an open
    formatting element blocks when an open special element lies below it on
    the walk (``seen_special`` says whether one did before ``start``).
    Popped elements only count when kept. The first ``_INLINE_OPEN`` open
    elements are climbed one by one; from there on the climb summaries of
    open elements are remembered (:func:`_summary`), so that n items under n
    open elements cost linear time (fuzz findings F5 and F7).
    """
    node = start
    crossed_fragment = False
    top: Element | None = None
    passed = 0
    climbed = 0
    inline_open = sink._inline_open
    while node is not None:
        if isinstance(node, Element):
            st = node.sink_state
            if st & _OPEN:
                if (climbed := climbed + 1) > inline_open:
                    res = _summary(sink, node, _SEEN_SPECIAL if seen_special else _PLAIN)
                    blocker = res[0]
                    if blocker is not None:
                        blocker = _outer_table(sink, blocker) if res[1] else blocker
                        sink._blocker = blocker
                        return id(blocker), None, False, None
                    if res[2] is not None:
                        top = res[2]
                    return _NOT_BLOCKED, top, crossed_fragment or res[3], res[4]
                if node.namespace == HTML_NS and node.name == "table":
                    # Wait for the outermost open table: every open table above
                    # blocks too, and with the nearest one a candidate in the
                    # innermost of n nested tables was woken and held again at each
                    # of their pops (quadratic). It is woken once that pops, the
                    # moment the last of them pops, as before.
                    sink._blocker = node = _outer_table(sink, node)
                    return id(node), None, False, None
                if _is_special(node):
                    seen_special = True
                elif seen_special and node.namespace == HTML_NS and node.name in FORMATTING:
                    sink._blocker = node
                    return id(node), None, False, None
                if st & _KEPT:
                    top = node
                node = node.parent
            elif passed < _INLINE_POPPED:
                # A popped element: nothing blocks here, only a kept one counts.
                passed += 1
                if st & _KEPT:
                    top = node
                node = node.parent
            else:
                # Past a few popped elements, whole runs of them at once: items
                # held in nested tables climb the same runs again and again;
                # _hop remembers where each ends.
                node, kept = _hop(sink, node)
                if kept is not None:
                    top = kept
        elif isinstance(node, DocumentFragment):
            crossed_fragment = True
            node = _host(node)
        else:
            break
    return _NOT_BLOCKED, top, crossed_fragment, node


def _summary(sink: BoundedSink, element: Element, mode: int) -> _Summary:
    """The climb of kind ``mode`` from the open ``element`` up (see :func:`_climb`), remembered.

    A summary is (blocking element or ``None``, whether it is a table, the
    outermost kept element, whether template contents were crossed, the end
    node); for ``_NEAREST_TABLE`` the blocking element is the nearest open
    table at or above ``element`` (:func:`_next_table`), for ``_OUTER_TABLE``
    the outermost kept element is the outermost open table at or above it
    (:func:`_outer_table`), and the rest is ``False``/``None`` but the end
    node. Each open element climbed gets an
    entry per mode (:class:`_Memo`) that remembers its step up to the next
    open element; entries whose step adds nothing share one summary in a
    :class:`_Run`, and a run's summary is filled from the run above it (which
    records it in ``dependents``). So each open element is climbed once, and
    a change above a chain of open elements costs one run, not the chain. A
    step depends only on the tree between its element and the next open
    element: it is forgotten when nodes move away from there or are detached
    with open elements inside, when its element (or a popped element right
    above) becomes kept (:func:`_memo_changed`), or when an element it
    passes pops; summaries are forgotten with every one filled from them.
    """
    key = id(element) << 2 | mode
    entry = sink._memo.get(key)
    if entry is None or entry.element is not element:
        entry = sink._memo[key] = _Memo(element, mode)
        element.sink_state |= _MEMO
    run = entry.run
    res = run.summary
    if res is not None:
        return res
    # Runs whose summary waits for the run above, lowest first.
    waiting: list[_Run] = []
    while True:
        top = run.top
        if not top.known:
            _step(sink, top)
            run = top.run
            if run.top is not top:
                # merged with the run above: go on from there
                res = run.summary
                if res is not None:
                    break
                continue
        target = top.target
        if target is None:
            res = top.terminal
            assert res is not None
            run.summary = res
            break
        waiting.append(run)
        above = target.run
        res = above.summary
        if res is not None:
            break
        run = above
    # Fill the waiting runs down, each from the one above it.
    for run in reversed(waiting):
        top = run.top
        target = top.target
        assert target is not None and res is not None
        above = target.run
        above.dependents[id(run)] = run
        if res[0] is None:
            t = res[2]
            if t is None:
                t = top.own_top
            if t is not res[2] or (top.crossed and not res[3]):
                res = (None, False, t, True if top.crossed else res[3], res[4])
        run.summary = res
    res = entry.run.summary
    assert res is not None
    return res


def _entry(sink: BoundedSink, element: Element, mode: int) -> _Memo:
    """The entry of the open ``element`` for ``mode``, made if missing."""
    key = id(element) << 2 | mode
    entry = sink._memo.get(key)
    if entry is None or entry.element is not element:
        entry = sink._memo[key] = _Memo(element, mode)
        element.sink_state |= _MEMO
    return entry


def _step(sink: BoundedSink, entry: _Memo) -> None:
    """Climb from the top ``entry``'s element to the next open element; join the run there if it adds nothing."""
    cur = entry.element
    mode = entry.mode
    entry.known = True
    entry.target = None
    table = cur.namespace == HTML_NS and cur.name == "table"
    if table and mode != _OUTER_TABLE:
        entry.terminal = (cur, True, None, False, None)
        return
    tables = mode >= _NEAREST_TABLE
    special = False if tables else _is_special(cur)
    if not special and mode == _SEEN_SPECIAL and cur.namespace == HTML_NS and cur.name in FORMATTING:
        entry.terminal = (cur, False, None, False, None)
        return
    # The popped elements and template contents up to the next open element.
    node: ParentNode | None = cur.parent
    kept: Element | None = None
    crossed = False
    while node is not None:
        if isinstance(node, Element):
            if node.sink_state & _OPEN:
                break
            node, run_kept = _hop(sink, node)
            if run_kept is not None:
                kept = run_kept
        elif isinstance(node, DocumentFragment):
            crossed = True
            node = _host(node)
        else:
            break
    apart = False
    if tables:
        own_top = cur if table else None  # (only tables matter to these climbs)
        crossed = False
        # A formatting element starts a run of its own. The adoption agency algorithm
        # cuts chains below open formatting elements and their furthest blocks, and
        # joins them again: within one long run each cut and merge moved the members
        # of the shorter part, quadratic when they fall in the middle of n open
        # elements ('<table><td>x<b>' + '<div>' * n + ...); the other modes are cut
        # there anyway (a formatting element blocks once a special one was seen).
        apart = cur.namespace == HTML_NS and cur.name in FORMATTING
    else:
        own_top = kept if kept is not None else (cur if cur.sink_state & _KEPT else None)
    entry.own_top = own_top
    entry.crossed = crossed
    if not isinstance(node, Element):
        entry.terminal = (None, False, own_top, crossed, node)
        return
    # (a special element makes the climb above it one that has seen one)
    target = _entry(sink, node, _SEEN_SPECIAL if special else mode)
    entry.target = target
    if (
        own_top is None
        and not crossed
        and not apart
        and target.mode == mode
        and target.down is None
        and target.run is not entry.run
    ):
        _merge(sink, target, entry)


def _members(first: _Memo) -> list[_Memo]:
    out: list[_Memo] = []
    cur: _Memo | None = first
    while cur is not None:
        out.append(cur)
        cur = cur.down
    return out


def _merge(sink: BoundedSink, upper: _Memo, lower: _Memo) -> None:
    """Put run of ``lower`` (its top) below ``upper`` (the bottom of its run): one run.

    The smaller run's members are moved to the other (as in a union-find,
    with the splits of :func:`_cut`): O(1) when it happens near one end of a
    run, but a merge and a cut again and again in the middle of one long run
    cost its length each time (hence the runs of ``_NEAREST_TABLE`` climbs
    stop at formatting elements: :func:`_step`).
    """
    up_run = upper.run
    low_run = lower.run
    upper.down = lower
    lower.up = upper
    if low_run.size <= up_run.size:
        for m in _members(lower):
            m.run = up_run
        up_run.bottom = low_run.bottom
        up_run.size += low_run.size
        up_run.dependents.update(low_run.dependents)
        return
    top = up_run.top
    cur: _Memo | None = top
    while cur is not lower and cur is not None:
        cur.run = low_run
        cur = cur.down
    low_run.top = top
    low_run.size += up_run.size
    low_run.summary = up_run.summary
    low_run.dependents.update(up_run.dependents)
    if low_run.summary is not None and top.known and top.target is not None:
        # (the run above recorded the run whose members moved)
        top.target.run.dependents[id(low_run)] = low_run


def _cut(sink: BoundedSink, upper: _Memo) -> None:
    """Split ``upper``'s run below it; the part below has no summary and its top no step."""
    lower = upper.down
    if lower is None:
        return
    run = upper.run
    upper.down = None
    lower.up = None
    # The shorter part gets a new run: walk both ways at once.
    a: _Memo | None = upper
    b: _Memo | None = lower
    while a is not None and b is not None:
        a = a.up
        b = b.down
    new: _Run
    if a is None:
        # the upper part is the shorter one
        new = _Run(run.top)
        new.bottom = upper
        n = 0
        cur: _Memo | None = run.top
        while cur is not None:
            cur.run = new
            n += 1
            cur = cur.down
        new.size = n
        new.summary = run.summary
        run.top = lower
        run.size -= n
        top = new.top
        if new.summary is not None and top.known and top.target is not None:
            top.target.run.dependents[id(new)] = new
        low_run = run
    else:
        new = _Run(lower)
        new.bottom = run.bottom
        n = 0
        cur = lower
        while cur is not None:
            cur.run = new
            n += 1
            cur = cur.down
        new.size = n
        run.bottom = upper
        run.size -= n
        low_run = new
    # Runs filled from a member of the lower part: record them there.
    up_run = upper.run
    deps = run.dependents
    up_deps: dict[int, _Run] = {}
    low_deps: dict[int, _Run] = {}
    for key, d in deps.items():
        t = d.top
        if t.run is d and t.known and t.target is not None:
            r = t.target.run
            if r is up_run:
                up_deps[key] = d
            elif r is low_run:
                low_deps[key] = d
    up_run.dependents = up_deps
    low_run.dependents = low_deps
    lower.known = False
    _forget_summary(sink, low_run)


def _forget_summary(sink: BoundedSink, run: _Run) -> None:
    """Forget ``run``'s summary and every summary filled from it (transitively)."""
    run.summary = None
    stack = list(run.dependents.values())
    run.dependents = {}
    while stack:
        r = stack.pop()
        if r.summary is not None:
            r.summary = None
            if r.dependents:
                stack.extend(r.dependents.values())
                r.dependents = {}


def _changed_below(sink: BoundedSink, entry: _Memo) -> None:
    """The tree between ``entry``'s element and open elements right below it changed.

    Forget the steps that lead to ``entry`` (the member below it in its run,
    and the tops of runs filled from it), and the summaries built on them.
    """
    if entry.down is not None:
        _cut(sink, entry)
    run = entry.run
    if run.dependents:
        for d in list(run.dependents.values()):
            t = d.top
            if t.target is entry and t.run is d:
                t.known = False
                del run.dependents[id(d)]
                _forget_summary(sink, d)


def _hop(sink: BoundedSink, node: Element) -> tuple[ParentNode | None, Element | None]:
    """The end of the run of popped elements from ``node`` up, and its outermost kept element.

    The end is the first ancestor that is an open element, not an element
    (a template's contents, the document) or ``None``. A popped element
    never opens again, so a run only changes when nodes move, are detached
    or become kept; those clear :attr:`_jumps`. Every start of a run climbed
    here is remembered with the run's end (path compression, as in a
    union-find): n items held in n nested tables each climbed every popped
    table below them again at every classification (fuzz finding F5).
    """
    jumps = sink._jumps
    starts: list[Element] = []
    kept: list[Element | None] = []
    cur: ParentNode | None = node
    while type(cur) is Element and not cur.sink_state & _OPEN:
        starts.append(cur)
        hit = jumps.get(id(cur))
        if hit is not None and hit[0] is cur:
            kept.append(hit[2])
            cur = hit[1]
        else:
            kept.append(cur if cur.sink_state & _KEPT else None)
            cur = cur.parent
    # The outermost kept element of each suffix of the run: the highest one in it.
    outer: Element | None = None
    for i in range(len(starts) - 1, -1, -1):
        if outer is None:
            outer = kept[i]
        jumps[id(starts[i])] = (starts[i], cur, outer)
    return cur, outer


def _outer_table_remembered(sink: BoundedSink, table: Element) -> Element:
    """The outermost open HTML ``table`` above the open ``table`` (climbing as
    :func:`_classify` does), or ``table`` itself.

    Each table remembers an open table above it (the outermost one found
    when it was last asked); a remembered one that has been popped since is
    passed over through its own entry, and the entries on the way are
    shortened to the table found (path compression, as in a union-find).
    Moves forget those entries; so past ``_INLINE_TABLES`` tables the
    remembered climbs of kind ``_OUTER_TABLE`` (:func:`_summary`) answer,
    which moves forget only below the moved nodes: with n nested tables
    open, each new table below n open elements that the adoption agency
    algorithm moves climbed all of those tables again.
    """
    above = sink._above
    visited: list[Element] = []
    cur = table
    inline_tables = sink._inline_tables
    while True:
        if len(visited) >= inline_tables:
            outer = _summary(sink, cur, _OUTER_TABLE)[2]
            if outer is None or outer is cur:  # (never None: cur is an open table)
                outer = cur
                above[id(cur)] = (cur, None)
            else:
                above[id(cur)] = (cur, outer)
            for t in visited:
                above[id(t)] = (t, outer)
            return outer
        hit = above.get(id(cur))
        if hit is not None and hit[0] is cur:
            nxt = hit[1]
        else:
            nxt = _next_table(sink, cur)
        while nxt is not None and not nxt.sink_state & _OPEN:
            # Popped since: the open table nearest above it is the next one.
            hit = above.get(id(nxt))
            nxt = hit[1] if hit is not None and hit[0] is nxt else _next_table(sink, nxt)
        above[id(cur)] = (cur, nxt)
        if nxt is None:
            for t in visited:
                above[id(t)] = (t, cur)
            return cur
        visited.append(cur)
        cur = nxt


def _opened_table(sink: BoundedSink, table: Element) -> None:
    table.sink_state |= _TABLE
    sink._open_tables += 1


def _next_table_remembered(sink: BoundedSink, table: Element) -> Element | None:
    """The nearest open HTML ``table`` above ``table``, if any.

    With no other open table there is none: each of n tables opened under n
    open elements otherwise climbed all of them (quadratic; the remembered
    answers are forgotten at every move of the adoption agency algorithm).
    With another one open, the first ``_INLINE_OPEN`` open elements are
    climbed one by one, and from there on the remembered climbs of kind
    ``_NEAREST_TABLE`` (:func:`_summary`), which moves forget only below the
    moved nodes: each of n tables opened under n open elements, with a
    table open above them and a misnested end tag moving them between two
    tables, climbed all of them too.
    """
    if sink._open_tables <= (1 if table.sink_state & _TABLE else 0):
        return None
    node: ParentNode | None = table.parent
    climbed = 0
    inline_open = sink._inline_open
    while node is not None:
        if isinstance(node, Element):
            if node.sink_state & _OPEN:
                if (climbed := climbed + 1) > inline_open:
                    return _summary(sink, node, _NEAREST_TABLE)[0]
                if node.namespace == HTML_NS and node.name == "table":
                    return node
                node = node.parent
            else:
                node = _hop(sink, node)[0]
        elif isinstance(node, DocumentFragment):
            node = _host(node)
        else:
            return None
    return None


def _forget_runs(sink: BoundedSink) -> None:
    """Nodes moved, were detached or became kept: the remembered runs (:func:`_hop`) and
    tables (:func:`_outer_table`) may be wrong (remembered climbs: :func:`_memo_changed`)."""
    if sink._jumps:
        sink._jumps = {}
    if sink._above:
        sink._above = {}
    if sink._tops:
        sink._tops = {}
    if sink._closed:
        sink._closed = {}


def _forget_memo(sink: BoundedSink) -> None:
    for entry in sink._memo.values():
        entry.element.sink_state &= ~_MEMO
    sink._memo = {}


def _popped_memo_remembered(sink: BoundedSink, element: Element) -> None:
    """``element`` was popped: its remembered climbs, and those that lead to it, are wrong.

    Usually it is the deepest open element on its remembered climbs, so no
    other entry leads to it.
    """
    memo = sink._memo
    base = id(element) << 2
    for key in (base | _PLAIN, base | _SEEN_SPECIAL, base | _NEAREST_TABLE, base | _OUTER_TABLE):
        entry = memo.get(key)
        if entry is not None and entry.element is element:
            run = entry.run
            up = entry.up
            if entry.down is None and up is not None and not run.dependents:
                # The usual case: the bottom of its run, nothing filled from it.
                up.down = None
                entry.up = None
                run.bottom = up
                run.size -= 1
                del memo[key]
                continue
            _changed_below(sink, entry)
            up = entry.up
            if up is not None:
                _cut(sink, up)
            else:
                # The top of its run (now alone in it): the run it was filled from no
                # longer lists it, else the run above a chain that the adoption agency
                # algorithm keeps moving collects a popped clone at every move.
                target = entry.target
                if entry.known and target is not None:
                    target.run.dependents.pop(id(entry.run), None)
                entry.known = False
            _forget_summary(sink, entry.run)
            del memo[key]


def _memo_changed(sink: BoundedSink, node: ParentNode | None, own: bool) -> None:
    """Remembered climbs through ``node`` may be wrong: forget them.

    Nodes were moved from ``node`` or detached from it, or ``node`` became
    kept (``own``). Every remembered step that passes ``node`` leads to the
    entry of the nearest open element at or above it; that one's own step
    stays right, unless it is ``node`` itself and ``own``.
    """
    while node is not None:
        if type(node) is Element:
            if node.sink_state & _OPEN:
                break
            own = False
            node = node.parent
        elif type(node) is DocumentFragment:
            own = False
            node = _host(node)
        else:
            return
    if node is None:
        return
    memo = sink._memo
    base = id(node) << 2
    for key in (base | _PLAIN, base | _SEEN_SPECIAL, base | _NEAREST_TABLE, base | _OUTER_TABLE):
        entry = memo.get(key)
        if entry is not None and entry.element is node:
            _changed_below(sink, entry)
            if own:
                up = entry.up
                if up is not None:
                    _cut(sink, up)  # (forgets the step of the part below, this entry's)
                else:
                    entry.known = False
                    _forget_summary(sink, entry.run)


# The shortcuts as the sink calls them: with check_shortcuts, each answer is asserted
# against its reference walk (reference.py).


def _climb(
    sink: BoundedSink, start: ParentNode | None, seen_special: bool
) -> tuple[int, Element | None, bool, ParentNode | None]:
    """:func:`_climb_remembered`, checked against :func:`~.reference.plain_climb` under the debug switch."""
    got = _climb_remembered(sink, start, seen_special)
    if sink._check and not seen_special and sink.on_nested is None:
        # (with the nested hand-over on, a nested candidate's remembered climb can miss an
        # open formatting element above open special ones that a plain climb finds: an
        # open finding, docs/internals/bounded-sink.md, so not asserted there yet)
        check_climb(sink, start, got)
    return got


def _outer_table(sink: BoundedSink, table: Element) -> Element:
    """:func:`_outer_table_remembered`, checked under the debug switch."""
    got = _outer_table_remembered(sink, table)
    if sink._check:
        check_outer_table(sink, table, got)
    return got


def _next_table(sink: BoundedSink, table: Element) -> Element | None:
    """:func:`_next_table_remembered`, checked under the debug switch."""
    got = _next_table_remembered(sink, table)
    if sink._check:
        check_next_table(sink, table, got)
    return got


def _popped_memo(sink: BoundedSink, element: Element) -> None:
    """:func:`_popped_memo_remembered`, the runs checked under the debug switch."""
    _popped_memo_remembered(sink, element)
    if sink._check:
        check_runs(sink)
