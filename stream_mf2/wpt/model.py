"""The typed model of a Website Parse Template (W3C Member Submission, 2009).

Everything here is a frozen value; :func:`stream_mf2.wpt.load` builds it from
XML. Compiled patterns (:class:`Pattern`) and XPaths (:class:`XPath`) are part
of the model, so matching never parses template text again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from stream_mf2.errors import PatternTimeout, StreamMF2Error
from stream_mf2.wpt._urlnorm import normalize_url
from stream_mf2.wpt.limits import DEFAULT_MAX_PATTERN_SECONDS

__all__ = [
    "OW_NS",
    "Block",
    "Concept",
    "Ontology",
    "Pattern",
    "PatternBudget",
    "RdfNode",
    "RdfProperty",
    "Step",
    "Template",
    "TemplateError",
    "TimedRegex",
    "UrlsSection",
    "Wpt",
    "WptSpec",
    "XPath",
]

#: The Open Web vocabulary namespace; elements are recognised by it, whatever the prefix.
OW_NS = "http://www.omfica.org/schemas/ow/0.9"
#: The RDF namespace, whose descriptions a block's content may be (the submission's Example 4).
RDF_NS = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"


class TemplateError(StreamMF2Error):
    """A problem in a template: what is wrong, and where (1-based line and column)."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"{line}:{column}: {message}")
        self.message = message
        self.line = line
        self.column = column


class PatternBudget:
    """The time left for the patterns of one page (``max_pattern_seconds``).

    A parser makes one per page and makes it current (:func:`pattern_budget`) while it
    parses: every search of a template's pattern then runs under the regex module's
    ``timeout=`` with the time left, and what it took is deducted. Time is the thread's CPU
    time, as the regex module measures its timeout: the limit bounds the work a template can
    make a page cost, and a machine busy with other processes does not cut patterns short
    (their wall time is longer then).

    ``errors``: the page's error list, once the matcher has one. An element's pattern that
    runs out of time (:meth:`TimedRegex.finditer`) is then reported there and ends as if it
    had no further match, so the block fails on that element and the page goes on; before
    that (the URL patterns, chosen while the parser is built), a timeout raises.
    """

    __slots__ = ("errors", "left", "reported", "seconds")

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.left = seconds
        self.errors: list[str] | None = None
        #: whether ``errors`` has been told that the time is spent
        self.reported = False

    def report_to(self, errors: list[str]) -> None:
        """Report element patterns out of time in ``errors`` (a new matcher's, after a re-parse too)."""
        self.errors = errors
        self.reported = False


class _Current(threading.local):
    budget: PatternBudget | None = None


_current = _Current()


def pattern_budget(budget: PatternBudget | None) -> PatternBudget | None:
    """Make ``budget`` the current thread's pattern budget; return the one it replaces.

    The parser sets its page's budget around each call that runs the matcher and puts the
    previous one back after it, so parsers interleaved on one thread keep their own budget.
    """
    previous = _current.budget
    _current.budget = budget
    return previous


class TimedRegex:
    """A compiled ``regex`` expression whose every search is bounded in time.

    Inside a parse, the page's :class:`PatternBudget` gives the time left (the regex
    module's ``timeout=``) and is charged what the search took; outside one, each search
    may take :data:`DEFAULT_MAX_PATTERN_SECONDS`. ``regex`` stops a search past its
    timeout with ``TimeoutError``; here that is a
    :class:`~stream_mf2.errors.PatternTimeout` naming the pattern as written (and the
    budget is spent: every later search on the page stops at once). The matcher calls
    ``search``, ``finditer`` and ``fullmatch`` as on the compiled expression itself.
    """

    __slots__ = ("compiled", "source")

    def __init__(self, compiled: Any, source: str) -> None:
        self.compiled = compiled
        self.source = source

    def __eq__(self, other: object) -> bool:
        # As compiled expressions compare: a template loaded twice gives equal models.
        if not isinstance(other, TimedRegex):
            return NotImplemented
        return bool(self.compiled == other.compiled)

    def __hash__(self) -> int:
        return hash(self.compiled)

    def __repr__(self) -> str:
        return f"TimedRegex({self.pattern!r})"

    @property
    def pattern(self) -> str:
        """The regular expression (as compiled, captures turned into named groups)."""
        return str(self.compiled.pattern)

    def _start(self) -> tuple[PatternBudget | None, float]:
        budget = _current.budget
        if budget is None:
            return None, DEFAULT_MAX_PATTERN_SECONDS
        if budget.left <= 0:
            raise self._timeout(budget.seconds)
        return budget, budget.left

    def _spent(self, budget: PatternBudget | None, timeout: float) -> PatternTimeout:
        """The error of a search stopped by its timeout; the page's budget is spent."""
        if budget is None:
            return self._timeout(timeout)
        budget.left = 0.0
        return self._timeout(budget.seconds)

    def _timeout(self, seconds: float) -> PatternTimeout:
        return PatternTimeout(
            f"wpt: pattern {self.source[:80]!r} ran past max_pattern_seconds={seconds} (the page's time for patterns)",
            pattern=self.source,
            seconds=seconds,
        )

    @staticmethod
    def _report(budget: PatternBudget, error: PatternTimeout) -> None:
        """Say once in the page's errors that its time for patterns is spent."""
        if budget.errors is not None and not budget.reported:
            budget.reported = True
            budget.errors.append(f"{error}; the page's element patterns after it are skipped (their blocks fail)")

    def search(self, text: str, pos: int = 0, *, partial: bool = False) -> Any:
        budget, timeout = self._start()
        began = time.thread_time()
        try:
            return self.compiled.search(text, pos, partial=partial, timeout=timeout)
        except TimeoutError:
            raise self._spent(budget, timeout) from None
        finally:
            if budget is not None:
                budget.left -= time.thread_time() - began

    def fullmatch(self, text: str) -> Any:
        budget, timeout = self._start()
        began = time.thread_time()
        try:
            return self.compiled.fullmatch(text, timeout=timeout)
        except TimeoutError:
            raise self._spent(budget, timeout) from None
        finally:
            if budget is not None:
                budget.left -= time.thread_time() - began

    def finditer(self, text: str) -> Iterator[Any]:
        """Every match in ``text``; the time limit covers the whole iteration.

        Past it, when the page's budget has an error list (see :class:`PatternBudget`), the
        timeout is reported there and the iteration ends (the matches before it stand);
        otherwise it raises :class:`~stream_mf2.errors.PatternTimeout`.
        """
        budget = _current.budget
        if budget is not None and budget.left <= 0 and budget.errors is not None:
            self._report(budget, self._timeout(budget.seconds))
            return  # the page's time is spent: no more element pattern runs on it
        budget, timeout = self._start()
        began = time.thread_time()
        found = self.compiled.finditer(text, timeout=timeout)
        try:
            yield from found
        except TimeoutError:
            error = self._spent(budget, timeout)
            if budget is None or budget.errors is None:
                raise error from None
            self._report(budget, error)
        finally:
            if budget is not None:
                budget.left -= time.thread_time() - began


@dataclass(frozen=True, slots=True)
class Pattern:
    """A WPT pattern: literal text with captures ``(concept[REGEX])`` (or ``([concept[REGEX]])``).

    ``regex`` is the compiled expression (``regex`` package, as a :class:`TimedRegex`:
    every search is bounded in time, see ``max_pattern_seconds``); the group named
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
class RdfProperty:
    """A property element of an RDF description in a block: the property's full IRI, and what it
    states: a literal ``value`` (with ``lang``), a ``resource`` IRI, or neither (an empty
    element: the block's match gives the value)."""

    iri: str
    value: str | None = None
    resource: str | None = None
    lang: str | None = None


@dataclass(frozen=True, slots=True)
class RdfNode:
    """A node element of an RDF description in a block (``rdf:Description`` or a typed node):
    ``about`` as written (``None``: not given), its ``types`` (full IRIs) and property elements."""

    about: str | None
    types: tuple[str, ...]
    properties: tuple[RdfProperty, ...]


@dataclass(frozen=True, slots=True)
class Block:
    """An ``ow:block``: its references, content (``concept`` or ``description``) and nested blocks.

    ``rdf``: the RDF node elements of its description (namespaces resolved), read at load
    time; the JSON-LD of a page (:mod:`stream_mf2.wpt.jsonld`) gives their properties the
    block's match.
    """

    concept: str | None
    description: str | None
    tagid: str | None
    xpath: XPath | None
    pattern: Pattern | None
    repeatable: bool
    blocks: tuple[Block, ...]
    line: int
    column: int
    rdf: tuple[RdfNode, ...] = ()

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
        Each search is bounded in time (inside a parse by the page's ``max_pattern_seconds``,
        otherwise by :data:`DEFAULT_MAX_PATTERN_SECONDS`): past it,
        :class:`~stream_mf2.errors.PatternTimeout`.
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


#: What the parser's ``wpt=`` option takes: a whole WPT file, one of its templates, or several
#: of either (WPT files of several sites, or several for one site), each applied as if alone.
WptSpec = Wpt | Template | Sequence[Wpt | Template]
