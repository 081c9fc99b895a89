"""Website Parse Template: loading, template choice, matching, streaming invariance, limits."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from stream_mf2 import Parser, parse
from stream_mf2.html.dom import Element
from stream_mf2.wpt import TemplateError, WptMatchEvent, WptPageEnd, collect_pages, load
from tests.support import chunking
from tests.support.suites import REPO

pytest.importorskip("defusedxml")
pytest.importorskip("regex")

FIX = REPO / "fixtures" / "wpt"
OW = 'xmlns:ow="http://www.omfica.org/schemas/ow/0.9"'

PAGES = [
    ("artist", "http://music.yahoo.com/ar-8206256---Amy-Winehouse"),
    ("listing", "https://shop.example/list/2"),
    ("markup-pattern", "http://www.example.com/index.php"),
    ("tbody", "http://prices.example/"),
]


def _run(data: bytes, url: str, wpt: Any, chunks: list[bytes] | None = None, **opts: Any) -> tuple[list[Any], Parser]:
    parser = Parser(url, wpt=wpt, **opts)
    events: list[Any] = []
    for c in chunks if chunks is not None else [data]:
        events.extend(parser.feed_events(c))
    events.extend(parser.close_events())
    return events, parser


def _pages(name: str, url: str) -> list[dict[str, Any]]:
    data = (FIX / f"{name}.html").read_bytes()
    events, _ = _run(data, url, load(FIX / f"{name}.xml"))
    return collect_pages(events)


def _matches(page: dict[str, Any], concept: str) -> list[dict[str, Any]]:
    return next(b for b in page["blocks"] if b["concept"] == concept)["matches"]


# -- loading ---------------------------------------------------------------------


def test_artist_template_model() -> None:
    wpt = load(FIX / "artist.xml")
    assert wpt.host == "http://music.yahoo.com"
    (t,) = wpt.templates
    assert t.name == "Artist Page on Yahoo! Music" and t.ontology == "general"
    assert [b.concept for b in t.blocks][:3] == ["Menu", "Logo", "Advertisement"]
    assert t.blocks[0].tagid == "yent-uhdr" and t.blocks[0].xpath is None
    assert t.blocks[1].xpath is not None and t.blocks[1].xpath.steps[2].position == 2
    assert (t.blocks[0].line, t.blocks[0].column) == (8, 1)
    assert t.url is not None and t.url.concepts == ("artist.id", "artist.name")
    (section,) = wpt.urls
    assert section.template == t.name and len(section.urls) == 2
    (onto,) = wpt.ontologies
    artist = onto.concepts[0]
    assert artist.name == "artist" and artist.inherits == ("person",) and "bio" in artist.has
    assert wpt.warnings == ()


def test_any_prefix_and_description_kept_as_written() -> None:
    xml = """<x:wpt xmlns:x="http://www.omfica.org/schemas/ow/0.9" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" x:host="a.example">
<x:template x:name="T" x:url="http://a.example/">
<x:block x:tagid="ex2">
<rdf:Description rdf:about="http://a.example/">&amp; x</rdf:Description>
</x:block>
<x:block x:xpath="/html/body">{cwl.unl} text {/cwl.unl}<x:block x:tagid="n">Name</x:block></x:block>
</x:template></x:wpt>"""
    t = load(xml).templates[0]
    assert t.blocks[0].concept is None
    assert t.blocks[0].description == '<rdf:Description rdf:about="http://a.example/">&amp; x</rdf:Description>'
    assert t.blocks[1].description == "{cwl.unl} text {/cwl.unl}"
    assert t.blocks[1].blocks[0].concept == "Name"


def test_load_from_str_bytes_and_path() -> None:
    text = (FIX / "tbody.xml").read_text("utf-8")
    assert load(text) == load(text.encode()) == load(FIX / "tbody.xml")


BAD = [
    ("<ow:wpt", "malformed XML", 1, 1),
    (f'<ow:wpt {OW} ow:host="h"><ow:template ow:name="T"><ow:block ow:tagid="a"></ow:template></ow:wpt>', "malformed XML: mismatched tag", 1, 119),
    (f"<ow:wpt {OW}>\n<ow:template/></ow:wpt>", "ow:wpt has no ow:host", 1, 1),
    (f'<ow:wpt {OW} ow:host="h">\n  <ow:template ow:url="http://h/"><ow:block ow:tagid="a"/></ow:template></ow:wpt>', "ow:template has no ow:name", 2, 3),
    (f'<ow:wpt {OW} ow:host="h">\n<ow:template ow:name="T">\n<ow:block>x</ow:block></ow:template></ow:wpt>', "ow:block has no reference", 3, 1),
    (f'<ow:wpt {OW} ow:host="h">\n<ow:template ow:name="T"/></ow:wpt>', "has no ow:block", 2, 1),
    (f'<ow:wpt {OW} ow:host="h"><ow:template ow:name="T"><ow:block ow:tagid="a"/></ow:template>\n<ow:urls ow:template="U"><ow:url>http://h/</ow:url></ow:urls></ow:wpt>', "ow:urls names an unknown template 'U'", 2, 1),
    (f'<ow:wpt {OW} ow:host="h"><ow:template ow:name="T">\n <ow:block ow:pattern="a (x[[0-9]"/></ow:template></ow:wpt>', "not closed with '])'", 2, 2),
    (f'<ow:wpt {OW} ow:host="h"><ow:template ow:name="T">\n <ow:block ow:pattern="(x[[0-9](])"/></ow:template></ow:wpt>', "bad regular expression", 2, 2),
    (f'<ow:wpt {OW} ow:host="h"><ow:template ow:name="T">\n <ow:block ow:xpath="/html/body/.."/></ow:template></ow:wpt>', "unsupported XPath", 2, 2),
    (f'<ow:wpt {OW} ow:host="h"><ow:template ow:name="T">\n <ow:block ow:xpath="div"/></ow:template></ow:wpt>', "is relative", 2, 2),
    (f'<ow:wpt {OW} ow:host="h"><ow:template ow:name="T">\n <ow:block ow:xpath="/html/body/div[@id=\'a\'][2]"/></ow:template></ow:wpt>', "a position after an attribute test", 2, 2),
    (f'<ow:wpt {OW} ow:host="h"><ow:template ow:name="T">\n <ow:block ow:tagid="a" ow:type="list"/></ow:template></ow:wpt>', "unknown ow:type", 2, 2),
    (f'<ow:wpt {OW} ow:host="h"><ow:template ow:name="T">\n <ow:block ow:pattern="(x[[0-9]*])"/></ow:template></ow:wpt>', "matches empty text", 2, 2),
    ('<wpt host="h"/>', "the root element must be ow:wpt", 1, 1),
    # the submission's own Example 7 typo
    (f'<ow:wpt {OW} ow:host="h"><ow:template ow:name="T">\n<ow:block ow:tagid=="yent-uhdr">Menu</ow:block></ow:template></ow:wpt>', "malformed XML", 2, 20),
    (
        '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n'
        + "".join(f' <!ENTITY lol{i} "{("&lol" + str(i - 1) + ";") * 10 if i > 1 else "&lol;" * 10}">\n' for i in range(1, 10))
        + "]>\n<lolz>&lol9;</lolz>",
        "DTDs are not allowed",
        2,
        None,
    ),
    (
        f'<!DOCTYPE x [<!ENTITY ext SYSTEM "file:///etc/passwd">]><ow:wpt {OW} ow:host="&ext;"/>',
        "DTDs are not allowed",
        1,
        None,
    ),
]


@pytest.mark.parametrize(("xml", "message", "line", "column"), BAD, ids=[b[1][:40] for b in BAD])
def test_bad_templates(xml: str, message: str, line: int, column: int | None) -> None:
    with pytest.raises(TemplateError) as info:
        load(xml)
    e = info.value
    assert message in e.message
    assert e.line == line
    if column is not None:
        assert e.column == column
    assert str(e).startswith(f"{e.line}:{e.column}: ")


def test_undeclared_concepts_warn_or_fail_in_strict_mode() -> None:
    xml = f"""<ow:wpt {OW} ow:host="h">
<ow:template ow:name="T" ow:url="http://h/(page.nr[[0-9]+])" ow:ontology="o">
<ow:block ow:tagid="a">artist.name</ow:block>
<ow:block ow:tagid="b">artist.id</ow:block>
<ow:block ow:tagid="c">Menu</ow:block>
<ow:block ow:tagid="d">artist.age</ow:block>
</ow:template>
<ow:ontology ow:name="o"><ow:concept ow:name="person"><ow:has>name</ow:has></ow:concept>
<ow:concept ow:name="artist"><ow:inherit>person</ow:inherit></ow:concept><ow:concept>menu</ow:concept></ow:ontology>
</ow:wpt>"""
    wpt = load(xml)
    assert wpt.warnings == (
        "2:1: concept 'page.nr' is not declared in ontology 'o'",
        "6:1: concept 'artist.age' is not declared in ontology 'o'",
    )
    with pytest.raises(TemplateError) as info:
        load(xml, strict=True)
    assert (info.value.line, info.value.column) == (2, 1)


# -- choosing templates ------------------------------------------------------------


def test_template_choice_by_url_and_host() -> None:
    wpt = load(FIX / "artist.xml")
    ((_t, caps),) = wpt.choose("http://music.yahoo.com/ar-8206256---Amy-Winehouse")
    assert caps == {"artist.id": ["8206256"], "artist.name": ["Amy-Winehouse"]}
    # the ow:urls section's variant form ([concept[REGEX]])
    assert wpt.choose("http://music.yahoo.com/artist/42")[0][1] == {"artist.id": ["42"]}
    assert wpt.choose("http://music.yahoo.com/ar-1---A/more") == []  # the whole URL must match
    assert wpt.choose("http://other.example/ar-1---A") == []  # another host
    assert wpt.choose("https://music.yahoo.com/ar-1---A") == []  # ow:host names the scheme
    listing = load(FIX / "listing.xml")  # ow:host without a scheme: any scheme
    assert listing.choose("https://shop.example/list/7")[0][1] == {"page.number": ["7"]}


def test_no_template_for_the_url_gives_no_wpt_output() -> None:
    data = (FIX / "artist.html").read_bytes()
    events, _ = _run(data, "http://elsewhere.example/", load(FIX / "artist.xml"))
    assert collect_pages(events) == []


def test_without_url_every_template_applies_with_a_note() -> None:
    data = (FIX / "tbody.html").read_bytes()
    events, parser = _run(data, None, load(FIX / "tbody.xml"))  # type: ignore[arg-type]
    (page,) = collect_pages(events)
    assert page["url"] is None and _matches(page, "price")[0]["text"] == "0.55"
    assert any("no page URL" in e for e in parser.errors)


# -- matching ------------------------------------------------------------------------


def test_artist_page_example_7() -> None:
    (page,) = _pages("artist", "http://music.yahoo.com/ar-8206256---Amy-Winehouse")
    assert page["kind"] == "wpt" and page["host"] == "http://music.yahoo.com"
    assert page["url_captures"] == {"artist.id": ["8206256"], "artist.name": ["Amy-Winehouse"]}
    got = {b["concept"]: [m["text"] for m in b["matches"]] for b in page["blocks"]}
    assert got == {
        "Menu": ["HomeArtists"],
        "Logo": ["Y! Music"],
        "Advertisement": ["Advertisement: buy more music"],
        "artist.name": ["Amy Winehouse"],
        "artist.image": [""],
        "artist.bio": ["Amy Jade Winehouse was an English singer and songwriter."],
        "artist.album": ["Album: Back to Black (2006)"],
        "artist.track": ["Track: Rehab"],
        "artist.video": ["Video: Back to Black (live)"],
    }
    (img,) = _matches(page, "artist.image")
    assert img["attributes"] == {"id": "art_img", "src": "/img/amy.jpg", "alt": "Amy Winehouse"}
    assert img["xpath"] == "/html[1]/body[1]/div[3]/table[1]/tbody[1]/tr[1]/td[2]/img[1]"
    (bio,) = _matches(page, "artist.bio")
    assert bio["html"] == "Amy Jade Winehouse was an English <em>singer</em> and songwriter."
    assert page["blocks"][0]["ref"] == {"tagid": "yent-uhdr", "xpath": None, "pattern": None}


def test_listing_repeatable_rows_and_nested_blocks() -> None:
    (page,) = _pages("listing", "https://shop.example/list/2")
    rows = _matches(page, "product")
    assert [r["xpath"] for r in rows] == [f"/html[1]/body[1]/div[1]/table[1]/tbody[1]/tr[{i}]" for i in range(1, 5)]
    names = [r["blocks"][0]["matches"][0]["text"] for r in rows]
    assert names == ["Sencha", "Darjeeling", "Rooibos", "Genmaicha"]
    prices = [[m["captures"] for m in r["blocks"][1]["matches"]] for r in rows]
    assert prices == [
        [{"product.price": ["12.50"], "product.currency": ["EUR"]}],
        [{"product.price": ["9.90"], "product.currency": ["EUR"]}],
        [],  # "price on request": the pattern does not hold, so td[2] is no match
        [{"product.price": ["7.00"], "product.currency": ["JPY"]}],
    ]
    tags = [[m["text"] for m in r["blocks"][2]["matches"]] for r in rows]
    assert tags == [["green", "japan"], ["black"], [], ["green", "rice", "japan"]]
    (pager,) = _matches(page, "page.navigation")
    assert [m["attributes"]["href"] for m in pager["blocks"][0]["matches"]] == ["/list/1", "/list/3"]
    assert _matches(page, "page.title")[0]["html"] == "Teas &amp; tisanes"


def test_markup_patterns_over_the_page_source() -> None:
    (page,) = _pages("markup-pattern", "http://www.example.com/index.php")
    artists = _matches(page, "artist")
    assert [m["captures"] for m in artists] == [
        {"artist.id": ["101"], "artist.name": ["Adele", "Adele"]},
        {"artist.id": ["102"], "artist.name": ["Bjork", "Bjork"]},
    ]
    assert artists[0]["xpath"] is None and artists[0]["text"].startswith('<td bgcolor="FFFFFF"')
    assert _matches(page, "site.slogan")[0]["text"] == "The Best Music Blogs on the Web"
    assert _matches(page, "member")[0]["captures"] == {"member.name": ["Amy2"], "member.id": ["8206256"]}
    # with an xpath: within the element's text; only the <p> where it occurs matches
    (site,) = _matches(page, "site")
    assert site["xpath"] == "/html[1]/body[1]/p[3]" and site["captures"] == {"site.visitors": ["1234", "56"]}


def test_browser_copied_path_through_implied_tbody() -> None:
    (page,) = _pages("tbody", "http://prices.example/")
    assert [m["text"] for m in _matches(page, "price")] == ["0.55"]
    assert [m["text"] for m in _matches(page, "item")] == ["Pear"]
    # the path a libxml2-based parser would give (no tbody) selects nothing in the WHATWG DOM
    assert _matches(page, "price.libxml2") == []


def test_first_match_only_unless_repeatable_and_all_references_must_hold() -> None:
    xml = f"""<ow:wpt {OW} ow:host="h"><ow:template ow:name="T">
<ow:block ow:xpath="/html/body/p">first</ow:block>
<ow:block ow:xpath="/html/body/p" ow:type="repeatable">all</ow:block>
<ow:block ow:xpath="/html/body/p" ow:tagid="b">both</ow:block>
<ow:block ow:xpath="/html/body/p[1]" ow:tagid="b">neither</ow:block>
<ow:block ow:xpath="//*[@id='b']">anchored</ow:block>
<ow:block ow:xpath="/html/body/*[3]">star</ow:block>
<ow:block ow:xpath="/html/body/p[@class='x']" ow:type="repeatable">attr</ow:block>
<ow:block ow:xpath="/html/body/div">outer<ow:block ow:xpath="/html/body/div/p[2]">absolute</ow:block><ow:block ow:tagid="in">id</ow:block><ow:block ow:pattern="(n[[0-9]])" ow:type="repeatable">pattern</ow:block></ow:block>
</ow:template></ow:wpt>"""
    html = b"<p class=x>1<p id=b>2<p class=x>3<div><p>4</p><p id=in>5</p></div>"
    events, _ = _run(html, "http://h/", load(xml).templates[0])
    (page,) = collect_pages(events)
    texts = {b["concept"]: [m["text"] for m in b["matches"]] for b in page["blocks"]}
    assert texts == {
        "first": ["1"],
        "all": ["1", "2", "3"],
        "both": ["2"],
        "neither": [],
        "anchored": ["2"],
        "star": ["3"],
        "attr": ["1", "3"],
        "outer": ["45"],
    }
    nested = {b["concept"]: [m["text"] for m in b["matches"]] for b in page["blocks"][-1]["matches"][0]["blocks"]}
    assert nested == {"absolute": ["5"], "id": ["5"], "pattern": ["4", "5"]}


def test_match_events_come_as_soon_as_the_element_is_final() -> None:
    xml = f"""<ow:wpt {OW} ow:host="h"><ow:template ow:name="T">
<ow:block ow:xpath="/html/body/ul/li" ow:type="repeatable">row</ow:block></ow:template></ow:wpt>"""
    parser = Parser("http://h/", wpt=load(xml).templates[0])
    assert parser.feed_events("<ul><li>one") == []
    (e,) = parser.feed_events("<li>two")  # the first li is final once the second opens
    assert isinstance(e, WptMatchEvent) and e.block == 0 and e.match["text"] == "one"
    events = parser.feed_events("</ul>") + parser.close_events()
    assert [type(x).__name__ for x in events] == ["WptMatchEvent", "WptPageEnd", "DocumentEnd"]


@pytest.mark.parametrize(("name", "url"), PAGES, ids=[p[0] for p in PAGES])
def test_a_page_ends_after_its_last_match(name: str, url: str) -> None:
    """``WptPageEnd`` means no more matches for its page: the page-source pattern matches the
    scanners give at the end of the input come before it (they came after it, so the page
    lines of ``stream-mf2 wpt``, written at the page's end, had ``"matches": []`` for them)."""
    from stream_mf2.wpt.lines import WptLines

    data = (FIX / f"{name}.html").read_bytes()
    wpt = load(FIX / f"{name}.xml")
    for label, chunks in [("whole", [data]), ("random", chunking.random_chunks(data, chunking.SEED))]:
        events, _ = _run(data, url, wpt, chunks)
        ended: set[int] = set()
        for e in events:
            if isinstance(e, WptMatchEvent):
                assert id(e.page) not in ended, f"{label}: a match of a page after its end"
            elif isinstance(e, WptPageEnd):
                ended.add(id(e.page))
        lines = WptLines(wpt)
        assert [line for e in events for line in lines.lines(e)] == collect_pages(events), label


def test_parse_returns_wpt_pages_and_mf2_output_is_unchanged() -> None:
    for name, url in PAGES:
        data = (FIX / f"{name}.html").read_bytes()
        plain = parse(data, url)
        with_wpt = parse(data, url, wpt=load(FIX / f"{name}.xml"))
        assert with_wpt.pop("wpt") == _pages(name, url)
        assert with_wpt == plain


@pytest.mark.parametrize(("name", "url"), PAGES, ids=[p[0] for p in PAGES])
def test_output_is_the_same_in_every_chunking(name: str, url: str) -> None:
    data = (FIX / f"{name}.html").read_bytes()
    wpt = load(FIX / f"{name}.xml")
    whole_events, _ = _run(data, url, wpt)
    whole = collect_pages(whole_events)
    whole_items = [e for e in whole_events if not isinstance(e, (WptMatchEvent, WptPageEnd))]
    runs = [("one-by-one", chunking.one_by_one(data))]
    runs.extend(list(chunking.two_way(data))[:: max(1, len(data) // 40)])
    runs.extend(list(chunking.three_way(data, limit=10)))
    runs.extend((f"random({s})", chunking.random_chunks(data, s)) for s in range(chunking.SEED, chunking.SEED + 3))
    for label, chunks in runs:
        events, _ = _run(data, url, wpt, chunks)
        assert collect_pages(events) == whole, label
        assert [e for e in events if not isinstance(e, (WptMatchEvent, WptPageEnd))] == whole_items, label


# -- page-source patterns: the window ---------------------------------------------------


def _pattern_wpt(pattern: str, repeatable: bool = True) -> Any:
    kind = ' ow:type="repeatable"' if repeatable else ""
    return load(
        f'<ow:wpt {OW} ow:host="h"><ow:template ow:name="T"><ow:block ow:pattern="{pattern}"{kind}>x</ow:block>'
        "</ow:template></ow:wpt>"
    ).templates[0]


def test_source_pattern_matches_across_chunk_boundaries_equal_the_whole_document() -> None:
    t = _pattern_wpt("id=(n[[0-9]+]);")
    data = b"".join(b"<p>id=%d; and id=%d;</p>" % (i, i * 7919) for i in range(60))
    want = [m["captures"]["n"][0] for m in collect_pages(_run(data, "http://h/", t)[0])[0]["blocks"][0]["matches"]]
    assert want[:4] == ["0", "0", "1", "7919"] and len(want) == 120
    for label, chunks in [("bytes", chunking.one_by_one(data)), *list(chunking.two_way(data))[::97]]:
        for window in (16, 64, 100_000):
            events, _ = _run(data, "http://h/", t, chunks, max_pattern_chars=window)
            got = [m["captures"]["n"][0] for m in collect_pages(events)[0]["blocks"][0]["matches"]]
            assert got == want, (label, window)


def test_source_pattern_longer_than_the_window_is_a_reported_error() -> None:
    t = _pattern_wpt("start(body[[^!]*])!")
    data = b"<p>start" + b"x" * 500 + b"!</p><p>start short!</p>"
    for chunks in ([data], chunking.random_chunks(data, 1)):
        events, parser = _run(data, "http://h/", t, chunks, max_pattern_chars=100)
        (page,) = collect_pages(events)
        assert [m["captures"]["body"] for m in page["blocks"][0]["matches"]] == [[" short"]]
        assert any("longer than max_pattern_chars=100" in e for e in page["errors"])
        assert any("longer than max_pattern_chars=100" in e for e in parser.errors)
    events, _ = _run(data, "http://h/", t, max_pattern_chars=1000)
    assert len(collect_pages(events)[0]["blocks"][0]["matches"]) == 2


def test_core_imports_without_the_wpt_extra() -> None:
    code = (
        "import sys; sys.modules['defusedxml'] = None; sys.modules['regex'] = None\n"
        "import stream_mf2\n"
        "assert stream_mf2.parse(b'<p class=h-card>A')['items'][0]['properties']['name'] == ['A']\n"
        "from stream_mf2 import wpt\n"
        "from stream_mf2.errors import MissingExtra\n"
        "try:\n    wpt.load('<x/>')\nexcept MissingExtra as e:\n    print(e, e.extra)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert "pip install 'stream-mf2[wpt]' wpt" in out.stdout


def test_fixture_files_exist() -> None:
    for name, _ in PAGES:
        assert Path(FIX / f"{name}.xml").is_file() and Path(FIX / f"{name}.html").is_file()


def test_match_html_equals_the_serializer() -> None:
    from stream_mf2.html.serialize import serialize_children
    from stream_mf2.wpt._html import inner_html
    from stream_mf2.wpt.find import full_dom

    for path in [*sorted((REPO / "fixtures").rglob("*.html"))]:
        sink = full_dom(path.read_bytes().decode("utf-8", "replace"))
        stack = list(sink.document.children)
        n = 0
        while stack:
            node = stack.pop()
            if isinstance(node, Element):
                if n % 7 == 0:
                    assert inner_html(node) == serialize_children(node).strip(" \t\n\f\r"), (path.name, node)
                n += 1
                stack.extend(node.children)


def test_marked_slices_equal_each_elements_own_walk() -> None:
    """A nested match's HTML and text are cut from its parent's walk (``marked``): for every
    element of the fixture pages (nested marks at every depth, text-only elements, empty ones,
    raw text, SVG), the slice is what walking the element alone gives."""
    from stream_mf2.html.dom import HTML_NS
    from stream_mf2.html.serialize import VOID_ELEMENTS
    from stream_mf2.wpt._html import html_and_text, marked
    from stream_mf2.wpt.find import full_dom

    checked = 0
    for path in [*sorted((REPO / "fixtures").rglob("*.html"))]:
        sink = full_dom(path.read_bytes().decode("utf-8", "replace"))
        root = next(c for c in sink.document.children if isinstance(c, Element))
        marks: set[Element] = set()
        stack = list(root.children)
        while stack:
            node = stack.pop()
            if isinstance(node, Element):
                if node.template_contents is None and not (node.namespace == HTML_NS and node.name in VOID_ELEMENTS):
                    marks.add(node)
                stack.extend(node.children)
        spans = marked(root, marks)
        assert spans[root] == html_and_text(root), path.name
        for el in marks:
            if el in spans:  # (not below a template: its children are not serialised)
                assert spans[el] == html_and_text(el), (path.name, el)
                checked += 1
    assert checked > 1000


def test_selecting_walk_is_select_many_and_marked() -> None:
    """The walk that writes a match's HTML while following its nested paths (``selecting``)
    selects what ``select_many`` does, places and order, and cuts the same pairs as
    ``marked`` of the elements it marks (every one, or the first with the id)."""
    from stream_mf2.html.dom import HTML_NS
    from stream_mf2.html.serialize import VOID_ELEMENTS
    from stream_mf2.wpt._html import Selection, marked, selecting
    from stream_mf2.wpt._paths import Place, descendants, select_many
    from stream_mf2.wpt._xpath import compile_xpath
    from stream_mf2.wpt.find import full_dom

    paths = [
        compile_xpath(x, relative_ok=True)
        for x in (".//a", './/div[contains(@class, "e")]', "*", ".//a/@href", "p", ".//li/text()")
    ]
    marking = [1, 2, 1, 0, 2, 0]
    tagids: list[str | None] = [None, None, None, None, "x", None]
    checked = 0
    pages = [*sorted((REPO / "fixtures" / "wpt").rglob("*.html")), REPO / "fixtures" / "bench" / "blog-home.html"]
    for path in pages:
        sink = full_dom(path.read_bytes().decode("utf-8", "replace"))
        for place in descendants(sink.document, Place(None, None, "", 0, 0)):
            el = place.element
            assert el is not None
            if el.template_contents is not None or (el.namespace == HTML_NS and el.name in VOID_ELEMENTS):
                continue
            want = [(i, p.xpath()) for i, p in select_many(paths, el, place)]
            selection = Selection(paths, marking, tagids)
            spans = selecting(el, place, selection)
            assert not selection.incomplete
            assert [(i, p.xpath()) for i, p in selection.found] == want, (path.name, place.xpath())
            marks = {spans_el for spans_el in spans if spans_el is not el}
            for i, p in selection.found:
                q = p.element
                assert q is not None
                if marking[i] == 1 and q.template_contents is None and q.name not in VOID_ELEMENTS:
                    assert q in marks
            assert spans == marked(el, marks), (path.name, place.xpath())
            checked += len(want)
    assert checked > 1000


def test_selecting_walk_leaves_template_children_to_select() -> None:
    """A nested path into a ``template``'s children (a tree not from the parser: the parser
    fills its contents) is not followed by the HTML walk, which writes the contents: the
    match falls back to ``select`` and still finds it."""
    from stream_mf2.html.dom import DocumentFragment, Element, Text
    from stream_mf2.wpt._html import Selection, selecting
    from stream_mf2.wpt._objects import element_match
    from stream_mf2.wpt._paths import Place

    root = Element("div")
    template = Element("template")
    template.template_contents = DocumentFragment()
    p = Element("p")
    p.children.append(Text("inside"))
    p.children[0].parent = p
    template.children.append(p)
    p.parent = template
    root.children.append(template)
    template.parent = root
    place = Place(None, root, "div", 1, 1)
    xml = (
        '<ow:wpt xmlns:ow="http://www.omfica.org/schemas/ow/0.9" ow:host="e.com"><ow:template ow:name="t">'
        '<ow:block ow:xpath="//div">d<ow:block ow:xpath=".//p" ow:type="repeatable">d.p</ow:block>'
        "</ow:block></ow:template></ow:wpt>"
    )
    block = load(xml).templates[0].blocks[0]
    assert block.blocks[0].xpath is not None
    selection = Selection([block.blocks[0].xpath], [1], [None])
    selecting(root, place, selection)
    assert selection.incomplete
    match = element_match(root, place, block)
    assert match is not None
    (nested,) = match["blocks"][0]["matches"]
    assert nested["text"] == "inside" and nested["xpath"] == "/div[1]/template[1]/p[1]"


def test_template_element_inside_a_match_with_nested_paths() -> None:
    """A ``<template>`` inside a block match whose nested blocks follow ``//`` paths (a
    WordPress post with a client-side template, say): the walk that writes the match's HTML
    writes the template's contents and follows no path into them (they are not the DOM's
    children); it used to fail the matcher there (an assertion: no place for the contents)."""
    xml = (
        f'<ow:wpt {OW} ow:host="example.com"><ow:template ow:name="t">'
        '<ow:block ow:xpath="//article" ow:type="repeatable">entry'
        '<ow:block ow:xpath=".//a/@href" ow:type="repeatable">entry.link</ow:block>'
        '<ow:block ow:xpath=".//time/@datetime">entry.date</ow:block></ow:block>'
        "</ow:template></ow:wpt>"
    )
    page = (
        b"<!doctype html><html><head><title>Blog</title></head><body><main>"
        b'<article class="post"><h2><a href="/hello">Hello</a></h2><p>First &amp; last.</p>'
        b'<template id="reply"><form><a href="/in-template">reply</a><time datetime="1999">x</time>'
        b"</form></template>"
        b'<footer><time datetime="2024-05-01">May 1</time> <a href="/tag/x" rel="tag">x</a></footer>'
        b"</article></main></body></html>"
    )
    template = load(xml).templates[0]
    whole = parse(page, "http://example.com/p", wpt=template)
    (entry,) = [b for b in whole["wpt"][0]["blocks"] if b["concept"] == "entry"]
    (match,) = entry["matches"]
    assert match["html"].count('<a href="/in-template">reply</a>') == 1  # (the contents, written)
    assert "reply" not in match["text"]  # (textContent: the contents are not children)
    links, date = match["blocks"]
    assert [m["text"] for m in links["matches"]] == ["/hello", "/tag/x"]
    assert [m["text"] for m in date["matches"]] == ["2024-05-01"]
    want = [(e.block, e.match) for e in _run(page, "http://example.com/p", template)[0] if isinstance(e, WptMatchEvent)]
    assert want
    for label, chunks in chunking.chunkings(page):
        events = _run(page, "http://example.com/p", template, chunks)[0]
        have = [(e.block, e.match) for e in events if isinstance(e, WptMatchEvent)]
        assert have == want, label


def test_wpt_bench_runs(tmp_path: Path) -> None:
    from bench import wpt_bench

    (tmp_path / "a.html").write_bytes((FIX / "listing.html").read_bytes())
    doc = wpt_bench.measure(True, lambda line: None, sizes=[100_000], fixtures=tmp_path)
    (row,) = doc["overhead"]["rows"]
    assert row["matches"] > 0 and row["plain_s"] > 0
    divs, rows = doc["stream"]  # the two shapes: divs, then one table (tbody inserted by the parser)
    assert (divs["shape"], rows["shape"]) == ("divs", "table")
    table = wpt_bench.table(doc)
    assert "| a.html |" in table
    for s in (divs, rows):
        # every row generated is one match, each with all its nested blocks
        assert s["matches"] == s["rows"] > 50 and s["incomplete_matches"] == 0 and "error" not in s
        assert s["peak_rss_bytes"] > 0 and s["first_match_s"] is not None
        assert f"| {s['matches']} |" in table
    assert "### WPT: one-table stream" in table


def test_readme_worked_example_is_the_real_output() -> None:
    import json

    readme = (REPO / "docs" / "guides" / "wpt-authoring.md").read_text("utf-8")
    block = readme.split("<!-- wpt-example-output -->", 1)[1].split("```json\n", 1)[1].split("\n```", 1)[0]
    (page,) = _pages("readme", "https://records.example/ar-42")
    assert json.loads(block) == page
    assert (FIX / "readme.xml").read_text("utf-8").strip() in readme
    assert (FIX / "readme.html").read_text("utf-8").strip() in readme


def test_memory_stays_flat_on_a_long_repeatable_stream() -> None:
    """A page of many matching rows: what the parser holds does not grow with the rows."""
    t = load(
        f"""<ow:wpt {OW} ow:host="h"><ow:template ow:name="T">
<ow:block ow:xpath='//*[@id="list"]/div' ow:type="repeatable">row<ow:block ow:xpath="a">link</ow:block></ow:block>
</ow:template></ow:wpt>"""
    ).templates[0]
    parser = Parser("http://h/", wpt=t)
    held: list[int] = []
    matches = 0
    parser.feed_events("<!doctype html><body><div id=list>")
    for i in range(3000):
        events = parser.feed_events(f'<div class="h-entry"><a href="/{i}">row {i}</a> <span class="p-name">n{i}</span></div>')
        matches += sum(isinstance(e, WptMatchEvent) for e in events)
        if i % 500 == 499:
            wpt = parser._wpt
            assert wpt is not None
            held.append(parser._sink.tracked + len(wpt._places) + len(wpt._candidates))
    events = parser.feed_events("</div>") + parser.close_events()
    matches += sum(isinstance(e, WptMatchEvent) for e in events)
    assert matches == 3000
    assert max(held) < 20 and held[0] == held[-1]


def test_mf2_unchanged_with_stream_children_and_a_template() -> None:
    data = (REPO / "fixtures" / "bench" / "feed-large.html").read_bytes()
    t = load(
        f"""<ow:wpt {OW} ow:host="h"><ow:template ow:name="T">
<ow:block ow:xpath="/html/body/div/article/h2/a" ow:type="repeatable">title</ow:block>
<ow:block ow:xpath="//*[@id='post-3']">post</ow:block></ow:template></ow:wpt>"""
    ).templates[0]
    plain = parse(data, "http://h/")
    both = parse(data, "http://h/", stream_children=True, wpt=t)
    pages = both.pop("wpt")
    assert both == plain
    assert len(pages[0]["blocks"][0]["matches"]) > 100 and len(pages[0]["blocks"][1]["matches"]) == 1
    # the streamed children (removed from the tree once streamed) were shown to WPT first
    assert parse(data, "http://h/", wpt=t)["wpt"] == pages


def test_load_follows_the_input_rule() -> None:
    # a str is the template itself; a file name as str is refused with a hint, not opened
    with pytest.raises(TypeError, match=r"pathlib\.Path"):
        load(str(FIX / "artist.xml"))
    with pytest.raises(TypeError, match=r"os\.PathLike"):
        load(None)  # type: ignore[arg-type]
    assert load(FIX / "artist.xml") == load((FIX / "artist.xml").read_text(encoding="utf-8"))
    assert load(FIX / "artist.xml") == load((FIX / "artist.xml").read_bytes())


def _late_page(html: str, xpath: str, chunks: list[bytes], budget: int = 0) -> tuple[list[str], list[str]]:
    """The matches and errors of one block; ``budget``: ``max_misnest_nodes`` (0 by default: nothing
    held below misnested formatting tags, so their late changes show as they stream)."""
    from stream_mf2.wpt import Block, Template
    from stream_mf2.wpt._compile import compile_xpath

    template = Template("t", None, None, (Block(None, None, None, compile_xpath(xpath), None, True, (), 0, 0),), 0, 0, "x")
    parser = Parser("http://x/", wpt=template, max_misnest_nodes=budget)
    events: list[Any] = []
    for c in chunks:
        events.extend(parser.feed_events(c))
    events.extend(parser.close_events())
    page = collect_pages(events)[0]
    return [m["xpath"] for m in page["blocks"][0]["matches"]], page.get("errors", [])


LATE = [
    # (page, path, matches of the stream, kind of change reported or None: then equal to the full DOM)
    ("<b>1<div>2</b>3</div>", "/html/body/div[1]", [], "moved"),
    ("<b>1<div>2</b>3</div>", "/html/body/div/b", [], "cloned"),
    ("<b>1<div>2</b>3</div>", "/html/body/b", ["/html[1]/body[1]/b[1]"], None),
    ("<table><tr><div>", "/html/body/*[2]", [], "foster-parented"),
    ("<table><tr><div>", "/html/body/div", ["/html[1]/body[1]/div[1]"], None),
    ('<body><p>x</p><body id=main>', '//*[@id="main"]/p', [], "late-attributes"),
    ("<body><p>x</p><body class=a>", '//*[@id="main"]/p', [], None),
    (
        "<select><button><selectedcontent></selectedcontent></button><option><b>x</b></option></select>",
        "/html/body/select/button/selectedcontent/b",
        [],
        "selectedcontent",
    ),
    # <frameset> replacing the body: exact (the frameset takes the body's position)
    ("<div><p></div><frameset><frame>", "/html/*[2]", ["/html[1]/frameset[1]"], None),
    ("<div><p></div><frameset><frame>", "/html/body/div", [], None),
]


HELD = [
    # the adoption agency's changes above, within max_misnest_nodes: equal to the full DOM
    ("<b>1<div>2</b>3</div>", "/html/body/div[1]", ["/html[1]/body[1]/div[1]"]),
    ("<b>1<div>2</b>3</div>", "/html/body/div/b", ["/html[1]/body[1]/div[1]/b[1]"]),
    ("<b>1<div>2</b>3</div>", "/html/body/b", ["/html[1]/body[1]/b[1]"]),
]


@pytest.mark.parametrize(("html", "xpath", "want"), HELD)
def test_misnested_formatting_changes_are_exact_within_the_budget(html: str, xpath: str, want: list[str]) -> None:
    data = html.encode()
    for label, chunks in chunking.chunkings(data):
        have, errors = _late_page(html, xpath, chunks, 4096)
        assert have == want, label
        assert not [e for e in errors if e.startswith("wpt: ")], label


@pytest.mark.parametrize(("html", "xpath", "want", "kind"), LATE)
def test_late_tree_changes_are_never_silent(html: str, xpath: str, want: list[str], kind: str | None) -> None:
    """A match missing because tree construction changed an element late is reported in the page's errors."""
    from stream_mf2.wpt._match import LATE_CHANGES

    data = html.encode()
    for label, chunks in chunking.chunkings(data):
        have, errors = _late_page(html, xpath, chunks)
        assert have == want, label
        late = [e for e in errors if e.startswith("wpt: ")]
        if kind is None:
            assert late == [], label
        else:
            assert any(LATE_CHANGES[kind] in e for e in late), (label, late)
