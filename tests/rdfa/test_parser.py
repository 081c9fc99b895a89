"""RDFa through the parser (``syntaxes={"rdfa", ...}``), :func:`stream_mf2.extract` and the
extruct drop-in: the same triples as the consumer on its own, in any chunking, beside every
other syntax (whose kept subtrees hold RDFa elements), and the same graph as pyRdfa3."""

from __future__ import annotations

import importlib.util
import json

import pytest

from stream_mf2 import Parser
from stream_mf2.core.syntaxes import SYNTAXES, entry
from stream_mf2.extraction import extract
from stream_mf2.rdfa.events import RdfaLiteral, RdfaTriple
from tests.rdfa.drive import oracle_graph, stream_triples, to_graph
from tests.rdfa.pages import ALL, MF2_AND_RDFA
from tests.support.chunking import S, one_by_one, random_chunks

pytest.importorskip("rdflib")
from rdflib import Graph
from rdflib.compare import isomorphic

URL = "http://example.com/page"
PAGES = {**ALL, "mf2-and-rdfa": MF2_AND_RDFA}
#: Every syntax whose consumer package is part of this checkout.
INSTALLED = {n for n in SYNTAXES if n == "mf2" or importlib.util.find_spec(entry(n).module.rsplit(".", 1)[0])}


def _parser_triples(chunks: list[str] | list[bytes], syntaxes: set[str]) -> list[RdfaTriple]:
    parser = Parser(url=URL, syntaxes=syntaxes)
    events = []
    for chunk in chunks:
        events += parser.feed_events(chunk)
    events += parser.close_events()
    return [e for e in events if isinstance(e, RdfaTriple)]


@pytest.mark.parametrize("syntaxes", [{"rdfa"}, {"rdfa", "mf2"}, INSTALLED], ids=["rdfa", "rdfa+mf2", "all"])
@pytest.mark.parametrize("name", sorted(PAGES))
def test_parser_gives_the_consumers_triples(name: str, syntaxes: set[str]) -> None:
    want, _, _ = stream_triples([PAGES[name]], URL)
    assert _parser_triples([PAGES[name]], syntaxes) == want


def _chunkings(page: S) -> list[list[S]]:
    return [[page], one_by_one(page)] + [random_chunks(page, seed) for seed in range(5)]


def test_parser_any_chunking_beside_every_syntax() -> None:
    want = _parser_triples([MF2_AND_RDFA], INSTALLED)
    assert len(want) > 15
    for chunks in _chunkings(MF2_AND_RDFA):
        assert _parser_triples(chunks, INSTALLED) == want
    for raw in _chunkings(MF2_AND_RDFA.encode("utf-8")):
        assert _parser_triples(raw, INSTALLED) == want


def test_mf2_and_rdfa_page_matches_pyrdfa() -> None:
    triples = _parser_triples([MF2_AND_RDFA], INSTALLED)
    assert isomorphic(to_graph(triples), oracle_graph(MF2_AND_RDFA, URL))


@pytest.mark.parametrize("name", sorted(PAGES))
def test_extract_rdfa_reads_back_as_pyrdfas_graph(name: str) -> None:
    result = extract(PAGES[name], URL, syntaxes={"rdfa"})
    back = Graph().parse(data=json.dumps(result["rdfa"]), format="json-ld")
    assert isomorphic(back, oracle_graph(PAGES[name], URL))


def test_extruct_drop_in_has_rdfa() -> None:
    from stream_mf2 import extruct as drop_in

    result = drop_in.extract(ALL["opengraph-head"], base_url=URL, syntaxes=["rdfa"])
    (page,) = [n for n in result["rdfa"] if n["@id"] == URL]
    assert page["http://ogp.me/ns#title"] == [{"@language": "en-us", "@value": "How to brew coffee"}]


def test_triples_stream_inside_an_mf2_feed_that_wraps_the_page() -> None:
    """An mf2 root kept around the whole page (an ``h-feed``) holds its subtree until it ends;
    the RDFa triples inside it still go out as their elements close (content values are read
    when their element closes, not when the enclosing kept subtree is handed over)."""
    entry = '<article class="h-entry" typeof="BlogPosting"><h2 class="p-name" property="headline">T{}</h2></article>'
    parser = Parser(url=URL, syntaxes={"mf2", "rdfa"})
    seen: list[RdfaTriple] = []
    seen += [
        e for e in parser.feed_events('<div class="h-feed" vocab="http://schema.org/">') if isinstance(e, RdfaTriple)
    ]
    for i in range(50):
        seen += [e for e in parser.feed_events(entry.format(i)) if isinstance(e, RdfaTriple)]
        headlines = [t.object.value for t in seen if isinstance(t.object, RdfaLiteral)]
        assert headlines == [f"T{k}" for k in range(i + 1)]
    events = parser.feed_events("</div>") + parser.close_events()
    assert [e for e in events if not isinstance(e, RdfaTriple)]  # the feed item comes at its end
