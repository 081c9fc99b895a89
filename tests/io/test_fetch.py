"""The fetch API (fetch/afetch) and the CLI's fetching options, against a local HTTP server."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import orjson
import pytest

import stream_mf2
from stream_mf2 import LimitExceeded, SourceError, afetch, aiter_items, fetch, iter_items, parse
from tests.support.api_server import BIG_SIZE, FINAL_PAGE, LATIN_PAGE, PAGE, LocalServer, local_server
from tests.support.suites import REPO

# Every test here talks to a local HTTP server (tests.support.api_server).
pytestmark = [pytest.mark.network_local]


@pytest.fixture(scope="module")
def server() -> Iterator[LocalServer]:
    with local_server() as s:
        yield s


def run_cli(*args: str) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "stream_mf2", *args], capture_output=True, cwd=REPO, env=env, timeout=60)


def test_fetch_sends_our_headers_and_parses(server: LocalServer) -> None:
    url = server.base + "/page"
    with fetch(url, headers={"X-Trace": "abc", "Accept-Language": "fr"}, user_agent="my-bot/1.0") as resp:
        items = list(iter_items(resp))
        assert resp.closed  # read to the end: closed by the parser
    assert items == parse(PAGE, url)["items"] and len(items) == 2
    sent = server.headers_for("/page")
    assert sent["x-trace"] == "abc" and sent["accept-language"] == "fr"
    assert sent["user-agent"] == "my-bot/1.0"
    assert "gzip" in sent["accept-encoding"]


def test_default_user_agent_names_us(server: LocalServer) -> None:
    assert parse(fetch(server.base + "/page"))["items"]
    assert server.headers_for("/page")["user-agent"] == f"stream-mf2/{stream_mf2.__version__}"
    # a header given in ``headers`` replaces the default of the same name, whatever its case
    parse(fetch(server.base + "/page", headers={"user-agent": "via-headers"}))
    assert server.headers_for("/page")["user-agent"] == "via-headers"


def test_charset_and_final_url_are_used(server: LocalServer) -> None:
    items = parse(fetch(server.base + "/latin"))["items"]
    assert items[0]["properties"]["name"] == ["Zoë"]
    assert parse(fetch(server.base + "/latin"))["items"] == parse(LATIN_PAGE, encoding="iso-8859-1")["items"]
    got = parse(fetch(server.base + "/redirect"))
    assert got["items"][0]["properties"]["url"] == [server.base + "/sub/post/1"]
    assert got == parse(FINAL_PAGE, server.base + "/sub/final")
    # explicit url and encoding win
    other = parse(fetch(server.base + "/redirect"), "http://other.example/")
    assert other["items"][0]["properties"]["url"] == ["http://other.example/post/1"]
    assert parse(fetch(server.base + "/latin"), encoding="utf-8")["items"][0]["properties"]["name"] == ["Zo\ufffd"]


def test_gzip_is_undone(server: LocalServer) -> None:
    assert parse(fetch(server.base + "/gzip"), server.base + "/page") == parse(PAGE, server.base + "/page")


def test_redirect_limit(server: LocalServer) -> None:
    assert parse(fetch(server.base + "/redirect3", max_redirects=3))["items"]
    with pytest.raises(SourceError, match="302"):
        fetch(server.base + "/redirect3", max_redirects=2)
    with pytest.raises(SourceError, match="302"):
        fetch(server.base + "/redirect", max_redirects=0)
    with pytest.raises(SourceError, match="30"):
        fetch(server.base + "/loop")


def test_size_limit(server: LocalServer) -> None:
    assert parse(fetch(server.base + "/big", max_bytes=BIG_SIZE + 1000))["items"]
    with pytest.raises(LimitExceeded) as e:
        parse(fetch(server.base + "/big", max_bytes=BIG_SIZE // 2))
    assert e.value.limit == "max_bytes" and e.value.value == BIG_SIZE // 2


def test_non_html_is_refused(server: LocalServer) -> None:
    with pytest.raises(SourceError, match=r"not HTML .*application/pdf"):
        fetch(server.base + "/pdf")
    with pytest.raises(SourceError, match="binary data"):
        parse(fetch(server.base + "/binary"))
    # without require_html the PDF is fetched; parsing it is then refused by the binary sniff
    with pytest.raises(SourceError, match="binary data"):
        parse(fetch(server.base + "/pdf", require_html=False))
    assert parse(fetch(server.base + "/notype")) == parse(PAGE, server.base + "/notype")


def test_fetch_errors_are_typed(server: LocalServer) -> None:
    with pytest.raises(SourceError, match="404"):
        fetch(server.base + "/missing")
    with pytest.raises(SourceError, match="Invalid IPv6 URL"):
        fetch("http://[::1")
    with pytest.raises(SourceError, match="not an http"):
        fetch("ftp://example.com/")
    with pytest.raises(TypeError):
        fetch(None)  # type: ignore[arg-type]


async def test_afetch_and_aiter_items(server: LocalServer) -> None:
    url = server.base + "/page"
    resp = await afetch(url, headers={"X-Async": "yes"}, user_agent="async-bot")
    items = [item async for item in aiter_items(resp)]
    assert items == parse(PAGE, url)["items"]
    assert server.headers_for("/page")["x-async"] == "yes"
    assert server.headers_for("/page")["user-agent"] == "async-bot"
    with pytest.raises(SourceError, match="application/pdf"):
        await afetch(server.base + "/pdf")
    with pytest.raises(LimitExceeded):
        [i async for i in aiter_items(await afetch(server.base + "/big", max_bytes=1000))]


def cli_json(r: subprocess.CompletedProcess[bytes]) -> Any:
    assert r.returncode == 0, r.stderr
    return orjson.loads(r.stdout)


def test_cli_user_agent_and_headers(server: LocalServer) -> None:
    url = server.base + "/page"
    got = cli_json(run_cli(url, "--user-agent", "cli-bot/2", "--header", "X-One: 1", "--header", "X-Two:two"))
    assert got == parse(PAGE, url)
    sent = server.headers_for("/page")
    assert (sent["user-agent"], sent["x-one"], sent["x-two"]) == ("cli-bot/2", "1", "two")


@pytest.mark.slow
def test_cli_reports_non_html_and_bad_urls(server: LocalServer, tmp_path: Any) -> None:
    for args, text, status in (
        ([server.base + "/pdf"], "not HTML (Content-Type application/pdf)", 1),
        ([server.base + "/binary"], "binary data", 1),
        (["http://[::1"], "Invalid IPv6 URL", 1),
        ([server.base + "/big", "--max-bytes", "100"], "max_bytes", 1),
        ([server.base + "/redirect3", "--max-redirects", "1"], "302", 1),
        ([server.base + "/page", "--header", "no colon"], "--header", 2),  # a bad command line
    ):
        r = run_cli(*args)
        assert r.returncode == status, (args, r.stdout)
        err = r.stderr.decode()
        assert text in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, (args, err)
        assert r.stdout == b"", args
    binary = tmp_path / "data.bin"
    binary.write_bytes(b"\x00\x01\x02\x03" * 200)
    r = run_cli(str(binary))
    assert r.returncode == 1 and b"binary data" in r.stderr and r.stdout == b""
    r = run_cli(str(binary), "--jsonl")
    assert r.returncode == 1
    assert orjson.loads(r.stdout) == {"kind": "error", "error": f"{binary}: not HTML (binary data)"}


def test_cli_unknown_encoding_is_a_warning(server: LocalServer, tmp_path: Any) -> None:
    page = tmp_path / "p.html"
    page.write_bytes(PAGE)
    r = run_cli(str(page), "--encoding", "no-such-charset")
    assert r.returncode == 0
    assert b"warning: unknown encoding label 'no-such-charset'" in r.stderr
    assert orjson.loads(r.stdout) == parse(PAGE)


@pytest.mark.parametrize("framing", ["chunked", "gzip"])
async def test_afetch_stall_rule_items_flow_before_the_tail(framing: str) -> None:
    """A server that pauses after a short head without <meta charset>: the first item still comes out."""
    from tests.support.stalling_servers import STALL_HEAD, STALL_TAIL, stalling_http_server

    with stalling_http_server(STALL_HEAD, STALL_TAIL, hold=20.0) as slow:
        url = f"{slow.base}/{framing}"
        items = aiter_items(await afetch(url, timeout=30), stall_timeout=0.2)
        first = await items.__anext__()
        tail_was_sent = slow.tail_sent.is_set()
        slow.release.set()
        rest = [item async for item in items]
    assert not tail_was_sent
    assert [first, *rest] == parse(STALL_HEAD + STALL_TAIL, url)["items"]


def test_fetch_stall_rule_and_early_stop(server: LocalServer) -> None:
    from tests.support.stalling_servers import STALL_HEAD, STALL_TAIL, stalling_http_server

    with stalling_http_server(STALL_HEAD, STALL_TAIL, hold=20.0) as slow:
        resp = fetch(f"{slow.base}/chunked", headers={"X-Check": "1"})
        items = iter_items(resp, stall_timeout=0.2)
        assert next(items)["properties"]["name"] == ["Ann"]
        assert not slow.tail_sent.is_set()
        assert not resp.closed
        items.close()  # stopping early closes the response, without waiting for the server
        assert resp.closed
        slow.release.set()
