"""Inputs that nest n roots, rel links or misnested formatting elements, for the growth tests.

:data:`PATTERNS` maps a name to ``make(n)``: ``stream_children`` hands their nested roots
and rel links over one by one, and the adoption agency algorithm moves open elements in
some of them. ``tests/mf2/test_stream_children_linear_time.py`` measures them at n, 2n and
4n; ``tests/html/bounded/test_held_item_shortcuts.py`` feeds them to a white-box sink.
"""

from __future__ import annotations

from collections.abc import Callable

#: Nested roots and rel links handed over one by one with ``stream_children``.
PATTERNS: dict[str, Callable[[int], str]] = {
    "nested-roots": lambda n: "x" + "<div class=h-x>" * n + "<i class=h-y></i></div>" * n,
    "nested-spans": lambda n: "x" + "<span class=h-x>" * n + "<i class=h-y></i></span>" * n,
    # roots that are property values of the one above (fold_nested refuses them)
    "nested-property-roots": lambda n: "x<div class=h-x>" + '<div class="p-a h-y">' * n + "<i class=h-z></i></div>" * n,
    "nested-roots-property-children": lambda n: "x" + "<div class=h-x>" * n + '<i class="p-a h-y"></i></div>' * n,
    # rel links that are roots, and roots inside rel links
    "nested-rel-roots": lambda n: "x" + "<div class=h-x>" * n + "<a rel=me class=h-y href=/a></a></div>" * n,
    "roots-in-rel-links": lambda n: "x<div class=h-x>" + "<a rel=me href=/a>" * n + "<i class=h-y></i></a>" * n,
    "nested-roots-tables": lambda n: "x<div class=h-x><table>"
    + "<tr><td><div class=h-y><table>" * n
    + "<tr><td><i class=h-z></i></td></tr></table></div></td></tr>" * n,
    # nested <a>: the adoption agency algorithm moves the open elements at each link
    "nested-rel-links-moved": lambda n: "x" + "<div class=h-x><a rel=me href=/a>" * n + "<i class=h-y></i></a></div>" * n,
    # each misnested </b> moves the open <div>s out of an item and into a clone of it
    "adoption-agency-moves-out-of-h-b": lambda n: "x<b class=h-x>" + "<div>" * n + "</b><i class=h-y></i>" * n,
    # ... inside a feed, with text between the end tags, and an h-* <b> in another
    "adoption-agency-moves-out-of-h-b-in-h-feed": lambda n: "x<div class=h-feed><b class=h-x>"
    + "<div>" * n
    + "</b><i class=h-y></i>" * n,
    "adoption-agency-moves-out-of-h-b-text-between": lambda n: "x<b class=h-x>" + "<div>" * n + "</b>t<i class=h-y></i>t" * n,
    "adoption-agency-moves-out-of-nested-h-b": lambda n: "x<b class=h-x><b class=h-z>"
    + "<div>" * n
    + "</b><i class=h-y></i>" * n,
    "adoption-agency-moves-in-h-feed": lambda n: "x<div class=h-feed><b>" + "<div>" * n + "</b><i class=h-y></i>" * n,
    # items under n open elements of one container
    "items-under-open-divs-in-feed": lambda n: "x<div class=h-feed>" + "<div>" * n + "<i class=h-y></i>" * n,
    "items-under-closing-divs-in-feed": lambda n: "x<div class=h-feed>" + "<div>" * n + "<i class=h-y></i></div>" * n,
    # items in nested tables, woken together (outermost first) at the outer table's pop,
    # with open elements left inside an item by the adoption agency algorithm (4n: the
    # quadratic term shows only from there)
    "items-in-nested-tables-woken-together": lambda n: "<div class=h-feed>x<b class=h-y>"
    + "<div><span>" * (4 * n)
    + "</b><table><td class=h-x>" * (4 * n),
    # sibling items held by an open table, then removed one by one from one long child list
    "sibling-items-removed-after-a-table": lambda n: "<div class=h-feed><table><td>x<a>"
    + "<li>" * (4 * n)
    + "</a><i class=h-x></i>" * (4 * n),
    # an open table holding nested items (rows), one group each, while as many are handed
    # over one by one in front of it, after nested items below moved formatting elements (4n)
    "rows-held-by-a-table-while-items-go": lambda n: "<div class=h-feed><table><td>x<b><i>"
    + "<div class=h-z>" * (4 * n)
    + "</b><i class=h-x></i><tr class=h-x>" * (4 * n),
}
