"""Head metadata in the same streaming pass: OpenGraph, Twitter cards, Dublin Core.

``Parser(syntaxes={"opengraph", "twitter", "dublincore"})`` (any of them, with
the other syntaxes or alone) yields an :class:`OpenGraphItem`, a
:class:`TwitterCardItem` and :class:`DublinCoreItem` events when ``<head>``
ends (:mod:`stream_mf2.metadata.consumer`). The result shapes of extruct's
``OpenGraphExtractor`` and ``DublinCoreExtractor`` come from
:func:`opengraph_result` and :func:`dublincore_result`.
"""

from __future__ import annotations

from stream_mf2.metadata.events import (
    DublinCoreItem,
    OpenGraphItem,
    TwitterCardItem,
    dublincore_result,
    opengraph_result,
    twitter_result,
)

__all__ = [
    "DublinCoreItem",
    "OpenGraphItem",
    "TwitterCardItem",
    "dublincore_result",
    "opengraph_result",
    "twitter_result",
]
