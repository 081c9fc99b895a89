"""WPT events as output lines, record by record: the consumer the WARC runner is given.

:class:`WptLines` turns the events of ``Parser(..., wpt=...)`` into the lines
of ``stream-mf2 wpt``, in one of these forms:

* pages (the default): one page object per page and applied template
  (``{"kind": "wpt", "template", "host", "url", "url_captures", "blocks"[, "errors"]}``,
  at the page's end);
* ``matches``: one line per block match as soon as it is final
  (``{"kind": "wpt-match", "template", "url", "block", "concept", "match"}``)
  and a ``{"kind": "wpt-errors", "template", "url", "errors"}`` line for a page
  with errors;
* ``records`` and/or ``jsonld`` (at the page's end): one
  ``{"kind": "wpt-record", "template", "host", "url", "block", "xpath", "data"}`` line
  per record (:func:`stream_mf2.wpt.records`; the page's own record, the first, has the
  page's ``"errors"`` when it has some), and one
  ``{"kind": "wpt-jsonld", "template", "url", "jsonld"[, "errors"]}`` line per page
  (:func:`stream_mf2.wpt.jsonld.page_jsonld`).

It is a :class:`stream_mf2.warc.runner.LineConsumer`; it knows nothing of WARC or files.
"""

from __future__ import annotations

import hashlib
from typing import Any

from stream_mf2.wpt.apply import specs_of
from stream_mf2.wpt.events import WptMatchEvent, WptPageEnd, page_header
from stream_mf2.wpt.jsonld import page_jsonld
from stream_mf2.wpt.model import WptSpec
from stream_mf2.wpt.records import records

__all__ = ["WptLines"]


class WptLines:
    """Lines of the WPT events of one page (or WARC record) after another; picklable.

    ``spec``: what the parser's ``wpt=`` takes (one WPT file or template, or several).
    ``matches``, ``records``, ``jsonld``: the line forms (see the module documentation;
    ``matches`` goes with neither of the others); ``vocab``/``ids``: the JSON-LD
    vocabulary and id prefix (:func:`~stream_mf2.wpt.jsonld.page_jsonld`'s defaults when ``None``).
    """

    def __init__(
        self,
        spec: WptSpec,
        *,
        matches: bool = False,
        records: bool = False,
        jsonld: bool = False,
        vocab: str | None = None,
        ids: str | None = None,
        max_pattern_chars: int | None = None,
        fingerprint: str | None = None,
    ) -> None:
        if matches and (records or jsonld):
            raise ValueError("matches= gives a line per match as it is found; records= and jsonld= are per page")
        specs = specs_of(spec)
        self.spec: WptSpec = specs[0] if len(specs) == 1 else specs
        self.matches = matches
        self.records = records
        self.jsonld = jsonld
        self.vocab = vocab
        self.ids = ids
        self.max_pattern_chars = max_pattern_chars
        #: Identifies the template (the CLI gives a hash of the file); by default a hash of the model.
        self._fingerprint = fingerprint or hashlib.sha256(repr(self.spec).encode()).hexdigest()
        self._pages: dict[int, dict[str, Any]] = {}

    def parser_options(self) -> dict[str, Any]:
        """``wpt`` (and ``max_pattern_chars``) for the parser."""
        opts: dict[str, Any] = {"wpt": self.spec}
        if self.max_pattern_chars is not None:
            opts["max_pattern_chars"] = self.max_pattern_chars
        return opts

    def kinds(self) -> tuple[str, ...]:
        """The kinds of lines written."""
        if self.matches:
            return ("wpt-match", "wpt-errors")
        if self.records or self.jsonld:
            return (*(("wpt-record",) if self.records else ()), *(("wpt-jsonld",) if self.jsonld else ()))
        return ("wpt",)

    def fingerprint(self) -> str:
        """The template and the line form, for a resumed run's checks."""
        if self.matches:
            form = "matches"
        elif self.records or self.jsonld:
            form = "+".join(k for k, on in (("records", self.records), ("jsonld", self.jsonld)) if on)
            if self.jsonld:
                form += f":{self.vocab or ''}:{self.ids or ''}"
        else:
            form = "pages"
        return f"{self._fingerprint}:{form}"

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
            if not (self.records or self.jsonld):
                return [page]
            out: list[dict[str, Any]] = []
            if self.records:
                recs = records(page)
                if event.errors:
                    recs[0]["errors"] = list(event.errors)
                out.extend(recs)
            if self.jsonld:
                source = event.page.wpt if event.page.wpt is not None else event.page.template
                line: dict[str, Any] = {
                    "kind": "wpt-jsonld",
                    "template": event.page.template.name,
                    "url": event.page.url,
                    "jsonld": page_jsonld(page, source, vocab=self.vocab, ids=self.ids),
                }
                if event.errors:
                    line["errors"] = list(event.errors)
                out.append(line)
            return out
        return []
