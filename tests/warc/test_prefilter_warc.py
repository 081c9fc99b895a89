"""``stream-mf2 warc --prefilter`` end to end: the same item lines, through every front end.

The archive is crawl-like (``bench.crawl_archive``): about one HTML record in ten
carries microformats (the ``fixtures/bench`` pages), the others are the same pages
with their root class names renamed and news-like pages, with requests, assets and
plain / gzip / chunked bodies. Each front end (single process, ``--workers 2``,
Parquet, ``--resume`` killed and restarted, Dask) gives with ``--prefilter`` exactly
the item lines of the run without it, and ``"parsed": false`` record lines only for
records that have no item.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bench.crawl_archive import write_crawl_archive
from stream_mf2.warc.entries import WarcItem, WarcRecord
from stream_mf2.warc.reader import iter_warc
from tests.support.cli import killed_runs, lines, run_warc

TYPES = ("--type", "h-entry,h-card")


@pytest.fixture(scope="module")
def crawl(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("crawl") / "crawl.warc.gz"
    made = write_crawl_archive(path, 2_500_000)
    assert made["markup_records"] * 8 <= made["html_records"] <= made["markup_records"] * 12
    return path


@pytest.fixture(scope="module")
def without(crawl: Path, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """The lines of the run without the prefilter."""
    out = tmp_path_factory.mktemp("without") / "out.jsonl"
    r = run_warc(str(crawl), *TYPES, "-o", str(out))
    assert r.returncode == 0, r.stderr.decode()
    return lines(out.read_bytes())


def _items(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [line for line in found if line["kind"] == "item"]


def _check(found: list[dict[str, Any]], without: list[dict[str, Any]]) -> None:
    assert _items(found) == _items(without) != []
    records = [line for line in found if line["kind"] == "record"]
    before = {r["offset"]: r for r in without if r["kind"] == "record"}
    assert [r["offset"] for r in records] == list(before)
    unparsed = [r for r in records if r["parsed"] is False]
    assert len(unparsed) >= len(records) // 2
    for r in unparsed:
        assert r["items"] == 0 == before[r["offset"]]["items"]
        assert r["rels"] == {} and r["notes"] == [] and r["encoding"] is None
    for r in records:
        if r["parsed"]:
            assert r == before[r["offset"]]
    summary = found[-1]
    assert summary["kind"] == "summary" and summary["unparsed"] == len(unparsed)
    assert without[-1]["unparsed"] == 0
    assert {k: v for k, v in summary.items() if k != "unparsed"} == {
        k: v for k, v in without[-1].items() if k != "unparsed"
    }


def test_single_process_standard_output(crawl: Path, without: list[dict[str, Any]]) -> None:
    r = run_warc(str(crawl), *TYPES, "--prefilter")
    assert r.returncode == 0, r.stderr.decode()
    _check(lines(r.stdout), without)
    assert "not parsed (--prefilter)" in r.stderr.decode()


def test_two_workers(crawl: Path, without: list[dict[str, Any]], tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    r = run_warc(str(crawl), *TYPES, "--prefilter", "--workers", "2", "-o", str(out))
    assert r.returncode == 0, r.stderr.decode()
    _check(lines(out.read_bytes()), without)


def test_parquet_has_a_parsed_column(crawl: Path, without: list[dict[str, Any]], tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow is not installed")
    from stream_mf2.warc.outputs import parquet_paths

    tables = {}
    for name, extra in (("with", ["--prefilter"]), ("without", [])):
        out = tmp_path / f"{name}.parquet"
        r = run_warc(str(crawl), *TYPES, *extra, "-o", str(out))
        assert r.returncode == 0, r.stderr.decode()
        tables[name] = {kind: pq.read_table(p) for kind, p in parquet_paths(str(out)).items()}
    assert tables["with"]["item"].to_pylist() == tables["without"]["item"].to_pylist()
    records = tables["with"]["record"]
    assert str(records.schema.field("parsed").type) == "bool"
    parsed = records.column("parsed").to_pylist()
    assert False in parsed and True in parsed
    assert set(tables["without"]["record"].column("parsed").to_pylist()) == {True}


def test_resume_after_kills(crawl: Path, without: list[dict[str, Any]], tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    expected_size = sum(len(str(x)) for x in without)
    kills, _ = killed_runs([str(crawl), *TYPES, "--prefilter"], out, random.Random(26), expected_size)
    assert kills > 0
    _check(lines(out.read_bytes()), without)


def test_the_prefilter_is_part_of_the_checkpoint_key() -> None:
    """A checkpoint of a run without --prefilter is refused by a run with it (and back)."""
    from stream_mf2.warc.runner import Options

    assert Options(prefilter=True).key() != Options().key()


@pytest.mark.network_local
@pytest.mark.dask
def test_dask_parts_equal_the_single_process_run(crawl: Path, tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason="dask.distributed is not installed")
    import gzip
    import json

    from distributed import Client

    from stream_mf2.cli.dask import local_cluster
    from stream_mf2.warc import dask as _dask
    from stream_mf2.warc.runner import Options

    single = tmp_path / "single.jsonl"
    r = run_warc(str(crawl), *TYPES, "--prefilter", "-o", str(single))
    assert r.returncode == 0, r.stderr.decode()
    expected = lines(single.read_bytes())
    out = tmp_path / "out"
    options = Options(types=frozenset({"h-entry", "h-card"}), prefilter=True)
    with local_cluster(1) as cluster, Client(cluster) as client:
        summary = _dask.run_warc_dask(client, [str(crawl)], str(out), options=options)
    assert summary.done == 1 and not summary.failed
    got: list[dict[str, Any]] = []
    for p in summary.parts:
        with gzip.open(out / p["part"]) as f:
            got.extend(map(json.loads, f.read().splitlines()))
    assert got == expected[:-1]
    assert summary.as_dict()["unparsed"] == expected[-1]["unparsed"] > 0


def test_the_reader_api(crawl: Path) -> None:
    plain = list(iter_warc(str(crawl), types="h-entry,h-card"))
    reader = iter_warc(str(crawl), types="h-entry,h-card", prefilter=True)
    filtered = list(reader)
    assert [e for e in filtered if type(e) is WarcItem] == [e for e in plain if type(e) is WarcItem]
    records = [e for e in filtered if type(e) is WarcRecord]
    assert reader.summary.unparsed == sum(1 for e in records if not e.parsed) > 0


def test_the_cap_parses_long_records(crawl: Path) -> None:
    reader = iter_warc(str(crawl), types="h-entry,h-card", prefilter=True, max_prefilter_bytes=1000)
    records = [e for e in reader if type(e) is WarcRecord]
    assert all(e.parsed for e in records)
    assert reader.summary.unparsed == 0


def test_a_consumer_cannot_be_prefiltered(crawl: Path) -> None:
    from stream_mf2.warc.runner import Options

    class Consumer:
        def start(self) -> None:
            pass

        def lines(self, event: object) -> list[dict[str, Any]]:
            return []

    with pytest.raises(ValueError, match="consumer"):
        iter_warc(str(crawl), prefilter=True, consumer=Consumer())
    assert "prefilter" in Options(prefilter=True).reader_kwargs()


def test_wpt_has_no_prefilter_flag(crawl: Path) -> None:
    r = run_warc(str(crawl), "--prefilter", "--help")
    assert r.returncode == 0 and b"--prefilter" in r.stdout
    from tests.support.cli import run_cli

    r = run_cli("wpt", "--help")
    assert r.returncode == 0 and b"--prefilter" not in r.stdout


def test_a_body_that_fails_before_the_prefilter_decides(tmp_path: Path) -> None:
    """A gzip body that does not inflate: an error line, and a record line that says it was not parsed."""
    from tests.support.warc_records import response, write_archive

    good = b'<!doctype html><p class="h-card">Jane</p>'
    html = [("Content-Type", "text/html")]
    recs = [
        response("https://a.example/bad", b"\x1f\x8b\x08\x00garbage" * 10, [*html, ("Content-Encoding", "gzip")]),
        response("https://a.example/good", good, html, html=good),
    ]
    path = tmp_path / "a.warc.gz"
    write_archive(path, recs, compress=True)
    for prefilter in (False, True):
        reader = iter_warc(str(path), prefilter=prefilter)
        entries = list(reader)
        kinds = [e.kind for e in entries]
        assert kinds == ["error", "record", "item", "record"], kinds
        bad, good_record = (e for e in entries if type(e) is WarcRecord)
        assert bad.parsed is not prefilter and bad.items == 0
        assert good_record.parsed and good_record.items == 1
        assert reader.summary.unparsed == int(prefilter)
