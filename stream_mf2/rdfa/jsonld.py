"""A document's RDFa triples as extruct's ``rdfa`` output (expanded JSON-LD, flattened).

extruct serialises pyRdfa3's graph with rdflib's JSON-LD serialiser, expanded
(no context), and :func:`to_extruct` builds the same shape from the triples:
a list of node objects, one per subject that is an IRI, or a blank node that
is not the object of any triple (those are added where they are referred to),
each ``{"@id": ..., "@type": [...], predicate: [value, ...]}``, where a value is
``{"@id": iri-or-blank-node}``, ``{"@value": v}``, ``{"@value": v, "@language": l}``,
``{"@value": v, "@type": datatype}`` or ``{"@list": [value, ...]}`` (an RDF
collection: the ``rdf:first``/``rdf:rest`` cells are not nodes of their own).
Duplicate triples count once. Nodes, and values under a predicate, come in the
order the triples came (rdflib's order is its hash order, so extruct's varies).

Typed values are written as rdflib writes them (:func:`extruct_value`): ``xsd:integer``,
``xsd:double`` and ``xsd:boolean`` as JSON numbers and booleans, ``xsd:dateTime``,
``xsd:date`` and ``xsd:time`` in their canonical form (``12:30`` is ``12:30:00``, ``Z`` is
``+00:00``); a value that is not of its type's form stays as written. The triples
themselves keep the page's lexical forms.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, time
from typing import Any, Final

from stream_mf2.rdfa.context import RDF, XSD
from stream_mf2.rdfa.events import RdfaLiteral, RdfaTriple

__all__ = ["extruct_result", "extruct_value", "to_extruct"]

_TYPE: Final = RDF + "type"
_FIRST: Final = RDF + "first"
_REST: Final = RDF + "rest"
_NIL: Final = RDF + "nil"


def extruct_value(value: str, datatype: str) -> str | int | float | bool:
    """The JSON value rdflib's serialiser writes for a literal of ``datatype`` (see the module docstring)."""
    try:
        if datatype == XSD + "integer":
            return int(value)
        if datatype == XSD + "double":
            return float(value)
        if datatype == XSD + "boolean":
            return value.lower() in ("true", "1")
        if datatype == XSD + "dateTime":
            return datetime.fromisoformat(value).isoformat()
        if datatype == XSD + "date":
            return date.fromisoformat(value).isoformat()
        if datatype == XSD + "time":
            return time.fromisoformat(value).isoformat()
    except ValueError:
        pass
    return value


class _Graph:
    __slots__ = ("nodes", "objects", "out", "subjects")

    def __init__(self, triples: Iterable[RdfaTriple]) -> None:
        seen: set[RdfaTriple] = set()
        self.subjects: dict[str, list[tuple[str, str | RdfaLiteral]]] = {}
        self.objects: set[str] = set()
        for t in triples:
            if t in seen:
                continue
            seen.add(t)
            self.subjects.setdefault(t.subject, []).append((t.predicate, t.object))
            if isinstance(t.object, str):
                self.objects.add(t.object)
        self.nodes: dict[str, dict[str, Any]] = {}

    def collection(self, head: str) -> list[str | RdfaLiteral] | None:
        """The members of the RDF list starting at ``head``, or ``None`` if it is not a well-formed one."""
        members: list[str | RdfaLiteral] = []
        chain: set[str] = set()
        cell = head
        while True:
            if cell == _NIL:
                return members
            if not cell.startswith("_:") or cell in chain:
                return None
            chain.add(cell)
            first: str | RdfaLiteral | None = None
            rest: str | None = None
            for p, o in self.subjects.get(cell, ()):
                if p == _FIRST and first is None:
                    first = o
                elif p == _REST and rest is None and isinstance(o, str):
                    rest = o
                elif not (p == _TYPE and o == RDF + "List"):
                    return None
            if first is None or rest is None:
                return None
            members.append(first)
            cell = rest

    def value(self, o: str | RdfaLiteral) -> dict[str, Any]:
        if isinstance(o, RdfaLiteral):
            if o.datatype is not None:
                return {"@type": o.datatype, "@value": extruct_value(o.value, o.datatype)}
            if o.language:
                return {"@language": o.language, "@value": o.value}
            return {"@value": o.value}
        if o == _NIL or (o.startswith("_:") and any(p == _FIRST for p, _ in self.subjects.get(o, ()))):
            members = self.collection(o)
            if members is not None:
                return {"@list": [self.value(m) for m in members]}
        if o.startswith("_:"):
            self.node(o)
        return {"@id": o}

    def node(self, s: str) -> None:
        if s in self.nodes or s not in self.subjects:
            return
        node: dict[str, Any] = {"@id": s}
        self.nodes[s] = node
        for p, o in self.subjects[s]:
            if p == _TYPE and isinstance(o, str) and not o.startswith("_:"):
                node.setdefault("@type", []).append(o)
            else:
                node.setdefault(p, []).append(self.value(o))


def to_extruct(triples: Iterable[RdfaTriple]) -> list[dict[str, Any]]:
    """extruct's ``rdfa`` output (``uniform=False``) for one document's triples."""
    g = _Graph(triples)
    for s in g.subjects:
        if not s.startswith("_:") or s not in g.objects:
            g.node(s)
    return list(g.nodes.values())


def extruct_result(events: list[Any]) -> list[dict[str, Any]]:
    """extruct's ``rdfa`` result for one document's events (the triples among them): the
    registry's result function (:mod:`stream_mf2.core.syntaxes`)."""
    return to_extruct([e for e in events if type(e) is RdfaTriple])
