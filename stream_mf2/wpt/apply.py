"""Which templates apply to a page (the parser's ``wpt=`` option)."""

from __future__ import annotations

from stream_mf2.wpt._urlnorm import normalize_url
from stream_mf2.wpt.events import WptPage
from stream_mf2.wpt.model import Template, Wpt

__all__ = ["pages_for"]


def pages_for(spec: Wpt | Template, url: str | None) -> tuple[list[WptPage], list[str]]:
    """The templates applied to a page at ``url``, as pages, and notes about the choice.

    A whole :class:`Wpt` applies the templates :meth:`Wpt.choose` picks for
    ``url``; without a URL it applies every template (no URL captures), with a
    note. A single :class:`Template` always applies; its URL captures are
    filled when ``url`` matches its ``ow:url``.
    """
    if isinstance(spec, Template):
        captures: dict[str, list[str]] = {}
        if url is not None and spec.url is not None:
            m = spec.url.regex.fullmatch(normalize_url(url))
            if m is not None:
                captures = spec.url.captures(m)
        return [WptPage(spec, url, captures)], []
    if url is None:
        return [WptPage(t, None, {}) for t in spec.templates], [
            "wpt: no page URL, so every template was applied (no URL captures)"
        ]
    return [WptPage(t, url, caps) for t, caps in spec.choose(url)], []
