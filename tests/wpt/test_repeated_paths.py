"""``stream-mf2 xpath ... --repeats`` (issue 25, item 12): paths generalised over siblings.

Each generalised path is checked against lxml's XPath over html5lib's tree (the WHATWG DOM
built by an independent parser): it selects the number of elements it says, and the element
the author started from is one of them."""

from __future__ import annotations

import json

import pytest

from stream_mf2.wpt import element_paths
from stream_mf2.wpt.generalise import repeated_paths
from tests.support.cli import run_cli
from tests.support.suites import REPO

html5lib = pytest.importorskip("html5lib")

FIX = REPO / "fixtures" / "wpt"

BLOG = """<!doctype html><title>Archive</title>
<body><div id="page"><header><h1>My Blog</h1></header>
<main id="main">
<article class="post"><h2><a href="/a">First</a></h2><p>One.</p><p>Two.</p></article>
<article class="post"><h2><a href="/b">Second</a></h2><p>Three.</p></article>
<article class="post"><h2><a href="/c">Third</a></h2><p>Four.</p><p>Five.</p><p>Six.</p></article>
</main>
<ul class="tags"><li>a<li>b<li>c<li>d</ul>
</div></body>
"""

CASES = [
    ((FIX / "tbody.html").read_text(), "Pear"),
    ((FIX / "listing.html").read_text(), "japan"),
    (BLOG, "Second"),
    (BLOG, "Five."),
    (BLOG, "c"),
]


@pytest.mark.parametrize(("html", "text"), CASES)
def test_every_generalised_path_selects_what_lxml_selects(html: str, text: str) -> None:
    found = element_paths(html, text=text)
    assert found
    xpaths = [str(f["xpath"]) for f in found]
    all_repeats = repeated_paths(html, xpaths)
    assert any(all_repeats), "every case has a repeating step"
    tree = html5lib.parse(html, treebuilder="lxml", namespaceHTMLElements=False)
    for xpath, repeats in zip(xpaths, all_repeats, strict=True):
        (start,) = tree.xpath(xpath)
        for r in repeats:
            for path in (r["xpath"], r["anchored"]):
                if path is None:
                    continue
                selected = tree.xpath(path)
                assert len(selected) == r["selects"] > 1, (path, len(selected), r["selects"])
                assert start in selected, path


def test_the_nearest_repeating_step_comes_first() -> None:
    [found] = element_paths(BLOG, text="Five.")
    [repeats] = repeated_paths(BLOG, [str(found["xpath"])])
    assert [(r["anchored"], r["selects"]) for r in repeats] == [
        ('//*[@id="main"]/article[3]/p', 3),  # every paragraph of this post
        ('//*[@id="main"]/article/p[2]', 2),  # the second paragraph of every post
    ]


def test_the_command_adds_repeats_only_when_asked() -> None:
    plain = run_cli("xpath", str(FIX / "tbody.html"), "--text", "Pear")
    asked = run_cli("xpath", str(FIX / "tbody.html"), "--text", "Pear", "--repeats")
    [line] = [json.loads(x) for x in plain.stdout.splitlines()]
    [with_repeats] = [json.loads(x) for x in asked.stdout.splitlines()]
    assert "repeats" not in line
    assert with_repeats.pop("repeats") == [
        {
            "xpath": "/html/body/div[2]/table/tbody/tr[3]/td",
            "anchored": '//*[@id="prices"]/tbody/tr[3]/td',
            "selects": 2,
        },
        {
            "xpath": "/html/body/div[2]/table/tbody/tr/td[1]",
            "anchored": '//*[@id="prices"]/tbody/tr/td[1]',
            "selects": 3,
        },
    ]
    assert with_repeats == line
