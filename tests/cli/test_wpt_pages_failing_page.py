"""``stream-mf2 wpt TEMPLATE PAGE1 BAD PAGE3 -o x.jsonl``: one page that cannot be read.

It used to stop the run at BAD with exit status 1 and delete the whole output file, PAGE1's lines
included (the writer was abandoned), while the same run to standard output kept PAGE1's lines;
and no ``error`` line said why, as the page command writes one with ``--jsonl``. Now the run
goes on as ``stream-mf2 wpt`` over WARC archives does with an unreadable input: BAD gets an
``{"kind": "error", "source", "error"}`` line (and a message on standard error), the next pages
are read, the output is kept, and the exit status is 3 (some pages failed) or 4 (all failed).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from stream_mf2.warc.schema import EXIT_ALL_FAILED, EXIT_SOME_FAILED
from tests.support.cli import run_cli
from tests.support.servers import range_server
from tests.support.suites import REPO

pytest.importorskip("defusedxml")
pytest.importorskip("regex")

FIX = REPO / "fixtures" / "wpt"
TEMPLATE = str(FIX / "readme.xml")
URL = "https://records.example/ar-42"


def _pages(tmp_path: Path) -> tuple[Path, Path]:
    nina = tmp_path / "nina.html"
    shutil.copy(FIX / "readme.html", nina)
    miles = tmp_path / "miles.html"
    miles.write_text((FIX / "readme.html").read_text("utf-8").replace("Nina Simone", "Miles Davis"), "utf-8")
    return nina, miles


def _lines(data: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in data.splitlines()]


def _summary(lines: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(x["kind"], x["source"]) for x in lines]


def test_a_missing_page_is_an_error_line_and_the_others_are_kept(tmp_path: Path) -> None:
    nina, miles = _pages(tmp_path)
    missing = tmp_path / "missing.html"
    args = ("wpt", TEMPLATE, str(nina), str(missing), str(miles), "--url", URL)
    out = tmp_path / "x.jsonl"
    to_file = run_cli(*args, "-o", str(out))
    to_stdout = run_cli(*args)
    for r in (to_file, to_stdout):
        assert r.returncode == EXIT_SOME_FAILED, r.stderr.decode()
        assert "Traceback" not in r.stderr.decode()
        assert f"cannot open {missing}" in r.stderr.decode()
        assert "1 of 3 pages failed" in r.stderr.decode()
    assert out.exists(), "the output of the pages that were read is kept"
    lines = _lines(out.read_bytes())
    assert lines == _lines(to_stdout.stdout)
    assert _summary(lines) == [("wpt", str(nina)), ("error", str(missing)), ("wpt", str(miles))]
    (error,) = [x for x in lines if x["kind"] == "error"]
    assert list(error) == ["kind", "source", "error"] and f"cannot open {missing}" in error["error"]
    # the pages read equal the run over each alone
    alone = _lines(run_cli("wpt", TEMPLATE, str(miles), "--url", URL).stdout)
    assert [x for x in lines if x["source"] == str(miles)] == alone


@pytest.mark.network_local
def test_a_failed_fetch_and_a_binary_page_are_error_lines(tmp_path: Path) -> None:
    nina, miles = _pages(tmp_path)
    root = tmp_path / "www"
    root.mkdir()
    shutil.copy(miles, root / "ar-43.html")
    png = tmp_path / "cover.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(64))
    with range_server(root) as server:
        gone, good = server.url("ar-44.html"), server.url("ar-43.html")
        out = tmp_path / "x.jsonl"
        r = run_cli("wpt", TEMPLATE, str(nina), gone, str(png), good, "--template", "Artist", "--items", "-o", str(out))
    assert r.returncode == EXIT_SOME_FAILED, r.stderr.decode()
    lines = _lines(out.read_bytes())
    errors = {x["source"]: x["error"] for x in lines if x["kind"] == "error"}
    assert set(errors) == {gone, str(png)}
    assert "404" in errors[gone] and "binary" in errors[str(png)]
    assert {x["source"] for x in lines if x["kind"] == "wpt"} == {str(nina), good}
    assert {x["source"] for x in lines if x["kind"] == "item"} == {str(nina), good}
    assert "2 of 4 pages failed" in r.stderr.decode()


def test_every_page_failing_is_status_4_and_parquet_keeps_the_read_pages(tmp_path: Path) -> None:
    nina, _ = _pages(tmp_path)
    r = run_cli("wpt", TEMPLATE, str(tmp_path / "a.html"), str(tmp_path / "b.html"), "-o", str(tmp_path / "x.jsonl"))
    assert r.returncode == EXIT_ALL_FAILED, r.stderr.decode()
    assert _summary(_lines((tmp_path / "x.jsonl").read_bytes())) == [
        ("error", str(tmp_path / "a.html")),
        ("error", str(tmp_path / "b.html")),
    ]
    pq = pytest.importorskip("pyarrow.parquet")
    r = run_cli("wpt", TEMPLATE, str(nina), str(tmp_path / "a.html"), "--url", URL, "-o", str(tmp_path / "p.parquet"))
    assert r.returncode == EXIT_SOME_FAILED, r.stderr.decode()
    assert [row["source"] for row in pq.read_table(tmp_path / "p.wpt.parquet").to_pylist()] == [str(nina)]


def test_one_good_page_is_still_status_0() -> None:
    r = run_cli("wpt", TEMPLATE, str(FIX / "readme.html"), "--url", URL)
    assert r.returncode == 0 and r.stderr == b"", r.stderr.decode()
    assert [x["kind"] for x in _lines(r.stdout)] == ["wpt"]


def test_the_error_line_is_valid_by_the_published_schema(tmp_path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((REPO / "docs" / "schemas" / "wpt-lines.schema.json").read_text("utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    nina, _ = _pages(tmp_path)
    r = run_cli("wpt", TEMPLATE, str(nina), str(tmp_path / "gone.html"), "--url", URL, "--records")
    lines = _lines(r.stdout)
    assert [x["kind"] for x in lines] == ["wpt-record"] * 3 + ["error"]
    for line in lines:
        assert not [e.message for e in validator.iter_errors(line)], line
    assert list(validator.iter_errors({"kind": "error", "error": "no source"}))
