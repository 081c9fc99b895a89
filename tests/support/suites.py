"""Where the shared conformance suites live, and what to do when they are missing.

The suites are never copied into the project. They are looked up in
``$STREAM_MF2_TESTSUITES`` or, by default, ``../shared/testsuites`` next to the
checkout. In a user's clone without them the suite tests skip with a reason;
in CI (``CI=true``) a missing suite is a failure, so a broken CI layout cannot
pass by skipping everything.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

#: The checkout: the folder that holds ``tests/`` (this file is ``tests/support/suites.py``).
REPO = Path(__file__).resolve().parents[2]
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


MF2_SUITE = "microformats-tests"

#: Fixture pages larger than this (the big ``fixtures/bench`` pages) make a whole-page
#: test ``slow``: streamed in every chunking, each takes seconds.
SLOW_PAGE_BYTES = 500_000


def mf2_base_url(path: Path) -> str:
    """The base URL an official microformats case assumes (see the suite's SOURCE.txt)."""
    return "http://example.test" if "microformats-v2-unit" in path.parts else "http://example.com"


def mf2_pages() -> Iterator[Any]:
    """``pytest.param(path, base_url)`` for every official suite page with expected JSON, then
    every ``fixtures/**/*.html``: the pages the whole-pipeline invariants are checked on."""
    root = suite_dir(MF2_SUITE)
    if root is not None:
        for html in sorted((root / "tests").rglob("*.html")):
            if html.with_suffix(".json").exists():
                yield pytest.param(html, mf2_base_url(html), id=str(html.relative_to(root / "tests")))
    for html in sorted((REPO / "fixtures").rglob("*.html")):
        marks = [pytest.mark.slow] if html.stat().st_size > SLOW_PAGE_BYTES else []
        yield pytest.param(
            html, "https://fixture.example/", id="fixtures/" + str(html.relative_to(REPO / "fixtures")), marks=marks
        )
