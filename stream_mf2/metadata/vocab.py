"""The names the head metadata consumers recognise: OpenGraph namespaces, Dublin Core terms."""

from __future__ import annotations

import re
from typing import Final

__all__ = ["DC_ELEMENTS", "DC_NAMESPACES", "DC_TERMS", "OG_NAMESPACES", "PREFIX", "dc_local_name"]

#: The OpenGraph namespaces (ogp.me), recognised without a ``prefix`` declaration; ``product``
#: is not in the protocol but common on shop pages (extruct recognises it too).
OG_NAMESPACES: Final[dict[str, str]] = {
    "og": "http://ogp.me/ns#",
    "music": "http://ogp.me/ns/music#",
    "video": "http://ogp.me/ns/video#",
    "article": "http://ogp.me/ns/article#",
    "book": "http://ogp.me/ns/book#",
    "profile": "http://ogp.me/ns/profile#",
    "product": "http://ogp.me/ns/product#",
}

#: One ``prefix: IRI`` pair of an RDFa-style ``prefix`` attribute (``og: http://ogp.me/ns#``).
PREFIX: Final = re.compile(r"\s*(\w+):\s*(\S+)")

_DCMES: Final = "http://purl.org/dc/elements/1.1/"
_DCTERMS: Final = "http://purl.org/dc/terms/"

# The fifteen DCMES 1.1 elements.
_ELEMENT_NAMES: Final = (
    "contributor coverage creator date description format identifier language publisher relation rights"
    " source subject title type"
)
# DCMI Metadata Terms (properties and the classes pages name), as DCMI spells them.
_TERM_NAMES: Final = (
    "abstract description accessRights rights RightsStatement accrualMethod Collection accrualPeriodicity"
    " Frequency accrualPolicy Policy alternative title audience AgentClass available date"
    " bibliographicCitation identifier BibliographicResource conformsTo relation Standard contributor Agent"
    " coverage LocationPeriodOrJurisdiction created creator dateAccepted dateCopyrighted dateSubmitted"
    " educationLevel extent format SizeOrDuration MediaTypeOrExtent hasFormat hasPart hasVersion"
    " instructionalMethod MethodOfInstruction isFormatOf isPartOf isReferencedBy isReplacedBy isRequiredBy"
    " issued isVersionOf language LinguisticSystem license LicenseDocument mediator medium PhysicalResource"
    " PhysicalMedium modified provenance ProvenanceStatement publisher references replaces requires"
    " rightsHolder source spatial Location subject tableOfContents temporal PeriodOfTime type valid"
)

#: Lowercased element name -> its IRI (looked up first).
DC_ELEMENTS: Final[dict[str, str]] = {n: _DCMES + n for n in _ELEMENT_NAMES.split()}
#: Lowercased term name -> its IRI.
DC_TERMS: Final[dict[str, str]] = {n.lower(): _DCTERMS + n for n in _TERM_NAMES.split()}
#: The IRIs a ``<link rel="schema.X" href>`` may declare as the prefix ``X``.
DC_NAMESPACES: Final = (_DCTERMS, _DCMES)


def dc_local_name(name: str) -> str:
    """The name a ``<meta name>``/``<link rel>`` value is looked up by: what follows its last
    ``.`` (``DC.title``, ``dcterms.modified``; the whole value without one), lowercased."""
    return name.rpartition(".")[2].lower()
