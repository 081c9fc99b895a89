"""The microdata fuzz target (``python -m tests.fuzz --targets microdata``) on a fixed seed."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import seed as hypothesis_seed

from tests.fuzz import microdata as target
from tests.fuzz.runner import TARGETS


def test_the_target_is_registered() -> None:
    assert TARGETS["microdata"].check is target.check


@hypothesis_seed(20261207)
@settings(max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(target.strategy())
def test_microdata_soup_is_chunking_invariant(case: Any) -> None:
    target.check(case)


def test_a_page_waiting_for_a_target_in_a_table_passes() -> None:
    page = b'<div itemscope itemref="i1"><b itemprop="name">x</b></div><table><p id="i1" itemprop="a">y'
    target.check((page, "extruct", 3, 17))
    target.check((page, "whatwg", 4, 9))
