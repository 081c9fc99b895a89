"""The HTML+RDFa 1.1 extras: ``datetime`` and ``<time>`` typed literals, and XML literal serialisation.

HTML+RDFa 1.1 section 3.1 (rule 8): an element with ``datetime`` (or a ``time``
element without it) and no ``content`` takes its value from ``datetime`` (or its
text), and, without ``datatype``, a datatype chosen by the value's lexical form:
``xsd:date``, ``xsd:time``, ``xsd:dateTime``, ``xsd:gYear``, ``xsd:gYearMonth``,
``xsd:gMonthDay``, ``xsd:duration``, else a plain literal. The forms accepted are
those the reference processor (pyRdfa3) accepts, so the two agree on real pages.
"""

from __future__ import annotations

from datetime import datetime
from typing import Final

from stream_mf2.html.dom import Comment, Element, Node, Text

__all__ = ["time_datatype", "xml_literal"]

_XSD: Final = "http://www.w3.org/2001/XMLSchema#"
_DURATION: Final = _XSD + "duration"
_DATETIME: Final = _XSD + "dateTime"

# (datatype, formats) in the order they are tried.
_FORMATS: Final[tuple[tuple[str, tuple[str, ...]], ...]] = (
    (_XSD + "gMonthDay", ("%m-%d",)),
    (_XSD + "gYearMonth", ("%Y-%m",)),
    (_XSD + "gYear", ("%Y",)),
    (_XSD + "date", ("%Y-%m-%d", "%Y-%m-%dZ")),
    (_XSD + "time", ("%H:%M", "%H:%M:%S", "%H:%M:%SZ", "%H:%M:%S.%f")),
    (
        _DATETIME,
        (
            "%Y-%m-%dT%H:%M",
            "%Y-%m-%dT%H:%M:%S",
            "%Y-%m-%dT%H:%M:%S.%f",
            "%Y-%m-%dT%H:%MZ",
            "%Y-%m-%dT%H:%M:%SZ",
            "%Y-%m-%dT%H:%M:%S.%fZ",
        ),
    ),
    (_DURATION, ("P%dD", "P%YY%mM%dD", "P%YY%mM", "P%YY%dD", "P%YY", "P%mM", "P%mM%dD")),
)
_DURATION_DATES: Final = _FORMATS[-1][1]
_DURATION_TIMES: Final = ("%HH%MM%SS", "%HH", "%MM", "%SS", "%HH%MM", "%HH%SS", "%MM%SS")
_DATETIMES: Final = _FORMATS[-2][1]


def _fits(value: str, fmt: str) -> bool:
    try:
        datetime.strptime(value, fmt)
    except ValueError:
        return False
    return True


def _any_fits(value: str, formats: tuple[str, ...]) -> bool:
    return any(_fits(value, f) for f in formats)


def time_datatype(value: str) -> str | None:
    """The XML Schema datatype IRI of a ``datetime`` value, or ``None`` for a plain literal."""
    for datatype, formats in _FORMATS:
        if _any_fits(value, formats):
            return datatype
    if len(value) > 2 and (value[0] == "P" or (value[0] == "-" and value[1] == "P")):
        if value[0] == "-" and _any_fits(value, _DURATION_DATES):
            return _DURATION
        parts = value.split("T")
        if len(parts) == 2 and _any_fits(parts[0], _DURATION_DATES) and _any_fits(parts[1], _DURATION_TIMES):
            return _DURATION
        return None
    # a date and time with a numeric zone: "...+hh:mm"
    if len(value) >= 6 and _fits(value[-5:], "%H:%M") and _any_fits(value[:-6], _DATETIMES):
        return _DATETIME
    return None


def _escape(text: str, attribute: bool) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace('"', "&quot;") if attribute else text


def _start(el: Element, extra: dict[str, str] | None) -> str:
    parts = ["<", el.name]
    attrs = el.attrs
    if extra:
        # (namespace declarations first, as an XML serialiser writes them)
        attrs = {**{k: v for k, v in extra.items() if k not in attrs}, **attrs}
    for k, v in attrs.items():
        parts.append(f' {k}="{_escape(v, True)}"')
    return "".join(parts)


def xml_literal(element: Element, namespaces: dict[str, str] | None) -> str:
    """The children of ``element`` serialised as XML (an ``rdf:XMLLiteral`` or ``rdf:HTML`` value).

    ``namespaces`` (attribute name -> value, ``xmlns:p`` and ``xmlns``) are added to each
    top-level child element that lacks them, so the literal stands alone.
    """
    out: list[str] = []
    # nodes to write, and the end tags to write after an element's children
    work: list[Node | str] = list(reversed(element.children))
    top = {id(c) for c in element.children}
    while work:
        item = work.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        if type(item) is Text:
            out.append(_escape(item.data, False))
        elif type(item) is Comment:
            # (the literal is the children's text and elements: a comment counts only inside an element)
            if id(item) not in top:
                out.append(f"<!--{item.data}-->")
        elif type(item) is Element:
            out.append(_start(item, namespaces if id(item) in top else None))
            kids = item.children
            if not kids:
                out.append("/>")
                continue
            out.append(">")
            work.append(f"</{item.name}>")
            work.extend(reversed(kids))
    return "".join(out)
