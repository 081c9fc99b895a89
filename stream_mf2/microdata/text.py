"""The text of a microdata property element, normalised the way extruct's is.

extruct gives an element's text through ``html_text``: it drops ``script``,
``style``, ``link`` and ``meta`` elements and comments (the text around a dropped
node joins up), collapses each run of text to single spaces, puts a space
between runs unless the next one starts with closing punctuation (or the
previous ends with ``(``), a line break around block elements (``div``, ``li``,
``br``, ...) and a blank line around bigger blocks (``p``, ``h1``-``h6``,
lists, ...), and trims the result. This module gives the same answer on the
HTML engine's tree, without recursion.

The one structural difference: a ``template`` element's contents are not its
children in the WHATWG tree (libxml2 parses them as children), so they have
no text here.
"""

from __future__ import annotations

import re
from typing import Final

from stream_mf2.html.dom import Element, Node, Text

__all__ = ["Work", "element_text"]

#: Elements whose text never counts (extruct's cleaner removes them with their content).
DROPPED: Final = frozenset(("script", "style", "link", "meta"))
#: A line break before and after these.
_LINE: Final = frozenset(
    (
        "article", "aside", "br", "dd", "details", "div", "dt", "fieldset", "figcaption",
        "footer", "form", "header", "hr", "legend", "li", "main", "nav", "table", "tr",
    )
)  # fmt: skip
#: A blank line before and after these.
_BLOCK: Final = frozenset(
    ("blockquote", "dl", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "ol", "p", "pre", "title", "ul")
)

_SPACES: Final = re.compile(r"\s+")
_ENDS_WITH_SPACE: Final = re.compile(r"\s$")
_CLOSING_FIRST: Final = re.compile(r'^[,:;.!?")]')
_OPENING_LAST: Final = re.compile(r"\($")

# What came last: a line break, a blank line, or text (the run as it was, unnormalised).
_AFTER_LINE: Final = 1
_AFTER_BLOCK: Final = 2
_AFTER_TEXT: Final = 0


class _Writer:
    """The chunks of the text so far and what the last one was."""

    __slots__ = ("chunks", "last", "last_text")

    def __init__(self) -> None:
        self.chunks: list[str] = []
        self.last = _AFTER_BLOCK
        self.last_text = ""

    def run(self, raw: str) -> None:
        """One run of text (adjacent text nodes, across dropped nodes, joined)."""
        text = _SPACES.sub(" ", raw.strip())
        if not text:
            return
        if self.last != _AFTER_TEXT:
            space = ""
        elif _ENDS_WITH_SPACE.search(self.last_text) or (
            not _CLOSING_FIRST.search(text) and not _OPENING_LAST.search(self.last_text)
        ):
            space = " "
        else:
            space = ""
        self.chunks.append(space)
        self.chunks.append(text)
        self.last = _AFTER_TEXT
        self.last_text = raw

    def boundary(self, name: str) -> None:
        """The start or end of an element called ``name``."""
        if self.last == _AFTER_BLOCK:
            return
        if name in _BLOCK:
            self.chunks.append("\n" if self.last == _AFTER_LINE else "\n\n")
            self.last = _AFTER_BLOCK
        elif name in _LINE:
            if self.last != _AFTER_LINE:
                self.chunks.append("\n")
            self.last = _AFTER_LINE


class Work:
    """A budget of nodes walked to build values, shared by one window's items.

    Nested property elements each read their whole subtree (and every ``itemref``
    to a target walks it again), which is quadratic in the nesting: past the
    budget such a walk stops, its value is ``""`` (or the target's properties are
    left out) and :attr:`starved` counts it, for a note.
    """

    __slots__ = ("left", "starved")

    def __init__(self, left: int) -> None:
        self.left = left
        self.starved = 0


def element_text(root: Element, work: Work | None = None) -> str:
    """The text of ``root`` as extruct's microdata extractor gives it (``""`` when
    ``work`` runs out on the way)."""
    if root.name in DROPPED:
        return ""
    if work is not None and work.left <= 0:
        work.starved += 1
        return ""
    steps = work.left if work is not None else 0
    out = _Writer()
    pending: list[str] = []  # text nodes not yet written (joined across dropped nodes)
    # (node, entering): an element is visited on the way in and on the way out
    stack: list[tuple[Node, bool]] = [(child, True) for child in reversed(root.children)]
    while stack:
        node, entering = stack.pop()
        if work is not None:
            steps -= 1
            if steps < 0:
                work.left = 0
                work.starved += 1
                return ""
        if type(node) is Text:
            pending.append(node.data)
            continue
        if not isinstance(node, Element) or node.name in DROPPED:
            continue  # a comment (or a dropped element): the text on each side joins
        if pending:
            out.run("".join(pending))
            pending.clear()
        out.boundary(node.name)
        if entering:
            stack.append((node, False))
            stack.extend((child, True) for child in reversed(node.children))
    if pending:
        out.run("".join(pending))
    if work is not None:
        work.left = steps
    return "".join(out.chunks).strip()
