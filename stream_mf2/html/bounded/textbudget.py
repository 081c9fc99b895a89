"""The text budget a bounded sink may be given: how much text it stores in one watched element.

The bounded sink stores the text of kept subtrees whole. A consumer that keeps an element only
for its text, and bounds that text, gives a :class:`TextBudget`; a sink that admits text
(:mod:`stream_mf2.core.budget`) asks it before it stores text in a watched element. The engine
knows only this question, not who answers it.
"""

from __future__ import annotations

from typing import Protocol

from stream_mf2.html.dom import Element

__all__ = ["TextBudget"]


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
