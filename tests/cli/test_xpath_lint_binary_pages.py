"""``stream-mf2 xpath`` and ``stream-mf2 wpt lint`` refuse a page that is binary data.

Both read a whole page themselves (not through the parser's sources), so a WARC archive or an
image given as the page was decoded as text: ``xpath`` found nothing and exited 1 without a word,
``lint`` warned that every block "never matches on crawl.warc.gz". The page command says
``not HTML (binary data)``; these two now say the same.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import assert_user_error, run_cli
from tests.support.suites import REPO
from tests.support.warc_records import html_archive

pytest.importorskip("defusedxml")
pytest.importorskip("regex")

FIX = REPO / "fixtures" / "wpt"


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    """A crawl of the README's record page: what a user might pass by mistake."""
    return html_archive(tmp_path / "crawl.warc.gz", [(FIX / "readme.html").read_bytes()], uri="https://records.example/ar-{}")


def test_xpath_refuses_an_archive(archive: Path) -> None:
    r = run_cli("xpath", str(archive), "--text", "Pastel Blues")
    assert_user_error(r, 1, f"{archive}: not HTML (binary data)")
    assert r.stdout == b""


def test_xpath_refuses_binary_stdin(archive: Path) -> None:
    r = run_cli("xpath", "-", "--id", "albums", stdin=archive.read_bytes())
    assert_user_error(r, 1, "<stdin>: not HTML (binary data)")


def test_xpath_still_reads_the_page_itself() -> None:
    r = run_cli("xpath", "-", "--text", "Pastel Blues", stdin=(FIX / "readme.html").read_bytes())
    assert r.returncode == 0, r.stderr.decode()
    assert b"/tbody[1]/tr[2]/td[1]" in r.stdout


def test_lint_refuses_an_archive_as_the_page(archive: Path) -> None:
    r = run_cli("wpt", "lint", str(FIX / "readme.xml"), str(archive))
    assert_user_error(r, 1, f"{archive}: not HTML (binary data)")
    assert b"never matches" not in r.stdout


def test_xpath_says_when_no_element_matched() -> None:
    """Exit status 1 is "an error, printed as one line on standard error" (docs/reference/errors.md)."""
    r = run_cli("xpath", str(FIX / "readme.html"), "--id", "nope", "--text", "Pastel Blues")
    assert_user_error(r, 1, "no element with id 'nope' and text 'Pastel Blues'")
    assert r.stdout == b""
    r = run_cli("xpath", str(FIX / "readme.html"), "--text", "Nothing here")
    assert_user_error(r, 1, "no element with text 'Nothing here'")
