"""The one-pass option check accepts only what the complete checks accept."""

from __future__ import annotations

import itertools

import pytest

from stream_mf2.core import options as _options
from stream_mf2.core.options import OPTION_NAMES

VALUES: list[object] = [
    None, True, False, 0, 1, 2, -1, 10**9, 1.5, "spec", "normalized", "Spec", "", "utf-8", b"spec",
    frozenset(), frozenset({"h-x"}), {"full"}, frozenset({1}), [], object(),
]


def _complete_accepts(options: dict[str, object]) -> bool:
    try:
        _options._check_each(options, "parse")
    except (TypeError, ValueError):
        return False
    return True


@pytest.mark.parametrize("name", [*OPTION_NAMES, "unknown_option"])
def test_fast_check_never_accepts_what_the_complete_checks_reject(name: str) -> None:
    accepted = 0
    for value in VALUES:
        options = {name: value}
        if _options._all_valid(options):
            accepted += 1
            assert _complete_accepts(options), options
    if name != "unknown_option":
        assert accepted, name  # some plain value of every known option takes the fast pass
    else:
        assert not accepted


def test_fast_check_on_option_sets() -> None:
    # Pairs of options, as the parser checks its whole set at once.
    for (n1, v1), (n2, v2) in itertools.combinations(
        [(n, v) for n in ("text", "lang", "max_depth", "stream_children", "encoding") for v in VALUES[:12]], 2
    ):
        options = {n1: v1, n2: v2}
        if _options._all_valid(options):
            assert _complete_accepts(options), options
