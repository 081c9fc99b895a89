"""Groups inside a capture's own regular expression do not shift the captures after it.

``(price[[0-9]+(\\.[0-9]{2})?]) (currency[[A-Z]{3}])`` gave the cents as the currency, and
in a URL pattern ``p.id`` came out as a path segment: each capture counted as a numbered
group, and so did the groups written inside the expressions. Captures are named groups now.
"""

from __future__ import annotations

import stream_mf2
from stream_mf2.wpt import load
from stream_mf2.wpt._compile import compile_pattern

TEMPLATE = """<?xml version="1.0" encoding="UTF-8"?>
<ow:wpt xmlns:ow="http://www.omfica.org/schemas/ow/0.9" ow:host="https://shop.example">
<ow:template ow:name="Product" ow:url="https://shop.example/(p.section[[a-z]+(/[a-z]+)*])/(p.id[[0-9]+])"
  ow:ontology="shop">
<ow:block ow:xpath="/html/body/p" ow:pattern="Price: (p.price[[0-9]+(\\.[0-9]{2})?]) (p.currency[[A-Z]{3}])">p</ow:block>
</ow:template>
<ow:ontology ow:name="shop">
<ow:concept ow:name="p"><ow:has>price</ow:has><ow:has>currency</ow:has><ow:has>id</ow:has><ow:has>section</ow:has></ow:concept>
</ow:ontology>
</ow:wpt>
"""


def test_inner_groups_do_not_shift_later_captures() -> None:
    p = compile_pattern(r"Price: (price[[0-9]+(\.[0-9]{2})?]) (currency[[A-Z]{3}])")
    assert p.captures(p.regex.search("Price: 12.50 EUR")) == {"price": ["12.50"], "currency": ["EUR"]}
    assert p.captures(p.regex.search("Price: 12 EUR")) == {"price": ["12"], "currency": ["EUR"]}


def test_url_and_block_captures_through_a_parse() -> None:
    wpt = load(TEMPLATE)
    url = "https://shop.example/tools/hand/42"
    doc = stream_mf2.parse("<!doctype html><body><p>Price: 12.50 EUR</p>", url, wpt=wpt)
    (page,) = doc["wpt"]
    assert page["url_captures"] == {"p.section": ["tools/hand"], "p.id": ["42"]}
    (match,) = page["blocks"][0]["matches"]
    assert match["captures"] == {"p.price": ["12.50"], "p.currency": ["EUR"]}
