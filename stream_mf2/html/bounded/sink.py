"""The bounded sink: keep only kept subtrees and what tree construction can still touch.

:class:`BoundedSink` is the :class:`~stream_mf2.html.sink.TreeSink` of the
streaming parser. A keep predicate is asked once for every created element
(formatting-element clones included). A *kept subtree* is a kept element with
everything the tree builder puts inside it; those are stored exactly as
:class:`~stream_mf2.html.sink.DomSink` would store them. Outside kept subtrees
the sink keeps open elements (name, namespace, attributes and their parent
chain) and drops text and comments. A popped element outside every kept
subtree is detached from its parent as soon as it holds no element children,
so memory does not grow with the document. ``on_complete(root)`` receives each
outermost kept subtree once it is final, in document order, while its parent
chain is still attached (so a consumer can read ancestors' attributes such as
``lang``); the sink detaches it right after the callback. If the callback
returns a true value (the consumer keeps no reference into the subtree), the
sink also clears the ``parent`` links inside it: a tree with parent links is
cyclic, so it would otherwise wait for the cyclic garbage collector, whose full
collections then walk every kept node; without them reference counting frees it
at once.

When is a popped subtree final? (Spec references: HTML 13.2.6.)

Once an element ``N`` is popped, tree construction only ever inserts new nodes
at the "appropriate place for inserting a node" (13.2.6.1), whose parent is an
open element or a template's contents, or moves existing nodes. The only moves
are in the adoption agency algorithm (13.2.6.4.7, "any other end tag" for a
formatting element ``F``):

* step 13.8 and step 14 move *lastNode*, which is the furthest block or a
  fresh clone: both are open elements;
* step 16 moves every child of the furthest block ``FB`` (possibly popped,
  completed subtrees) into a clone of ``F``, and step 17 appends that clone to
  ``FB``;
* step 13.8/14 also move ``FB`` itself, so ``FB``'s whole subtree changes
  ancestors.

``FB`` is an open *special* element lower in the stack than ``F``, an open
formatting element. Elements enter the stack as descendants of the current
node, so ``F`` is an ancestor of ``FB``. Hence ``N`` can still be moved only if
some open special ancestor of ``N`` has an open formatting ancestor above it;
the sink holds ``N`` until that formatting element is popped. No new open
formatting element can become an ancestor of an existing node except through
such a move, so once the condition is false it stays false.

Besides moves, two things change a popped subtree's fate:

* foster parenting (13.2.6.1) inserts nodes *before* the last open ``table``;
  a completed subtree inside an open table can therefore be preceded, in
  document order, by content that arrives later. Candidates inside an open
  ``table`` are held until that table is popped, and ready items are only
  handed over when no held item precedes them (document order);
* ``<frameset>`` in "in body" (13.2.6.4.7) removes the ``body`` while the
  frameset-ok flag is "ok"; candidates are held while the attached tree
  builder's flag is still "ok" and its stack is non-empty.

Order after moves: content comes after an open element only inside it, so
normally no open kept element precedes a root candidate. The adoption agency
algorithm breaks that for one token: it moves the furthest block after the
formatting element, while elements between them (a kept one among them) leave
the stack of open elements, and the tree builder reports those pops after the
moves. A kept element moved out so is rechecked at the first of those pops; it
is held while an open outermost kept element precedes it (``_open_before``),
until that element's own pop.

Nested hand-over (optional): with ``on_nested`` and ``watch_nested`` given, a
kept element *inside* another kept subtree can be handed over too, for a
consumer that builds a large container piece by piece. When such an element is
popped, ``watch_nested(element, top)`` (``top``: the outermost kept ancestor)
says whether it matters; if so it becomes a candidate under exactly the rules
above (moves, open tables, the frameset-ok flag, open descendants) and takes
its place in the same document-order hand-over, as ``on_nested(element,
top, alone)``, while it is still inside ``top`` (``alone``: no other
outermost kept subtree is open or held, so ``top`` is the next one handed
over). A nested candidate whose ``top`` was
handed over first is skipped (it went with ``top``). The callback's answer
says what the consumer no longer needs: :data:`NESTED_KEEP` (nothing),
:data:`NESTED_EMPTY` (the element's children: it stays, childless, as a
placeholder with its name and attributes, so sibling structure is unchanged)
or :data:`NESTED_REMOVE` (the element itself and the text run right before
it, so that the text between removed siblings does not pile up into one
ever-growing text node; the consumer vouches that nothing reads it). Removed nodes stop counting
toward ``max_kept_nodes``. Removing a final element changes nothing the tree
builder can still see: by the rules above nothing will be inserted into it,
moved out of it, or placed relative to it.

Ready items are handed over in document order, up to the first held one (the
kept order, sorted again after moves); a ready item before each blocker's
*proxy* (the blocker itself when it is an ancestor of what it holds, or an
open kept element before it: ``_open_before``) precedes every held item
and goes at once, with no place in that order.

Holding is bounded by ``max_pending`` held items: beyond it the earliest held
items (document order) are handed over as they are, which can differ from the
full DOM only for the misnested cases above; :attr:`BoundedSink.forced` counts
such hand-overs.

Limits: ``max_kept_nodes`` bounds the nodes stored in not-yet-handed-over kept
subtrees and raises :class:`~stream_mf2.errors.LimitExceeded`.

The predicate must depend only on the element's name, namespace and
attributes (a clone must get the same answer as its original), and must not
keep a reference to an element it answers ``False`` for: for a leaf element
(:meth:`BoundedSink.append_leaf`) it is asked about a reused stand-in, and
the leaf is made only if it is stored.

Known differences from the full DOM:

* the "maybe clone an option into selectedcontent" copies (HTML
  ``selectedcontent``) are DOM-level copies, not parser-created elements; they
  appear inside kept subtrees but are never asked to the keep predicate, and
  outside kept subtrees (tentative content included) they are not made. Which
  option of a select is its selected one (the first, or the last with
  ``selected``) and which ``selectedcontent`` is its first, and whether that
  one is enabled (HTML's *disabled* state: an ``option``, a ``selectedcontent``
  or a second ``select`` above it), are recorded per select as they are made
  (:class:`_SelectRecord`), since the stored tree lacks the released ones. A
  kept ``selectedcontent``, a kept element holding one, or a kept element inside
  a ``selectedcontent``, inside an open ``select`` is held until that select is
  popped, since the pop of its selected option may replace the enabled
  selectedcontent's children (a kept element inside a replaced selectedcontent
  is removed, and dropped). Meanwhile the content of an option outside kept
  subtrees that can still be cloned into it (the select's selected one when it
  is made) is stored (flag ``_CAPTURE``, counted against ``max_kept_nodes``)
  until it pops and is cloned, then released.
  Every open option outside kept subtrees is *watched* (flag ``_WATCH``): what
  it loses (text, released elements, kept subtrees handed over, nodes the
  adoption agency algorithm moves into it) sets ``_LOST``, and a clone from a
  lossy option that is not replaced by a later one is said in :attr:`notes`
  (as are copies of items into a selectedcontent outside kept subtrees, which
  are not made, and a select whose options a clone removed only in part);
* a late ``<html>`` or ``<body>`` start tag merges its attributes into an
  element that held content long before (see below); past
  ``max_prefix_nodes`` that content is gone, which :attr:`BoundedSink.notes`
  records.

Attribute merges (``add_attrs_if_missing``): a second ``<html>`` or ``<body>``
start tag adds its missing attributes to the existing element ("in body"
insertion mode), and a ``class="h-entry"`` arriving so must make that element a
kept root as if it had been there from the start. The keep predicate is asked
again after every merge that adds an attribute (of a kept element too, whose
answer changes nothing: the predicate may observe the merged attributes). Content of that element that
came before the merge is needed too (the full DOM has it: a tracking pixel in
``<head>`` implies the body and becomes its first child). So an ``html`` or
``body`` that is not kept is *tentative*: its content is stored as if it were
kept, until the first kept element is created anywhere (from then on items are
handed over as usual, and nothing kept is ever held for a tentative element),
its content passes ``max_prefix_nodes`` nodes (or 64 times as many characters
of text), or it is popped. Then it is *demoted*: stored content outside kept
subtrees is released exactly as it would have been. A merge that makes a
tentative element kept promotes it (its whole content is there); a merge that
makes a demoted element kept makes it a kept root from then on and records in
:attr:`notes` that its earlier content was dropped.

``docs/internals/bounded-sink.md`` leads from this proof to the methods that
implement it (held items, document order, the remembered climbs).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from stream_mf2.errors import LimitExceeded
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
    is_ancestor,
)
from stream_mf2.html.sink import (
    SelectedcontentCache,
    SinkCalls,
    append_child,
    append_text_child,
    clone_option_into,
    detach,
    insert_child_before,
    insert_text_child_before,
    maybe_clone_option,
    reparent_all,
    selectedcontent_disabled,
)
from stream_mf2.html.tokenizer import Tokenizer
from stream_mf2.html.tree_tables import FORMATTING, SPECIAL_FOREIGN, SPECIAL_HTML

__all__ = ["NESTED_EMPTY", "NESTED_KEEP", "NESTED_REMOVE", "BoundedSink"]

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
DEFAULT_MAX_PENDING: Final = 10_000
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
        # (BoundedSink._target); the tree builder's move count when that was decided.
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
        # it, so it is given when the select is done with: BoundedSink._flush).
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


#: Popped ancestors _classify climbs one by one before it climbs whole runs (_hop): the
#: usual short climb costs no more than before, a long one is linear over all candidates.
_INLINE_POPPED: Final = 16

#: Open ancestors _classify climbs one by one before it uses remembered summaries (_summary).
_INLINE_OPEN: Final = 16

#: Open tables _outer_table passes one by one before it uses remembered summaries (a cell
#: is three open elements below its table: about as many open elements as _INLINE_OPEN).
_INLINE_TABLES: Final = 4

_FRAMESET: Final = 0  # blocked_by key for "the frameset-ok flag is still ok"
# At most this many blockers are compared with a ready item (BoundedSink._before_held).
_MAX_PROXIES: Final = 8
_NOT_BLOCKED: Final = -1  # (no object's id)
# At least this many groups woken together, one below the other and held again for one
# blocker, are kept as one chain (BoundedSink._wake).
_CHAIN_MIN: Final = 16

#: A remembered climb (BoundedSink._summary): blocking element, whether it is a table,
#: outermost kept element, whether template contents were crossed, the end node.
_Summary = tuple[Element | None, bool, Element | None, bool, ParentNode | None]


class _Held:
    """Candidates held for one blocker: ``items``, and earlier groups passed on whole.

    Every candidate lies below ``entry`` (the candidate itself, a popped
    blocker, or an open element) with only popped elements between them, unless
    ``epoch`` is -1 (the open entry's children were moved since: see
    :meth:`BoundedSink._wake`); ``size`` counts them.

    A *chain* (``links`` >= 0) has no items; its ``groups`` lie under open
    elements each below the next one (deepest first), ``entry`` is the last
    (the top one) and ``links`` counts the groups whose element was popped or had
    its children moved since (:meth:`BoundedSink._wake`); ``links`` is -1 otherwise.
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


#: The kinds of remembered climbs (:class:`_Memo`): those of :meth:`BoundedSink._climb` with no
#: open special element met yet, or with one met (``seen_special``), the climb to the
#: nearest open table (:meth:`BoundedSink._next_table`), which only tables end, and the
#: climb to the outermost open table (:meth:`BoundedSink._outer_table`), where tables
#: count as kept elements do in the others (the outermost one is the answer).
_PLAIN: Final = 0
_SEEN_SPECIAL: Final = 1
_NEAREST_TABLE: Final = 2
_OUTER_TABLE: Final = 3


class _Run:
    """Remembered climbs that share one summary (:meth:`BoundedSink._summary`).

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


class BoundedSink(SinkCalls):
    """A tree sink that stores kept subtrees and only the open structure elsewhere.

    ``keep(element)`` decides whether a new element starts a kept subtree.
    ``on_complete(element)`` receives every outermost kept subtree once final,
    in document order. ``on_nested`` and ``watch_nested`` (both or neither) turn
    on the optional nested hand-over described in the module docstring. Under a
    tokenizer (:meth:`attach_tokenizer`) kept elements get their source spans.

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
        "_blocked",
        "_blocker",
        "_builder",
        "_chained",
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
        "document",
        "forced",
        "keep",
        "max_kept_nodes",
        "max_pending",
        "max_prefix_nodes",
        "notes",
        "on_complete",
        "on_nested",
        "tracked",
        "watch_nested",
    )

    def __init__(
        self,
        keep: Callable[[Element], bool],
        on_complete: Callable[[Element], bool | None],
        *,
        max_pending: int = DEFAULT_MAX_PENDING,
        max_kept_nodes: int = DEFAULT_MAX_KEPT_NODES,
        max_prefix_nodes: int = DEFAULT_MAX_PREFIX_NODES,
        on_nested: Callable[[Element, Element, bool], int] | None = None,
        watch_nested: Callable[[Element, Element], bool] | None = None,
    ) -> None:
        if (on_nested is None) != (watch_nested is None):
            raise ValueError("on_nested and watch_nested go together (the nested hand-over)")
        self.document = Document()
        self.keep = keep
        self.on_complete = on_complete
        self.on_nested = on_nested
        self.watch_nested = watch_nested
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
        self._inline_open = _INLINE_OPEN
        self._inline_tables = _INLINE_TABLES
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
            self._flush(rec)
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

    # ------------------------------------------------------------ helpers

    @staticmethod
    def _inside(parent: ParentNode) -> bool:
        if type(parent) is Element:
            return bool(parent.sink_state & _INSIDE)
        if type(parent) is DocumentFragment:
            host = parent.host
            return host is not None and bool(host.sink_state & _INSIDE)
        return False

    def _count(self, n: int) -> None:
        self._kept_nodes += n
        if self._kept_nodes > self._node_cap:
            if self._tentative:
                self._demote()
                if self._kept_nodes <= self.max_kept_nodes:
                    return
            raise LimitExceeded(
                f"kept subtrees hold more than max_kept_nodes={self.max_kept_nodes} nodes",
                limit="max_kept_nodes",
                value=self.max_kept_nodes,
            )

    def _placed(self, node: Node, parent: ParentNode) -> None:
        """``node`` was (re)inserted under ``parent``: refresh INSIDE flags below it.

        Only ``node``'s own flag is refreshed at once; if it changed, its
        descendants' are refreshed by :meth:`_settle`, which the sink calls once
        the tree builder's moves are done. The adoption agency algorithm moves
        the furthest block (steps 13-14: its flag can change, say out of a kept
        formatting element), then moves all its children into a new element
        and appends that to it (steps 15-17: their flags change back). Walking
        the furthest block's subtree at each step was quadratic for a chain of n
        open elements below it; by step 17 the children's flags mostly match
        again and the walk stops right there.
        """
        if not isinstance(node, Element):
            return
        self._forget_runs()
        self._moves += 1
        self._epoch += 1
        if self._alone_seen:
            self._alone_seen = {}
        self._outer = None
        self._refresh(node, self._inside(parent), False)

    def _adopted(self) -> None:
        """The element the furthest block's children went into was appended to it (adoption
        agency algorithm, step 17): the moves of this round are done."""
        self._adopter = None
        self._settle()

    def _settle(self) -> None:
        """Refresh the INSIDE flags below the elements :meth:`_placed` left."""
        if self._alone_seen:
            self._alone_seen = {}
        unsettled = self._unsettled
        recheck = self._recheck
        if any(c is _SETTLE for c in recheck):
            self._recheck = [c for c in recheck if c is not _SETTLE]
        while unsettled:
            el = unsettled.pop()
            st = el.sink_state
            if not st:
                continue
            inside = bool(st & _INSIDE)
            for c in el.children:
                if type(c) is Element:
                    self._refresh(c, inside, True)
            contents = el.template_contents
            if contents is not None:
                for c in contents.children:
                    if type(c) is Element:
                        self._refresh(c, inside, True)

    def _refresh(self, node: Element, inside: bool, deep: bool) -> None:
        """Set ``node``'s INSIDE flag for a parent ``inside`` or not, and (``deep``) its descendants'."""
        stack: list[tuple[Element, bool]] = [(node, inside)]
        while stack:
            el, parent_inside = stack.pop()
            st = el.sink_state
            if not st:
                continue
            if st & _KEPT:
                if not parent_inside and not st & _OPEN:
                    # A popped kept element that just became outermost. The tree is
                    # mid-algorithm here; decide at the next pop (same token).
                    self._recheck.append(el)
                continue  # a kept element's own INSIDE never changes
            new = _INSIDE if parent_inside else 0
            if (st & _INSIDE) == new:
                continue
            el.sink_state = (st & ~_INSIDE) | new
            if st & _OPEN:
                self._open_inside += 1 if new else -1
            if not deep:
                if el.children or el.template_contents is not None:
                    if not self._unsettled:
                        # (so that the next pop, which looks at _recheck first, settles)
                        self._recheck.append(_SETTLE)
                    self._unsettled.append(el)
                continue
            for c in el.children:
                if isinstance(c, Element):
                    stack.append((c, parent_inside))
            contents = el.template_contents
            if contents is not None:
                for c in contents.children:
                    if isinstance(c, Element):
                        stack.append((c, parent_inside))

    # --------------------------------------------------------- TreeSink

    def create_element(
        self, name: str, namespace: str, attrs: dict[str, str], made: Element | None = None
    ) -> Element:
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
                self._add_select(el)
        if self.keep(el):
            self._kept_created += 1
            if self._tentative:
                self._demote()
            el.sink_state = _NEW_KEPT
            self._open_inside += 1
            # (every open kept element: nested hand-over order, and _open_before)
            self._kept_open[id(el)] = el
            self._outer = None  # (placed later)
        elif namespace == HTML_NS and (name == "html" or name == "body"):
            self._marks[id(el)] = self._kept_created
            el.sink_state = _TRACKED | _OPEN | _INSIDE | _TENTATIVE
            self._open_inside += 1
            self._start_tentative(el)
        else:
            el.sink_state = _NEW_PLAIN
        if name == "table" and namespace == HTML_NS:
            self._opened_table(el)
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
                self._note_selectedcontent(el, parent)
            elif name == "option":
                if not (parent.sink_state & _INSIDE if type(parent) is Element else self._inside(parent)):
                    # outside kept subtrees: append records it and watches it (_maybe_capture)
                    BoundedSink.append(self, parent, self.create_element(name, namespace, attrs, el))
                    return el
                self._note_option(el, parent)
            elif name == "select":
                self._add_select(el)
            elif not (parent.sink_state & _INSIDE if type(parent) is Element else self._inside(parent)):
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
            inside = self._inside(parent)
        if self.keep(el):
            if self._positions is not None:
                el.source_start = self._positions.markup_before
            self._kept_created += 1
            if self._tentative:
                self._demote()
                inside = parent.sink_state & _INSIDE if type(parent) is Element else self._inside(parent)
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
                self._new_outside(el, parent)
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
            inside = self._inside(parent)
        if inside:
            el = Element(name, namespace, attrs)  # stored, whatever the keep predicate says
            kept = self.keep(el)
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
                    self._lose()  # (in an option outside kept subtrees)
                return
            self._probe = Element("", HTML_NS, _NO_ATTRS)
        if kept:
            if self._positions is not None:
                el.source_start = self._positions.markup_before
            self._kept_created += 1
            if self._tentative:
                self._demote()
                inside = parent.sink_state & _INSIDE if type(parent) is Element else self._inside(parent)
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
            self._count(0)  # raises
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
            if self._memo:
                self._memo_changed(old, False)
            self._placed(node, parent)
            self._moved(node, parent)
            return
        if type(parent) is Element:
            pst = parent.sink_state
            inside = pst & _INSIDE
        else:
            pst = 0
            inside = self._inside(parent)
        if type(node) is Element:
            if type(parent) is not Element or not parent.sink_state & _OPEN:
                self._open_added += 1  # (_classify)
            node.parent = parent
            parent.children.append(node)
            if node.children:
                # A clone made by the adoption agency algorithm already holds nodes.
                if inside:
                    self._count(1)
                self._placed(node, parent)
                if self._unsettled and node is self._adopter:
                    self._adopted()
                self._moved(node, parent, True)
            elif inside:
                if node.sink_state & (_OPEN | _INSIDE) == _OPEN:
                    self._open_inside += 1
                node.sink_state |= _INSIDE
                self._count(1)
                if node.name in _LEAF_SET_UP:
                    self._note_placed(node, parent)
            elif pst & _CAPTURE_OR_WATCH or self._blocked or node.name in _LEAF_SET_UP:
                self._maybe_capture(node, parent)
            if self._unsettled and node is self._adopter:
                self._adopted()
        elif inside:
            node.parent = parent
            parent.children.append(node)
            self._count(1)
        elif pst & _CAPTURE_OR_WATCH and type(parent) is Element:
            self._outside_node(parent, node, None)

    def append_text(self, parent: ParentNode, data: str) -> None:
        # Text outside kept subtrees is dropped: the common case costs one flag test.
        if type(parent) is Element:
            if not parent.sink_state & _INSIDE_CAPTURE_OR_WATCH:
                return
            if not parent.sink_state & _INSIDE:
                if parent.sink_state & _CAPTURE:
                    append_text_child(parent, data)  # the option a selectedcontent may clone
                else:
                    self._lose()  # (an option's text, not stored)
                return
        elif not self._inside(parent):
            return
        if self._tentative:
            self._prefix_chars += len(data)
            if self._prefix_chars > self.max_prefix_nodes * PREFIX_CHARS_PER_NODE:
                self._demote()
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
        if node.parent is None:
            inside = self._inside(parent)
            if isinstance(node, Element):
                self._open_added += 1  # (foster parenting: perhaps into a popped element)
                insert_child_before(parent, node, ref)
                if node.children:
                    # A clone made by the adoption agency algorithm already holds nodes.
                    if inside:
                        self._count(1)
                    self._placed(node, parent)
                    if self._unsettled and node is self._adopter:
                        self._adopted()
                    self._moved(node, parent, True)
                elif inside:
                    if node.sink_state & (_OPEN | _INSIDE) == _OPEN:
                        self._open_inside += 1
                    node.sink_state |= _INSIDE
                    self._count(1)
                    if node.name in _LEAF_SET_UP:
                        self._note_placed(node, parent)
                elif self._blocked or self._watch_open or node.name in _LEAF_SET_UP:
                    self._maybe_capture(node, parent)
                if self._unsettled and node is self._adopter:
                    self._adopted()
            elif inside:
                insert_child_before(parent, node, ref)
                self._count(1)
            elif type(parent) is Element and parent.sink_state & _CAPTURE_OR_WATCH:
                self._outside_node(parent, node, ref)
            return
        old = node.parent
        insert_child_before(parent, node, ref)
        if self._memo:
            self._memo_changed(old, False)
        self._placed(node, parent)
        self._moved(node, parent)

    def insert_text_before(self, parent: ParentNode, data: str, ref: Node) -> None:
        if self._inside(parent):
            if self._tentative:
                self._prefix_chars += len(data)
                if self._prefix_chars > self.max_prefix_nodes * PREFIX_CHARS_PER_NODE:
                    self._demote()
                    return
            insert_text_child_before(parent, data, ref)
        elif type(parent) is Element and parent.sink_state & _CAPTURE:
            insert_text_child_before(parent, data, ref)  # the option a selectedcontent may clone
        elif type(parent) is Element and parent.sink_state & _WATCH:
            self._lose()

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
            self._unchain(old)
        reparent_all(old, new)
        if self._memo:
            self._memo_changed(old, False)
        for c in moved:
            self._placed(c, new)
            self._moved(c, new)

    def remove(self, node: Node) -> None:
        if self._unsettled:
            self._settle()
        self._outer = None
        if self._tentative and type(node) is Element and node.sink_state & _INSIDE:
            self._demote()  # <frameset> removing the body: release what it held first
        self._forget_runs()
        self._moves += 1
        self._epoch += 1
        if self._alone_seen:
            self._alone_seen = {}
        if self._memo:
            self._memo_changed(node.parent, False)
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
        self._forget_runs()
        if self._memo:
            self._memo_changed(element, True)
        if st & _TENTATIVE or (self._tentative and st & _INSIDE):
            self._promote(element)  # all its content is there
            return
        name = element.name
        # It can become a root if no kept element was made since it was (then no item
        # inside it has its place among the items, or a streamed child's path, decided
        # yet), or if no kept element is open or held at all (then every item so far
        # was handed over, and it is a root from now on). Neither depends on chunking
        # or on stream_children.
        # (While an element is tentative no kept element exists: the open elements
        # counted inside "kept" subtrees are then only tentative content.)
        kept_open = self._open_inside if not self._tentative else 0
        safe = self._marks.get(id(element)) == self._kept_created or not (
            kept_open or self._n_blocked or self._ready or self._recheck
        )
        if not safe:
            if any(r is element for r in self._refused):
                return  # (said once per element, however many tags repeat it)
            self._refused.append(element)
            self.notes.append(
                f"a later <{name}> tag gave <{name}> an item root class after items inside it"
                " had been made: the class was not applied"
            )
            return
        # A tentative element inside it (the body of this html) is now simply inside a root.
        inner = [t for t in self._tentative if is_ancestor(element, t)]
        if inner:
            for t in inner:
                t.sink_state &= ~_TENTATIVE
            self._tentative = [t for t in self._tentative if t not in inner]
            if not self._tentative:
                self._node_cap = self.max_kept_nodes
        # A root from now on; what it held before the merge was released.
        element.sink_state = st | _KEPT | _INSIDE
        if st & _OPEN and not st & _INSIDE:
            self._open_inside += 1
        self._kept_open[id(element)] = element
        self._outer = None
        for c in list(element.children):
            self._placed(c, element)
        self._settle()
        if not st & _INSIDE and any(d is element for d in self._demoted):
            self.notes.append(
                f"<{element.name}> became an item root through attributes of a later"
                f" <{element.name}> tag, after its earlier content was dropped"
                f" (more than max_prefix_nodes={self.max_prefix_nodes} nodes, or a kept element, came first)"
            )

    def template_contents(self, element: Element) -> DocumentFragment:
        contents = element.template_contents
        if contents is None:
            contents = element.template_contents = DocumentFragment(element)
            self._templates += 1
        return contents

    def pop(self, element: Element) -> None:
        if self._recheck:
            if self._unsettled:
                self._settle()  # (the pops that end the adoption agency algorithm's end tag)
            recheck = self._recheck
            self._recheck = []
            for cand in recheck:
                self._ready_or_hold(cand)
        st = element.sink_state
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
                self._popped_memo(element)
            if st & _TENTATIVE:
                self._demote()
                st = element.sink_state
        st ^= _OPEN
        element.sink_state = st
        if st & _INSIDE:
            self._open_inside -= 1
            if self._selectedcontent and element.name == "option" and element.namespace == HTML_NS:
                # (tentative content too: a merge that makes it kept needs the clones, and a
                # clone can remove options, which the records must follow)
                self._clone_stored_option(element)
            if st & _KEPT:
                if self._positions is not None:
                    element.source_end = self._positions.markup_end
                if self._kept_open:
                    self._kept_open.pop(id(element), None)
                    if self._outer:
                        self._outer.pop(id(element), None)
                parent = element.parent
                outermost = parent is None or not self._inside(parent)
                if outermost or (self.on_nested is not None and self._watched(element)):
                    self._ready_or_hold(element)
        else:
            # _release_popped, inlined: this is the fate of nearly every element of a page.
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
                    self._cascade(parent)
            else:
                self._pop_outside(element, st)
        if self._chained:
            self._unchain(element)
        if self._blocked:
            woken = self._blocked.pop(id(element), None)
            if self._proxies:
                self._proxies.pop(id(element), None)
            if woken:
                self._wake(element, woken)
            if _FRAMESET in self._blocked and not self._frameset_possible():
                woken = self._blocked.pop(_FRAMESET)
                for held in woken:
                    self._n_blocked -= held.size
                    for cand in held.members():
                        self._ready_or_hold(cand)
        if self._ready or self._waiting or self._n_blocked > self.max_pending:
            self._hand_over()

    # ------------------------------------------------------ selectedcontent

    def _add_select(self, select: Element) -> None:
        selects = self._selects
        selects.append(select)
        if len(selects) > self._selects_cap:
            # (popped selects are dropped here too, so that many selects keep few entries)
            selects = self._selects = [s for s in selects if s.sink_state & _OPEN]
            self._selects_cap = max(16, 2 * len(selects))

    @staticmethod
    def _select_of(parent: ParentNode | None) -> Element | None:
        """The nearest HTML ``select`` from ``parent`` up (not through template contents)."""
        node = parent
        while type(node) is Element:
            if node.name == "select" and node.namespace == HTML_NS:
                return node
            node = node.parent
        return None

    def _record(self, select: Element) -> _SelectRecord:
        records = self._records
        rec = records.get(id(select))
        if rec is None or rec.select is not select:
            if len(records) >= self._records_cap:
                # the records of popped selects are no longer read (their options are popped)
                for r in records.values():
                    if not r.select.sink_state & _OPEN:
                        self._flush(r)
                records = self._records = {k: r for k, r in records.items() if r.select.sink_state & _OPEN}
                self._records_cap = max(16, 2 * len(records))
            rec = records[id(select)] = _SelectRecord(select)
        return rec

    def _chosen(self, option: Element) -> tuple[Element, _SelectRecord] | None:
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
                    rec = self._records.get(id(node))
                    if rec is None or rec.select is not node:
                        return None
                    if rec.unsure and self._clone_matters(option, rec):
                        self._note(NOTE_UNSURE)
                    if rec.chosen() is not option:
                        return None
                    return node, rec
                if node.name in ("datalist", "option", "hr"):
                    return None
            node = node.parent
        return None

    def _clone_matters(self, option: Element, rec: _SelectRecord) -> bool:
        """Could a clone of ``option`` into ``rec``'s selectedcontent (or its absence) change kept content?"""
        target = self._target(rec)
        if target is None:
            return False
        return bool(
            target.sink_state & _INSIDE
            or option.sink_state & _INSIDE
            or self._holds_kept(option)
            or self._holds_kept(target)
        )

    def _note_option(self, option: Element, parent: ParentNode) -> None:
        """Remember the first and the last selected option of ``option``'s select.

        Options outside kept subtrees are released when popped, so the stored
        tree cannot tell which option of a select is its selected one.
        """
        found = self._select_above(parent)
        if found is None:
            return
        select, inside = found
        rec = self._record(select)
        if rec.first is None:
            rec.first = option
        if "selected" in option.attrs:
            rec.selected = option
        rec.options += 1
        if inside is not None and inside is self._target(rec):
            rec.in_target += 1

    def _select_above(self, parent: ParentNode) -> tuple[Element, Element | None] | None:
        """The nearest ``select`` at or above ``parent``, and the nearest ``selectedcontent`` below it on the way.

        Remembered for every element climbed until a node moves (``_moves``): options
        nested n deep (in other options' content) each climbed every ancestor otherwise.
        """
        if self._select_memo_moves != self._moves:
            self._select_memo = {}
            self._select_memo_moves = self._moves
        memo = self._select_memo
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
        if len(memo) > 4096 + 2 * self.tracked:
            # (dropped elements' entries: start again; the open ones are at most
            # ``tracked``, so rebuilding them is paid for by the entries added since)
            self._select_memo = {}
        return found

    def _sc_context(self, parent: ParentNode | None) -> tuple[Element | None, bool]:
        """For a ``selectedcontent`` placed in ``parent``: its nearest ``select``, and whether it is disabled.

        HTML gives a selectedcontent a *disabled* state from its ancestors (see
        :func:`~stream_mf2.html.sink.selectedcontent_disabled`): an ``option`` or a
        ``selectedcontent`` above it, or a second ``select``. Remembered for every
        element climbed until a node moves (``_moves``), as :meth:`_select_above` does.
        """
        if self._sc_memo_moves != self._moves:
            self._sc_memo = {}
            self._sc_memo_moves = self._moves
        memo = self._sc_memo
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
        if len(memo) > 4096 + 2 * self.tracked:
            self._sc_memo = {}  # (as in _select_above)
        return select, disabled

    def _note_selectedcontent(self, selectedcontent: Element, parent: ParentNode) -> None:
        """Remember the first ``selectedcontent`` of the selects around it, and whether it is enabled.

        HTML clones an option into its select's *first* selectedcontent (in tree
        order, nested selects' included), and only if that one is enabled.
        """
        select, disabled = self._sc_context(parent)
        while select is not None:
            rec = self._record(select)
            if rec.first_sc is not None:
                break  # (so had every select above it: it came earlier inside them too)
            rec.first_sc = selectedcontent
            rec.selectedcontent = None if disabled else selectedcontent
            rec.sc_moves = self._moves
            disabled = True  # (for the selects further up: a second select above it)
            select = self._sc_context(select.parent)[0]

    def _target(self, rec: _SelectRecord) -> Element | None:
        """The enabled selectedcontent of ``rec``'s select (None: none, or its first one is disabled).

        A move (the adoption agency algorithm) can change a stored selectedcontent's
        ancestors, and HTML decides its disabled state again when it is moved: after
        moves it is read again from the stored ancestors (a released one stays as it was).
        """
        first = rec.first_sc
        if first is not None and rec.sc_moves != self._moves:
            rec.sc_moves = self._moves
            if first.parent is not None and first.sink_state:
                rec.selectedcontent = None if selectedcontent_disabled(first) else first
        return rec.selectedcontent

    def _note_placed(self, el: Element, parent: ParentNode) -> None:
        """An ``option`` or ``selectedcontent`` made by :meth:`create_element` was placed in ``parent``."""
        if el.namespace == HTML_NS:
            if el.name == "option":
                self._note_option(el, parent)
            else:
                self._note_selectedcontent(el, parent)

    def _may_clone(self, option: Element, parent: ParentNode) -> bool:
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
                    if id(node) not in self._blocked or "multiple" in node.attrs:
                        return False
                    rec = self._records.get(id(node))
                    return (
                        rec is not None
                        and rec.select is node
                        and rec.chosen() is option
                        and self._target(rec) is not None
                    )
                if node.name in ("datalist", "option", "hr"):
                    return False
            node = node.parent
        return False

    def _watch(self, option: Element) -> None:
        """Add ``option`` to the open watched options (dropping stale entries at the end first)."""
        watch = self._watch_open
        while watch and watch[-1].sink_state & (_WATCH | _OPEN) != _WATCH | _OPEN:
            watch.pop()
        watch.append(option)

    def _new_outside(self, el: Element, parent: ParentNode) -> None:
        """A new element outside kept subtrees, while an option is watched or something is held.

        Inside a watched option it is watched too (its content is not stored,
        but losing it is remembered); inside a stored option, or as an option a
        held selectedcontent may be cloned from, it is stored.
        """
        watch = self._watch_open
        while watch and watch[-1].sink_state & (_WATCH | _OPEN) != _WATCH | _OPEN:
            watch.pop()  # (popped, or an option that proved kept or inside a kept subtree)
        pst = parent.sink_state if type(parent) is Element else 0
        if pst & _WATCH:
            el.sink_state |= _WATCH
        if self._blocked and (
            pst & _CAPTURE or (el.name == "option" and el.namespace == HTML_NS and self._may_clone(el, parent))
        ):
            # (only while something is held: a selectedcontent waits for its select)
            self._capture(el)

    def _maybe_capture(self, el: Element, parent: ParentNode) -> None:
        """A new element, not kept, was placed outside kept subtrees (not by :meth:`create_element_in`).

        An option or selectedcontent is recorded (:meth:`_note_placed`); then as
        :meth:`_new_outside` (foster parenting, foreign content, template contents).
        """
        outside = el.sink_state & (_TRACKED | _INSIDE) == _TRACKED
        if el.name in _LEAF_SET_UP and el.namespace == HTML_NS:
            self._note_placed(el, parent)  # (kept ones too)
            if el.name == "option" and outside:
                el.sink_state |= _WATCH
                self._watch(el)
        if outside and (self._blocked or self._watch_open):
            self._new_outside(el, parent)

    def _outside_node(self, parent: Element, node: Node, ref: Node | None) -> None:
        """A comment went into a stored (it is stored too) or a watched option outside kept subtrees."""
        if parent.sink_state & _CAPTURE:
            if ref is None:
                append_child(parent, node)
            else:
                insert_child_before(parent, node, ref)
        else:
            self._lose()

    def _lose(self, flags: int = _LOST) -> None:
        """Content inside a watched option was not stored: remember it on the open watched options.

        (Every open one: an option inside another's content is part of both.)
        """
        # From the newest: the open options already marked by a _lose are the oldest
        # ones, so n nested open options cost O(1) per call once marked, not O(n).
        for option in reversed(self._watch_open):
            st = option.sink_state
            if st & (_WATCH | _OPEN) == _WATCH | _OPEN:
                if st & _LOST_ALL and flags == _LOST:
                    break
                option.sink_state = st | flags | _LOST_ALL if flags == _LOST else st | flags

    def _lose_items(self, parent: Element) -> None:
        """A kept subtree under ``parent`` was handed over: open watched options above it no longer hold it."""
        node: ParentNode | None = parent
        while type(node) is Element:
            if node.sink_state & (_WATCH | _OPEN) == _WATCH | _OPEN and node.name == "option":
                node.sink_state |= _LOST | _ITEMS
            node = node.parent

    def _moved(self, node: Node, parent: ParentNode, fresh: bool = False) -> None:
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
                    self._capture(node)
            else:
                for c in node.children:
                    if type(c) is Element and c.sink_state & _CAPTURE:
                        self._end_capture(c)
        elif inner:
            if not node.sink_state & _CAPTURE_OR_WATCH:
                self._lose()  # (from outside any option: what it held was not stored)
        elif node.sink_state & _CAPTURE:
            self._end_capture(node)

    def _capture(self, el: Element) -> None:
        """A new element went into a stored option: store it too (see :meth:`_may_clone`)."""
        el.sink_state |= _CAPTURE
        self._count(1)  # (counted as kept nodes until the option pops: _end_capture)

    def _pop_outside(self, element: Element, st: int) -> None:
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
                watch = self._watch_open
                if watch and watch[-1] is element:
                    watch.pop()
                else:
                    self._watch_open = [o for o in watch if o is not element]
        if st & _CAPTURE:
            parent = element.parent
            if is_option and not (type(parent) is Element and parent.sink_state & _CAPTURE):
                # the stored option itself (not an element inside it)
                self._clone_option(element, items, NOTE_OPTION_LOST if lost else None)
                self._end_capture(element)
            return
        if is_option and self._selectedcontent:
            self._clone_option(element, items, NOTE_OPTION_LOST if lost else None)
        children = element.children
        if (children and any(type(c) is Element for c in children)) or (
            element.name == "head" and element.namespace == HTML_NS
        ):
            return
        if watched:
            self._lose()  # (after the option itself left the open watched ones)
        self._release_popped(element)

    def _release_popped(self, element: Element) -> None:
        """Release a popped element outside kept subtrees without element children, then its emptied ancestors.

        (:meth:`pop` inlines this for nearly every element of a page, with a
        shortcut for the last child.)
        """
        parent = element.parent
        if parent is not None:
            detach(element)
        element.sink_state = 0
        self.tracked -= 1
        contents = element.template_contents
        if contents is not None:
            # The contents' host link back to the released template is a cycle
            # (an untracked host counts as no host: _host, _inside).
            contents.host = None
        if parent is not None and type(parent) is Element and parent.sink_state == _TRACKED:
            self._cascade(parent)

    def _flush(self, rec: _SelectRecord) -> None:
        """Give the note the last clone into ``rec``'s selectedcontent called for, if any."""
        if rec.lossy is not None:
            self._note(rec.lossy)
            rec.lossy = None

    def _note(self, note: str) -> None:
        if note not in self.notes:  # (said once: a page of many such options gives one note)
            self.notes.append(note)

    def _end_capture(self, option: Element) -> None:
        """The stored option was popped (and cloned): release what was stored for it.

        As :meth:`_demote` does for tentative content: text goes, popped elements
        left without element children are released; kept subtrees stay.
        """
        if self._jumps or self._above or self._tops:
            self._forget_runs()
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
                self.tracked -= 1
                if el is option and type(parent) is Element and parent.sink_state == _TRACKED:
                    self._cascade(parent)
        self._kept_nodes = max(0, self._kept_nodes - stored)

    def _clone_option(self, option: Element, items: int, lossy: str | None) -> bool:
        """An ``option`` outside kept subtrees was popped: clone it into its select's stored selectedcontent.

        Only if the option is its select's selected one so far and that select's
        first ``selectedcontent`` is stored (kept, or inside a kept subtree, and
        held for the select: :meth:`_clone_target_select`): the clones are what
        the sink stored of the option (see the module docstring). True if cloned.
        ``lossy``: the note to give if these clones stay (the option's content was
        not all stored).
        """
        found = self._chosen(option)
        if found is None:
            return False
        return self._clone_to(option, found[1], items, lossy)

    def _clone_stored_option(self, option: Element) -> None:
        """An ``option`` inside a kept subtree was popped: HTML "maybe clone an option into selectedcontent".

        A select inside the kept subtree holds all its options: the stored tree
        answers. A select outside it does not (its options outside kept subtrees
        were released): its record says which option is the selected one and
        which ``selectedcontent`` is the first.
        """
        select = self._select_of(option.parent)
        if select is None:
            return
        if select.sink_state & _INSIDE:
            cache = self._found
            if self._found_moves != self._moves or len(cache.first) + len(cache.disabled) > 4096 + 2 * self.tracked:
                # (moved nodes; or entries of selects handed over since: start again, as _select_above does)
                self._found_moves = self._moves
                cache.clear()
            if maybe_clone_option(option, cache):
                rec = self._records.get(id(select))
                if rec is not None and rec.select is select:
                    rec.replaced()
                    rec.lossy = None
            return
        found = self._chosen(option)
        if found is not None:
            self._clone_to(option, found[1], 0, None)

    def _clone_to(self, option: Element, rec: _SelectRecord, items: int, lossy: str | None) -> bool:
        """Clone ``option`` into its select's first ``selectedcontent``; True if the clones were made.

        A ``target`` outside kept subtrees gets no clones (no item sees them),
        but loses its children as in the full DOM: kept subtrees inside it are
        held for the select (:meth:`_clone_target_select`) and, detached here,
        are dropped. Clones of items the option holds would be items of the
        full document; they are not made, which the notes say (unless a later
        clone replaces these: :attr:`_SelectRecord.lossy`).
        """
        target = self._target(rec)
        if target is None:
            return False
        if target.sink_state & _INSIDE:
            clone_option_into(option, target)
            rec.replaced()
            rec.lossy = lossy
            return True
        rec.lossy = NOTE_CLONED_ITEMS if items or self._holds_kept(option) else None
        for child in list(target.children):
            self.remove(child)
        rec.replaced()
        return False

    @staticmethod
    def _holds_kept(option: Element) -> bool:
        stack: list[Node] = list(option.children)
        while stack:
            node = stack.pop()
            if type(node) is Element:
                if node.sink_state & _KEPT:
                    return True
                stack.extend(node.children)
        return False

    # ------------------------------------------------- tentative html/body

    def _start_tentative(self, el: Element) -> None:
        """``el`` (an html or body, not kept) is tentative: store its content for now."""
        if not self._tentative:
            self._prefix_base = self._kept_nodes
            self._prefix_chars = 0
            cap = self._kept_nodes + self.max_prefix_nodes
            self._node_cap = cap if cap < self.max_kept_nodes else self.max_kept_nodes
        self._tentative.append(el)

    def _promote(self, element: Element) -> None:
        """A merge made the tentative ``element`` kept: it holds all its content."""
        self._forget_runs()
        if self._memo:
            self._memo_changed(element, True)
        others = [t for t in self._tentative if t is not element]
        # An outer tentative element (the html around this body) now holds a kept
        # element: it stops being tentative. An inner one is simply inside this root.
        outer = [t for t in others if is_ancestor(t, element)]
        for t in others:
            if t not in outer:
                t.sink_state &= ~_TENTATIVE
        element.sink_state = (element.sink_state & ~_TENTATIVE) | _KEPT
        self._kept_open[id(element)] = element
        self._outer = None
        kept_nodes = self._kept_nodes
        self._tentative = outer
        self._demote()
        # The promoted element's content stays counted (the demotion walk skipped it).
        self._kept_nodes = kept_nodes
        self._node_cap = self.max_kept_nodes

    def _demote(self) -> None:
        """End the tentative state: release what was stored outside kept subtrees."""
        if self._alone_seen:
            self._alone_seen = {}
        if self._unsettled:
            self._settle()  # (its walk reads the INSIDE flags)
        self._outer = None
        tentative = self._tentative
        self._tentative = []
        self._node_cap = self.max_kept_nodes
        if not tentative:
            return
        self._forget_runs()
        if self._memo:
            self._forget_memo()
        self._kept_nodes = self._prefix_base if self._prefix_base < self._kept_nodes else self._kept_nodes
        root = tentative[0]  # outermost first; the others are inside it
        # Post-order walk: flags are cleared going down; coming back up, a popped
        # element left without element children is released, as pop() would have,
        # and text and comments (not stored outside kept subtrees) go. An open option
        # (and the open elements inside it) is watched from now on (flag _WATCH); one that
        # held more than open elements loses that content (flag _LOST, set coming back up:
        # ``mixed`` holds the elements whose subtree held more, so nested open options
        # cost one walk in all, not one each).
        mixed: set[int] = set()
        stack: list[tuple[Element, bool, bool]] = [(root, False, False)]
        while stack:
            el, back, watched = stack.pop()
            st = el.sink_state
            if not back:
                if not st:
                    el.parent = None  # an option's clone (never tracked): released with its subtree
                    continue
                if st & _KEPT:
                    continue  # a promoted element: its subtree stays as it is
                if st & _INSIDE:
                    if st & _OPEN:
                        self._open_inside -= 1
                        if el.name == "option" and el.namespace == HTML_NS:
                            st |= _WATCH
                            self._watch(el)
                            watched = True
                        elif watched:
                            st |= _WATCH
                    st &= ~(_INSIDE | _TENTATIVE)
                    if el.namespace == HTML_NS and (el.name == "body" or el.name == "html"):
                        self._demoted.append(el)  # a later merge that makes it kept is noted
                    el.sink_state = st
                stack.append((el, True, watched))
                for c in el.children:
                    if type(c) is Element:
                        stack.append((c, False, watched))
                contents = el.template_contents
                if contents is not None:
                    for c in contents.children:
                        if type(c) is Element:
                            stack.append((c, False, False))
                continue
            if st & _WATCH and any(
                type(c) is not Element
                or not c.sink_state & _OPEN
                or id(c) in mixed
                or (c.sink_state & _KEPT and self._option_lost(c))  # (an open kept child: not walked)
                for c in el.children
            ):
                mixed.add(id(el))
                if el.name == "option" and el.namespace == HTML_NS:
                    el.sink_state = st = st | _LOST
            el.children = [c for c in el.children if type(c) is Element and c.parent is el]
            contents = el.template_contents
            if contents is not None:
                contents.children = [c for c in contents.children if type(c) is Element and c.parent is contents]
            if (
                el is not root
                and st == _TRACKED
                and not el.children
                and not (el.name == "head" and el.namespace == HTML_NS)
            ):
                el.parent = None
                el.sink_state = 0
                self.tracked -= 1

    @staticmethod
    def _option_lost(option: Element) -> int:
        """``_LOST`` if ``option`` (or another element) holds more than open elements."""
        stack: list[Node] = list(option.children)
        while stack:
            node = stack.pop()
            if type(node) is not Element or not node.sink_state & _OPEN:
                return _LOST
            stack.extend(node.children)
        return 0

    # ---------------------------------------------------------- candidates

    def _frameset_possible(self) -> bool:
        b = self._builder
        return b is not None and bool(b.frameset_ok) and bool(b.open) and not b.fragment_case

    def _classify(self, el: Element) -> tuple[str, int]:
        """("root" | "nested" | "covered" | "detached" | "blocked", blocker key) for popped kept ``el``."""
        key, top, crossed_fragment, end = self._climb(el.parent, False)
        if key != _NOT_BLOCKED:
            if self._selectedcontent:
                # the select first: its selected option's pop (before the table's) may still
                # clone into a held selectedcontent, which looks for its select's holds
                select = self._clone_target_select(el)
                if select is not None:
                    return "blocked", id(select)
            return "blocked", key
        if top is not None:
            watch = self.watch_nested if self.on_nested is not None else None
            if watch is None or crossed_fragment or not isinstance(end, Document) or not watch(el, top):
                return "covered", 0
        elif crossed_fragment or not isinstance(end, Document):
            return "detached", 0
        if self._frameset_possible():
            return "blocked", _FRAMESET
        if self._selectedcontent:
            select = self._clone_target_select(el)
            if select is not None:
                return "blocked", id(select)
        # An element can leave the stack before its descendants (the "a" start
        # tag and the adoption agency algorithm when a table is open inside it):
        # content still goes into those open descendants. Those are open and
        # inside a kept subtree, so with none such there is nothing to look for.
        if not self._open_inside:
            return ("nested" if top is not None else "root"), 0
        # Subtrees found without open elements stay so until nodes move or a new
        # element goes into a popped one (foster parenting): popped elements never
        # open again, and nothing else is inserted below them. Each nested
        # candidate's subtree was otherwise walked again for every kept ancestor
        # that pops after it (n nested items, quadratic). Every element walked is
        # remembered, not only the walk's root: candidates woken together (at an
        # open table's pop) come outermost first, and each walked all the others'
        # subtrees again (n items in n nested tables, quadratic).
        stamp = self._moves + self._open_added
        if self._closed_stamp != stamp:
            self._closed_stamp = stamp
            if self._closed:
                self._closed = {}
        closed = self._closed
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

    def _clone_target_select(self, el: Element) -> Element | None:
        """The open ``select`` around ``el`` if ``el`` is or holds a ``selectedcontent``.

        Until that select is popped, the pop of its selected ``option`` may
        replace the selectedcontent's children with clones of the option's (HTML
        "maybe clone an option into selectedcontent"). (One inside an option is
        disabled and never gets clones; it is held all the same, which changes
        nothing but the time of its hand-over.)
        """
        selects = self._selects
        if selects and not all(s.sink_state & _OPEN for s in selects):
            selects = self._selects = [s for s in selects if s.sink_state & _OPEN]
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

    def _climb(
        self, start: ParentNode | None, seen_special: bool
    ) -> tuple[int, Element | None, bool, ParentNode | None]:
        """The walk up from ``start`` that decides a popped kept element's fate.

        Returns (blocker key or ``_NOT_BLOCKED``, outermost kept ancestor,
        whether a template's contents were crossed, the node the walk ended on).
        An open HTML ``table`` blocks (key: the outermost open table); an open
        formatting element blocks when an open special element lies below it on
        the walk (``seen_special`` says whether one did before ``start``).
        Popped elements only count when kept. The first ``_INLINE_OPEN`` open
        elements are climbed one by one; from there on the climb summaries of
        open elements are remembered (:meth:`_summary`), so that n items under n
        open elements cost linear time (fuzz findings F5 and F7).
        """
        node = start
        crossed_fragment = False
        top: Element | None = None
        passed = 0
        climbed = 0
        inline_open = self._inline_open
        while node is not None:
            if isinstance(node, Element):
                st = node.sink_state
                if st & _OPEN:
                    if (climbed := climbed + 1) > inline_open:
                        res = self._summary(node, _SEEN_SPECIAL if seen_special else _PLAIN)
                        blocker = res[0]
                        if blocker is not None:
                            blocker = self._outer_table(blocker) if res[1] else blocker
                            self._blocker = blocker
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
                        self._blocker = node = self._outer_table(node)
                        return id(node), None, False, None
                    if _is_special(node):
                        seen_special = True
                    elif seen_special and node.namespace == HTML_NS and node.name in FORMATTING:
                        self._blocker = node
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
                    node, kept = self._hop(node)
                    if kept is not None:
                        top = kept
            elif isinstance(node, DocumentFragment):
                crossed_fragment = True
                node = _host(node)
            else:
                break
        return _NOT_BLOCKED, top, crossed_fragment, node

    def _summary(self, element: Element, mode: int) -> _Summary:
        """The climb of kind ``mode`` from the open ``element`` up (see :meth:`_climb`), remembered.

        A summary is (blocking element or ``None``, whether it is a table, the
        outermost kept element, whether template contents were crossed, the end
        node); for ``_NEAREST_TABLE`` the blocking element is the nearest open
        table at or above ``element`` (:meth:`_next_table`), for ``_OUTER_TABLE``
        the outermost kept element is the outermost open table at or above it
        (:meth:`_outer_table`), and the rest is ``False``/``None`` but the end
        node. Each open element climbed gets an
        entry per mode (:class:`_Memo`) that remembers its step up to the next
        open element; entries whose step adds nothing share one summary in a
        :class:`_Run`, and a run's summary is filled from the run above it (which
        records it in ``dependents``). So each open element is climbed once, and
        a change above a chain of open elements costs one run, not the chain. A
        step depends only on the tree between its element and the next open
        element: it is forgotten when nodes move away from there or are detached
        with open elements inside, when its element (or a popped element right
        above) becomes kept (:meth:`_memo_changed`), or when an element it
        passes pops; summaries are forgotten with every one filled from them.
        """
        key = id(element) << 2 | mode
        entry = self._memo.get(key)
        if entry is None or entry.element is not element:
            entry = self._memo[key] = _Memo(element, mode)
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
                self._step(top)
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

    def _entry(self, element: Element, mode: int) -> _Memo:
        """The entry of the open ``element`` for ``mode``, made if missing."""
        key = id(element) << 2 | mode
        entry = self._memo.get(key)
        if entry is None or entry.element is not element:
            entry = self._memo[key] = _Memo(element, mode)
            element.sink_state |= _MEMO
        return entry

    def _step(self, entry: _Memo) -> None:
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
                node, run_kept = self._hop(node)
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
        target = self._entry(node, _SEEN_SPECIAL if special else mode)
        entry.target = target
        if (
            own_top is None
            and not crossed
            and not apart
            and target.mode == mode
            and target.down is None
            and target.run is not entry.run
        ):
            self._merge(target, entry)

    @staticmethod
    def _members(first: _Memo) -> list[_Memo]:
        out: list[_Memo] = []
        cur: _Memo | None = first
        while cur is not None:
            out.append(cur)
            cur = cur.down
        return out

    def _merge(self, upper: _Memo, lower: _Memo) -> None:
        """Put run of ``lower`` (its top) below ``upper`` (the bottom of its run): one run.

        The smaller run's members are moved to the other (as in a union-find,
        with the splits of :meth:`_cut`): O(1) when it happens near one end of a
        run, but a merge and a cut again and again in the middle of one long run
        cost its length each time (hence the runs of ``_NEAREST_TABLE`` climbs
        stop at formatting elements: :meth:`_step`).
        """
        up_run = upper.run
        low_run = lower.run
        upper.down = lower
        lower.up = upper
        if low_run.size <= up_run.size:
            for m in self._members(lower):
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

    def _cut(self, upper: _Memo) -> None:
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
        self._forget_summary(low_run)

    def _forget_summary(self, run: _Run) -> None:
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

    def _changed_below(self, entry: _Memo) -> None:
        """The tree between ``entry``'s element and open elements right below it changed.

        Forget the steps that lead to ``entry`` (the member below it in its run,
        and the tops of runs filled from it), and the summaries built on them.
        """
        if entry.down is not None:
            self._cut(entry)
        run = entry.run
        if run.dependents:
            for d in list(run.dependents.values()):
                t = d.top
                if t.target is entry and t.run is d:
                    t.known = False
                    del run.dependents[id(d)]
                    self._forget_summary(d)

    def _hop(self, node: Element) -> tuple[ParentNode | None, Element | None]:
        """The end of the run of popped elements from ``node`` up, and its outermost kept element.

        The end is the first ancestor that is an open element, not an element
        (a template's contents, the document) or ``None``. A popped element
        never opens again, so a run only changes when nodes move, are detached
        or become kept; those clear :attr:`_jumps`. Every start of a run climbed
        here is remembered with the run's end (path compression, as in a
        union-find): n items held in n nested tables each climbed every popped
        table below them again at every classification (fuzz finding F5).
        """
        jumps = self._jumps
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

    def _outer_table(self, table: Element) -> Element:
        """The outermost open HTML ``table`` above the open ``table`` (climbing as
        :meth:`_classify` does), or ``table`` itself.

        Each table remembers an open table above it (the outermost one found
        when it was last asked); a remembered one that has been popped since is
        passed over through its own entry, and the entries on the way are
        shortened to the table found (path compression, as in a union-find).
        Moves forget those entries; so past ``_INLINE_TABLES`` tables the
        remembered climbs of kind ``_OUTER_TABLE`` (:meth:`_summary`) answer,
        which moves forget only below the moved nodes: with n nested tables
        open, each new table below n open elements that the adoption agency
        algorithm moves climbed all of those tables again.
        """
        above = self._above
        visited: list[Element] = []
        cur = table
        inline_tables = self._inline_tables
        while True:
            if len(visited) >= inline_tables:
                outer = self._summary(cur, _OUTER_TABLE)[2]
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
                nxt = self._next_table(cur)
            while nxt is not None and not nxt.sink_state & _OPEN:
                # Popped since: the open table nearest above it is the next one.
                hit = above.get(id(nxt))
                nxt = hit[1] if hit is not None and hit[0] is nxt else self._next_table(nxt)
            above[id(cur)] = (cur, nxt)
            if nxt is None:
                for t in visited:
                    above[id(t)] = (t, cur)
                return cur
            visited.append(cur)
            cur = nxt

    def _opened_table(self, table: Element) -> None:
        table.sink_state |= _TABLE
        self._open_tables += 1

    def _next_table(self, table: Element) -> Element | None:
        """The nearest open HTML ``table`` above ``table``, if any.

        With no other open table there is none: each of n tables opened under n
        open elements otherwise climbed all of them (quadratic; the remembered
        answers are forgotten at every move of the adoption agency algorithm).
        With another one open, the first ``_INLINE_OPEN`` open elements are
        climbed one by one, and from there on the remembered climbs of kind
        ``_NEAREST_TABLE`` (:meth:`_summary`), which moves forget only below the
        moved nodes: each of n tables opened under n open elements, with a
        table open above them and a misnested end tag moving them between two
        tables, climbed all of them too.
        """
        if self._open_tables <= (1 if table.sink_state & _TABLE else 0):
            return None
        node: ParentNode | None = table.parent
        climbed = 0
        inline_open = self._inline_open
        while node is not None:
            if isinstance(node, Element):
                if node.sink_state & _OPEN:
                    if (climbed := climbed + 1) > inline_open:
                        return self._summary(node, _NEAREST_TABLE)[0]
                    if node.namespace == HTML_NS and node.name == "table":
                        return node
                    node = node.parent
                else:
                    node = self._hop(node)[0]
            elif isinstance(node, DocumentFragment):
                node = _host(node)
            else:
                return None
        return None

    def _forget_runs(self) -> None:
        """Nodes moved, were detached or became kept: the remembered runs (:meth:`_hop`) and
        tables (:meth:`_outer_table`) may be wrong (remembered climbs: :meth:`_memo_changed`)."""
        if self._jumps:
            self._jumps = {}
        if self._above:
            self._above = {}
        if self._tops:
            self._tops = {}
        if self._closed:
            self._closed = {}

    def _forget_memo(self) -> None:
        for entry in self._memo.values():
            entry.element.sink_state &= ~_MEMO
        self._memo = {}

    def _popped_memo(self, element: Element) -> None:
        """``element`` was popped: its remembered climbs, and those that lead to it, are wrong.

        Usually it is the deepest open element on its remembered climbs, so no
        other entry leads to it.
        """
        memo = self._memo
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
                self._changed_below(entry)
                up = entry.up
                if up is not None:
                    self._cut(up)
                else:
                    # The top of its run (now alone in it): the run it was filled from no
                    # longer lists it, else the run above a chain that the adoption agency
                    # algorithm keeps moving collects a popped clone at every move.
                    target = entry.target
                    if entry.known and target is not None:
                        target.run.dependents.pop(id(entry.run), None)
                    entry.known = False
                self._forget_summary(entry.run)
                del memo[key]

    def _memo_changed(self, node: ParentNode | None, own: bool) -> None:
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
        memo = self._memo
        base = id(node) << 2
        for key in (base | _PLAIN, base | _SEEN_SPECIAL, base | _NEAREST_TABLE, base | _OUTER_TABLE):
            entry = memo.get(key)
            if entry is not None and entry.element is node:
                self._changed_below(entry)
                if own:
                    up = entry.up
                    if up is not None:
                        self._cut(up)  # (forgets the step of the part below, this entry's)
                    else:
                        entry.known = False
                        self._forget_summary(entry.run)

    def _take_blocker(self) -> Element | None:
        """The blocking element :meth:`_climb` left in ``_blocker`` (then cleared, so that it
        keeps no element alive); a method, as each climb between sets it anew."""
        blocker = self._blocker
        self._blocker = None
        return blocker

    def _ready_or_hold(self, el: Element) -> None:
        if not el.sink_state:
            return
        self._blocker = None
        kind, blocker = self._classify(el)
        proxy = self._take_blocker()
        if kind == "root" and self._kept_open:
            # (normally no kept element is open outside a root candidate: see _open_before)
            before = self._open_before(el)
            if before is not None:
                kind, blocker = "blocked", id(before)
                proxy = before  # (it precedes el)
        if kind == "root" or kind == "nested":
            if not el.sink_state & _READY:
                el.sink_state |= _READY
                self._ready.append(el)
        elif kind == "blocked":
            # (the climb's blocker is el's ancestor; a select's or an open descendant's
            # key is another element's: no proxy)
            self._hold(blocker, _Held([el], [], el, self._epoch, 1), proxy if id(proxy) == blocker else None)
            if self._order is not None and not self._insert(el):
                self._start_order([*self._pending(), el])
        elif kind == "detached":
            self._drop(el)
        else:
            # covered: it will be handed over with the kept element that covers it
            el.sink_state &= ~_PENDING

    def _wake(self, blocker: Element, woken: list[_Held]) -> None:
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
        (:meth:`_chain`, :meth:`_wake_chain`).
        """
        slow: list[_Held] = []
        # id(open element) -> (that element, the helds below it, how many candidates)
        fast: dict[int, tuple[Element, list[_Held], list[int]]] = {}
        # (a select may hold first: _classify; one candidate alone gains nothing from a group)
        plain = not self._selectedcontent and (len(woken) > 1 or woken[0].size > 1)
        epoch = self._epoch
        loose: list[_Held] = []  # groups of chains not held again whole
        for held in woken:
            self._n_blocked -= held.size
            if held.links >= 0:
                self._wake_chain(held, slow, loose)
                continue
            self._group(held, plain, fast, slow)
        for held in loose:
            self._group(held, True, fast, slow)
        found: list[tuple[Element, list[_Held], int, int, Element | None]] = []
        for under, helds, size in fast.values():
            self._blocker = None
            key = self._climb(under, False)[0]
            if key != _NOT_BLOCKED:
                proxy = self._take_blocker()  # (an ancestor of under, so of every candidate)
                found.append((under, helds, size[0], key, proxy if id(proxy) == key else None))
            else:
                slow.extend(helds)
        if len(found) >= _CHAIN_MIN and self._may_chain():
            found = self._chain(found, epoch)
        for under, helds, count, key, proxy in found:
            held = _Held([], helds, under, epoch, count)
            self._hold(key, held, proxy)
            roots = self._roots.get(id(under))
            if roots is None or roots[0] is not under:
                if len(self._roots) > 64 + self._n_blocked:
                    # (entries of popped elements: their children move no more)
                    self._roots = {k: v for k, v in self._roots.items() if v[0].sink_state & _OPEN}
                roots = self._roots[id(under)] = (under, [])
            roots[1].append(held)
        for held in slow:
            for cand in held.members():
                self._ready_or_hold(cand)

    def _group(
        self, held: _Held, plain: bool, fast: dict[int, tuple[Element, list[_Held], list[int]]], slow: list[_Held]
    ) -> None:
        """Put ``held`` in the group of the open element its candidates lie under, if any (:meth:`_wake`)."""
        if plain and held.epoch >= 0:
            entry = held.entry
            under: ParentNode | None
            if entry.sink_state & _OPEN:
                under = entry
            else:
                under = entry.parent
                if type(under) is Element and not under.sink_state & _OPEN:
                    under = self._hop(under)[0]
            if type(under) is Element and under.sink_state & _OPEN:
                group = fast.get(id(under))
                if group is None:
                    group = fast[id(under)] = (under, [], [0])
                group[1].append(held)
                group[2][0] += held.size
                return
        slow.append(held)

    def _may_chain(self) -> bool:
        """Can chains be made or kept whole? Not with an open table (foster parenting moves
        nodes out from under open elements without popping them), template contents
        (their climbs cross to the host) or a possible frameset (it removes the body)."""
        return not (
            self._open_tables or self._templates or self._tentative or self._selectedcontent or self._frameset_possible()
        )

    def _chain(
        self, found: list[tuple[Element, list[_Held], int, int, Element | None]], epoch: int
    ) -> list[tuple[Element, list[_Held], int, int, Element | None]]:
        """Make chains of the groups of ``found`` held for one blocker (their ancestor) whose
        open elements lie each below the next; return the others.

        In the adoption agency algorithm's misnested end tags under n open special
        elements, every group below the formatting element's clone is woken at each
        of them and held again for the next clone: n groups for each of n end tags
        (quadratic). A chain is woken as a whole (:meth:`_wake_chain`).
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
                self._chained[id(sub.entry)] = (sub, chain)
            self._hold(key, chain, subs[-1].entry if key not in self._blocked else found[idx[0]][4])
            taken.update(idx)
        return [f for i, f in enumerate(found) if i not in taken] if taken else found

    def _wake_chain(self, chain: _Held, slow: list[_Held], loose: list[_Held]) -> None:
        """Decide again for a chain (:meth:`_chain`) whose blocker was popped.

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
        chained = self._chained
        key = _NOT_BLOCKED
        proxy: Element | None = None
        ok = self._may_chain()
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
            self._blocker = None
            key = self._climb(sub.entry, False)[0]
            proxy = self._take_blocker()
            if key != _NOT_BLOCKED:
                break
            subs.pop()
            chained.pop(id(sub.entry), None)
            size -= sub.size
            slow.append(sub)
        if ok and chain.links == 0 and len(subs) > 1 and id(proxy) == key:
            self._blocker = None
            deep = self._climb(subs[0].entry, False)[0]
            self._blocker = None
            if deep == key:
                chain.size = size
                chain.entry = subs[-1].entry
                chain.epoch = self._epoch
                self._hold(key, chain, chain.entry if key not in self._blocked else proxy)
                return
        for sub in subs:
            if chained.get(id(sub.entry), (None,))[0] is sub:
                del chained[id(sub.entry)]
            loose.append(sub)

    def _unchain(self, element: Element | ParentNode) -> None:
        """``element`` is popped or its children move: a chain through it is broken (:meth:`_wake_chain`)."""
        link = self._chained.pop(id(element), None)
        if link is not None and link[0].entry is element:
            link[0].epoch = -1
            link[1].epoch = -1
            link[1].links += 1

    def _hold(self, key: int, held: _Held, proxy: Element | None) -> None:
        """Hold ``held``'s candidates for the blocker ``key``; ``proxy``: an element at or
        before each of them in document order, or ``None`` (see ``_proxies``)."""
        groups = self._blocked.get(key)
        if groups is None:
            self._blocked[key] = [held]
            if proxy is not None:
                self._proxies[key] = (proxy, self._epoch)
        else:
            groups.append(held)
            if self._proxies:
                if proxy is None:
                    self._proxies.pop(key, None)
                else:
                    known = self._proxies.get(key)
                    if known is not None and id(known[0]) != key and not self._in_chain(held.entry, known[0]):
                        # (a chain's top element is at or before its own candidates only)
                        if id(proxy) == key:
                            self._proxies[key] = (proxy, known[1])
                        else:
                            del self._proxies[key]
            # (else an entry stays with the older epoch, or none: a group had no proxy)
        self._n_blocked += held.size

    def _in_chain(self, node: Element, top: Element) -> bool:
        """Is ``node`` at or below an element of the chain whose top is ``top``? (A short look up:
        the adoption agency algorithm's misnested end tags hold items right below the chain.)"""
        chained = self._chained
        cur: ParentNode | None = node
        for _ in range(_MAX_PROXIES):
            if cur is None:
                return False
            link = chained.get(id(cur))
            if link is not None and link[0].entry is cur:
                return link[1].entry is top and link[1].links == 0
            cur = cur.parent
        return False

    def _before_held(self, ready: list[Element]) -> bool:
        """Is each of ``ready`` before every held candidate in document order?

        Told by one comparison with each blocker's proxy (an ancestor of its
        candidates, or an element before them) when every blocker has one and no
        node moved since. A root candidate the adoption agency algorithm moved
        out of a formatting element lies right before that element's clone, whose
        items are held deep below it: a comparison with those items climbed the
        whole chain of open elements between them, for each of n misnested end
        tags (quadratic), and the kept order was made again after each move.
        """
        proxies = self._proxies
        if len(proxies) != len(self._blocked) or len(proxies) > _MAX_PROXIES:
            return False
        epoch = self._epoch
        for _proxy, at in proxies.values():
            if at != epoch:
                return False
        for el in ready:
            for proxy, _at in proxies.values():
                if not _before(el, proxy):
                    return False
        return True

    def _held(self) -> list[Element]:
        """Every held candidate still tracked."""
        return [c for groups in self._blocked.values() for held in groups for c in held.members() if c.sink_state]

    def _hand_over(self) -> None:
        ready = self._ready
        if self._n_blocked == 0 and self._order is None:
            if ready:
                if len(ready) > 1:
                    ready = _in_document_order(ready)
                self._ready = []
                for el in ready:
                    self._emit(el)
            return
        if ready and not self._waiting and self._before_held(ready):
            # Before everything that waits: handed over now, the kept order (if any) unchanged.
            if len(ready) > 1:
                ready = _in_document_order(ready)
            self._ready = []
            for el in ready:
                self._emit(el)
            return
        if self._order is None:
            if self._n_blocked + len(ready) > self.max_pending:
                self._force(ready)
                return
            # Something is held: from now on the pending items are kept in document
            # order as they come (a sort of all of them at every hand-over was quadratic).
            self._ready = []
            self._start_order(ready + self._held())
            self._waiting = len(ready)
        else:
            self._ready = []
            if self._order_moves == self._moves and self._insert_all(ready):
                self._waiting += len(ready)
            else:
                # Nodes moved (or an order could not be told): sort everything again.
                self._start_order(self._pending() + ready)
                self._waiting = sum(1 for el in self._order or () if el.sink_state & _READY)
            if self._n_blocked + self._waiting > self.max_pending:
                self._force([])
                return
        # Ready items before the first held one (document order) go now, the rest wait.
        order = self._order
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
        self._waiting -= len(emit)
        if not order:
            self._order = None
            self._waiting = 0
        for el in emit:
            self._emit(el)

    def _force(self, ready: list[Element]) -> None:
        """More than ``max_pending`` items wait: hand every one over now, in document order."""
        everything = ready + self._held()
        if self._order is not None:
            everything += [el for el in self._order if el.sink_state & _PENDING]
            self._end_order()
        self._blocked = {}
        self._proxies = {}
        self._n_blocked = 0
        self._roots = {}
        self._chained = {}
        self._ready = []
        unique = list({id(el): el for el in everything}.values())
        self.forced += len(unique) - sum(1 for el in unique if el.sink_state & _READY)
        for el in _in_document_order(unique):
            if el.sink_state:
                self._emit(el)

    def _pending(self) -> list[Element]:
        """The items in the kept order that still wait (ready or held)."""
        order = self._order
        return [] if order is None else [el for el in order if el.sink_state & _PENDING]

    def _start_order(self, items: list[Element]) -> None:
        self._end_order()
        order = _in_document_order(list({id(el): el for el in items if el.sink_state}.values()))
        for el in order:
            el.sink_state |= _PENDING
        self._order = order
        self._order_moves = self._moves

    def _end_order(self) -> None:
        order = self._order
        if order is not None:
            for el in order:
                if el.sink_state:
                    el.sink_state &= ~_PENDING
        self._order = None

    def _insert_all(self, items: list[Element]) -> bool:
        return all(self._insert(el) for el in items)

    def _insert(self, el: Element) -> bool:
        """Put ``el`` in its place in the kept order; False if an order cannot be told.

        A new item usually comes after every other one: one comparison, which
        climbs only to the two items' nearest common ancestor.
        """
        order = self._order
        if order is None or el.sink_state & _PENDING:
            return True
        while order and not order[-1].sink_state & _PENDING:
            order.pop()  # handed over or dropped since
        el.sink_state |= _PENDING
        if not order:
            order.append(el)
            return True
        after = _before(order[-1], el)
        if after is None:
            return False
        if after:
            order.append(el)
            return True
        lo = 0
        hi = len(order) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            first = _before(el, order[mid])
            if first is None:
                return False
            if first:
                hi = mid
            else:
                lo = mid + 1
        order.insert(lo, el)
        return True

    def _emit(self, el: Element) -> None:
        if not el.sink_state:
            return  # a nested candidate whose outermost kept ancestor was handed over first
        el.sink_state &= ~(_READY | _PENDING)
        parent = el.parent
        if parent is not None and self._inside(parent):
            self._emit_nested(el)
            return
        released = self.on_complete(el)
        parent = el.parent
        if self._watch_open and type(parent) is Element:
            self._lose_items(parent)
        if self._jumps or self._above or self._tops or self._closed:
            self._forget_runs()  # (_closed: only nested candidates' subtrees are looked up again)
        if self._memo and self._open_inside:
            self._memo_changed(parent, False)  # (a forced hand-over: open elements inside)
        if self._alone_seen:
            self._alone_seen = {}
        detach(el)
        # Parent links are cleared only when nothing can still look up through them:
        # the consumer said it is done, and no held candidate (or nested hand-over)
        # could still be placed in document order by its path (_doc_position).
        self._untrack(el, unlink=bool(released) and not self._blocked and self.on_nested is None)
        if parent is not None:
            self._cascade(parent)

    def _top_kept(self, el: Element) -> Element | None:
        """The outermost kept ancestor of ``el``.

        Remembered for every element climbed (the outermost kept element at or
        above it) until nodes move, are detached or become kept
        (:meth:`_forget_runs`): n nested items handed over one by one otherwise
        each climbed all their ancestors.
        """
        tops = self._tops
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

    def _alone(self, top: Element) -> bool:
        """Is ``top`` the only outermost kept subtree not handed over yet (open or held)?

        Only then is ``top`` sure to be the next outermost subtree handed over.
        """
        outer = self._outermost_open()
        for el in outer.values():
            if el is not top:
                parent = el.parent
                if parent is None or not self._inside(parent):
                    return False
        # (held items: a group below an open element inside a kept subtree holds only
        # nested candidates, and the kept order's items are held ones unless some wait
        # ready: n nested items handed over one by one each looked at every held one)
        cands = [*self._ready, *self._recheck]
        if self._waiting and self._order is not None:
            cands += self._order
        for cand in cands:
            if cand is not top and cand.sink_state:
                parent = cand.parent
                if parent is None or not self._inside(parent):
                    return False
        # Held groups found nested before are not looked at again until flags or parents
        # may change (_alone_seen): a blocker (an open table) holding n nested candidates,
        # one group each, was looked at whole for each of n items handed over.
        seen = self._alone_seen
        blocked = self._blocked
        if len(seen) > 2 * len(blocked) + 16:
            seen = self._alone_seen = {k: v for k, v in seen.items() if blocked.get(k) is v[0]}
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
                        if parent is None or not self._inside(parent):
                            return False
                stack += held.groups
            if clean:
                seen[key] = (groups, len(groups))
        return True

    def _outermost_open(self) -> dict[int, Element]:
        """The open kept elements that were outside kept subtrees when last looked at."""
        outer = self._outer
        if outer is None:
            # (kept up to date as kept elements are made and popped; made again after moves)
            outer = self._outer = {}
            for el in self._kept_open.values():
                parent = el.parent
                if parent is None or not self._inside(parent):
                    outer[id(el)] = el
        return outer

    def _open_before(self, el: Element) -> Element | None:
        """An open outermost kept element before the root candidate ``el`` in document order.

        Content comes after an open element only inside it, so normally there is
        none. But the adoption agency algorithm moves the furthest block (with
        ``el`` inside it) after the formatting element, whose own subtree may
        hold a kept element that the same token removes from the stack of open
        elements; the tree builder reports those pops after the moves, and a
        candidate rechecked at the first of them would be handed over before
        that kept element (which precedes it). Such a candidate is held until
        the element pops.
        """
        for k in self._outermost_open().values():
            if k is not el and k.sink_state & _OPEN:
                parent = k.parent
                if (parent is None or not self._inside(parent)) and _before(k, el):
                    return k
        return None

    def _watched(self, el: Element) -> bool:
        watch = self.watch_nested
        if watch is None:
            return False
        top = self._nested_top(el)
        return top is not None and watch(el, top)

    def _nested_top(self, el: Element) -> Element | None:
        """:meth:`_top_kept` (the outermost kept ancestor of ``el``), through the remembered climbs.

        The climb that decides ``el``'s fate (:meth:`_climb`) knows its
        outermost kept ancestor, or else the blocker above it: if that is kept or
        inside a kept subtree, the outermost kept element at or above it is
        ``el``'s, and the climb goes on from there (a few times at most). The
        adoption agency algorithm moves a clone of a formatting element down a
        chain of n open elements at each misnested end tag, with nested items
        below the chain: :meth:`_top_kept` climbed it for each item watched or
        handed over (quadratic), as its answers are forgotten at every move.
        (:meth:`_top_kept` stops at template contents, the climb goes on to
        their host: with any template made, it is asked.)
        """
        if self._templates:
            return self._top_kept(el)
        node = el
        for _ in range(_MAX_PROXIES):
            self._blocker = None
            key, top, _crossed, _end = self._climb(node.parent, False)
            if key == _NOT_BLOCKED:
                return node if top is None and node is not el and node.sink_state & _KEPT else top
            blocker = self._take_blocker()
            if blocker is None or id(blocker) != key or not blocker.sink_state & _INSIDE:
                break  # (a kept element between node and the blocker may be the outermost)
            node = blocker  # kept, or inside a kept subtree: the outermost is at or above it
        top = self._top_kept(node)
        return node if top is None and node is not el and node.sink_state & _KEPT else top

    def _emit_nested(self, el: Element) -> None:
        on_nested = self.on_nested
        if on_nested is None:
            return
        top = self._nested_top(el)
        if top is None:
            return
        action = on_nested(el, top, self._alone(top))
        if action != NESTED_KEEP:
            # Removing a subtree changes no other element's outermost kept ancestor, nor
            # any run of popped elements that starts outside it: what _top_kept and _hop
            # remembered stays true but for the removed nodes (forgotten below).
            # Forgetting it all made n items nested n deep climb n each.
            tops, jumps = self._tops, self._jumps
            self._forget_runs()
            self._tops, self._jumps = tops, jumps
            if self._memo and self._open_inside:
                self._memo_changed(el, False)
        if action == NESTED_EMPTY:
            if self._alone_seen:
                self._alone_seen = {}  # (children lose their parent link)
            children = el.children
            el.children = []
            for c in children:
                c.parent = None
                self._forget_tops(c)
                self._untrack(c)
        elif action == NESTED_REMOVE:
            parent = el.parent
            if parent is not None:
                siblings = parent.children
                i = self._sibling_index(parent, siblings, el)
                if i >= 0:
                    if i > 0 and type(siblings[i - 1]) is Text:
                        i -= 1
                        siblings[i].parent = None
                        del siblings[i]  # text is not counted in max_kept_nodes
                    del siblings[i]
                    self._removed_parent = id(parent)
                    self._removed_index = i
                el.parent = None
            self._forget_tops(el)
            self._untrack(el)

    def _sibling_index(self, parent: ParentNode, siblings: list[Node], el: Element) -> int:
        """The index of ``el`` in ``parent``'s ``siblings``, looked for from the last removal's place.

        Nested items are handed over in document order: the next one removed from
        the same parent is at or after the index the last one left (its siblings
        before it stay, as placeholders or kept). Looking from either end instead
        passed every sibling left before or after it, for each item (n items
        removed from one parent: quadratic). The place is a guess checked by
        identity, so a stale one only costs the fallback scan. -1: not there.
        """
        n = len(siblings)
        start = self._removed_index if self._removed_parent == id(parent) else n
        if start > n:
            start = n
        for i in range(start, n):
            if siblings[i] is el:
                return i
        for i in range(start - 1, -1, -1):
            if siblings[i] is el:
                return i
        return -1  # (not there: only its parent link goes, as detach() does)

    def _forget_tops(self, root: Node) -> None:
        """Forget what :meth:`_top_kept` and :meth:`_hop` remembered for ``root``'s subtree (being removed)."""
        tops = self._tops
        jumps = self._jumps
        if not (tops or jumps) or type(root) is not Element:
            return
        stack: list[Element] = [root]
        while stack:
            node = stack.pop()
            tops.pop(id(node), None)
            jumps.pop(id(node), None)
            _push_elements_below(node, stack)

    def _forget_within(self, root: Element) -> bool:
        """Forget the remembered runs, tables and tops (:meth:`_forget_runs`) of the popped
        ``root``'s subtree, which is being detached; no other element's climb passes it.

        False if an open element lies inside (climbs from it would change): the
        caller then forgets everything.
        """
        jumps = self._jumps
        above = self._above
        tops = self._tops
        closed = self._closed
        if not (jumps or above or tops or closed):
            return True
        stack: list[Element] = [root]
        while stack:
            node = stack.pop()
            if node.sink_state & _OPEN:
                return False
            key = id(node)
            jumps.pop(key, None)
            above.pop(key, None)
            tops.pop(key, None)
            closed.pop(key, None)
            _push_elements_below(node, stack)
        return True

    def _drop(self, el: Element) -> None:
        parent = el.parent
        # With nothing open inside ``el``, detaching it changes no climb from outside
        # it, so only what was remembered inside it goes: each of n items dropped from
        # template contents climbed the same n popped elements again after the last
        # drop forgot them all (quadratic).
        if not self._forget_within(el):
            self._forget_runs()
        if self._memo and self._open_inside:
            self._memo_changed(parent, False)
        detach(el)
        self._untrack(el)
        if parent is not None:
            self._cascade(parent)

    def _untrack(self, root: Node, *, unlink: bool = False) -> None:
        """Stop tracking ``root``'s subtree; ``unlink``: also clear the parent links below ``root``.

        An element still open in the tree builder (a forced hand-over) keeps its
        link: the tree builder may still insert into it or look at its parent.
        """
        if unlink and not self._open_inside and not self._kept_open:
            self._unlink(root)
            return
        if self._kept_open:
            self._outer = None
        kept_open = self._kept_open
        n = 0
        untracked = 0
        open_inside = 0
        stack: list[Node] = [root]
        while stack:
            node = stack.pop()
            n += 1
            # Only elements hold children here (template contents are walked through their host).
            if type(node) is Element:
                children = node.children
                if children:
                    stack.extend(children)
                st = node.sink_state
                if st:
                    if st & _OPEN:
                        if st & _INSIDE:
                            open_inside += 1
                        if st & _TABLE:
                            self._open_tables -= 1
                    elif unlink:
                        node.parent = None
                    node.sink_state = 0
                    untracked += 1
                elif unlink:
                    node.parent = None
                if kept_open:
                    kept_open.pop(id(node), None)
                contents = node.template_contents
                if contents is not None:
                    stack.extend(contents.children)
            elif unlink:
                node.parent = None
        self.tracked -= untracked
        self._open_inside -= open_inside
        self._kept_nodes = max(0, self._kept_nodes - n)

    def _unlink(self, root: Node) -> None:
        """:meth:`_untrack` with ``unlink`` when no element is open inside a kept subtree.

        The usual hand-over (the consumer is done with the subtree, nothing is
        forced): then no node below ``root`` keeps its parent link and no
        element is in ``_kept_open``, so the walk does only what every node needs.
        Nodes are counted through their parents' child lists.
        """
        n = 1
        untracked = 0
        stack: list[Node] = [root]
        pop = stack.pop
        extend = stack.extend
        while stack:
            node = pop()
            node.parent = None
            if type(node) is Element:
                children = node.children
                if children:
                    n += len(children)
                    extend(children)
                if node.sink_state:
                    node.sink_state = 0
                    untracked += 1
                contents = node.template_contents
                if contents is not None:
                    # Walked through their host; the fragment itself is not counted.
                    n += len(contents.children)
                    extend(contents.children)
                    contents.host = None  # (a cycle otherwise, as the parent links)
        self.tracked -= untracked
        self._kept_nodes = max(0, self._kept_nodes - n)

    def _cascade(self, parent: ParentNode) -> None:
        """Release ``parent`` and its ancestors while they are popped, outside kept subtrees and empty."""
        node: ParentNode | None = parent
        while type(node) is Element:
            # Tracked and neither open nor inside a kept subtree (kept implies inside).
            if node.sink_state != _TRACKED:
                return
            if node.name == "head" and node.namespace == HTML_NS:
                return
            if any(isinstance(c, Element) for c in node.children):
                return
            nxt = node.parent
            if self._jumps or self._above or self._tops:
                # (no element children: only climbs from ``node`` itself pass it)
                self._forget_within(node)
            detach(node)
            node.sink_state = 0
            self.tracked -= 1
            node = nxt


def _before(a: Node, b: Node) -> bool | None:
    """Is ``a`` before ``b`` in document order (an ancestor is before its descendants)?

    Climbs from both at once up to their nearest common ancestor, so the cost is
    the distance to it, not the depth. ``None``: not in one tree, or not found
    among a parent's children.
    """
    if a is b:
        return False
    from_a: dict[int, Node | None] = {id(a): None}
    from_b: dict[int, Node | None] = {id(b): None}
    x: Node | None = a
    y: Node | None = b
    common: Node
    ca: Node | None
    cb: Node | None
    while True:
        if x is not None:
            px: Node | None = x.parent
            if px is not None:
                if id(px) in from_b:
                    common, ca, cb = px, x, from_b[id(px)]
                    break
                from_a[id(px)] = x
            elif id(x) in from_b:
                common, ca, cb = x, from_a[id(x)], from_b[id(x)]
                break
            x = px
        if y is not None:
            py: Node | None = y.parent
            if py is not None:
                if id(py) in from_a:
                    common, ca, cb = py, from_a[id(py)], y
                    break
                from_b[id(py)] = y
            y = py
        if x is None and y is None:
            return None
    if ca is None:
        return True  # a is an ancestor of b
    if cb is None:
        return False
    if not isinstance(common, ParentNode):
        return None
    children = common.children
    for i in range(len(children) - 1, -1, -1):
        c = children[i]
        if c is cb:
            return True
        if c is ca:
            return False
    return None


def _in_document_order(nodes: list[Element]) -> list[Element]:
    """``nodes`` sorted in document order (ancestors first).

    Walks up from every node, in step, mark their ancestors up to where the paths
    join, one preorder walk of the marked nodes (through their children lists)
    lists them: linear in the nodes on their paths. Sorting by each node's child-index path instead (below) costs
    the depth per node, quadratic for n items held at depths up to n (nested
    tables, each holding an item). That sort stays for nodes not all in one tree
    or not found among their parent's children (its order is the reference).
    """
    # The walks go up in step, each ending on a node another one passed: they stop at the
    # top of the paths that join them, not at the document (a few ready items deep below
    # n open elements, sorted at each of n end tags, walked up n elements each time).
    on_path: set[int] = {id(n) for n in nodes}
    roots: list[Node] = []
    active: list[Node] = list(nodes)
    while len(active) > 1 or (active and roots):
        going: list[Node] = []
        for cur in active:
            parent = cur.parent
            if parent is None:
                roots.append(cur)
            elif id(parent) not in on_path:
                on_path.add(id(parent))
                going.append(parent)
        active = going
    if active:
        root: Node | None = active[0]
    elif roots:
        root = roots[0]
        if any(r is not root for r in roots):
            return sorted(nodes, key=_DocPositions().of)
    else:
        root = None
    wanted = {id(n) for n in nodes}
    out: list[Element] = []
    stack: list[Node] = [] if root is None else [root]
    while stack:
        node = stack.pop()
        if id(node) in wanted and type(node) is Element:
            out.append(node)
        if isinstance(node, ParentNode):
            stack.extend([c for c in reversed(node.children) if id(c) in on_path])
    if len(out) != len(nodes):
        return sorted(nodes, key=_DocPositions().of)
    return out


class _DocPositions:
    """:func:`_doc_position` for many nodes at once: each parent's children are indexed once.

    Many items held in one open table become ready together when it closes; with
    a search of the parent's children per item, sorting them was quadratic.
    """

    __slots__ = ("_index",)

    def __init__(self) -> None:
        self._index: dict[int, dict[int, int]] = {}

    def of(self, node: Node) -> list[int]:
        path: list[int] = []
        index = self._index
        cur: Node = node
        parent = cur.parent
        while parent is not None:
            at = index.get(id(parent))
            if at is None:
                at = index[id(parent)] = {id(c): i for i, c in enumerate(parent.children)}
            i = at.get(id(cur))
            path.append(-1 if i is None else i)
            cur = parent
            parent = cur.parent
        path.reverse()
        return path


def _doc_position(node: Node) -> list[int]:
    """Child-index path from the root: compares in document order (pruned tree is small)."""
    path: list[int] = []
    cur: Node = node
    parent = cur.parent
    while parent is not None:
        children = parent.children
        for i in range(len(children) - 1, -1, -1):
            if children[i] is cur:
                path.append(i)
                break
        cur = parent
        parent = cur.parent
    path.reverse()
    return path
