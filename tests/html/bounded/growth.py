"""The growth patterns of the bounded sink, in one table: inputs of size n that were once superlinear.

Each row of :data:`GROWTH` names an input ``make(n)`` and how it is run (the
whole parser, with or without ``stream_children``, or the sink alone with the
nested hand-over); ``tests/html/bounded/test_growth.py`` measures the engine
lines executed at n, 2n and 4n (an operation count, never wall time) and
requires each doubling to cost less than 2.6 times as much. The pattern tables
are also the inputs of the output and shortcut tests of this folder. (The
nested roots of ``tests/support/nesting_patterns.py`` are measured with the
mf2 layer, in ``tests/mf2/test_stream_children_linear_time.py``.)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

#: How a row is run: ``parse`` / ``parse-children`` (``stream_mf2.parse``, without or with
#: ``stream_children``), ``sink-nested`` / ``sink-nested-empty`` / ``sink-nested-remove``
#: (the sink alone, every nested item watched, each answered keep / empty / remove),
#: ``sink`` (the sink alone, h-* items kept).
RUNS = ("parse", "parse-children", "sink", "sink-nested", "sink-nested-empty", "sink-nested-remove")

_BUTTON = "<select><button><selectedcontent class=h-x></selectedcontent></button>"

_FUZZ_F7 = (
    '<svg class="dt-end"><input class="h-x-y h-event p-a" id="i" itemref="id2 id1"/><s lang="" headers="id2"'
    ' data="#id1"><fieldset class=\'fn\' itemref="id1" title="T" href="//h/p">\r'
)

_FUZZ_AAA = (
    '<A class="hentry" src="" alt="" charset="utf-8"></caption></html><li class="include u-photo p-summary"/>'
    '<span alt="Alt">\r<dt alt=" A ">]]>'
)


PARSE_PATTERNS: dict[str, Callable[[int], str]] = {
    # options nested in other options' content, outside items (a fuzz finding): each new
    # option looked for its select through every ancestor, and each loss marked every open option
    "options-nested-in-options": lambda n: "x<abbr class=h-x>" + "<select><option><tt>" * (4 * n),
    # _classify: n items under n open elements (the text first: a frameset could
    # otherwise still replace the body, and every item is held to the end)
    "items-under-open-divs": lambda n: "x" + "<div>" * n + "<i class=h-cite></i>" * n,
    "items-under-open-divs-held": lambda n: "<div>" * n + "<i class=h-cite></i>" * n,
    # a page with a selectedcontent: items outside any open select climb no further
    "items-under-open-divs-selectedcontent-page": lambda n: (
        "<select><selectedcontent></selectedcontent></select>x" + "<div>" * n + "<i class=h-cite></i>" * n
    ),
    "items-under-open-divs-in-table": lambda n: "<table><tr><td>" + "<div>" * n + "<i class=h-cite></i>" * n,
    "items-under-open-divs-then-closed": lambda n: (
        "x" + "<div>" * n + "<i class=h-cite></i>" * n + "</div>" * n + "<p class=h-x>"
    ),
    # items between nodes the adoption agency moves (fuzz, seed 20261127): remembered
    # climbs are forgotten only below the moved nodes
    "fuzz-adoption-agency": lambda n: "</big>" + _FUZZ_AAA * n,
    # the fuzz example (seed 20261129): n items held by n nested <s><fieldset> pairs
    "fuzz-f7": lambda n: _FUZZ_F7 * n,
    "fuzz-f7-text-and-items": lambda n: "x" + (_FUZZ_F7 + "<p class=h-y>y</p>") * n,
    # each misnested </b> moves a clone of <b> one open <div> further down, above
    # the items' open <div>: remembered climbs are shared by runs of open elements
    # (a move above a run costs one run), and the held items are woken as one group
    # (twice as deep: below 16 open elements a climb needs no remembered one)
    "adoption-agency-moves-open-divs": lambda n: "x<b>" + "<div>" * (2 * n) + "</b><i class=h-x></i>" * (2 * n),
    # the same with an h-* <b>: each move takes the furthest block out of an item and
    # its children back into one (the flags below them are refreshed once the moves are done)
    "adoption-agency-moves-out-of-h-b": lambda n: "x<b class=h-x>" + "<div>" * n + "</b><i class=h-y></i>" * n,
    # the same inside an item, with a clone of <i> between (a chain of moved clones)
    "adoption-agency-moves-in-h-feed": lambda n: (
        "<div class=h-feed>x<b><i>" + "<div>" * n + "</b><i class=h-x></i>" * n
    ),
    # each misnested </b> moves the open <div>s (forgetting remembered tables), then a table
    # under all of them holds an item: with no other open table none is looked for above it
    "aaa-div-table": lambda n: "x<b>" + "<div>" * n + "</b><table><td class=h-x></table>" * n,
    # the same with another table open above: each new table looks for the nearest open
    # table above it through every open <div> (the remembered answers are forgotten at each
    # move), now through remembered climbs of their own kind (_NEAREST_TABLE). Four times
    # as many: the quadratic part is small per <div> (the pure build was 2.7x per doubling
    # from there)
    "aaa-div-table-in-table": lambda n: (
        "<table><td>x<b>" + "<div>" * (4 * n) + "</b><table><td class=h-x></table>" * (4 * n)
    ),
    "aaa-div-table-in-table-th": lambda n: (
        "<table><th>x<b>" + "<div>" * (4 * n) + "</b><table><th class=h-x></table>" * (4 * n)
    ),
    "aaa-div-table-in-caption": lambda n: (
        "<table><caption>x<b>" + "<div>" * (4 * n) + "</b><table><caption class=h-x></table>" * (4 * n)
    ),
    "aaa-div-table-in-tables-two-deep": lambda n: (
        "<table><td><table><td>x<b>" + "<div>" * (4 * n) + "</b><table><td class=h-x></table>" * (4 * n)
    ),
    # inside an h-feed the items are nested: only with stream_children are they candidates
    "aaa-div-table-in-table-in-h-feed": lambda n: (
        "<div class=h-feed><table><td>x<b>" + "<div>" * (4 * n) + "</b><table><td class=h-x></table>" * (4 * n)
    ),
    # n nested tables open above: each new table's outermost open table was found again
    # through all of them after every move (_outer_table; now remembered climbs of kind
    # _OUTER_TABLE past four tables)
    "aaa-div-table-in-nested-tables": lambda n: (
        "<table><td>" * (2 * n) + "x<b>" + "<div>" * (2 * n) + "</b><table><td class=h-x></table>" * (2 * n)
    ),
    # the same in template contents (items there are dropped, not handed over): each drop
    # forgot every remembered run of popped elements, and the next item climbed them all again
    "aaa-div-table-in-template-in-table": lambda n: (
        "<p class=h-y>y</p><table><td><template><table><td>x<b>"
        + "<div>" * (2 * n)
        + "</b><table><td class=h-x></table>" * (2 * n)
    ),
    # (a template in the head: it is open inside the tentative html, so something is open
    # inside kept content, but not inside the items dropped)
    "aaa-div-table-in-template": lambda n: (
        "<template><table><td>x<b>"
        + "<div>" * (2 * n)
        + "</b><table><td class=h-x></table>" * (2 * n)
        + "</template><p class=h-y>y</p>"
    ),
    # without </table> the tables nest (and the later </b> are ignored: <b> is out of scope)
    "aaa-div-tables-nesting": lambda n: "<table><td>x<b>" + "<div>" * (4 * n) + "</b><table><td class=h-x>" * (4 * n),
    # _hand_over: items held under reopened formatting elements inside a button
    "button-code-pre": lambda n: "<p><button>x<code><pre class=h-card>" * n,
    "button-embed": lambda n: '<p><button><U type="hidden" title=""/><EMBED class="summary h-card h-card"><big/>' * n,
}


#: Nested hand-over (``on_nested``), the sink alone: each of n nested items is a candidate.
NESTED_PATTERNS: dict[str, Callable[[int], str]] = {
    # _classify walked each popped item's whole subtree for open elements, _top_kept
    # climbed to the outermost item and _alone looked at every open kept element
    "nested-items": lambda n: "x" + "<div class=h-x>" * n + "<i class=h-y></i></div>" * n,
    "nested-items-in-open-feed": lambda n: (
        "x<div class=h-feed>" + "<div class=h-x>" * n + "<i class=h-y></i></div>" * n
    ),
    "nested-items-moved-by-adoption-agency": lambda n: "x<b>" + "<div class=h-x>" * n + "</b><i class=h-y></i>" * n,
    "nested-items-fostered": lambda n: "x<table>" + "<b class=h-x>" * n + "</b><i class=h-x></i>" * n,
}


_FUZZ_FIRST = "<th>text<keygen><table><tr><td>\t\r"
_FUZZ_SECOND = (
    '<colgroup shape="default"><select><option><search class=\'org\' title="T" href="/a">></caption>'
    "<LISTING class='p-author dtend h-geo' itemref=\"id2 id1\">\U0001f600<pre class='entry-title'>"
)


#: Items held in nested open tables (fuzz finding F5): each woke every held item at each
#: table's pop and sorted them by their paths (cubic); now a held item waits for the
#: outermost open table.
TABLE_PATTERNS: dict[str, Callable[[int], str]] = {
    # the fuzz finding as found (tests.fuzz.growth.document of its blocks)
    "fuzz-f5": lambda n: "</dir>" + _FUZZ_FIRST * n + _FUZZ_SECOND * n,
    "item-in-each-nested-table": lambda n: "<table><tr><td><div class=h-card>x</div>" * n,
    "then-items-after": lambda n: "<table><tr><td><div class=h-card>x</div>" * n + "<p class=h-card>y</p>" * n,
}


#: Options, selects and selectedcontent copies, outside and inside items.
OPTION_PATTERNS: dict[str, Callable[[int], str]] = {
    "first-option": lambda n: _BUTTON + "<option>t<b>x</b></option>" * n + "</select>",
    "selected-options": lambda n: _BUTTON + "<option selected>t<i>y</i>z" * n + "</select>",
    "items-in-options": lambda n: "x" + _BUTTON + "<option selected>t<i class=h-card>y</i>" * n + "</select>",
    # watched options (outside items, no selectedcontent yet) and one record per select
    "watched-options": lambda n: "<p class=h-card>x</p><select>" + "<option>t<b>x</b>" * n + "</select>",
    "many-selects": lambda n: "<p class=h-card>x</p>" + "<select><option>a<option selected>b</select>" * n,
    # options of a kept select: never watched, and no stale list of them
    "kept-select": lambda n: "<select class=h-x>" + "<option>t<img src=a.png>" * n + "</select>",
    # a selectedcontent item inside its own option (disabled), again and again
    "own-options": lambda n: (
        "<select>" + "<option>a<b>b</b><span class=h-x><selectedcontent class=p-name></selectedcontent></span>" * n
    ),
    # options inside a selectedcontent outside items, each replaced by its own clone
    "options-in-selectedcontent": lambda n: "<select><selectedcontent>" + "<option><i class=h-x>y</i>" * n,
}


@dataclass(frozen=True)
class Growth:
    """One row: ``make(n)`` run as ``run`` (:data:`RUNS`) at ``n``, 2n and 4n."""

    name: str
    make: Callable[[int], str]
    run: str
    n: int = 50


#: Parse patterns measured with ``stream_children`` (their items are nested candidates).
_WITH_CHILDREN = frozenset(
    (
        "items-under-open-divs",
        "fuzz-f7",
        "button-code-pre",
        "fuzz-adoption-agency",
        "aaa-div-table-in-table-in-h-feed",
    )
)


def _nested_removals(n: int) -> str:
    # n items under n open elements of one kept container, each emptied or removed at its
    # hand-over: forgetting every remembered _top_kept climb at each removal was quadratic
    return "x<div class=h-feed>" + "<div>" * n + "<i class=h-y><b class=h-z></b></i>" * n


def _unclosed_p(n: int) -> str:
    # unclosed <p> items in one <div>
    return "<div>" + "<p class=h-x>x" * n


#: Every growth pattern of the sink, with how it is run.
GROWTH: list[Growth] = [
    *(
        Growth(name, make, "parse-children" if name in _WITH_CHILDREN else "parse")
        for name, make in PARSE_PATTERNS.items()
    ),
    *(Growth(f"nested/{name}", make, "sink-nested") for name, make in NESTED_PATTERNS.items()),
    Growth("nested-removals-empty", _nested_removals, "sink-nested-empty"),
    Growth("nested-removals-remove", _nested_removals, "sink-nested-remove"),
    *(Growth(f"tables/{name}", make, "parse") for name, make in TABLE_PATTERNS.items()),
    *(Growth(f"options/{name}", make, "parse") for name, make in OPTION_PATTERNS.items()),
    *(Growth(f"options/{name}+children", make, "parse-children") for name, make in OPTION_PATTERNS.items()),
    Growth("unclosed-p-items", _unclosed_p, "sink", n=1000),
]
