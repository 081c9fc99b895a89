"""The ``stream_mf2`` logger: recoveries that changed a document's output, as warnings.

A note (a value emptied past the output budget, an include target that never came, a
late ``<body lang>``, ...) is part of the result: it ends every event stream in
:attr:`DocumentEnd.notes <stream_mf2.events.DocumentEnd>` and is the ``notes`` field of
JSON Lines and WARC lines. The front ends that return items alone (``parse``,
``iter_items``, ``aiter_items``, the mf2py drop-in) also log each note as a warning of
``logging.getLogger("stream_mf2")``, with the document's URL, so that it is never
silent. The library installs no handler: the application decides where warnings go
(without any logging configuration, Python prints them on standard error).
"""

from __future__ import annotations

from stream_mf2.events import DocumentEnd

__all__ = ["LOGGER_NAME", "log_notes"]

#: The name of the library's logger.
LOGGER_NAME = "stream_mf2"


def log_notes(end: DocumentEnd, url: str | None) -> None:
    """Log each note of ``end`` as a warning, with the document's URL."""
    if not end.notes:
        return
    import logging  # (only when there is something to say: most documents have no note)

    logger = logging.getLogger(LOGGER_NAME)
    if logger.isEnabledFor(logging.WARNING):
        for note in end.notes:
            if url:
                logger.warning("%s: %s", url, note)
            else:
                logger.warning("%s", note)
