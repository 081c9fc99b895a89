"""The code base stays lint- and type-clean: ruff and mypy run as part of the tests."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from tests.suites import REPO


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=REPO, capture_output=True, text=True, check=False)


def test_ruff_clean() -> None:
    if shutil.which("ruff") is None:
        pytest.fail("ruff is not installed; install the project with '.[test]'", pytrace=False)
    r = _run(["ruff", "check", "stream_mf2", "tests", "bench"])
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_strict_clean() -> None:
    r = _run([sys.executable, "-m", "mypy", "stream_mf2"])
    assert r.returncode == 0, r.stdout + r.stderr
