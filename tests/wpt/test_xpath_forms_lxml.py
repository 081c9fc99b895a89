"""The XPath forms people paste, streamed, against lxml's XPath over html5lib's tree.

Descendant steps (``//div``, ``/html/body//p``), attribute predicates (``[@a]``,
``[@class="x"]``, ``contains()``, ``starts-with()``, joined by ``and``), ``[last()]``
and ``text()`` / ``@name`` as the final step, on pages written like real ones (a
WordPress article, a phpBB forum thread, a shop's product table with ``thead``,
``tbody`` and ``tfoot``). Each path is a repeatable block and a first-match block; the
streamed matches (element paths, and for ``text()``/``@name`` the values) must be
lxml's, in document order, in every chunking: whole, byte by byte, 2- and 3-way splits
and random chunkings.
"""

from __future__ import annotations

from typing import Any

import pytest

from stream_mf2 import Parser
from stream_mf2.wpt import Block, Template, collect_pages
from stream_mf2.wpt._xpath import compile_xpath
from tests.support import chunking
from tests.support.suites import REPO

html5lib = pytest.importorskip("html5lib")
etree = pytest.importorskip("lxml.etree")

PAGES = REPO / "fixtures" / "wpt" / "pages"

#: Paths that make sense on any page.
COMMON = [
    "//div",
    "/html/body//p",
    "//a/@href",
    "//title/text()",
    "//li[last()]",
    "//ul/li[last()]/a",
    "/html/body/*[last()]",
    "//p[@class]",
    "//div[contains(@class, 'in')]",
    "//div[starts-with(@class, 'p') and @id]",
    "//meta[@charset]/@charset",
    "//*[last()]/text()",
    "//span/text()",
    "//img/@alt",
    "//div//a[@href]/text()",
    "/html/head/meta[2]/@content",
    "//ul//li[2]",
]

PER_PAGE: dict[str, list[str]] = {
    "wordpress-article.html": [
        '//article[contains(@class, "type-post")]//h1[@class="entry-title"]/text()',
        '//meta[@property="og:title"]/@content',
        "//div[@class='entry-content']/p",
        "//div[@class='entry-content']/*[last()]",
        '//span[@class="author vcard"]/a/text()',
        '//time[contains(@class, "published")]/@datetime',
        '//footer[@class="entry-footer"]//a[@rel="tag"]/text()',
        '//*[@id="comments"]//li[contains(@class, "comment")]',
        '//ol[@class="comment-list"]/li[last()]//p',
        '//ul[@id="primary-menu"]/li[last()]/a/@href',
        '//ul[@class="wp-block-list"]/li/text()',
        "//li[contains(@class, 'menu-item')]//ul/li",
        "/html/body/div/div/main/article/div[2]/p[last()]",
    ],
    "forum-thread.html": [
        '//div[contains(@class, "post ")]',
        '//div[contains(@class, "post")]//h3/a/text()',
        '//p[@class="author"]//a[contains(@class, "username")]/text()',
        '//div[@class="content"]',
        "//div[@class='content']/text()",
        "//dl[@class='postprofile']/dd[last()]",
        "//div[@class='pagination']/ul/li[last()]/a/@href",
        '//*[@id="page-body"]/div[starts-with(@id, "p")]/@id',
        "//blockquote/@cite",
        "//time/@datetime",
    ],
    "product-table.html": [
        '//table[@class="products"]/tbody/tr',
        '//table[@id="product-list"]/tbody/tr[contains(@class, "sold-out")]/td[2]/a/text()',
        "//tbody/tr[last()]/td[1]/text()",
        "//tbody/tr/td[@class='price']/span[last()]/text()",
        "//tr[@data-sku]/@data-sku",
        "//thead/tr/th[last()]",
        "//tbody/tr[2]/*[last()]/a/@href",
        "//td[contains(@class, 'in-stock')]/text()",
        "/html/body/div[3]/table/tfoot/tr/td/text()",
        "//tbody//a[@rel='nofollow']",
    ],
}


def _squeeze(text: str) -> str:
    return " ".join(t for t in text.translate({9: " ", 10: " ", 12: " ", 13: " "}).split(" ") if t)


def _path(el: Any) -> str:
    steps = []
    while el is not None:
        pos = 1 + sum(1 for _ in el.itersiblings(el.tag, preceding=True))
        steps.append(f"/{el.tag}[{pos}]")
        el = el.getparent()
    return "".join(reversed(steps))


def _lxml(tree: Any, xpath: str) -> list[tuple[str, str | None]]:
    """(element path, value) of each node lxml selects; the value for text and attribute nodes."""
    out: list[tuple[str, str | None]] = []
    for r in tree.xpath(xpath):
        if isinstance(r, str):
            owner = r.getparent()
            if r.is_tail:
                owner = owner.getparent()
            out.append((_path(owner), _squeeze(str(r))))
        else:
            out.append((_path(r), None))
    return out


def _ours(match: dict[str, Any]) -> tuple[str, str | None]:
    xpath: str = match["xpath"]
    if "/text()[" in xpath or "/@" in xpath:
        return xpath.rsplit("/", 1)[0], match["text"]
    return xpath, None


def _runs(data: bytes) -> list[tuple[str, list[bytes]]]:
    runs = [("whole", [data]), ("bytes", chunking.one_by_one(data))]
    runs += list(chunking.two_way(data))[:: max(1, len(data) // 6)]
    runs += list(chunking.three_way(data, 4))
    runs += [(f"random({chunking.SEED + k})", chunking.random_chunks(data, chunking.SEED + k)) for k in range(2)]
    return runs


def _stream(template: Template, chunks: list[bytes]) -> list[list[tuple[str, str | None]]]:
    parser = Parser("http://example.com/", wpt=template)
    events: list[object] = []
    for c in chunks:
        events.extend(parser.feed_events(c))
    events.extend(parser.close_events())
    (page,) = collect_pages(events)
    assert not page.get("errors"), page.get("errors")
    return [[_ours(m) for m in b["matches"]] for b in page["blocks"]]


@pytest.mark.parametrize("name", sorted(PER_PAGE))
def test_streamed_xpath_forms_equal_lxml(name: str) -> None:
    data = (PAGES / name).read_bytes()
    tree = html5lib.parse(data, treebuilder="lxml", namespaceHTMLElements=False)
    queries = [*COMMON, *PER_PAGE[name]]
    blocks: list[Block] = []
    expected: list[list[tuple[str, str | None]]] = []
    for q in queries:
        want = _lxml(tree, q)
        xpath = compile_xpath(q)
        blocks.append(Block(None, None, None, xpath, None, True, (), 0, 0))
        blocks.append(Block(None, None, None, xpath, None, False, (), 0, 0))
        expected += [want, want[:1]]
    assert sum(1 for w in expected if w) >= len(expected) * 3 // 4, "most paths select something on the page"
    template = Template("forms", None, None, tuple(blocks), 0, 0, "example.com")
    for label, chunks in _runs(data):
        got = _stream(template, chunks)
        for i, (want, have) in enumerate(zip(expected, got, strict=True)):
            assert have == want, f"{name} [{label}] {queries[i // 2]} ({'first' if i % 2 else 'all'})"
