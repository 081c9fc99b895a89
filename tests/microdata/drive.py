"""Run the microdata consumer, through the :class:`~stream_mf2.Parser` or on the bare engine,
and run extruct.

:func:`microdata` feeds chunks (``str``, or ``bytes``) to a ``Parser(url,
syntaxes={"microdata"}, **options)`` and collects its
:class:`~stream_mf2.microdata.MicrodataItem` events and notes. :class:`Engine`
drives the consumer on the HTML engine the way the core does (tokenizer → tree
builder → :class:`BoundedSink` with the consumer's keep predicate and
completion), for the tests that count what the consumer holds.
:func:`extruct_items` is the oracle: extruct's ``MicrodataExtractor`` on the same page.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from stream_mf2 import Parser
from stream_mf2.html.bounded import BoundedSink
from stream_mf2.html.decode import Decoder
from stream_mf2.html.tokenizer import Tokenizer
from stream_mf2.html.treebuilder import TreeBuilder
from stream_mf2.microdata import MicrodataConsumer, MicrodataItem
from stream_mf2.microdata.events import extruct_result

URL = "http://example.com/dir/page.html"


class Run:
    """One document through a :class:`Parser` with ``syntaxes={"microdata"}``."""

    def __init__(self, url: str | None = URL, **options: Any) -> None:
        options.setdefault("syntaxes", {"microdata"})
        self.parser = Parser(url, **options)
        self.events: list[MicrodataItem] = []
        self.notes: list[str] = []

    def _take(self, events: list[Any]) -> None:
        self.events.extend(e for e in events if type(e) is MicrodataItem)

    def feed(self, chunk: str | bytes) -> None:
        self._take(self.parser.feed_events(chunk))

    def close(self) -> list[dict[str, Any]]:
        self._take(self.parser.close_events())
        self.notes = self.parser.notes
        return [e.item for e in self.events]


class Engine:
    """The consumer on the bare engine, as ``core/pipeline.py`` wires it (``str`` or UTF-8 ``bytes``)."""

    def __init__(self, url: str | None = URL, **limits: Any) -> None:
        self.events: list[MicrodataItem] = []
        self.consumer = MicrodataConsumer(self.events.append, base_url=url, **limits)
        self.sink = BoundedSink(self.consumer.keep, self.consumer.complete)
        self.tokenizer = Tokenizer(TreeBuilder(self.sink))
        self.decoder: Decoder | None = None
        self.notes: list[str] = []

    def feed(self, chunk: str | bytes) -> None:
        if isinstance(chunk, bytes):
            if self.decoder is None:
                self.decoder = Decoder(None)
            self.tokenizer.feed(self.decoder.feed(chunk))
        else:
            self.tokenizer.feed(chunk)

    def close(self) -> list[dict[str, Any]]:
        if self.decoder is not None:
            self.tokenizer.feed(self.decoder.close())
        self.tokenizer.close()
        self.notes = self.consumer.finish()
        return [e.item for e in self.events]


def microdata(chunks: Sequence[str | bytes] | str | bytes, url: str | None = URL, **options: Any) -> Run:
    run = Run(url, **options)
    for chunk in [chunks] if isinstance(chunks, str | bytes) else chunks:
        run.feed(chunk)
    run.close()
    return run


def on_engine(chunks: Sequence[str | bytes] | str | bytes, url: str | None = URL, **limits: Any) -> Engine:
    run = Engine(url, **limits)
    for chunk in [chunks] if isinstance(chunks, str | bytes) else chunks:
        run.feed(chunk)
    run.close()
    return run


def items(page: str | bytes, url: str | None = URL, **options: Any) -> list[dict[str, Any]]:
    """The items in document order (the list ``parse()`` gives: a page item back in its place)."""
    return extruct_result(microdata(page, url, **options).events)


def extruct_items(page: str | bytes, url: str | None = URL) -> list[dict[str, Any]]:
    from extruct.w3cmicrodata import MicrodataExtractor

    data = page.encode() if isinstance(page, str) else page
    result: list[dict[str, Any]] = MicrodataExtractor().extract(data, base_url=url)
    return result
