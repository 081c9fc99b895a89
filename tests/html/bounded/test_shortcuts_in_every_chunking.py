"""Every shortcut of the bounded sink equals its reference walk, in every chunking.

The sink's debug switch (``check_shortcuts=True``) asserts each shortcut it
takes against the plain walk of :mod:`stream_mf2.html.bounded.reference`: the
remembered climbs and tables, the outermost kept ancestors, the proxy
comparison before held items, ``_alone``, groups passed on and chains held
whole, the kept order, the runs, classifications without the walk for open
descendants, and the unlinking short path. Here the inputs are the growth
patterns (at a small size) and a few misnested pages, fed whole, one character
at a time, split in two and three everywhere, and in random pieces, with the
nested hand-over off and on; what is handed over must also be the same in
every chunking.
"""

from __future__ import annotations

import pytest

from stream_mf2.html.bounded import NESTED_EMPTY, NESTED_KEEP, NESTED_REMOVE, BoundedSink
from stream_mf2.html.dom import Element
from stream_mf2.html.testing.tree import build
from tests.html.bounded.growth import NESTED_PATTERNS, OPTION_PATTERNS, PARSE_PATTERNS, TABLE_PATTERNS
from tests.support import chunking
from tests.support.bounded_sink import KEEPS, dump_one
from tests.support.sink_shortcuts import checked_sink

#: Small inputs: each growth pattern at n=3, and misnested pages as sites publish them.
DOCS: dict[str, str] = {
    **{name: make(3) for name, make in PARSE_PATTERNS.items()},
    **{f"nested/{name}": make(3) for name, make in NESTED_PATTERNS.items()},
    **{f"tables/{name}": make(2) for name, make in TABLE_PATTERNS.items()},
    **{f"options/{name}": make(2) for name, make in OPTION_PATTERNS.items()},
    "blog-misnested": '<div class="h-feed"><b><article class="h-entry"><p>x</b><a class="u-url" href="/1">1</a>'
    '<table><tr><td><i class="h-card">Ann</i></td></tr></table></article></div>',
    "comment-table": '<table><tr><td><div class="h-entry"><p class="p-name">T</div><b>x<div class=h-cite>q</b></div>',
}

KINDS = ("climb", "nested_top", "alone", "before_held", "order", "tops", "unlink", "classify", "passed_on")


def _run(chunks: list[str], keep_name: str, nested: bool) -> tuple[list[str], BoundedSink]:
    got: list[str] = []

    def complete(el: Element) -> bool:
        got.append(dump_one(el))
        return True  # (dumped already: the sink may clear the parent links inside)

    on_nested = None
    if nested:
        answers = [NESTED_KEEP, NESTED_EMPTY, NESTED_REMOVE]
        calls = [0]

        def answer(el: Element, top: Element, alone: bool) -> int:
            calls[0] += 1
            got.append(f"nested {el.name} {alone}")
            return answers[calls[0] % 3]

        on_nested = answer
    sink = checked_sink(KEEPS[keep_name], on_nested, on_complete=complete)
    build(chunks, sink, None)
    return got, sink


@pytest.mark.parametrize("nested", [False, True], ids=["plain", "nested"])
@pytest.mark.parametrize("name", sorted(DOCS))
def test_shortcuts_equal_their_walks_in_every_chunking(name: str, nested: bool) -> None:
    doc = DOCS[name]
    for keep_name in KEEPS:
        want, _ = _run([doc], keep_name, nested)
        for label, chunks in chunking.chunkings(doc):
            got, _ = _run(chunks, keep_name, nested)
            assert got == want, (keep_name, label)


def test_every_kind_of_shortcut_is_checked() -> None:
    # (over the whole documents: the kinds the table above exercises)
    seen: dict[str, int] = {}
    for doc in DOCS.values():
        for keep_name in KEEPS:
            for nested in (False, True):
                for kind, n in _run([doc], keep_name, nested)[1].checks.items():
                    seen[kind] = seen.get(kind, 0) + n
    missing = [kind for kind in KINDS if not seen.get(kind)]
    assert not missing, (missing, seen)
