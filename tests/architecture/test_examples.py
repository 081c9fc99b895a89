"""Every script in examples/ runs, against a local HTTP server and WARC files the tests write."""

from __future__ import annotations

import importlib.util
import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

import stream_mf2
from tests.support.api_server import LATIN_PAGE, PAGE, LocalServer, local_server
from tests.support.suites import REPO

EXAMPLES = REPO / "examples"


def run_example(name: str, *args: str) -> list[Any]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    r = subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args], capture_output=True, cwd=REPO, env=env, timeout=120
    )
    assert r.returncode == 0, r.stderr.decode()
    return [orjson.loads(line) for line in r.stdout.splitlines()]


@pytest.fixture(scope="module")
def server() -> Iterator[LocalServer]:
    with local_server() as s:
        yield s


def test_every_example_is_tested() -> None:
    source = Path(__file__).read_text()
    for script in EXAMPLES.glob("*.py"):
        assert f'"{script.name}"' in source, f"{script.name} has no test"


@pytest.mark.network_local
@pytest.mark.parametrize("mode", [[], ["--async"]], ids=["sync", "async"])
def test_httpx_stream(server: LocalServer, mode: list[str]) -> None:
    url = server.base + "/page"
    assert run_example("httpx_stream.py", url, *mode) == stream_mf2.parse(PAGE, url)["items"]
    latin = run_example("httpx_stream.py", server.base + "/latin", *mode)
    assert latin == stream_mf2.parse(LATIN_PAGE, encoding="iso-8859-1")["items"]


@pytest.mark.network_local
def test_aiohttp_stream(server: LocalServer) -> None:
    urls = [server.base + "/page", server.base + "/latin", server.base + "/gzip"]
    lines = run_example("aiohttp_stream.py", *urls)
    for url in urls:
        got = [line["item"] for line in lines if line["url"] == url]
        assert got == stream_mf2.parse(stream_mf2.fetch(url), url)["items"], url
    assert len(lines) == 5


def write_warc(path: Path) -> None:
    """Two HTML responses (UTF-8 and ISO-8859-1 by header), an image, a request record."""
    with open(path, "wb") as f:
        writer = WARCWriter(f, gzip=path.suffix == ".gz")
        for uri, body, ctype in (
            ("http://example.com/page", PAGE, "text/html; charset=utf-8"),
            ("http://example.com/latin", LATIN_PAGE, "text/html; charset=iso-8859-1"),
            ("http://example.com/logo.png", b"\x89PNG\r\n\x1a\n" + bytes(300), "image/png"),
        ):
            head = StatusAndHeaders("200 OK", [("Content-Type", ctype), ("Content-Length", str(len(body)))], protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(uri, "response", payload=io.BytesIO(body), http_headers=head))
        req = StatusAndHeaders("GET /page HTTP/1.1", [("Host", "example.com")], is_http_request=True)
        writer.write_record(writer.create_warc_record("http://example.com/page", "request", payload=io.BytesIO(b""), http_headers=req))


def warc_expected(path: Path) -> list[Any]:
    return [{"uri": e.uri, "item": e.item} for e in stream_mf2.iter_warc(path) if isinstance(e, stream_mf2.WarcItem)]


@pytest.mark.parametrize("suffix", [".warc", ".warc.gz"])
@pytest.mark.parametrize("script", ["warcio_loop.py", "fastwarc_loop.py"])
def test_warc_loops(tmp_path: Path, script: str, suffix: str) -> None:
    pytest.importorskip("fastwarc" if script.startswith("fast") else "warcio")
    path = tmp_path / f"crawl{suffix}"
    write_warc(path)
    want = warc_expected(path)
    assert len(want) == 3 and want[2]["item"]["properties"]["name"] == ["Zoë"]
    assert run_example(script, str(path)) == want


MF2UTIL_PAGE = b"""<!doctype html><html><body>
<div class="h-card"><a class="u-url u-uid p-name" href="/">Jane Doe</a></div>
<div class="h-feed">
<article class="h-entry"><p class="p-name e-content">Just a note</p></article>
<article class="h-entry"><h1 class="p-name">A title</h1><div class="e-content">A longer article body.</div></article>
<article class="h-entry"><a class="u-in-reply-to" href="http://other.example/post">re</a><p class="e-content">Agreed</p></article>
<article class="h-entry"><a class="u-like-of" href="http://other.example/photo">liked</a></article>
<article class="h-entry"><img class="u-photo" src="/cat.jpg" alt="cat"><p class="p-name e-content">Cat</p></article>
</div></body></html>"""


def test_mf2util_post_types(tmp_path: Path) -> None:
    pytest.importorskip("mf2util")
    page = tmp_path / "page.html"
    page.write_bytes(MF2UTIL_PAGE)
    lines = run_example("mf2util_post_types.py", str(page), "http://jane.example/")
    assert [line["post-type"] for line in lines[:-1]] == ["note", "article", "reply", "like", "photo"]
    assert lines[-1] == {"representative-h-card": ["Jane Doe"]}


def _load(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name.removesuffix(".py"), EXAMPLES / name)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_pyspark_partition_function(tmp_path: Path) -> None:
    """The function the executors run, without Spark: every item and a damaged record as an error row."""
    good = tmp_path / "good.warc.gz"
    write_warc(good)
    damaged = tmp_path / "damaged.warc"
    write_warc(damaged)
    data = damaged.read_bytes()
    damaged.write_bytes(data[: data.index(LATIN_PAGE) + 10])  # cut inside the second page
    rows = [orjson.loads(r) for r in _load("pyspark_warc.py").items_of_partition([str(good), str(damaged)])]
    items = [r for r in rows if r["kind"] == "item" and r["warc"] == str(good)]
    assert [{"uri": r["uri"], "item": r["item"]} for r in items] == warc_expected(good)
    rest = [r for r in rows if r["warc"] == str(damaged)]
    assert [r["kind"] for r in rest] == ["item", "item", "error"]
    assert "truncated" in rest[2]["error"]


def test_pyspark_job(tmp_path: Path) -> None:
    pytest.importorskip("pyspark", reason="pyspark is not installed (extra 'spark'; it also needs Java)")
    path = tmp_path / "crawl.warc.gz"
    write_warc(path)
    out = tmp_path / "out"
    # Spark starts its Python workers with PYSPARK_PYTHON (default: python3 on PATH): this interpreter.
    env = dict(os.environ, PYTHONPATH=str(REPO), PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable)
    r = subprocess.run(
        [sys.executable, str(EXAMPLES / "pyspark_warc.py"), str(out), str(path)],
        capture_output=True,
        cwd=REPO,
        env=env,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr.decode()[-2000:]
    rows = [orjson.loads(line) for part in sorted(out.glob("part-*")) for line in part.read_bytes().splitlines()]
    assert [{"uri": r["uri"], "item": r["item"]} for r in rows if r["kind"] == "item"] == warc_expected(path)
