"""A block match's object: the element's (or text node's, or attribute's) values and its
nested blocks, built when the element is final (``WptConsumer.complete``).

``{"xpath", "text", "html", "attributes", "captures", "blocks"}``: ``text`` is the node's
text with ASCII whitespace collapsed (U+00A0 is text in HTML); a pattern sees the text as
it is. Nested blocks are resolved inside the element's (final) subtree with the same path
automaton as the streaming matcher (:func:`stream_mf2.wpt._paths.select`).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise
from typing import Any, TypeVar

from stream_mf2.html.dom import HTML_NS, Element, Node, Text, is_ancestor, text_content
from stream_mf2.html.serialize import VOID_ELEMENTS
from stream_mf2.wpt._html import Selection, html_and_text, inner_html, marked, selecting
from stream_mf2.wpt._paths import Place, descendants, frozen, select, select_many, walkable
from stream_mf2.wpt.model import Block, XPath

__all__ = ["element_match", "in_document_order", "node_matches", "text_match"]

_T = TypeVar("_T")


def _pattern_captures(block: Block, text: str) -> dict[str, list[str]] | None:
    """Captures of ``block``'s pattern over ``text`` (every match), or ``None`` if it does not occur."""
    pattern = block.pattern
    if pattern is None:
        return {}
    found = False
    out: dict[str, list[str]] = {}
    for m in pattern.regex.finditer(text):
        found = True
        for k, v in pattern.captures(m).items():
            out.setdefault(k, []).extend(v)
    return out if found else None


def text_match(text: str, captures: dict[str, list[str]], block: Block) -> dict[str, Any]:
    return {
        "xpath": None,
        "text": text,
        "html": None,
        "attributes": {},
        "captures": captures,
        "blocks": [_nested_text(b, text) for b in block.blocks],
    }


def _nested_text(block: Block, text: str) -> dict[str, Any]:
    """A nested block inside a text match: only patterns apply (there is no element)."""
    out = _header(block)
    if block.pattern is not None and block.tagid is None and block.xpath is None:
        for m in block.pattern.regex.finditer(text):
            out["matches"].append(text_match(m.group(0), block.pattern.captures(m), block))
            if not block.repeatable:
                break
    return out


def _header(block: Block) -> dict[str, Any]:
    return {
        "concept": block.concept,
        "description": block.description,
        "ref": block.ref(),
        "repeatable": block.repeatable,
        "matches": [],
    }


def _squeeze(text: str) -> str:
    """``text`` with ASCII whitespace collapsed to one space and trimmed (U+00A0 is text)."""
    # (str.replace runs in C: several times faster than a regex substitution on long texts;
    # str.split() would also split at U+00A0 and the other Unicode spaces, which HTML keeps)
    if "\n" in text:
        text = text.replace("\n", " ")
    if "\t" in text:
        text = text.replace("\t", " ")
    if "\r" in text:
        text = text.replace("\r", " ")
    if "\f" in text:
        text = text.replace("\f", " ")
    while "  " in text:
        text = text.replace("  ", " ")
    return text.strip(" ")


#: per block (by id, with the block, so the id stays its own): :func:`_walked`
_WALKED: dict[int, tuple[Block, tuple[list[int], list[XPath], list[int], list[str | None]]]] = {}


def _walked(block: Block) -> tuple[list[int], list[XPath], list[int], list[str | None]]:
    """The nested blocks of ``block`` whose paths a walk follows together (:func:`walkable`):
    their indices, paths, and :class:`~stream_mf2.wpt._html.Selection`'s ``marking`` and
    ``tagids``; worked out once per block (the same template is applied page after page)."""
    got = _WALKED.get(id(block))
    if got is not None and got[0] is block:
        return got[1]
    together: list[int] = []
    paths: list[XPath] = []
    marking: list[int] = []
    tagids: list[str | None] = []
    for i, b in enumerate(block.blocks):
        if b.xpath is not None and walkable(b.xpath):
            together.append(i)
            paths.append(b.xpath)
            # which selected elements get their (html, text) pair cut from the walk: none for a
            # path ending with text() or @name, every one for a repeatable block, else the first
            marking.append(0 if b.xpath.final is not None else 1 if b.repeatable else 2)
            tagids.append(b.tagid)
    if len(_WALKED) >= 1024:
        _WALKED.clear()  # bounded: a run with many templates works them out again
    _WALKED[id(block)] = (block, (together, paths, marking, tagids))
    return together, paths, marking, tagids


def element_match(
    element: Element, place: Place, block: Block, spans: dict[Element, tuple[str, str]] | None = None
) -> dict[str, Any] | None:
    """The match object of ``block`` on ``element`` (at ``place``), or ``None`` if its pattern fails.

    The structural references (``ow:xpath``, ``ow:tagid``) are the caller's to check.
    ``spans``: the (html, text) pairs of elements cut from the walk of an enclosing match
    (:func:`~stream_mf2.wpt._html.marked`), used instead of walking ``element`` again.
    """
    got = spans.get(element) if spans is not None else None
    captures: dict[str, list[str]] | None = {}
    if block.pattern is not None:
        raw = got[1] if got is not None else text_content(element)
        captures = _pattern_captures(block, raw)
        if captures is None:
            return None
    assert captures is not None
    if not place.cache:
        # The nested blocks' walks below ``element`` take their paths from this copy's (the
        # subtree is final: nothing moves in it while the match is made).
        place = frozen(place)
    xpath = place.xpath()  # (before the nested walks, whose places start from it)
    blocks = block.blocks
    together, paths, marking, tagids = _walked(block)
    found: list[list[Place] | None] = [None] * len(blocks)
    void = element.namespace == HTML_NS and element.name in VOID_ELEMENTS
    if together and got is None and not void and element.template_contents is None:
        # The nested blocks' paths followed in the walk that writes the element's HTML: one
        # walk of the subtree, the nested element matches' pairs cut from it.
        selection = Selection(paths, marking, tagids)
        cut = selecting(element, place, selection)
        if not selection.incomplete:
            for i in together:
                found[i] = []
            for k, p in selection.found:
                got_k = found[together[k]]
                assert got_k is not None
                got_k.append(p)
            html, walked = cut[element]
            if block.pattern is None:
                raw = walked
            nested: list[dict[str, Any]] = []
            for i, b in enumerate(blocks):
                nested.append(_nested(b, element, place, found[i], cut))
            return _element_object(xpath, raw, html, element, captures, nested)
        # (a path into the children of a template or void element: the walks below)
        found = [None] * len(blocks)
    # What the nested blocks' paths select, found before the element's own HTML is written:
    # the nested element matches are cut from that one walk (each subtree serialised once).
    if len(together) > 1:
        # The nested blocks' paths in one walk of the subtree, not one walk each.
        for i in together:
            found[i] = []
        for i, p in select_many(paths, element, place):
            got_i = found[together[i]]
            assert got_i is not None
            got_i.append(p)
    elif together and blocks[together[0]].repeatable:
        found[together[0]] = list(select(paths[0], element, place))
    marks: set[Element] | None = None
    if not (element.namespace == HTML_NS and element.name in VOID_ELEMENTS) and element.template_contents is None:
        for i, b in enumerate(blocks):
            places = found[i]
            if places and b.xpath is not None and b.xpath.final is None:
                for p in places:
                    el = p.element
                    if (
                        el is not None
                        and el.template_contents is None
                        and not (el.namespace == HTML_NS and el.name in VOID_ELEMENTS)
                    ):
                        if marks is None:
                            marks = set()
                        marks.add(el)
    inner: dict[Element, tuple[str, str]] | None = None
    if marks is not None:
        inner = marked(element, marks)
        html, walked = inner[element]
        if block.pattern is None:
            raw = walked
    elif got is not None:
        html = got[0]
        if block.pattern is None:
            raw = got[1]
    elif block.pattern is None:
        html, raw = html_and_text(element)
    else:
        html = inner_html(element)
    nested = []
    for i, b in enumerate(blocks):  # (a loop, not a comprehension: one frame less per nesting level)
        nested.append(_nested(b, element, place, found[i], inner))
    return _element_object(xpath, raw, html, element, captures, nested)


def _element_object(
    xpath: str,
    raw: str,
    html: str,
    element: Element,
    captures: dict[str, list[str]],
    nested: list[dict[str, Any]],
) -> dict[str, Any]:
    """An element match as the output has it (``raw``: the element's text before squeezing)."""
    return {
        "xpath": xpath,
        "text": _squeeze(raw),
        "html": html,
        "attributes": dict(element.attrs),
        "captures": captures,
        "blocks": nested,
    }


def node_matches(
    element: Element, place: Place, block: Block, spans: dict[Element, tuple[str, str]] | None = None
) -> list[tuple[Node, dict[str, Any]]]:
    """The matches of ``block`` at ``element``, each with the node it is about: the element
    itself, or, when the block's path ends with ``text()`` or ``@name``, each text node
    child (in order) or the attribute (its element)."""
    final = block.xpath.final if block.xpath is not None else None
    if final is None:
        m = element_match(element, place, block, spans)
        return [] if m is None else [(element, m)]
    if final != "text()":
        # ``@name``: at most one match, written here (the usual nested block of a crawler's
        # template: a link's @href, a time's @datetime)
        value = element.attrs.get(final[1:])
        if value is None:
            return []
        captures = _pattern_captures(block, value) if block.pattern is not None else {}
        if captures is None:
            return []
        inner: list[dict[str, Any]] = []
        for b in block.blocks:
            inner.append(_nested_text(b, value))
        return [
            (
                element,
                {
                    "xpath": f"{place.xpath()}/{final}",
                    "text": _squeeze(value),
                    "html": None,
                    "attributes": {},
                    "captures": captures,
                    "blocks": inner,
                },
            )
        ]
    # text(): each text node child
    values: list[tuple[Node, str, str]] = []
    k = 0
    xpath = ""
    for c in element.children:
        if type(c) is Text:
            k += 1
            if k == 1:
                xpath = place.xpath()
            values.append((c, f"{xpath}/text()[{k}]", c.data))
    out: list[tuple[Node, dict[str, Any]]] = []
    for node, xpath, raw in values:
        captures = _pattern_captures(block, raw) if block.pattern is not None else {}
        if captures is None:
            continue
        nested: list[dict[str, Any]] = []
        for b in block.blocks:  # (a loop: no comprehension's frame for the usual none)
            nested.append(_nested_text(b, raw))
        match = {
            "xpath": xpath,
            "text": _squeeze(raw),
            "html": None,
            "attributes": {},
            "captures": captures,
            "blocks": nested,
        }
        out.append((node, match))
    return out


def in_document_order(root: Node, found: list[tuple[Node, _T]]) -> list[tuple[Node, _T]]:
    """``found`` (nodes inside ``root`` or ``root``, each element's own in order) sorted in
    document order: text nodes of an element interleave with its descendants' (``text()``)."""
    if len(found) < 2:
        return found
    # Already in order unless an element's text nodes meet a descendant's: the elements come
    # in document order, and a subtree is contiguous in it, so a nesting shows between neighbours.
    owners = [n.parent if type(n) is Text else n for n, _ in found]
    if not any(a is not b and type(a) is Element and b is not None and is_ancestor(a, b) for a, b in pairwise(owners)):
        return found
    order: dict[int, int] = {id(root): 0}
    i = 0
    stack: list[Node] = [root]
    while stack:
        node = stack.pop()
        i += 1
        order[id(node)] = i
        if type(node) is Element and node.children:
            stack.extend(reversed(node.children))
    # (no sort key function: a lambda is a closure, a reference cycle per call once compiled;
    # the index keeps the sort stable)
    keyed = sorted([(order.get(id(pair[0]), 0), i) for i, pair in enumerate(found)])
    return [found[i] for _, i in keyed]


def _nested(
    block: Block,
    element: Element,
    place: Place,
    places: list[Place] | None = None,
    spans: dict[Element, tuple[str, str]] | None = None,
) -> dict[str, Any]:
    """Resolve a nested block inside one match of its parent (``element`` at ``place``);
    ``places``: what its path selects there, when the caller has walked it already;
    ``spans``: the elements' pairs cut from the parent's walk (:func:`element_match`)."""
    out = _header(block)
    matches: list[dict[str, Any]] = out["matches"]
    if block.tagid is None and block.xpath is None:
        return _nested_text(block, text_content(element))
    xpath = block.xpath
    # (the id, if given with a path, is tested below)
    found: Iterable[Place]
    if places is not None:
        found = places
    else:
        found = descendants(element, place) if xpath is None else select(xpath, element, place)
    texts = xpath is not None and xpath.final == "text()"
    pairs: list[tuple[Node, dict[str, Any]]] = []
    for p in found:
        el = p.element
        assert el is not None
        if block.tagid is not None and el.attrs.get("id") != block.tagid:
            continue
        pairs.extend(node_matches(el, p, block, spans))
        if pairs and not block.repeatable and not texts:
            break
    if texts:
        pairs = in_document_order(element, pairs)
    for _, m in pairs if block.repeatable else pairs[:1]:
        matches.append(m)
    return out
