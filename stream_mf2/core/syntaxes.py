"""The structured-data syntaxes one parse can extract, and the consumer contract they share.

``Parser(syntaxes=...)`` names the syntaxes to extract in the same streaming
pass. ``"mf2"`` is the microformats2 capture (:mod:`stream_mf2.mf2.capture`),
always built; every other name maps to a *syntax consumer*, a class in its own
package that this registry imports only when the syntax is asked for:

==============  =====================================  ===========================  ==============
name            consumer (module, class)               events                       extruct key
==============  =====================================  ===========================  ==============
``mf2``         ``mf2/capture.py`` ``Capture``         ``ItemEvent``, ...           ``microformat``
``json-ld``     ``jsonld/consumer.py``                 ``JsonLdItem``               ``json-ld``
                ``JsonLdConsumer``
``microdata``   ``microdata/consumer.py``              ``MicrodataItem``            ``microdata``
                ``MicrodataConsumer``
``rdfa``        ``rdfa/consumer.py`` ``RdfaConsumer``  ``RdfaTriple``               ``rdfa``
``opengraph``   ``metadata/consumer.py``               ``OpenGraphItem``            ``opengraph``
                ``OpenGraphConsumer``
``twitter``     ``metadata/consumer.py``               ``TwitterCardItem``          (none)
                ``TwitterConsumer``
``dublincore``  ``metadata/consumer.py``               ``DublinCoreItem``           ``dublincore``
                ``DublinCoreConsumer``
==============  =====================================  ===========================  ==============

The consumer contract (:class:`SyntaxConsumer`): a consumer is made once per
document as ``Consumer(emit, *, base_url, **limits)`` (``emit`` puts an event
in the parser's outbox; ``base_url`` is the document URL; ``limits`` are the
parse options its :class:`SyntaxEntry` lists, passed only when given), and has

* ``keep(element) -> bool``: asked for each element the tree builder creates
  (before it is placed: ``element.parent`` is not set yet), in document order
  (an ``html``/``body`` may be asked again after a later tag merged attributes
  into it): should it start a kept subtree for this consumer? Every consumer is
  asked (some only observe); the element is kept if any says so. A consumer
  must not keep a reference to an element it answers ``False`` for;
* ``complete(element) -> bool``: an outermost kept subtree (kept for *any*
  consumer) is final. The consumer finds its own parts in it (there may be
  none), emits their events, and answers whether it is done with the subtree
  (``False`` while it holds a reference into it);
* ``observer``: ``None``, or a :class:`~stream_mf2.html.bounded.PlacementObserver`
  told where each element is placed and when it pops, in document order (the
  parser then builds an ``ObservedSink`` and fans the calls out to every
  observer, :class:`~stream_mf2.core.fanout.ObserverFanOut`);
* ``finish() -> list[str]``: the document ended; emit what is still held, and
  return the notes (recoveries that changed the output) for
  :attr:`stream_mf2.Parser.notes` and :attr:`stream_mf2.DocumentEnd.notes`.

Optional: ``text_budget``, a :class:`~stream_mf2.core.budget.TextBudget` for a
consumer that keeps elements for their text and bounds it (the JSON-LD
consumer): the sink then stores no more text in those elements than it admits.
At most one consumer gives one.

A package also gives, in its ``events`` module (RDFa: ``jsonld``), a function that turns the
events of one document into extruct's result list for its key (the
:class:`SyntaxEntry` ``result`` field names it): :func:`stream_mf2.extract`
and :mod:`stream_mf2.extruct` call it.

A name that is not in the registry raises :class:`~stream_mf2.errors.UnknownSyntax`;
a known one whose package is missing from this installation
:class:`~stream_mf2.errors.SyntaxUnavailable`, both when the parser is made.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Protocol

from stream_mf2.errors import SyntaxUnavailable, UnknownSyntax

if TYPE_CHECKING:
    from stream_mf2.html.bounded.observed import PlacementObserver
    from stream_mf2.html.dom import Element

__all__ = [
    "DEFAULT_SYNTAXES",
    "SYNTAXES",
    "SyntaxConsumer",
    "SyntaxEntry",
    "consumer_factory",
    "entry",
    "resolve_syntaxes",
    "result_function",
]


class SyntaxConsumer(Protocol):
    """What the pipeline asks of a syntax consumer (the module docstring has the contract)."""

    @property
    def observer(self) -> PlacementObserver | None:
        """``None``, or the placement observer of a consumer that needs opening and popping order."""
        ...

    def keep(self, element: Element) -> bool:
        """Should ``element`` (new, not yet placed) start a kept subtree for this consumer?"""
        ...

    def complete(self, element: Element) -> bool:
        """An outermost kept subtree is final: emit this consumer's events found in it."""
        ...

    def finish(self) -> list[str]:
        """The document ended: emit what is held; return the notes."""
        ...


#: What makes a consumer: ``factory(emit, base_url=..., **limits)``.
ConsumerFactory = Callable[..., SyntaxConsumer]


@dataclass(frozen=True, slots=True)
class SyntaxEntry:
    """One syntax of the registry."""

    #: The name in ``syntaxes=``.
    name: str
    #: The module of the consumer class, and the class name (empty for ``mf2``: the capture).
    module: str
    cls: str
    #: The parse options (:class:`~stream_mf2.ParseOptions` keywords) passed to the consumer.
    limits: tuple[str, ...]
    #: extruct's key for this syntax's results (``None``: extruct has none).
    extruct_key: str | None
    #: The module and function turning a document's events into extruct's result list
    #: (empty for ``mf2``: :func:`stream_mf2.extract` takes the items of the parse).
    result: tuple[str, str]


_ENTRIES: Final = (
    SyntaxEntry("mf2", "", "", (), "microformat", ("", "")),
    SyntaxEntry(
        "json-ld",
        "stream_mf2.jsonld.consumer",
        "JsonLdConsumer",
        ("max_jsonld_chars",),
        "json-ld",
        ("stream_mf2.jsonld.events", "extruct_result"),
    ),
    SyntaxEntry(
        "microdata",
        "stream_mf2.microdata.consumer",
        "MicrodataConsumer",
        (
            "microdata_form",
            "max_microdata_held_items",
            "max_microdata_held_nodes",
            "max_itemref_ids",
            "max_microdata_values",
            "max_microdata_work_ratio",
            "max_microdata_recent_nodes",
        ),
        "microdata",
        ("stream_mf2.microdata.events", "extruct_result"),
    ),
    SyntaxEntry(
        "rdfa",
        "stream_mf2.rdfa.consumer",
        "RdfaConsumer",
        ("max_rdfa_list_items",),
        "rdfa",
        ("stream_mf2.rdfa.jsonld", "extruct_result"),
    ),
    SyntaxEntry(
        "opengraph",
        "stream_mf2.metadata.consumer",
        "OpenGraphConsumer",
        (),
        "opengraph",
        ("stream_mf2.metadata.events", "opengraph_result"),
    ),
    SyntaxEntry(
        "twitter",
        "stream_mf2.metadata.consumer",
        "TwitterConsumer",
        (),
        None,
        ("stream_mf2.metadata.events", "twitter_result"),
    ),
    SyntaxEntry(
        "dublincore",
        "stream_mf2.metadata.consumer",
        "DublinCoreConsumer",
        (),
        "dublincore",
        ("stream_mf2.metadata.events", "dublincore_result"),
    ),
)
_BY_NAME: Final[dict[str, SyntaxEntry]] = {e.name: e for e in _ENTRIES}

#: Every syntax name, in the order the parser asks their consumers (``mf2`` first).
SYNTAXES: Final[tuple[str, ...]] = tuple(e.name for e in _ENTRIES)
#: The default of ``syntaxes=``: microformats2 alone, today's pipeline exactly.
DEFAULT_SYNTAXES: Final[frozenset[str]] = frozenset(("mf2",))


def entry(name: str) -> SyntaxEntry:
    """The registry entry of ``name``; :class:`~stream_mf2.errors.UnknownSyntax` if there is none."""
    found = _BY_NAME.get(name)
    if found is None:
        raise UnknownSyntax(
            f"unknown syntax {name!r}; the syntaxes are: {', '.join(SYNTAXES)}",
            syntax=name,
        )
    return found


def resolve_syntaxes(value: object) -> frozenset[str]:
    """``syntaxes=`` as a frozenset of known names, every consumer package importable.

    ``value`` is an iterable of names (a set, a list, a tuple); a single ``str`` is a
    :class:`TypeError` (it would be read letter by letter). Raises
    :class:`~stream_mf2.errors.UnknownSyntax` or :class:`~stream_mf2.errors.SyntaxUnavailable`.
    """
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise TypeError(f"syntaxes must be a set (or another iterable) of syntax names, not {value!r}")
    names: set[str] = set()
    for name in value:
        if not isinstance(name, str):
            raise TypeError(f"syntaxes must hold syntax names (str), not {name!r}")
        entry(name)
        names.add(name)
    for name in names:
        if name != "mf2":
            consumer_factory(name)
    return frozenset(names)


def _import(module: str, name: str) -> Any:
    try:
        loaded = importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name is not None and module.startswith(e.name):
            raise SyntaxUnavailable(
                f"the syntax {name!r} needs the module {module}, which is not part of this installation",
                syntax=name,
            ) from e
        raise
    return loaded


def consumer_factory(name: str) -> ConsumerFactory:
    """The consumer class of the syntax ``name`` (not ``mf2``), imported on first use."""
    found = entry(name)
    module = _import(found.module, name)
    factory = getattr(module, found.cls, None)
    if factory is None:
        raise SyntaxUnavailable(f"the syntax {name!r}: {found.module} has no {found.cls}", syntax=name)
    result: ConsumerFactory = factory
    return result


def result_function(name: str) -> Callable[[Iterable[object]], list[Any]]:
    """The function turning a document's events into extruct's result list for ``name`` (not ``mf2``)."""
    found = entry(name)
    module_name, function = found.result
    module = _import(module_name, name)
    fn = getattr(module, function, None)
    if fn is None:
        raise SyntaxUnavailable(f"the syntax {name!r}: {module_name} has no {function}", syntax=name)
    result: Callable[[Iterable[object]], list[Any]] = fn
    return result
