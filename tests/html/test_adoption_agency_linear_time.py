"""A run of misnested formatting end tags, each moving the element one block deeper.

``x<b>`` + n ``<div>`` + n ``</b><i class=x></i>``: every ``</b>`` runs the
adoption agency algorithm, which re-creates the ``b`` inside the next ``div``.
Finding the formatting element on the stack of open elements and its "in scope"
test walked about n entries per end tag (quadratic work); the tree builder now
remembers where it inserted the re-created element and the topmost scope
boundary, checking both before it trusts them.

Work is counted as executed lines (deterministic, see ``tests/support/work.py``)
at n, 2n and 4n. The trees are checked against html5lib's, split anywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pytest

import stream_mf2
from stream_mf2.html.testing import tree_for_test
from tests.support.builds import pure_only
from tests.support.chunking import chunkings
from tests.support.work import lines_executed

html5lib = pytest.importorskip("html5lib")

_TREE_BUILDER = ("/stream_mf2/html/treebuilder.py",)
_ENGINE = ("/stream_mf2/html/", "/stream_mf2/mf2/capture.py", "/stream_mf2/core/parser.py")


def _misnested_b(n: int) -> str:
    return "x<b>" + "<div>" * n + "</b><i class=x></i>" * n


def _misnested_a(n: int) -> str:
    return "x<a>" + "<div>" * n + "</a><i class=x></i>" * n


def _misnested_b_items(n: int) -> str:
    return "x<b>" + "<div>" * n + "</b><i class=h-x></i>" * n


PATTERNS: dict[str, Callable[[int], str]] = {
    "b": _misnested_b,
    "a": _misnested_a,
    "b-items": _misnested_b_items,
}


def _ratios(make: Callable[[int], str], modules: tuple[str, ...]) -> tuple[list[int], list[float]]:
    stream_mf2.parse(make(8))  # one-time set-up (tables built on first use) out of the first count
    work = [lines_executed(partial(stream_mf2.parse, make(n)), modules) for n in (300, 600, 1200)]
    return work, [work[1] / work[0], work[2] / work[1]]


@pure_only  # counts executed Python lines (sys.settrace), which compiled code does not report
@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_tree_builder_work_grows_linearly(name: str) -> None:
    work, ratios = _ratios(PATTERNS[name], _TREE_BUILDER)
    assert all(r < 2.6 for r in ratios), f"{name}: tree builder lines executed {work}, ratios {ratios}"


@pure_only
@pytest.mark.parametrize("name", ["a", "b"])
def test_engine_work_grows_linearly(name: str) -> None:
    work, ratios = _ratios(PATTERNS[name], _ENGINE)
    assert all(r < 2.6 for r in ratios), f"{name}: engine lines executed {work}, ratios {ratios}"


def _html5lib_tree(doc: str) -> str:
    parser = html5lib.HTMLParser(tree=html5lib.getTreeBuilder("etree"), namespaceHTMLElements=False)
    out: str = parser.tree.testSerializer(parser.parse(doc))
    # html5lib writes "|<html>", the engine's test format "| <html>".
    return "\n".join("| " + line[1:] if line.startswith("|") else line for line in out.splitlines())


# n = 24 puts the formatting element more than the remembered-walk depth (16) below
# the current node, so the remembered index and boundary are used; the table cell
# and the object make the topmost scope boundary something other than <html>.
_CASES = [
    pre + make(24) + post
    for make in PATTERNS.values()
    for pre, post in (("", ""), ("<table><td>", ""), ("<object>", "</object>z"), ("", "<table><td></b>q"))
]


@pytest.mark.parametrize("doc", _CASES, ids=range(len(_CASES)))
def test_trees_match_html5lib_split_anywhere(doc: str) -> None:
    expected = _html5lib_tree(doc).strip()
    for label, chunks in chunkings(doc):
        assert tree_for_test(chunks).strip() == expected, label


def test_a_scope_boundary_above_the_element_keeps_it_out_of_scope() -> None:
    # The re-created <b> sits far below an <object> pushed after it: the </b> must
    # be ignored (not in scope), as a fresh walk would find, though the remembered
    # index is still right.
    doc = "x<b>" + "<div>" * 24 + "</b>" + "<object>" + "<div>" * 20 + "</b>y"
    assert tree_for_test([doc]).strip() == _html5lib_tree(doc).strip()
