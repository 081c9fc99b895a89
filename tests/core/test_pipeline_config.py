"""One frozen ParserConfig per parser, and the stages built from it bottom-up (core/pipeline.py)."""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path

import pytest

from stream_mf2 import COMPILED, Parser
from stream_mf2.core.options import (
    DEFAULT_MAX_REPARSE_BYTES,
    DEFAULT_MAX_TOKEN_CHARS,
    ParserConfig,
    default_parser_config,
    parser_config,
)
from stream_mf2.core.pipeline import build_pipeline
from stream_mf2.core.syntaxes import DEFAULT_SYNTAXES
from stream_mf2.html.bounded.sink import DEFAULT_MAX_KEPT_NODES, DEFAULT_MAX_PREFIX_NODES
from stream_mf2.html.treebuilder import DEFAULT_MAX_DEPTH, DEFAULT_MAX_FORMATTING_ELEMENTS
from stream_mf2.wpt import DEFAULT_MAX_PATTERN_CHARS, load

URL = "http://example.com/"
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def test_the_stage_defaults_are_resolved_in_the_config() -> None:
    config = Parser(URL)._config
    assert isinstance(config, ParserConfig)
    assert config.max_depth == DEFAULT_MAX_DEPTH
    assert config.max_formatting_elements == DEFAULT_MAX_FORMATTING_ELEMENTS
    assert config.max_kept_nodes == DEFAULT_MAX_KEPT_NODES
    assert config.max_prefix_nodes == DEFAULT_MAX_PREFIX_NODES
    assert config.max_pattern_chars == DEFAULT_MAX_PATTERN_CHARS
    assert config.max_token_chars == DEFAULT_MAX_TOKEN_CHARS
    assert config.max_reparse_bytes == DEFAULT_MAX_REPARSE_BYTES
    given = Parser(URL, max_depth=7, max_kept_nodes=9, filter_roots={"full"}, stream_children={"h-feed"})._config
    assert (given.max_depth, given.max_kept_nodes) == (7, 9)
    assert given.mf2.filter_roots == frozenset({"full"}) and given.stream_children == frozenset({"h-feed"})


def test_the_mf2_options_are_shared_per_option_set() -> None:
    assert Parser(URL, lang=True)._config.mf2 is Parser("http://other.example/", lang=True)._config.mf2
    assert Parser(URL, lang=True)._config.mf2 is not Parser(URL)._config.mf2


def test_the_all_defaults_config_is_made_once() -> None:
    # A parser per page: the usual one (every default) reuses one frozen configuration.
    first = Parser(URL)._config
    assert Parser("http://other.example/")._config is first
    assert Parser(URL, lang=True)._config is not first
    assert Parser(URL, syntaxes={"mf2", "json-ld"})._config is not first
    assert Parser(URL, max_depth=DEFAULT_MAX_DEPTH + 1)._config is not first
    assert Parser(URL)._config is first
    assert Parser(URL, encoding="utf-8")._config.encoding == "utf-8"
    assert first.encoding is None and first.consumers == () and first.wpt is None


def test_a_bad_value_is_rejected_naming_the_parser() -> None:
    with pytest.raises(ValueError, match="max_depth"):
        Parser(URL, max_depth=0)
    with pytest.raises(ValueError, match="max_held_children"):
        Parser(URL, max_held_children=-1)


def test_the_config_is_frozen_and_slotted() -> None:
    config = Parser(URL)._config
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.max_depth = 1  # type: ignore[misc]
    assert not hasattr(config, "__dict__")


def test_the_stages_are_joined_at_construction() -> None:
    metas: list[str] = []
    config = parser_config(
        encoding=None,
        default_encoding="windows-1252",
        detect_utf8=True,
        text="spec",
        lang=False,
        metaformats=False,
        filter_roots=False,
        mf2py_compat=False,
        stream_children=True,
        max_token_chars=DEFAULT_MAX_TOKEN_CHARS,
        max_depth=None,
        max_formatting_elements=None,
        max_kept_nodes=None,
        max_prefix_nodes=None,
        max_held_items=10,
        max_held_children=10,
        max_nested_html_chars=1000,
        max_item_chars=1000,
        max_output_ratio=32,
        output_floor_chars=4096,
        max_reparse_bytes=0,
        collect_parse_errors=False,
        tokenizer_fast_path=True,
        wpt=None,
        max_pattern_chars=None,
    )
    stages = build_pipeline(config, URL, metas.append, count_raw=True)
    assert stages.tree.tokenizer is stages.tokenizer and stages.tokenizer.count_raw
    assert stages.tree.meta_encoding_hook is not None and stages.sink.on_nested is not None
    stages.tokenizer.feed(
        '<meta charset="utf-8"><template><base href="/t/"></template><div class="h-feed">'
        '<b><p class="h-entry"><a class="u-url" href="e">e</a></b></p></div>'
    )
    stages.tokenizer.close()
    stages.capture.finish()
    assert metas == ["UTF-8"]
    # the <base> inside template contents changed nothing (the capture asked the tree builder)
    assert [e.item["children"][0]["properties"]["url"] for e in stages.out if hasattr(e, "item")] == [
        ["http://example.com/e"]
    ]


# A valid value other than the default for every keyword of Parser (issue 26: Parser(url) with
# every default skips parser_config() after testing each keyword; one left out of that test
# would silently get the default configuration).
_NOT_DEFAULT: dict[str, object] = {
    "encoding": "utf-8", "default_encoding": "utf-8", "detect_utf8": False, "text": "normalized", "lang": True,
    "metaformats": True, "filter_roots": True, "mf2py_compat": True, "stream_children": True,
    "max_token_chars": 1000, "max_depth": 100, "max_formatting_elements": 10, "max_kept_nodes": 1000,
    "max_prefix_nodes": 100, "max_held_items": 10, "max_held_children": 10, "max_nested_html_chars": 100,
    "max_item_chars": 1000, "max_output_ratio": 5, "output_floor_chars": 100, "max_reparse_bytes": 0,
    "collect_parse_errors": True, "tokenizer_fast_path": False, "max_pattern_chars": 100,
    "max_pattern_seconds": 0.5, "max_misnest_nodes": 10, "max_pending_items": 10, "syntaxes": {"mf2"},
    "max_jsonld_chars": 100, "microdata_form": "whatwg", "max_microdata_held_items": 10,
    "max_microdata_held_nodes": 10, "max_itemref_ids": 10, "max_microdata_values": 10,
    "max_microdata_work_ratio": 10, "max_microdata_recent_nodes": 10, "max_rdfa_list_items": 10,
}


def _keywords() -> list[str]:
    # The class's signature, not __init__'s: a mypyc-compiled __init__ has none to read.
    params = inspect.signature(Parser).parameters.values()
    return [p.name for p in params if p.kind is p.KEYWORD_ONLY]


def test_every_keyword_has_a_value_here() -> None:
    assert sorted(_keywords()) == sorted([*_NOT_DEFAULT, "wpt"])


@pytest.mark.parametrize("name", sorted(_NOT_DEFAULT))
def test_any_keyword_given_leaves_the_shared_default_config(name: str) -> None:
    default = default_parser_config()
    assert Parser(URL)._config is default
    assert Parser(URL, **{name: _NOT_DEFAULT[name]})._config is not default  # type: ignore[arg-type]


def test_a_template_leaves_the_shared_default_config() -> None:
    template = load(FIXTURES / "wpt" / "artist.xml")
    assert Parser(URL, wpt=template)._config is not default_parser_config()


def test_the_shared_default_config_is_the_signature_defaults() -> None:
    # What parser_config() makes of Parser's own defaults, passed the long way.
    params = inspect.signature(Parser).parameters
    given = {p.name: p.default for p in params.values() if p.kind is p.KEYWORD_ONLY}
    microdata = {k: given.pop(k) for k in list(given) if k == "microdata_form" or "microdata" in k or k == "max_itemref_ids"}
    given["syntaxes"] = DEFAULT_SYNTAXES if given["syntaxes"] is None else given["syntaxes"]
    assert parser_config(**given, microdata=microdata) == default_parser_config()


@pytest.mark.parametrize(
    ("name", "value"),
    [("max_token_chars", float(DEFAULT_MAX_TOKEN_CHARS)), ("max_reparse_bytes", float(DEFAULT_MAX_REPARSE_BYTES))],
)
def test_a_default_equal_in_value_but_not_in_type_is_still_rejected(name: str, value: float) -> None:
    with pytest.raises(TypeError) as raised:
        Parser(URL, **{name: value})  # type: ignore[arg-type]
    # The pure build's option check names the keyword; the compiled build's __init__ refuses the
    # float itself, with mypyc's own message ("int object expected; got float").
    assert name in str(raised.value) or (COMPILED and "int object expected" in str(raised.value))
