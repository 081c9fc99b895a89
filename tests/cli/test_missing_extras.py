"""A feature whose extra is not installed says so in one line with the install command.

Each case runs the command in a fresh interpreter in which the extra's packages
cannot be imported (``sys.modules[name] = None``, as if they were not installed),
and expects exit status 1 (4 for an input that cannot be read at all), the
``pip install 'stream-mf2[EXTRA]'`` hint on standard error, and no traceback.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.warc_records import html_archive

ROOT = Path(__file__).resolve().parents[2]


def _run(blocked: list[str], args: list[str]) -> subprocess.CompletedProcess[str]:
    code = (
        "import sys\n"
        f"for name in {blocked!r}: sys.modules[name] = None\n"
        "from stream_mf2.cli import main\n"
        f"sys.exit(main({args!r}))\n"
    )
    # from the project root: the package imported is this checkout's (or, in CI's compiled
    # stage, the installed build its stream_mf2/ points to)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False)


@pytest.fixture
def warc(tmp_path: Path) -> str:
    return str(html_archive(tmp_path / "one.warc.gz", [b"<div class=h-card><p class=p-name>Ann</p></div>"]))


CASES = [
    ("wpt", ["defusedxml", "defusedxml.ElementTree"], lambda warc: ["wpt", str(ROOT / "fixtures/wpt/artist.xml"), str(ROOT / "fixtures/wpt/artist.html")], 1),
    ("parquet", ["pyarrow", "pyarrow.parquet"], lambda warc: ["warc", warc, "-o", f"{warc}.parquet", "--no-progress"], 1),
    ("zstd", ["zstandard"], lambda warc: ["warc", warc, "-o", f"{warc}.jsonl.zst", "--no-progress"], 1),
    ("dask", ["distributed", "dask.distributed"], lambda warc: ["warc", warc, "--dask", "local:1", "--output-dir", f"{warc}.parts", "--no-progress"], 1),
    ("remote", ["fsspec"], lambda warc: ["warc", "s3://bucket/x.warc.gz", "--no-progress"], 4),
]  # fmt: skip


@pytest.mark.parametrize(("extra", "blocked", "args", "status"), CASES, ids=[c[0] for c in CASES])
def test_missing_extra_is_one_line_with_the_install_command(
    extra: str, blocked: list[str], args: Callable[[str], list[str]], status: int, warc: str
) -> None:
    r = _run(blocked, args(warc))
    assert r.returncode == status, r.stderr
    assert f"pip install 'stream-mf2[{extra}]'" in r.stderr
    assert "Traceback" not in r.stderr
