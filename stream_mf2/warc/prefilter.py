"""The archive pre-filter: which HTML records cannot hold a microformats item (``--prefilter``).

Most pages of a crawl carry no microformats. When a run wants only items, a record
whose body bytes cannot contain a root class name need not be parsed at all:
:class:`Prefilter` scans the decoded body bytes (after ``Content-Encoding`` and
chunking are undone, before any character decoding) for the matches of one compiled
regular expression, :data:`ROOTS` (found fast through a byte-class needle, see
:func:`scan`), and answers *maybe* (parse it) or *skip*.

The test is conservative: when it says *skip*, :func:`stream_mf2.parse` of those
bytes yields no item, whatever encoding the parse picks and whatever options it is
given (``filter_roots`` only takes roots away); with ``metaformats`` it also yields
no ``meta-item``. Anything the argument below does not cover makes it say *maybe*.

Why *skip* is safe
------------------

An item needs an element whose ``class`` attribute value, split on ASCII
whitespace (``\\t \\n \\f \\r`` and space, :mod:`stream_mf2.mf2.classes`), holds a
root class name: an ``h-*`` name valid by the naming rule (``h-`` then
``(?:[a-z0-9]+-)?[a-z]+(?:-[a-z]+)*``, lowercase, case-sensitive), or a classic
(mf1) root name of :data:`stream_mf2.mf2.backcompat_data.ROOT_CLASSES` (``vcard``,
``hentry``, ``hfeed``, ``vevent``, ``hreview``, ``hreview-aggregate``, ``hproduct``,
``hrecipe``, ``hresume``, ``hnews``, ``geo``, ``adr``: exact tokens). Nested items,
children, ``--type`` selections (any depth), the hReview ``item`` (typed ``h-item``
only inside an hReview root) and the mf1 ``include`` pattern all need such a root
somewhere in the document, so "no root class anywhere" means "no item at all".
Items are made from the tree the parse builds, and every attribute value in that
tree comes from the source text (the tree builder only copies values: adoption
agency clones, foster parenting); the scan covers every byte of the document, so
comments, ``<template>`` contents, ``<noscript>``, ``<script>`` text and markup
that the tree builder drops are scanned too: a root name there makes *maybe*, never
*skip* (over-inclusive, never under).

1. **Bytes to characters.** The decoded text is what the tokenizer sees. If the
   body holds a NUL byte (``0x00``) or an ESC byte (``0x1B``), the answer is *maybe*.
   Without them, every encoding the parse can pick (by BOM, HTTP ``charset``, the
   ``encoding`` option, ``<meta charset>``, an XML declaration, UTF-8 detection,
   the default, or a ``<meta>`` found later that changes the encoding: all are
   WHATWG Encoding Standard encodings, :func:`stream_mf2.html.decode.lookup_encoding`)
   is *ASCII-faithful* on the body: an ASCII character of the decoded text comes
   from one byte of the same value, and consecutive ASCII characters come from
   consecutive bytes. For the single-byte encodings, UTF-8, EUC-JP, EUC-KR,
   Shift_JIS, Big5 and gb18030/GBK, a multi-byte sequence decodes to a non-ASCII
   character or to U+FFFD, and a byte that breaks a sequence is decoded again on
   its own; ISO-2022-JP leaves ASCII only through an ESC escape sequence, so
   without ESC it decodes ASCII bytes as themselves (and other bytes as U+FFFD);
   UTF-16LE/BE decode an ASCII character only from a code unit with a zero byte, so
   without NUL they decode no ASCII at all: no ``<``, no tag, no item (UTF-32 is no
   Encoding Standard encoding; its ASCII needs NUL bytes too); *replacement* gives
   one U+FFFD. (``tests/warc/test_prefilter_encodings.py`` checks this property on
   every encoding's decoder, exhaustively on byte pairs.) So every run of ASCII
   characters of the text -- a root name with the character before and after it --
   is also a run of the same bytes.
2. **Character references.** Attribute values decode character references. A
   numeric reference (``&#104;``, ``&#x68``, ``&#0000104;``, with or without ``;``)
   whose value is an ASCII whitespace character, a digit, a lowercase letter or
   ``-`` makes *maybe* wherever it is (any other value gives no character a root name
   or a class separator can hold: ``&#x80;``-``&#x9F;`` map to windows-1252
   characters, none ASCII, and ``&#0;``, surrogates and out-of-range values to
   U+FFFD). Of the named references (HTML's table, checked by the tests),
   none decodes to a digit or ``-``; only ``&fjlig;`` decodes to letters (``fj``,
   in no mf1 name); only ``&Tab;`` and ``&NewLine;`` decode to whitespace, and
   both end in ``;``. So, once those numeric references are absent, the characters
   of a root name are the same bytes in the body, except that an ``h-*`` name may
   hold ``&fjlig;`` after its ``h-``: an ``&`` there makes *maybe*.
3. **Where a name starts and ends.** A class token starts at the start of the value
   or after whitespace. In the bytes, the byte before its first character is then
   the value's opening quote (``"`` ``'``), the ``=`` of an unquoted value or the
   whitespace after it, a whitespace byte, or a reference that decoded to
   whitespace: numeric ones are *maybe* already (point 2), so only ``&Tab;`` and
   ``&NewLine;``. The scan asks for one of ``\\t \\n \\f \\r`` space ``"`` ``'``
   ``=``, ``&Tab;`` or ``&NewLine;`` there, or the start of the body. (Another
   reference before a name glues a character to it: ``&quot;h-entry``, as in an
   escaped code sample, is the token ``"h-entry`` in an attribute, and no class
   at all in text.) It does not look at the attribute's name: ``CLASS=``, ``class =``,
   unquoted values and other attributes are all covered, at the cost of a *maybe*
   for the same tokens in text or other attributes. A token ends at whitespace or
   at the end of the value: the next byte is whitespace, a quote, ``>`` (end of an
   unquoted value), ``&`` (a reference), or the body ends (``EOF`` in a tag).
   (A CR LF pair that the input stream turns into one LF leaves a whitespace byte
   next to the name either way.)
4. **Metaformats.** With ``metaformats`` the record line carries the
   ``meta-item`` built from ``<meta>``, ``<title>`` and ``<link rel=canonical>``:
   those start tags (ASCII ``<`` and a case-insensitive name, kept by point 1)
   make *maybe* too.

What is read before the answer is held (the body is not parsed yet); a body that
reaches :data:`DEFAULT_MAX_PREFILTER_BYTES` (``max_prefilter_bytes``) without a
*maybe* is parsed anyway, so memory stays bounded and nothing is lost.

The scan resumes where it stopped: the bytes that came since the last search (a
:data:`BLOCK` of them, or the rest at the end of the body) are searched together
with the last :data:`OVERLAP` bytes before them, which cover every match (a match
spans at most ``OVERLAP`` bytes, the characters around it included: a longer
``h-*`` name matches by its first 130 bytes), and 16 more for the look-behind, so
the total work is linear in the body. A match that reaches the end of what is
searched is put off until more bytes (or the end of the body) come, so the answer
is the same however the body is cut into pieces, and whatever the block size.

Where the time goes: a skipped body is copied once into its block, then mapped by
``replace`` and ``translate`` and searched by one ``find`` pass for the needle, plus
``find`` passes over the bytes themselves for ``adr`` and for NUL / ESC (memchr), all in
C; Python runs once per block and once per needle hit (about 1.4 per KB of the
crawl-like pages: "height", "header"), each rejected by one set look-up. About 24
instructions a byte; on the crawl-like archive of ``bench.warc_bench`` this is about a
sixth of the run with ``--prefilter``; the rest is the parse of the pages that may
hold items, inflating the archive's gzip members, and start-up.
"""

from __future__ import annotations

import re
from typing import Final

from stream_mf2.mf2.backcompat_data import ROOT_CLASSES

#: Default ``max_prefilter_bytes``: a record body held this long without a root-like
#: name is parsed anyway (memory stays bounded; the answer is then "maybe").
DEFAULT_MAX_PREFILTER_BYTES: Final = 8 * 1024 * 1024

# The byte before a class token's first character (point 3 of the module docs).
_BEFORE: Final = rb"(?:(?<=[\t\n\f\r \"'=])|(?<=&Tab;)|(?<=&NewLine;)|^)"
# The byte after a class token's last character, or the end of what is held.
_AFTER: Final = rb"(?=[\t\n\f\r \"'&>]|\Z)"
# Longest names first, so that an alternation tries ``hreview-aggregate`` before ``hreview``.
_MF1: Final = b"|".join(re.escape(n.encode("ascii")) for n in sorted(ROOT_CLASSES, key=lambda n: (-len(n), n)))
# Numeric references to ASCII whitespace (9, 10, 12, 13, 32), "-" (45), digits (48-57)
# and lowercase letters (97-122), with up to 8 leading zeros; more zeros than that are
# "maybe" whatever follows (keeps every match short, see OVERLAP).
_DEC: Final = rb"&\#(?:0{0,8}(?:9|1[023]|32|45|4[89]|5[0-7]|9[7-9]|1[01][0-9]|12[0-2])(?![0-9])|0{9})"
_HEX: Final = rb"&\#[xX](?:0{0,8}(?:9|[aAcCdD]|20|2[dD]|3[0-9]|6[1-9a-fA-F]|7[0-9aA])(?![0-9a-fA-F])|0{9})"
# A token starting "h-" with this many name characters is "maybe" whatever follows, so that
# no match is longer than OVERLAP (an h-* name, or "h-...&", is otherwise unbounded).
_LONG: Final = 128
_META: Final = rb"<(?i:meta|title|link)[\t\n\f\r />]"

# The long-name alternative comes first: a match is the first alternative that matches, and
# a long name must give the short match (an h-* name of 300 letters that reaches the end of
# what is held is otherwise put off, and its start is out of the next search's overlap).
_ROOTS: Final = (
    rb"%s(?:h-[a-z0-9-]{%d}|h-(?:[a-z0-9]+-)?[a-z]+(?:-[a-z]+)*%s|h-[a-z0-9-]*&|(?:%s)%s)|%s|%s|[\x00\x1b]"
    % (_BEFORE, _LONG, _AFTER, _MF1, _AFTER, _DEC, _HEX)
)

#: The precise test, tried where the needle (see below) is found (with ``metaformats``,
#: _META is searched on its own).
ROOTS: Final = re.compile(_ROOTS)
_META_RE: Final = re.compile(_META)

#: Every match is at most this long (a root name with the bytes around it, a reference).
OVERLAP: Final = 256

# The fast part. ``re`` tries an alternation at every byte (about 30 MB/s); the bytes are
# instead mapped by one ``bytes.translate`` (a table look-up per byte) into classes, and one
# needle is found with ``bytes.find``. Every match of ROOTS but ``adr`` starts with it: a
# class token is a boundary byte (B: the bytes of _BEFORE, ";" for ``&Tab;`` / ``&NewLine;``)
# then its first two characters -- h-* (h, -), vcard (v, c), hentry (h, e), hfeed (h, f),
# hnews (h, n), hproduct (h, p), hrecipe / hresume / hreview* (h, r), vevent (v, e), geo
# (g, e): "B H X"; a numeric reference starts "&#" then a digit or x / X: "B H X" too (& is in
# B, # in H). ``adr`` is found in the bytes themselves (``find(b"adr")``, then a look at the
# byte before it): "a" and "d" as classes of their own would need a second needle, and its
# hits (" add", " ads", " admin") outnumber the few "adr" of a page. Each hit is checked by a
# set look-up of the three bytes after the boundary (:data:`_HEADS`), then with ROOTS.
_B: Final = b"\t\n\f\r \"'=;&"
_H: Final = b"hvg#"
_X: Final = b"-cefnpr0123456789xX"


def _table() -> bytes:
    table = bytearray(b"." * 256)
    for chars, cls in ((_B, b"B"), (_H, b"H"), (_X, b"X")):
        for c in chars:
            table[c] = cls[0]
    return bytes(table)


_TABLE: Final = _table()
_NEEDLE: Final = b"BHX"
#: The bytes a class token can start after: a hit of ``adr`` is checked only after one of them.
_BOUNDARY: Final = frozenset(_B)
# What a class token that ROOTS can match starts with: "h-", or the first three letters of
# a classic root name (all are at least three letters long).
_STARTS: Final = (b"h-", *sorted(n.encode("ascii") for n in ROOT_CLASSES))
#: The three bytes after a needle's boundary byte that may start a match (anything else is a
#: miss, decided by one set look-up): the first three letters of a classic root name, "h-"
#: then any byte (ROOTS at the name), "#" then a digit or x / X then any byte (ROOTS at the
#: boundary byte, the "&" of a numeric reference). A hit with fewer than three bytes after its
#: boundary (the end of what is searched) is checked with ROOTS too.
_NAME_HEADS: Final = frozenset(
    {n[:3].encode("ascii") for n in ROOT_CLASSES} | {b"h-" + bytes((c,)) for c in range(256)}
)
_REF_HEADS: Final = frozenset(b"#" + bytes((d, c)) for d in b"0123456789xX" for c in range(256))
_HEADS: Final = _NAME_HEADS | _REF_HEADS
#: Bytes kept before the part of a body still to search: the OVERLAP searched again, and the
#: look-behind of ROOTS before it (``&NewLine;``, 9 bytes).
_CONTEXT: Final = OVERLAP + 16
#: :class:`Prefilter` searches the pieces fed once this many bytes have come since its last
#: search (or at :meth:`~Prefilter.finish`): one search per block, not per piece.
BLOCK: Final = 64 * 1024


def _found(m: re.Match[bytes] | None, end: int, final: bool) -> bool:
    return m is not None and (final or m.end() < end)


def scan(buf: bytes, start: int, metaformats: bool, final: bool) -> bool:
    """Does ``buf[start:]`` (with the bytes before it as context) hold a match of ROOTS (or _META)?

    ``start == 0`` means ``buf`` starts with the body's first byte. Unless ``final``
    (``buf`` reaches the end of the body), a match that reaches the end of ``buf``
    is not counted: what follows may undo it (``h-abc`` then ``1``); the next scan, which
    starts OVERLAP bytes back, sees it again with what follows. So the answer does not
    depend on how the body was cut into pieces.
    """
    end = len(buf)
    # A NUL or ESC byte (``in`` / ``find`` of one byte: memchr).
    if buf.find(b"\x00", start) >= 0 or buf.find(b"\x1b", start) >= 0:
        return True
    # The body's first byte may start a token (a virtual boundary before it).
    if start == 0 and buf.startswith(_STARTS) and _found(ROOTS.match(buf, 0), end, final):
        return True
    match = ROOTS.match
    # adr: in the bytes, after a boundary byte at ``start`` or later (as a needle's B would be).
    i = buf.find(b"adr", start + 1)
    while i >= 0:
        if buf[i - 1] in _BOUNDARY and _found(match(buf, i), end, final):
            return True
        i = buf.find(b"adr", i + 1)
    if metaformats and buf.find(b"<", start) >= 0:
        for m in _META_RE.finditer(buf, start):
            if final or m.end() < end:
                return True
    # " href=" (every link) would be a hit ("B h r"); no root name starts "href", and no
    # other hit needs those four letters, so they are blanked in the copy that is searched
    # (the same length: positions are kept). The bytes are mapped, not decoded: two
    # passes in C over the bytes, then ``find`` for the needle. (A bytearray's translate
    # takes fewer instructions a byte than a bytes object's, which also checks whether
    # anything changed: worth the copy.)
    find = bytearray(buf).replace(b" href=", b" ....=").translate(_TABLE).find
    heads = _HEADS
    i = find(_NEEDLE, start)
    while i >= 0:
        # i: the boundary byte, or the "&" of "&#". One set look-up rejects most hits
        # ("height", "header", "#eee", ...).
        head = buf[i + 1 : i + 4]
        if head in heads or len(head) < 3:
            if _found(match(buf, i + 1), end, final) or _found(match(buf, i), end, final):
                return True
        i = find(_NEEDLE, i + 1)
    return False


class Prefilter:
    """Feed a record body's pieces, then :meth:`finish`; :attr:`maybe` says whether it may hold an item.

    ``metaformats``: the run also wants the ``meta-item`` (see the module docs).
    ``max_bytes``: hold at most this many bytes; once that many are held without an
    answer, the answer is "maybe" (``None``: no cap). The pieces fed are kept
    (:attr:`held`) so that a "maybe" record is parsed from its first byte. The answer
    is the same however the body is cut into pieces.

    The pieces are kept as they come (not copied into one buffer) and searched
    ``block`` bytes at a time (:data:`BLOCK`; the rest at :meth:`finish`), with the
    last bytes before them as context: a body that is skipped is copied once, into
    the block searched, and searched in a few calls rather than one per piece. (The
    answer does not depend on ``block``; a small one answers "maybe" sooner.)
    """

    def __init__(
        self, *, metaformats: bool = False, max_bytes: int | None = DEFAULT_MAX_PREFILTER_BYTES, block: int = BLOCK
    ) -> None:
        if block < 1:
            raise ValueError("block must be >= 1")
        self._metaformats = metaformats
        self._max = max_bytes
        self._block = block
        self._pieces: list[bytes] = []
        self._fed = 0  # bytes fed
        self._new: list[bytes] = []  # pieces fed since the last search
        self._pending = 0  # their bytes
        self._tail = b""  # the last _CONTEXT bytes searched
        self._searched = 0  # bytes of the body searched; the last OVERLAP of them are searched again
        #: ``True`` once the body may hold an item (or the cap was reached): parse it.
        self.maybe = False
        #: Bytes searched so far, overlaps counted again (at most OVERLAP more per search).
        self.searched_bytes = 0

    @property
    def held(self) -> bytes:
        """The bytes fed so far."""
        return b"".join(self._pieces)

    def _search(self, final: bool) -> bool:
        """Search what came since the last search (with OVERLAP bytes before it again)."""
        tail = self._tail
        new = self._new
        buf = b"".join([tail, *new]) if new else tail  # (one copy)
        self._new = []
        self._pending = 0
        # buf starts at the body's offset self._searched - len(tail); search from OVERLAP back.
        start = max(0, len(tail) - OVERLAP) if self._searched > OVERLAP else 0
        self.searched_bytes += len(buf) - start
        self._searched += len(buf) - len(tail)
        self._tail = buf[-_CONTEXT:]
        return scan(buf, start, self._metaformats, final)

    def feed(self, piece: bytes) -> bool:
        """Add a piece of the body; ``True`` once the answer is "maybe" (then stop feeding)."""
        if self.maybe:
            return True
        if piece:
            piece = bytes(piece)
            self._pieces.append(piece)
            self._new.append(piece)
            self._fed += len(piece)
            self._pending += len(piece)
        # (searched first: the cap makes "maybe" only for a body it found nothing in)
        found = self._pending >= self._block and self._search(False)
        if found or (self._max is not None and self._fed >= self._max):
            self.maybe = True
        return self.maybe

    def finish(self) -> bool:
        """The body has ended: the final answer (``False``: the record cannot hold an item)."""
        if not self.maybe:
            self.maybe = self._search(True)
        return self.maybe


def may_hold_items(body: bytes, *, metaformats: bool = False) -> bool:
    """``False`` when the parse of ``body`` (a whole HTML document's bytes) cannot yield an item.

    The same test as :class:`Prefilter`, on a whole body and without a cap.
    """
    p = Prefilter(metaformats=metaformats, max_bytes=None)
    p.feed(body)
    return p.finish()
