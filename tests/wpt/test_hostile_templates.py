"""Hostile or mistaken templates are a ``TemplateError`` with a position when loaded.

* ``ow:xpath="/"`` selects the document, not an element (it loaded, then raised
  ``IndexError`` in the middle of a parse, ending a WARC run at its first record);
* axes (``self::``, ``descendant::``) and prefixed names loaded as element names and
  never matched: they are refused, with what is supported;
* blocks nested deeper than ``max_template_depth`` (64) are refused before anything
  recursive runs (1,000 nested blocks raised ``RecursionError`` at load, ~450 at match).
"""

from __future__ import annotations

import pytest

import stream_mf2
from stream_mf2.wpt import TemplateError, load
from stream_mf2.wpt._load import DEFAULT_MAX_TEMPLATE_DEPTH

T = """<?xml version="1.0"?>
<ow:wpt xmlns:ow="http://www.omfica.org/schemas/ow/0.9" ow:host="https://a.example">
<ow:template ow:name="t" ow:url="https://a.example/x" ow:ontology="o">
{blocks}</ow:template>
<ow:ontology ow:name="o"><ow:concept ow:name="c"/></ow:ontology></ow:wpt>"""


@pytest.mark.parametrize(
    ("xpath", "message"),
    [
        ("/", "selects the document, not an element"),
        ("/html/body/descendant::p", "the descendant:: axis"),
        ("/html/self::node()", "the self:: axis"),
        ("/html/x:body", "the prefixed name 'x:body'"),
    ],
)
def test_unsupported_xpaths_are_refused_at_load(xpath: str, message: str) -> None:
    with pytest.raises(TemplateError, match=message) as e:
        load(T.format(blocks=f'<ow:block ow:xpath="{xpath}">c</ow:block>'))
    assert (e.value.line, e.value.column) == (4, 1)


def test_attribute_names_with_a_prefix_are_still_allowed() -> None:
    load(T.format(blocks="<ow:block ow:xpath=\"/html/body/p[@xlink:href='a']\">c</ow:block>"))


def _nested(depth: int) -> str:
    inner = "".join('<ow:block ow:xpath="div">c' for _ in range(depth))
    return f'<ow:block ow:xpath="/html/body/div">c{inner}' + "</ow:block>" * (depth + 1)


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_deep_nesting_is_refused_with_the_limit_named(depth: int) -> None:
    with pytest.raises(TemplateError, match=r"nested more than 64 deep \(max_template_depth=64\)"):
        load(T.format(blocks=_nested(depth)))


def test_nesting_within_the_limit_loads_and_matches() -> None:
    depth = DEFAULT_MAX_TEMPLATE_DEPTH - 3  # ow:wpt > ow:template > the top block
    wpt = load(T.format(blocks=_nested(depth)))
    page = "<body>" + "<div>" * (depth + 1) + "x" + "</div>" * (depth + 1)
    doc = stream_mf2.parse(page, "https://a.example/x", wpt=wpt)
    assert len(doc["wpt"][0]["blocks"][0]["matches"]) == 1


def test_the_limit_is_a_keyword() -> None:
    with pytest.raises(TemplateError, match="max_template_depth=5"):
        load(T.format(blocks=_nested(3)), max_template_depth=5)
    with pytest.raises(ValueError, match="max_template_depth"):
        load(T.format(blocks=""), max_template_depth=0)
