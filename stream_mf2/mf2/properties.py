"""Parsing one property element: p-*, u-*, dt-* and e-* values."""

from __future__ import annotations

from typing import Any

from stream_mf2.html.dom import Comment, Element, Node, ParentNode, Text

from . import vcp
from .context import Mf2Context
from .text import element_text, trim
from .urls import resolve

_SRC_ELEMENTS = frozenset({"audio", "video", "source", "iframe"})


def _text(element: Element, ctx: Mf2Context, replace_images: bool) -> str:
    return element_text(element, ctx.base_url, ctx.options.text, replace_images)


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
    found = vcp.text_value(element, is_boundary)
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
    found = vcp.text_value(element, is_boundary)
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
    found = vcp.datetime_value(element, is_boundary, implied_date)
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


def _absolute_copy(element: Element, base: str | None) -> Element:
    """A copy of ``element``'s subtree with relative URL attributes made absolute.

    As the spec proposes for e-* html: every URL attribute is resolved, except
    fragment-only references (``href="#note"``).
    """
    root = Element(element.name, element.namespace, dict(element.attrs))
    stack: list[tuple[ParentNode, ParentNode]] = [(element, root)]
    while stack:
        src, dst = stack.pop()
        for child in src.children:
            copy: Node
            if isinstance(child, Element):
                attrs = dict(child.attrs)
                for attr in _URL_ATTRS.get(child.name, ()):
                    value = attrs.get(attr)
                    # fragment-only references stay relative: they point inside the embedded content
                    if value is not None and not value.strip(" \t\n\f\r").startswith("#"):
                        attrs[attr] = resolve(value, base)
                if "srcset" in attrs and child.name in ("img", "source"):
                    attrs["srcset"] = _resolve_srcset(attrs["srcset"], base)
                el = Element(child.name, child.namespace, attrs)
                el.template_contents = child.template_contents
                stack.append((child, el))
                copy = el
            elif type(child) is Text:
                copy = Text(child.data)
            elif type(child) is Comment:
                copy = Comment(child.data)
            else:
                continue
            copy.parent = dst
            dst.children.append(copy)
    return root


def e_value(element: Element, ctx: Mf2Context, lang: str | None) -> dict[str, Any]:
    """An e-* property's value: ``{"html", "value"}`` (+ ``"lang"``)."""
    # Imported here so that the rest of the mf2 layer does not depend on the
    # serialiser being importable (it is only needed for e-* properties).
    from stream_mf2.html.serialize import serialize_children

    html = serialize_children(_absolute_copy(element, ctx.base_url))
    out: dict[str, Any] = {"html": trim(html), "value": _text(element, ctx, True)}
    if lang:
        out["lang"] = lang
    return out
