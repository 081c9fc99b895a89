"""The normalised text index reads exactly what the plain algorithm computes.

:class:`stream_mf2.mf2.text.TextIndex` replaces runs of tokens by short
equivalents (blank ends, runs of weak tokens, chains of ``<pre>`` elements
that are empty or hold only spaces or only line breaks) and copies indexed elements instead of walking them again. Random small trees,
queried in random orders, must give every element the text that
:func:`normalized_text` computes from scratch, and that text must be the one
the algorithm gave before empty ``<pre>`` elements became one token (its
finishing step is kept below as it was).
"""

from __future__ import annotations

import random

import pytest

from stream_mf2.html.dom import Element, Node, Text
from stream_mf2.mf2 import text as text_module
from stream_mf2.mf2.text import TextIndex, normalized_text

BASE = "http://example.com/dir/"
P_BEFORE, P_AFTER = text_module._P_BEFORE, text_module._P_AFTER
PRE_BEFORE, PRE_AFTER, PRE_EMPTY = text_module._PRE_BEFORE, text_module._PRE_AFTER, text_module._PRE_EMPTY


def _reference_finish(tokens: list[str | int]) -> str:
    """The finishing step as it was when an empty ``<pre>`` gave three tokens."""
    last = len(tokens) - 1
    for i, token in enumerate(tokens):
        if token == " " and (
            i == 0
            or i == last
            or tokens[i - 1] == " "
            or tokens[i - 1] in (P_BEFORE, P_AFTER)
            or tokens[i + 1] == " "
            or tokens[i + 1] in (P_BEFORE, P_AFTER)
        ):
            tokens[i] = ""
    start, end = 0, len(tokens)
    while start < end and text_module._blank_edge(tokens[start]):
        start += 1
    while end > start and text_module._blank_edge(tokens[end - 1]):
        end -= 1
    kept = tokens[start:end]
    if kept and isinstance(kept[0], str):
        kept[0] = kept[0].lstrip()
    if kept and isinstance(kept[-1], str):
        kept[-1] = kept[-1].rstrip()
    parts: list[str] = []
    breaks = 0
    in_pre = False
    for token in kept:
        if isinstance(token, int):
            if token in (P_BEFORE, P_AFTER):
                breaks = max(breaks, token)
            elif token == PRE_BEFORE:
                in_pre = True
                text_module._strip_trailing_spaces(parts)
            else:
                in_pre = False
            continue
        if in_pre:
            parts.append("\n" * breaks + token)
            breaks = 0
            continue
        if breaks:
            text_module._strip_trailing_spaces(parts)
            parts.append("\n" * breaks)
            breaks = 0
        if parts and parts[-1].endswith(("\n", " ")):
            token = token.lstrip(" ")
        if token.startswith("\n"):
            text_module._strip_trailing_spaces(parts)
        if token:
            parts.append(token)
    return "".join(parts)


def _expand(tokens: list[str | int]) -> list[str | int]:
    out: list[str | int] = []
    for token in tokens:
        if token == PRE_EMPTY:
            out += [PRE_BEFORE, "", PRE_AFTER]
        else:
            out.append(token)
    return out


def _reference_text(element: Element, replace_images: bool) -> str:
    return _reference_finish(_expand(text_module._normalized_tokens(element, BASE, replace_images)))


# -- random trees ----------------------------------------------------------------------------

TEXTS = [" ", "  ", "\n", " \n ", "\t", "\r\n", "a", "b c", " d ", "e\n", "\xa0", "\f", " \xa0 "]
ALTS = [None, "", " ", "x", " \n ", "\n", "\t", "  ", "\xa0"]


def _el(name: str, children: list[Node] = (), **attrs: str) -> Element:  # type: ignore[assignment]
    element = Element(name, attrs=dict(attrs))
    for child in children:
        child.parent = element
        element.children.append(child)
    return element


def _leaf(rng: random.Random) -> Node:
    pick = rng.random()
    if pick < 0.35:
        return Text(rng.choice(TEXTS))
    if pick < 0.5:
        return _el("pre")  # empty: the case the chains are for
    if pick < 0.58:
        return _el("pre", [Text(rng.choice([*TEXTS, " ", "\n", "\n\n", "   "]))])
    if pick < 0.66:
        return _el("br")
    if pick < 0.74:
        return _el("p")
    if pick < 0.84:
        alt = rng.choice(ALTS)
        attrs = {} if alt is None else {"alt": alt}
        if rng.random() < 0.5:
            attrs["src"] = rng.choice(["i.png", " /j "])
        return _el("img", **attrs)
    if pick < 0.9:
        return _el("script", [Text(rng.choice(TEXTS))])
    return _el("pre", [_el("span", [Text(rng.choice(TEXTS))]), _el("script", [Text("s")])])


def _tree(rng: random.Random, depth: int) -> Element:
    name = rng.choice(["div", "div", "span", "p", "b", "pre"] if depth else ["div"])
    children: list[Node] = []
    for _ in range(rng.randint(0, 4)):
        if depth < 4 and rng.random() < 0.4:
            children.append(_tree(rng, depth + 1))
        else:
            children.append(_leaf(rng))
    return _el(name, children)


def _spine(rng: random.Random) -> Element:
    """Nested levels that each add the same few weak tokens at the start or the end:
    the shape whose chains and runs the index reads in constant time."""
    levels = rng.randint(2, 9)
    specs = ["pre", "pre", "pre-space", "pre-newline", "p", "br", " ", "\n", "img"]
    before = [rng.choice([*specs, "x"]) for _ in range(rng.randint(0, 3))]
    after = [rng.choice(specs) for _ in range(rng.randint(0, 3))]

    def make(spec: str) -> Node:
        if spec in ("pre", "p", "br"):
            return _el(spec)
        if spec.startswith("pre-"):
            return _el("pre", [Text(rng.choice([" ", "  "]) if spec == "pre-space" else "\n")])
        if spec == "img":
            return _el("img", alt=rng.choice(["", " "]))
        return Text(spec)

    inner: Node = rng.choice([Text("x"), _el("pre"), _el("pre", [Text(" ")]), _el("p"), Text(" "), _tree(rng, 3)])
    for _ in range(levels):
        inner = _el("div", [*map(make, before), inner, *map(make, after)])
    assert isinstance(inner, Element)
    return _el("div", [_leaf(rng), inner, _leaf(rng)]) if rng.random() < 0.3 else inner


def _elements(root: Element) -> list[Element]:
    found: list[Element] = []
    stack: list[Node] = [root]
    while stack:
        node = stack.pop()
        if type(node) is Element:
            found.append(node)
            stack.extend(node.children)
    return found


@pytest.mark.parametrize("long_run", [0, 2, text_module._LONG_RUN])
def test_text_index_matches_plain_algorithm(long_run: int) -> None:
    # a small long-run bound sends short runs through their equivalents too
    rng = random.Random(1000 + long_run)
    for case in range(800):
        root = _spine(rng) if case % 2 else _tree(rng, 0)
        elements = _elements(root)
        expected = {}
        for element in elements:
            for replace in (False, True):
                value = normalized_text(element, BASE, replace)
                assert value == _reference_text(element, replace), (case, element)
                expected[element, replace] = value
        index = TextIndex(BASE, "normalized", long_run=long_run)
        queries = list(expected)
        order = case % 3
        if order == 1:
            queries.reverse()  # roughly innermost first: every query copies the one before
        elif order == 2:
            rng.shuffle(queries)
        for key in queries + rng.sample(queries, min(3, len(queries))):
            assert index.text(*key) == expected[key], (case, key)


# -- the short equivalents against the finishing step ----------------------------------------

WEAK: list[str | int] = [" ", " ", "  ", "", "\n", "\n\n", P_BEFORE, P_AFTER]
STOPS: list[list[str | int]] = [
    [PRE_EMPTY],
    ["a"],
    ["b "],
    [" c"],
    ["\xa0"],
    [" \n "],
    ["\nd"],
    [PRE_BEFORE, " ", PRE_AFTER],
    [PRE_BEFORE, "\n\n", PRE_AFTER],
    [PRE_BEFORE, "p", PRE_AFTER],
]
CONTEXT: list[str | int] = ["a", " ", "\n", "\xa0", P_BEFORE, P_AFTER, PRE_EMPTY, "e ", " f"]


def _context(rng: random.Random) -> list[str | int]:
    return [rng.choice(CONTEXT) for _ in range(rng.randint(0, 3))]


def test_run_equivalents_read_the_same() -> None:
    rng = random.Random(3)
    finish = text_module._finish_normalized
    for _ in range(20_000):
        run = [rng.choice(WEAK) for _ in range(rng.randint(0, 8))]
        equivalent, newlines = text_module._run_equivalent(run)
        assert len(equivalent) <= 4
        left, right = rng.choice(STOPS), rng.choice(STOPS)
        before, after = _context(rng), _context(rng)
        assert finish(before + left + run + right + after) == finish(before + left + equivalent + right + after), (
            before,
            left,
            run,
            right,
            after,
            equivalent,
        )
        assert finish([PRE_EMPTY, *run, PRE_EMPTY]) == "\n" * newlines


def test_compressed_blank_runs_read_the_same_with_empty_pre() -> None:
    blank: list[str | int] = [" ", " ", "  ", "\n", "\n\n", P_BEFORE, P_AFTER, "\xa0", " \n "]
    rng = random.Random(4)
    finish = text_module._finish_normalized
    for _ in range(12_000):
        run = [rng.choice(blank) for _ in range(rng.randint(0, 9))]
        before, after = _context(rng), _context(rng)
        short = text_module._compress_blank(list(run))
        assert len(short) <= len(run)
        assert finish(before + run + after) == finish(before + short + after), (before, run, after, short)
        assert finish(_expand(before + run + after)) == _reference_finish(_expand(before + run + after))


UNITS: list[list[str | int]] = [
    *([[token] for token in WEAK] * 2),
    *([[PRE_EMPTY]] * 6),
    ["a"],
    [" b"],
    ["c "],
    ["\xa0"],
    [" \n "],
    ["\t"],
    ["\nd"],
    *([[PRE_BEFORE, " ", PRE_AFTER], [PRE_BEFORE, "  ", PRE_AFTER], [PRE_BEFORE, "\n", PRE_AFTER]] * 2),
    [PRE_BEFORE, "\n\n", PRE_AFTER],
    [PRE_BEFORE, " \n", PRE_AFTER],
    [PRE_BEFORE, "p", PRE_AFTER],
]


# few kinds, so that rare neighbourhoods (a space between a stop and a marker) come up often
DENSE_UNITS: list[list[str | int]] = [
    *([[" "]] * 4),
    *([[P_AFTER]] * 2),
    [P_BEFORE],
    *([["a"]] * 2),
    [" b"],
    ["\n"],
    ["  "],
    [PRE_EMPTY],
    [PRE_BEFORE, " ", PRE_AFTER],
    [PRE_BEFORE, "\n", PRE_AFTER],
]


@pytest.mark.parametrize("units", [UNITS, DENSE_UNITS], ids=["mixed", "dense"])
@pytest.mark.parametrize("long_run", [0, 1, text_module._LONG_RUN])
def test_index_reads_token_ranges_exactly(
    units: list[list[str | int]], long_run: int
) -> None:
    # token lists straight from random units (a <pre> never split), every range of whole units
    rng = random.Random(20 + long_run + len(units))
    finish = text_module._finish_normalized
    for _ in range(400):
        index = text_module._NormalizedIndex(long_run)
        tokens: list[str | int] = []
        bounds = [0]
        for _block in range(rng.randint(1, 3)):  # several walks, each indexed on its own
            for _unit in range(rng.randint(0, 14)):
                tokens += rng.choice(units)
                bounds.append(len(tokens))
            index.add(tokens)
        for _ in range(40):
            start, end = sorted(rng.sample(bounds, 2)) if len(bounds) > 1 else (0, 0)
            core = index.core(tokens, start, end)
            read = [] if core is None else index.read(tokens, *core)
            assert finish(read) == finish(tokens[start:end]), (tokens[start:end], read)
            # a copy stands anywhere: read it between random neighbours too
            if core is not None:
                before, after = _context(rng), _context(rng)
                first, last = core
                assert finish(before + read + after) == finish(before + tokens[first : last + 1] + after)


# -- blank ends repeated at every nesting level ----------------------------------------------

# what an element's blank end is made of: spaces, <br>, empty paragraphs (with a space
# or a line break inside), an image with an empty alt
BLANK_LEVEL_PIECES: list[list[str | int]] = [
    [" "],
    ["\n"],
    [P_BEFORE, P_AFTER, "\n"],
    [P_BEFORE, " ", P_AFTER, "\n"],
    [P_BEFORE, "\n", P_AFTER, "\n"],
    [" ", " "],
    [P_BEFORE, " ", "\n", " ", P_AFTER, "\n"],
]
# anything _compress_blank may meet, its own output included (empty text, counts of line breaks)
BLANK_ANY: list[str | int] = [" ", " ", "  ", "", "\n", "\n\n", -1, -2, P_BEFORE, P_AFTER, P_BEFORE, P_AFTER, "\xa0", " \n "]
COUNT_CONTEXT: list[str | int] = [*CONTEXT, -1, ""]


def test_compressed_blank_runs_with_counts_read_the_same() -> None:
    rng = random.Random(6)
    finish = text_module._finish_normalized
    for _ in range(20_000):
        run = [rng.choice(BLANK_ANY) for _ in range(rng.randint(0, 10))]
        before = [rng.choice(COUNT_CONTEXT) for _ in range(rng.randint(0, 3))]
        after = [rng.choice(COUNT_CONTEXT) for _ in range(rng.randint(0, 3))]
        short = text_module._compress_blank(list(run))
        assert len(short) <= len(run)
        assert finish(before + run + after) == finish(before + short + after), (before, run, after, short)


def test_blank_ends_stay_short_at_every_level() -> None:
    # each level is its own blank end followed by the compressed one of the level below
    # (what a copy of an indexed element writes): the result must read as the whole
    # uncompressed run and stay a few tokens, each of constant size, however deep
    rng = random.Random(7)
    finish = text_module._finish_normalized
    for _ in range(400):
        level = [token for _ in range(rng.randint(1, 4)) for token in rng.choice(BLANK_LEVEL_PIECES)]
        full: list[str | int] = []
        short: list[str | int] = []
        for _depth in range(40):
            full = level + full
            short = text_module._compress_blank(level + short)
            before = [rng.choice(COUNT_CONTEXT) for _ in range(rng.randint(0, 3))]
            after = [rng.choice(COUNT_CONTEXT) for _ in range(rng.randint(0, 3))]
            assert finish(before + full + after) == finish(before + short + after), (level, short)
        assert len(short) <= 8, (level, short)
        assert all(len(token) <= 2 for token in short if isinstance(token, str)), (level, short)
