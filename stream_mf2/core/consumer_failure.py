"""A consumer's unexpected exception becomes this document's typed error (:class:`ConsumerError`).

A consumer of the parse (today the WPT matcher, :mod:`stream_mf2.wpt`) runs inside the
parser's feed and close, called by the bounded sink for every element. A bug it hits on one
document (an ``IndexError`` on a template built by hand, say) would otherwise leave the parse
as an untyped exception, and a WARC run, which writes an ``error`` line for a document's
:class:`~stream_mf2.errors.StreamMF2Error` and reads on, would end on it.

The catch is narrow: the parser's existing failure path (it refuses further input after any
exception) asks :func:`consumer_failure` whether the exception is an ordinary ``Exception``,
not already typed, raised from the WPT package's code (a traceback entry in
``stream_mf2/wpt/``; compiled modules add traceback entries too). Only then is it wrapped,
the original kept as ``__cause__``; an error of the HTML engine or the capture stays as it is,
and so do ``KeyboardInterrupt`` and ``MemoryError`` (``MemoryError`` is not wrapped either: a
process out of memory is not one document's problem).
"""

from __future__ import annotations

from stream_mf2.errors import ConsumerError, StreamMF2Error

__all__ = ["consumer_failure"]

_CONSUMER_PATHS = ("/stream_mf2/wpt/",)


def consumer_failure(error: BaseException) -> ConsumerError | None:
    """The :class:`ConsumerError` to raise instead of ``error``, or ``None`` to raise it as it is."""
    if not isinstance(error, Exception) or isinstance(error, (StreamMF2Error, MemoryError)):
        return None
    tb = error.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename.replace("\\", "/")
        if any(part in filename for part in _CONSUMER_PATHS):
            message = " ".join(str(error).split())
            return ConsumerError(
                f"wpt: the template matcher failed on this document: {type(error).__name__}"
                + (f": {message}" if message else "")
            )
        tb = tb.tb_next
    return None
