"""Microdata (WHATWG HTML "Microdata") as a streaming consumer, in extruct's shape.

:class:`MicrodataConsumer` is the keep predicate and completion handler the
bounded sink drives (see :mod:`stream_mf2.microdata.consumer`);
:class:`MicrodataItem` is its event. ``docs/guides/microdata.md`` lists where
the output differs from extruct's and why.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stream_mf2.microdata.events import MicrodataEvent, MicrodataItem

if TYPE_CHECKING:
    from stream_mf2.microdata.consumer import MicrodataConsumer


def __getattr__(name: str) -> Any:
    # The consumer is imported when first asked for: importing the package for its
    # events (every parse does, for the event union) does not load it.
    if name == "MicrodataConsumer":
        from stream_mf2.microdata.consumer import MicrodataConsumer

        return MicrodataConsumer
    raise AttributeError(f"module 'stream_mf2.microdata' has no attribute {name!r}")


__all__ = ["MicrodataConsumer", "MicrodataEvent", "MicrodataItem"]
