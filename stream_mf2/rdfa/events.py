"""RDFa events: one :class:`RdfaTriple` per triple, as the elements that complete it close.

Subjects and IRI objects are strings: an IRI, or a blank node written ``_:label``
(labels are unique within one document and mean nothing across documents). A
literal object is an :class:`RdfaLiteral`. :mod:`stream_mf2.rdfa.jsonld` turns a
document's triples into extruct's ``rdfa`` output.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["RdfaLiteral", "RdfaTriple"]


@dataclass(frozen=True, slots=True)
class RdfaLiteral:
    """A literal: its lexical ``value``, and a ``datatype`` IRI or a ``language`` tag (or neither)."""

    value: str
    datatype: str | None = None
    language: str | None = None


@dataclass(frozen=True, slots=True)
class RdfaTriple:
    """One RDF triple found by the RDFa processing of the page.

    ``subject``: an IRI or ``_:label``; ``predicate``: an IRI; ``object``: an IRI,
    ``_:label`` or an :class:`RdfaLiteral`.
    """

    subject: str
    predicate: str
    object: str | RdfaLiteral
