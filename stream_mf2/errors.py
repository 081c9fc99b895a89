"""Typed errors. Every failure the library reports is a subclass of :class:`StreamMF2Error`."""

from __future__ import annotations


class StreamMF2Error(Exception):
    """Base class of every error raised by stream_mf2."""


class LimitExceeded(StreamMF2Error):
    """A configured resource limit was exceeded.

    ``limit`` names the limit (the keyword argument that sets it) and ``value``
    its configured value, so a caller can raise it and retry.
    """

    def __init__(self, message: str, *, limit: str, value: int) -> None:
        super().__init__(message)
        self.limit = limit
        self.value = value


class ParserStateError(StreamMF2Error):
    """The parser was used out of order: fed after ``close()`` or after a fatal error."""


class SourceError(StreamMF2Error):
    """A byte source (file, socket, URL, WARC record) could not be read."""


class MissingExtra(StreamMF2Error):
    """An optional feature needs packages that are not installed.

    The message ends with the command that installs them (``pip install
    'stream-mf2[EXTRA]'``); ``extra`` names the extra.
    """

    def __init__(self, message: str, *, extra: str) -> None:
        super().__init__(message)
        self.extra = extra


class UnknownSyntax(StreamMF2Error, ValueError):
    """``syntaxes=`` names a syntax this library does not know (``e.syntax`` is the name).

    Also a :class:`ValueError`, as for any other bad option value; raised when the
    parser (or :func:`stream_mf2.extract`) is made, before any input is read.
    """

    def __init__(self, message: str, *, syntax: str) -> None:
        super().__init__(message)
        self.syntax = syntax


class SyntaxUnavailable(UnknownSyntax):
    """``syntaxes=`` names a known syntax whose consumer package is not part of this installation.

    ``e.syntax`` is the name; the message names the package that is missing.
    """
