"""Which subtrees the bounded tree keeps, and what happens when one is complete.

The bounded sink asks :meth:`Capture.keep` once for every element it creates
(formatting-element clones included) and calls :meth:`Capture.complete` when
the outermost kept element is final. This module is the only place that joins
the HTML engine to the mf2 functions; neither knows about the other.

What is kept
    * microformats roots (mf2 ``h-*`` and classic roots), whole;
    * ``a``/``link``/``area`` with ``rel`` (rels need their text);
    * ``<head>`` when metaformats is on (the meta item is built from it when it
      closes, which is the hook the metaformats spec names);
    * an element whose ``id`` a held item is waiting for (include pattern);
    * a header cell (``th``) with an ``id``: the ``headers`` form of the include
      pattern points *back* at the table's header cells, so the last
      ``RECENT_HEADER_CELLS`` of them are remembered.

Everything else is observed on creation and dropped: the first ``<base href>``
(applied from then on), ``<html lang>`` and a ``Content-Language`` meta (not
inside template contents, which are not part of the document: the tree
builder says whether a ``template`` is open, the ``template_open`` callback).

Include pattern and order
    A classic root may include markup by id (``itemref``, ``headers``,
    ``a.include``). Targets usually come *after* the root, so a completed root
    whose targets have not been seen is held, its ids are watched for, and it is
    built when they arrive or the document ends. Items after a held item are
    held too, so the output order is document order. The hold is bounded by
    ``max_held_items``: past it the oldest item is built with the targets seen so
    far and a recovery is recorded in :attr:`Capture.notes`.

    The sink may complete a root long after its end tag (at the start of the
    body, while ``<frameset>`` could still replace it), when its targets were
    created already: so the ids a classic root's own ``itemref`` (or an
    ``a``/``object`` include) names are watched from the moment the marker's
    element is created (:meth:`Capture._expect`), and the first element with
    each is kept.

    Streaming rule: a target is found if it comes after the referencing root
    (or, for a root's own ``itemref`` and for ``a``/``object`` includes, after
    the marker's element), inside the same root, or is one of the last
    ``RECENT_HEADER_CELLS`` id'd ``th`` cells. Any other target that appeared
    before the root, outside a kept subtree, is gone by then; the reference is
    left unresolved and a note recorded (also when a later element repeats that
    id: the DOM takes the first; ids are remembered up to ``MAX_SEEN_IDS``). ``itemref`` and ``a.include`` targets
    on real pages come after the item (as in the official suite); ``headers``
    point back at header cells, which are kept.

Streaming the children of a container (``stream_children``)
    A page-wide ``h-feed`` is one outermost root, so normally it is yielded
    only at the end and its whole subtree is kept. With ``stream_children``
    (``True``: every outermost mf2 root; a set: outermost mf2 roots with one of
    those types) each item that will land in the container's ``children`` list
    is yielded as soon as the bounded sink says it is final (the nested
    hand-over, with the same finality rules as for outermost subtrees):
    ``ItemEvent(item, path=(i, j))``, where ``i`` is the container's index among
    the top-level items and ``j`` the child's index in the container's full
    ``children`` list. The child is built with
    :func:`~stream_mf2.mf2.fold_nested`, so its item is exactly what the whole
    parse gives, and then its subtree is dropped. The first streamed child stays
    as a childless placeholder that stands for a marker item, so the
    container still counts as having nested microformats (no implied name,
    photo or url, as in the whole parse); later ones are removed entirely,
    since all they could change is already decided. The container's own event
    comes at its end, with the streamed children left out of its ``children``
    and ``children_streamed`` set; :func:`stream_mf2.reassemble` gives back the
    whole-document items.

    A child is not streamed (it stays inside the container's event) when
    :func:`~stream_mf2.mf2.fold_nested` refuses it (it sits inside a property
    of the container, or uses the mf1 include pattern), when it sits inside a
    rel link (whose text reads it), while items are held for include
    targets, or while another outermost kept subtree is open or held in the
    sink (misnested markup: the container might then not be the next
    top-level item). Classic (mf1) roots are never containers: the include
    pattern, which only works in their scope, may point anywhere inside them.
    For the same reason, once an item of the container's own scope that stays
    in it (a child not streamed, or a property root) holds include markers, no
    later child of that container is streamed: a marker may name a later
    sibling, which the container's build copies whole.

    Rels keep document order: inside a container, rel links are added to
    ``rels`` when they are final (not when the container ends), each once.

    A container's rels are resolved when it ends (links final before any
    ``<base>`` was seen wait, as attribute-only copies), so they equal the
    default output even when a ``<base>`` arrives inside the container.

    Late document metadata: the whole parse builds a container's children when
    the container ends, with the first ``<base href>`` (and, with ``lang``, the
    document language) known then. So while neither has been seen, a final
    child stays in its container (it is not folded or streamed), up to
    ``max_held_children`` per container; once they are known children stream.

    Known limits of streamed containers: a ``<base href>`` that first appears
    inside the container after more than ``max_held_children`` children does
    not reach the child items already yielded (they keep the URL known then;
    recorded in :attr:`Capture.notes`); an mf1 include reference (inside an
    mf1 item nested in the container) to an element of an already streamed
    child is not resolved (recorded too; the ids inside streamed children are
    remembered, up to ``MAX_SEEN_IDS``); the ``max_nested_html_chars`` budget
    is counted per streamed child; a later ``<body>`` tag that gives the body
    an mf2 class (the whole parse then builds the children before it inside
    the body's item or property) cannot take back children of the ``<html>``
    container already yielded: they stay its children, the body's item is
    built without them (the placeholder is removed from it), and a note says so.

Base URL
    The first ``<base href>`` applies to every item completed after it. Real
    pages put ``<base>`` in ``<head>``, before any item, where this equals the
    whole-document answer; an item completed before a late ``<base>`` keeps the
    document URL as its base.

Document language
    The same holds for ``<html lang>`` or ``<body lang>`` merged from a later
    ``<html>``/``<body>`` tag (the bounded sink asks the keep predicate again
    after a merge, kept elements included) and a late Content-Language
    ``<meta>``: items yielded before it do not carry it (the full DOM gives them
    it). With ``lang`` on, :attr:`Capture.notes` says how many built items
    inherited another language through where it arrived (counted by language
    as items are built, in ``Mf2Context.lang_through_body`` and
    ``lang_unset``); when none did, nothing is said. With ``stream_children``,
    children wait in their container for an ``<html lang>`` (see above) but
    not for a ``<body lang>``, which real pages rarely have.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any, Final

from stream_mf2.events import ItemEvent, MetaItemEvent, Mf2Event
from stream_mf2.html.bounded.sink import NESTED_EMPTY, NESTED_KEEP, NESTED_REMOVE
from stream_mf2.html.dom import HTML_NS, Element, ParentNode, is_ancestor, iter_descendants, text_content
from stream_mf2.mf2 import (
    Mf2Context,
    child_of,
    collect_rels_and_markers,
    element_root_types,
    fold_nested,
    is_rel_link,
    is_root,
    items_and_rels,
    items_from_subtree,
    meta_item,
)
from stream_mf2.mf2.classes import HAS_ROOT, class_list, has_root_class, property_classes, split_classes
from stream_mf2.mf2.include import INCLUDE_CLASS, include_references, index_ids
from stream_mf2.mf2.items import FoldedItem, ScopeChain
from stream_mf2.mf2.rels import REL_ELEMENTS

DEFAULT_MAX_HELD_ITEMS: Final = 10_000
#: With ``stream_children``: children of one container kept in it (not streamed)
#: while a first ``<base href>`` (or, with ``lang``, the document language) may
#: still come before the container ends.
DEFAULT_MAX_HELD_CHILDREN: Final = 64
#: How many distinct ``id`` values are remembered as seen (an include reference to an
#: id seen before its item resolves, in the DOM, to that first element: gone here).
MAX_SEEN_IDS: Final = 100_000
#: How many id'd ``th`` cells are remembered for ``headers`` references.
RECENT_HEADER_CELLS: Final = 64
#: At most this many kept elements waiting for their subtree are noted (Capture.share_tree):
#: each completed subtree is checked against them, and past this few skips are to be had.
_MAX_MINE: Final = 16
# HTML elements the keep predicate looks at by name (one set test for all others).
_OBSERVED: Final = frozenset(("base", "body", "head", "html", "meta", "th"))


class _Container:
    """Streaming state of one outermost root whose children are streamed."""

    __slots__ = (
        "body_marker",
        "deferred",
        "folded",
        "in_body",
        "includes",
        "kept_back",
        "late_body",
        "marker",
        "next_index",
        "placeholder",
        "rels_done",
        "streamed",
        "streamed_ids",
        "streams",
    )

    def __init__(self, streams: bool) -> None:
        self.streams = streams
        self.next_index = 0  # index of the next child in the container's full ``children``
        self.streamed = 0
        # Children left in the container while the base URL (or language) was still open.
        self.kept_back = 0
        # Children built early (streamed, or folded into a property value of the container).
        self.folded = 0
        # The item the placeholder of the first streamed child stands for.
        self.marker: dict[str, Any] | None = None
        self.placeholder: FoldedItem | None = None  # the stored item that stands for the marker
        # The item a second placeholder stands for: the first child streamed inside the body
        # of an <html> container when the first placeholder is outside it (in the head).
        self.body_marker: dict[str, Any] | None = None
        # Rel links already added to ``rels``, still in the tree (by id; they stay alive there).
        self.rels_done: dict[int, Element] = {}
        # Rel links final before any <base> was seen, in order, with their text: a
        # <base> may still come before the container ends, and the whole parse
        # resolves them against it (attribute-only copies: the subtree may go).
        self.deferred: list[tuple[Element, str]] = []
        # An item of the container's own scope that stays in it holds mf1 include markers:
        # their targets may be later children, whose subtrees must then stay whole.
        self.includes = False
        # ids inside the children streamed so far (bounded by MAX_SEEN_IDS): an include
        # marker that names one once the container ends finds it gone.
        self.streamed_ids: set[str] = set()
        # A later <body> tag gave the body an mf2 class after children streamed (said once).
        self.late_body = False
        # (an <html> container) Was a streamed child inside the body? Only then had the body
        # no mf2 class when it streamed (a root or property there stops it streaming).
        self.in_body = False


def _lang_ancestors(element: Element) -> Element | None:
    """What the language of ``element``, a root held for include targets, reads above it.

    The sink detaches a completed root, and its ancestors outside kept subtrees are
    released as they close, so when the held root is built its ``parent`` chain is
    gone. Only the nearest ancestor with a ``lang``, or else the ``body`` and ``html``
    elements (a later tag may still merge a ``lang`` into them), matter: copies of
    those, linked as parents, sharing the originals' attributes (so a later merge
    shows). The walk up is the one the item's language takes anyway.
    """
    found: list[Element] = []
    node = element.parent
    while node is not None:
        if type(node) is Element:
            if "lang" in node.attrs:
                found.append(node)
                break
            if node.namespace == HTML_NS and (node.name == "body" or node.name == "html"):
                found.append(node)
        node = node.parent
    parent: Element | None = None
    for ancestor in reversed(found):
        copy = Element(ancestor.name, ancestor.namespace, ancestor.attrs)
        copy.parent = parent
        parent = copy
    return parent


#: How far up :func:`_in_body` looks for the ``body`` (past it, the answer is yes).
_BODY_DEPTH: Final = 64


def _in_body(element: Element, top: Element) -> bool:
    """Is ``element``, inside the ``html`` element ``top``, inside its ``body``?

    (Or deeper than ``_BODY_DEPTH``: a bounded walk, asked until the answer is yes,
    so a container's children cost O(1) each; a wrong yes only adds a note.)
    """
    node: ParentNode | None = element
    for _ in range(_BODY_DEPTH):
        if node is None:
            return False
        parent = node.parent
        if parent is top:
            return type(node) is Element and node.name == "body" and node.namespace == HTML_NS
        node = parent
    return True


def _drop_marker(item: dict[str, Any], marker: dict[str, Any]) -> bool:
    """Remove the placeholder item ``marker`` (by identity) wherever it sits inside
    ``item`` (children or property values, at any depth); whether it was found."""
    stack: list[dict[str, Any]] = [item]
    while stack:
        node = stack.pop()
        children = node.get("children")
        if children is not None:
            if any(c is marker for c in children):
                kept = [c for c in children if c is not marker]
                if kept:
                    node["children"] = kept
                else:
                    del node["children"]
                return True
            stack.extend(children)
        properties = node.get("properties")
        if properties:
            for values in properties.values():
                for value in values:
                    if type(value) is dict and "type" in value:  # an item (not an e-* value)
                        stack.append(value)
    return False


class Capture:
    """The keep predicate, completion and nested hand-over handlers for one document."""

    # (Slots: one capture per document; no per-instance dict to fill in the pure build.)
    __slots__ = (
        "_body_lang",
        "_cells",
        "_containers",
        "_deliver",
        "_expected",
        "_gone",
        "_head_done",
        "_held",
        "_held_back",
        "_held_langs",
        "_ignored_roots",
        "_lang",
        "_local",
        "_max_held",
        "_max_held_children",
        "_merge_targets",
        "_metaformats",
        "_mine",
        "_scopes",
        "_seen_ids",
        "_streamed",
        "_target_refs",
        "_targets",
        "_template_open",
        "_top_items",
        "_tree_version",
        "_want_head",
        "_wanted",
        "ctx",
        "meta_item",
        "notes",
        "stream_children",
    )

    def __init__(
        self,
        ctx: Mf2Context,
        emit: Callable[[Mf2Event], object],
        *,
        max_held_items: int = DEFAULT_MAX_HELD_ITEMS,
        stream_children: bool | frozenset[str] = False,
        max_held_children: int = DEFAULT_MAX_HELD_CHILDREN,
        tree_version: Callable[[], int] | None = None,
        template_open: Callable[[], bool] | None = None,
    ) -> None:
        """``tree_version``: a count that changes whenever the tree builder moves or
        removes an existing element (the bounded sink's ``moves``): what the nested
        hand-over found climbing ancestors is remembered while it stays (without it,
        nothing is remembered from one nested element to the next). ``template_open``:
        the tree builder's answer to "is a ``template`` open?" (a ``<base>`` or
        Content-Language ``<meta>`` made inside template contents is not part of the
        document and sets nothing, as in the whole parse). Both belong to stages made
        after the capture, with its callbacks: see :mod:`stream_mf2.core.pipeline`."""
        self.ctx = ctx
        #: ``True``, ``False``, or the container types whose children are streamed.
        self.stream_children = stream_children
        self._containers: dict[Element, _Container] = {}
        self._top_items = 0  # top-level items handed out so far
        self._max_held_children = max_held_children
        self._held_back: Element | None = None  # see held_back()
        # The nested hand-over asks about the ancestors of one element after another:
        # their scopes are remembered while the tree's version (tree_version) holds.
        self._scopes = ScopeChain(ctx)
        self._tree_version = tree_version
        # completed containers with streamed children -> (marker item, how many)
        self._streamed: dict[Element, tuple[tuple[dict[str, Any], ...], int]] = {}
        # Where completed items go (the parser's outbox), in the order they complete.
        self._deliver = emit
        #: Recoveries that changed the output (unresolved includes); never silent.
        self.notes: list[str] = []
        self.meta_item: dict[str, object] | None = None
        self._metaformats = ctx.options.metaformats
        self._max_held = max_held_items
        # Roots waiting for include targets, in document order.
        # Each with its include references and the index of the ids inside it.
        self._held: deque[tuple[Element, list[str], dict[str, Element]]] = deque()
        # ids some held root waits for -> the kept target once complete (and every
        # id in _expected: one set for the keep predicate to look in).
        self._wanted: set[str] = set()
        # ids named by the include markers of mf1 roots when their elements were created,
        # before any element had them (bounded by MAX_SEEN_IDS): the first element with
        # one is kept, whenever the sink completes the root (see _expect).
        self._expected: set[str] = set()
        self._targets: dict[str, Element] = {}
        # The ids the include markers inside each collected target name (chained includes:
        # a target that is itself an include of more targets), found once per target.
        self._target_refs: dict[str, list[str]] = {}
        # ids inside the subtree being built (targets within the same root).
        self._local: dict[str, Element] = {}
        # The last id'd header cells, for ``headers`` (backward) references.
        self._cells: OrderedDict[str, Element] = OrderedDict()
        self._head_done = False
        # <head> is kept (for the meta item) while metaformats is on and none was done
        self._want_head = self._metaformats
        self._ignored_roots = bool(ctx.options.ignored_roots)
        # ids of every element created so far (bounded), and references to ids whose
        # first element was gone before its item completed (never taken from a later one)
        # (how many elements had each id, to tell a root's own element from an earlier one)
        self._seen_ids: dict[str, int] = {}
        self._gone: set[str] = set()
        self._body_lang = False  # has the body been seen with a lang attribute?
        self._merge_targets: list[Element] = []  # html/body elements with an id asked about
        self._template_open = template_open
        # (with lang) held roots -> copies of the ancestors their language reads (_lang_ancestors)
        self._held_langs: dict[Element, Element | None] = {}
        self._lang = ctx.options.lang
        ctx.resolve_id = self._resolve
        # With other consumers on the tree (see share_tree): the elements this keep
        # predicate kept whose outermost subtree is not complete yet, or None (not shared).
        self._mine: list[Element] | None = None

    def share_tree(self) -> None:
        """Other consumers keep subtrees too, and every completed one is handed here: note the
        elements this keep predicate keeps, so that :meth:`complete` can pass over a subtree
        that holds none of them while nothing waits (it would find nothing there to build).
        Only without ``stream_children`` (the nested hand-over decides inside kept subtrees)."""
        if not self.stream_children:
            self._mine = []

    def _kept(self, element: Element) -> bool:
        """``True``, after noting ``element`` (kept by :meth:`keep`) for :meth:`complete`
        (called only with the tree shared: the plain parse pays one attribute test)."""
        mine = self._mine
        if mine is not None:
            if len(mine) < _MAX_MINE:
                mine.append(element)
            else:
                self._mine = None  # (elements that never complete, say in template contents: stop)
        return True

    # -- keep predicate ---------------------------------------------------
    def keep(self, element: Element) -> bool:
        """Does ``element`` start a kept subtree? Also observes document metadata.

        It inlines :func:`stream_mf2.mf2.keeps` (the class value's cached
        ``HAS_ROOT`` answer, then the rel-link test): keep the two in step.
        """
        # Asked for every element the tree builder creates outside kept subtrees: the
        # common answers (no attributes; a class value with no root class and no rel)
        # take a few look-ups, the class value's answer is one cached dict look-up.
        attrs = element.attrs
        if not attrs:
            # of the names observed, only <head> (metaformats) is kept without attributes
            if self._want_head and element.name == "head" and element.namespace == HTML_NS:
                return True if self._mine is None else self._kept(element)
            return False
        name = element.name
        id_ = attrs.get("id")
        if id_ is not None and not ((name == "html" or name == "body") and self._asked_again(element)):
            # counted first: a kept header cell's id counts too (duplicate ids, _remember_cell)
            seen = self._seen_ids
            if id_ in seen:
                seen[id_] += 1
            elif len(seen) < MAX_SEEN_IDS:
                seen[id_] = 1
        if name in _OBSERVED and element.namespace == HTML_NS:
            if name == "body" and self._containers:
                self._late_body_class(element)
            if self._observe(name, attrs):
                return True if self._mine is None else self._kept(element)
        if id_ is not None and self._wanted and id_ in self._wanted:
            return True if self._mine is None else self._kept(element)
        raw = attrs.get("class")
        if raw:
            rooted = HAS_ROOT.get(raw)
            if rooted is None:
                rooted = has_root_class(raw)
            # ignored roots only take root classes away: without any, is_root is False as well
            if rooted and (not self._ignored_roots or is_root(element, self.ctx)):
                # its own include markers (is_marker_like, less headers: th cells are kept)
                if "itemref" in attrs or ((name == "a" or name == "object") and INCLUDE_CLASS in raw):
                    self._expect(element, in_backcompat=False)
                return True if self._mine is None else self._kept(element)
            if (name == "a" or name == "object") and "include" in raw:  # (INCLUDE_CLASS, as a constant)
                # an a/object include, maybe inside a classic root (its ancestors are not known yet).
                # (Not an itemref on an element that is not a root: microdata uses itemref,
                # and would keep its targets, whole, for nothing.)
                self._expect(element, in_backcompat=True)
        # a rel link (rels need its text)
        if "rel" in attrs and "href" in attrs and name in REL_ELEMENTS and element.namespace == HTML_NS:
            return True if self._mine is None else self._kept(element)
        return False

    def _asked_again(self, element: Element) -> bool:
        """Was the ``html``/``body`` ``element`` (with an ``id``) asked about before? The
        sink asks again after a later tag merges attributes into it: its id counts once."""
        if any(e is element for e in self._merge_targets):
            return True
        self._merge_targets.append(element)
        return False

    def _late_body_class(self, element: Element) -> None:
        """The ``body`` ``element`` is asked about again: a later ``<body>`` tag merged
        attributes into it (inside a kept ``html`` it is asked about only then).

        When that gives it an mf2 class while its ``html`` container has streamed
        children, those children (final, in the body) were yielded as children of the
        container; the whole parse builds them inside the body's item (or property).
        They cannot change now: :attr:`notes` says so, once per element.
        """
        parent = element.parent
        container = self._containers.get(parent) if type(parent) is Element else None
        if container is None or not container.in_body or container.late_body:
            return
        raw = element.attrs.get("class")
        if not raw or not (has_root_class(raw) or property_classes(split_classes(raw))):
            return
        container.late_body = True
        self.notes.append(
            f"a later <body> tag gave <body> the class {raw.strip()!r} after {container.streamed}"
            " child item(s) of the <html> item had been streamed (stream_children): they stay"
            " children of the <html> item, and the body is built without them"
        )

    def release(self) -> None:
        """No more input: drop the links into the tree builder, the sink and the tree
        (the two queries lead to the tree builder and the sink, which refer to this
        capture's methods: a cycle otherwise)."""
        self._template_open = None
        self._tree_version = None
        self._merge_targets = []
        self._held_langs = {}

    def _observe(self, name: str, attrs: dict[str, str]) -> bool:
        """Document metadata from a ``base``, ``html``, ``meta``; whether a ``head`` or ``th`` is kept."""
        if (name == "base" or name == "meta") and self._template_open is not None and self._template_open():
            return False
        if name == "base":
            href = attrs.get("href")
            if href is not None:
                if self._containers and not self.ctx.has_base:
                    self._note_late_base()
                self.ctx.set_base(href)
        elif name == "html":
            lang = attrs.get("lang")
            if lang is not None and self.ctx.html_lang is None:
                self.ctx.html_lang = lang
                self._note_late_lang(self.ctx.lang_unset, lang or None, "<html lang>")
        elif name == "meta":
            if attrs.get("http-equiv", "").strip().lower() == "content-language":
                content = attrs.get("content")
                if content and self.ctx.content_language is None:
                    self.ctx.content_language = content.strip()
                    self._note_late_lang(self.ctx.lang_unset, self.ctx.default_lang, "Content-Language <meta>")
        elif name == "body":
            # asked again when a later <body> tag merges attributes into it
            lang = attrs.get("lang")
            if lang is not None and not self._body_lang:
                self._body_lang = True
                self._note_late_lang(self.ctx.lang_through_body, lang or None, "<body lang>")
        elif name == "head":
            return self._want_head
        elif name == "th":
            return bool(attrs.get("id"))
        return False

    # -- completion ----------------------------------------------------------
    def complete(self, element: Element) -> bool:
        """An outermost kept subtree is final: turn it into events.

        Returns whether the subtree is done with (the sink may then unlink it):
        not when it is held for include targets (built later), and not for a
        header cell, which is remembered for later ``headers`` references.
        """
        ctx = self.ctx
        mine = self._mine
        if mine is not None:
            if not mine:
                if not (self._held or self._targets or self._wanted or self._containers or ctx.folded) and not (
                    element.name == "th" and element.namespace == HTML_NS
                ):
                    # Kept for another consumer, with nothing this keep predicate kept inside
                    # (no root, rel link, head, header cell, include target) and nothing
                    # waiting: its walk would build nothing, hold nothing and note nothing.
                    return True
            else:
                kids = element.children
                if not kids or (len(kids) == 1 and type(kids[0]) is not Element):
                    # (no element inside: only the root itself may be noted; a rel link, a title)
                    if mine[0] is element:
                        del mine[0]
                    elif element in mine:
                        mine.remove(element)
                else:
                    self._mine = [e for e in mine if e is not element and not is_ancestor(element, e)]
        if element.name == "th" and element.namespace == HTML_NS:
            id_ = element.attrs.get("id")
            if id_:
                self._remember_cell(id_, element)
        container = self._containers.pop(element, None) if self._containers else None
        # The items built in the rels walk (the common case), else None.
        built: list[dict[str, Any]] | None = None
        notes_before = 0
        langs_before: tuple[dict[str | None, int], dict[str | None, int]] | None = None
        if container is not None and container.streams:
            self._collect_rels(element, container, forget=True, final=True)
            if container.streamed and container.marker is not None:
                stand_ins: tuple[dict[str, Any], ...] = (container.marker,)
                if container.body_marker is not None:
                    stand_ins += (container.body_marker,)
                self._streamed[element] = (stand_ins, container.streamed)
            markers = True
        elif not self._held and not ctx.folded:
            # Nothing is held, so unless include markers turn up the items are built now:
            # build them in the walk that collects the rels (one walk of the subtree, not two).
            notes_before = len(ctx.notes)
            if self._lang:
                langs_before = (dict(ctx.lang_through_body), dict(ctx.lang_unset))
            built, markers = items_and_rels(element, ctx)
        else:
            markers = collect_rels_and_markers(element, ctx)
        if self._metaformats and not self._head_done and element.name == "head" and element.namespace == HTML_NS:
            self._head_done = True
            self._want_head = False
            meta = meta_item(element, ctx)
            if meta is not None:
                self.meta_item = meta
                self._deliver(MetaItemEvent(meta))
        if self._wanted:
            self._collect_targets(element)
        refs = include_references(element) if markers else []
        # Targets inside the same root are found through its own id index.
        local = index_ids(element) if refs else {}
        if local:
            self._drop_later_duplicates(element, refs, local)
        lost = (
            self._drop_streamed_targets(refs, local, container.streamed_ids)
            if refs and container is not None and container.streamed_ids
            else ()
        )
        if refs or self._held:
            if built is not None:
                # built without the include pattern: dropped, built again when released
                del ctx.notes[notes_before:]
                if langs_before is not None:
                    ctx.lang_through_body, ctx.lang_unset = langs_before
            missing = {r for r in self._missing_refs(refs, local) if r not in lost}
            # An id already seen belongs, in the DOM, to that earlier element (dropped):
            # a later element with the same id must not stand in for it.
            # (one named by an mf1 root's element when it was created, before any element had it,
            # was kept: it is the first, and still to come or be completed)
            gone = {r for r in missing if r in self._seen_ids and r not in self._expected}
            if gone:
                self._gone.update(gone)
                missing -= gone
                self.notes.append(
                    f"include target(s) {', '.join('#' + g for g in sorted(gone))} appeared before the item,"
                    " outside any kept subtree: not resolved"
                )
            if self._lang:
                # the sink detaches the held root: keep what its language will read
                self._held_langs[element] = _lang_ancestors(element)
            self._held.append((element, refs, local))
            self._wanted.update(missing)
            self._release(final=False)
            return False
        if self._targets:
            # Nothing is held: every root that could name these (made before them) is built.
            self._targets.clear()
            self._target_refs.clear()
        if built is not None:
            self._emit_items(element, built)
        else:
            self._emit(element, refs, local)
        # Nothing is held here, so no include target lies inside; only remembered cells stay.
        return not (element.name == "th" and element.namespace == HTML_NS)

    # -- nested hand-over (stream_children) -----------------------------------
    def watch_nested(self, element: Element, top: Element) -> bool:
        """Does the nested kept ``element`` (inside ``top``) matter to the child stream?"""
        container = self._containers.get(top)
        if container is None:
            container = self._containers[top] = _Container(self._is_container(top))
        if not container.streams:
            return False
        return is_rel_link(element) or is_root(element, self.ctx)

    def nested(self, element: Element, top: Element, alone: bool) -> int:
        """A watched nested element is final: add its rels; stream it if it is a child of ``top``.

        ``alone``: ``top`` is the only outermost kept subtree not yet handed over,
        so it will be the next top-level item (the ``path`` must name it).
        """
        self._held_back = None
        container = self._containers.get(top)
        if container is None or not container.streams:
            return NESTED_KEEP
        ctx = self.ctx
        scopes = self._scopes
        scopes.sync(self._tree_version() if self._tree_version is not None else None)
        in_rel_link = scopes.in_rel_link(element, top)
        if not in_rel_link and is_rel_link(element):
            self._collect_rels(element, container, forget=False)
        if child_of(element, ctx, scopes) is not top:
            if not container.includes and is_root(element, ctx):
                self._watch_includes(element, top, container)  # (a property of the container)
            return NESTED_KEEP
        index = container.next_index
        container.next_index += 1
        # inside a rel link the subtree is still needed: the link's text reads it
        if container.includes or self._held or not alone or in_rel_link:
            self._watch_includes(element, top, container)
            return NESTED_KEEP
        if self._metadata_open() and container.kept_back < self._max_held_children:
            # A first <base href> (or, with lang, the document language) may still come
            # before the container ends; the whole parse builds this child with it.
            container.kept_back += 1
            self._held_back = element
            self._watch_includes(element, top, container)
            return NESTED_KEEP
        if not fold_nested(element, ctx, scopes):
            self._watch_includes(element, top, container)
            return NESTED_KEEP
        container.folded += 1
        folded = ctx.folded[element]
        if folded.entries:  # not a child after all; the stored item serves the container
            return NESTED_KEEP
        self._collect_rels(element, container, forget=True)
        if len(container.streamed_ids) < MAX_SEEN_IDS:
            container.streamed_ids.update(index_ids(element))
        # The placeholder also stands for the streamed children's source spans: the
        # container's output allowance leaves them out, as when it is walked whole.
        span = folded.span if folded.span > 0 else 0
        # The first child streamed inside the body of an <html> container: a later <body>
        # tag may make the body an item (_late_body_class), which then has nested items.
        first_in_body = False
        if not container.in_body and top.name == "html" and _in_body(element, top):
            container.in_body = first_in_body = True
        if container.marker is None:
            container.marker = {}
            container.placeholder = ctx.folded[element] = FoldedItem(container.marker, [], span=span)
            action = NESTED_EMPTY
        elif first_in_body:
            # a second placeholder (the first is outside the body): it stands for a marker
            # item of its own and for its own span
            container.body_marker = {}
            ctx.folded[element] = FoldedItem(container.body_marker, [], span=span)
            action = NESTED_EMPTY
        else:
            del ctx.folded[element]
            if container.placeholder is not None:
                container.placeholder.span += span
            action = NESTED_REMOVE
        container.streamed += 1
        self._deliver(ItemEvent(folded.item, path=(self._top_items, index)))
        if ctx.notes:
            self.notes.extend(ctx.notes)
            ctx.notes.clear()
        return action

    def _watch_includes(self, element: Element, top: Element, container: _Container) -> None:
        """``element`` (a root, or a rel link, that stays in the container): if it is an
        item of ``top``'s own scope holding mf1 include markers, no later child is streamed.

        Their targets (``itemref`` names a later sibling) are copied whole when the
        container is built; a streamed child's subtree, or the text around it, is
        gone by then. Items of the container's own scope have disjoint subtrees, so
        each element is looked at once: linear in the container's size.
        """
        if container.includes:
            return
        scope = self._scopes.scope_of(element)[0]
        if scope is not None and scope.element is top and include_references(element):
            container.includes = True

    def held_back(self) -> Element | None:
        """The child the last :meth:`nested` call kept in its container only because a
        first ``<base href>`` (or the document language) may still come: final, and
        streamed at once but for that (other consumers may take it now)."""
        return self._held_back

    def _note_late_lang(self, built: dict[str | None, int], lang: str | None, source: str) -> None:
        """A document-level language arrived after items that it changes were built: say so.

        ``built`` counts by language the items built so far that inherit from where
        it arrives (``ctx.lang_through_body`` for a ``<body lang>``, else
        ``ctx.lang_unset``); ``lang`` is what those items get from now on. A later
        ``<html>`` or ``<body>`` tag merges its ``lang`` into that element (and a
        Content-Language ``<meta>`` may come anywhere); the full DOM gives every
        such item that language, but items already yielded cannot change.
        """
        if not self._lang:
            return
        lacking = sum(n for value, n in built.items() if value != lang)
        if lacking:
            self.notes.append(
                f"the document language came from a {source} after {lacking} item(s) inheriting"
                " another one were built: they do not carry it"
            )

    def _metadata_open(self) -> bool:
        """Could a later tag still change how items are built (base URL, document language)?"""
        ctx = self.ctx
        return not ctx.has_base or (ctx.options.lang and not ctx.html_lang)

    def _note_late_base(self) -> None:
        """A first ``<base>`` inside containers that already built children early: say so.

        Children are kept in their container while no ``<base>`` was seen, up to
        ``max_held_children``; past that they are streamed (or folded), resolved
        against the URL known then. Their rels wait for the container's end (so
        they match the whole parse), but items already built cannot change.
        """
        early = sum(c.folded for c in self._containers.values() if c.streams)
        if early:
            self.notes.append(
                f"<base href> after {early} child item(s) were streamed (stream_children, more than"
                f" max_held_children={self._max_held_children} children before it):"
                " they were resolved against the document URL"
            )

    def _is_container(self, top: Element) -> bool:
        option = self.stream_children
        if not option:
            return False
        classes = class_list(top)
        if not classes:
            return False
        types, is_backcompat = element_root_types(top, classes, self.ctx, None)
        if not types or is_backcompat:
            return False
        return option is True or not option.isdisjoint(types)

    def _collect_rels(self, root: ParentNode, container: _Container, *, forget: bool, final: bool = False) -> None:
        """Add the rel links under ``root`` not added yet, in document order.

        ``forget``: ``root``'s subtree leaves the tree now (or for good), so the
        ones it holds are dropped from the added set instead of being recorded.
        ``final``: the container ends now. Before that, while no ``<base>`` has
        been seen, links are deferred: the whole parse resolves the container's
        rels against a ``<base>`` that arrives before its end.
        """
        done = container.rels_done
        ctx = self.ctx
        base = ctx.base_url
        deferred = container.deferred
        # (No nested function for the deferred case: compiled by mypyc, a closure and its
        # environment refer to each other, a reference cycle per call.)
        defer = not (final or ctx.has_base)
        rels = ctx.rels
        if not defer and deferred:
            for copy, text in deferred:
                rels.add(copy, base, text)
            deferred.clear()
        stack: list[ParentNode] = [root]
        while stack:
            node = stack.pop()
            if type(node) is Element and is_rel_link(node):
                key = id(node)
                if key in done:
                    if forget:
                        del done[key]
                else:
                    if defer:
                        copy = Element(node.name, node.namespace, node.attrs)
                        copy.source_start = node.source_start  # (for the link's output allowance)
                        copy.source_end = node.source_end
                        deferred.append((copy, text_content(node)))
                    else:
                        rels.add(node, base, text_content(node))
                    if not forget:
                        done[key] = node
            children = node.children
            for i in range(len(children) - 1, -1, -1):
                child = children[i]
                if type(child) is Element:
                    stack.append(child)

    def finish(self) -> None:
        """The document ended: build every held root with what was seen."""
        self._release(final=True)

    # -- internals ------------------------------------------------------------
    def _emit(self, element: Element, refs: list[str], local: dict[str, Element]) -> None:
        self._local = local
        try:
            items = items_from_subtree(element, self.ctx, includes=bool(refs))
        finally:
            self._local = {}
        self._emit_items(element, items)

    def _emit_items(self, element: Element, items: list[dict[str, Any]]) -> None:
        """Hand out the items of the completed subtree ``element``."""
        ctx = self.ctx
        streamed = self._streamed.pop(element, None) if self._streamed else None
        for item in items:
            self._top_items += 1
            if streamed is not None:
                stand_ins, count = streamed
                streamed = None
                children = item.get("children", [])
                for marker in stand_ins:
                    if any(c is marker for c in children):
                        children = [c for c in children if c is not marker]
                    else:
                        # The placeholder is not a child of the container: a later <body> tag
                        # made the body, which holds it, an item or property (_late_body_class):
                        # its stand-in for the streamed children goes, the body keeps the rest.
                        _drop_marker(item, marker)
                if children:
                    item["children"] = children
                else:
                    item.pop("children", None)
                self._deliver(ItemEvent(item, children_streamed=count))
            else:
                self._deliver(ItemEvent(item))
        if ctx.notes:
            # Recoveries inside item building (e.g. the nested e-* html budget).
            self.notes.extend(ctx.notes)
            ctx.notes.clear()

    def _drop_later_duplicates(self, root: Element, refs: list[str], local: dict[str, Element]) -> None:
        """Forget local targets whose id an element outside ``root`` had first
        (:meth:`_had_first`): the DOM resolves the id to that element, gone here."""
        for ref in refs:
            if ref in local and self._had_first(ref, root):
                del local[ref]

    def _drop_streamed_targets(self, refs: list[str], local: dict[str, Element], streamed: set[str]) -> list[str]:
        """Include targets inside children streamed before the container ended are gone
        (the first streamed child stays as an emptied placeholder, the others are removed):
        they are not resolved, and :attr:`notes` says so. The whole parse has them."""
        lost = sorted(r for r in refs if r in streamed)
        if not lost:
            return lost
        for ref in lost:
            local.pop(ref, None)
        self._gone.update(lost)
        self.notes.append(
            f"include target(s) {', '.join('#' + r for r in lost)} were in children already streamed"
            " (stream_children): not resolved"
        )
        return lost

    def _had_first(self, id_: str, root: Element) -> bool:
        """Did an element outside ``root`` have ``id_`` before ``root`` completed?

        Elements are counted as they are created, so one counted outside ``root``
        by now was created before it, or placed before it (foster parenting):
        the DOM resolves the id to that one, not to ``root``'s.
        """
        seen = self._seen_ids.get(id_, 0)
        if seen <= 1:
            return False
        inside = sum(1 for n in (root, *iter_descendants(root)) if type(n) is Element and n.attrs.get("id") == id_)
        return seen > inside

    def _remember_cell(self, id_: str, cell: Element) -> None:
        if self._had_first(id_, cell):
            # the cell must not answer for that earlier element (the reference is reported as gone)
            return
        cells = self._cells
        cells[id_] = cell
        cells.move_to_end(id_)
        while len(cells) > RECENT_HEADER_CELLS:
            cells.popitem(last=False)

    def _resolve(self, id_: str) -> Element | None:
        """``ctx.resolve_id`` while a root is built (its own ids through ``_local``)."""
        return self._lookup(id_, self._local)

    def _lookup(self, id_: str, local: dict[str, Element]) -> Element | None:
        """An include target: inside the root itself, a watched later target, or a header cell."""
        found = local.get(id_)
        if found is None and id_ in self._gone:
            return None
        if found is None:
            found = self._targets.get(id_)
        return found if found is not None else self._cells.get(id_)

    def _collect_targets(self, element: Element) -> None:
        wanted = self._wanted
        expected = self._expected
        for id_, target in index_ids(element).items():
            if id_ in wanted:
                self._targets[id_] = target
                wanted.discard(id_)
                expected.discard(id_)
                chained = include_references(target, in_backcompat=True)
                if chained:
                    self._target_refs[id_] = chained
                    self._watch_chained(chained)

    def _watch_chained(self, refs: list[str]) -> None:
        """A collected target names more targets (a chained include): wait for those too.

        An id no element had yet is watched from now on; one whose first element went by
        unkept is reported gone, as for a root's own references.
        """
        gone = []
        for ref in refs:
            if ref in self._gone or ref in self._targets or ref in self._wanted:
                continue
            if ref in self._seen_ids and ref not in self._expected:
                gone.append(ref)
            else:
                self._wanted.add(ref)
        if gone:
            self._gone.update(gone)
            self.notes.append(
                f"include target(s) {', '.join('#' + g for g in gone)} named inside an include target appeared"
                " before it, outside any kept subtree: not resolved"
            )

    def _missing_refs(self, refs: list[str], local: dict[str, Element]) -> list[str]:
        """The ids a held root still waits for: its own references and, through the targets
        already found, theirs (chained includes), but for those known to be gone."""
        missing: list[str] = []
        seen = set(refs)
        queue = list(refs)
        while queue:
            ref = queue.pop()
            if ref in self._gone:
                continue
            if self._lookup(ref, local) is None:
                missing.append(ref)
                continue
            for chained in self._target_refs.get(ref, ()):
                if chained not in seen:
                    seen.add(chained)
                    queue.append(chained)
        return missing

    def _expect(self, element: Element, *, in_backcompat: bool) -> None:
        """``element``, just created, may be an include marker (``itemref``, an
        ``a``/``object`` include): watch for the ids it names that no element had
        yet, from now on.

        The sink may complete a root well after its end tag (while ``<frameset>`` could
        still replace the body, an open table, ...), when elements after it, such as
        its ``itemref`` targets, were already created. Watched now, the first element
        with each id is kept, and found when the root is built. An id some element
        had already is left alone: if it was not kept, it is reported gone. An
        ``a``/``object`` include that is not a root is taken as inside a classic root
        (``in_backcompat``): its ancestors are not known when it is created, and
        watching an id too many only keeps an element no item needs (dropped once
        complete, see :meth:`complete`).
        """
        seen = self._seen_ids
        if len(seen) >= MAX_SEEN_IDS:
            return  # ids are no longer all counted: "not seen yet" is not known
        expected = self._expected
        for ref in include_references(element, in_backcompat=in_backcompat):
            if ref not in seen and len(expected) < MAX_SEEN_IDS:
                expected.add(ref)
                self._wanted.add(ref)

    def _release(self, *, final: bool) -> None:
        """Build held roots from the front while their targets are all there."""
        held = self._held
        while held:
            root, refs, local = held[0]
            missing = self._missing_refs(refs, local)
            if missing and not final and len(held) <= self._max_held:
                return
            if missing:
                why = "document ended" if final else f"more than max_held_items={self._max_held} items waiting"
                self.notes.append(f"include target(s) {', '.join('#' + m for m in missing)} not found ({why})")
            held.popleft()
            if self._held_langs:
                chain = self._held_langs.pop(root, None)
                if chain is not None and root.parent is None:
                    root.parent = chain
            self._emit(root, refs, local)
        if not held:
            self._wanted.clear()
            self._wanted.update(self._expected)  # (still watched: see _expect)
            self._targets.clear()
            self._target_refs.clear()
