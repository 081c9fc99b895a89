"""The RDFa consumer's state: content values to read, evaluation-context frames, list mappings.

:class:`Slot` is a literal read from an element's content when it closes;
:class:`Deferred` an ``href``/``src`` IRI resolved only when used; :class:`Lists` a
list mapping (``inlist``); :class:`Frame` the evaluation context an element passes to
its children; :class:`Close` what an element does when it closes.
"""

from __future__ import annotations

from typing import Final

from stream_mf2.html.dom import Element, text_content
from stream_mf2.rdfa.context import RDF, Mappings, resolve_iri
from stream_mf2.rdfa.events import RdfaLiteral
from stream_mf2.rdfa.html_rules import time_datatype, xml_literal

__all__ = ["HTML", "TEXT", "TIME", "XML", "Close", "Deferred", "Frame", "Lists", "Object", "Slot", "Triple"]

_XML_LITERAL: Final = RDF + "XMLLiteral"
_HTML_LITERAL: Final = RDF + "HTML"

# How a content value is read.
TEXT: Final = 0  # its text
TIME: Final = 1  # a <time>'s text, datatype by its form unless given
XML: Final = 2  # its children as XML (rdf:XMLLiteral)
HTML: Final = 3  # its children as markup (rdf:HTML)


class Slot:
    """A literal read from an element's content when it closes (or is handed over, if first)."""

    __slots__ = ("datatype", "element", "kind", "language", "namespaces", "value")

    def __init__(
        self,
        element: Element,
        kind: int,
        datatype: str | None,
        language: str | None,
        namespaces: dict[str, str] | None,
    ) -> None:
        self.element: Element | None = element
        self.kind = kind
        self.datatype = datatype
        self.language = language
        self.namespaces = namespaces
        self.value: RdfaLiteral | None = None

    def fill(self) -> None:
        el = self.element
        if el is None:
            return
        self.element = None
        kind = self.kind
        if kind == XML:
            self.value = RdfaLiteral(xml_literal(el, self.namespaces), _XML_LITERAL)
        elif kind == HTML:
            self.value = RdfaLiteral(xml_literal(el, None), _HTML_LITERAL)
        else:
            text = text_content(el)
            datatype = self.datatype
            if kind == TIME and datatype is None:
                datatype = time_datatype(text)
            if datatype is None:
                self.value = RdfaLiteral(text, None, self.language)
            else:
                self.value = RdfaLiteral(text, datatype)


Object = str | RdfaLiteral | Slot
Triple = tuple[str, str, Object]


class Deferred:
    """An ``href``/``src`` IRI resolved only if something uses it: a plain link (``<a href>``
    without other RDFa attributes) is a new subject, which nothing uses unless an RDFa
    element comes inside it; most links have none."""

    __slots__ = ("base", "iri", "raw")

    def __init__(self, base: str, raw: str) -> None:
        self.base = base
        self.raw = raw
        self.iri: str | None = None

    def value(self) -> str:
        iri = self.iri
        if iri is None:
            iri = self.iri = resolve_iri(self.base, self.raw)
        return iri


class Lists:
    """A list mapping (RDFa 1.1 ``inlist``): property IRI -> members (``None``: declared, none yet)."""

    __slots__ = ("closed", "lists", "origin")

    def __init__(self, origin: str | Deferred | None) -> None:
        self.origin = origin
        self.lists: dict[str, list[Object] | None] = {}
        #: its element closed and the lists went out (tree construction may still put content
        #: below an element it has popped: misnested formatting tags)
        self.closed = False


class Frame:
    """The evaluation context an element passes to its children."""

    __slots__ = ("default_ns", "incomplete", "lang", "lists", "mappings", "parent_object")

    def __init__(
        self,
        lang: str | None,
        mappings: Mappings,
        default_ns: str | None,
        parent_object: str | Deferred | None,
        incomplete: list[tuple[str | None, str, str | None]],
        lists: Lists,
    ) -> None:
        self.lang = lang
        self.mappings = mappings
        #: the nearest ``xmlns`` attribute's value (repeated on XML literals)
        self.default_ns = default_ns
        self.parent_object = parent_object
        #: incomplete triples for the children to complete: (subject, predicate, object),
        #: ``None`` where the child's subject goes; (None, p, None) adds it to list p
        self.incomplete = incomplete
        self.lists = lists


class Close:
    """What an element does when it closes."""

    __slots__ = ("lists", "parent", "slots", "subject", "triples")

    def __init__(self, triples: list[Triple]) -> None:
        self.triples = triples
        self.slots: list[Slot] = []
        #: the subject that completes the parent's incomplete triples
        self.subject: str | None = None
        #: the frame whose incomplete triples this element completes
        self.parent: Frame | None = None
        #: the list mapping this element started, generated when it closes
        self.lists: Lists | None = None
