"""Command-line polish: --version, every parse option, JSON Lines kinds, --pretty (run in process)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

import stream_mf2
from stream_mf2.cli import main

PAGE = (
    b'<html lang="en"><head><meta property="og:title" content="T"><link rel="me" href="https://me.example/"></head>'
    b'<body><div class="h-card"><span class="p-name">Ann</span></div><div class="h-full">x</div>'
    b'<div class="h-feed"><div class="h-entry">a</div></div></body></html>'
)
URL = "http://example.com/"


def run(capsys: pytest.CaptureFixture[bytes], *args: str) -> tuple[int, bytes, str]:
    """Run the command in process: (exit status, standard output, standard error)."""
    try:
        status = main(list(args))
    except SystemExit as e:
        status = int(e.code or 0)
    captured = capsys.readouterr()
    return status, captured.out, captured.err.decode()


@pytest.fixture
def page(tmp_path: Path) -> Path:
    path = tmp_path / "page.html"
    path.write_bytes(PAGE)
    return path


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    text = capsys.readouterr().out
    assert text.startswith(f"stream-mf2 {stream_mf2.__version__}")
    if getattr(stream_mf2, "COMPILED", None) is not None:
        assert "(" in text  # the build is named when the package says which it is


def test_jsonl_kinds(capsysbinary: pytest.CaptureFixture[bytes], page: Path) -> None:
    status, out, _ = run(capsysbinary, str(page), "--jsonl", "--metaformats", "--url", URL)
    assert status == 0
    lines = [orjson.loads(line) for line in out.splitlines()]
    want = stream_mf2.parse(PAGE, URL, metaformats=True)
    assert [line["kind"] for line in lines] == ["meta-item", "item", "item", "item", "document"]
    assert lines[0]["item"] == want["meta-item"]
    assert [line["item"] for line in lines[1:4]] == want["items"]
    assert lines[-1] == {
        "kind": "document",
        "url": URL,
        "encoding": "windows-1252",
        "rels": want["rels"],
        "rel-urls": want["rel-urls"],
        "notes": [],
    }


def test_every_parse_option_is_a_flag(capsysbinary: pytest.CaptureFixture[bytes], page: Path) -> None:
    def items(*flags: str) -> Any:
        status, out, err = run(capsysbinary, str(page), "--url", URL, *flags)
        assert status == 0, err
        return orjson.loads(out)["items"]

    assert [i["type"] for i in items()] == [["h-card"], ["h-full"], ["h-feed"]]
    assert items("--filter-roots") == stream_mf2.parse(PAGE, URL, filter_roots=True)["items"]
    assert items("--filter-roots", "h-card") == stream_mf2.parse(PAGE, URL, filter_roots=frozenset({"h-card"}))["items"]
    assert items("--text", "normalized", "--lang") == stream_mf2.parse(PAGE, URL, text="normalized", lang=True)["items"]
    assert items("--max-depth", "50", "--max-kept-nodes", "1000", "--max-reparse-bytes", "0") == stream_mf2.parse(
        PAGE, URL
    )["items"]
    status, out, err = run(capsysbinary, str(page), "--max-depth", "3")
    assert status == 1 and "max_depth" in err and out == b""
    status, _, err = run(capsysbinary, str(page), "--max-token-chars", "0")
    assert status == 2 and "--max-token-chars must be at least 1" in err  # a bad command line


def test_pretty_and_compact(capsysbinary: pytest.CaptureFixture[bytes], page: Path) -> None:
    _, compact, _ = run(capsysbinary, str(page))
    _, pretty, _ = run(capsysbinary, str(page), "--pretty")
    assert compact.count(b"\n") == 1 and pretty.count(b"\n") > 10
    assert orjson.loads(compact) == orjson.loads(pretty)
    _, lines, _ = run(capsysbinary, str(page), "--jsonl")
    assert all(line.startswith(b'{"kind":') for line in lines.splitlines())
