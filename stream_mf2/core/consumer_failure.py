"""A consumer's unexpected exception becomes this document's typed error (:class:`ConsumerError`).

A consumer of the parse (the WPT matcher, :mod:`stream_mf2.wpt`, and the other syntaxes'
consumers: JSON-LD, microdata, RDFa, the head metadata) runs inside the
parser's feed and close, called by the bounded sink for every element. A bug it hits on one
document (an ``IndexError`` on a template built by hand, say) would otherwise leave the parse
as an untyped exception, and a WARC run, which writes an ``error`` line for a document's
:class:`~stream_mf2.errors.StreamMF2Error` and reads on, would end on it.

The catch is narrow: the parser's existing failure path (it refuses further input after any
exception) asks :func:`consumer_failure` whether the exception is an ordinary ``Exception``,
not already typed, raised from a consumer package's code (a traceback entry in
``stream_mf2/wpt/``, ``stream_mf2/jsonld/``, ...; compiled modules add traceback entries too). Only then is it wrapped,
the original kept as ``__cause__``; an error of the HTML engine or the capture stays as it is,
and so do ``KeyboardInterrupt`` and ``MemoryError`` (``MemoryError`` is not wrapped either: a
process out of memory is not one document's problem).
"""

from __future__ import annotations

from stream_mf2.errors import ConsumerError, StreamMF2Error

__all__ = ["consumer_failure"]

#: The consumer packages (besides mf2, whose errors stay as they are) and what a message calls them.
_CONSUMER_PATHS = {
    "/stream_mf2/wpt/": "wpt: the template matcher",
    "/stream_mf2/jsonld/": "json-ld: the JSON-LD consumer",
    "/stream_mf2/metadata/": "metadata: the OpenGraph/Twitter/Dublin Core consumer",
    "/stream_mf2/microdata/": "microdata: the microdata consumer",
    "/stream_mf2/rdfa/": "rdfa: the RDFa consumer",
}


def consumer_failure(error: BaseException) -> ConsumerError | None:
    """The :class:`ConsumerError` to raise instead of ``error``, or ``None`` to raise it as it is."""
    if not isinstance(error, Exception) or isinstance(error, (StreamMF2Error, MemoryError)):
        return None
    tb = error.__traceback__
    while tb is not None:
        # (a compiled module's entries name the file relative to the build: "stream_mf2/wpt/_match.py")
        filename = "/" + tb.tb_frame.f_code.co_filename.replace("\\", "/")
        who = next((name for part, name in _CONSUMER_PATHS.items() if part in filename), None)
        if who is not None:
            message = " ".join(str(error).split())
            failure = ConsumerError(
                f"{who} failed on this document: {type(error).__name__}"
                + (f": {message}" if message else "")
            )
            # (set here, not only by the caller's ``raise ... from``: compiled, that does not)
            failure.__cause__ = error
            return failure
        tb = tb.tb_next
    return None
