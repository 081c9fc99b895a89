"""Unit tests for :mod:`stream_mf2.html.decode` (sniffing and incremental decoding)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stream_mf2.html.decode import (
    Decoder,
    decoded_length,
    extract_encoding_from_meta,
    get_xml_encoding,
    lookup_encoding,
    prescan,
)
from tests.support.chunking import chunkings


def decode_chunks(chunks: list[bytes], **kwargs: object) -> tuple[str, Decoder]:
    d = Decoder(**kwargs)  # type: ignore[arg-type]
    text = "".join(d.feed(c) for c in chunks) + d.close()
    return text, d


def state(d: Decoder) -> tuple[str | None, str | None, str | None]:
    return d.encoding, d.confidence, d.source


# --------------------------------------------------------------------------- labels


def test_lookup_uses_encoding_standard_names() -> None:
    assert lookup_encoding(" Latin1 ") == "windows-1252"
    assert lookup_encoding("utf8") == "UTF-8"
    assert lookup_encoding("sjis") == "Shift_JIS"
    assert lookup_encoding("iso-2022-kr") == "replacement"
    assert lookup_encoding("utf-16") == "UTF-16LE"
    assert lookup_encoding("no-such-thing") is None


def test_extract_encoding_from_meta() -> None:
    assert extract_encoding_from_meta("text/html; charset=ISO-8859-2") == "ISO-8859-2"
    assert extract_encoding_from_meta("text/html; CHARSET = 'utf-8' ") == "UTF-8"
    assert extract_encoding_from_meta('charset="koi8-r";x') == "KOI8-R"
    assert extract_encoding_from_meta("charset='utf-8") is None  # unmatched quote
    assert extract_encoding_from_meta("charsetx charset=utf-8") == "UTF-8"  # loops past "charsetx"
    assert extract_encoding_from_meta("text/html") is None
    assert extract_encoding_from_meta("charset=") is None


def test_get_xml_encoding() -> None:
    assert get_xml_encoding(b'<?xml version="1.0" encoding="iso-8859-2"?>') == "ISO-8859-2"
    assert get_xml_encoding(b"<?xml encoding = 'utf-16'?>") == "UTF-8"
    assert get_xml_encoding(b'<?xml version="1.0"?><x encoding="big5">') is None  # after the first ">"
    assert get_xml_encoding(b' <?xml encoding="big5"?>') is None  # must be at the start
    assert get_xml_encoding(b'<?xml encoding="big 5"?>') is None


# --------------------------------------------------------------------------- BOM


@pytest.mark.parametrize(
    ("bom", "codec", "name"),
    [
        (b"\xef\xbb\xbf", "utf-8", "UTF-8"),
        (b"\xfe\xff", "utf-16-be", "UTF-16BE"),
        (b"\xff\xfe", "utf-16-le", "UTF-16LE"),
    ],
)
def test_bom_in_every_chunking(bom: bytes, codec: str, name: str) -> None:
    body = '<meta charset="iso-8859-2"><p>h\u00e9llo \u65e5\u672c</p>'
    data = bom + body.encode(codec)
    for label, chunks in chunkings(data):
        text, d = decode_chunks(chunks, transport_encoding="windows-1251")
        assert text == body, label
        assert state(d) == (name, "certain", "bom"), label


def test_partial_bom_is_held_until_decided() -> None:
    d = Decoder(transport_encoding="windows-1252")
    assert d.feed(b"\xef") == ""
    assert d.feed(b"\xbb") == ""
    assert not d.decided
    assert d.feed(b"\xbf<p>") == "<p>"
    assert state(d) == ("UTF-8", "certain", "bom")


def test_bom_prefix_that_is_not_a_bom() -> None:
    text, d = decode_chunks([b"\xef", b"\xbb", b"x"], transport_encoding="windows-1252")
    assert text == "\u00ef\u00bbx"
    assert state(d) == ("windows-1252", "certain", "transport")


# --------------------------------------------------------------------------- transport


def test_transport_label_beats_meta() -> None:
    data = '<meta charset="utf-8"><p>\u00e9'.encode("cp1251", "replace")
    text, d = decode_chunks([data], transport_encoding=" KOI8-R ")
    assert state(d) == ("KOI8-R", "certain", "transport")
    assert text == data.decode("koi8-r")


def test_transport_decides_as_soon_as_no_bom_is_possible() -> None:
    d = Decoder(transport_encoding="utf-8")
    assert d.feed(b"<") == "<"
    assert state(d) == ("UTF-8", "certain", "transport")
    d = Decoder(transport_encoding="utf-8")
    assert d.feed(b"\xef") == ""  # might be a BOM
    assert d.feed(b"<") == "\ufffd<"
    assert state(d) == ("UTF-8", "certain", "transport")


def test_invalid_transport_label_is_ignored() -> None:
    text, d = decode_chunks([b'<meta charset="iso-8859-2">\xa3'], transport_encoding="no-such-charset")
    assert state(d) == ("ISO-8859-2", "tentative", "meta")
    assert text.endswith("\u0141")


# --------------------------------------------------------------------------- prescan


def test_meta_decides_early() -> None:
    d = Decoder()
    assert d.feed(b'<!doctype html><meta charset="shift_jis"') == ""
    assert d.feed(b">") == '<!doctype html><meta charset="shift_jis">'
    assert state(d) == ("Shift_JIS", "tentative", "meta")
    assert d.feed("\u65e5".encode("shift_jis")) == "\u65e5"


def _padded(meta: bytes, start: int) -> bytes:
    pad = b"<!--" + b"x" * (start - 7) + b"-->"
    assert len(pad) == start
    return pad + meta + b"<p>\xa3</p>"


def test_meta_ending_at_byte_1024_is_found() -> None:
    meta = b'<meta charset="iso-8859-2">'
    data = _padded(meta, 1024 - len(meta))
    for label, chunks in chunkings(data, splits=False):
        text, d = decode_chunks(chunks)
        assert state(d) == ("ISO-8859-2", "tentative", "meta"), label
        assert text.endswith("<p>\u0141</p>")


def test_meta_starting_at_byte_1020_is_not_found() -> None:
    # It straddles the end condition: the prescan aborts there.
    data = _padded(b'<meta charset="iso-8859-2">', 1020)
    for label, chunks in chunkings(data, splits=False):
        text, d = decode_chunks(chunks, detect_utf8=False)
        assert state(d) == ("windows-1252", "tentative", "default"), label
        assert text.endswith("<p>\u00a3</p>")


def test_meta_after_1024_is_not_found_and_undecided_bytes_are_bounded() -> None:
    data = _padded(b'<meta charset="iso-8859-2">', 1100)
    d = Decoder()
    assert d.feed(data[:1023]) == ""
    assert not d.decided
    out = d.feed(data[1023:1030])  # the 1024th byte reaches the end condition
    assert d.decided
    assert out == data[:1030].decode("latin-1")
    assert state(d) == ("windows-1252", "tentative", "default")


def test_smaller_prescan_window() -> None:
    data = b'<!-- padding padding --><meta charset="koi8-r">'
    assert decode_chunks([data], prescan_bytes=16)[1].source == "default"
    assert decode_chunks([data], prescan_bytes=64)[1].encoding == "KOI8-R"


@pytest.mark.parametrize(
    ("markup", "expected"),
    [
        (b'<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">', "KOI8-R"),
        (b'<meta content="text/html; charset=koi8-r" http-equiv=content-type>', "KOI8-R"),
        (b'<meta content="text/html; charset=koi8-r">', None),  # no pragma
        (b'<meta charset="bogus" content="charset=koi8-r" http-equiv="content-type">', None),
        (b'<meta charset="koi8-r" charset="utf-8">', "KOI8-R"),  # first duplicate wins
        (b'<meta charset="utf-16be">', "UTF-8"),
        (b'<meta charset="x-user-defined">', "windows-1252"),
        (b'<meta charset="iso-2022-kr">', "replacement"),
        (b"<!-- <meta charset=koi8-r> --><p>", None),
        (b"<!--><meta charset=koi8-r>", "KOI8-R"),  # "<!-->" closes the comment
        (b'<x title="<meta charset=koi8-r>"><p>', None),  # inside an attribute value
        (b"</x title='<meta charset=koi8-r>'><p>", None),  # end tags skip attributes too
        (b"<? <meta charset=koi8-r> ?><meta charset=big5>", "Big5"),  # "<?" swallows up to the first ">"
        (b"<meta/charset=koi8-r>", "KOI8-R"),
        (b"<metacharset=koi8-r>", None),
        (b"<META CHARSET=KOI8-R>", "KOI8-R"),
    ],
)
def test_prescan_cases(markup: bytes, expected: str | None) -> None:
    found, _ = prescan(markup + b"<p>" + b"." * 8)
    assert found == expected
    d = decode_chunks([markup], detect_utf8=False)[1]
    assert d.encoding == (expected or "windows-1252")


def test_xml_declaration_then_meta() -> None:
    xml = b'<?xml version="1.0" encoding="iso-8859-2"?>'
    assert state(decode_chunks([xml + b"<p>"])[1]) == ("ISO-8859-2", "tentative", "xml")
    # A meta in the window wins over the XML declaration.
    assert decode_chunks([xml + b'<meta charset="koi8-r">'])[1].encoding == "KOI8-R"


def test_utf16_xml_pattern_without_bom() -> None:
    body = '<?xml version="1.0"?><p>\u00e9</p>'
    text, d = decode_chunks([body.encode("utf-16-le")])
    assert state(d) == ("UTF-16LE", "tentative", "xml")
    assert text == body
    text, d = decode_chunks([body.encode("utf-16-be")])
    assert d.encoding == "UTF-16BE"
    assert text == body


# --------------------------------------------------------------------------- commit / close


def test_commit_before_1024_bytes() -> None:
    d = Decoder(detect_utf8=False)
    assert d.feed(b"<title>\xe9t\xe9</title><meta charset=koi8") == ""
    text = d.commit()  # the stream stalls: decide with what we have
    assert state(d) == ("windows-1252", "tentative", "default")  # the unfinished meta does not count
    assert text == "<title>\u00e9t\u00e9</title><meta charset=koi8"
    assert d.feed(b"-r>\xe9") == "-r>\u00e9"
    assert d.commit() == ""  # already decided
    assert d.close() == ""


def test_commit_with_nothing_yet() -> None:
    d = Decoder(transport_encoding="utf-8")
    assert d.commit() == ""
    assert d.encoding == "UTF-8"
    assert d.feed(b"\xc3") == ""
    assert d.close() == "\ufffd"


def test_short_stream_decided_at_close() -> None:
    d = Decoder()
    assert d.feed(b"<p>hi") == ""
    assert d.close() == "<p>hi"
    assert state(d) == ("windows-1252", "tentative", "default")
    # An unterminated meta at EOF is "out of bytes": ignored.
    assert decode_chunks([b"<meta charset=koi8-r"])[1].source == "default"
    assert decode_chunks([b""])[0] == ""


def test_feed_after_close_raises_and_close_is_idempotent() -> None:
    d = Decoder()
    d.close()
    assert d.close() == ""
    with pytest.raises(ValueError):
        d.feed(b"x")


def test_bad_default_rejected() -> None:
    with pytest.raises(ValueError):
        Decoder(default="nope")


# --------------------------------------------------------------------------- UTF-8


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"a\xc3(b", "a\ufffd(b"),
        (b"\xed\xa0\x80", "\ufffd\ufffd\ufffd"),  # encoded surrogate
        (b"\xc0\xaf", "\ufffd\ufffd"),  # overlong
        (b"\xf4\x90\x80\x80", "\ufffd\ufffd\ufffd\ufffd"),  # above U+10FFFF
        (b"\xe2\x82", "\ufffd"),  # truncated at EOF
        (b"\xf0\x9f\x98\x80\xff", "\U0001f600\ufffd"),
    ],
)
def test_invalid_utf8_in_every_chunking(data: bytes, expected: str) -> None:
    for label, chunks in chunkings(data):
        text, _ = decode_chunks(chunks, transport_encoding="utf-8")
        assert text == expected, label


def test_utf8_detection() -> None:
    data = "<p>caf\u00e9 \u65e5\u672c</p>".encode()
    text, d = decode_chunks([data])
    assert state(d) == ("UTF-8", "tentative", "utf8-detect")
    assert text == "<p>caf\u00e9 \u65e5\u672c</p>"
    assert state(decode_chunks([data], detect_utf8=False)[1]) == ("windows-1252", "tentative", "default")
    # ASCII only: no evidence, the default.
    assert decode_chunks([b"<p>plain</p>"])[1].source == "default"
    # Invalid UTF-8: the default.
    assert decode_chunks([b"<p>caf\xe9</p>"])[1].source == "default"


def test_utf8_detection_with_sequence_cut_by_the_window() -> None:
    data = b"x" * 1023 + "\u00e9\u00e9".encode()  # the first "é" straddles byte 1024
    text, d = decode_chunks([data])
    assert d.source == "utf8-detect"
    assert text == "x" * 1023 + "\u00e9\u00e9"


# --------------------------------------------------------------------------- multi-byte splits


@pytest.mark.parametrize(
    ("label", "codec", "text"),
    [
        ("shift_jis", "cp932", "\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8\uff01 abc \uff71"),
        ("gbk", "gb18030", "\u4e2d\u6587\u6d4b\u8bd5\uff0c\u4f60\u597d abc \u20ac"),
        ("big5", "big5hkscs", "\u4e2d\u6587\u6e2c\u8a66 abc"),
        ("euc-kr", "cp949", "\ud55c\uad6d\uc5b4 abc"),
    ],
)
def test_multibyte_split_at_every_position(label: str, codec: str, text: str) -> None:
    data = text.encode(codec)
    for via_meta in (False, True):
        prefix = f'<meta charset="{label}">'.encode() if via_meta else b""
        whole_data = prefix + data
        for name, chunks in chunkings(whole_data):
            kwargs: dict[str, object] = {} if via_meta else {"transport_encoding": label}
            out, _ = decode_chunks(chunks, **kwargs)
            assert out == prefix.decode() + text, (name, via_meta)


def test_gbk_label_decodes_four_byte_gb18030_sequences() -> None:
    text = "\u00e9\u0080\U0001f600"
    data = text.encode("gb18030")
    for name, chunks in chunkings(data):
        assert decode_chunks(chunks, transport_encoding="gbk")[0] == text, name


def test_gb18030_lone_0x80_is_euro_sign() -> None:
    data = b"a\x80b\xd6\xd0\xff" + "\u4e2d".encode("gb18030")
    for name, chunks in chunkings(data):
        for label in ("gbk", "gb18030"):
            text, _ = decode_chunks(chunks, transport_encoding=label)
            assert text == "a\u20acb\u4e2d\ufffd\u4e2d", (name, label)


def test_windows_1252_undefined_bytes_are_c1_controls() -> None:
    text, _ = decode_chunks([bytes(range(0x80, 0xA0))], transport_encoding="windows-1252")
    assert text[0] == "\u20ac"
    assert text[0x81 - 0x80] == "\x81"
    assert text[0x9D - 0x80] == "\x9d"
    assert "\ufffd" not in text


def test_replacement_encoding() -> None:
    assert decode_chunks([b"abc", b"def"], transport_encoding="iso-2022-kr")[0] == "\ufffd"
    assert decode_chunks([b""], transport_encoding="iso-2022-kr")[0] == ""


def test_utf16_odd_byte_at_eof() -> None:
    text, _ = decode_chunks([b"\xff\xfea\x00b"])
    assert text == "a\ufffd"


# --------------------------------------------------------------------------- change the encoding


def test_change_encoding_on_the_fly_after_ascii() -> None:
    d = Decoder(detect_utf8=False)
    d.feed(b"<!--" + b"x" * 1100 + b"-->")
    assert d.encoding == "windows-1252"
    assert d.change_encoding("iso-8859-2") is True
    assert state(d) == ("ISO-8859-2", "certain", "meta-change")
    assert d.feed(b"\xa3") == "\u0141"
    assert d.change_encoding("koi8-r") is False  # already certain


def test_change_encoding_refused_after_non_ascii() -> None:
    d = Decoder(detect_utf8=False)
    d.feed(b"\xfe" + b"x" * 1100)
    assert d.change_encoding("iso-8859-2") is False
    assert state(d) == ("windows-1252", "certain", "default")
    assert d.feed(b"\xa3") == "\u00a3"


@pytest.mark.parametrize(
    ("doc", "label", "expected"),
    [
        (b"x" * 1024, "latin1", True),  # windows-1252 under another label
        (b"x" * 1024, "x-user-defined", True),  # step 3: windows-1252
        (b"x" * 1024, "iso-8859-2", False),
        (b"x" * 1024, "no-such-label", False),
        (b'<meta charset="utf-8">' + b"x" * 1024, "utf-16le", True),  # step 2: UTF-8
        (b'<meta charset="utf-8">' + b"x" * 1024, "UTF-8", True),
        (b"\xff\xfe" + "x".encode("utf-16le") * 600, "utf-16le", False),  # BOM: certain already
    ],
)
def test_declares_current_agrees_with_change_encoding(doc: bytes, label: str, expected: bool) -> None:
    # The parser skips its stop after a <meta> for which this says True: that stop is only
    # needed where change_encoding could switch or ask for a re-parse.
    d = Decoder(detect_utf8=False)
    d.feed(doc)
    assert d.declares_current(label) is expected
    before = d.encoding
    in_use = d.change_encoding(label)
    if expected:
        assert in_use and d.encoding == before and d.confidence == "certain"
        assert d.reparse_encoding is None and not d.keeping
    assert d.declares_current(label) is False  # certain now: nothing can change any more


@pytest.mark.parametrize(
    ("doc", "label"),
    [
        (b"x" * 1024, "latin1"),
        (b"x" * 1024, "x-user-defined"),
        (b"x" * 1024, "iso-8859-2"),
        (b"x" * 1024, "no-such-label"),
        (b'<meta charset="utf-8">' + b"x" * 1024, "utf-16le"),
        (b'<meta charset="utf-8">' + b"x" * 1024, "UTF-8"),
        (b"\xff\xfe" + "x".encode("utf-16le") * 600, "utf-16le"),
    ],
)
def test_confirm_current_is_change_encoding_for_the_encoding_in_use(doc: bytes, label: str) -> None:
    # The parser's one call for a <meta> naming the encoding in use leaves the decoder as
    # change_encoding does; for any other label it changes nothing.
    d = Decoder(detect_utf8=False)
    d.feed(doc)
    before = state(d), d.keeping, d.reparse_encoding
    current = d.declares_current(label)
    assert d.confirm_current(label) is current
    if not current:
        assert (state(d), d.keeping, d.reparse_encoding) == before
        return
    e = Decoder(detect_utf8=False)
    e.feed(doc)
    assert e.change_encoding(label) is True
    assert (state(d), d.keeping, d.reparse_encoding) == (state(e), e.keeping, e.reparse_encoding)
    assert d.feed(b"y\xe9") == e.feed(b"y\xe9")


def test_change_encoding_same_and_special_labels() -> None:
    d = Decoder(detect_utf8=False)
    d.feed(b"x" * 1024)
    assert d.change_encoding("latin1") is True  # same encoding: just certain
    assert d.confidence == "certain"
    d = Decoder(detect_utf8=False)
    d.feed(b"x" * 1024)
    assert d.change_encoding("utf-16le") is True  # becomes UTF-8
    assert d.encoding == "UTF-8"
    d = Decoder(detect_utf8=False)
    d.feed(b"x" * 1024)
    assert d.change_encoding("iso-2022-kr") is False  # replacement: would need a re-parse
    assert d.change_encoding("bogus") is False
    with pytest.raises(RuntimeError):
        Decoder().change_encoding("utf-8")


def test_change_encoding_ignored_for_utf16() -> None:
    d = Decoder()
    d.feed('<?xml version="1.0"?>'.encode("utf-16-le") + b"x\x00" * 600)
    assert d.encoding == "UTF-16LE"
    assert d.change_encoding("utf-8") is False
    assert state(d) == ("UTF-16LE", "certain", "xml")


# --------------------------------------------------------------------------- chunking independence

_FRAGMENTS = [
    b"<",
    b">",
    b"<!--",
    b"-->",
    b"<meta",
    b" ",
    b"/",
    b"charset",
    b"=",
    b'"',
    b"'",
    b"koi8-r",
    b"utf-8",
    b"http-equiv=content-type",
    b"content=",
    b"text/html; charset=iso-8859-2",
    b"<?",
    b"</",
    b"<p",
    b"x",
    b"\xc3\xa9",
    b"\xe9",
    b"\xef\xbb\xbf",
    b"<?xml encoding='big5'?>",
]


@settings(max_examples=200, deadline=None)
@given(
    parts=st.lists(st.sampled_from(_FRAGMENTS), max_size=40),
    cuts=st.lists(st.integers(min_value=0, max_value=400), max_size=6),
    window=st.sampled_from([8, 32, 1024]),
)
def test_decision_and_text_do_not_depend_on_chunking(parts: list[bytes], cuts: list[int], window: int) -> None:
    data = b"".join(parts)
    whole_text, ref = decode_chunks([data], prescan_bytes=window)
    points = sorted({c for c in cuts if 0 < c < len(data)})
    chunks = [data[i:j] for i, j in zip([0, *points], [*points, len(data)], strict=True)]
    text, d = decode_chunks(chunks, prescan_bytes=window)
    assert state(d) == state(ref)
    assert text == whole_text
    one, d1 = decode_chunks([data[i : i + 1] for i in range(len(data))], prescan_bytes=window)
    assert state(d1) == state(ref)
    assert one == whole_text


def test_change_encoding_at_redecodes_the_bytes_after_the_tag() -> None:
    tag = b"<meta charset=iso-8859-2>"
    data = b"<!--" + b"x" * 1100 + b"-->" + tag + b"\xa3\xa3"
    at = data.index(tag) + len(tag)
    for label, chunks in chunkings(data, splits=False):
        d = Decoder(detect_utf8=False, keep_for_change=True)
        old = "".join(d.feed(c) for c in chunks)
        assert old.endswith("\u00a3\u00a3"), label  # windows-1252 so far
        assert d.change_encoding_at("latin2", at) == (True, "\u0141\u0141"), label
        assert state(d) == ("ISO-8859-2", "certain", "meta-change")
        assert not d.keeping
        assert d.feed(b"\xa3") + d.close() == "\u0141", label


def test_change_encoding_at_ignores_non_ascii_after_the_tag() -> None:
    # Only the bytes before the tag's end decide, not how much has been fed.
    d = Decoder(detect_utf8=False, keep_for_change=True)
    d.feed(b"x" * 1100 + b"\xe9\xe9")
    assert d.change_encoding_at("iso-8859-2", 1100) == (True, "\u00e9\u00e9")
    d = Decoder(detect_utf8=False, keep_for_change=True)
    d.feed(b"x" * 1100 + b"\xe9\xe9")
    assert d.change_encoding_at("iso-8859-2", 1101) == (False, "")
    assert state(d) == ("windows-1252", "certain", "default")


def test_change_encoding_at_splits_no_multibyte_sequence() -> None:
    # The old decoder (UTF-8) already turned the byte after the tag into U+FFFD (the
    # caller drops that text); decoded again, it starts a Shift_JIS sequence.
    d = Decoder(default="utf-8", detect_utf8=False, keep_for_change=True)
    assert d.feed(b"y" * 1100 + b"\x82") == "y" * 1100 + "\ufffd"
    assert d.change_encoding_at("shift_jis", 1100) == (True, "")
    assert d.feed(b"\xa0") + d.close() == "\u3042"


def test_release_bounds_the_kept_bytes() -> None:
    d = Decoder(detect_utf8=False, keep_for_change=True)
    assert d.keeping
    d.feed(b"a" * 2000)
    d.release(1990)
    assert d.keeping
    assert d.change_encoding_at("koi8-r", 1995) == (True, "aaaaa")
    d = Decoder(detect_utf8=False, keep_for_change=True)
    d.feed(b"a" * 2000 + b"\xe9")
    d.release(2000)
    assert d.keeping  # the non-ASCII byte is not consumed yet
    d.release(2001)
    assert not d.keeping
    assert d.change_encoding_at("koi8-r", 2001) == (False, "")
    with pytest.raises(RuntimeError):
        d = Decoder(detect_utf8=False, keep_for_change=True)
        d.feed(b"a" * 2000)
        d.release(1990)
        d.change_encoding_at("koi8-r", 1980)


def test_nothing_is_kept_when_certain() -> None:
    d = Decoder("utf-8", keep_for_change=True)
    d.feed(b"abc")
    assert not d.keeping
    d = Decoder(keep_for_change=True)
    d.feed(b"\xef\xbb\xbfabc")
    assert not d.keeping


def test_change_encoding_names_the_reparse_encoding() -> None:
    # Step 6: the decoder cannot switch, keeps its encoding (certain) and says which
    # encoding a re-parse should use, after the step 2 and 3 mappings.
    for label, want in (("iso-8859-2", "ISO-8859-2"), ("utf-16be", "UTF-8"), ("iso-2022-kr", "replacement")):
        d = Decoder(detect_utf8=False, keep_for_change=True)
        d.feed(b"x" * 1100 + b"\xe9")
        assert d.reparse_encoding is None
        assert d.change_encoding_at(label, 1102) == (False, "")
        assert (d.encoding, d.confidence, d.reparse_encoding) == ("windows-1252", "certain", want)
    d = Decoder(default="utf-8", detect_utf8=False)
    d.feed("é".encode() * 600)
    assert d.change_encoding("x-user-defined") is False
    assert d.reparse_encoding == "windows-1252"
    # No re-parse asked for: switched on the fly, the same encoding, UTF-16, certain.
    d = Decoder(detect_utf8=False, keep_for_change=True)
    d.feed(b"x" * 1100)
    assert d.change_encoding_at("koi8-r", 1100) == (True, "")
    assert d.change_encoding_at("iso-8859-2", 1100) == (False, "")
    assert d.reparse_encoding is None
    d = Decoder(detect_utf8=False)
    d.feed(b"\xe9" * 1100)
    assert d.change_encoding("latin1") is True and d.reparse_encoding is None
    d = Decoder()
    d.feed(b"\xff\xfe" + "é".encode("utf-16le") * 600)
    assert d.change_encoding("utf-8") is False and d.reparse_encoding is None


def test_for_reparse_skips_sniffing() -> None:
    d = Decoder.for_reparse("sjis")
    assert (d.encoding, d.confidence, d.source, d.decided, d.keeping) == (
        "Shift_JIS",
        "certain",
        "meta-reparse",
        True,
        False,
    )
    data = "<meta charset=utf-8>山田".encode("shift_jis")
    for label, chunks in chunkings(data, splits=True):
        d = Decoder.for_reparse("shift_jis")
        assert "".join(d.feed(c) for c in chunks) + d.close() == "<meta charset=utf-8>山田", label
        assert d.closed
    assert d.change_encoding("utf-8") is False  # certain
    with pytest.raises(ValueError):
        Decoder.for_reparse("bogus")


def test_decoded_length_counts_complete_characters() -> None:
    data = "a山b".encode("shift_jis")
    assert [decoded_length("Shift_JIS", data[:n]) for n in range(len(data) + 1)] == [0, 1, 1, 2, 3]
    utf8 = "é€𝄞>".encode()
    assert decoded_length("UTF-8", utf8) == 4
    assert decoded_length("UTF-8", utf8[:-2]) == 2  # an incomplete 4-byte sequence is not counted
    assert decoded_length("windows-1252", b"\x81\x8d>") == 3
    assert decoded_length("UTF-8", b"\xe9>") == 2  # an invalid byte before ASCII: U+FFFD, then '>'
