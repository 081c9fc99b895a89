"""``stream-mf2 warc`` as a user runs it: the line schema, inputs, outputs, exit statuses, resuming.

Archives are written with warcio in the tests; the CLI runs as a subprocess;
HTTP and S3 inputs come from real servers on 127.0.0.1 (``tests/support/servers.py``).
"""

from __future__ import annotations

import gzip
import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from warcio.warcwriter import WARCWriter

from stream_mf2.core.parser import parse
from stream_mf2.warc.entries import WarcError, WarcItem, WarcRecord
from stream_mf2.warc.parallel import iter_warc_parallel
from stream_mf2.warc.reader import iter_warc
from stream_mf2.warc.runner import EXIT_ALL_FAILED, EXIT_OK, EXIT_SOME_FAILED, SCHEMA_VERSION
from tests.support.chunking import Pipe
from tests.support.cli import killed_runs, lines, run_warc
from tests.support.suites import REPO
from tests.support.warc_records import Rec, expected_items, response, standard_records, write_archive, write_record

if TYPE_CHECKING:
    from tests.support.servers import RangeServer, S3Server

#: The servers' fixtures (http_files, s3).
pytest_plugins = ("tests.support.servers",)


FEED = (
    # (the <base> is the page's own URL: with it known, stream_children streams at once)
    b'<!doctype html><html><head><base href="/feed"><title>Feed</title><meta name="description" content="About"></head>'
    b"<body>"
    b'<link rel="webmention" href="/wm"><a rel="me" href="https://me.example/">me</a>'
    b'<div class="h-feed"><p class="p-name">F</p>'
    b'<div class="h-entry"><p class="p-name">E1</p><div class="p-author h-card"><span class="p-name">A</span></div></div>'
    b'<div class="h-entry"><p class="p-name">E2</p></div>'
    b"</div></body></html>"
)
NO_ITEMS = b"<!doctype html><title>plain</title><p>nothing here</p>"


def researcher_records() -> list[Rec]:
    html = [("Content-Type", "text/html; charset=utf-8")]
    return [
        *standard_records(),
        response("http://b.example/feed", FEED, html, html=FEED, charset="utf-8"),
        response("http://b.example/none", NO_ITEMS, html, html=NO_ITEMS, charset="utf-8"),
    ]


@pytest.fixture(scope="module")
def archives(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("archives")
    recs = researcher_records()
    gz, plain = d / "r.warc.gz", d / "r.warc"
    write_archive(gz, recs, compress=True)
    write_archive(plain, recs, compress=False)
    return {"gz": gz, "plain": plain}


def check_schema(out: list[dict[str, Any]], recs: list[Rec], warc_file: str) -> None:
    """Items then one record line per HTML record, in archive order, and the summary last."""
    html_recs = [r for r in recs if r.html is not None]
    records = [x for x in out if x["kind"] == "record"]
    assert [r["uri"] for r in records] == [r.uri for r in html_recs]
    pending: list[dict[str, Any]] = []
    rec_iter = iter(html_recs)
    for line in out[:-1]:
        if line["kind"] == "item":
            pending.append(line)
            continue
        assert line["kind"] == "record", line
        rec = next(rec_iter)
        assert line["schema"] == SCHEMA_VERSION and line["warc_file"] == warc_file
        assert [p["item"] for p in pending] == expected_items(rec)
        assert all(p["record_id"] == line["record_id"] and p["offset"] == line["offset"] for p in pending)
        assert all(p["uri"] == rec.uri and p["warc_file"] == warc_file for p in pending)
        assert [p["path"] for p in pending] == [[i] for i in range(len(pending))]
        assert line["items"] == len(pending)
        whole = parse(rec.html, rec.uri, encoding=rec.charset)
        assert line["rels"] == whole["rels"] and line["rel-urls"] == whole["rel-urls"]
        assert isinstance(line["offset"], int) and line["length"] > 0
        pending = []
    assert out[-1]["kind"] == "summary" and out[-1]["schema"] == SCHEMA_VERSION
    assert out[-1]["html_records"] == len(html_recs) and out[-1]["records"] == len(recs)


def test_cli_writes_one_record_line_per_html_record(archives: dict[str, Path]) -> None:
    recs = researcher_records()
    for kind in ("gz", "plain"):
        r = run_warc(str(archives[kind]))
        assert r.returncode == EXIT_OK, r.stderr
        out = lines(r.stdout)
        check_schema(out, recs, str(archives[kind]))
        by_uri = {x["uri"]: x for x in out if x["kind"] == "record"}
        none = by_uri["http://b.example/none"]
        assert none["items"] == 0  # "no microformats" is not "not processed"
        feed = by_uri["http://b.example/feed"]
        assert feed["rels"]["me"] == ["https://me.example/"] and feed["rels"]["webmention"] == ["http://b.example/wm"]
        assert (feed["encoding"], feed["encoding_source"]) == ("UTF-8", "transport")
        assert by_uri["http://a.example/two"]["encoding_source"] == "default"
        assert by_uri["http://a.example/404"]["status"] == 404
        assert by_uri["http://a.example/res.html"]["warc_type"] == "resource"
        assert "meta-item" not in feed


def test_record_positions_read_back_one_record(archives: dict[str, Path]) -> None:
    # offset and length of a record line pick that record out again, through the CLI and the API.
    for kind in ("gz", "plain"):
        path = archives[kind]
        out = lines(run_warc(str(path)).stdout)
        feed = next(x for x in out if x["kind"] == "record" and x["uri"] == "http://b.example/feed")
        r = run_warc(str(path), "--offset", str(feed["offset"]), "--length", str(feed["length"]))
        assert r.returncode == EXIT_OK, r.stderr
        one = lines(r.stdout)
        assert [x for x in one if x["kind"] == "record"] == [feed]
        assert [x["item"] for x in one if x["kind"] == "item"] == parse(FEED, "http://b.example/feed")["items"]
        entries = list(iter_warc(path, offset=feed["offset"], length=feed["length"]))
        assert [type(e) for e in entries] == [WarcItem, WarcRecord]
        assert isinstance(entries[-1], WarcRecord) and entries[-1].offset == feed["offset"]


def test_metaformats_and_parse_options_apply(archives: dict[str, Path]) -> None:
    plain = lines(run_warc(str(archives["gz"])).stdout)
    meta = lines(run_warc(str(archives["gz"]), "--metaformats").stdout)
    feed = next(x for x in meta if x["kind"] == "record" and x["uri"] == "http://b.example/feed")
    assert feed["meta-item"] == parse(FEED, "http://b.example/feed", metaformats=True)["meta-item"]
    assert plain != meta
    normalized = lines(run_warc(str(archives["gz"]), "--text", "normalized", "--lang").stdout)
    want = parse(FEED, "http://b.example/feed", text="normalized", lang=True)["items"]
    assert [x["item"] for x in normalized if x["kind"] == "item" and x["uri"] == "http://b.example/feed"] == want


def _walk_types(items: list[dict[str, Any]], types: set[str]) -> list[tuple[list[Any], dict[str, Any]]]:
    found: list[tuple[list[Any], dict[str, Any]]] = []

    def visit(path: list[Any], it: dict[str, Any]) -> None:
        if types & set(it.get("type", [])):
            found.append((path, it))
        for name, values in it.get("properties", {}).items():
            for k, v in enumerate(values):
                if isinstance(v, dict) and "type" in v:
                    visit([*path, "properties", name, k], v)
        for j, child in enumerate(it.get("children", [])):
            visit([*path, "children", j], child)

    for i, it in enumerate(items):
        visit([i], it)
    return found


def test_type_selection_at_any_depth_with_and_without_streamed_children(archives: dict[str, Path]) -> None:
    want = _walk_types(parse(FEED, "http://b.example/feed")["items"], {"h-entry", "h-card"})
    assert [p for p, _ in want] == [[0, "children", 0], [0, "children", 0, "properties", "author", 0], [0, "children", 1]]
    for extra in ([], ["--stream-children"], ["--stream-children", "h-feed"]):
        out = lines(run_warc(str(archives["gz"]), "--type", "h-entry,h-card", *extra).stdout)
        got = [(x["path"], x["item"]) for x in out if x["kind"] == "item" and x["uri"] == "http://b.example/feed"]
        assert sorted(map(json.dumps, got)) == sorted(map(json.dumps, want)), extra
        assert all(set(x["item"]["type"]) & {"h-entry", "h-card"} for x in out if x["kind"] == "item")
    # The API gives the same, and streamed children come with their container's count.
    entries = list(iter_warc(archives["plain"], types="h-entry", stream_children=True))
    assert [e.path for e in entries if isinstance(e, WarcItem) and e.uri == "http://b.example/feed"] == [
        (0, "children", 0),
        (0, "children", 1),
    ]
    streamed = lines(run_warc(str(archives["gz"]), "--stream-children").stdout)
    feed_lines = [x for x in streamed if x["kind"] == "item" and x["uri"] == "http://b.example/feed"]
    assert [x["path"] for x in feed_lines] == [[0, "children", 0], [0, "children", 1], [0]]
    assert feed_lines[-1]["children-streamed"] == 2 and "children" not in feed_lines[-1]["item"]


def test_outputs_parquet_gzip_zstd_match_jsonl(archives: dict[str, Path], tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    zstandard = pytest.importorskip("zstandard")
    args = [str(archives["gz"]), str(archives["plain"]), "--metaformats"]
    outs = {}
    for name in ("o.jsonl", "o.jsonl.gz", "o.jsonl.zst", "o.parquet"):
        r = run_warc(*args, "-o", str(tmp_path / name))
        assert r.returncode == EXIT_OK, r.stderr
        assert r.stdout == b""
        outs[name] = tmp_path / name
    ref = outs["o.jsonl"].read_bytes()
    assert gzip.decompress(outs["o.jsonl.gz"].read_bytes()) == ref
    assert zstandard.ZstdDecompressor().stream_reader(io.BytesIO(outs["o.jsonl.zst"].read_bytes())).read() == ref
    assert not list(tmp_path.glob("*.partial*"))
    ref_lines = lines(ref)
    items = pq.read_table(tmp_path / "o.parquet").to_pylist()
    records = pq.read_table(tmp_path / "o.records.parquet").to_pylist()
    errors = pq.read_table(tmp_path / "o.errors.parquet").to_pylist()
    want_items = [x for x in ref_lines if x["kind"] == "item"]
    assert len(items) == len(want_items) > 0
    for row, line in zip(items, want_items, strict=True):
        assert json.loads(row["item"]) == line["item"] and json.loads(row["path"]) == line["path"]
        assert (row["warc_file"], row["offset"], row["record_id"], row["uri"]) == (
            line["warc_file"],
            line["offset"],
            line["record_id"],
            line["uri"],
        )
        assert row["type"] == line["item"]["type"]
    want_records = [x for x in ref_lines if x["kind"] == "record"]
    assert len(records) == len(want_records)
    for row, line in zip(records, want_records, strict=True):
        for key in ("warc_file", "offset", "length", "record_id", "uri", "date", "status", "encoding", "items"):
            assert row[key] == line[key], key
        assert json.loads(row["rels"]) == line["rels"] and json.loads(row["rel-urls"]) == line["rel-urls"]
        assert (json.loads(row["meta-item"]) if row["meta-item"] else None) == line.get("meta-item")
    assert errors == []
    assert pq.read_schema(tmp_path / "o.parquet").metadata[b"stream_mf2.schema"] == str(SCHEMA_VERSION).encode()


def test_many_inputs_globs_lists_stdin_and_exit_statuses(archives: dict[str, Path], tmp_path: Path) -> None:
    d = tmp_path / "in"
    d.mkdir()
    for i in range(3):
        (d / f"c{i}.warc.gz").write_bytes(archives["gz"].read_bytes())
    listing = tmp_path / "paths.txt.gz"
    listing.write_bytes(gzip.compress(f"# crawl\n{d / 'c1.warc.gz'}\n\n{archives['plain']}\n".encode()))
    r = run_warc(str(d / "*.warc.gz"), "--input-list", str(listing), "--summary-json", str(tmp_path / "s.json"))
    assert r.returncode == EXIT_OK, r.stderr
    out = lines(r.stdout)
    names = [str(d / "c0.warc.gz"), str(d / "c1.warc.gz"), str(d / "c2.warc.gz"), str(d / "c1.warc.gz")]
    names.append(str(archives["plain"]))
    seen = []
    for x in out:
        if x["kind"] == "record" and (not seen or seen[-1] != x["warc_file"]):
            seen.append(x["warc_file"])
    assert seen == names
    summary = json.loads((tmp_path / "s.json").read_text())
    assert [f["warc_file"] for f in summary["files"]] == names
    assert all(f["records"] == len(researcher_records()) and f["bytes"] > 0 and f["seconds"] >= 0 for f in summary["files"])
    assert summary["total"] == out[-1]
    # Standard input.
    r = run_warc("-", stdin=archives["gz"].read_bytes())
    assert r.returncode == EXIT_OK and lines(r.stdout)[-1]["records"] == len(researcher_records())
    # A missing input is an error line for it; the others are read.
    r = run_warc(str(tmp_path / "missing.warc.gz"), str(archives["gz"]))
    assert r.returncode == EXIT_SOME_FAILED
    first = lines(r.stdout)[0]
    assert first["kind"] == "error" and first["scope"] == "file" and "cannot open" in first["error"]
    assert lines(r.stdout)[-1]["files_failed"] == 1
    page = tmp_path / "page.html"
    page.write_bytes(FEED)
    r = run_warc(str(tmp_path / "missing.warc.gz"), str(page))
    assert r.returncode == EXIT_ALL_FAILED and b"Traceback" not in r.stderr
    empty = tmp_path / "empty.warc"
    empty.write_bytes(b"")
    assert run_warc(str(empty)).returncode == EXIT_OK  # nothing to read is not a failure
    for bad in (["--offset", "-1", str(empty)], ["--type", ",", str(empty)], [str(empty), str(empty), "--offset", "3"]):
        r = run_warc(*bad)
        assert r.returncode == 2 and b"Traceback" not in r.stderr, bad


def test_help_documents_schema_options_and_exit_statuses() -> None:
    r = run_warc("--help")
    text = r.stdout.decode()
    for word in ('"kind": "record"', '"kind": "item"', '"kind": "error"', '"kind": "summary"', "rel-urls", "exit status",
                 "--resume", "--type", "--offset", "--input-list", ".parquet", ".jsonl.zst", "s3://"):
        assert word in text, word


@pytest.mark.network_local
def test_http_input_streamed_and_by_range(archives: dict[str, Path], http_files: RangeServer) -> None:
    for kind in ("gz", "plain"):
        name = archives[kind].name
        (http_files.root / name).write_bytes(archives[kind].read_bytes())
        local = lines(run_warc(str(archives[kind])).stdout)
        r = run_warc(http_files.url(name))
        assert r.returncode == EXIT_OK, r.stderr
        remote = lines(r.stdout)
        for x in local + remote:
            x.pop("warc_file", None)
        assert remote == local
        rec = next(x for x in local if x["kind"] == "record" and x["uri"] == "http://b.example/feed")
        http_files.requests.clear()
        r = run_warc(http_files.url(name), "--offset", str(rec["offset"]), "--length", str(rec["length"]))
        one = lines(r.stdout)
        assert next(x for x in one if x["kind"] == "record")["offset"] == rec["offset"]
        assert http_files.requests == [(f"/{name}", f"bytes={rec['offset']}-{rec['offset'] + rec['length'] - 1}")]
    r = run_warc(http_files.url("missing.warc.gz"))
    assert r.returncode == EXIT_ALL_FAILED and "HTTP 404" in lines(r.stdout)[0]["error"]
    # A Common Crawl style list: relative paths under a URL prefix.
    listing = http_files.root.parent / "warc.paths.gz"
    listing.write_bytes(gzip.compress(f"{archives['gz'].name}\n{archives['plain'].name}\n".encode()))
    r = run_warc("--input-list", str(listing), "--input-prefix", http_files.base + "/")
    assert r.returncode == EXIT_OK, r.stderr
    assert lines(r.stdout)[-1]["files"] == 2 and lines(r.stdout)[-1]["records"] == 2 * len(researcher_records())


@pytest.mark.network_local
def test_s3_input_through_fsspec(archives: dict[str, Path], s3: S3Server) -> None:
    url = s3.put("crawl/seg/r.warc.gz", archives["gz"].read_bytes())
    s3.put("crawl/seg/r2.warc.gz", archives["gz"].read_bytes())
    local = lines(run_warc(str(archives["gz"])).stdout)
    r = run_warc(url, env=s3.env)
    assert r.returncode == EXIT_OK, r.stderr
    remote = lines(r.stdout)
    assert all(x["warc_file"] == url for x in remote if "warc_file" in x)
    for x in local + remote:
        x.pop("warc_file", None)
    assert remote == local
    r = run_warc("s3://crawl/seg/*.warc.gz", env=s3.env)
    assert r.returncode == EXIT_OK, r.stderr
    assert lines(r.stdout)[-1]["files"] == 2
    # In-process too: process_input over the same URL.
    from stream_mf2.warc.runner import process_input

    got: list[dict[str, Any]] = []

    class Collect:
        def write(self, line: dict[str, Any]) -> None:
            got.append(line)

    fs = process_input(url, Collect())
    assert fs.records == len(researcher_records()) and not fs.failed
    assert [x for x in got if x["kind"] == "item"] == [x for x in lines(run_warc(url, env=s3.env).stdout) if x["kind"] == "item"]


# -- damage: issue items (head of a .warc.gz, Content-Length) ------------------------------------


def _blobs(recs: list[Rec], compress: bool) -> list[bytes]:
    return [write_record(r, compress=compress) for r in recs]


def _items_by_record(entries: list[Any]) -> dict[str | None, list[dict[str, Any]]]:
    out: dict[str | None, list[dict[str, Any]]] = {}
    for e in entries:
        if isinstance(e, WarcItem):
            out.setdefault(e.uri, []).append(e.item)
    return out


def _want(recs: list[Rec]) -> dict[str | None, list[dict[str, Any]]]:
    return {r.uri: expected_items(r) for r in recs if r.html is not None and expected_items(r)}


@pytest.mark.parametrize("damage", ["flip-first-byte", "junk-byte-before", "junk-block-before"])
def test_damaged_head_of_a_gzip_archive_resynchronises(damage: str, tmp_path: Path) -> None:
    recs = researcher_records()
    blobs = _blobs(recs, True)
    data = b"".join(blobs)
    if damage == "flip-first-byte":
        data = bytes([data[0] ^ 0xFF]) + data[1:]
        kept = recs[1:]
    elif damage == "junk-byte-before":
        data = b"\x00" + data
        kept = recs
    else:
        data = b"<html>not an archive</html>\r\nWARC\r\n" * 10 + data
        kept = recs
    for source in (io.BytesIO(data), Pipe(data, 777)):
        reader = iter_warc(source)
        entries = list(reader)
        errors = [e for e in entries if isinstance(e, WarcError)]
        assert len(errors) == 1 and errors[0].offset == 0 and "start of the file" in errors[0].message
        assert _items_by_record(entries) == _want(kept)
        assert reader.summary.records == len(kept)
    path = tmp_path / "damaged.warc.gz"
    path.write_bytes(data)
    assert list(iter_warc_parallel(path, 2, batch_units=3)) == list(iter_warc(path))



def _with_content_length(blob: bytes, change: int | None) -> bytes:
    head, sep, rest = blob.partition(b"\r\n\r\n")
    lines_ = head.split(b"\r\n")
    out = []
    for line in lines_:
        if line.startswith(b"Content-Length: "):
            if change is None:
                continue
            line = b"Content-Length: %d" % (int(line.split(b": ")[1]) + change)
        out.append(line)
    return b"\r\n".join(out) + sep + rest


@pytest.mark.parametrize("change", [None, 1, 2, 4, 200, 5000, -3])
def test_plain_archive_bad_content_length_never_misattributes(change: int | None) -> None:
    recs = researcher_records()
    bad = next(i for i, r in enumerate(recs) if r.uri == "http://a.example/one")
    blobs = _blobs(recs, False)
    blobs[bad] = _with_content_length(blobs[bad], change)
    data = b"".join(blobs)
    for seekable in (True, False):
        reader = iter_warc(io.BytesIO(data) if seekable else Pipe(data, 777))
        entries = list(reader)
        errors = [e for e in entries if isinstance(e, WarcError)]
        got = _items_by_record(entries)
        assert errors and errors[0].uri == recs[bad].uri and errors[0].offset == sum(map(len, blobs[:bad]))
        assert reader.summary.errors == len(errors)
        # Every item is attributed to its own record, whatever got lost.
        want = _want(recs)
        for uri, items in got.items():
            assert items == want[uri], uri
        # Every record after the damaged one is read whole when the input can seek back,
        # and the only loss on a stream is the records a too-long block swallowed (reported).
        if seekable or change is None or change <= 4:
            assert {u: v for u, v in got.items() if u != recs[bad].uri} == {
                u: v for u, v in want.items() if u != recs[bad].uri
            }
        for e in entries:
            if isinstance(e, WarcItem):
                assert e.record_id is not None


@pytest.mark.parametrize("change", [1, 2, 3, 4, 9, -2])
def test_gzip_archive_content_length_off_by_a_few_bytes_is_reported(change: int) -> None:
    recs = researcher_records()
    bad = next(i for i, r in enumerate(recs) if r.uri == "http://b.example/feed")
    blobs = [write_record(r, compress=False) for r in recs]
    blobs[bad] = _with_content_length(blobs[bad], change)
    data = b"".join(gzip.compress(b) for b in blobs)
    entries = list(iter_warc(io.BytesIO(data)))
    errors = [e for e in entries if isinstance(e, WarcError)]
    assert len(errors) == 1 and errors[0].uri == "http://b.example/feed"
    assert "Content-Length" in errors[0].message or "truncated" in errors[0].message
    assert _items_by_record(entries) == _want(recs)  # the member bounds the record: nothing else is touched


# -- decompression cap -----------------------------------------------------------------------------


def test_decompression_bomb_stops_its_record_and_reading_goes_on(tmp_path: Path) -> None:
    bomb_html = b"<html><body><p class=h-card>x</p>" + b" " * (30 * 1024 * 1024) + b"</body></html>"
    bomb = gzip.compress(bomb_html, 9)
    assert len(bomb) < 40_000
    recs = [
        response(
            "http://c.example/bomb",
            bomb,
            [("Content-Type", "text/html"), ("Content-Encoding", "gzip")],
        ),
        *researcher_records(),
    ]
    path = tmp_path / "bomb.warc.gz"
    write_archive(path, recs, compress=True)
    entries = list(iter_warc(path))
    errors = [e for e in entries if isinstance(e, WarcError)]
    assert len(errors) == 1 and errors[0].uri == "http://c.example/bomb" and "max_expansion" in errors[0].message
    assert _items_by_record(entries) == {**{"http://c.example/bomb": [{"type": ["h-card"], "properties": {"name": ["x"]}}]}, **_want(recs[1:])}
    # The total cap, and both caps off.
    entries = list(iter_warc(path, max_expansion=None, max_decoded_bytes=5_000_000))
    assert "max_decoded_bytes" in next(e for e in entries if isinstance(e, WarcError)).message
    entries = list(iter_warc(path, max_expansion=None, max_decoded_bytes=None))
    assert not [e for e in entries if isinstance(e, WarcError)]
    # The CLI options.
    r = run_warc(str(path), "--max-expansion", "0", "--max-decoded-bytes", "1000000")
    assert r.returncode == EXIT_OK
    errs = [x for x in lines(r.stdout) if x["kind"] == "error"]
    assert len(errs) == 1 and "max_decoded_bytes" in errs[0]["error"]
    r = run_warc(str(path), "--max-expansion", "0", "--max-decoded-bytes", "0", "--type", "h-card")
    assert [x for x in lines(r.stdout) if x["kind"] == "error"] == []
    r = run_warc(str(path), "--type", "h-card")
    errs = [x for x in lines(r.stdout) if x["kind"] == "error"]
    assert len(errs) == 1 and "max_expansion" in errs[0]["error"]


# -- resume -----------------------------------------------------------------------------------------


def _resume_inputs(tmp_path: Path) -> list[str]:
    names = []
    rng = random.Random(7)
    for n in range(3):
        recs: list[Rec] = []
        for i in range(40):
            body = (
                f'<html><head><link rel="me" href="/m{i}"></head><body>'
                + "".join(f'<div class="h-entry"><p class="p-name">{n}-{i}-{k}</p></div>' for k in range(rng.randint(0, 4)))
                + "</body></html>"
            ).encode()
            recs.append(response(f"http://r.example/{n}/{i}", body, [("Content-Type", "text/html")], html=body))
            recs.append(Rec("request", f"http://r.example/{n}/{i}", b"GET / HTTP/1.1\r\n\r\n", skipped="other"))
        path = tmp_path / (f"in{n}.warc.gz" if n != 1 else f"in{n}.warc")
        write_archive(path, recs, compress=n != 1)
        names.append(str(path))
    return names


def test_resume_after_kills_gives_the_uninterrupted_output(tmp_path: Path) -> None:
    inputs = _resume_inputs(tmp_path)
    ref = tmp_path / "ref.jsonl"
    r = run_warc(*inputs, "-o", str(ref))
    assert r.returncode == EXIT_OK, r.stderr
    rng = random.Random(11)
    out = tmp_path / "out.jsonl"
    kills, inside = killed_runs(inputs, out, rng, ref.stat().st_size)
    assert kills > 0 and inside > 0
    assert out.read_bytes() == ref.read_bytes()
    assert not Path(str(out) + ".checkpoint.json").exists() and not Path(str(out) + ".partial").exists()


@pytest.mark.parametrize("suffix", [".jsonl.gz", ".parquet"])
def test_resume_compressed_and_parquet_outputs(tmp_path: Path, suffix: str) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    inputs = _resume_inputs(tmp_path)
    ref = tmp_path / f"ref{suffix}"
    assert run_warc(*inputs, "-o", str(ref)).returncode == EXIT_OK
    out = tmp_path / f"out{suffix}"
    rng = random.Random(5)
    size = ref.stat().st_size
    killed_runs(inputs, out, rng, size)
    if suffix == ".jsonl.gz":
        assert gzip.decompress(out.read_bytes()) == gzip.decompress(ref.read_bytes())
    else:
        for table in ("", ".records", ".errors"):
            a = pq.read_table(tmp_path / f"out{table}.parquet").to_pylist()
            b = pq.read_table(tmp_path / f"ref{table}.parquet").to_pylist()
            assert a == b, table


def test_resume_refuses_another_runs_checkpoint(tmp_path: Path, archives: dict[str, Path]) -> None:
    out = tmp_path / "o.jsonl"
    Path(str(out) + ".checkpoint.json").write_text(json.dumps({"key": {"inputs": ["other"]}, "token": 0, "done": []}))
    r = run_warc(str(archives["gz"]), "-o", str(out), "--resume")
    assert r.returncode == 1 and b"other inputs" in r.stderr


def test_writer_of_a_warcio_archive_with_no_html(tmp_path: Path) -> None:
    # A non-HTML-only archive: records counted, no record lines, status 0.
    buf = io.BytesIO()
    w = WARCWriter(buf, gzip=True)
    w.write_record(w.create_warc_record("http://x.example/a.png", "resource", payload=io.BytesIO(b"\x89PNG"), warc_content_type="image/png"))
    path = tmp_path / "img.warc.gz"
    path.write_bytes(buf.getvalue())
    r = run_warc(str(path))
    assert r.returncode == EXIT_OK
    assert [x["kind"] for x in lines(r.stdout)] == ["summary"]
    assert lines(r.stdout)[0]["records"] == 1





def test_wrong_source_or_option_fails_at_call_time(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="metaformtas"):
        iter_warc(tmp_path / "a.warc", metaformtas=True)
    with pytest.raises(TypeError, match="path"):
        iter_warc(None)  # type: ignore[arg-type]


@pytest.mark.network_local
def test_decompression_cap_applies_to_http_responses(http_files: RangeServer) -> None:
    # The same cap stops a compressed page fetched over HTTP: a clear error, no 30 MB parse.
    bomb = gzip.compress(b"<html><body>" + b" " * (30 * 1024 * 1024), 9)
    (http_files.root / "bomb.html").write_bytes(bomb)
    http_files.headers["bomb.html"] = {"Content-Encoding": "gzip", "Content-Type": "text/html"}
    full_env = {**os.environ, "PYTHONPATH": str(REPO)}
    r = subprocess.run(
        [sys.executable, "-m", "stream_mf2", http_files.url("bomb.html")],
        capture_output=True,
        env=full_env,
        cwd=REPO,
        timeout=300,
        check=False,
    )
    assert r.returncode == 1 and b"max_expansion" in r.stderr and b"Traceback" not in r.stderr


@pytest.mark.parametrize("seekable", [True, False])
def test_skipped_records_of_every_size_keep_the_framing(seekable: bool) -> None:
    # Records that are skipped unread (images, scripts) end anywhere relative to the read buffer;
    # the reader must land exactly on the next record every time.
    rng = random.Random(3)
    recs: list[Rec] = []
    for i in range(30):
        size = rng.choice([10, 1000, 30_000, 65_000, 66_000, 70_000, 130_000])
        recs.append(response(f"http://s.example/{i}.png", bytes(rng.randrange(256) for _ in range(size)),
                             [("Content-Type", "image/png")], skipped="non_html"))
        body = f'<p class="h-card">{i}</p>'.encode()
        recs.append(response(f"http://s.example/{i}", body, [("Content-Type", "text/html")], html=body))
    data = b"".join(_blobs(recs, False))
    reader = iter_warc(io.BytesIO(data) if seekable else Pipe(data, 777))
    entries = list(reader)
    assert [e for e in entries if isinstance(e, WarcError)] == []
    assert _items_by_record(entries) == _want(recs)
    assert reader.summary.records == len(recs) and reader.summary.skipped_non_html == 30


def test_a_failing_output_is_not_reported_as_a_failing_input(archives: dict[str, Path]) -> None:
    from stream_mf2.warc.runner import process_input

    class Full:
        def write(self, line: dict[str, Any]) -> None:
            raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match="No space"):
        process_input(str(archives["gz"]), Full())


# -- fuzz findings ------------------------------------------------------------------------------------


def _fuzz_records() -> list[Rec]:
    page = b'<div class="h-entry"><a class="p-name u-url" href="/e0">entry 0</a></div>'
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + page
    return [
        Rec("warcinfo", "", b"software: fuzz\r\n", ctype="application/warc-fields", skipped="other", raw=True),
        Rec("response", "http://a.example/r0", http, html=page, raw=True),
    ]


@pytest.mark.parametrize("junk", [b"\x1f\x8b\x08", b"\x1f\x8b\x08\x1f", b"\x1f\x8b\x08\x00\x00"])
def test_fuzz_w1_stray_gzip_magic_between_members(junk: bytes, tmp_path: Path) -> None:
    # A fake member header before an intact member: zlib reads into the real member and fails at
    # the end of the file; the scan must start again just past the fake magic.
    recs = _fuzz_records()
    blobs = _blobs(recs, True)
    data = blobs[0] + junk + blobs[1]
    for source in (io.BytesIO(data), io.BufferedReader(Pipe(data, 777))):
        entries = list(iter_warc(source))
        errors = [e for e in entries if isinstance(e, WarcError)]
        assert len(errors) == 1 and errors[0].offset == len(blobs[0])
        assert _items_by_record(entries) == _want(recs)
    path = tmp_path / "w1.warc.gz"
    path.write_bytes(data)
    assert list(iter_warc_parallel(path, 2, batch_units=1)) == list(iter_warc(path))


def test_fuzz_w2_flipped_byte_in_the_record_separator() -> None:
    recs = _fuzz_records()
    blobs = _blobs(recs, False)
    first = bytearray(blobs[0])
    first[-2] ^= 4  # "\r\n\r\n" -> "\r\n\x1d\n"
    data = bytes(first) + blobs[1]
    for source in (io.BytesIO(data), io.BufferedReader(Pipe(data, 777))):
        entries = list(iter_warc(source))
        errors = [e for e in entries if isinstance(e, WarcError)]
        assert len(errors) == 1 and errors[0].offset == 0 and "\\r\\n\\r\\n" in errors[0].message
        assert _items_by_record(entries) == _want(recs)


def _small_records() -> list[Rec]:
    recs = []
    for i in range(5):
        page = f'<div class="h-entry"><p class="p-name">entry {i}</p></div>'.encode()
        recs.append(response(f"http://d.example/{i}", page, [("Content-Type", "text/html")], html=page))
    return recs


_SMALL: dict[bool, list[bytes]] = {}


@settings(max_examples=60, deadline=None)
@given(
    compress=st.booleans(),
    k=st.integers(0, 4),
    op=st.sampled_from(["flip", "insert", "delete"]),
    where=st.floats(0, 1),
    value=st.integers(1, 255),
    size=st.integers(1, 12),
)
def test_damage_to_one_record_leaves_the_others_exact(
    compress: bool, k: int, op: str, where: float, value: int, size: int
) -> None:
    # Whatever happens to one record's bytes (or just after them), every other record's items come
    # out exactly, with their own record ids; in .warc.gz the damaged record itself either comes out
    # exactly or is reported (gzip's CRC covers its content).
    recs = _small_records()
    if compress not in _SMALL:
        _SMALL[compress] = _blobs(recs, compress)
    blobs = list(_SMALL[compress])
    blob = bytearray(blobs[k])
    at = min(int(where * (len(blob) + 1)), len(blob))
    if op == "flip" and at < len(blob):
        blob[at] ^= value
    elif op == "insert":
        blob[at:at] = bytes([value]) * size
    else:
        del blob[at : at + size]
    blobs[k] = bytes(blob)
    entries = list(iter_warc(io.BytesIO(b"".join(blobs))))
    got = _items_by_record(entries)
    want = _want(recs)
    damaged = recs[k].uri
    # (Items under a URI that is not one of ours come from the damaged record's own damaged header.)
    assert {u: v for u, v in got.items() if u != damaged and u in want} == {
        u: v for u, v in want.items() if u != damaged
    }
    ids = {e.uri: e.record_id for e in entries if isinstance(e, WarcRecord)}
    assert all(e.record_id == ids.get(e.uri, e.record_id) for e in entries if isinstance(e, WarcItem))
    if compress and got.get(damaged) != want[damaged]:
        assert any(isinstance(e, WarcError) for e in entries)


@pytest.mark.parametrize("flag", [0x04, 0x08, 0x10, 0x02, 0x1E])
def test_fuzz_w3_flipped_gzip_header_flag(flag: int, tmp_path: Path) -> None:
    # FEXTRA / FNAME / FCOMMENT / FHCRC set on an intact member make zlib read on into the next
    # members; the members after it must still be read.
    recs = _fuzz_records()
    blobs = _blobs(recs, True)
    first = bytearray(blobs[0])
    first[3] ^= flag
    data = bytes(first) + blobs[1]
    for source in (io.BytesIO(data), io.BufferedReader(Pipe(data, 777))):
        entries = list(iter_warc(source))
        errors = [e for e in entries if isinstance(e, WarcError)]
        assert len(errors) == 1 and errors[0].offset == 0
        assert _items_by_record(entries) == _want(recs)
    path = tmp_path / "w3.warc.gz"
    path.write_bytes(data)
    assert list(iter_warc_parallel(path, 2, batch_units=1)) == list(iter_warc(path))


def test_fuzz_w4_a_bad_member_then_a_damaged_member() -> None:
    recs = _small_records()
    blobs = _blobs(recs, True)
    one = bytearray(blobs[1])
    one[0] ^= 1  # not a gzip member any more
    two = bytearray(blobs[2])
    del two[len(two) // 2 : len(two) // 2 + 3]  # inside the deflate data
    blobs[1], blobs[2] = bytes(one), bytes(two)
    data = b"".join(blobs)
    for source in (io.BytesIO(data), io.BufferedReader(Pipe(data, 777))):
        entries = list(iter_warc(source))
        got = _items_by_record(entries)
        want = _want(recs)
        assert {u: got.get(u) for u in (recs[0].uri, recs[3].uri, recs[4].uri)} == {
            u: want[u] for u in (recs[0].uri, recs[3].uri, recs[4].uri)
        }
        assert sum(isinstance(e, WarcError) for e in entries) >= 2
