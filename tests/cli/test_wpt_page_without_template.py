"""``stream-mf2 wpt TEMPLATE PAGE`` where no template is for the page's URL says so.

A WARC crawl has many records no template is for, and they are skipped quietly. A page named on
the command line is another matter: fetched from a mirror or a local copy whose URL is not on the
template's ``ow:host``, it gave no line, no message and exit status 0. It now gets a warning, as
``stream-mf2 wpt lint`` gives, naming ``--template`` (which applies a template whatever the URL).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.support.cli import run_cli
from tests.support.servers import range_server
from tests.support.suites import REPO

pytest.importorskip("defusedxml")
pytest.importorskip("regex")

FIX = REPO / "fixtures" / "wpt"


@pytest.mark.network_local
def test_a_fetched_page_on_another_host_is_warned_about(tmp_path: Path) -> None:
    root = tmp_path / "www"
    root.mkdir()
    shutil.copy(FIX / "readme.html", root / "ar-42.html")
    with range_server(root) as server:
        url = server.url("ar-42.html")
        r = run_cli("wpt", str(FIX / "readme.xml"), url)
        assert r.returncode == 0, r.stderr.decode()
        assert r.stdout == b""
        assert f"warning: no template applies to {url}" in r.stderr.decode()
        assert "--template" in r.stderr.decode()
        # the remedy the warning names works on the same page
        r = run_cli("wpt", str(FIX / "readme.xml"), url, "--template", "Artist")
        assert r.returncode == 0 and "no template applies" not in r.stderr.decode()
        assert [json.loads(x)["template"] for x in r.stdout.splitlines()] == ["Artist"]


def test_a_file_whose_url_is_on_another_host_is_warned_about() -> None:
    page = FIX / "readme.html"
    r = run_cli("wpt", str(FIX / "readme.xml"), str(page), str(page), "--url", "https://mirror.example/ar-42", "--records")
    assert r.returncode == 0
    assert r.stderr.decode().count(f"no template applies to {page} at 'https://mirror.example/ar-42'") == 2


def test_no_warning_when_a_template_applies() -> None:
    r = run_cli("wpt", str(FIX / "readme.xml"), str(FIX / "readme.html"), "--url", "https://records.example/ar-42", "--matches")
    assert r.returncode == 0 and r.stdout
    assert b"no template applies" not in r.stderr
