"""Where the shared conformance suites live, and what to do when they are missing.

The suites are never copied into the project. They are looked up in
``$STREAM_MF2_TESTSUITES`` or, by default, ``../shared/testsuites`` next to the
checkout. In a user's clone without them the suite tests skip with a reason;
in CI (``CI=true``) a missing suite is a failure, so a broken CI layout cannot
pass by skipping everything.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
ENV_VAR = "STREAM_MF2_TESTSUITES"


def suites_root() -> Path:
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).resolve()
    return (REPO.parent / "shared" / "testsuites").resolve()


def suite_dir(name: str) -> Path | None:
    """Return ``<root>/<name>`` if it exists, else ``None``."""
    path = suites_root() / name
    return path if path.is_dir() else None


def require_suite(name: str) -> Path:
    """Return the suite directory, or skip (fail under CI) with a clear reason."""
    path = suite_dir(name)
    if path is not None:
        return path
    reason = (
        f"conformance suite {name!r} not found under {suites_root()} "
        f"(set {ENV_VAR} to the folder that holds html5lib-tests/ and microformats-tests/)"
    )
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)
