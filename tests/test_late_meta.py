"""A ``<meta>`` charset declaration after the 1024-byte prescan window.

The tree builder meets it and the parser *changes the encoding* (HTML 13.2.3.4):
the decoder switches when every character before the end of the ``<meta>`` tag is
ASCII, and the bytes after the tag are decoded again with the new encoding. Every
test runs in every chunking of :mod:`tests.chunking`: the outcome must not depend on
where the input is split (CR LF pairs, the tag itself, multi-byte characters).

The first tests check the tokenizer API this rests on: stopping right after a
token, dropping the unconsumed input, and counting consumed characters before
CR LF normalisation.
"""

from __future__ import annotations

from typing import Any

import pytest

import stream_mf2
from stream_mf2.html._testing_tokens import TokenListSink, tokenize_for_test
from stream_mf2.html.tokenizer import Tokenizer
from tests.chunking import chunkings

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
    tok = Tokenizer(sink, collect_errors=True)
    tok._fast_path = fast_path
    sink.tokenizer = tok
    tok.count_raw = True
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


def test_late_meta_after_non_ascii_keeps_the_encoding_with_a_note() -> None:
    doc = _doc(b"<meta charset=shift_jis>", head=b"<title>caf\xe9</title>")
    outcomes = _outcomes(doc)
    assert len(outcomes) == 1
    ((encoding, confidence, names, errors),) = outcomes
    assert (encoding, confidence) == ("windows-1252", "certain")
    sjis = NAME.encode("shift_jis")
    assert names == (sjis[:4].decode("windows-1252") + "\n" + sjis[4:].decode("windows-1252"),)
    assert len(errors) == 1 and "Shift_JIS" in errors[0] and "re-parse" in errors[0]


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


def test_late_meta_to_a_non_ascii_compatible_encoding_is_refused() -> None:
    doc = _doc(b"<meta charset=iso-2022-kr>")  # the replacement encoding
    ((encoding, confidence, _names, errors),) = _outcomes(doc, splits=False)
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
    parser = stream_mf2.Parser()
    parser.feed(FILLER)
    for _ in range(100):
        parser.feed(b"<p>" + b"ascii text " * 100 + b"</p>\r\n")
        assert len(parser._decoder._kept or b"") <= 2 * 2048 + 16
    parser.feed(b"<p>caf\xe9</p>")
    assert not parser._decoder.keeping
    assert not parser._tokenizer.count_raw
    parser.close()
