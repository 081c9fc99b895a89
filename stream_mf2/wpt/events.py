"""WPT events: a block match as soon as its element is final, and the page's end.

:func:`collect_pages` turns a stream of events into the page objects
(``{"kind": "wpt", "template", "host", "url", "url_captures", "blocks"}``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from stream_mf2.wpt.model import Block, Template, Wpt

__all__ = ["WptMatchEvent", "WptPage", "WptPageEnd", "collect_pages", "page_header"]


@dataclass(frozen=True, slots=True, eq=False)
class WptPage:
    """One template applied to one page (events name it; compared by identity).

    ``wpt``: the WPT file the template was chosen from (``None`` when a template was given
    alone); its ontologies type the page's JSON-LD (:func:`stream_mf2.wpt.jsonld.page_jsonld`).
    """

    template: Template
    url: str | None
    url_captures: dict[str, list[str]] = field(default_factory=dict)
    wpt: Wpt | None = None


@dataclass(frozen=True, slots=True)
class WptMatchEvent:
    """A match of top-level block ``block`` (index in the template) of ``page``.

    ``match`` is ``{"xpath", "text", "html", "attributes", "captures", "blocks"}``
    (nested blocks resolved inside it).
    """

    page: WptPage
    block: int
    match: dict[str, Any]


@dataclass(frozen=True, slots=True)
class WptPageEnd:
    """The page ended: no more matches for ``page``; ``errors``: what went wrong (pattern window)."""

    page: WptPage
    errors: tuple[str, ...] = ()


def block_header(block: Block) -> dict[str, Any]:
    """A block's output object without matches."""
    return {
        "concept": block.concept,
        "description": block.description,
        "ref": block.ref(),
        "repeatable": block.repeatable,
        "matches": [],
    }


def page_header(page: WptPage) -> dict[str, Any]:
    """The page object with every block and no matches yet."""
    t = page.template
    return {
        "kind": "wpt",
        "template": t.name,
        "host": t.host,
        "url": page.url,
        "url_captures": page.url_captures,
        "blocks": [block_header(b) for b in t.blocks],
    }


def collect_pages(events: Iterable[object]) -> list[dict[str, Any]]:
    """The page objects of the WPT events in ``events`` (others are skipped), in page order.

    Matches are placed in their block in document order; a page is complete
    once its :class:`WptPageEnd` has been seen.
    """
    pages: dict[int, dict[str, Any]] = {}
    order: list[dict[str, Any]] = []
    # Element matches and source-pattern matches of one block arrive in document
    # order each; both kinds never mix in one block.
    for e in events:
        if isinstance(e, (WptMatchEvent, WptPageEnd)):
            page = e.page
            obj = pages.get(id(page))
            if obj is None:
                obj = pages[id(page)] = page_header(page)
                order.append(obj)
            if isinstance(e, WptMatchEvent):
                obj["blocks"][e.block]["matches"].append(e.match)
            elif e.errors:
                obj["errors"] = list(e.errors)
    return order
