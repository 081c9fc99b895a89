"""The bounded sink: :class:`BoundedSink`, the tree sink calls and the sink's state.

The proof of when a kept subtree is final, and the contract with consumers,
is the package docstring (:mod:`stream_mf2.html.bounded`). This module holds
the calls the tree builder makes (create, append, insert, text, pop, merges),
the fast paths for the common cases (an element outside kept subtrees that is
not kept costs one keep question and one flag test per later call), and the
sink's state, which the modules of the package read and update.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from stream_mf2.errors import LimitExceeded
from stream_mf2.html.bounded.climbs import (
    _INLINE_OPEN,
    _INLINE_TABLES,
    _Memo,
    _opened_table,
    _popped_memo,
)
from stream_mf2.html.bounded.flags import (
    _CAPTURE,
    _CAPTURE_OR_WATCH,
    _FRAMESET,
    _INSIDE,
    _INSIDE_CAPTURE_OR_WATCH,
    _KEPT,
    _LEAF_SET_UP,
    _MEMO,
    _NEW_INSIDE,
    _NEW_KEPT,
    _NEW_PLAIN,
    _NO_ATTRS,
    _OPEN,
    _SET_UP,
    _TABLE,
    _TENTATIVE,
    _TENTATIVE_MEMO_TABLE,
    _TRACKED,
    _WATCH,
    DEFAULT_MAX_KEPT_NODES,
    DEFAULT_MAX_PENDING_ITEMS,
    DEFAULT_MAX_PREFIX_NODES,
    NESTED_EMPTY,
    NESTED_KEEP,
    NESTED_REMOVE,
    PREFIX_CHARS_PER_NODE,
    _frameset_possible,
    _inside,
)
from stream_mf2.html.bounded.handover import _hand_over
from stream_mf2.html.bounded.hold import _Held, _ready_or_hold, _unchain, _wake, _watched
from stream_mf2.html.bounded.mutation import _inserted, _node_moved, _settle, _tree_changed
from stream_mf2.html.bounded.release import _cascade
from stream_mf2.html.bounded.selected import (
    NOTE_CLONED_ITEMS,
    NOTE_OPTION_LOST,
    NOTE_UNSURE,
    _add_select,
    _clone_stored_option,
    _flush,
    _lose,
    _new_outside,
    _note_option,
    _note_selectedcontent,
    _pop_outside,
    _SelectRecord,
)
from stream_mf2.html.bounded.tentative import _demote, _merged_root, _start_tentative
from stream_mf2.html.bounded.textbudget import TextBudget
from stream_mf2.html.dom import (
    HTML_NS,
    Comment,
    Doctype,
    Document,
    DocumentFragment,
    Element,
    Node,
    ParentNode,
    Text,
    grow_text,
)
from stream_mf2.html.sink import (
    SelectedcontentCache,
    SinkCalls,
    append_child,
    append_text_child,
    detach,
    insert_child_before,
    insert_text_child_before,
    reparent_all,
)
from stream_mf2.html.tokenizer import Tokenizer

__all__ = [
    "DEFAULT_MAX_KEPT_NODES",
    "DEFAULT_MAX_PENDING_ITEMS",
    "DEFAULT_MAX_PREFIX_NODES",
    "NESTED_EMPTY",
    "NESTED_KEEP",
    "NESTED_REMOVE",
    "NOTE_CLONED_ITEMS",
    "NOTE_OPTION_LOST",
    "NOTE_UNSURE",
    "BoundedSink",
]


class BoundedSink(SinkCalls):
    """A tree sink that stores kept subtrees and only the open structure elsewhere.

    ``keep(element)`` decides whether a new element starts a kept subtree.
    ``on_complete(element)`` receives every outermost kept subtree once final,
    in document order. ``on_nested`` and ``watch_nested`` (both or neither) turn
    on the optional nested hand-over described in the package docstring. Under a
    tokenizer (:meth:`attach_tokenizer`) kept elements get their source spans.

    The debug switch ``check_shortcuts=True`` asserts every shortcut the sink
    takes against its reference walk (:mod:`stream_mf2.html.bounded.reference`)
    and counts the checks in :attr:`checks`; ``inline_climbs`` (open ancestors,
    open tables) sets how far climbs go one by one before remembered ones are
    used (tests lower it so that small inputs use them). Neither changes the output.

    The sink's per-element flags live in each element's ``sink_state`` slot; an
    element is *tracked* while that is non-zero, and :attr:`tracked` counts the
    tracked elements (it stays small on a long flat document).
    """

    # Slots, not an instance dictionary: an instance with this many attributes gets no
    # shared-key dictionary, so the interpreter could not specialize method calls on it
    # (``self._x()``, and the tree builder's calls of the sink). Every attribute set in
    # ``__init__`` must be listed; subclasses may add their own.
    __slots__ = (
        "_above",
        "_adopter",
        "_alone_seen",
        "_ask_bare",
        "_bare",
        "_blocked",
        "_blocker",
        "_builder",
        "_chained",
        "_check",
        "_closed",
        "_closed_stamp",
        "_demoted",
        "_epoch",
        "_found",
        "_found_moves",
        "_inline_open",
        "_inline_tables",
        "_jumps",
        "_kept_created",
        "_kept_nodes",
        "_kept_open",
        "_marks",
        "_memo",
        "_moves",
        "_n_blocked",
        "_node_cap",
        "_noted_options",
        "_open_added",
        "_open_inside",
        "_open_tables",
        "_order",
        "_order_moves",
        "_outer",
        "_positions",
        "_prefix_base",
        "_prefix_chars",
        "_probe",
        "_proxies",
        "_ready",
        "_recheck",
        "_records",
        "_records_cap",
        "_refused",
        "_removed_index",
        "_removed_parent",
        "_roots",
        "_sc_memo",
        "_sc_memo_moves",
        "_select_memo",
        "_select_memo_moves",
        "_select_options",
        "_selectedcontent",
        "_selects",
        "_selects_cap",
        "_templates",
        "_tentative",
        "_tops",
        "_unsettled",
        "_waiting",
        "_watch_open",
        "checks",
        "document",
        "forced",
        "keep",
        "max_kept_nodes",
        "max_pending",
        "max_prefix_nodes",
        "notes",
        "on_complete",
        "on_nested",
        "text_budget",
        "tracked",
        "watch_nested",
    )

    def __init__(
        self,
        keep: Callable[[Element], bool],
        on_complete: Callable[[Element], bool | None],
        *,
        max_pending: int = DEFAULT_MAX_PENDING_ITEMS,
        max_kept_nodes: int = DEFAULT_MAX_KEPT_NODES,
        max_prefix_nodes: int = DEFAULT_MAX_PREFIX_NODES,
        on_nested: Callable[[Element, Element, bool], int] | None = None,
        watch_nested: Callable[[Element, Element], bool] | None = None,
        check_shortcuts: bool = False,
        inline_climbs: tuple[int, int] = (_INLINE_OPEN, _INLINE_TABLES),
        text_budget: TextBudget | None = None,
        bare_keeps: frozenset[str] | None = None,
    ) -> None:
        if (on_nested is None) != (watch_nested is None):
            raise ValueError("on_nested and watch_nested go together (the nested hand-over)")
        self.document = Document()
        self.keep = keep
        # The names of elements without attributes the keep predicate may keep, and
        # whose question may change what it observes; an element without attributes
        # and another name is not asked about (the answer is False, and asking would
        # change nothing). None: ask about every element.
        self._ask_bare = bare_keeps is None
        self._bare: frozenset[str] = frozenset() if bare_keeps is None else bare_keeps
        self.on_complete = on_complete
        self.on_nested = on_nested
        self.watch_nested = watch_nested
        #: The text budget a subclass that admits text asks (``stream_mf2.core.budget``); this
        #: class stores it only, and its own text calls never look at it.
        self.text_budget = text_budget
        # Source spans are recorded for kept elements (and html/body, which may become
        # kept) once a tokenizer is attached; dropped elements cost nothing.
        self._positions: Tokenizer | None = None
        self.max_pending = max_pending
        self.max_kept_nodes = max_kept_nodes
        self.max_prefix_nodes = max_prefix_nodes
        #: Recoveries that changed the output (a merge into a demoted ``html``/``body``).
        self.notes: list[str] = []
        # Tentative html/body elements, outermost first (module docstring), the
        # kept-node count when the first became tentative, and the text stored since.
        self._tentative: list[Element] = []
        self._demoted: list[Element] = []  # html/body whose early content was released
        self._refused: list[Element] = []  # html/body a root class was not applied to
        # Kept elements created so far, and that count when each html/body was created.
        self._kept_created = 0
        self._marks: dict[int, int] = {}
        self._prefix_base = 0
        self._prefix_chars = 0
        # _kept_nodes beyond this: over max_kept_nodes, or past the tentative budget.
        self._node_cap = max_kept_nodes
        #: How many items were handed over early because ``max_pending`` was reached.
        self.forced = 0
        #: How many elements the sink tracks right now (created and not yet released or handed over).
        self.tracked = 0
        self._blocked: dict[int, list[_Held]] = {}  # blocker id -> held candidates
        # Blocker id -> (an element at or before every candidate held for it, the _epoch
        # it was so): the blocker when it is an ancestor of them (_climb: a formatting
        # element or table) or precedes them (_open_before). Only for blockers every
        # group of which has one; a ready item before it precedes them all (_hand_over).
        self._proxies: dict[int, tuple[Element, int]] = {}
        # The blocking element of _climb's last blocked answer (None: not known).
        self._blocker: Element | None = None
        self._n_blocked = 0
        self._ready: list[Element] = []
        # Open elements candidates were grouped under (_wake): id -> (element, groups).
        self._roots: dict[int, tuple[Element, list[_Held]]] = {}
        # The open elements of chained groups (_wake): id -> (the group, its chain).
        self._chained: dict[int, tuple[_Held, _Held]] = {}
        # kept elements not popped yet (the nested hand-over, and _open_before)
        self._kept_open: dict[int, Element] = {}
        # Open HTML tables (flag _TABLE): with one or none, _next_table need not climb.
        self._open_tables = 0
        # The outermost ones among them (_alone), None: to be found again.
        self._outer: dict[int, Element] | None = None
        # Held groups _alone found to hold only candidates inside kept subtrees:
        # blocker id -> (its list of groups, how many of its first groups). Forgotten when
        # INSIDE flags or parents may change (moves, removals, hand-overs, settling).
        self._alone_seen: dict[int, tuple[list[_Held], int]] = {}
        # Outermost kept element at or above an element (_top_kept): id -> (element, it).
        self._tops: dict[int, tuple[Element, Element | None]] = {}
        self._recheck: list[Element] = []
        # Elements whose INSIDE flag changed, their descendants' not refreshed yet (_placed).
        self._unsettled: list[Element] = []
        # Popped elements whose subtree holds no open element (_classify), valid while
        # _moves + _open_added (new elements placed outside open ones) is _closed_stamp.
        self._closed: dict[int, Element] = {}
        self._closed_stamp = 0
        self._open_added = 0
        # Where the last nested item removed left its parent's children (_sibling_index):
        # id(parent) and index, a guess only.
        self._removed_parent = 0
        self._removed_index = 0
        # The element reparent_children last moved children into (_adopted).
        self._adopter: Element | None = None
        self._kept_nodes = 0
        # Elements that are open and inside a kept subtree (flags _OPEN and _INSIDE).
        # A popped kept element's open descendants are among them, so while it is 0
        # _classify need not walk a popped subtree looking for any (the usual case:
        # an outermost kept element popped in order, nothing else kept still open).
        self._open_inside = 0
        self._selectedcontent = False
        # id(select) -> its options and first selectedcontent so far (_SelectRecord), for the
        # selects options or selectedcontent elements were made in; popped ones dropped lazily.
        self._records: dict[int, _SelectRecord] = {}
        self._records_cap = 16
        # Open options outside kept subtrees (flag _WATCH; stale entries dropped lazily).
        self._watch_open: list[Element] = []
        self._selects: list[Element] = []  # select elements created, the popped ones dropped lazily
        self._selects_cap = 16
        self._builder: Any = None
        # Template contents made so far: while none, no climb crosses one (_nested_top).
        self._templates = 0
        # The stand-in element append_leaf asks the keep predicate about (see there).
        self._probe = Element("", HTML_NS, _NO_ATTRS)
        # Runs of popped elements climbed by _classify: id(start) -> (start, end, outermost kept).
        self._jumps: dict[int, tuple[Element, ParentNode | None, Element | None]] = {}
        # Open tables met by _classify: id(table) -> (table, the nearest open table above it).
        self._above: dict[int, tuple[Element, Element | None]] = {}
        # Climb summaries of open elements (_summary): id(element) -> its entry, and how
        # many open ancestors _climb passes one by one before it uses them.
        self._memo: dict[int, _Memo] = {}
        # Open ancestors climbed one by one before remembered climbs are used, and open
        # tables passed one by one before _outer_table uses them (tests lower both).
        self._inline_open, self._inline_tables = inline_climbs
        # The debug switch: assert every shortcut against its reference walk (reference.py).
        self._check = check_shortcuts
        #: With ``check_shortcuts``: how many shortcuts were checked, by kind.
        self.checks: dict[str, int] = {}
        # Bumped whenever nodes move, are detached or become kept (_forget_runs).
        self._epoch = 0
        # While anything is held: every pending item (ready and waiting, or held), in
        # document order (flag _PENDING); how many of them are ready; the moves counted
        # (_moves: nodes moved by the tree builder) when that order was made.
        self._order: list[Element] | None = None
        self._waiting = 0
        self._moves = 0
        self._order_moves = 0
        # element id -> (element, its nearest select and selectedcontent), valid while
        # _moves is _select_memo_moves (see _select_above)
        self._select_memo: dict[int, tuple[Element, tuple[Element, Element | None] | None]] = {}
        self._select_memo_moves = 0
        # element id -> (element, its nearest select, whether a selectedcontent in it is
        # disabled), valid while _moves is _sc_memo_moves (see _sc_context)
        self._sc_memo: dict[int, tuple[Element, Element | None, bool]] = {}
        self._sc_memo_moves = 0
        # What the look-ups in kept selects found (maybe_clone_option), valid while _moves
        # is _found_moves (and cleared when a selectedcontent is made)
        self._found = SelectedcontentCache()
        self._found_moves = 0

    def moves(self) -> int:
        """How many times the tree builder has moved (or removed) an existing element so far.

        While it stays the same, every element in the tree keeps its ancestors
        (new nodes only ever go below open elements), so a consumer may remember
        what it found climbing them.
        """
        return self._moves

    @property
    def kept_nodes(self) -> int:
        """How many nodes the kept subtrees not handed over yet hold (what ``max_kept_nodes`` bounds;
        tentative ``html``/``body`` content included)."""
        return self._kept_nodes

    @property
    def open_inside(self) -> int:
        """How many open elements lie inside kept subtrees (kept ones included)."""
        return self._open_inside

    @property
    def inline_climbs(self) -> tuple[int, int]:
        """The ``inline_climbs`` option: open ancestors, and open tables, passed one by one
        before remembered climbs are used."""
        return self._inline_open, self._inline_tables

    def open_kept(self) -> list[Element]:
        """The kept elements not popped yet, in the order they were made."""
        return list(self._kept_open.values())

    def attach_tokenizer(self, tokenizer: Tokenizer) -> None:
        """Called with the tokenizer feeding the tree builder, once, when that tokenizer is
        made (see :class:`~stream_mf2.html.sink.TreeSink`): record the source span
        (``Element.source_start``/``source_end``) of every kept element, and of
        ``html``/``body``, from its markup positions."""
        self._positions = tokenizer

    def attach_tree_builder(self, builder: Any) -> None:
        """Called by the tree builder: lets the sink read its frameset-ok flag."""
        self._builder = builder

    def release(self) -> None:
        """After the last pop: drop the tree builder and the parent links left under the document.

        What is still under :attr:`document` then (the ``html``, ``head`` and
        ``body`` elements, the doctype) is reachable only from the sink; its
        parent links and the tree builder's link back are cycles that only the
        cyclic garbage collector would free. Kept subtrees were detached when
        handed over, so no consumer sees a change. :attr:`notes` and the
        counters stay readable.
        """
        self._builder = None
        self._adopter = None
        for rec in self._records.values():
            _flush(self, rec)
        self._positions = None  # (the tokenizer refers to the tree builder, which refers to this sink)
        doc = self.document
        stack: list[Node] = list(doc.children)
        doc.children = []
        while stack:
            node = stack.pop()
            node.parent = None
            if isinstance(node, Element):
                stack.extend(node.children)
                node.children = []
                contents = node.template_contents
                if contents is not None:
                    stack.extend(contents.children)
                    contents.children = []
                    contents.host = None

    def _count(self, n: int) -> None:
        self._kept_nodes += n
        if self._kept_nodes > self._node_cap:
            if self._tentative:
                _demote(self)
                if self._kept_nodes <= self.max_kept_nodes:
                    return
            raise LimitExceeded(
                f"kept subtrees hold more than max_kept_nodes={self.max_kept_nodes} nodes",
                limit="max_kept_nodes",
                value=self.max_kept_nodes,
            )

    def create_element(self, name: str, namespace: str, attrs: dict[str, str], made: Element | None = None) -> Element:
        el = Element(name, namespace, attrs) if made is None else made
        if self._positions is not None:  # (the uncommon creation path: recorded for any element)
            el.source_start = self._positions.markup_before
        if namespace == HTML_NS:
            if name == "template":
                el.template_contents = DocumentFragment(el)
                self._templates += 1
            elif name == "selectedcontent":
                self._selectedcontent = True
                self._found.new_selectedcontent()
            elif name == "select":
                _add_select(self, el)
        if self.keep(el):
            self._kept_created += 1
            if self._tentative:
                _demote(self)
            el.sink_state = _NEW_KEPT
            self._open_inside += 1
            # (every open kept element: nested hand-over order, and _open_before)
            self._kept_open[id(el)] = el
            self._outer = None  # (placed later)
        elif namespace == HTML_NS and (name == "html" or name == "body"):
            self._marks[id(el)] = self._kept_created
            el.sink_state = _TRACKED | _OPEN | _INSIDE | _TENTATIVE
            self._open_inside += 1
            _start_tentative(self, el)
        else:
            el.sink_state = _NEW_PLAIN
        if name == "table" and namespace == HTML_NS:
            _opened_table(self, el)
        self.tracked += 1
        return el

    def create_element_in(self, parent: ParentNode, name: str, namespace: str, attrs: dict[str, str]) -> Element:
        """:meth:`create_element` then :meth:`append` to ``parent``, in one call (the common insertion)."""
        el = Element(name, namespace, attrs)
        # One set look-up for the names that need more than the element.
        if name in _SET_UP and namespace == HTML_NS:
            if self._positions is not None:  # (html/body inside a tentative html may become kept)
                el.source_start = self._positions.markup_before
            if name == "table":
                # (rare: counted by create_element, so that this path needs no flag test)
                BoundedSink.append(self, parent, self.create_element(name, namespace, attrs, el))
                return el
            if name == "template":
                el.template_contents = DocumentFragment(el)
                self._templates += 1
            elif name == "selectedcontent":
                self._selectedcontent = True
                self._found.new_selectedcontent()
                _note_selectedcontent(self, el, parent)
            elif name == "option":
                if not (parent.sink_state & _INSIDE if type(parent) is Element else _inside(parent)):
                    # outside kept subtrees: append records it and watches it (_maybe_capture)
                    BoundedSink.append(self, parent, self.create_element(name, namespace, attrs, el))
                    return el
                _note_option(self, el, parent)
            elif name == "select":
                _add_select(self, el)
            elif not (parent.sink_state & _INSIDE if type(parent) is Element else _inside(parent)):
                # html/body outside kept subtrees may become tentative (create_element).
                # BoundedSink's own append, not an override: a subclass that observes
                # placements sees this element once, as a created one.
                BoundedSink.append(self, parent, self.create_element(name, namespace, attrs, el))
                return el
            else:
                self._marks[id(el)] = self._kept_created
        if type(parent) is Element:
            pst = parent.sink_state
            inside = pst & _INSIDE
        else:
            pst = 0
            inside = _inside(parent)
        if (attrs or self._ask_bare or name in self._bare) and self.keep(el):
            if self._positions is not None:
                el.source_start = self._positions.markup_before
            self._kept_created += 1
            if self._tentative:
                _demote(self)
                inside = parent.sink_state & _INSIDE if type(parent) is Element else _inside(parent)
            el.sink_state = _NEW_KEPT
            self._open_inside += 1
            self._kept_open[id(el)] = el
            if not inside and self._outer is not None:
                self._outer[id(el)] = el
        elif inside:
            el.sink_state = _NEW_INSIDE
            self._open_inside += 1
        else:
            el.sink_state = _NEW_PLAIN
            if pst & _CAPTURE_OR_WATCH:
                # inside an option (options themselves are placed through append)
                _new_outside(self, el, parent)
        self.tracked += 1
        el.parent = parent
        parent.children.append(el)
        if inside:
            self._kept_nodes += 1
            if self._kept_nodes > self._node_cap:
                self._count(0)  # raises
        return el

    def append_leaf(self, parent: ParentNode, name: str, namespace: str, attrs: dict[str, str], text: str) -> None:
        """:meth:`create_element_in`, :meth:`append_text` of ``text`` (if any), then :meth:`pop`, in one call.

        Half the elements of a page are such leaves. Outside kept subtrees an
        element that is not kept costs one keep question and is never attached
        (attaching and releasing it would leave no trace); inside one it is stored
        already popped. What :meth:`pop` could do besides (pending hand-overs, held
        candidates, option cloning) sends the leaf through the three methods.
        """
        if self._recheck or self._blocked or self._ready or name in _LEAF_SET_UP:
            el = self.create_element_in(parent, name, namespace, attrs)
            if text:
                self.append_text(el, text)
            self.pop(el)
            return
        if type(parent) is Element:
            pst = parent.sink_state
            inside = pst & _INSIDE
        else:
            pst = 0
            inside = _inside(parent)
        if inside:
            el = Element(name, namespace, attrs)  # stored, whatever the keep predicate says
            kept = False
            if attrs or self._ask_bare or name in self._bare:
                kept = self.keep(el)
        elif not (attrs or self._ask_bare or name in self._bare):
            if pst & _WATCH:
                _lose(self)  # (in an option outside kept subtrees)
            return
        else:
            # Outside kept subtrees the keep question is asked about the probe, a stand-in
            # element reused for every such leaf: most are not kept and then cost no
            # element at all. A kept one takes the probe itself (the very object the
            # predicate saw), and a new probe is made.
            el = self._probe
            el.name = name
            el.namespace = namespace
            el.attrs = attrs
            kept = self.keep(el)
            if not kept:
                el.attrs = _NO_ATTRS  # (the probe holds no attributes of a dropped leaf)
                if pst & _WATCH:
                    _lose(self)  # (in an option outside kept subtrees)
                return
            self._probe = Element("", HTML_NS, _NO_ATTRS)
        if kept:
            if self._positions is not None:
                el.source_start = self._positions.markup_before
            self._kept_created += 1
            if self._tentative:
                _demote(self)
                inside = parent.sink_state & _INSIDE if type(parent) is Element else _inside(parent)
            # create_element_in's bookkeeping for a kept element, then the usual pop.
            el.sink_state = _NEW_KEPT
            self._open_inside += 1
            if self.on_nested is not None:
                self._kept_open[id(el)] = el
                if not inside and self._outer is not None:
                    self._outer[id(el)] = el
            self.tracked += 1
            el.parent = parent
            parent.children.append(el)
            if inside:
                self._count(1)
            if text:
                append_text_child(el, text)
            self.pop(el)
            return
        el.sink_state = _TRACKED | _INSIDE  # created inside a kept subtree, and popped
        self.tracked += 1
        el.parent = parent
        parent.children.append(el)
        self._kept_nodes += 1
        if self._kept_nodes > self._node_cap:
            self._count(0)  # raises, or ends the tentative state
            if not el.sink_state:
                # The tentative content was released, this leaf with it (as the three
                # calls would: append_text then drops the text). Its text must not be
                # attached to it: the text's link back would make a cycle.
                return
        if text:
            t = Text(text)
            t.parent = el
            el.children.append(t)

    def create_comment(self, data: str) -> Comment:
        return Comment(data)

    def append(self, parent: ParentNode, node: Node) -> None:
        old = node.parent
        if old is not None:
            append_child(parent, node)  # a move (adoption agency algorithm)
            _node_moved(self, node, old, parent)
            return
        _inserted(self, parent, node, None)

    def append_text(self, parent: ParentNode, data: str) -> None:
        # Text outside kept subtrees is dropped: the common case costs one flag test.
        if type(parent) is Element:
            if not parent.sink_state & _INSIDE_CAPTURE_OR_WATCH:
                return
            if not parent.sink_state & _INSIDE:
                if parent.sink_state & _CAPTURE:
                    append_text_child(parent, data)  # the option a selectedcontent may clone
                else:
                    _lose(self)  # (an option's text, not stored)
                return
        elif not _inside(parent):
            return
        if self._tentative:
            self._prefix_chars += len(data)
            if self._prefix_chars > self.max_prefix_nodes * PREFIX_CHARS_PER_NODE:
                _demote(self)
                return
        # append_text_child, inlined: text inside kept subtrees is most of what is stored.
        children = parent.children
        if children:
            last = children[-1]
            if type(last) is Text:
                grow_text(last, data)
                return
        t = Text(data)
        t.parent = parent
        children.append(t)

    def insert_before(self, parent: ParentNode, node: Node, ref: Node) -> None:
        old = node.parent
        if old is not None:
            insert_child_before(parent, node, ref)  # a move (adoption agency algorithm)
            _node_moved(self, node, old, parent)
            return
        _inserted(self, parent, node, ref)

    def insert_text_before(self, parent: ParentNode, data: str, ref: Node) -> None:
        if _inside(parent):
            if self._tentative:
                self._prefix_chars += len(data)
                if self._prefix_chars > self.max_prefix_nodes * PREFIX_CHARS_PER_NODE:
                    _demote(self)
                    return
            insert_text_child_before(parent, data, ref)
        elif type(parent) is Element and parent.sink_state & _CAPTURE:
            insert_text_child_before(parent, data, ref)  # the option a selectedcontent may clone
        elif type(parent) is Element and parent.sink_state & _WATCH:
            _lose(self)

    def reparent_children(self, old: ParentNode, new: ParentNode) -> None:
        moved = list(old.children)
        if type(new) is Element:
            self._adopter = new  # (appended to old next: _adopted)
        if self._roots:
            roots = self._roots.pop(id(old), None)
            if roots is not None and roots[0] is old:
                for held in roots[1]:
                    held.epoch = -1  # its candidates no longer lie right below old (_wake)
        if self._chained:
            _unchain(self, old)
        reparent_all(old, new)
        for c in moved:
            _node_moved(self, c, old, new)

    def remove(self, node: Node) -> None:
        if self._unsettled:
            _settle(self)
        self._outer = None
        if self._tentative and type(node) is Element and node.sink_state & _INSIDE:
            _demote(self)  # <frameset> removing the body: release what it held first
        _tree_changed(self, node.parent)
        detach(node)

    def append_doctype(self, name: str, public_id: str, system_id: str) -> None:
        append_child(self.document, Doctype(name, public_id, system_id))

    def set_quirks_mode(self, mode: str) -> None:
        self.document.mode = mode

    def add_attrs_if_missing(self, element: Element, attrs: dict[str, str]) -> None:
        """Merge attributes (``<html>``/``<body>`` again), then ask the keep predicate again."""
        own = element.attrs
        added = False
        for k, v in attrs.items():
            if k not in own:
                own[k] = v
                added = True
        st = element.sink_state
        if not added or not st:
            return
        if st & _KEPT:
            # (asked all the same: the predicate also observes document metadata; the answer stands)
            self.keep(element)
            return
        if not self.keep(element):
            return
        _merged_root(self, element, st)

    def template_contents(self, element: Element) -> DocumentFragment:
        contents = element.template_contents
        if contents is None:
            contents = element.template_contents = DocumentFragment(element)
            self._templates += 1
        return contents

    def pop(self, element: Element) -> None:
        if self._recheck:
            if self._unsettled:
                _settle(self)  # (the pops that end the adoption agency algorithm's end tag)
            recheck = self._recheck
            self._recheck = []
            for cand in recheck:
                _ready_or_hold(self, cand)
        st = element.sink_state
        if st == _NEW_PLAIN and not element.children and element.name != "head":
            # The fate of nearly every element of a page: open outside kept subtrees, not
            # kept, none of the rare flags, no child left. _release_popped, inlined (the
            # general branch below does the same for it, after more tests).
            parent = element.parent
            if parent is not None:
                siblings = parent.children
                if siblings and siblings[-1] is element:
                    siblings.pop()
                    element.parent = None
                else:
                    detach(element)
            element.sink_state = 0
            self.tracked -= 1
            contents = element.template_contents
            if contents is not None:
                contents.host = None  # (as below: a cycle otherwise)
            if parent is not None and type(parent) is Element and parent.sink_state == _TRACKED:
                _cascade(self, parent)
        else:
            if not st & _OPEN:
                return  # the head element can be popped twice; untracked nodes are ignored
            if st & _TENTATIVE_MEMO_TABLE:
                # (one test for the rare cases)
                if st & _TABLE:
                    st &= ~_TABLE
                    element.sink_state = st
                    self._open_tables -= 1
                if st & _MEMO:
                    st &= ~_MEMO
                    element.sink_state = st
                    _popped_memo(self, element)
                if st & _TENTATIVE:
                    _demote(self)
                    st = element.sink_state
            st ^= _OPEN
            element.sink_state = st
            if st & _INSIDE:
                self._open_inside -= 1
                if self._selectedcontent and element.name == "option" and element.namespace == HTML_NS:
                    # (tentative content too: a merge that makes it kept needs the clones, and a
                    # clone can remove options, which the records must follow)
                    _clone_stored_option(self, element)
                if st & _KEPT:
                    if self._positions is not None:
                        element.source_end = self._positions.markup_end
                    if self._kept_open:
                        self._kept_open.pop(id(element), None)
                        if self._outer:
                            self._outer.pop(id(element), None)
                    parent = element.parent
                    outermost = parent is None or not _inside(parent)
                    if outermost or (self.on_nested is not None and _watched(self, element)):
                        _ready_or_hold(self, element)
            else:
                # _release_popped, inlined, for what the first branch leaves (head, children, flags).
                children = element.children
                if not (st & _CAPTURE_OR_WATCH or (children and any(type(c) is Element for c in children))) and not (
                    element.name == "head" and element.namespace == HTML_NS
                ):
                    parent = element.parent
                    if parent is not None:
                        siblings = parent.children
                        if siblings and siblings[-1] is element:
                            siblings.pop()
                            element.parent = None
                        else:
                            detach(element)
                    element.sink_state = 0
                    self.tracked -= 1
                    contents = element.template_contents
                    if contents is not None:
                        # The contents' host link back to the released template is a cycle
                        # (an untracked host counts as no host: _host, _inside).
                        contents.host = None
                    if parent is not None and type(parent) is Element and parent.sink_state == _TRACKED:
                        _cascade(self, parent)
                else:
                    _pop_outside(self, element, st)
        if self._chained:
            _unchain(self, element)
        if self._blocked:
            woken = self._blocked.pop(id(element), None)
            if self._proxies:
                self._proxies.pop(id(element), None)
            if woken:
                _wake(self, element, woken)
            if _FRAMESET in self._blocked and not _frameset_possible(self):
                woken = self._blocked.pop(_FRAMESET)
                for held in woken:
                    self._n_blocked -= held.size
                    for cand in held.members():
                        _ready_or_hold(self, cand)
        if self._ready or self._waiting or self._n_blocked > self.max_pending:
            _hand_over(self)
