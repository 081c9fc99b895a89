"""Several WPT files in one parse (issue 25, item 11): ``wpt=`` takes a sequence of WPT files
and templates; each applies as if given alone, so two files for one host both apply and a
file for another host applies nothing. One WPT given alone, or as a 1-sequence, is unchanged.
Also: a block's RDF description is read at load time into ``Block.rdf``."""

from __future__ import annotations

import pytest

from stream_mf2 import Parser, parse
from stream_mf2.wpt import collect_pages, load
from stream_mf2.wpt.model import RdfNode, RdfProperty
from tests.support import chunking

OW = 'xmlns:ow="http://www.omfica.org/schemas/ow/0.9"'

SHOP = f"""<ow:wpt {OW} ow:host="https://shop.example">
  <ow:template ow:name="Product" ow:url="https://shop.example/p/(product.id[[0-9]+])">
    <ow:block ow:xpath="/html/body/main/h1">product.name</ow:block>
  </ow:template></ow:wpt>"""
# A second file for the same host (another team's template: the reviews on product pages).
REVIEWS = f"""<ow:wpt {OW} ow:host="shop.example">
  <ow:template ow:name="Reviews" ow:url="https://shop.example/p/(product.id[[0-9]+])">
    <ow:block ow:xpath="//ol[@id='reviews']/li" ow:type="repeatable">review</ow:block>
  </ow:template></ow:wpt>"""
NEWS = f"""<ow:wpt {OW} ow:host="https://news.example">
  <ow:template ow:name="Story" ow:url="https://news.example/(story.slug[[a-z-]+])">
    <ow:block ow:xpath="//article/h1">story.title</ow:block>
  </ow:template></ow:wpt>"""

PRODUCT = """<!doctype html><html><head><title>Turntable belt | Shop</title></head><body>
<header><a href=/>Shop</a></header><main><h1>Turntable belt 3mm</h1><p>Fits most decks.</p>
<ol id=reviews><li>Works fine<li>Too short for my Dual</ol></main></body></html>"""
STORY = "<!doctype html><body><article><h1>Harbour reopens</h1><p>Ferries resume.</p></article>"


def test_two_files_for_one_host_both_apply_and_another_host_does_not() -> None:
    wpts = [load(SHOP), load(NEWS), load(REVIEWS)]
    pages = parse(PRODUCT, "https://shop.example/p/12", wpt=wpts)["wpt"]
    got = {p["template"]: p for p in pages}
    assert set(got) == {"Product", "Reviews"}
    assert got["Product"]["blocks"][0]["matches"][0]["text"] == "Turntable belt 3mm"
    assert [m["text"] for m in got["Reviews"]["blocks"][0]["matches"]] == ["Works fine", "Too short for my Dual"]
    assert got["Reviews"]["url_captures"] == {"product.id": ["12"]}
    (story,) = parse(STORY, "https://news.example/harbour-reopens", wpt=wpts)["wpt"]
    assert story["template"] == "Story" and story["blocks"][0]["matches"][0]["text"] == "Harbour reopens"
    assert parse(STORY, "https://elsewhere.example/x", wpt=wpts)["wpt"] == []


def test_each_page_equals_its_file_applied_alone() -> None:
    shop, news, reviews = load(SHOP), load(NEWS), load(REVIEWS)
    together = parse(PRODUCT, "https://shop.example/p/12", wpt=(shop, news, reviews))["wpt"]
    alone = [*parse(PRODUCT, "https://shop.example/p/12", wpt=shop)["wpt"], *parse(PRODUCT, "https://shop.example/p/12", wpt=reviews)["wpt"]]
    assert sorted(together, key=lambda p: p["template"]) == sorted(alone, key=lambda p: p["template"])


def test_one_file_alone_or_as_a_sequence_gives_the_same_output() -> None:
    shop = load(SHOP)
    one = parse(PRODUCT, "https://shop.example/p/12", wpt=shop)
    assert parse(PRODUCT, "https://shop.example/p/12", wpt=[shop]) == one
    assert parse(PRODUCT, "https://shop.example/p/12", wpt=(shop.templates[0],)) == one
    assert len(one["wpt"]) == 1


def test_a_template_and_a_file_together_and_no_url() -> None:
    shop, reviews = load(SHOP), load(REVIEWS)
    parser = Parser(None, wpt=[shop, reviews.templates[0]])
    doc_pages = collect_pages(parser.feed_events(PRODUCT) + parser.close_events())
    assert sorted(p["template"] for p in doc_pages) == ["Product", "Reviews"]
    # one note for the files applied without a URL, not one per file
    assert [n for n in parser.errors if "no page URL" in n] == [
        "wpt: no page URL, so every template was applied (no URL captures)"
    ]


def test_many_templates_in_every_chunking() -> None:
    wpts = (load(SHOP), load(REVIEWS), load(NEWS))
    data = PRODUCT.encode()
    want = parse(data, "https://shop.example/p/12", wpt=wpts)["wpt"]
    for label, chunks in chunking.chunkings(data, splits=False):
        parser = Parser("https://shop.example/p/12", wpt=wpts)
        events = [e for c in chunks for e in parser.feed_events(c)] + parser.close_events()
        assert sorted(collect_pages(events), key=lambda p: p["template"]) == sorted(want, key=lambda p: p["template"]), label


def test_something_else_in_the_sequence_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="wpt= takes Wpt and Template values"):
        parse(PRODUCT, "https://shop.example/p/12", wpt=[load(SHOP), SHOP])  # type: ignore[list-item]


def test_rdf_descriptions_are_read_at_load() -> None:
    wpt = load(
        f"""<ow:wpt {OW} xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:dc="http://purl.org/dc/elements/1.1/"
        xmlns:s="https://schema.org/" ow:host="h.example"><ow:template ow:name="T" ow:url="http://h.example/">
        <ow:block ow:tagid="a"><rdf:RDF><rdf:Description rdf:about="#it"><dc:title/><rdf:type rdf:resource="https://schema.org/Thing"/>
          <dc:language xml:lang="en">English</dc:language><dc:source rdf:resource="http://x.example/"/>
          <dc:creator><s:Person/></dc:creator></rdf:Description></rdf:RDF></ow:block>
        <ow:block ow:tagid="b"><s:Event><s:name/></s:Event> and some text</ow:block>
        <ow:block ow:tagid="c">thing.name</ow:block>
        <ow:block ow:tagid="d">{{cwl.unl}} x {{/cwl.unl}}</ow:block>
        </ow:template></ow:wpt>"""
    )
    a, b, c, d = wpt.templates[0].blocks
    assert a.rdf == (
        RdfNode(
            "#it",
            ("https://schema.org/Thing",),
            (
                RdfProperty("http://purl.org/dc/elements/1.1/title"),
                RdfProperty("http://purl.org/dc/elements/1.1/language", value="English", lang="en"),
                RdfProperty("http://purl.org/dc/elements/1.1/source", resource="http://x.example/"),
            ),
        ),
    )
    assert b.rdf == (RdfNode(None, ("https://schema.org/Event",), (RdfProperty("https://schema.org/name"),)),)
    assert c.rdf == () and d.rdf == () and d.description is not None
