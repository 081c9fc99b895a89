"""Drive the microdata consumer on the HTML engine as the core does, and run extruct.

:func:`microdata` feeds chunks (``str``, or ``bytes`` decoded by the engine's own
decoder) to the tokenizer, tree builder and a :class:`BoundedSink` whose keep
predicate and completion are the consumer's, and returns the items and notes.
:func:`extruct_items` is the oracle: extruct's ``MicrodataExtractor`` on the same
page.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from stream_mf2.html.bounded import BoundedSink
from stream_mf2.html.decode import Decoder
from stream_mf2.html.tokenizer import Tokenizer
from stream_mf2.html.treebuilder import TreeBuilder
from stream_mf2.microdata import MicrodataConsumer, MicrodataItem

URL = "http://example.com/dir/page.html"


class Run:
    """One document through the engine and the consumer."""

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


def microdata(chunks: Sequence[str | bytes] | str | bytes, url: str | None = URL, **limits: Any) -> Run:
    run = Run(url, **limits)
    for chunk in [chunks] if isinstance(chunks, str | bytes) else chunks:
        run.feed(chunk)
    run.close()
    return run


def items(page: str | bytes, url: str | None = URL, **limits: Any) -> list[dict[str, Any]]:
    return [e.item for e in microdata(page, url, **limits).events]


def extruct_items(page: str | bytes, url: str | None = URL) -> list[dict[str, Any]]:
    from extruct.w3cmicrodata import MicrodataExtractor

    data = page.encode() if isinstance(page, str) else page
    result: list[dict[str, Any]] = MicrodataExtractor().extract(data, base_url=url)
    return result
