"""``stream-mf2 --jsonl``: every failure of the page writes its ``error`` line, a fetch's too.

The error line was written for a failure during the parse (a missing file, binary data) but
not for one while opening the page: a URL answering 404, a refused connection, a WARC archive
given as a page. A consumer reading the lines saw an empty stream and had to read stderr.
A bad command line (status 2) still writes no line: nothing was run.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import assert_user_error, run_cli
from tests.support.servers import range_server
from tests.support.warc_records import html_archive


def _error_line(out: bytes) -> str:
    (line,) = [json.loads(x) for x in out.splitlines()]
    assert line["kind"] == "error"
    return str(line["error"])


@pytest.mark.network_local
def test_a_failed_fetch_writes_its_error_line(tmp_path: Path) -> None:
    (tmp_path / "www").mkdir()
    with range_server(tmp_path / "www") as server:
        url = server.url("2026/12/gone.html")
        r = run_cli("--jsonl", url)
    assert_user_error(r, 1, "HTTP 404")
    assert "HTTP 404" in _error_line(r.stdout) and url in _error_line(r.stdout)


def test_a_refused_page_writes_its_error_line(tmp_path: Path) -> None:
    archive = html_archive(tmp_path / "crawl.warc.gz", [b"<!doctype html><p class=h-card>Ann"])
    r = run_cli("--jsonl", str(archive))
    assert_user_error(r, 1, "a WARC archive is read by")
    assert "a WARC archive is read by" in _error_line(r.stdout)


def test_a_bad_command_line_writes_no_line() -> None:
    r = run_cli("--jsonl", "https://example.invalid/", "--header", "no colon")
    assert_user_error(r, 2, "--header wants 'NAME: VALUE'")
    assert r.stdout == b""
