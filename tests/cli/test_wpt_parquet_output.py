"""``stream-mf2 wpt TEMPLATE PAGE -o X.parquet`` without ``--items`` writes the WPT tables.

The Parquet writer used to count item rows in every row-group decision and so needed
an items table, which a WPT run without ``--items`` does not have.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_wpt_pages_to_parquet_without_items(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "x.parquet"
    r = subprocess.run(
        [
            sys.executable, "-m", "stream_mf2", "wpt",
            str(ROOT / "fixtures/wpt/artist.xml"), str(ROOT / "fixtures/wpt/artist.html"),
            "--url", "http://music.yahoo.com/ar-123---Muddy-Waters", "-o", str(out),
        ],
        capture_output=True,
        text=True,
        check=False,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    rows = pq.read_table(tmp_path / "x.wpt.parquet").to_pylist()
    assert [row["template"] for row in rows] == ["Artist Page on Yahoo! Music"]
    assert '"matches":[{' in rows[0]["blocks"]
    assert not (tmp_path / "x.parquet").exists()  # no items table without --items
