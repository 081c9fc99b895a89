"""The bounded tree: a sink that keeps only what a consumer can still need.

:class:`~stream_mf2.html.bounded.sink.BoundedSink` drops every element a keep
predicate does not want as soon as it pops, and hands each completed kept
subtree to a callback; :class:`~stream_mf2.html.bounded.observed.ObservedSink`
also reports where each element is placed (for consumers that match paths,
such as Website Parse Templates). The engine knows no consumer: the predicate
and the callbacks are given by the core.

The modules, bottom to top (each imports only those above it in this list, at run time):

* :mod:`.flags` — the per-element bit set (``Element.sink_state``), limits, small helpers;
* :mod:`.docorder` — document order: comparing positions, the kept order of pending items;
* :mod:`.reference` — the plain walks every shortcut must equal (the debug switch);
* :mod:`.climbs` — the remembered climbs (what holds a popped kept element, the open tables);
* :mod:`.release` — dropping what no one needs: released, untracked, unlinked subtrees;
* :mod:`.selected` — ``selectedcontent``: per-select records, captured and watched options, clones;
* :mod:`.mutation` — the one hook for the tree builder's moves and removals, and the INSIDE flags;
* :mod:`.tentative` — ``html``/``body`` content stored until a merged class could make it kept;
* :mod:`.withdraw` — roots an observer holds for a while: withdrawing one, keeping an adoption clone;
* :mod:`.hold` — held candidates: who blocks each, groups and chains, waking them;
* :mod:`.handover` — handing over in document order, the nested hand-over;
* :mod:`.sink` — :class:`~.sink.BoundedSink`: the tree sink calls, its state, the public queries;
* :mod:`.observed` — :class:`~.observed.ObservedSink`, the placement-reporting variant.

``docs/internals/bounded-sink.md`` leads from the proof below to those modules.

:class:`BoundedSink` is the :class:`~stream_mf2.html.sink.TreeSink` of the
streaming parser. A keep predicate is asked once for every created element
(formatting-element clones included), except an element without attributes
whose name is not in ``bare_keeps``, when the sink is given that set. A *kept subtree* is a kept element with
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
"""

from stream_mf2.html.bounded.observed import ObservedSink
from stream_mf2.html.bounded.sink import (
    DEFAULT_MAX_KEPT_NODES,
    DEFAULT_MAX_PREFIX_NODES,
    NESTED_EMPTY,
    NESTED_KEEP,
    NESTED_REMOVE,
    BoundedSink,
)

__all__ = [
    "DEFAULT_MAX_KEPT_NODES",
    "DEFAULT_MAX_PREFIX_NODES",
    "NESTED_EMPTY",
    "NESTED_KEEP",
    "NESTED_REMOVE",
    "BoundedSink",
    "ObservedSink",
]
