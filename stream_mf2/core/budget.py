"""Text budgets: the text a consumer lets the bounded sink store in one kept element.

The bounded sink stores the text of kept subtrees whole (text is bounded by
nothing else there). A consumer that keeps an element only for its text, and
bounds that text (the JSON-LD consumer's ``max_jsonld_chars``), gives a
:class:`TextBudget` as its ``text_budget``; the parser then builds the sink as
:class:`BudgetedSink` (or :class:`BudgetedObservedSink`) with the sink option
``text_budget``, and the sink asks the budget before it stores text in a
watched element. Past the budget the rest of that element's text is not stored
at all, so memory stays bounded while the element is open; the consumer knows
the element went over and says so in a note.

A whole leaf element with its text in one call (``append_leaf``, the sink's fast
path) whose text is longer than the budget's ``max_chars`` is sent through the
three calls it stands for (create, append the text, pop), so the same rule
applies: the result is the same in every chunking.

Both sink classes are the base class plus two overrides that hand the base
class's text call to one helper (:func:`_admit_text`, :func:`_admit_leaf`): the
budget is a constructor option of every bounded sink, so neither class has a
constructor of its own, and the plain sinks' text calls never look at it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from stream_mf2.html.bounded.observed import ObservedSink
from stream_mf2.html.bounded.sink import BoundedSink
from stream_mf2.html.bounded.textbudget import TextBudget
from stream_mf2.html.dom import Element, ParentNode

__all__ = ["BudgetedObservedSink", "BudgetedSink", "TextBudget"]

# The base classes' text calls, called directly (no super() object per text run).
_append_text = BoundedSink.append_text
_append_leaf = BoundedSink.append_leaf
_observed_append_text = ObservedSink.append_text
_observed_append_leaf = ObservedSink.append_leaf

_Sink = TypeVar("_Sink", bound=BoundedSink)


def _admit_text(sink: _Sink, parent: ParentNode, data: str, store: Callable[[_Sink, ParentNode, str], None]) -> None:
    """Store ``data`` in ``parent`` with ``store`` (the base class's ``append_text``): all of it, or
    what the sink's budget admits when ``parent`` is a watched element."""
    budget = sink.text_budget
    if budget is not None:
        watching = budget.watching
        if watching and type(parent) is Element and parent in watching:
            data = budget.admit(parent, data)
            if not data:
                return
    store(sink, parent, data)


def _admit_leaf(
    sink: _Sink,
    parent: ParentNode,
    name: str,
    namespace: str,
    attrs: dict[str, str],
    text: str,
    store: Callable[[_Sink, ParentNode, str, str, dict[str, str], str], None],
) -> None:
    """A leaf in one call with ``store`` (the base class's ``append_leaf``), or, when its text is
    longer than the budget allows any element, through the three calls it stands for, so that the
    sink's ``append_text`` asks the budget."""
    budget = sink.text_budget
    if budget is not None and len(text) > budget.max_chars:
        el = sink.create_element_in(parent, name, namespace, attrs)
        sink.append_text(el, text)
        sink.pop(el)
        return
    store(sink, parent, name, namespace, attrs, text)


class BudgetedSink(BoundedSink):
    """A :class:`~stream_mf2.html.bounded.BoundedSink` asking its ``text_budget`` (a
    :class:`TextBudget`) before it stores text in a watched element."""

    __slots__ = ()

    def append_text(self, parent: ParentNode, data: str) -> None:
        _admit_text(self, parent, data, _append_text)

    def append_leaf(self, parent: ParentNode, name: str, namespace: str, attrs: dict[str, str], text: str) -> None:
        _admit_leaf(self, parent, name, namespace, attrs, text, _append_leaf)


class BudgetedObservedSink(ObservedSink):
    """:class:`BudgetedSink` for the :class:`~stream_mf2.html.bounded.ObservedSink`."""

    __slots__ = ()

    def append_text(self, parent: ParentNode, data: str) -> None:
        _admit_text(self, parent, data, _observed_append_text)

    def append_leaf(self, parent: ParentNode, name: str, namespace: str, attrs: dict[str, str], text: str) -> None:
        _admit_leaf(self, parent, name, namespace, attrs, text, _observed_append_leaf)
