"""The benchmark harness works: fixtures reproduce, streams are exact, peers run.

No timing is asserted anywhere; these tests only check that the benchmarks
measure what they claim to measure.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from bench import fixed_cost, full, make_fixtures, memory, peers, report, run, streams, warc_bench
from tests.support.builds import pure_only
from tests.support.suites import REPO

FIXTURES = REPO / "fixtures" / "bench"


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ---------------------------------------------------------------------------
# Fixtures


def test_fixtures_regenerate_byte_for_byte(tmp_path: Path) -> None:
    make_fixtures.generate(tmp_path)
    fresh = {p.name: _sha(p) for p in tmp_path.iterdir()}
    checked_in = {p.name: _sha(p) for p in FIXTURES.glob("*.html")}
    assert fresh == checked_in, "fixtures/bench/ is out of date: run python -m bench.make_fixtures"


def test_fixture_set_has_the_promised_mix() -> None:
    sizes = {p.name: p.stat().st_size for p in FIXTURES.glob("*.html")}
    assert sum(sizes.values()) < 12 * 10**6
    assert sum(1 for s in sizes.values() if s < 200_000) >= 4
    assert sum(1 for s in sizes.values() if 500_000 <= s <= 3 * 10**6) >= 2
    assert sizes["large-inline-svg.html"] > 10**6
    legacy = (FIXTURES / "legacy-cms-windows-1252.html").read_bytes()
    assert b"charset=windows-1252" in legacy[:1024]
    with pytest.raises(UnicodeDecodeError):
        legacy.decode("utf-8")
    legacy.decode("cp1252")  # every byte is meaningful in the declared encoding
    news = (FIXTURES / "news-no-microformats.html").read_bytes()
    assert b'class="h-' not in news and b"hentry" not in news and b"vcard" not in news


def test_feed_page_is_one_feed_of_hundreds_of_entries() -> None:
    html5lib = pytest.importorskip("html5lib")
    doc = html5lib.parse((FIXTURES / "feed-large.html").read_bytes(), namespaceHTMLElements=False)
    feeds = [e for e in doc.iter() if "h-feed" in (e.get("class") or "").split()]
    assert len(feeds) == 1
    entries = [e for e in feeds[0].iter() if "h-entry" in (e.get("class") or "").split()]
    assert len(entries) >= 300


# ---------------------------------------------------------------------------
# Streams


@pytest.mark.parametrize("shape", streams.SHAPES)
@pytest.mark.parametrize("size", [2_000, 123_457, 10**6])
@pytest.mark.parametrize("chunk_size", [1_000, streams.DEFAULT_CHUNK])
def test_stream_yields_exactly_the_requested_bytes(shape: str, size: int, chunk_size: int) -> None:
    chunks = list(streams.stream(shape, size, chunk_size))
    assert sum(len(c) for c in chunks) == size
    assert all(chunks), "no empty chunks"
    whole = b"".join(chunks)
    whole.decode("utf-8")
    assert whole == streams.stream_bytes(shape, size), "the document does not depend on the chunking"
    assert whole.rstrip().endswith(b"</html>")


def test_stream_rejects_a_size_below_its_fixed_parts() -> None:
    with pytest.raises(ValueError):
        list(streams.stream("feed", 100))
    with pytest.raises(ValueError):
        list(streams.stream("nonsense", 10**6))


def _classes(el: Any) -> list[str]:
    value = el.get("class") or ""
    return value.split() if isinstance(value, str) else []


@pytest.mark.parametrize("shape", streams.SHAPES)
def test_stream_is_valid_html_with_the_promised_items(shape: str) -> None:
    html5lib = pytest.importorskip("html5lib")
    data = streams.stream_bytes(shape, 10**6)
    doc = html5lib.parse(data, namespaceHTMLElements=False)
    elements = list(doc.iter())
    entries = [e for e in elements if "h-entry" in _classes(e)]
    # Every h-entry in the markup is an h-entry element in the parsed tree.
    assert len(entries) == data.count(b'class="h-entry"')
    if shape == "plain":
        assert not entries
        assert not any(c.startswith("h-") for e in elements for c in _classes(e))
        return
    assert len(entries) > 300
    # An entry is never nested in another one: the tree builder closed each as written.
    for e in entries:
        assert not any("h-entry" in _classes(d) for d in e.iter() if d is not e)
    feeds = [e for e in elements if "h-feed" in _classes(e)]
    if shape == "feed":
        assert len(feeds) == 1
        inside = [e for e in feeds[0].iter() if "h-entry" in _classes(e)]
        assert len(inside) == len(entries)
    else:
        assert not feeds


def test_parse_size_and_format_size_round_trip() -> None:
    for text, n in (("1MB", 10**6), ("10MB", 10**7), ("1GB", 10**9), ("250KB", 250_000), ("42", 42)):
        assert streams.parse_size(text) == n
        assert streams.parse_size(streams.format_size(n)) == n
    with pytest.raises(ValueError):
        streams.parse_size("ten")


# ---------------------------------------------------------------------------
# Peers


SMALL_PAGE = FIXTURES / "profile.html"


@pytest.mark.parametrize("runner", peers.peer_runners() + peers.subject_runners(), ids=lambda r: r.name)
def test_runner_output_on_a_small_page(runner: peers.Runner) -> None:
    if runner.run is None:
        pytest.skip(f"{runner.name}: {runner.missing}")
    data = SMALL_PAGE.read_bytes()
    arg = runner.prepare(data) if runner.prepare else data
    out = runner.run(arg, "https://ana.example.org/")
    if runner.kind == "mf2":
        assert isinstance(out, list)
        assert out, "the profile page has top-level items"
        assert all(isinstance(item, dict) and item.get("type") for item in out)
        types = {t for item in out for t in item["type"]}
        assert "h-card" in types
    elif isinstance(out, int):  # the tokenizer-only runner counts tokens
        assert out > 100
    else:
        assert out is not None


def test_a_missing_peer_is_reported_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    # A None entry in sys.modules makes the import raise ImportError, as if uninstalled.
    monkeypatch.setitem(sys.modules, "mf2dom", None)
    monkeypatch.setitem(sys.modules, "justhtml", None)
    r = peers.mf2dom_runner()
    assert r.run is None and r.missing is not None and "not installed" in r.missing
    assert peers.justhtml_runner().available is False


# ---------------------------------------------------------------------------
# Harness end to end (tiny inputs, no timing assertions)


def test_time_cell_drops_documents_a_parser_raises_on() -> None:
    def picky(data: bytes, url: str) -> list[dict[str, Any]]:
        if b"bad" in data:
            raise ValueError("cannot parse")
        return [{"type": ["h-entry"]}]

    runner = peers.Runner("picky", "mf2", picky)
    page = run.Page("batch", run.SUITE_GROUP, [(b"<p>good</p>", "u"), (b"<p>bad</p>", "u"), (b"<p>fine!</p>", "u")])
    cell = run.time_cell(runner, page, runs=3, budget=60.0)
    assert cell.failed_docs == 1
    assert cell.bytes == len(b"<p>good</p>") + len(b"<p>fine!</p>")
    assert cell.runs == 3 and cell.best_s is not None
    assert cell.items == 2
    assert cell.error is not None and "cannot parse" in cell.error


def test_run_main_writes_results(tmp_path: Path) -> None:
    pytest.importorskip("html5lib")
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "a.html").write_bytes(SMALL_PAGE.read_bytes())
    out_json = tmp_path / "r.json"
    lines: list[str] = []
    assert run.main(["--quick", "--no-suite", "--only", "html5lib.parse", "--fixtures", str(pages),
                     "--json", str(out_json)], out=lines.append) == 0
    result = json.loads(out_json.read_text(encoding="utf-8"))
    assert result["machine"]["cores"] and result["machine"]["python"]
    assert [c["runner"] for c in result["cells"]] == ["html5lib.parse"]
    assert result["cells"][0]["bytes"] == SMALL_PAGE.stat().st_size
    assert "html5lib.parse" in "\n".join(lines)


def test_memory_child_reports_peak_rss(tmp_path: Path) -> None:
    pytest.importorskip("html5lib")
    out_json = tmp_path / "m.json"
    assert memory.main(["--sizes", "200KB", "--shapes", "entries", "--parsers", "html5lib.parse",
                        "--json", str(out_json)]) == 0
    rows = json.loads(out_json.read_text(encoding="utf-8"))["rows"]
    assert len(rows) == 1
    row = rows[0]
    assert row.get("error") is None, row
    assert row["peak_rss_kb"] >= row["baseline_rss_kb"] > 0
    assert row["input_resident_bytes"] == 200_000


def test_memory_child_streams_into_stream_mf2(tmp_path: Path) -> None:
    import stream_mf2

    if not hasattr(stream_mf2, "Parser"):
        pytest.skip("stream_mf2.Parser not available yet")
    out_json = tmp_path / "m.json"
    assert memory.main(["--sizes", "200KB", "--shapes", "entries", "--parsers", "stream_mf2",
                        "--chunk-size", "4096", "--json", str(out_json)]) == 0
    row = json.loads(out_json.read_text(encoding="utf-8"))["rows"][0]
    assert row.get("error") is None, row
    # Every article is a top-level h-entry, plus the page's header h-card.
    expected = streams.stream_bytes("entries", 200_000).count(b'class="h-entry"') + 1
    assert row["items"] == expected
    assert row["first_item_s"] is not None and row["first_item_s"] <= row["parse_s"]
    assert row["input_resident_bytes"] == 0


# ---------------------------------------------------------------------------
# The one command (python -m bench) and its parts


def test_warc_archive_has_the_promised_mix(tmp_path: Path) -> None:
    from warcio.archiveiterator import ArchiveIterator

    made = warc_bench.write_archives(tmp_path, 600_000)
    by = made["by_type"]
    assert by["warcinfo"] == 1 and by["revisit"] >= 1 and by["response"] > 5
    assert by["request"] == by["response"] + by["revisit"]
    for kind in ("gzip", "plain"):
        types: list[str] = []
        ctypes: set[str] = set()
        encodings: set[str] = set()
        with open(made["files"][kind]["path"], "rb") as f:
            for rec in ArchiveIterator(f):
                types.append(rec.rec_type)
                if rec.rec_type == "response":
                    ctypes.add(rec.http_headers.get_header("Content-Type").split(";")[0])
                    encodings.add(rec.http_headers.get_header("Content-Encoding") or
                                  rec.http_headers.get_header("Transfer-Encoding") or "identity")
        assert len(types) == made["records"] and types.count("revisit") == by["revisit"]
        assert {"text/html", "text/css", "application/javascript"} <= ctypes
        assert encodings == {"identity", "gzip", "chunked"}
    gz = Path(made["files"]["gzip"]["path"]).read_bytes()
    assert gz[:2] == b"\x1f\x8b" and Path(made["files"]["plain"]["path"]).read_bytes()[:5] == b"WARC/"


def test_peak_estimate_is_linear_above_the_baseline() -> None:
    rows = [{"parser": "p", "shape": "feed", "size": 10**6, "peak_rss_kb": 30_000, "baseline_rss_kb": 20_000},
            {"parser": "p", "shape": "feed", "size": 10**7, "peak_rss_kb": 120_000, "baseline_rss_kb": 20_000}]
    est = full.estimate_peak(rows, "p", "feed", 10**9)
    assert est == (20_000 * 1024 + 100_000 * 1024 * 100, 10**7)
    assert full.estimate_peak(rows, "p", "entries", 10**9) is None
    assert full.estimate_peak([{**rows[0], "error": "MemoryError"}], "p", "feed", 10**9) is None


@pytest.mark.slow
@pure_only  # stands the running interpreter in for the compiled build and expects it flagged as not compiled
def test_the_one_command_runs_end_to_end(tmp_path: Path) -> None:
    pytest.importorskip("html5lib")
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "a.html").write_bytes(SMALL_PAGE.read_bytes())
    out_json = tmp_path / "all.json"
    lines: list[str] = []
    # The second build's plumbing, tested with this interpreter (the pure build) as the "compiled" one.
    assert full.main(["--quick", "--no-suite", "--fixtures", str(pages), "--only", "stream_mf2",
                      "--only", "html5lib.parse", "--sizes", "100KB", "--shapes", "entries,feed",
                      "--skip-peers-above", "50KB", "--ttfi-size", "100KB", "--warc-size", "100KB",
                      "--warc-workers", "1", "--warc-timeout", "5", "--skip", "dask", "--compiled-python", sys.executable,
                      "--json", str(out_json)], out=lines.append) == 0
    doc = json.loads(out_json.read_text(encoding="utf-8"))
    assert doc["machine"]["cores"] and doc["machine"]["python"] and doc["machine"]["packages"]
    assert {c["runner"] for c in doc["throughput"]["cells"]} == {"stream_mf2", run.COMPILED_RUNNER, "html5lib.parse"}
    assert doc["throughput"]["ratios"][f"{run.COMPILED_RUNNER} / stream_mf2"]["all fixtures"] is not None
    assert [r["build"] for r in doc["fixed"]["rows"]] == ["pure", "compiled"]
    assert all(r.get("error") is None for r in doc["fixed"]["rows"])
    rows = {(r["shape"], r["parser"]): r for r in doc["memory"]["rows"]}
    assert set(rows) == {("entries", "stream_mf2"), ("entries", "html5lib.parse"), ("feed", "stream_mf2"),
                         ("feed", "stream_mf2+children"), ("feed", "html5lib.parse")}
    for key in (("entries", "stream_mf2"), ("feed", "stream_mf2"), ("feed", "stream_mf2+children")):
        assert rows[key].get("error") is None and rows[key]["peak_rss_kb"] > 0 and rows[key]["items"] >= 1
    # A peer above the cap is a row that says so, not a missing row.
    assert "skip-peers-above" in rows[("entries", "html5lib.parse")]["capped"]
    assert [(r["shape"], r["parser"]) for r in doc["ttfi"]["rows"]][:1] == [("entries", "stream_mf2")]
    assert [(r["archive"], r["workers"]) for r in doc["warc"]["rows"]] == [("gzip", 1), ("plain", 1)]
    assert doc["prefilter"].get("error") or doc["prefilter"]["identical_items"]
    gzip_row, plain = doc["warc"]["rows"]
    for row in (gzip_row, plain):
        assert row["summary"]["records"] == doc["warc"]["archive"]["records"] and row["summary"]["items"] > 0
        assert row["summary"]["errors"] == 0
    text = "\n".join(lines)
    for title in ("Throughput, MB/s", "Memory: peak RSS", "Time to first item", "WARC:", "not run (> peer cap)",
                  "Fixed costs", "Speed ratios", "stream_mf2 (compiled) ÷ stream_mf2", "compiled (COMPILED=False)"):
        assert title in text
    assert report.render([doc]) in text


def test_report_merges_memory_rows_from_several_files() -> None:
    row = {"parser": "stream_mf2", "shape": "entries", "size": 10**9, "peak_rss_kb": 40_000, "parse_s": 300.0,
           "first_item_s": 0.01, "items": 5}
    old = {"settings": {}, "rows": [{**row, "peak_rss_kb": 99_000}], "machine": {}}
    new = {"settings": {}, "rows": [row], "machine": {}}
    text = report.render([old, new])
    assert "| flat h-entries | stream_mf2 | 39 MB, 300.0 s |" in text


def test_report_says_why_a_cell_was_not_run() -> None:
    def row(parser: str, size: int, peak_kb: int) -> dict[str, Any]:
        return {"parser": parser, "shape": "feed", "size": size, "peak_rss_kb": peak_kb, "parse_s": 1.0}

    doc = {"settings": {"peer_cap_bytes": 10**7}, "machine": {},
           "rows": [row("mf2py[lxml]", 10**6, 70_000), row("mf2py[lxml]", 10**7, 340_000),
                    row("stream_mf2", 10**6, 46_000), row("stream_mf2", 10**7, 190_000),
                    row("stream_mf2+children", 10**6, 33_000), row("stream_mf2+children", 10**7, 34_000),
                    row("stream_mf2+children", 10**9, 34_000)]}
    text = report.render([doc])
    assert "| one h-feed | mf2py[lxml] | 68 MB, 1.0 s | 332 MB, 1.0 s | not run: peers only up to 10MB (~31 GB" in text
    assert "| one h-feed | stream_mf2 | 45 MB, 1.0 s | 186 MB, 1.0 s | not measured (~16 GB by extrapolation) |" in text
    assert "| one h-feed | stream_mf2, stream_children=True | 32 MB, 1.0 s | 33 MB, 1.0 s | 33 MB, 1.0 s |" in text


# ---------------------------------------------------------------------------
# Fixed costs and the second (compiled) build


@pytest.mark.slow
@pure_only  # stands the running interpreter in for the compiled build and expects it flagged as not compiled
def test_builds_runs_only_the_sections_that_compare_the_builds(tmp_path: Path) -> None:
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "a.html").write_bytes(SMALL_PAGE.read_bytes())
    out_json = tmp_path / "builds.json"
    lines: list[str] = []
    assert full.main(["--builds", "--quick", "--no-suite", "--fixtures", str(pages), "--only", "stream_mf2",
                      "--compiled-python", sys.executable, "--json", str(out_json)], out=lines.append) == 0
    doc = json.loads(out_json.read_text(encoding="utf-8"))
    assert set(doc["settings"]["skipped_sections"]) == {"memory", "warc", "dask", "wpt"}
    assert not {"memory", "ttfi", "warc", "dask", "wpt"} & set(doc)
    assert {c["runner"] for c in doc["throughput"]["cells"]} == {"stream_mf2", run.COMPILED_RUNNER}
    assert [r["build"] for r in doc["fixed"]["rows"]] == ["pure", "compiled"]
    text = "\n".join(lines)
    assert "stream_mf2 (compiled) ÷ stream_mf2" in text and "Fixed costs" in text and "Memory: peak RSS" not in text


@pure_only  # stands the running interpreter in for the compiled build and expects it flagged as not compiled
def test_fixed_cost_rows_for_both_builds() -> None:
    result = fixed_cost.measure(compiled_python=sys.executable, runs=1, batch=3)
    pure, other = result["rows"]
    assert result["page_bytes"] == 200 and len(fixed_cost.PAGE.encode()) == 200
    for row in (pure, other):
        assert row.get("error") is None, row.get("error")
        assert row["per_document"]["str_us"] > 0 and row["per_document"]["bytes_us"] > 0
        imp = row["import"]
        assert imp["modules"] > 0 and imp["wall_s"] > 0 and imp["interpreter_s"] > 0 and imp["import_s"] > 0
        # This checkout's source was imported, and it says it is not compiled.
        assert imp["build"]["compiled"] is False
        assert Path(imp["build"]["file"]).resolve().is_relative_to(REPO)
    # parse() needs none of the I/O front ends
    assert "asyncio" not in str(pure["import"]) and pure["import"]["modules"] < 150
    text = report.fixed_table(result)
    assert "| pure |" in text and "| compiled (COMPILED=False) |" in text


def test_import_stream_mf2_loads_no_io_front_end() -> None:
    import subprocess

    code = ("import sys; import stream_mf2; from stream_mf2 import parse; "
            "print(sorted(m for m in ('asyncio', 'socket', 'warcio', 'http.client', 'stream_mf2.io.sources', "
            "'stream_mf2.warc.reader') if m in sys.modules))")
    env = fixed_cost.child_env(True, str(REPO / ".no-pycache"))
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    lazy = "import stream_mf2; from stream_mf2 import iter_warc, iter_items; print(iter_warc.__module__, iter_items.__module__)"
    out = subprocess.run([sys.executable, "-c", lazy], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["stream_mf2.warc.reader", "stream_mf2.io.sources"]


@pure_only  # stands the running interpreter in for the compiled build and expects it flagged as not compiled
def test_compiled_cells_in_a_child(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_bytes(SMALL_PAGE.read_bytes())
    runner, cells = run.compiled_cells(sys.executable, 1, 5.0, False, tmp_path)
    assert runner.available and runner.subject and runner.version and "NOT compiled" in runner.version
    assert [(c.runner, c.page, c.bytes) for c in cells] == [(run.COMPILED_RUNNER, "a.html", SMALL_PAGE.stat().st_size)]
    assert cells[0].items and cells[0].best_s
    broken, none = run.compiled_cells(str(tmp_path / "no-such-python"), 1, 5.0, False, tmp_path)
    assert not broken.available and broken.missing and none == []


def test_syntaxes_bench_compares_the_same_syntaxes(tmp_path: Path) -> None:
    """Both sides of each comparison extract the same syntaxes (extruct's keys), and a run writes its cells."""
    pytest.importorskip("extruct")
    from bench import syntaxes_bench
    from tests.syntaxes.pages import WORDPRESS_POST

    data, url = WORDPRESS_POST.encode(), "https://blog.example.com/2024/05/static-hosting/"
    for label, names in syntaxes_bench.comparisons(per_syntax=True):
        mine = peers.stream_mf2_extract_runner(label, names)
        theirs = peers.extruct_runner(label, names)
        assert mine.run is not None and theirs.run is not None
        assert set(mine.run(data, url)) == set(theirs.run(data, url)) == {peers.EXTRUCT_NAMES[n] for n in names}
    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "post.html").write_bytes(data)
    out_json = tmp_path / "r.json"
    lines: list[str] = []
    assert syntaxes_bench.main(["--quick", "--json", str(out_json)], out=lines.append, groups={"g": folder}) == 0
    result = json.loads(out_json.read_text(encoding="utf-8"))
    assert {c["runner"] for c in result["cells"]} == {
        "stream_mf2.extract [all]", "extruct [all]", "stream_mf2.extract [libxml2]", "extruct [libxml2]"}
    assert all(c["bytes"] == len(data) and c["items"] for c in result["cells"])
    assert set(result["ratios"]) == {"all", "libxml2"} and "stream_mf2.extract ÷ extruct" in "\n".join(lines)


def test_syntaxes_memory_pages_and_children(tmp_path: Path) -> None:
    """The microdata pages hold the items they claim (parse() and extruct agree on them), and
    ``--memory`` runs both children and the time-to-first-entry row of every syntax."""
    pytest.importorskip("extruct")
    import extruct

    import stream_mf2
    from bench import syntaxes_bench, syntaxes_memory

    for shape in syntaxes_memory.SHAPES:
        data = b"".join(syntaxes_memory.page_chunks(shape, 50_000, 4096))
        assert 50_000 <= len(data) < 52_000 + 2_000
        mine = stream_mf2.parse(data, syntaxes_memory.URL, syntaxes={"microdata"})["microdata"]
        theirs = extruct.extract(data, base_url=syntaxes_memory.URL, syntaxes=["microdata"])["microdata"]
        products = data.count(b'itemtype="https://schema.org/Product"')
        assert len(mine) == len(theirs) == products + (shape == "page-item")
    out_json = tmp_path / "m.json"
    argv = ["--memory", "--sizes", "100KB", "--shapes", "products", "--ttfi-size", "100KB", "--json", str(out_json)]
    assert syntaxes_bench.main(argv) == 0
    rows = json.loads(out_json.read_text(encoding="utf-8"))["rows"]
    assert [(r["table"], r["parser"]) for r in rows] == [
        ("memory", "stream_mf2"), ("memory", "extruct"), ("ttfi", "stream_mf2"), ("ttfi", "extruct")]
    assert all(r.get("error") is None and r["peak_rss_kb"] >= r["baseline_rss_kb"] > 0 for r in rows), rows
    assert rows[0]["entries"]["microdata"] == rows[1]["entries"]["microdata"] > 50
    ttfi = rows[2]
    assert set(ttfi["first_s"]) == set(syntaxes_memory.TTFI_SYNTAXES)
    assert all(0 <= s <= ttfi["parse_s"] for s in ttfi["first_s"].values())
