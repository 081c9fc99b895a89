"""Parsing one property element: p-*, u-*, dt-* and e-* values."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from stream_mf2.html.dom import HTML_NS, Comment, Element, Node, ParentNode, Text
from stream_mf2.html.serialize import RAW_TEXT_ELEMENTS, VOID_ELEMENTS, escape_attribute, escape_text

from . import vcp
from .classes import CLASS_INFO, class_info
from .context import Mf2Context
from .include import INCLUDE_CLASS
from .rels import add_rel_link
from .text import SKIP, element_text, image_text
from .urls import resolve

_SRC_ELEMENTS: Final = frozenset({"audio", "video", "source", "iframe"})
# Element names that e-* html and its text treat specially in some namespace: void,
# raw text and template (serialisation), skipped and replaced elements (text).
_SPECIAL_NAMES: Final = VOID_ELEMENTS | RAW_TEXT_ELEMENTS | SKIP | {"img", "template"}


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


def _may_hold_values(element: Element) -> bool:
    """Can ``element`` hold value-class elements, i.e. does it hold more than one text node?"""
    children = element.children
    return bool(children) and (len(children) > 1 or type(children[0]) is not Text)


# Elements whose p-* value may come from an attribute.
P_FROM_ATTRIBUTE: Final = frozenset({"abbr", "link", "data", "input", "img", "area", "meta"})


def p_value(element: Element, ctx: Mf2Context, is_boundary: vcp.Boundary) -> str:
    """A p-* property's value."""
    # the common case (a text-only element) is tested inline: this runs for every p-* property
    children = element.children
    if children and (len(children) > 1 or type(children[0]) is not Text):
        found = vcp.text_value(element, is_boundary, _inner_text(ctx))
        if found is not None:
            return found
    name = element.name
    if name in P_FROM_ATTRIBUTE:
        attrs = element.attrs
        if name in ("abbr", "link") and "title" in attrs:
            return attrs["title"]
        if name in ("data", "input") and "value" in attrs:
            return attrs["value"]
        if name in ("img", "area") and "alt" in attrs:
            return attrs["alt"]
        # The metaformats extension inserts this step before the textContent
        # fallback of p-* parsing; without it a <meta> has no text at all.
        if name == "meta" and "content" in attrs and ctx.options.metaformats:
            return attrs["content"]
    texts = ctx.texts
    if texts is not None:
        return texts.text(element, True)
    return element_text(element, ctx.base_url, ctx.options.text, True)


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
    found = vcp.text_value(element, is_boundary, _inner_text(ctx)) if _may_hold_values(element) else None
    if found is None:
        if name == "abbr" and "title" in attrs:
            found = attrs["title"]
        elif name in ("data", "input") and "value" in attrs:
            found = attrs["value"]
        elif name == "meta" and "content" in attrs and ctx.options.metaformats:
            # the metaformats extension's step before the textContent fallback of u-* parsing
            found = attrs["content"]
        else:
            found = _text(element, ctx, False)
    return resolve(found, base)


def dt_value(element: Element, ctx: Mf2Context, is_boundary: vcp.Boundary, implied_date: str | None) -> str:
    """A dt-* property's value: the value-class pattern first, then the element's own sources."""
    if _may_hold_values(element):
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
    if name == "meta" and "content" in attrs and ctx.options.metaformats:
        # the metaformats extension's step before the textContent fallback of dt-* parsing
        return attrs["content"]
    return _text(element, ctx, False)


# Attributes holding one URL, per element, that e-* html gets absolute.
_URL_ATTRS: Final[dict[str, tuple[str, ...]]] = {
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


# Element name -> "<name>" and "</name>" as e-* html writes them: a page has few distinct
# names and writes each many times. Emptied when full, so they stay small.
_BARE_START_TAGS: Final[dict[str, str]] = {}
_END_TAGS: Final[dict[str, str]] = {}
_TAGS_MAX: Final = 1024


def _remember(cache: dict[str, str], name: str, tag: str) -> str:
    if len(cache) >= _TAGS_MAX:
        cache.clear()
    cache[name] = tag
    return tag


def _bare_start_tag(name: str) -> str:
    return _remember(_BARE_START_TAGS, name, "<" + name + ">")


def _end_tag(name: str) -> str:
    return _remember(_END_TAGS, name, "</" + name + ">")


def _start_tag(name: str, attrs: dict[str, str], base: str | None, rewrite: bool, fragments: bool) -> str:
    """``<name attr="value" ...>`` as the serialiser writes it; with ``rewrite``, URL
    attributes made absolute.

    As the spec proposes for e-* html: every URL attribute is resolved, except
    fragment-only references (``href="#note"``), which point inside the embedded content
    (``fragments``: those too, as mf2py does; the ``mf2py_compat`` option).
    """
    url_attrs = _URL_ATTRS.get(name, ()) if rewrite else ()
    srcset = rewrite and "srcset" in attrs and name in ("img", "source")
    parts = ["<" + name]
    for key, value in attrs.items():
        if key in url_attrs:
            if fragments or not value.strip(" \t\n\f\r").startswith("#"):
                value = resolve(value, base)
        elif srcset and key == "srcset":
            value = _resolve_srcset(value, base)
        # most values need no escaping: test before calling
        if "&" in value or '"' in value or "<" in value or ">" in value or "\u00a0" in value:
            value = escape_attribute(value)
        parts.append(f' {key}="{value}"')
    parts.append(">")
    return "".join(parts)


def e_html(
    element: Element,
    base: str | None,
    text: tuple[list[str | int], dict[ParentNode, tuple[int, int]]] | None = None,
    fragments: bool = False,
) -> str:
    """``element.innerHTML`` with relative URL attributes made absolute, trimmed.

    See :func:`_e_html`, which can also record text pieces (``text``).
    """
    return _e_html(element, base, text, False, None, fragments)[0]


def _e_html(
    element: Element,
    base: str | None,
    text: tuple[list[str | int], dict[ParentNode, tuple[int, int]]] | None,
    scan: bool,
    links: Mf2Context | None = None,
    fragments: bool = False,
) -> tuple[str, bool]:
    """``element.innerHTML`` with relative URL attributes made absolute, trimmed;
    with ``scan``, also whether an element below ``element`` may matter to the
    item walker (``False`` only if none has a class that is an mf2 root or
    property or a classic root; the walk then need not enter the subtree).

    The HTML fragment serialisation algorithm (what
    :func:`stream_mf2.html.serialize.serialize_children` does with its default
    options, sharing its escaping and element tables), written straight from
    the tree: no copy of the subtree, no token objects. A template's contents
    stand for its children and are left as written (they are inert); void
    elements have no content.

    ``text``: a :meth:`~.text.TextIndex.recorder` for ``element``. The walk then
    also records the text pieces and spans of ``element`` and the elements
    below it, exactly as :func:`~.text._raw_pieces` would with images replaced.

    ``links`` (with ``scan``): the item walker also collects rels (see
    :func:`~.items.items_and_rels`). The rel links below ``element`` are then added to
    ``links.rels`` here, in tree order, while the answer is still "does not
    matter" (the walker will not enter); an include marker below makes it
    "matters" (the walker enters and notes it). Once the answer is "matters"
    the walker enters and adds the rest; adding a link again changes nothing.

    ``fragments``: fragment-only URLs are made absolute too (``mf2py_compat``).
    """
    if element.namespace == HTML_NS and element.name in VOID_ELEMENTS:
        return "", bool(element.children)
    out: list[str] = []
    raw = element.namespace == HTML_NS and element.name in RAW_TEXT_ELEMENTS
    # ``scan`` stays true until an element that may matter is found (then the answer is known)
    matters = False
    info_cache = CLASS_INFO
    start_tags = _BARE_START_TAGS
    end_tags = _END_TAGS
    pieces: list[str | int]
    if text is not None:
        pieces, spans = text
    else:
        pieces, spans = [], {}
    # Per open element: its child nodes, its end tag, whether its text is raw,
    # whether URL attributes below it are rewritten, and for the text pieces:
    # the element whose span ends with it (None: not recording below it) and
    # where its pieces start.
    stack: list[tuple[Iterator[Node], str, bool, bool, Element | None, int]] = [
        (iter(element.children), "", raw, True, element if text is not None else None, len(pieces))
    ]
    while stack:
        children, end_tag, raw, rewrite, owner, _start = stack[-1]
        record = owner is not None
        for node in children:
            if type(node) is Text:
                data = node.data
                if record and data:
                    pieces.append(data)
                # escape_text, tested inline: most text runs hold nothing to escape
                if not raw and ("&" in data or "<" in data or ">" in data or "\u00a0" in data):
                    data = escape_text(data)
                out.append(data)
            elif type(node) is Element:
                name = node.name
                attrs = node.attrs
                if not attrs:
                    out.append(start_tags.get(name) or _bare_start_tag(name))
                else:
                    if scan:
                        raw_class = attrs.get("class")
                        if raw_class:
                            _classes, mf2, classic, props = info_cache.get(raw_class) or class_info(raw_class)
                            if mf2 or classic or props:
                                matters = True
                                scan = False
                        if links is not None:
                            if "itemref" in attrs or "headers" in attrs or (raw_class and INCLUDE_CLASS in raw_class):
                                matters = True
                                scan = False
                            elif "rel" in attrs and rewrite:  # not inside template contents
                                add_rel_link(node, links)
                    out.append(_start_tag(name, attrs, base, rewrite, fragments))
                if name not in _SPECIAL_NAMES:
                    # the common case (p, a, li, span, ...): no void, raw text or template
                    # rules on the html side, no skipped or replaced element on the text side
                    kids = node.children
                    if not kids:
                        out.append(end_tags.get(name) or _end_tag(name))
                        continue
                    if len(kids) == 1 and type(kids[0]) is Text:
                        # a text-only element, written here rather than through the stack; its
                        # text needs no span of its own (copying an earlier span of it would add
                        # the same one piece)
                        data = kids[0].data
                        if record and data:
                            pieces.append(data)
                        if "&" in data or "<" in data or ">" in data or "\u00a0" in data:
                            data = escape_text(data)
                        out.append(data)
                        out.append(end_tags.get(name) or _end_tag(name))
                        continue
                    inner_owner: Element | None = None
                    if record:
                        span = spans.get(node)
                        if span is not None:  # indexed by an earlier query: copy its pieces
                            start = len(pieces)
                            pieces.extend(pieces[span[0] : span[1]])
                            spans[node] = (start, len(pieces))
                        else:
                            inner_owner = node
                    end = end_tags.get(name) or _end_tag(name)
                    stack.append((iter(kids), end, False, rewrite, inner_owner, len(pieces)))
                    break
                html = node.namespace == HTML_NS
                # the text side, as _raw_pieces walks it
                inner_owner = None
                if record:
                    if name in SKIP:
                        pass
                    elif name == "img":
                        data = image_text(node, base)
                        if data:
                            pieces.append(data)
                    else:
                        span = spans.get(node)
                        if span is not None:  # indexed by an earlier query: copy its pieces
                            start = len(pieces)
                            pieces.extend(pieces[span[0] : span[1]])
                            spans[node] = (start, len(pieces))
                        elif node.children:
                            inner_owner = node
                if html and name in VOID_ELEMENTS:
                    if node.children:  # not from the HTML parser; the walk would enter them
                        matters = True
                        scan = False
                    continue
                contents = node.template_contents
                if contents is not None and html:
                    stack.append((iter(contents.children), end_tags.get(name) or _end_tag(name), False, False, None, 0))
                    break
                kids = node.children
                if not kids:
                    out.append(end_tags.get(name) or _end_tag(name))
                    continue
                if len(kids) == 1 and type(kids[0]) is Text:
                    # a text-only element (most of them), written here rather than through the stack;
                    # its text needs no span of its own
                    data = kids[0].data
                    if inner_owner is not None and data:
                        pieces.append(data)
                    if not (html and name in RAW_TEXT_ELEMENTS) and (
                        "&" in data or "<" in data or ">" in data or "\u00a0" in data
                    ):
                        data = escape_text(data)
                    out.append(data)
                    out.append(end_tags.get(name) or _end_tag(name))
                    continue
                stack.append(
                    (
                        iter(kids),
                        end_tags.get(name) or _end_tag(name),
                        html and name in RAW_TEXT_ELEMENTS,
                        rewrite,
                        inner_owner,
                        len(pieces),
                    )
                )
                break
            elif type(node) is Comment:
                out.append("<!--" + node.data + "-->")
        else:
            stack.pop()
            out.append(end_tag)
            if owner is not None:
                spans[owner] = (_start, len(pieces))
    return "".join(out).strip(" \t\n\f\r"), matters


def e_value(element: Element, ctx: Mf2Context, lang: str | None, *, html: bool = True) -> dict[str, Any]:
    """An e-* property's value: ``{"html", "value"}`` (+ ``"lang"``).

    With ``html=False`` the ``html`` is left empty (the item walker's budget for
    nested e-* html is spent).
    """
    return e_value_scan(element, ctx, lang, html=html)[0]


def e_value_scan(
    element: Element, ctx: Mf2Context, lang: str | None, *, html: bool = True, links: bool = False
) -> tuple[dict[str, Any], bool]:
    """:func:`e_value`, and whether an element below ``element`` may matter to the
    item walker: ``False`` only when the html walk saw that none has a class that
    is an mf2 root or property or a classic root, so the walker can skip the subtree.
    ``links``: the walker collects rels; see :func:`_e_html`.
    """
    texts = ctx.texts
    matters = True
    if html:
        # the html walk also records the text pieces the value needs (one walk for both)
        html_value, matters = _e_html(
            element,
            ctx.base_url,
            texts.recorder(element) if texts is not None else None,
            True,
            ctx if links else None,
            ctx.options.mf2py_compat,
        )
    else:
        html_value = ""
    out: dict[str, Any] = {"html": html_value, "value": _text(element, ctx, True)}
    if lang:
        out["lang"] = lang
    return out, matters
