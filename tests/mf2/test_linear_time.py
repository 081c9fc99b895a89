"""Work in the mf2 layer grows linearly with input plus output.

Nested property values each need the text of their own subtree; the text
index (:class:`stream_mf2.mf2.text.TextIndex`) must answer them without
walking a subtree again per level. Work is measured deterministically, as
lines of the package executed (``sys.settrace``, see
``tests/support/work.py``), not time, so the checks cannot flake on a
loaded machine: at n, 2n and 4n nesting levels linear work doubles with each
step (about 1.95 here), the quadratic walks this guards against gave 3 and
more; the bound is 2.6 per doubling. Line tracing sees only Python code, so
these checks run against the pure-Python build (the compiled build runs the
same source, and the output checks below run against both).

Nested e-* ``html`` is quadratic in its output by nature; it is bounded by
``Options.max_nested_html_chars``, checked here too. The text index and the
direct e-* serialiser are also compared with the plain functions they stand for.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from stream_mf2 import parse
from stream_mf2.html.dom import Comment, Element, Node, ParentNode, Text, iter_descendants
from stream_mf2.html.serialize import serialize_children
from stream_mf2.html.testing import parse_document
from stream_mf2.mf2 import Options, document_context, items_from_subtree, parse_dom
from stream_mf2.mf2 import text as text_module
from stream_mf2.mf2.properties import e_html
from stream_mf2.mf2.text import TextIndex, element_text, raw_text, trim
from stream_mf2.mf2.urls import resolve
from tests.support.builds import pure_only
from tests.support.suites import REPO
from tests.support.work import lines_executed

BASE = "http://example.com/dir/"
FIXTURES = REPO / "fixtures" / "bench"

# Growth of the work per doubling of the nesting at which it is called superlinear.
MAX_GROWTH = 2.6
#: Everything the parse runs: the HTML engine, the capture, the mf2 layer.
_PACKAGE = ("/stream_mf2/",)


def _growth(make: Callable[[int], bytes], n: int, **options: Any) -> tuple[list[int], list[float]]:
    """Lines executed parsing ``make(n)``, ``make(2n)``, ``make(4n)``, and the two ratios."""
    work = [
        lines_executed(partial(parse, make(k), BASE, max_depth=1_000_000, **options), _PACKAGE) for k in (n, 2 * n, 4 * n)
    ]
    return work, [work[1] / work[0], work[2] / work[1]]


SHAPES: dict[str, Callable[[int], bytes]] = {
    "p-values": lambda n: b'<div class="h-card">' + b'<div class="p-note">' * n + b"x",
    "u-values": lambda n: b'<div class="h-card">' + b'<div class="u-x">' * n + b"x",
    "dt-values": lambda n: b'<div class="h-event">' + b'<div class="dt-x">' * n + b"x",
    "p-author-h-card": lambda n: b'<div class="h-entry">' + b'<div class="p-author h-card">' * n + b"x",
    "u-h-card": lambda n: b'<div class="h-entry">' + b'<div class="u-x h-card">' * n + b"x",
    "value-class": lambda n: b'<div class="h-entry">' + b'<div class="p-x"><span class="value">' * n + b"x",
    "e-values": lambda n: b'<div class="h-entry">' + b'<div class="e-x">' * n + b"x",
    "e-h-entry": lambda n: b'<div class="h-entry">' + b'<div class="e-x h-entry">' * n + b"x",
}


# Nested e-* html is quadratic in its output until ``max_nested_html_chars`` stops it:
# these shapes are measured past that point.
LARGE_START = {"e-values": 500, "e-h-entry": 500}


@pure_only  # counts executed Python lines (sys.settrace), which compiled code does not report
@pytest.mark.parametrize("text", ["spec", "normalized"])
@pytest.mark.parametrize("shape", list(SHAPES))
def test_nested_values_are_linear(shape: str, text: str) -> None:
    work, ratios = _growth(SHAPES[shape], LARGE_START.get(shape, 100), text=text)
    assert max(ratios) < MAX_GROWTH, f"{shape}: lines executed {work}, ratios per doubling {ratios}"


# Empty paragraphs and line breaks give the normalised text algorithm blank
# tokens (paragraph markers, newlines) that it trims from the ends of a value;
# repeated at every nesting level they must not be read again per level.
BLANK_RUNS: dict[str, Callable[[int], bytes]] = {
    "empty-p": lambda n: b'<div class="h-card">' + b'<div class="p-note"><p></p>' * n + b"x",
    "br": lambda n: b'<div class="h-card">' + b'<div class="p-note"><br>' * n + b"x",
    "spaces": lambda n: b'<div class="h-card">' + b'<div class="p-note"><span> </span>' * n + b"x",
    "run-of-empty-p": lambda n: b'<div class="h-card">' + b'<div class="p-note">' * n + b"<p></p>" * n + b"x",
    # nested items are finished innermost first: each level's text copies the level below
    "p-author-empty-p": lambda n: b'<div class="h-entry">' + b'<div class="p-author h-card">\n<p></p>\n' * n + b"x",
    "p-author-br": lambda n: b'<div class="h-entry">' + b'<div class="p-author h-card"><br>' * n + b"x",
    "p-author-p-space": lambda n: b'<div class="h-entry">' + b'<div class="p-author h-card"><p> </p>' * n + b"x",
    "p-author-p-br": lambda n: b'<div class="h-entry">' + b'<div class="p-author h-card"><p><br></p>' * n + b"x",
}


@pure_only  # counts executed Python lines (sys.settrace), which compiled code does not report
@pytest.mark.parametrize("shape", list(BLANK_RUNS))
def test_normalized_blank_runs_are_linear(shape: str) -> None:
    work, ratios = _growth(BLANK_RUNS[shape], 100, text="normalized")
    assert max(ratios) < MAX_GROWTH, f"{shape}: lines executed {work}, ratios per doubling {ratios}"


# An empty <pre> is not blank: it keeps a space after it and line breaks before
# it, so the ends are not trimmed past it (nor past one of only spaces or only
# line breaks). Chains of them (with only paragraph markers, spaces and line
# breaks between) and the runs of such weak tokens around them are read in
# constant time. Nested items are finished innermost
# first (each level copies the one below); the levels of one item are read
# outermost first (each level reads a part of the outer level's tokens).
EMPTY_PRE: dict[str, Callable[[int], bytes]] = {
    "pre-first": lambda n: b'<div class="h-entry">' + b'<div class="p-author h-card"><pre></pre>' * n + b"x",
    "pre-first-one-item": lambda n: b'<div class="h-card">' + b'<div class="p-note"><pre></pre>' * n + b"x",
    "pre-spaces": lambda n: b'<div class="h-entry">' + b'<div class="p-author h-card">\n<pre></pre>\n' * n + b"x",
    "pre-spaces-one-item": lambda n: b'<div class="h-card">' + b'<div class="p-note">\n<pre></pre>\n' * n + b"x",
    "pre-p": lambda n: b'<div class="h-entry">' + b'<div class="p-author h-card"><pre></pre><p></p>' * n + b"x",
    "pre-p-one-item": lambda n: b'<div class="h-card">' + b'<div class="p-note"><pre></pre> <p></p>' * n + b"x",
    "pre-br": lambda n: b'<div class="h-entry">' + b'<div class="p-author h-card"><pre></pre><br>' * n + b"x",
    "pre-br-one-item": lambda n: b'<div class="h-card">' + b'<div class="p-note"><br><pre></pre><br>' * n + b"x",
    "pre-last": lambda n: (
        b'<div class="h-entry">' + b'<div class="p-author h-card">' * n + b"x" + b"<pre></pre></div>" * n
    ),
    "pre-last-one-item": lambda n: (
        b'<div class="h-card">' + b'<div class="p-note">' * n + b"x" + b"<p></p><pre></pre></div>" * n
    ),
    # a <pre> of only spaces or only line breaks reads like an empty one between others
    "space-pre": lambda n: b'<div class="h-entry">' + b'<div class="p-author h-card"><pre> </pre>' * n + b"x",
    "space-pre-one-item": lambda n: (
        b'<div class="h-card">' + b'<div class="p-note"><pre>  </pre><pre></pre>' * n + b"x"
    ),
    "newline-pre": lambda n: b'<div class="h-card">' + b'<div class="p-note"><pre>\n\n</pre>' * n + b"x",
    "run-of-pre": lambda n: b'<div class="h-card">' + b'<div class="p-note">' * n + b"<pre></pre>" * n + b"x",
    # the weak run between the last empty <pre> and the text, shared by every level
    "pre-then-run": lambda n: b'<div class="h-card">' + b'<div class="p-note"><pre></pre>' * n + b"<i> </i>" * n + b"x",
    "pre-then-br": lambda n: b'<div class="h-card">' + b'<div class="p-note"><pre></pre>' * n + b"<br> " * n + b"x",
    "run-between-text": lambda n: b'<div class="h-card">' + b'<div class="p-note">' * n + b"a" + b"<i> </i>" * n + b"b",
    "br-spaces": lambda n: b'<div class="h-entry">' + b'<div class="p-author h-card"><br> ' * n + b"x",
}


# Line breaks between empty <pre> elements are kept, so in these shapes every
# level's value is as long as the nesting is deep: the output itself grows
# quadratically, and only the work per token is checked for them.
GROWING_VALUES = {
    "newline-pre",
    "pre-p",
    "pre-p-one-item",
    "pre-br",
    "pre-br-one-item",
    "pre-last-one-item",
    "pre-then-br",
}


@pure_only  # counts executed Python lines (sys.settrace), which compiled code does not report
@pytest.mark.parametrize("shape", [name for name in EMPTY_PRE if name not in GROWING_VALUES])
def test_normalized_empty_pre_is_linear(shape: str) -> None:
    work, ratios = _growth(EMPTY_PRE[shape], 100, text="normalized")
    assert max(ratios) < MAX_GROWTH, f"{shape}: lines executed {work}, ratios per doubling {ratios}"


def _token_work(doc: bytes, monkeypatch: pytest.MonkeyPatch) -> int:
    """Tokens the normalised text reads: the index's token lists plus every token list finished."""
    work = 0
    finish, add = text_module._finish_normalized, text_module._NormalizedIndex.add

    def counting_finish(tokens: list[str | int]) -> str:
        nonlocal work
        work += len(tokens)
        return finish(tokens)

    def counting_add(self: text_module._NormalizedIndex, tokens: list[str | int]) -> None:
        nonlocal work
        work += len(tokens) - (len(self.nonblank_counts) - 1)
        add(self, tokens)

    with monkeypatch.context() as patch:
        patch.setattr(text_module, "_finish_normalized", counting_finish)
        patch.setattr(text_module._NormalizedIndex, "add", counting_add)
        parse(doc, BASE, max_depth=1_000_000, text="normalized")
    return work


@pure_only  # counts calls by patching module functions
@pytest.mark.parametrize("shape", list(EMPTY_PRE))
def test_normalized_empty_pre_reads_each_token_once(shape: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # deterministic: no timing; the quadratic reading this guards against gives 16x
    small, large = (_token_work(EMPTY_PRE[shape](n), monkeypatch) for n in (200, 800))
    assert large < 5 * small, f"{shape}: 4x the nesting read {large / small:.1f}x the tokens"


def test_normalized_empty_pre_is_still_right() -> None:
    for name, shape in EMPTY_PRE.items():
        doc = shape(4)
        dom = parse_document(doc.decode())
        root = next(el for el in iter_descendants(dom) if isinstance(el, Element) and "h-" in el.attrs.get("class", ""))
        item = parse(doc, BASE, text="normalized")["items"][0]
        prop = "author" if "p-author" in doc.decode() else "note"
        values = [v["value"] if isinstance(v, dict) else v for v in item["properties"][prop]]
        elements = [
            el
            for el in iter_descendants(root)
            if isinstance(el, Element) and f"p-{prop}" in el.attrs.get("class", "").split()
        ]
        if prop == "author":
            elements = elements[:1]  # each nested item holds the next level
        assert values == [element_text(el, BASE, "normalized", True) for el in elements], name


# Blank ends repeated at every level, in nested items (p-author h-card: finished
# innermost first, each level copies the one below) and in one item (p-note).
# The line breaks their short equivalents stand for grow with the depth (the
# values do not: every one is "x"), so the work is measured in characters too.
BLANK_LEVELS = [
    b"\n<p></p>\n",
    b"<p></p>",
    b" <p></p> ",
    b"<p> </p>",
    b" <p> </p> ",
    b"<p>\n</p>",
    b"\n<p>\n</p>\n",
    b"<p><br></p>",
    b"<br>",
    b" <br> ",
    b"\n<br>\n",
    b"<br><br>",
    b"<p></p><br>",
    b"<br><p></p>",
    b" <br><p> </p> \n",
]
BLANK_OPENERS = {
    "items": (b'<div class="h-entry">', b'<div class="p-author h-card">'),
    "one-item": (b'<div class="h-card">', b'<div class="p-note">'),
}


def _blank_levels(opener: str, level: bytes, n: int) -> bytes:
    root, open_level = BLANK_OPENERS[opener]
    return root + (open_level + level) * n + b"x"


def _text_work(doc: bytes, monkeypatch: pytest.MonkeyPatch) -> int:
    """Characters the normalised text reads (a count token counts 1): every token list
    indexed, every blank end compressed, every token list finished."""
    work = 0
    finish, add, compress = text_module._finish_normalized, text_module._NormalizedIndex.add, text_module._compress_blank

    def size(tokens: list[str | int]) -> int:
        return sum(len(token) if isinstance(token, str) else 1 for token in tokens)

    def counting_finish(tokens: list[str | int]) -> str:
        nonlocal work
        work += size(tokens)
        return finish(tokens)

    def counting_add(self: text_module._NormalizedIndex, tokens: list[str | int]) -> None:
        nonlocal work
        work += size(tokens[len(self.nonblank_counts) - 1 :])
        add(self, tokens)

    def counting_compress(run: list[str | int]) -> list[str | int]:
        nonlocal work
        work += size(run)
        return compress(run)

    with monkeypatch.context() as patch:
        patch.setattr(text_module, "_finish_normalized", counting_finish)
        patch.setattr(text_module._NormalizedIndex, "add", counting_add)
        patch.setattr(text_module, "_compress_blank", counting_compress)
        parse(doc, BASE, max_depth=1_000_000, text="normalized")
    return work


@pure_only  # counts by patching module functions (the timed growth checks cover both builds)
@pytest.mark.parametrize("level", BLANK_LEVELS, ids=[repr(level)[2:-1] for level in BLANK_LEVELS])
@pytest.mark.parametrize("opener", list(BLANK_OPENERS))
def test_normalized_blank_levels_read_each_character_once(
    opener: str, level: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    # deterministic: no timing; line breaks re-read per level gave 15x, tokens re-read too
    small, large = (_text_work(_blank_levels(opener, level, n), monkeypatch) for n in (200, 800))
    assert large < 5 * small, f"{opener} {level!r}: 4x the nesting read {large / small:.1f}x the characters"


def _nested_values(value: object, prop: str) -> list[str]:
    """The values of ``prop`` down a chain of nested items (or of one item)."""
    found: list[str] = []
    while isinstance(value, dict):
        entries = value["properties"].get(prop, [])
        found += [entry["value"] if isinstance(entry, dict) else entry for entry in entries]
        value = entries[0] if entries and isinstance(entries[0], dict) else None
    return found


@pytest.mark.parametrize("opener", list(BLANK_OPENERS))
def test_normalized_blank_levels_are_still_right(opener: str) -> None:
    prop = "author" if opener == "items" else "note"
    for level in BLANK_LEVELS:
        # the output is one "x" per level: it grows linearly, so must the work
        for n in (1, 4, 30):
            doc = _blank_levels(opener, level, n)
            values = _nested_values(parse(doc, BASE, max_depth=1_000_000, text="normalized")["items"][0], prop)
            elements = [
                el
                for el in iter_descendants(parse_document(doc.decode()))
                if isinstance(el, Element) and f"p-{prop}" in el.attrs.get("class", "").split()
            ]
            assert values == [element_text(el, BASE, "normalized", True) for el in elements] == ["x"] * n, level
        # with text before the blank ends they are kept: the copies stand for every line break
        doc = _blank_levels(opener, level, 5).replace(b'">', b'">a', 2)
        values = _nested_values(parse(doc, BASE, text="normalized")["items"][0], prop)
        elements = [
            el
            for el in iter_descendants(parse_document(doc.decode()))
            if isinstance(el, Element) and f"p-{prop}" in el.attrs.get("class", "").split()
        ]
        assert values == [element_text(el, BASE, "normalized", True) for el in elements], level


def test_normalized_blank_runs_are_still_right() -> None:
    for name, shape in BLANK_RUNS.items():
        if name.startswith("p-author"):
            continue
        doc = shape(3)
        item = parse(doc, BASE, text="normalized")["items"][0]
        dom = parse_document(doc.decode())
        notes = [
            el for el in iter_descendants(dom) if isinstance(el, Element) and "p-note" in el.attrs.get("class", "")
        ]
        assert item["properties"]["note"] == [element_text(el, BASE, "normalized", True) for el in notes]
        assert item["properties"]["note"] == ["x"] * 3


def test_compressed_blank_runs_read_the_same() -> None:
    # the copy of an indexed element's blank ends is shortened; in any context
    # the normalised text must come out exactly as from the original run
    blank: list[str | int] = [" ", " ", " ", "\n", "\n\n", text_module._P_BEFORE, text_module._P_AFTER, "\xa0", "\f"]
    context: list[str | int] = ["a", "b c", " d", "e ", " ", "\n", "\xa0", text_module._P_BEFORE, text_module._P_AFTER]
    pre = [text_module._PRE_BEFORE, " p ", text_module._PRE_AFTER]
    rng = random.Random(5)
    finish = text_module._finish_normalized
    for _ in range(20_000):
        run = [rng.choice(blank) for _ in range(rng.randint(0, 9))]
        before = [rng.choice(context) for _ in range(rng.randint(0, 3))] + (pre if rng.random() < 0.2 else [])
        after = [rng.choice(context) for _ in range(rng.randint(0, 3))]
        short = text_module._compress_blank(list(run))
        assert len(short) <= len(run)
        assert finish(before + run + after) == finish(before + short + after), (before, run, after, short)


def test_nested_values_are_still_right() -> None:
    item = parse(SHAPES["p-values"](3), BASE)["items"][0]
    assert item["properties"]["note"] == ["x", "x", "x"]
    item = parse(b'<div class="h-card">' + b'<div class="p-note">a<img alt="i">' * 2, BASE)["items"][0]
    assert item["properties"]["note"] == ["aiai", "ai"]
    item = parse(SHAPES["p-author-h-card"](2), BASE)["items"][0]
    author = item["properties"]["author"][0]
    assert author["value"] == "x"
    assert author["properties"]["author"][0]["value"] == "x"


# -- e-* html budget ------------------------------------------------------------------------


def _items_and_notes(html: str, options: Options) -> tuple[list[dict[str, Any]], list[str]]:
    ctx, _elements = document_context(parse_document(html), BASE, options)
    found = items_from_subtree(parse_document(html), ctx)
    return found, ctx.notes


def test_nested_e_html_is_bounded_and_noted() -> None:
    html = '<div class="h-entry">' + '<div class="e-x">' * 6 + "x"
    found, notes = _items_and_notes(html, Options(max_nested_html_chars=60))
    values = found[0]["properties"]["x"]
    sizes = [len(v["html"]) for v in values]
    # the outermost value is never limited; nested ones are, once 60 chars are spent
    assert sizes[0] > 60
    assert sizes[1] > 0 and sizes[-1] == 0
    assert sum(sizes[1:]) <= 60 + sizes[1]
    assert all(v["value"] == "x" for v in values)
    assert len(notes) == 1 and "max_nested_html_chars=60" in notes[0]


def test_nested_e_item_html_is_bounded() -> None:
    html = '<div class="h-entry">' + '<div class="e-x h-entry">' * 5 + "x"
    found, notes = _items_and_notes(html, Options(max_nested_html_chars=0))
    outer = found[0]["properties"]["x"][0]
    assert outer["html"].startswith('<div class="e-x h-entry">')
    assert outer["properties"]["x"][0]["html"] == ""
    assert notes


def test_sibling_e_values_are_never_limited() -> None:
    html = '<div class="h-entry">' + '<div class="e-content"><p>long text</p></div>' * 5 + "</div>"
    found, notes = _items_and_notes(html, Options(max_nested_html_chars=0))
    assert [v["html"] for v in found[0]["properties"]["content"]] == ["<p>long text</p>"] * 5
    assert notes == []


def test_default_budget_keeps_ordinary_nesting() -> None:
    html = '<div class="h-entry"><div class="e-content">a<div class="e-x">b</div></div></div>'
    found, notes = _items_and_notes(html, Options())
    props = found[0]["properties"]
    assert props["content"][0]["html"] == 'a<div class="e-x">b</div>'
    assert props["x"][0]["html"] == "b"
    assert notes == []


# -- the text index and the e-* serialiser against the plain functions -----------------------


def _elements(root: ParentNode) -> list[Element]:
    return [n for n in iter_descendants(root) if type(n) is Element]


SAMPLE = (
    '<div class="h-entry"><p>One <b>two</b><img alt="alt"> <img src="/i.png"></p>\n'
    "<pre> keep\n  this </pre><p>three<br>four</p><script>no</script><style>no</style>"
    "<template><p>inert</p></template><div><p></p><p>  five\tsix </p></div>"
    "<ul><li>a<li>b<ul><li>c</ul></ul></div>"
)


@pytest.mark.parametrize("mode", ["spec", "normalized"])
@pytest.mark.parametrize("order", ["document", "reverse", "random"])
def test_text_index_matches_plain_text(mode: str, order: str) -> None:
    documents = [parse_document(SAMPLE), parse_document((FIXTURES / "blog-home.html").read_text("utf-8"))]
    for document in documents:
        elements = _elements(document)
        if order == "reverse":
            elements.reverse()
        elif order == "random":
            random.Random(7).shuffle(elements)
        index = TextIndex(BASE, mode)
        for element in elements:
            for replace in (True, False):
                assert index.text(element, replace) == element_text(element, BASE, mode, replace)
            assert index.inner_text(element) == trim(raw_text(element, None, False))


def _blank_heavy(rng: random.Random, depth: int = 0) -> str:
    """Random markup rich in what the normalised text drops or collapses at the ends of a value."""
    parts = []
    for _ in range(rng.randint(0, 4)):
        pick = rng.random()
        if pick < 0.35 or depth > 7:
            parts.append(
                rng.choice(["x", " ", "\n", "a b", "&nbsp;", "<br>", "<p></p>", "<pre></pre>", '<img alt="">'])
            )
        else:
            tag = rng.choice(["div", "span", "p", "b", "td"])
            parts.append(f"<{tag}>{_blank_heavy(rng, depth + 1)}</{tag}>")
    return "".join(parts)


@pytest.mark.parametrize("order", ["document", "reverse", "random"])
def test_text_index_matches_plain_text_on_blank_runs(order: str) -> None:
    rng = random.Random(11)
    for _ in range(60):
        document = parse_document("<div>" + _blank_heavy(rng) + "</div>")
        elements = _elements(document)
        if order == "reverse":
            elements.reverse()
        elif order == "random":
            rng.shuffle(elements)
        index = TextIndex(BASE, "normalized")
        for element in elements:
            for replace in (True, False):
                assert index.text(element, replace) == element_text(element, BASE, "normalized", replace)


_URL_ATTRS = {"a": "href", "img": "src", "q": "cite", "form": "action"}


def _absolute_copy(node: Node, base: str) -> Node:
    """Oracle: a deep copy with the tested URL attributes resolved (recursion is fine: small trees)."""
    if isinstance(node, Text):
        return Text(node.data)
    if isinstance(node, Comment):
        return Comment(node.data)
    assert isinstance(node, Element)
    attrs = dict(node.attrs)
    attr = _URL_ATTRS.get(node.name)
    if attr in attrs and not attrs[attr].strip().startswith("#"):
        attrs[attr] = resolve(attrs[attr], base)
    copy = Element(node.name, node.namespace, attrs)
    copy.template_contents = node.template_contents
    for child in node.children:
        c = _absolute_copy(child, base)
        c.parent = copy
        copy.children.append(c)
    return copy


def test_e_html_matches_the_serialiser() -> None:
    html = (
        '<div id="r"> <a href="/a?x=1&amp;y">l&lt;</a><a href="#frag">f</a><img src="i.png" alt="&quot;">'
        '<q cite="../c">q</q><form action="f"></form><script>if (a < b) {}</script><style>a>b{}</style>'
        "<template><a href='/t'>t</a></template><!-- c --><svg><a href='/s'>s</a><path/></svg>"
        "<math><mi>x</mi></math><br><textarea>&lt;t</textarea><noscript><b>n</b></noscript>\u00a0</div>"
    )
    document = parse_document(html)
    for element in _elements(document):
        if element.name == "template":
            continue  # never an e-* value: the item walker skips templates
        copy = _absolute_copy(element, BASE)
        assert isinstance(copy, Element)
        assert e_html(element, BASE) == trim(serialize_children(copy)), element


# The same blank levels in the default "spec" mode (textContent, trimmed): every
# level's text holds the blank ends of all the levels below, so copying them, or
# joining and trimming them, per level is quadratic while every value is "x".
SPEC_BLANK_LEVELS = [*BLANK_LEVELS, b"\n \t ", b"\r\n<br>\f"]


def _spec_text_work(doc: bytes, monkeypatch: pytest.MonkeyPatch) -> int:
    """Characters the spec-mode text reads (a reference piece counts 1): every piece
    a walk appends, every piece indexed, every piece a query joins."""
    work = 0
    walk, sync, expand = text_module._raw_pieces, text_module._RawIndex.sync, text_module._RawIndex.expand

    def size(pieces: list[str | int]) -> int:
        return sum(len(piece) if isinstance(piece, str) else 1 for piece in pieces)

    def counting_walk(*args: Any) -> None:
        nonlocal work
        pieces: list[str | int] = args[3]
        before = len(pieces)
        walk(*args)
        work += size(pieces[before:])

    def counting_sync(self: text_module._RawIndex, pieces: list[str | int]) -> None:
        nonlocal work
        work += size(pieces[self.scanned :])
        sync(self, pieces)

    def counting_expand(self: text_module._RawIndex, pieces: list[str | int], start: int, end: int) -> list[str]:
        nonlocal work
        out = expand(self, pieces, start, end)
        work += sum(map(len, out))
        return out

    with monkeypatch.context() as patch:
        patch.setattr(text_module, "_raw_pieces", counting_walk)
        patch.setattr(text_module._RawIndex, "sync", counting_sync)
        patch.setattr(text_module._RawIndex, "expand", counting_expand)
        parse(doc, BASE, max_depth=1_000_000)
    return work


@pure_only  # counts by patching module functions
@pytest.mark.parametrize("level", SPEC_BLANK_LEVELS, ids=[repr(level)[2:-1] for level in SPEC_BLANK_LEVELS])
@pytest.mark.parametrize("opener", list(BLANK_OPENERS))
def test_spec_blank_levels_read_each_character_once(
    opener: str, level: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    # deterministic: no timing; copying and joining the blank ends per level gave >10x
    small, large = (_spec_text_work(_blank_levels(opener, level, n), monkeypatch) for n in (200, 800))
    assert large < 5 * small, f"{opener} {level!r}: 4x the nesting read {large / small:.1f}x the characters"


@pytest.mark.parametrize("opener", list(BLANK_OPENERS))
def test_spec_blank_levels_are_still_right(opener: str) -> None:
    prop = "author" if opener == "items" else "note"

    def check(doc: bytes) -> list[str]:
        values = _nested_values(parse(doc, BASE, max_depth=1_000_000)["items"][0], prop)
        elements = [
            el
            for el in iter_descendants(parse_document(doc.decode()))
            if isinstance(el, Element) and f"p-{prop}" in el.attrs.get("class", "").split()
        ]
        assert values == [element_text(el, BASE, "spec", True) for el in elements], doc
        return values

    for level in SPEC_BLANK_LEVELS:
        for n in (1, 4, 30):
            assert check(_blank_levels(opener, level, n)) == ["x"] * n, level
        # text before (and after) the blank ends: the references stand for every piece
        doc = _blank_levels(opener, level, 6).replace(b'">', b'">a', 2)
        check(doc)
        check(doc.replace(b"<p>", b"<p>b", 3) + b"<p>c</p>" + level)
        check(doc + b"</div>" * 3 + level + b"y" + level)


# -- nested items whose text lies below them all ------------------------------------------------
#
# Unclosed nested roots that are also properties, with all the text in the innermost one (a fuzz
# finding): every level's value is the text of everything below it. The levels share one text
# index (a nested item's index is its outermost item's), and a level copies the core of the level
# below without scanning the copy again, so the text work stays linear; the values themselves are
# bounded by ``Options.max_item_chars``.
def _all_text_inside(opener: bytes, text: bytes) -> Callable[[int], bytes]:
    return lambda n: b"&#x0;\r" + opener * n + text * n


ALL_TEXT_INSIDE: dict[str, tuple[bytes, bytes]] = {
    "u-uid": (b"<annotation-xml class='h-cite u-uid'>", b"&</form>2000-01-01</p>"),
    "p-name": (b"<annotation-xml class='h-cite p-name'>", b"&</form>2000-01-01</p>"),
    "dt-published": (b"<span class='h-cite dt-published'>\r", b"2000-01-01</p>"),
    "e-content": (b"<span class='h-cite e-content'>\n", b"x</p>"),
    "p-name-img-alt": (b"<div class='h-cite p-name'> ", b"x<img alt='i'> </p>"),
    "u-uid-img-alt": (b"<div class='h-cite u-uid'> ", b"x<img alt='i'> </p>"),
}


@pure_only  # counts executed Python lines (sys.settrace), which compiled code does not report
@pytest.mark.parametrize("shape", list(ALL_TEXT_INSIDE))
def test_nested_items_with_all_text_inside_are_linear(shape: str) -> None:
    work, ratios = _growth(_all_text_inside(*ALL_TEXT_INSIDE[shape]), 200)
    assert max(ratios) < MAX_GROWTH, f"{shape}: lines executed {work}, ratios per doubling {ratios}"


@pytest.mark.parametrize("text", ["spec", "normalized"])
@pytest.mark.parametrize("shape", list(ALL_TEXT_INSIDE))
def test_nested_items_with_all_text_inside_are_right(shape: str, text: str) -> None:
    opener, inner = ALL_TEXT_INSIDE[shape]
    prop = opener.split(b"h-cite ")[1].split(b"'")[0].decode()
    for n in (1, 3, 12):
        doc = _all_text_inside(opener, inner)(n)
        result = parse(doc, BASE, text=text)
        assert result == parse_dom(parse_document(doc.decode()), BASE, Options(text=text)), (shape, n)
        if text == "normalized" or prop.startswith(("e-", "dt-")):
            continue
        # every level against the plain text function of its element
        elements = [
            el
            for el in iter_descendants(parse_document(doc.decode()))
            if isinstance(el, Element) and prop in el.attrs.get("class", "").split()
        ]
        # (the outermost root is the top-level item, no property; the innermost has an implied name)
        expected = [element_text(el, BASE, "spec", prop.startswith("p-")) for el in elements[1:]]
        if prop.startswith("u-"):
            expected = [resolve(value, BASE) for value in expected]
        assert _nested_values(result["items"][0], prop.split("-", 1)[1])[: n - 1] == expected, (shape, n)
