"""Paths generalised over siblings (``stream-mf2 xpath ... --repeats``), for repeatable blocks.

An author who copies the path of one table cell usually wants a block for every row, or for
every cell of its row. For an element, :func:`repeated_paths` gives each such path: for every
step of its chain whose name repeats among its siblings, the path with that step's position
dropped (every other step keeps a position only where its name repeats), with how many
elements it selects on the page, nearest step first; and the same path anchored on the
nearest id above the dropped step, when there is one. Only paths that select more than the
element itself are given.
"""

from __future__ import annotations

from typing import Any

from stream_mf2.wpt._compile import compile_xpath
from stream_mf2.wpt._paths import Place, descendants, path_matches
from stream_mf2.wpt.find import full_dom

__all__ = ["repeated_paths"]


def _step(place: Place, keep_position: bool) -> str:
    counts = place.parent.counts if place.parent is not None else None
    repeated = counts is not None and counts.get(place.name, 0) > 1
    return f"/{place.name}[{place.pos}]" if repeated and keep_position else f"/{place.name}"


def _candidates(place: Place) -> list[tuple[str, str | None]]:
    """(absolute path, anchored path or ``None``) for each repeating step, nearest first."""
    chain = place.chain()
    out: list[tuple[str, str | None]] = []
    for i in range(len(chain) - 1, -1, -1):
        p = chain[i]
        counts = p.parent.counts if p.parent is not None else None
        if counts is None or counts.get(p.name, 0) < 2:
            continue
        steps = [_step(q, keep_position=j != i) for j, q in enumerate(chain)]
        anchored: str | None = None
        for a in range(i - 1, -1, -1):
            el = chain[a].element
            id_ = el.attrs.get("id") if el is not None else None
            if id_ and '"' not in id_:
                anchored = f'//*[@id="{id_}"]' + "".join(steps[a + 1 :])
                break
        out.append(("".join(steps), anchored))
    return out


def repeated_paths(html: str, xpaths: list[str]) -> list[list[dict[str, Any]]]:
    """For each full path of ``xpaths`` (as ``element_paths`` gives them), its generalisations:
    ``[{"xpath", "anchored", "selects"}]`` (``anchored`` may be ``None``)."""
    sink = full_dom(html)
    places = list(descendants(sink.document, Place(None, None, "", 0, 0)))
    by_path = {p.xpath(): p for p in places}
    found: list[list[dict[str, Any]]] = []
    for xpath in xpaths:
        place = by_path.get(xpath)
        paths: list[dict[str, Any]] = []
        if place is not None:
            for absolute, anchored in _candidates(place):
                compiled = compile_xpath(absolute)
                selects = sum(1 for q in places if path_matches(compiled, q))
                if selects > 1:
                    paths.append({"xpath": absolute, "anchored": anchored, "selects": selects})
        found.append(paths)
    return found
