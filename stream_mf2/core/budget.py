"""Text budgets: the text a consumer lets the bounded sink store in one kept element.

The bounded sink stores the text of kept subtrees whole (text is bounded by
nothing else there). A consumer that keeps an element only for its text, and
bounds that text (the JSON-LD consumer's ``max_jsonld_chars``), gives a
:class:`TextBudget` as its ``text_budget``; the parser then builds the sink as
:class:`BudgetedSink` (or :class:`BudgetedObservedSink`), which asks the budget
before it stores text in a watched element. Past the budget the rest of that
element's text is not stored at all, so memory stays bounded while the element
is open; the consumer knows the element went over and says so in a note.

A whole leaf element with its text in one call (``append_leaf``, the sink's fast
path) whose text is longer than the budget's ``max_chars`` is sent through the
three calls it stands for (create, append the text, pop), so the same rule
applies: the result is the same in every chunking.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from stream_mf2.html.bounded.observed import ObservedSink, PlacementObserver
from stream_mf2.html.bounded.sink import DEFAULT_MAX_KEPT_NODES, DEFAULT_MAX_PREFIX_NODES, BoundedSink
from stream_mf2.html.dom import Element, ParentNode

__all__ = ["BudgetedObservedSink", "BudgetedSink", "TextBudget"]

# The base classes' methods, called directly (no super() object per text run).
_append_text = BoundedSink.append_text
_append_leaf = BoundedSink.append_leaf
_observed_append_text = ObservedSink.append_text
_observed_append_leaf = ObservedSink.append_leaf


class TextBudget(Protocol):
    """What a budgeted sink asks a consumer about the text of the elements it watches."""

    @property
    def max_chars(self) -> int:
        """The most text stored in one watched element."""
        ...

    @property
    def watching(self) -> dict[Element, int]:
        """The watched elements (kept, open) -> the characters stored in each so far."""
        ...

    def admit(self, element: Element, data: str) -> str:
        """The part of ``data`` (text for the watched ``element``) to store: all of it, the
        part within the budget, or ``""``; the budget notes an element that went over."""
        ...


def _admitted(budget: TextBudget, parent: ParentNode, data: str) -> str:
    watching = budget.watching
    if watching and type(parent) is Element and parent in watching:
        return budget.admit(parent, data)
    return data


class BudgetedSink(BoundedSink):
    """A :class:`~stream_mf2.html.bounded.BoundedSink` asking a :class:`TextBudget` before it
    stores text in a watched element."""

    __slots__ = ("budget",)

    def __init__(
        self,
        keep: Callable[[Element], bool],
        on_complete: Callable[[Element], bool | None],
        budget: TextBudget,
        *,
        max_kept_nodes: int = DEFAULT_MAX_KEPT_NODES,
        max_prefix_nodes: int = DEFAULT_MAX_PREFIX_NODES,
        on_nested: Callable[[Element, Element, bool], int] | None = None,
        watch_nested: Callable[[Element, Element], bool] | None = None,
    ) -> None:
        super().__init__(
            keep,
            on_complete,
            max_kept_nodes=max_kept_nodes,
            max_prefix_nodes=max_prefix_nodes,
            on_nested=on_nested,
            watch_nested=watch_nested,
        )
        self.budget = budget

    def append_text(self, parent: ParentNode, data: str) -> None:
        data = _admitted(self.budget, parent, data)
        if data:
            _append_text(self, parent, data)

    def append_leaf(self, parent: ParentNode, name: str, namespace: str, attrs: dict[str, str], text: str) -> None:
        if len(text) > self.budget.max_chars:
            el = self.create_element_in(parent, name, namespace, attrs)
            self.append_text(el, text)
            self.pop(el)
            return
        _append_leaf(self, parent, name, namespace, attrs, text)


class BudgetedObservedSink(ObservedSink):
    """:class:`BudgetedSink` for the :class:`~stream_mf2.html.bounded.ObservedSink`."""

    __slots__ = ("budget",)

    def __init__(
        self,
        keep: Callable[[Element], bool],
        on_complete: Callable[[Element], bool | None],
        observer: PlacementObserver,
        budget: TextBudget,
        *,
        max_kept_nodes: int = DEFAULT_MAX_KEPT_NODES,
        max_prefix_nodes: int = DEFAULT_MAX_PREFIX_NODES,
        on_nested: Callable[[Element, Element, bool], int] | None = None,
        watch_nested: Callable[[Element, Element], bool] | None = None,
    ) -> None:
        super().__init__(
            keep,
            on_complete,
            observer,
            max_kept_nodes=max_kept_nodes,
            max_prefix_nodes=max_prefix_nodes,
            on_nested=on_nested,
            watch_nested=watch_nested,
        )
        self.budget = budget

    def append_text(self, parent: ParentNode, data: str) -> None:
        data = _admitted(self.budget, parent, data)
        if data:
            _observed_append_text(self, parent, data)

    def append_leaf(self, parent: ParentNode, name: str, namespace: str, attrs: dict[str, str], text: str) -> None:
        if len(text) > self.budget.max_chars:
            el = self.create_element_in(parent, name, namespace, attrs)
            self.append_text(el, text)
            self.pop(el)
            return
        _observed_append_leaf(self, parent, name, namespace, attrs, text)
