"""microformats2 parsing as pure functions over a DOM subtree.

Nothing here knows about streaming or I/O: the input is
:mod:`stream_mf2.html.dom` nodes with ``.parent`` pointers, the output is
plain JSON-ready dicts and lists. The streaming layer and the whole-document
parse call the same functions.

Per document, make one :class:`Mf2Context` (``url``, :class:`Options`, and a
``resolve_id`` callback for the mf1 include pattern). Call
:meth:`Mf2Context.set_base` for the first ``<base href>`` and set
``ctx.html_lang`` / ``ctx.content_language`` when known. Then:

* :func:`keeps` (the keep predicate): does an element start a subtree the mf2
  layer needs? True for mf2 and mf1 roots (:func:`is_root`) and for
  ``a``/``area``/``link`` with ``rel`` and ``href`` (rels need their text).
* :func:`items_from_subtree` ``(element, ctx)``: the top-level items whose
  root is ``element`` or inside it. Outermost roots only: nested roots become
  property values or ``children``. ``element.parent`` may lead to the still
  open ancestors, which the ``lang`` option reads. Pass ``includes=False``
  when :func:`~.include.include_references` just found no include markers in
  ``element`` (saves a walk).
* :func:`collect_rels` ``(element, ctx)``: adds the subtree's rel links to
  ``ctx.rels`` (``ctx.rels.rels`` and ``ctx.rels.rel_urls`` are the
  ``"rels"`` and ``"rel-urls"`` maps). :func:`collect_rels_and_markers` does
  the same and, from the same walk, says whether the subtree may hold include
  markers: when ``False``, :func:`~.include.include_references` of it is
  ``[]`` and need not be asked.
* :func:`items_and_rels` ``(element, ctx)``: ``items_from_subtree(element, ctx,
  includes=False)`` and :func:`collect_rels_and_markers` in one walk (returns the
  items and the marker flag); when the flag is set and the include pattern finds
  references, build the items again with :func:`items_from_subtree` (the rels
  are already in).
* :func:`meta_item` ``(head, ctx)``: the metaformats ``"meta-item"``.
* :func:`fold_nested` ``(element, ctx)``: optional, for bounded memory inside
  a large container (a page-wide h-feed): parse a completed nested root
  early; on ``True`` the caller may drop its children, and the container's
  later parse uses the stored item. Same output as without folding.
* :func:`child_of` ``(element, ctx)``: the root whose ``children`` list will
  hold ``element``'s item (``None`` for property values and non-roots); with
  :func:`element_root_types`, what a streaming caller needs to yield the
  children of a container one by one.
* :func:`parse_dom` ``(document, url, options)``: the whole-document JSON.

Recoveries that change the output are recorded in ``ctx.notes`` (e-* ``html``
left empty past ``Options.max_nested_html_chars``).

Cost: linear in the input plus the output. Text values come from one
:class:`~.text.TextIndex` per top-level item, shared by the items nested in it (no node's text is walked twice; in the
``"normalized"`` mode blank tokens at the ends of values are skipped, not
re-read per nesting level), and the ``html`` of e-* values nested in other e-*
values, the one place where output is quadratic in the nesting depth, is
bounded by ``max_nested_html_chars``. An e-* value's html walk also records
its text and tells the item walker whether any element below carries a class
that matters; when none does (ordinary post content), the walker does not
enter the subtree. Class attribute values are classified once per distinct
string (:func:`~.classes.class_info`); inside classic (mf1) items, once per
distinct class list, parent types and link ``rel`` value.

Decisions where the spec or the suites leave room (details in each module):
datetimes are kept as written unless the value-class pattern assembled them
from parts (then ``date time zone``, 24-hour clock, offset without colon;
a lone time there takes the date of an earlier dt-* value of the same item);
u-* values are always resolved against the base URL, even from text;
``<template>`` elements are skipped whole; items get ``"id"`` when their
element has a non-empty id; ``type`` is sorted and de-duplicated; rel-urls
``rels`` are sorted; e-* ``html`` has every URL attribute made absolute except
fragment-only ones; a nested item's ``value`` for a p-*/u-* property is its
first p-name/u-url (implied ones included, a name from another prefix not);
the implied name is the root's textContent with each ``<img>`` counted by its
``alt`` only (the official suite's expectation; never the image URL that p-*
text puts in place of an image without ``alt``); a class repeated on one
element counts once (``class`` is a set of tokens), for properties as for root
types; ``area`` roots also give ``shape`` and ``coords``.

Modules, one job each: ``classes`` (root/property class names), ``text``
(textContent variants), ``urls`` (safe URL resolution), ``dates`` (date and
time parts), ``vcp`` (value-class pattern), ``properties`` (p-/u-/dt-/e-
values), ``implied`` (implied name/photo/url), ``items`` (the item walker,
with the backcompat hooks), ``rels``, ``metaformats``, ``context``,
``document``. ``backcompat``/``backcompat_data`` hold the mf1 vocabularies and
``include`` the mf1 include pattern.

Backcompat hooks called by ``items``: ``backcompat.root_types`` (outside a
backcompat item) or ``backcompat.nested_root_types`` (inside one) when an
element has no mf2 root class; ``backcompat.property_classes`` for every
element inside a backcompat item (its mf2 property classes are then
ignored); ``backcompat.property_value`` before parsing each such property;
``backcompat.postprocess`` on each finished backcompat item. Backcompat items
get no implied properties. ``include.expand_includes(root, ctx.resolve_id)``
runs on every top-level item root before it is parsed (mf1 include pattern).
"""

from __future__ import annotations

from stream_mf2.html.dom import HTML_NS, Element

from .classes import has_root_class, has_root_get
from .context import Mf2Context
from .document import document_context, parse_dom
from .items import child_of, element_root_types, fold_nested, is_root, items_and_rels, items_from_subtree
from .metaformats import meta_item
from .options import TAILWIND_ROOTS, Options
from .rels import REL_ELEMENTS, collect_rels, collect_rels_and_markers, is_rel_link

__all__ = [
    "TAILWIND_ROOTS",
    "Mf2Context",
    "Options",
    "child_of",
    "collect_rels",
    "collect_rels_and_markers",
    "document_context",
    "element_root_types",
    "fold_nested",
    "is_rel_link",
    "is_root",
    "items_and_rels",
    "items_from_subtree",
    "keeps",
    "meta_item",
    "parse_dom",
]


def keeps(element: Element, ctx: Mf2Context) -> bool:
    """The keep predicate: is ``element`` a microformat root or a rel link?

    :meth:`~stream_mf2.mf2.capture.Capture.keep` inlines it: keep the two in step.
    """
    # asked for every element with a class or a rel: is_root and is_rel_link, inlined.
    # The common answer (a class without a root class) is one dict look-up.
    attrs = element.attrs
    raw = attrs.get("class")
    if raw:
        rooted = has_root_get(raw)
        if rooted is None:
            rooted = has_root_class(raw)
        # ignored roots only take root classes away: without any, is_root is False as well
        if rooted and (not ctx.options.ignored_roots or is_root(element, ctx)):
            return True
    return "rel" in attrs and "href" in attrs and element.name in REL_ELEMENTS and element.namespace == HTML_NS
