"""The results of the syntaxes other than mf2, entry by entry, as they become final: for line outputs.

:func:`stream_mf2.parse` with ``syntaxes=`` gives each syntax's results as one list
(``result["json-ld"]``, ...), made by the registry's result function
(:mod:`stream_mf2.core.syntaxes`) from the document's events. A front end that
writes lines (``stream-mf2 --jsonl``, ``stream-mf2 warc``) writes one line per
entry of those lists; :class:`SyntaxResults` says which entries, and when:

* ``json-ld``, ``opengraph`` and ``twitter`` (:data:`STREAMED`): each event is
  one entry of the list (one JSON-LD item, the head's OpenGraph object, the
  Twitter card), in order, so the entries are given as their events come;
* ``microdata`` (streamed too): each event is one top-level item, given as it
  comes with the place in the list its event carries
  (:attr:`~stream_mf2.microdata.events.MicrodataItem.index`). The places are
  final when given: the one thing that lands before items already given is the
  *page item* (``<html itemscope>`` or ``<body itemscope>``), whose properties
  are known only at the document's end. It is given last, with its place; every
  item emitted after its element was numbered one past it. So microdata
  entries come in list order except the page item, and the entries sorted by
  index are the list. Nothing is held: a page of a million items holds none of
  them (measured by ``python -m bench.syntaxes_memory``);
* ``rdfa`` and ``dublincore`` (:data:`HELD`): an entry is final only at the
  document's end (RDFa nodes gather the triples of one subject from the whole
  page, and a node with no subject of its own is placed where it is referred
  to; Dublin Core is one object joining the head's part and the body's), so
  their events are held and their entries given by :meth:`SyntaxResults.finish`.

Either way every entry is given once, with ``index``, its place in that syntax's
list in :func:`stream_mf2.parse`'s result.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

from stream_mf2.core.syntaxes import SYNTAXES, result_function

__all__ = ["HELD", "STREAMED", "ResultEntry", "SyntaxResults", "syntax_of"]

#: The syntaxes whose entries are given as their events come (one event, one entry).
STREAMED: Final = frozenset(("json-ld", "microdata", "opengraph", "twitter"))
#: The syntaxes whose entries are given at the document's end (:meth:`SyntaxResults.finish`).
HELD: Final = frozenset(("rdfa", "dublincore"))

#: One entry of a syntax's results: ``(syntax, index in its list, the entry)``.
ResultEntry = tuple[str, int, Any]

# The syntax of each event class, filled on first use: the event modules (and the consumer
# packages they belong to) are imported by a run that asks for another syntax, not by every run.
_SYNTAX_OF: Final[dict[type, str]] = {}


def _syntax_map() -> dict[type, str]:
    if not _SYNTAX_OF:
        from stream_mf2.jsonld.events import JsonLdItem
        from stream_mf2.metadata.events import DublinCoreItem, OpenGraphItem, TwitterCardItem
        from stream_mf2.microdata.events import MicrodataItem
        from stream_mf2.rdfa.events import RdfaTriple

        _SYNTAX_OF.update(
            {
                JsonLdItem: "json-ld",
                MicrodataItem: "microdata",
                RdfaTriple: "rdfa",
                OpenGraphItem: "opengraph",
                TwitterCardItem: "twitter",
                DublinCoreItem: "dublincore",
            }
        )
    return _SYNTAX_OF


def syntax_of(event: object) -> str | None:
    """The syntax (other than mf2) whose consumer yields ``event``; ``None`` for any other event."""
    return _syntax_map().get(type(event))


class SyntaxResults:
    """One document's entries of the syntaxes among ``syntaxes`` other than mf2 (see the module docs).

    Give it every event of the document with :meth:`add` (it answers the entries
    final now), then call :meth:`finish` once, after the last event. It holds the
    events of the :data:`HELD` syntaxes only.
    """

    def __init__(self, syntaxes: Iterable[str]) -> None:
        wanted = frozenset(syntaxes)
        #: The syntaxes other than mf2, in registry order.
        self.names: tuple[str, ...] = tuple(n for n in SYNTAXES if n != "mf2" and n in wanted)
        self._results: dict[str, Callable[[Iterable[object]], list[Any]]] = {
            n: result_function(n) for n in self.names
        }
        self._counts: dict[str, int] = dict.fromkeys(self.names, 0)
        self._held: list[object] = []
        self._syntax_of = _syntax_map()

    def add(self, event: object) -> list[ResultEntry]:
        """The entries ``event`` makes final (none for an event of no syntax of these, or a held one)."""
        name = self._syntax_of.get(type(event))
        if name is None or name not in self._counts:
            return []
        if name in HELD:
            self._held.append(event)
            return []
        if name == "microdata":
            from stream_mf2.microdata.events import MicrodataItem  # (imported: its event came)

            assert type(event) is MicrodataItem
            # (its place is carried by the event: a page item lands before entries given already)
            index = event.index if event.index >= 0 else self._counts[name]
            self._counts[name] += 1
            return [(name, index, entry) for entry in self._results[name]([event])]
        return self._number(name, self._results[name]([event]))

    def finish(self) -> list[ResultEntry]:
        """The entries of the held syntaxes (:data:`HELD`), syntax by syntax in registry order; call
        once, at the end."""
        held, self._held = self._held, []
        out: list[ResultEntry] = []
        for name in self.names:
            if name in HELD:
                out += self._number(name, self._results[name](held))
        return out

    def _number(self, name: str, entries: list[Any]) -> list[ResultEntry]:
        start = self._counts[name]
        self._counts[name] = start + len(entries)
        return [(name, start + i, entry) for i, entry in enumerate(entries)]
