"""``stream-mf2 xpath PAGE --skeleton`` (issue 25, item 12): a starting template for a page.

Whatever the page, the skeleton loads without a warning even in strict mode, is valid for the
RELAX NG schema, and every one of its blocks matches on the page it was made from (so
``stream-mf2 wpt lint`` is clean on it), in every chunking of the page."""

from __future__ import annotations

from pathlib import Path

import pytest

from stream_mf2 import Parser
from stream_mf2.wpt import collect_pages, load
from stream_mf2.wpt.skeleton import skeleton
from tests.support import chunking
from tests.support.cli import run_cli
from tests.support.suites import REPO

FIX = REPO / "fixtures" / "wpt"

WORDPRESS = """<!DOCTYPE html>
<html lang="en-US"><head><meta charset="UTF-8"><title>Hello world! &#8211; My Blog</title>
<link rel="stylesheet" id="wp-block-library-css" href="/wp-includes/css/dist/block-library/style.min.css" media="all">
</head>
<body class="post-template-default single single-post postid-1 single-format-standard">
<div id="page" class="site">
<a class="skip-link screen-reader-text" href="#content">Skip to content</a>
<header id="masthead" class="site-header"><p class="site-title"><a href="/" rel="home">My Blog</a></p>
<nav id="site-navigation" class="main-navigation"><ul id="primary-menu" class="menu">
<li id="menu-item-5" class="menu-item"><a href="/">Home</a></li>
<li id="menu-item-6" class="menu-item"><a href="/about/">About</a></li>
<li id="menu-item-7" class="menu-item"><a href="/contact/">Contact</a></li>
</ul></nav></header>
<div id="content" class="site-content"><main id="main" class="site-main">
<article id="post-1" class="post-1 post type-post status-publish format-standard hentry category-uncategorized">
<header class="entry-header"><h1 class="entry-title">Hello world!</h1>
<div class="entry-meta"><span class="posted-on">Posted on <time class="entry-date published" datetime="2026-01-05T10:00:00+00:00">January 5, 2026</time></span></div>
</header>
<div class="entry-content"><p>Welcome to WordPress. This is your first post.</p><p>Edit or delete it.</p><p>Then start writing!</p></div>
</article>
<div id="comments" class="comments-area"><h2 class="comments-title">One thought on &ldquo;Hello world!&rdquo;</h2>
<ol class="comment-list">
<li id="comment-1" class="comment even thread-even depth-1"><article class="comment-body"><footer class="comment-meta">A WordPress Commenter</footer><div class="comment-content"><p>Hi, this is a comment.</p></div></article></li>
<li id="comment-2" class="comment odd depth-1"><article class="comment-body"><footer class="comment-meta">Ann</footer><div class="comment-content"><p>Thanks!</p></div></article></li>
<li id="comment-3" class="comment even depth-1"><article class="comment-body"><footer class="comment-meta">Bob</footer><div class="comment-content"><p>Nice.</p></div></article></li>
</ol></div>
</main></div>
<footer id="colophon" class="site-footer"><div class="site-info">Proudly powered by WordPress</div></footer>
</div></body></html>
"""

PAGES = [
    ("readme", (FIX / "readme.html").read_text(), "https://records.example/ar-42"),
    ("listing", (FIX / "listing.html").read_text(), "https://shop.example/list/2"),
    ("artist", (FIX / "artist.html").read_text(), "http://music.yahoo.com/ar-8206256---Amy-Winehouse"),
    ("tbody", (FIX / "tbody.html").read_text(), "http://prices.example/"),
    ("wordpress", WORDPRESS, "https://blog.example/2026/01/05/hello-world/"),
    ("no-ids", "<p>just text", "https://h.example/x"),
]


def _pages(html: str, url: str, wpt: object, chunks: list[str]) -> list[dict[str, object]]:
    parser = Parser(url, wpt=wpt)
    events = [e for c in chunks for e in parser.feed_events(c)]
    events += parser.close_events()
    return collect_pages(events)


@pytest.mark.parametrize(("name", "html", "url"), PAGES, ids=[p[0] for p in PAGES])
def test_the_skeleton_loads_cleanly_and_every_block_matches(name: str, html: str, url: str) -> None:
    xml = skeleton(html, url)
    wpt = load(xml, strict=True)
    assert wpt.warnings == ()
    etree = pytest.importorskip("lxml.etree")
    relaxng = etree.RelaxNG(etree.parse(str(REPO / "docs" / "schemas" / "wpt.rng")))
    assert relaxng.validate(etree.fromstring(xml.encode()).getroottree()), relaxng.error_log
    for label, chunks in chunking.chunkings(html, splits=False):
        [page] = _pages(html, url, wpt, chunks)
        assert page["template"] == "Page"
        blocks = page["blocks"]
        assert isinstance(blocks, list) and blocks
        missing = [b["ref"] for b in blocks if not b["matches"]]
        assert not missing, f"{name} [{label}]: blocks without a match {missing}"


def test_the_skeleton_of_a_wordpress_post_has_its_lists_and_title() -> None:
    wpt = load(skeleton(WORDPRESS, "https://blog.example/2026/01/05/hello-world/"))
    refs = [(b.tagid, b.xpath.source if b.xpath else None, b.repeatable, b.concept) for b in wpt.templates[0].blocks]
    assert (None, '//*[@id="primary-menu"]/li', True, "primary-menu-li") in refs
    assert (None, '//*[@id="comments"]/ol/li', True, "comments-li") in refs
    assert ("post-1", None, False, "post-1") in refs
    assert (None, "/html/body/div/div/main/article/header/h1", False, "title") in refs
    # the items of a run have no blocks of their own: the run's block covers them
    assert not [r for r in refs if r[0] is not None and r[0].startswith(("menu-item-", "comment-"))]


def test_the_command_prints_a_template_that_lint_finds_clean(tmp_path: Path) -> None:
    url = "https://records.example/ar-42"
    r = run_cli("xpath", str(FIX / "readme.html"), "--skeleton", "--url", url)
    assert r.returncode == 0, r.stderr.decode()
    template = tmp_path / "skeleton.xml"
    template.write_bytes(r.stdout)
    r = run_cli("wpt", "lint", str(template), str(FIX / "readme.html"), "--url", url)
    assert (r.returncode, r.stdout) == (0, b"")


def test_the_command_needs_the_pages_url() -> None:
    r = run_cli("xpath", str(FIX / "readme.html"), "--skeleton")
    assert r.returncode == 2
    assert "--skeleton needs the page's URL: give --url" in r.stderr.decode()
    r = run_cli("xpath", str(FIX / "readme.html"), "--skeleton", "--id", "albums", "--url", "https://h.example/")
    assert r.returncode == 2
