"""The same triples, in the same order, however the input is split: str and bytes.

Every page of :mod:`tests.rdfa.pages` whole, one character (byte) at a time, in random
chunkings and at a spread of 2-way split points; a compact page that uses every feature
(content values read at hand-over, lists, chaining, XML literals, ``<time>``, ``<base>``)
at every 2-way split and a sample of 3-way splits.
"""

from __future__ import annotations

import pytest

from stream_mf2.rdfa.events import RdfaTriple
from tests.rdfa.drive import stream_triples
from tests.rdfa.pages import ALL
from tests.support.chunking import S, chunkings, two_way

COMPACT = (
    '<!DOCTYPE html><html lang="en" prefix="ex: http://example.org/ns#"><head><base href="http://b.example/d/">'
    '<meta property="og:title" content="T"></head><body vocab="http://schema.org/">'
    '<div typeof="Article"><h1 property="name">Hi <b>there</b></h1><time property="d">2020-01-02</time>'
    '<p property="ex:x" datatype="rdf:XMLLiteral">a<i>b</i></p>'
    '<ol rel="ex:l" inlist><li><a href="x">x</a></li><li about="#y">y</li></ol>'
    '<span property="ex:m" inlist>m1</span><span property="ex:m" inlist>m2</span></div>'
    '<div about="#a" rel="ex:p"><div rel="ex:q"><span about="#c" property="ex:n">C</span></div></div>'
    '<table><tr><td property="ex:cell">c</td></tr><span property="ex:fostered">f</span></table>'
    "<p>\u00e9t\u00e9 <span property=ex:u>caf\u00e9</span></p></body></html>"
)


def _whole(data: str) -> tuple[list[RdfaTriple], list[str]]:
    triples, notes, _ = stream_triples([data])
    return triples, notes


def _every_chunking(data: S, *, all_splits: bool) -> None:
    want = _whole_from([data])
    assert want[0]
    for label, chunks in chunkings(data, splits=all_splits):
        assert _whole_from(chunks) == want, label
    if not all_splits:
        for label, chunks in list(two_way(data))[::29]:
            assert _whole_from(chunks) == want, label


@pytest.mark.parametrize("name", sorted(ALL))
def test_pages_any_chunking(name: str) -> None:
    _every_chunking(ALL[name], all_splits=False)
    _every_chunking(ALL[name].encode("utf-8"), all_splits=False)


def test_str_and_bytes_agree() -> None:
    for name, page in ALL.items():
        assert _whole(page) == _whole_from([page.encode("utf-8")]), name


def test_compact_page_every_split() -> None:
    assert len(_whole(COMPACT)[0]) > 15
    _every_chunking(COMPACT, all_splits=True)
    _every_chunking(COMPACT.encode("utf-8"), all_splits=True)


def _whole_from(chunks: list[str] | list[bytes]) -> tuple[list[RdfaTriple], list[str]]:
    triples, notes, _ = stream_triples(chunks)
    return triples, notes
