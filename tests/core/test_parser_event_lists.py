"""Each ``feed_events``/``close_events`` call returns a list of its own."""

from __future__ import annotations

from stream_mf2 import Parser
from stream_mf2.events import DocumentEnd, ItemEvent


def test_an_empty_feed_result_is_not_filled_by_later_calls() -> None:
    parser = Parser("http://example.com/")
    first = parser.feed_events("<div class=h-card><span class=p-name>")
    assert first == []
    rest = parser.feed_events("Ann</span></div>")
    last = parser.close_events()
    assert first == []
    events = first + rest + last
    assert [type(e) for e in events] == [ItemEvent, DocumentEnd]


def test_every_call_returns_a_new_list() -> None:
    parser = Parser("http://example.com/")
    results = [parser.feed_events(chunk) for chunk in ("<p>", "x", "</p>")]
    results.append(parser.close_events())
    assert len({id(r) for r in results}) == len(results)
