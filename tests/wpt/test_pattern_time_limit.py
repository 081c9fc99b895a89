"""Patterns run under a time limit per page (issue 25, item 5): the parse option
``max_pattern_seconds`` (``stream-mf2 wpt --max-pattern-seconds``).

``(x[(a|aa)+c])`` backtracks exponentially: on 40 ``a`` a search would take minutes. Every
search of a template's pattern runs under the ``regex`` module's ``timeout=`` with the time
the page has left; past it a page-source pattern is an error in the page's ``errors`` (the
page's element blocks go on), and so is an element's pattern (its block fails on that
element; the page's later element patterns are skipped, said once); a URL pattern stops the
document with the typed ``PatternTimeout`` (the record's ``error`` line in a WARC run, which
reads on). The tests look at outcomes only: with a pathological pattern the limit is always reached,
whatever the machine's speed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from stream_mf2 import Parser, parse
from stream_mf2.errors import PatternTimeout
from stream_mf2.wpt import collect_pages, load
from tests.support.cli import run_cli

OW = 'xmlns:ow="http://www.omfica.org/schemas/ow/0.9"'
SLOW = "(x[(a|aa)+c])"
PAGE = "<html><body><h1>Title</h1><p>" + "a" * 40 + "</p></body></html>"


def _template(block: str) -> str:
    return (
        f'<ow:wpt {OW} ow:host="h.example"><ow:template ow:name="T" ow:url="http://h.example/(p[[a-z0-9]*])">'
        f'<ow:block ow:xpath="/html/body/h1">title</ow:block>{block}</ow:template></ow:wpt>'
    )


def _pages(html: str, wpt: Any, chunks: int = 1, **opts: Any) -> list[dict[str, Any]]:
    parser = Parser("http://h.example/x", wpt=wpt, **opts)
    events: list[Any] = []
    size = -(-len(html) // chunks)
    for i in range(0, len(html), size):
        events.extend(parser.feed_events(html[i : i + size]))
    events.extend(parser.close_events())
    return collect_pages(events)


@pytest.mark.parametrize("chunks", [1, 2, 3])
def test_a_page_source_pattern_past_the_limit_is_a_page_error_and_the_page_goes_on(chunks: int) -> None:
    wpt = load(_template(f'<ow:block ow:pattern="{SLOW}">x</ow:block>'))
    [page] = _pages(PAGE, wpt, chunks, max_pattern_seconds=0.05)
    title, slow = page["blocks"]
    assert [m["text"] for m in title["matches"]] == ["Title"]
    assert slow["matches"] == []
    [error] = [e for e in page["errors"] if "max_pattern_seconds" in e]
    assert error == (
        f"wpt: pattern {SLOW!r} ran past max_pattern_seconds=0.05 (the page's time for patterns);"
        " not searched further on this page"
    )


def test_each_page_has_its_own_time() -> None:
    wpt = load(_template(f'<ow:block ow:pattern="{SLOW}">x</ow:block>'))
    [slow] = _pages(PAGE, wpt, max_pattern_seconds=0.05)
    [fast] = _pages("<html><body><h1>Title</h1><p>xaac</p></body></html>", wpt, max_pattern_seconds=0.05)
    assert any("max_pattern_seconds" in e for e in slow["errors"])
    assert [m["text"] for m in fast["blocks"][1]["matches"]] == ["aac"]


def test_once_the_pages_time_is_spent_the_later_element_patterns_fail_with_a_note() -> None:
    # The page-source pattern spends the page's time; the element pattern after it has none.
    wpt = load(
        _template(
            f'<ow:block ow:pattern="{SLOW}">x</ow:block>'
            '<ow:block ow:xpath="/html/body/h2" ow:pattern="(n[[0-9]+])">n</ow:block>'
        )
    )
    html = PAGE.replace("</body>", "<div>" + "b" * 200 + "</div><h2>42</h2></body>")
    [page] = _pages(html, wpt, max_pattern_seconds=0.05, max_pattern_chars=64)
    title, slow, number = page["blocks"]
    assert [m["text"] for m in title["matches"]] == ["Title"]  # no pattern: not affected
    assert slow["matches"] == [] and number["matches"] == []
    assert [e for e in page["errors"] if "max_pattern_seconds" in e] == [
        f"wpt: pattern {SLOW!r} ran past max_pattern_seconds=0.05 (the page's time for patterns);"
        " not searched further on this page",
        "wpt: pattern '(n[[0-9]+])' ran past max_pattern_seconds=0.05 (the page's time for patterns);"
        " the page's element patterns after it are skipped (their blocks fail)",
    ]


def test_the_default_limit_stops_the_pathological_pattern() -> None:  # (takes the default's 1 s)
    wpt = load(_template(f'<ow:block ow:pattern="{SLOW}">x</ow:block>'))
    [page] = _pages(PAGE, wpt)
    assert any("max_pattern_seconds=1.0" in e for e in page["errors"])


def test_a_fast_pattern_is_not_affected() -> None:
    wpt = load(_template(f'<ow:block ow:pattern="{SLOW}">x</ow:block>'))
    [page] = _pages("<html><body><h1>Title</h1><p>xaac</p></body></html>", wpt, max_pattern_seconds=0.05)
    assert [m["text"] for m in page["blocks"][1]["matches"]] == ["aac"]
    assert "errors" not in page or not page["errors"]


@pytest.mark.parametrize("chunks", [1, 2, 3])
def test_an_element_pattern_past_the_limit_is_a_page_error_and_the_page_goes_on(chunks: int) -> None:
    wpt = load(
        _template(
            f'<ow:block ow:xpath="/html/body/p" ow:pattern="{SLOW}">x</ow:block>'
            '<ow:block ow:xpath="/html/body/h2">y</ow:block>'
        )
    )
    [page] = _pages(PAGE.replace("</body>", "<h2>After</h2></body>"), wpt, chunks, max_pattern_seconds=0.05)
    title, slow, after = page["blocks"]
    assert [m["text"] for m in title["matches"]] == ["Title"]
    assert slow["matches"] == []
    assert [m["text"] for m in after["matches"]] == ["After"]
    assert [e for e in page["errors"] if "max_pattern_seconds" in e] == [
        f"wpt: pattern {SLOW!r} ran past max_pattern_seconds=0.05 (the page's time for patterns);"
        " the page's element patterns after it are skipped (their blocks fail)"
    ]


def test_a_url_pattern_past_the_limit_is_a_typed_error() -> None:
    wpt = load(_template("").replace("(p[[a-z0-9]*])", "(p[(a|aa)+c])"))
    with pytest.raises(PatternTimeout):
        Parser("http://h.example/" + "a" * 40, wpt=wpt, max_pattern_seconds=0.05)
    with pytest.raises(PatternTimeout):  # outside a parse: each search has the default (1 s)
        wpt.choose("http://h.example/" + "a" * 40)


@pytest.mark.parametrize(
    ("value", "error"),
    [(0, ValueError), (-1.0, ValueError), (float("nan"), ValueError), ("1", TypeError), (True, TypeError)],
)
def test_the_option_is_checked(value: object, error: type[Exception]) -> None:
    with pytest.raises(error, match="max_pattern_seconds"):
        parse("<p>x", max_pattern_seconds=value)  # type: ignore[arg-type]  # the wrong value is the point


def _warc(path: Path, pages: list[tuple[str, str]]) -> None:
    import io

    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with path.open("wb") as f:
        writer = WARCWriter(f, gzip=True)
        for uri, html in pages:
            http = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8")], protocol="HTTP/1.1")
            body = io.BytesIO(html.encode())
            writer.write_record(writer.create_warc_record(uri, "response", payload=body, http_headers=http))


def test_a_warc_run_writes_the_records_error_and_reads_on(tmp_path: Path) -> None:
    # An element's pattern out of time: that page's error. A URL pattern out of time: the
    # record's error line (no template could be chosen). The run reads every record.
    xml = _template(f'<ow:block ow:xpath="/html/body/p" ow:pattern="{SLOW}">x</ow:block>')
    template = tmp_path / "t.xml"
    template.write_text(xml.replace("(p[[a-z0-9]*])", "(p[(a|aa)+c|[a-z]+])"))
    archive = tmp_path / "crawl.warc.gz"
    _warc(
        archive,
        [
            ("http://h.example/" + "a" * 40, PAGE),
            ("http://h.example/slow", PAGE),
            ("http://h.example/fast", PAGE.replace("a" * 40, "xaac")),
        ],
    )
    r = run_cli("wpt", str(template), str(archive), "--max-pattern-seconds", "0.05")
    assert r.returncode == 0, r.stderr.decode()
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    errors = [x for x in lines if x["kind"] == "error"]
    assert [(e["uri"], "max_pattern_seconds=0.05" in e["error"]) for e in errors] == [
        ("http://h.example/" + "a" * 40, True)
    ]
    slow, fast = [x for x in lines if x["kind"] == "wpt"]
    assert slow["uri"] == "http://h.example/slow" and slow["blocks"][1]["matches"] == []
    assert any("max_pattern_seconds=0.05" in e for e in slow["errors"])
    assert fast["uri"] == "http://h.example/fast"
    assert [m["text"] for m in fast["blocks"][1]["matches"]] == ["xaac"]
    assert [x["kind"] for x in lines].count("record") == 3


def test_the_command_line_refuses_a_bad_limit(tmp_path: Path) -> None:
    template = tmp_path / "t.xml"
    template.write_text(_template(""))
    r = run_cli("wpt", str(template), "-", "--max-pattern-seconds", "0", stdin=b"<p>x")
    assert r.returncode == 2
    assert "max-pattern-seconds" in r.stderr.decode()
