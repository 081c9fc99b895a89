"""``stream-mf2 warc --syntaxes``: every syntax's results as item lines with a ``syntax``, equal to
``parse(page, uri, syntaxes=...)`` record by record, in JSON Lines, Parquet, with workers and resumed.

The archive holds the pages the syntax consumers are tested with (WordPress with Yoast, a shop, a
recipe blog, a news site with Dublin Core, a page without metadata), a Genesis page whose
``<body>`` is a microdata item, and a WordPress recipe in RDFa; each twice, compressed per record.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

import stream_mf2
from stream_mf2.core.syntaxes import SYNTAXES
from stream_mf2.warc.entries import WarcItem
from stream_mf2.warc.reader import iter_warc
from stream_mf2.warc.runner import Options
from tests.microdata.pages import PAGE_ITEM_BODY
from tests.rdfa.pages import WORDPRESS_SCHEMA_RDFA
from tests.support.cli import killed_runs, lines, run_warc
from tests.support.syntax_lines import syntax_list
from tests.syntaxes.pages import PAGES

ALL = frozenset(SYNTAXES)
OTHERS = tuple(n for n in SYNTAXES if n != "mf2")
BODIES = {**PAGES, "page-item-body": PAGE_ITEM_BODY, "rdfa-recipe": WORDPRESS_SCHEMA_RDFA}


def _uri(name: str, copy: int) -> str:
    return f"https://site.example/{name}/{copy}"


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("syntaxes") / "pages.warc.gz"
    with path.open("wb") as f:
        w = WARCWriter(f, gzip=True)
        for copy in range(2):
            for name, body in BODIES.items():
                data = body.encode()
                head = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8")], protocol="HTTP/1.1")
                w.write_record(
                    w.create_warc_record(_uri(name, copy), "response", payload=io.BytesIO(data), http_headers=head)
                )
    return path


def _expected() -> dict[str, dict[str, Any]]:
    """parse() of each record's page, as JSON reads it."""
    out = {}
    for copy in range(2):
        for name, body in BODIES.items():
            uri = _uri(name, copy)
            out[uri] = json.loads(json.dumps(stream_mf2.parse(body.encode(), uri, syntaxes=ALL)))
    return out


def _check(found: list[dict[str, Any]]) -> None:
    expected = _expected()
    records = [line for line in found if line["kind"] == "record"]
    assert [r["uri"] for r in records] == list(expected)
    assert found[-1]["kind"] == "summary"
    items = [line for line in found if line["kind"] == "item"]
    assert found[-1]["items"] == len(items)
    for record in records:
        mine = [line for line in items if line["uri"] == record["uri"]]
        assert record["items"] == len(mine)
        want = expected[record["uri"]]
        for name in SYNTAXES:
            if name == "mf2":
                lines_of = [line for line in mine if line["syntax"] == name]
                assert [line["path"] for line in lines_of] == [[i] for i in range(len(lines_of))], name
                assert [line["item"] for line in lines_of] == want["items"], record["uri"]
            else:  # (a microdata page item's line comes last, with its place)
                assert syntax_list(mine, name) == want[name], (record["uri"], name)
    # every syntax has something to compare on some page
    assert {line["syntax"] for line in items} == ALL


def test_jsonl_equals_parse_record_by_record(archive: Path) -> None:
    r = run_warc(str(archive), "--syntaxes", "all")
    assert r.returncode == 0, r.stderr.decode()
    _check(lines(r.stdout))


def test_workers_and_parquet(archive: Path, tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    r = run_warc(str(archive), "--syntaxes", "all", "--workers", "2", "-o", str(tmp_path / "out.jsonl"))
    assert r.returncode == 0, r.stderr.decode()
    jsonl = lines((tmp_path / "out.jsonl").read_bytes())
    _check(jsonl)
    r = run_warc(str(archive), "--syntaxes", "all", "-o", str(tmp_path / "out.parquet"))
    assert r.returncode == 0, r.stderr.decode()
    table = pq.read_table(tmp_path / "out.parquet")
    assert table.schema.field("syntax").type == "string"
    rows = table.to_pylist()
    items = [line for line in jsonl if line["kind"] == "item"]
    assert [(row["syntax"], row["uri"], json.loads(row["path"]), json.loads(row["item"])) for row in rows] == [
        (line["syntax"], line["uri"], line["path"], line["item"]) for line in items
    ]
    types = {row["syntax"]: row["type"] for row in rows if row["type"]}
    assert types["mf2"][0].startswith("h-") and types["microdata"][0].startswith("https://schema.org/")
    assert any(row["type"] == ["Recipe"] for row in rows if row["syntax"] == "json-ld")


def test_the_reader_api(archive: Path) -> None:
    entries = [e for e in iter_warc(str(archive), syntaxes={"json-ld", "dublincore"}) if isinstance(e, WarcItem)]
    assert {e.syntax for e in entries} == {"json-ld", "dublincore"}
    plain = [e for e in iter_warc(str(archive)) if isinstance(e, WarcItem)]
    assert plain and {e.syntax for e in plain} == {"mf2"}


def test_the_syntaxes_are_part_of_the_checkpoint_key() -> None:
    """A checkpoint of a run with other syntaxes is refused by a run without them (and back)."""
    plain = Options().key()
    some = Options(parser={"syntaxes": frozenset({"mf2", "json-ld"})}).key()
    assert some != plain != Options(parser={"syntaxes": ALL}).key() != some
    assert Options(parser={"syntaxes": frozenset({"json-ld", "mf2"})}).key() == some


def test_resume_after_kills(archive: Path, tmp_path: Path) -> None:
    whole = tmp_path / "whole.jsonl"
    r = run_warc(str(archive), "--syntaxes", "all", "-o", str(whole))
    assert r.returncode == 0, r.stderr.decode()
    out = tmp_path / "out.jsonl"
    kills, _ = killed_runs([str(archive), "--syntaxes", "all"], out, random.Random(27), whole.stat().st_size)
    assert kills > 0
    assert out.read_bytes() == whole.read_bytes()


def test_stream_children_leaves_the_other_syntaxes_as_they_are(archive: Path) -> None:
    """--stream-children changes how mf2 items are written, not the other syntaxes' lines."""
    plain = run_warc(str(archive), "--syntaxes", "all")
    streamed = run_warc(str(archive), "--syntaxes", "all", "--stream-children")
    assert plain.returncode == streamed.returncode == 0, streamed.stderr.decode()

    def others(data: bytes) -> list[dict[str, Any]]:
        return [line for line in lines(data) if line["kind"] == "item" and line["syntax"] != "mf2"]

    assert others(streamed.stdout) == others(plain.stdout) != []
