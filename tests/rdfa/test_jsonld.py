"""``to_extruct``: extruct's ``rdfa`` shape, as rdflib's expanded JSON-LD serialiser writes a graph.

extruct's RDFa output is ``json.loads(graph.serialize(format="json-ld", auto_compact=False))``
of pyRdfa3's graph. The same serialiser on the consumer's own graph (blank node labels kept)
is the oracle for the shape; the JSON-LD read back is the same graph.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from stream_mf2.rdfa.events import RdfaLiteral, RdfaTriple
from stream_mf2.rdfa.jsonld import to_extruct
from tests.rdfa.drive import stream_triples, to_graph
from tests.rdfa.pages import ALL

pytest.importorskip("rdflib")
from rdflib import Graph
from rdflib.compare import isomorphic


def _canon(value: Any) -> Any:
    """Order-free form: rdflib's node and value order is its hash order."""
    if isinstance(value, dict):
        return tuple(sorted((k, _canon(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(sorted((_canon(v) for v in value), key=repr))
    return value


def _lists_kept(value: Any) -> Any:
    """The same, but a ``@list`` keeps its order."""
    if isinstance(value, dict):
        return tuple(
            sorted((k, _lists_kept(v) if k != "@list" else tuple(map(_lists_kept, v))) for k, v in value.items())
        )
    if isinstance(value, list):
        return tuple(sorted((_lists_kept(v) for v in value), key=repr))
    return value


@pytest.mark.parametrize("name", sorted(ALL))
def test_shape_is_rdflibs_expanded_json_ld(name: str) -> None:
    triples, _, _ = stream_triples([ALL[name]])
    ours = to_extruct(triples)
    theirs = json.loads(to_graph(triples).serialize(format="json-ld", auto_compact=False))
    assert _lists_kept(ours) == _lists_kept(theirs)


@pytest.mark.parametrize("name", sorted(ALL))
def test_json_ld_reads_back_as_the_same_graph(name: str) -> None:
    triples, _, _ = stream_triples([ALL[name]])
    back = Graph().parse(data=json.dumps(to_extruct(triples)), format="json-ld")
    assert isomorphic(back, to_graph(triples))


XSD = "http://www.w3.org/2001/XMLSchema#"
TYPED = [
    ("042", "integer"),
    ("x", "integer"),
    ("9.50", "decimal"),
    ("1e3", "double"),
    ("true", "boolean"),
    ("1", "boolean"),
    ("no", "boolean"),
    ("2020-02-29", "date"),
    ("2020-02-29T12:30:00Z", "dateTime"),
    ("2020-02-29T12:30", "dateTime"),
    ("2020-02-29T12:30:00.250+05:30", "dateTime"),
    ("not a date", "dateTime"),
    ("12:30", "time"),
    ("12:30:00Z", "time"),
    ("2020", "gYear"),
    ("PT30M", "duration"),
    ("s", "string"),
    ("7", "int"),
]


@pytest.mark.parametrize(("value", "datatype"), TYPED)
def test_typed_values_as_rdflib_writes_them(value: str, datatype: str) -> None:
    triples = [RdfaTriple("http://e.example/s", "http://e.example/p", RdfaLiteral(value, XSD + datatype))]
    theirs = json.loads(to_graph(triples).serialize(format="json-ld", auto_compact=False))
    assert to_extruct(triples) == theirs


def test_values_and_lists() -> None:
    rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    s, p = "http://e.example/s", "http://e.example/p"
    triples = [
        RdfaTriple(s, rdf + "type", "http://schema.org/Thing"),
        RdfaTriple(s, p, RdfaLiteral("plain")),
        RdfaTriple(s, p, RdfaLiteral("chat", language="fr")),
        RdfaTriple(s, p, RdfaLiteral("1", datatype="http://www.w3.org/2001/XMLSchema#integer")),
        RdfaTriple(s, p, RdfaLiteral("plain")),  # a duplicate counts once
        RdfaTriple(s, "http://e.example/l", "_:b1"),
        RdfaTriple("_:b1", rdf + "first", "http://e.example/a"),
        RdfaTriple("_:b1", rdf + "rest", "_:b2"),
        RdfaTriple("_:b2", rdf + "first", RdfaLiteral("z")),
        RdfaTriple("_:b2", rdf + "rest", rdf + "nil"),
        RdfaTriple(s, "http://e.example/empty", rdf + "nil"),
        RdfaTriple(s, "http://e.example/knows", "_:b3"),
        RdfaTriple("_:b3", p, RdfaLiteral("bnode")),
    ]
    assert to_extruct(triples) == [
        {
            "@id": s,
            "@type": ["http://schema.org/Thing"],
            p: [{"@value": "plain"}, {"@language": "fr", "@value": "chat"}, {"@type": XSD + "integer", "@value": 1}],
            "http://e.example/l": [{"@list": [{"@id": "http://e.example/a"}, {"@value": "z"}]}],
            "http://e.example/empty": [{"@list": []}],
            "http://e.example/knows": [{"@id": "_:b3"}],
        },
        {"@id": "_:b3", p: [{"@value": "bnode"}]},
    ]
