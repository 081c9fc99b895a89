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

from stream_mf2.html.dom import Element, Node, Text, is_ancestor, text_content
from stream_mf2.wpt._html import html_and_text, inner_html
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


def element_match(element: Element, place: Place, block: Block) -> dict[str, Any] | None:
    """The match object of ``block`` on ``element`` (at ``place``), or ``None`` if its pattern fails.

    The structural references (``ow:xpath``, ``ow:tagid``) are the caller's to check.
    """
    if block.pattern is None:
        html, raw = html_and_text(element)
        captures: dict[str, list[str]] | None = {}
    else:
        raw = text_content(element)
        captures = _pattern_captures(block, raw)
        if captures is None:
            return None
        html = inner_html(element)
    assert captures is not None
    if not place.cache:
        # The nested blocks' walks below ``element`` take their paths from this copy's (the
        # subtree is final: nothing moves in it while the match is made).
        place = frozen(place)
    xpath = place.xpath()  # (before the nested walks, whose places start from it)
    nested: list[dict[str, Any]] = []
    blocks = block.blocks
    together: list[int] = []
    paths: list[XPath] = []
    for i, b in enumerate(blocks):
        if b.xpath is not None and walkable(b.xpath):
            together.append(i)
            paths.append(b.xpath)
    found: list[list[Place]] | None = None
    if len(together) > 1:
        # The nested blocks' paths in one walk of the subtree, not one walk each.
        found = [[] for _ in blocks]
        for i, p in select_many(paths, element, place):
            found[together[i]].append(p)
    for i, b in enumerate(blocks):  # (a loop, not a comprehension: one frame less per nesting level)
        walked = found[i] if found is not None and b.xpath is not None and walkable(b.xpath) else None
        nested.append(_nested(b, element, place, walked))
    return {
        "xpath": xpath,
        "text": _squeeze(raw),
        "html": html,
        "attributes": dict(element.attrs),
        "captures": captures,
        "blocks": nested,
    }


def node_matches(element: Element, place: Place, block: Block) -> list[tuple[Node, dict[str, Any]]]:
    """The matches of ``block`` at ``element``, each with the node it is about: the element
    itself, or, when the block's path ends with ``text()`` or ``@name``, each text node
    child (in order) or the attribute (its element)."""
    final = block.xpath.final if block.xpath is not None else None
    if final is None:
        m = element_match(element, place, block)
        return [] if m is None else [(element, m)]
    values: list[tuple[Node, str, str]] = []
    if final == "text()":
        k = 0
        xpath = ""
        for c in element.children:
            if type(c) is Text:
                k += 1
                if k == 1:
                    xpath = place.xpath()
                values.append((c, f"{xpath}/text()[{k}]", c.data))
    else:
        value = element.attrs.get(final[1:])
        if value is not None:
            values.append((element, f"{place.xpath()}/{final}", value))
    out: list[tuple[Node, dict[str, Any]]] = []
    for node, xpath, raw in values:
        captures = _pattern_captures(block, raw)
        if captures is None:
            continue
        match = {
            "xpath": xpath,
            "text": _squeeze(raw),
            "html": None,
            "attributes": {},
            "captures": captures,
            "blocks": [_nested_text(b, raw) for b in block.blocks],
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
    return sorted(found, key=lambda pair: order.get(id(pair[0]), 0))


def _nested(block: Block, element: Element, place: Place, places: list[Place] | None = None) -> dict[str, Any]:
    """Resolve a nested block inside one match of its parent (``element`` at ``place``);
    ``places``: what its path selects there, when the caller has walked it already."""
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
        pairs.extend(node_matches(el, p, block))
        if pairs and not block.repeatable and not texts:
            break
    if texts:
        pairs = in_document_order(element, pairs)
    matches.extend(m for _, m in (pairs if block.repeatable else pairs[:1]))
    return out
