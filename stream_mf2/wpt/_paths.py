"""Where an element is: the chain of (name, position) steps from the root, and XPath tests on it.

A :class:`Place` is made for each element as it is placed (streaming) or
walked (inside a kept subtree). It links to its parent's place, so a path costs
nothing until it is needed, and a move (the adoption agency algorithm) updated
on one place is seen by every place below it.
"""

from __future__ import annotations

from collections.abc import Iterator

from stream_mf2.html.dom import HTML_NS, Element, ParentNode
from stream_mf2.wpt.model import Step, XPath

__all__ = ["Place", "descendants", "path_matches", "step_matches"]


class Place:
    """An element's place: parent place, name, 1-based position among same-name
    element siblings (``pos``) and among all element siblings (``any_pos``)."""

    __slots__ = ("any_pos", "counts", "element", "n", "name", "parent", "pos", "states")

    def __init__(self, parent: Place | None, element: Element | None, name: str, pos: int, any_pos: int) -> None:
        self.parent = parent
        self.element = element
        self.name = name
        self.pos = pos
        self.any_pos = any_pos
        #: element children placed so far, by name, and in all
        self.counts: dict[str, int] | None = None
        self.n = 0
        #: streaming matcher states: (xpath index, next step index)
        self.states: tuple[tuple[int, int], ...] = ()

    def child(self, element: Element) -> Place:
        """A place for a new last element child ``element`` (counts it)."""
        counts = self.counts
        if counts is None:
            counts = self.counts = {}
        name = element.name
        pos = counts.get(name, 0) + 1
        counts[name] = pos
        self.n += 1
        return Place(self, element, name, pos, self.n)

    def uncount(self, name: str) -> None:
        """A child called ``name`` moved away (it was the last one: it was open)."""
        counts = self.counts
        if counts and counts.get(name, 0) > 0:
            counts[name] -= 1
        if self.n > 0:
            self.n -= 1

    def chain(self) -> list[Place]:
        """The places from the root's first element down to this one."""
        out: list[Place] = []
        p: Place | None = self
        while p is not None and p.element is not None:
            out.append(p)
            p = p.parent
        out.reverse()
        return out

    def xpath(self) -> str:
        """The full canonical XPath, every step with its position: ``/html[1]/body[1]/div[2]``."""
        return "".join(f"/{p.name}[{p.pos}]" for p in self.chain())


def step_matches(step: Step, place: Place) -> bool:
    """Does ``place`` satisfy one child ``step``?"""
    el = place.element
    assert el is not None
    if step.name is not None:
        name = place.name
        if name != step.name and name.lower() != step.name:
            return False
        if step.position is not None and place.pos != step.position:
            return False
    elif step.position is not None and place.any_pos != step.position:
        return False
    if step.attr is not None:
        key, value = step.attr
        if el.attrs.get(key) != value:
            return False
    return True


def _up(steps: tuple[Step, ...], place: Place) -> Place | None:
    """Match ``steps`` upwards from ``place`` (last step first); the place above the first step, or ``None``."""
    p: Place | None = place
    for i in range(len(steps) - 1, -1, -1):
        if p is None or p.element is None or not step_matches(steps[i], p):
            return None
        p = p.parent
    return p


def path_matches(xpath: XPath, place: Place, context: Place | None = None) -> bool:
    """Does ``xpath`` select the element at ``place``? (``context``: for relative paths.)

    Walks up as many places as the path has steps, so the cost does not grow
    with the depth of the element.
    """
    top = _up(xpath.steps, place)
    if top is None:
        return False
    if xpath.anchor is not None:
        el = top.element
        return el is not None and el.attrs.get("id") == xpath.anchor
    if xpath.absolute:
        return top.element is None  # the document
    return context is not None and top.element is context.element


def descendants(root: ParentNode, place: Place, max_depth: int | None = None) -> Iterator[Place]:
    """Places of the elements below ``root`` (whose place is ``place``), in document order,
    at most ``max_depth`` levels down.

    Template contents are not children in the DOM, so they are not walked.
    """
    limit = max_depth if max_depth is not None else -1
    stack: list[tuple[list[Element], int, Place, int]] = []
    kids = [c for c in root.children if type(c) is Element]
    # A fresh copy: the walk counts children itself (``place`` may hold streaming counts).
    stack.append((kids, 0, Place(place.parent, place.element, place.name, place.pos, place.any_pos), 1))
    while stack:
        kids, i, parent, depth = stack.pop()
        if i >= len(kids):
            continue
        el = kids[i]
        stack.append((kids, i + 1, parent, depth))
        p = parent.child(el)
        yield p
        if depth != limit:
            sub = [c for c in el.children if type(c) is Element]
            if sub:
                stack.append((sub, 0, p, depth + 1))


def is_html(el: Element) -> bool:
    """Is ``el`` an HTML element (the namespace XPath names usually mean)?"""
    return el.namespace == HTML_NS
