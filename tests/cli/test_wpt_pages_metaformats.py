"""``stream-mf2 wpt --metaformats`` over HTML pages: the meta-item is written, never dropped.

Over WARC archives the meta-item rides on each record line. HTML pages have no record line, so
with ``--items`` the page's meta-item is a ``meta-item`` line, as in ``stream-mf2 --jsonl``; without
``--items`` (no mf2 output at all) and with a Parquet output (no table for it) the flag is refused
rather than silently ignored.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stream_mf2 import parse
from tests.support.cli import assert_user_error, run_cli
from tests.support.suites import REPO

pytest.importorskip("defusedxml")
pytest.importorskip("regex")

FIX = REPO / "fixtures" / "wpt"
URL = "https://records.example/ar-42"
#: A WordPress post whose <head> gives a meta-item (title, description, OpenGraph).
POST = REPO / "fixtures" / "realworld" / "wordpress-autonomie-post.html"


def _lines(out: bytes) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.decode().splitlines() if line.strip()]


@pytest.mark.parametrize("page", [FIX / "readme.html", POST], ids=["readme", "wordpress"])
def test_meta_item_line_with_items(page: Path) -> None:
    r = run_cli("wpt", str(FIX / "readme.xml"), str(page), "--url", URL, "--items", "--metaformats")
    assert r.returncode == 0, r.stderr.decode()
    lines = _lines(r.stdout)
    want = parse(page.read_bytes(), URL, metaformats=True)
    assert "meta-item" in want
    assert [x["item"] for x in lines if x["kind"] == "meta-item"] == [want["meta-item"]]
    assert [x["item"] for x in lines if x["kind"] == "item"] == want["items"]
    assert [x["kind"] for x in lines].count("wpt") == 1


def test_meta_item_line_from_stdin_in_a_jsonl_file(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    r = run_cli("wpt", str(FIX / "readme.xml"), "-", "--url", URL, "--items", "--metaformats", "-o", str(out),
                stdin=POST.read_bytes())
    assert r.returncode == 0, r.stderr.decode()
    lines = _lines(out.read_bytes())
    assert [x["item"] for x in lines if x["kind"] == "meta-item"] == [parse(POST.read_bytes(), URL, metaformats=True)["meta-item"]]


def test_metaformats_without_items_is_refused() -> None:
    r = run_cli("wpt", str(FIX / "readme.xml"), str(POST), "--url", URL, "--metaformats")
    assert_user_error(r, 2, "--metaformats")
    assert r.stdout == b""


def test_metaformats_into_parquet_is_refused(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    out = tmp_path / "out.parquet"
    r = run_cli("wpt", str(FIX / "readme.xml"), str(POST), "--url", URL, "--items", "--metaformats", "-o", str(out))
    assert_user_error(r, 2, "--metaformats")
    assert list(tmp_path.iterdir()) == []
