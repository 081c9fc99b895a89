"""extruct's *uniform* result shape: each object with ``@context`` and ``@type``.

extruct's ``uniform=True`` rewrites microdata and microformats items, the
OpenGraph objects and the Dublin Core object so that every syntax reads alike.
These functions give the same shapes, key order included (extruct 0.18):

* items (microdata, mf2): ``type`` becomes ``@type`` (a type IRI is split into
  the ``@context`` and the type name), ``properties`` are lifted to the top,
  nested items alike, and a top-level item gets ``@context``;
* OpenGraph: one flat object per page, the first non-empty value of each
  property (or, ``with_og_array``, a list of the non-empty values of a repeated
  one), ``og:type`` as ``@type``, the namespaces as ``@context``;
* Dublin Core: ``namespaces`` as ``@context``, the ``content`` of a
  ``*.type`` element as ``@type`` (that element left out). As in extruct, an
  element right after such a type element is not looked at for another type.
"""

from __future__ import annotations

import copy
from typing import Any
from urllib.parse import urljoin, urlparse

from stream_mf2.metadata.vocab import dc_local_name

__all__ = ["infer_context", "uniform_dublincore", "uniform_item", "uniform_items", "uniform_opengraph"]


def infer_context(item_type: str, context: str = "http://schema.org") -> tuple[str, str]:
    """``(context, type)`` of a type that may be an IRI: ``https://schema.org/Product`` gives
    ``("https://schema.org", "Product")``; a plain name keeps ``context``."""
    parsed = urlparse(item_type)
    if not parsed.netloc:
        return context, item_type
    base = f"{parsed.scheme}://{parsed.netloc}"
    if parsed.path and parsed.fragment:
        return urljoin(base, parsed.path), parsed.fragment.strip("/")
    if parsed.path:
        return base, parsed.path.strip("/")
    return context, item_type


def _value(value: Any, context: str) -> Any:
    if isinstance(value, dict):
        return uniform_item(value, context, with_context=False)
    if isinstance(value, list):
        return [uniform_item(v, context, with_context=False) if isinstance(v, dict) else v for v in value]
    return value


def uniform_item(item: dict[str, Any], context: str, *, with_context: bool) -> dict[str, Any]:
    """One microdata or mf2 item in the uniform shape (an object without ``type`` as it is)."""
    out = dict(item)
    item_type = out.pop("type", None)
    if not item_type:
        return item
    if isinstance(item_type, list):
        out["@type"] = item_type
        own_context = context
    else:
        own_context, out["@type"] = infer_context(item_type, context)
    if with_context:
        out["@context"] = own_context
    for name, value in out.pop("properties", {}).items():
        out[name] = _value(value, context)
    children = out.pop("children", [])
    if children:
        out["children"] = [_value(child, context) for child in children]
    return out


def uniform_items(items: list[Any], context: str) -> list[Any]:
    """Top-level microdata or mf2 items in the uniform shape, each with its ``@context``."""
    return [uniform_item(item, context, with_context=True) for item in items]


def _blank(value: Any) -> bool:
    return not value or not value.strip()


def uniform_opengraph(objects: list[dict[str, Any]], *, with_og_array: bool = False) -> list[dict[str, Any]]:
    """OpenGraph objects (``namespace``, ``properties``) as flat ``@context``/``@type`` objects."""
    out: list[dict[str, Any]] = []
    for obj in objects:
        flat: dict[str, Any] = {}
        for name, value in obj["properties"]:
            if name not in flat:
                flat[name] = value
                continue
            if _blank(value):
                continue
            current = flat[name]
            if isinstance(current, list):
                if with_og_array:
                    current.append(value)
            elif _blank(current):
                flat[name] = value
            elif with_og_array:
                flat[name] = [current, value]
        og_type = flat.pop("og:type", None)
        if og_type:
            flat["@type"] = og_type
        flat["@context"] = obj["namespace"]
        out.append(flat)
    return out


def uniform_dublincore(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Dublin Core objects with ``@context`` and ``@type`` (extruct's walk, skip included)."""
    out: list[dict[str, Any]] = []
    for original in objects:
        obj = copy.deepcopy(original)
        obj["@context"] = obj.pop("namespaces", None)
        elements: list[dict[str, str]] = obj["elements"]
        index = 0
        while index < len(elements):
            element = elements[index]
            if any(dc_local_name(value) == "type" for value in element.values()):
                obj["@type"] = element.get("content")
                elements.remove(element)
            # (after a removal the next element has moved to this index: it is passed over)
            index += 1
        out.append(obj)
    return out
