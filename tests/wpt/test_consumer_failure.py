"""A consumer's exception never ends a run (issue 25, item 6).

The loader refuses the templates that used to break the matcher (``ow:xpath="/"``), but the
model is public and a template can be built by hand: a block whose XPath has no step makes
the matcher raise ``IndexError`` on every page. That is the document's typed
:class:`~stream_mf2.errors.ConsumerError` (the original as ``__cause__``); a WARC reader
yields it as the record's error and reads the next record.
"""

from __future__ import annotations

import io

import pytest

from stream_mf2 import Parser, parse
from stream_mf2.errors import ConsumerError, ParserStateError, StreamMF2Error
from stream_mf2.warc import WarcError, WarcRecord, iter_warc
from stream_mf2.wpt import Block, Template, XPath, load
from tests.support.warc_records import response, write_record

BROKEN = Template(
    "T",
    None,
    None,
    (Block("x", None, None, XPath("/", (), absolute=True), None, False, (), 1, 1),),
    1,
    1,
    "h.example",
)
PAGE = b"<!doctype html><title>t</title><p class=h-card>Ann</p>"


def test_the_matchers_exception_is_the_documents_typed_error() -> None:
    with pytest.raises(ConsumerError) as info:
        parse(PAGE, "http://h.example/", wpt=BROKEN)
    assert isinstance(info.value, StreamMF2Error)
    assert isinstance(info.value.__cause__, IndexError)
    assert str(info.value).startswith("wpt: the template matcher failed on this document: IndexError")


def test_the_parser_refuses_more_input_after_it() -> None:
    parser = Parser("http://h.example/", wpt=BROKEN)
    with pytest.raises(ConsumerError):
        parser.feed_events(PAGE)
        parser.close_events()
    with pytest.raises(ParserStateError):
        parser.feed_events(b"more")


def test_errors_of_the_engine_are_not_relabelled() -> None:
    # A type error of the call itself stays what it is, WPT or not.
    parser = Parser(
        "http://h.example/",
        wpt=load(
            '<ow:wpt xmlns:ow="http://www.omfica.org/schemas/ow/0.9" ow:host="h.example">'
            '<ow:template ow:name="T" ow:url="http://h.example/"><ow:block ow:tagid="a"/></ow:template></ow:wpt>'
        ),
    )
    with pytest.raises(TypeError):
        parser.feed_events(42)  # type: ignore[arg-type]  # the wrong type is the point


def test_a_warc_reader_yields_each_records_error_and_reads_on() -> None:
    data = b"".join(
        write_record(response(f"http://h.example/{i}", PAGE, [("Content-Type", "text/html")]), compress=True)
        for i in range(3)
    )
    entries = list(iter_warc(io.BytesIO(data), wpt=BROKEN))
    errors = [e for e in entries if isinstance(e, WarcError)]
    assert [e.uri for e in errors] == [f"http://h.example/{i}" for i in range(3)]
    assert all("IndexError" in e.message for e in errors)
    assert len([e for e in entries if isinstance(e, WarcRecord)]) == 3
