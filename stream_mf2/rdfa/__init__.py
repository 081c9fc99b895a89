"""RDFa 1.1 (HTML+RDFa 1.1) as the page streams: a consumer of the bounded tree.

:class:`~stream_mf2.rdfa.consumer.RdfaConsumer` runs the RDFa processing
sequence as elements open (a placement observer) and emits
:class:`~stream_mf2.rdfa.events.RdfaTriple` values as they close;
:func:`~stream_mf2.rdfa.jsonld.to_extruct` turns a document's triples into
extruct's ``rdfa`` output. The package knows no I/O and no other consumer.
"""

from __future__ import annotations

from stream_mf2.rdfa.consumer import DEFAULT_MAX_RDFA_LIST_ITEMS, RdfaConsumer
from stream_mf2.rdfa.events import RdfaLiteral, RdfaTriple

__all__ = ["DEFAULT_MAX_RDFA_LIST_ITEMS", "RdfaConsumer", "RdfaLiteral", "RdfaTriple"]
