"""A match's ``html``: the element's inner HTML, serialised as e-* values are.

The HTML fragment serialisation algorithm, written straight from the tree with
:mod:`stream_mf2.html.serialize`'s escaping and element tables (the same
output as :func:`~stream_mf2.html.serialize.serialize_children` with its
default options, without building token objects), then trimmed of ASCII
whitespace like an e-* ``html``. URLs are left as written.
"""

from __future__ import annotations

from stream_mf2.html.dom import HTML_NS, Comment, Doctype, Element, Node, Text, text_content
from stream_mf2.html.serialize import RAW_TEXT_ELEMENTS, VOID_ELEMENTS, escape_attribute, escape_text

__all__ = ["html_and_text", "inner_html", "marked"]


def inner_html(element: Element) -> str:
    """``element.innerHTML`` (template contents for a template), trimmed."""
    return html_and_text(element, False)[0]


def html_and_text(element: Element, text: bool = True) -> tuple[str, str]:
    """``element.innerHTML``, trimmed (:func:`inner_html`), and with ``text`` its DOM
    ``textContent`` (:func:`~stream_mf2.html.dom.text_content`), in one walk of the subtree."""
    if element.namespace == HTML_NS and element.name in VOID_ELEMENTS:
        return "", text_content(element) if text else ""
    if element.template_contents is not None:
        # (the HTML of its contents, the text of its children: two walks)
        return _walk(element, False, None)[0], text_content(element) if text else ""
    return _walk(element, text, None)


def marked(element: Element, marks: set[Element]) -> dict[Element, tuple[str, str]]:
    """:func:`html_and_text` of ``element``, and of each of ``marks`` inside it, in one walk:
    each marked element's pair is the slice of its content in the walk's output (the
    serialisation of a subtree does not depend on what is around it). Marked elements must
    not be void or ``template`` elements, and must be outside template contents."""
    spans: dict[Element, tuple[str, str]] = {}
    spans[element] = _walk(element, True, marks, spans)
    return spans


def _walk(
    element: Element,
    text: bool,
    marks: set[Element] | None,
    spans: dict[Element, tuple[str, str]] | None = None,
) -> tuple[str, str]:
    out: list[str] = []
    append = out.append
    texts: list[str] = []
    add_text = texts.append
    void = VOID_ELEMENTS
    raw_names = RAW_TEXT_ELEMENTS
    contents = element.template_contents
    top = list(contents.children) if contents is not None else element.children
    # where each open marked element's content starts in out and texts
    starts: dict[Element, tuple[int, int]] = {}
    # (child nodes, next index, end tag to write after them, raw text?, textContent?, marked owner)
    stack: list[tuple[list[Node], int, str, bool, bool, Element | None]] = [
        (top, 0, "", element.namespace == HTML_NS and element.name in raw_names, text, None)
    ]
    while stack:
        nodes, i, end, raw, collect, owner = stack.pop()
        n = len(nodes)
        while i < n:
            node = nodes[i]
            i += 1
            if type(node) is Text:
                data = node.data
                if collect:
                    add_text(data)
                if not raw and ("&" in data or "<" in data or ">" in data or "\u00a0" in data):
                    data = escape_text(data)
                append(data)
            elif type(node) is Element:
                name = node.name
                attrs = node.attrs
                if attrs:
                    # the start tag, piece by piece into the output (no call, no list per element)
                    append("<" + name)
                    for k, v in attrs.items():
                        if "&" in v or '"' in v or "\u00a0" in v:
                            v = escape_attribute(v, chr(34), False)
                        append(f' {k}="{v}"')
                    append(">")
                else:
                    append("<" + name + ">")
                html = node.namespace == HTML_NS
                if html and name in void:
                    if collect and node.children:  # (not from the HTML parser)
                        add_text(text_content(node))
                    continue
                sub_contents = node.template_contents
                if sub_contents is not None:
                    if collect and node.children:
                        add_text(text_content(node))
                    sub: list[Node] = list(sub_contents.children)
                    sub_collect = False
                else:
                    sub = node.children
                    sub_collect = collect
                mark = marks is not None and node in marks
                if not sub:
                    if mark:
                        _span(spans, node, out, texts, len(out), len(texts))
                    append("</" + name + ">")
                    continue
                if len(sub) == 1 and type(sub[0]) is Text and sub_contents is None:
                    # a text-only element (most of them), written here rather than through the stack
                    only = sub[0]
                    assert type(only) is Text
                    data = only.data
                    if collect:
                        add_text(data)
                    if not (html and name in raw_names) and (
                        "&" in data or "<" in data or ">" in data or "\u00a0" in data
                    ):
                        data = escape_text(data)
                    append(data)
                    if mark:
                        _span(spans, node, out, texts, len(out) - 1, len(texts) - 1 if collect else len(texts))
                    append("</" + name + ">")
                    continue
                if mark:
                    starts[node] = (len(out), len(texts))
                stack.append((nodes, i, end, raw, collect, owner))
                stack.append(
                    (sub, 0, "</" + name + ">", html and name in raw_names, sub_collect, node if mark else None)
                )
                break
            elif isinstance(node, Comment):
                append("<!--" + node.data + "-->")
            elif isinstance(node, Doctype):
                append("<!DOCTYPE " + (node.name or "") + ">")
        else:
            if owner is not None:
                at, at_text = starts.pop(owner)
                _span(spans, owner, out, texts, at, at_text)
            append(end)
    return "".join(out).strip(" \t\n\f\r"), "".join(texts)


def _span(
    spans: dict[Element, tuple[str, str]] | None,
    element: Element,
    out: list[str],
    texts: list[str],
    at: int,
    at_text: int,
) -> None:
    """Note ``element``'s pair: its content is ``out[at:]`` and ``texts[at_text:]`` so far."""
    if spans is not None:
        spans[element] = ("".join(out[at:]).strip(" \t\n\f\r"), "".join(texts[at_text:]))
