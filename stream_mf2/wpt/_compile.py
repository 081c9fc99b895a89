"""Compile WPT patterns and the supported XPath subset (load time only).

Patterns: literal text with captures ``(concept[REGEX])``; the variant
``([concept[REGEX]])`` that the submission also uses reads the same. A capture
starts at ``(`` (optionally ``[``) followed by a concept name and ``[``; its
expression runs to the first ``])`` outside a character class and escapes.
Any other text, ``(`` included, is literal. Each capture becomes a named
group of the ``regex`` package (``c0``, ``c1``, …, :func:`capture_group`), so a
concept may appear several times and groups inside a capture's own expression
do not shift the captures after it.

XPath: see :mod:`stream_mf2.wpt._xpath` (``compile_xpath`` is re-exported here).
"""

from __future__ import annotations

import re
from typing import Any

from stream_mf2.errors import MissingExtra
from stream_mf2.wpt._urlnorm import normalize_pattern
from stream_mf2.wpt._xpath import XPathSyntaxError, compile_xpath
from stream_mf2.wpt.model import Pattern, TimedRegex

__all__ = [
    "PatternSyntaxError",
    "XPathSyntaxError",
    "capture_group",
    "compile_pattern",
    "compile_xpath",
    "pattern_pieces",
]

_CONCEPT = re.compile(r"[A-Za-z_][\w.\-]*")


class PatternSyntaxError(ValueError):
    """A pattern that cannot be compiled (message says why)."""


def _regex_module() -> Any:
    try:
        import regex
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise MissingExtra("WPT needs the 'regex' package: pip install 'stream-mf2[wpt]'", extra="wpt") from e
    return regex


def capture_group(index: int) -> str:
    """The group name of a pattern's ``index``-th capture."""
    return f"c{index}"


def _capture_end(text: str, i: int) -> int:
    """Index of the ``]`` of the ``])`` closing a capture whose expression starts at ``i`` (-1 if none)."""
    in_class = False
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
        elif c == "[":
            in_class = True
            # "[]...]" and "[^]...]": a leading "]" is a member, not the end
            if i + 1 < n and text[i + 1] == "^":
                i += 1
            if i + 1 < n and text[i + 1] == "]":
                i += 1
        elif c == "]" and i + 1 < n and text[i + 1] == ")":
            return i
        i += 1
    return -1


def pattern_pieces(source: str) -> list[tuple[str, str | None]]:
    """A pattern's pieces in order: ``(literal text, None)`` and ``(capture expression, concept)``
    (``PatternSyntaxError`` for a capture not closed with ``])``)."""
    pieces: list[tuple[str, str | None]] = []
    literal: list[str] = []
    i = 0
    n = len(source)
    while i < n:
        c = source[i]
        if c == "(":
            j = i + 1
            variant = j < n and source[j] == "["
            if variant:
                j += 1
            m = _CONCEPT.match(source, j)
            if m is not None and m.end() < n and source[m.end()] == "[":
                start = m.end() if variant else m.end() + 1
                end = _capture_end(source, start)
                if end < 0:
                    raise PatternSyntaxError(f"capture ({m.group()}[...]) at offset {i} is not closed with '])'")
                if literal:
                    pieces.append(("".join(literal), None))
                    literal = []
                pieces.append((source[start:end], m.group()))
                i = end + 2
                continue
        literal.append(c)
        i += 1
    if literal:
        pieces.append(("".join(literal), None))
    return pieces


def compile_pattern(source: str, *, whole: bool = False) -> Pattern:
    """Compile a WPT pattern (``whole``: anchored at both ends, for URLs; its literal text is
    then normalised as page URLs are, see :mod:`stream_mf2.wpt._urlnorm`).

    Every search of the result is bounded in time (:class:`TimedRegex`): expressions
    that backtrack exponentially (``(a|aa)+c``) or match fuzzily (``{e<=6}``) are accepted,
    and bounded in time where they run, since no syntactic test tells them all apart.
    """
    regex = _regex_module()
    written = source
    if whole:
        source = normalize_pattern(source)
    out: list[str] = []
    concepts: list[str] = []
    for text, concept in pattern_pieces(source):
        if concept is None:
            out.append(re.escape(text))
            continue
        try:
            regex.compile(text)
        except regex.error as e:
            raise PatternSyntaxError(f"capture {concept!r}: bad regular expression {text!r}: {e}") from e
        # A named group per capture: groups inside the expression (``(\.[0-9]{2})?``)
        # then cannot shift the captures after it.
        out.append(f"(?P<{capture_group(len(concepts))}>{text})")
        concepts.append(concept)
    body = "".join(out)
    if not body:
        raise PatternSyntaxError("empty pattern")
    try:
        compiled = regex.compile(body, regex.DOTALL | regex.V0)
    except regex.error as e:
        raise PatternSyntaxError(f"bad pattern: {e}") from e
    if not whole and compiled.fullmatch("") is not None:
        raise PatternSyntaxError("the pattern matches empty text")
    return Pattern(written, TimedRegex(compiled, written), tuple(concepts))
