"""Read one syntax's list back from its ``item`` lines (``--syntaxes`` in a line front end).

Every item line of a syntax other than mf2 has ``path`` ``[i]``, the entry's place
in the syntax's list of :func:`stream_mf2.parse`'s result. The lines come in list
order, but for a microdata page item (``<html itemscope>``/``<body itemscope>``):
final only at the page's end, its line comes last, with its place
(:mod:`stream_mf2.core.syntax_results`). :func:`syntax_list` checks exactly that
and returns the entries in list order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def syntax_list(lines: Sequence[dict[str, Any]], name: str) -> list[Any]:
    """The entries of syntax ``name`` (not mf2) in its list's order, checking the order rule above."""
    found = [line for line in lines if line["kind"] == "item" and line.get("syntax") == name]
    places = [line["path"] for line in found]
    assert sorted(places) == [[i] for i in range(len(found))], (name, places)
    given = places[:-1] if name == "microdata" else places
    assert given == sorted(given), (name, places)
    return [line["item"] for line in sorted(found, key=lambda line: line["path"])]
