"""Parsing one property element: p-*, u-*, dt-* and e-* values."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from stream_mf2.html.dom import HTML_NS, Comment, Element, Node, Text
from stream_mf2.html.serialize import RAW_TEXT_ELEMENTS, VOID_ELEMENTS, escape_attribute, escape_text

from . import vcp
from .context import Mf2Context
from .text import element_text
from .urls import resolve

_SRC_ELEMENTS = frozenset({"audio", "video", "source", "iframe"})


def _text(element: Element, ctx: Mf2Context, replace_images: bool) -> str:
    texts = ctx.texts
    if texts is not None:
        return texts.text(element, replace_images)
    return element_text(element, ctx.base_url, ctx.options.text, replace_images)


def _inner_text(ctx: Mf2Context) -> vcp.InnerText:
    texts = ctx.texts
    return texts.inner_text if texts is not None else vcp.plain_inner_text


def parse_srcset(srcset: str, base: str | None) -> dict[str, str]:
    """``srcset`` as ``{descriptor: absolute URL}``; the first URL per descriptor wins, ``1x`` by default."""
    out: dict[str, str] = {}
    pos = 0
    n = len(srcset)
    while pos < n:
        # skip whitespace and commas before a candidate
        while pos < n and srcset[pos] in " \t\n\f\r,":
            pos += 1
        if pos >= n:
            break
        start = pos
        while pos < n and srcset[pos] not in " \t\n\f\r":
            pos += 1
        url = srcset[start:pos]
        descriptor = ""
        if url.endswith(","):
            url = url.rstrip(",")
        else:
            end = srcset.find(",", pos)
            if end < 0:
                end = n
            descriptor = srcset[pos:end].strip(" \t\n\f\r")
            pos = end + 1
        if not url:
            continue
        key = descriptor or "1x"
        if key not in out:
            out[key] = resolve(url, base)
    return out


def image_value(element: Element, ctx: Mf2Context) -> str | dict[str, Any]:
    """An ``<img>`` as a URL value: ``{"value", "alt", "srcset"}`` when it has ``alt``/``srcset``."""
    attrs = element.attrs
    src = resolve(attrs.get("src", ""), ctx.base_url)
    alt = attrs.get("alt")
    srcset = attrs.get("srcset")
    if alt is None and not srcset:
        return src
    out: dict[str, Any] = {"value": src}
    if alt is not None:
        out["alt"] = alt
    if srcset:
        out["srcset"] = parse_srcset(srcset, ctx.base_url)
    return out


def p_value(element: Element, ctx: Mf2Context, is_boundary: vcp.Boundary) -> str:
    """A p-* property's value."""
    found = vcp.text_value(element, is_boundary, _inner_text(ctx))
    if found is not None:
        return found
    name = element.name
    attrs = element.attrs
    if name in ("abbr", "link") and "title" in attrs:
        return attrs["title"]
    if name in ("data", "input") and "value" in attrs:
        return attrs["value"]
    if name in ("img", "area") and "alt" in attrs:
        return attrs["alt"]
    return _text(element, ctx, True)


def u_value(element: Element, ctx: Mf2Context, is_boundary: vcp.Boundary) -> str | dict[str, Any]:
    """A u-* property's value, resolved against the base URL whatever its source."""
    name = element.name
    attrs = element.attrs
    base = ctx.base_url
    if name in ("a", "area", "link") and "href" in attrs:
        return resolve(attrs["href"], base)
    if name == "img" and "src" in attrs:
        return image_value(element, ctx)
    if name in _SRC_ELEMENTS and "src" in attrs:
        return resolve(attrs["src"], base)
    if name == "video" and "poster" in attrs:
        return resolve(attrs["poster"], base)
    if name == "object" and "data" in attrs:
        return resolve(attrs["data"], base)
    found = vcp.text_value(element, is_boundary, _inner_text(ctx))
    if found is None:
        if name == "abbr" and "title" in attrs:
            found = attrs["title"]
        elif name in ("data", "input") and "value" in attrs:
            found = attrs["value"]
        else:
            found = _text(element, ctx, False)
    return resolve(found, base)


def dt_value(element: Element, ctx: Mf2Context, is_boundary: vcp.Boundary, implied_date: str | None) -> str:
    """A dt-* property's value: the value-class pattern first, then the element's own sources."""
    found = vcp.datetime_value(element, is_boundary, implied_date, _inner_text(ctx))
    if found is not None:
        return found
    name = element.name
    attrs = element.attrs
    if name in ("time", "ins", "del") and "datetime" in attrs:
        return attrs["datetime"]
    if name == "abbr" and "title" in attrs:
        return attrs["title"]
    if name in ("data", "input") and "value" in attrs:
        return attrs["value"]
    return _text(element, ctx, False)


# Attributes holding one URL, per element, that e-* html gets absolute.
_URL_ATTRS: dict[str, tuple[str, ...]] = {
    "a": ("href",),
    "area": ("href",),
    "link": ("href",),
    "img": ("src", "longdesc"),
    "audio": ("src",),
    "video": ("src", "poster"),
    "source": ("src",),
    "track": ("src",),
    "iframe": ("src",),
    "embed": ("src",),
    "script": ("src",),
    "input": ("src", "formaction"),
    "button": ("formaction",),
    "form": ("action",),
    "object": ("data", "codebase"),
    "applet": ("codebase",),
    "html": ("manifest",),
    "blockquote": ("cite",),
    "q": ("cite",),
    "ins": ("cite",),
    "del": ("cite",),
}


def _resolve_srcset(srcset: str, base: str | None) -> str:
    parts = []
    for candidate in srcset.split(","):
        bits = candidate.strip(" \t\n\f\r").split(None, 1)
        if not bits:
            continue
        bits[0] = resolve(bits[0], base)
        parts.append(" ".join(bits))
    return ", ".join(parts)


def _absolute_attrs(element: Element, base: str | None) -> tuple[tuple[str, str], ...]:
    """``element``'s attributes with relative URL attributes made absolute.

    As the spec proposes for e-* html: every URL attribute is resolved, except
    fragment-only references (``href="#note"``).
    """
    name = element.name
    url_attrs = _URL_ATTRS.get(name)
    attrs = element.attrs
    if url_attrs is None and not ("srcset" in attrs and name in ("img", "source")):
        return tuple(attrs.items())
    changed = dict(attrs)
    for attr in url_attrs or ():
        value = changed.get(attr)
        # fragment-only references stay relative: they point inside the embedded content
        if value is not None and not value.strip(" \t\n\f\r").startswith("#"):
            changed[attr] = resolve(value, base)
    if "srcset" in changed and name in ("img", "source"):
        changed["srcset"] = _resolve_srcset(changed["srcset"], base)
    return tuple(changed.items())


def _append_attrs(append: Callable[[str], object], attrs: Iterable[tuple[str, str]]) -> None:
    """Append `` key="value"`` for each attribute, escaped as in the serialiser."""
    for key, value in attrs:
        # most values need no escaping: test before calling
        if "&" in value or '"' in value or "<" in value or ">" in value or "\u00a0" in value:
            value = escape_attribute(value)
        append(" " + key + '="' + value + '"')


def e_html(element: Element, base: str | None) -> str:
    """``element.innerHTML`` with relative URL attributes made absolute, trimmed.

    The HTML fragment serialisation algorithm (what
    :func:`stream_mf2.html.serialize.serialize_children` does with its default
    options, sharing its escaping and element tables), written straight from
    the tree: no copy of the subtree, no token objects. A template's contents
    stand for its children and are left as written (they are inert); void
    elements have no content.
    """
    if element.namespace == HTML_NS and element.name in VOID_ELEMENTS:
        return ""
    out: list[str] = []
    append = out.append
    raw = element.namespace == HTML_NS and element.name in RAW_TEXT_ELEMENTS
    # per open element: its child nodes, its end tag, whether its text is raw,
    # whether URL attributes below it are rewritten
    stack: list[tuple[Iterator[Node], str, bool, bool]] = [(iter(element.children), "", raw, True)]
    while stack:
        children, end_tag, raw, rewrite = stack[-1]
        for node in children:
            kind = type(node)
            if kind is Text:
                data: str = node.data  # type: ignore[attr-defined]
                # escape_text, tested inline: most text runs hold nothing to escape
                if not raw and ("&" in data or "<" in data or ">" in data or "\u00a0" in data):
                    data = escape_text(data)
                append(data)
            elif kind is Element:
                assert isinstance(node, Element)
                name = node.name
                html = node.namespace == HTML_NS
                attrs = node.attrs
                if not attrs:
                    append("<" + name + ">")
                else:
                    append("<" + name)
                    if rewrite and (name in _URL_ATTRS or ("srcset" in attrs and name in ("img", "source"))):
                        _append_attrs(append, _absolute_attrs(node, base))
                    else:
                        _append_attrs(append, attrs.items())
                    append(">")
                if html and name in VOID_ELEMENTS:
                    continue
                contents = node.template_contents
                if contents is not None and html:
                    stack.append((iter(contents.children), "</" + name + ">", False, False))
                else:
                    stack.append(
                        (iter(node.children), "</" + name + ">", html and name in RAW_TEXT_ELEMENTS, rewrite)
                    )
                break
            elif kind is Comment:
                append("<!--" + node.data + "-->")  # type: ignore[attr-defined]
        else:
            stack.pop()
            append(end_tag)
    return "".join(out).strip(" \t\n\f\r")


def e_value(element: Element, ctx: Mf2Context, lang: str | None, *, html: bool = True) -> dict[str, Any]:
    """An e-* property's value: ``{"html", "value"}`` (+ ``"lang"``).

    With ``html=False`` the ``html`` is left empty (the item walker's budget for
    nested e-* html is spent).
    """
    out: dict[str, Any] = {"html": e_html(element, ctx.base_url) if html else "", "value": _text(element, ctx, True)}
    if lang:
        out["lang"] = lang
    return out
