"""Whole-document parsing, built from the same functions the streaming layer calls."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Final

from stream_mf2.html.dom import HTML_NS, Element, Node, ParentNode, Text

from .context import Mf2Context
from .items import items_from_subtree
from .metaformats import meta_item
from .options import Options
from .rels import collect_rels

# The elements whose attributes set document metadata (first base, html lang, Content-Language).
_OBSERVED: Final = frozenset({"base", "html", "meta"})


def _observe(ctx: Mf2Context, name: str, attrs: dict[str, str]) -> None:
    """Document metadata from a ``base``, ``html`` or ``meta`` element: the first of each wins."""
    if name == "base":
        if "href" in attrs and not ctx.has_base:
            ctx.set_base(attrs["href"])
    elif name == "html":
        if ctx.html_lang is None and "lang" in attrs:
            ctx.html_lang = attrs["lang"]
    elif (
        ctx.content_language is None
        and attrs.get("http-equiv", "").lower() == "content-language"
        and attrs.get("content")
    ):
        ctx.content_language = attrs["content"]


def document_context(
    document: ParentNode,
    url: str | None = None,
    options: Options | None = None,
    resolve_id: Callable[[str], Element | None] | None = None,
) -> tuple[Mf2Context, list[Element]]:
    """A context for ``document`` with its base URL, languages and an id index; also its elements."""
    elements: list[Element] = []
    keep = elements.append
    ids: dict[str, Element] = {}
    # the id index is filled below, before anything resolves an id through it
    ctx = Mf2Context(url, options, resolve_id if resolve_id is not None else ids.get)
    # one walk in tree order (template contents are not descendants); an iterator over
    # child nodes per open element, so the loop over children runs in C
    stack: list[Iterator[Node]] = [iter(document.children)]
    while stack:
        for el in stack[-1]:
            if type(el) is not Element:
                continue
            keep(el)
            attrs = el.attrs
            # most elements have no attributes, and only three names matter besides ids
            if attrs:
                element_id = attrs.get("id")
                if element_id and element_id not in ids:
                    ids[element_id] = el
                name = el.name
                if name in _OBSERVED and el.namespace == HTML_NS:
                    _observe(ctx, name, attrs)
            children = el.children
            if children and (len(children) > 1 or type(children[0]) is not Text):  # not only a text node
                stack.append(iter(children))
                break
        else:
            stack.pop()
    return ctx, elements


def parse_dom(
    document: ParentNode,
    url: str | None = None,
    options: Options | None = None,
    resolve_id: Callable[[str], Element | None] | None = None,
) -> dict[str, Any]:
    """The mf2 JSON of a whole DOM: ``{"items", "rels", "rel-urls"}`` (+ ``"meta-item"``)."""
    ctx, elements = document_context(document, url, options, resolve_id)
    items = items_from_subtree(document, ctx)
    collect_rels(document, ctx)
    out: dict[str, Any] = {"items": items, "rels": ctx.rels.rels, "rel-urls": ctx.rels.rel_urls}
    if ctx.options.metaformats:
        head = next((el for el in elements if el.name == "head" and el.namespace == HTML_NS), None)
        found = meta_item(head, ctx) if head is not None else None
        if found is not None:
            out["meta-item"] = found
    return out
