"""Matches that wait for ``[last()]``: kept in document order per block until decided.

A path step ``li[last()]`` holds for an element only if no later sibling of the
same name (any element, for ``*[last()]``) arrives before its parent closes.
While streaming, the matcher passes such a step on a *condition* (the place,
see :data:`~stream_mf2.wpt._paths.Cond`); a match whose element is final is
computed at once (its subtree is freed after the hand-over) and queued here
with its alternative condition sets (a ``//`` path may reach an element along
several ways; one that holds is enough).

A condition fails as soon as a later sibling of its kind is placed, and holds
once its parent has closed. A block's queue is emitted from its head while the
head is decided, so a block's matches still come out in document order; a
failed entry is dropped (also from the tail, as soon as a newer entry is
queued, so a long list of candidates that each lose to the next one keeps
one entry).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from stream_mf2.wpt._paths import Cond, is_last_now

__all__ = ["Pending", "PendingQueue"]


class Pending:
    """Matches of one block on one element, waiting for conditions."""

    __slots__ = ("alts", "matches")

    def __init__(self, matches: list[dict[str, Any]], alts: list[tuple[Cond, ...]]) -> None:
        self.matches = matches
        #: alternative condition sets: the matches stand if every condition of one set holds
        self.alts = alts


class PendingQueue:
    """The waiting matches of one block, in document order."""

    __slots__ = ("entries",)

    def __init__(self) -> None:
        self.entries: deque[Pending] = deque()

    def __bool__(self) -> bool:
        return bool(self.entries)

    def push(self, entry: Pending, closed: Callable[[Cond], bool]) -> None:
        entries = self.entries
        while entries and status(entries[-1], closed, False) is False:
            entries.pop()
        entries.append(entry)

    def ready(self, closed: Callable[[Cond], bool], final: bool) -> list[list[dict[str, Any]]]:
        """Take the decided entries at the head: the matches of those that hold."""
        out: list[list[dict[str, Any]]] = []
        entries = self.entries
        while entries:
            st = status(entries[0], closed, final)
            if st is None:
                break
            entry = entries.popleft()
            if st:
                out.append(entry.matches)
        return out

    def clear(self) -> None:
        self.entries.clear()


def status(entry: Pending, closed: Callable[[Cond], bool], final: bool) -> bool | None:
    """``True``: one alternative holds; ``False``: none can; ``None``: not known yet.
    (``final``: the document ended, so every parent is closed.)"""
    undecided = False
    for conds in entry.alts:
        state: bool | None = True
        for c in conds:
            if not is_last_now(c):
                state = False
                break
            if not final and not closed(c):
                state = None
        if state is True:
            return True
        if state is None:
            undecided = True
    return None if undecided else False
