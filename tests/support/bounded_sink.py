"""The bounded sink against the full DOM: keep predicates, tree dumps, random tag soup.

* :data:`KEEPS`: two keep predicates, mf2-like (``keep_h``: a class token starting with
  ``h-``) and a stress one (``keep_bad``: every HTML ``b``, ``a`` and ``div``);
* :func:`expected` builds the full DOM with :class:`DomSink` and dumps its outermost kept
  elements in document order; :func:`bounded` dumps what :class:`BoundedSink` hands over;
* :func:`tag_soup`: random misnested markup (no class on ``html``/``body``, whose merged
  attributes are a documented difference).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from stream_mf2.html.bounded import BoundedSink
from stream_mf2.html.bounded.sink import DEFAULT_MAX_KEPT_NODES, DEFAULT_MAX_PENDING_ITEMS
from stream_mf2.html.dom import HTML_NS, DocumentFragment, Element, ParentNode
from stream_mf2.html.sink import DomSink
from stream_mf2.html.testing.tree import build, context_element, dump_tree

Keep = Callable[[Element], bool]


def keep_h(el: Element) -> bool:
    return any(t.startswith("h-") for t in el.attrs.get("class", "").split())


def keep_bad(el: Element) -> bool:
    return el.namespace == HTML_NS and el.name in ("b", "a", "div")


KEEPS: dict[str, Keep] = {"h-class": keep_h, "b-a-div": keep_bad}


def dump_one(el: Element) -> str:
    holder = DocumentFragment()
    holder.children = [el]  # not re-parented: the dump only reads children
    return dump_tree(holder)


def outermost_kept(root: ParentNode, keep: Keep) -> list[str]:
    out: list[str] = []
    stack = list(reversed(root.children))
    while stack:
        n = stack.pop()
        if isinstance(n, Element):
            if keep(n):
                out.append(dump_one(n))
            else:
                stack.extend(reversed(n.children))
    return out


def expected(chunks: list[str], keep: Keep, fragment: str | None = None) -> list[str]:
    sink = DomSink()
    build(chunks, sink, context_element(fragment) if fragment else None)
    root: ParentNode = sink.document
    if fragment:
        first = sink.document.children[0]
        assert isinstance(first, Element)
        root = first
    return outermost_kept(root, keep)


def bounded(
    chunks: list[str],
    keep: Keep,
    fragment: str | None = None,
    max_pending: int = DEFAULT_MAX_PENDING_ITEMS,
    max_kept_nodes: int = DEFAULT_MAX_KEPT_NODES,
) -> tuple[list[str], BoundedSink]:
    got: list[str] = []
    sink = BoundedSink(
        keep, lambda el: got.append(dump_one(el)), max_pending=max_pending, max_kept_nodes=max_kept_nodes
    )
    build(chunks, sink, context_element(fragment) if fragment else None)
    return got, sink


SOUP_TAGS = [
    "a",
    "b",
    "i",
    "p",
    "div",
    "table",
    "tr",
    "td",
    "th",
    "tbody",
    "caption",
    "span",
    "li",
    "ul",
    "select",
    "option",
    "template",
    "svg",
    "math",
    "mi",
    "foreignObject",
    "em",
    "font",
    "nobr",
    "button",
    "form",
    "h1",
    "pre",
    "textarea",
    "frameset",
    "body",
    "html",
    "head",
    "title",
    "col",
    "colgroup",
    "hr",
    "br",
    "img",
    "input",
    "dd",
    "dt",
    "object",
    "marquee",
    "ruby",
    "rt",
    "plaintext",
    "noscript",
    "style",
    "script",
    "desc",
]


def tag_soup(rng: random.Random) -> str:
    out: list[str] = []
    for _ in range(rng.randint(1, 40)):
        r = rng.random()
        tag = rng.choice(SOUP_TAGS)
        if r < 0.5:
            # No class on html/body: merged attributes are a documented difference.
            cls = f' class="h-{rng.randint(0, 3)}"' if rng.random() < 0.4 and tag not in ("html", "body") else ""
            out.append(f"<{tag}{cls}>")
        elif r < 0.8:
            out.append(f"</{tag}>")
        else:
            out.append(rng.choice(["x", " ", "text ", "\n", "&amp;", "<!--c-->"]))
    return "".join(out)
