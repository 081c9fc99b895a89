"""Parsing like a streaming caller that folds nested roots early (:func:`fold_nested`).

:func:`folded_parse` folds every nested root it may (never an include target's subtree)
and drops the folded subtrees, then parses what is left; the result must equal
``parse_dom`` of the whole tree.
"""

from __future__ import annotations

from typing import Any

from stream_mf2.html.dom import Document, Element, Node
from stream_mf2.mf2 import Options, collect_rels, document_context, fold_nested, items_from_subtree
from tests.support.streamed import post_order

OPTIONS = Options(lang=True)


def _may_be_included(element: Element) -> bool:
    """Might the mf1 include pattern copy this subtree? (Here: an id on it, inside it or above it.)"""
    stack: list[Node] = [element]
    while stack:
        node = stack.pop()
        if isinstance(node, Element):
            if node.attrs.get("id"):
                return True
            stack.extend(node.children)
    parent = element.parent
    while isinstance(parent, Element):
        if parent.attrs.get("id"):
            return True
        parent = parent.parent
    return False


def folded_parse(doc: Document, url: str, options: Options = OPTIONS) -> tuple[dict[str, Any], int]:
    """Parse like a streaming caller that folds every nested root it can and drops its subtree:
    (``{"items": ..., "notes": ...}``, how many nested roots were folded)."""
    ctx, _elements = document_context(doc, url, options)
    folded = 0
    for element in post_order(doc):
        if _may_be_included(element):
            continue  # include targets must stay whole (the caller's side of fold_nested's contract)
        collect_rels(element, ctx)
        if fold_nested(element, ctx):
            folded += 1
            for child in element.children:
                child.parent = None
            element.children = []
    items = items_from_subtree(doc, ctx)
    return {"items": items, "notes": ctx.notes}, folded
