"""Template depth is bounded at load consistently with matching (issue 25): the matcher
follows nested blocks recursively, so ``max_template_depth`` is accepted up to
``MAX_TEMPLATE_DEPTH_CEILING`` (128), and a template as deep as that matches without a
``RecursionError``; ~450 nested blocks, which failed at match time, cannot be loaded."""

from __future__ import annotations

import pytest

import stream_mf2
from stream_mf2.wpt import load
from stream_mf2.wpt._load import MAX_TEMPLATE_DEPTH_CEILING

OW = 'xmlns:ow="http://www.omfica.org/schemas/ow/0.9"'


def _template(blocks: int) -> str:
    inner = '<ow:block ow:xpath="div">c' * (blocks - 1) + "</ow:block>" * (blocks - 1)
    return (
        f'<ow:wpt {OW} ow:host="h"><ow:template ow:name="T" ow:url="http://h/">'
        f'<ow:block ow:xpath="/html/body/div">c{inner}</ow:block></ow:template></ow:wpt>'
    )


def test_a_template_as_deep_as_the_ceiling_matches() -> None:
    blocks = MAX_TEMPLATE_DEPTH_CEILING - 2  # ow:wpt > ow:template > the blocks
    wpt = load(_template(blocks), max_template_depth=MAX_TEMPLATE_DEPTH_CEILING)
    doc = stream_mf2.parse("<body>" + "<div>" * (blocks + 1) + "x", "http://h/", wpt=wpt)
    match = doc["wpt"][0]["blocks"][0]["matches"][0]
    depth = 1
    while match["blocks"]:
        match = match["blocks"][0]["matches"][0]
        depth += 1
    assert depth == blocks


@pytest.mark.parametrize("depth", [MAX_TEMPLATE_DEPTH_CEILING + 1, 1_000])
def test_a_deeper_limit_is_refused(depth: int) -> None:
    with pytest.raises(ValueError, match=f"max_template_depth must be from 1 to {MAX_TEMPLATE_DEPTH_CEILING}"):
        load(_template(3), max_template_depth=depth)
