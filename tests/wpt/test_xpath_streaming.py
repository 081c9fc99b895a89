"""When the new XPath forms decide, and what they refuse.

``[last()]`` can only be known when the parent closes: a candidate is kept and its
match computed when it is final, then held until its parent closes (or dropped as
soon as a later sibling of its kind arrives). Everything else is decided when the
element is final, as before.
"""

from __future__ import annotations

import pytest

from stream_mf2 import Parser, parse
from stream_mf2.wpt import Template, TemplateError, WptMatchEvent, load

OW = 'xmlns:ow="http://www.omfica.org/schemas/ow/0.9"'


def _template(block: str) -> Template:
    return load(f'<ow:wpt {OW} ow:host="h"><ow:template ow:name="T">{block}</ow:template></ow:wpt>').templates[0]


def _texts(events: list[object]) -> list[str]:
    return [e.match["text"] for e in events if isinstance(e, WptMatchEvent)]


def test_last_waits_for_the_parent_to_close() -> None:
    parser = Parser(
        "http://h/", wpt=_template('<ow:block ow:xpath="//ul/li[last()]" ow:type="repeatable">x</ow:block>')
    )
    assert _texts(parser.feed_events("<ul><li>one</li><li>two</li>")) == []
    assert _texts(parser.feed_events("<li>three</li>")) == []  # "two" dropped, "three" waits
    assert _texts(parser.feed_events("</ul><p>after")) == ["three"]
    assert _texts(parser.close_events()) == []


def test_last_in_nested_lists_keeps_document_order() -> None:
    html = "<ul><li>a<ul><li>a1<li>a2</ul><li>b<ul><li>b1</ul></ul><ol><li>c</ol>"
    doc = parse(html, "http://h/", wpt=_template('<ow:block ow:xpath="//li[last()]" ow:type="repeatable">x</ow:block>'))
    assert [m["xpath"] for m in doc["wpt"][0]["blocks"][0]["matches"]] == [
        "/html[1]/body[1]/ul[1]/li[1]/ul[1]/li[2]",
        "/html[1]/body[1]/ul[1]/li[2]",
        "/html[1]/body[1]/ul[1]/li[2]/ul[1]/li[1]",
        "/html[1]/body[1]/ol[1]/li[1]",
    ]


def test_a_first_match_block_with_last_gives_the_first_in_document_order() -> None:
    doc = parse(
        "<div><p>1<p>2</div><div><p>3</div>",
        "http://h/",
        wpt=_template('<ow:block ow:xpath="//div/p[last()]">x</ow:block>'),
    )
    assert [m["text"] for m in doc["wpt"][0]["blocks"][0]["matches"]] == ["2"]


def test_descendant_matches_come_as_soon_as_final() -> None:
    parser = Parser(
        "http://h/", wpt=_template('<ow:block ow:xpath="/html/body//p[@class=\'x\']" ow:type="repeatable">x</ow:block>')
    )
    assert _texts(parser.feed_events("<div><section><p class=x>one</p>")) == ["one"]
    assert _texts(parser.feed_events("<p>no</p><p class=x>two</p>")) == ["two"]


def test_text_and_attribute_steps() -> None:
    t = _template(
        '<ow:block ow:xpath="//p/text()" ow:type="repeatable">t</ow:block>'
        '<ow:block ow:xpath="//a/@href" ow:type="repeatable">h</ow:block>'
        '<ow:block ow:xpath="//a/@title">title</ow:block>'
    )
    doc = parse('<p>one <a href="/x">link</a> two\u00a0 three</p><a href=/y>', "http://h/", wpt=t)
    texts, hrefs, titles = (b["matches"] for b in doc["wpt"][0]["blocks"])
    assert [(m["xpath"], m["text"]) for m in texts] == [
        ("/html[1]/body[1]/p[1]/text()[1]", "one"),
        ("/html[1]/body[1]/p[1]/text()[2]", "two\u00a0 three"),  # U+00A0 is text, not whitespace
    ]
    assert [m["text"] for m in hrefs] == ["/x", "/y"]
    assert titles == []  # no such attribute: no match


@pytest.mark.parametrize(
    ("xpath", "message"),
    [
        ("//a[@class='x'][2]", "a position after an attribute test"),
        ("/html/body/text()/b", "text() is supported as the last step only"),
        ("//text()", "'//text()'"),
        ("/html/body/@class/x", "an attribute step is supported as the last step only"),
        ("/html/body/p[count(a)]", "a predicate is a position, last(), or an attribute test"),
        ("/html/body/p[contains(., 'x')]", "contains() is supported on an attribute only"),
        ("/html/body/p[1][last()]", "two positions in one step"),
        ("/html/body/..", "cannot read a step"),
        ("//p/node()", "the function node() as a step"),
    ],
)
def test_forms_outside_the_subset_are_refused_at_load(xpath: str, message: str) -> None:
    with pytest.raises(TemplateError, match=message.replace("(", r"\(").replace(")", r"\)")):
        _template(f'<ow:block ow:xpath="{xpath}">x</ow:block>')


def test_foster_parenting_into_a_parent_that_left_the_stack() -> None:
    # The second <a> makes the adoption agency take the first off the stack of open elements;
    # the text "x" then reconstructs an <a> that is foster-parented into the first, before the
    # table. That parent's place had been dropped, so the new <a> was never matched, silently.
    html = '<a href="blah">aba<table><a href="foo">br<tr><td></td></tr>x</table>aoe'
    t = _template(
        '<ow:block ow:xpath="/html/body/a/a" ow:type="repeatable">x</ow:block>'
        '<ow:block ow:xpath="//a/@href" ow:type="repeatable">x</ow:block>'
    )
    doc = parse(html, "http://h/", wpt=t)
    nested, hrefs = doc["wpt"][0]["blocks"]
    assert [m["xpath"] for m in nested["matches"]] == ["/html[1]/body[1]/a[1]/a[1]", "/html[1]/body[1]/a[1]/a[2]"]
    assert [m["text"] for m in hrefs["matches"]] == ["blah", "foo", "foo", "foo"]
    assert "errors" not in doc["wpt"][0]


def test_last_in_head_is_decided_when_the_body_starts() -> None:
    # head keeps taking late <meta>/<title> after </head>, until the body starts
    parser = Parser(
        "http://h/",
        wpt=_template('<ow:block ow:xpath="/html/head/meta[last()]/@name" ow:type="repeatable">m</ow:block>'),
    )
    assert _texts(parser.feed_events("<head><meta name=a><meta name=b></head><meta name=c>")) == []
    assert _texts(parser.feed_events("<body><p>one</p><p>two")) == ["c"]


def test_the_root_element_is_the_last_child_of_the_document_at_once() -> None:
    parser = Parser("http://h/", wpt=_template('<ow:block ow:xpath="/*[last()]/@lang">lang</ow:block>'))
    assert _texts(parser.feed_events("<html lang=de><body><p>one")) == ["de"]


def test_nested_blocks_take_the_new_forms() -> None:
    t = _template(
        '<ow:block ow:xpath="//ul" ow:type="repeatable">list'
        '<ow:block ow:xpath="li[last()]">list.last</ow:block>'
        '<ow:block ow:xpath=".//a/@href" ow:type="repeatable">list.link</ow:block>'
        '<ow:block ow:xpath="li/text()" ow:type="repeatable">list.text</ow:block>'
        "</ow:block>"
    )
    doc = parse('<ul><li>a <a href="/1">1</a> b<li>c</ul><ul><li><a href="/2">2</a></ul>', "http://h/", wpt=t)
    lists = doc["wpt"][0]["blocks"][0]["matches"]
    assert [[m["text"] for m in b["matches"]] for b in lists[0]["blocks"]] == [["c"], ["/1"], ["a", "b", "c"]]
    assert [[m["text"] for m in b["matches"]] for b in lists[1]["blocks"]] == [["2"], ["/2"], []]


def test_a_descendant_path_through_selectedcontent_warns() -> None:
    # <selectedcontent> receives clones of the option's content later; a "//" path that could
    # match inside it must say so (the fast path that carries "//" states on skipped the warning).
    doc = parse(
        "<select><button><selectedcontent></button><option>x<i>i<b>ib</i>b",
        "http://h/",
        wpt=_template('<ow:block ow:xpath="//b" ow:type="repeatable">b</ow:block>'),
    )
    assert any("selectedcontent" in e for e in doc["wpt"][0]["errors"])
