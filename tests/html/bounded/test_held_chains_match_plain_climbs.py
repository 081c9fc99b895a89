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

import itertools
import random
from collections.abc import Callable

import pytest

from stream_mf2.html.bounded import sink as bs
from stream_mf2.html.dom import Element, ParentNode
from stream_mf2.html.testing.tree import build
from tests.support import chunking
from tests.support.bounded_sink import KEEPS
from tests.support.builds import pure_only
from tests.support.sink_shortcuts import CheckedSink

# White-box: a subclass reading the sink's private state (see tests/support/builds.py).
pytestmark = pure_only


def _below(node: Element, top: Element) -> bool:
    cur: ParentNode | None = node.parent
    while cur is not None:
        if cur is top:
            return True
        cur = cur.parent
    return False


class ChainSink(CheckedSink):
    """Checks every chain as it is held."""

    def __init__(
        self, keep_name: str, on_nested: Callable[[Element, Element, bool], int] | None = None, **kw: int
    ) -> None:
        super().__init__(KEEPS[keep_name], on_nested, **kw)
        self.chains = 0

    def _hold(self, key: int, held: bs._Held, proxy: Element | None) -> None:
        if held.links >= 0:
            self.chains += 1
            subs = held.groups
            assert held.links == 0 and held.entry is subs[-1].entry
            assert held.size == sum(sub.size for sub in subs)
            for lower, upper in itertools.pairwise(subs):
                assert _below(lower.entry, upper.entry)
            for sub in subs:
                assert sub.entry.sink_state & bs._OPEN and sub.epoch >= 0
                for cand in sub.members():
                    if cand.sink_state:
                        blocker = self._blocker
                        kind, own = self._classify(cand)
                        self._blocker = blocker
                        assert (kind, own) == ("blocked", key), (cand, kind)
                        assert cand is sub.entry or _below(cand, sub.entry)
        super()._hold(key, held, proxy)


def _doc(tag: str, feed: bool, text: str, item_first: bool, n: int) -> str:
    item = "<i class=h-y></i>"
    step = (item + f"</{tag}>" if item_first else f"</{tag}>" + item) + text
    return "x" + ("<div class=h-feed>" if feed else "") + f"<{tag} class=h-x><{tag} class=h-z>" + "<div>" * n + text + step * n


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
                sink = ChainSink(keep_name, _answers(), max_pending=max_pending)
                build(chunks, sink, None)
                chains += sink.chains
    assert chains > 100, chains
