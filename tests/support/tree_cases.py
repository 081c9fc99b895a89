"""The html5lib-tests tree-construction cases, loaded once for every test that walks them.

:data:`CASES` is empty when the suite is not found (``tests.support.suites``): a test over
it then has no cases, and ``tests/conformance/test_html5lib_tree_construction.py`` reports
the missing suite (a skip locally, a failure in CI). A test that walks every case in a loop
takes them from :func:`require_cases`, which reports the missing suite the same way instead of
walking nothing.
"""

from __future__ import annotations

from pathlib import Path

from stream_mf2.html.testing.tree import TreeTest, read_tree_tests
from tests.support.suites import require_suite, suite_dir


def load_tree_cases() -> list[TreeTest]:
    """Every tree-construction case that applies with scripting disabled."""
    root = suite_dir("html5lib-tests")
    if root is None:
        return []
    cases: list[TreeTest] = []
    for path in sorted(Path(root, "tree-construction").glob("*.dat")):
        for case in read_tree_tests(path.read_bytes(), path.name):
            if case.scripting != "on":
                cases.append(case)
    return cases


CASES = load_tree_cases()


def require_cases() -> list[TreeTest]:
    """:data:`CASES`, or skip (fail under CI) with the reason when the suite is not found."""
    require_suite("html5lib-tests")
    return CASES
