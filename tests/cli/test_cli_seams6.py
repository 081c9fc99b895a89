"""Seams of the command line a new user hits (seams6), each a test that failed before its fix.

* ``wpt --items`` had no ``--stream-children`` (``stream-mf2 --jsonl`` and ``warc`` have it):
  it now streams a container's children as item lines, over pages and WARC archives, with the
  same lines as those commands, and the same WPT lines as without it.
* The page command had no ``-o`` (``warc`` and ``wpt`` have it): ``-o OUT`` now writes the page's
  JSON (``.json``) or JSON Lines (``.jsonl``, ``.ndjson``; ``.gz``/``.zst`` compress) through the
  same output targets (``OUT.partial`` renamed into place, a named pipe written in place, a
  folder refused); ``warc``/``wpt`` refuse a ``.json`` name, which would hold JSON Lines.
* Flags between the inputs of ``warc``, ``wpt`` and ``wpt lint`` (``wpt t.xml --items a.html``)
  were "unrecognized arguments": argparse took the inputs before the first flag only.
* ``stream-mf2 warc page.html`` said only "no WARC record found"; it now names the command that
  reads an HTML page, as the page command names ``warc`` for an archive. The page command given
  several pages says it reads one.
* A named pipe given as the page to the page command was parsed as an empty document when
  nothing was written to it (a regular file or standard input of no bytes is an error): it is
  the same error now. ``tokens`` and ``tree`` gave neither that error nor the page command's
  warning for an unknown ``--encoding`` label: they give both.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from stream_mf2.core.reassemble import reassemble
from stream_mf2.events import ItemEvent
from tests.support.cli import assert_user_error, lines, run_cli
from tests.support.suites import REPO
from tests.support.warc_records import response, write_archive

HOME = "https://ada.example/"

# A WordPress-like home page: one h-feed wrapping the page, a site h-card, a few h-entries,
# enough of them (past the 64 children held for a late <base>) for streaming to show.
ENTRIES = "\n".join(
    f'<article class="h-entry post-{i}" id="post-{i}"><h2 class="entry-title p-name"><a class="u-url" '
    f'href="/2026/11/{i:02d}/note-{i}/">Note {i}</a></h2><time class="dt-published" '
    f'datetime="2026-11-{1 + i % 28:02d}T09:00:00Z">{i} Nov</time>'
    f'<div class="e-content"><p>Entry {i} body, caf\u00e9.</p></div></article>'
    for i in range(70)
)
BLOG = f"""<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><title>Ada's notes</title>
<link rel="webmention" href="https://ada.example/webmention"></head>
<body class="home blog">
<div id="page" class="h-feed"><header class="h-card p-author"><a class="u-url p-name" href="/">Ada</a></header>
<h1 id="site-title" class="p-name">Ada's notes</h1>
{ENTRIES}
</div></body></html>
""".encode()

TEMPLATE = """<?xml version="1.0" encoding="UTF-8"?>
<ow:wpt xmlns:ow="http://www.omfica.org/schemas/ow/0.9" ow:host="https://ada.example">
  <ow:template ow:name="Home" ow:url="https://ada.example/" ow:ontology="blog">
    <ow:block ow:xpath='//*[@id="site-title"]'>blog.title</ow:block>
  </ow:template>
  <ow:ontology ow:name="blog"><ow:concept ow:name="blog"><ow:has>title</ow:has></ow:concept></ow:ontology>
</ow:wpt>
"""


@pytest.fixture
def site(tmp_path: Path) -> dict[str, Path]:
    pytest.importorskip("defusedxml")
    (tmp_path / "home.html").write_bytes(BLOG)
    (tmp_path / "site.xml").write_text(TEMPLATE, "utf-8")
    crawl = tmp_path / "crawl.warc.gz"
    html = [("Content-Type", "text/html; charset=utf-8")]
    write_archive(crawl, [response(HOME, BLOG, html, html=BLOG, charset="utf-8")], compress=True)
    return {"page": tmp_path / "home.html", "template": tmp_path / "site.xml", "crawl": crawl}


def _ok(r: Any) -> list[dict[str, Any]]:
    assert r.returncode == 0, r.stderr.decode()
    return lines(r.stdout)


def _whole(item_lines: list[dict[str, Any]]) -> list[Any]:
    """The top-level items the item lines make, streamed children put back in their containers."""
    return reassemble(
        [ItemEvent(x["item"], tuple(x.get("path", ())), x.get("children-streamed", 0)) for x in item_lines]
    )


# --- 1. wpt --items --stream-children ----------------------------------------------------------


def test_wpt_items_stream_children_over_a_page(site: dict[str, Path]) -> None:
    base = ("wpt", str(site["template"]), str(site["page"]), "--url", HOME, "--items")
    plain = _ok(run_cli(*base))
    streamed = _ok(run_cli(*base, "--stream-children"))
    # the children came first, each with its path, and the container says how many it had
    items = [x for x in streamed if x["kind"] == "item"]
    *children, container = items
    assert children and all(x["path"][0] == 0 for x in children)
    assert container["children-streamed"] == len(children) and "path" not in container
    # the same WPT lines, and the same items once put back together
    assert [x for x in streamed if x["kind"] == "wpt"] == [x for x in plain if x["kind"] == "wpt"]
    assert _whole(items) == [x["item"] for x in plain if x["kind"] == "item"]
    # the item lines of 'stream-mf2 --jsonl --stream-children', each with its source
    page = _ok(run_cli(str(site["page"]), "--url", HOME, "--jsonl", "--stream-children"))
    assert all(x["source"] == str(site["page"]) for x in items)
    assert [x for x in page if x["kind"] == "item"] == [{k: v for k, v in x.items() if k != "source"} for x in items]


def test_wpt_items_stream_children_over_a_warc_archive(site: dict[str, Path]) -> None:
    base = ("wpt", str(site["template"]), str(site["crawl"]), "--items")
    plain = _ok(run_cli(*base))
    streamed = _ok(run_cli(*base, "--stream-children=h-feed"))
    warc = _ok(run_cli("warc", str(site["crawl"]), "--stream-children=h-feed"))
    assert [x for x in streamed if x["kind"] == "item"] == [x for x in warc if x["kind"] == "item"]
    assert [x for x in streamed if x["kind"] == "wpt"] == [x for x in plain if x["kind"] == "wpt"]
    *children, container = [x for x in streamed if x["kind"] == "item"]
    assert children and container["children-streamed"] == len(children) and container["path"] == [0]


def test_wpt_stream_children_without_items_is_refused(site: dict[str, Path]) -> None:
    r = run_cli("wpt", str(site["template"]), str(site["page"]), "--url", HOME, "--stream-children")
    assert_user_error(r, 2, "--stream-children")
    assert "--items" in r.stderr.decode() and r.stdout == b""


# --- 4. empty pages and --encoding in every page command ---------------------------------------

EMPTY = "empty input (0 bytes)"


def _through_fifo(tmp_path: Path, args: tuple[str, ...], data: bytes) -> subprocess.CompletedProcess[bytes]:
    """Run ``stream-mf2 ARGS FIFO`` with ``data`` written into a named pipe (the writer's open
    returns once the command has opened the pipe: no waiting on time)."""
    fifo = tmp_path / "page.fifo"
    os.mkfifo(fifo)
    proc = subprocess.Popen(
        [sys.executable, "-m", "stream_mf2", *args, str(fifo)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        cwd=REPO,
    )
    with open(fifo, "wb") as w:
        w.write(data)
    out, err = proc.communicate(timeout=120)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
@pytest.mark.parametrize("args", [(), ("--jsonl",), ("tokens",), ("tree",)], ids=["json", "jsonl", "tokens", "tree"])
def test_an_empty_named_pipe_is_an_empty_page_error(tmp_path: Path, args: tuple[str, ...]) -> None:
    r = _through_fifo(tmp_path, args, b"")
    assert_user_error(r, 1, EMPTY)
    if args == ("--jsonl",):
        assert [x["kind"] for x in lines(r.stdout)] == ["error"]
    else:
        assert r.stdout == b""


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_named_pipe_with_a_page_is_read(tmp_path: Path) -> None:
    r = _through_fifo(tmp_path, ("--url", HOME), BLOG)
    assert r.returncode == 0, r.stderr.decode()
    assert json.loads(r.stdout) == json.loads(run_cli("-", "--url", HOME, stdin=BLOG).stdout)


@pytest.mark.parametrize("command", ["tokens", "tree"])
def test_debug_commands_refuse_an_empty_file_and_standard_input(tmp_path: Path, command: str) -> None:
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    assert_user_error(run_cli(command, str(empty)), 1, f"{empty}: {EMPTY}")
    assert_user_error(run_cli(command, "-", stdin=b""), 1, f"<stdin>: {EMPTY}")
    # (the page command says the same)
    assert_user_error(run_cli(str(empty)), 1, f"{empty}: {EMPTY}")


@pytest.mark.parametrize("command", ["tokens", "tree"])
def test_debug_commands_warn_of_an_unknown_encoding_as_the_page_command(tmp_path: Path, command: str) -> None:
    page = tmp_path / "home.html"
    page.write_bytes(BLOG)
    warning = "warning: unknown encoding label 'latin-9x', ignored"
    assert warning in run_cli(str(page), "--encoding", "latin-9x").stderr.decode()
    r = run_cli(command, str(page), "--encoding", "latin-9x")
    assert r.returncode == 0 and warning in r.stderr.decode()
    # ignored: the output is that of no --encoding
    assert r.stdout == run_cli(command, str(page)).stdout


# --- 2. -o of the page command, and the same output names in every command --------------------


@pytest.fixture
def page(tmp_path: Path) -> Path:
    path = tmp_path / "home.html"
    path.write_bytes(BLOG)
    return path


@pytest.mark.parametrize("pretty", [(), ("--pretty",)], ids=["compact", "pretty"])
def test_page_output_json_file_is_the_standard_output(page: Path, tmp_path: Path, pretty: tuple[str, ...]) -> None:
    out = tmp_path / "home.json"
    r = run_cli(str(page), "--url", HOME, *pretty, "-o", str(out))
    assert r.returncode == 0 and r.stdout == b"", r.stderr.decode()
    assert out.read_bytes() == run_cli(str(page), "--url", HOME, *pretty).stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home.html", "home.json"]  # no .partial, no .lock


@pytest.mark.parametrize("name", ["home.jsonl", "home.ndjson", "home.jsonl.gz", "HOME.JSONL"])
def test_page_output_jsonl_name_writes_json_lines(page: Path, tmp_path: Path, name: str) -> None:
    out = tmp_path / name
    want = run_cli(str(page), "--url", HOME, "--jsonl", "--stream-children").stdout
    # the name says JSON Lines: --jsonl may be left out (and --stream-children then goes with it)
    r = run_cli(str(page), "--url", HOME, "--stream-children", "-o", str(out))
    assert r.returncode == 0, r.stderr.decode()
    data = out.read_bytes()
    assert (gzip.decompress(data) if name.endswith(".gz") else data) == want
    r = run_cli(str(page), "--url", HOME, "--jsonl", "-o", str(out))
    assert r.returncode == 0, r.stderr.decode()


def test_page_output_zst(page: Path, tmp_path: Path) -> None:
    zstandard = pytest.importorskip("zstandard")
    out = tmp_path / "home.jsonl.zst"
    assert run_cli(str(page), "-o", str(out)).returncode == 0
    data = zstandard.ZstdDecompressor().stream_reader(out.read_bytes()).read()
    assert data == run_cli(str(page), "--jsonl").stdout


def test_page_output_failed_page(tmp_path: Path) -> None:
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    # JSON: the earlier file is left as it was, nothing half-written beside it
    out = tmp_path / "page.json"
    out.write_text("earlier\n")
    assert_user_error(run_cli(str(empty), "-o", str(out)), 1, EMPTY)
    assert out.read_text() == "earlier\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.html", "page.json"]
    # JSON Lines: the lines end with the error line, as on standard output
    lines_out = tmp_path / "page.jsonl"
    assert_user_error(run_cli(str(empty), "-o", str(lines_out)), 1, EMPTY)
    assert [x["kind"] for x in lines(lines_out.read_bytes())] == ["error"]
    assert lines_out.read_bytes() == run_cli(str(empty), "--jsonl").stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_page_output_named_pipe_is_written_in_place(page: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    proc = subprocess.Popen(
        [sys.executable, "-m", "stream_mf2", str(page), "--jsonl", "-o", str(fifo)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        cwd=REPO,
    )
    with open(fifo, "rb") as f:  # (returns once the command opened the pipe to write)
        data = f.read()
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err.decode()
    assert data == run_cli(str(page), "--jsonl").stdout
    assert fifo.exists() and not Path(f"{fifo}.partial").exists()


def test_page_output_names_refused(page: Path, tmp_path: Path) -> None:
    parquet = run_cli(str(page), "-o", str(tmp_path / "x.parquet"))
    assert_user_error(parquet, 2, "wpt --items")
    assert_user_error(run_cli(str(page), "--jsonl", "-o", str(tmp_path / "x.json")), 2, "names a JSON file")
    assert_user_error(run_cli(str(page), "--pretty", "-o", str(tmp_path / "x.jsonl")), 2, "--pretty")
    # as warc's and wpt's: a folder, a compression no writer has, a folder that is not there
    assert_user_error(run_cli(str(page), "-o", str(tmp_path)), 1, "it is a directory")
    assert_user_error(run_cli(str(page), "-o", str(tmp_path / "x.jsonl.bz2")), 1, ".bz2 compression")
    assert_user_error(run_cli(str(page), "-o", str(tmp_path / "no" / "x.json")), 1, "no folder")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home.html"]


def test_warc_and_wpt_refuse_a_json_name(site: dict[str, Path], tmp_path: Path) -> None:
    for command in (("warc", str(site["crawl"])), ("wpt", str(site["template"]), str(site["crawl"]))):
        r = run_cli(*command, "-o", str(tmp_path / "out.json"))
        assert_user_error(r, 1, "name it .jsonl")
        assert not (tmp_path / "out.json").exists()


# --- flags between inputs; the command for the input given -------------------------------------


def test_flags_between_the_inputs(site: dict[str, Path], tmp_path: Path) -> None:
    other = tmp_path / "other.html"
    other.write_bytes(BLOG.replace(b"Ada's notes", b"Grace's notes"))
    pages = (str(site["page"]), str(other))
    want = _ok(run_cli("wpt", str(site["template"]), *pages, "--url", HOME, "--items"))
    got = _ok(run_cli("wpt", str(site["template"]), "--items", pages[0], "--url", HOME, pages[1]))
    assert got == want and {x["source"] for x in got} == set(pages)
    crawls = (str(site["crawl"]), str(site["crawl"]))
    want = _ok(run_cli("warc", *crawls, "--no-progress"))
    assert _ok(run_cli("warc", crawls[0], "--no-progress", crawls[1])) == want
    lint = run_cli("wpt", "lint", str(site["template"]), "--url", HOME, pages[0])
    assert lint.returncode == run_cli("wpt", "lint", str(site["template"]), pages[0], "--url", HOME).returncode
    assert "unrecognized" not in lint.stderr.decode()


def test_an_html_page_given_to_warc_names_the_page_command(site: dict[str, Path]) -> None:
    page = str(site["page"])
    r = run_cli("warc", page, "--no-progress")
    assert_user_error(r, 4, f"it is an HTML page: read it with 'stream-mf2 {page}'")
    r = run_cli("wpt", str(site["template"]), "--warc", page, "--no-progress")
    assert_user_error(r, 4, "it is an HTML page: give HTML pages without --warc")
    # a file that is no HTML page gets no such hint
    r = run_cli("warc", str(site["template"]), "--no-progress")
    assert r.returncode == 4 and "HTML page" not in r.stderr.decode()


def test_the_page_command_given_several_pages_says_it_reads_one(site: dict[str, Path]) -> None:
    r = run_cli(str(site["page"]), str(site["page"]))
    assert_user_error(r, 2, "the page command reads one page, not 2")
    assert_user_error(run_cli(str(site["page"]), "--no-such-flag"), 2, "unrecognized arguments: --no-such-flag")
