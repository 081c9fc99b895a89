"""Fetch an ``http(s)://`` URL as a stream of body pieces, with urllib.

Redirects are followed (urllib's default handler); :attr:`UrlResponse.url` is
the final URL, the base URL of the document. The charset of the
``Content-Type`` header is :attr:`UrlResponse.charset`, the transport-layer
encoding. ``Transfer-Encoding: chunked`` is undone by :mod:`http.client`; a
``Content-Encoding`` (gzip, deflate, br) is undone step by step here. Bodies
are read with ``read1`` so pieces arrive as the server sends them.

A response is a source for :func:`stream_mf2.sources.iter_events`, which
applies the stall rule of the other network sources to it (see
:mod:`stream_mf2.sources`).
"""

from __future__ import annotations

import http.client
import socket
import urllib.error
import urllib.request
from collections.abc import Iterator
from types import TracebackType

from stream_mf2._payload import BodyDecoder, PayloadError, media_type
from stream_mf2.errors import SourceError

#: Seconds to wait for the connection and for each read.
DEFAULT_TIMEOUT = 30.0
#: Largest piece read at once.
READ_SIZE = 64 * 1024

_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1"


def _user_agent() -> str:
    from stream_mf2 import __version__

    return f"stream-mf2/{__version__}"


class UrlResponse:
    """An open HTTP response. Iterate for decoded body pieces; close when done."""

    def __init__(self, resp: http.client.HTTPResponse, url: str) -> None:
        self._resp = resp
        #: The final URL, after redirects.
        self.url = url
        #: The HTTP status of the final response.
        self.status = resp.status
        ctype = resp.headers.get("Content-Type")
        essence, charset = media_type(ctype)
        #: Media type essence (``text/html``), or ``None`` when absent.
        self.content_type = essence
        #: The charset label from ``Content-Type``, if it names a known encoding.
        self.charset = charset
        coding = ",".join(resp.headers.get_all("Content-Encoding") or []) or None
        try:
            self._body = BodyDecoder(chunked=False, content_encoding=coding)
        except PayloadError as e:
            resp.close()
            raise SourceError(f"{url}: {e}") from None

    def __iter__(self) -> Iterator[bytes]:
        try:
            while True:
                data = self._resp.read1(READ_SIZE)
                if not data:
                    # read1 (unlike read) ends quietly when the server closes before the
                    # Content-Length is reached: ``length`` is then what was still owed.
                    if self._resp.length:
                        raise http.client.IncompleteRead(b"", self._resp.length)
                    break
                yield from self._body.feed(data)
            yield from self._body.finish()
        except PayloadError as e:
            raise SourceError(f"{self.url}: {e}") from None
        except (http.client.HTTPException, OSError) as e:
            raise SourceError(f"{self.url}: read failed: {_describe(e)}") from None

    def close(self) -> None:
        """Close the connection."""
        self._resp.close()

    def interrupt(self) -> None:
        """Make a read blocked in another thread return now, by shutting the connection down.

        :func:`stream_mf2.sources.iter_events` reads a response in a thread (see its stall
        rule); a consumer that stops early calls this so that the thread does not sit in a
        read until the server sends more or the timeout runs out. Call :meth:`close` after.
        """
        try:
            fd = self._resp.fileno()
        except (AttributeError, OSError, ValueError):  # already closed
            return
        try:
            sock = socket.socket(fileno=fd)
        except OSError:  # not a socket this platform can wrap (the read then ends with its timeout)
            return
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # the peer is gone already
        finally:
            sock.detach()  # the descriptor stays the response's, closed by close()

    def __enter__(self) -> UrlResponse:
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


def _describe(e: BaseException) -> str:
    if isinstance(e, http.client.IncompleteRead):
        return "connection closed before the end of the body"
    if isinstance(e, TimeoutError | socket.timeout):
        return "timed out"
    return " ".join(str(e).split()) or type(e).__name__


def is_url(arg: str) -> bool:
    """Is ``arg`` an ``http://`` or ``https://`` URL?"""
    return arg[:8].lower().startswith(("http://", "https://"))


def fetch(url: str, *, timeout: float = DEFAULT_TIMEOUT) -> UrlResponse:
    """Open ``url`` (``http`` or ``https`` only) and return the response, following redirects.

    Raises :class:`~stream_mf2.errors.SourceError` with a one-line reason for
    bad URLs, connection failures and HTTP error statuses.
    """
    if not is_url(url):
        raise SourceError(f"not an http(s) URL: {url!r}")
    req = urllib.request.Request(
        url,
        headers={"User-Agent": _user_agent(), "Accept": _ACCEPT, "Accept-Encoding": "gzip, deflate, br"},
    )
    try:
        resp = urllib.request.urlopen(req, timeout=timeout)
    except urllib.error.HTTPError as e:
        e.close()
        raise SourceError(f"{url}: HTTP {e.code} {e.reason}") from None
    except urllib.error.URLError as e:
        raise SourceError(
            f"cannot fetch {url}: {_describe(e.reason) if isinstance(e.reason, BaseException) else e.reason}"
        ) from None
    except (http.client.HTTPException, OSError, ValueError) as e:
        raise SourceError(f"cannot fetch {url}: {_describe(e)}") from None
    if not isinstance(resp, http.client.HTTPResponse):  # pragma: no cover - only http(s) gets here
        resp.close()
        raise SourceError(f"not an http(s) URL: {url!r}")
    return UrlResponse(resp, resp.geturl())
