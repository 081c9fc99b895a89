"""The JSON-LD consumer: keeps each JSON-LD ``script`` and reads it when it is final.

A ``script`` element (HTML namespace) whose ``type`` is JSON-LD's media type
(:func:`is_jsonld_type`: compared ASCII case-insensitively, surrounding
whitespace and parameters such as ``; charset=utf-8`` ignored) starts a kept
subtree; nothing else is kept. When the subtree that holds it is final (the
script itself, or an outer subtree another consumer keeps), its text is read
(:func:`stream_mf2.jsonld.read.read_block`) and each item is emitted as a
:class:`~stream_mf2.jsonld.events.JsonLdItem`. The consumer knows the kept
scripts by identity from the keep question on, as the WPT consumer knows its
candidates, so a script handed over twice (the capture's nested hand-over
shows a released child first) is read once.

Budget ``max_jsonld_chars``: a block whose text is longer is not read, and a
note says so. The consumer is also the sink's text budget
(:mod:`stream_mf2.core.budget`): the sink stores at most ``max_jsonld_chars``
characters of a JSON-LD script's text, so a huge block costs no memory past it. Notes name the block by its source position (the character
offset of its start tag in the decoded input).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from stream_mf2.html.awaited import Awaited
from stream_mf2.html.dom import HTML_NS, Element, text_content
from stream_mf2.jsonld.events import JsonLdItem
from stream_mf2.jsonld.read import items_of, read_block

__all__ = ["DEFAULT_MAX_JSONLD_CHARS", "JsonLdConsumer", "is_jsonld_type"]

#: Default budget on the text of one JSON-LD block, in characters.
DEFAULT_MAX_JSONLD_CHARS: Final = 16 * 1024 * 1024
_MEDIA_TYPE: Final = "application/ld+json"
_ASCII_WHITESPACE: Final = " \t\n\f\r"


def is_jsonld_type(value: str) -> bool:
    """Is the ``type`` attribute value ``value`` JSON-LD's media type (``application/ld+json``)?

    As HTML compares a script's type: ASCII case-insensitively, without the
    surrounding ASCII whitespace; parameters (``; profile=...``) are ignored, as
    the MIME type's essence is what names it.
    """
    essence = value.split(";", 1)[0].strip(_ASCII_WHITESPACE)
    return len(essence) == len(_MEDIA_TYPE) and essence.lower() == _MEDIA_TYPE


def _position(element: Element) -> str:
    start = element.source_start
    return f"at character {start}" if start >= 0 else "(position unknown)"


class JsonLdConsumer:
    """The syntax consumer of ``"json-ld"`` (the contract: :mod:`stream_mf2.core.syntaxes`)."""

    #: No placement observer: the keep question and the hand-over say all it needs.
    observer = None

    def __init__(
        self,
        emit: Callable[[JsonLdItem], object],
        *,
        base_url: str | None = None,
        max_jsonld_chars: int = DEFAULT_MAX_JSONLD_CHARS,
    ) -> None:
        del base_url  # JSON-LD resolves its own IRIs (@base): the items are given as written
        self._emit = emit
        self.max_jsonld_chars = max_jsonld_chars
        # The same scripts -> the characters of text they were given so far (the text budget:
        # the sink stores no more than max_jsonld_chars of them).
        self._watching: dict[Element, int] = {}
        # The kept scripts not read yet, in the order they were made (document order).
        self._pending = Awaited(on_dropped=self._watching.pop)
        self._blocks = 0
        self.notes: list[str] = []

    def keep(self, element: Element) -> bool:
        """Keep a JSON-LD ``script`` (and remember it)."""
        if element.name != "script" or element.namespace != HTML_NS:
            return False
        value = element.attrs.get("type")
        if value is None or not is_jsonld_type(value):
            return False
        self._pending.add(element)
        self._watching[element] = 0
        return True

    # -- the text budget (stream_mf2.core.budget) ----------------------------------
    @property
    def text_budget(self) -> JsonLdConsumer:
        """This consumer bounds the text the sink stores in a JSON-LD script."""
        return self

    @property
    def max_chars(self) -> int:
        return self.max_jsonld_chars

    @property
    def watching(self) -> dict[Element, int]:
        return self._watching

    def admit(self, element: Element, data: str) -> str:
        """The part of ``data`` within ``max_jsonld_chars`` for the script ``element``
        (the count goes on past it, for the note)."""
        before = self._watching[element]
        self._watching[element] = before + len(data)
        room = self.max_jsonld_chars - before
        if len(data) <= room:
            return data
        return data[:room] if room > 0 else ""

    def complete(self, element: Element) -> bool:
        """Read the JSON-LD scripts inside the final subtree ``element`` (often the script itself)."""
        # (scripts inside template contents, or removed, are never handed over: the scan
        # drops them, where every later hand-over would look at them again)
        for script in self._pending.take_inside(element):
            self._read(script, self._watching.pop(script, 0))
        return True

    def finish(self) -> list[str]:
        """The document ended: scripts never handed over were not in the document's tree."""
        lost = self._pending.out_of_document + len(self._pending)
        if lost:
            self.notes.append(
                f"json-ld: {lost} block(s) inside template contents (or removed from the"
                " document by <frameset>) were not read"
            )
            self._pending.clear()
            self._watching.clear()
        return self.notes

    def _read(self, script: Element, given: int) -> None:
        text = text_content(script)
        block = self._blocks
        self._blocks += 1
        # (the sink stored at most max_jsonld_chars of the ``given`` characters)
        length = max(given, len(text))
        if length > self.max_jsonld_chars:
            self.notes.append(
                f"json-ld: the block {_position(script)} holds {length} characters, more than"
                f" max_jsonld_chars={self.max_jsonld_chars}: not read"
            )
            return
        if not text.strip(_ASCII_WHITESPACE):
            return  # an empty block: nothing to read, nothing lost
        value, error = read_block(text)
        if error is not None:
            self.notes.append(f"json-ld: the block {_position(script)} is not JSON ({error}): skipped")
            return
        items = items_of(value)
        if not items and value and type(value) is not list and type(value) is not dict:
            self.notes.append(f"json-ld: the block {_position(script)} holds no object or array: skipped")
        source = (script.source_start, script.source_end)
        emit = self._emit
        for item in items:
            emit(JsonLdItem(item, block, source))
