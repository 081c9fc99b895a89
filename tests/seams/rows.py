"""The rows of the seam matrix: each kind of result, and how to read it from every shape of output.

A front end gives one page's output in one of three shapes (:class:`Seen`):

* ``"result"``: a whole-document dict as :func:`stream_mf2.parse` returns it (``items``, ``rels``,
  ``rel-urls``, ``meta-item``, ``wpt``), with the notes the front end logged beside it (the
  ``stream_mf2`` logger, or ``stream-mf2: warning:`` lines on standard error);
* ``"events"``: the events of :class:`stream_mf2.Parser`, :class:`~stream_mf2.events.DocumentEnd` last;
* ``"lines"``: JSON Lines as the commands write them (``item``, ``meta-item``, ``document``,
  ``record``, ``wpt``, ``wpt-match``; Parquet rows are turned back into these lines); with
  ``--syntaxes`` the ``item`` lines have a ``syntax``, and those of the other syntaxes are read by
  their own rows (:class:`Syntax`).

A :class:`Row` reads its kind of result from each shape, so a new kind of result is one new
row in :data:`ROWS`; a new front end that gives one of these shapes needs no change here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from stream_mf2.core.syntaxes import SYNTAXES, result_function
from stream_mf2.events import DocumentEnd, ItemEvent, MetaItemEvent
from stream_mf2.wpt import WptMatchEvent, WptPageEnd
from stream_mf2.wpt.model import Block
from tests.seams.inputs import WPT
from tests.support.syntax_lines import syntax_list

Shape = Literal["result", "events", "lines"]
Line = dict[str, Any]


@dataclass(frozen=True)
class Seen:
    """One page's output from one front end, in the shape that front end gives it."""

    shape: Shape
    #: ``"result"``: a dict; ``"events"``: a list of events; ``"lines"``: a list of line dicts.
    data: Any
    #: The notes the front end logged as warnings, in order (``None``: it logs none).
    logged: tuple[str, ...] | None = None


class Row(ABC):
    """One kind of result: its name, and how to read it from each shape of output."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<row {self.name}>"

    def extract(self, seen: Seen) -> Any:
        if seen.shape == "result":
            return self.from_result(seen.data, seen.logged)
        if seen.shape == "events":
            return self.from_events(seen.data)
        return self.from_lines(seen.data, seen.logged)

    @abstractmethod
    def from_result(self, doc: dict[str, Any], logged: tuple[str, ...] | None) -> Any: ...

    @abstractmethod
    def from_events(self, events: Sequence[object]) -> Any: ...

    @abstractmethod
    def from_lines(self, lines: Sequence[Line], logged: tuple[str, ...] | None) -> Any: ...


# -- reading the shapes ---------------------------------------------------------------------------


def document_end(events: Sequence[object]) -> DocumentEnd:
    """The stream's :class:`DocumentEnd`: exactly one, and last."""
    ends = [e for e in events if isinstance(e, DocumentEnd)]
    assert len(ends) == 1 and events[-1] is ends[0], "one DocumentEnd, last"
    return ends[0]


def end_line(lines: Sequence[Line]) -> Line | None:
    """The page's ``document`` line (page command) or ``record`` line (WARC runs), if it has one."""
    ends = [line for line in lines if line["kind"] in ("document", "record")]
    assert len(ends) <= 1, f"{len(ends)} document/record lines for one page"
    return ends[0] if ends else None


def ref_kind(ref: dict[str, str | None]) -> str:
    """The reference kind a top-level block is matched by: an id, a path, or the page source."""
    if ref["tagid"] is not None:
        return "ow:tagid"  # (with a path or a pattern, the element is still found by its id)
    if ref["xpath"] is not None:
        return "ow:xpath"
    return "ow:pattern"


def block_of(template: str, index: int) -> Block:
    """Top-level block ``index`` of the named template (of :data:`~tests.seams.inputs.WPT`)."""
    return WPT.template(template).blocks[index]


def _key(template: str, index: int, concept: str | None) -> str:
    return f"{template} #{index} {concept}"


# -- the rows ---------------------------------------------------------------------------------------


class Items(Row):
    """The top-level mf2 items, in document order."""

    def __init__(self) -> None:
        super().__init__("items")

    def from_result(self, doc: dict[str, Any], logged: tuple[str, ...] | None) -> Any:
        return doc["items"]

    def from_events(self, events: Sequence[object]) -> Any:
        items = [e for e in events if isinstance(e, ItemEvent)]
        assert all(e.path == () for e in items), "no stream_children here: every item is top-level"
        return [e.item for e in items]

    def from_lines(self, lines: Sequence[Line], logged: tuple[str, ...] | None) -> Any:
        # (the item lines of the other syntaxes say theirs: the Syntax rows)
        items = [line for line in lines if line["kind"] == "item" and line.get("syntax", "mf2") == "mf2"]
        # WARC item lines say where each item sits: [i] for the i-th top-level item.
        assert all(line.get("path", [i]) == [i] for i, line in enumerate(items)), [line.get("path") for line in items]
        return [line["item"] for line in items]


class DocumentField(Row):
    """A field final at the document's end (``rels``, ``rel-urls``): its key, and its attribute of DocumentEnd."""

    def __init__(self, name: str, attr: str) -> None:
        super().__init__(name)
        self.attr = attr

    def from_result(self, doc: dict[str, Any], logged: tuple[str, ...] | None) -> Any:
        return doc[self.name]

    def from_events(self, events: Sequence[object]) -> Any:
        return getattr(document_end(events), self.attr)

    def from_lines(self, lines: Sequence[Line], logged: tuple[str, ...] | None) -> Any:
        end = end_line(lines)
        assert end is not None, "no document or record line"
        return end[self.name]


class MetaItem(Row):
    """The metaformats item (``None`` when the page gives none)."""

    def __init__(self) -> None:
        super().__init__("meta-item")

    def from_result(self, doc: dict[str, Any], logged: tuple[str, ...] | None) -> Any:
        return doc.get("meta-item")

    def from_events(self, events: Sequence[object]) -> Any:
        found = [e.item for e in events if isinstance(e, MetaItemEvent)]
        assert len(found) <= 1
        item = found[0] if found else None
        # The stream says it twice: as soon as </head> ends, and again at the end.
        assert document_end(events).meta_item == item
        return item

    def from_lines(self, lines: Sequence[Line], logged: tuple[str, ...] | None) -> Any:
        found = [line["item"] for line in lines if line["kind"] == "meta-item"]  # the page command's --jsonl
        end = end_line(lines)
        if end is not None and "meta-item" in end:  # a WARC record line
            found.append(end["meta-item"])
        assert len(found) <= 1
        return found[0] if found else None


class Notes(Row):
    """The notes: recoveries that changed the output (``DocumentEnd.notes``, ``Parser.notes``)."""

    def __init__(self) -> None:
        super().__init__("notes")

    def from_result(self, doc: dict[str, Any], logged: tuple[str, ...] | None) -> Any:
        assert logged is not None, "this front end logs no notes"
        return list(logged)

    def from_events(self, events: Sequence[object]) -> Any:
        return list(document_end(events).notes)

    def from_lines(self, lines: Sequence[Line], logged: tuple[str, ...] | None) -> Any:
        end = end_line(lines)
        if end is not None:
            return end["notes"]
        # no document line (stream-mf2 wpt over a page): the warnings on standard error
        assert logged is not None, "neither a document line nor warnings"
        return list(logged)


class Syntax(Row):
    """The results of one syntax other than mf2 (``syntaxes=``): its list in the whole-document result,
    made from the events by the registry's result function, one ``item`` line per entry."""

    def __init__(self, syntax: str) -> None:
        super().__init__(syntax)

    def from_result(self, doc: dict[str, Any], logged: tuple[str, ...] | None) -> Any:
        return doc[self.name]

    def from_events(self, events: Sequence[object]) -> Any:
        document_end(events)
        return result_function(self.name)(list(events))

    def from_lines(self, lines: Sequence[Line], logged: tuple[str, ...] | None) -> Any:
        # [i] on each line: its place in the list (a microdata page item's line comes last)
        return syntax_list(lines, self.name)


def _page_objects(lines: Sequence[Line]) -> list[Line]:
    return [line for line in lines if line["kind"] == "wpt"]


class WptMatches(Row):
    """The matches of the top-level blocks of one reference kind (nested blocks inside them),
    by template and block; blocks without a match are left out (a ``wpt-match`` line has none)."""

    def __init__(self, name: str, kind: str) -> None:
        super().__init__(name)
        self.kind = kind  # ow:xpath, ow:tagid, ow:pattern

    def _from_pages(self, pages: Sequence[Line]) -> dict[str, list[Any]]:
        out: dict[str, list[Any]] = {}
        for page in pages:
            for i, block in enumerate(page["blocks"]):
                if ref_kind(block["ref"]) == self.kind and block["matches"]:
                    out[_key(page["template"], i, block["concept"])] = block["matches"]
        return out

    def from_result(self, doc: dict[str, Any], logged: tuple[str, ...] | None) -> Any:
        return self._from_pages(doc["wpt"])

    def from_events(self, events: Sequence[object]) -> Any:
        out: dict[str, list[Any]] = {}
        ended: set[int] = set()
        for e in events:
            if isinstance(e, WptPageEnd):
                ended.add(id(e.page))
            elif isinstance(e, WptMatchEvent):
                block = e.page.template.blocks[e.block]
                if ref_kind(block.ref()) == self.kind:
                    key = _key(e.page.template.name, e.block, block.concept)
                    # What consumers rely on (stream-mf2 wpt writes a page's line at its end).
                    assert id(e.page) not in ended, f"{key}: a match after its page's WptPageEnd"
                    out.setdefault(key, []).append(e.match)
        return out

    def from_lines(self, lines: Sequence[Line], logged: tuple[str, ...] | None) -> Any:
        out = self._from_pages(_page_objects(lines))
        for line in lines:
            if line["kind"] == "wpt-match":
                block = block_of(line["template"], line["block"])
                assert line["concept"] == block.concept
                if ref_kind(block.ref()) == self.kind:
                    out.setdefault(_key(line["template"], line["block"], block.concept), []).append(line["match"])
        return out


class WptPages(Row):
    """The templates applied to the page: URL, captures of its URL, blocks (without matches), errors."""

    def __init__(self) -> None:
        super().__init__("wpt-pages")

    @staticmethod
    def _header(page: Line) -> Line:
        return {
            "host": page["host"],
            "url": page["url"],
            "url_captures": page["url_captures"],
            "blocks": [{k: v for k, v in b.items() if k != "matches"} for b in page["blocks"]],
            "errors": page.get("errors", []),
        }

    def from_result(self, doc: dict[str, Any], logged: tuple[str, ...] | None) -> Any:
        return {p["template"]: self._header(p) for p in doc["wpt"]}

    def from_events(self, events: Sequence[object]) -> Any:
        out: dict[str, Line] = {}
        for e in events:
            if isinstance(e, WptPageEnd):
                t = e.page.template
                out[t.name] = {
                    "host": t.host,
                    "url": e.page.url,
                    "url_captures": e.page.url_captures,
                    "blocks": [
                        {"concept": b.concept, "description": b.description, "ref": b.ref(), "repeatable": b.repeatable}
                        for b in t.blocks
                    ],
                    "errors": list(e.errors),
                }
        return out

    def from_lines(self, lines: Sequence[Line], logged: tuple[str, ...] | None) -> Any:
        return {p["template"]: self._header(p) for p in _page_objects(lines)}


#: The kinds of result, one row each.
ROWS: tuple[Row, ...] = (
    Items(),
    DocumentField("rels", "rels"),
    DocumentField("rel-urls", "rel_urls"),
    MetaItem(),
    Notes(),
    WptMatches("wpt-xpath", "ow:xpath"),
    WptMatches("wpt-tagid", "ow:tagid"),
    WptMatches("wpt-pattern", "ow:pattern"),
    WptPages(),
    *(Syntax(name) for name in SYNTAXES if name != "mf2"),
)

#: The rows of the syntaxes other than mf2 (a front end that gives mf2 items only has none of them).
SYNTAX_ROWS: tuple[str, ...] = tuple(name for name in SYNTAXES if name != "mf2")

#: The rows a front end without a template cannot give.
WPT_ROWS: tuple[str, ...] = tuple(r.name for r in ROWS if r.name.startswith("wpt-"))
