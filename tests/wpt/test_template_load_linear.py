"""Loading a template is linear in its size (issue 25): many blocks using many concepts, a long
``ow:inherit`` chain used at every link, many ontologies. Work is counted in executed lines of
the WPT package at n, 2n and 4n (never wall time)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pytest

from stream_mf2.wpt import load
from tests.support.builds import pure_only
from tests.support.work import lines_executed

OW = 'xmlns:ow="http://www.omfica.org/schemas/ow/0.9"'


def _wpt(blocks: str, ontologies: str) -> str:
    return (
        f'<ow:wpt {OW} ow:host="h"><ow:template ow:name="t" ow:url="http://h/" ow:ontology="o">{blocks}'
        f"</ow:template>{ontologies}</ow:wpt>"
    )


def _concepts(n: int) -> str:
    """n blocks, each naming its own concept of n declared ones."""
    blocks = "".join(f'<ow:block ow:tagid="i{i}">c{i}</ow:block>' for i in range(n))
    concepts = "".join(f'<ow:concept ow:name="c{i}"/>' for i in range(n))
    return _wpt(blocks, f'<ow:ontology ow:name="o">{concepts}</ow:ontology>')


def _inherit_chain(n: int) -> str:
    """c0 inherits c1 ... inherits cn, which has x; a block uses ci.x for every i."""
    concepts = "".join(f'<ow:concept ow:name="c{i}"><ow:inherit>c{i + 1}</ow:inherit></ow:concept>' for i in range(n))
    concepts += f'<ow:concept ow:name="c{n}"><ow:has>x</ow:has></ow:concept>'
    blocks = "".join(f'<ow:block ow:tagid="i{i}">c{i}.x</ow:block>' for i in range(n))
    return _wpt(blocks, f'<ow:ontology ow:name="o">{concepts}</ow:ontology>')


def _inherit_chain_missing(n: int) -> str:
    """As the chain, but the attribute asked for is nowhere: every search fails."""
    return _inherit_chain(n).replace(".x<", ".y<")


def _ontologies(n: int) -> str:
    """n ontologies of one concept each, n blocks using the last one's concept."""
    blocks = "".join(f'<ow:block ow:tagid="i{i}">c{n - 1}</ow:block>' for i in range(n))
    ontologies = "".join(f'<ow:ontology ow:name="o{i}"><ow:concept>c{i}</ow:concept></ow:ontology>' for i in range(n))
    return _wpt(blocks, ontologies).replace('ow:ontology="o"', f'ow:ontology="o{n - 1}"')


def _templates(n: int) -> str:
    """n templates of one block each (their names are checked for duplicates)."""
    templates = "".join(
        f'<ow:template ow:name="t{i}" ow:url="http://h/{i}"><ow:block ow:tagid="i{i}"/></ow:template>' for i in range(n)
    )
    return f'<ow:wpt {OW} ow:host="h">{templates}</ow:wpt>'


def _blocks(n: int) -> str:
    """n blocks with a path, a pattern and a description, nested two deep."""
    block = (
        '<ow:block ow:xpath="/html/body/div[2]/table/tbody/tr" ow:pattern="(x.y[[0-9]+]) items" ow:type="repeatable">'
        'An <b>RDF</b> text<ow:block ow:xpath="td[2]">more <i>text</i></ow:block></ow:block>'
    )
    return _wpt(
        block * n, '<ow:ontology ow:name="o"><ow:concept ow:name="x"><ow:has>y</ow:has></ow:concept></ow:ontology>'
    )


SHAPES: dict[str, Callable[[int], str]] = {
    "templates": _templates,
    "blocks": _blocks,
    "concepts": _concepts,
    "inherit-chain": _inherit_chain,
    "inherit-chain-missing": _inherit_chain_missing,
    "ontologies": _ontologies,
}


@pure_only  # counts executed Python lines (sys.settrace), which compiled code does not report
@pytest.mark.parametrize("name", sorted(SHAPES))
def test_loading_work_grows_linearly(name: str) -> None:
    make = SHAPES[name]
    work = [lines_executed(partial(load, make(n)), ("/stream_mf2/wpt/",)) for n in (200, 400, 800)]
    ratios = [work[1] / work[0], work[2] / work[1]]
    assert all(r < 2.3 for r in ratios), f"{name}: lines executed {work}, ratios {ratios}"


def test_the_shapes_load_as_intended() -> None:
    assert load(_concepts(5)).warnings == ()
    assert load(_inherit_chain(5)).warnings == ()
    assert len(load(_inherit_chain_missing(5)).warnings) == 5
    assert load(_ontologies(5)).warnings == ()
    assert len(load(_templates(5)).templates) == 5
    wpt = load(_blocks(5))
    assert wpt.warnings == ()
    assert [b.description for b in wpt.templates[0].blocks] == ["An <b>RDF</b> text"] * 5
