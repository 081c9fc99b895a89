"""Three seams of the command line a new user hits.

* ``--jsonl --pretty`` printed each object over several lines: the output was no longer JSON
  Lines. The combination is refused (exit 2, saying what to use), as ``--stream-children``
  without ``--jsonl`` is.
* ``tokens`` and ``tree`` read files only, while every other page command fetches a URL with
  ``--user-agent``, ``--header``, ``--deadline``, ``--max-redirects``, ``--max-bytes``: they now
  take a URL and those flags through the page command's helper.
* ``wpt --items`` had no ``--type`` (``warc`` has): it now filters the item lines the same way,
  over pages and over WARC archives.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import assert_user_error, run_cli
from tests.support.servers import Gatekeeper, serve_http

AGENT = "feed-reader/3.0 (+https://reader.example/about)"
COOKIE = "session=s5"

# An IndieWeb-style blog page: an h-feed of h-entries, each with an h-card author (a property).
BLOG = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Ada's notes</title>
<link rel="webmention" href="https://ada.example/webmention"></head>
<body>
<header class="h-card"><a class="u-url p-name" href="https://ada.example/">Ada</a></header>
<main class="h-feed"><h1 class="p-name">Notes</h1>
<article class="h-entry"><h2 class="p-name">First light</h2>
  <a class="p-author h-card" href="https://ada.example/">Ada</a>
  <time class="dt-published" datetime="2026-11-02T09:00:00Z">2 Nov</time>
  <div class="e-content"><p>Café opened; the telescope works.</p></div></article>
<article class="h-entry"><h2 class="p-name">Second</h2>
  <a class="p-author h-card" href="https://grace.example/">Grace</a>
  <div class="e-content"><p>Guest post.</p></div></article>
</main></body></html>
""".encode()


def _lines(out: bytes) -> list[dict[str, Any]]:
    return [json.loads(x) for x in out.splitlines()]


# --- 1. --jsonl --pretty ---------------------------------------------------------------------


def test_jsonl_with_pretty_is_refused_saying_what_to_use(tmp_path: Path) -> None:
    page = tmp_path / "blog.html"
    page.write_bytes(BLOG)
    r = run_cli(str(page), "--jsonl", "--pretty")
    assert_user_error(r, 2, "--pretty")
    assert "JSON Lines" in r.stderr.decode() and "drop --pretty" in r.stderr.decode()
    assert r.stdout == b""
    # each alone still works: --jsonl is one object a line, --pretty indents the whole document
    r = run_cli(str(page), "--jsonl")
    assert r.returncode == 0, r.stderr.decode()
    assert [x["kind"] for x in _lines(r.stdout)] == ["item", "item", "document"]
    r = run_cli(str(page), "--pretty")
    assert r.returncode == 0, r.stderr.decode()
    assert len(r.stdout.splitlines()) > 10
    assert [i["type"] for i in json.loads(r.stdout)["items"]] == [["h-card"], ["h-feed"]]


# --- 2. tokens and tree over a URL -----------------------------------------------------------


@pytest.fixture
def reader() -> Gatekeeper:
    """Serves the blog note only to the reader it knows, with its cookie, in windows-1252 (said in
    the Content-Type only, as the page command takes it)."""
    return Gatekeeper(AGENT, COOKIE, "<p class=note>Café</p>".encode("cp1252"), "text/html; charset=windows-1252")


@pytest.fixture
def reader_site(reader: Gatekeeper) -> Iterator[str]:
    with serve_http(reader.handler()) as base:
        yield f"{base}/notes/1"


FLAGS = ("--user-agent", AGENT, "--header", f"Cookie: {COOKIE}")


@pytest.mark.network_local
def test_tokens_and_tree_fetch_a_url_with_the_fetch_flags(
    reader_site: str, reader: Gatekeeper, tmp_path: Path
) -> None:
    r = run_cli("tokens", reader_site, *FLAGS)
    assert r.returncode == 0, r.stderr.decode()
    assert _lines(r.stdout) == [["StartTag", "p", {"class": "note"}], ["Character", "Café"], ["EndTag", "p"]]
    # the same bytes from a file give the same tokens when told the server's charset
    local = tmp_path / "note.html"
    local.write_bytes("<p class=note>Café</p>".encode("cp1252"))
    assert run_cli("tokens", str(local), "--encoding", "windows-1252").stdout == r.stdout
    r = run_cli("tree", reader_site, *FLAGS)
    assert r.returncode == 0, r.stderr.decode()
    tree = r.stdout.decode()
    assert '|     <p>\n|       class="note"\n|       "Café"' in tree
    assert reader.seen == [(AGENT, COOKIE), (AGENT, COOKIE)]
    # without the flags the site refuses, and the command fails with the page command's message
    r = run_cli("tokens", reader_site)
    assert_user_error(r, 1, "HTTP 403")
    # --max-bytes bounds the body, as for every page command
    r = run_cli("tree", reader_site, *FLAGS, "--max-bytes", "5")
    assert_user_error(r, 1, "larger than 5 bytes (max_bytes)")


# --- 3. wpt --items --type -------------------------------------------------------------------

TEMPLATE = """<?xml version="1.0" encoding="UTF-8"?>
<ow:wpt xmlns:ow="http://www.omfica.org/schemas/ow/0.9" ow:host="https://ada.example">
<ow:template ow:name="Notes" ow:url="https://ada.example/notes" ow:ontology="general">
<ow:block ow:xpath="/html/head/title">page.title</ow:block>
</ow:template>
</ow:wpt>
"""


def _warc(path: Path, uri: str, body: bytes) -> None:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with path.open("wb") as f:
        writer = WARCWriter(f, gzip=True)
        http = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8")], protocol="HTTP/1.1")
        writer.write_record(writer.create_warc_record(uri, "response", payload=io.BytesIO(body), http_headers=http))


def test_wpt_items_type_over_a_page_and_a_warc_as_warc_type(tmp_path: Path) -> None:
    pytest.importorskip("defusedxml")
    pytest.importorskip("warcio")
    template = tmp_path / "notes.xml"
    template.write_text(TEMPLATE)
    page = tmp_path / "notes.html"
    page.write_bytes(BLOG)
    archive = tmp_path / "crawl.warc.gz"
    _warc(archive, "https://ada.example/notes", BLOG)

    def items(lines: list[dict[str, Any]]) -> list[tuple[list[Any], str]]:
        return [(x["path"], x["item"]["properties"]["name"][0]) for x in lines if x["kind"] == "item"]

    want_cards = [([0], "Ada"), ([1, "children", 0, "properties", "author", 0], "Ada"),
                  ([1, "children", 1, "properties", "author", 0], "Grace")]
    # over a page: the h-cards at any depth, with their paths; the wpt lines are all still there
    r = run_cli("wpt", str(template), str(page), "--url", "https://ada.example/notes", "--items", "--type", "h-card")
    assert r.returncode == 0, r.stderr.decode()
    got = _lines(r.stdout)
    assert items(got) == want_cards
    (wpt_line,) = [x for x in got if x["kind"] == "wpt"]
    assert [m["text"] for b in wpt_line["blocks"] for m in b["matches"]] == ["Ada's notes"]
    # two types, and the page from standard input
    r = run_cli("wpt", str(template), "-", "--url", "https://ada.example/notes", "--items", "--type", "h-entry,h-feed",
                stdin=BLOG)
    assert r.returncode == 0, r.stderr.decode()
    assert items(_lines(r.stdout)) == [([1], "Notes"), ([1, "children", 0], "First light"),
                                       ([1, "children", 1], "Second")]
    # over a WARC archive: the same item lines as 'warc --type' gives
    r = run_cli("wpt", str(template), str(archive), "--items", "--type", "h-card")
    assert r.returncode == 0, r.stderr.decode()
    assert items(_lines(r.stdout)) == want_cards
    w = run_cli("warc", str(archive), "--type", "h-card")
    assert w.returncode == 0, w.stderr.decode()
    assert items(_lines(w.stdout)) == want_cards
    # and the page lines equal the archive's, but for the WARC fields
    assert [x["item"] for x in _lines(r.stdout) if x["kind"] == "item"] == [
        x["item"] for x in _lines(w.stdout) if x["kind"] == "item"
    ]


def test_wpt_type_is_checked_as_warc_type(tmp_path: Path) -> None:
    pytest.importorskip("defusedxml")
    template = tmp_path / "notes.xml"
    template.write_text(TEMPLATE)
    page = tmp_path / "notes.html"
    page.write_bytes(BLOG)
    url = ("--url", "https://ada.example/notes")
    assert_user_error(run_cli("wpt", str(template), str(page), *url, "--type", "h-card"), 2, "give it with --items")
    assert_user_error(run_cli("wpt", str(template), str(page), *url, "--items", "--type", ","), 2,
                      "--type needs at least one type")
    r = run_cli("wpt", str(template), str(page), *url, "--items", "--type", "vcard")
    assert_user_error(r, 2, "no --type can match")
    assert "classic vcard items are typed h-card" in r.stderr.decode()
    # one name that can never match is a warning; the others still filter
    r = run_cli("wpt", str(template), str(page), *url, "--items", "--type", "hentry,h-feed")
    assert r.returncode == 0, r.stderr.decode()
    assert "--type hentry can never match" in r.stderr.decode()
    assert [x["item"]["type"] for x in _lines(r.stdout) if x["kind"] == "item"] == [["h-feed"]]
