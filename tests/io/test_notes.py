"""Notes (recoveries that changed the output) reach every front end, never only ``Parser.errors``.

* ``DocumentEnd.notes`` and ``Parser.notes`` hold them (``Parser.errors`` adds the parse
  errors when collected);
* ``parse``, ``iter_items`` and ``aiter_items`` log each as a warning of the
  ``stream_mf2`` logger, with the URL; the library installs no handler of its own.
"""

from __future__ import annotations

import logging
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import stream_mf2
from stream_mf2.events import DocumentEnd
from tests.support.suites import REPO

PAGE = "<div class=h-entry><p class=p-name>" + "x" * 500 + "</p></div>"
NOTE = "1 value(s) of item h-entry emptied past its output budget (max_item_chars=100)"
URL = "https://a.example/post"


def test_document_end_and_parser_carry_the_notes() -> None:
    parser = stream_mf2.Parser(URL, max_item_chars=100, collect_parse_errors=True)
    events = [*parser.feed_events(PAGE + "<p a='b'c>"), *parser.close_events()]  # + a tokenizer error
    end = events[-1]
    assert isinstance(end, DocumentEnd)
    assert end.notes == (NOTE,)
    assert parser.notes == [NOTE]
    assert parser.errors[0] == NOTE and len(parser.errors) > 1  # + the parse errors


def test_no_notes_is_an_empty_tuple() -> None:
    parser = stream_mf2.Parser(URL)
    end = [*parser.feed_events("<p class=h-card>A"), *parser.close_events()][-1]
    assert isinstance(end, DocumentEnd) and end.notes == ()


def test_the_library_installs_no_handler() -> None:
    # in a fresh interpreter: the command line (an application) sets one up while it runs
    code = (
        "import logging, stream_mf2\n"
        "stream_mf2.parse('<div class=h-entry><p class=p-name>' + 'x' * 500, max_item_chars=100)\n"
        "list(stream_mf2.iter_items([b'<p class=h-card>A']))\n"
        "assert logging.getLogger('stream_mf2').handlers == [], logging.getLogger('stream_mf2').handlers\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=False)
    assert r.returncode == 0, r.stderr
    assert "emptied past its output budget" in r.stderr  # Python's last-resort output of the warning


def test_the_command_line_leaves_the_logger_as_it_was(tmp_path: Path) -> None:
    from stream_mf2.cli import main

    page = tmp_path / "p.html"
    page.write_text(PAGE)
    logger = logging.getLogger("stream_mf2")
    before = (list(logger.handlers), logger.propagate)
    assert main([str(page), "--max-item-chars", "100"]) == 0
    assert (list(logger.handlers), logger.propagate) == before


@pytest.mark.parametrize("source", ["str", "bytes", "path"])
def test_parse_logs_each_note(source: str, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "p.html"
    path.write_text(PAGE)
    doc: object = {"str": PAGE, "bytes": PAGE.encode(), "path": path}[source]
    with caplog.at_level(logging.WARNING, logger="stream_mf2"):
        stream_mf2.parse(doc, URL, max_item_chars=100)
    assert [(r.name, r.levelno, r.getMessage()) for r in caplog.records] == [
        ("stream_mf2", logging.WARNING, f"{URL}: {NOTE}")
    ]


def test_iter_items_logs_each_note(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="stream_mf2"):
        items = list(stream_mf2.iter_items([PAGE.encode()], URL, max_item_chars=100))
    assert len(items) == 1
    assert [r.getMessage() for r in caplog.records] == [f"{URL}: {NOTE}"]


async def test_aiter_items_logs_each_note(caplog: pytest.LogCaptureFixture) -> None:
    async def chunks() -> AsyncIterator[bytes]:
        yield PAGE.encode()

    with caplog.at_level(logging.WARNING, logger="stream_mf2"):
        items = [item async for item in stream_mf2.aiter_items(chunks(), URL, max_item_chars=100)]
    assert len(items) == 1
    assert [r.getMessage() for r in caplog.records] == [f"{URL}: {NOTE}"]
