"""Work grows linearly with the input, and memory does not grow with closed subtrees.

Work is counted, not timed: the lines the RDFa consumer and the HTML engine execute
(``sys.settrace``, so against the pure-Python build), for inputs at n, 2n and 4n.
Memory is counted as the objects the consumer holds (:meth:`RdfaConsumer.held`),
after every chunk of a long document fed in pieces.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pytest

from tests.rdfa.drive import engine, stream_triples
from tests.support.builds import pure_only
from tests.support.work import ENGINE, lines_executed

MODULES = (*ENGINE, "/stream_mf2/rdfa/")
HEAD = '<!DOCTYPE html><html prefix="ex: http://example.org/ns#"><body vocab="http://schema.org/">'


def _siblings(n: int) -> str:
    return HEAD + '<div typeof="Thing">' + "".join(f'<span property="name">v{i}</span>' for i in range(n))


def _nested_typeof(n: int) -> str:
    return HEAD + "".join(f'<div property="part" typeof="Thing"><meta property="n" content="{i}">' for i in range(n))


def _rel_chain(n: int) -> str:
    return HEAD + '<div about="#top">' + '<div rel="ex:next">' * n + '<span about="#end"></span>'


def _list(n: int) -> str:
    return HEAD + '<div typeof="ItemList">' + "".join(f'<span property="item" inlist>i{i}</span>' for i in range(n))


def _rel_list(n: int) -> str:
    return HEAD + '<ol about="#o" rel="ex:items" inlist>' + "".join(f'<li><a href="#i{i}">i</a></li>' for i in range(n))


PATTERNS: dict[str, Callable[[int], str]] = {
    "sibling-properties": _siblings,
    "nested-typeof": _nested_typeof,
    "rel-chain": _rel_chain,
    "inlist-members": _list,
    "rel-inlist-members": _rel_list,
}


@pure_only
@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_work_is_linear(name: str) -> None:
    make = PATTERNS[name]
    n = 150
    work = [lines_executed(partial(stream_triples, [make(k)]), MODULES) for k in (n, 2 * n, 4 * n)]
    assert work[1] / work[0] < 2.6 and work[2] / work[1] < 2.6, (name, work)


def test_triples_grow_with_the_input() -> None:
    """The patterns above do make triples at every step (the counted work is RDFa work)."""
    for name, make in PATTERNS.items():
        a = len(stream_triples([make(50)])[0])
        b = len(stream_triples([make(100)])[0])
        assert b >= 2 * a - 10 and a >= 50, name


def _max_held(page: str, piece: int = 200, **limits: int) -> tuple[int, int]:
    """The most objects the consumer held after any chunk, and the triples emitted."""
    tok, consumer, out = engine("http://example.com/page", **limits)
    most = 0
    for i in range(0, len(page), piece):
        tok.feed(page[i : i + piece])
        most = max(most, consumer.held())
    tok.close()
    consumer.finish()
    return most, len(out)


@pytest.mark.parametrize(
    "item",
    [
        '<div typeof="Product"><span property="name">N</span><p property="description">A <b>d</b></p></div>',
        '<article typeof="BlogPosting" resource="#p"><h2 property="headline">H</h2>'
        '<time property="datePublished">2020-01-01</time></article>',
        '<div about="#me" rel="foaf:knows"><a href="#x">x</a><span property="foaf:name">n</span></div>',
        '<p role="note" id="r" property="dc:title" datatype="rdf:XMLLiteral">x<i>y</i></p>',
    ],
)
def test_closed_subtrees_hold_nothing(item: str) -> None:
    """n items, closed one after the other: what the consumer holds does not grow with n."""
    small, t1 = _max_held(HEAD + item * 100)
    large, t2 = _max_held(HEAD + item * 1000)
    assert t2 >= 10 * t1 - 20 and t1 > 100
    assert large == small, (small, large)
    assert large < 40


def test_list_members_are_held_until_the_list_closes_and_bounded() -> None:
    """Documented bounded case: inlist members wait for their list's element, at most
    ``max_rdfa_list_items``; past it a note, and the members after it are dropped."""
    page = _list(500) + "</div>"
    most, _ = _max_held(page)
    assert most >= 500
    bounded, _ = _max_held(page, max_rdfa_list_items=100)
    assert 100 <= bounded < 140
    triples, notes, consumer = stream_triples([page], max_rdfa_list_items=100)
    assert any("max_rdfa_list_items=100" in n for n in notes)
    firsts = [t for t in triples if t.predicate.endswith("#first")]
    assert len(firsts) == 100
    assert consumer.held() == 0
