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


class PatternTimeout(StreamMF2Error):
    """A WPT pattern ran past the page's ``max_pattern_seconds`` (a parse option): a hostile or
    careless expression (``(a|aa)+c``, fuzzy matching) cannot stall a parse.

    Raised for a URL pattern while the parser chooses the templates, and for any pattern
    outside a parse (``Wpt.choose``); page-source and element patterns past the limit are
    errors in the page's ``errors`` instead. ``pattern`` is the pattern as written in the
    template, ``seconds`` the limit.
    """

    def __init__(self, message: str, *, pattern: str, seconds: float) -> None:
        super().__init__(message)
        self.limit = "max_pattern_seconds"
        self.pattern = pattern
        self.seconds = seconds


class ConsumerError(StreamMF2Error):
    """A consumer of the parse (the WPT matcher, a syntax consumer) failed on this document with an unexpected
    exception (the original is ``__cause__``). The document's parse stops, as for a limit; a
    WARC run writes it as the record's ``error`` line and reads on.
    """


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
