"""Rel microformats: the document's ``rels`` and ``rel-urls`` maps."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Final

from stream_mf2.html.dom import HTML_NS, Element, Node, ParentNode, Text, text_content

from .include import INCLUDE_CLASS, is_marker_like
from .options import DEFAULT_MAX_OUTPUT_RATIO, DEFAULT_OUTPUT_FLOOR_CHARS
from .urls import resolve

if TYPE_CHECKING:
    from .context import Mf2Context

REL_ELEMENTS: Final = frozenset({"a", "area", "link"})
_ASCII_WS: Final = re.compile(r"[ \t\n\f\r]+")
# Attributes copied into a rel-urls entry, the first time each is seen for a URL.
_COPIED: Final = ("hreflang", "media", "title", "type")
# The most the copied attributes' names add to a link's size (see RelCollector.add).
_COPIED_KEYS_SIZE: Final = sum(len(attr) + 6 for attr in _COPIED)


def is_rel_link(element: Element) -> bool:
    """An ``a``, ``area`` or ``link`` element with both ``rel`` and ``href``."""
    return (
        element.name in REL_ELEMENTS
        and element.namespace == HTML_NS
        and "rel" in element.attrs
        and "href" in element.attrs
    )


# ``rel`` value -> its keywords. Pages repeat the same few values: a plain dict read
# before any call, emptied when full; long values are not kept.
_KEYWORDS: Final[dict[str, tuple[str, ...]]] = {}
_KEYWORDS_MAX: Final = 1024


def _keywords(rel: str) -> tuple[str, ...]:
    """A ``rel`` value's keywords (remembered in :data:`_KEYWORDS` unless long)."""
    keywords = tuple(k for k in _ASCII_WS.split(rel) if k)
    if len(rel) <= 256:
        if len(_KEYWORDS) >= _KEYWORDS_MAX:
            _KEYWORDS.clear()
        _KEYWORDS[rel] = keywords
    return keywords


class RelCollector:
    """Accumulates rel links in document order.

    ``rels`` maps each rel keyword to the URLs that carry it (each once, in
    first-seen order); ``rel-urls`` maps each URL to its merged rel keywords
    (sorted, as the suite expects) and, from the first element that supplies
    them, ``hreflang``, ``media``, ``title``, ``type`` and ``text``.

    Output allowance (``Options.max_output_ratio``): a link whose entries,
    counted as if its URL and keywords were new, take more than
    ``floor + ratio * span`` characters (``span``: the link element's source
    span; none recorded, no allowance) is left out of both maps and counted in
    :attr:`dropped`. The test looks at the link alone, so the answer does not
    depend on the order links arrive in.
    """

    __slots__ = ("_floor", "_ratio", "_rels", "_urls", "dropped")

    def __init__(self, floor: int = DEFAULT_OUTPUT_FLOOR_CHARS, ratio: int = DEFAULT_MAX_OUTPUT_RATIO) -> None:
        self._rels: dict[str, dict[str, None]] = {}
        self._urls: dict[str, dict[str, Any]] = {}
        self._floor = floor
        self._ratio = ratio
        #: Rel links left out past their output allowance.
        self.dropped = 0

    def add(self, element: Element, base: str | None, text: str) -> None:
        """Record one rel link; ``text`` is the element's text content."""
        attrs = element.attrs
        rel = attrs.get("rel")
        href = attrs.get("href")
        if rel is None or href is None:
            return
        keywords = _KEYWORDS.get(rel)
        if keywords is None:
            keywords = _keywords(rel)
        if not keywords:
            return
        url = resolve(href, base)
        start = element.source_start  # (Element.source_length, inlined)
        if start >= 0 and element.source_end >= start:
            # what the link adds to both maps when all it brings is new: the URL under each
            # keyword and as a key, the keywords twice, the text, the copied attributes
            # ((len(url) + 4) * (k + 1) + 10 * k + 32, folded)
            size = (len(url) + 14) * (len(keywords) + 1) + len(text) + 2 * len(rel) + 22
            allowed = self._floor + self._ratio * (element.source_end - start)
            # The copied attributes are counted only when a bound (every value copied, in
            # one C-level sum) leaves the answer open: most links are far below the allowance.
            if len(attrs) > 2 and size + _COPIED_KEYS_SIZE + sum(map(len, attrs.values())) > allowed:
                size += _copied_size(attrs)
            if size > allowed:
                self.dropped += 1
                return
        rels = self._rels
        for keyword in keywords:
            urls = rels.get(keyword)
            if urls is None:
                rels[keyword] = {url: None}
            else:
                urls[url] = None
        entry = self._urls.get(url)
        if entry is None:
            entry = self._urls[url] = {"rels": {}}
        entry_rels = entry["rels"]
        for keyword in keywords:
            entry_rels[keyword] = None
        if len(attrs) > 2:  # more than rel and href: maybe some to copy
            for attr in _COPIED:
                value = attrs.get(attr)
                if value is not None and attr not in entry:
                    entry[attr] = value
        if "text" not in entry:
            entry["text"] = text

    def note(self) -> str | None:
        """The note for :attr:`dropped` links, if any (for a parser's notes)."""
        if not self.dropped:
            return None
        return (
            f"{self.dropped} rel link(s) left out of rels and rel-urls past their output allowance"
            f" (output_floor_chars={self._floor} + max_output_ratio={self._ratio} per source character)"
        )

    @property
    def rels(self) -> dict[str, list[str]]:
        """The ``rels`` map: keyword -> URLs."""
        return {k: list(v) for k, v in self._rels.items()}

    @property
    def rel_urls(self) -> dict[str, dict[str, Any]]:
        """The ``rel-urls`` map: URL -> details."""
        out: dict[str, dict[str, Any]] = {}
        for url, entry in self._urls.items():
            item = dict(entry)
            item["rels"] = sorted(entry["rels"])
            out[url] = item
        return out


def _copied_size(attrs: dict[str, str]) -> int:
    """About the JSON characters of the attributes a rel-urls entry copies from ``attrs``."""
    size = 0
    for attr in _COPIED:
        value = attrs.get(attr)
        if value is not None:
            size += len(attr) + len(value) + 6
    return size


def add_rel_link(element: Element, ctx: Mf2Context) -> None:
    """Add ``element`` to ``ctx.rels`` if it is a rel link (for a walk that has seen its ``rel``)."""
    if element.name in REL_ELEMENTS and "href" in element.attrs and element.namespace == HTML_NS:
        ctx.rels.add(element, ctx.base_url, link_text(element))


def link_text(element: Element) -> str:
    """A rel link's ``textContent`` (most links hold one text node: no walk for those)."""
    children = element.children
    if len(children) == 1:
        child = children[0]
        if type(child) is Text:
            return child.data
    elif not children:
        return ""
    return text_content(element)


def collect_rels(element: ParentNode, ctx: Mf2Context) -> None:
    """Add every rel link in ``element``'s subtree (``element`` included) to ``ctx.rels``."""
    collect_rels_and_markers(element, ctx)


def collect_rels_and_markers(element: ParentNode, ctx: Mf2Context) -> bool:
    """:func:`collect_rels`, and in the same walk the include pattern's marker pre-check.

    Returns whether an element of the subtree looks like an mf1 include marker
    (``itemref``, ``headers`` or ``include`` in its class). When it is ``False``,
    ``include_references(element)`` is ``[]``: a caller that needs both (the
    hand-over of a completed kept subtree) saves a walk of the subtree.
    """
    base = ctx.base_url
    add = ctx.rels.add
    markers = False
    if type(element) is Element:  # a Document or fragment has neither
        if element.name in REL_ELEMENTS and is_rel_link(element):
            add(element, base, link_text(element))
        markers = is_marker_like(element)
    # one iterator over child nodes per open element: the loop over children runs in C
    stack: list[Iterator[Node]] = [iter(element.children)]
    while stack:
        for node in stack[-1]:
            if type(node) is Element:
                attrs = node.attrs
                # both tests need attributes, and most elements have none
                if attrs:
                    if node.name in REL_ELEMENTS and "rel" in attrs and "href" in attrs and node.namespace == HTML_NS:
                        add(node, base, link_text(node))
                    # include.is_marker_like, inlined (this runs for every element of every kept subtree)
                    if not markers and (
                        "itemref" in attrs or "headers" in attrs or INCLUDE_CLASS in attrs.get("class", "")
                    ):
                        markers = True
                children = node.children
                if children and (len(children) > 1 or type(children[0]) is not Text):  # not only a text node
                    stack.append(iter(children))
                    break
        else:
            stack.pop()
    return markers
