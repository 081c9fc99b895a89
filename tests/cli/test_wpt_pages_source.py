"""``stream-mf2 wpt TEMPLATE PAGE1 PAGE2 ...``: every line names the page it came from.

Saved pages of one site, read with ``--url`` (or ``--template``), gave lines with the same
``url`` (or ``null``) and, in Parquet, a null ``uri``: a reader could not tell which page a line
was about. Over HTML pages every line now has ``"source"`` after its ``kind``: the input as
named on the command line (a path, an ``http(s)://`` URL, ``-`` for standard input), as
``warc_file`` names a WARC input; the WPT Parquet tables have a ``source`` column.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import run_cli
from tests.support.servers import range_server
from tests.support.suites import REPO

pytest.importorskip("defusedxml")
pytest.importorskip("regex")

FIX = REPO / "fixtures" / "wpt"
URL = "https://records.example/ar-42"


def _artists(tmp_path: Path) -> list[Path]:
    """Two saved artist pages of one site, told apart only by their content."""
    nina = tmp_path / "nina.html"
    shutil.copy(FIX / "readme.html", nina)
    miles = tmp_path / "miles.html"
    miles.write_text(
        (FIX / "readme.html")
        .read_text("utf-8")
        .replace("Nina Simone", "Miles Davis")
        .replace("Little Girl Blue", "Kind of Blue")
        .replace("Pastel Blues", "Sketches of Spain"),
        "utf-8",
    )
    return [nina, miles]


def _names(lines: list[dict[str, Any]]) -> dict[str, str]:
    """source -> the artist name its page line found."""
    out: dict[str, str] = {}
    for x in lines:
        if x["kind"] == "wpt":
            (block,) = [b for b in x["blocks"] if b["concept"] == "artist.name"]
            out[x["source"]] = block["matches"][0]["text"]
    return out


def _ok(r: Any) -> list[dict[str, Any]]:
    assert r.returncode == 0, r.stderr.decode()
    return [json.loads(line) for line in r.stdout.splitlines()]


def test_every_line_over_pages_names_its_page(tmp_path: Path) -> None:
    nina, miles = _artists(tmp_path)
    lines = _ok(run_cli("wpt", str(FIX / "readme.xml"), str(nina), str(miles), "--url", URL, "--items"))
    assert {x["kind"] for x in lines} == {"wpt", "item"}
    assert all(next(iter(x)) == "kind" and list(x)[1] == "source" for x in lines)
    assert _names(lines) == {str(nina): "Nina Simone", str(miles): "Miles Davis"}
    items = {x["source"]: x["item"]["properties"]["name"] for x in lines if x["kind"] == "item"}
    assert items == {str(nina): ["Nina Simone"], str(miles): ["Miles Davis"]}
    # every form of line: matches, records, JSON-LD
    for form in (["--matches"], ["--records", "--jsonld"]):
        got = _ok(run_cli("wpt", str(FIX / "readme.xml"), str(nina), str(miles), "--url", URL, *form))
        assert {x["source"] for x in got} == {str(nina), str(miles)}
        assert any("Miles Davis" in json.dumps(x) for x in got if x["source"] == str(miles))
        assert not any("Miles Davis" in json.dumps(x) for x in got if x["source"] == str(nina))


def test_standard_input_is_named_dash(tmp_path: Path) -> None:
    nina, miles = _artists(tmp_path)
    lines = _ok(
        run_cli("wpt", str(FIX / "readme.xml"), str(nina), "-", "--template", "Artist", stdin=miles.read_bytes())
    )
    assert _names(lines) == {str(nina): "Nina Simone", "-": "Miles Davis"}
    assert all(x["url"] is None for x in lines)


@pytest.mark.network_local
def test_a_fetched_page_is_named_as_given_and_keeps_its_url(tmp_path: Path) -> None:
    nina, miles = _artists(tmp_path)
    root = tmp_path / "www"
    root.mkdir()
    shutil.copy(miles, root / "ar-43.html")
    with range_server(root) as server:
        url = server.url("ar-43.html")
        lines = _ok(run_cli("wpt", str(FIX / "readme.xml"), str(nina), url, "--template", "Artist"))
    assert _names(lines) == {str(nina): "Nina Simone", url: "Miles Davis"}
    assert {x["source"]: x["url"] for x in lines} == {str(nina): None, url: url}


def test_the_parquet_tables_have_a_source_column(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    nina, miles = _artists(tmp_path)
    out = tmp_path / "pages.parquet"
    r = run_cli("wpt", str(FIX / "readme.xml"), str(nina), str(miles), "--url", URL, "--records", "--jsonld",
                "-o", str(out))
    assert r.returncode == 0, r.stderr.decode()
    records = pq.read_table(tmp_path / "pages.wpt-records.parquet").to_pylist()
    names = {row["source"]: json.loads(row["data"])["artist"]["name"] for row in records if row["block"] is None}
    assert names == {str(nina): "Nina Simone", str(miles): "Miles Davis"}
    jsonld = pq.read_table(tmp_path / "pages.wpt-jsonld.parquet").to_pylist()
    assert [row["source"] for row in jsonld] == [str(nina), str(miles)]
    r = run_cli("wpt", str(FIX / "readme.xml"), str(nina), str(miles), "--url", URL, "--matches",
                "-o", str(tmp_path / "m.parquet"))
    assert r.returncode == 0, r.stderr.decode()
    matches = pq.read_table(tmp_path / "m.wpt-matches.parquet").to_pylist()
    assert {row["source"] for row in matches} == {str(nina), str(miles)}
    r = run_cli("wpt", str(FIX / "readme.xml"), str(nina), str(miles), "--url", URL, "-o", str(tmp_path / "p.parquet"))
    assert r.returncode == 0, r.stderr.decode()
    assert _names([{"kind": "wpt", **row, "blocks": json.loads(row["blocks"])}
                   for row in pq.read_table(tmp_path / "p.wpt.parquet").to_pylist()]) == {
        str(nina): "Nina Simone",
        str(miles): "Miles Davis",
    }


def test_the_lines_with_a_source_are_valid_by_the_published_schema(tmp_path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((REPO / "docs" / "schemas" / "wpt-lines.schema.json").read_text("utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    nina, miles = _artists(tmp_path)
    for form in ([], ["--matches"], ["--records", "--jsonld"]):
        lines = _ok(run_cli("wpt", str(FIX / "readme.xml"), str(nina), str(miles), "--url", URL, *form))
        for line in lines:
            assert not [e.message for e in validator.iter_errors(line)], line
        # a page line with both a source and a WARC record's fields is not one the command writes
        bad = {**lines[0], "warc_file": "a.warc.gz", "offset": 0, "record_id": None, "uri": None}
        assert list(validator.iter_errors(bad))


def test_the_parquet_items_and_errors_name_their_page_as_the_lines_do(tmp_path: Path) -> None:
    """The items table of ``--items`` had no ``source`` (and a null ``syntax``) over HTML pages,
    and a page that could not be read left no row at all: Parquet lost what JSON Lines said."""
    pq = pytest.importorskip("pyarrow.parquet")
    nina, miles = _artists(tmp_path)
    gone = tmp_path / "ar-44.html"  # a page the crawl failed to save
    args = ("wpt", str(FIX / "readme.xml"), str(nina), str(gone), str(miles), "--url", URL, "--items")
    r = run_cli(*args)
    assert r.returncode == 3, r.stderr.decode()
    lines = [json.loads(line) for line in r.stdout.splitlines()]
    r = run_cli(*args, "-o", str(tmp_path / "pages.parquet"))
    assert r.returncode == 3, r.stderr.decode()
    items = pq.read_table(tmp_path / "pages.parquet").to_pylist()
    assert [(row["source"], json.loads(row["item"])) for row in items] == [
        (x["source"], x["item"]) for x in lines if x["kind"] == "item"
    ]
    assert {row["source"]: json.loads(row["item"])["properties"]["name"] for row in items} == {
        str(nina): ["Nina Simone"],
        str(miles): ["Miles Davis"],
    }
    assert {row["syntax"] for row in items} == {"mf2"}
    errors = pq.read_table(tmp_path / "pages.errors.parquet").to_pylist()
    assert [(row["source"], row["error"]) for row in errors] == [
        (x["source"], x["error"]) for x in lines if x["kind"] == "error"
    ]
    assert [row["source"] for row in errors] == [str(gone)]
