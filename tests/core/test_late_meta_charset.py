"""A ``<meta>`` charset declaration after the 1024-byte prescan window.

The tree builder meets it and the parser *changes the encoding* (HTML 13.2.3.4):
the decoder switches when every character before the end of the ``<meta>`` tag is
ASCII, and the bytes after the tag are decoded again with the new encoding. Every
test runs in every chunking of :mod:`tests.support.chunking`: the outcome must not depend on
where the input is split (CR LF pairs, the tag itself, multi-byte characters).

The first tests check the tokenizer API this rests on: stopping right after a
token, dropping the unconsumed input, and counting consumed characters before
CR LF normalisation.

When non-ASCII comes before the ``<meta>`` the spec parses the document again from
the start with the new encoding. The parser does so while it has produced no event
and the tag ends within ``max_reparse_bytes``; otherwise it keeps the encoding with a
note. Those conditions are positions in the stream, tested here in every chunking.
"""

from __future__ import annotations

from typing import Any

import pytest

import stream_mf2
from stream_mf2.html.testing.tokens import TokenListSink, tokenize_for_test
from stream_mf2.html.tokenizer import Tokenizer
from tests.support.chunking import chunkings

# --------------------------------------------------------------------------- tokenizer API


class _StopSink(TokenListSink):
    """Records tokens and suspends the tokenizer after each ``<stop>`` start tag."""

    def __init__(self) -> None:
        super().__init__()
        self.tokenizer: Tokenizer | None = None

    def start_tag(self, name: str, attrs: dict[str, str], self_closing: bool) -> None:
        super().start_tag(name, attrs, self_closing)
        if name == "stop":
            assert self.tokenizer is not None
            self.tokenizer.suspend()


def _tokenize_with_restart(chunks: list[str], fast_path: bool) -> tuple[list[list[Any]], list[Any], list[int]]:
    """Tokenize, and at each ``<stop>`` drop the unconsumed input and feed the raw rest again.

    That is what the parser does on an encoding switch (with the same text here).
    Returns the tokens, the errors and ``raw_consumed`` at each stop.
    """
    sink = _StopSink()
    tok = Tokenizer(sink, collect_errors=True, fast_path=fast_path, count_raw=True)
    sink.tokenizer = tok
    raw = ""
    stops: list[int] = []
    for chunk in chunks:
        raw += chunk
        tok.feed(chunk)
        while tok.suspended:
            at = tok.raw_consumed
            stops.append(at)
            tok.discard_unconsumed()
            if raw[at:]:
                tok.feed(raw[at:])
    tok.close()
    return sink.tokens, tok.errors, stops


RAW_INPUTS = {
    "crlf": "a\r\nb\r\r\n\x01<p>\r\n<stop a='1'\r\nb>\r\n\x02c\r\r\n&amp;<q>\x00\r",
    "cr-before-and-after": "x\r<stop>\r\ny\r",
    "long-tag": "a\r\n<stop x='" + "y\r\n" * 800 + "'>\r\n&notit;z<stop>\r",
    "two-stops": "<stop>\n\r\n<stop>\r<i>",
}


@pytest.mark.parametrize("fast_path", [True, False], ids=["fast", "states"])
@pytest.mark.parametrize("name", list(RAW_INPUTS))
def test_tokenizer_stop_and_restart_is_transparent(name: str, fast_path: bool) -> None:
    raw = RAW_INPUTS[name]
    want_tokens, want_errors = tokenize_for_test([raw])
    want_stops = []
    pos = 0
    while (i := raw.find("<stop", pos)) >= 0:
        pos = raw.index(">", i) + 1
        want_stops.append(pos)
    for label, chunks in chunkings(raw, splits=len(raw) < 200):
        tokens, errors, stops = _tokenize_with_restart(chunks, fast_path)
        assert stops == want_stops, label
        assert tokens == want_tokens, label
        assert [{"code": c, "line": ln, "col": col} for c, ln, col in errors] == want_errors, label


def test_tokenizer_refuses_feed_while_suspended() -> None:
    sink = _StopSink()
    tok = Tokenizer(sink)
    sink.tokenizer = tok
    tok.feed("<stop>rest")
    assert tok.suspended and tok.pending_chars == 4
    with pytest.raises(stream_mf2.ParserStateError):
        tok.feed("x")
    tok.resume()
    assert not tok.suspended
    tok.close()
    assert sink.tokens == [["StartTag", "stop", {}], ["Character", "rest"]]


# --------------------------------------------------------------------------- the parser

NAME = "山田太郎"
FILLER = b"<!--" + b"filler " * 300 + b"-->"  # past the 1024-byte prescan window


def _doc(
    meta: bytes,
    *,
    head: bytes = b"",
    body_before: bytes = b"",
    after_meta: bytes = b"",
    codec: str = "shift_jis",
) -> bytes:
    """A document with ``meta`` past the prescan window and an h-card whose name
    (:data:`NAME`, a CR LF after its second character) is encoded with ``codec``."""
    return (
        b"<!doctype html><html><head><title>late meta</title>"
        + head
        + FILLER
        + b"\r\n"
        + meta
        + after_meta
        + b"\r\n</head><body>"
        + body_before
        + b'<div class="h-card"><p class="p-name">'
        + NAME[:2].encode(codec)
        + b"\r\n"
        + NAME[2:].encode(codec)
        + b"</p></div></body></html>"
    )


def _outcomes(doc: bytes, *, splits: bool = True, **options: Any) -> set[tuple[Any, ...]]:
    """The distinct (encoding, confidence, names, errors) over every chunking."""
    seen: set[tuple[Any, ...]] = set()
    for _label, chunks in chunkings(doc, splits=splits):
        parser = stream_mf2.Parser(**options)
        items = []
        for chunk in chunks:
            items.extend(parser.feed(chunk))
        items.extend(parser.close())
        names = tuple(n for item in items for n in item["properties"].get("name", []))
        seen.add((parser.encoding, parser.encoding_confidence, names, tuple(parser.errors)))
    return seen


WANT_SJIS = {("Shift_JIS", "certain", (NAME[:2] + "\n" + NAME[2:],), ())}


def test_late_meta_charset_switches_in_every_chunking() -> None:
    doc = _doc(b"<meta charset=shift_jis>")
    assert doc.index(b"<meta") > 1024
    assert _outcomes(doc) == WANT_SJIS


def test_late_meta_http_equiv_switches() -> None:
    doc = _doc(b'<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">')
    assert _outcomes(doc) == WANT_SJIS


def test_invalid_charset_falls_back_to_http_equiv() -> None:
    doc = _doc(b'<meta charset=bogus http-equiv=content-type content="text/html;charset=sjis">')
    assert _outcomes(doc) == WANT_SJIS


def test_late_meta_tag_longer_than_the_lookahead() -> None:
    # A tag over 2,048 characters is not held back whole at a chunk end: it goes
    # through the tokenizer states, CR LF pairs inside it included.
    doc = _doc(b'<meta charset=shift_jis data-x="' + b"ab\r\n" * 700 + b'">', after_meta=b"\r")
    assert _outcomes(doc, splits=False) == WANT_SJIS
    # The 2-way splits around the tag's end, where the switch happens.
    end = doc.index(b'">') + 2
    for i in range(end - 8, end + 8):
        parser = stream_mf2.Parser()
        items = parser.feed(doc[:i]) + parser.feed(doc[i:]) + parser.close()
        assert parser.encoding == "Shift_JIS", i
        assert items[0]["properties"]["name"] == [NAME[:2] + "\n" + NAME[2:]], i


def test_non_ascii_right_after_the_meta_is_redecoded() -> None:
    # The old decoder (windows-1252) has already converted these bytes when the tag
    # ends in the same chunk; they must be decoded again as Shift_JIS.
    doc = _doc(b"<meta charset=shift_jis>", after_meta=b"<title>" + NAME.encode("shift_jis") + b"</title>")
    assert _outcomes(doc, metaformats=True) == WANT_SJIS
    parser = stream_mf2.Parser(metaformats=True)
    parser.feed(doc)
    parser.close()
    assert parser.meta_item is not None
    assert parser.meta_item["properties"]["name"] == ["late meta", NAME]


def test_parse_errors_after_a_switch_do_not_depend_on_chunking() -> None:
    # Parse errors and their line/column positions, from text that the old decoder
    # had already converted and the tokenizer had not yet consumed.
    doc = _doc(b"<meta charset=shift_jis>", after_meta=b"\r\n\x01</p>\r\x00<p =x>\r\n")
    outcomes = _outcomes(doc, collect_parse_errors=True)
    assert len(outcomes) == 1
    ((encoding, _confidence, names, errors),) = outcomes
    assert (encoding, names) == ("Shift_JIS", (NAME[:2] + "\n" + NAME[2:],))
    # Oracle: the same document as text, decoded with the right encoding up front.
    oracle = stream_mf2.Parser(collect_parse_errors=True)
    oracle.feed(doc.decode("shift_jis"))
    oracle.close()
    assert errors == tuple(oracle.errors)
    assert any("control-character-in-input-stream" in e for e in errors)


def test_late_meta_naming_the_current_encoding() -> None:
    doc = _doc(b"<meta charset=latin1>")  # windows-1252, the default
    name = (
        NAME[:2].encode("shift_jis").decode("windows-1252") + "\n" + NAME[2:].encode("shift_jis").decode("windows-1252")
    )
    assert _outcomes(doc) == {("windows-1252", "certain", (name,), ())}


def test_late_meta_after_non_ascii_reparses() -> None:
    doc = _doc(b"<meta charset=shift_jis>", head=b"<title>caf\xe9</title>")
    outcomes = _outcomes(doc)
    assert len(outcomes) == 1
    ((encoding, confidence, names, errors),) = outcomes
    assert (encoding, confidence, names) == ("Shift_JIS", "certain", (NAME[:2] + "\n" + NAME[2:],))
    assert len(errors) == 1 and "Shift_JIS" in errors[0] and "parsed again" in errors[0]


def test_late_meta_after_non_ascii_keeps_the_encoding_with_a_note() -> None:
    # Re-parsing off: the encoding in use is kept, certain.
    doc = _doc(b"<meta charset=shift_jis>", head=b"<title>caf\xe9</title>")
    outcomes = _outcomes(doc, max_reparse_bytes=0)
    assert len(outcomes) == 1
    ((encoding, confidence, names, errors),) = outcomes
    assert (encoding, confidence) == ("windows-1252", "certain")
    sjis = NAME.encode("shift_jis")
    assert names == (sjis[:4].decode("windows-1252") + "\n" + sjis[4:].decode("windows-1252"),)
    assert len(errors) == 1 and "Shift_JIS" in errors[0] and "re-parse" in errors[0]
    assert "max_reparse_bytes=0" in errors[0]


def test_meta_in_body_uses_the_in_head_rules() -> None:
    doc = _doc(b"", body_before=b"<p>intro</p><meta charset=shift_jis>")
    assert _outcomes(doc) == WANT_SJIS


def test_meta_in_template_counts() -> None:
    # "in template" processes <meta> with the "in head" rules, encoding steps included.
    doc = _doc(b"<template><meta charset=shift_jis></template>")
    assert _outcomes(doc) == WANT_SJIS


def test_meta_in_foreign_content_breaks_out_and_counts() -> None:
    # "meta" is one of the start tags that end foreign content: it becomes an HTML
    # element handled by the "in body" (so "in head") rules.
    doc = _doc(b"", body_before=b"<svg><g><meta charset=shift_jis></g></svg>")
    assert _outcomes(doc) == WANT_SJIS


def test_meta_that_is_not_a_tag_does_not_count() -> None:
    for wrapper in (b"<textarea>%s</textarea>", b"<!-- %s -->", b"<script>'%s'</script>", b"<svg><![CDATA[%s]]></svg>"):
        doc = _doc(b"", body_before=wrapper % b"<meta charset=shift_jis>")
        ((encoding, confidence, _names, errors),) = _outcomes(doc, splits=False)
        assert (encoding, confidence, errors) == ("windows-1252", "tentative", ()), wrapper


def test_meta_ignored_in_frameset() -> None:
    doc = FILLER + b"<frameset><meta charset=shift_jis></frameset>"
    ((encoding, confidence, _names, _errors),) = _outcomes(doc, splits=False)
    assert (encoding, confidence) == ("windows-1252", "tentative")


def test_only_the_first_late_meta_counts() -> None:
    doc = _doc(b"<meta charset=shift_jis><meta charset=koi8-r>")
    assert _outcomes(doc) == WANT_SJIS


def test_certain_encoding_ignores_late_meta() -> None:
    doc = _doc(b"<meta charset=shift_jis>")
    ((encoding, confidence, _names, errors),) = _outcomes(doc, splits=False, encoding="euc-jp")
    assert (encoding, confidence, errors) == ("EUC-JP", "certain", ())
    doc = _doc(b"<meta charset=shift_jis>", codec="euc-jp")
    assert _outcomes(doc, splits=False, encoding="euc-jp") == {("EUC-JP", "certain", (NAME[:2] + "\n" + NAME[2:],), ())}


def test_late_meta_to_a_non_ascii_compatible_encoding_reparses() -> None:
    # ASCII before the tag does not mean the same in the replacement encoding, so the
    # switch needs a re-parse; the whole document then decodes to one U+FFFD.
    doc = _doc(b"<meta charset=iso-2022-kr>")  # the replacement encoding
    ((encoding, confidence, names, errors),) = _outcomes(doc, splits=False)
    assert (encoding, confidence, names) == ("replacement", "certain", ())
    assert len(errors) == 1 and "replacement" in errors[0] and "parsed again" in errors[0]


def test_late_meta_to_a_non_ascii_compatible_encoding_is_refused() -> None:
    doc = _doc(b"<meta charset=iso-2022-kr>")  # the replacement encoding
    ((encoding, confidence, _names, errors),) = _outcomes(doc, splits=False, max_reparse_bytes=0)
    assert (encoding, confidence) == ("windows-1252", "certain")
    assert len(errors) == 1 and "replacement" in errors[0]


def test_utf16_meta_label_becomes_utf8() -> None:
    doc = _doc(b"<meta charset=utf-16>", codec="utf-8")
    assert _outcomes(doc, detect_utf8=False) == {("UTF-8", "certain", (NAME[:2] + "\n" + NAME[2:],), ())}


def test_str_input_has_no_encoding_steps() -> None:
    text = _doc(b"<meta charset=shift_jis>").decode("latin-1")
    parser = stream_mf2.Parser()
    parser.feed(text)
    parser.close()
    assert (parser.encoding, parser.encoding_confidence, parser.errors) == (None, None, [])


def test_kept_bytes_are_bounded() -> None:
    # While a switch is still possible the decoder keeps only what the tokenizer has
    # not consumed yet; after non-ASCII text it keeps nothing.
    parser = stream_mf2.Parser(max_reparse_bytes=0)
    parser.feed(FILLER)
    for _ in range(100):
        parser.feed(b"<p>" + b"ascii text " * 100 + b"</p>\r\n")
        assert len(parser._decoder._kept or b"") <= 2 * 2048 + 16
    parser.feed(b"<p>caf\xe9</p>")
    assert not parser._decoder.keeping
    assert not parser._tokenizer.count_raw
    parser.close()


# --------------------------------------------------------------------------- re-parsing

SJIS_NAME = (NAME[:2] + "\n" + NAME[2:],)
CAFE = b"<title>caf\xe9</title>"  # non-ASCII before the late <meta>


def _result(parser: stream_mf2.Parser, chunks: list[bytes]) -> tuple[Any, ...]:
    """Everything a caller sees: the items of each feed(), then close(), rels and state."""
    per_feed = [parser.feed(chunk) for chunk in chunks]
    items = [item for got in per_feed for item in got] + parser.close()
    return (items, parser.rels, parser.rel_urls, parser.encoding, parser.encoding_confidence, parser.errors)


def test_reparse_gives_what_the_declared_encoding_gives_from_the_start() -> None:
    # Items, rels, parse errors and their positions: all as if the document had been
    # labelled Shift_JIS by the transport layer, plus the note of the re-parse.
    doc = _doc(
        b"<meta charset=shift_jis>",
        head=CAFE + b'<link rel="me" href="/caf\xe9">',
        after_meta=b"\r\n\x01</p>\r\x00",
        body_before=b'<a rel="tag" href="/t">t</a>',
    )
    oracle = stream_mf2.Parser(encoding="shift_jis", collect_parse_errors=True)
    want = _result(oracle, [doc])
    assert want[3:5] == ("Shift_JIS", "certain") and want[0]
    for label, chunks in chunkings(doc, splits=False):
        parser = stream_mf2.Parser(collect_parse_errors=True)
        got = _result(parser, chunks)
        assert got[:5] == want[:5], label
        assert got[5][1:] == want[5], label
        assert "parsed again" in got[5][0], label
        assert not parser._decoder.keeping and parser._held is None


def test_reparse_with_metaformats_and_stream_children() -> None:
    # Nothing left the parser before the <meta>, so the meta item and the streamed
    # children come from the second parse only.
    doc = (
        _doc(
            b"<meta charset=shift_jis>",
            head=CAFE,
            after_meta=b'<meta name="description" content="' + NAME.encode("shift_jis") + b'">',
            body_before=b'<div class="h-feed"><div class="h-entry"><p class="p-name">x</p></div>',
        )
        + b"</div>"
    )
    for label, chunks in chunkings(doc, splits=False):
        parser = stream_mf2.Parser(metaformats=True, stream_children=True)
        events = [e for chunk in chunks for e in parser.feed_events(chunk)] + parser.close_events()
        assert parser.encoding == "Shift_JIS", label
        assert parser.meta_item is not None
        assert parser.meta_item["properties"]["summary"] == [NAME], label
        kinds = [type(e).__name__ for e in events]
        assert kinds.count("MetaItemEvent") == 1, label
        assert kinds[-1] == "DocumentEnd", label


def test_item_before_the_meta_prevents_the_reparse() -> None:
    item = b'<p class="h-card"><span class="p-name">A</span></p>'
    doc = _doc(b"", body_before=b"<p>caf\xe9</p>" + item + b"<meta charset=shift_jis>")
    outcomes = _outcomes(doc)
    assert len(outcomes) == 1
    ((encoding, confidence, names, errors),) = outcomes
    sjis = NAME.encode("shift_jis")
    assert (encoding, confidence) == ("windows-1252", "certain")
    assert names == ("A", sjis[:4].decode("windows-1252") + "\n" + sjis[4:].decode("windows-1252"))
    assert len(errors) == 1 and "Shift_JIS" in errors[0] and "produced before it" in errors[0]
    # The item comes after the budget too: the held bytes are dropped for one reason
    # or the other depending on the chunking, and the note is still the same.
    budget = doc.index(item) - 8
    ((encoding, _confidence, _names, errors2),) = _outcomes(doc, max_reparse_bytes=budget)
    assert (encoding, errors2) == ("windows-1252", errors)


def test_item_before_the_meta_does_not_prevent_a_switch_on_the_fly() -> None:
    # Step 5 (ASCII before the tag) needs no re-parse: events before it do not matter.
    item = b'<p class="h-card"><span class="p-name">A</span></p>'
    doc = _doc(b"", body_before=item + b"<meta charset=shift_jis>")
    assert _outcomes(doc) == {("Shift_JIS", "certain", ("A", *SJIS_NAME), ())}


def test_item_after_the_meta_does_not_prevent_the_reparse() -> None:
    item = b'<p class="h-card"><span class="p-name">A</span></p>'
    doc = _doc(b"<meta charset=shift_jis>", head=CAFE, after_meta=b"</head><body>" + item)
    ((encoding, confidence, names, errors),) = _outcomes(doc)
    assert (encoding, confidence, names) == ("Shift_JIS", "certain", ("A", *SJIS_NAME))
    assert len(errors) == 1 and "parsed again" in errors[0]


def test_meta_item_before_the_meta_prevents_the_reparse() -> None:
    # With metaformats the end of <head> produces the meta item: an event.
    doc = _doc(b"", head=CAFE, body_before=b"<p>x</p><meta charset=shift_jis>")
    ((encoding, confidence, _names, errors),) = _outcomes(doc, metaformats=True)
    assert (encoding, confidence) == ("windows-1252", "certain")
    assert len(errors) == 1 and "produced before it" in errors[0]
    # Without metaformats nothing was produced: the same document is parsed again.
    ((encoding, confidence, names, errors),) = _outcomes(doc)
    assert (encoding, confidence, names) == ("Shift_JIS", "certain", SJIS_NAME)
    assert len(errors) == 1 and "parsed again" in errors[0]


def test_budget_is_the_byte_offset_of_the_tag_end() -> None:
    # Non-ASCII and multi-byte text before the tag, so bytes and characters differ:
    # the budget counts bytes, whatever the chunking.
    doc = _doc(b"<meta charset=shift_jis>", head=b"<title>caf\xc3\xa9 \xe5\xb1\xb1</title>", codec="shift_jis")
    end = doc.index(b"<meta charset=shift_jis>") + len(b"<meta charset=shift_jis>")
    ((encoding, confidence, names, errors),) = _outcomes(doc, max_reparse_bytes=end, detect_utf8=False)
    assert (encoding, confidence, names) == ("Shift_JIS", "certain", SJIS_NAME)
    assert "parsed again" in errors[0]
    for budget in (end - 1, 1024, 1):
        splits = budget == end - 1
        outcomes = _outcomes(doc, splits=splits, max_reparse_bytes=budget, detect_utf8=False)
        ((encoding, confidence, _names, errors),) = outcomes
        assert (encoding, confidence) == ("windows-1252", "certain"), budget
        assert len(errors) == 1 and "max_reparse_bytes" in errors[0] and "Shift_JIS" in errors[0], budget
    # detect_utf8 makes it UTF-8 tentatively (valid UTF-8 in the first 1024 bytes).
    ((encoding, _c, names, errors),) = _outcomes(doc, splits=False, max_reparse_bytes=end, detect_utf8=True)
    assert (encoding, names) == ("Shift_JIS", SJIS_NAME)
    ((encoding, _c, _names, errors),) = _outcomes(doc, splits=False, max_reparse_bytes=end - 1, detect_utf8=True)
    assert encoding == "UTF-8" and "max_reparse_bytes" in errors[0]


def test_held_bytes_are_bounded_and_dropped() -> None:
    parser = stream_mf2.Parser(max_reparse_bytes=4096)
    parser.feed(FILLER + CAFE)
    assert parser._held is not None and parser._tokenizer.count_raw
    for _ in range(10):
        parser.feed(b"<p>" + b"text " * 100 + b"</p>")
        assert len(parser._held or b"") <= 4096
    assert parser._held is None  # past the budget: nothing held any more
    assert not parser._tokenizer.count_raw  # and no switch is possible (non-ASCII consumed)
    parser.feed(b"<meta charset=shift_jis>")
    parser.close()
    assert parser.encoding == "windows-1252" and "max_reparse_bytes" in parser.errors[0]
    # The first event ends the holding.
    parser = stream_mf2.Parser()
    parser.feed(FILLER + CAFE)
    assert parser._held is not None
    assert parser.feed(b'<p class="h-card">A</p>')
    assert parser._held is None
    # So does a certain encoding.
    parser = stream_mf2.Parser(encoding="utf-8")
    parser.feed(b"<p>x</p>")
    assert parser._held is None and not parser._tokenizer.count_raw


def test_a_chunk_crossing_the_budget_is_not_copied() -> None:
    budget = 4096
    doc = _doc(b"<meta charset=shift_jis>", head=CAFE) + b"<!--" + b"x" * 10_000 + b"-->"
    end = doc.index(b"<meta charset=shift_jis>") + len(b"<meta charset=shift_jis>")
    assert end <= budget
    for cut in (1, end - 1, end, end + 1, budget, len(doc) - 1):
        parser = stream_mf2.Parser(max_reparse_bytes=budget)
        parser.feed(doc[:cut])
        assert len(parser._held or b"") <= budget
        parser.feed(doc[cut:])
        parser.close()
        assert parser.encoding == "Shift_JIS", cut


def test_utf16_document_ignores_the_late_meta() -> None:
    # Step 1: a UTF-16 document (here tentatively, from the "<?x" pattern) becomes
    # certain and keeps its encoding, with nothing to note.
    doc = ('<?xml version="1.0"?>' + _doc(b"<meta charset=shift_jis>", head=CAFE).decode("latin-1")).encode("utf-16le")
    for label, chunks in chunkings(doc, splits=False):
        parser = stream_mf2.Parser()
        items = [i for c in chunks for i in parser.feed(c)] + parser.close()
        assert (parser.encoding, parser.encoding_confidence, parser.errors) == ("UTF-16LE", "certain", []), label
        assert len(items) == 1, label


def test_utf16_label_reparses_as_utf8() -> None:
    # Step 2: a UTF-16 label means UTF-8; after non-ASCII that needs a re-parse.
    doc = _doc(b"<meta charset=utf-16le>", head=CAFE, codec="utf-8")
    ((encoding, confidence, names, errors),) = _outcomes(doc, detect_utf8=False)
    assert (encoding, confidence, names) == ("UTF-8", "certain", SJIS_NAME)
    assert len(errors) == 1 and "parsed again from the start as UTF-8" in errors[0]


def test_x_user_defined_label_reparses_as_windows_1252() -> None:
    # Step 3: x-user-defined means windows-1252. UTF-8 was picked tentatively by
    # detect_utf8 from the non-ASCII in the first 1024 bytes.
    doc = _doc(b"<meta charset=x-user-defined>", head="<title>café</title>".encode(), codec="utf-8")
    ((encoding, confidence, names, errors),) = _outcomes(doc)
    name = NAME.encode("utf-8")
    assert (encoding, confidence) == ("windows-1252", "certain")
    assert names == (name[:6].decode("windows-1252") + "\n" + name[6:].decode("windows-1252"),)
    assert len(errors) == 1 and "parsed again from the start as windows-1252" in errors[0]
    # Naming the encoding in use (windows-1252 with detect_utf8 off) just makes it certain.
    ((encoding, confidence, _names, errors),) = _outcomes(doc, splits=False, detect_utf8=False)
    assert (encoding, confidence, errors) == ("windows-1252", "certain", ())


def test_str_input_holds_nothing() -> None:
    parser = stream_mf2.Parser()
    parser.feed("<p>caf\u00e9</p>")
    assert parser._held is None
    parser.close()


def test_max_reparse_bytes_must_not_be_negative() -> None:
    with pytest.raises(ValueError, match="max_reparse_bytes"):
        stream_mf2.Parser(max_reparse_bytes=-1)


def test_budget_boundary_with_a_decoder_that_delays_the_tag_end() -> None:
    # Python's EUC-JP decoder gives the ">" after a lone 0x8F only with the next byte,
    # so the tag is tokenized one feed later when a chunk ends right after it. The
    # budget counts the bytes the decoder needed to produce the ">": one more here,
    # in every chunking.
    tag = b"<meta charset=shift_jis x=\x8f>"
    doc = _doc(tag, head=b"<title>\xa4\xa2</title>")
    end = doc.index(tag) + len(tag)
    options: dict[str, Any] = {"default_encoding": "euc-jp", "detect_utf8": False}
    ((encoding, _c, names, errors),) = _outcomes(doc, max_reparse_bytes=end + 1, **options)
    assert (encoding, names) == ("Shift_JIS", SJIS_NAME)
    assert "parsed again" in errors[0]
    ((encoding, _c, _names, errors),) = _outcomes(doc, max_reparse_bytes=end, **options)
    assert encoding == "EUC-JP" and "max_reparse_bytes" in errors[0]
