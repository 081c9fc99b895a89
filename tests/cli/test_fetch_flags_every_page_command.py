"""The fetching flags of the page command are flags of every command that fetches a page.

``stream-mf2 URL`` took ``--user-agent``, ``--header``, ``--deadline``, ``--max-redirects`` and
``--max-bytes``; ``wpt`` over pages, ``xpath`` and ``wpt lint`` fetched the same URLs with the
defaults and refused those flags, so a site that answers only a named crawler, or one that needs
a cookie, could be read by one command and not its siblings. They are now one declaration
(``add_fetch_arguments``). ``wpt`` over WARC archives refuses them: they would change nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.cli import assert_user_error, run_cli
from tests.support.servers import Gatekeeper, serve_http
from tests.support.suites import REPO

pytest.importorskip("defusedxml")
pytestmark = pytest.mark.network_local

FIX = REPO / "fixtures" / "wpt"
PAGE = (FIX / "artist.html").read_bytes()
TEMPLATE = str(FIX / "artist.xml")
AGENT = "records-bot/2.1 (+https://records.example/bot)"
COOKIE = "session=abc123"


@pytest.fixture
def gate() -> Gatekeeper:
    """A site that serves its artist page only to the crawler it knows, with its session cookie."""
    return Gatekeeper(AGENT, COOKIE, PAGE)


@pytest.fixture
def site(gate: Gatekeeper) -> Iterator[str]:
    with serve_http(gate.handler()) as base:
        yield f"{base}/ar-123---Amy-Winehouse"


FLAGS = ("--user-agent", AGENT, "--header", f"Cookie: {COOKIE}")


def test_wpt_over_a_page_url_sends_the_user_agent_and_headers(site: str, gate: Gatekeeper) -> None:
    r = run_cli("wpt", TEMPLATE, site, "--template", "Artist Page on Yahoo! Music", *FLAGS)
    assert r.returncode == 0, r.stderr.decode()
    (line,) = [json.loads(x) for x in r.stdout.splitlines()]
    (name,) = [b for b in line["blocks"] if b["concept"] == "artist.name"]
    assert [m["text"] for m in name["matches"]] == ["Amy Winehouse"]
    assert gate.seen == [(AGENT, COOKIE)]
    # without them the site refuses, and the page is an error line
    r = run_cli("wpt", TEMPLATE, site, "--template", "Artist Page on Yahoo! Music")
    assert_user_error(r, 4, "HTTP 403")


def test_xpath_and_lint_send_them_too(site: str, gate: Gatekeeper) -> None:
    r = run_cli("xpath", site, "--id", "biography", *FLAGS)
    assert r.returncode == 0, r.stderr.decode()
    assert json.loads(r.stdout)["anchored"] == '//*[@id="biography"]'
    r = run_cli("wpt", "lint", TEMPLATE, site, "--url", "http://music.yahoo.com/ar-123---Amy-Winehouse", *FLAGS)
    assert r.returncode == 0, r.stderr.decode()
    assert "never matches" not in r.stderr.decode()
    assert gate.seen == [(AGENT, COOKIE), (AGENT, COOKIE)]


def test_max_bytes_bounds_a_wpt_page(site: str) -> None:
    r = run_cli("wpt", TEMPLATE, site, "--template", "Artist Page on Yahoo! Music", *FLAGS, "--max-bytes", "100")
    assert_user_error(r, 4, "larger than 100 bytes (max_bytes)")
    (line,) = [json.loads(x) for x in r.stdout.splitlines()]
    assert line["kind"] == "error" and line["source"] == site


def test_wpt_over_warc_archives_refuses_them(tmp_path: Path) -> None:
    archive = tmp_path / "crawl.warc.gz"
    archive.write_bytes(b"")
    for flag in (("--user-agent", AGENT), ("--header", f"Cookie: {COOKIE}"), ("--max-bytes", "10")):
        r = run_cli("wpt", TEMPLATE, str(archive), *flag)
        assert_user_error(r, 2, f"{flag[0]} applies to HTML pages fetched from http(s):// URLs")
