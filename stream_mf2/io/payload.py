"""HTTP message bodies, decoded step by step.

Used by the WARC reader and the URL fetcher. Everything here is incremental and
bounded: a decoder takes the body in pieces of any size and yields decoded
pieces of at most :data:`OUT_MAX` bytes, so neither a large record nor a
compression bomb is ever held in memory whole. Every failure raises
:class:`PayloadError` with a one-line reason, so a caller can report it per
record instead of truncating content silently.

Two lenient fallbacks, both decided before a single byte has been produced,
match what archived pages need in practice (crawlers often store a body that
was already de-chunked or decompressed but keep the original headers):

* a chunked body whose first line is not a chunk-size line is passed through;
* a gzip / deflate body that does not start like one is passed through.
"""

from __future__ import annotations

import functools
import re
import zlib
from collections.abc import Iterable, Iterator

import brotli
import webencodings

#: Largest decoded piece a decoder yields at once.
OUT_MAX = 64 * 1024
#: Longest chunk-size or trailer line accepted in a chunked body.
MAX_CHUNK_LINE = 4096
#: Most content codings accepted on one body.
MAX_CODINGS = 4
#: Largest block of HTTP response headers accepted.
MAX_HTTP_HEADER = 64 * 1024
#: Default cap on the bytes a body's content codings (gzip, deflate, br) may decode to.
DEFAULT_MAX_DECODED_BYTES = 256 * 1024 * 1024
#: Default cap on decoded bytes per encoded byte. Pages compress about 5 to 20 times; a body
#: that expands much more is a compression bomb (zlib alone reaches about 1000).
DEFAULT_MAX_EXPANSION = 200.0
#: Decoded bytes allowed before ``max_expansion`` applies, so that small bodies never trip it.
EXPANSION_GRACE = 1024 * 1024

_CHUNK_SIZE_RE = re.compile(rb"[ \t]*([0-9A-Fa-f]{1,16})[ \t]*(?:;[^\r\n]*)?\r?\n\Z")


class PayloadError(Exception):
    """A body could not be decoded (bad chunking, bad compressed data, truncation)."""


class DecompressionLimitError(PayloadError):
    """A compressed body decoded past ``max_decoded_bytes`` or ``max_expansion``."""


class Decoder:
    """One decoding step: bytes in, bounded decoded pieces out."""

    def feed(self, data: bytes) -> Iterator[bytes]:
        """Decode ``data``. The returned iterator must be exhausted before the next call."""
        raise NotImplementedError

    def finish(self) -> Iterator[bytes]:
        """Flush what is left; raise :class:`PayloadError` if the body ended early."""
        return iter(())


class IdentityDecoder(Decoder):
    """No encoding: pieces pass through, split to at most ``OUT_MAX`` bytes."""

    def feed(self, data: bytes) -> Iterator[bytes]:
        for i in range(0, len(data), OUT_MAX):
            yield data[i : i + OUT_MAX]


class ChunkedDecoder(Decoder):
    """``Transfer-Encoding: chunked`` (RFC 9112, section 7.1), incrementally.

    ``lenient_start`` (archived bodies) passes a body whose first line is not a
    chunk-size line through unchanged; without it (a live response) every bad
    line is a framing error naming the line.
    """

    _SIZE, _DATA, _DATA_END, _TRAILER, _DONE, _PASS = range(6)

    def __init__(self, *, lenient_start: bool = True) -> None:
        self._state = self._SIZE
        self._line = bytearray()
        self._left = 0
        self._started = not lenient_start
        self._held = bytearray()  # raw input kept until the first size line is validated

    def feed(self, data: bytes) -> Iterator[bytes]:
        pos = 0
        n = len(data)
        while pos < n:
            state = self._state
            if state == self._DATA:
                take = min(self._left, n - pos, OUT_MAX)
                yield data[pos : pos + take]
                pos += take
                self._left -= take
                if self._left == 0:
                    self._state = self._DATA_END
            elif state == self._PASS:
                yield from IdentityDecoder().feed(data[pos:])
                return
            elif state == self._DONE:
                return  # bytes after the last chunk and trailers are not part of the body
            else:
                nl = data.find(b"\n", pos)
                end = n if nl < 0 else nl + 1
                self._line += data[pos:end]
                if not self._started:
                    self._held += data[pos:end]
                pos = end
                if len(self._line) > MAX_CHUNK_LINE:
                    if not self._started:
                        yield from self._pass_through(data[pos:])
                        return
                    raise PayloadError("chunked body: framing error: chunk-size or trailer line too long")
                if nl < 0:
                    continue
                line = bytes(self._line)
                self._line.clear()
                if state == self._SIZE:
                    m = _CHUNK_SIZE_RE.match(line)
                    if m is None:
                        if not self._started:
                            yield from self._pass_through(data[pos:])
                            return
                        raise PayloadError(f"chunked body: framing error: bad chunk-size line {line[:40]!r}")
                    self._started = True
                    self._held.clear()
                    self._left = int(m.group(1), 16)
                    self._state = self._DATA if self._left else self._TRAILER
                elif state == self._DATA_END:
                    if line.strip():
                        raise PayloadError("chunked body: framing error: chunk data not followed by CRLF")
                    self._state = self._SIZE
                elif state == self._TRAILER and not line.strip():
                    self._state = self._DONE

    @property
    def done(self) -> bool:
        """The last chunk and the trailer section have been read: the body is complete."""
        return self._state == self._DONE

    def _pass_through(self, rest: bytes) -> Iterator[bytes]:
        self._state = self._PASS
        held = bytes(self._held)
        self._held.clear()
        self._line.clear()
        yield from IdentityDecoder().feed(held + rest)

    def finish(self) -> Iterator[bytes]:
        if self._state == self._SIZE and not self._started and self._held:
            # The whole body was one unterminated line: not chunked after all.
            yield from self._pass_through(b"")
            return
        if self._state not in (self._DONE, self._PASS):
            # A missing final CRLF after the last-chunk is common and harmless.
            if self._state == self._TRAILER and not self._line.strip():
                return
            raise PayloadError("chunked body: truncated before the last chunk")


class ZlibDecoder(Decoder):
    """``gzip`` (possibly several members) or ``deflate`` (zlib or raw), bounded output."""

    def __init__(self, coding: str) -> None:
        self._coding = coding
        self._gzip = coding in ("gzip", "x-gzip")
        self._obj: zlib._Decompress | None = None
        self._head = b""  # first bytes, kept until the format is known
        self._pass = False
        self._pending = b""  # bytes after a gzip member's end, too few to tell what follows

    def _start(self, data: bytes) -> None:
        if self._gzip:
            if not data.startswith(b"\x1f\x8b"):
                self._pass = True  # already decompressed by whoever stored it
                return
            self._obj = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif len(data) >= 2 and (data[0] & 0x0F) == 8 and ((data[0] << 8) | data[1]) % 31 == 0:
            self._obj = zlib.decompressobj(zlib.MAX_WBITS)  # zlib wrapper, as RFC 9110 says
        else:
            self._obj = zlib.decompressobj(-zlib.MAX_WBITS)  # raw deflate, as many servers send

    def feed(self, data: bytes) -> Iterator[bytes]:
        if self._obj is None and not self._pass:
            self._head += data
            if len(self._head) < 2:
                return
            data, self._head = self._head, b""
            self._start(data)
        if self._pass:
            yield from IdentityDecoder().feed(data)
            return
        yield from self._run(data)

    def _run(self, data: bytes) -> Iterator[bytes]:
        if self._pending:
            data, self._pending = self._pending + data, b""
        while data:
            obj = self._obj
            assert obj is not None
            if obj.eof:
                # Only another gzip member may follow; anything else after the end is ignored,
                # as browsers do.
                if not self._gzip:
                    return
                if len(data) < 2 and b"\x1f\x8b".startswith(data):
                    self._pending = data  # maybe the start of the next member's magic
                    return
                if not data.startswith(b"\x1f\x8b"):
                    return
                obj = self._obj = zlib.decompressobj(16 + zlib.MAX_WBITS)
            try:
                out = obj.decompress(data, OUT_MAX)
            except zlib.error as e:
                raise PayloadError(f"{self._coding} body: {e}") from None
            if out:
                yield out
            data = obj.unused_data if obj.eof else obj.unconsumed_tail

    def finish(self) -> Iterator[bytes]:
        if self._obj is None and not self._pass:
            if self._head:
                self._pass = True
                yield self._head
            return
        if self._pass or self._obj is None:
            return
        if not self._obj.eof:
            raise PayloadError(f"{self._coding} body: truncated compressed data")


class BrotliDecoder(Decoder):
    """``br`` content coding, bounded output."""

    def __init__(self) -> None:
        self._obj = brotli.Decompressor()

    def feed(self, data: bytes) -> Iterator[bytes]:
        obj = self._obj
        try:
            out = obj.process(data, output_buffer_limit=OUT_MAX)
            # The limit stops the buffer from growing once it is reached (it may overshoot a
            # little); the rest comes out of further calls with empty input.
            while out or not obj.can_accept_more_data():
                yield from IdentityDecoder().feed(out)
                if obj.is_finished():
                    break
                out = obj.process(b"", output_buffer_limit=OUT_MAX)
        except brotli.error as e:
            raise PayloadError(f"br body: {e}") from None

    def finish(self) -> Iterator[bytes]:
        if not self._obj.is_finished():
            raise PayloadError("br body: truncated compressed data")
        return iter(())


def content_decoder(coding: str) -> Decoder:
    """The decoder for one Content-Encoding token; :class:`PayloadError` if unknown."""
    c = coding.strip().lower()
    if c in ("", "identity"):
        return IdentityDecoder()
    if c in ("gzip", "x-gzip", "deflate"):
        return ZlibDecoder(c)
    if c == "br":
        return BrotliDecoder()
    raise PayloadError(f"unsupported content-encoding {coding!r}")


class BodyDecoder:
    """The whole body pipeline: transfer coding, then the content codings in reverse order.

    The content codings are capped, as browsers and crawlers cap them: decoding
    stops with :class:`DecompressionLimitError` once the decoded bytes pass
    ``max_decoded_bytes``, or pass ``max_expansion`` times the encoded bytes
    (checked once more than :data:`EXPANSION_GRACE` bytes are decoded). ``None``
    turns a cap off. A body without content coding is never capped here.
    ``lenient_chunked`` is :class:`ChunkedDecoder`'s ``lenient_start``.
    """

    def __init__(
        self,
        *,
        chunked: bool,
        content_encoding: str | None,
        max_decoded_bytes: int | None = DEFAULT_MAX_DECODED_BYTES,
        max_expansion: float | None = DEFAULT_MAX_EXPANSION,
        lenient_chunked: bool = True,
    ) -> None:
        self._chunked = ChunkedDecoder(lenient_start=lenient_chunked) if chunked else None
        stages: list[Decoder] = [self._chunked] if self._chunked is not None else []
        codings = [c for c in (content_encoding or "").split(",") if c.strip()]
        if len(codings) > MAX_CODINGS:
            raise PayloadError(f"too many content codings ({len(codings)})")
        # Codings are listed in the order they were applied: undo the last one first.
        stages.extend(content_decoder(c) for c in reversed(codings))
        self._stages = stages
        coded = any(not isinstance(d, IdentityDecoder) for d in stages[1 if chunked else 0 :])
        self._capped = coded and (max_decoded_bytes is not None or max_expansion is not None)
        self._max_decoded = max_decoded_bytes
        self._max_expansion = max_expansion
        self._encoded = 0
        self._decoded = 0

    @property
    def done(self) -> bool:
        """A chunked body's last chunk has been read (always ``False`` for a body that is not chunked)."""
        return self._chunked is not None and self._chunked.done

    def feed(self, data: bytes) -> Iterator[bytes]:
        """Decoded pieces of ``data``; exhaust before the next call."""
        if self._capped:
            self._encoded += len(data)
            return self._counted(self._push(0, data))
        return self._push(0, data)

    def _counted(self, pieces: Iterator[bytes]) -> Iterator[bytes]:
        for piece in pieces:
            self._decoded += len(piece)
            decoded = self._decoded
            if self._max_decoded is not None and decoded > self._max_decoded:
                raise DecompressionLimitError(
                    f"compressed body decodes to more than {self._max_decoded} bytes (max_decoded_bytes)"
                )
            limit = self._max_expansion
            if limit is not None and decoded > EXPANSION_GRACE and decoded > limit * self._encoded:
                raise DecompressionLimitError(
                    f"compressed body expands more than {limit:g} times "
                    f"({self._encoded} bytes decode to more than {decoded}) (max_expansion)"
                )
            yield piece

    def _push(self, i: int, data: bytes) -> Iterator[bytes]:
        # Explicit loop over a fixed, short list of stages (at most a handful).
        if i == len(self._stages):
            if data:
                yield data
            return
        for piece in self._stages[i].feed(data):
            yield from self._push(i + 1, piece)

    def finish(self) -> Iterator[bytes]:
        """Flush every stage in order; raise :class:`PayloadError` on a truncated body."""
        if self._capped:
            return self._counted(self._finish())
        return self._finish()

    def _finish(self) -> Iterator[bytes]:
        for i, stage in enumerate(self._stages):
            for piece in stage.finish():
                yield from self._push(i + 1, piece)


def decode_body(
    pieces: Iterable[bytes],
    *,
    chunked: bool,
    content_encoding: str | None,
    max_decoded_bytes: int | None = DEFAULT_MAX_DECODED_BYTES,
    max_expansion: float | None = DEFAULT_MAX_EXPANSION,
) -> Iterator[bytes]:
    """Decode a body given as raw pieces, yielding bounded decoded pieces (capped as :class:`BodyDecoder`)."""
    dec = BodyDecoder(
        chunked=chunked,
        content_encoding=content_encoding,
        max_decoded_bytes=max_decoded_bytes,
        max_expansion=max_expansion,
    )
    for p in pieces:
        yield from dec.feed(p)
    yield from dec.finish()


class HttpHead:
    """The parsed status line and headers of an HTTP response."""

    __slots__ = ("headers", "reason", "status")

    def __init__(self, status: int, reason: str, headers: list[tuple[str, str]]) -> None:
        self.status = status
        self.reason = reason
        self.headers = headers

    def get(self, name: str) -> str | None:
        """The first header called ``name`` (case-insensitive), or ``None``."""
        low = name.lower()
        for k, v in self.headers:
            if k.lower() == low:
                return v
        return None

    def get_all(self, name: str) -> list[str]:
        """Every header called ``name``, in order."""
        low = name.lower()
        return [v for k, v in self.headers if k.lower() == low]


_STATUS_RE = re.compile(rb"HTTP/\d(?:\.\d)?[ \t]+(\d{3})(?:[ \t]+([^\r\n]*))?\r?\n\Z", re.IGNORECASE)


def parse_http_head(block: bytes) -> HttpHead:
    """Parse a response head (status line and header lines, final blank line optional)."""
    lines = block.split(b"\n")
    first = lines[0] + b"\n"
    m = _STATUS_RE.match(first)
    if m is None:
        shown = lines[0].rstrip(b"\r")[:60]
        raise PayloadError(f"bad HTTP status line {shown!r}")
    headers: list[tuple[str, str]] = []
    for raw in lines[1:]:
        line = raw.rstrip(b"\r")
        if not line:
            continue
        if line[:1] in (b" ", b"\t") and headers:
            k, v = headers[-1]  # obsolete line folding
            headers[-1] = (k, v + " " + line.strip().decode("latin-1"))
            continue
        name, sep, value = line.partition(b":")
        if not sep or not name or name != name.strip() or b" " in name:
            raise PayloadError(f"bad HTTP header line {line[:60]!r}")
        headers.append((name.decode("latin-1"), value.strip().decode("latin-1")))
    reason = (m.group(2) or b"").decode("latin-1").strip()
    return HttpHead(int(m.group(1)), reason, headers)


#: Distinct Content-Type values whose :func:`media_type` is remembered (a crawl repeats a few),
#: and the longest value remembered (a header line may be 64 KiB; real values are a few dozen
#: characters). Not limits on input: a value past them is parsed again.
MEDIA_TYPE_MEMORY = 64
MEDIA_TYPE_MEMORY_CHARS = 256


def media_type(content_type: str | None) -> tuple[str | None, str | None]:
    """``(essence, charset)`` of a Content-Type value; ``charset`` only if it is a known label."""
    if not content_type:
        return None, None
    if len(content_type) <= MEDIA_TYPE_MEMORY_CHARS:
        return _remembered_media_type(content_type)
    return _parse_media_type(content_type)


def _parse_media_type(content_type: str) -> tuple[str | None, str | None]:
    """:func:`media_type` of a non-empty value, parsed every time (:func:`media_type` remembers
    the last values): what an ``email`` message answers (:func:`_email_media_type`), without
    building one for the values real servers send (:func:`_plain_media_type`)."""
    if _is_plain(content_type):
        return _plain_media_type(content_type)
    return _email_media_type(content_type)


def _is_plain(content_type: str) -> bool:
    """Whether :func:`_plain_media_type` answers for ``content_type`` what ``email`` does.

    ASCII (a lone surrogate would make ``email`` build a ``Header``), no backslash (quoted pairs),
    no ``*`` (RFC 2231 parameters, which ``email`` joins and decodes), and an even number of
    ``"`` between any two ``;`` (``email`` does not split inside a quoted string).
    """
    if not content_type.isascii() or "\\" in content_type or "*" in content_type:
        return False
    return '"' not in content_type or all(p.count('"') % 2 == 0 for p in content_type.split(";"))


def _plain_media_type(content_type: str) -> tuple[str | None, str | None]:
    """:func:`_email_media_type` of a value :func:`_is_plain` accepts, step by step as
    ``email.message.Message`` (``get_content_type``, ``get_param``) takes it, with none of the
    cases it excludes: 3 k instructions instead of 50 k, and no ``email`` package to import
    (8 ms of every run's start-up)."""
    essence: str | None = None
    if "/" in content_type.split(";", 1)[0]:
        essence = content_type.partition(";")[0].strip().lower()
        if essence.count("/") != 1:
            essence = "text/plain"  # (as email says, after RFC 2045)
    label: str | None = None
    for piece in content_type.split(";"):
        if "=" in piece:
            i = piece.index("=")
            piece = piece[:i].strip().lower() + "=" + piece[i + 1 :].strip()
        name, sep, value = piece.strip().partition("=")
        name = name.strip()
        if name.lower() == "charset":
            label = _unquote(value.strip()) if sep else ""
            break
    return essence, _known_label(label)


def _unquote(value: str) -> str:
    # email.utils.unquote of a value without backslashes
    if len(value) > 1 and ((value[0] == '"' and value[-1] == '"') or (value[0] == "<" and value[-1] == ">")):
        return value[1:-1]
    return value


def _email_media_type(content_type: str) -> tuple[str | None, str | None]:
    """:func:`media_type` of a non-empty value through an ``email`` message (50 k instructions)."""
    from email.message import Message  # (imported by the first value _is_plain refuses)

    msg = Message()
    msg["content-type"] = content_type
    essence = msg.get_content_type() if "/" in content_type.split(";", 1)[0] else None
    charset = msg.get_param("charset")
    return essence, _known_label(charset if isinstance(charset, str) else None)


def _known_label(label: str | None) -> str | None:
    # An unknown transport label is ignored, as the HTML encoding sniffing algorithm says.
    if label is not None and webencodings.lookup(label) is None:
        return None
    return label


_remembered_media_type = functools.lru_cache(maxsize=MEDIA_TYPE_MEMORY)(_parse_media_type)

HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})

_SNIFF_TAGS = (
    b"<!doctype html",
    b"<html",
    b"<head",
    b"<script",
    b"<iframe",
    b"<h1",
    b"<div",
    b"<font",
    b"<table",
    b"<a",
    b"<style",
    b"<title",
    b"<b",
    b"<body",
    b"<br",
    b"<p",
    b"<!--",
)


def sniff_html(head: bytes) -> bool:
    """Does a body without a declared type look like HTML (WHATWG MIME Sniffing, 7.1)?"""
    data = head.lstrip(b"\t\n\x0c\r ")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:].lstrip(b"\t\n\x0c\r ")
    low = data[:16].lower()
    for tag in _SNIFF_TAGS:
        if low.startswith(tag):
            nxt = low[len(tag) : len(tag) + 1]
            if nxt in (b" ", b">"):
                return True
    return False
