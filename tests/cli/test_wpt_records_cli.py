"""``stream-mf2 wpt --records / --jsonld`` and several WPT files per run (issue 25, items 10, 11).

Real files in ``tmp_path``: the templates, HTML pages and a WARC archive written with warcio;
the command runs as a subprocess. Every line is checked against the library
(``records``, ``page_jsonld`` of ``parse(page, url, wpt=...)``), over HTML pages and WARC
records, in JSON Lines and in Parquet (read back).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from stream_mf2 import parse
from stream_mf2.wpt import load, records
from stream_mf2.wpt.jsonld import page_jsonld
from tests.support.cli import assert_user_error, lines, run_cli
from tests.support.warc_records import response, write_archive
from tests.wpt.test_many_templates import NEWS, PRODUCT, REVIEWS, SHOP, STORY

pytest.importorskip("defusedxml")
pytest.importorskip("regex")

PRODUCT_URL = "https://shop.example/p/12"
STORY_URL = "https://news.example/harbour-reopens"
HTML = [("Content-Type", "text/html; charset=utf-8")]
POSITION = ("warc_file", "offset", "record_id", "uri")


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "news.xml").write_text(NEWS, "utf-8")
    (folder / "reviews.xml").write_text(REVIEWS, "utf-8")
    (folder / "shop.xml").write_text(SHOP, "utf-8")
    (folder / "README.txt").write_text("not a template", "utf-8")
    (tmp_path / "product.html").write_text(PRODUCT, "utf-8")
    (tmp_path / "story.html").write_text(STORY, "utf-8")
    return {
        "folder": folder,
        "shop": folder / "shop.xml",
        "reviews": folder / "reviews.xml",
        "news": folder / "news.xml",
        "product": tmp_path / "product.html",
        "story": tmp_path / "story.html",
    }


def _library(url: str, html: str, *wpt_xml: str) -> list[dict[str, Any]]:
    """The pages the library gives for ``html`` with these WPT files, in template-name order."""
    wpts = [load(x) for x in wpt_xml]
    pages = parse(html, url, wpt=wpts)["wpt"]
    return sorted(pages, key=lambda p: p["template"])


def _source(page: dict[str, Any], *wpt_xml: str) -> Any:
    for x in wpt_xml:
        w = load(x)
        if any(t.name == page["template"] for t in w.templates):
            return w
    raise AssertionError(page["template"])


def _ok(r: Any) -> list[dict[str, Any]]:
    assert r.returncode == 0, r.stderr.decode()
    return lines(r.stdout)


def _from(source: object, got: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``got`` (lines over HTML pages) without their ``source``, which must be ``source``."""
    assert all(x["source"] == str(source) for x in got), got
    return [{k: v for k, v in x.items() if k != "source"} for x in got]


def test_records_lines_of_an_html_page(files: dict[str, Path]) -> None:
    got = _from(files["product"], _ok(run_cli("wpt", str(files["shop"]), str(files["product"]), "--url", PRODUCT_URL, "--records")))
    (page,) = _library(PRODUCT_URL, PRODUCT, SHOP)
    assert got == records(page)
    assert got[0]["data"] == {"product": {"id": "12", "name": "Turntable belt 3mm"}}


def test_jsonld_line_of_an_html_page_and_both_forms(files: dict[str, Path]) -> None:
    both = _from(files["product"], _ok(
        run_cli("wpt", str(files["reviews"]), str(files["product"]), "--url", PRODUCT_URL, "--records", "--jsonld")
    ))
    (page,) = _library(PRODUCT_URL, PRODUCT, REVIEWS)
    assert [x["kind"] for x in both] == ["wpt-record"] * 3 + ["wpt-jsonld"]
    assert both[:3] == records(page)
    assert both[3] == {"kind": "wpt-jsonld", "template": "Reviews", "url": PRODUCT_URL, "jsonld": page_jsonld(page, load(REVIEWS))}
    vocab = _ok(
        run_cli("wpt", str(files["reviews"]), str(files["product"]), "--url", PRODUCT_URL, "--jsonld", "--vocab", "https://schema.org/")
    )
    assert vocab[0]["jsonld"]["@context"]["@vocab"] == "https://schema.org/"


def test_the_templates_of_a_folder_or_a_list_are_chosen_per_page(files: dict[str, Path]) -> None:
    pages = [f"{files['product']}", f"{files['story']}"]
    want = {
        (p["template"], p["url"]): p
        for url, html in ((PRODUCT_URL, PRODUCT), (STORY_URL, STORY))
        for p in _library(url, html, SHOP, NEWS, REVIEWS)
    }
    assert set(want) == {("Product", PRODUCT_URL), ("Reviews", PRODUCT_URL), ("Story", STORY_URL)}
    for args in (
        ["--templates", str(files["folder"])],
        ["--templates", str(files["shop"]), "--templates", str(files["reviews"]), "--templates", str(files["news"])],
        [str(files["folder"])],  # a folder as TEMPLATE.xml
    ):
        got: dict[tuple[str, str], dict[str, Any]] = {}
        for page, url in zip(pages, (PRODUCT_URL, STORY_URL), strict=True):
            for line in _from(page, _ok(run_cli("wpt", *args, page, "--url", url))):
                got[(line["template"], line["url"])] = line
        assert got == want, args


def test_one_template_file_usage_is_unchanged(files: dict[str, Path]) -> None:
    old = run_cli("wpt", str(files["shop"]), str(files["product"]), "--url", PRODUCT_URL)
    new = run_cli("wpt", "--templates", str(files["shop"]), str(files["product"]), "--url", PRODUCT_URL)
    assert _from(files["product"], _ok(old)) == _from(files["product"], _ok(new)) == _library(PRODUCT_URL, PRODUCT, SHOP)


def test_bad_combinations_are_user_errors(files: dict[str, Path], tmp_path: Path) -> None:
    page = str(files["product"])
    assert_user_error(run_cli("wpt"), 2, "required: TEMPLATE.xml (or --templates PATH)")
    assert_user_error(run_cli("wpt", str(files["shop"]), page, "--matches", "--records"), 2, "--matches")
    assert_user_error(run_cli("wpt", str(files["shop"]), page, "--vocab", "https://schema.org/"), 2, "--vocab applies to --jsonld")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert_user_error(run_cli("wpt", "--templates", str(empty), page), 1, "no WPT file (*.xml) in the folder")
    (files["folder"] / "copy.xml").write_text(SHOP, "utf-8")
    assert_user_error(
        run_cli("wpt", str(files["folder"]), page, "--template", "Product"), 1, "several WPT files have a template named"
    )


def _archive(path: Path) -> None:
    product, story = PRODUCT.encode(), STORY.encode()
    write_archive(
        path,
        [
            response(PRODUCT_URL, product, HTML, html=product, charset="utf-8"),
            response(STORY_URL, story, HTML, html=story, charset="utf-8"),
            response("https://elsewhere.example/", story, HTML, html=story, charset="utf-8"),
        ],
        compress=True,
    )


def test_records_and_jsonld_over_a_warc_archive(files: dict[str, Path], tmp_path: Path) -> None:
    crawl = tmp_path / "crawl.warc.gz"
    _archive(crawl)
    out = _ok(run_cli("wpt", "--templates", str(files["folder"]), str(crawl), "--records", "--jsonld"))
    kinds = [x["kind"] for x in out]
    assert kinds.count("record") == 3 and kinds[-1] == "summary"
    assert out[-1]["wpt-record"] == kinds.count("wpt-record") and out[-1]["wpt-jsonld"] == 3
    wpt_lines = [x for x in out if x["kind"].startswith("wpt-")]
    for x in wpt_lines:
        assert list(x)[: 1 + len(POSITION)] == ["kind", *POSITION]
    want: list[dict[str, Any]] = []
    for url, html in ((PRODUCT_URL, PRODUCT), (STORY_URL, STORY)):
        for page in _library(url, html, SHOP, NEWS, REVIEWS):
            want.extend(records(page))
            want.append(
                {"kind": "wpt-jsonld", "template": page["template"], "url": url, "jsonld": page_jsonld(page, _source(page, SHOP, NEWS, REVIEWS))}
            )
    strip = [{k: v for k, v in x.items() if k not in POSITION} for x in wpt_lines]
    key = json.dumps
    assert sorted(map(key, strip)) == sorted(map(key, want))
    # each line comes before its own record's "record" line
    for x in wpt_lines:
        (rec,) = (r for r in out if r["kind"] == "record" and r["offset"] == x["offset"])
        assert out.index(x) < out.index(rec)
    # worker processes (the templates pickled to them) give the same lines
    two = _ok(run_cli("wpt", "--templates", str(files["folder"]), str(crawl), "--records", "--jsonld", "--workers", "2"))
    assert [x for x in two if x["kind"].startswith("wpt-")] == wpt_lines


def test_records_and_jsonld_to_parquet_read_back(files: dict[str, Path], tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    crawl = tmp_path / "crawl.warc.gz"
    _archive(crawl)
    args = ("wpt", "--templates", str(files["folder"]), str(crawl), "--records", "--jsonld")
    jsonl = [x for x in _ok(run_cli(*args)) if x["kind"].startswith("wpt-")]
    r = run_cli(*args, "-o", str(tmp_path / "x.parquet"))
    assert r.returncode == 0, r.stderr.decode()
    rows = pq.read_table(tmp_path / "x.wpt-records.parquet").to_pylist()
    assert len(rows) == 5 and {row["errors"] for row in rows} == {row["source"] for row in rows} == {None}
    back = [
        {"kind": "wpt-record", **{k: (json.loads(v) if k == "data" else v) for k, v in row.items() if k not in ("errors", "source")}}
        for row in rows
    ]
    assert back == [x for x in jsonl if x["kind"] == "wpt-record"]
    ld = pq.read_table(tmp_path / "x.wpt-jsonld.parquet").to_pylist()
    assert [json.loads(row["jsonld"]) for row in ld] == [x["jsonld"] for x in jsonl if x["kind"] == "wpt-jsonld"]
    assert (tmp_path / "x.records.parquet").exists() and not (tmp_path / "x.wpt.parquet").exists()


def test_records_of_html_pages_to_parquet(files: dict[str, Path], tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    r = run_cli("wpt", str(files["shop"]), str(files["product"]), "--url", PRODUCT_URL, "--records", "-o", str(tmp_path / "p.parquet"))
    assert r.returncode == 0, r.stderr.decode()
    (row,) = pq.read_table(tmp_path / "p.wpt-records.parquet").to_pylist()
    (page,) = _library(PRODUCT_URL, PRODUCT, SHOP)
    (rec,) = records(page)
    assert {**row, "data": json.loads(row["data"])} == {
        "source": str(files["product"]), "warc_file": None, "offset": None, "record_id": None, "uri": None, "errors": None, **{k: v for k, v in rec.items() if k != "kind"}
    }  # fmt: skip


def test_a_page_error_is_on_the_page_record_and_the_jsonld_line(tmp_path: Path) -> None:
    t = tmp_path / "notes.xml"
    t.write_text(
        '<ow:wpt xmlns:ow="http://www.omfica.org/schemas/ow/0.9" ow:host="https://notes.example">'
        '<ow:template ow:name="Note" ow:url="https://notes.example/n/(note.id[[0-9]+])">'
        '<ow:block ow:pattern="BEGIN(note.body[[^E]+])END">note</ow:block>'
        '<ow:block ow:xpath="//h1">note.title</ow:block></ow:template></ow:wpt>',
        "utf-8",
    )
    page = tmp_path / "n.html"
    page.write_text("<!doctype html><h1>Shopping</h1><pre>BEGIN" + "milk, eggs, " * 20 + "END</pre>", "utf-8")
    got = _ok(
        run_cli("wpt", str(t), str(page), "--url", "https://notes.example/n/3", "--records", "--jsonld", "--max-pattern-chars", "40")
    )
    assert [x["kind"] for x in got] == ["wpt-record", "wpt-jsonld"]
    assert got[0]["data"] == {"note": {"id": "3", "title": "Shopping"}}
    assert got[0]["errors"] == got[1]["errors"] and "max_pattern_chars" in got[0]["errors"][0]


def test_the_guides_records_and_jsonld_examples_are_the_real_output() -> None:
    from tests.support.suites import REPO

    guide = (REPO / "docs" / "guides" / "wpt-authoring.md").read_text("utf-8")

    def block(marker: str) -> str:
        return guide.split(f"<!-- {marker} -->", 1)[1].split("```json\n", 1)[1].split("\n```", 1)[0]

    args = ("wpt", "fixtures/wpt/readme.xml", "fixtures/wpt/readme.html", "--url", "https://records.example/ar-42")
    assert lines(block("wpt-records-output").encode()) == _ok(run_cli(*args, "--records"))
    assert [json.loads(block("wpt-jsonld-output"))] == _ok(run_cli(*args, "--jsonld"))
