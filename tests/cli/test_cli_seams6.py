"""Seams of the command line a new user hits (seams6), each a test that failed before its fix.

* ``wpt --items`` had no ``--stream-children`` (``stream-mf2 --jsonl`` and ``warc`` have it):
  it now streams a container's children as item lines, over pages and WARC archives, with the
  same lines as those commands, and the same WPT lines as without it.
* A named pipe given as the page to the page command was parsed as an empty document when
  nothing was written to it (a regular file or standard input of no bytes is an error): it is
  the same error now. ``tokens`` and ``tree`` gave neither that error nor the page command's
  warning for an unknown ``--encoding`` label: they give both.
"""

from __future__ import annotations

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
