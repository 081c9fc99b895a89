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
(applied from then on), ``<html lang>`` and a ``Content-Language`` meta.

Include pattern and order
    A classic root may include markup by id (``itemref``, ``headers``,
    ``a.include``). Targets usually come *after* the root, so a completed root
    whose targets have not been seen is held, its ids are watched for, and it is
    built when they arrive or the document ends. Items after a held item are
    held too, so the output order is document order. The hold is bounded by
    ``max_held_items``: past it the oldest item is built with the targets seen so
    far and a recovery is recorded in :attr:`Capture.notes`.

    Streaming rule: a target is found if it comes after the referencing root
    (while the root is held), inside the same root, or is one of the last
    ``RECENT_HEADER_CELLS`` id'd ``th`` cells. Any other target that appeared
    before the root, outside a kept subtree, is gone by then; the reference is
    left unresolved and a note recorded. ``itemref`` and ``a.include`` targets
    on real pages come after the item (as in the official suite); ``headers``
    point back at header cells, which are kept.

Base URL
    The first ``<base href>`` applies to every item completed after it. Real
    pages put ``<base>`` in ``<head>``, before any item, where this equals the
    whole-document answer; an item completed before a late ``<base>`` keeps the
    document URL as its base.
"""

from __future__ import annotations

from collections import OrderedDict, deque

from stream_mf2.events import Event, ItemEvent, MetaItemEvent
from stream_mf2.html.dom import HTML_NS, Element
from stream_mf2.mf2 import Mf2Context, collect_rels, items_from_subtree, keeps, meta_item
from stream_mf2.mf2.include import include_references, index_ids

DEFAULT_MAX_HELD_ITEMS = 10_000
#: How many id'd ``th`` cells are remembered for ``headers`` references.
RECENT_HEADER_CELLS = 64


class Capture:
    """The keep predicate and completion handler for one document."""

    def __init__(self, ctx: Mf2Context, *, max_held_items: int = DEFAULT_MAX_HELD_ITEMS) -> None:
        self.ctx = ctx
        self.events: list[Event] = []
        #: Recoveries that changed the output (unresolved includes); never silent.
        self.notes: list[str] = []
        self.meta_item: dict[str, object] | None = None
        self._metaformats = ctx.options.metaformats
        self._max_held = max_held_items
        # Roots waiting for include targets, in document order.
        self._held: deque[tuple[Element, list[str]]] = deque()
        # ids some held root waits for -> the kept target once complete.
        self._wanted: set[str] = set()
        self._targets: dict[str, Element] = {}
        # ids inside the subtree being built (targets within the same root).
        self._local: dict[str, Element] = {}
        # The last id'd header cells, for ``headers`` (backward) references.
        self._cells: OrderedDict[str, Element] = OrderedDict()
        self._head_done = False
        ctx.resolve_id = self._resolve

    # -- keep predicate ---------------------------------------------------
    def keep(self, element: Element) -> bool:
        """Does ``element`` start a kept subtree? Also observes document metadata."""
        attrs = element.attrs
        if element.namespace == HTML_NS:
            name = element.name
            if name == "base":
                href = attrs.get("href")
                if href is not None:
                    self.ctx.set_base(href)
            elif name == "html":
                lang = attrs.get("lang")
                if lang is not None and self.ctx.html_lang is None:
                    self.ctx.html_lang = lang
            elif name == "meta":
                if attrs.get("http-equiv", "").strip().lower() == "content-language":
                    content = attrs.get("content")
                    if content and self.ctx.content_language is None:
                        self.ctx.content_language = content.strip()
            elif (name == "head" and self._metaformats and not self._head_done) or (name == "th" and attrs.get("id")):
                return True
        if not attrs:
            return False
        if self._wanted and attrs.get("id") in self._wanted:
            return True
        return keeps(element, self.ctx)

    # -- completion ----------------------------------------------------------
    def complete(self, element: Element) -> None:
        """An outermost kept subtree is final: turn it into events."""
        ctx = self.ctx
        if element.name == "th" and element.namespace == HTML_NS:
            id_ = element.attrs.get("id")
            if id_:
                self._remember_cell(id_, element)
        collect_rels(element, ctx)
        if self._metaformats and not self._head_done and element.name == "head" and element.namespace == HTML_NS:
            self._head_done = True
            meta = meta_item(element, ctx)
            if meta is not None:
                self.meta_item = meta
                self.events.append(MetaItemEvent(meta))
        if self._wanted:
            self._collect_targets(element)
        refs = include_references(element)
        if refs or self._held:
            missing = {r for r in refs if self._find(r, element) is None}
            self._held.append((element, refs))
            self._wanted.update(missing)
            self._release(final=False)
            return
        self._emit(element, refs)

    def finish(self) -> None:
        """The document ended: build every held root with what was seen."""
        self._release(final=True)

    # -- internals ------------------------------------------------------------
    def _emit(self, element: Element, refs: list[str]) -> None:
        # Targets inside the same root are found through this local index.
        self._local = index_ids(element) if refs else {}
        ctx = self.ctx
        try:
            for item in items_from_subtree(element, ctx, includes=bool(refs)):
                self.events.append(ItemEvent(item))
        finally:
            self._local = {}
        if ctx.notes:
            # Recoveries inside item building (e.g. the nested e-* html budget).
            self.notes.extend(ctx.notes)
            ctx.notes.clear()

    def _remember_cell(self, id_: str, cell: Element) -> None:
        cells = self._cells
        cells[id_] = cell
        cells.move_to_end(id_)
        while len(cells) > RECENT_HEADER_CELLS:
            cells.popitem(last=False)

    def _resolve(self, id_: str) -> Element | None:
        found = self._local.get(id_)
        if found is None:
            found = self._targets.get(id_)
        return found if found is not None else self._cells.get(id_)

    def _find(self, id_: str, within: Element) -> Element | None:
        found = self._targets.get(id_)
        if found is None:
            found = index_ids(within).get(id_)
        return found if found is not None else self._cells.get(id_)

    def _collect_targets(self, element: Element) -> None:
        for id_, target in index_ids(element).items():
            if id_ in self._wanted:
                self._targets[id_] = target
                self._wanted.discard(id_)

    def _release(self, *, final: bool) -> None:
        """Build held roots from the front while their targets are all there."""
        held = self._held
        while held:
            root, refs = held[0]
            missing = [r for r in refs if self._find(r, root) is None]
            if missing and not final and len(held) <= self._max_held:
                return
            if missing:
                why = "document ended" if final else f"more than max_held_items={self._max_held} items waiting"
                self.notes.append(f"include target(s) {', '.join('#' + m for m in missing)} not found ({why})")
            held.popleft()
            self._emit(root, refs)
        if not held:
            self._wanted.clear()
            self._targets.clear()
