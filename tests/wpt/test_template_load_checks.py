"""What the loader says about templates that load but cannot work as written (issue 25, item 7),
the size limits of a template, and templates stored in encodings other than UTF-8.

The submission's musts are errors (an ``ow:ontology`` without its name); what makes a template
useless or suspicious is a warning with its position, an error with ``strict=True``.
"""

from __future__ import annotations

import codecs
from typing import Any

import pytest

from stream_mf2.wpt import TemplateError, load

OW = 'xmlns:ow="http://www.omfica.org/schemas/ow/0.9"'


def _wpt(body: str, *, template: str = 'ow:name="T" ow:url="http://h/"', onto: str = "") -> str:
    return f'<ow:wpt {OW} ow:host="h">\n<ow:template {template}>\n{body}\n</ow:template>{onto}\n</ow:wpt>'


# -- warnings (errors with strict=True) ---------------------------------------------------------


@pytest.mark.parametrize(
    ("xml", "warning"),
    [
        (
            _wpt('<ow:block ow:tagid="a" ow:xpth="/html/body/p">x</ow:block>'),
            "3:1: unknown attribute ow:xpth on ow:block (did you mean ow:xpath?)",
        ),
        (
            _wpt('<ow:block ow:tagid="a" type="repeatable" ow:patern="x">x</ow:block>'),
            "3:1: unknown attribute ow:patern on ow:block (did you mean ow:pattern?)",
        ),
        (
            _wpt('<ow:block ow:tagid="a"/>', template='ow:name="T" ow:uri="http://h/"'),
            "2:1: unknown attribute ow:uri on ow:template (did you mean ow:url?)",
        ),
        (
            _wpt('<ow:block ow:tagid="a"/>', template='ow:name="T"'),
            "2:1: template 'T' has no ow:url and no ow:urls section names it: no page URL chooses it"
            " (it applies only when given alone, or chosen by name)",
        ),
        (
            _wpt(
                '<ow:block ow:tagid="a">menu</ow:block>',
                template='ow:name="T" ow:url="http://h/" ow:ontology="gen"',
                onto='<ow:ontology ow:name="general"><ow:concept>menu</ow:concept></ow:ontology>',
            ),
            "2:1: template 'T' names ontology 'gen', which is not declared",
        ),
    ],
)
def test_a_template_that_loads_but_cannot_work_as_written_is_a_warning(xml: str, warning: str) -> None:
    assert warning in load(xml).warnings
    line, column, message = warning.split(":", 2)
    with pytest.raises(TemplateError) as info:
        load(xml, strict=True)
    assert (info.value.line, info.value.column, info.value.message) == (int(line), int(column), message.strip())


def test_other_vocabularies_attributes_are_not_judged() -> None:
    xml = _wpt(
        '<ow:block ow:tagid="a" xml:lang="en" rdf:about="x" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        "</ow:block>"
    )
    assert load(xml).warnings == ()


def test_a_template_chosen_by_an_urls_section_needs_no_url_of_its_own() -> None:
    xml = _wpt(
        '<ow:block ow:tagid="a"/>',
        template='ow:name="T"',
        onto='<ow:urls ow:template="T"><ow:url>http://h/</ow:url></ow:urls>',
    )
    assert load(xml).warnings == ()


def test_an_ontology_without_its_name_is_an_error() -> None:
    xml = _wpt('<ow:block ow:tagid="a"/>', onto="\n<ow:ontology><ow:concept>menu</ow:concept></ow:ontology>")
    with pytest.raises(TemplateError) as info:
        load(xml)
    assert (info.value.line, info.value.column) == (5, 1)
    assert "ow:ontology has no ow:name" in info.value.message


# -- size limits ---------------------------------------------------------------------------------


def test_too_many_blocks_is_an_error_at_the_first_block_past_the_limit() -> None:
    blocks = "\n".join(f'<ow:block ow:tagid="i{i}"/>' for i in range(6))
    load(_wpt(blocks), max_template_blocks=6)
    with pytest.raises(TemplateError) as info:
        load(_wpt(blocks), max_template_blocks=5)
    assert (info.value.line, info.value.column) == (8, 1)
    assert "max_template_blocks=5" in info.value.message


def test_patterns_longer_than_the_limit_together_are_an_error_before_they_are_compiled() -> None:
    blocks = f'<ow:block ow:pattern="{"a" * 60}"/>\n<ow:block ow:pattern="{"b" * 60}"/>'
    load(_wpt(blocks), max_template_pattern_chars=120 + len("http://h/"))
    with pytest.raises(TemplateError) as info:
        load(_wpt(blocks), max_template_pattern_chars=100)
    assert (info.value.line, info.value.column) == (4, 1)
    assert "max_template_pattern_chars=100" in info.value.message


def test_a_two_megabyte_pattern_is_refused_by_the_default_limit() -> None:
    with pytest.raises(TemplateError, match="max_template_pattern_chars=131072"):
        load(_wpt(f'<ow:block ow:pattern="{"a" * 2_000_000}"/>'))


@pytest.mark.parametrize(
    ("keyword", "value"),
    [("max_template_blocks", 0), ("max_template_pattern_chars", 0)],
)
def test_the_limits_are_checked(keyword: str, value: float) -> None:
    options: dict[str, Any] = {keyword: value}
    with pytest.raises(ValueError, match=keyword):
        load(_wpt('<ow:block ow:tagid="a"/>'), **options)


# -- encodings -------------------------------------------------------------------------------------

DESCRIBED = (
    '<?xml version="1.0" encoding="{enc}"?>\n'
    f'<ow:wpt {OW} ow:host="h"><ow:template ow:name="Café" ow:url="http://h/">'
    '<ow:block ow:tagid="a">Menü du café <ow:block ow:xpath="p">x</ow:block>— prix</ow:block>'
    "</ow:template></ow:wpt>"
)


@pytest.mark.parametrize(
    ("enc", "codec"),
    [
        ("UTF-8", "utf-8"),
        ("ISO-8859-1", "latin-1"),
        ("UTF-16", "utf-16"),
        ("UTF-16", "utf-16-be"),
        ("windows-1252", "cp1252"),
    ],
)
def test_descriptions_are_the_text_as_written_whatever_the_encoding(enc: str, codec: str) -> None:
    xml = DESCRIBED.format(enc=enc)
    if codec == "latin-1":
        xml = xml.replace("—", "-")  # not in ISO-8859-1
    data = xml.encode(codec)
    if codec == "utf-16-be":
        data = codecs.BOM_UTF16_BE + data
    wpt = load(data)
    block = wpt.templates[0].blocks[0]
    assert wpt.templates[0].name == "Café"
    assert block.description == ("Menü du café - prix" if codec == "latin-1" else "Menü du café — prix")


def test_a_str_template_is_read_as_text_whatever_its_declaration_says() -> None:
    wpt = load(DESCRIBED.format(enc="ISO-8859-1"))
    assert wpt.templates[0].name == "Café"
    assert wpt.templates[0].blocks[0].description == "Menü du café — prix"
