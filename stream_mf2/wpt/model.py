"""The typed model of a Website Parse Template (W3C Member Submission, 2009).

Everything here is a frozen value; :func:`stream_mf2.wpt.load` builds it from
XML. Compiled patterns (:class:`Pattern`) and XPaths (:class:`XPath`) are part
of the model, so matching never parses template text again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from stream_mf2.errors import StreamMF2Error
from stream_mf2.wpt._urlnorm import normalize_url

__all__ = [
    "OW_NS",
    "Block",
    "Concept",
    "Ontology",
    "Pattern",
    "Step",
    "Template",
    "TemplateError",
    "UrlsSection",
    "Wpt",
    "XPath",
]

#: The Open Web vocabulary namespace; elements are recognised by it, whatever the prefix.
OW_NS = "http://www.omfica.org/schemas/ow/0.9"


class TemplateError(StreamMF2Error):
    """A problem in a template: what is wrong, and where (1-based line and column)."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"{line}:{column}: {message}")
        self.message = message
        self.line = line
        self.column = column


@dataclass(frozen=True, slots=True)
class Pattern:
    """A WPT pattern: literal text with captures ``(concept[REGEX])`` (or ``([concept[REGEX]])``).

    ``regex`` is the compiled expression (``regex`` package); the group named
    ``c{i}`` is the capture of ``concepts[i]`` (groups inside a capture's own
    expression do not count).
    """

    source: str
    regex: Any
    concepts: tuple[str, ...]

    def captures(self, match: Any) -> dict[str, list[str]]:
        """``{concept: [values]}`` of one match, in pattern order."""
        out: dict[str, list[str]] = {}
        for i, concept in enumerate(self.concepts):
            value = match.group(f"c{i}")
            if value is not None:
                out.setdefault(concept, []).append(value)
        return out


@dataclass(frozen=True, slots=True)
class Step:
    """One step: ``name`` (``None`` for ``*``), a 1-based ``position`` among
    the matching siblings (same name, or any element for ``*``), and an
    attribute-equality test applied after the position.

    ``descendant``: the step follows ``//`` (any depth below the step before it);
    ``last``: ``[last()]`` instead of a position; ``tests``: further attribute
    tests ``(op, attr, value)``, ``op`` one of ``"="``, ``"contains"``,
    ``"starts-with"``, ``"exists"`` (value ``""``), all of which must hold.
    """

    name: str | None
    position: int | None = None
    attr: tuple[str, str] | None = None
    descendant: bool = False
    last: bool = False
    tests: tuple[tuple[str, str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class XPath:
    """The supported XPath subset: child steps from the root (``absolute``), from
    the elements with an id (``anchor``: ``//*[@id="x"]/...``), or from a context
    element (relative, nested blocks only).

    ``final``: the path selects a node of the last element instead of the
    element: ``"text()"`` (each text node child) or ``"@name"`` (an attribute).
    """

    source: str
    steps: tuple[Step, ...]
    absolute: bool = True
    anchor: str | None = None
    final: str | None = None


@dataclass(frozen=True, slots=True)
class Block:
    """An ``ow:block``: its references, content (``concept`` or ``description``) and nested blocks."""

    concept: str | None
    description: str | None
    tagid: str | None
    xpath: XPath | None
    pattern: Pattern | None
    repeatable: bool
    blocks: tuple[Block, ...]
    line: int
    column: int

    def ref(self) -> dict[str, str | None]:
        """The block's references as written: ``{"tagid", "xpath", "pattern"}``."""
        return {
            "tagid": self.tagid,
            "xpath": self.xpath.source if self.xpath is not None else None,
            "pattern": self.pattern.source if self.pattern is not None else None,
        }


@dataclass(frozen=True, slots=True)
class Template:
    """An ``ow:template``: name, URL pattern (may be absent when ``ow:urls`` names it), ontology, blocks."""

    name: str
    url: Pattern | None
    ontology: str | None
    blocks: tuple[Block, ...]
    line: int
    column: int
    #: The WPT's ``ow:host`` (copied here so a template alone can be applied).
    host: str = ""


@dataclass(frozen=True, slots=True)
class UrlsSection:
    """An ``ow:urls`` section: URL patterns of the pages ``template`` describes."""

    name: str | None
    template: str
    urls: tuple[Pattern, ...]
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Concept:
    """An ``ow:concept``: its ``ow:inherit`` parents and ``ow:has`` attributes (plus the implicit ``id``)."""

    name: str
    inherits: tuple[str, ...] = ()
    has: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Ontology:
    """An ``ow:ontology`` section."""

    name: str | None
    concepts: tuple[Concept, ...]


def host_key(url: str) -> tuple[str, str]:
    """(scheme, host) of a URL or of an ``ow:host`` value, lowercased; the scheme may be ``""``."""
    text = url.strip()
    if "//" not in text:
        text = "//" + text
    parts = urlsplit(text)
    return parts.scheme.lower(), (parts.hostname or "").lower()


@dataclass(frozen=True, slots=True)
class Wpt:
    """A whole WPT file: host, templates, ``ow:urls`` sections, ontologies.

    ``warnings``: problems that are not errors by default (undeclared concepts),
    each ``"line:column: message"``.
    """

    host: str
    templates: tuple[Template, ...]
    urls: tuple[UrlsSection, ...] = ()
    ontologies: tuple[Ontology, ...] = ()
    warnings: tuple[str, ...] = field(default=())

    def template(self, name: str) -> Template:
        """The template called ``name`` (``KeyError`` if none)."""
        for t in self.templates:
            if t.name == name:
                return t
        raise KeyError(name)

    def host_matches(self, url: str) -> bool:
        """Is ``url`` on this WPT's host? (Scheme compared only when ``ow:host`` has one.)"""
        scheme, host = host_key(self.host)
        u_scheme, u_host = host_key(url)
        return host == u_host and (not scheme or scheme == u_scheme)

    def choose(self, url: str) -> list[tuple[Template, dict[str, list[str]]]]:
        """The templates for a page at ``url``, each with its URL captures, in template order.

        A template applies when the page is on the WPT's host and the whole URL
        matches the template's ``ow:url`` or a URL of an ``ow:urls`` section
        naming it (the first that matches gives the captures). The URL is normalised
        first, as the patterns' literal text was when they were compiled (lower-case
        scheme and host, no default port, no fragment: :mod:`stream_mf2.wpt._urlnorm`).
        """
        if not self.host_matches(url):
            return []
        page_url = normalize_url(url)
        out: list[tuple[Template, dict[str, list[str]]]] = []
        for t in self.templates:
            patterns: list[Pattern] = [t.url] if t.url is not None else []
            for section in self.urls:
                if section.template == t.name:
                    patterns.extend(section.urls)
            for p in patterns:
                m = p.regex.fullmatch(page_url)
                if m is not None:
                    out.append((t, p.captures(m)))
                    break
        return out
