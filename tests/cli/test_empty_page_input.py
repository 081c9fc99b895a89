"""A page of zero bytes (standard input, or a file) is refused by every page command.

``curl https://… | stream-mf2 wpt artist.xml -`` with a failing ``curl`` gave a page line with
every block empty and status 0, and ``stream-mf2 -`` an empty document: the same answer as a
page where nothing matched, so the failure went unseen. Every command that reads a page now
says the input was empty: the page command fails (status 1, with ``--jsonl`` an ``error`` line),
``wpt`` over pages writes an ``error`` line for that page and goes on (status 3, or 4 when
no page was read), ``xpath`` and ``wpt lint`` fail. One byte is enough to be a page.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import assert_user_error, run_cli
from tests.support.suites import REPO

FIX = REPO / "fixtures"
EMPTY = "empty input (0 bytes)"


def _lines(out: bytes) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


def test_the_page_command_refuses_empty_standard_input_and_files(tmp_path: Path) -> None:
    empty = tmp_path / "saved.html"
    empty.write_bytes(b"")
    for src, name, stdin in (("-", "<stdin>", b""), (str(empty), str(empty), None)):
        r = run_cli(src, stdin=stdin)
        assert_user_error(r, 1, f"{name}: {EMPTY}")
        assert r.stdout == b""
        r = run_cli("--jsonl", src, stdin=stdin)
        assert_user_error(r, 1, f"{name}: {EMPTY}")
        (line,) = _lines(r.stdout)
        assert line["kind"] == "error" and EMPTY in str(line["error"])
    # one byte is a page (an empty document), as before
    r = run_cli("-", stdin=b"\n")
    assert r.returncode == 0, r.stderr.decode()
    assert json.loads(r.stdout) == {"items": [], "rels": {}, "rel-urls": {}}


def test_wpt_writes_an_error_line_for_an_empty_page_and_goes_on(tmp_path: Path) -> None:
    pytest.importorskip("defusedxml")
    template = str(FIX / "wpt" / "artist.xml")
    r = run_cli("wpt", template, "-", stdin=b"")
    assert_user_error(r, 4, f"<stdin>: {EMPTY}")
    (line,) = _lines(r.stdout)
    assert line["kind"] == "error" and line["source"] == "-" and EMPTY in str(line["error"])
    # among other pages: the empty one is an error line, the others are written (status 3)
    empty = tmp_path / "ar-44.html"
    empty.write_bytes(b"")
    page = str(FIX / "wpt" / "artist.html")
    r = run_cli("wpt", template, page, str(empty), "-", "--items", stdin=(FIX / "wpt" / "artist.html").read_bytes())
    assert_user_error(r, 3, f"{empty}: {EMPTY}")
    lines = _lines(r.stdout)
    assert [(x["kind"], x["source"]) for x in lines] == [("wpt", page), ("error", str(empty)), ("wpt", "-")]
    assert lines[0]["blocks"] == lines[2]["blocks"]


def test_xpath_and_lint_refuse_an_empty_page(tmp_path: Path) -> None:
    pytest.importorskip("defusedxml")
    r = run_cli("xpath", "-", "--id", "main", stdin=b"")
    assert_user_error(r, 1, f"<stdin>: {EMPTY}")
    r = run_cli("wpt", "lint", str(FIX / "wpt" / "artist.xml"), "-", stdin=b"")
    assert r.returncode == 1, r.stderr.decode()
    assert r.stdout.decode().splitlines() == [f"<stdin>: error: {EMPTY}, no HTML page to read; was the page written or sent?"]
    assert b"never matches" not in r.stdout + r.stderr  # not a lint of an empty page


def test_standard_input_given_twice_is_refused(tmp_path: Path) -> None:
    """``wpt T - -`` read the page, then an empty "second page"; ``warc - -`` read the archive
    once and counted an empty second input as read. Standard input can be read only once."""
    pytest.importorskip("defusedxml")
    page = (FIX / "wpt" / "artist.html").read_bytes()
    r = run_cli("wpt", str(FIX / "wpt" / "artist.xml"), "-", "-", stdin=page)
    assert_user_error(r, 2, "- (standard input) is given more than once")
    assert r.stdout == b""
    from tests.support.warc_records import html_archive

    archive = html_archive(tmp_path / "crawl.warc.gz", [page])
    r = run_cli("warc", "-", "-", "--no-progress", stdin=archive.read_bytes())
    assert_user_error(r, 2, "- (standard input) is given more than once")
    r = run_cli("warc", "-", "--no-progress", stdin=archive.read_bytes())
    assert r.returncode == 0, r.stderr.decode()
