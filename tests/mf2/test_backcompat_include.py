"""Unit tests for the mf1 include pattern (itemref, headers, a/object.include)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from stream_mf2.html.dom import Comment, Document, Element, Node, Text, text_content
from stream_mf2.mf2.include import expand_includes, include_references, index_ids


def E(name: str, attrs: dict[str, str] | None = None, *children: Node | str) -> Element:
    element = Element(name, attrs=dict(attrs or {}))
    for child in children:
        node: Node = Text(child) if isinstance(child, str) else child
        node.parent = element
        element.children.append(node)
    return element


def doc(*children: Element) -> Document:
    document = Document()
    for child in children:
        child.parent = document
        document.children.append(child)
    return document


def shape(node: Node) -> object:
    """A comparable nested-tuple picture of a subtree (iterative)."""
    if isinstance(node, Text):
        return node.data
    assert isinstance(node, Element)
    result: list[object] = [node.name, node.attrs.get("class", "")]
    stack: list[tuple[Node, list[object]]] = [(c, result) for c in reversed(node.children)]
    while stack:
        child, out = stack.pop()
        if isinstance(child, Text):
            out.append(child.data)
        elif isinstance(child, Element):
            sub: list[object] = [child.name, child.attrs.get("class", "")]
            out.append(sub)
            stack.extend((c, sub) for c in reversed(child.children))
    return result


def test_no_markers_returns_the_same_element() -> None:
    root = E("div", {"class": "vcard"}, E("span", {"class": "fn"}, "A"))
    doc(root)
    assert expand_includes(root, index_ids(root).get) is root
    assert include_references(root) == []


def test_itemref_appends_referenced_elements_in_order() -> None:
    card = E("div", {"class": "vcard", "itemref": "org adr"}, E("span", {"class": "fn"}, "Ben"))
    org = E("p", {"id": "org", "class": "org"}, "Mozilla")
    adr = E("p", {"id": "adr", "class": "adr"}, E("span", {"class": "locality"}, "SF"))
    document = doc(card, org, adr)
    ids = index_ids(document)
    out = expand_includes(card, ids.get)
    assert out is not card
    assert shape(out) == [
        "div",
        "vcard",
        ["span", "fn", "Ben"],
        ["p", "org", "Mozilla"],
        ["p", "adr", ["span", "locality", "SF"]],
    ]
    # Copies, not moves: the original document is untouched.
    assert org.parent is document and len(card.children) == 1
    assert out.children[1] is not org
    # The copy hangs off the original parent for ancestor look-ups.
    assert out.parent is document and out not in document.children
    assert include_references(card) == ["org", "adr"]


def test_itemref_text_joins_like_the_suite_expects() -> None:
    adr = E("span", {"class": "location adr", "itemref": "loc"}, "\n  ", E("span", {"class": "x"}, "Room 10"), "\n")
    event = E("div", {"class": "vevent"}, adr)
    loc = E("p", {"id": "loc"}, "\n  Moscone Center  \n")
    ids = index_ids(doc(event, loc))
    out = expand_includes(event, ids.get)
    nested = out.children[0]
    assert text_content(nested).strip() == "Room 10\n\n  Moscone Center"


def test_nested_root_itemref_expanded_through_outer_root() -> None:
    inner = E("span", {"class": "adr", "itemref": "b"}, "x")
    outer = E("div", {"class": "vevent", "itemref": "a"}, inner)
    a = E("p", {"id": "a"}, E("time", {"class": "dtstart"}, "2012"))
    b = E("p", {"id": "b"}, E("span", {"class": "locality"}, "SF"))
    ids = index_ids(doc(outer, a, b))
    out = expand_includes(outer, ids.get)
    assert shape(out) == [
        "div",
        "vevent",
        ["span", "adr", "x", ["p", "", ["span", "locality", "SF"]]],
        ["p", "", ["time", "dtstart", "2012"]],
    ]


def test_a_include_is_replaced_by_the_target() -> None:
    card = E(
        "div",
        {"class": "vcard"},
        E("span", {"class": "fn"}, "Ben"),
        E("a", {"class": "include", "href": "#tw"}, "Twitter"),
    )
    target = E("div", {"id": "tw"}, E("p", {"class": "org"}, "Twitter Inc"))
    ids = index_ids(doc(card, target))
    out = expand_includes(card, ids.get)
    assert shape(out) == ["div", "vcard", ["span", "fn", "Ben"], ["div", "", ["p", "org", "Twitter Inc"]]]
    assert include_references(card) == ["tw"]


def test_object_include_uses_data() -> None:
    event = E("div", {"class": "vevent"}, E("object", {"class": "include", "data": "#b"}))
    target = E("div", {"id": "b"}, E("p", {"class": "summary"}, "Build"))
    ids = index_ids(doc(event, target))
    assert shape(expand_includes(event, ids.get)) == ["div", "vevent", ["div", "", ["p", "summary", "Build"]]]


def test_include_needs_class_and_same_document_fragment() -> None:
    links = [
        E("a", {"href": "#t"}, "no class"),
        E("a", {"class": "include", "href": "http://example.com/#t"}, "other page"),
        E("a", {"class": "include", "href": "#"}, "empty"),
        E("span", {"class": "include", "href": "#t"}, "not a link"),
    ]
    card = E("div", {"class": "vcard"}, *links)
    ids = index_ids(doc(card, E("p", {"id": "t"}, "T")))
    assert expand_includes(card, ids.get) is card


def test_headers_on_table_cells() -> None:
    th = E("th", {"id": "org"}, E("a", {"class": "url org", "href": "http://dev.opera.com/"}, "Opera"))
    td = E("td", {"class": "vcard", "headers": "org"}, E("span", {"class": "fn"}, "Chris"))
    table = E("table", {}, E("tbody", {}, E("tr", {}, th), E("tr", {}, td)))
    ids = index_ids(doc(table))
    out = expand_includes(td, ids.get)
    assert shape(out) == ["td", "vcard", ["span", "fn", "Chris"], ["th", "", ["a", "url org", "Opera"]]]
    # headers on a non-cell element is not an include.
    div = E("div", {"class": "vcard", "headers": "org"})
    assert expand_includes(div, ids.get) is div


def test_markers_outside_backcompat_roots_are_ignored() -> None:
    target = E("p", {"id": "t", "class": "org"}, "T")
    plain = E("div", {"itemref": "t"})
    mf2 = E("div", {"class": "h-card vcard", "itemref": "t"}, E("a", {"class": "include", "href": "#t"}))
    ids = index_ids(doc(plain, mf2, target))
    assert expand_includes(plain, ids.get) is plain
    assert expand_includes(mf2, ids.get) is mf2
    assert include_references(mf2) == []
    # ... unless the caller says the parent is inside a backcompat root.
    assert expand_includes(plain, ids.get, in_backcompat=True) is not plain


def test_mf2_root_inside_mf1_root_ends_the_scope_and_mf1_inside_restarts_it() -> None:
    target = E("p", {"id": "t"}, "T")
    deepest = E("span", {"class": "adr", "itemref": "t"})
    mf2 = E("div", {"class": "h-card", "itemref": "t"}, deepest)
    outer = E("div", {"class": "vcard"}, mf2)
    ids = index_ids(doc(outer, target))
    out = expand_includes(outer, ids.get)
    assert shape(out) == ["div", "vcard", ["div", "h-card", ["span", "adr", ["p", "", "T"]]]]


def test_self_inclusion_is_skipped() -> None:
    card = E("div", {"class": "vcard", "id": "me", "itemref": "me"}, E("a", {"class": "include", "href": "#me"}, "me"))
    ids = index_ids(doc(card))
    out = expand_includes(card, ids.get)
    assert shape(out) == ["div", "vcard", ["a", "include", "me"]]


def test_including_an_ancestor_is_skipped() -> None:
    card = E("div", {"class": "vcard"}, E("a", {"class": "include", "href": "#wrap"}, "up"))
    wrap = E("section", {"id": "wrap"}, card)
    ids = index_ids(doc(wrap))
    assert shape(expand_includes(card, ids.get)) == ["div", "vcard", ["a", "include", "up"]]


def test_itemref_to_own_descendant_is_skipped() -> None:
    inner = E("span", {"id": "in", "class": "fn"}, "A")
    card = E("div", {"class": "vcard", "itemref": "in"}, inner)
    ids = index_ids(doc(card))
    assert shape(expand_includes(card, ids.get)) == ["div", "vcard", ["span", "fn", "A"]]


def test_include_loops_terminate() -> None:
    # a includes b, b includes a: a's copy gets b once, and b's marker back to a is dropped.
    a = E("div", {"id": "a", "class": "vcard", "itemref": "b"}, "A")
    b = E("div", {"id": "b", "itemref": "a"}, "B", E("a", {"class": "include", "href": "#a"}, "back"))
    ids = index_ids(doc(a, b))
    out = expand_includes(a, ids.get)
    assert shape(out) == ["div", "vcard", "A", ["div", "", "B", ["a", "include", "back"]]]


def test_repeated_includes_are_fine_when_not_loops() -> None:
    t = E("p", {"id": "t"}, "T")
    card = E("div", {"class": "vcard", "itemref": "t t"}, E("a", {"class": "include", "href": "#t"}))
    ids = index_ids(doc(card, t))
    out = expand_includes(card, ids.get)
    assert shape(out) == ["div", "vcard", ["p", "", "T"], ["p", "", "T"], ["p", "", "T"]]


def test_chain_depth_is_bounded() -> None:
    n = 30
    nodes = [E("div", {"id": f"n{i}", "itemref": f"n{i + 1}"}, f"{i}") for i in range(n)]
    root = E("div", {"class": "vcard", "itemref": "n0"})
    ids = index_ids(doc(root, *nodes))
    out = expand_includes(root, ids.get, max_depth=5)
    assert text_content(out) == "01234"
    out = expand_includes(root, ids.get)
    assert text_content(out) == "01234567"  # the default depth is 8


def test_exponential_fanout_is_bounded() -> None:
    # Each level includes the next one twice: 2**20 copies without a budget.
    levels = 20
    nodes = [E("div", {"id": f"l{i}", "itemref": f"l{i + 1} l{i + 1}"}, "x") for i in range(levels)]
    root = E("div", {"class": "vcard", "itemref": "l0"})
    ids = index_ids(doc(root, *nodes))
    out = expand_includes(root, ids.get, max_depth=levels, max_includes=100, max_nodes=10_000)
    assert 0 < text_content(out).count("x") <= 100
    out = expand_includes(root, ids.get, max_depth=levels, max_includes=10_000, max_nodes=50)
    assert 0 < text_content(out).count("x") <= 50


def test_oversized_target_is_skipped_whole() -> None:
    big = E("div", {"id": "big"}, *[E("span", {}, "y") for _ in range(100)])
    root = E("div", {"class": "vcard", "itemref": "big"}, "own")
    ids = index_ids(doc(root, big))
    out = expand_includes(root, ids.get, max_nodes=50)
    assert shape(out) == ["div", "vcard", "own"]


def test_unknown_ids_are_skipped() -> None:
    root = E("div", {"class": "vcard", "itemref": "nope"}, "own")
    out = expand_includes(root, lambda _id: None)
    assert shape(out) == ["div", "vcard", "own"]
    assert include_references(root) == ["nope"]


def test_comments_and_attributes_are_copied() -> None:
    target = E("p", {"id": "t", "lang": "fr"}, "T")
    target.children.append(Comment("c"))
    root = E("div", {"class": "vcard", "itemref": "t"})
    ids = index_ids(doc(root, target))
    out = expand_includes(root, ids.get)
    copied = out.children[0]
    assert isinstance(copied, Element) and copied.attrs == {"id": "t", "lang": "fr"}
    assert copied.attrs is not target.attrs
    assert isinstance(copied.children[1], Comment) and copied.children[1].parent is copied


def test_index_ids_first_wins_and_is_iterative() -> None:
    first = E("p", {"id": "x"}, "1")
    second = E("p", {"id": "x"}, "2")
    deep = E("div", {"id": "deep"})
    node = deep
    for _ in range(5000):
        node = E("div", {}, node)
    ids = index_ids(doc(first, second, node))
    assert ids["x"] is first and ids["deep"] is deep


def test_deep_trees_do_not_recurse() -> None:
    leaf = E("span", {"class": "fn", "itemref": "t"}, "A")
    node = leaf
    for _ in range(5000):
        node = E("div", {}, node)
    root = E("div", {"class": "vcard"}, node)
    ids = index_ids(doc(root, E("p", {"id": "t"}, "T")))
    out = expand_includes(root, ids.get)
    assert text_content(out) == "AT"


def test_loop_guard_walks_are_bounded_on_deep_trees() -> None:
    # The marker sits 5000 levels deep: checking "is the target an ancestor?"
    # walks all of them. A small budget makes the guard refuse (conservatively).
    marker_holder = E("span", {"class": "fn", "itemref": "t"}, "A")
    node = marker_holder
    for _ in range(5000):
        node = E("div", {}, node)
    root = E("div", {"class": "vcard"}, node)
    ids = index_ids(doc(root, E("p", {"id": "t"}, "T")))
    assert text_content(expand_includes(root, ids.get, max_nodes=100)) == "A"
    assert text_content(expand_includes(root, ids.get, max_nodes=1000)) == "AT"


# --- property-based: random pages with random include markers -------------------

_IDS = ["a", "b", "c", "d"]


@st.composite
def _random_page(draw: st.DrawFn) -> tuple[Document, list[Element]]:
    """A random forest of elements with random ids, roots and include markers."""
    count = draw(st.integers(1, 25))
    elements: list[Element] = []
    for _ in range(count):
        attrs: dict[str, str] = {}
        cls = draw(st.sampled_from(["", "vcard", "h-card", "fn", "include", "adr", "hentry"]))
        if cls:
            attrs["class"] = cls
        if draw(st.booleans()):
            attrs["id"] = draw(st.sampled_from(_IDS))
        if draw(st.booleans()):
            attrs["itemref"] = " ".join(draw(st.lists(st.sampled_from(_IDS), max_size=3)))
        name = draw(st.sampled_from(["div", "a", "object", "td", "span"]))
        if name == "a":
            attrs["href"] = "#" + draw(st.sampled_from(_IDS))
        elif name == "object":
            attrs["data"] = "#" + draw(st.sampled_from(_IDS))
        elif name == "td" and draw(st.booleans()):
            attrs["headers"] = draw(st.sampled_from(_IDS))
        elements.append(E(name, attrs, "t"))
    document = Document()
    for i, element in enumerate(elements):
        # attach to an earlier element or to the document: any tree shape
        parent_index = draw(st.integers(-1, i - 1))
        parent: Document | Element = document if parent_index < 0 else elements[parent_index]
        element.parent = parent
        parent.children.append(element)
    return document, elements


def _snapshot(node: Node) -> object:
    return shape(node) if isinstance(node, Element) else None


def _check_links(root: Element) -> int:
    count = 0
    stack: list[Element] = [root]
    while stack:
        element = stack.pop()
        for child in element.children:
            count += 1
            assert child.parent is element
            if isinstance(child, Element):
                stack.append(child)
    return count


@settings(max_examples=150, deadline=None)
@given(_random_page())
def test_random_include_graphs_terminate_within_budget(page: tuple[Document, list[Element]]) -> None:
    document, elements = page
    before = [_snapshot(e) for e in document.children]
    ids = index_ids(document)
    for element in elements:
        own = _check_links(element)
        out = expand_includes(element, ids.get, max_nodes=200, max_includes=50)
        copied = _check_links(out)
        # The copy holds the element's own nodes plus at most the node budget
        # (a replaced a.include/object marker only ever removes nodes).
        assert copied <= own + 200
        if out is not element:
            assert out.parent is element.parent
    assert [_snapshot(e) for e in document.children] == before
