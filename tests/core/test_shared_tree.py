"""The capture shares the bounded tree with other consumers (a WPT template, other syntaxes):
it passes over the subtrees they keep that hold nothing it kept (``Capture.share_tree``), and
the mf2 result stays the one of the plain parse."""

from __future__ import annotations

from pathlib import Path

import pytest

from stream_mf2 import parse
from stream_mf2.core.syntaxes import SYNTAXES
from stream_mf2.wpt import load

REPO = Path(__file__).resolve().parents[2]
OW = "http://www.omfica.org/schemas/ow/0.9"
#: Blocks that keep most of a page: every div, list item, link and paragraph, repeatable.
GREEDY = f"""<ow:wpt xmlns:ow="{OW}" ow:host="example.com"><ow:template ow:name="greedy">
<ow:block ow:xpath="//div" ow:type="repeatable">div</ow:block>
<ow:block ow:xpath="//li" ow:type="repeatable">li</ow:block>
<ow:block ow:xpath="//a" ow:type="repeatable">a</ow:block>
<ow:block ow:xpath="//p" ow:type="repeatable">p</ow:block>
<ow:block ow:xpath="//td" ow:type="repeatable">td</ow:block>
</ow:template></ow:wpt>"""

#: mf1 includes whose markers and targets sit inside subtrees kept only for the template,
#: a header cell, rel links, an item after a held one.
INCLUDES = """<!doctype html><html lang="en"><head><title>t</title>
<link rel="alternate" href="/feed"></head><body>
<div><p><a class="include" href="#tgt">x</a></p></div>
<div class="vcard"><span class="fn">Ann</span><a class="include" href="#org">o</a></div>
<div><p id="org" class="org">Example Org</p></div>
<table><tr><th id="h1">Head</th></tr><tr><td class="h-card" headers="h1">Cell</td></tr></table>
<div><div id="tgt"><span class="tel">123</span></div></div>
<div class="h-entry"><p class="p-name">After</p><a rel="tag" href="/t">tag</a></div>
<div><a rel="me" href="https://me.example/">me</a></div>
</body></html>"""


def _mf2(result: dict[str, object]) -> dict[str, object]:
    return {k: result.get(k) for k in ("items", "rels", "rel-urls", "meta-item")}


@pytest.mark.parametrize(
    "name",
    ["includes", *sorted(p.name for p in (REPO / "fixtures" / "bench").glob("*.html"))],
)
def test_mf2_result_unchanged_beside_a_greedy_template(name: str) -> None:
    data = INCLUDES.encode() if name == "includes" else (REPO / "fixtures" / "bench" / name).read_bytes()
    template = load(GREEDY).templates[0]
    for meta in (False, True):
        url = "http://example.com/"
        plain = parse(data, url, metaformats=meta, lang=meta)
        with_wpt = parse(data, url, wpt=template, metaformats=meta, lang=meta)
        every = parse(data, url, wpt=template, syntaxes=set(SYNTAXES), metaformats=meta, lang=meta)
        assert _mf2(with_wpt) == _mf2(plain)
        assert _mf2(every) == _mf2(plain)
        # the template really keeps subtrees the capture passes over
        assert sum(len(b["matches"]) for b in with_wpt["wpt"][0]["blocks"]) > 3
