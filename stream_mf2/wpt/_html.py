"""A match's ``html``: the element's inner HTML, serialised as e-* values are.

The HTML fragment serialisation algorithm, written straight from the tree with
:mod:`stream_mf2.html.serialize`'s escaping and element tables (the same
output as :func:`~stream_mf2.html.serialize.serialize_children` with its
default options, without building token objects), then trimmed of ASCII
whitespace like an e-* ``html``. URLs are left as written.
"""

from __future__ import annotations

from stream_mf2.html.dom import HTML_NS, Comment, Doctype, Element, Node, Text
from stream_mf2.html.serialize import RAW_TEXT_ELEMENTS, VOID_ELEMENTS, escape_attribute, escape_text

__all__ = ["inner_html"]


def _start_tag(el: Element) -> str:
    attrs = el.attrs
    if not attrs:
        return "<" + el.name + ">"
    parts = ["<", el.name]
    for k, v in attrs.items():
        parts.append(f' {k}="{escape_attribute(v, chr(34), False)}"')
    parts.append(">")
    return "".join(parts)


def inner_html(element: Element) -> str:
    """``element.innerHTML`` (template contents for a template), trimmed."""
    out: list[str] = []
    append = out.append

    def kids(el: Element) -> list[Node]:
        contents = el.template_contents
        return list(contents.children) if contents is not None else el.children

    if element.namespace == HTML_NS and element.name in VOID_ELEMENTS:
        return ""
    # (iterator over children, end tag to write after them, raw text?)
    stack: list[tuple[list[Node], int, str, bool]] = [
        (kids(element), 0, "", element.namespace == HTML_NS and element.name in RAW_TEXT_ELEMENTS)
    ]
    while stack:
        nodes, i, end, raw = stack.pop()
        while i < len(nodes):
            node = nodes[i]
            i += 1
            if isinstance(node, Text):
                data = node.data
                append(data if raw else escape_text(data))
            elif isinstance(node, Element):
                append(_start_tag(node))
                html = node.namespace == HTML_NS
                if html and node.name in VOID_ELEMENTS:
                    continue
                sub = kids(node)
                if not sub:
                    append("</" + node.name + ">")
                    continue
                stack.append((nodes, i, end, raw))
                stack.append((sub, 0, "</" + node.name + ">", html and node.name in RAW_TEXT_ELEMENTS))
                break
            elif isinstance(node, Comment):
                append("<!--" + node.data + "-->")
            elif isinstance(node, Doctype):
                append("<!DOCTYPE " + (node.name or "") + ">")
        else:
            append(end)
    return "".join(out).strip(" \t\n\f\r")
