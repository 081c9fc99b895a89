"""The microdata consumer: what to keep, and the items of each completed subtree.

Kept: every element with ``itemscope`` (an item), and the first element with an
id that an ``itemref`` named before any element had it (a target that comes
after its item). The first ``<base href>`` is observed on creation and applies
to every item built after it.

An ``<html itemscope>`` or ``<body itemscope>`` is the *page item*: it is not kept,
the elements with ``itemprop`` after it are, and it is emitted at the end
(:mod:`stream_mf2.microdata.page`).

An outermost kept subtree (kept for this consumer or another one) is final:
its items are built (:mod:`stream_mf2.microdata.items`) and emitted as
:class:`~stream_mf2.microdata.events.MicrodataItem` events, in tree order.

Holding for ``itemref`` targets
    An item whose ``itemref`` names an id no element has had yet waits for it:
    its subtree is held, with every later subtree that holds items (so items
    leave in document order) or a target, until every id the held items wait
    for has arrived in a completed subtree; then they are built together (an
    ``itemref`` resolves to the first element with the id among them). At the
    document's end whatever is held is built with the targets that came.

    Bounds: at most ``max_microdata_held_items`` subtrees and
    ``max_microdata_held_nodes`` nodes in them are held; past either, the held
    items are built with the targets seen so far, and a note names the ids
    given up. At most ``max_itemref_ids`` ids are waited for at once; an
    ``itemref`` id past that is not waited for (a note says so).

Streaming rule
    A target is found when it comes after the item's element is created, or
    lies in a subtree held with the item (its own, or an enclosing kept one).
    An element with the id that came earlier outside kept subtrees is gone by
    then: the reference is left unresolved, and a note says so (the first
    element with an id is the one an ``itemref`` names, so a later one with the
    same id is never taken instead). Ids are remembered up to ``MAX_SEEN_IDS``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final
from urllib.parse import urljoin

from stream_mf2.html.dom import HTML_NS, Element, Node
from stream_mf2.microdata.events import MicrodataEvent, MicrodataItem
from stream_mf2.microdata.items import ItemBuilder, collapse, item_elements
from stream_mf2.microdata.page import PageItem, is_page_element, page_properties
from stream_mf2.microdata.recent import RecentTargets
from stream_mf2.microdata.text import Work
from stream_mf2.microdata.whatwg import WhatwgBuilder, tokens, url_value

__all__ = [
    "DEFAULT_MAX_ITEMREF_IDS",
    "DEFAULT_MAX_MICRODATA_HELD_ITEMS",
    "DEFAULT_MAX_MICRODATA_HELD_NODES",
    "DEFAULT_MAX_MICRODATA_RECENT_NODES",
    "DEFAULT_MAX_MICRODATA_VALUES",
    "DEFAULT_MAX_MICRODATA_WORK_RATIO",
    "FORMS",
    "MAX_SEEN_IDS",
    "MicrodataConsumer",
]

DEFAULT_MAX_MICRODATA_HELD_ITEMS: Final = 10_000
DEFAULT_MAX_MICRODATA_HELD_NODES: Final = 1_000_000
DEFAULT_MAX_ITEMREF_IDS: Final = 100_000
DEFAULT_MAX_MICRODATA_VALUES: Final = 100_000
DEFAULT_MAX_MICRODATA_RECENT_NODES: Final = 65_536
DEFAULT_MAX_MICRODATA_WORK_RATIO: Final = 16
#: Nodes every window of items may walk to build values, whatever its size.
WORK_FLOOR: Final = 4_096
#: The shapes of the items: extruct's (the default), or the WHATWG JSON form.
FORMS: Final = ("extruct", "whatwg")
#: How many distinct ids are remembered as seen (to tell a target that is gone from one to come).
MAX_SEEN_IDS: Final = 100_000
#: How many ids a note lists (the rest are counted).
_LISTED: Final = 5


def _listed(ids: list[str]) -> str:
    shown = ", ".join("#" + i for i in ids[:_LISTED])
    return shown if len(ids) <= _LISTED else f"{shown} and {len(ids) - _LISTED} more"


class MicrodataConsumer:
    """The keep predicate, completion and document end of the microdata consumer.

    ``emit`` receives each :class:`~stream_mf2.microdata.events.MicrodataItem`;
    ``base_url`` is the document's URL (the base of URL values until a
    ``<base href>``). The limits are documented in ``docs/reference/limits.md``.
    """

    def __init__(
        self,
        emit: Callable[[MicrodataEvent], object],
        *,
        base_url: str | None = None,
        max_microdata_held_items: int = DEFAULT_MAX_MICRODATA_HELD_ITEMS,
        max_microdata_held_nodes: int = DEFAULT_MAX_MICRODATA_HELD_NODES,
        max_itemref_ids: int = DEFAULT_MAX_ITEMREF_IDS,
        max_microdata_values: int = DEFAULT_MAX_MICRODATA_VALUES,
        max_microdata_work_ratio: int = DEFAULT_MAX_MICRODATA_WORK_RATIO,
        max_microdata_recent_nodes: int = DEFAULT_MAX_MICRODATA_RECENT_NODES,
        microdata_form: str = "extruct",
    ) -> None:
        if microdata_form not in FORMS:
            raise ValueError(f"microdata_form must be one of {FORMS}, not {microdata_form!r}")
        self._whatwg = microdata_form == "whatwg"
        self._max_values = max_microdata_values
        self._work_ratio = max_microdata_work_ratio
        self._starved = 0  # values left empty (or itemref targets cut) past the work budget
        self._over = 0  # nested items past max_microdata_values (whatwg form)
        self._emit = emit
        self._url = base_url
        #: The base URL of URL values: the document's, then the first ``<base href>``.
        self.base: str | None = base_url
        self._base_seen = False
        #: (the consumer needs no placement reports)
        self.observer: None = None
        self._max_items = max_microdata_held_items
        self._max_nodes = max_microdata_held_nodes
        self._max_ids = max_itemref_ids
        # Has any itemscope element been created? Until then no subtree holds an item.
        self._any = False
        # ids of the elements created so far (bounded by MAX_SEEN_IDS)
        self._seen: set[str] = set()
        # ids an itemref named before any element had them; and those whose first
        # element has been created (and kept) but is not yet in a completed subtree
        self._waiting: set[str] = set()
        self._coming: set[str] = set()
        # The held subtrees (document order), the ids they wait for, their node count.
        self._held: list[Element] = []
        self._held_sizes: list[int] = []
        # Built subtrees with ids, for itemref targets before their items (recent.py).
        self._recent = RecentTargets(max_microdata_recent_nodes)
        self._pending: set[str] = set()
        self._held_nodes = 0
        #: Recoveries that changed the output.
        self.notes: list[str] = []
        self._unwatched = 0  # itemref ids not waited for (max_itemref_ids)
        self._gone: list[str] = []  # itemref ids whose element came before, outside kept subtrees
        self._gone_count = 0
        # The <html itemscope>/<body itemscope> item, gathered without keeping the page (page.py).
        self._page: PageItem | None = None
        self._emitted = 0

    # -- keep predicate ---------------------------------------------------------
    def keep(self, element: Element) -> bool:
        """Does ``element`` start a kept subtree (an item, or an ``itemref`` target to come)?"""
        attrs = element.attrs
        if not attrs:
            return False
        kept = False
        ident = attrs.get("id")
        if ident is not None:
            if ident in self._waiting:
                self._waiting.discard(ident)
                self._coming.add(ident)
                kept = True
            if len(self._seen) < MAX_SEEN_IDS:
                self._seen.add(ident)
        if "itemscope" in attrs:
            self._any = True
            if self._page is None and is_page_element(element):
                # (the page item: not kept; its properties are, see page.py)
                self._page = PageItem(element.name, attrs, self._emitted)
                return kept
            if self._page is not None and self._page.owns(element):
                return kept  # (asked again after a later tag merged attributes into it)
            refs = attrs.get("itemref")
            if refs:
                self._watch(refs)
            return True
        if self._page is not None and "itemprop" in attrs:
            return True  # a property of the page item (or of an item it is inside)
        if element.name == "base" and not self._base_seen and element.namespace == HTML_NS:
            href = attrs.get("href")
            if href is not None:
                self._base_seen = True
                self.base = _base(self._url, href)
        return kept

    def _watch(self, refs: str) -> None:
        """Wait for the ids of an ``itemref`` that no element has had yet."""
        for ref in refs.split():
            if ref in self._seen or ref in self._waiting or ref in self._coming:
                continue
            if len(self._waiting) + len(self._coming) >= self._max_ids:
                self._unwatched += 1
                continue
            self._waiting.add(ref)

    # -- completion -----------------------------------------------------------------
    def complete(self, element: Element) -> bool:
        """An outermost kept subtree is final: emit its items, or hold it.

        Always ``True``: the sink may clear the parent links inside the subtree. The
        consumer reads subtrees only downwards (children, attributes, text), also the
        ones it holds for ``itemref`` targets or remembers (:class:`RecentTargets`), so
        it needs no parent link; with them cleared, a subtree it lets go of is freed by
        reference counting instead of being left as cyclic garbage.
        """
        if not self._any and not self._held:
            return True  # no item anywhere yet
        nodes, has_items, relevant = self._scan(element)
        if not self._held:
            if not has_items:
                return True
            if not self._pending:
                self._build([element], nodes)
                # (remembered for a later item's itemref)
                self._recent.add(element, nodes)
                return True
        elif not (has_items or relevant):
            return True  # nothing an item held needs
        self._held.append(element)
        self._held_sizes.append(nodes)
        self._held_nodes += nodes
        if not self._pending:
            self._release()
        elif len(self._held) > self._max_items or self._held_nodes > self._max_nodes:
            self._give_up()
            self._release()
        return True

    def _scan(self, root: Element) -> tuple[int, bool, bool]:
        """Walk ``root``'s subtree: its node count, whether it has items, whether it has a
        target to come; the ids its items wait for join :attr:`_pending`, the targets in
        it leave it."""
        nodes = 0
        has_items = False
        relevant = False
        waiting = self._waiting
        coming = self._coming
        pending = self._pending
        page = self._page is not None
        stack: list[Node] = [root]
        while stack:
            node = stack.pop()
            nodes += 1
            if not isinstance(node, Element):
                continue
            attrs = node.attrs
            if attrs:
                ident = attrs.get("id")
                if ident is not None and ident in coming:
                    coming.discard(ident)
                    pending.discard(ident)
                    relevant = True
                if "itemscope" in attrs or (page and "itemprop" in attrs):
                    has_items = True
                    refs = attrs.get("itemref")
                    if refs:
                        for ref in refs.split():
                            if ref in waiting or ref in coming:
                                pending.add(ref)
            children = node.children
            if children:
                stack.extend(reversed(children))
        return nodes, has_items, relevant

    def _give_up(self) -> None:
        """The hold is past its bounds: stop waiting for the held items' ids."""
        ids = sorted(self._pending)
        for ident in ids:
            self._waiting.discard(ident)
            self._coming.discard(ident)
        self.notes.append(
            f"microdata: itemref target(s) {_listed(ids)} had not come after {len(self._held)} held"
            f" subtree(s) ({self._held_nodes} nodes): the items were built without them"
        )
        self._pending.clear()

    def _release(self) -> None:
        held = self._held
        sizes = self._held_sizes
        nodes = self._held_nodes
        self._held = []
        self._held_sizes = []
        self._held_nodes = 0
        self._build(held, nodes)
        for root, size in zip(held, sizes, strict=True):
            self._recent.add(root, size)

    def _build(self, roots: list[Element], nodes: int) -> None:
        """Build and emit the items of ``roots`` (document order), resolving ``itemref`` among them."""
        resolve = _Resolver(self, roots)
        work = Work(max(WORK_FLOOR, self._work_ratio * nodes))
        if self._whatwg:
            self._build_whatwg(roots, resolve, work)
        else:
            builder = ItemBuilder(resolve, self.base, work)
            # (extruct's shape) the items already extracted, by identity: a remembered
            # target's items were extracted when it was built
            resolve.seen = builder.seen
            page = self._page
            if page is not None:
                # the page item's values first: extruct builds it before the items inside it
                for root in roots:
                    for prop in page_properties(root, page):
                        page.values.append((prop.attrs.get("itemprop", "").split(), builder.value(prop)))
            for root in roots:
                for element in item_elements(root):
                    if page is not None and page.owns(element):
                        continue
                    item = builder.build(element)
                    if item is not None:
                        self._send(item, element)
        self._starved += work.starved

    def _send(self, item: dict[str, Any], element: Element) -> None:
        """Emit a top-level item with its place in the list (see :attr:`MicrodataItem.index`)."""
        index = self._emitted if self._page is None else self._emitted + 1
        self._emitted += 1
        self._emit(MicrodataItem(item, element.source_start, element.source_end, index=index))

    def _build_whatwg(self, roots: list[Element], resolve: Callable[[str], Element | None], work: Work) -> None:
        order = _Order(roots)
        builder = WhatwgBuilder(resolve, order, self.base, self._max_values, work)
        page = self._page
        if page is not None:
            for root in roots:
                for prop in page_properties(root, page):
                    page.values.append((tokens(prop.attrs.get("itemprop", "")), builder.property(prop)))
        for root in roots:
            for element in item_elements(root):
                if "itemprop" not in element.attrs and not (page is not None and page.owns(element)):
                    # a top-level microdata item
                    self._send(builder.build(element), element)
        self._over += builder.over

    # -- document end -------------------------------------------------------------------
    def finish(self) -> list[str]:
        """The document ended: build what is still held; the notes of the whole document."""
        if self._held:
            self._pending.clear()
            self._release()
        if self._page is not None:
            self._finish_page(self._page)
        self._recent.clear()
        notes = self.notes
        if self._gone_count:
            notes.append(
                f"microdata: {self._gone_count} itemref reference(s) ({_listed(self._gone)}) named an element"
                " that came before the item, outside any kept subtree: not resolved"
            )
        if self._starved:
            notes.append(
                f"microdata: {self._starved} value(s) past the work budget (max_microdata_work_ratio="
                f"{self._work_ratio} nodes walked per node held) were left empty, or itemref targets cut short"
            )
        if self._over:
            notes.append(
                f"microdata: {self._over} nested item(s) past max_microdata_values={self._max_values}"
                ' values in their top-level item were given as "ERROR"'
            )
        if self._unwatched:
            notes.append(
                f"microdata: {self._unwatched} itemref id(s) past max_itemref_ids={self._max_ids} were not"
                " waited for: targets after their items were not resolved"
            )
        self._waiting.clear()
        self._coming.clear()
        return notes

    def _finish_page(self, page: PageItem) -> None:
        """Emit the page item with the values gathered (page.py)."""
        attrs = page.attrs
        item: dict[str, Any] = {}
        if self._whatwg:
            types = tokens(attrs.get("itemtype", ""))
            if types:
                item["type"] = types
            itemid = attrs.get("itemid")
            if itemid is not None:
                item["id"] = url_value(self.base, itemid)
            properties: dict[str, list[Any]] = {}
            for names, value in page.values:
                for name in names:
                    properties.setdefault(name, []).append(value)
            item["properties"] = properties
        else:
            split = attrs.get("itemtype", "").split()
            if split:
                item["type"] = split[0] if len(split) == 1 else split
                itemid = attrs.get("itemid")
                if itemid:
                    item["id"] = itemid.strip()
            gathered: dict[str, list[Any]] = {}
            for names, value in page.values:
                for name in names:
                    gathered.setdefault(name, []).append(value)
            if gathered:
                item["properties"] = collapse(gathered)
            else:
                item["value"] = ""
        self._emit(MicrodataItem(item, -1, -1, page=page.index, index=page.index))
        self._page = None

    def remembered_nodes(self) -> int:
        """Nodes of the built subtrees remembered for earlier ``itemref`` targets (tests, bounds)."""
        return self._recent.nodes

    def held(self) -> int:
        """How many things the consumer holds: subtrees, and ids it waits for (tests, bounds)."""
        return len(self._held) + len(self._waiting) + len(self._coming) + len(self._pending)


def _base(url: str | None, href: str) -> str | None:
    """The base URL a ``<base href>`` gives: ``href`` resolved against the document URL
    (``url`` itself when ``href`` cannot be parsed, as HTML's fallback base URL)."""
    href = href.strip(" \t\n\r\x0c")
    if not url:
        return href
    try:
        return urljoin(url, href)
    except ValueError:
        return url


class _Resolver:
    """``itemref`` resolution for one build: the ids under ``roots`` (indexed on first use),
    then the targets the consumer remembers, counting ids whose element is gone.

    A class, not a nested function: compiled by mypyc, a closure and its environment refer
    to each other, a reference cycle per build left to the cyclic collector.
    """

    __slots__ = ("consumer", "index", "roots", "seen")

    def __init__(self, consumer: MicrodataConsumer, roots: list[Element]) -> None:
        self.consumer = consumer
        self.roots = roots
        self.index: dict[str, Element] | None = None
        #: the items already extracted, by identity (extruct's shape; ``None``: not tracked)
        self.seen: set[int] | None = None

    def __call__(self, ident: str) -> Element | None:
        index = self.index
        if index is None:
            index = self.index = _index_ids(self.roots)
        found = index.get(ident)
        if found is None:
            consumer = self.consumer
            found = consumer._recent.get(ident)
            if found is not None:
                seen = self.seen
                if seen is not None:
                    seen.update(id(e) for e in item_elements(found))
            elif ident in consumer._seen:
                consumer._gone_count += 1
                if len(consumer._gone) < _LISTED and ident not in consumer._gone:
                    consumer._gone.append(ident)
        return found


class _Order:
    """Document order of the elements under ``roots`` (positions found on first use); a
    class for the reason :class:`_Resolver` gives."""

    __slots__ = ("positions", "roots")

    def __init__(self, roots: list[Element]) -> None:
        self.roots = roots
        self.positions: dict[int, int] | None = None

    def __call__(self, element: Element) -> int:
        positions = self.positions
        if positions is None:
            positions = self.positions = _positions(self.roots)
        return positions.get(id(element), -1)


def _index_ids(roots: list[Element]) -> dict[str, Element]:
    """The first element with each id in ``roots`` (document order)."""
    index: dict[str, Element] = {}
    for root in roots:
        stack: list[Node] = [root]
        while stack:
            node = stack.pop()
            if isinstance(node, Element):
                ident = node.attrs.get("id")
                if ident is not None and ident not in index:
                    index[ident] = node
                stack.extend(reversed(node.children))
    return index


def _positions(roots: list[Element]) -> dict[int, int]:
    """The tree-order position of every element in ``roots`` (document order), by identity."""
    positions: dict[int, int] = {}
    for root in roots:
        stack: list[Node] = [root]
        while stack:
            node = stack.pop()
            if isinstance(node, Element):
                positions[id(node)] = len(positions)
                stack.extend(reversed(node.children))
    return positions
