"""``stream-mf2 xpath URL`` reads the page from a real local server, as its help promises."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.servers import range_server

pytestmark = pytest.mark.network_local  # servers on 127.0.0.1


def test_xpath_of_a_fetched_page(tmp_path: Path) -> None:
    root = tmp_path / "www"
    root.mkdir()
    (root / "page.html").write_text(
        "<!doctype html><body><div id=main><p>Pastel Blues</p><table><tr><td id=c>x</td></tr></table></div>",
        encoding="utf-8",
    )
    paths = []
    with range_server(root) as server:
        for flags in (["--text", "Pastel Blues"], ["--id", "c"]):
            r = subprocess.run(
                [sys.executable, "-m", "stream_mf2", "xpath", server.url("page.html"), *flags],
                capture_output=True,
                text=True,
                check=False,
                timeout=60,
            )
            assert r.returncode == 0, r.stderr
            paths += [json.loads(line)["xpath"] for line in r.stdout.splitlines()]
    # full paths, tbody inserted as the DOM has it
    assert paths == ["/html[1]/body[1]/div[1]/p[1]", "/html[1]/body[1]/div[1]/table[1]/tbody[1]/tr[1]/td[1]"]
