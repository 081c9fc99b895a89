"""WPT XPath matching against lxml: the streaming result equals lxml's XPath evaluation.

For every microformats suite page, every fixture and a sample of the
html5lib-tests tree-construction documents (misnested markup: foster
parenting, the adoption agency), the full DOM that our tree builder builds is
converted to lxml. Elements are picked at random; their full XPath (a position
on every step), a generalised one (some positions dropped, so several elements
match) and the id-anchored one are evaluated by lxml, and the streaming
matcher (repeatable blocks) must give exactly the elements lxml gives, in
document order, whatever the chunking.

Known, documented difference: where tree construction moves an element that
was already created (the adoption agency algorithm), adds attributes to
``<html>``/``<body>`` later, or foster-parents an element before an open
``table`` (whose ``*[n]`` position then changes), a streaming parser has
already decided whether to keep the element, and the content of an element it
did not keep is gone. Only there may a match be missing, and never silently: a
page whose matches differ from lxml's must carry a ``wpt:`` warning in its
errors (so a page without one matches exactly), and every element lxml finds
that the stream does not must be, or be inside, an element that was moved, got
a sibling inserted before it, or got late attributes (recorded by the full DOM's
sink); the stream never finds an element lxml does not.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from stream_mf2 import Parser
from stream_mf2.html.dom import Element, ParentNode
from stream_mf2.html.sink import DomSink
from stream_mf2.html.tokenizer import Tokenizer
from stream_mf2.html.treebuilder import TreeBuilder
from stream_mf2.wpt import Block, Template, collect_pages
from stream_mf2.wpt._compile import compile_xpath
from tests.support import chunking
from tests.support.suites import REPO, suite_dir

etree = pytest.importorskip("lxml.etree")

_NAME = re.compile(r"^[A-Za-z_][\w.\-]*$")
PICKS = 4


def _pages() -> list[tuple[str, str]]:
    pages: list[tuple[str, str]] = []
    for path in sorted((REPO / "fixtures").rglob("*.html")):
        pages.append((str(path.relative_to(REPO)), path.read_bytes().decode("utf-8", "replace")))
    root = suite_dir("microformats-tests")
    if root is not None:
        for path in sorted(Path(root).rglob("*.html")):
            pages.append((str(path.relative_to(root)), path.read_text("utf-8", "replace")))
    h5 = suite_dir("html5lib-tests")
    if h5 is not None:
        from stream_mf2.html.testing.tree import read_tree_tests

        cases = []
        for path in sorted(Path(h5, "tree-construction").glob("*.dat")):
            for case in read_tree_tests(path.read_bytes(), path.name):
                if case.scripting != "on" and case.fragment_context is None and "<" in case.data:
                    cases.append((f"{case.file}#{case.index}", case.data))
        rnd = random.Random(chunking.SEED)
        pages.extend(rnd.sample(cases, min(300, len(cases))))
    return pages


PAGES = _pages()


class _MoveRecorder:
    """A tree sink in front of a full DOM sink that notes moves and late attributes (composition)."""

    def __init__(self) -> None:
        self.inner = DomSink()
        self.moved = False
        #: nodes whose place or attributes changed after they were created
        self.affected: set[int] = set()
        #: parents a node was removed from (``<frameset>`` replacing ``<body>``): later children shift
        self.shifted: set[int] = set()
        self.selectedcontent = False

    def __getattr__(self, name: str) -> Any:
        if name in ("create_element_in", "append_leaf"):
            raise AttributeError(name)  # the tree builder then uses the plain calls recorded below
        return getattr(self.inner, name)

    def append(self, parent: Any, node: Any) -> None:
        if isinstance(node, Element) and (node.parent is not None or node.children or id(parent) in self.shifted):
            # a move, or a clone placed with content moved into it (the adoption agency)
            self.moved = True
            self.affected.add(id(node))
        self.inner.append(parent, node)

    def insert_before(self, parent: Any, node: Any, ref: Any) -> None:
        if isinstance(node, Element):
            # a move, or foster parenting: the table after it gets a new ``*[n]`` position
            self.moved = True
            self.affected.add(id(node))
            children = parent.children
            for c in children[children.index(ref) :]:
                self.affected.add(id(c))
        self.inner.insert_before(parent, node, ref)

    def reparent_children(self, old: Any, new: Any) -> None:
        if any(isinstance(c, Element) for c in old.children):
            self.moved = True
            self.affected.update(id(c) for c in old.children)
            self.affected.add(id(new))
        self.inner.reparent_children(old, new)

    def remove(self, node: Any) -> None:
        parent = node.parent
        if parent is not None:
            self.moved = True
            self.shifted.add(id(parent))
            children = parent.children
            for c in children[children.index(node) :]:
                self.affected.add(id(c))
        self.inner.remove(node)

    def pop(self, element: Any) -> None:
        # An option's end may replace a <selectedcontent>'s children by clones of its own: elements
        # created after the fact, never placed through the calls above.
        if element.name != "option" or not self.selectedcontent:
            self.inner.pop(element)
            return
        before = {id(c) for c in _descendants(self.inner.document)}
        self.inner.pop(element)
        for c in _descendants(self.inner.document):
            if id(c) not in before:
                self.moved = True
                self.affected.add(id(c))

    def create_element(self, name: str, namespace: str, attrs: dict[str, str]) -> Any:
        if name == "selectedcontent":
            self.selectedcontent = True
        return self.inner.create_element(name, namespace, attrs)

    def add_attrs_if_missing(self, element: Any, attrs: dict[str, str]) -> None:
        if any(k not in element.attrs for k in attrs):
            self.moved = True
            self.affected.add(id(element))
        self.inner.add_attrs_if_missing(element, attrs)


def _descendants(root: ParentNode) -> list[Element]:
    out: list[Element] = []
    stack: list[ParentNode] = [root]
    while stack:
        node = stack.pop()
        for c in node.children:
            if type(c) is Element:
                out.append(c)
                stack.append(c)
    return out


def full_dom(html: str) -> _MoveRecorder:
    sink = _MoveRecorder()
    tree = TreeBuilder(sink)
    tok = Tokenizer(tree)
    tok.feed(html)
    tok.close()
    return sink


def _to_lxml(root: ParentNode) -> tuple[Any, dict[int, Any]] | None:
    """lxml copy of the DOM (local names, ``id`` only; no template contents); ``None`` if a name is not XML."""
    doc_el = None
    mapping: dict[int, Any] = {}
    stack: list[tuple[ParentNode, Any]] = [(root, None)]
    while stack:
        node, parent = stack.pop()
        for c in node.children:
            if type(c) is not Element:
                continue
            if not _NAME.match(c.name):
                return None
            el = etree.Element(c.name) if parent is None else etree.SubElement(parent, c.name)
            id_ = c.attrs.get("id")
            if id_ is not None:
                el.set("id", id_)
            if parent is None:
                doc_el = el
            mapping[id(el)] = c
            stack.append((c, el))
    if doc_el is None:
        return None
    return etree.ElementTree(doc_el), mapping


def _dom_paths(root: ParentNode) -> dict[str, Element]:
    """Every element of the DOM by its canonical path (as :func:`_lxml_path` writes it for the lxml copy)."""
    out: dict[str, Element] = {}
    stack: list[tuple[ParentNode, str]] = [(root, "")]
    while stack:
        node, prefix = stack.pop()
        counts: dict[str, int] = {}
        for c in node.children:
            if type(c) is Element:
                counts[c.name] = counts.get(c.name, 0) + 1
                path = f"{prefix}/{c.name}[{counts[c.name]}]"
                out[path] = c
                stack.append((c, path))
    return out


def _lxml_path(el: Any) -> str:
    """Canonical path from lxml: every step with its position among same-name siblings."""
    steps = []
    while el is not None:
        pos = 1 + sum(1 for _ in el.itersiblings(el.tag, preceding=True))
        steps.append(f"/{el.tag}[{pos}]")
        el = el.getparent()
    return "".join(reversed(steps))


def _queries(tree: Any, rnd: random.Random) -> list[str]:
    elements = list(tree.getroot().iter())
    out: list[str] = []
    for el in rnd.sample(elements, min(PICKS, len(elements))):
        full = _lxml_path(el)
        out.append(full)
        steps = full.split("/")[1:]
        general = [s if rnd.random() < 0.5 else s.split("[")[0] for s in steps]
        out.append("/" + "/".join(general))
        if rnd.random() < 0.3 and len(steps) > 1:
            # a step with "*"
            i = rnd.randrange(len(steps))
            any_pos = 1 + sum(1 for _ in _lxml_at(tree, steps[: i + 1]).itersiblings(preceding=True))
            star = [*steps[:i], f"*[{any_pos}]", *steps[i + 1 :]]
            out.append("/" + "/".join(star))
        anc = el
        while anc is not None and anc.get("id") is None:
            anc = anc.getparent()
        if anc is not None and '"' not in anc.get("id") and anc is not el:
            rest = full[len(_lxml_path(anc)) :]
            out.append(f'//*[@id="{anc.get("id")}"]{rest}')
        elif anc is el and '"' not in el.get("id"):
            out.append(f'//*[@id="{el.get("id")}"]')
    return out


def _lxml_at(tree: Any, steps: list[str]) -> Any:
    return tree.xpath("/" + "/".join(steps))[0]


def _template(paths: list[str]) -> Template:
    blocks = tuple(
        Block(None, None, None, compile_xpath(p), None, True, (), 0, 0) for p in paths
    )
    return Template("oracle", None, None, blocks, 0, 0, "example.com")


def _stream(data: bytes, template: Template, chunks: list[bytes]) -> tuple[list[list[str]], list[str]]:
    """The matches of every block, and the page's warnings of late changes."""
    parser = Parser("http://example.com/", wpt=template)
    events = []
    for c in chunks:
        events.extend(parser.feed_events(c))
    events.extend(parser.close_events())
    page = collect_pages(events)[0]
    warnings = [e for e in page.get("errors", []) if e.startswith("wpt: ")]
    return [[m["xpath"] for m in b["matches"]] for b in page["blocks"]], warnings


@pytest.mark.parametrize(("name", "html"), PAGES, ids=[p[0] for p in PAGES])
def test_streaming_xpath_equals_lxml(name: str, html: str) -> None:
    rnd = random.Random(f"{chunking.SEED}:{name}")
    sink = full_dom(html)
    converted = _to_lxml(sink.document)
    if converted is None:
        pytest.skip("an element name that lxml cannot hold")
    tree, _ = converted
    queries = _queries(tree, rnd)
    expected = [[_lxml_path(e) for e in tree.xpath(q)] for q in queries]
    elements = _dom_paths(sink.document)

    def changed_late(path: str) -> bool:
        """Was the element at ``path``, or an ancestor, moved or changed after it was created?"""
        node = elements[path]
        while node is not None:
            if id(node) in sink.affected:
                return True
            node = node.parent
        return False
    template = _template(queries)
    data = html.encode("utf-8")
    small = len(data) < 3000
    runs: list[tuple[str, list[bytes]]] = [("whole", [data])]
    runs.append((f"random(seed={chunking.SEED})", chunking.random_chunks(data, chunking.SEED)))
    if small:
        runs.append(("bytes", chunking.one_by_one(data)))
        runs.extend(list(chunking.two_way(data))[:: max(1, len(data) // 5)])
    for label, chunks in runs:
        got, warnings = _stream(data, template, chunks)
        for q, want, have in zip(queries, expected, got, strict=True):
            if have == want:
                continue
            # Never silent: a page without a warning of a late change matches exactly.
            assert warnings, f"{name} [{label}] {q}: {want} != {have} and no warning"
            assert set(have) <= set(want), f"{name} [{label}] {q}: a match lxml does not give"
            missing = [p for p in want if p not in have]
            assert all(changed_late(p) for p in missing), f"{name} [{label}] {q}: {missing} missing"
            assert have == [p for p in want if p in have], f"{name} [{label}] {q}: order"
