"""The one-pass option check accepts only what the complete checks accept.

``Parser()`` checks only the values it is given that differ from the defaults; a value of the
wrong type that equals a default, and a bad value of every limit and switch, are still
rejected.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from stream_mf2 import Parser
from stream_mf2.core import options as _options
from stream_mf2.core.options import _BOOLS, _LIMITS, OPTION_NAMES

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


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"detect_utf8": 1}, TypeError),
        ({"max_token_chars": float(16 * 1024 * 1024)}, TypeError),
        ({"max_reparse_bytes": -1}, ValueError),
        ({"max_prefix_nodes": -1}, ValueError),
        ({"default_encoding": b"windows-1252"}, TypeError),
        ({"text": "Spec"}, ValueError),
    ],
)
def test_parser_checks_values_even_when_equal_to_a_default(options: dict[str, object], error: type) -> None:
    """The Parser checks only the values it was given other than its defaults; one that
    equals a default but is of the wrong type is still given, and still rejected."""
    wrong: Any = options  # (deliberately not ParseOptions)
    with pytest.raises(error):
        Parser("http://example.com/", **wrong)


def test_parser_rejects_a_bad_value_of_every_limit_and_switch() -> None:
    """Every checked option reaches the check from Parser() too (a new option must be
    added to Parser's list of values that differ from the defaults)."""
    for name, _nullable, least in _LIMITS:
        bad: Any = {name: least - 1}
        with pytest.raises(ValueError, match=name):
            Parser("http://example.com/", **bad)
    for name in _BOOLS:
        wrong: Any = {name: "yes"}
        with pytest.raises(TypeError):
            Parser("http://example.com/", **wrong)
