"""Header blocks read at once (the fast path of ``read_head`` / ``read_http_head``) read as line by line.

:func:`stream_mf2.warc.framing.read_head` parses a WARC header block that is wholly
in the buffer in one pass and falls back to reading it line by line otherwise;
:func:`~stream_mf2.warc.framing.read_http_head` reads an HTTP head held whole in one
piece. Both must give what the line-by-line reading gives -- the same fields in the
same order, the same error (message and raw bytes), the same bytes consumed -- for
every block, however the archive's bytes arrive. The oracle is the line-by-line
reader itself (``_read_head_lines``), over a stream that hands out one byte at a time
(so the fast path never sees a whole block).
"""

from __future__ import annotations

import io
import zlib

import pytest

from stream_mf2.io.payload import PayloadError
from stream_mf2.warc.entries import WarcSummary
from stream_mf2.warc.framing import BadHead, Body, Input, Member, _read_head_lines, read_head, read_http_head

_GOOD = (
    b"WARC/1.0\r\n"
    b"WARC-Type: response\r\n"
    b"WARC-Record-ID: <urn:uuid:8f7c2a0e-1111-4d2b-9a51-0c1f2e3d4b5a>\r\n"
    b"WARC-Date: 2026-12-07T20:00:00Z\r\n"
    b"WARC-Target-URI: https://example.com/2026/12/a-post/?utm=x\r\n"
    b"Content-Type: application/http; msgtype=response\r\n"
    b"Content-Length: 5\r\n"
    b"\r\n"
)
_TAIL = b"hello\r\n\r\n"

#: Variants of one header block: each a (old, new) replacement in _GOOD.
_VARIANTS: list[tuple[bytes, bytes]] = [
    (b"", b""),
    (b"\r\n", b"\n"),  # LF-only lines
    (b"WARC/1.0", b"WARC/1.1"),
    (b"WARC/1.0", b"WARC/2.0"),  # not a record header
    (b"Content-Length:", b"Content-Length :"),  # blank space before the colon
    (b"Content-Length:", b"Content-Length\t:"),
    (b"Content-Length: 5", b"Content-Length:5"),
    (b"Content-Length: 5", b"Content-Length: 5  \t"),  # blank space after the value
    (b"WARC-Date: 2026", b"WARC-Date: \x1c2026"),  # a control byte bytes.strip keeps
    (b"WARC-Date: 2026-12-07T20:00:00Z", b"WARC-Date: 2026-12-07T20:00:00Z\x1c"),
    (b"WARC-Date: 2026-12-07T20:00:00Z", b"WARC-Date: 2026-12-07T20:00:00Z\xc2\xa0"),  # NBSP, UTF-8
    (b"x\r\n", b"x\xff\xfe\r\n"),  # bytes that are not UTF-8
    (b"post/", b"post/\xe2\x82"),  # a cut UTF-8 sequence before the line end
    (b"WARC-Type: response\r\n", b"WARC-Type: response\r\n  folded on\r\n"),  # a folded line
    (b"WARC-Type: response\r\n", b"WARC-Type: response\r\n\tfolded\r\n"),
    (b"WARC-Type: response\r\n", b"WARC-Type: response\r\nWARC-Type: response\r\n"),  # repeated, same value
    (b"WARC-Type: response\r\n", b"WARC-Type: response\r\nWARC-Type: request\r\n"),  # repeated, other value
    (b"WARC-Date: 2026", b"X-Seen: a\r\nX-Seen: b\r\nWARC-Date: 2026"),  # a field that may repeat
    (b"\r\nContent-Length", b"\r\n\rContent-Length"),  # a control byte in a name
    (b"WARC-Date:", b"WARC Date:"),
    (b"WARC-Date: 2026", b"WARC-Date 2026"),  # no colon
    (b"Content-Length: 5", b"Content-Length:WARC/1.0"),  # the next record run into a line
    (b"?utm=x", b"?utm=WARC/1.0x"),  # "WARC/1." in a value
    (b"\r\n\r\n", b"\r\n\r\r\n"),  # not a blank line
    (b"Content-Length: 5\r\n\r\n", b"Content-Length: 5\r\n\n"),  # an LF blank line after CRLF lines
    (b"WARC/1.0\r\n", b"WARC/1.0\r\n\r\n"),  # no field at all
    (b"Content-Length: 5\r\n\r\n", b"Content-Length: 5\r\n"),  # no blank line (truncated)
    (b"WARC-Type: response\r\n", b"WARC-Type: response\r\n:no name\r\n"),
    (b"WARC-Type: response\r\n", b"WARC-Type: response\r\nX-Long: " + b"y" * 70_000 + b"\r\n"),  # too long
]


def _take(stream: Input | Member, n: int) -> bytes:
    """``n`` bytes (fewer at the end): a read may give fewer than asked."""
    out = b""
    while len(out) < n:
        more = stream.read(n - len(out))
        if not more:
            break
        out += more
    return out


def _read_all(stream: Input | Member, fast: bool) -> list[object]:
    """Every head of ``stream`` (or its error), then what is left."""
    out: list[object] = []
    while True:
        try:
            head = read_head(stream) if fast else _read_head_lines(stream.readline)
        except BadHead as e:
            out.append(("bad", str(e), e.raw))
            break
        if head is None:
            break
        out.append(list(head.headers.items()))
        out.append(_take(stream, len(_TAIL)))
    out.append(_take(stream, 1 << 20))
    return out


class _Trickle(io.BytesIO):
    """A non-seekable stream that hands out at most ``step`` bytes a read."""

    def __init__(self, data: bytes, step: int) -> None:
        super().__init__(data)
        self._step = step

    def seekable(self) -> bool:
        return False

    def read(self, size: int | None = -1) -> bytes:
        return super().read(self._step if size is None or size < 0 else min(size, self._step))


def _gzip(data: bytes) -> bytes:
    c = zlib.compressobj(6, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    return c.compress(data) + c.flush()


@pytest.mark.parametrize(("old", "new"), _VARIANTS)
def test_a_header_block_reads_as_line_by_line(old: bytes, new: bytes) -> None:
    block = _GOOD.replace(old, new, 1)
    data = (block + _TAIL) * 2
    oracle = _read_all(Input(_Trickle(data, 1), WarcSummary()), fast=False)
    for step in (1, 7, 64, 1 << 16):
        assert _read_all(Input(_Trickle(data, step), WarcSummary()), fast=True) == oracle, step
    assert _read_all(Input(io.BytesIO(data), WarcSummary()), fast=True) == oracle
    member = Member(Input(io.BytesIO(_gzip(data)), WarcSummary()))
    assert _read_all(member, fast=True) == oracle


def test_most_blocks_are_read_at_once_and_damaged_ones_line_by_line() -> None:
    """The fast path is taken for a clean block (one read of the stream), not for a damaged one."""
    reads: list[int] = []

    class Counting(Input):
        def read(self, n: int | None = -1) -> bytes:
            data = super().read(n)
            reads.append(len(data))
            return data

    assert read_head(Counting(io.BytesIO(_GOOD + _TAIL), WarcSummary())) is not None
    assert reads == [len(_GOOD)]
    reads.clear()
    folded = _GOOD.replace(b"WARC-Type: response\r\n", b"WARC-Type: response\r\n more\r\n")
    assert read_head(Counting(io.BytesIO(folded + _TAIL), WarcSummary())) is not None
    assert reads == [len(line) + 1 for line in folded.split(b"\n")[:-1]]


_HTTP = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 4\r\n\r\nbody"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (b"", b""),
        (b"\r\n", b"\n"),
        (b"\r\n\r\n", b"\r\n\n"),
        (b"HTTP/1.1 200 OK\r\n", b"\r\n"),  # a blank first line
        (b"HTTP/1.1 200 OK\r\n", b"\n"),
        (b"\r\n\r\nbody", b"\r\n"),  # no blank line in the block
        (b"Content-Length: 4", b"X-Long: " + b"z" * 70_000),  # too long
        (b"\r\n\r\n", b"\r\n\r\r\n"),
    ],
)
def test_an_http_head_reads_as_line_by_line(old: bytes, new: bytes) -> None:
    block = _HTTP.replace(old, new, 1)

    def read(stream: Input) -> tuple[object, int]:
        body = Body(stream, len(block))
        try:
            head: object = read_http_head(body)
        except PayloadError as e:
            head = ("error", str(e))
        return head, body.count

    # One byte a read: the head is never held whole, so it is read line by line.
    oracle = read(Input(_Trickle(block, 1), WarcSummary()))
    for step in (5, 1 << 16):
        assert read(Input(_Trickle(block, step), WarcSummary())) == oracle
    assert read(Input(io.BytesIO(block), WarcSummary())) == oracle
    assert read(Input(io.BytesIO(block), WarcSummary()))[0] == oracle[0]
