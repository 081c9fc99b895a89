"""The compiled build gives byte-identical output to the pure-Python source.

Runs only against the compiled build (CI's second run): the same pages and
option sets (``tests/support/build_outputs.py``) are parsed in process by the compiled
package and in a subprocess by the pure source, a copy of the package's ``.py``
files with no compiled module beside them.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import stream_mf2
from tests.support.build_outputs import write_outputs
from tests.support.suites import MF2_SUITE, REPO, require_suite

pytestmark = [
    pytest.mark.compiled_only,
    pytest.mark.skipif(not stream_mf2.COMPILED, reason="compares the compiled build with the pure one"),
]


def test_compiled_output_is_byte_identical_to_pure(tmp_path: Path) -> None:
    require_suite(MF2_SUITE)
    package = Path(stream_mf2.__file__).resolve().parent
    pure = tmp_path / "pure"
    shutil.copytree(package, pure / "stream_mf2", ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(pure), str(REPO)])}
    out = tmp_path / "pure.jsonl"
    r = subprocess.run(
        [sys.executable, "-m", "tests.support.build_outputs", str(out)], cwd=pure, env=env, capture_output=True, text=True,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "pure", "the subprocess did not run the pure source"
    compiled = io.BytesIO()
    lines = write_outputs(compiled)
    expected = out.read_bytes().splitlines()
    got = compiled.getvalue().splitlines()
    assert len(got) == len(expected) == lines
    for mine, theirs in zip(got, expected, strict=True):
        assert mine == theirs, mine[:200]
