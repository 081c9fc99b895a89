"""The stages of one parse, built in one place, bottom-up, from one :class:`~stream_mf2.core.options.ParserConfig`.

    tokenizer → tree builder → bounded sink → capture (→ mf2)   [+ WPT consumer] [+ syntax consumers]

Each stage is made with the stages it calls, so :func:`build_pipeline` makes
them from the last to the first: the capture, the WPT consumer and the
:class:`~stream_mf2.core.fanout.FanOut` (with a template), the bounded sink,
the tree builder, the tokenizer. Every callback goes in through a constructor.

Two kinds of link point the other way, each a true two-way dependency:

* A stage made with an earlier one introduces itself to it, in its own
  constructor: the tree builder to its sink (which reads the frameset-ok
  flag), the tokenizer to the tree builder (which switches the tokenizer's
  state for raw text) and, through it, to the sink (which reads the markup
  positions for source spans).
* The capture asks the tree builder whether a ``template`` is open and the
  sink how often nodes have moved, but both are made after it, with its
  callbacks, and hold only those. So a small :class:`_TreeLink` is made
  first: the capture is given its two queries, and the link is given the
  sink and the tree builder as they are made.

With ``syntaxes`` other than ``{"mf2"}`` the consumers of those syntaxes
(:mod:`stream_mf2.core.syntaxes`) are made too, and joined to the sink through
the fan-outs of :mod:`stream_mf2.core.fanout`: every keep predicate is asked,
every completed subtree goes to every consumer, every placement observer is
told. The default (``{"mf2"}``, no template) builds exactly the plain pipeline:
the capture's own methods on a :class:`~stream_mf2.html.bounded.BoundedSink`.

The :class:`~stream_mf2.Parser` calls :func:`build_pipeline` once per document,
and again for a re-parse (a late ``<meta charset>``) with the same config.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from stream_mf2.core.options import ParserConfig
from stream_mf2.html.bounded import BoundedSink
from stream_mf2.html.dom import Element
from stream_mf2.html.tokenizer import Tokenizer
from stream_mf2.html.treebuilder import TreeBuilder
from stream_mf2.mf2 import Mf2Context
from stream_mf2.mf2.capture import Capture

if TYPE_CHECKING:
    from stream_mf2.core.budget import TextBudget
    from stream_mf2.core.events import Event
    from stream_mf2.core.syntaxes import SyntaxConsumer
    from stream_mf2.html.bounded.observed import PlacementObserver
    from stream_mf2.wpt import WptConsumer

__all__ = ["Pipeline", "build_pipeline"]

# What Capture.keep may keep among elements without attributes (BoundedSink's bare_keeps):
# only <head>, with metaformats. Its first test answers any other such element False and
# observes nothing there; keep the two in step (tests/core/test_bare_keeps.py checks it).
_HEAD: Final = frozenset(("head",))
_NONE: Final[frozenset[str]] = frozenset()


class _TreeLink:
    """The capture's two questions about the tree, answered by stages made after it.

    The bounded sink is made with the capture's callbacks and the tree builder with
    the sink, so neither exists when the capture is made: this link does, and is
    given them once they are (by :func:`build_pipeline`, nowhere else). Asked only
    while the document is parsed, when both are set.
    """

    __slots__ = ("sink", "tree")

    def __init__(self) -> None:
        self.sink: BoundedSink | None = None
        self.tree: TreeBuilder | None = None

    def template_open(self) -> bool:
        """Is an HTML ``template`` open (the tree builder)?"""
        tree = self.tree
        return tree is not None and tree.in_template()

    def tree_version(self) -> int:
        """How many times the tree builder has moved an existing node (the sink)."""
        sink = self.sink
        return sink.moves() if sink is not None else 0


class Pipeline:
    """The stages of one document, as :func:`build_pipeline` made them."""

    __slots__ = ("capture", "consumers", "ctx", "out", "sink", "tokenizer", "tree", "wpt", "wpt_events", "wpt_notes")

    def __init__(
        self,
        ctx: Mf2Context,
        out: list[Event],
        capture: Capture,
        sink: BoundedSink,
        tree: TreeBuilder,
        tokenizer: Tokenizer,
        wpt: WptConsumer | None,
        wpt_events: list[Event],
        wpt_notes: list[str],
        consumers: tuple[SyntaxConsumer, ...] = (),
    ) -> None:
        self.ctx = ctx
        #: The outbox: every consumer's events, in the order they complete.
        self.out = out
        self.capture = capture
        self.sink = sink
        self.tree = tree
        self.tokenizer = tokenizer
        self.wpt = wpt
        #: The WPT consumer's page-source pattern matches, then its page ends (held apart: see Parser._take).
        self.wpt_events = wpt_events
        #: Notes about the templates the WPT applies to this page.
        self.wpt_notes = wpt_notes
        #: The consumers of the syntaxes other than mf2, in registry order.
        self.consumers = consumers


def build_pipeline(
    config: ParserConfig,
    url: str | None,
    on_meta_encoding: Callable[[str], None],
    *,
    count_raw: bool,
) -> Pipeline:
    """Make the stages after the decoder for a document at ``url``, bottom-up.

    ``on_meta_encoding`` is the tree builder's hook for a ``<meta>`` that declares
    an encoding; ``count_raw`` the tokenizer's (a change of encoding is possible).
    """
    ctx = Mf2Context(url, config.mf2)
    out: list[Event] = []
    stream = config.stream_children
    # Made first (see the module docstring): the capture's queries of later stages.
    link = _TreeLink()
    capture = Capture(
        ctx,
        out.append,
        max_held_items=config.max_held_items,
        stream_children=stream,
        max_held_children=config.max_held_children,
        tree_version=link.tree_version if stream else None,
        template_open=link.template_open,
    )
    wpt: WptConsumer | None = None
    wpt_events: list[Event] = []
    wpt_notes: list[str] = []
    sink: BoundedSink
    if config.wpt is None and not config.consumers and config.mf2_items:
        # The default: the capture alone, its own methods on the plain sink (no fan-out).
        sink = BoundedSink(
            capture.keep,
            capture.complete,
            max_kept_nodes=config.max_kept_nodes,
            max_prefix_nodes=config.max_prefix_nodes,
            max_pending=config.max_pending_items,
            on_nested=capture.nested if stream else None,
            watch_nested=capture.watch_nested if stream else None,
            bare_keeps=_HEAD if config.mf2.metaformats else _NONE,
        )
        consumers: tuple[SyntaxConsumer, ...] = ()
    else:
        sink, wpt, wpt_events, wpt_notes, consumers = _fanned_sink(config, url, out, capture)
    link.sink = sink
    # (introduces itself to the sink: attach_tree_builder)
    tree = TreeBuilder(
        sink,
        max_depth=config.max_depth,
        max_formatting_elements=config.max_formatting_elements,
        meta_encoding_hook=on_meta_encoding,
    )
    link.tree = tree
    # (introduces itself to the tree builder, and through it to the sink: attach_tokenizer)
    tokenizer = Tokenizer(
        tree,
        collect_errors=config.collect_parse_errors,
        max_token_chars=config.max_token_chars,
        fast_path=config.tokenizer_fast_path,
        count_raw=count_raw,
    )
    return Pipeline(ctx, out, capture, sink, tree, tokenizer, wpt, wpt_events, wpt_notes, consumers)


def _fanned_sink(
    config: ParserConfig, url: str | None, out: list[Event], capture: Capture
) -> tuple[BoundedSink, WptConsumer | None, list[Event], list[str], tuple[SyntaxConsumer, ...]]:
    """The sink of several consumers: the capture (unless ``mf2`` is left out), the WPT
    consumer (with a template), the other syntaxes' consumers; the fan-outs between them."""
    from stream_mf2.core.budget import BudgetedObservedSink, BudgetedSink
    from stream_mf2.core.fanout import FanOut, KeepFanOut, ObserverFanOut, keep_nothing
    from stream_mf2.core.syntaxes import consumer_factory

    mf2 = config.mf2_items
    stream = bool(config.stream_children) and mf2
    wpt: WptConsumer | None = None
    wpt_events: list[Event] = []
    wpt_notes: list[str] = []
    if config.wpt is not None:
        # The WPT consumer beside the capture, on a sink that reports placements (see
        # stream_mf2.wpt); the WPT modules are imported only by those who use them.
        from stream_mf2.wpt import WptConsumer
        from stream_mf2.wpt.apply import pages_for

        pages, wpt_notes = pages_for(config.wpt, url)
        # Element matches are token-positioned like items: they join the capture's events.
        wpt = WptConsumer(
            pages,
            out.append,
            wpt_events.append,
            max_pattern_chars=config.max_pattern_chars,
            max_misnest_nodes=config.max_misnest_nodes,
        )
    limits = dict(config.syntax_limits)
    consumers = tuple(
        consumer_factory(name)(out.append, base_url=url, **_limits_of(name, limits)) for name in config.consumers
    )
    keeps: list[Callable[[Element], bool]] = [capture.keep] if mf2 else []
    keeps += [c.keep for c in consumers]
    keep = keeps[0] if len(keeps) == 1 else KeepFanOut(keeps).keep if keeps else keep_nothing
    # Every consumer but the capture sees what the capture's nested hand-over releases.
    released: list[Callable[[Element], bool | None]] = [wpt.complete] if wpt is not None else []
    released += [c.complete for c in consumers]
    completes: list[Callable[[Element], bool | None]] = [capture.complete] if mf2 else []
    completes += released
    if mf2 and released:
        # The capture is handed the subtrees the others keep too: it passes over those
        # that hold nothing it kept (Capture.share_tree).
        capture.share_tree()
    if len(completes) == 1 and not stream:
        on_complete = completes[0]
        on_nested = None
    else:
        fan = FanOut(completes, capture.nested if stream else None, released, held_back=capture.held_back)
        on_complete = fan.complete
        on_nested = fan.nested if stream else None
    observers: list[PlacementObserver] = [wpt] if wpt is not None else []
    observers += [c.observer for c in consumers if c.observer is not None]
    budget = _text_budget(consumers)
    watch_nested = capture.watch_nested if stream else None
    # The capture alone asks the keep question (or nothing does, with mf2 left out): the plain
    # sink's rule holds, and an element without attributes is not asked about, except head for
    # metaformats. The other syntaxes' predicates are asked about every element.
    bare = None if consumers else _HEAD if mf2 and config.mf2.metaformats else _NONE
    sink: BoundedSink
    if not observers:
        if budget is None:
            sink = BoundedSink(
                keep,
                on_complete,
                max_kept_nodes=config.max_kept_nodes,
                max_prefix_nodes=config.max_prefix_nodes,
                max_pending=config.max_pending_items,
                on_nested=on_nested,
                watch_nested=watch_nested,
                bare_keeps=bare,
            )
        else:
            sink = BudgetedSink(
                keep,
                on_complete,
                max_kept_nodes=config.max_kept_nodes,
                max_prefix_nodes=config.max_prefix_nodes,
                max_pending=config.max_pending_items,
                on_nested=on_nested,
                watch_nested=watch_nested,
                text_budget=budget,
            )
        return sink, wpt, wpt_events, wpt_notes, consumers
    from stream_mf2.html.bounded.observed import ObservedSink

    observer = observers[0] if len(observers) == 1 else ObserverFanOut(observers)
    if budget is None:
        sink = ObservedSink(
            keep,
            on_complete,
            observer,
            max_kept_nodes=config.max_kept_nodes,
            max_prefix_nodes=config.max_prefix_nodes,
            max_pending=config.max_pending_items,
            on_nested=on_nested,
            watch_nested=watch_nested,
            bare_keeps=bare,
        )
    else:
        sink = BudgetedObservedSink(
            keep,
            on_complete,
            observer,
            max_kept_nodes=config.max_kept_nodes,
            max_prefix_nodes=config.max_prefix_nodes,
            max_pending=config.max_pending_items,
            on_nested=on_nested,
            watch_nested=watch_nested,
            text_budget=budget,
        )
    if wpt is not None and observer is wpt and on_nested is None:
        # The WPT consumer alone decides what it keeps: it may hold what misnested formatting
        # tags can still move, and withdraw it past its budget (stream_mf2/wpt/_misnest.py).
        wpt.attach_holding(sink.withdraw, sink.keep_holding)
    return sink, wpt, wpt_events, wpt_notes, consumers


def _text_budget(consumers: tuple[SyntaxConsumer, ...]) -> TextBudget | None:
    """The text budget of the one consumer that gives one (``text_budget``), if any."""
    found: TextBudget | None = None
    for consumer in consumers:
        budget: TextBudget | None = getattr(consumer, "text_budget", None)
        if budget is not None:
            if found is not None:
                raise ValueError("only one syntax consumer may give a text budget")
            found = budget
    return found


def _limits_of(name: str, given: dict[str, int | str]) -> dict[str, int | str]:
    """The limits given for the syntax ``name``'s consumer (the others keep their defaults)."""
    from stream_mf2.core.syntaxes import entry

    return {option: given[option] for option in entry(name).limits if option in given}
