"""``selectedcontent``: what HTML's "maybe clone an option into selectedcontent" needs.

Options and ``selectedcontent`` elements outside kept subtrees are released
when popped, so the stored tree cannot tell a select's selected option or its
first ``selectedcontent``: :class:`_SelectRecord` records them as they are made
(document order). The option a held kept ``selectedcontent`` may still copy is
stored while open (``_CAPTURE``, counted against ``max_kept_nodes``); every
other open option outside kept subtrees is watched (``_WATCH``) and what it
loses is remembered (``_LOST``), so a lossy copy is noted
(:data:`NOTE_OPTION_LOST`, :data:`NOTE_CLONED_ITEMS`, :data:`NOTE_UNSURE`).
The package docstring lists this among the known differences from the full DOM.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stream_mf2.html.bounded.climbs import _forget_runs
from stream_mf2.html.bounded.flags import (
    _CAPTURE,
    _CAPTURE_OR_WATCH,
    _INSIDE,
    _ITEMS,
    _KEPT,
    _LEAF_SET_UP,
    _LOST,
    _LOST_ALL,
    _OPEN,
    _TRACKED,
    _WATCH,
)
from stream_mf2.html.bounded.release import _cascade, _release_popped
from stream_mf2.html.dom import (
    HTML_NS,
    Element,
    Node,
    ParentNode,
)
from stream_mf2.html.sink import (
    append_child,
    clone_option_into,
    detach,
    insert_child_before,
    maybe_clone_option,
    selectedcontent_disabled,
)

if TYPE_CHECKING:
    from stream_mf2.html.bounded.sink import BoundedSink


#: Notes of a clone into a kept ``selectedcontent`` from an option whose content was not all kept.
NOTE_CLONED_ITEMS: Final = (
    "an <option> holding items was cloned into a <selectedcontent> outside items:"
    " the copies of those items (items of the full document) are not given"
)


NOTE_UNSURE: Final = (
    "a <select> had some of its <option> elements replaced with a copy of one (they lay in its"
    " <selectedcontent>): which option is selected next is not known outside items, so later copies may differ"
)


NOTE_OPTION_LOST: Final = (
    "an <option> cloned into an item <selectedcontent> had content outside items that was"
    " not kept (misnested tags moved it there, or it came before), so the copy may lack some of it"
)


class _SelectRecord:
    """What the HTML "maybe clone an option into selectedcontent" step reads of one ``select``.

    Options and ``selectedcontent`` elements outside kept subtrees are released
    when popped, so the stored tree cannot tell which option is the selected one
    (the first, or the last with ``selected``) or which ``selectedcontent`` is
    the first, and whether it is enabled (HTML "get a select's enabled
    selectedcontent"): the sink records them as they are made (in document order).
    """

    __slots__ = (
        "first",
        "first_sc",
        "in_target",
        "lossy",
        "options",
        "sc_moves",
        "select",
        "selected",
        "selectedcontent",
        "unsure",
    )

    def __init__(self, select: Element) -> None:
        self.select = select
        self.first: Element | None = None
        self.selected: Element | None = None
        # The first selectedcontent made inside the select (nested selects' too), and the
        # one options are cloned into: the same, or None while the first is disabled
        # (_target); the tree builder's move count when that was decided.
        self.first_sc: Element | None = None
        self.selectedcontent: Element | None = None
        self.sc_moves = 0
        # Options made since the last clone replaced the selectedcontent's children,
        # and how many of them were made inside it (that clone removed those).
        self.options = 0
        self.in_target = 0
        # A clone removed some options but not all: the first or selected one is not known.
        self.unsure = False
        # The note the last clone into :attr:`selectedcontent` calls for (a later clone replaces
        # it, so it is given when the select is done with: _flush).
        self.lossy: str | None = None

    def replaced(self) -> None:
        """A clone replaced the children of :attr:`selectedcontent` (and so the options inside it)."""
        if self.in_target:
            if self.in_target == self.options:
                # every option made so far lay inside it: none is left
                self.first = self.selected = None
                self.options = self.in_target = 0
            else:
                self.unsure = True

    def chosen(self) -> Element | None:
        """The select's selected option so far (the last with ``selected``, else the first)."""
        return self.selected if self.selected is not None else self.first


def _add_select(sink: BoundedSink, select: Element) -> None:
    selects = sink._selects
    selects.append(select)
    if len(selects) > sink._selects_cap:
        # (popped selects are dropped here too, so that many selects keep few entries)
        selects = sink._selects = [s for s in selects if s.sink_state & _OPEN]
        sink._selects_cap = max(16, 2 * len(selects))


def _select_of(parent: ParentNode | None) -> Element | None:
    """The nearest HTML ``select`` from ``parent`` up (not through template contents)."""
    node = parent
    while type(node) is Element:
        if node.name == "select" and node.namespace == HTML_NS:
            return node
        node = node.parent
    return None


def _record(sink: BoundedSink, select: Element) -> _SelectRecord:
    records = sink._records
    rec = records.get(id(select))
    if rec is None or rec.select is not select:
        if len(records) >= sink._records_cap:
            # the records of popped selects are no longer read (their options are popped)
            for r in records.values():
                if not r.select.sink_state & _OPEN:
                    _flush(sink, r)
            records = sink._records = {k: r for k, r in records.items() if r.select.sink_state & _OPEN}
            sink._records_cap = max(16, 2 * len(records))
        rec = records[id(select)] = _SelectRecord(select)
    return rec


def _chosen(sink: BoundedSink, option: Element) -> tuple[Element, _SelectRecord] | None:
    """``option``'s single-value select and its record, if ``option`` is that select's selected one so far.

    As HTML "maybe clone an option into selectedcontent": the option's nearest
    ``select`` ancestor, unless a ``datalist``, ``option`` or ``hr`` comes first.
    """
    node: ParentNode | None = option.parent
    while type(node) is Element:
        if node.namespace == HTML_NS:
            if node.name == "select":
                if "multiple" in node.attrs:
                    return None
                rec = sink._records.get(id(node))
                if rec is None or rec.select is not node:
                    return None
                if rec.unsure and _clone_matters(sink, option, rec):
                    _note(sink, NOTE_UNSURE)
                if rec.chosen() is not option:
                    return None
                return node, rec
            if node.name in ("datalist", "option", "hr"):
                return None
        node = node.parent
    return None


def _clone_matters(sink: BoundedSink, option: Element, rec: _SelectRecord) -> bool:
    """Could a clone of ``option`` into ``rec``'s selectedcontent (or its absence) change kept content?"""
    target = _target(sink, rec)
    if target is None:
        return False
    return bool(
        target.sink_state & _INSIDE or option.sink_state & _INSIDE or _holds_kept(option) or _holds_kept(target)
    )


def _note_option(sink: BoundedSink, option: Element, parent: ParentNode) -> None:
    """Remember the first and the last selected option of ``option``'s select.

    Options outside kept subtrees are released when popped, so the stored
    tree cannot tell which option of a select is its selected one.
    """
    found = _select_above(sink, parent)
    if found is None:
        return
    select, inside = found
    rec = _record(sink, select)
    if rec.first is None:
        rec.first = option
    if "selected" in option.attrs:
        rec.selected = option
    rec.options += 1
    if inside is not None and inside is _target(sink, rec):
        rec.in_target += 1


def _select_above(sink: BoundedSink, parent: ParentNode) -> tuple[Element, Element | None] | None:
    """The nearest ``select`` at or above ``parent``, and the nearest ``selectedcontent`` below it on the way.

    Remembered for every element climbed until a node moves (``_moves``): options
    nested n deep (in other options' content) each climbed every ancestor otherwise.
    """
    if sink._select_memo_moves != sink._moves:
        sink._select_memo = {}
        sink._select_memo_moves = sink._moves
    memo = sink._select_memo
    path: list[Element] = []
    node: ParentNode | None = parent
    found: tuple[Element, Element | None] | None = None
    while type(node) is Element:
        hit = memo.get(id(node))
        if hit is not None and hit[0] is node:
            found = hit[1]
            break
        if node.namespace == HTML_NS and node.name == "select":
            found = (node, None)
            memo[id(node)] = (node, found)
            break
        path.append(node)
        node = node.parent
    for el in reversed(path):
        if found is not None and el.namespace == HTML_NS and el.name == "selectedcontent":
            found = (found[0], el)  # (the nearest one on the way up is the lowest)
        memo[id(el)] = (el, found)
    if len(memo) > 4096 + 2 * sink.tracked:
        # (dropped elements' entries: start again; the open ones are at most
        # ``tracked``, so rebuilding them is paid for by the entries added since)
        sink._select_memo = {}
    return found


def _sc_context(sink: BoundedSink, parent: ParentNode | None) -> tuple[Element | None, bool]:
    """For a ``selectedcontent`` placed in ``parent``: its nearest ``select``, and whether it is disabled.

    HTML gives a selectedcontent a *disabled* state from its ancestors (see
    :func:`~stream_mf2.html.sink.selectedcontent_disabled`): an ``option`` or a
    ``selectedcontent`` above it, or a second ``select``. Remembered for every
    element climbed until a node moves (``_moves``), as :func:`_select_above` does.
    """
    if sink._sc_memo_moves != sink._moves:
        sink._sc_memo = {}
        sink._sc_memo_moves = sink._moves
    memo = sink._sc_memo
    path: list[Element] = []
    node: ParentNode | None = parent
    select: Element | None = None
    disabled = False
    while type(node) is Element:
        hit = memo.get(id(node))
        if hit is not None and hit[0] is node:
            select, disabled = hit[1], hit[2]
            break
        path.append(node)
        node = node.parent
    for el in reversed(path):
        if el.namespace == HTML_NS:
            name = el.name
            if name == "select":
                disabled = disabled or select is not None
                select = el
            elif name == "option" or name == "selectedcontent":
                disabled = True
        memo[id(el)] = (el, select, disabled)
    if len(memo) > 4096 + 2 * sink.tracked:
        sink._sc_memo = {}  # (as in _select_above)
    return select, disabled


def _note_selectedcontent(sink: BoundedSink, selectedcontent: Element, parent: ParentNode) -> None:
    """Remember the first ``selectedcontent`` of the selects around it, and whether it is enabled.

    HTML clones an option into its select's *first* selectedcontent (in tree
    order, nested selects' included), and only if that one is enabled.
    """
    select, disabled = _sc_context(sink, parent)
    while select is not None:
        rec = _record(sink, select)
        if rec.first_sc is not None:
            break  # (so had every select above it: it came earlier inside them too)
        rec.first_sc = selectedcontent
        rec.selectedcontent = None if disabled else selectedcontent
        rec.sc_moves = sink._moves
        disabled = True  # (for the selects further up: a second select above it)
        select = _sc_context(sink, select.parent)[0]


def _target(sink: BoundedSink, rec: _SelectRecord) -> Element | None:
    """The enabled selectedcontent of ``rec``'s select (None: none, or its first one is disabled).

    A move (the adoption agency algorithm) can change a stored selectedcontent's
    ancestors, and HTML decides its disabled state again when it is moved: after
    moves it is read again from the stored ancestors (a released one stays as it was).
    """
    first = rec.first_sc
    if first is not None and rec.sc_moves != sink._moves:
        rec.sc_moves = sink._moves
        if first.parent is not None and first.sink_state:
            rec.selectedcontent = None if selectedcontent_disabled(first) else first
    return rec.selectedcontent


def _note_placed(sink: BoundedSink, el: Element, parent: ParentNode) -> None:
    """An ``option`` or ``selectedcontent`` made by :meth:`create_element` was placed in ``parent``."""
    if el.namespace == HTML_NS:
        if el.name == "option":
            _note_option(sink, el, parent)
        else:
            _note_selectedcontent(sink, el, parent)


def _may_clone(sink: BoundedSink, option: Element, parent: ParentNode) -> bool:
    """Can the new ``option`` (outside kept subtrees, going into ``parent``) be cloned into a held selectedcontent?

    True if something kept is held for its select, the select has an enabled
    selectedcontent and the option is that select's selected one so far (the first option, or the last with a
    ``selected`` attribute): then its content is stored until it is popped
    (flag ``_CAPTURE``), since its pop clones that content. A later option
    that takes over is stored in turn.
    """
    if option.namespace != HTML_NS:
        return False
    node: ParentNode | None = parent
    while type(node) is Element:
        if node.namespace == HTML_NS:
            if node.name == "select":
                if id(node) not in sink._blocked or "multiple" in node.attrs:
                    return False
                rec = sink._records.get(id(node))
                return (
                    rec is not None and rec.select is node and rec.chosen() is option and _target(sink, rec) is not None
                )
            if node.name in ("datalist", "option", "hr"):
                return False
        node = node.parent
    return False


def _watch(sink: BoundedSink, option: Element) -> None:
    """Add ``option`` to the open watched options (dropping stale entries at the end first)."""
    watch = sink._watch_open
    while watch and watch[-1].sink_state & (_WATCH | _OPEN) != _WATCH | _OPEN:
        watch.pop()
    watch.append(option)


def _new_outside(sink: BoundedSink, el: Element, parent: ParentNode) -> None:
    """A new element outside kept subtrees, while an option is watched or something is held.

    Inside a watched option it is watched too (its content is not stored,
    but losing it is remembered); inside a stored option, or as an option a
    held selectedcontent may be cloned from, it is stored.
    """
    watch = sink._watch_open
    while watch and watch[-1].sink_state & (_WATCH | _OPEN) != _WATCH | _OPEN:
        watch.pop()  # (popped, or an option that proved kept or inside a kept subtree)
    pst = parent.sink_state if type(parent) is Element else 0
    if pst & _WATCH:
        el.sink_state |= _WATCH
    if sink._blocked and (
        pst & _CAPTURE or (el.name == "option" and el.namespace == HTML_NS and _may_clone(sink, el, parent))
    ):
        # (only while something is held: a selectedcontent waits for its select)
        _capture(sink, el)


def _maybe_capture(sink: BoundedSink, el: Element, parent: ParentNode) -> None:
    """A new element, not kept, was placed outside kept subtrees (not by :meth:`create_element_in`).

    An option or selectedcontent is recorded (:func:`_note_placed`); then as
    :func:`_new_outside` (foster parenting, foreign content, template contents).
    """
    outside = el.sink_state & (_TRACKED | _INSIDE) == _TRACKED
    if el.name in _LEAF_SET_UP and el.namespace == HTML_NS:
        _note_placed(sink, el, parent)  # (kept ones too)
        if el.name == "option" and outside:
            el.sink_state |= _WATCH
            _watch(sink, el)
    if outside and (sink._blocked or sink._watch_open):
        _new_outside(sink, el, parent)


def _outside_node(sink: BoundedSink, parent: Element, node: Node, ref: Node | None) -> None:
    """A comment went into a stored (it is stored too) or a watched option outside kept subtrees."""
    if parent.sink_state & _CAPTURE:
        if ref is None:
            append_child(parent, node)
        else:
            insert_child_before(parent, node, ref)
    else:
        _lose(sink)


def _lose(sink: BoundedSink, flags: int = _LOST) -> None:
    """Content inside a watched option was not stored: remember it on the open watched options.

    (Every open one: an option inside another's content is part of both.)
    """
    # From the newest: the open options already marked by a _lose are the oldest
    # ones, so n nested open options cost O(1) per call once marked, not O(n).
    for option in reversed(sink._watch_open):
        st = option.sink_state
        if st & (_WATCH | _OPEN) == _WATCH | _OPEN:
            if st & _LOST_ALL and flags == _LOST:
                break
            option.sink_state = st | flags | _LOST_ALL if flags == _LOST else st | flags


def _lose_items(sink: BoundedSink, parent: Element) -> None:
    """A kept subtree under ``parent`` was handed over: open watched options above it no longer hold it."""
    node: ParentNode | None = parent
    while type(node) is Element:
        if node.sink_state & (_WATCH | _OPEN) == _WATCH | _OPEN and node.name == "option":
            node.sink_state |= _LOST | _ITEMS
        node = node.parent


def _moved(sink: BoundedSink, node: Node, parent: ParentNode, fresh: bool = False) -> None:
    """The tree builder moved ``node`` (outside kept subtrees) under ``parent``.

    ``fresh``: ``node`` is a clone the adoption agency algorithm filled with
    moved nodes and places now; it takes the flags of its new parent. A node
    moved into a stored or watched option from elsewhere held content that
    was not stored (remembered as lost); one moved out of a stored option is
    no longer stored. A clone being filled (not placed yet) waits for its place.
    """
    if type(node) is not Element or node.sink_state & _INSIDE:
        return
    if type(parent) is Element:
        if parent.parent is None:
            return  # an adoption agency clone being filled: decided when it is placed
        pst = parent.sink_state
    else:
        pst = 0
    inner = pst & _CAPTURE_OR_WATCH and not pst & _INSIDE
    if fresh:
        if inner:
            if pst & _WATCH:
                node.sink_state |= _WATCH
            if pst & _CAPTURE:
                _capture(sink, node)
        else:
            for c in node.children:
                if type(c) is Element and c.sink_state & _CAPTURE:
                    _end_capture(sink, c)
    elif inner:
        if not node.sink_state & _CAPTURE_OR_WATCH:
            _lose(sink)  # (from outside any option: what it held was not stored)
    elif node.sink_state & _CAPTURE:
        _end_capture(sink, node)


def _capture(sink: BoundedSink, el: Element) -> None:
    """A new element went into a stored option: store it too (see :func:`_may_clone`)."""
    el.sink_state |= _CAPTURE
    sink._count(1)  # (counted as kept nodes until the option pops: _end_capture)


def _pop_outside(sink: BoundedSink, element: Element, st: int) -> None:
    """Pop of an element outside kept subtrees that is stored, watched, or holds elements.

    A stored option is cloned into the held selectedcontent of its select
    (if it is the selected one) and then released; an option whose content
    was not all kept gives a note when it is cloned so. A watched element
    left without element children is released as :meth:`pop` does, and its
    option remembers the loss.
    """
    is_option = element.name == "option" and element.namespace == HTML_NS
    watched = st & _WATCH
    lost = st & _LOST
    items = st & _ITEMS
    if st & (_WATCH | _LOST | _ITEMS):
        st &= ~(_WATCH | _LOST | _ITEMS | _LOST_ALL)
        element.sink_state = st
        if is_option:
            watch = sink._watch_open
            if watch and watch[-1] is element:
                watch.pop()
            else:
                sink._watch_open = [o for o in watch if o is not element]
    if st & _CAPTURE:
        parent = element.parent
        if is_option and not (type(parent) is Element and parent.sink_state & _CAPTURE):
            # the stored option itself (not an element inside it)
            _clone_option(sink, element, items, NOTE_OPTION_LOST if lost else None)
            _end_capture(sink, element)
        return
    if is_option and sink._selectedcontent:
        _clone_option(sink, element, items, NOTE_OPTION_LOST if lost else None)
    children = element.children
    if (children and any(type(c) is Element for c in children)) or (
        element.name == "head" and element.namespace == HTML_NS
    ):
        return
    if watched:
        _lose(sink)  # (after the option itself left the open watched ones)
    _release_popped(sink, element)


def _flush(sink: BoundedSink, rec: _SelectRecord) -> None:
    """Give the note the last clone into ``rec``'s selectedcontent called for, if any."""
    if rec.lossy is not None:
        _note(sink, rec.lossy)
        rec.lossy = None


def _note(sink: BoundedSink, note: str) -> None:
    if note not in sink.notes:  # (said once: a page of many such options gives one note)
        sink.notes.append(note)


def _end_capture(sink: BoundedSink, option: Element) -> None:
    """The stored option was popped (and cloned): release what was stored for it.

    As :func:`_demote` does for tentative content: text goes, popped elements
    left without element children are released; kept subtrees stay.
    """
    if sink._jumps or sink._above or sink._tops:
        _forget_runs(sink)
    stored = 0
    stack: list[tuple[Element, bool]] = [(option, False)]
    while stack:
        el, back = stack.pop()
        if not back:
            if not el.sink_state & _CAPTURE:
                continue  # a kept subtree (or an element that was not stored)
            el.sink_state &= ~_CAPTURE
            stored += 1
            stack.append((el, True))
            for c in el.children:
                if type(c) is Element:
                    stack.append((c, False))
            continue
        el.children = [c for c in el.children if type(c) is Element and c.parent is el]
        if el.sink_state == _TRACKED and not el.children:
            parent = el.parent
            if parent is not None:
                detach(el)
            el.sink_state = 0
            sink.tracked -= 1
            if el is option and type(parent) is Element and parent.sink_state == _TRACKED:
                _cascade(sink, parent)
    sink._kept_nodes = max(0, sink._kept_nodes - stored)


def _clone_option(sink: BoundedSink, option: Element, items: int, lossy: str | None) -> bool:
    """An ``option`` outside kept subtrees was popped: clone it into its select's stored selectedcontent.

    Only if the option is its select's selected one so far and that select's
    first ``selectedcontent`` is stored (kept, or inside a kept subtree, and
    held for the select: :func:`_clone_target_select`): the clones are what
    the sink stored of the option (see the module docstring). True if cloned.
    ``lossy``: the note to give if these clones stay (the option's content was
    not all stored).
    """
    found = _chosen(sink, option)
    if found is None:
        return False
    return _clone_to(sink, option, found[1], items, lossy)


def _clone_stored_option(sink: BoundedSink, option: Element) -> None:
    """An ``option`` inside a kept subtree was popped: HTML "maybe clone an option into selectedcontent".

    A select inside the kept subtree holds all its options: the stored tree
    answers. A select outside it does not (its options outside kept subtrees
    were released): its record says which option is the selected one and
    which ``selectedcontent`` is the first.
    """
    select = _select_of(option.parent)
    if select is None:
        return
    if select.sink_state & _INSIDE:
        cache = sink._found
        if sink._found_moves != sink._moves or len(cache.first) + len(cache.disabled) > 4096 + 2 * sink.tracked:
            # (moved nodes; or entries of selects handed over since: start again, as _select_above does)
            sink._found_moves = sink._moves
            cache.clear()
        if maybe_clone_option(option, cache):
            rec = sink._records.get(id(select))
            if rec is not None and rec.select is select:
                rec.replaced()
                rec.lossy = None
        return
    found = _chosen(sink, option)
    if found is not None:
        _clone_to(sink, option, found[1], 0, None)


def _clone_to(sink: BoundedSink, option: Element, rec: _SelectRecord, items: int, lossy: str | None) -> bool:
    """Clone ``option`` into its select's first ``selectedcontent``; True if the clones were made.

    A ``target`` outside kept subtrees gets no clones (no item sees them),
    but loses its children as in the full DOM: kept subtrees inside it are
    held for the select (:func:`_clone_target_select`) and, detached here,
    are dropped. Clones of items the option holds would be items of the
    full document; they are not made, which the notes say (unless a later
    clone replaces these: :attr:`_SelectRecord.lossy`).
    """
    target = _target(sink, rec)
    if target is None:
        return False
    if target.sink_state & _INSIDE:
        clone_option_into(option, target)
        rec.replaced()
        rec.lossy = lossy
        return True
    rec.lossy = NOTE_CLONED_ITEMS if items or _holds_kept(option) else None
    for child in list(target.children):
        sink.remove(child)
    rec.replaced()
    return False


def _holds_kept(option: Element) -> bool:
    stack: list[Node] = list(option.children)
    while stack:
        node = stack.pop()
        if type(node) is Element:
            if node.sink_state & _KEPT:
                return True
            stack.extend(node.children)
    return False
