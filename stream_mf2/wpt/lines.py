"""WPT events as output lines, record by record: the consumer the WARC runner is given.

:class:`WptLines` turns the events of ``Parser(..., wpt=...)`` into the lines
of ``stream-mf2 wpt``: one page object per page and applied template
(``{"kind": "wpt", "template", "host", "url", "url_captures", "blocks"[, "errors"]}``,
at the page's end), or with ``matches`` one line per block match as soon as it
is final (``{"kind": "wpt-match", "template", "url", "block", "concept", "match"}``)
and a ``{"kind": "wpt-errors", "template", "url", "errors"}`` line for a page
with errors. It is a :class:`stream_mf2.warc.runner.LineConsumer`; it knows
nothing of WARC or files.
"""

from __future__ import annotations

import hashlib
from typing import Any

from stream_mf2.wpt.events import WptMatchEvent, WptPageEnd, page_header
from stream_mf2.wpt.model import Template, Wpt

__all__ = ["WptLines"]


class WptLines:
    """Lines of the WPT events of one page (or WARC record) after another; picklable."""

    def __init__(
        self,
        spec: Wpt | Template,
        *,
        matches: bool = False,
        max_pattern_chars: int | None = None,
        fingerprint: str | None = None,
    ) -> None:
        self.spec = spec
        self.matches = matches
        self.max_pattern_chars = max_pattern_chars
        #: Identifies the template (the CLI gives a hash of the file); by default a hash of the model.
        self._fingerprint = fingerprint or hashlib.sha256(repr(spec).encode()).hexdigest()
        self._pages: dict[int, dict[str, Any]] = {}

    def parser_options(self) -> dict[str, Any]:
        """``wpt`` (and ``max_pattern_chars``) for the parser."""
        opts: dict[str, Any] = {"wpt": self.spec}
        if self.max_pattern_chars is not None:
            opts["max_pattern_chars"] = self.max_pattern_chars
        return opts

    def kinds(self) -> tuple[str, ...]:
        """The kinds of lines written."""
        return ("wpt-match", "wpt-errors") if self.matches else ("wpt",)

    def fingerprint(self) -> str:
        """The template and the line form, for a resumed run's checks."""
        return f"{self._fingerprint}:{'matches' if self.matches else 'pages'}"

    def start(self) -> None:
        """A new page starts: pages a failed parse left open are dropped."""
        self._pages.clear()

    def lines(self, event: object) -> list[dict[str, Any]]:
        """The lines for one parser event (none for events that are not WPT's)."""
        if isinstance(event, WptMatchEvent):
            if self.matches:
                block = event.page.template.blocks[event.block]
                return [
                    {
                        "kind": "wpt-match",
                        "template": event.page.template.name,
                        "url": event.page.url,
                        "block": event.block,
                        "concept": block.concept,
                        "match": event.match,
                    }
                ]
            page = self._pages.get(id(event.page))
            if page is None:
                page = self._pages[id(event.page)] = page_header(event.page)
            page["blocks"][event.block]["matches"].append(event.match)
            return []
        if isinstance(event, WptPageEnd):
            if self.matches:
                if not event.errors:
                    return []
                return [
                    {
                        "kind": "wpt-errors",
                        "template": event.page.template.name,
                        "url": event.page.url,
                        "errors": list(event.errors),
                    }
                ]
            page = self._pages.pop(id(event.page), None) or page_header(event.page)
            if event.errors:
                page["errors"] = list(event.errors)
            return [page]
        return []
