"""Records: WPT page objects as objects keyed by concept, the way a crawler stores them.

A page object (``collect_pages``, ``parse(...)["wpt"]``) follows the template: blocks,
matches, nested blocks. :func:`records` turns one into **records**: one for the page and
one per match of a repeatable block (top-level or nested), each a nested dict keyed by
concept: a block labelled ``artist.name`` whose match reads "Nina Simone" gives
``{"artist": {"name": "Nina Simone"}}``.

* A value comes from a match: its captures, each at its own concept (``album.year`` from
  ``(album.year[[0-9]{4}])``), and the match's ``text`` at the block's concept, unless a
  capture already names that concept. The page's URL captures go into the page record.
* A block labelled with a bare concept (``album``) is an object: its match's ``text``
  goes to the object's ``"@value"`` (``@`` cannot start a concept name, so it never
  collides with an attribute).
* A concept given several different values holds them as a list, in document order.
* Non-repeatable blocks (and nested blocks of non-repeatable matches) add to the record
  they are in; a repeatable block's matches are records of their own. Blocks without a
  concept (a ``description`` only) give nothing.

:func:`merge_by_id` joins what several records (of one page or many) say about the same
object: the submission gives every concept an ``id`` attribute "to be used by web crawlers
to co-ordinate the same object's attributes used in different pages of the same website",
so the objects with the same concept and ``id`` on one site (``host``) are merged into
one, wherever they are in a record.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

__all__ = ["merge_by_id", "records", "records_with_parents"]

VALUE = "@value"


#: The values already in each list of a structure being built (by the list's ``id``): adding
#: a value to a list of many stays O(1), so a concept given n values costs O(n), not O(n²).
_Seen = dict[int, set[str]]


def _put(obj: dict[str, Any], path: list[str], value: str, seen: _Seen) -> None:
    """Set ``value`` at the concept ``path`` in ``obj`` (a list once it has several values)."""
    for key in path[:-1]:
        sub = obj.get(key)
        if not isinstance(sub, dict):
            sub = {VALUE: sub} if sub is not None else {}
            obj[key] = sub
        obj = sub
    last = path[-1]
    have = obj.get(last)
    if isinstance(have, dict):
        _put(have, [VALUE], value, seen)
    elif have is None:
        obj[last] = value
    elif isinstance(have, list):
        known = seen.get(id(have))
        if known is None:
            known = seen[id(have)] = set(have)
        if value not in known:
            known.add(value)
            have.append(value)
    elif have != value:
        pair = obj[last] = [have, value]
        seen[id(pair)] = {have, value}


def _concept_path(concept: str) -> list[str]:
    return [part for part in concept.split(".") if part]


def _add_match(
    data: dict[str, Any],
    concept: str | None,
    match: dict[str, Any],
    out: list[tuple[dict[str, Any], int]],
    context: dict[str, Any],
    ref: str,
    parent: int,
    seen: _Seen,
) -> None:
    """Add one match's values to ``data`` (of record ``parent``); its repeatable nested blocks
    become records in ``out``, each with the index of the record it is inside."""
    captures: dict[str, list[str]] = match.get("captures") or {}
    for name, values in captures.items():
        for v in values:
            _put(data, _concept_path(name), v, seen)
    if concept and concept not in captures and match.get("text") is not None:
        path = _concept_path(concept)
        if len(path) == 1:
            path = [path[0], VALUE]
        _put(data, path, match["text"], seen)
    for i, block in enumerate(match.get("blocks") or ()):
        _add_block(data, block, out, context, f"{ref}.{i}", parent, seen)


def _add_block(
    data: dict[str, Any],
    block: dict[str, Any],
    out: list[tuple[dict[str, Any], int]],
    context: dict[str, Any],
    ref: str,
    parent: int,
    seen: _Seen,
) -> None:
    concept = block.get("concept")
    if block.get("repeatable"):
        for m in block["matches"]:
            rec: dict[str, Any] = {}
            at = len(out)
            out.append(({**context, "block": ref, "xpath": m.get("xpath"), "data": rec}, parent))
            _add_match(rec, concept, m, out, context, ref, at, seen)
            if not rec:
                # Nothing from the match itself: its nested records are inside the record it is in.
                del out[at]
                for k in range(at, len(out)):
                    r, up = out[k]
                    out[k] = (r, parent if up == at else up - 1 if up > at else up)
        return
    for m in block["matches"]:
        _add_match(data, concept, m, out, context, ref, parent, seen)


def records_with_parents(page: dict[str, Any]) -> list[tuple[dict[str, Any], int]]:
    """:func:`records`, each with the index of the record it is inside (the page's record,
    index 0, for a top-level repeatable block; the record of the match it is nested in
    otherwise; -1 for the page's own record)."""
    context = {"kind": "wpt-record", "template": page.get("template"), "host": page.get("host"), "url": page.get("url")}
    data: dict[str, Any] = {}
    seen: _Seen = {}
    for name, values in (page.get("url_captures") or {}).items():
        for v in values:
            _put(data, _concept_path(name), v, seen)
    out: list[tuple[dict[str, Any], int]] = [({**context, "block": None, "xpath": None, "data": data}, -1)]
    for i, block in enumerate(page.get("blocks") or ()):
        _add_block(data, block, out, context, str(i), 0, seen)
    return out


def records(page: dict[str, Any]) -> list[dict[str, Any]]:
    """The records of one WPT page object: the page's first (``block`` and ``xpath``
    ``None``), then one per repeatable match, in block and document order (a nested
    repeatable match after the match it is in). Each is ``{"kind": "wpt-record",
    "template", "host", "url", "block", "xpath", "data"}``; ``block`` is the path of block
    indices (``"1"``, ``"1.0"`` for a nested block) and ``data`` the objects keyed by concept."""
    return [rec for rec, _ in records_with_parents(page)]


def _merge(into: dict[str, Any], other: dict[str, Any], seen: _Seen) -> None:
    for key, value in other.items():
        if isinstance(value, dict):
            sub = into.get(key)
            if not isinstance(sub, dict):
                sub = {VALUE: sub} if sub is not None else {}
                into[key] = sub
            _merge(sub, value, seen)
        else:
            for v in value if isinstance(value, list) else [value]:
                _put(into, [key], v, seen)


def _objects_with_ids(data: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(concept, id, object) of every object in ``data`` with a single ``id``, at any depth
    (an object's concept is the key it is under: ``review.author.id`` is an ``author``)."""
    todo = list(data.items())
    while todo:
        concept, obj = todo.pop(0)
        if not isinstance(obj, dict):
            continue
        id_ = obj.get("id")
        if isinstance(id_, str):
            yield concept, id_, obj
        todo.extend(obj.items())


def merge_by_id(recs: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The objects the records describe, one per site, concept and ``id``:
    ``[{"host", "concept", "id", "object", "urls"}]`` in order of first appearance.

    An object of a record's ``data`` with an ``id`` (a single value), at the top or nested
    (``review.author.id``: an ``author``), is merged with every other one of the same concept
    and ``id`` on the same site (the record's ``host``: the submission's ids co-ordinate "the
    same object's attributes used in different pages of the same website", so two sites'
    ``artist`` 42 stay apart). Objects without an ``id`` are left out."""
    merged: dict[tuple[str | None, str, str], dict[str, Any]] = {}
    seen: _Seen = {}
    for rec in recs:
        host = rec.get("host")
        for concept, id_, obj in _objects_with_ids(rec.get("data") or {}):
            key = (host, concept, id_)
            entry = merged.get(key)
            if entry is None:
                entry = merged[key] = {"host": host, "concept": concept, "id": id_, "object": {}, "urls": []}
            _merge(entry["object"], obj, seen)
            url = rec.get("url")
            if url is not None and url not in entry["urls"]:
                entry["urls"].append(url)
    return list(merged.values())
