"""The bounded tree: a sink that keeps only what a consumer can still need.

:class:`~stream_mf2.html.bounded.sink.BoundedSink` drops every element a keep
predicate does not want as soon as it pops, and hands each completed kept
subtree to a callback; :class:`~stream_mf2.html.bounded.observed.ObservedSink`
also reports where each element is placed (for consumers that match paths,
such as Website Parse Templates). The engine knows no consumer: the predicate
and the callbacks are given by the core.
"""

from stream_mf2.html.bounded.observed import ObservedSink
from stream_mf2.html.bounded.sink import (
    DEFAULT_MAX_KEPT_NODES,
    DEFAULT_MAX_PREFIX_NODES,
    NESTED_EMPTY,
    NESTED_KEEP,
    NESTED_REMOVE,
    BoundedSink,
)

__all__ = [
    "DEFAULT_MAX_KEPT_NODES",
    "DEFAULT_MAX_PREFIX_NODES",
    "NESTED_EMPTY",
    "NESTED_KEEP",
    "NESTED_REMOVE",
    "BoundedSink",
    "ObservedSink",
]
