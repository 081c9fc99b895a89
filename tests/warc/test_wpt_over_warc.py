"""``stream-mf2 wpt`` over WARC archives: the WARC runner with the WPT line consumer.

Archives are written with warcio; the CLI runs as a subprocess; HTTP (range
requests) and S3 inputs come from real servers on 127.0.0.1 (``tests/support/servers.py``).
Every WPT line is checked against ``parse(page, uri, wpt=...)`` of the record's page.
"""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from stream_mf2 import parse
from stream_mf2.warc.entries import WarcExtra, WarcItem, WarcRecord
from stream_mf2.warc.parallel import iter_warc_parallel
from stream_mf2.warc.reader import iter_warc
from stream_mf2.warc.runner import EXIT_OK, Options, process_input, run
from stream_mf2.wpt import load
from stream_mf2.wpt.lines import WptLines
from tests.support.cli import assert_user_error, killed_runs, lines, run_cli, run_warc
from tests.support.suites import REPO
from tests.support.warc_records import Rec, response, write_archive

if TYPE_CHECKING:
    from tests.support.servers import RangeServer, S3Server

pytest.importorskip("defusedxml")
pytest.importorskip("regex")
pytest_plugins = ("tests.support.servers",)

FIX = REPO / "fixtures" / "wpt"
TEMPLATE = FIX / "artist.xml"
ARTIST = (FIX / "artist.html").read_bytes()
LISTING = (FIX / "listing.html").read_bytes()
HTML = [("Content-Type", "text/html; charset=utf-8")]
POSITION = ("warc_file", "offset", "record_id", "uri")


def _records(n: int, count: int) -> list[Rec]:
    """Artist pages (some matching a template by URL, some not), a listing page, an image, requests."""
    recs: list[Rec] = []
    for i in range(count):
        name = f"Singer-{n}-{i}"
        page = ARTIST.replace(b"Amy Winehouse", name.replace("-", " ").encode())
        if i % 4 == 3:
            uri = f"http://music.yahoo.com/help/{n}/{i}"  # no template for this URL
        elif i % 2:
            uri = f"http://music.yahoo.com/artist/{n}{i}"
        else:
            uri = f"http://music.yahoo.com/ar-{n}{i}---{name}"
        recs.append(response(uri, page, HTML, html=page, charset="utf-8"))
        recs.append(Rec("request", uri, b"GET / HTTP/1.1\r\n\r\n", skipped="other"))
        if i % 5 == 0:
            recs.append(response(f"https://shop.example/list/{i}", LISTING, HTML, html=LISTING, charset="utf-8"))
            recs.append(response(f"http://music.yahoo.com/{i}.png", b"\x89PNG\r\n", [("Content-Type", "image/png")],
                                 skipped="non_html"))
    return recs


@pytest.fixture(scope="module")
def archives(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    d = tmp_path_factory.mktemp("wpt-archives")
    paths = []
    for n, compress in enumerate((True, False, True)):
        path = d / f"crawl{n}.warc{'.gz' if compress else ''}"
        write_archive(path, _records(n, 12), compress=compress)
        paths.append(path)
    return paths


def _pages_of(recs: list[Rec]) -> list[tuple[str, dict[str, Any]]]:
    """(uri, page object) for every template applied to every HTML record, from a whole-document parse."""
    wpt = load(TEMPLATE)
    out = []
    for r in recs:
        if r.html is not None:
            out.extend((r.uri, page) for page in parse(r.html, r.uri, encoding=r.charset, wpt=wpt)["wpt"])
    return out


def _strip(line: dict[str, Any], keys: tuple[str, ...] = POSITION) -> dict[str, Any]:
    return {k: v for k, v in line.items() if k not in keys}


def test_wpt_over_several_archives_equals_the_page_parse(archives: list[Path]) -> None:
    r = run_cli("wpt", str(TEMPLATE), *map(str, archives))
    assert r.returncode == EXIT_OK, r.stderr.decode()
    out = lines(r.stdout)
    want: list[tuple[str, dict[str, Any]]] = []
    for n in range(len(archives)):
        want.extend(_pages_of(_records(n, 12)))
    got = [x for x in out if x["kind"] == "wpt"]
    assert [(x["uri"], _strip(x)) for x in got] == want
    assert len(got) == 27 and all(x["url"] == x["uri"] for x in got)
    # Each record's WPT lines sit before its record line and carry its position.
    pending: list[dict[str, Any]] = []
    for x in out[:-1]:
        assert x["kind"] in ("wpt", "record"), x
        if x["kind"] == "wpt":
            pending.append(x)
            continue
        assert all(p["offset"] == x["offset"] and p["record_id"] == x["record_id"] for p in pending)
        assert all(p["warc_file"] == x["warc_file"] and p["uri"] == x["uri"] for p in pending)
        assert len(pending) == (1 if "/help/" not in x["uri"] and "music" in x["uri"] else 0)
        pending = []
    summary = out[-1]
    assert summary["kind"] == "summary" and summary["wpt"] == 27 and summary["files"] == 3
    assert b"27 wpt lines" in r.stderr


def test_items_and_wpt_lines_come_from_one_parse(archives: list[Path]) -> None:
    both = lines(run_cli("wpt", str(TEMPLATE), str(archives[0]), "--items").stdout)
    items_only = lines(run_warc(str(archives[0])).stdout)
    wpt_only = lines(run_cli("wpt", str(TEMPLATE), str(archives[0])).stdout)
    assert [x for x in both if x["kind"] != "wpt"][:-1] == items_only[:-1]  # same item and record lines
    assert [x for x in both if x["kind"] != "item"] == wpt_only
    assert both[-1] == {**items_only[-1], "wpt": wpt_only[-1]["wpt"]}


@pytest.mark.parametrize("matches", [False, True])
def test_parquet_tables_hold_the_jsonl_lines(archives: list[Path], tmp_path: Path, matches: bool) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    flags = ["--matches"] if matches else []
    ref = lines(run_cli("wpt", str(TEMPLATE), *map(str, archives), "--items", *flags).stdout)
    r = run_cli("wpt", str(TEMPLATE), *map(str, archives), "--items", *flags, "-o", str(tmp_path / "x.parquet"))
    assert r.returncode == EXIT_OK, r.stderr.decode()
    table = "wpt-matches" if matches else "wpt"
    names = {p.name for p in tmp_path.iterdir()}
    assert names == {"x.parquet", "x.records.parquet", "x.errors.parquet", f"x.{table}.parquet"}
    rows = pq.read_table(tmp_path / f"x.{table}.parquet").to_pylist()
    json_cols = ("match", "errors") if matches else ("url_captures", "blocks", "errors")
    for row in rows:
        for c in json_cols:
            row[c] = None if row[c] is None else json.loads(row[c])
    kinds = ("wpt-match", "wpt-errors") if matches else ("wpt",)
    want = [x for x in ref if x["kind"] in kinds]
    assert len(rows) == len(want) > 0
    for row, line in zip(rows, want, strict=True):
        assert {k: v for k, v in row.items() if v is not None} == {k: v for k, v in line.items() if k != "kind" and v is not None}
    items = pq.read_table(tmp_path / "x.parquet").to_pylist()
    assert [json.loads(i["item"]) for i in items] == [x["item"] for x in ref if x["kind"] == "item"]
    records = pq.read_table(tmp_path / "x.records.parquet").to_pylist()
    assert [x["uri"] for x in records] == [x["uri"] for x in ref if x["kind"] == "record"]


@pytest.mark.parametrize("flags", [[], ["--matches", "--items"]])
def test_two_workers_write_what_one_process_writes(archives: list[Path], tmp_path: Path, flags: list[str]) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert run_cli("wpt", str(TEMPLATE), *map(str, archives), *flags, "-o", str(one)).returncode == EXIT_OK
    r = run_cli("wpt", str(TEMPLATE), *map(str, archives), *flags, "--workers", "2", "-o", str(two))
    assert r.returncode == EXIT_OK, r.stderr.decode()
    assert two.read_bytes() == one.read_bytes()
    assert b'"kind":"wpt' in one.read_bytes()


def test_resume_after_kills_gives_the_uninterrupted_output(archives: list[Path], tmp_path: Path) -> None:
    inputs = [str(p) for p in archives]
    ref = tmp_path / "ref.jsonl.gz"
    assert run_cli("wpt", str(TEMPLATE), *inputs, "-o", str(ref)).returncode == EXIT_OK
    out = tmp_path / "out.jsonl.gz"
    kills, _inside = killed_runs(inputs, out, random.Random(3), ref.stat().st_size, command=("wpt", str(TEMPLATE)))
    assert kills > 0
    assert gzip.decompress(out.read_bytes()) == gzip.decompress(ref.read_bytes())
    got = lines(gzip.decompress(out.read_bytes()))
    keys = [(x["warc_file"], x["offset"], x["template"]) for x in got if x["kind"] == "wpt"]
    assert len(keys) == len(set(keys)) == 27  # no page lost, none twice


class _Interrupt(Exception):
    pass


def test_resume_in_process_and_a_checkpoint_of_another_template(archives: list[Path], tmp_path: Path) -> None:
    """An interruption at a record boundary inside an input, then a resume: the output of one run."""
    inputs = [str(p) for p in archives]
    options = Options(consumer=WptLines(load(TEMPLATE), fingerprint="artist"), items=False)
    ref = tmp_path / "ref.jsonl"
    run(inputs, str(ref), options)
    out = tmp_path / "out.jsonl"
    seen = [0]

    def stop(position: int, gz: bool, s: Any) -> None:
        seen[0] += 1
        if seen[0] == 40:  # inside the second input
            raise _Interrupt

    with pytest.raises(_Interrupt):
        run(inputs, str(out), options, resume=True, checkpoint_records=2, on_unit=stop)
    state = json.loads(Path(f"{out}.checkpoint.json").read_text())
    assert state["current"] is not None and state["key"]["options"]["consumer"] == "artist:pages"
    other = Options(consumer=WptLines(load(TEMPLATE), fingerprint="other"), items=False)
    with pytest.raises(Exception, match="other inputs or options"):
        run(inputs, str(out), other, resume=True)
    result = run(inputs, str(out), options, resume=True, checkpoint_records=2)
    assert result.status == EXIT_OK and out.read_bytes() == ref.read_bytes()


@pytest.mark.network_local
@pytest.mark.slow
def test_http_range_requests_and_s3_inputs(archives: list[Path], http_files: RangeServer, s3: S3Server) -> None:
    path = archives[0]
    (http_files.root / path.name).write_bytes(path.read_bytes())
    local = lines(run_cli("wpt", str(TEMPLATE), str(path)).stdout)
    r = run_cli("wpt", str(TEMPLATE), http_files.url(path.name))
    assert r.returncode == EXIT_OK, r.stderr.decode()
    remote = lines(r.stdout)
    assert [_strip(x, ("warc_file",)) for x in remote] == [_strip(x, ("warc_file",)) for x in local]
    # One record by position, as a CDX index gives it: a range request.
    rec = next(x for x in local if x["kind"] == "record" and "/ar-" in x["uri"])
    http_files.requests.clear()
    r = run_cli("wpt", str(TEMPLATE), http_files.url(path.name), "--offset", str(rec["offset"]),
                 "--length", str(rec["length"]))
    one = [x for x in lines(r.stdout) if x["kind"] == "wpt"]
    assert one == [x | {"warc_file": http_files.url(path.name)} for x in local if x["kind"] == "wpt" and x["offset"] == rec["offset"]]
    assert http_files.requests == [(f"/{path.name}", f"bytes={rec['offset']}-{rec['offset'] + rec['length'] - 1}")]
    # S3 through fsspec (moto's server), in this process with the runner's process_input.
    url = s3.put(f"crawl/{path.name}", path.read_bytes())
    got: list[dict[str, Any]] = []

    class Collect:
        def write(self, line: dict[str, Any]) -> None:
            got.append(line)

    fs = process_input(url, Collect(), Options(consumer=WptLines(load(TEMPLATE))))
    assert not fs.failed and fs.extra == {"wpt": sum(x["kind"] == "wpt" for x in local)}
    want = [_strip(x, ("warc_file",)) for x in local if x["kind"] in ("wpt", "record", "item")]
    assert [_strip(x, ("warc_file",)) for x in got if x["kind"] != "item"] == [x for x in want if x["kind"] != "item"]


def test_python_api_yields_wpt_lines_beside_items(archives: list[Path]) -> None:
    wpt = load(TEMPLATE)
    entries = list(iter_warc(archives[0], wpt=wpt, consumer=WptLines(wpt)))
    parallel = list(iter_warc_parallel(archives[0], 2, wpt=wpt, consumer=WptLines(wpt)))
    assert parallel == entries
    extras = [e for e in entries if isinstance(e, WarcExtra)]
    assert [(e.uri, e.line) for e in extras] == _pages_of(_records(0, 12))
    # each before its record entry, after its items
    for i, e in enumerate(entries):
        if isinstance(e, WarcExtra):
            rest = entries[i + 1 :]
            nxt = next(x for x in rest if not isinstance(x, WarcExtra))
            assert isinstance(nxt, WarcRecord) and nxt.offset == e.offset
    # without a consumer the same reader gives no WPT entries and the same items
    plain = list(iter_warc(archives[0], wpt=wpt))
    assert [e for e in entries if not isinstance(e, WarcExtra)] == plain
    assert any(isinstance(e, WarcItem) for e in plain)


@pytest.mark.slow
def test_command_line_choices(archives: list[Path], tmp_path: Path) -> None:
    page = str(FIX / "artist.html")
    assert_user_error(run_cli("wpt", str(TEMPLATE), str(archives[0]), page), 2, "either WARC archives or HTML pages")
    assert_user_error(run_cli("wpt", str(TEMPLATE), str(archives[0]), "--url", "http://x/"), 2, "--url applies to HTML")
    assert_user_error(run_cli("wpt", str(TEMPLATE), page, "--resume", "-o", str(tmp_path / "o.jsonl")), 2,
                      "--resume applies to WARC inputs")
    assert_user_error(run_cli("wpt", str(TEMPLATE), str(archives[0]), "--max-pattern-chars", "0"), 2,
                      "--max-pattern-chars must be at least 1")
    # --warc reads any name (here standard input) as an archive
    r = run_cli("wpt", str(TEMPLATE), "-", "--warc", stdin=archives[0].read_bytes())
    assert r.returncode == EXIT_OK and lines(r.stdout)[-1]["wpt"] == 9
    # a glob and a list file (one name relative to --input-prefix), as 'stream-mf2 warc' expands them
    listing = tmp_path / "paths.txt"
    listing.write_text(f"# crawl\n{archives[1].name}\n")
    r = run_cli("wpt", str(TEMPLATE), str(archives[0].parent / "crawl[02].warc.gz"), "--input-list", str(listing),
                 "--input-prefix", f"{archives[1].parent}/")
    summary = lines(r.stdout)[-1]
    assert r.returncode == EXIT_OK and summary["files"] == 3 and summary["wpt"] == 27
    # missing inputs: the runner's error lines and exit statuses
    r = run_cli("wpt", str(TEMPLATE), str(archives[0]), str(tmp_path / "none.warc.gz"))
    assert r.returncode == 3 and lines(r.stdout)[-2]["kind"] == "error"
    r = run_cli("wpt", "--help")
    assert b'"kind": "wpt"' in r.stdout and b"--resume" in r.stdout and b"--workers" in r.stdout


def test_a_run_where_no_template_applies_says_so(tmp_path: Path) -> None:
    """A crawl of another host (or a mirror's URIs) gave a summary and no WPT line, quietly: a
    page named on the command line gets a warning, a whole archive of them got none."""
    from tests.support.warc_records import html_archive

    mirror = html_archive(tmp_path / "mirror.warc.gz", [ARTIST, LISTING], uri="https://mirror.example/ar-{}")
    r = run_cli("wpt", str(TEMPLATE), str(mirror), "-o", str(tmp_path / "out.jsonl"))
    assert r.returncode == EXIT_OK, r.stderr.decode()
    assert "warning: no template applied to any HTML record" in r.stderr.decode()
    assert "--template NAME" in r.stderr.decode()
    # one record a template is for: no warning; --template: every record
    crawl = html_archive(tmp_path / "crawl.warc.gz", [ARTIST, LISTING], uri="http://music.yahoo.com/ar-{}---Amy")
    for args in ((str(crawl),), (str(mirror), "--template", "Artist Page on Yahoo! Music")):
        r = run_cli("wpt", str(TEMPLATE), *args, "-o", str(tmp_path / "out.jsonl"))
        assert r.returncode == EXIT_OK, r.stderr.decode()
        assert "no template applied" not in r.stderr.decode()
