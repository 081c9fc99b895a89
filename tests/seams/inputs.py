"""The inputs of the seam matrix: seven pages, one Website Parse Template, the options, two archives.

Every page is served at a URL of ``https://seams.example``; the template has one template per
kind of page, chosen by that URL (as ``stream-mf2 wpt`` chooses it per WARC record by its
target URI), so one run over the archives exercises every reference kind at once:

* ``entry.html``: mf2 items, rels and rel-urls, a ``<head>`` for the meta item, non-ASCII text;
  WPT blocks of every kind *inside* an mf2 root (``ow:xpath``, ``ow:tagid``, ``ow:tagid`` with a
  pattern over the element's text) and a pattern over the page source;
* ``notes.html``: notes (a value emptied past :data:`MAX_ITEM_CHARS`, an include target that never
  comes), and the template with no match at all;
* ``ar-42`` (``fixtures/wpt/readme.html``): absolute and id-anchored XPaths over the WHATWG DOM,
  a nested block with a pattern, an h-card around them;
* ``yahoo/ar-8206256`` (``fixtures/wpt/artist.html``): ``ow:tagid`` blocks, one with nested blocks;
* ``index.php`` (``fixtures/wpt/markup-pattern.html``): ``ow:pattern`` blocks over the page
  source, no charset declared (the matches wait while a re-parse is possible);
* ``news/harbour-reopens`` (:data:`NEWS`): a WordPress news article with every other syntax (JSON-LD,
  microdata with a page item and an ``itemref``, RDFa, OpenGraph, a Twitter card, Dublin Core in
  the head and the body) beside its mf2; no template applies to it;
* ``cz/late``: ISO-8859-2 declared by a ``<meta>`` past the prescan window, after non-ASCII
  bytes: the page is parsed again from the start (a note), and a pattern with a non-ASCII
  character over its source matches only in the right encoding.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from stream_mf2.core.syntaxes import SYNTAXES
from stream_mf2.wpt import Wpt, load
from tests.support.suites import REPO

FIXTURES: Final = REPO / "fixtures" / "wpt"
HOST: Final = "https://seams.example"

#: The budget that empties the long value of ``notes.html`` (and nothing on the other pages).
MAX_ITEM_CHARS: Final = 2000

#: The parse options every front end is given (the CLI flags below say the same): each one a
#: front end failed to pass on would show as a difference.
#: Every syntax is asked for (``--syntaxes all``): each has its row, and mf2 must not change beside them.
OPTIONS: Final[dict[str, Any]] = {
    "metaformats": True,
    "lang": True,
    "text": "normalized",
    "max_item_chars": MAX_ITEM_CHARS,
    "syntaxes": frozenset(SYNTAXES),
}
CLI_OPTIONS: Final = (
    "--metaformats", "--lang", "--text", "normalized", "--max-item-chars", str(MAX_ITEM_CHARS), "--syntaxes", "all"
)


@dataclass(frozen=True)
class Page:
    """One page: its name (a file name), its URL and its bytes."""

    name: str
    url: str
    body: bytes


ENTRY = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Seams — where features meet</title>
<meta name="description" content="One page through every front end">
<meta property="og:image" content="/img/seams.png">
<link rel="me" href="https://social.example/@ann">
<link rel="alternate" type="application/atom+xml" href="/feed.atom" title="Feed">
<link rel="alternate" hreflang="sv" href="/sv/">
</head><body>
<article class="h-entry" id="post">
 <h1 class="p-name">Björk at the seams</h1>
 <a class="u-url" href="/entry.html">permalink</a>
 <div class="e-content"><p>Text with <a rel="tag" href="/tags/x">a tag</a> and <b>markup</b>.</p></div>
 <div class="p-author h-card" id="author"><a class="p-name u-url" href="https://ann.example/">Ann</a></div>
 <span id="stamp">published 2024-03-01</span>
 <ul class="tags"><li>one<li>two<li>three</ul>
</article>
<p class="h-card">Bob <a rel="nofollow" href="/bob">home</a></p>
</body></html>
"""

NOTES = (
    "<!doctype html><title>Notes</title>"
    '<div class="h-entry"><p class="p-name">' + "x" * (2 * MAX_ITEM_CHARS) + '</p><a class="u-url" href="/n">n</a></div>'
    '<div class="vcard" itemref="nowhere"><span class="fn">Carol</span></div>'
    '<div class="h-card"><span class="p-name">fine</span></div>'
)


#: A local news site on WordPress (Yoast, a schema theme, an RDFa breadcrumb plugin): every syntax at
#: once. JSON-LD in two blocks (a graph with an integer past 64 bits, an array in an HTML comment,
#: with a trailing comma), OpenGraph with arrays and ``article:``, a Twitter
#: card, Dublin Core in the head and a ``dcterms`` meta a plugin puts in the body, a microdata page
#: item on ``<body>`` with the article nested and an ``itemref``, an RDFa breadcrumb (``vocab``,
#: ``prefix``), and the mf2 classes of the theme.
NEWS = """<!DOCTYPE html>
<html lang="en-GB" prefix="og: https://ogp.me/ns# article: https://ogp.me/ns/article#">
<head>
<meta charset="utf-8">
<title>Harbour reopens after storm repairs – The Coastal Courier</title>
<link rel="schema.DC" href="http://purl.org/dc/elements/1.1/">
<link rel="schema.DCTERMS" href="http://purl.org/dc/terms/">
<meta name="DC.title" content="Harbour reopens after storm repairs">
<meta name="DC.creator" content="Jo Maréchal">
<meta name="DC.language" content="en-GB">
<meta name="DCTERMS.issued" content="2024-11-04">
<meta property="og:type" content="article">
<meta property="og:title" content="Harbour reopens after storm repairs">
<meta property="og:url" content="https://seams.example/news/harbour-reopens">
<meta property="og:image" content="https://seams.example/media/harbour.jpg">
<meta property="og:image:alt" content="Boats back in the harbour">
<meta property="og:image" content="https://seams.example/media/crane.jpg">
<meta property="article:published_time" content="2024-11-04T07:30:00+00:00">
<meta property="article:section" content="Local">
<meta property="article:tag" content="harbour">
<meta property="article:tag" content="storm">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:site" content="@coastalcourier">
<meta name="twitter:creator" content="@jomarechal">
<link rel="canonical" href="https://seams.example/news/harbour-reopens">
<script type="application/ld+json" class="yoast-schema-graph">{"@context":"https://schema.org","@graph":[
{"@type":"NewsArticle","@id":"https://seams.example/news/harbour-reopens#article",
 "headline":"Harbour reopens after storm repairs","datePublished":"2024-11-04T07:30:00+00:00",
 "author":{"@type":"Person","name":"Jo Maréchal"},"articleSection":["Local"],"wordCount":412,
 "identifier":98765432109876543210987},
{"@type":"WebPage","@id":"https://seams.example/news/harbour-reopens","name":"Harbour reopens"}]}</script>
<script type="application/ld+json">
<!--
[{"@context":"https://schema.org","@type":"Organization","name":"The Coastal Courier",
  "logo":"https://seams.example/logo.png",},
 {"@context":"https://schema.org","@type":"BreadcrumbList","itemListElement":[
  {"@type":"ListItem","position":1,"name":"News","item":"https://seams.example/news/"}]}]
-->
</script>
</head>
<body class="post-template-default single" itemscope itemtype="https://schema.org/WebPage">
<header class="site-header" itemscope itemtype="https://schema.org/WPHeader">
 <a href="/" rel="home" itemprop="url"><span itemprop="name">The Coastal Courier</span></a>
</header>
<nav class="breadcrumbs" vocab="https://schema.org/" typeof="BreadcrumbList">
 <span property="itemListElement" typeof="ListItem"><a property="item" typeof="WebPage" href="/news/"><span property="name">News</span></a><meta property="position" content="1"></span> ›
 <span property="itemListElement" typeof="ListItem"><span property="name">Harbour reopens</span><meta property="position" content="2"></span>
</nav>
<main>
<article class="h-entry post" itemprop="mainEntity" itemscope itemtype="https://schema.org/NewsArticle" itemref="byline-extra">
 <h1 class="p-name entry-title" itemprop="headline">Harbour reopens after storm repairs</h1>
 <p class="byline">By <span class="p-author h-card" itemprop="author" itemscope itemtype="https://schema.org/Person"><a class="u-url p-name" itemprop="url" href="/author/jo/"><span itemprop="name">Jo Maréchal</span></a></span>,
 <time class="dt-published" itemprop="datePublished" datetime="2024-11-04T07:30:00+00:00">4 November 2024</time></p>
 <div class="e-content" itemprop="articleBody"><p>The harbour opened again on Monday after <b>six weeks</b> of repairs.</p>
 <p>Fishing boats were the first <a rel="tag" href="/tag/harbour/">back in</a>.</p></div>
</article>
<p id="byline-extra"><span itemprop="wordCount">412</span> words</p>
<meta name="dcterms.modified" content="2024-11-05">
</main>
<footer><p>© 2024 <a rel="license" href="https://creativecommons.org/licenses/by-nd/4.0/">The Coastal Courier</a></p></footer>
</body>
</html>
"""

LATE_CHARSET = (
    "<!doctype html><html><head><title>\u010cesk\u00fd kraj</title>\n<!-- " + "padding " * 140 + "-->\n"
    '<meta charset="iso-8859-2"></head><body>'
    '<p class="h-card"><span class="p-name">Ji\u0159\u00ed</span> <a class="u-url" href="/jiri">home</a></p>'
    '<p id="price">Cena: 12 K\u010d</p></body></html>'
)


def pages() -> list[Page]:
    """The pages, in the order the archive holds them."""
    return [
        Page("entry.html", f"{HOST}/entry.html", ENTRY.encode()),
        Page("notes.html", f"{HOST}/notes.html", NOTES.encode()),
        Page("readme.html", f"{HOST}/ar-42", (FIXTURES / "readme.html").read_bytes()),
        Page("artist.html", f"{HOST}/yahoo/ar-8206256", (FIXTURES / "artist.html").read_bytes()),
        Page("markup-pattern.html", f"{HOST}/index.php", (FIXTURES / "markup-pattern.html").read_bytes()),
        Page("late-charset.html", f"{HOST}/cz/late", LATE_CHARSET.encode("iso-8859-2")),
        Page("news.html", f"{HOST}/news/harbour-reopens", NEWS.encode()),
    ]


# The blocks of the Artist, Yahoo and Markup templates are those of fixtures/wpt/readme.xml,
# artist.xml and markup-pattern.xml, on this host.
TEMPLATE = """<?xml version="1.0" encoding="UTF-8"?>
<ow:wpt xmlns:ow="http://www.omfica.org/schemas/ow/0.9" ow:host="https://seams.example">
  <ow:template ow:name="Entry" ow:url="https://seams.example/(page.name[[a-z]+]).html" ow:ontology="seams">
    <ow:block ow:xpath="/html/body/article/h1">page.title</ow:block>
    <ow:block ow:xpath='//*[@id="post"]/ul/li' ow:type="repeatable">page.tag</ow:block>
    <ow:block ow:tagid="author">page.author</ow:block>
    <ow:block ow:tagid="stamp" ow:pattern="published (page.date[[0-9-]+])">page.date</ow:block>
    <ow:block ow:pattern='rel="(page.rel[[a-z]+])" href="(page.link[[^"]+])"' ow:type="repeatable">page.link</ow:block>
  </ow:template>
  <ow:template ow:name="Artist" ow:url="https://seams.example/ar-(artist.id[[0-9]+])" ow:ontology="seams">
    <ow:block ow:xpath="/html/body/div[2]/h1">artist.name</ow:block>
    <ow:block ow:xpath='//*[@id="albums"]/tbody/tr' ow:type="repeatable">
      album
      <ow:block ow:xpath="td[2]" ow:pattern="(album.year[[0-9]{4}])">album.year</ow:block>
    </ow:block>
  </ow:template>
  <ow:template ow:name="Yahoo" ow:url="https://seams.example/yahoo/ar-(artist.id[[0-9]+])" ow:ontology="seams">
    <ow:block ow:tagid="yent-uhdr">
      menu
      <ow:block ow:xpath="li/a" ow:type="repeatable">menu.item</ow:block>
    </ow:block>
    <ow:block ow:tagid="art_img">artist.image</ow:block>
    <ow:block ow:tagid="biography">artist.bio</ow:block>
    <ow:block ow:xpath="/html/body/div[3]/table/tbody/tr/td[2]/div/h1">artist.name</ow:block>
    <ow:block ow:xpath="/html/body/div[3]/table/tbody/tr/td[2]/table/tbody/tr[22]">artist.album</ow:block>
  </ow:template>
  <ow:template ow:name="Markup" ow:url="https://seams.example/index.php" ow:ontology="seams">
    <ow:block ow:pattern='&lt;td bgcolor="FFFFFF" class="small"&gt;&lt;a href="/ar-(artist.id[[0-9]*])---(artist.name[[A-Za-z]*])" class="small"&gt;&lt;b&gt;(artist.name[[A-Za-z]*])' ow:type="repeatable">artist</ow:block>
    <ow:block ow:pattern="The Best Music Blogs on the Web">site.slogan</ow:block>
    <ow:block ow:pattern="Wellcome (member.name[[A-Za-z0-9]*])! Your member ID is (member.id[[0-9]*]).">member</ow:block>
    <ow:block ow:xpath="/html/body/p" ow:pattern="(site.visitors[[0-9]+]) visitors" ow:type="repeatable">site</ow:block>
  </ow:template>
  <ow:template ow:name="Late" ow:url="https://seams.example/cz/late" ow:ontology="seams">
    <ow:block ow:tagid="price">price</ow:block>
    <ow:block ow:pattern="Cena: (price.amount[[0-9]+]) K\u010d">price.amount</ow:block>
  </ow:template>
  <ow:ontology ow:name="seams">
    <ow:concept ow:name="page">
      <ow:has>name</ow:has><ow:has>title</ow:has><ow:has>tag</ow:has><ow:has>author</ow:has>
      <ow:has>date</ow:has><ow:has>rel</ow:has><ow:has>link</ow:has>
    </ow:concept>
    <ow:concept ow:name="artist">
      <ow:has>id</ow:has><ow:has>name</ow:has><ow:has>album</ow:has><ow:has>image</ow:has><ow:has>bio</ow:has>
    </ow:concept>
    <ow:concept ow:name="album"><ow:has>title</ow:has><ow:has>year</ow:has></ow:concept>
    <ow:concept ow:name="menu"><ow:has>item</ow:has></ow:concept>
    <ow:concept ow:name="member"><ow:has>name</ow:has><ow:has>id</ow:has></ow:concept>
    <ow:concept ow:name="site"><ow:has>slogan</ow:has><ow:has>visitors</ow:has></ow:concept>
    <ow:concept ow:name="price"><ow:has>amount</ow:has></ow:concept>
  </ow:ontology>
</ow:wpt>
"""

#: The template, loaded once (rows read block references from it).
WPT: Final[Wpt] = load(TEMPLATE)


@dataclass(frozen=True)
class Inputs:
    """The inputs on disk: each page as a file, the template file, and the archives of all pages."""

    folder: Path
    pages: tuple[Page, ...]
    template: Path
    #: Two archives, the first half of the pages gzipped (``.warc.gz``), the rest not (``.warc``).
    warcs: tuple[Path, Path]

    @classmethod
    def at(cls, folder: Path) -> Inputs:
        """The inputs' places under ``folder`` (:func:`write_inputs` writes them)."""
        return cls(folder, tuple(pages()), folder / "seams.xml", (folder / "seams-1.warc.gz", folder / "seams-2.warc"))

    def page_file(self, page: Page) -> Path:
        return self.folder / "pages" / page.name


def write_inputs(folder: Path) -> Inputs:
    """Write the pages, the template and the archives under ``folder``."""
    inputs = Inputs.at(folder)
    (folder / "pages").mkdir(parents=True, exist_ok=True)
    for page in inputs.pages:
        inputs.page_file(page).write_bytes(page.body)
    inputs.template.write_text(TEMPLATE, encoding="utf-8")
    half = len(inputs.pages) // 2
    write_warc(inputs.warcs[0], inputs.pages[:half], gzip=True)
    write_warc(inputs.warcs[1], inputs.pages[half:], gzip=False)
    return inputs


def write_warc(path: Path, some_pages: tuple[Page, ...], *, gzip: bool) -> None:
    """An archive (warcio): warcinfo, then per page a request and its response, and a CSS response."""
    with path.open("wb") as f:
        w = WARCWriter(f, gzip=gzip)
        w.write_record(w.create_warcinfo_record(path.name, {"software": "tests/seams"}))
        for page in some_pages:
            req = StatusAndHeaders("GET / HTTP/1.1", [("Host", "seams.example")], is_http_request=True)
            w.write_record(w.create_warc_record(page.url, "request", http_headers=req))
            # No charset in the header: the page's bytes decide, as for parse(bytes).
            head = StatusAndHeaders(
                "200 OK",
                [("Content-Type", "text/html"), ("Content-Length", str(len(page.body)))],
                protocol="HTTP/1.1",
            )
            w.write_record(w.create_warc_record(page.url, "response", payload=io.BytesIO(page.body), http_headers=head))
        css = b"body{color:red}"
        head = StatusAndHeaders("200 OK", [("Content-Type", "text/css")], protocol="HTTP/1.1")
        w.write_record(w.create_warc_record(f"{HOST}/a.css", "response", payload=io.BytesIO(css), http_headers=head))
