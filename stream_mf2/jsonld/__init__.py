"""JSON-LD: the ``<script type="application/ld+json">`` blocks of a page, in the same streaming pass.

``Parser(syntaxes={"json-ld"})`` (with ``"mf2"`` or the other syntaxes, or
alone) yields a :class:`JsonLdItem` for each item of each block, as soon as the
block's ``</script>`` is final. The consumer (:mod:`stream_mf2.jsonld.consumer`)
keeps only those ``script`` elements; :mod:`stream_mf2.jsonld.read` reads their
text leniently, as real pages need. A block that cannot be read is a note
(:attr:`stream_mf2.Parser.notes`), never an exception.
"""

from __future__ import annotations

from stream_mf2.jsonld.events import JsonLdItem, extruct_result

__all__ = ["JsonLdItem", "extruct_result"]
