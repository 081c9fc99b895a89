"""The official microformats test suite, parsed with this project's HTML parser.

Every case is a test: one per file for microformats-v2, -mixed and -v1, one
per top-level item for microformats-v2-unit (each of its files holds many
independent items), the latter with both text options since that suite is
written to pass with either textContent algorithm. Nothing is marked as expected to fail: a case that fails
shows up as a failure with its differences.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import orjson
import pytest

from stream_mf2.mf2 import Options, parse_dom
from tests.mf2_suite import SUITES, UNIT_SUITE, Case, base_url, canon, diff, item_key, iter_cases, parse_html, run_case
from tests.suites import require_suite, suite_dir

SUITE = "microformats-tests"


def _cases() -> list[Any]:
    root = suite_dir(SUITE)
    if root is None:
        return [pytest.param(None, id="suite-missing")]
    params: list[Any] = []
    for case in iter_cases(root, SUITES):
        if case.suite == UNIT_SUITE:
            # written to pass with either textContent algorithm: run both
            expected = orjson.loads(case.expected.read_bytes())
            for text in ("spec", "normalized"):
                for n, item in enumerate(expected["items"]):
                    params.append(pytest.param((case, n, text), id=f"{case.id}#{item_key(item)}[{text}]"))
        else:
            params.append(pytest.param((case, None, "spec"), id=case.id))
    return params


@lru_cache(maxsize=64)
def _parsed(html: Path, suite: str, text: Literal["spec", "normalized"] = "spec") -> dict[str, Any]:
    base = base_url(suite)
    document = parse_html(html.read_text(encoding="utf-8"))
    result: dict[str, Any] = canon(parse_dom(document, base, Options(text=text)), base)
    return result


@pytest.mark.parametrize("param", _cases())
def test_case(param: tuple[Case, int | None, Literal["spec", "normalized"]] | None) -> None:
    require_suite(SUITE)
    assert param is not None
    case, index, text = param
    if index is None:
        result = run_case(case, parse_html)
        assert result.passed, "\n".join(result.diffs)
        return
    base = base_url(case.suite)
    expected = canon(orjson.loads(case.expected.read_bytes()), base)
    exp_item = expected["items"][index]
    key = item_key(exp_item)
    same_type = [i for i in expected["items"][:index] if item_key(i) == key]
    actual = [i for i in _parsed(case.html, case.suite, text)["items"] if item_key(i) == key]
    assert len(actual) > len(same_type), f"item {key} not found"
    differences = diff(exp_item, actual[len(same_type)], f"$.items[{index}]")
    assert not differences, "\n".join(differences)


def test_unit_suite_rels_and_item_count() -> None:
    """Per-item tests cannot see stray items or rels; check them per v2-unit file."""
    root = require_suite(SUITE)
    for case in iter_cases(root, (UNIT_SUITE,)):
        base = base_url(case.suite)
        expected = canon(orjson.loads(case.expected.read_bytes()), base)
        actual = _parsed(case.html, case.suite)
        assert sorted(item_key(i) for i in actual["items"]) == sorted(item_key(i) for i in expected["items"]), case.id
        assert actual["rels"] == expected["rels"], case.id
        assert actual["rel-urls"] == expected["rel-urls"], case.id
