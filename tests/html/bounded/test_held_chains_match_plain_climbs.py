"""The bounded sink's chains of held groups (``_chain``, ``_wake_chain``) against plain walks.

With ``stream_children``, two nested h-* ``<b>`` closed under n open ``<div>``s
leave one held group under each ``<div>``; the adoption agency algorithm moves a
clone of the outer ``<b>`` down that line at every misnested end tag. Such
groups are held as one chain and woken as a whole. Each time a chain is held,
every candidate in it must be one a climb of its own would hold for the same
blocker, and the chain's elements must lie each below the next; the shortcuts
checked by ``tests/html/bounded/test_held_item_shortcuts.py`` (a chain's top element is its
blocker's proxy) are checked too.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from stream_mf2.html.bounded import sink as bs
from stream_mf2.html.dom import Element
from stream_mf2.html.testing.tree import build
from tests.support import chunking
from tests.support.bounded_sink import KEEPS
from tests.support.sink_shortcuts import checked_sink


def _doc(tag: str, feed: bool, text: str, item_first: bool, n: int) -> str:
    item = "<i class=h-y></i>"
    step = (item + f"</{tag}>" if item_first else f"</{tag}>" + item) + text
    return (
        "x"
        + ("<div class=h-feed>" if feed else "")
        + f"<{tag} class=h-x><{tag} class=h-z>"
        + "<div>" * n
        + text
        + step * n
    )


FORMS = [
    _doc(tag, feed, text, item_first, 64)
    for tag in ("b", "a", "nobr")
    for feed in (False, True)
    for text in ("", "t")
    for item_first in (False, True)
]


def _answers() -> Callable[[Element, Element, bool], int]:
    """Each answer of the nested hand-over in turn."""
    calls = [0]

    def on_nested(el: Element, top: Element, alone: bool) -> int:
        calls[0] += 1
        return [bs.NESTED_KEEP, bs.NESTED_EMPTY, bs.NESTED_REMOVE][calls[0] % 3]

    return on_nested


@pytest.mark.parametrize("max_pending", [1000, 100])
def test_chains_hold_what_plain_climbs_hold(max_pending: int) -> None:
    rng = random.Random(chunking.SEED + max_pending)
    chains = 0
    for html in FORMS:
        for chunks in ([html], chunking.random_chunks(html, rng.randint(0, 10**6))):
            for keep_name in ("h-class", "b-a-div"):
                sink = checked_sink(KEEPS[keep_name], _answers(), max_pending=max_pending)
                build(chunks, sink, None)
                chains += sink.checks.get("chain", 0)
    assert chains > 100, chains
