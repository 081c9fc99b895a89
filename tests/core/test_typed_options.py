"""Typed options: one TypedDict for every entry point, checked at run time and by mypy."""

from __future__ import annotations

import inspect
import pydoc
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import stream_mf2
from stream_mf2 import COMPILED, ParseOptions, Parser, iter_events, iter_items, parse
from stream_mf2.core.options import OPTION_NAMES, check_options
from tests.support.builds import pure_only
from tests.support.suites import REPO

DOC = '<div class="h-card"><span class="p-name">Ann</span></div>'


@pure_only  # inspect.signature needs a Python function; the compiled __init__ has none
def test_option_names_match_the_parser_keywords() -> None:
    """ParseOptions lists exactly the Parser's keyword options (a new Parser option must be added here)."""
    params = inspect.signature(Parser.__init__).parameters
    keywords = [n for n, p in params.items() if p.kind is inspect.Parameter.KEYWORD_ONLY]
    assert [p.kind for p in params.values()][-1] is inspect.Parameter.VAR_KEYWORD  # **unknown: Never
    assert set(keywords) == set(OPTION_NAMES)
    assert set(ParseOptions.__optional_keys__) == set(OPTION_NAMES)


ENTRY_POINTS: dict[str, Any] = {
    "parse": lambda **o: parse(DOC, **o),
    "Parser": lambda **o: Parser(**o),
    "iter_items": lambda **o: iter_items(DOC, **o),
    "iter_events": lambda **o: iter_events(DOC, **o),
    "aiter_items": lambda **o: stream_mf2.aiter_items(DOC, **o),
    "aiter_events": lambda **o: stream_mf2.aiter_events(DOC, **o),
}


@pytest.mark.parametrize("name", list(ENTRY_POINTS))
def test_unknown_option_is_a_type_error_naming_the_valid_ones(name: str) -> None:
    with pytest.raises(TypeError) as e:
        ENTRY_POINTS[name](metaformtas=True)  # raised by the call, before any iteration
    assert "metaformtas" in str(e.value)
    assert "metaformats" in str(e.value) and "max_depth" in str(e.value)


@pytest.mark.parametrize("name", list(ENTRY_POINTS))
def test_bad_values_are_rejected_by_the_call(name: str) -> None:
    with pytest.raises(ValueError, match="text must be 'spec' or 'normalized'"):
        ENTRY_POINTS[name](text="bogus")
    with pytest.raises(ValueError, match="max_depth"):
        ENTRY_POINTS[name](max_depth=0)
    # A compiled Parser checks its arguments' types on entry, with mypyc's own message
    # ("bool object expected; got str"): still a TypeError raised by the call.
    typed_on_entry = COMPILED and name == "Parser"
    with pytest.raises(TypeError, match=None if typed_on_entry else "lang"):
        ENTRY_POINTS[name](lang="yes")
    with pytest.raises(TypeError, match=None if typed_on_entry else "filter_roots"):
        ENTRY_POINTS[name](filter_roots=["h-full"])


def test_valid_options_work_everywhere() -> None:
    opts: ParseOptions = {"text": "normalized", "lang": True, "filter_roots": {"h-full"}, "max_depth": 100}
    want = parse(DOC, "http://example.com/", **opts)["items"]
    assert want and want[0]["properties"]["name"] == ["Ann"]
    assert list(iter_items(DOC, "http://example.com/", **opts)) == want
    check_options(opts)


@pytest.mark.parametrize("func", [parse, iter_items, iter_events, stream_mf2.aiter_items, stream_mf2.aiter_events])
def test_help_lists_every_option(func: Any) -> None:
    text = pydoc.render_doc(func)
    for name in ("encoding", "text", "lang", "metaformats", "filter_roots", "stream_children", "max_token_chars"):
        assert name in text, (func.__name__, name)


def test_help_of_parser_lists_every_option() -> None:
    text = pydoc.render_doc(Parser)
    for name in OPTION_NAMES:
        assert name in text, name


@pytest.mark.slow
def test_mypy_rejects_a_misspelled_option() -> None:
    """mypy flags ``metaformtas=True``: the ignores in the checked file are needed (warn_unused_ignores)."""
    checked = Path(__file__).parent / "typing_checks" / "options_misspelled.py"
    r = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--warn-unused-ignores", "--no-incremental", str(checked)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    # and without the ignores, each line is an error naming the misspelling
    source = checked.read_text()
    bare = checked.with_name("_bare_options.py")
    try:
        bare.write_text("\n".join(line.split("  # type: ignore")[0] for line in source.splitlines()) + "\n")
        r = subprocess.run(
            [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(bare)],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=False,
        )
    finally:
        bare.unlink()
    assert r.returncode == 1
    for wrong in ("metaformtas", "lnag", "max_dpeth", "txt", "bogus"):
        assert wrong in r.stdout, (wrong, r.stdout)
