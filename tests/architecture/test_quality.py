"""The code base stays lint- and type-clean: ruff and mypy run as part of the tests.

Both run through this interpreter's own environment (``python -m ruff``,
``python -m mypy``), never from ``PATH``: a fresh clone tested with
``.venv/bin/python -m pytest`` must use the tools the project installed, and a
tool missing from the install must fail here, not be found elsewhere.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from tests.support.suites import REPO


def _run_module(module: str, args: list[str]) -> subprocess.CompletedProcess[str]:
    if importlib.util.find_spec(module) is None:
        pytest.fail(f"{module} is not installed in {sys.prefix}; install the project with '.[test]'", pytrace=False)
    return subprocess.run(
        [sys.executable, "-m", module, *args], cwd=REPO, capture_output=True, text=True, check=False
    )


def test_ruff_clean() -> None:
    r = _run_module("ruff", ["check", "stream_mf2", "tests", "bench"])
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.slow
def test_mypy_strict_clean() -> None:
    r = _run_module("mypy", ["stream_mf2"])
    assert r.returncode == 0, r.stdout + r.stderr
