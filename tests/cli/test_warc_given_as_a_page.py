"""A WARC archive given where a page is expected names the command that reads it.

``stream-mf2 crawl.warc.gz`` (the page command) and ``stream-mf2 xpath crawl.warc.gz`` said
``not HTML (binary data)`` and stopped there; a new user had to guess that archives go to
``stream-mf2 warc`` (or ``stream-mf2 wpt TEMPLATE crawl.warc.gz``). The error now says so.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import assert_user_error, run_cli
from tests.support.suites import REPO
from tests.support.warc_records import html_archive


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    return html_archive(tmp_path / "crawl.warc.gz", [(REPO / "fixtures" / "example.html").read_bytes()])


def test_page_command_points_to_warc(archive: Path) -> None:
    for flags in ([], ["--jsonl"]):
        r = run_cli(*flags, str(archive))
        assert_user_error(r, 1, f"{archive}: not HTML (binary data)")
        assert f"stream-mf2 warc {archive}" in r.stderr.decode()


def test_the_hint_reads_the_archive(archive: Path) -> None:
    r = run_cli("warc", str(archive), "--no-progress")
    assert r.returncode == 0 and b'"kind":"item"' in r.stdout


def test_xpath_points_to_wpt(archive: Path) -> None:
    pytest.importorskip("defusedxml")
    r = run_cli("xpath", str(archive), "--id", "x")
    assert_user_error(r, 1, f"{archive}: not HTML (binary data)")
    assert f"stream-mf2 wpt TEMPLATE.xml {archive}" in r.stderr.decode()


def test_an_uncompressed_html_file_named_like_an_archive_is_a_page(tmp_path: Path) -> None:
    """The name alone decides nothing: only binary content gets the hint."""
    page = tmp_path / "odd.warc"
    page.write_bytes(b'<p class="h-card">Jane</p>')
    r = run_cli(str(page))
    assert r.returncode == 0 and b'"h-card"' in r.stdout


@pytest.mark.network_local
def test_an_archive_url_points_to_the_command_too(archive: Path) -> None:
    """Fetched, an archive is "not HTML (Content-Type application/gzip)": the hint was only for files."""
    from tests.support.servers import range_server

    with range_server(archive.parent) as server:
        server.headers["crawl.warc.gz"] = {"Content-Type": "application/gzip"}
        url = server.url("crawl.warc.gz")
        r = run_cli(url)
        assert_user_error(r, 1, f"{url}: not HTML (Content-Type application/gzip)")
        assert f"a WARC archive is read by 'stream-mf2 warc {url}'" in r.stderr.decode()
        pytest.importorskip("defusedxml")
        r = run_cli("xpath", url, "--id", "x")
        assert_user_error(r, 1, f"a WARC archive is read by 'stream-mf2 wpt TEMPLATE.xml {url}'")
        r = run_cli("warc", url, "--no-progress")  # and the hint reads it
        assert r.returncode == 0 and b'"kind":"item"' in r.stdout
        r = run_cli(server.url("other.html"))  # not an archive's name: the message as it was
        assert "a WARC archive" not in r.stderr.decode()


def test_wpt_names_warc_for_an_archive_under_another_name(archive: Path, tmp_path: Path) -> None:
    """``wpt`` knows archives by name; one renamed (``crawl.bin``) was only "not HTML (binary data)"."""
    pytest.importorskip("defusedxml")
    renamed = tmp_path / "crawl.bin"
    renamed.write_bytes(archive.read_bytes())
    image = tmp_path / "logo.png"
    image.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    template = str(REPO / "fixtures" / "wpt" / "artist.xml")
    r = run_cli("wpt", template, str(renamed), str(image))
    assert_user_error(r, 4, f"{renamed}: not HTML (binary data); it is a WARC archive: give --warc")
    assert "logo.png: not HTML (binary data)\n" in r.stderr.decode()  # an image gets no such hint
    r = run_cli("wpt", template, str(renamed), "--warc", "--template", "Artist Page on Yahoo! Music")
    assert r.returncode == 0, r.stderr.decode()
    assert b'"kind":"wpt"' in r.stdout


def test_the_page_command_knows_a_renamed_archive_by_its_content(archive: Path, tmp_path: Path) -> None:
    renamed = tmp_path / "crawl-00001.bin"
    renamed.write_bytes(archive.read_bytes())
    for flags in ([], ["--jsonl"]):
        r = run_cli(*flags, str(renamed))
        assert_user_error(r, 1, f"it is a WARC archive: read it with 'stream-mf2 warc {renamed}'")
    r = run_cli("warc", str(renamed), "--no-progress")  # the hint reads it
    assert r.returncode == 0 and b'"kind":"item"' in r.stdout
