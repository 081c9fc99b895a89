"""What each kind of reference sees, one rule each (the table in docs/guides/wpt-authoring.md).

* URL patterns (``ow:url``, ``ow:urls``): the page URL and the pattern's literal text,
  both normalised (lower-case scheme and host, default port and fragment dropped,
  percent-encodings in upper case, empty path ``/``). An upper-case host, ``:443`` or a
  ``#fragment`` made a template not apply.
* ``ow:pattern`` with a path or id: the element's text content as the DOM has it
  (character references decoded, U+00A0 kept); for ``text()``/``@name``, the node's value.
* ``ow:pattern`` alone: the page source as decoded characters, markup and character
  references as written (``&amp;`` is five characters).
* a match's ``text``: the selected node's text with ASCII whitespace collapsed (U+00A0 is
  not whitespace in HTML, so it stays: it used to be collapsed with the spaces).
"""

from __future__ import annotations

import pytest

from stream_mf2 import parse
from stream_mf2.wpt import load
from stream_mf2.wpt._urlnorm import normalize_url

OW = 'xmlns:ow="http://www.omfica.org/schemas/ow/0.9"'


def _wpt(url: str, blocks: str = '<ow:block ow:tagid="x">c</ow:block>', host: str = "https://shop.example") -> str:
    return f'<ow:wpt {OW} ow:host="{host}"><ow:template ow:name="T" ow:url="{url}">{blocks}</ow:template></ow:wpt>'


@pytest.mark.parametrize(
    ("raw", "normal"),
    [
        ("HTTPS://Shop.Example/list/7", "https://shop.example/list/7"),
        ("https://shop.example:443/list/7", "https://shop.example/list/7"),
        ("http://shop.example:80", "http://shop.example/"),
        ("https://shop.example:8443/a", "https://shop.example:8443/a"),
        ("https://shop.example/list/7#reviews", "https://shop.example/list/7"),
        ("https://shop.example/caf%c3%a9?q=%e2%82%ac", "https://shop.example/caf%C3%A9?q=%E2%82%AC"),
        ("https://User@[2001:DB8::1]:443/x", "https://User@[2001:db8::1]/x"),
    ],
)
def test_page_urls_are_normalised(raw: str, normal: str) -> None:
    assert normalize_url(raw) == normal


@pytest.mark.parametrize(
    "page_url",
    [
        "https://shop.example/list/7",
        "HTTPS://SHOP.EXAMPLE/list/7",
        "https://shop.example:443/list/7",
        "https://shop.example/list/7#top",
        "https://Shop.Example:443/list/7#",
    ],
)
@pytest.mark.parametrize(
    "pattern",
    [
        "https://shop.example/list/(page.number[[0-9]+])",
        "https://Shop.Example:443/list/(page.number[[0-9]+])",
        "HTTPS://shop.example/list/(page.number[[0-9]+])",
    ],
)
def test_a_template_applies_however_the_url_is_written(page_url: str, pattern: str) -> None:
    wpt = load(_wpt(pattern))
    ((_, captures),) = wpt.choose(page_url)
    assert captures == {"page.number": ["7"]}
    doc = parse('<p id="x">hi', page_url, wpt=wpt)
    assert doc["wpt"][0]["url_captures"] == {"page.number": ["7"]}


def test_literal_patterns_and_percent_encodings() -> None:
    wpt = load(_wpt("https://shop.example:443/caf%c3%a9#menu"))
    assert len(wpt.choose("https://SHOP.example/caf%C3%A9")) == 1
    assert wpt.choose("https://shop.example/cafe") == []
    bare = load(_wpt("https://Shop.Example"))
    assert len(bare.choose("https://shop.example/")) == 1
    assert len(bare.choose("https://shop.example")) == 1


def test_what_a_capture_matches_is_not_rewritten() -> None:
    # the host is in a capture: the author's expression decides (the URL is lower-cased)
    wpt = load(_wpt("https://(site.host[[A-Z.]+])/x", host="shop.example"))
    assert wpt.choose("https://SHOP.EXAMPLE/x") == []
    wpt = load(_wpt("https://(site.host[[a-z.]+])/x", host="shop.example"))
    assert wpt.choose("https://SHOP.EXAMPLE/x")[0][1] == {"site.host": ["shop.example"]}


PAGE = "<p id=x>Price:&nbsp;12&nbsp;€ &amp; more\n  text</p><div title='a&amp;b'>Caf&eacute;</div>"


def test_element_patterns_see_the_dom_text_and_text_collapses_ascii_whitespace_only() -> None:
    blocks = (
        '<ow:block ow:tagid="x" ow:pattern="(price[[0-9]+])\u00a0€">price</ow:block>'
        '<ow:block ow:tagid="x" ow:pattern="&amp; more">amp</ow:block>'
        '<ow:block ow:xpath="//div/@title" ow:pattern="(a[a&amp;b])">title</ow:block>'
    )
    doc = parse(PAGE, "https://shop.example/", wpt=load(_wpt("https://shop.example/", blocks)))
    price, amp, title = doc["wpt"][0]["blocks"]
    (m,) = price["matches"]
    assert m["captures"] == {"price": ["12"]}
    assert m["text"] == "Price:\u00a012\u00a0€ & more text"  # U+00A0 kept, the newline and spaces collapsed
    assert len(amp["matches"]) == 1  # "&amp;" in the page is "&" in the DOM
    assert title["matches"][0]["captures"] == {"a": ["a&b"]}


def test_page_source_patterns_see_markup_and_references_as_written() -> None:
    blocks = (
        '<ow:block ow:pattern="&amp;amp; (rest[[a-z]+])">source</ow:block>'
        '<ow:block ow:pattern="Caf(e[é])">decoded</ow:block>'
        '<ow:block ow:pattern="Caf(e[&amp;eacute;])">as-written</ow:block>'
    )
    doc = parse(PAGE, "https://shop.example/", wpt=load(_wpt("https://shop.example/", blocks)))
    source, decoded, written = doc["wpt"][0]["blocks"]
    assert source["matches"][0]["captures"] == {"rest": ["more"]}
    assert decoded["matches"] == []
    assert written["matches"][0]["text"] == "Caf&eacute;"
