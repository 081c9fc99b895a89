"""``--syntaxes`` on the page command: the JSON is what ``parse(..., syntaxes=...)`` returns; with
``--jsonl`` one ``item`` line per entry of each syntax's results, with a ``syntax``.

The pages are those the syntax consumers are tested with (a WordPress post with Yoast, a shop, a
recipe blog, a news site with Dublin Core), a Genesis page whose ``<body>`` is a microdata item,
and a WordPress recipe in RDFa.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import stream_mf2
from stream_mf2.core.syntaxes import SYNTAXES
from tests.microdata.pages import PAGE_ITEM_BODY
from tests.rdfa.pages import WORDPRESS_SCHEMA_RDFA
from tests.support.cli import assert_user_error, lines, run_cli
from tests.support.suites import REPO
from tests.support.syntax_lines import syntax_list
from tests.syntaxes.pages import PAGES

URL = "https://blog.example.com/2024/05/static-hosting/"
ALL_PAGES = {**PAGES, "page-item-body": PAGE_ITEM_BODY, "rdfa-recipe": WORDPRESS_SCHEMA_RDFA}
OTHERS = tuple(n for n in SYNTAXES if n != "mf2")


def canonical(data: Any) -> Any:
    """As JSON reads it (tuples are lists)."""
    return json.loads(json.dumps(data))


def _page(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.html"
    path.write_text(ALL_PAGES[name], encoding="utf-8")
    return path


def _by_syntax(found: list[dict[str, Any]]) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for line in found:
        if line["kind"] == "item":
            out.setdefault(line["syntax"], []).append(line["item"])
    return out


@pytest.mark.parametrize("name", sorted(ALL_PAGES))
def test_json_is_what_parse_returns(name: str, tmp_path: Path) -> None:
    path = _page(tmp_path, name)
    r = run_cli(str(path), "--url", URL, "--syntaxes", "all")
    assert r.returncode == 0, r.stderr.decode()
    expected = stream_mf2.parse(path.read_bytes(), URL, syntaxes=set(SYNTAXES))
    got = json.loads(r.stdout)
    assert got == canonical(expected)
    assert list(got) == list(expected)  # the same keys, in the same order


@pytest.mark.parametrize("name", sorted(ALL_PAGES))
def test_jsonl_lines_are_the_entries_of_parse(name: str, tmp_path: Path) -> None:
    path = _page(tmp_path, name)
    r = run_cli(str(path), "--url", URL, "--syntaxes", "all", "--jsonl")
    assert r.returncode == 0, r.stderr.decode()
    found = lines(r.stdout)
    assert found[-1]["kind"] == "document"
    assert all("syntax" in line for line in found if line["kind"] == "item")
    expected = stream_mf2.parse(path.read_bytes(), URL, syntaxes=set(SYNTAXES))
    got = _by_syntax(found)
    assert got.get("mf2", []) == canonical(expected["items"])
    for name_ in OTHERS:
        # (each line says its place: a microdata page item's line comes last)
        assert syntax_list(found, name_) == canonical(expected[name_]), name_


def test_the_pages_give_every_syntax_something() -> None:
    """Else the two tests above would prove nothing for a syntax."""
    results = [stream_mf2.parse(page, URL, syntaxes=set(SYNTAXES)) for page in ALL_PAGES.values()]
    for name in OTHERS:
        assert any(r[name] and r[name] != [{"namespaces": {}, "elements": [], "terms": []}] for r in results), name


def test_some_syntaxes(tmp_path: Path) -> None:
    """Only those asked for; without mf2 there are no mf2 items (as parse gives)."""
    path = _page(tmp_path, "wordpress-post")
    r = run_cli(str(path), "--url", URL, "--syntaxes", "json-ld, opengraph")
    assert r.returncode == 0, r.stderr.decode()
    got = json.loads(r.stdout)
    assert got == canonical(stream_mf2.parse(path.read_bytes(), URL, syntaxes={"json-ld", "opengraph"}))
    assert set(got) == {"items", "rels", "rel-urls", "json-ld", "opengraph"} and got["items"] == []
    assert len(got["json-ld"]) == 2


def test_without_syntaxes_the_lines_are_unchanged(tmp_path: Path) -> None:
    path = _page(tmp_path, "wordpress-post")
    r = run_cli(str(path), "--url", URL, "--jsonl")
    items = [line for line in lines(r.stdout) if line["kind"] == "item"]
    assert items and all(set(line) == {"kind", "item"} for line in items)
    r = run_cli(str(path), "--url", URL, "--jsonl", "--syntaxes", "mf2")
    items = [line for line in lines(r.stdout) if line["kind"] == "item"]
    assert items and all(line["syntax"] == "mf2" for line in items)


def test_stream_children_from_standard_input() -> None:
    """A page-wide feed with JSON-LD, OpenGraph, Twitter, RDFa, read from a pipe in the reads it gives:
    the mf2 children stream, and every syntax still equals parse() of the whole page."""
    body = (REPO / "fixtures" / "bench" / "feed-large.html").read_bytes()
    r = run_cli("-", "--url", URL, "--syntaxes", "all", "--jsonl", "--stream-children", stdin=body)
    assert r.returncode == 0, r.stderr.decode()
    found = lines(r.stdout)
    assert any("path" in line for line in found if line["kind"] == "item"), "a child was streamed"
    expected = stream_mf2.parse(body, URL, syntaxes=set(SYNTAXES))
    got = _by_syntax(found)
    for name in OTHERS:
        assert got.get(name, []) == canonical(expected[name]), name
    assert all(got[name] for name in ("json-ld", "opengraph", "twitter", "rdfa"))


def test_an_unknown_syntax_is_a_usage_error() -> None:
    r = run_cli("fixtures/example.html", "--syntaxes", "json-ld,hcard")
    assert_user_error(r, 2, "unknown syntax 'hcard'")
    assert ", ".join(SYNTAXES) in r.stderr.decode()
    assert_user_error(run_cli("fixtures/example.html", "--syntaxes", ","), 2, "--syntaxes needs at least one name")


def test_warc_refuses_prefilter_with_other_syntaxes() -> None:
    r = run_cli("warc", "x.warc.gz", "--prefilter", "--syntaxes", "json-ld")
    assert_user_error(r, 2, "--prefilter")
    with pytest.raises(ValueError, match="other syntaxes"):
        from stream_mf2.warc.reader import iter_warc

        iter_warc("x.warc.gz", prefilter=True, syntaxes={"mf2", "json-ld"})


def test_wpt_wants_items_for_syntaxes() -> None:
    r = run_cli("wpt", "fixtures/wpt/readme.xml", "fixtures/wpt/readme.html", "--syntaxes", "json-ld")
    assert_user_error(r, 2, "--items")


def test_the_syntax_budgets_pass_through(tmp_path: Path) -> None:
    """--microdata-form, --max-jsonld-chars, --max-rdfa-list-items reach the consumers as parse()'s keywords."""
    path = _page(tmp_path, "page-item-body")
    r = run_cli(str(path), "--url", URL, "--syntaxes", "microdata", "--microdata-form", "whatwg")
    assert r.returncode == 0, r.stderr.decode()
    want = stream_mf2.parse(path.read_bytes(), URL, syntaxes={"microdata"}, microdata_form="whatwg")
    assert json.loads(r.stdout) == canonical(want)
    assert want["microdata"] != stream_mf2.parse(path.read_bytes(), URL, syntaxes={"microdata"})["microdata"]
    path = _page(tmp_path, "wordpress-post")
    r = run_cli(str(path), "--url", URL, "--syntaxes", "json-ld", "--max-jsonld-chars", "200")
    assert r.returncode == 0, r.stderr.decode()
    want = stream_mf2.parse(path.read_bytes(), URL, syntaxes={"json-ld"}, max_jsonld_chars=200)
    assert json.loads(r.stdout) == canonical(want) and len(want["json-ld"]) == 1  # the long block skipped
    assert "stream-mf2: warning:" in r.stderr.decode()  # the note
    assert_user_error(run_cli(str(path), "--max-rdfa-list-items", "-1"), 2, "--max-rdfa-list-items")
