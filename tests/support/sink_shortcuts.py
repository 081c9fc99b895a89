"""A bounded sink with its debug switch on: every shortcut asserted against its reference walk.

:func:`checked_sink` makes a :class:`BoundedSink` with ``check_shortcuts=True``:
each time the sink takes a shortcut (a remembered climb, a proxy comparison, a
cached answer) it asserts the answer against the plain walk of
:mod:`stream_mf2.html.bounded.reference` and counts it in ``sink.checks``.
"""

from __future__ import annotations

from collections.abc import Callable

from stream_mf2.html.bounded import BoundedSink
from stream_mf2.html.dom import Element


def checked_sink(
    keep: Callable[[Element], bool],
    on_nested: Callable[[Element, Element, bool], int] | None = None,
    on_complete: Callable[[Element], bool | None] | None = None,
    inline_climbs: tuple[int, int] | None = None,
    max_pending: int | None = None,
) -> BoundedSink:
    """A sink checking its shortcuts (with ``on_nested``: the nested hand-over, every nested
    kept element watched)."""
    watch = None if on_nested is None else (lambda el, top: True)
    complete = on_complete if on_complete is not None else (lambda el: True)
    sink = BoundedSink(keep, complete, on_nested=on_nested, watch_nested=watch, check_shortcuts=True)
    if inline_climbs is not None or max_pending is not None:
        # (the defaults of the sink's own, read back from the first one)
        sink = BoundedSink(
            keep,
            complete,
            on_nested=on_nested,
            watch_nested=watch,
            check_shortcuts=True,
            inline_climbs=inline_climbs if inline_climbs is not None else sink.inline_climbs,
            max_pending=max_pending if max_pending is not None else sink.max_pending,
        )
    return sink
