"""JSON output stays byte-identical to orjson's, also past orjson's nesting limit."""

from __future__ import annotations

import subprocess
import sys

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from stream_mf2.io.json_output import _dumps_deep, dumps

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=30,
)


@given(json_values)
@pytest.mark.parametrize("indent", [False, True])
def test_deep_encoder_matches_orjson(indent: bool, value: object) -> None:
    option = orjson.OPT_INDENT_2 if indent else 0
    assert _dumps_deep(value, indent) == orjson.dumps(value, option=option)


@pytest.mark.parametrize("indent", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_deeper_than_orjson_allows(indent: bool) -> None:
    value: object = "x"
    for _ in range(5000):
        value = [{"type": ["h-card"], "children": value}]
    out = dumps(value, indent=indent)
    assert out.endswith(b"\n")
    # Unwrap with the stdlib-free check: counts of nesting brackets balance.
    assert out.count(b"[") == out.count(b"]") and out.count(b"{") == out.count(b"}")


def test_cli_prints_items_nested_300_deep(tmp_path: object) -> None:
    from pathlib import Path

    page = Path(str(tmp_path)) / "deep.html"
    page.write_bytes(b'<div class="h-card">' * 300 + b"x")
    r = subprocess.run([sys.executable, "-m", "stream_mf2", str(page)], capture_output=True, check=False)
    assert r.returncode == 0, r.stderr.decode()
    assert r.stdout.count(b'"h-card"') == 300


@given(st.integers(min_value=2**64, max_value=2**200) | st.integers(min_value=-(2**200), max_value=-(2**63) - 1), st.booleans())
def test_integers_past_64_bits_are_written_as_json_does(big: int, indent: bool) -> None:
    """A JSON-LD block may hold one (``"id": 98765432109876543210987``): orjson refuses it."""
    import json

    value = {"@type": "Product", "sku": [big, 1, "x"], "deep": [[{"n": big}]]}
    out = dumps(value, indent=indent)
    assert json.loads(out) == value
    if not indent:
        assert out == json.dumps(value, separators=(",", ":")).encode() + b"\n"
