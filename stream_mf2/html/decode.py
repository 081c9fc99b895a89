"""Bytes to text: the WHATWG encoding sniffing algorithm plus incremental decoding.

Spec: HTML §13.2.3.2 "Determining the character encoding" (the *encoding sniffing
algorithm*, *prescan a byte stream to determine its encoding*, *get an attribute*,
*get an XML encoding*), HTML §2.6 "algorithm for extracting a character encoding
from a meta element", and the Encoding Standard (labels, BOM sniffing, decoders).

:class:`Decoder` is push-based: :meth:`Decoder.feed` takes byte chunks of any size
and returns the text that can be decoded so far. While the encoding is still being
sniffed it holds the bytes back (at most ``prescan_bytes`` of them) and returns
``""``; once it has decided, every later chunk is decoded straight away.

The decision, in the spec's order:

1. a byte order mark (UTF-8, UTF-16BE, UTF-16LE) - confidence *certain*;
2. the transport-layer charset (e.g. from ``Content-Type``) if it is a known label -
   *certain*;
3. the prescan of the first ``prescan_bytes`` bytes (``<meta charset>``,
   ``<meta http-equiv=content-type content="...charset=...">``, and, when it finds no
   meta, an ``<?xml ... encoding=...?>`` declaration at the very start) - *tentative*;
4. optionally (``detect_utf8``) UTF-8 when the held bytes are valid UTF-8 and contain
   non-ASCII - *tentative*;
5. the configured default - *tentative*.

The decision is taken as early as it can be: on the BOM, on the transport charset
as soon as the first bytes rule out a BOM (a BOM still wins), on the first meta the prescan
completes, or when ``prescan_bytes`` bytes have arrived. A stream that ends earlier is
decided by :meth:`Decoder.close`. A stream that *stalls* before ``prescan_bytes``
bytes can be decided with :meth:`Decoder.commit`; the sources call it after a
timeout (the spec's "wait 500ms or 1024 bytes, whichever comes first").

Invalid bytes decode to U+FFFD; decoding never raises. A multi-byte sequence split
across chunks decodes as if it had arrived in one piece; an incomplete sequence at
the end of the stream becomes U+FFFD. Newlines are *not* normalised here (the
tokenizer does that). Decoding uses Python's codecs (as webencodings maps them) in
replacement mode, with two corrections toward the Encoding Standard: windows-1252
maps its five unassigned bytes to C1 controls, and GBK/gb18030 use the gb18030
decoder with a lone 0x80 meaning U+20AC. Python's tables for a few legacy encodings
(e.g. EUC-JP, windows-1255) still differ from the Encoding Standard's indexes in
rarely used code points.

A ``<meta>`` declaration beyond the prescan window is seen only by the tree builder,
which then asks to *change the encoding* (HTML §13.2.3.4):
:meth:`Decoder.change_encoding_at`. Its steps: a UTF-16 document ignores the
declaration (1); a UTF-16 label means UTF-8 (2) and x-user-defined means windows-1252
(3); the encoding in use already is certain (4); the decoder is swapped on the fly
when every byte *before the end of the declaring tag* means the same in both encodings
(all ASCII, both encodings ASCII-compatible) (5); otherwise the spec navigates to the
document again with the new encoding (6). The decoder cannot restart a document: it
keeps the current encoding with confidence *certain*, returns ``False`` and names the
encoding the document should be parsed again with in
:attr:`Decoder.reparse_encoding`; the caller may then start over with
:meth:`Decoder.for_reparse` if it still has every byte (the parser does so within a
byte budget, see :class:`stream_mf2.Parser`).

"The bytes converted so far" would depend on where the chunks end, so the step-5
criterion is tied to the tag's end instead, and the bytes after the tag, which the
old decoder may already have converted, are decoded again with the new encoding: the
caller discards the text the old decoder gave for them. For that the decoder keeps
the raw bytes (``keep_for_change=True``) while the confidence is tentative and no
non-ASCII byte has been consumed by the caller; the caller releases them as it
consumes text (:meth:`Decoder.release`), so only the bytes not yet consumed are held.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Final, cast

import webencodings

if TYPE_CHECKING:
    from typing_extensions import Buffer

__all__ = [
    "Decoder",
    "decoded_length",
    "extract_encoding_from_meta",
    "get_xml_encoding",
    "lookup_encoding",
    "prescan",
]

#: The Encoding Standard's names, keyed by the lower-case form webencodings uses.
_WHATWG_NAMES: Final[dict[str, str]] = {
    n.lower(): n
    for n in (
        "UTF-8", "IBM866", "ISO-8859-2", "ISO-8859-3", "ISO-8859-4", "ISO-8859-5",
        "ISO-8859-6", "ISO-8859-7", "ISO-8859-8", "ISO-8859-8-I", "ISO-8859-10",
        "ISO-8859-13", "ISO-8859-14", "ISO-8859-15", "ISO-8859-16", "KOI8-R", "KOI8-U",
        "macintosh", "windows-874", "windows-1250", "windows-1251", "windows-1252",
        "windows-1253", "windows-1254", "windows-1255", "windows-1256", "windows-1257",
        "windows-1258", "x-mac-cyrillic", "GBK", "gb18030", "Big5", "EUC-JP",
        "ISO-2022-JP", "Shift_JIS", "EUC-KR", "replacement", "UTF-16BE", "UTF-16LE",
        "x-user-defined",
    )
}  # fmt: skip

_UTF8: Final = "UTF-8"
_UTF16BE: Final = "UTF-16BE"
_UTF16LE: Final = "UTF-16LE"
_WINDOWS_1252: Final = "windows-1252"

#: ASCII whitespace as the prescan and the meta-extraction algorithm define it.
_SPACE_BYTES: Final = frozenset(b"\t\n\x0c\r ")
_SPACE_CHARS: Final = "\t\n\x0c\r "


def lookup_encoding(label: str) -> str | None:
    """Encoding Standard *get an encoding*: the canonical name for ``label``, or ``None``.

    Leading/trailing ASCII whitespace and case are ignored. Names are spelt as in the
    Encoding Standard (``"UTF-8"``, ``"Shift_JIS"``, ``"windows-1252"``), not in the
    lower-case form webencodings uses internally.
    """
    found = _LOOKED_UP.get(label)
    if found is not None:
        return found
    enc = webencodings.lookup(label)
    if enc is None:
        return None
    name = cast(str, enc.name)
    name = _WHATWG_NAMES.get(name, name)
    # Every document asks for its default and its declared encoding, by the same few
    # labels: remember the answers (a bounded dict, emptied when full).
    if len(label) <= 64:
        if len(_LOOKED_UP) >= 256:
            _LOOKED_UP.clear()
        _LOOKED_UP[label] = name
    return name


_LOOKED_UP: dict[str, str] = {}


# --------------------------------------------------------------------------- decoders


def _windows_1252_table() -> str:
    # Python's cp1252 leaves 0x81, 0x8D, 0x8F, 0x90 and 0x9D undefined; the Encoding
    # Standard's index maps them to the C1 controls of the same value.
    chars = []
    for b in range(256):
        try:
            chars.append(bytes([b]).decode("cp1252"))
        except UnicodeDecodeError:
            chars.append(chr(b))
    return "".join(chars)


_WINDOWS_1252_TABLE: Final = _windows_1252_table()


class _Windows1252Decoder(codecs.IncrementalDecoder):
    """windows-1252 per the Encoding Standard (single-byte: no state to carry)."""

    def decode(self, input: Buffer, final: bool = False) -> str:
        return codecs.charmap_decode(bytes(input), "strict", _WINDOWS_1252_TABLE)[0]


class _ReplacementDecoder(codecs.IncrementalDecoder):
    """The Encoding Standard's *replacement* decoder: one U+FFFD for a non-empty stream."""

    def __init__(self, errors: str = "strict") -> None:
        super().__init__(errors)
        self._emitted = False

    def decode(self, input: Buffer, final: bool = False) -> str:
        if len(memoryview(input)) and not self._emitted:
            self._emitted = True
            return "\ufffd"
        return ""

    def reset(self) -> None:
        self._emitted = False


def _gb18030_errors(exc: UnicodeError) -> tuple[str, int]:
    """Replacement error mode for gb18030, plus its one single-byte extra.

    The Encoding Standard's gb18030 decoder maps a lone byte 0x80 to U+20AC (as
    windows-936 did); Python's codec reports it as invalid.
    """
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    if exc.object[exc.start] == 0x80:
        return "\u20ac", exc.start + 1
    return "\ufffd", exc.end


_GB18030_ERRORS: Final = "stream_mf2.gb18030"
codecs.register_error(_GB18030_ERRORS, _gb18030_errors)

#: Python codecs (and error modes) closer to the Encoding Standard than webencodings' choice.
_CODEC_OVERRIDES: Final[dict[str, tuple[str, str]]] = {
    # The Encoding Standard's GBK decoder *is* the gb18030 decoder (four-byte sequences too).
    "GBK": ("gb18030", _GB18030_ERRORS),
    "gb18030": ("gb18030", _GB18030_ERRORS),
}


#: cp932 (Python's Shift_JIS per the Encoding Standard) decodes the lone bytes 0xA0 and
#: 0xFD-0xFF to private-use U+F8F0-U+F8F3; the Encoding Standard's Shift_JIS decoder
#: treats them as errors. No other byte sequence produces these code points in cp932.
_SHIFT_JIS_FIXES: Final = str.maketrans({0xF8F0: "\ufffd", 0xF8F1: "\ufffd", 0xF8F2: "\ufffd", 0xF8F3: "\ufffd"})


class _ShiftJISDecoder(codecs.IncrementalDecoder):
    """Shift_JIS per the Encoding Standard: cp932 with its four extra single bytes as errors."""

    def __init__(self, errors: str = "replace") -> None:
        super().__init__(errors)
        self._inner = codecs.getincrementaldecoder("cp932")("replace")

    def decode(self, input: Buffer, final: bool = False) -> str:
        return self._inner.decode(input, final).translate(_SHIFT_JIS_FIXES)

    def reset(self) -> None:
        self._inner.reset()


# encoding name -> (incremental decoder class, error mode): looked up once per encoding
# (a finite set), not through webencodings for every document.
_DECODER_FACTORIES: Final[dict[str, tuple[Callable[[str], codecs.IncrementalDecoder], str]]] = {}


def _make_decoder(encoding: str) -> codecs.IncrementalDecoder:
    """An incremental decoder for a canonical encoding name, in replacement error mode."""
    if encoding == _WINDOWS_1252:
        return _Windows1252Decoder()
    if encoding == "Shift_JIS":
        return _ShiftJISDecoder()
    if encoding == "replacement":
        return _ReplacementDecoder()
    known = _DECODER_FACTORIES.get(encoding)
    if known is None:
        override = _CODEC_OVERRIDES.get(encoding)
        if override is not None:
            codec, errors = override
            known = (codecs.getincrementaldecoder(codec), errors)
        else:
            enc = webencodings.lookup(encoding)
            assert enc is not None, encoding
            factory = enc.codec_info.incrementaldecoder
            assert factory is not None, encoding
            known = (factory, "replace")
        _DECODER_FACTORIES[encoding] = known
    factory, errors = known
    return factory(errors)



def decoded_length(encoding: str, data: bytes) -> int:
    """How many characters an incremental decoder for ``encoding`` has produced after ``data``.

    ``encoding`` is a canonical name (as :func:`lookup_encoding` returns it) and
    ``data`` the start of a stream without a byte order mark. An incomplete sequence
    at the end is not counted (the stream goes on), so the answer does not depend on
    how the bytes were split when they were first decoded: a character offset in the
    decoded text can be compared with a byte offset in the stream.
    """
    return len(_make_decoder(encoding).decode(data))


#: Encodings in which ASCII bytes do not simply stand for ASCII characters: UTF-16,
#: ISO-2022-JP (ESC sequences switch its state) and replacement.
_NOT_ASCII_SAFE: Final = frozenset({_UTF16BE, _UTF16LE, "ISO-2022-JP", "replacement"})

_NON_ASCII_BYTE: Final = re.compile(rb"[\x80-\xff]")

# --------------------------------------------------------------------------- prescan


class _OutOfBytes(Exception):
    """The prescan's position went past the bytes available (or its end condition)."""


_FAILURE: Final = "\x00failure"  # charset attribute with an unknown label (not "null")


def extract_encoding_from_meta(s: str) -> str | None:
    """HTML "algorithm for extracting a character encoding from a meta element".

    ``s`` is a ``content`` attribute value such as ``"text/html; charset=utf-8"``.
    Returns the canonical encoding name or ``None``.
    """
    low = s.lower()
    n = len(s)
    pos = 0
    while True:
        i = low.find("charset", pos)
        if i < 0:
            return None
        pos = i + 7
        while pos < n and s[pos] in _SPACE_CHARS:
            pos += 1
        if pos >= n or s[pos] != "=":
            # "move position to just before that character, and jump back to loop"
            continue
        pos += 1
        while pos < n and s[pos] in _SPACE_CHARS:
            pos += 1
        if pos >= n:
            return None
        c = s[pos]
        if c in "\"'":
            end = s.find(c, pos + 1)
            if end < 0:
                return None  # unmatched quote
            return lookup_encoding(s[pos + 1 : end])
        end = pos
        while end < n and s[end] not in _SPACE_CHARS and s[end] != ";":
            end += 1
        return lookup_encoding(s[pos:end])


def _get_attribute(buf: bytes, pos: int, end: int) -> tuple[str | None, str, int]:
    """The prescan's *get an attribute*: ``(name, value, position)``.

    ``name`` is ``None`` when there is no further attribute (``position`` then points
    at the ``>``). Raises :class:`_OutOfBytes` when it runs past ``end``.
    """
    while True:
        if pos >= end:
            raise _OutOfBytes
        b = buf[pos]
        if b in _SPACE_BYTES or b == 0x2F:
            pos += 1
            continue
        break
    if b == 0x3E:
        return None, "", pos
    name = bytearray()
    # Attribute name.
    while True:
        if pos >= end:
            raise _OutOfBytes
        b = buf[pos]
        if b == 0x3D and name:
            pos += 1
            break  # to "value"
        if b in _SPACE_BYTES:
            # "spaces"
            while True:
                if pos >= end:
                    raise _OutOfBytes
                if buf[pos] not in _SPACE_BYTES:
                    break
                pos += 1
            if buf[pos] != 0x3D:
                return name.decode("latin-1"), "", pos
            pos += 1
            break
        if b == 0x2F or b == 0x3E:
            return name.decode("latin-1"), "", pos
        name.append(b + 0x20 if 0x41 <= b <= 0x5A else b)
        pos += 1
    attr_name = name.decode("latin-1")
    # "value"
    while True:
        if pos >= end:
            raise _OutOfBytes
        if buf[pos] not in _SPACE_BYTES:
            break
        pos += 1
    b = buf[pos]
    if b == 0x22 or b == 0x27:
        close = buf.find(bytes([b]), pos + 1, end)
        if close < 0:
            raise _OutOfBytes
        return attr_name, buf[pos + 1 : close].lower().decode("latin-1"), close + 1
    if b == 0x3E:
        return attr_name, "", pos
    start = pos
    pos += 1
    while True:
        if pos >= end:
            raise _OutOfBytes
        b = buf[pos]
        if b in _SPACE_BYTES or b == 0x3E:
            return attr_name, buf[start:pos].lower().decode("latin-1"), pos
        pos += 1


def _meta(buf: bytes, pos: int, end: int) -> tuple[str | None, int]:
    """The ``<meta`` branch of the prescan; ``pos`` is at the space or slash after it."""
    seen: set[str] = set()
    got_pragma = False
    need_pragma: bool | None = None
    charset: str | None = None
    while True:
        name, value, pos = _get_attribute(buf, pos, end)
        if name is None:
            break
        if name in seen:
            continue
        seen.add(name)
        if name == "http-equiv":
            if value == "content-type":
                got_pragma = True
        elif name == "content":
            found = extract_encoding_from_meta(value)
            if found is not None and charset is None:
                charset = found
                need_pragma = True
        elif name == "charset":
            charset = lookup_encoding(value) or _FAILURE
            need_pragma = False
    # "processing"
    if need_pragma is None or (need_pragma and not got_pragma) or charset is None or charset == _FAILURE:
        return None, pos
    if charset in (_UTF16BE, _UTF16LE):
        charset = _UTF8
    elif charset == "x-user-defined":
        charset = _WINDOWS_1252
    return charset, pos


def _is_alpha(b: int) -> bool:
    return 0x41 <= b <= 0x5A or 0x61 <= b <= 0x7A


def _need(buf: bytes, pos: int, n: int, end: int) -> None:
    if pos + n > end:
        raise _OutOfBytes


def _at_lt(buf: bytes, pos: int, end: int) -> tuple[str | None, int]:
    """One iteration of the prescan's *loop* at a ``<``; returns (encoding, position)."""
    _need(buf, pos, 2, end)
    c1 = buf[pos + 1]
    if c1 == 0x21:  # "<!"
        if buf.startswith(b"<!-", pos, end) and pos + 3 >= end:
            raise _OutOfBytes  # "<!-" might still become "<!--"
        if buf.startswith(b"<!--", pos, end):
            # ">" preceded by "--"; the dashes may be those of "<!--" itself.
            close = buf.find(b"-->", pos + 2, end)
            if close < 0:
                raise _OutOfBytes
            return None, close + 2
    elif c1 in (0x4D, 0x6D):  # "<m": maybe "<meta" + space or slash
        avail = min(end - pos, 6)
        if buf[pos : pos + min(avail, 5)].lower() == b"<meta"[: min(avail, 5)]:
            _need(buf, pos, 6, end)
            if buf[pos + 5] in _SPACE_BYTES or buf[pos + 5] == 0x2F:
                return _meta(buf, pos + 5, end)
    if _is_alpha(c1) or c1 == 0x2F:
        if c1 == 0x2F:
            _need(buf, pos, 3, end)
        if _is_alpha(c1) or _is_alpha(buf[pos + 2]):
            # A start or end tag: skip its name, then its attributes.
            p = pos + 2
            while True:
                if p >= end:
                    raise _OutOfBytes
                b = buf[p]
                if b in _SPACE_BYTES or b == 0x3E:
                    break
                p += 1
            while True:
                name, _, p = _get_attribute(buf, p, end)
                if name is None:
                    return None, p
    if c1 in (0x21, 0x2F, 0x3F):  # "<!", "</", "<?": bogus comment up to ">"
        close = buf.find(b">", pos + 1, end)
        if close < 0:
            raise _OutOfBytes
        return None, close
    return None, pos  # any other byte


# A whole start or end tag that is not ``<meta`` + space or slash, attributes included, as
# the prescan's loop skips it (``_at_lt`` and *get an attribute*, one byte at a time):
# a name run, then attributes (a name whose first byte may be "=", then optionally
# spaces, "=", spaces and a quoted, empty-before-">" or unquoted value), up to ">".
# Possessive quantifiers keep it to that one reading. A tag it does not match (a
# ``<meta``, or one that runs past the end) goes through ``_at_lt``.
_S = rb"[\t\n\x0c\r ]"
_PLAIN_TAG: Final = re.compile(
    rb"<(?![Mm][Ee][Tt][Aa][\t\n\x0c\r /])(?:[A-Za-z]|/[A-Za-z])[^\t\n\x0c\r >]*+"
    rb"(?:[\t\n\x0c\r /]*+[^\t\n\x0c\r />][^\t\n\x0c\r />=]*+"
    rb"(?:" + _S + rb"*+=" + _S + rb"""*+(?:"[^"]*+"|'[^']*+'|[^\t\n\x0c\r >"'][^\t\n\x0c\r >]*+|(?=>))|"""
    + _S + rb"*+(?!=)))*+"
    rb"[\t\n\x0c\r /]*+>"
)


# The commonest deciding tag, ``<meta charset="utf-8">``: a ``<meta`` whose one attribute
# is ``charset`` with a value (quoted, or unquoted and not empty), up to its ">". The
# prescan's ``<meta`` branch (``_meta``) gives for it the encoding the value names
# (lower-cased as *get an attribute* does), or, for an unknown label, nothing and goes
# on after the ">". A ``<meta`` it does not match goes through ``_at_lt``.
_META_CHARSET: Final = re.compile(
    rb"<[Mm][Ee][Tt][Aa][\t\n\x0c\r /]++[Cc][Hh][Aa][Rr][Ss][Ee][Tt]" + _S + rb"*+=" + _S
    + rb"""*+(?:"([^"]*+)"|'([^']*+)'|([^\t\n\x0c\r >"'][^\t\n\x0c\r >]*+))[\t\n\x0c\r /]*+>"""
)


def _charset_of(value: bytes) -> str | None:
    """What ``_meta`` decides for a ``<meta>`` whose one attribute is ``charset=value``."""
    charset = lookup_encoding(value.lower().decode("latin-1"))
    if charset in (_UTF16BE, _UTF16LE):
        return _UTF8
    if charset == "x-user-defined":
        return _WINDOWS_1252
    return charset


def prescan(buf: bytes, start: int = 0, end: int | None = None) -> tuple[str | None, int]:
    """*Prescan a byte stream to determine its encoding* over ``buf[start:end]``.

    Returns ``(encoding, after)`` when a ``<meta>`` (or, at ``start == 0``, a UTF-16 XML
    declaration) decides, ``after`` being the offset just past the deciding bytes; else
    ``(None, resume)`` where ``resume`` is where the prescan ran out of bytes.

    Every step of the loop depends only on the bytes from its own position onwards, so calling again with ``start=resume`` once more bytes have
    arrived gives the same answer as rescanning from 0, without the quadratic cost.
    The caller applies :func:`get_xml_encoding` when the prescan is finally aborted.
    """
    if end is None:
        end = len(buf)
    pos = start
    plain_tag = _PLAIN_TAG.match
    meta_charset = _META_CHARSET.match
    # (Two bytes that are not NUL cannot begin either UTF-16 pattern, nor be a prefix of one.)
    if pos == 0 and not (end > 1 and buf[0] and buf[1]):
        head = buf[: min(end, 6)]
        for pattern, enc in ((b"<\x00?\x00x\x00", _UTF16LE), (b"\x00<\x00?\x00x", _UTF16BE)):
            if head == pattern:
                return enc, 6
            if len(head) < 6 and pattern.startswith(head) and head:
                return None, 0  # cannot tell yet
    while True:
        lt = buf.find(b"<", pos, end)
        if lt < 0:
            return None, end
        # Both matches need a letter or "/" after the "<"; for any other tag ("<!doctype",
        # "<!--") only the steps apply
        c1 = buf[lt + 1] if lt + 1 < end else 0
        if c1 == 0x21 and not buf.startswith(b"-", lt + 2, end):
            # "<!" not followed by "-" ("<!doctype html>"): _at_lt's bogus comment, up to ">".
            close = buf.find(b">", lt + 2, end)
            if close < 0:
                return None, lt
            pos = close + 1
            continue
        if 0x61 <= (c1 | 0x20) <= 0x7A or c1 == 0x2F:
            m = plain_tag(buf, lt, end)
            if m is not None:
                pos = m.end()  # just past the ">", as "next byte" after _at_lt
                continue
            if c1 == 0x4D or c1 == 0x6D:
                m = meta_charset(buf, lt, end)
                if m is not None:
                    found = _charset_of(m[1] if m[1] is not None else m[2] if m[2] is not None else m[3])
                    pos = m.end()
                    if found is not None:
                        return found, pos
                    continue
        try:
            found, pos = _at_lt(buf, lt, end)
        except _OutOfBytes:
            return None, lt
        pos += 1  # "next byte"
        if found is not None:
            return found, pos


def get_xml_encoding(buf: bytes) -> str | None:
    """HTML *get an XML encoding*: the encoding of a leading ``<?xml ... encoding="..."``."""
    if not buf.startswith(b"<?xml"):
        return None
    gt = buf.find(b">")
    if gt < 0:
        return None
    pos = buf.find(b"encoding", 0, gt)
    if pos < 0:
        return None
    pos += 8
    n = len(buf)
    while pos < n and buf[pos] <= 0x20:
        pos += 1
    if pos >= n or buf[pos] != 0x3D:
        return None
    pos += 1
    while pos < n and buf[pos] <= 0x20:
        pos += 1
    if pos >= n or buf[pos] not in (0x22, 0x27):
        return None
    close = buf.find(buf[pos : pos + 1], pos + 1)
    if close < 0:
        return None
    label = buf[pos + 1 : close]
    if any(b <= 0x20 for b in label):
        return None
    enc = lookup_encoding(label.decode("latin-1"))
    if enc in (_UTF16BE, _UTF16LE):
        enc = _UTF8
    return enc


def _bom(buf: bytes | bytearray) -> tuple[str | None, int, bool]:
    """Encoding Standard *BOM sniff*: ``(encoding, bom_length, undecided)``.

    ``undecided`` is true when ``buf`` is a proper prefix of a BOM (wait for more).
    """
    if buf.startswith(b"\xef\xbb\xbf"):
        return _UTF8, 3, False
    if buf.startswith(b"\xfe\xff"):
        return _UTF16BE, 2, False
    if buf.startswith(b"\xff\xfe"):
        return _UTF16LE, 2, False
    undecided = len(buf) == 0 or (len(buf) < 3 and b"\xef\xbb\xbf".startswith(buf)) or buf in (b"\xfe", b"\xff")
    return None, 0, undecided


def _is_utf8_with_non_ascii(held: bytes, at_eof: bool) -> bool:
    if held.isascii():
        return False
    try:
        # An incomplete sequence at the end of the held bytes is fine unless the stream ended.
        codecs.getincrementaldecoder("utf-8")("strict").decode(held, final=at_eof)
    except UnicodeDecodeError:
        return False
    return True


class Decoder:
    """Incremental bytes-to-text decoder with WHATWG encoding sniffing.

    ``transport_encoding`` is the charset label from the transport layer (e.g. the
    ``charset`` parameter of ``Content-Type``); an unknown label is ignored, as the
    spec says. ``default`` is the label used when nothing else decides (the spec's
    suggestion for most locales is windows-1252).

    ``detect_utf8`` (default ``True``) is the spec's optional autodetection step: when
    there is no BOM, transport charset or declaration, and the held bytes (at most
    ``prescan_bytes``) contain non-ASCII bytes that are all valid UTF-8, UTF-8 is chosen
    with confidence *tentative* and ``source == "utf8-detect"``. It is on by default
    because nearly all of today's web is UTF-8 and a windows-1252 byte sequence that
    happens to be valid multi-byte UTF-8 is rare, so the check almost never picks UTF-8
    wrongly, while a missing declaration on a UTF-8 page is common; it only ever looks
    at the bytes the sniffer holds anyway, so it costs no extra buffering. Set it to
    ``False`` for exactly the spec's non-heuristic behaviour (the conformance tests run
    both ways).

    ``prescan_bytes`` is the prescan's end condition (1024 in the spec's advice) and
    the most bytes this decoder ever holds back for sniffing.

    ``keep_for_change`` makes the decoder keep the raw bytes that
    :meth:`change_encoding_at` may have to decode again: only while the confidence
    is tentative, and only from the offset last passed to :meth:`release` (the
    caller's consumed position); once the caller has consumed a non-ASCII byte no
    switch is possible and nothing is kept.

    :meth:`for_reparse` makes the decoder for a document parsed again after *change
    the encoding* asked for it (:attr:`reparse_encoding`).
    """

    __slots__ = (
        "_bom_len",
        "_buf",
        "_closed",
        "_confidence",
        "_decoder",
        "_default",
        "_detect_utf8",
        "_encoding",
        "_fed",
        "_kept",
        "_kept_start",
        "_non_ascii_at",
        "_prescan_bytes",
        "_reparse",
        "_scan_pos",
        "_source",
        "_transport",
    )

    def __init__(
        self,
        transport_encoding: str | None = None,
        *,
        default: str = "windows-1252",
        detect_utf8: bool = True,
        prescan_bytes: int = 1024,
        keep_for_change: bool = False,
    ) -> None:
        self._transport = lookup_encoding(transport_encoding) if transport_encoding else None
        default_enc = lookup_encoding(default)
        if default_enc is None:
            raise ValueError(f"unknown default encoding label {default!r}")
        if prescan_bytes < 0:
            raise ValueError("prescan_bytes must be >= 0")
        self._default = default_enc
        self._detect_utf8 = detect_utf8
        self._prescan_bytes = prescan_bytes
        self._buf = bytearray()
        self._scan_pos = 0
        self._bom_len = 0
        self._decoder: codecs.IncrementalDecoder | None = None
        self._encoding: str | None = None
        self._confidence: str | None = None
        self._source: str | None = None
        self._closed = False
        self._fed = 0  # bytes fed so far
        self._non_ascii_at: int | None = None  # offset of the first non-ASCII byte fed
        # Raw bytes from offset _kept_start on, for change_encoding_at().
        self._kept: bytearray | None = bytearray() if keep_for_change else None
        self._kept_start = 0
        self._reparse: str | None = None

    @classmethod
    def for_reparse(cls, label: str) -> Decoder:
        """The decoder for a document navigated to again by *change the encoding* (step 6).

        The spec's second parse skips the sniffing algorithm: the encoding ``label``
        names (normally :attr:`reparse_encoding`), confidence *certain*, ``source``
        ``"meta-reparse"``. No byte order mark is looked for: a document that had one
        was *certain* from the start and never asks for a re-parse.
        """
        encoding = lookup_encoding(label)
        if encoding is None:
            raise ValueError(f"unknown encoding label {label!r}")
        decoder = cls(detect_utf8=False)
        decoder._decide(encoding, "certain", "meta-reparse")
        decoder._decoder = _make_decoder(encoding)
        return decoder

    # -- public state -------------------------------------------------------

    @property
    def encoding(self) -> str | None:
        """The chosen encoding's Encoding Standard name (``"UTF-8"``, ``"Shift_JIS"``,
        ``"windows-1252"``, ...), or ``None`` while still sniffing."""
        return self._encoding

    @property
    def confidence(self) -> str | None:
        """``"certain"`` (BOM, transport) or ``"tentative"``; ``None`` while sniffing."""
        return self._confidence

    @property
    def source(self) -> str | None:
        """What decided: ``"bom"``, ``"transport"``, ``"meta"`` (the prescan), ``"xml"``
        (an XML declaration, including the UTF-16 ``<?x`` pattern), ``"utf8-detect"``,
        ``"default"``, ``"meta-change"`` after :meth:`change_encoding` switched, or
        ``"meta-reparse"`` for a decoder made by :meth:`for_reparse`; ``None`` while
        sniffing."""
        return self._source

    @property
    def reparse_encoding(self) -> str | None:
        """The encoding a *change the encoding* refused at step 6 asked for, else ``None``.

        Set when :meth:`change_encoding` or :meth:`change_encoding_at` returned
        ``False`` because switching on the fly was not possible and the spec navigates
        to the document again: the document should be parsed from its first byte with
        this encoding (:meth:`for_reparse`). Already mapped by steps 2 and 3 (UTF-16
        labels give UTF-8, x-user-defined gives windows-1252).
        """
        return self._reparse

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has been called."""
        return self._closed

    @property
    def keeping(self) -> bool:
        """Whether raw bytes are still kept for :meth:`change_encoding_at`."""
        return self._kept is not None

    @property
    def decided(self) -> bool:
        """Whether the encoding has been chosen."""
        return self._decoder is not None

    # -- feeding ------------------------------------------------------------

    def feed(self, data: bytes) -> str:
        """Take the next chunk; return the text decodable so far (``""`` while sniffing)."""
        if self._closed:
            raise ValueError("feed() after close()")
        if self._non_ascii_at is None and not data.isascii():
            m = _NON_ASCII_BYTE.search(data)
            assert m is not None
            self._non_ascii_at = self._fed + m.start()
        self._fed += len(data)
        if self._kept is not None:
            self._kept += data
        if self._decoder is not None:
            return self._decoder.decode(data)
        self._buf += data
        if self._sniff(final=False):
            return self._start()
        return ""

    def commit(self) -> str:
        """Decide the encoding now with the bytes that have arrived, and return their text.

        For a stream that stalls before ``prescan_bytes`` bytes: the prescan is aborted
        as if the stream had ended there (an unfinished ``<meta`` is ignored), and a BOM
        that has only partly arrived is not recognised. Does nothing once decided.
        """
        if self._decoder is not None or self._closed:
            return ""
        self._sniff(final=True)
        return self._start()

    def close(self) -> str:
        """End of stream: decide if still undecided, flush, return the remaining text.

        An incomplete multi-byte sequence at the end becomes U+FFFD.
        """
        if self._closed:
            return ""
        out = ""
        if self._decoder is None:
            self._sniff(final=True, eof=True)
            out = self._start()
        assert self._decoder is not None
        self._closed = True
        return out + self._decoder.decode(b"", final=True)

    def release(self, upto: int) -> None:
        """The caller has consumed the text of the first ``upto`` bytes (no BOM, so while
        that text is ASCII, characters and bytes are counted alike).

        Bytes before ``upto`` are no longer kept. Once ``upto`` is past a non-ASCII
        byte, no later declaration can switch the encoding, so nothing more is kept.
        """
        kept = self._kept
        if kept is None:
            return
        if self._non_ascii_at is not None and upto > self._non_ascii_at:
            self._kept = None
            return
        drop = upto - self._kept_start
        if drop > 0:
            del kept[:drop]
            self._kept_start = upto

    def change_encoding(self, label: str) -> bool:
        """HTML *change the encoding* at the current position of the byte stream.

        Returns ``True`` when the rest of the stream is (now) decoded with the encoding
        ``label`` names: it already was, or the decoder could switch on the fly because
        every byte fed so far was ASCII and both encodings agree on ASCII. Returns
        ``False`` when the label is unknown, the confidence was already *certain*, the
        document is UTF-16, or the spec would re-parse the document from the start
        (then :attr:`reparse_encoding` names the encoding to re-parse with): the
        current encoding is kept. Either way the confidence ends *certain*, so later
        declarations are ignored, as the spec requires.

        "Every byte fed so far" depends on how the input was split; a parser uses
        :meth:`change_encoding_at`, which does not.
        """
        return self._change(label, self._fed)[0]

    def declares_current(self, label: str) -> bool:
        """Whether a *change the encoding* for ``label`` finds the encoding in use (step 2).

        ``True`` when the label names (after steps 2 and 3 map UTF-16 labels to UTF-8
        and x-user-defined to windows-1252) the encoding decoding the input now, in a
        document that is not UTF-16: :meth:`change_encoding` then only makes the
        confidence *certain*, wherever the declaration ends, so a parser needs no stop
        at the tag's end (the usual ``<meta charset>`` that the prescan already read).
        """
        if self._decoder is None or self._confidence == "certain":
            return False
        current = self._encoding
        if current in (_UTF16BE, _UTF16LE):
            return False
        new = lookup_encoding(label)
        if new in (_UTF16BE, _UTF16LE):
            new = _UTF8
        elif new == "x-user-defined":
            new = _WINDOWS_1252
        return new is not None and new == current

    def confirm_current(self, label: str) -> bool:
        """:meth:`change_encoding` for ``label`` when :meth:`declares_current` is true: the
        confidence becomes *certain* (and no bytes are kept); ``False``, changing nothing,
        otherwise. One call for the usual ``<meta charset>`` the prescan already read."""
        if not self.declares_current(label):
            return False
        # (what _change does for the encoding in use: certain, nothing kept, no switch)
        self._confidence = "certain"
        self._kept = None
        return True

    def change_encoding_at(self, label: str, at: int) -> tuple[bool, str]:
        """HTML *change the encoding* for a declaration whose tag ends at byte offset ``at``.

        As :meth:`change_encoding`, but the criterion for switching is that every byte
        before ``at`` is ASCII, whatever has been fed after it, and on a switch the
        kept bytes from ``at`` on (fed already, and converted by the old decoder) are
        decoded again with the new encoding. Returns ``(in_use, text)``: ``in_use`` as
        for :meth:`change_encoding`; ``text`` is the new decoding of the bytes from
        ``at`` to the end of what was fed (``""`` unless the decoder switched), which
        replaces whatever the old decoder produced for them. Needs ``keep_for_change``.
        """
        return self._change(label, at)

    def _change(self, label: str, at: int) -> tuple[bool, str]:
        if self._decoder is None:
            raise RuntimeError("change_encoding() before the encoding was decided")
        new = lookup_encoding(label)
        if new is None:
            return False, ""
        if self._confidence == "certain":
            return new == self._encoding, ""
        self._confidence = "certain"
        kept, kept_start = self._kept, self._kept_start
        self._kept = None
        current = self._encoding
        if current in (_UTF16BE, _UTF16LE):
            return False, ""  # step 1: a UTF-16 document ignores the declaration
        if new in (_UTF16BE, _UTF16LE):
            new = _UTF8
        elif new == "x-user-defined":
            new = _WINDOWS_1252
        if new == current:
            return True, ""
        if (
            (self._non_ascii_at is not None and self._non_ascii_at < at)
            or current in _NOT_ASCII_SAFE
            or new in _NOT_ASCII_SAFE
        ):
            # Step 6: navigate to the document again. A decoder cannot restart the
            # stream; it names the encoding, and the caller re-parses if it can.
            self._reparse = new
            return False, ""
        # Step 5: an ASCII-only prefix means the same in both encodings and leaves no
        # partial sequence in the old decoder, so the new one can take over at ``at``.
        decoder = _make_decoder(new)
        text = ""
        if at < self._fed:
            if kept is None or at < kept_start:
                raise RuntimeError("the bytes after the declaration were not kept (keep_for_change)")
            text = decoder.decode(bytes(kept[at - kept_start :]), final=self._closed)
        elif self._closed:
            text = decoder.decode(b"", final=True)
        self._decoder = decoder
        self._encoding = new
        self._source = "meta-change"
        return True, text

    # -- internals ----------------------------------------------------------

    def _decide(self, encoding: str, confidence: str, source: str, bom_len: int = 0) -> bool:
        self._encoding = encoding
        self._confidence = confidence
        self._source = source
        self._bom_len = bom_len
        return True

    def _sniff(self, final: bool, eof: bool = False) -> bool:
        """Run the sniffing algorithm on the held bytes; ``True`` once decided.

        With ``final`` the decision must be taken now (close / commit); ``eof`` says
        the held bytes are the whole stream.
        """
        buf = bytes(self._buf)
        enc, bom_len, undecided = _bom(buf)
        if enc is not None:
            return self._decide(enc, "certain", "bom", bom_len)
        if undecided and not final:
            return False
        if self._transport is not None:
            return self._decide(self._transport, "certain", "transport")
        limit = min(len(buf), self._prescan_bytes)
        found, resume = prescan(buf, self._scan_pos, limit)
        if found is not None:
            # A meta never yields UTF-16 (it becomes UTF-8), so UTF-16 here is the
            # prescan's UTF-16 "<?x" check.
            source = "xml" if found in (_UTF16BE, _UTF16LE) else "meta"
            return self._decide(found, "tentative", source)
        self._scan_pos = resume
        if not final and len(buf) < self._prescan_bytes:
            return False  # ran out of bytes before the end condition: wait
        held = buf[:limit]
        xml = get_xml_encoding(held)
        if xml is not None:
            return self._decide(xml, "tentative", "xml")
        if self._detect_utf8 and _is_utf8_with_non_ascii(held, at_eof=eof and limit == len(buf)):
            return self._decide(_UTF8, "tentative", "utf8-detect")
        return self._decide(self._default, "tentative", "default")

    def _start(self) -> str:
        assert self._encoding is not None
        self._decoder = _make_decoder(self._encoding)
        held = bytes(self._buf[self._bom_len :])
        self._buf = bytearray()
        if self._confidence == "certain":
            self._kept = None  # no declaration can change a certain encoding
        return self._decoder.decode(held)
