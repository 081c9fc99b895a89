"""Metaformats: a ``"meta-item"`` from ``<head>`` metadata.

Spec: the metaformats living specification, https://microformats.org/wiki/metaformats
(an extension of microformats2-parsing). What is checked against its text:

* "parse a document for microformats": the result gets a top-level
  ``"meta-item"`` hash next to ``"items"``, ``"rels"`` and ``"rel-urls"``, built
  from the ``head`` element ("parse the head element for backcompat
  metaformats"); it is not one of ``"items"``.
* "parse an element for class microformats": only when no root class name was
  found on the ``head`` element and none on the ``html`` element.
* the type: "if there is a ``meta[property=og:type]``" -- only the ``property``
  attribute names ``og:type`` (a ``<meta name="og:type">`` does not).
* ``og:image`` gives ``photo``. The reference JavaScript parser
  (microformats-parser, PR 229) returns ``featured`` instead and lists that as
  a change from the spec; mf2py, written from the spec, gives ``photo``. This
  follows the spec.

The spec's table of meta names ("meta backward compatible parsing") was not
available to check row by row, so the other rows follow the reference
JavaScript parser, first source wins for each property:

* type: ``og:type`` ``profile`` -> ``h-card``, any ``music*``/``video*`` ->
  ``h-cite``, otherwise ``h-entry``;
* ``name``: ``og:title``, ``twitter:title``, ``<title>``;
* ``summary``: ``og:description``, ``twitter:description``, ``description``;
* ``photo``: ``og:image``, ``twitter:image`` (``...:alt`` gives
  ``{"value", "alt"}``, as an ``img`` with ``alt`` does in mf2);
  ``video``/``audio``: ``og:``/``twitter:`` likewise;
* ``published``: ``article:published_time``; ``updated``:
  ``article:modified_time``; ``author``: ``article:author``, ``author``;
* ``url``: ``og:url``, ``<link rel=canonical>``; ``publication``:
  ``og:site_name``; for an ``h-card``, ``given-name``/``family-name`` from
  ``profile:first_name``/``profile:last_name``.

``:url`` and ``:secure_url`` media keys count as the media key itself, and
repeated values are kept once (both from the JavaScript parser). URL-valued
properties (``photo``, ``video``, ``audio``, ``url``: the ``u-*`` ones) are
resolved against the base URL, as every ``u-*`` value is in mf2. No
properties found means no meta-item.
"""

from __future__ import annotations

import re
from typing import Any, Final

from stream_mf2.html.dom import Element, Node, text_content

from .context import Mf2Context
from .items import is_root, own_lang
from .text import trim
from .urls import resolve

_TITLE: Final = "<title>"
_CANONICAL: Final = "<canonical>"
# og:type counts only from the property attribute ("if there is a meta[property=og:type]").
_OG_TYPE: Final = "<og:type>"
_MEDIA: Final = frozenset({"image", "video", "audio"})
_ASCII_WS: Final = re.compile(r"[ \t\n\f\r]+")

# (property, source keys in priority order, is a URL)
_MAPPING: Final[tuple[tuple[str, tuple[str, ...], bool], ...]] = (
    ("name", ("og:title", "twitter:title", _TITLE), False),
    ("summary", ("og:description", "twitter:description", "description"), False),
    # spec: og:image gives photo (the JavaScript parser's "featured" is its own change)
    ("photo", ("og:image", "twitter:image"), True),
    ("video", ("og:video", "twitter:video"), True),
    ("audio", ("og:audio", "twitter:audio"), True),
    ("published", ("article:published_time",), False),
    ("updated", ("article:modified_time",), False),
    ("author", ("article:author", "author"), False),
    ("url", ("og:url", _CANONICAL), True),
    ("publication", ("og:site_name",), False),
)
_CARD_MAPPING: Final[tuple[tuple[str, tuple[str, ...], bool], ...]] = (
    ("given-name", ("profile:first_name",), False),
    ("family-name", ("profile:last_name",), False),
)


class _MetaValues:
    """Meta values by key, in document order, without repeats."""

    def __init__(self) -> None:
        self.values: dict[str, list[Any]] = {}
        # the plain values of each key (an ``alt`` keeps its value): one look-up per repeat
        # test, not a scan of the key's values (many metas of one key took quadratic time)
        self._seen: dict[str, set[str]] = {}

    def add(self, key: str, value: str) -> None:
        parts = key.split(":")
        if len(parts) >= 3 and parts[0] in ("og", "twitter") and parts[1] in _MEDIA:
            base = f"{parts[0]}:{parts[1]}"
            if parts[2] == "alt":
                existing = self.values.get(base)
                if existing and isinstance(existing[-1], str):
                    existing[-1] = {"value": existing[-1], "alt": value}
                return
            if parts[2] in ("url", "secure_url"):
                key = base
        existing = self.values.setdefault(key, [])
        seen = self._seen.setdefault(key, set())
        if value not in seen:
            seen.add(value)
            existing.append(value)

    def first(self, keys: tuple[str, ...]) -> list[Any] | None:
        for key in keys:
            found = self.values.get(key)
            if found:
                return found
        return None


def _collect(head: Element) -> _MetaValues:
    found = _MetaValues()
    stack: list[Node] = list(reversed(head.children))
    while stack:
        node = stack.pop()
        if not isinstance(node, Element):
            continue
        attrs = node.attrs
        if node.name == "meta":
            content = attrs.get("content")
            if content:
                prop = attrs.get("property")
                if prop:
                    key = prop.strip().lower()
                    found.add(key, content)
                    if key == "og:type":
                        found.add(_OG_TYPE, content)
                name = attrs.get("name")
                if name and name != prop:
                    found.add(name.strip().lower(), content)
        elif node.name == "title":
            title = trim(text_content(node))
            if title:
                found.add(_TITLE, title)
        elif node.name == "link" and "href" in attrs:
            rels = _ASCII_WS.split(attrs.get("rel", "").lower())
            if "canonical" in rels:
                found.add(_CANONICAL, attrs["href"])
        stack.extend(reversed(node.children))
    return found


def _apply_allowance(head: Element, props: dict[str, list[Any]], ctx: Mf2Context) -> None:
    """Empty every value when they pass the output allowance of ``head``'s source span
    (``Options.max_output_ratio``): URL values resolved against a long base can repeat it."""
    span = head.source_length
    if span < 0:
        return
    size = 0
    for name, values in props.items():
        size += len(name) + 6
        for value in values:
            if isinstance(value, dict):
                size += sum(len(k) + len(v) + 6 for k, v in value.items())
            else:
                size += len(value) + 4
    options = ctx.options
    if size <= options.output_floor_chars + options.max_output_ratio * span:
        return
    for values in props.values():
        values[:] = [{k: "" for k in v} if isinstance(v, dict) else "" for v in values]
    ctx.notes.append(
        f"meta-item values emptied past their output allowance (output_floor_chars={options.output_floor_chars}"
        f" + max_output_ratio={options.max_output_ratio} per source character of <head>)"
    )


def meta_item(head: Element, ctx: Mf2Context) -> dict[str, Any] | None:
    """The metaformats item of ``head``, or ``None`` (root class on html/head, or nothing found)."""
    html = head.parent
    # spec, "parse an element for class microformats": only for a head without a root class
    # name, in an html element without one.
    if is_root(head, ctx) or (isinstance(html, Element) and is_root(html, ctx)):
        return None
    values = _collect(head)
    item_type = "h-entry"
    og_type = values.first((_OG_TYPE,))
    if og_type and isinstance(og_type[0], str):
        kind = og_type[0].strip().lower()
        if kind == "profile":
            item_type = "h-card"
        elif "music" in kind or "video" in kind:
            item_type = "h-cite"
    props: dict[str, list[Any]] = {}
    mapping = _MAPPING + (_CARD_MAPPING if item_type == "h-card" else ())
    for prop, keys, is_url in mapping:
        found = values.first(keys)
        if not found:
            continue
        if is_url:
            found = [
                {**v, "value": resolve(v["value"], ctx.base_url)} if isinstance(v, dict) else resolve(v, ctx.base_url)
                for v in found
            ]
        props[prop] = list(found)
    if not props:
        return None
    _apply_allowance(head, props, ctx)
    item: dict[str, Any] = {"type": [item_type], "properties": props}
    if ctx.options.lang:
        lang = own_lang(head, ctx)
        if lang:
            item["lang"] = lang
    return item
