"""What a template's plan keeps between parses is bounded, whatever the pages bring.

The summaries of states tuples are shared by the parses of a template (see
``test_shared_summaries.py``), and with them their tables by element name and the answers
remembered by attribute value (``test_attribute_memo.py``). A crawl brings new element names
(custom elements) and new attribute values without end, so:

- an attribute value longer than ``_MAX_MEMO_VALUE`` is answered but never remembered (a memo
  outlives the elements, and would otherwise keep a page's long values alive);
- once the tables by element name hold more than ``_MAX_SHARED_NAMES`` names, the next parse
  starts with no shared summaries.

The matches stay exact either way.
"""

from __future__ import annotations

from typing import Any

from stream_mf2 import parse
from stream_mf2.wpt import load
from stream_mf2.wpt._match import _MAX_MEMO_VALUE, _MAX_SHARED_NAMES, _plan

OW = 'xmlns:ow="http://www.omfica.org/schemas/ow/0.9"'


def _template() -> Any:
    return load(
        f"""<ow:wpt {OW} ow:host="example.com"><ow:template ow:name="m">
<ow:block ow:xpath='//span[contains(@class, "hit")]/text()' ow:type="repeatable">span</ow:block>
<ow:block ow:xpath='//div[contains(@class, "box hit")]//b' ow:type="repeatable">b</ow:block>
</ow:template></ow:wpt>"""
    ).templates[0]


def _texts(data: bytes, template: Any) -> list[list[str]]:
    wpt = parse(data, "http://example.com/", wpt=template)["wpt"]
    return [[m["text"] for m in b["matches"]] for b in wpt[0]["blocks"]]


def _memo_keys(template: Any) -> list[str | None]:
    keys: list[str | None] = []
    for summaries in _plan((template,)).summaries.values():
        for summary in summaries.values():
            for _, memo in (*summary.leaf_memos.values(), *summary.may_memos.values()):
                if memo is not None:
                    keys.extend(memo)
    return keys


def _names(template: Any) -> int:
    return sum(
        len(s.quick) + len(s.tags) + len(s.leaf_tags)
        for summaries in _plan((template,)).summaries.values()
        for s in summaries.values()
    )


def test_long_attribute_values_are_answered_not_remembered() -> None:
    rows = []
    want_span: list[str] = []
    want_b: list[str] = []
    for i in range(200):
        pad = "x" * (_MAX_MEMO_VALUE + i)  # (each value distinct and too long to remember)
        hit = "hit " if i % 3 == 0 else ""
        rows.append(f'<div class="{hit}box {pad}"><span class="{hit}{pad}">s{i}</span><b>b{i}</b></div>')
        if hit:
            want_span.append(f"s{i}")
    # (those divs' classes start "hit box", so only this one contains "box hit")
    rows.append('<div class="box hit"><b>last</b><span class="hit short">t</span></div>')
    want_b.append("last")
    want_span.append("t")
    data = ("<!doctype html><body>" + "".join(rows) + "</body>").encode()
    template = _template()
    assert _texts(data, template) == [want_span, want_b]
    keys = _memo_keys(template)
    assert keys, "short values are remembered"
    assert all(k is None or len(k) <= _MAX_MEMO_VALUE for k in keys)
    # parse after parse of the same template: the same answers
    assert _texts(data, template) == [want_span, want_b]


def test_shared_tables_by_name_are_forgotten_past_the_bound() -> None:
    template = _template()
    many = "".join(f"<x-e{i}>{i}</x-e{i}>" for i in range(_MAX_SHARED_NAMES + 500))
    big = f'<!doctype html><body><div class="box hit">{many}<b>b</b></div></body>'.encode()
    small = b'<!doctype html><body><div class="box hit"><b>b2</b><span class="hit">s2</span></div></body>'
    assert _texts(big, template) == [[], ["b"]]
    assert _names(template) > _MAX_SHARED_NAMES  # (what the big page brought stays for the next parse)
    assert _texts(small, template) == [["s2"], ["b2"]]
    assert _names(template) < 100  # (the next parse started without them)
    assert _texts(small, template) == _texts(small, _template())
