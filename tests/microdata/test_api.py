"""Microdata through every door: ``Parser``, ``parse``, ``extract`` and the extruct drop-in,
and the bare engine wiring the other tests use for counting."""

from __future__ import annotations

from typing import Any

import extruct
import pytest

import stream_mf2
from stream_mf2 import COMPILED, Parser, parse
from stream_mf2 import extruct as dropin
from stream_mf2.microdata import MicrodataItem
from tests.microdata.drive import URL, extruct_items, microdata, on_engine
from tests.microdata.pages import PAGES


@pytest.mark.parametrize("name", sorted(PAGES))
def test_the_parser_and_the_bare_engine_agree(name: str) -> None:
    through_parser = microdata(PAGES[name])
    bare = on_engine(PAGES[name])
    assert [(e.item, e.start, e.end) for e in through_parser.events] == [(e.item, e.start, e.end) for e in bare.events]
    assert through_parser.notes == bare.notes


def test_parse_gives_the_items_under_microdata() -> None:
    result = parse(PAGES["product"], URL, syntaxes={"microdata"})
    assert result["microdata"] == extruct_items(PAGES["product"])
    both = parse(PAGES["product"], URL, syntaxes={"microdata", "mf2"})
    assert both["microdata"] == result["microdata"] and "items" in both


def test_extract_and_the_extruct_drop_in_equal_extruct() -> None:
    html = PAGES["recipe"]
    ours = dropin.extract(html, base_url=URL, syntaxes=["microdata"])
    theirs = extruct.extract(html, base_url=URL, syntaxes=["microdata"])
    assert ours == theirs
    assert stream_mf2.extract(html, url=URL, syntaxes=["microdata"])["microdata"] == theirs["microdata"]


def test_the_uniform_shape_equals_extruct() -> None:
    html = PAGES["article"]
    ours = dropin.extract(html, base_url=URL, syntaxes=["microdata"], uniform=True)
    theirs = extruct.extract(html, base_url=URL, syntaxes=["microdata"], uniform=True)
    assert ours == theirs


def test_events_carry_the_source_span_of_the_item() -> None:
    text = PAGES["breadcrumbs"]
    events = [e for e in Parser(URL, syntaxes={"microdata"}).feed_events(text) if type(e) is MicrodataItem]
    assert len(events) == 3
    for event in events:
        start_tag = text[event.start : event.end].lstrip().split(">", 1)[0]
        assert start_tag.startswith("<") and "itemscope" in start_tag, start_tag
    first = events[0]
    assert text[first.start : first.end].lstrip().startswith('<ol class="breadcrumb" itemscope')
    assert text[first.start : first.end].rstrip().endswith("</ol>")


def test_the_whatwg_form_through_the_parser() -> None:
    run = microdata(PAGES["itemref-before"], microdata_form="whatwg")
    # the spec's own example (HTML, "Microdata", the itemref example): its JSON
    assert [e.item for e in run.events] == [
        {"properties": {"name": ["Amanda"], "band": [{"properties": {"name": ["Jazz Band"], "size": ["12"]}}]}}
    ]


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="microdata_form"):
        Parser(URL, syntaxes={"microdata"}, microdata_form="json")
    with pytest.raises(ValueError, match="microdata_form"):
        parse("<p>", URL, syntaxes={"microdata"}, microdata_form="json")
    wrong: dict[str, Any] = {"max_itemref_ids": "10"}
    with pytest.raises(TypeError, match="max_itemref_ids"):
        parse("<p>", URL, syntaxes={"microdata"}, **wrong)
    # (a compiled Parser checks its arguments' types on entry, with mypyc's own message)
    with pytest.raises(TypeError, match=None if COMPILED else "max_itemref_ids"):
        Parser(URL, syntaxes={"microdata"}, **wrong)


def test_mf2_alone_is_unchanged() -> None:
    assert "microdata" not in parse(PAGES["product"], URL)
