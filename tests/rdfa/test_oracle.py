"""The consumer's graph is isomorphic to pyRdfa3's on pages like real sites and on every fixture page.

pyRdfa3 runs with the options in :mod:`tests.rdfa.drive` (HTML5+RDFa host
language, no vocabulary expansion, no processor graph, no embedded RDF, nothing
fetched). Each deliberate difference has its own test below, which shows what
pyRdfa3 does and what the consumer does, and why.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.rdfa.drive import oracle_graph, stream_triples, to_graph
from tests.rdfa.pages import ALL

pytest.importorskip("pyRdfa")
from rdflib import Graph, Literal, URIRef
from rdflib.compare import graph_diff, isomorphic, to_isomorphic

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted((ROOT / "fixtures").rglob("*.html"))
URL = "http://example.com/page"
EX = "http://example.org/ns#"


def _explain(ours: Graph, theirs: Graph) -> str:
    _, only_ours, only_theirs = graph_diff(to_isomorphic(ours), to_isomorphic(theirs))
    lines = [f"ours only: {t}" for t in sorted(only_ours)] + [f"pyRdfa only: {t}" for t in sorted(only_theirs)]
    return "\n".join(lines[:40])


def _graphs(html: str | bytes) -> tuple[Graph, Graph]:
    triples = stream_triples([html] if isinstance(html, str) else [bytes(html)], URL)[0]
    return to_graph(triples), oracle_graph(html, URL)


@pytest.mark.parametrize("name", sorted(ALL))
def test_pages_match_pyrdfa(name: str) -> None:
    ours, theirs = _graphs(ALL[name])
    assert len(ours) > 3  # (the page has RDFa: an empty graph would match an empty graph)
    assert isomorphic(ours, theirs), _explain(ours, theirs)


@pytest.mark.parametrize("path", FIXTURES, ids=[str(p.relative_to(ROOT)) for p in FIXTURES])
def test_fixture_pages_match_pyrdfa(path: Path) -> None:
    # bytes to both: each side sniffs the encoding (the windows-1252 page has a <meta charset>)
    ours, theirs = _graphs(path.read_bytes())
    assert isomorphic(ours, theirs), _explain(ours, theirs)


def test_fixture_pages_have_rdfa_triples() -> None:
    """The fixture comparison is not vacuous: most pages yield triples (rel="license"/role/OpenGraph)."""
    counts = [len(stream_triples([p.read_bytes()], URL)[0]) for p in FIXTURES]
    assert sum(1 for c in counts if c) >= 8


# -- deliberate differences -------------------------------------------------------------


def test_xml_lang_wins_over_lang_where_html5libs_dom_loses_it() -> None:
    """HTML+RDFa 1.1 (3.1, rule 5) and pyRdfa3's own code give ``xml:lang`` precedence over
    ``lang``; html5lib's minidom tree keeps one attribute per local name, so pyRdfa3 never sees
    ``xml:lang`` when ``lang`` is on the same element. The consumer follows the rule."""
    page = f'<html prefix="ex: {EX}"><body about="#t"><p property="ex:l" xml:lang="es" lang="fr">x</p></body></html>'
    ours, theirs = _graphs(page)
    subject, prop = URIRef(URL + "#t"), URIRef(EX + "l")
    assert set(ours.objects(subject, prop)) == {Literal("x", lang="es")}
    assert set(theirs.objects(subject, prop)) == {Literal("x", lang="fr")}
    # without lang, both read xml:lang
    alone = page.replace(' lang="fr"', "")
    ours, theirs = _graphs(alone)
    assert isomorphic(ours, theirs)


def test_base_applies_from_where_it_is() -> None:
    """pyRdfa3 reads the finished tree: the *last* ``<base href>`` applies to the whole document,
    even to elements before it. The consumer streams: the *first* one counts (as HTML's document
    base URL), for the elements after it; the document's own subject (``about=""`` on the root)
    is the base in force when a triple about it goes out (when its element closes)."""
    page = (
        f'<html prefix="ex: {EX}"><head><link rel="ex:early" href="a"><base href="http://one.example/">'
        '<base href="http://two.example/"></head><body><a rel="ex:late" href="b">b</a></body></html>'
    )
    ours, theirs = _graphs(page)
    early, late = URIRef(EX + "early"), URIRef(EX + "late")
    assert set(ours.subject_objects(early)) == {(URIRef(URL), URIRef(URL.rsplit("/", 1)[0] + "/a"))}
    assert set(ours.subject_objects(late)) == {(URIRef("http://one.example/"), URIRef("http://one.example/b"))}
    assert set(theirs.subject_objects(early)) == {(URIRef("http://two.example/"), URIRef("http://two.example/a"))}
    # one <base> in <head> before any link, as pages have it: the same graph
    usual = page.replace('<link rel="ex:early" href="a">', "").replace('<base href="http://two.example/">', "")
    assert isomorphic(*_graphs(usual))


def test_rdfa_1_0_version_attribute_is_not_followed() -> None:
    """``version="XHTML+RDFa 1.0"`` on ``<html>`` (Drupal 7's pages) switches pyRdfa3 to the RDFa 1.0
    rules (no initial context, no ``vocab``, XML literals for mixed content). The consumer
    processes RDFa 1.1 only; on such a page it gives pyRdfa3's RDFa 1.1 graph (the page without
    the attribute)."""
    page = (
        '<html version="XHTML+RDFa 1.0" xmlns:dc="http://purl.org/dc/terms/"><body>'
        '<div about="/node/1" typeof="foaf:Document"><h2 property="dc:title">T <em>x</em></h2></div></body></html>'
    )
    ours, theirs_10 = _graphs(page)
    assert not isomorphic(ours, theirs_10)
    assert isomorphic(ours, oracle_graph(page.replace(' version="XHTML+RDFa 1.0"', ""), URL))


def test_misnested_formatting_keeps_the_first_context() -> None:
    """The adoption agency algorithm clones a misnested formatting element and moves content
    after it is parsed. pyRdfa3 sees the moved tree: the clone is an element with the same
    attributes, processed again. The consumer processed the original where it opened; the clone
    is not processed (a note says so). Well-nested markup gives the same graph."""
    page = f'<html prefix="ex: {EX}"><body><b about="#x" property="ex:p">one<p>two</b>three</p></body></html>'
    triples, notes, _ = stream_triples([page], URL)
    theirs = oracle_graph(page, URL)
    ours = to_graph(triples)
    assert len(set(theirs.objects(URIRef(URL + "#x"), URIRef(EX + "p")))) == 2  # the original and its clone
    assert set(ours.objects(URIRef(URL + "#x"), URIRef(EX + "p"))) == {Literal("one")}
    assert any("adoption agency" in n for n in notes)
    nested = page.replace("<p>two</b>three</p>", "</b><p>twothree</p>")
    assert isomorphic(*_graphs(nested))
    # a misnested element without RDFa attributes is no loss: no note
    plain = (
        f'<html prefix="ex: {EX}"><body><b class="x">one<p about="#y" property="ex:p">two</b>three</p></body></html>'
    )
    triples, notes, _ = stream_triples([plain], URL)
    assert not notes and triples


def test_compact_chunking_page_matches_pyrdfa() -> None:
    from tests.rdfa.test_chunking import COMPACT

    ours, theirs = _graphs(COMPACT)
    assert isomorphic(ours, theirs), _explain(ours, theirs)


def test_syntaxes_pages_match_pyrdfa() -> None:
    """The pages of the other syntaxes' tests (WordPress post, shop product, recipe, news) too."""
    from tests.syntaxes.pages import PAGES

    for name, page in PAGES.items():
        ours, theirs = _graphs(page)
        assert isomorphic(ours, theirs), f"{name}:\n{_explain(ours, theirs)}"


def test_undeclared_opengraph_prefixes_follow_the_w3c_initial_context() -> None:
    """extruct, when imported, adds ``fb``, ``article``, ``book``, ``profile``, ``music``, ``video``
    and ``twitter`` to pyRdfa3's initial context (``og`` is in the W3C one), so its ``rdfa``
    output expands ``article:…`` properties a page never declares. The consumer keeps the W3C
    initial context of RDFa 1.1, as pyRdfa3 alone does: an undeclared ``article:section`` is no
    CURIE but an absolute IRI (scheme ``article``). Declared (``prefix="article:
    http://ogp.me/ns/article#"``, as the OpenGraph protocol asks), all three agree."""
    pytest.importorskip("extruct")
    from extruct.rdfa import RDFaExtractor

    page = '<html><head><meta property="article:section" content="News"><meta property="og:title" content="T"></head></html>'
    ours, theirs = _graphs(page)
    assert isomorphic(ours, theirs)
    assert {str(p) for p in ours.predicates()} == {"article:section", "http://ogp.me/ns#title"}
    extruct_nodes = RDFaExtractor().extract(page, base_url=URL)
    assert any("http://ogp.me/ns/article#section" in node for node in extruct_nodes)
    declared = page.replace("<html>", '<html prefix="article: http://ogp.me/ns/article#">')
    ours, theirs = _graphs(declared)
    assert isomorphic(ours, theirs)
    assert {str(p) for p in ours.predicates()} == {"http://ogp.me/ns/article#section", "http://ogp.me/ns#title"}
