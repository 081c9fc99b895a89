"""Per-document state the mf2 functions share: base URL, language, rels."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from stream_mf2.html.dom import Element

from .options import Options
from .rels import RelCollector
from .urls import parse_url

if TYPE_CHECKING:
    from .items import FoldedItem
    from .text import TextIndex


class Mf2Context:
    """What one document's mf2 parse knows beyond the subtree at hand.

    ``url`` is the document URL (set it only here). The first ``<base href>`` wins
    (:meth:`set_base`). ``html_lang`` and ``content_language`` feed the
    ``lang`` option when no ancestor has a ``lang`` attribute.
    ``resolve_id`` finds an element by id (for the mf1 include pattern); the
    caller supplies it because only the caller knows which elements it kept.
    """

    __slots__ = (
        "_base_set",
        "base_url",
        "content_language",
        "folded",
        "html_lang",
        "lang_through_body",
        "lang_unset",
        "notes",
        "options",
        "rels",
        "resolve_id",
        "texts",
        "url",
    )

    def __init__(
        self,
        url: str | None = None,
        options: Options | None = None,
        resolve_id: Callable[[str], Element | None] | None = None,
    ) -> None:
        self.url = url
        self.options = options if options is not None else Options()
        self.resolve_id: Callable[[str], Element | None] = resolve_id if resolve_id is not None else _no_ids
        self.rels = RelCollector(self.options.output_floor_chars, self.options.max_output_ratio)
        self.html_lang: str | None = None
        self.content_language: str | None = None
        #: The URL relative references resolve against (the first ``<base href>``, else
        #: ``url``). A plain attribute, not a property: values read it for every URL.
        self.base_url: str | None = url
        self._base_set = False
        # nested items parsed ahead of their container (items.fold_nested)
        self.folded: dict[Element, FoldedItem] = {}
        #: Recoveries that changed the output (e.g. e-* html left out past
        #: ``Options.max_nested_html_chars``), in the order they happened.
        self.notes: list[str] = []
        # the text index of the item being parsed (set by the item walker)
        self.texts: TextIndex | None = None
        #: With the ``lang`` option, how many items parsed on their own (top-level,
        #: folded ahead, the meta-item) got each language without a ``lang`` attribute
        #: of the body or below (from the html element or the document default): what
        #: a ``lang`` that a later ``<body>`` tag merges into the body would change.
        self.lang_through_body: dict[str | None, int] = {}
        #: ... and those that got the document default (no ``lang`` attribute at all):
        #: what a later ``<html lang>`` or Content-Language would change.
        self.lang_unset: dict[str | None, int] = {}

    def set_base(self, href: str) -> None:
        """Apply a ``<base href>``; only the first one counts (HTML's "first base element").

        HTML's "set the frozen base URL": when ``href`` fails to parse, the base
        is the document URL (and a later ``<base>`` still does not count).
        """
        if not self._base_set:
            self._base_set = True
            base = parse_url(href, self.url)
            if base is not None:
                self.base_url = base

    @property
    def has_base(self) -> bool:
        """Has a ``<base href>`` been applied?"""
        return self._base_set

    @property
    def default_lang(self) -> str | None:
        """The language of content with no ``lang`` ancestor."""
        return self.html_lang if self.html_lang else self.content_language or None


def _no_ids(_id: str) -> Element | None:
    return None
