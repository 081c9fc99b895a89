"""Which templates apply to a page (the parser's ``wpt=`` option)."""

from __future__ import annotations

from stream_mf2.wpt._urlnorm import normalize_url
from stream_mf2.wpt.events import WptPage
from stream_mf2.wpt.model import Template, Wpt, WptSpec

__all__ = ["pages_for", "specs_of"]

NO_URL_NOTE = "wpt: no page URL, so every template was applied (no URL captures)"


def specs_of(spec: WptSpec) -> tuple[Wpt | Template, ...]:
    """The WPT files and templates of a ``wpt=`` value, in order (one alone as a 1-tuple)."""
    if isinstance(spec, (Wpt, Template)):
        return (spec,)
    out = tuple(spec)
    for s in out:
        if not isinstance(s, (Wpt, Template)):
            raise TypeError(f"wpt= takes Wpt and Template values (stream_mf2.wpt.load), not {type(s).__name__}")
    return out


def _pages_of_one(spec: Wpt | Template, url: str | None) -> tuple[list[WptPage], list[str]]:
    if isinstance(spec, Template):
        captures: dict[str, list[str]] = {}
        if url is not None and spec.url is not None:
            m = spec.url.regex.fullmatch(normalize_url(url))
            if m is not None:
                captures = spec.url.captures(m)
        return [WptPage(spec, url, captures)], []
    if url is None:
        return [WptPage(t, None, {}, spec) for t in spec.templates], [NO_URL_NOTE]
    return [WptPage(t, url, caps, spec) for t, caps in spec.choose(url)], []


def pages_for(spec: WptSpec, url: str | None) -> tuple[list[WptPage], list[str]]:
    """The templates applied to a page at ``url``, as pages, and notes about the choice.

    A whole :class:`Wpt` applies the templates :meth:`Wpt.choose` picks for
    ``url``; without a URL it applies every template (no URL captures), with a
    note. A single :class:`Template` always applies; its URL captures are
    filled when ``url`` matches its ``ow:url``. Of a sequence, each applies as if
    given alone, in order (two WPT files for one host both apply; a file for
    another host applies nothing).
    """
    if isinstance(spec, (Wpt, Template)):
        return _pages_of_one(spec, url)
    pages: list[WptPage] = []
    notes: list[str] = []
    for one in specs_of(spec):
        found, said = _pages_of_one(one, url)
        pages.extend(found)
        notes.extend(n for n in said if n not in notes)
    return pages, notes
