"""``ow:pattern`` blocks over the page source, streamed through a bounded window.

The decoded page text arrives in pieces. A match is decided only when the text
after its start is longer than ``max_pattern_chars`` (or the input ended):
then every alternative the regular expression could try within the window has
been seen, so the match equals the one a search of the whole text finds. A
match longer than the window, or a partial match (``regex``'s
``partial=True``) that already spans more than the window, is reported as an
error and skipped (the search goes on one character after its start), in every
chunking alike: memory never holds more than the window and the piece being fed.

A search that runs past the page's ``max_pattern_seconds``
(:class:`~stream_mf2.errors.PatternTimeout`) is reported as an error too, and the
pattern is not searched again on this page: the page's element blocks go on.
"""

from __future__ import annotations

from collections.abc import Callable

from stream_mf2.errors import PatternTimeout
from stream_mf2.wpt.limits import DEFAULT_MAX_PATTERN_CHARS, DEFAULT_MAX_PATTERN_SECONDS
from stream_mf2.wpt.model import Pattern

__all__ = ["DEFAULT_MAX_PATTERN_CHARS", "DEFAULT_MAX_PATTERN_SECONDS", "SourceScanner"]


class SourceScanner:
    """Finds the non-overlapping matches of one pattern in a text fed in pieces."""

    def __init__(
        self,
        pattern: Pattern,
        on_match: Callable[[str, dict[str, list[str]]], bool],
        on_error: Callable[[str], None],
        *,
        max_pattern_chars: int = DEFAULT_MAX_PATTERN_CHARS,
    ) -> None:
        if max_pattern_chars < 1:
            raise ValueError("max_pattern_chars must be >= 1")
        self.pattern = pattern
        self.on_match = on_match  # returns False when no more matches are wanted
        self.on_error = on_error
        self.window = max_pattern_chars
        self.buf = ""
        self.offset = 0  # characters dropped before buf
        self.done = False

    def feed(self, text: str) -> None:
        if self.done or not text:
            return
        self.buf += text
        self._scan(final=False)

    def close(self) -> None:
        if not self.done:
            self._scan(final=True)
        self.buf = ""
        self.done = True

    def _scan(self, *, final: bool) -> None:
        regex = self.pattern.regex
        buf = self.buf
        window = self.window
        pos = 0
        n = len(buf)
        while not self.done:
            try:
                m = regex.search(buf, pos, partial=not final)
            except PatternTimeout as e:
                self.on_error(f"{e}; not searched further on this page")
                self.done = True
                break
            if m is None:
                pos = n
                break
            start = m.start()
            end = m.end()
            if (m.partial and n - start > window) or (not m.partial and end - start > window):
                self.on_error(
                    f"pattern {self.pattern.source!r}: a match starting at character {self.offset + start}"
                    f" is longer than max_pattern_chars={window}; skipped"
                )
                pos = start + 1
                continue
            if not final and (m.partial or n - start <= window):
                pos = start
                break
            if not self.on_match(m.group(0), self.pattern.captures(m)):
                self.done = True
                break
            pos = end if end > start else start + 1
        self.offset += pos
        self.buf = buf[pos:]
