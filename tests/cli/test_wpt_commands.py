"""``stream-mf2 wpt`` and ``stream-mf2 xpath``, run as a user runs them (subprocess)."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from stream_mf2 import parse
from stream_mf2.wpt import load
from tests.support.cli import assert_user_error, run_cli
from tests.support.suites import REPO

pytest.importorskip("defusedxml")
pytest.importorskip("regex")

FIX = REPO / "fixtures" / "wpt"
LISTING_URL = "https://shop.example/list/2"


def _lines(out: bytes) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.decode().splitlines() if line.strip()]


def test_wpt_over_a_file_equals_parse() -> None:
    r = run_cli("wpt", str(FIX / "listing.xml"), str(FIX / "listing.html"), "--url", LISTING_URL)
    assert r.returncode == 0, r.stderr.decode()
    want = parse((FIX / "listing.html").read_bytes(), LISTING_URL, wpt=load(FIX / "listing.xml"))["wpt"]
    # each line names its page after its kind
    assert _lines(r.stdout) == [{"kind": x["kind"], "source": str(FIX / "listing.html"), **x} for x in want]


def test_wpt_matches_lines_from_stdin() -> None:
    r = run_cli("wpt", str(FIX / "listing.xml"), "-", "--url", LISTING_URL, "--matches",
                stdin=(FIX / "listing.html").read_bytes())
    assert r.returncode == 0, r.stderr.decode()
    lines = _lines(r.stdout)
    assert [(x["block"], x["concept"]) for x in lines] == [(0, "page.title"), *[(1, "product")] * 4, (2, "page.navigation")]
    assert all(x["kind"] == "wpt-match" and x["template"] == "Listing" for x in lines)


def test_wpt_several_inputs_strict_and_forced_template(tmp_path: Path) -> None:
    r = run_cli("wpt", str(FIX / "tbody.xml"), str(FIX / "tbody.html"), str(FIX / "tbody.html"))
    assert r.returncode == 0
    pages = _lines(r.stdout)
    assert len(pages) == 2 and pages[0] == pages[1] and pages[0]["url"] is None
    assert b"concept 'price' is not declared" in r.stderr
    assert_user_error(run_cli("wpt", str(FIX / "tbody.xml"), str(FIX / "tbody.html"), "--strict"), 1,
                      "tbody.xml:4:1: concept 'price' is not declared")
    r = run_cli("wpt", str(FIX / "artist.xml"), str(FIX / "artist.html"), "--url", "http://other.example/",
                "--template", "Artist Page on Yahoo! Music")
    (page,) = _lines(r.stdout)
    assert page["template"] == "Artist Page on Yahoo! Music" and page["url_captures"] == {}
    assert_user_error(run_cli("wpt", str(FIX / "tbody.xml"), str(FIX / "tbody.html"), "--template", "X"), 1,
                      "no template named 'X'")
    bad = tmp_path / "bad.xml"
    bad.write_text('<ow:wpt xmlns:ow="http://www.omfica.org/schemas/ow/0.9">\n</ow:wpt>')
    assert_user_error(run_cli("wpt", str(bad), str(FIX / "tbody.html")), 1, "bad.xml:1:1: ow:wpt has no ow:host")
    assert_user_error(run_cli("wpt", str(tmp_path / "none.xml"), "x"), 1, "cannot open")


@pytest.fixture
def served() -> Iterator[str]:
    body = (FIX / "tbody.html").read_bytes()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.mark.network_local
def test_wpt_over_a_url_uses_the_url_to_choose(served: str) -> None:
    # The template's host is prices.example: the fetched URL does not match, --url does.
    r = run_cli("wpt", str(FIX / "tbody.xml"), served)
    assert r.returncode == 0 and _lines(r.stdout) == []
    r = run_cli("wpt", str(FIX / "tbody.xml"), served, "--url", "http://prices.example/")
    (page,) = _lines(r.stdout)
    assert page["blocks"][0]["matches"][0]["text"] == "0.55"


def test_xpath_helper() -> None:
    r = run_cli("xpath", str(FIX / "tbody.html"), "--text", "Pear")
    assert _lines(r.stdout) == [{
        "xpath": "/html[1]/body[1]/div[2]/table[1]/tbody[1]/tr[3]/td[1]",
        "anchored": '//*[@id="prices"]/tbody[1]/tr[3]/td[1]',
        "text": "Pear",
    }]
    r = run_cli("xpath", str(FIX / "artist.html"), "--id", "art_img")
    (found,) = _lines(r.stdout)
    assert found["anchored"] == '//*[@id="art_img"]'
    # the printed paths select the element
    t = load(
        '<ow:wpt xmlns:ow="http://www.omfica.org/schemas/ow/0.9" ow:host="x"><ow:template ow:name="T">'
        f'<ow:block ow:xpath="{found["xpath"]}">a</ow:block></ow:template></ow:wpt>'
    ).templates[0]
    page = parse((FIX / "artist.html").read_bytes(), None, wpt=t)["wpt"][0]
    assert page["blocks"][0]["matches"][0]["attributes"]["id"] == "art_img"
    r = run_cli("xpath", str(FIX / "artist.html"), "--id", "nope")
    assert r.returncode == 1 and r.stdout == b""
    assert_user_error(run_cli("xpath", str(FIX / "artist.html")), 2, "give --id or --text")


def _warc(path: Path, records: list[tuple[str, bytes, list[tuple[str, str]]]]) -> None:
    """Write HTTP response records with warcio (gzip members)."""
    import io

    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with path.open("wb") as f:
        writer = WARCWriter(f, gzip=True)
        for uri, body, headers in records:
            http = StatusAndHeaders("200 OK", headers, protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(uri, "response", payload=io.BytesIO(body), http_headers=http))


def test_wpt_over_a_warc_archive_chooses_templates_by_target_uri(tmp_path: Path) -> None:
    import gzip

    artist = (FIX / "artist.html").read_bytes()
    listing = (FIX / "listing.html").read_bytes()
    archive = tmp_path / "crawl.warc.gz"
    _warc(archive, [
        ("http://music.yahoo.com/ar-8206256---Amy-Winehouse", artist, [("Content-Type", "text/html; charset=utf-8")]),
        ("http://music.yahoo.com/help", artist, [("Content-Type", "text/html")]),  # no template for this URL
        ("http://music.yahoo.com/logo.png", b"\x89PNG\r\n", [("Content-Type", "image/png")]),
        ("http://music.yahoo.com/artist/99", gzip.compress(artist),
         [("Content-Type", "text/html"), ("Content-Encoding", "gzip")]),
        ("https://shop.example/list/2", listing, [("Content-Type", "text/html")]),  # another host
    ])
    r = run_cli("wpt", str(FIX / "artist.xml"), str(archive))
    assert r.returncode == 0, r.stderr.decode()
    every = _lines(r.stdout)
    lines = [x for x in every if x["kind"] == "wpt"]
    # the WARC runner's lines: one record line per HTML record, no item lines without --items, the summary
    assert [x["kind"] for x in every if x["kind"] != "wpt"] == ["record"] * 4 + ["summary"]
    assert every[-1]["wpt"] == 2 and every[-1]["html_records"] == 4
    assert [(x["url"], x["url_captures"]) for x in lines] == [
        ("http://music.yahoo.com/ar-8206256---Amy-Winehouse", {"artist.id": ["8206256"], "artist.name": ["Amy-Winehouse"]}),
        ("http://music.yahoo.com/artist/99", {"artist.id": ["99"]}),
    ]
    want = parse(artist, "http://music.yahoo.com/artist/99", wpt=load(FIX / "artist.xml"))["wpt"][0]
    got = dict(lines[1])
    assert got.pop("warc_file") == str(archive) and got.pop("offset") > 0 and got.pop("record_id")
    assert got.pop("uri") == "http://music.yahoo.com/artist/99"
    assert got == want
    # --matches and -o with the warc command's writers (here gzip-compressed JSON Lines)
    out = tmp_path / "m.jsonl.gz"
    r = run_cli("wpt", str(FIX / "artist.xml"), str(archive), "--matches", "-o", str(out))
    assert r.returncode == 0 and r.stdout == b""
    matches = [x for x in _lines(gzip.decompress(out.read_bytes())) if x["kind"] == "wpt-match"]
    assert len(matches) == 18 and {m["url"] for m in matches} == {x["url"] for x in lines}
    assert not (tmp_path / "m.jsonl.gz.partial").exists()


def test_wpt_over_a_damaged_warc_reports_and_goes_on(tmp_path: Path) -> None:
    archive = tmp_path / "crawl.warc.gz"
    artist = (FIX / "artist.html").read_bytes()
    _warc(archive, [("http://music.yahoo.com/ar-1---A", artist, [("Content-Type", "text/html")])] * 2)
    data = archive.read_bytes()
    cut = tmp_path / "cut.warc.gz"
    cut.write_bytes(data + b"this is not a WARC record at all\r\n" * 3)  # damage after two good records
    r = run_cli("wpt", str(FIX / "artist.xml"), str(cut), str(archive))
    assert r.returncode == 0, r.stderr.decode()
    assert b"Traceback" not in r.stderr
    lines = [x for x in _lines(r.stdout) if x["kind"] in ("wpt", "error")]
    kinds = [(x["kind"], x["warc_file"] == str(cut)) for x in lines]
    assert kinds == [("wpt", True), ("wpt", True), ("error", True), ("wpt", False), ("wpt", False)]
    assert lines[2]["offset"] == len(data)


# -- ``wpt lint`` over several WPT files (a folder or --templates), as ``wpt`` takes them ----------------

SHOP_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<ow:wpt xmlns:ow="http://www.omfica.org/schemas/ow/0.9" ow:host="shop.example">\n'
)
# A publisher's site-wide file: the breadcrumb of every page of the shop.
SITE_WIDE = (
    SHOP_HEAD
    + '  <ow:template ow:name="Site" ow:url="https://shop.example/(site.path[.*])" ow:ontology="site">\n'
    '    <ow:block ow:xpath="/html/head/title">site.title</ow:block>\n'
    "  </ow:template>\n"
    '  <ow:ontology ow:name="site"><ow:concept ow:name="site"><ow:has>title</ow:has><ow:has>path</ow:has></ow:concept></ow:ontology>\n'
    "</ow:wpt>\n"
)
# The product pages' own file: one product per page, its name and price.
PRODUCT = (
    SHOP_HEAD
    + '  <ow:template ow:name="Product" ow:url="https://shop.example/item/(product.sku[[0-9]+])" ow:ontology="shop">\n'
    '    <ow:block ow:xpath="//h1">product.name</ow:block>\n'
    "    <ow:block ow:xpath='//*[@class=\"price\"]'>product.price</ow:block>\n"
    "  </ow:template>\n"
    '  <ow:ontology ow:name="shop"><ow:concept ow:name="product"><ow:has>name</ow:has><ow:has>price</ow:has>'
    "<ow:has>sku</ow:has></ow:concept></ow:ontology>\n"
    "</ow:wpt>\n"
)
# Another site's file: never chooses a shop page.
BLOG = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<ow:wpt xmlns:ow="http://www.omfica.org/schemas/ow/0.9" ow:host="blog.example">\n'
    '  <ow:template ow:name="Post" ow:url="https://blog.example/(post.slug[[a-z0-9-]+])" ow:ontology="blog">\n'
    '    <ow:block ow:xpath="//article//h1">post.title</ow:block>\n'
    "  </ow:template>\n"
    '  <ow:ontology ow:name="blog"><ow:concept ow:name="post"><ow:has>title</ow:has><ow:has>slug</ow:has></ow:concept>'
    "</ow:ontology>\n"
    "</ow:wpt>\n"
)


def _site(tmp_path: Path, **files: str) -> Path:
    folder = tmp_path / "templates"
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / f"{name}.xml").write_text(text, encoding="utf-8")
    return folder


def test_wpt_lint_of_a_folder_names_each_file_and_notes_templates_for_the_same_urls(tmp_path: Path) -> None:
    folder = _site(tmp_path, a_site=SITE_WIDE, b_product=PRODUCT, c_blog=BLOG)
    r = run_cli("wpt", "lint", str(folder))
    site, product = folder / "a_site.xml", folder / "b_product.xml"
    # both apply by design: a note (exit 0), at the later template, naming the earlier one and a URL
    assert (r.returncode, r.stderr) == (0, b"")
    assert r.stdout.decode().splitlines() == [
        f"{product}:3:3: note: template 'Product' and template 'Site' ({site}:3:3) both apply to URLs such as "
        "'https://shop.example/item/1': a page gets every template that chooses it"
    ]
    # the same files named one by one with --templates: the same answer
    listed = run_cli("wpt", "lint", "--templates", str(site), "--templates", str(product), "--templates",
                     str(folder / "c_blog.xml"))
    assert (listed.returncode, listed.stdout) == (0, r.stdout)
    # templates of two hosts, or whose URLs share no page, get no note
    alone = run_cli("wpt", "lint", "--templates", str(product), "--templates", str(folder / "c_blog.xml"))
    assert (alone.returncode, alone.stdout) == (0, b"")


def test_wpt_lint_of_several_files_puts_each_finding_under_its_file(tmp_path: Path) -> None:
    broken = SHOP_HEAD + '<ow:template ow:name="Broken">\n<ow:block/></ow:template></ow:wpt>\n'
    undeclared = PRODUCT.replace("<ow:has>price</ow:has>", "")
    folder = _site(tmp_path, a_broken=broken, b_product=undeclared, c_blog=BLOG)
    r = run_cli("wpt", "lint", str(folder))
    assert r.returncode == 1
    assert r.stdout.decode().splitlines() == [
        f"{folder / 'a_broken.xml'}:4:1: error: ow:block has no reference (ow:tagid, ow:xpath or ow:pattern)",
        f"{folder / 'b_product.xml'}:5:5: warning: concept 'product.price' is not declared in ontology 'shop'",
    ]
    # the same name in two files: --template NAME would refuse to choose; a note
    twice = _site(tmp_path / "x", a=PRODUCT, b=PRODUCT.replace("/item/", "/p/"))
    r = run_cli("wpt", "lint", str(twice))
    assert r.returncode == 0
    assert r.stdout.decode().splitlines() == [
        f"{twice / 'b.xml'}:3:3: note: template 'Product' is also in {twice / 'a.xml'}:3:3: "
        "'stream-mf2 wpt --template Product' refuses to choose between them"
    ]
    # two files with the same URL pattern: said so, with the pattern
    same = _site(tmp_path / "y", a=PRODUCT, b=PRODUCT.replace('"Product"', '"Offer"'))
    r = run_cli("wpt", "lint", str(same))
    assert r.returncode == 0
    assert r.stdout.decode().splitlines() == [
        f"{same / 'b.xml'}:3:3: note: template 'Offer' and template 'Product' ({same / 'a.xml'}:3:3) have the same "
        "URL pattern 'https://shop.example/item/(product.sku[[0-9]+])': a page gets every template that chooses it"
    ]


def test_wpt_lint_with_a_page_says_which_templates_apply_and_which_blocks_never_match(tmp_path: Path) -> None:
    folder = _site(tmp_path, a_site=SITE_WIDE, b_product=PRODUCT, c_blog=BLOG)
    page = tmp_path / "sencha.html"
    page.write_text(
        "<!DOCTYPE html><html><head><title>Sencha | Shop</title></head><body>"
        '<nav><a href="/">Shop</a> › <a href="/list/1">Teas</a></nav>'
        "<main><h1>Sencha</h1><p>A Japanese green tea.</p></main></body></html>",
        encoding="utf-8",
    )
    site, product = folder / "a_site.xml", folder / "b_product.xml"
    r = run_cli("wpt", "lint", "--templates", str(folder), str(page), "--url", "https://shop.example/item/7")
    assert r.returncode == 1  # the price block never matches: a finding
    lines = r.stdout.decode().splitlines()
    assert lines[1:] == [
        f"{site}:3:3: note: template 'Site' applies to {page} at 'https://shop.example/item/7'",
        f"{product}:3:3: note: template 'Product' applies to {page} at 'https://shop.example/item/7'",
        f"{product}:5:5: warning: block ow:xpath='//*[@class=\"price\"]' of template 'Product' never matches "
        f"on {page}",
    ]
    assert lines[0].startswith(f"{product}:3:3: note: template 'Product' and template 'Site'")
    # a page that no file's template chooses: a warning under every file
    r = run_cli("wpt", "lint", "--templates", str(folder), str(page), "--url", "https://other.example/")
    assert r.returncode == 1
    assert r.stdout.decode().splitlines()[1:] == [
        f"{f}:1:1: warning: no template applies to {page} at 'https://other.example/'"
        for f in (site, product, folder / "c_blog.xml")
    ]
