"""The bounded sink's shortcuts for held items after moves, against plain walks.

With ``stream_children`` the adoption agency algorithm moves a clone of a
formatting element down a chain of open elements at each misnested end tag:

* a ready item before every blocker's proxy (``_before_held``) is handed over
  without a place among the held items: it must precede each of them;
* the outermost kept ancestor of a nested item is found through the remembered
  climbs (``_nested_top``): it must be the one a climb of every ancestor finds;
* ``_alone`` skips held groups of nested candidates: its answer must be the one
  a look at every pending candidate gives.

Inputs: the adoption agency growth patterns, random tag soup and the
html5lib-tests tree-construction cases, in random chunkings, with the nested
hand-over on (every kept element watched; each answer in turn). The sink checks itself
(``check_shortcuts=True``: :func:`tests.support.sink_shortcuts.checked_sink`).
"""

from __future__ import annotations

import random

import pytest

from stream_mf2.html.bounded import BoundedSink
from stream_mf2.html.bounded import sink as bs
from stream_mf2.html.dom import Element
from stream_mf2.html.testing.tree import build, context_element
from tests.support import chunking
from tests.support.bounded_sink import KEEPS, tag_soup
from tests.support.nesting_patterns import PATTERNS as NESTED_GROWTH
from tests.support.sink_shortcuts import checked_sink
from tests.support.tree_cases import require_cases


def _run(chunks: list[str], keep_name: str, fragment: str | None, max_pending: int | None = None) -> BoundedSink:
    answers = [bs.NESTED_KEEP, bs.NESTED_EMPTY, bs.NESTED_REMOVE]
    calls = [0]

    def on_nested(el: Element, top: Element, alone: bool) -> int:
        calls[0] += 1
        return answers[calls[0] % 3]

    sink = checked_sink(KEEPS[keep_name], on_nested, max_pending=max_pending)
    build(chunks, sink, context_element(fragment) if fragment else None)
    return sink


#: Adoption agency forms (the growth patterns and a few more), at a small size.
FORMS = [make(12) for make in NESTED_GROWTH.values()] + [
    f"x{pre}<{tag} class=h-x>" + "<div>" * 12 + step * 12
    for tag in ("b", "a", "nobr")
    for pre in ("", "<div class=h-feed>", "<table><td>")
    for step in (f"</{tag}><i class=h-y></i>", f"<i class=h-y></i></{tag}>t", f"</{tag}><{tag} class=h-z><p class=h-y>")
]


@pytest.mark.parametrize("max_pending", [1000, 3])
def test_forms_and_soup(max_pending: int) -> None:
    rng = random.Random(chunking.SEED + max_pending)
    fast = tops = 0
    docs = FORMS + [tag_soup(rng) for _ in range(200)]
    for html in docs:
        for chunks in ([html], chunking.random_chunks(html, rng.randint(0, 10**6))):
            for keep_name in KEEPS:
                sink = _run(chunks, keep_name, None, max_pending=max_pending)
                fast += sink.checks.get("before_held", 0)
                tops += sink.checks.get("nested_top", 0)
    assert fast > (100 if max_pending > 3 else 50) and tops > 2000, (fast, tops)


def test_tree_construction_cases() -> None:
    from stream_mf2.html.testing.tree import TreeTest

    tops = 0
    for case in require_cases():
        assert isinstance(case, TreeTest)
        tops += _run([case.data], "b-a-div", case.fragment_context).checks.get("nested_top", 0)
    assert tops > 100
