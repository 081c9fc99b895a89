"""WHATWG tree construction (HTML 13.2.6), scripting disabled.

:class:`TreeBuilder` receives tokens from the tokenizer through the
``TokenSink`` callbacks (:class:`~stream_mf2.html.tokenizer.TokenSink`) and builds a tree through a
:class:`~stream_mf2.html.sink.TreeSink`. It owns the parser state of the spec:
insertion mode, stack of open elements, list of active formatting elements,
template insertion modes, head and form element pointers, frameset-ok flag,
foster parenting flag and the pending table character tokens. The sink owns the
nodes.

Implementation notes:

* No recursion on input-controlled depth. Reprocessing a token in another
  mode is a direct call, but every chain of such calls has a constant bound.
* Scope checks ("has an element in scope") first look at a per-name count of
  open HTML elements, so the common negative answer costs O(1) even with a
  very deep stack; positive answers scan down from the current node and stop
  at the first scope boundary.
* Scope walks that went far are remembered (``_walked``) with the element
  that stopped them and the open counts of every name that could stop them
  sooner; while those are unchanged and that element is still at its index the
  answer is the same. The walk of "any other end tag" and "reset the insertion
  mode appropriately" follow the same rule, and repeated adoption agency runs
  remember the element re-created last and the topmost scope boundary
  (``_adoption_scope``, ``_scope_floor``). So hostile misnesting stays linear
  (``docs/internals/linear-time.md`` lists the patterns and their tests).
* Fast paths, all exact: the tokenizer's fused ``start_text_end`` call is taken
  only for an element the "in body" rules (or "in row", for a cell) would just
  insert under an HTML current node, fill with the text and pop (nothing to
  reconstruct, no foster parenting, no ``p``, list item or heading to close, no
  same-named active formatting element, the end tag names the element); void
  elements whose insertion place is the current node go to the sink's
  ``append_leaf`` in one call (``_insert_void``); under "in body" with an HTML
  current node, tokens skip the foreign-content test and the mode dispatch.
* Elements leaving the stack of open elements are queued and reported to the
  sink with ``pop`` once the current token has been processed completely.
* Parse errors are not reported: they never change the tree.
* The ``<select>`` rules are the 2025 relaxed ones: there is no "in select"
  mode, ``select`` is an element-in-scope boundary, ``option``/``optgroup``/
  ``hr``/``input`` start tags look at a ``select`` in scope, and popped
  ``option`` elements feed ``selectedcontent`` (done by the sink).
* ``max_depth`` (default :data:`DEFAULT_MAX_DEPTH`) bounds the stack of open
  elements; deeper input raises :class:`~stream_mf2.errors.LimitExceeded`
  (``limit="max_depth"``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, ClassVar, Final, Protocol

from stream_mf2.errors import LimitExceeded
from stream_mf2.html.decode import extract_encoding_from_meta, lookup_encoding
from stream_mf2.html.dom import HTML_NS, MATHML_NS, SVG_NS, Document, Element, Node, ParentNode
from stream_mf2.html.sink import SinkCalls, TreeSink
from stream_mf2.html.tokenizer import TokenCalls, Tokenizer
from stream_mf2.html.tree_tables import (
    BREAKOUT,
    BUTTON_SCOPE_HTML,
    CLOSE_P_BLOCKS,
    END_BLOCKS,
    FORMATTING,
    FOSTER_TARGETS,
    HEADINGS,
    IMPLIED_END,
    IMPLIED_END_THOROUGH,
    LIST_ITEM_SCOPE_HTML,
    MATHML_TEXT_INTEGRATION,
    SCOPE_FOREIGN,
    SCOPE_HTML,
    SPECIAL_FOREIGN,
    SPECIAL_HTML,
    SVG_ATTR_ADJUST,
    SVG_HTML_INTEGRATION,
    SVG_TAG_ADJUST,
    TABLE_SCOPE_HTML,
    WS,
    quirks_mode_for,
)

__all__ = ["DEFAULT_MAX_DEPTH", "DEFAULT_MAX_FORMATTING_ELEMENTS", "TreeBuilder"]

#: Default bound on the depth of the stack of open elements.
DEFAULT_MAX_DEPTH: Final = 100_000
#: Default bound on the active formatting elements after the last marker (see TreeBuilder).
DEFAULT_MAX_FORMATTING_ELEMENTS: Final = 64

# Insertion modes (13.2.4.1).
# Each mode's rules have a comment naming its section of the HTML Standard and its anchor in
# parsing.html, above its start tag handler _start_<mode> ("in table text": above _chars_in_table_text).
# Its end tag and character handlers are _end_<mode> and _chars_<mode> (some shared, see the tables
# below the class); comment(), doctype() and eof() take those tokens for every mode. The numbers are
# those of the Standard since the 2025 <select> parsing change removed "in select" and "in select in
# table" (13.2.6.4.1-13.2.6.4.21; before it, "in template" was 13.2.6.4.18 and "after after frameset"
# 13.2.6.4.23). tests/html/test_spec_anchors.py checks that every mode has exactly one anchor.
INITIAL: Final = 0
BEFORE_HTML: Final = 1
BEFORE_HEAD: Final = 2
IN_HEAD: Final = 3
IN_HEAD_NOSCRIPT: Final = 4
AFTER_HEAD: Final = 5
IN_BODY: Final = 6
TEXT: Final = 7
IN_TABLE: Final = 8
IN_TABLE_TEXT: Final = 9
IN_CAPTION: Final = 10
IN_COLUMN_GROUP: Final = 11
IN_TABLE_BODY: Final = 12
IN_ROW: Final = 13
IN_CELL: Final = 14
IN_TEMPLATE: Final = 15
AFTER_BODY: Final = 16
IN_FRAMESET: Final = 17
AFTER_FRAMESET: Final = 18
AFTER_AFTER_BODY: Final = 19
AFTER_AFTER_FRAMESET: Final = 20

# Modes whose character tokens follow the "in body" rules (see _CHARS).
_BODY_TEXT_MODES: Final = frozenset((IN_BODY, IN_CAPTION, IN_CELL, IN_TEMPLATE))

_TABLE_TEXT_PARENTS: Final = frozenset(("table", "tbody", "template", "tfoot", "thead", "tr"))
_HEAD_ELEMENTS: Final = frozenset(
    ("base", "basefont", "bgsound", "link", "meta", "noframes", "script", "style", "template", "title")
)
_TABLE_SECTION: Final = frozenset(("tbody", "tfoot", "thead"))
_CELL_OR_ROW_START: Final = frozenset(("caption", "col", "colgroup", "tbody", "td", "tfoot", "th", "thead", "tr"))
_RAWTEXT_CONTEXT: Final = frozenset(("style", "xmp", "iframe", "noembed", "noframes"))
# End tags the "in cell" rules handle themselves; all others follow "in body".
_CELL_OWN_END: Final = frozenset(
    ("td", "th", "body", "caption", "col", "colgroup", "html", "table", "tbody", "tfoot", "thead", "tr")
)

Attrs = dict[str, str]

# The elements "reset the insertion mode appropriately" stops at (all others are passed).
_RESET_NAMES = (
    "td",
    "th",
    "tr",
    "tbody",
    "thead",
    "tfoot",
    "caption",
    "colgroup",
    "table",
    "template",
    "head",
    "body",
    "frameset",
    "html",
)

# Everything but ASCII whitespace (the characters "in column group" ignores one by one).
_NOT_WS = re.compile("[^\t\n\f\r ]+")


class _Tokenizer(Protocol):
    """What the tree builder needs from the tokenizer."""

    last_start_tag: str | None

    def switch_to(self, state: str) -> None: ...


class _Forwarded(SinkCalls):
    """:class:`SinkCalls` of a sink that does not derive from it: every call goes to the sink.

    The optional ``create_element_in`` and ``append_leaf`` are done with the
    required methods when the sink lacks them (see :class:`TreeSink`).
    """

    def __init__(self, sink: TreeSink) -> None:
        self._sink = sink
        self._create_in: Callable[[ParentNode, str, str, Attrs], Element] | None = getattr(
            sink, "create_element_in", None
        )
        self._leaf: Callable[[ParentNode, str, str, Attrs, str], None] | None = getattr(sink, "append_leaf", None)

    def create_element_in(self, parent: ParentNode, name: str, namespace: str, attrs: Attrs) -> Element:
        if self._create_in is not None:
            return self._create_in(parent, name, namespace, attrs)
        el = self._sink.create_element(name, namespace, attrs)
        self._sink.append(parent, el)
        return el

    def append_leaf(self, parent: ParentNode, name: str, namespace: str, attrs: Attrs, text: str) -> None:
        if self._leaf is not None:
            self._leaf(parent, name, namespace, attrs, text)
            return
        el = self.create_element_in(parent, name, namespace, attrs)
        if text:
            self._sink.append_text(el, text)
        self._sink.pop(el)

    def append_text(self, parent: ParentNode, data: str) -> None:
        self._sink.append_text(parent, data)

    def pop(self, element: Element) -> None:
        self._sink.pop(element)


# 13.2.4.2 The "special" category — https://html.spec.whatwg.org/multipage/parsing.html#special
def _is_special(el: Element) -> bool:
    if el.namespace == HTML_NS:
        return el.name in SPECIAL_HTML
    return (el.namespace, el.name) in SPECIAL_FOREIGN


# 13.2.6 HTML integration point — https://html.spec.whatwg.org/multipage/parsing.html#html-integration-point
def _is_html_integration_point(el: Element) -> bool:
    ns = el.namespace
    if ns == SVG_NS:
        return el.name in SVG_HTML_INTEGRATION
    if ns == MATHML_NS and el.name == "annotation-xml":
        enc = el.attrs.get("encoding")
        return enc is not None and enc.lower() in ("text/html", "application/xhtml+xml")
    return False


# 13.2.6.1 Adjust MathML attributes — https://html.spec.whatwg.org/multipage/parsing.html#adjust-mathml-attributes
# 13.2.6.1 Adjust SVG attributes — https://html.spec.whatwg.org/multipage/parsing.html#adjust-svg-attributes
def _adjust_foreign_attrs(attrs: Attrs, namespace: str) -> Attrs:
    """Adjust MathML/SVG attribute case (the qualified names stay the keys)."""
    if namespace == SVG_NS:
        if any(k in SVG_ATTR_ADJUST for k in attrs):
            return {SVG_ATTR_ADJUST.get(k, k): v for k, v in attrs.items()}
    elif namespace == MATHML_NS and "definitionurl" in attrs:
        return {("definitionURL" if k == "definitionurl" else k): v for k, v in attrs.items()}
    return attrs


class TreeBuilder(TokenCalls):
    """The HTML tree construction stage, a ``TokenSink`` driving a ``TreeSink``.

    ``sink`` receives every tree mutation. The tokenizer made with this builder
    as its sink (which introduces itself, :meth:`attach_tokenizer`) is switched
    to RCDATA/RAWTEXT/script data/PLAINTEXT when the spec says so.
    ``fragment_context`` turns on the HTML fragment parsing algorithm with that
    element as context. ``max_depth`` bounds the stack of open elements
    (:class:`~stream_mf2.errors.LimitExceeded`).

    ``meta_encoding_hook``, when given, is called with the encoding a ``<meta>``
    declares (``charset``, or ``http-equiv=content-type`` with a ``content`` that
    names one) each time a ``meta`` start tag is handled by the "in head" rules,
    wherever in the document: that is where the spec says to *change the
    encoding* if the confidence is tentative, a decision left to the hook's owner,
    which knows the confidence.
    """

    # Slots, not an instance dictionary: an instance with this many attributes gets no
    # shared-key dictionary, so the interpreter could not specialize ``self._x()`` calls.
    # Every attribute set in ``__init__`` must be listed.
    __slots__ = (
        "_adopted",
        "_calls",
        "_capped",
        "_context",
        "_counts",
        "_create_element",
        "_done",
        "_fcounts",
        "_fend_memo",
        "_floor_memo",
        "_foreign_pushes",
        "_foster",
        "_ignore_lf",
        "_open_set",
        "_pending_pops",
        "_reset_memo",
        "_scope_memo",
        "_table_text",
        "afe",
        "form",
        "frameset_ok",
        "head",
        "max_depth",
        "max_formatting_elements",
        "meta_encoding_hook",
        "mode",
        "notes",
        "open",
        "original_mode",
        "quirks",
        "sink",
        "template_modes",
        "tokenizer",
    )

    def __init__(
        self,
        sink: TreeSink,
        *,
        fragment_context: Element | None = None,
        max_depth: int = DEFAULT_MAX_DEPTH,
        max_formatting_elements: int = DEFAULT_MAX_FORMATTING_ELEMENTS,
        meta_encoding_hook: Callable[[str], None] | None = None,
    ) -> None:
        if max_formatting_elements < 3:
            raise ValueError("max_formatting_elements must be at least 3")
        self.sink = sink
        self.max_formatting_elements = max_formatting_elements
        #: Recoveries that changed the tree (the formatting-element cap), in order.
        self.notes: list[str] = []
        self._capped = 0
        self.tokenizer: _Tokenizer | None = None
        self.max_depth = max_depth
        self.mode = INITIAL
        self.original_mode = INITIAL
        self.template_modes: list[int] = []
        self.open: list[Element] = []
        self.afe: list[Element | None] = []  # None is a marker
        # The open elements as a set (identity hash): "is this formatting element open?" in O(1).
        self._open_set: set[Element] = set()
        self._counts: dict[str, int] = {}
        # Scope walks that went far, remembered (see _in_scope), and how many
        # foreign scope-boundary elements (SCOPE_FOREIGN) were ever pushed.
        self._scope_memo: dict[tuple[Any, frozenset[str], bool], tuple[int, Element, tuple[int, ...], bool]] = {}
        self._foreign_pushes = 0
        self._reset_memo: tuple[int, Element, tuple[int, ...]] | None = None
        # The adoption agency algorithm's last re-created formatting element and
        # its stack index, and the topmost general scope boundary found by a long
        # walk (see _adoption_scope): a run of misnested end tags finds both
        # without walking the stack each time.
        self._adopted: tuple[Element, int] | None = None
        self._floor_memo: tuple[int, Element, tuple[int, ...]] | None = None
        # Open foreign elements by lowercased name, and the foreign end tag walks
        # that went far, remembered (see _foreign_end).
        self._fcounts: dict[str, int] = {}
        self._fend_memo: dict[str, tuple[int, Element, int]] = {}
        self._pending_pops: list[Element] = []
        self.head: Element | None = None
        self.form: Element | None = None
        self.frameset_ok = True
        self.quirks = "no-quirks"
        self._foster = False
        self._ignore_lf = False
        self._table_text: list[str] = []
        self._context = fragment_context
        self._done = False
        #: Called with the canonical encoding name a ``<meta>`` declares (see above).
        self.meta_encoding_hook = meta_encoding_hook
        self._create_element = sink.create_element
        # The per-element sink calls (SinkCalls): through a base-class reference, a
        # compiled build calls the sink natively rather than through a bound method.
        self._calls: SinkCalls = sink if isinstance(sink, SinkCalls) else _Forwarded(sink)
        # A two-way dependency: the sink is made first (every tree mutation goes to it), yet
        # a sink may read this builder's state; the builder introduces itself to it.
        attach = getattr(sink, "attach_tree_builder", None)
        if attach is not None:
            attach(self)  # lets a sink read the frameset-ok flag (see BoundedSink)
        if fragment_context is not None:
            self._init_fragment(fragment_context)

    @property
    def fragment_case(self) -> bool:
        """Is this the HTML fragment parsing algorithm (a context element is set)?"""
        return self._context is not None

    def in_template(self) -> bool:
        """Is an HTML ``template`` element open? Every element made now then goes into
        template contents, which are not part of the document (a ``<base>`` or a
        ``<meta>`` pragma there does nothing)."""
        return bool(self._counts.get("template"))

    # ------------------------------------------------------------------ setup

    def attach_tokenizer(self, tokenizer: Tokenizer) -> None:
        """Called once by the :class:`~stream_mf2.html.tokenizer.Tokenizer` made with this
        builder as its sink, at the end of its construction (see
        :class:`~stream_mf2.html.tokenizer.TokenSink`): steer it from now on, hand it to
        the tree sink if that has an ``attach_tokenizer`` too (to read source positions),
        and in the fragment case set its initial state."""
        self.tokenizer = tokenizer
        attach: Callable[[Tokenizer], None] | None = getattr(self.sink, "attach_tokenizer", None)
        if attach is not None:
            attach(tokenizer)
        ctx = self._context
        if ctx is None or ctx.namespace != HTML_NS:
            return
        name = ctx.name
        state = None
        if name in ("title", "textarea"):
            state = "RCDATA state"
        elif name in _RAWTEXT_CONTEXT:
            state = "RAWTEXT state"
        elif name == "script":
            state = "Script data state"
        elif name == "plaintext":
            state = "PLAINTEXT state"
        if state is not None:
            # No start tag has been emitted, so no end tag is "appropriate":
            # last_start_tag stays unset (``<script>`` context keeps "</script>" as text).
            tokenizer.switch_to(state)

    def _init_fragment(self, ctx: Element) -> None:
        root = self.sink.create_element("html", HTML_NS, {})
        self.sink.append(self.sink.document, root)
        self._push(root)
        if ctx.namespace == HTML_NS and ctx.name == "template":
            self.template_modes.append(IN_TEMPLATE)
        self._reset_insertion_mode()
        if ctx.namespace == HTML_NS and ctx.name == "form":
            self.form = ctx

    # ------------------------------------------------------- TokenSink API

    def start_tag(self, name: str, attrs: dict[str, str], self_closing: bool) -> None:
        """A start tag token."""
        self._ignore_lf = False
        mode = self.mode
        if mode == IN_BODY or (mode == IN_CELL and name not in _CELL_OR_ROW_START):
            stack = self.open
            # (the current node, read once: see characters())
            target = stack[-1] if stack else None
            if target is not None and target.namespace == HTML_NS and (self._context is None or len(stack) > 1):
                # Most start tags of a page: "in body" rules (also those "in cell" that
                # defer to them) with an HTML current node, so neither the
                # foreign-content test nor the mode dispatch can apply.
                handler = _BODY_START.get(name)
                if handler is not None and (name not in CLOSE_P_BLOCKS or self._counts.get("p")):
                    handler(self, name, attrs, self_closing)
                else:
                    # "Any other start tag" (_start_in_body and _insert_html), inlined; also a
                    # block (div, ul, section, p, ...) while no p is open, which
                    # _b_close_p_block would only insert (it reconstructs nothing).
                    if handler is None:
                        afe = self.afe
                        if afe:
                            last = afe[-1]
                            if last is not None and last not in self._open_set:
                                self._reconstruct()
                                target = stack[-1]
                    if self._foster or (target.name == "template" and target.namespace == HTML_NS):
                        self._insert_html(name, attrs)
                    else:
                        el = self._calls.create_element_in(target, name, HTML_NS, attrs)
                        stack.append(el)
                        self._open_set.add(el)
                        c = self._counts
                        c[name] = c.get(name, 0) + 1
                        if len(stack) > self.max_depth:
                            self._depth_exceeded()
                if self._pending_pops:
                    self._flush_pops()
                return
        stack = self.open
        if stack and self._context is None:
            cur = stack[-1]
            if (
                cur.namespace == SVG_NS
                and cur.name not in SVG_HTML_INTEGRATION
                and name not in BREAKOUT
                and name != "font"
            ):
                # Inside SVG, not at an HTML integration point: "any other start tag"
                # of the foreign content rules (_foreign_start, _insert_foreign), inlined.
                # The current node is foreign, so the insertion place is the current node.
                el = self._calls.create_element_in(
                    cur, SVG_TAG_ADJUST.get(name, name), SVG_NS, _adjust_foreign_attrs(attrs, SVG_NS)
                )
                stack.append(el)
                self._open_set.add(el)
                if el.name in SVG_HTML_INTEGRATION:
                    self._foreign_pushes += 1  # (SVG's scope boundaries, see _in_scope)
                if len(stack) > self.max_depth:
                    self._depth_exceeded()
                if self_closing:
                    # Nothing else happens in this token: the pop is reported at once.
                    stack.pop()
                    self._open_set.discard(el)
                    self._calls.pop(el)
                else:
                    fc = self._fcounts
                    key = el.name.lower()
                    fc[key] = fc.get(key, 0) + 1
                return
        self._start(name, attrs, self_closing)
        if self._pending_pops:
            self._flush_pops()

    def start_text_end(self, name: str, attrs: dict[str, str], self_closing: bool, text: str, end: str) -> bool:
        """``start_tag``, ``characters(text)`` (if ``text``), ``end_tag(end)`` in one call, when that is simple.

        Half the start tags of a page open a leaf element that holds only text:
        ``<a href="/">home</a>``, ``<td>1</td>``. The tokenizer's fast path matches
        such a run whole and offers it here. When the three tokens would only
        insert an element under the current node, give it the text and pop it again
        (the "in body" rules with an HTML current node, nothing to reconstruct, no
        foster parenting, no ``p`` to close, the end tag closing exactly that
        element), they become one sink call, ``append_leaf``, and the stack of open
        elements, the list of active formatting elements and the insertion mode end
        as they were. Otherwise nothing is done and ``False`` tells the tokenizer to
        make the three calls (which are exact in every case).
        """
        if end != name:
            return False
        stack = self.open
        if not stack or self._foster or self._context is not None or len(stack) >= self.max_depth:
            return False
        parent = stack[-1]
        if parent.namespace != HTML_NS or parent.name == "template":
            return False
        afe = self.afe
        if afe:
            last = afe[-1]
            if last is not None and last not in self._open_set:
                return False  # formatting elements to reconstruct first
        mode = self.mode
        kind = _LEAF_PLAIN
        if mode in (IN_BODY, IN_CELL):
            # "Any other start tag" (not in the table) is a plain leaf.
            kind = _LEAF_KIND.get(name, _LEAF_PLAIN)
            if kind == _LEAF_NONE:
                return False
            if kind == _LEAF_FORMATTING:
                # Neither the "a" rules nor the Noah's Ark clause may find a
                # same-named entry after the last marker.
                for e in reversed(afe):
                    if e is None:
                        break
                    if e.name == name:
                        return False
            elif kind != _LEAF_PLAIN:
                c = self._counts
                if c.get("p"):
                    return False  # a "p" to close first
                if kind == _LEAF_HEADING:
                    if parent.name in HEADINGS:
                        return False
                elif kind == _LEAF_LIST:
                    if c.get("li") or c.get("dd") or c.get("dt"):
                        return False
                    self.frameset_ok = False
        elif mode != IN_ROW or (name != "td" and name != "th") or parent.name != "tr":
            return False
        # (A td/th in "in row" with a tr current node: its marker and the "in cell"
        # mode come and go within these tokens.)
        self._ignore_lf = False
        if text and self.frameset_ok and text.strip(WS):
            self.frameset_ok = False
        self._calls.append_leaf(parent, name, HTML_NS, attrs, text)
        return True

    def end_tag(self, name: str) -> None:
        """An end tag token."""
        self._ignore_lf = False
        mode = self.mode
        if mode == IN_BODY or (mode == IN_CELL and name not in _CELL_OWN_END):
            stack = self.open
            if stack:
                cur = stack[-1]
                if cur.namespace == HTML_NS and (self._context is None or len(stack) > 1):
                    # As in start_tag: "in body" rules without the foreign-content test.
                    if cur.name == name:
                        # Well nested: for these names the in-body rules only pop the
                        # current node; formatting elements also leave the list of active
                        # formatting elements (the adoption agency's first steps). The
                        # pop is reported to the sink at once: this token does nothing else.
                        just_pop = name not in _END_NOT_JUST_POP
                        if not just_pop and name in FORMATTING:
                            afe = self.afe
                            if afe and afe[-1] is cur:
                                afe.pop()
                                just_pop = True
                        if just_pop:
                            stack.pop()
                            self._open_set.discard(cur)
                            self._counts[name] -= 1
                            self._calls.pop(cur)
                            return
                    handler = _BODY_END.get(name)
                    if handler is not None:
                        handler(self, name)
                    else:
                        self._end_other_in_body(name)
                    if self._pending_pops:
                        self._flush_pops()
                    return
        stack = self.open
        if self._context is None and len(stack) > 1:
            cur = stack[-1]
            if cur.namespace != HTML_NS and name != "br" and name != "p" and cur.name.lower() == name:
                # Foreign content, the current node's own end tag (_foreign_end): pop it,
                # reported at once as nothing else happens in this token.
                stack.pop()
                self._open_set.discard(cur)
                self._fcounts[name] -= 1
                self._calls.pop(cur)
                return
        self._end(name)
        if self._pending_pops:
            self._flush_pops()

    def characters(self, data: str) -> None:
        """A run of character tokens."""
        if not data:
            return
        if self._ignore_lf:
            self._ignore_lf = False
            if data[0] == "\n":
                data = data[1:]
                if not data:
                    return
        stack = self.open
        mode = self.mode
        if mode == TEXT and not self._foster and stack and self._context is None:
            # Raw text / RCDATA content (_chars_text): into the current node.
            self._calls.append_text(stack[-1], data)
            return
        # (The current node is read once, and again only after reconstructing: stack[-1]
        # is a generic subscript in CPython 3.11, a negative index is not specialised.)
        target = stack[-1] if stack else None
        if (
            mode in _BODY_TEXT_MODES
            and target is not None
            and target.namespace == HTML_NS
            and self._context is None
            and "\0" not in data
        ):
            # Text under the "in body" rules with an HTML current node (_chars_in_body, inlined).
            afe = self.afe
            if afe:
                last = afe[-1]
                if last is not None and last not in self._open_set:
                    self._reconstruct()
                    target = stack[-1]
            if self.frameset_ok and data.strip(WS):
                self.frameset_ok = False
            if self._foster or (target.name == "template" and target.namespace == HTML_NS):
                self._insert_text(data)
            else:
                self._calls.append_text(target, data)
            return
        while data:
            if (
                stack
                and (stack[-1].namespace != HTML_NS or self._context is not None)
                and self._use_foreign_for_chars()
            ):
                self._foreign_chars(data)
                break
            data = self._CHARS[self.mode](self, data)
        if self._pending_pops:
            self._flush_pops()

    def comment(self, data: str) -> None:
        """A comment token."""
        self._ignore_lf = False
        mode = self.mode
        if mode == IN_TABLE_TEXT:
            self._flush_table_text()
            mode = self.mode
        if mode in (INITIAL, BEFORE_HTML, AFTER_AFTER_BODY, AFTER_AFTER_FRAMESET):
            self.sink.append(self.sink.document, self.sink.create_comment(data))
        elif mode == AFTER_BODY:
            self.sink.append(self.open[0], self.sink.create_comment(data))
        else:
            self._insert_comment(data)
        if self._pending_pops:
            self._flush_pops()

    def doctype(self, name: str | None, public_id: str | None, system_id: str | None, force_quirks: bool) -> None:
        """A DOCTYPE token: only meaningful in the "initial" insertion mode."""
        self._ignore_lf = False
        if self.mode == IN_TABLE_TEXT:
            self._flush_table_text()
        if self.mode != INITIAL:
            return  # parse error; ignored in every other mode (and in foreign content)
        self.sink.append_doctype(name or "", public_id or "", system_id or "")
        self.quirks = quirks_mode_for(name, public_id, system_id, force_quirks)
        self.sink.set_quirks_mode(self.quirks)
        self.mode = BEFORE_HTML

    def eof(self) -> None:
        """End of input: finish every open element."""
        self._ignore_lf = False
        if self._done:
            return
        while True:
            mode = self.mode
            if mode == IN_TABLE_TEXT:
                self._flush_table_text()
                continue
            if mode == INITIAL:
                self._set_quirks("quirks")
                self.mode = BEFORE_HTML
                continue
            if mode == BEFORE_HTML:
                self._insert_html_root({})
                self.mode = BEFORE_HEAD
                continue
            if mode == BEFORE_HEAD:
                self.head = self._insert_html("head", {})
                self.mode = IN_HEAD
                continue
            if mode == IN_HEAD:
                self._pop()
                self.mode = AFTER_HEAD
                continue
            if mode == IN_HEAD_NOSCRIPT:
                self._pop()
                self.mode = IN_HEAD
                continue
            if mode == AFTER_HEAD:
                self._insert_html("body", {})
                self.mode = IN_BODY
                continue
            if mode == TEXT:
                self._pop()
                self.mode = self.original_mode
                continue
            if mode in (IN_BODY, IN_TABLE, IN_CAPTION, IN_COLUMN_GROUP, IN_TABLE_BODY, IN_ROW, IN_CELL, IN_TEMPLATE):
                if self.template_modes and self._counts.get("template"):
                    # "in template" EOF: close the template and reprocess.
                    self._pop_until_name("template")
                    self._clear_afe_to_marker()
                    self.template_modes.pop()
                    self._reset_insertion_mode()
                    continue
            break
        # 13.2.7 Stop parsing — https://html.spec.whatwg.org/multipage/parsing.html#stop-parsing
        # Stop parsing: pop every node off the stack of open elements.
        while self.open:
            self._pop()
        self._done = True
        self._flush_pops()

    def release(self) -> None:
        """Drop the links this builder holds once no token will come any more.

        The tokenizer holds the builder, the builder the tokenizer, the sink (which
        may hold the builder) and the owner of :attr:`meta_encoding_hook`: cycles
        that only the cyclic garbage collector would free, about 70 objects per
        document. After this the builder takes no more tokens; :attr:`notes` and
        the counters stay readable.
        """
        # Only the links: the elements the builder's lists may still hold are unlinked by
        # the sink (BoundedSink.release), so they form no cycle.
        self.tokenizer = None
        self.meta_encoding_hook = None
        self.head = None
        self.form = None
        self._done = True

    def cdata_allowed(self) -> bool:
        """Is the adjusted current node an element not in the HTML namespace?"""
        if not self.open:
            return False
        return self._adjusted_current().namespace != HTML_NS

    # --------------------------------------------------------- stack helpers

    def _push(self, el: Element) -> None:
        self.open.append(el)
        self._open_set.add(el)
        if el.namespace == HTML_NS:
            c = self._counts
            c[el.name] = c.get(el.name, 0) + 1
        else:
            fc = self._fcounts
            key = el.name.lower()
            fc[key] = fc.get(key, 0) + 1
            if (el.namespace, el.name) in SCOPE_FOREIGN:
                self._foreign_pushes += 1
        if len(self.open) > self.max_depth:
            self._depth_exceeded()

    def _depth_exceeded(self) -> None:
        if len(self.open) > self.max_depth:
            raise LimitExceeded(
                f"stack of open elements deeper than max_depth={self.max_depth}",
                limit="max_depth",
                value=self.max_depth,
            )

    def _forget(self, el: Element) -> None:
        self._open_set.discard(el)
        if el.namespace == HTML_NS:
            self._counts[el.name] -= 1
        else:
            self._fcounts[el.name.lower()] -= 1
        self._pending_pops.append(el)

    def _pop(self) -> Element:
        el = self.open.pop()
        # _forget, inlined
        self._open_set.discard(el)
        if el.namespace == HTML_NS:
            self._counts[el.name] -= 1
        else:
            self._fcounts[el.name.lower()] -= 1
        self._pending_pops.append(el)
        return el

    def _stack_index(self, el: Element) -> int:
        stack = self.open
        for i in range(len(stack) - 1, -1, -1):
            if stack[i] is el:
                return i
        return -1

    def _remove_from_stack(self, el: Element) -> None:
        if el not in self._open_set:
            return  # (a search of the whole stack would find nothing)
        i = self._stack_index(el)
        if i >= 0:
            del self.open[i]
            self._forget(el)

    def _flush_pops(self) -> None:
        pops = self._pending_pops
        self._pending_pops = []
        calls = self._calls
        for el in pops:
            calls.pop(el)

    def _pop_until_name(self, name: str) -> None:
        """Pop elements until an HTML element named ``name`` has been popped."""
        if not self._counts.get(name):
            return
        while True:
            el = self._pop()
            if el.name == name and el.namespace == HTML_NS:
                return

    def _pop_until_names(self, names: frozenset[str]) -> None:
        while self.open:
            el = self._pop()
            if el.namespace == HTML_NS and el.name in names:
                return

    def _pop_until_node(self, node: Element) -> None:
        if node not in self._open_set:
            return
        while True:
            if self._pop() is node:
                return

    def _current_is(self, name: str) -> bool:
        cur = self.open[-1]
        return cur.name == name and cur.namespace == HTML_NS

    # 13.2.4.2 Adjusted current node — https://html.spec.whatwg.org/multipage/parsing.html#adjusted-current-node
    def _adjusted_current(self) -> Element:
        if self._context is not None and len(self.open) == 1:
            return self._context
        return self.open[-1]

    # ------------------------------------------------------------ scopes

    # 13.2.4.2 Has an element in the specific scope
    # https://html.spec.whatwg.org/multipage/parsing.html#has-an-element-in-the-specific-scope
    # 13.2.4.2 Has an element in scope — https://html.spec.whatwg.org/multipage/parsing.html#has-an-element-in-scope
    # 13.2.4.2 Has an element in button scope
    # https://html.spec.whatwg.org/multipage/parsing.html#has-an-element-in-button-scope
    # 13.2.4.2 Has an element in list item scope
    # https://html.spec.whatwg.org/multipage/parsing.html#has-an-element-in-list-item-scope
    # ``boundary`` picks the variant (SCOPE_HTML, BUTTON_SCOPE_HTML, LIST_ITEM_SCOPE_HTML, and
    # TABLE_SCOPE_HTML without the foreign boundaries: _in_table_scope); _any_in_scope asks the
    # same of several names at once, _node_in_scope of one node.
    def _in_scope(self, name: str, boundary: frozenset[str] = SCOPE_HTML, foreign: bool = True) -> bool:
        if not self._counts.get(name):
            return False
        if self._scope_memo:
            known = self._recall_scope(name, boundary, foreign)
            if known is not None:
                return known
        stack = self.open
        for i in range(len(stack) - 1, -1, -1):
            el = stack[i]
            if el.namespace == HTML_NS:
                if el.name == name:
                    return self._walked(name, boundary, foreign, i, True)
                if el.name in boundary:
                    return self._walked(name, boundary, foreign, i, False)
            elif foreign and (el.namespace, el.name) in SCOPE_FOREIGN:
                return self._walked(name, boundary, foreign, i, False)
        return False

    #: A scope walk longer than this is remembered.
    _MEMO_DEPTH: ClassVar[int] = 16

    def _scope_counts(self, names: Any, boundary: frozenset[str], foreign: bool) -> tuple[int, ...]:
        c = self._counts
        counts = [c.get(n, 0) for n in boundary]
        if type(names) is str:
            counts.append(c.get(names, 0))
        else:
            counts.extend(c.get(n, 0) for n in names)
        counts.append(self._foreign_pushes if foreign else 0)
        return tuple(counts)

    def _walked(self, names: Any, boundary: frozenset[str], foreign: bool, i: int, answer: bool) -> bool:
        """Remember the answer of a long scope walk that stopped at ``self.open[i]``.

        It stays right while that element is still at ``i`` and no element that
        could stop the walk sooner was pushed above it: with only pushes and pops
        above ``i`` (a removal below ``i`` moves the element), such an element
        would still be open, so the open counts of the names the walk looks for
        (and of the boundary names, and the foreign boundary pushes) would differ.
        So a long run of ordinary elements between a ``p`` and a ``button`` is
        walked once, not once per ``<hr>`` (without changing any answer).
        """
        if len(self.open) - i > self._MEMO_DEPTH:
            self._scope_memo[(names, boundary, foreign)] = (
                i,
                self.open[i],
                self._scope_counts(names, boundary, foreign),
                answer,
            )
        return answer

    def _recall_scope(self, names: Any, boundary: frozenset[str], foreign: bool) -> bool | None:
        key = (names, boundary, foreign)
        memo = self._scope_memo.get(key)
        if memo is None:
            return None
        i, stopper, counts, answer = memo
        stack = self.open
        if i < len(stack) and stack[i] is stopper:
            if counts == self._scope_counts(names, boundary, foreign):
                return answer
            # Something that stops the walk sooner is open above the stopper: walk. The
            # memo stays, as it is right again once that element pops (dropping it made
            # a long walk at every return: `<td>`, n `<div>`s, n nested tables).
            return None
        del self._scope_memo[key]
        return None

    # 13.2.4.2 Has an element in table scope
    # https://html.spec.whatwg.org/multipage/parsing.html#has-an-element-in-table-scope
    def _in_table_scope(self, name: str) -> bool:
        return self._in_scope(name, TABLE_SCOPE_HTML, False)

    def _any_in_scope(self, names: frozenset[str], boundary: frozenset[str], foreign: bool) -> bool:
        c = self._counts
        if not any(c.get(n) for n in names):
            return False
        if self._scope_memo:
            known = self._recall_scope(names, boundary, foreign)
            if known is not None:
                return known
        stack = self.open
        for i in range(len(stack) - 1, -1, -1):
            el = stack[i]
            if el.namespace == HTML_NS:
                if el.name in names:
                    return self._walked(names, boundary, foreign, i, True)
                if el.name in boundary:
                    return self._walked(names, boundary, foreign, i, False)
            elif foreign and (el.namespace, el.name) in SCOPE_FOREIGN:
                return self._walked(names, boundary, foreign, i, False)
        return False

    def _node_in_scope(self, node: Element) -> bool:
        for el in reversed(self.open):
            if el is node:
                return True
            if el.namespace == HTML_NS:
                if el.name in SCOPE_HTML:
                    return False
            elif (el.namespace, el.name) in SCOPE_FOREIGN:
                return False
        return False

    def _adoption_scope(self, fe: Element) -> int:
        """The stack index of the open formatting element ``fe`` if it is in scope, else -1.

        One walk answers both questions (step 4.6 of the adoption agency algorithm
        and the index of step 4.9). When ``fe`` is the element the algorithm
        re-created last and still sits where it was inserted, far below the
        current node, the walk is replaced by a comparison with the topmost scope
        boundary (remembered, see _scope_floor): the algorithm moves a
        misnested formatting element one block deeper per end tag, so a run of
        end tags would otherwise walk the whole stack each time.
        """
        stack = self.open
        adopted = self._adopted
        if adopted is not None and adopted[0] is fe:
            h = adopted[1]
            if h < len(stack) and stack[h] is fe and len(stack) - h > self._MEMO_DEPTH:
                return h if h >= self._scope_floor() else -1
        for i in range(len(stack) - 1, -1, -1):
            el = stack[i]
            if el is fe:
                return i
            if el.namespace == HTML_NS:
                if el.name in SCOPE_HTML:
                    return -1
            elif (el.namespace, el.name) in SCOPE_FOREIGN:
                return -1
        return -1

    def _floor_counts(self) -> tuple[int, ...]:
        c = self._counts
        counts = [c.get(n, 0) for n in SCOPE_HTML]
        counts.append(self._foreign_pushes)
        return tuple(counts)

    def _scope_floor(self) -> int:
        """The stack index of the topmost element that bounds the (general) scope, or -1.

        A long walk is remembered as the scope walks are (see _walked): while the
        element found is still at its index and the open counts of the boundary
        names and the foreign boundary pushes are unchanged, no boundary element
        was pushed above it.
        """
        stack = self.open
        memo = self._floor_memo
        if memo is not None:
            at, stopper, counts = memo
            if at < len(stack) and stack[at] is stopper and counts == self._floor_counts():
                return at
            self._floor_memo = None
        for i in range(len(stack) - 1, -1, -1):
            el = stack[i]
            if el.namespace == HTML_NS:
                if el.name not in SCOPE_HTML:
                    continue
            elif (el.namespace, el.name) not in SCOPE_FOREIGN:
                continue
            if len(stack) - i > self._MEMO_DEPTH:
                self._floor_memo = (i, el, self._floor_counts())
            return i
        return -1

    def _stack_index_near(self, el: Element, guess: int) -> int:
        """The stack index of ``el``, tried first at ``guess`` (where it should be)."""
        stack = self.open
        if 0 <= guess < len(stack) and stack[guess] is el:
            return guess
        return self._stack_index(el)

    # 13.2.6.3 Generate implied end tags — https://html.spec.whatwg.org/multipage/parsing.html#generate-implied-end-tags
    def _generate_implied_end_tags(self, exclude: str | None = None) -> None:
        stack = self.open
        while stack:
            cur = stack[-1]
            if cur.namespace != HTML_NS or cur.name not in IMPLIED_END or cur.name == exclude:
                return
            self._pop()

    # 13.2.6.3 Generate all implied end tags thoroughly
    # https://html.spec.whatwg.org/multipage/parsing.html#generate-all-implied-end-tags-thoroughly
    def _generate_all_implied_end_tags(self) -> None:
        stack = self.open
        while stack:
            cur = stack[-1]
            if cur.namespace != HTML_NS or cur.name not in IMPLIED_END_THOROUGH:
                return
            self._pop()

    # 13.2.6.4.7 Close a p element — https://html.spec.whatwg.org/multipage/parsing.html#close-a-p-element
    def _close_p(self) -> None:
        self._generate_implied_end_tags("p")
        self._pop_until_name("p")

    def _close_p_in_button_scope(self) -> None:
        if self._counts.get("p") and self._in_scope("p", BUTTON_SCOPE_HTML):
            self._close_p()

    # ------------------------------------------------------------ insertion

    # 13.2.6.1 Appropriate place for inserting a node
    # https://html.spec.whatwg.org/multipage/parsing.html#appropriate-place-for-inserting-a-node
    # 13.2.6.1 Foster parenting — https://html.spec.whatwg.org/multipage/parsing.html#foster-parent
    def _appropriate_place(self, override: Element | None = None) -> tuple[ParentNode, Node | None]:
        target = override if override is not None else self.open[-1]
        if self._foster and target.namespace == HTML_NS and target.name in FOSTER_TARGETS:
            stack = self.open
            last_template = last_table = -1
            for i in range(len(stack) - 1, -1, -1):
                el = stack[i]
                if el.namespace == HTML_NS:
                    if el.name == "template" and last_template < 0:
                        last_template = i
                        break  # a template above any table wins
                    if el.name == "table" and last_table < 0:
                        last_table = i
                        break
            if last_template >= 0:
                return self.sink.template_contents(stack[last_template]), None
            if last_table < 0:
                return stack[0], None
            table = stack[last_table]
            if table.parent is not None:
                return table.parent, table
            target = stack[last_table - 1]
        if target.namespace == HTML_NS and target.name == "template":
            return self.sink.template_contents(target), None
        return target, None

    def _insert_node(self, node: Node, place: tuple[ParentNode, Node | None]) -> None:
        parent, ref = place
        if ref is None:
            self.sink.append(parent, node)
        else:
            self.sink.insert_before(parent, node, ref)

    # 13.2.6.1 Insert an HTML element — https://html.spec.whatwg.org/multipage/parsing.html#insert-an-html-element
    # 13.2.6.1 Create an element for the token
    # https://html.spec.whatwg.org/multipage/parsing.html#create-an-element-for-the-token
    # The element itself is made by the sink (create_element_in, or create_element and
    # _insert_node where the appropriate place is not simply the current node).
    def _insert_html(self, name: str, attrs: Attrs) -> Element:
        stack = self.open
        target = stack[-1]
        if self._foster or (target.name == "template" and target.namespace == HTML_NS):
            el = self._create_element(name, HTML_NS, attrs)
            self._insert_node(el, self._appropriate_place())
        else:
            el = self._calls.create_element_in(target, name, HTML_NS, attrs)
        # _push, inlined: this is the hottest path of tree construction.
        stack.append(el)
        self._open_set.add(el)
        c = self._counts
        c[name] = c.get(name, 0) + 1
        if len(stack) > self.max_depth:
            self._depth_exceeded()
        return el

    # 13.2.6.1 Insert a foreign element — https://html.spec.whatwg.org/multipage/parsing.html#insert-a-foreign-element
    def _insert_foreign(self, name: str, namespace: str, attrs: Attrs) -> Element:
        el = self.sink.create_element(name, namespace, attrs)
        self._insert_node(el, self._appropriate_place())
        self._push(el)
        return el

    def _insert_html_root(self, attrs: Attrs) -> None:
        root = self.sink.create_element("html", HTML_NS, attrs)
        self.sink.append(self.sink.document, root)
        self._push(root)

    # 13.2.6.1 Insert a character — https://html.spec.whatwg.org/multipage/parsing.html#insert-a-character
    # (a run of character tokens at once)
    def _insert_text(self, data: str) -> None:
        if not self._foster:
            target = self.open[-1]
            if target.namespace == HTML_NS and target.name == "template":
                self.sink.append_text(self.sink.template_contents(target), data)
            else:
                self.sink.append_text(target, data)
            return
        parent, ref = self._appropriate_place()
        if type(parent) is Document:
            return
        if ref is None:
            self.sink.append_text(parent, data)
        else:
            self.sink.insert_text_before(parent, data, ref)

    # 13.2.6.1 Insert a comment — https://html.spec.whatwg.org/multipage/parsing.html#insert-a-comment
    def _insert_comment(self, data: str) -> None:
        self._insert_node(self.sink.create_comment(data), self._appropriate_place())

    def _set_quirks(self, mode: str) -> None:
        self.quirks = mode
        self.sink.set_quirks_mode(mode)

    # 13.2.6.2 Generic raw text element parsing algorithm
    # https://html.spec.whatwg.org/multipage/parsing.html#generic-raw-text-element-parsing-algorithm
    # 13.2.6.2 Generic RCDATA element parsing algorithm
    # https://html.spec.whatwg.org/multipage/parsing.html#generic-rcdata-element-parsing-algorithm
    def _raw_text(self, name: str, attrs: Attrs, state: str) -> None:
        """Generic raw text / RCDATA element parsing algorithms."""
        self._insert_html(name, attrs)
        tok = self.tokenizer
        if tok is not None:
            tok.last_start_tag = name
            tok.switch_to(state)
        self.original_mode = self.mode
        self.mode = TEXT

    # -------------------------------------------- active formatting elements

    # 13.2.4.3 Push onto the list of active formatting elements
    # https://html.spec.whatwg.org/multipage/parsing.html#push-onto-the-list-of-active-formatting-elements
    def _push_afe(self, el: Element) -> None:
        afe = self.afe
        count = 0
        earliest = -1
        first = len(afe)  # the first entry after the last marker
        for i in range(len(afe) - 1, -1, -1):
            e = afe[i]
            if e is None:
                break
            first = i
            if e.name == el.name and e.namespace == el.namespace and e.attrs == el.attrs:
                count += 1
                earliest = i
        if count >= 3:
            del afe[earliest]  # the Noah's Ark clause
        elif len(afe) - first >= self.max_formatting_elements:
            # Beyond the spec: every new block reconstructs each active formatting
            # element that is not open (quadratic time for n distinct ones, and this
            # scan is linear in them). The earliest entry is forgotten, as the Noah's
            # Ark clause does for a fourth equal one, so both stay bounded.
            del afe[first]
            self._capped += 1
            if self._capped == 1:
                self.notes.append(
                    f"more than max_formatting_elements={self.max_formatting_elements} active formatting"
                    " elements: the earliest are no longer reopened after a block"
                )
        afe.append(el)

    def _afe_index(self, el: Element) -> int:
        afe = self.afe
        for i in range(len(afe) - 1, -1, -1):
            if afe[i] is el:
                return i
        return -1

    # 13.2.4.3 Reconstruct the active formatting elements
    # https://html.spec.whatwg.org/multipage/parsing.html#reconstruct-the-active-formatting-elements
    def _reconstruct(self) -> None:
        afe = self.afe
        if not afe:
            return
        last = afe[-1]
        if last is None or last in self._open_set:
            return
        i = len(afe) - 1
        while i > 0:
            e = afe[i - 1]
            if e is None or e in self._open_set:
                break
            i -= 1
        for j in range(i, len(afe)):
            old = afe[j]
            assert old is not None
            afe[j] = self._insert_html(old.name, dict(old.attrs))

    def _clear_afe_to_marker(self) -> None:
        afe = self.afe
        while afe:
            if afe.pop() is None:
                return

    def _insert_formatting(self, name: str, attrs: Attrs) -> None:
        afe = self.afe
        if afe:  # (_reconstruct's first test: usually there is nothing to reconstruct)
            last = afe[-1]
            if last is not None and last not in self._open_set:
                self._reconstruct()
        el = self._insert_html(name, attrs)
        if afe:
            self._push_afe(el)
        else:
            afe.append(el)  # (what _push_afe does to an empty list)

    # 13.2.6.4.7 Adoption agency algorithm
    # https://html.spec.whatwg.org/multipage/parsing.html#adoption-agency-algorithm
    def _adoption_agency(self, subject: str) -> bool:
        """13.2.6.4.7 adoption agency algorithm. False: act as "any other end tag"."""
        stack = self.open
        afe = self.afe
        cur = stack[-1]
        if cur.name == subject and cur.namespace == HTML_NS:
            if afe and afe[-1] is cur:
                # The formatting element is the current node (well-nested markup): it is
                # in scope and has no furthest block, so the algorithm pops it and
                # removes it from the list (steps 4.3-4.7 of the outer loop).
                afe.pop()
                self._pop()
                return True
            if self._afe_index(cur) < 0:
                self._pop()
                return True
        for _outer in range(8):
            fe_i = -1
            for i in range(len(afe) - 1, -1, -1):
                e = afe[i]
                if e is None:
                    break
                if e.name == subject and e.namespace == HTML_NS:
                    fe_i = i
                    break
            if fe_i < 0:
                return False
            fe = afe[fe_i]
            assert fe is not None
            if fe not in self._open_set:
                del afe[fe_i]
                return True
            fe_s = self._adoption_scope(fe)
            if fe_s < 0:
                return True
            fb_s = -1
            for i in range(fe_s + 1, len(stack)):
                if _is_special(stack[i]):
                    fb_s = i
                    break
            if fb_s < 0:
                while self._pop() is not fe:
                    pass
                del afe[fe_i]
                return True
            fb = stack[fb_s]
            common = stack[fe_s - 1]
            bookmark = fe_i
            node_s = fb_s
            last_node = fb
            inner = 0
            removed = 0
            while True:
                inner += 1
                node_s -= 1
                node = stack[node_s]
                if node is fe:
                    break
                node_afe = self._afe_index(node)
                if inner > 3 and node_afe >= 0:
                    del afe[node_afe]
                    if node_afe < bookmark:
                        bookmark -= 1
                    node_afe = -1
                if node_afe < 0:
                    del stack[node_s]
                    removed += 1
                    self._forget(node)
                    continue
                clone = self.sink.create_element(node.name, node.namespace, dict(node.attrs))
                afe[node_afe] = clone
                stack[node_s] = clone
                self._open_set.add(clone)
                self._open_set.discard(node)
                self._pending_pops.append(node)
                if last_node is fb:
                    bookmark = node_afe + 1
                self.sink.append(clone, last_node)
                last_node = clone
            self._insert_node(last_node, self._appropriate_place(common))
            new = self.sink.create_element(fe.name, fe.namespace, dict(fe.attrs))
            self.sink.reparent_children(fb, new)
            self.sink.append(fb, new)
            fe_afe = self._afe_index(fe)
            del afe[fe_afe]
            if fe_afe < bookmark:
                bookmark -= 1
            afe.insert(bookmark, new)
            # fe and fb stay where the inner loop left them (it removed only nodes
            # between them), so their indices are known; checked, not assumed.
            fe_s = self._stack_index_near(fe, fe_s)
            if fe_s >= 0:
                del stack[fe_s]
                self._forget(fe)
            fb_s = self._stack_index_near(fb, fb_s - removed - 1)
            stack.insert(fb_s + 1, new)
            self._adopted = (new, fb_s + 1)
            self._open_set.add(new)
            self._counts[new.name] = self._counts.get(new.name, 0) + 1
        return True

    # ----------------------------------------------------------- mode reset

    # 13.2.4.1 Reset the insertion mode appropriately
    # https://html.spec.whatwg.org/multipage/parsing.html#reset-the-insertion-mode-appropriately
    def _reset_insertion_mode(self) -> None:
        stack = self.open
        start = len(stack) - 1
        memo = self._reset_memo
        if memo is not None:
            # The walk stops at the topmost HTML element named in _RESET_NAMES. As for
            # the scope walks (_walked), that element is still the one while it sits at
            # the same index and the open counts of those names are unchanged.
            at, stopper, counts = memo
            if at < len(stack) and stack[at] is stopper:
                # (with other counts an element above it stops the walk sooner; the memo
                # stays for when that one pops, as in _recall_scope)
                if counts == self._reset_counts():
                    start = at
            else:
                self._reset_memo = None
        for i in range(start, -1, -1):
            node = stack[i]
            if len(stack) - i > self._MEMO_DEPTH and node.namespace == HTML_NS and node.name in _RESET_NAMES:
                self._reset_memo = (i, node, self._reset_counts())
            last = i == 0
            if last and self._context is not None:
                node = self._context
            if node.namespace == HTML_NS:
                name = node.name
                if name in ("td", "th") and not last:
                    self.mode = IN_CELL
                    return
                if name == "tr":
                    self.mode = IN_ROW
                    return
                if name in _TABLE_SECTION:
                    self.mode = IN_TABLE_BODY
                    return
                if name == "caption":
                    self.mode = IN_CAPTION
                    return
                if name == "colgroup":
                    self.mode = IN_COLUMN_GROUP
                    return
                if name == "table":
                    self.mode = IN_TABLE
                    return
                if name == "template":
                    self.mode = self.template_modes[-1]
                    return
                if name == "head" and not last:
                    self.mode = IN_HEAD
                    return
                if name == "body":
                    self.mode = IN_BODY
                    return
                if name == "frameset":
                    self.mode = IN_FRAMESET
                    return
                if name == "html":
                    self.mode = BEFORE_HEAD if self.head is None else AFTER_HEAD
                    return
            if last:
                self.mode = IN_BODY
                return

    def _reset_counts(self) -> tuple[int, ...]:
        c = self._counts
        return tuple(c.get(n, 0) for n in _RESET_NAMES)

    # ------------------------------------------------------ token dispatch

    # 13.2.6 Tree construction dispatcher
    # https://html.spec.whatwg.org/multipage/parsing.html#tree-construction-dispatcher
    # With _use_foreign_for_start, _start and _end below; the fast paths of start_tag, end_tag and
    # characters decide it first for the common cases.
    def _use_foreign_for_chars(self) -> bool:
        if not self.open:
            return False
        node = self._adjusted_current()
        ns = node.namespace
        if ns == HTML_NS:
            return False
        if ns == MATHML_NS and node.name in MATHML_TEXT_INTEGRATION:
            return False
        return not _is_html_integration_point(node)

    def _use_foreign_for_start(self, name: str) -> bool:
        if not self.open:
            return False
        node = self._adjusted_current()
        ns = node.namespace
        if ns == HTML_NS:
            return False
        if ns == MATHML_NS:
            if node.name in MATHML_TEXT_INTEGRATION and name not in ("mglyph", "malignmark"):
                return False
            if node.name == "annotation-xml" and name == "svg":
                return False
        return not _is_html_integration_point(node)

    def _start(self, name: str, attrs: Attrs, self_closing: bool) -> None:
        stack = self.open
        if (
            (stack and stack[-1].namespace != HTML_NS) or (self._context is not None and len(stack) == 1)
        ) and self._use_foreign_for_start(name):
            self._foreign_start(name, attrs, self_closing)
        else:
            self._START[self.mode](self, name, attrs, self_closing)

    def _end(self, name: str) -> None:
        stack = self.open
        if (
            stack
            and (stack[-1].namespace != HTML_NS or (self._context is not None and len(stack) == 1))
            and self._adjusted_current().namespace != HTML_NS
        ):
            self._foreign_end(name)
        else:
            self._END[self.mode](self, name)

    # ----------------------------------------------------- foreign content

    # 13.2.6.5 The rules for parsing tokens in foreign content
    # https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign
    # Characters here, start tags in _foreign_start and end tags in _foreign_end; "any other start
    # tag" inside SVG and the current node's own end tag are also inlined in start_tag and end_tag.
    def _foreign_chars(self, data: str) -> None:
        if self.frameset_ok and data.replace("\0", "").strip(WS):
            self.frameset_ok = False
        if "\0" in data:
            data = data.replace("\0", "\ufffd")
        self._insert_text(data)

    def _foreign_start(self, name: str, attrs: Attrs, self_closing: bool) -> None:
        if name in BREAKOUT or (name == "font" and ("color" in attrs or "face" in attrs or "size" in attrs)):
            self._foreign_breakout()
            self._START[self.mode](self, name, attrs, self_closing)
            return
        ns = self._adjusted_current().namespace
        if ns == SVG_NS:
            name = SVG_TAG_ADJUST.get(name, name)
        self._insert_foreign(name, ns, _adjust_foreign_attrs(attrs, ns))
        if self_closing:
            self._pop()

    def _foreign_breakout(self) -> None:
        stack = self.open
        while True:
            cur = stack[-1]
            if (
                cur.namespace == HTML_NS
                or (cur.namespace == MATHML_NS and cur.name in MATHML_TEXT_INTEGRATION)
                or _is_html_integration_point(cur)
            ):
                return
            self._pop()

    def _foreign_end(self, name: str) -> None:
        if name in ("br", "p"):
            self._foreign_breakout()
            self._END[self.mode](self, name)
            return
        stack = self.open
        i = len(stack) - 1
        if i > 0 and stack[0].namespace == HTML_NS:
            # The walk below goes down the foreign elements to the first HTML element
            # and, without a match on the way, ends in the insertion mode's rules. With
            # no open foreign element of this name there is no match: skip the walk.
            count = self._fcounts.get(name, 0)
            if not count:
                self._END[self.mode](self, name)
                return
            # A long walk without a match is remembered with the HTML element it
            # stopped at (as the scope walks, see _walked): while that element is at
            # the same index, a foreign element of this name above it would have been
            # pushed since, and would change the open count of the name.
            memo = self._fend_memo.get(name)
            if memo is not None:
                at, stopper, was = memo
                if at < i and stack[at] is stopper and was == count:
                    self._END[self.mode](self, name)
                    return
                del self._fend_memo[name]
        node = stack[i]
        top = i
        while i > 0:
            if node.name.lower() == name:
                self._pop_until_node(node)
                return
            i -= 1
            node = stack[i]
            if node.namespace == HTML_NS:
                if top - i > self._MEMO_DEPTH and stack[0].namespace == HTML_NS:
                    fm = self._fend_memo
                    if len(fm) >= 64:
                        fm.clear()
                    fm[name] = (i, node, self._fcounts.get(name, 0))
                self._END[self.mode](self, name)
                return

    # ------------------------------------------------------ characters

    def _chars_initial(self, data: str) -> str:
        rest = data.lstrip(WS)
        if rest:
            self._set_quirks("quirks")
            self.mode = BEFORE_HTML
        return rest

    def _chars_before_html(self, data: str) -> str:
        rest = data.lstrip(WS)
        if rest:
            self._insert_html_root({})
            self.mode = BEFORE_HEAD
        return rest

    def _chars_before_head(self, data: str) -> str:
        rest = data.lstrip(WS)
        if rest:
            self.head = self._insert_html("head", {})
            self.mode = IN_HEAD
        return rest

    def _chars_in_head(self, data: str) -> str:
        rest = data.lstrip(WS)
        if len(rest) != len(data):
            self._insert_text(data[: len(data) - len(rest)])
        if rest:
            self._pop()
            self.mode = AFTER_HEAD
        return rest

    def _chars_in_head_noscript(self, data: str) -> str:
        rest = data.lstrip(WS)
        if len(rest) != len(data):
            self._insert_text(data[: len(data) - len(rest)])
        if rest:
            self._pop()
            self.mode = IN_HEAD
        return rest

    def _chars_after_head(self, data: str) -> str:
        rest = data.lstrip(WS)
        if len(rest) != len(data):
            self._insert_text(data[: len(data) - len(rest)])
        if rest:
            self._insert_html("body", {})
            self.mode = IN_BODY
        return rest

    def _chars_in_body(self, data: str) -> str:
        if "\0" in data:
            data = data.replace("\0", "")
            if not data:
                return ""
        afe = self.afe
        if afe:
            last = afe[-1]
            if last is not None and last not in self._open_set:
                self._reconstruct()
        if self.frameset_ok and data.strip(WS):
            self.frameset_ok = False
        self._insert_text(data)
        return ""

    def _chars_text(self, data: str) -> str:
        self._insert_text(data)
        return ""

    def _chars_in_table(self, data: str) -> str:
        cur = self.open[-1]
        if cur.namespace == HTML_NS and cur.name in _TABLE_TEXT_PARENTS:
            self._table_text = []
            self.original_mode = self.mode
            self.mode = IN_TABLE_TEXT
            return data
        self._foster = True
        try:
            self._chars_in_body(data)
        finally:
            self._foster = False
        return ""

    # 13.2.6.4.10 The "in table text" insertion mode
    # https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intabletext
    # Its other tokens flush the pending text first (_flush_table_text, _start_in_table_text and
    # _end_in_table_text; comment(), doctype() and eof() do the same).
    def _chars_in_table_text(self, data: str) -> str:
        if "\0" in data:
            data = data.replace("\0", "")
        if data:
            self._table_text.append(data)
        return ""

    def _flush_table_text(self) -> None:
        data = "".join(self._table_text)
        self._table_text = []
        self.mode = self.original_mode
        if not data:
            return
        if data.strip(WS):
            self._foster = True
            try:
                self._chars_in_body(data)
            finally:
                self._foster = False
        else:
            self._insert_text(data)

    def _chars_in_column_group(self, data: str) -> str:
        rest = data.lstrip(WS)
        if len(rest) != len(data):
            self._insert_text(data[: len(data) - len(rest)])
        if rest:
            if not self._current_is("colgroup"):
                # Each character is a token of its own here: the non-whitespace ones
                # are ignored (parse error), the whitespace among them is still inserted.
                spaces = _NOT_WS.sub("", rest)
                if spaces:
                    self._insert_text(spaces)
                return ""
            self._pop()
            self.mode = IN_TABLE
        return rest

    def _chars_after_body(self, data: str) -> str:
        rest = data.lstrip(WS)
        if len(rest) != len(data):
            self._chars_in_body(data[: len(data) - len(rest)])
        if rest:
            self.mode = IN_BODY
        return rest

    def _chars_frameset(self, data: str) -> str:
        ws = "".join(c for c in data if c in WS)
        if ws:
            self._insert_text(ws)
        return ""

    def _chars_after_after_frameset(self, data: str) -> str:
        ws = "".join(c for c in data if c in WS)
        if ws:
            self._chars_in_body(ws)
        return ""

    # ------------------------------------------------------------ initial etc.

    # 13.2.6.4.1 The "initial" insertion mode
    # https://html.spec.whatwg.org/multipage/parsing.html#the-initial-insertion-mode
    # Its DOCTYPE rules are in doctype(); whitespace is skipped by _chars_initial.
    def _start_initial(self, name: str, attrs: Attrs, sc: bool) -> None:
        self._set_quirks("quirks")
        self.mode = BEFORE_HTML
        self._start_before_html(name, attrs, sc)

    def _end_initial(self, name: str) -> None:
        self._set_quirks("quirks")
        self.mode = BEFORE_HTML
        self._end_before_html(name)

    # 13.2.6.4.2 The "before html" insertion mode
    # https://html.spec.whatwg.org/multipage/parsing.html#the-before-html-insertion-mode
    def _start_before_html(self, name: str, attrs: Attrs, sc: bool) -> None:
        if name == "html":
            self._insert_html_root(attrs)
            self.mode = BEFORE_HEAD
            return
        self._insert_html_root({})
        self.mode = BEFORE_HEAD
        self._start_before_head(name, attrs, sc)

    def _end_before_html(self, name: str) -> None:
        if name not in ("head", "body", "html", "br"):
            return
        self._insert_html_root({})
        self.mode = BEFORE_HEAD
        self._end_before_head(name)

    # 13.2.6.4.3 The "before head" insertion mode
    # https://html.spec.whatwg.org/multipage/parsing.html#the-before-head-insertion-mode
    def _start_before_head(self, name: str, attrs: Attrs, sc: bool) -> None:
        if name == "html":
            self._start_in_body(name, attrs, sc)
            return
        if name == "head":
            self.head = self._insert_html("head", attrs)
            self.mode = IN_HEAD
            return
        self.head = self._insert_html("head", {})
        self.mode = IN_HEAD
        self._start_in_head(name, attrs, sc)

    def _end_before_head(self, name: str) -> None:
        if name not in ("head", "body", "html", "br"):
            return
        self.head = self._insert_html("head", {})
        self.mode = IN_HEAD
        self._end_in_head(name)

    # 13.2.6.4.4 The "in head" insertion mode — https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead
    def _start_in_head(self, name: str, attrs: Attrs, sc: bool) -> None:
        if name == "html":
            self._start_in_body(name, attrs, sc)
        elif name in ("base", "basefont", "bgsound", "link", "meta"):
            if name == "meta" and self.meta_encoding_hook is not None:
                # (the pop is reported after the hook, as at the end of any token)
                self._insert_html(name, attrs)
                self._pop()
                self._meta_encoding(attrs)
            else:
                self._insert_void(name, attrs)
        elif name == "title":
            self._raw_text(name, attrs, "RCDATA state")
        elif name == "noscript":
            self._insert_html(name, attrs)
            self.mode = IN_HEAD_NOSCRIPT
        elif name in ("noframes", "style"):
            self._raw_text(name, attrs, "RAWTEXT state")
        elif name == "script":
            self._raw_text(name, attrs, "Script data state")
        elif name == "template":
            self._insert_html(name, attrs)
            self.afe.append(None)
            self.frameset_ok = False
            self.mode = IN_TEMPLATE
            self.template_modes.append(IN_TEMPLATE)
        elif name == "head":
            return
        else:
            self._pop()
            self.mode = AFTER_HEAD
            self._start_after_head(name, attrs, sc)

    def _meta_encoding(self, attrs: Attrs) -> None:
        """The encoding steps of the "in head" ``meta`` rule (HTML 13.2.6.4.4).

        The spec's "active speculative HTML parser" is always null here.
        """
        assert self.meta_encoding_hook is not None
        charset = attrs.get("charset")
        enc = lookup_encoding(charset) if charset is not None else None
        if enc is None:
            content = attrs.get("content")
            if content is not None and attrs.get("http-equiv", "").lower() == "content-type":
                enc = extract_encoding_from_meta(content)
        if enc is not None:
            self.meta_encoding_hook(enc)

    def _end_in_head(self, name: str) -> None:
        if name == "head":
            self._pop()
            self.mode = AFTER_HEAD
        elif name in ("body", "html", "br"):
            self._pop()
            self.mode = AFTER_HEAD
            self._end_after_head(name)
        elif name == "template":
            self._end_template()

    def _end_template(self) -> None:
        if not self._counts.get("template"):
            return
        self._generate_all_implied_end_tags()
        self._pop_until_name("template")
        self._clear_afe_to_marker()
        self.template_modes.pop()
        self._reset_insertion_mode()

    # 13.2.6.4.5 The "in head noscript" insertion mode
    # https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inheadnoscript
    def _start_in_head_noscript(self, name: str, attrs: Attrs, sc: bool) -> None:
        if name == "html":
            self._start_in_body(name, attrs, sc)
        elif name in ("basefont", "bgsound", "link", "meta", "noframes", "style"):
            self._start_in_head(name, attrs, sc)
        elif name in ("head", "noscript"):
            return
        else:
            self._pop()
            self.mode = IN_HEAD
            self._start_in_head(name, attrs, sc)

    def _end_in_head_noscript(self, name: str) -> None:
        if name == "noscript":
            self._pop()
            self.mode = IN_HEAD
        elif name == "br":
            self._pop()
            self.mode = IN_HEAD
            self._end_in_head(name)

    # 13.2.6.4.6 The "after head" insertion mode
    # https://html.spec.whatwg.org/multipage/parsing.html#the-after-head-insertion-mode
    def _start_after_head(self, name: str, attrs: Attrs, sc: bool) -> None:
        if name == "html":
            self._start_in_body(name, attrs, sc)
        elif name == "body":
            self._insert_html(name, attrs)
            self.frameset_ok = False
            self.mode = IN_BODY
        elif name == "frameset":
            self._insert_html(name, attrs)
            self.mode = IN_FRAMESET
        elif name in _HEAD_ELEMENTS:
            head = self.head
            assert head is not None
            self._push(head)
            self._start_in_head(name, attrs, sc)
            self._remove_from_stack(head)
        elif name == "head":
            return
        else:
            self._insert_html("body", {})
            self.mode = IN_BODY
            self._start_in_body(name, attrs, sc)

    def _end_after_head(self, name: str) -> None:
        if name == "template":
            self._end_in_head(name)
        elif name in ("body", "html", "br"):
            self._insert_html("body", {})
            self.mode = IN_BODY
            self._end_in_body(name)

    # ---------------------------------------------------------------- in body

    # 13.2.6.4.7 The "in body" insertion mode — https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody
    # Start and end tags go to the _b_* and _be_* handlers through _BODY_START and _BODY_END. The
    # common cases are inlined in start_tag, end_tag, characters and start_text_end (fast paths).
    def _start_in_body(self, name: str, attrs: Attrs, sc: bool) -> None:
        handler = _BODY_START.get(name)
        if handler is not None:
            handler(self, name, attrs, sc)
            return
        # Any other start tag.
        afe = self.afe
        if afe:
            last = afe[-1]
            if last is not None and last not in self._open_set:
                self._reconstruct()
        self._insert_html(name, attrs)

    def _b_html(self, name: str, attrs: Attrs, sc: bool) -> None:
        if self._counts.get("template"):
            return
        self.sink.add_attrs_if_missing(self.open[0], attrs)

    def _b_head_rules(self, name: str, attrs: Attrs, sc: bool) -> None:
        self._start_in_head(name, attrs, sc)

    def _b_body(self, name: str, attrs: Attrs, sc: bool) -> None:
        stack = self.open
        if len(stack) == 1 or not (stack[1].name == "body" and stack[1].namespace == HTML_NS):
            return
        if self._counts.get("template"):
            return
        self.frameset_ok = False
        self.sink.add_attrs_if_missing(stack[1], attrs)

    def _b_frameset(self, name: str, attrs: Attrs, sc: bool) -> None:
        stack = self.open
        if len(stack) == 1 or not (stack[1].name == "body" and stack[1].namespace == HTML_NS):
            return
        if not self.frameset_ok:
            return
        self.sink.remove(stack[1])
        while len(stack) > 1:
            self._pop()
        self._insert_html(name, attrs)
        self.mode = IN_FRAMESET

    def _b_close_p_block(self, name: str, attrs: Attrs, sc: bool) -> None:
        if self._counts.get("p"):  # (the common case, no open p, costs no call)
            self._close_p_in_button_scope()
        self._insert_html(name, attrs)

    def _b_heading(self, name: str, attrs: Attrs, sc: bool) -> None:
        self._close_p_in_button_scope()
        cur = self.open[-1]
        if cur.namespace == HTML_NS and cur.name in HEADINGS:
            self._pop()
        self._insert_html(name, attrs)

    def _b_pre(self, name: str, attrs: Attrs, sc: bool) -> None:
        self._close_p_in_button_scope()
        self._insert_html(name, attrs)
        self._ignore_lf = True
        self.frameset_ok = False

    def _b_form(self, name: str, attrs: Attrs, sc: bool) -> None:
        has_template = bool(self._counts.get("template"))
        if self.form is not None and not has_template:
            return
        self._close_p_in_button_scope()
        el = self._insert_html(name, attrs)
        if not has_template:
            self.form = el

    def _b_li(self, name: str, attrs: Attrs, sc: bool) -> None:
        self.frameset_ok = False
        targets = ("li",) if name == "li" else ("dd", "dt")
        stack = self.open
        # The loop below can only act if such an element is open (counter check).
        start = len(stack) - 1 if any(self._counts.get(t) for t in targets) else -1
        for i in range(start, -1, -1):
            node = stack[i]
            if node.namespace == HTML_NS and node.name in targets:
                self._generate_implied_end_tags(node.name)
                self._pop_until_name(node.name)
                break
            if _is_special(node) and not (node.namespace == HTML_NS and node.name in ("address", "div", "p")):
                break
        if self._counts.get("p"):
            self._close_p_in_button_scope()
        self._insert_html(name, attrs)

    def _b_plaintext(self, name: str, attrs: Attrs, sc: bool) -> None:
        self._close_p_in_button_scope()
        self._insert_html(name, attrs)
        if self.tokenizer is not None:
            self.tokenizer.switch_to("PLAINTEXT state")

    def _b_button(self, name: str, attrs: Attrs, sc: bool) -> None:
        if self._in_scope("button"):
            self._generate_implied_end_tags()
            self._pop_until_name("button")
        self._reconstruct()
        self._insert_html(name, attrs)
        self.frameset_ok = False

    def _b_a(self, name: str, attrs: Attrs, sc: bool) -> None:
        afe = self.afe
        for i in range(len(afe) - 1, -1, -1):
            e = afe[i]
            if e is None:
                break
            if e.name == "a" and e.namespace == HTML_NS:
                if not self._adoption_agency("a"):
                    self._end_other_in_body("a")
                j = self._afe_index(e)
                if j >= 0:
                    del afe[j]
                self._remove_from_stack(e)
                break
        self._insert_formatting(name, attrs)

    def _b_formatting(self, name: str, attrs: Attrs, sc: bool) -> None:
        self._insert_formatting(name, attrs)

    def _b_nobr(self, name: str, attrs: Attrs, sc: bool) -> None:
        self._reconstruct()
        if self._in_scope("nobr"):
            if not self._adoption_agency("nobr"):
                self._end_other_in_body("nobr")
            self._reconstruct()
        self._push_afe(self._insert_html(name, attrs))

    def _b_applet(self, name: str, attrs: Attrs, sc: bool) -> None:
        self._reconstruct()
        self._insert_html(name, attrs)
        self.afe.append(None)
        self.frameset_ok = False

    def _b_table(self, name: str, attrs: Attrs, sc: bool) -> None:
        if self.quirks != "quirks":
            self._close_p_in_button_scope()
        self._insert_html(name, attrs)
        self.frameset_ok = False
        self.mode = IN_TABLE

    def _b_void(self, name: str, attrs: Attrs, sc: bool) -> None:
        self._reconstruct()
        self._insert_void(name, attrs)
        self.frameset_ok = False

    def _insert_void(self, name: str, attrs: Attrs) -> None:
        """Insert an HTML element and pop it again at once (``img``, ``br``, ``source``...).

        In the usual case (the current node is the insertion place and nothing
        else was popped in this token) that is one ``append_leaf`` call: the
        sink sees the same calls as from ``_insert_html`` then ``_pop``, without
        the stack's bookkeeping in between (the open-element set, the per-name
        counts, the queue of pops).
        """
        stack = self.open
        target = stack[-1]
        if (
            self._foster
            or self._pending_pops
            or self._context is not None
            or len(stack) >= self.max_depth
            or (target.name == "template" and target.namespace == HTML_NS)
        ):
            self._insert_html(name, attrs)
            self._pop()
            return
        self._calls.append_leaf(target, name, HTML_NS, attrs, "")

    def _b_input(self, name: str, attrs: Attrs, sc: bool) -> None:
        ctx = self._context
        if ctx is not None and ctx.name == "select" and ctx.namespace == HTML_NS:
            return
        if self._in_scope("select"):
            self._pop_until_name("select")
        self._reconstruct()
        self._insert_void(name, attrs)
        t = attrs.get("type")
        if t is None or t.lower() != "hidden":
            self.frameset_ok = False

    def _b_param(self, name: str, attrs: Attrs, sc: bool) -> None:
        self._insert_void(name, attrs)

    def _b_hr(self, name: str, attrs: Attrs, sc: bool) -> None:
        self._close_p_in_button_scope()
        if self._in_scope("select"):
            self._generate_implied_end_tags()
        self._insert_html(name, attrs)
        self._pop()
        self.frameset_ok = False

    def _b_image(self, name: str, attrs: Attrs, sc: bool) -> None:
        self._start("img", attrs, sc)

    def _b_textarea(self, name: str, attrs: Attrs, sc: bool) -> None:
        self._raw_text(name, attrs, "RCDATA state")
        self._ignore_lf = True
        self.frameset_ok = False

    def _b_xmp(self, name: str, attrs: Attrs, sc: bool) -> None:
        self._close_p_in_button_scope()
        self._reconstruct()
        self.frameset_ok = False
        self._raw_text(name, attrs, "RAWTEXT state")

    def _b_iframe(self, name: str, attrs: Attrs, sc: bool) -> None:
        self.frameset_ok = False
        self._raw_text(name, attrs, "RAWTEXT state")

    def _b_noembed(self, name: str, attrs: Attrs, sc: bool) -> None:
        self._raw_text(name, attrs, "RAWTEXT state")

    def _b_select(self, name: str, attrs: Attrs, sc: bool) -> None:
        ctx = self._context
        if ctx is not None and ctx.name == "select" and ctx.namespace == HTML_NS:
            return
        if self._in_scope("select"):
            self._pop_until_name("select")
            return
        self._reconstruct()
        self._insert_html(name, attrs)
        self.frameset_ok = False

    def _b_option(self, name: str, attrs: Attrs, sc: bool) -> None:
        if self._in_scope("select"):
            if name == "option":
                self._generate_implied_end_tags("optgroup")
            else:
                self._generate_implied_end_tags()
        elif self._current_is("option"):
            self._pop()
        self._reconstruct()
        self._insert_html(name, attrs)

    def _b_rb(self, name: str, attrs: Attrs, sc: bool) -> None:
        if self._in_scope("ruby"):
            self._generate_implied_end_tags()
        self._insert_html(name, attrs)

    def _b_rp(self, name: str, attrs: Attrs, sc: bool) -> None:
        if self._in_scope("ruby"):
            self._generate_implied_end_tags("rtc")
        self._insert_html(name, attrs)

    def _b_math(self, name: str, attrs: Attrs, sc: bool) -> None:
        self._reconstruct()
        ns = MATHML_NS if name == "math" else SVG_NS
        self._insert_foreign(name, ns, _adjust_foreign_attrs(attrs, ns))
        if sc:
            self._pop()

    def _b_ignore(self, name: str, attrs: Attrs, sc: bool) -> None:
        return

    def _end_in_body(self, name: str) -> None:
        handler = _BODY_END.get(name)
        if handler is not None:
            handler(self, name)
        else:
            self._end_other_in_body(name)

    def _end_other_in_body(self, name: str) -> None:
        if not self._counts.get(name):
            return
        stack = self.open
        cur = stack[-1]
        if cur.name == name and cur.namespace == HTML_NS:
            self._pop()  # the common, well-nested case: nothing else to close
            return
        # The walk down to that element or a special one is a scope test with the
        # special elements as the boundary (remembered when long, see _walked).
        if not self._in_scope(name, SPECIAL_HTML, True):
            return
        for i in range(len(stack) - 1, -1, -1):
            node = stack[i]
            if node.name == name and node.namespace == HTML_NS:
                self._generate_implied_end_tags(name)
                self._pop_until_node(node)
                return

    def _be_body(self, name: str) -> None:
        if self._in_scope("body"):
            self.mode = AFTER_BODY

    def _be_html(self, name: str) -> None:
        if self._in_scope("body"):
            self.mode = AFTER_BODY
            self._end_after_body(name)

    def _be_block(self, name: str) -> None:
        cur = self.open[-1]
        if cur.name == name and cur.namespace == HTML_NS:
            self._pop()  # well nested: in scope, no implied end tags to generate
            return
        if not self._in_scope(name):
            return
        self._generate_implied_end_tags()
        self._pop_until_name(name)

    def _be_form(self, name: str) -> None:
        if not self._counts.get("template"):
            node = self.form
            self.form = None
            if node is None or not self._node_in_scope(node):
                return
            self._generate_implied_end_tags()
            self._remove_from_stack(node)
        else:
            if not self._in_scope("form"):
                return
            self._generate_implied_end_tags()
            self._pop_until_name("form")

    def _be_p(self, name: str) -> None:
        if not self._in_scope("p", BUTTON_SCOPE_HTML):
            self._insert_html("p", {})
        self._close_p()

    def _be_li(self, name: str) -> None:
        if not self._in_scope("li", LIST_ITEM_SCOPE_HTML):
            return
        self._generate_implied_end_tags("li")
        self._pop_until_name("li")

    def _be_dd(self, name: str) -> None:
        if not self._in_scope(name):
            return
        self._generate_implied_end_tags(name)
        self._pop_until_name(name)

    def _be_heading(self, name: str) -> None:
        if not self._any_in_scope(HEADINGS, SCOPE_HTML, True):
            return
        self._generate_implied_end_tags()
        self._pop_until_names(HEADINGS)

    def _be_formatting(self, name: str) -> None:
        if not self._adoption_agency(name):
            self._end_other_in_body(name)

    def _be_applet(self, name: str) -> None:
        if not self._in_scope(name):
            return
        self._generate_implied_end_tags()
        self._pop_until_name(name)
        self._clear_afe_to_marker()

    def _be_br(self, name: str) -> None:
        self._b_void("br", {}, False)

    def _be_template(self, name: str) -> None:
        self._end_in_head(name)

    # ------------------------------------------------------------------ text

    # 13.2.6.4.8 The "text" insertion mode — https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-incdata
    def _start_text(self, name: str, attrs: Attrs, sc: bool) -> None:
        return  # cannot happen: the tokenizer is in a text state

    def _end_text(self, name: str) -> None:
        self._pop()
        self.mode = self.original_mode

    # --------------------------------------------------------------- in table

    def _clear_to_context(self, names: tuple[str, ...]) -> None:
        stack = self.open
        while True:
            cur = stack[-1]
            if cur.namespace == HTML_NS and cur.name in names:
                return
            self._pop()

    # 13.2.6.4.9 Clear the stack back to a table context
    # https://html.spec.whatwg.org/multipage/parsing.html#clear-the-stack-back-to-a-table-context
    def _clear_to_table_context(self) -> None:
        self._clear_to_context(("table", "template", "html"))

    # 13.2.6.4.13 Clear the stack back to a table body context
    # https://html.spec.whatwg.org/multipage/parsing.html#clear-the-stack-back-to-a-table-body-context
    def _clear_to_table_body_context(self) -> None:
        self._clear_to_context(("tbody", "tfoot", "thead", "template", "html"))

    # 13.2.6.4.14 Clear the stack back to a table row context
    # https://html.spec.whatwg.org/multipage/parsing.html#clear-the-stack-back-to-a-table-row-context
    def _clear_to_row_context(self) -> None:
        self._clear_to_context(("tr", "template", "html"))

    # 13.2.6.4.9 The "in table" insertion mode
    # https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intable
    def _start_in_table(self, name: str, attrs: Attrs, sc: bool) -> None:
        if name == "caption":
            self._clear_to_table_context()
            self.afe.append(None)
            self._insert_html(name, attrs)
            self.mode = IN_CAPTION
        elif name == "colgroup":
            self._clear_to_table_context()
            self._insert_html(name, attrs)
            self.mode = IN_COLUMN_GROUP
        elif name == "col":
            self._clear_to_table_context()
            self._insert_html("colgroup", {})
            self.mode = IN_COLUMN_GROUP
            self._start_in_column_group(name, attrs, sc)
        elif name in _TABLE_SECTION:
            self._clear_to_table_context()
            self._insert_html(name, attrs)
            self.mode = IN_TABLE_BODY
        elif name in ("td", "th", "tr"):
            self._clear_to_table_context()
            self._insert_html("tbody", {})
            self.mode = IN_TABLE_BODY
            self._start_in_table_body(name, attrs, sc)
        elif name == "table":
            if not self._in_table_scope("table"):
                return
            self._pop_until_name("table")
            self._reset_insertion_mode()
            self._start(name, attrs, sc)
        elif name in ("style", "script", "template"):
            self._start_in_head(name, attrs, sc)
        elif name == "input":
            t = attrs.get("type")
            if t is None or t.lower() != "hidden":
                self._table_anything_else_start(name, attrs, sc)
                return
            self._insert_html(name, attrs)
            self._pop()
        elif name == "form":
            if self._counts.get("template") or self.form is not None:
                return
            self.form = self._insert_html(name, attrs)
            self._pop()
        else:
            self._table_anything_else_start(name, attrs, sc)

    def _table_anything_else_start(self, name: str, attrs: Attrs, sc: bool) -> None:
        self._foster = True
        try:
            self._start_in_body(name, attrs, sc)
        finally:
            self._foster = False

    def _end_in_table(self, name: str) -> None:
        if name == "table":
            if not self._in_table_scope("table"):
                return
            self._pop_until_name("table")
            self._reset_insertion_mode()
        elif name in ("body", "caption", "col", "colgroup", "html", "tbody", "td", "tfoot", "th", "thead", "tr"):
            return
        elif name == "template":
            self._end_in_head(name)
        else:
            self._foster = True
            try:
                self._end_in_body(name)
            finally:
                self._foster = False

    def _start_in_table_text(self, name: str, attrs: Attrs, sc: bool) -> None:
        self._flush_table_text()
        self._start(name, attrs, sc)

    def _end_in_table_text(self, name: str) -> None:
        self._flush_table_text()
        self._end(name)

    # ------------------------------------------------------------- in caption

    def _close_caption(self) -> bool:
        if not self._in_table_scope("caption"):
            return False
        self._generate_implied_end_tags()
        self._pop_until_name("caption")
        self._clear_afe_to_marker()
        self.mode = IN_TABLE
        return True

    # 13.2.6.4.11 The "in caption" insertion mode
    # https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-incaption
    def _start_in_caption(self, name: str, attrs: Attrs, sc: bool) -> None:
        if name in _CELL_OR_ROW_START:
            if self._close_caption():
                self._start(name, attrs, sc)
            return
        self._start_in_body(name, attrs, sc)

    def _end_in_caption(self, name: str) -> None:
        if name == "caption":
            self._close_caption()
        elif name == "table":
            if self._close_caption():
                self._end(name)
        elif name in ("body", "col", "colgroup", "html", "tbody", "td", "tfoot", "th", "thead", "tr"):
            return
        else:
            self._end_in_body(name)

    # -------------------------------------------------------- in column group

    # 13.2.6.4.12 The "in column group" insertion mode
    # https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-incolgroup
    def _start_in_column_group(self, name: str, attrs: Attrs, sc: bool) -> None:
        if name == "html":
            self._start_in_body(name, attrs, sc)
        elif name == "col":
            self._insert_html(name, attrs)
            self._pop()
        elif name == "template":
            self._start_in_head(name, attrs, sc)
        else:
            if not self._current_is("colgroup"):
                return
            self._pop()
            self.mode = IN_TABLE
            self._start(name, attrs, sc)

    def _end_in_column_group(self, name: str) -> None:
        if name == "colgroup":
            if self._current_is("colgroup"):
                self._pop()
                self.mode = IN_TABLE
        elif name == "col":
            return
        elif name == "template":
            self._end_in_head(name)
        else:
            if not self._current_is("colgroup"):
                return
            self._pop()
            self.mode = IN_TABLE
            self._end(name)

    # ---------------------------------------------------------- in table body

    # 13.2.6.4.13 The "in table body" insertion mode
    # https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intbody
    def _start_in_table_body(self, name: str, attrs: Attrs, sc: bool) -> None:
        if name == "tr":
            self._clear_to_table_body_context()
            self._insert_html(name, attrs)
            self.mode = IN_ROW
        elif name in ("th", "td"):
            self._clear_to_table_body_context()
            self._insert_html("tr", {})
            self.mode = IN_ROW
            self._start_in_row(name, attrs, sc)
        elif name in ("caption", "col", "colgroup", "tbody", "tfoot", "thead"):
            if not self._any_in_scope(_TABLE_SECTION, TABLE_SCOPE_HTML, False):
                return
            self._clear_to_table_body_context()
            self._pop()
            self.mode = IN_TABLE
            self._start(name, attrs, sc)
        else:
            self._start_in_table(name, attrs, sc)

    def _end_in_table_body(self, name: str) -> None:
        if name in _TABLE_SECTION:
            if not self._in_table_scope(name):
                return
            self._clear_to_table_body_context()
            self._pop()
            self.mode = IN_TABLE
        elif name == "table":
            if not self._any_in_scope(_TABLE_SECTION, TABLE_SCOPE_HTML, False):
                return
            self._clear_to_table_body_context()
            self._pop()
            self.mode = IN_TABLE
            self._end(name)
        elif name in ("body", "caption", "col", "colgroup", "html", "td", "th", "tr"):
            return
        else:
            self._end_in_table(name)

    # ----------------------------------------------------------------- in row

    def _close_row(self) -> bool:
        if not self._in_table_scope("tr"):
            return False
        self._clear_to_row_context()
        self._pop()
        self.mode = IN_TABLE_BODY
        return True

    # 13.2.6.4.14 The "in row" insertion mode — https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intr
    def _start_in_row(self, name: str, attrs: Attrs, sc: bool) -> None:
        if name in ("th", "td"):
            self._clear_to_row_context()
            self._insert_html(name, attrs)
            self.mode = IN_CELL
            self.afe.append(None)
        elif name in ("caption", "col", "colgroup", "tbody", "tfoot", "thead", "tr"):
            if self._close_row():
                self._start(name, attrs, sc)
        else:
            self._start_in_table(name, attrs, sc)

    def _end_in_row(self, name: str) -> None:
        if name == "tr":
            self._close_row()
        elif name == "table":
            if self._close_row():
                self._end(name)
        elif name in _TABLE_SECTION:
            if not self._in_table_scope(name):
                return
            if self._close_row():
                self._end(name)
        elif name in ("body", "caption", "col", "colgroup", "html", "td", "th"):
            return
        else:
            self._end_in_table(name)

    # ---------------------------------------------------------------- in cell

    # 13.2.6.4.15 Close the cell — https://html.spec.whatwg.org/multipage/parsing.html#close-the-cell
    def _close_cell(self) -> None:
        self._generate_implied_end_tags()
        self._pop_until_names(frozenset(("td", "th")))
        self._clear_afe_to_marker()
        self.mode = IN_ROW

    # 13.2.6.4.15 The "in cell" insertion mode — https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intd
    def _start_in_cell(self, name: str, attrs: Attrs, sc: bool) -> None:
        if name in _CELL_OR_ROW_START:
            if not (self._in_table_scope("td") or self._in_table_scope("th")):
                return
            self._close_cell()
            self._start(name, attrs, sc)
        else:
            self._start_in_body(name, attrs, sc)

    def _end_in_cell(self, name: str) -> None:
        if name in ("td", "th"):
            if not self._in_table_scope(name):
                return
            self._generate_implied_end_tags()
            self._pop_until_name(name)
            self._clear_afe_to_marker()
            self.mode = IN_ROW
        elif name in ("body", "caption", "col", "colgroup", "html"):
            return
        elif name in ("table", "tbody", "tfoot", "thead", "tr"):
            if not self._in_table_scope(name):
                return
            self._close_cell()
            self._end(name)
        else:
            self._end_in_body(name)

    # ------------------------------------------------------------ in template

    # 13.2.6.4.16 The "in template" insertion mode
    # https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intemplate
    # Its end-of-file rules are in eof().
    def _start_in_template(self, name: str, attrs: Attrs, sc: bool) -> None:
        if name in _HEAD_ELEMENTS:
            self._start_in_head(name, attrs, sc)
            return
        if name in ("caption", "colgroup", "tbody", "tfoot", "thead"):
            new_mode = IN_TABLE
        elif name == "col":
            new_mode = IN_COLUMN_GROUP
        elif name == "tr":
            new_mode = IN_TABLE_BODY
        elif name in ("td", "th"):
            new_mode = IN_ROW
        else:
            new_mode = IN_BODY
        self.template_modes[-1] = new_mode
        self.mode = new_mode
        self._start(name, attrs, sc)

    def _end_in_template(self, name: str) -> None:
        if name == "template":
            self._end_in_head(name)

    # ------------------------------------------------------------- after body

    # 13.2.6.4.17 The "after body" insertion mode
    # https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-afterbody
    def _start_after_body(self, name: str, attrs: Attrs, sc: bool) -> None:
        if name == "html":
            self._start_in_body(name, attrs, sc)
            return
        self.mode = IN_BODY
        self._start(name, attrs, sc)

    def _end_after_body(self, name: str) -> None:
        if name == "html":
            if self._context is None:
                self.mode = AFTER_AFTER_BODY
            return
        self.mode = IN_BODY
        self._end(name)

    # ------------------------------------------------------------ frameset

    # 13.2.6.4.18 The "in frameset" insertion mode
    # https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inframeset
    def _start_in_frameset(self, name: str, attrs: Attrs, sc: bool) -> None:
        if name == "html":
            self._start_in_body(name, attrs, sc)
        elif name == "frameset":
            self._insert_html(name, attrs)
        elif name == "frame":
            self._insert_html(name, attrs)
            self._pop()
        elif name == "noframes":
            self._start_in_head(name, attrs, sc)

    def _end_in_frameset(self, name: str) -> None:
        if name != "frameset":
            return
        if len(self.open) == 1:
            return
        self._pop()
        if self._context is None and not self._current_is("frameset"):
            self.mode = AFTER_FRAMESET

    # 13.2.6.4.19 The "after frameset" insertion mode
    # https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-afterframeset
    def _start_after_frameset(self, name: str, attrs: Attrs, sc: bool) -> None:
        if name == "html":
            self._start_in_body(name, attrs, sc)
        elif name == "noframes":
            self._start_in_head(name, attrs, sc)

    def _end_after_frameset(self, name: str) -> None:
        if name == "html":
            self.mode = AFTER_AFTER_FRAMESET

    # 13.2.6.4.20 The "after after body" insertion mode
    # https://html.spec.whatwg.org/multipage/parsing.html#the-after-after-body-insertion-mode
    def _start_after_after_body(self, name: str, attrs: Attrs, sc: bool) -> None:
        if name == "html":
            self._start_in_body(name, attrs, sc)
            return
        self.mode = IN_BODY
        self._start(name, attrs, sc)

    def _end_after_after_body(self, name: str) -> None:
        self.mode = IN_BODY
        self._end(name)

    # 13.2.6.4.21 The "after after frameset" insertion mode
    # https://html.spec.whatwg.org/multipage/parsing.html#the-after-after-frameset-insertion-mode
    # (its end tags are all ignored: _end_ignore below)
    def _start_after_after_frameset(self, name: str, attrs: Attrs, sc: bool) -> None:
        if name == "html":
            self._start_in_body(name, attrs, sc)
        elif name == "noframes":
            self._start_in_head(name, attrs, sc)

    def _end_ignore(self, name: str) -> None:
        return

    # Dispatch tables, indexed by insertion mode (filled in below the class).
    _CHARS: ClassVar[list[Any]] = []
    _START: ClassVar[list[Any]] = []
    _END: ClassVar[list[Any]] = []


TreeBuilder._CHARS = [
    TreeBuilder._chars_initial,
    TreeBuilder._chars_before_html,
    TreeBuilder._chars_before_head,
    TreeBuilder._chars_in_head,
    TreeBuilder._chars_in_head_noscript,
    TreeBuilder._chars_after_head,
    TreeBuilder._chars_in_body,
    TreeBuilder._chars_text,
    TreeBuilder._chars_in_table,
    TreeBuilder._chars_in_table_text,
    TreeBuilder._chars_in_body,  # in caption
    TreeBuilder._chars_in_column_group,
    TreeBuilder._chars_in_table,  # in table body
    TreeBuilder._chars_in_table,  # in row
    TreeBuilder._chars_in_body,  # in cell
    TreeBuilder._chars_in_body,  # in template
    TreeBuilder._chars_after_body,
    TreeBuilder._chars_frameset,
    TreeBuilder._chars_frameset,  # after frameset
    TreeBuilder._chars_after_body,  # after after body
    TreeBuilder._chars_after_after_frameset,
]
TreeBuilder._START = [
    TreeBuilder._start_initial,
    TreeBuilder._start_before_html,
    TreeBuilder._start_before_head,
    TreeBuilder._start_in_head,
    TreeBuilder._start_in_head_noscript,
    TreeBuilder._start_after_head,
    TreeBuilder._start_in_body,
    TreeBuilder._start_text,
    TreeBuilder._start_in_table,
    TreeBuilder._start_in_table_text,
    TreeBuilder._start_in_caption,
    TreeBuilder._start_in_column_group,
    TreeBuilder._start_in_table_body,
    TreeBuilder._start_in_row,
    TreeBuilder._start_in_cell,
    TreeBuilder._start_in_template,
    TreeBuilder._start_after_body,
    TreeBuilder._start_in_frameset,
    TreeBuilder._start_after_frameset,
    TreeBuilder._start_after_after_body,
    TreeBuilder._start_after_after_frameset,
]
TreeBuilder._END = [
    TreeBuilder._end_initial,
    TreeBuilder._end_before_html,
    TreeBuilder._end_before_head,
    TreeBuilder._end_in_head,
    TreeBuilder._end_in_head_noscript,
    TreeBuilder._end_after_head,
    TreeBuilder._end_in_body,
    TreeBuilder._end_text,
    TreeBuilder._end_in_table,
    TreeBuilder._end_in_table_text,
    TreeBuilder._end_in_caption,
    TreeBuilder._end_in_column_group,
    TreeBuilder._end_in_table_body,
    TreeBuilder._end_in_row,
    TreeBuilder._end_in_cell,
    TreeBuilder._end_in_template,
    TreeBuilder._end_after_body,
    TreeBuilder._end_in_frameset,
    TreeBuilder._end_after_frameset,
    TreeBuilder._end_after_after_body,
    TreeBuilder._end_ignore,  # after after frameset
]

_T = TreeBuilder
_BODY_START: Final[dict[str, Any]] = {"html": _T._b_html, "body": _T._b_body, "frameset": _T._b_frameset}
for _n in _HEAD_ELEMENTS:
    _BODY_START[_n] = _T._b_head_rules
for _n in CLOSE_P_BLOCKS:
    _BODY_START[_n] = _T._b_close_p_block
for _n in HEADINGS:
    _BODY_START[_n] = _T._b_heading
for _n in FORMATTING:
    _BODY_START[_n] = _T._b_formatting
for _n in ("caption", "col", "colgroup", "frame", "head", "tbody", "td", "tfoot", "th", "thead", "tr"):
    _BODY_START[_n] = _T._b_ignore
_BODY_START.update(
    {
        "pre": _T._b_pre,
        "listing": _T._b_pre,
        "form": _T._b_form,
        "li": _T._b_li,
        "dd": _T._b_li,
        "dt": _T._b_li,
        "plaintext": _T._b_plaintext,
        "button": _T._b_button,
        "a": _T._b_a,
        "nobr": _T._b_nobr,
        "applet": _T._b_applet,
        "marquee": _T._b_applet,
        "object": _T._b_applet,
        "table": _T._b_table,
        "area": _T._b_void,
        "br": _T._b_void,
        "embed": _T._b_void,
        "img": _T._b_void,
        "keygen": _T._b_void,
        "wbr": _T._b_void,
        "input": _T._b_input,
        "param": _T._b_param,
        "source": _T._b_param,
        "track": _T._b_param,
        "hr": _T._b_hr,
        "image": _T._b_image,
        "textarea": _T._b_textarea,
        "xmp": _T._b_xmp,
        "iframe": _T._b_iframe,
        "noembed": _T._b_noembed,
        "select": _T._b_select,
        "option": _T._b_option,
        "optgroup": _T._b_option,
        "rb": _T._b_rb,
        "rtc": _T._b_rb,
        "rp": _T._b_rp,
        "rt": _T._b_rp,
        "math": _T._b_math,
        "svg": _T._b_math,
    }
)
_BODY_END: Final[dict[str, Any]] = {
    "body": _T._be_body,
    "html": _T._be_html,
    "form": _T._be_form,
    "p": _T._be_p,
    "li": _T._be_li,
    "dd": _T._be_dd,
    "dt": _T._be_dd,
    "br": _T._be_br,
    "template": _T._be_template,
    "applet": _T._be_applet,
    "marquee": _T._be_applet,
    "object": _T._be_applet,
}
for _n in END_BLOCKS:
    _BODY_END[_n] = _T._be_block
for _n in HEADINGS:
    _BODY_END[_n] = _T._be_heading
for _n in FORMATTING:
    _BODY_END[_n] = _T._be_formatting
del _n

# End tags whose in-body handler does more than pop the current node when that
# node is an HTML element of the same name (the others: "any other end tag",
# blocks, headings, p, li, dd, dt).
_END_NOT_JUST_POP: Final = frozenset(
    n for n, h in _BODY_END.items() if h not in (_T._be_block, _T._be_heading, _T._be_p, _T._be_li, _T._be_dd)
)

# What start_text_end must check for an "in body" leaf element (0: not a leaf candidate).
_LEAF_NONE: Final = 0
_LEAF_PLAIN: Final = 1  # "any other start tag"
_LEAF_CLOSE_P: Final = 2  # closes a "p" in button scope first
_LEAF_HEADING: Final = 3  # also closes a heading that is the current node
_LEAF_LIST: Final = 4  # li/dd/dt: also closes open list items, clears frameset-ok
_LEAF_FORMATTING: Final = 5  # pushed to and popped from the active formatting elements
_LEAF_KIND: Final[dict[str, int]] = {}
for _n in _BODY_START.keys() | _BODY_END.keys() | FORMATTING:
    _LEAF_KIND[_n] = _LEAF_NONE  # given a kind below if it qualifies
for _n, _h in _BODY_START.items():
    if _h is _T._b_close_p_block:
        _LEAF_KIND[_n] = _LEAF_CLOSE_P
    elif _h is _T._b_heading:
        _LEAF_KIND[_n] = _LEAF_HEADING
    elif _h is _T._b_li:
        _LEAF_KIND[_n] = _LEAF_LIST
    elif _h is _T._b_formatting or _h is _T._b_a:
        _LEAF_KIND[_n] = _LEAF_FORMATTING
for _n in list(_LEAF_KIND):
    # The end tag must only pop the current node (formatting: and its list entry).
    if _n in _END_NOT_JUST_POP and _n not in FORMATTING:
        _LEAF_KIND[_n] = _LEAF_NONE
