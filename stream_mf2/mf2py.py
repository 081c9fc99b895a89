"""A drop-in for mf2py's API: ``import stream_mf2.mf2py as mf2py``.

The same calls as mf2py 2.0 — :func:`parse` and :class:`Parser` with
``to_dict(filter_by_type=...)`` and ``to_json(pretty_print=..., filter_by_type=...)``
— and the same output shape: mf2py's whitespace-normalising text mode,
``lang`` on items and e-* values, ``id`` on roots with an id, the metaformats
item appended to ``items``, a top-level ``alternates`` list (mf2py 2.0.2 still
emits it) and a ``debug`` block naming this parser. With ``url`` and no
``doc``, the URL is fetched (:func:`stream_mf2.fetch`; its final URL after
redirects is the base URL), as mf2py does.

``doc`` may be HTML text or bytes, a file object, a BeautifulSoup document or
tag (serialised and parsed again: we do not walk a foreign tree), or any other
source of the input rule (:mod:`stream_mf2.io.sources`).

Accepted and ignored: ``html_parser`` (there is one HTML parser here, the
WHATWG one; ``debug["markup parser"]`` says so) and ``expose_dom`` (mf2py then
puts BeautifulSoup elements into the output; there is no DOM to expose).
``img_with_alt`` (mf2py 1.x) is honoured: ``False`` turns ``{"value", "alt"}``
image objects into plain URLs.

Where the microformats2 parsing spec is silent, the drop-in makes mf2py's choice
(the core's ``mf2py_compat`` option): classic (mf1) roots get ``id`` and
``{"value", "alt"}`` image objects as h-* roots do, and fragment-only links in
e-* ``html`` (``href="#fn1"``) are joined to the base URL. Where mf2py
contradicts the spec, this module follows the spec. Every known difference
(docs/guides/from-mf2py.md, with the counts on real-world-shaped pages):

* datetimes are kept as the page writes them (``+00:00``, fractional seconds;
  mf2py writes ``+0000`` and drops the fraction);
* e-* ``html`` is the HTML fragment serialisation (source attribute order,
  ``<br>``), and its ``srcset`` candidates are absolute (mf2py leaves them);
* text is normalised by the textcontent-parsing steps throughout (mf2py keeps a
  space after some line feeds);
* ``rel=""`` (no rel values) links are not listed in ``rel-urls`` (mf2py lists
  them with ``"rels": []``);
* HTML is parsed with the WHATWG algorithm (what browsers build), so markup
  that html5lib or lxml repair differently may give other items;
* the metaformats item has the properties of the metaformats spec's table only
  (as mf2py), but its values come from the core: a ``video.*`` ``og:type`` gives
  ``h-cite`` as the spec says (mf2py: ``h-entry``);
* ``alternates`` lists each URL once, with the ``rel-urls`` text and attributes
  (the spec and mf2py list every element: a gap of this module);
* a fetched URL whose ``Content-Type`` is not HTML, or binary data, raises
  :class:`~stream_mf2.errors.SourceError` (mf2py parses it into no items).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, TypedDict, Unpack

from stream_mf2.io.api import parse as _parse
from stream_mf2.io.fetch import fetch

__all__ = ["Parser", "parse"]

#: The mf2py release whose API and output shape this module follows.
MF2PY_API = "2.0.2"

#: The metaformats item's properties that the metaformats spec's table gives (as mf2py does).
#: The core also gives ``url`` (``og:url``, ``rel=canonical``), ``publication`` and a card's
#: name parts, after the reference JavaScript parser; they are not in the spec's table.
SPEC_META_PROPERTIES = frozenset({"name", "summary", "photo", "video", "audio", "published", "updated", "author"})


def _version() -> str:
    from stream_mf2._version import __version__

    return __version__


def _no_alt(value: Any) -> Any:
    """``img_with_alt=False``: image objects become their URL, everywhere in an item."""
    if isinstance(value, list):
        return [_no_alt(v) for v in value]
    if isinstance(value, dict):
        if set(value) == {"value", "alt"}:
            return value["value"]
        return {k: _no_alt(v) for k, v in value.items()}
    return value


def _alternates(rel_urls: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """mf2py's top-level ``alternates``: one entry per ``rel=alternate`` URL, from ``rel-urls``."""
    out: list[dict[str, Any]] = []
    for url, info in rel_urls.items():
        rels = info.get("rels", [])
        if "alternate" not in rels:
            continue
        entry: dict[str, Any] = {"url": url}
        other = " ".join(r for r in rels if r != "alternate")
        if other:
            entry["rel"] = other
        entry["text"] = info.get("text", "")
        for attr in ("media", "hreflang", "type", "title"):
            if attr in info:
                entry[attr] = info[attr]
        out.append(entry)
    return out


def _is_soup(doc: object) -> bool:
    """A BeautifulSoup document or tag (duck-typed: bs4 is not imported)."""
    return type(doc).__module__.startswith("bs4") and callable(getattr(doc, "decode", None))


class ParserOptions(TypedDict, total=False):
    """The keyword options of :func:`parse` and :class:`Parser` after ``doc``, ``url`` and ``html_parser``."""

    expose_dom: bool  #: accepted and ignored (module docstring)
    metaformats: bool  #: append the metaformats item to ``items``
    filter_roots: bool | Iterable[str]  #: ignore utility-CSS ``h-*`` roots (or these names)
    img_with_alt: bool  #: ``False``: image objects become their URL


class Parser:
    """mf2py's ``Parser``: parses on construction; read the result with :meth:`to_dict` / :meth:`to_json`."""

    ua_desc = "stream_mf2 - streaming microformats2 parser for python (mf2py-compatible API)"
    ua_url = "https://pypi.org/project/stream-mf2/"

    def __init__(
        self,
        doc: Any = None,
        url: str | None = None,
        html_parser: str | None = None,
        expose_dom: bool = False,
        metaformats: bool = False,
        filter_roots: bool | Iterable[str] = False,
        img_with_alt: bool = True,
    ) -> None:
        del html_parser, expose_dom  # accepted for compatibility; see the module docstring
        self.useragent = f"{self.ua_desc} - version {_version()} - {self.ua_url}"
        self.__url__ = url
        roots: bool | frozenset[str]
        if isinstance(filter_roots, bool):
            roots = filter_roots
        else:
            roots = frozenset(filter_roots)
        self.__parsed__: dict[str, Any] = {
            "items": [],
            "rels": {},
            "rel-urls": {},
            "debug": {
                "description": self.ua_desc,
                "source": self.ua_url,
                "version": _version(),
                "mf2py API": MF2PY_API,
                "markup parser": "stream_mf2 (WHATWG HTML)",
            },
        }
        if doc is None and url is not None:
            doc = fetch(url, user_agent=self.useragent)
            self.__url__ = doc.url
        if doc is None:
            return
        if _is_soup(doc):
            doc = str(doc)
        result = _parse(
            doc,
            self.__url__,
            text="normalized",
            lang=True,
            metaformats=metaformats,
            filter_roots=roots,
            mf2py_compat=True,
        )
        items: list[Any] = result["items"]
        meta = result.get("meta-item")
        if meta is not None:
            # mf2py appends the metaformats item to the items, marked with its source
            meta = {k: v for k, v in meta.items() if k != "lang"}
            properties = {k: v for k, v in meta.get("properties", {}).items() if k in SPEC_META_PROPERTIES}
            if properties:
                meta["properties"] = properties
                meta["source"] = "metaformats"
                items.append(meta)
        if not img_with_alt:
            items = _no_alt(items)
        self.__parsed__["items"] = items
        self.__parsed__["rels"] = result["rels"]
        self.__parsed__["rel-urls"] = result["rel-urls"]
        alternates = _alternates(result["rel-urls"])
        if alternates:
            self.__parsed__["alternates"] = alternates

    def to_dict(self, filter_by_type: str | None = None) -> Any:
        """The parsed document as a dict; with ``filter_by_type``, the list of top-level items of that type."""
        if filter_by_type is None:
            return self.__parsed__
        return [x for x in self.__parsed__["items"] if filter_by_type in x["type"]]

    def to_json(self, pretty_print: bool = False, filter_by_type: str | None = None) -> str:
        """:meth:`to_dict` as JSON text, indented as mf2py indents it with ``pretty_print``."""
        if pretty_print:
            return json.dumps(self.to_dict(filter_by_type), indent=4, separators=(", ", ": "))
        return json.dumps(self.to_dict(filter_by_type))


def parse(
    doc: Any = None, url: str | None = None, html_parser: str | None = None, **options: Unpack[ParserOptions]
) -> dict[str, Any]:
    """mf2py's ``parse``: the document as a dict (``items``, ``rels``, ``rel-urls``, ``debug``, ``alternates``).

    ``doc``: HTML text, bytes, a file object or a BeautifulSoup object; with
    only ``url``, the URL is fetched. ``metaformats``, ``filter_roots`` and
    ``img_with_alt`` as in mf2py; ``html_parser`` and ``expose_dom`` are
    accepted and ignored (module docstring). The keyword options are
    :class:`Parser`'s (:class:`ParserOptions`).
    """
    result: dict[str, Any] = Parser(doc, url, html_parser, **options).to_dict()
    return result
