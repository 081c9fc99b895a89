"""A note (here: a value emptied past the output budget) shows wherever a user reads results.

* the page command: a ``stream-mf2: warning: …`` line on standard error, in both output
  forms, and the ``notes`` field of the ``--jsonl`` ``document`` line;
* ``stream-mf2 warc``: the ``notes`` field of the record's line (``[]`` when none), in
  JSON Lines and in the Parquet records table.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.warc_records import html_archive

PAGE = b"<div class=h-entry><p class=p-name>" + b"x" * 500 + b"</p></div>"
NOTE = "1 value(s) of item h-entry emptied past its output budget (max_item_chars=100)"


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "stream_mf2", *args], capture_output=True, text=True, check=False)


@pytest.fixture
def page(tmp_path: Path) -> Path:
    path = tmp_path / "p.html"
    path.write_bytes(PAGE)
    return path


def test_page_command_warns_on_stderr(page: Path) -> None:
    r = _cli("--max-item-chars", "100", "--url", "https://a.example/", str(page))
    assert r.returncode == 0
    assert json.loads(r.stdout)["items"][0]["properties"]["name"] == [""]
    assert r.stderr == f"stream-mf2: warning: https://a.example/: {NOTE}\n"


def test_jsonl_document_line_carries_the_notes(page: Path) -> None:
    r = _cli("--jsonl", "--max-item-chars", "100", str(page))
    lines = [json.loads(line) for line in r.stdout.splitlines()]
    assert lines[-1]["kind"] == "document" and lines[-1]["notes"] == [NOTE]
    assert NOTE in r.stderr
    r = _cli("--jsonl", str(page))
    assert json.loads(r.stdout.splitlines()[-1])["notes"] == [] and r.stderr == ""


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    return html_archive(tmp_path / "a.warc.gz", [PAGE, b"<p class=h-card>Ann</p>"])


def test_warc_record_lines_carry_the_notes(archive: Path) -> None:
    r = _cli("warc", str(archive), "--max-item-chars", "100", "--no-progress")
    records = [line for line in map(json.loads, r.stdout.splitlines()) if line["kind"] == "record"]
    assert [rec["notes"] for rec in records] == [[NOTE], []]
    assert "warning" not in r.stderr  # the notes are in the lines; stderr keeps the summary


def test_warc_parquet_records_carry_the_notes(archive: Path, tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "o.parquet"
    r = _cli("warc", str(archive), "--max-item-chars", "100", "-o", str(out), "--no-progress")
    assert r.returncode == 0, r.stderr
    rows = pq.read_table(tmp_path / "o.records.parquet").to_pylist()
    assert [json.loads(row["notes"]) for row in rows] == [[NOTE], []]


def test_a_page_wide_feed_gets_the_stream_children_hint(tmp_path: Path) -> None:
    page = tmp_path / "feed.html"
    entries = "".join(f"<article class=h-entry><p class=p-name>{i}</p></article>" for i in range(1000))
    page.write_text(f"<body class=h-feed>{entries}</body>")
    r = _cli(str(page))
    assert r.returncode == 0
    assert "hint: an item held 1000 children until it closed; --stream-children" in r.stderr
    r = _cli("--jsonl", "--stream-children", str(page))
    assert r.returncode == 0 and r.stderr == ""
