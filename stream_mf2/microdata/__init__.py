"""Microdata (WHATWG HTML "Microdata") as a streaming consumer, in extruct's shape.

:class:`MicrodataConsumer` is the keep predicate and completion handler the
bounded sink drives (see :mod:`stream_mf2.microdata.consumer`);
:class:`MicrodataItem` is its event. ``docs/guides/microdata.md`` lists where
the output differs from extruct's and why.
"""

from __future__ import annotations

from stream_mf2.microdata.consumer import MicrodataConsumer
from stream_mf2.microdata.events import MicrodataEvent, MicrodataItem

__all__ = ["MicrodataConsumer", "MicrodataEvent", "MicrodataItem"]
