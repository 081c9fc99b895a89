"""The RDFa 1.1 initial context and the resolution of IRIs, CURIEs and terms.

The initial context (W3C, "RDFa Core 1.1 initial context", as HTML+RDFa 1.1 uses
it) is a static table here: :data:`INITIAL_PREFIXES` and :data:`INITIAL_TERMS`.
Nothing is fetched. The resolution rules follow RDFa Core 1.1 section 7.4
(CURIE and IRI processing) with the details of the reference processor pyRdfa3
where the specification leaves room: prefixes are matched case-insensitively,
a reference starting with ``//`` or holding ``#``, ``[`` or ``]`` in its query
or fragment is not a CURIE, a prefix's IRI is percent-quoted, terms are
matched exactly first and then case-insensitively.
"""

from __future__ import annotations

import re
from typing import Final
from urllib.parse import quote, urljoin, urlsplit, urlunsplit

__all__ = [
    "INITIAL_PREFIXES",
    "INITIAL_TERMS",
    "RDF",
    "XHV",
    "Mappings",
    "curie_or_iri",
    "quote_iri",
    "resolve_iri",
    "term_or_curie",
]

RDF: Final = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
XHV: Final = "http://www.w3.org/1999/xhtml/vocab#"
XSD: Final = "http://www.w3.org/2001/XMLSchema#"
RDFA_USES_VOCABULARY: Final = "http://www.w3.org/ns/rdfa#usesVocabulary"

#: The prefixes of the RDFa 1.1 initial context.
INITIAL_PREFIXES: Final[dict[str, str]] = {
    "as": "https://www.w3.org/ns/activitystreams#",
    "csvw": "http://www.w3.org/ns/csvw#",
    "cc": "http://creativecommons.org/ns#",
    "ctag": "http://commontag.org/ns#",
    "dc": "http://purl.org/dc/terms/",
    "dc11": "http://purl.org/dc/elements/1.1/",
    "dcat": "http://www.w3.org/ns/dcat#",
    "dcterms": "http://purl.org/dc/terms/",
    "dqv": "http://www.w3.org/ns/dqv#",
    "duv": "https://www.w3.org/ns/duv#",
    "foaf": "http://xmlns.com/foaf/0.1/",
    "gr": "http://purl.org/goodrelations/v1#",
    "grddl": "http://www.w3.org/2003/g/data-view#",
    "ical": "http://www.w3.org/2002/12/cal/icaltzd#",
    "jsonld": "http://www.w3.org/ns/json-ld#",
    "ldp": "http://www.w3.org/ns/ldp#",
    "ma": "http://www.w3.org/ns/ma-ont#",
    "oa": "http://www.w3.org/ns/oa#",
    "odrl": "http://www.w3.org/ns/odrl/2/",
    "og": "http://ogp.me/ns#",
    "org": "http://www.w3.org/ns/org#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "prov": "http://www.w3.org/ns/prov#",
    "qb": "http://purl.org/linked-data/cube#",
    "rdf": RDF,
    "rdfa": "http://www.w3.org/ns/rdfa#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "rev": "http://purl.org/stuff/rev#",
    "rif": "http://www.w3.org/2007/rif#",
    "rr": "http://www.w3.org/ns/r2rml#",
    "schema": "http://schema.org/",
    "sd": "http://www.w3.org/ns/sparql-service-description#",
    "sioc": "http://rdfs.org/sioc/ns#",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "skosxl": "http://www.w3.org/2008/05/skos-xl#",
    "sosa": "http://www.w3.org/ns/sosa/",
    "ssn": "http://www.w3.org/ns/ssn/",
    "time": "http://www.w3.org/2006/time#",
    "v": "http://rdf.data-vocabulary.org/#",
    "vcard": "http://www.w3.org/2006/vcard/ns#",
    "void": "http://rdfs.org/ns/void#",
    "wdr": "http://www.w3.org/2007/05/powder#",
    "wdrs": "http://www.w3.org/2007/05/powder-s#",
    "xhv": XHV,
    "xml": "http://www.w3.org/XML/1998/namespace",
    "xsd": XSD,
}

#: The terms of the RDFa 1.1 initial context (HTML+RDFa adds none).
INITIAL_TERMS: Final[dict[str, str]] = {
    "describedby": "http://www.w3.org/2007/05/powder-s#describedby",
    "license": XHV + "license",
    "role": XHV + "role",
}
_TERMS_FOLDED: Final[dict[str, str]] = {k.lower(): v for k, v in INITIAL_TERMS.items()}

_NCNAME: Final = re.compile(r"[A-Za-z][A-Za-z0-9._-]*\Z")
_TERM: Final = re.compile(r"[A-Za-z][A-Za-z0-9._/-]*\Z")
#: Characters a prefix's IRI keeps unquoted (besides letters, digits and ``_.-~``).
_IRI_SAFE: Final = ":/\\?=#~"


def is_term(value: str) -> bool:
    """Is ``value`` a term (an NCName that may also hold ``/``)?"""
    return _TERM.match(value) is not None


def is_ncname(value: str) -> bool:
    return _NCNAME.match(value) is not None


def quote_iri(value: str) -> str:
    """A prefix or xmlns IRI as the processor stores it: stripped, unusual characters percent-quoted."""
    return quote(value.strip(), _IRI_SAFE)


def strip_fragment(iri: str) -> str:
    """``iri`` without its fragment (the base IRI of a document has none)."""
    try:
        parts = urlsplit(iri)
    except ValueError:
        return iri
    return urlunsplit((parts.scheme, parts.netloc, parts.path, parts.query, ""))


def _scheme(value: str) -> str:
    try:
        return urlsplit(value).scheme
    except ValueError:
        return ""


def resolve_iri(base: str, value: str) -> str:
    """An IRI attribute (``href``, ``src``, ``vocab``, or a non-CURIE ``about``/``resource``) against ``base``."""
    value = value.strip()
    if value == "":
        return base
    if _scheme(base) == "" and _scheme(value) != "":
        return value
    try:
        joined = urljoin(base, value)
    except ValueError:
        return value
    # urljoin drops a trailing empty fragment or query ("x#", "x?"): the IRI keeps it.
    last = value[-1]
    if (last == "#" or last == "?") and joined[-1:] != last:
        joined += last
    return joined


class Mappings:
    """The IRI mappings in scope at an element: declared prefixes, the default prefix, the vocabulary.

    Shared by an element's descendants until one declares something (then copied).
    """

    __slots__ = ("default_prefix", "prefixes", "vocab", "xmlns")

    def __init__(self, prefixes: dict[str, str], default_prefix: str, vocab: str | None, xmlns: dict[str, str]) -> None:
        #: prefixes declared with ``prefix`` or ``xmlns:`` (lower-cased), over the initial ones
        self.prefixes = prefixes
        #: the IRI of the empty prefix (``:name``)
        self.default_prefix = default_prefix
        #: the default vocabulary (``vocab``), or ``None``
        self.vocab = vocab
        #: prefixes declared with ``xmlns:`` only (repeated on XML literals)
        self.xmlns = xmlns


INITIAL_MAPPINGS: Final = Mappings({}, XHV, None, {})


def _reference_ok(reference: str) -> bool:
    """Can ``reference`` be the reference of a CURIE (not ``//host...``, no ``#[]`` in query or fragment)?"""
    try:
        parts = urlsplit("http:" + reference)
    except ValueError:
        return False
    if parts.netloc != "":
        return False
    return all(not ("#" in part or "[" in part or "]" in part) for part in (parts.query, parts.fragment))


def curie(m: Mappings, value: str) -> str | None:
    """The IRI (or ``_:label`` blank node) of the CURIE ``value``, or ``None`` if it is not one."""
    if value == "":
        return None
    if value == ":":
        return m.default_prefix
    colon = value.find(":")
    if colon < 0:
        return None
    prefix = value[:colon].lower()
    reference = value[colon + 1 :]
    if prefix == "":
        return m.default_prefix + reference if _reference_ok(reference) else None
    if prefix == "_":
        # (the document's own blank node names: "u" keeps them apart from generated labels)
        return "_:u" + reference
    if not is_ncname(prefix):
        return None
    ns = m.prefixes.get(prefix)
    if ns is None:
        ns = INITIAL_PREFIXES.get(prefix)
    if ns is None or not _reference_ok(reference):
        return None
    return ns + reference


def curie_or_iri(m: Mappings, base: str, value: str) -> str | None:
    """``about`` and ``resource``: a safe CURIE ``[...]``, a CURIE, or an IRI resolved against ``base``."""
    if value == "":
        return base
    safe = False
    if value[0] == "[":
        if value[-1] != "]":
            return None
        value = value[1:-1]
        safe = True
    found = curie(m, value)
    if found is None:
        return None if safe else resolve_iri(base, value)
    if not found.startswith("_:") and _scheme(found) == "":
        return base + found
    return found


def term_or_curie(m: Mappings, value: str) -> str | None:
    """``property``, ``rel``, ``rev``, ``typeof``, ``datatype``: a term, a CURIE or an absolute IRI."""
    if value == "":
        return None
    if is_term(value):
        if m.vocab is not None:
            return m.vocab + value
        found = INITIAL_TERMS.get(value)
        return found if found is not None else _TERMS_FOLDED.get(value.lower())
    found = curie(m, value)
    if found is not None:
        return found
    return value if _scheme(value) != "" else None
