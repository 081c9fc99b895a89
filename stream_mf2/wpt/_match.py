"""The WPT consumer: which elements to keep, and block matches once they are final.

It is a second consumer of the bounded tree, beside capture/mf2 (see
:mod:`stream_mf2.core.fanout`). The bounded sink reports every element's
placement (:class:`~stream_mf2.html.bounded.observed.ObservedSink`); this module
keeps a :class:`~stream_mf2.wpt._paths.Place` for each open element (its
position among its siblings and the XPath steps it has matched so far), so an
element is known to match a top-level block's ``ow:xpath``/``ow:tagid`` as soon
as it is created. Such an element is kept (its whole subtree is stored) and the
sink hands it over once it is final, under the rules it already applies to mf2
roots; then the match is checked again on its final place (the adoption agency
may have moved it), its pattern is tried on its text, its nested blocks are
resolved inside it, and a :class:`~stream_mf2.wpt.events.WptMatchEvent` is
emitted. Nothing else is stored: places of popped elements are dropped unless
a kept element still needs them for its path.

Blocks whose only reference is ``ow:pattern`` are matched on the page source by
:class:`~stream_mf2.wpt._source.SourceScanner`.
"""

from __future__ import annotations

from collections.abc import Callable
from types import FunctionType
from typing import Any

from stream_mf2.html.dom import HTML_NS, Document, DocumentFragment, Element, Node, ParentNode, is_ancestor
from stream_mf2.wpt._misnest import DEFAULT_MAX_MISNEST_NODES, KIND, Misnest
from stream_mf2.wpt._objects import element_match, in_document_order, node_matches, text_match
from stream_mf2.wpt._paths import (
    Cond,
    Place,
    Quick,
    State,
    Summary,
    advance_with,
    any_may_match,
    forget_paths,
    frozen,
    kept_path,
    path_matches,
)
from stream_mf2.wpt._pending import Pending, PendingQueue
from stream_mf2.wpt._source import DEFAULT_MAX_PATTERN_CHARS, SourceScanner
from stream_mf2.wpt.events import WptMatchEvent, WptPage, WptPageEnd
from stream_mf2.wpt.model import Block, Template, XPath

#: (for :meth:`WptConsumer.opened`, which writes out ``Place.__init__`` in the pure build)
_new_place = Place.__new__
#: Is ``Place`` a compiled class? (its ``__new__`` then runs ``__init__``, which takes arguments,
#: and a constructor call costs no Python frame: :meth:`WptConsumer.opened` calls it)
_NATIVE_PLACE = not isinstance(Place.__init__, FunctionType)

__all__ = ["LATE_CHANGES", "WptConsumer", "element_match"]

#: The late changes of tree construction that can hide a block match, by kind; each
#: is reported once per page in the page's ``errors`` (with the element's path) when
#: a block's path goes through the element, before or after the change.
LATE_CHANGES: dict[str, str] = {
    "moved": "an element was moved by the adoption agency algorithm (misnested formatting tags)",
    "cloned": "a formatting element was cloned around moved content (adoption agency algorithm)",
    "foster-parented": "content was foster-parented before an open table, shifting its position",
    "late-attributes": "a later <html>/<body> tag added attributes that a block tests",
    "selectedcontent": "<selectedcontent> receives clones of the selected option's content",
}


class _Plan:
    """What the matcher needs from the templates applied to a page, made once per set of templates
    (a WARC or a crawl applies the same template to page after page)."""

    __slots__ = (
        "anchors",
        "attr_names",
        "blocks",
        "lastish",
        "needs_id",
        "root_states",
        "source_blocks",
        "summaries",
        "tagid_blocks",
        "templates",
        "xpath_blocks",
        "xpaths",
    )

    def __init__(self, templates: tuple[Template, ...]) -> None:
        self.templates = templates  # (held, so the cache key's ids stay theirs)
        #: top-level structural blocks: (template index, block index, block)
        self.blocks: list[tuple[int, int, Block]] = []
        #: blocks referenced by a pattern alone (matched on the page source)
        self.source_blocks: list[tuple[int, int, Block]] = []
        #: absolute and id-anchored xpaths; xpath index -> indices into ``blocks``
        self.xpaths: list[XPath] = []
        self.xpath_blocks: list[list[int]] = []
        self.tagid_blocks: dict[str, list[int]] = {}  # tagid without xpath -> indices into blocks
        self.anchors: dict[str, list[int]] = {}  # anchor id -> xpath indices
        root_states: list[State] = []
        for ai, template in enumerate(templates):
            for bi, block in enumerate(template.blocks):
                if block.xpath is None and block.tagid is None:
                    if block.pattern is not None:
                        self.source_blocks.append((ai, bi, block))
                    continue
                k = len(self.blocks)
                self.blocks.append((ai, bi, block))
                if block.xpath is None:
                    assert block.tagid is not None
                    self.tagid_blocks.setdefault(block.tagid, []).append(k)
                    continue
                xi = len(self.xpaths)
                self.xpaths.append(block.xpath)
                self.xpath_blocks.append([k])
                if block.xpath.anchor is not None:
                    self.anchors.setdefault(block.xpath.anchor, []).append(xi)
                else:
                    root_states.append((xi, 0, ()))
        self.root_states = tuple(root_states)
        self.needs_id = bool(self.anchors or self.tagid_blocks)
        #: attribute names the paths test (a late attribute on html/body may change a match)
        self.attr_names = {st.attr[0] for x in self.xpaths for st in x.steps if st.attr is not None}
        self.attr_names.update(t[1] for x in self.xpaths for st in x.steps for t in st.tests)
        self.attr_names.update(x.final[1:] for x in self.xpaths if x.final is not None and x.final[0] == "@")
        #: blocks whose path has a ``[last()]`` step: their matches wait for the parents to close
        self.lastish = {
            k for k, (_, _, b) in enumerate(self.blocks) if b.xpath is not None and any(st.last for st in b.xpath.steps)
        }
        if self.needs_id:
            self.attr_names.add("id")
        #: the consumers' summaries of states tuples (see ``WptConsumer._summary``), shared by
        #: the parses of the plan: by holding or not and which paths are still followed
        self.summaries: dict[tuple[bool, tuple[bool, ...]], dict[tuple[State, ...], Summary]] = {}

    def start_parse(self) -> None:
        """Forget the shared summaries when their tables by element name have grown past
        :data:`_MAX_SHARED_NAMES` (each parse may add the names of its page)."""
        names = 0
        for summaries in self.summaries.values():
            for summary in summaries.values():
                names += len(summary.quick) + len(summary.tags) + len(summary.leaf_tags)
        if names > _MAX_SHARED_NAMES:
            self.summaries.clear()

    def summaries_for(self, holding: bool, alive: list[bool]) -> dict[tuple[State, ...], Summary]:
        """The summaries of states tuples made while ``holding`` (or not) with the paths
        ``alive`` still followed: a summary leaves dead paths out, and its start-tag table
        tells formatting and special elements apart only while holding. (Pages mostly finish
        their single blocks in the same order, so few sets of paths come.)"""
        key = (holding, tuple(alive))
        got = self.summaries.get(key)
        if got is None:
            if len(self.summaries) >= _MAX_SUMMARY_SETS:
                self.summaries.clear()
            got = self.summaries[key] = {}
        return got


_PLANS: dict[tuple[int, ...], _Plan] = {}
_MAX_PLANS = 64
#: at most this many sets of summaries a plan (:meth:`_Plan.summaries_for`)
_MAX_SUMMARY_SETS = 32
#: at most this many answers of ``Summary.final_hit`` (``any_may_match`` for ``opened``) by
#: attribute value an element name
_MAX_LEAF_MEMO = 1024
#: the longest attribute value remembered there: a memo outlives the elements, so a page of
#: long distinct values (or a crawl of them: the summaries are shared) must not be kept by it
_MAX_MEMO_VALUE = 256
#: at most this many element names in the start-tag and leaf tables of a plan's summaries,
#: checked as each parse starts: they are shared by the parses, and a crawl's pages bring
#: new names (custom elements) without end
_MAX_SHARED_NAMES = 20_000
#: at most this many pending candidates: :meth:`WptConsumer.complete` finds those inside a
#: root through their parent links (a bounded number of climbs), more: in a walk of the root
_FEW_CANDIDATES = 8
#: more, up to ``_CLIMBED_CANDIDATES``: the walk of the root takes at most this many steps (a
#: descent or a return) a pending candidate, then they are found by climbs (:func:`_inside`)
_WALK_STEPS = 2
_CLIMBED_CANDIDATES = 256


def _plan(templates: tuple[Template, ...]) -> _Plan:
    """The (cached) plan of ``templates``; nothing in it is changed by a parse but its cache of
    summaries (each a function of the paths and a states tuple, the same for every page)."""
    key = tuple(id(t) for t in templates)
    plan = _PLANS.get(key)
    if plan is None:  # (a plan holds its templates, so their ids are not reused while it is cached)
        if len(_PLANS) >= _MAX_PLANS:
            _PLANS.clear()  # bounded: a run with many template sets just makes plans again
        plan = _PLANS[key] = _Plan(templates)
    return plan


def _inside(root: Element, candidates: dict[Element, Any]) -> list[Element]:
    """The ``candidates`` strictly inside ``root`` (not in document order): each climbs its
    parent links until ``root``, the top, or a node whose answer an earlier climb gave (the
    candidates of a page share most of their ancestors), so the climbs cost about the number of
    distinct ancestors rather than the size of ``root``'s subtree, which a walk would visit."""
    known: dict[Node, bool] = {root: True}
    out: list[Element] = []
    for el in candidates:
        if el is root:
            continue
        trail: list[Node] = []
        p = el.parent
        v = False
        while p is not None:
            seen = known.get(p)
            if seen is not None:
                v = seen
                break
            trail.append(p)
            p = p.parent
        for t in trail:
            known[t] = v
        if v:
            out.append(el)
    return out


def _in_document_order(root: Element, inside: list[Element]) -> list[Element]:
    """``inside`` (elements inside ``root``) sorted into document order, by their child indices."""
    if len(inside) < 2:
        return inside
    # (no sort key function: a lambda is a closure, a reference cycle per call once compiled)
    keyed = sorted([(_child_indices(root, el), i) for i, el in enumerate(inside)])
    return [inside[i] for _, i in keyed]


def _child_indices(root: Element, el: Element) -> list[int]:
    """The child indices from ``root`` down to ``el`` (inside it): sorting by them is document order."""
    out: list[int] = []
    node: Node = el
    while node is not root:
        parent = node.parent
        assert parent is not None
        out.append(parent.children.index(node))
        node = parent
    out.reverse()
    return out


class _Applied:
    """One template applied to the page: its page value and which blocks are done."""

    __slots__ = ("done", "page", "scanners")

    def __init__(self, page: WptPage) -> None:
        self.page = page
        self.done = [False] * len(page.template.blocks)
        self.scanners: list[SourceScanner] = []


class _SourceMatch:
    """What a page-source pattern's match does: emit it as the block's match (a callable
    object, not a closure: compiled, a closure and its environment make a reference cycle)."""

    __slots__ = ("applied", "bi", "block", "consumer")

    def __init__(self, consumer: WptConsumer, applied: _Applied, bi: int, block: Block) -> None:
        self.consumer = consumer
        self.applied = applied
        self.bi = bi
        self.block = block

    def __call__(self, text: str, captures: dict[str, list[str]]) -> bool:
        block = self.block
        self.consumer.emit_source(WptMatchEvent(self.applied.page, self.bi, text_match(text, captures, block)))
        return block.repeatable


class WptConsumer:
    """Placement observer and completion handler for the templates applied to one page.

    ``emit`` receives each event of an element match (at a token position, like
    mf2 items); ``emit_source`` the matches of page-source patterns, whose timing
    depends on the pattern window, not on tokens (the parser holds them while it
    may still parse the document again), and then the page ends, last.
    ``source(text)`` takes the decoded page text (for blocks referenced by a
    pattern alone); ``finish()`` ends the page.
    """

    def __init__(
        self,
        pages: list[WptPage],
        emit: Callable[[WptMatchEvent | WptPageEnd], None],
        emit_source: Callable[[WptMatchEvent | WptPageEnd], None] | None = None,
        *,
        max_pattern_chars: int = DEFAULT_MAX_PATTERN_CHARS,
        max_misnest_nodes: int = DEFAULT_MAX_MISNEST_NODES,
    ) -> None:
        self.emit = emit
        self.emit_source = emit_source if emit_source is not None else emit
        self.applied = [_Applied(p) for p in pages]
        self.errors: list[str] = []
        plan = _plan(tuple(p.template for p in pages))
        self._blocks = plan.blocks
        self._xpaths = plan.xpaths
        self._xpath_blocks = plan.xpath_blocks
        self._tagid_blocks = plan.tagid_blocks
        self._anchors = plan.anchors
        self._root_states = plan.root_states
        self._needs_id = plan.needs_id
        self._attr_names = plan.attr_names
        self._lastish = plan.lastish
        #: per path: is any of its blocks still looking? (a done path leaves the states)
        self._alive = [True] * len(self._xpaths)
        self._path_of = {k: xi for xi, ks in enumerate(self._xpath_blocks) for k in ks}
        #: blocks whose path ends with ``@name``: matched at the start tag
        self._at_start = {
            k
            for k, (_, _, b) in enumerate(self._blocks)
            if b.xpath is not None and b.xpath.final is not None and b.xpath.final[0] == "@"
        }
        #: paths ending with ``@name`` (their matches need only the element's attributes)
        self._at_start_paths = {xi for xi, x in enumerate(self._xpaths) if x.final is not None and x.final[0] == "@"}
        self._plan = plan
        plan.start_parse()
        #: summaries by states tuple, shared by the plan's parses (:meth:`_Plan.summaries_for`)
        self._summaries = plan.summaries_for(False, self._alive)
        self._last_states: tuple[State, ...] = ()
        self._last_summary = Summary(self._xpaths, (), None)
        #: the states whose start-tag table :meth:`opened` reads (``None``: none yet)
        self._quick_states: tuple[State, ...] | None = None
        self._quick_summary = self._last_summary
        self._quick: dict[str, Quick] = {}
        #: waiting ``[last()]`` matches, per block index (see :mod:`stream_mf2.wpt._pending`)
        self._queues: dict[int, PendingQueue] = {}
        #: parents whose close may decide a waiting match
        self._watched: set[Element] = set()
        #: head's place, once head ended with waiting matches in it: they are decided when the
        #: body starts
        self._head_wait: Place | None = None
        for ai, bi, block in plan.source_blocks:
            applied = self.applied[ai]
            assert block.pattern is not None
            applied.scanners.append(
                SourceScanner(
                    block.pattern,
                    self._source_match(applied, bi, block),
                    self._error,
                    max_pattern_chars=max_pattern_chars,
                )
            )
        self._warned: set[str] = set()
        self._places: dict[ParentNode, Place] = {}
        self._moved = False  # has any element been moved or had a sibling inserted before it?
        # Kept elements waiting to be final -> (place, [(index into self._blocks, [last()] conditions)])
        self._candidates: dict[Element, tuple[Place, list[tuple[int, tuple[Cond, ...]]]]] = {}
        self._scanners = [s for a in self.applied for s in a.scanners]
        #: held roots below misnested formatting tags (see :mod:`stream_mf2.wpt._misnest`)
        self._misnest = Misnest(max_misnest_nodes)
        #: the blocks whose matches below held roots are worked out again on the final subtree
        self._rematched = {
            k for k, (_, _, b) in enumerate(self._blocks) if b.xpath is not None and k not in self._at_start
        }

    def attach_holding(self, withdraw: Callable[[Element], bool], keep_holding: Callable[[Element], bool]) -> None:
        """The sink's ``withdraw`` (an open kept root no longer needed) and ``keep_holding`` (a
        clone holding moved nodes made a kept root): turn on holding the elements misnested
        formatting tags may still move (:mod:`stream_mf2.wpt._misnest`)."""
        self._misnest.withdraw = withdraw
        self._misnest.keep_holding = keep_holding
        # (the start-tag tables tell formatting and special elements apart only while holding)
        self._summaries = self._plan.summaries_for(True, self._alive)
        self._last_states = ()
        self._quick_states = None

    @property
    def wants_source(self) -> bool:
        """Does any block need the page source?"""
        return bool(self._scanners)

    def _error(self, message: str) -> None:
        self.errors.append(message)

    def _warn(self, kind: str, place: Place | None) -> None:
        """Tree construction changed an element late in a way that may hide a block match:
        say so, once per kind of change per page (see :data:`LATE_CHANGES`)."""
        if kind in self._warned:
            return
        if (
            kind in ("moved", "cloned")
            and not self._at_start
            and place is not None
            and self._misnest.holds(place.element)
        ):
            # inside a held root: its matches are worked out again on its final subtree (those of
            # paths ending with @name, matched at the start tag, are not: then the warning stays)
            return
        self._warned.add(kind)
        where = place.xpath() if place is not None and place.element is not None else "?"
        self.errors.append(
            f"wpt: {LATE_CHANGES[kind]} at {where}; a block match there may be missing"
            " (a streaming parser decides what to keep when an element is created)"
        )

    def _source_match(self, applied: _Applied, bi: int, block: Block) -> Callable[[str, dict[str, list[str]]], bool]:
        return _SourceMatch(self, applied, bi, block)

    # -- placement observer -------------------------------------------------------
    def _place_of(self, parent: ParentNode) -> Place | None:
        place = self._places.get(parent)
        if place is None and type(parent) is Document:
            place = self._places[parent] = Place(None, None, "", 0, 0)
            place.states = self._root_states
        return place

    def opened(self, element: Element, parent: ParentNode) -> bool:
        """A new element was created as the last child of ``parent`` (the common insertion):
        :meth:`placed`, with the usual case made cheap, since it is the fate of nearly every
        element: no step of the parent's states can take it, it has no id to look for and
        the misnesting bookkeeping has nothing to hold. That is decided from its name by the
        table of the parent's states (:attr:`~stream_mf2.wpt._paths.Summary.quick`, filled by
        :meth:`_quick_entry`), its attributes looked at only if a step of its name tests them;
        the element is then only counted among its siblings and given a place that carries
        its parent's states on.

        Below open formatting elements too: only an element that the misnesting bookkeeping
        may hold (a special one, or any inside a held root) takes :meth:`placed`'s way; a
        formatting element is only noted open (what :meth:`_hold` does with it)."""
        pplace = self._places.get(parent)
        if pplace is None:
            return self.placed(element, parent)
        name = element.name
        states = pplace.states
        if states is not self._quick_states:
            self._quick_for(states)
        steps, kind, states = self._quick.get(name) or self._quick_entry(name)
        if steps is not None and kind >= 0:
            # (may a step take it? by the value of the one attribute its steps test, if one)
            summary = self._quick_summary
            key, memo = summary.may_memos.get(name) or summary.may_memo(name, steps)
            if memo is None:
                may = any_may_match(steps, element.attrs)
            else:
                value = element.attrs.get(key)
                known = memo.get(value)
                if known is None:
                    known = any_may_match(steps, element.attrs)
                    if value is None or len(value) <= _MAX_MEMO_VALUE:
                        if len(memo) >= _MAX_LEAF_MEMO:
                            memo.clear()
                        memo[value] = known
                may = known
            if may:
                return self._opened(element, parent, pplace)
        if kind < 0 or self._misnest.region or (self._needs_id and "id" in element.attrs):
            return self._opened(element, parent, pplace)
        if kind:
            mis = self._misnest
            if element.namespace != HTML_NS or (kind == 2 and mis.fmt_open):
                return self._opened(element, parent, pplace)
            if kind == 1:
                mis.fmt_open.add(element)  # (as _hold: a formatting element, no held root around it)
        # (new from create_element_in: no children)
        counts = pplace.counts
        if counts is None:
            counts = pplace.counts = {}
        pos = counts[name] = counts.get(name, 0) + 1
        n = pplace.n = pplace.n + 1
        if _NATIVE_PLACE:
            place = self._places[element] = Place(pplace, element, name, pos, n)
        else:
            # (Place(pplace, element, name, pos, n) written out: no __init__ frame, for every element)
            place = self._places[element] = _new_place(Place)
            place.parent = pplace
            place.element = element
            place.name = name
            place.pos = pos
            place.any_pos = n
            place.counts = None
            place.n = 0
            place.cache = False
            place.path = None
        place.states = states  # (its parent's "//" states: it cannot advance them)
        return False

    def _quick_for(self, states: tuple[State, ...]) -> None:
        """Make the start-tag table of ``states`` the one :meth:`opened` reads."""
        self._quick_summary = summary = self._summary(states)
        self._quick_states = states
        self._quick = summary.quick

    def _quick_entry(self, name: str) -> Quick:
        """The start-tag table's entry for an element ``name`` under the current states (see
        :data:`~stream_mf2.wpt._paths.Quick`), worked out once per name and states."""
        q: Quick
        summary = self._quick_summary
        states = self._quick_states
        assert states is not None
        v = summary.tags.get(name)
        if v is None:
            v = summary.verdict(name)
        if name in ("body", "selectedcontent"):
            v = False  # (body may decide head's [last()] matches; selectedcontent is warned of)
        elif v is False and not summary.wild and name not in summary.by_name and name.lower() not in summary.by_name:
            # No step of the states names it: as advance_with, it keeps only their "//" ones
            # (the verdict was no because a step is not "//", or its path is done).
            carried = summary.carried
            v, states = True, (states if len(carried) == len(states) else carried)
        if v is False:
            q = (None, -1, states)
        else:
            kind = KIND.get(name, 0) if self._misnest.withdraw is not None else 0
            q = (None if v is True else v, kind, states)
        self._quick[name] = q
        return q

    def _opened(self, element: Element, parent: ParentNode, pplace: Place) -> bool:
        """:meth:`opened`'s way for an element its start-tag table does not let by."""
        name = element.name
        mis = self._misnest
        fmt = False
        if mis.withdraw is not None:
            kind = KIND.get(name)
            if kind is not None:
                if mis.region or element.namespace != HTML_NS or (kind == 2 and mis.fmt_open):
                    return self.placed(element, parent)  # (with the misnesting bookkeeping: _hold)
                fmt = kind == 1
            elif mis.region:
                return self.placed(element, parent)
        # (new from create_element_in: no children)
        counts = pplace.counts
        if counts is None:
            counts = pplace.counts = {}
        pos = counts[name] = counts.get(name, 0) + 1
        n = pplace.n = pplace.n + 1
        if _NATIVE_PLACE:
            place = self._places[element] = Place(pplace, element, name, pos, n)
        else:
            # (Place(pplace, element, name, pos, n) written out: no __init__ frame, for every element)
            place = self._places[element] = _new_place(Place)
            place.parent = pplace
            place.element = element
            place.name = name
            place.pos = pos
            place.any_pos = n
            place.counts = None
            place.n = 0
            place.states = ()
            place.cache = False
            place.path = None
        if fmt:
            mis.fmt_open.add(element)  # (as _hold: a formatting element, no held root around it)
        if self._head_wait is not None and name == "body":
            self._head_wait = None
            self._flush(False)  # head can take no more children: its [last()] matches are decided
        if self._needs_id and ("id" in element.attrs or name == "selectedcontent"):
            return self._decide(element, pplace, place)
        states = pplace.states
        if not states:
            return False
        if states is self._last_states:
            summary = self._last_summary
        else:
            summary = self._summary(states)
        v = summary.tags.get(name)
        if v is None:
            v = summary.verdict(name)
        if name == "selectedcontent":
            return self._decide(element, pplace, place)
        if v is True or (v is not False and not any_may_match(v, element.attrs)):
            place.states = states  # only "//" states this element cannot advance: carried on
            return False
        # (a step may take it: what _advance would ask the summary again)
        return self._decide(element, pplace, place, summary)

    def leaf(self, parent: ParentNode, name: str, attrs: dict[str, str]) -> bool:
        """A leaf element (start tag, text, end tag) is about to be inserted under ``parent``.

        ``True``: it may match, so the sink makes it with the usual calls
        (:meth:`opened`, :meth:`popped`). ``False``: it is only counted among its
        siblings here (the sink then stores nothing for it), and the matches of
        blocks whose path ends with ``@name``, which need nothing but its
        attributes, are made here.
        """
        pplace = self._places.get(parent)
        if pplace is None or (self._misnest.region and type(parent) is Element and parent in self._misnest.region):
            return type(parent) is not DocumentFragment  # (held: counted through opened())
        if self._needs_id and "id" in attrs:
            return True
        states = pplace.states
        if states:
            summary = self._last_summary if states is self._last_states else self._summary(states)
            cands = summary.leaf_tags.get(name)
            if cands is None or cands:  # (else no last step of that name: nothing to ask final_hit)
                key, memo = summary.leaf_memos.get(name) or summary.leaf_memo(name)
                if memo is None:
                    hit = summary.final_hit(name, attrs)
                else:
                    # (its last steps test one attribute at most: the answer by its value)
                    value = attrs.get(key)
                    got = memo.get(value)
                    if got is None:
                        got = summary.final_hit(name, attrs)
                        if value is None or len(value) <= _MAX_MEMO_VALUE:
                            if len(memo) >= _MAX_LEAF_MEMO:
                                memo.clear()
                            memo[value] = got
                    hit = got
                if hit == 2:
                    return True
                if hit == 1:
                    self._leaf_attributes(pplace, name, attrs)
                    return False
        counts = pplace.counts
        if counts is None:
            counts = pplace.counts = {}
        counts[name] = counts.get(name, 0) + 1
        pplace.n += 1
        return False

    def _leaf_attributes(self, pplace: Place, name: str, attrs: dict[str, str]) -> None:
        """A leaf under ``pplace`` that only paths ending with ``@name`` may select: placed
        (counted) and matched here, on a stand-in element with its name and attributes."""
        element = Element(name, HTML_NS, attrs)
        place = pplace.child(element)
        place.states, hits = self._advance(pplace, place)
        if hits is not None:
            wanted = [h for h in hits if self._wanted(h[0])]
            if wanted:
                # (every hit is of an "@name" path: Summary.final_hit said so)
                self._attribute_matches(element, place, wanted)

    def _summary(self, states: tuple[State, ...]) -> Summary:
        """The :class:`~stream_mf2.wpt._paths.Summary` of a states tuple (a small cache by
        identity, then by value: tuples are shared down whole subtrees)."""
        if states is self._last_states:
            return self._last_summary
        # (by value: equal tuples are made again and again, e.g. one per "story" div that
        # starts the same "//" step below it)
        cache = self._summaries
        summary = cache.get(states)
        if summary is None:
            summary = Summary(self._xpaths, states, self._alive, self._at_start_paths)
            # (not a tuple with [last()] conditions: those hold places, and so elements)
            if not any(conds for _, _, conds in states):
                if len(cache) >= 4096:
                    cache.clear()
                cache[states] = summary
        self._last_states = states
        self._last_summary = summary
        return summary

    def placed(self, element: Element, parent: ParentNode, before: Node | None = None) -> bool:
        """The sink placed (or moved) ``element`` under ``parent`` (before ``before``): track it;
        keep it if it may match.

        An insertion before a sibling is foster parenting: the new element goes
        right before the open ``table`` (the last element child), so it takes the
        table's positions and the table moves one on.
        """
        places = self._places
        old = places.get(element)
        if old is None:
            old_candidate = self._candidates.get(element)
            old = old_candidate[0] if old_candidate is not None else None
        pplace = places.get(parent)
        if pplace is None:
            if type(parent) is DocumentFragment:
                return False  # template contents are not children in the DOM: never matched
            pplace = self._place_of(parent)
            if pplace is None and type(before) is Element:
                # Foster parenting into the table's parent after that parent left the stack (the
                # adoption agency removed an <a> around the table): the table's place still
                # links to the parent's.
                ref = places.get(before)
                if ref is not None and ref.parent is not None and ref.parent.element is parent:
                    pplace = ref.parent
            if pplace is None:
                return False
        if old is not None:
            # A move (adoption agency): the place object is updated, so places below it follow.
            self._moving()
            self._misnest.moves += 1
            if old.parent is not None:
                old.parent.uncount(old.name)
            fresh = pplace.child(element)
            old.parent = pplace
            old.pos = fresh.pos
            old.any_pos = fresh.any_pos
            self._before(old, before)
            was = old.states
            old.states, hits = self._advance(pplace, old)
            # Its own match is checked again when it is final; what was decided below it
            # (kept or dropped) stands: exact only if no path went through it, before or after.
            if old.states != was or self._missed(element, hits):
                self._warn("moved", old)
            return False
        place = pplace.child(element)
        places[element] = place
        if before is not None:
            self._before(place, before)
        if element.children:
            # A clone that received the children of another element before being placed
            # (the adoption agency), or a moved subtree whose places were dropped when popped.
            if self._misnest.withdraw is not None:
                self._misnest.moves += 1
                self._hold(element, parent, False)  # (before the warnings: a held one has none)
            place.states, hits = self._advance(pplace, place)
            if place.states or (hits is not None and self._any_wanted(hits)):
                self._warn("cloned", place)
            for c in element.children:
                if type(c) is Element:
                    if c not in places and c not in self._candidates:
                        self._moved_in(c, place)
                    else:
                        self.placed(c, element)
            return False  # not empty: too late to keep it (unless held: _hold)
        keep = self._decide(element, pplace, place)
        if self._misnest.withdraw is not None:
            return self._hold(element, parent, keep)
        return keep

    def _hold(self, element: Element, parent: ParentNode, keep: bool) -> bool:
        """The misnesting bookkeeping of a new ``element`` (see :mod:`stream_mf2.wpt._misnest`):
        open formatting elements, held roots and what grows below them. ``keep``: the answer so far."""
        mis = self._misnest
        if element.namespace != HTML_NS:
            kind = None
        else:
            kind = KIND.get(element.name)
            if kind == 1:
                mis.fmt_open.add(element)
        root = mis.region.get(parent) if mis.region and type(parent) is Element else None
        if root is not None:
            over = mis.grow(root, element)
            if over is not None:
                self._withdraw(over)
            return keep
        if element.children:
            # A clone of the adoption agency holding moved nodes, outside held roots: held
            # if it is a formatting element around a held root (it may end up empty or not),
            # whose content is whole (nothing in it was released: see Misnest.whole).
            hold = kind == 1 and bool(mis.roots) and mis.whole(element) and mis.start(element)
            if hold and (mis.keep_holding is None or not mis.keep_holding(element)):
                mis.unstart(element)
                return keep
            if hold:
                mis.stamps[element] = -1  # (what it holds was never streamed at its place: worked out)
        else:
            hold = kind == 2 and bool(mis.fmt_open) and mis.start(element)
        if hold:
            if element not in self._candidates:
                self._candidates[element] = (self._places[element], [])
            return True
        return keep

    def _withdraw(self, root: Element) -> None:
        """More than ``max_misnest_nodes`` are held: ``root`` is held no more (stored as if never
        kept, when only the holding kept it); its matches are the streaming ones from now on."""
        mis = self._misnest
        cand = self._candidates.get(root)
        withdraw = mis.withdraw
        if cand is not None and cand[1]:
            mis.drop(root)  # a block's match: kept anyway, its matches the streaming ones
        elif withdraw is not None and withdraw(root):
            mis.drop(root)
            self._candidates.pop(root, None)
        else:
            # The sink cannot withdraw it (a <select> or <template> inside, or inside another kept
            # subtree): held as it is until handed over, still counted, so nothing more is held.
            mis.stuck.add(root)

    def _moved_in(self, element: Element, pplace: Place) -> None:
        """``element``, popped and not kept (its content is gone), was moved under ``pplace``."""
        place = pplace.child(element)
        place.states, hits = self._advance(pplace, place)
        if place.states or (hits is not None and self._any_wanted(hits)):
            self._warn("moved", place)

    def _moving(self) -> None:
        """An element moves (the adoption agency, foster parenting): from now on a place's path
        may change, so the paths kept on streamed places are forgotten and no more are kept."""
        if not self._moved:
            self._moved = True
            forget_paths([*self._places.values(), *[c[0] for c in self._candidates.values()]])

    def _any_wanted(self, hits: list[tuple[int, tuple[Cond, ...]]]) -> bool:
        return any(self._wanted(k) for k, _ in hits)

    def _missed(self, element: Element, hits: list[tuple[int, tuple[Cond, ...]]] | None) -> bool:
        """``element`` now matches the blocks ``hits`` at its changed place: a kept candidate
        takes them on (its matches are checked when it is final); ``True`` if one is lost."""
        if hits is None:
            return False
        cand = self._candidates.get(element)
        if cand is None:
            return self._any_wanted(hits)
        ks = cand[1]
        ks.extend(h for h in hits if h not in ks)
        return False

    def attrs_added(self, element: Element, names: list[str]) -> None:
        """A later ``<html>``/``<body>`` tag added attributes ``names`` to ``element``."""
        if self._blocks and any(n in self._attr_names for n in names):
            self._warn("late-attributes", self._places.get(element))

    def removed(self, element: Element) -> None:
        """``element`` left the tree (``<frameset>`` replacing ``<body>``): it is the last element
        child of its parent, so later siblings take its position; what was found inside it is gone."""
        place = self._places.pop(element, None)
        if place is not None and place.parent is not None:
            place.parent.uncount(place.name)
        for el in [c for c in self._candidates if c is element or is_ancestor(element, c)]:
            del self._candidates[el]
        mis = self._misnest
        mis.fmt_open.discard(element)
        for el in [c for c in mis.roots if c is element or is_ancestor(element, c)]:
            mis.drop(el)

    def _decide(self, element: Element, pplace: Place, place: Place, summary: Summary | None = None) -> bool:
        """Set ``place``'s matcher states; make ``element`` a candidate if it matches a wanted block.
        (``summary``: the parent's states' summary, which said a step may take the element.)"""
        place.states, hits = self._advance(pplace, place, summary)
        if element.name == "selectedcontent" and (place.states or self._needs_id):
            self._warn("selectedcontent", place)
        if hits is None:
            return False
        blocks = self._blocks
        applied = self.applied
        wanted = [h for h in hits if not applied[blocks[h[0]][0]].done[blocks[h[0]][1]]]  # (_wanted)
        if not wanted:
            return False
        if self._at_start:
            wanted = self._attribute_matches(element, place, wanted)
            if not wanted:
                return False
        self._candidates[element] = (place, wanted)
        return True

    def _attribute_matches(
        self, element: Element, place: Place, wanted: list[tuple[int, tuple[Cond, ...]]]
    ) -> list[tuple[int, tuple[Cond, ...]]]:
        """Deliver now the matches of blocks whose path ends with ``@name``: attributes are known
        at the start tag, so the element need not be kept (a ``[last()]`` match waits in its
        block's queue, without the element). The other blocks' hits."""
        rest: list[tuple[int, tuple[Cond, ...]]] = []
        done: set[int] = set()
        queued = False
        for k, _ in wanted:
            if k not in self._at_start:
                rest.append((k, _))
                continue
            if k in done:
                continue
            done.add(k)
            ai, bi, block = self._blocks[k]
            if self.applied[ai].done[bi] or (block.tagid is not None and element.attrs.get("id") != block.tagid):
                continue
            alts = [c for kk, c in wanted if kk == k]
            if any(not c for c in alts):
                alts = [()]
            if not self._moved:
                kept_path(place)  # (nothing has moved: it holds, and the next matches start from it)
            self._deliver(k, [(m, alts) for _, m in node_matches(element, place, block)])
            queued = queued or k in self._lastish
        if queued:
            self._flush(False)
        return rest

    def _before(self, place: Place, before: Node | None) -> None:
        """``place`` was inserted right before ``before``: swap positions with it (see :meth:`placed`)."""
        if type(before) is not Element:
            return
        ref = self._places.get(before)
        if ref is None or ref.parent is not place.parent:
            return
        self._moving()
        self._misnest.moves += 1
        place.any_pos, ref.any_pos = ref.any_pos, ref.any_pos + 1
        if ref.name == place.name:
            place.pos, ref.pos = ref.pos, ref.pos + 1
        # The table's own match is checked again when it is final, and what is created in it
        # from now on follows its new states; what was decided inside it before stands.
        was = ref.states
        pplace = ref.parent
        assert pplace is not None
        ref.states, hits = self._advance(pplace, ref)
        if ref.states != was or self._missed(before, hits):
            self._warn("foster-parented", ref)

    def _advance(
        self, pplace: Place, place: Place, checked: Summary | None = None
    ) -> tuple[tuple[State, ...], list[tuple[int, tuple[Cond, ...]]] | None]:
        """The matcher states of ``place`` (child of ``pplace``) and the top-level blocks it
        matches, each with the ``[last()]`` conditions still to hold. (``checked``: the summary
        of ``pplace``'s states, which already said the element does not pass them.)"""
        hits: list[tuple[int, tuple[Cond, ...]]] | None = None
        out: tuple[State, ...] = ()
        states = pplace.states
        if states:
            element = place.element
            assert element is not None
            if checked is not None:
                summary = checked
                passes = False
            else:
                summary = self._summary(states)
                passes = summary.passes(place.name, element.attrs)
            if passes:
                # only "//" states, none of whose steps this element can match: carried on as they are
                paths = None
                out = states
            else:
                out, paths = advance_with(self._xpaths, states, summary, place, None)
            if paths is not None:
                hits = []
                xpath_blocks = self._xpath_blocks
                for xi, conds in paths:
                    for k in xpath_blocks[xi]:
                        hits.append((k, conds))
        if self._needs_id:
            element = place.element
            assert element is not None
            id_ = element.attrs.get("id")
            if id_ is not None:
                for xi in self._anchors.get(id_, ()):
                    if not self._xpaths[xi].steps:
                        if hits is None:
                            hits = []
                        hits.extend((k, ()) for k in self._xpath_blocks[xi])
                    elif (xi, 0, ()) not in out:
                        out = (*out, (xi, 0, ()))
                tagged = self._tagid_blocks.get(id_)
                if tagged:
                    if hits is None:
                        hits = []
                    hits.extend((k, ()) for k in tagged)
        return out, hits

    def _wanted(self, k: int) -> bool:
        """Is top-level block ``k`` still looking for matches? (A block with both ``ow:tagid``
        and ``ow:xpath`` is found through its path; the id is checked when the element is final.)"""
        ai, bi, _ = self._blocks[k]
        return not self.applied[ai].done[bi]

    def popped(self, element: Element) -> None:
        """``element`` left the stack of open elements: its place is no longer needed here.

        Except ``head``'s: the "after head" rules put ``head`` back on the stack
        for a late ``<title>``, ``<style>``, ``<meta>`` ...
        """
        place = self._places.pop(element, None)
        mis = self._misnest
        if mis.fmt_open or mis.region or self._watched or (place is not None and place.name == "head"):
            self._popped(element, place)

    def _popped(self, element: Element, place: Place | None) -> None:
        """:meth:`popped`'s way when there is more to do than dropping the place."""
        if place is not None and element.name == "head":
            self._places[element] = place
        mis = self._misnest
        if mis.fmt_open:
            mis.fmt_open.discard(element)
        if mis.region:
            mis.region.pop(element, None)
        if self._watched and element in self._watched:
            self._watched.discard(element)
            if element.name == "head":
                self._head_wait = self._places.get(element)
            self._flush(False)

    # -- completion -----------------------------------------------------------------
    def complete(self, root: Element) -> bool:
        """An outermost kept subtree is final: emit the matches of the candidates inside it."""
        candidates = self._candidates
        if not candidates:
            return True
        if root in candidates and (len(candidates) == 1 or not root.children):
            found = [root]
        elif len(candidates) <= _FEW_CANDIDATES:
            # Few pending (the usual case: a kept block and a match or two inside it): each is
            # looked for up its parent links, not in a walk of the whole subtree.
            found = [root] if root in candidates else []
            found.extend(_in_document_order(root, [el for el in candidates if el is not root and is_ancestor(root, el)]))
        else:
            # The candidates inside ``root``, in document order: one walk of the subtree, which
            # the matches walk anyway (its text, its HTML). Filtering every pending candidate
            # for each root instead was quadratic on the rows of one table, all handed over
            # together when the table closes. But a large root (an mf2 root the capture keeps
            # whole, a page's small matches waiting inside it) is most of the page: the walk has
            # a budget of steps in proportion to the candidates, past which they are found by
            # climbs instead (:func:`_inside`, about their distinct ancestors).
            found = [root] if root in candidates else []
            left = len(candidates) - len(found)  # (the walk ends once it has found them all)
            walk: list[tuple[list[Node], int]] = [(root.children, 0)]
            if len(candidates) > _CLIMBED_CANDIDATES:
                # (many candidates: the walk, whatever it costs; sorting them by child indices,
                # each climb's list.index a linear search of a wide parent, costs more. It is the
                # loop below without the budget, written twice on purpose: a budget that never
                # runs out still costs two lines a step, 4.6 M instructions of the crawler row over
                # feed-large, with 2,343 candidates.)
                while walk and left:
                    kids, i = walk.pop()
                    n = len(kids)
                    while i < n:
                        el = kids[i]
                        i += 1
                        if type(el) is not Element:
                            continue
                        if el in candidates:
                            found.append(el)
                            left -= 1
                            if not left:
                                break
                        if el.children:
                            walk.append((kids, i))
                            walk.append((el.children, 0))
                            break
            else:
                budget = _WALK_STEPS * len(candidates)
                while walk and left:
                    budget -= 1
                    if not budget:
                        found = [root] if root in candidates else []
                        found.extend(_in_document_order(root, _inside(root, candidates)))
                        break
                    kids, i = walk.pop()
                    n = len(kids)
                    while i < n:
                        el = kids[i]
                        i += 1
                        if type(el) is not Element:
                            continue
                        if el in candidates:
                            found.append(el)
                            left -= 1
                            if not left:
                                break
                        if el.children:
                            walk.append((kids, i))
                            walk.append((el.children, 0))
                            break
        # per block: (node, (match, [last()] alternatives)), in document order of the elements
        out: dict[int, list[tuple[Node, tuple[dict[str, Any], list[tuple[Cond, ...]]]]]] = {}
        mis = self._misnest
        # (held roots and what is inside them: their matches are worked out again)
        held: set[Element] = set()
        inner: set[Element] = set()
        if mis.roots:
            # Worked out again: what is inside a held root that something moved since it was held
            # (a held root inside another is worked out with that one); the others keep the
            # matches they streamed, and are held no more.
            for el in found:
                top = mis.outermost(el)
                if top is None:
                    continue
                if mis.stamps[top] == mis.moves:
                    if el in mis.roots:
                        mis.drop(el)
                    continue
                held.add(el)
                if top is not el and el in mis.roots:
                    inner.add(el)
        for el in found:
            place, ks = candidates.pop(el)
            if not self._moved:
                kept_path(place)  # (nothing has moved: it holds, and the next matches start from it)
            if held and el in held:
                ks = self._rematch(el, place, ks, out, el in inner)
            seen: set[int] = set()
            for k, _ in ks:
                if k in seen:
                    continue
                seen.add(k)
                ai, bi, block = self._blocks[k]
                if self.applied[ai].done[bi]:
                    continue
                if block.tagid is not None and el.attrs.get("id") != block.tagid:
                    continue
                # Checked again only if an element was moved since (the adoption agency, foster parenting).
                if self._moved and block.xpath is not None and not path_matches(block.xpath, place):
                    continue
                if len(ks) == 1:
                    alts = [ks[0][1]]  # (the usual one hit: what the lines below give, without their frames)
                else:
                    alts = [c for kk, c in ks if kk == k]
                    if any(not c for c in alts):
                        alts = [()]
                got = out.setdefault(k, [])
                if got and not block.repeatable and not held and k not in self._lastish:
                    if block.xpath is None or block.xpath.final != "text()":
                        # _deliver emits only the first match of a single block (document order
                        # here: text() matches are sorted below), so the others are not made
                        continue
                for node, m in node_matches(el, place, block):
                    got.append((node, (m, alts)))
        for k, got in out.items():
            block = self._blocks[k][2]
            if block.xpath is not None and block.xpath.final == "text()":
                got = in_document_order(root, got)
            self._deliver(k, [item for _, item in got])
        if self._queues:
            self._flush(False)
        return True

    def _rematch(
        self,
        el: Element,
        place: Place,
        ks: list[tuple[int, tuple[Cond, ...]]],
        out: dict[int, list[tuple[Node, tuple[dict[str, Any], list[tuple[Cond, ...]]]]]],
        inner: bool,
    ) -> list[tuple[int, tuple[Cond, ...]]]:
        """``el`` is a held root or inside one (:mod:`stream_mf2.wpt._misnest`): the blocks whose
        matches there are worked out again (a path without ``[last()]`` or a final ``@name``) are
        left out of its streaming hits ``ks`` (returned); for a held root they are found on its
        final place and subtree (unless it is ``inner``: inside another), added to ``out``."""
        again = self._rematched
        rest = [h for h in ks if h[0] not in again]
        if el not in self._misnest.roots:
            return rest
        self._misnest.drop(el)
        if inner:
            return rest  # a held root inside another: worked out with that one
        # One walk of the final subtree from the root's place (kept up to date through the
        # moves), with the streaming matcher's own steps: as if it were streamed now.
        top = frozen(place)
        pplace = place.parent
        assert pplace is not None
        top.states, hits = self._advance(pplace, top)
        stack: list[tuple[Place, list[tuple[int, tuple[Cond, ...]]] | None]] = [(top, hits)]
        needs_id = self._needs_id
        while stack:
            p, hits = stack.pop()
            node = p.element
            assert node is not None
            if hits is not None:
                seen: set[int] = set()
                for k, _ in hits:
                    if k in seen or k not in again or not self._wanted(k):
                        continue
                    seen.add(k)
                    block = self._blocks[k][2]
                    if block.tagid is not None and node.attrs.get("id") != block.tagid:
                        continue
                    # ([last()] conditions: decided as the streamed ones, the subtree's own at once)
                    alts = [c for kk, c in hits if kk == k]
                    if any(not c for c in alts):
                        alts = [()]
                    got = out.setdefault(k, [])
                    for n, m in node_matches(node, p, block):
                        got.append((n, (m, alts)))
            if p.states or needs_id:
                kids: list[tuple[Place, list[tuple[int, tuple[Cond, ...]]] | None]] = []
                for c in node.children:
                    if type(c) is Element:
                        cp = p.child(c)
                        cp.states, chits = self._advance(p, cp)
                        kids.append((cp, chits))
                stack.extend(reversed(kids))
        return rest

    def _deliver(self, k: int, items: list[tuple[dict[str, Any], list[tuple[Cond, ...]]]]) -> None:
        """Emit the matches of block ``k`` from one hand-over (in document order), or queue them
        behind the block's waiting ``[last()]`` matches."""
        ai, bi, block = self._blocks[k]
        applied = self.applied[ai]
        if k in self._lastish:
            # Computed now (the subtree is freed after the hand-over), emitted once decided.
            queue = self._queues.get(k)
            if queue is None:
                queue = self._queues[k] = PendingQueue()
            for m, alts in items:
                for conds in alts:
                    for c in conds:
                        parent = c[0].parent
                        if parent is not None and parent.element is not None:
                            self._watched.add(parent.element)
                queue.push(Pending([m], alts), self._closed)
            return
        for m, _ in items:
            if applied.done[bi]:
                break
            if not block.repeatable:
                self._done(k)
            self.emit(WptMatchEvent(applied.page, bi, m))

    def _done(self, k: int) -> None:
        """Block ``k`` (not repeatable) has its match: its path need not be followed any more."""
        ai, bi, _ = self._blocks[k]
        self.applied[ai].done[bi] = True
        xi = self._path_of.get(k)
        if xi is not None and all(not self._wanted(kk) for kk in self._xpath_blocks[xi]):
            self._alive[xi] = False
            # summaries leave dead paths out: those of the paths still alive
            self._summaries = self._plan.summaries_for(self._misnest.withdraw is not None, self._alive)
            self._last_states = ()
            self._quick_states = None

    def _closed(self, cond: Cond) -> bool:
        """Has the parent of the condition's place closed (no more siblings can come)?"""
        parent = cond[0].parent
        if parent is None:
            return False
        if parent.element is None:
            return True  # the document has one element child
        if parent.name == "head" and parent.parent is not None and parent.parent.counts:
            # head keeps its place after its end tag (late <meta> and <title> go back into it),
            # but only until the body starts
            return parent.parent.counts.get("body", 0) > 0
        return self._places.get(parent.element) is not parent

    def _flush(self, final: bool) -> None:
        """Emit the decided waiting matches (``final``: the document ended)."""
        for k, queue in list(self._queues.items()):
            ai, bi, block = self._blocks[k]
            applied = self.applied[ai]
            for matches in queue.ready(self._closed, final):
                if applied.done[bi]:
                    break
                for m in matches:
                    self.emit(WptMatchEvent(applied.page, bi, m))
                if not block.repeatable:
                    self._done(k)
            if applied.done[bi] or final:
                queue.clear()
            if not queue:
                del self._queues[k]

    # -- page source ------------------------------------------------------------------
    def source(self, text: str) -> None:
        """More decoded page text (for pattern-only blocks)."""
        for s in self._scanners:
            s.feed(text)

    def finish(self) -> None:
        """The document ended: close the pattern scanners and end every page.

        A page's end goes out on ``emit_source``, after the last page-source matches the
        scanners give as they close: the parser passes those on after the element matches,
        so an end on ``emit`` would come before them, and a consumer that closes the page at
        its end (``stream-mf2 wpt``'s page lines) would lose them.
        """
        if self._queues:
            self._flush(True)
        for s in self._scanners:
            s.close()
        self._candidates.clear()
        self._misnest.clear()
        self._summaries = {}  # (holding is off: the plan's summaries are not for what may follow)
        self._watched.clear()
        self._places.clear()
        errors = tuple(self.errors)
        for applied in self.applied:
            self.emit_source(WptPageEnd(applied.page, errors))
