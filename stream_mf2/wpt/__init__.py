"""Website Parse Template (WPT): template blocks out of HTML as it streams in.

A WPT file (W3C Member Submission, 2009) describes, per host, templates of page
structure: blocks that point at elements by id (``ow:tagid``), by absolute
XPath (``ow:xpath``) or by a pattern with named captures (``ow:pattern``).

* :func:`load` — a WPT file (path, XML text or bytes) to the typed model
  (:class:`Wpt`, :class:`Template`, :class:`Block`, ...); every problem is a
  :class:`TemplateError` with line and column. Needs the ``wpt`` extra
  (``defusedxml``, ``regex``).
* ``Parser(url, wpt=...)`` / ``parse(..., wpt=...)`` — matches in the same
  pass as mf2: :class:`WptMatchEvent` per block match as soon as its element
  is final, :class:`WptPageEnd` at the end; :func:`collect_pages` gives the
  page objects ``{"kind": "wpt", ...}``.
* :class:`WptConsumer` — the consumer of the bounded tree that matches a
  template's blocks as elements become final (the core wires it in).
* :func:`records` — a page object as records keyed by concept (one for the page, one
  per repeatable match); :func:`merge_by_id` joins the objects with the same ``id`` on one site;
  :func:`page_jsonld` renders the records as JSON-LD (the ontology's concepts as types and
  properties, RDF block descriptions honoured; :mod:`stream_mf2.wpt.jsonld`).
* ``wpt=`` takes one WPT file or template, or a sequence of them (:data:`WptSpec`): each
  applies to a page as if given alone.
* :func:`element_paths` — full XPaths of the elements with an id or a text,
  to help write templates.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

# (eager: the submodule ``records`` would otherwise shadow the function of that name once
# imported, since importing a submodule sets the package's attribute; it imports nothing)
from stream_mf2.wpt.records import merge_by_id, records

if TYPE_CHECKING:
    from stream_mf2.wpt._load import load
    from stream_mf2.wpt._match import WptConsumer
    from stream_mf2.wpt.events import WptMatchEvent, WptPage, WptPageEnd, collect_pages
    from stream_mf2.wpt.find import element_paths
    from stream_mf2.wpt.jsonld import page_jsonld
    from stream_mf2.wpt.limits import DEFAULT_MAX_PATTERN_CHARS
    from stream_mf2.wpt.model import (
        OW_NS,
        Block,
        Concept,
        Ontology,
        Pattern,
        RdfNode,
        RdfProperty,
        Step,
        Template,
        TemplateError,
        UrlsSection,
        Wpt,
        WptSpec,
        XPath,
    )


# Imported when first asked for: the core reads the matcher's defaults (``wpt.limits``) for
# every parse, which imports this package; that loads neither the model (dataclasses,
# threading), the events, the template loader (XML, XPath and pattern compilers) nor the
# consumer and the matching machinery behind it.
_LAZY = {
    "load": "stream_mf2.wpt._load",
    "WptConsumer": "stream_mf2.wpt._match",
    "DEFAULT_MAX_PATTERN_CHARS": "stream_mf2.wpt.limits",
    "element_paths": "stream_mf2.wpt.find",
    "page_jsonld": "stream_mf2.wpt.jsonld",
    "WptMatchEvent": "stream_mf2.wpt.events",
    "WptPage": "stream_mf2.wpt.events",
    "WptPageEnd": "stream_mf2.wpt.events",
    "collect_pages": "stream_mf2.wpt.events",
    **dict.fromkeys(
        (
            "OW_NS",
            "Block",
            "Concept",
            "Ontology",
            "Pattern",
            "RdfNode",
            "RdfProperty",
            "Step",
            "Template",
            "TemplateError",
            "UrlsSection",
            "Wpt",
            "WptSpec",
            "XPath",
        ),
        "stream_mf2.wpt.model",
    ),
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'stream_mf2.wpt' has no attribute {name!r}")
    return getattr(import_module(module), name)


__all__ = [
    "DEFAULT_MAX_PATTERN_CHARS",
    "OW_NS",
    "Block",
    "Concept",
    "Ontology",
    "Pattern",
    "RdfNode",
    "RdfProperty",
    "Step",
    "Template",
    "TemplateError",
    "UrlsSection",
    "Wpt",
    "WptConsumer",
    "WptMatchEvent",
    "WptPage",
    "WptPageEnd",
    "WptSpec",
    "XPath",
    "collect_pages",
    "element_paths",
    "load",
    "merge_by_id",
    "page_jsonld",
    "records",
]
