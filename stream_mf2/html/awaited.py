"""Kept elements a consumer waits for, and which of them a final subtree holds.

A consumer that keeps small elements (a JSON-LD ``<script>``, a ``<meta>``) reads each one
when the bounded sink hands it over. The element may come alone, or inside a bigger final
subtree another consumer kept (an ``<html class="h-entry">`` holds the head's metas), and
some never come: an element inside ``<template>`` contents, or in a subtree ``<frameset>``
removed, is not in the document's tree, so no hand-over will ever hold it.

:class:`Awaited` keeps the elements waited for in the order they were made (document order)
and, for each final subtree, takes out those it holds. Elements found out of the document
on the way are dropped and counted, so that later hand-overs do not look at them again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from stream_mf2.html.dom import Document, Element

__all__ = ["Awaited"]

_INSIDE: Final = 0
_ELSEWHERE: Final = 1
_OUT_OF_DOCUMENT: Final = 2


def _where(node: Element, root: Element | None) -> int:
    """Where ``node`` is: inside ``root`` (``None``: nowhere), elsewhere in the document, or
    out of it (template contents, or a subtree removed from the tree)."""
    parent = node.parent
    while parent is not None:
        if parent is root:
            return _INSIDE
        if type(parent) is Document:
            return _ELSEWHERE
        parent = parent.parent
    return _OUT_OF_DOCUMENT


def _has_elements(node: Element) -> bool:
    return any(type(child) is Element for child in node.children)


class Awaited:
    """The kept elements not handed over yet, in the order they were made."""

    __slots__ = ("_elements", "_on_dropped", "out_of_document")

    def __init__(self, on_dropped: Callable[[Element], object] | None = None) -> None:
        """``on_dropped`` is told of each element found out of the document."""
        self._elements: dict[Element, None] = {}
        self._on_dropped = on_dropped
        #: How many were found out of the document (never to be handed over) and dropped.
        self.out_of_document = 0

    def add(self, element: Element) -> None:
        """Wait for ``element``."""
        self._elements[element] = None

    def __len__(self) -> int:
        return len(self._elements)

    def clear(self) -> None:
        """Wait for nothing more."""
        self._elements.clear()

    def take_inside(self, root: Element) -> list[Element]:
        """The elements waited for that the final subtree ``root`` holds (``root`` itself
        included), in document order; they are no longer waited for."""
        elements = self._elements
        if not elements:
            return []
        if root in elements:
            del elements[root]
            return [root]
        if not _has_elements(root):
            # (a leaf another consumer kept: nothing waited for inside. Held hand-overs come
            # in batches, a head's metas and scripts interleaved: no scan per leaf)
            return []
        found: list[Element] = []
        for element in list(elements):
            where = _where(element, root)
            if where == _INSIDE:
                found.append(element)
                del elements[element]
            elif where == _OUT_OF_DOCUMENT:
                self._drop(element)
        return found

    def drop_out_of_document(self) -> None:
        """Stop waiting for the elements that are out of the document now."""
        elements = self._elements
        for element in [e for e in elements if _where(e, None) == _OUT_OF_DOCUMENT]:
            self._drop(element)

    def _drop(self, element: Element) -> None:
        del self._elements[element]
        self.out_of_document += 1
        if self._on_dropped is not None:
            self._on_dropped(element)
