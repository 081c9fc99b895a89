"""The answers by attribute value (``Summary.leaf_memo``, ``Summary.may_memo``) are exact.

When the last steps a leaf may pass, or the steps an element's name may take, test one attribute
(a class, mostly), the consumer answers by that attribute's value, remembered per element name
(at most 1024 values, then forgotten). Pages whose elements repeat a few class values and carry
thousands of distinct ones must give the matches their construction says, whole, in chunks and
parse after parse of one template, and the same as paths that test two attributes (no memo).
"""

from __future__ import annotations

from typing import Any

from stream_mf2 import Parser, parse
from stream_mf2.wpt import collect_pages, load

OW = 'xmlns:ow="http://www.omfica.org/schemas/ow/0.9"'


def template(extra: str = "") -> Any:
    """Leaves by a wildcard class step, ``span`` leaves by class, ``div`` elements by class;
    ``extra`` adds a second attribute test to each (so nothing is memoised)."""
    return load(
        f"""<ow:wpt {OW} ow:host="example.com"><ow:template ow:name="m">
<ow:block ow:xpath='//*[contains(@class, "c3")]{extra}' ow:type="repeatable">any</ow:block>
<ow:block ow:xpath='//span[contains(@class, "c5")]{extra}/text()' ow:type="repeatable">span</ow:block>
<ow:block ow:xpath='//div[contains(@class, "row d4")]{extra}//b' ow:type="repeatable">b</ow:block>
</ow:template></ow:wpt>"""
    ).templates[0]


def page(rows: int) -> tuple[bytes, dict[str, list[str]]]:
    """A page, and the texts each block must match, in document order."""
    out: list[str] = []
    want: dict[str, list[str]] = {"any": [], "span": [], "b": []}
    for i in range(rows):
        cls = f"c{i % 7}" if i % 2 else f"u{i} c{i % 7}"  # (repeated values, and distinct ones)
        div = f"row d{i % 5}"
        out.append(
            f'<div class="{div}" data-k="1"><span class="{cls}" data-k="1">s{i}</span>'
            f'<em class="{cls}" data-k="1">e{i}</em><b>b{i}</b></div>'
        )
        if i % 7 == 3:
            want["any"] += [f"s{i}", f"e{i}"]
        if i % 7 == 5:
            want["span"].append(f"s{i}")
        if i % 5 == 4:
            want["b"].append(f"b{i}")
    html = "<!doctype html><html><head><title>m</title></head><body>" + "\n".join(out) + "</body></html>"
    return html.encode(), want


def texts(pages: list[dict[str, Any]]) -> dict[str, list[str]]:
    blocks = pages[0]["blocks"]
    return {name: [m["text"] for m in b["matches"]] for name, b in zip(("any", "span", "b"), blocks, strict=True)}


def test_answers_by_value_are_the_constructed_matches() -> None:
    data, want = page(2600)  # (more than 1024 distinct class values: the memo is forgotten)
    memo, no_memo = template(), template('[@data-k="1"]')
    for _ in range(2):  # (the second parse reads the plan's remembered answers)
        assert texts(parse(data, "http://example.com/", wpt=memo)["wpt"]) == want
    assert texts(parse(data, "http://example.com/", wpt=no_memo)["wpt"]) == want
    parser = Parser("http://example.com/", wpt=memo)
    events = [e for i in range(0, len(data), 7) for e in parser.feed_events(data[i : i + 7])] + parser.close_events()
    assert texts(collect_pages(events)) == want
