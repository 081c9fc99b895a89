"""``--workers N`` where records cannot be split between processes says so.

A local WARC file's records are parsed in N processes; standard input, a URL and one record
range (``--offset``/``--length``) are read front to back in one process. The runner used to
fall back to one process for them without a word, so ``--workers 8`` on a URL was a run eight
times slower than asked for, and nothing said why. Now a run where no input can be split is a
bad command line (status 2), and a run mixing local files with others names the others.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import assert_user_error, run_cli
from tests.support.warc_records import html_archive

PAGE = (
    b'<!doctype html><html><head><meta charset="utf-8"><title>Jane</title></head><body>'
    b'<article class="h-entry"><h1 class="p-name">Hello {}</h1></article></body></html>'
)


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    return html_archive(tmp_path / "crawl.warc.gz", [PAGE.replace(b"{}", str(i).encode()) for i in range(4)])


@pytest.mark.parametrize("command", [["warc"], ["wpt", "fixtures/wpt/artist.xml"]])
def test_workers_on_standard_input_only_is_refused(archive: Path, command: list[str]) -> None:
    extra = ["--warc"] if command[0] == "wpt" else []
    r = run_cli(*command, "-", *extra, "--workers", "2", stdin=archive.read_bytes())
    assert_user_error(r, 2, "--workers splits local WARC files between processes")
    assert r.stdout == b""


def test_workers_on_a_url_only_is_refused() -> None:
    # Refused from the arguments alone: nothing is fetched (no server needed at that port).
    r = run_cli("warc", "http://127.0.0.1:9/crawl.warc.gz", "--workers", "2")
    assert_user_error(r, 2, "standard input and URLs are read in one process")


def test_workers_with_a_record_range_is_refused(archive: Path) -> None:
    r = run_cli("warc", str(archive), "--offset", "0", "--length", "100000", "--workers", "2")
    assert_user_error(r, 2, "--workers cannot go with --offset/--length")


def test_a_mixed_run_names_the_inputs_read_in_one_process(archive: Path) -> None:
    r = run_cli("warc", str(archive), "-", "--workers", "2", stdin=archive.read_bytes())
    assert r.returncode == 0, r.stderr.decode()
    err = r.stderr.decode()
    assert "warning: --workers: - read in one process" in err, err
    items = [json.loads(x) for x in r.stdout.splitlines() if json.loads(x)["kind"] == "item"]
    assert len(items) == 8  # both inputs parsed in full


def test_workers_on_local_files_stays_quiet(archive: Path) -> None:
    r = run_cli("warc", str(archive), "--workers", "2")
    assert r.returncode == 0, r.stderr.decode()
    assert "--workers" not in r.stderr.decode()
    assert sum(json.loads(x)["kind"] == "item" for x in r.stdout.splitlines()) == 4
