"""Character references (WHATWG HTML 13.2.5.72 to 13.2.5.80), as lookahead functions.

The tokenizer calls :func:`match_named` with the unconsumed input positioned
just after the ``&``. It can answer "need more input" (``None``) when the
available text is a proper prefix of something that could still change the
result, so a reference split across chunks resolves exactly as if it had
arrived whole. At end of input the caller passes ``at_eof=True`` and it
decides with what there is. Numeric references are read by tokenizer states
(their digits can run on without bound, so they are not held as lookahead);
:func:`numeric_reference` maps the resulting number to text.

The named table is the standard library's ``html.entities.html5`` (2,231 names,
with and without the trailing ``;``). :func:`name_prefixes` holds every prefix
of every name: while the characters read so far are in it, more input could
extend the longest match.
"""

from __future__ import annotations

import re
from html.entities import html5 as _HTML5
from typing import Final

__all__ = [
    "C1_REPLACEMENTS",
    "MAX_NAME_LENGTH",
    "NAMED",
    "match_named",
    "name_prefixes",
    "numeric_reference",
]

#: name (without the leading "&", with ";" where the table has it) -> replacement text.
NAMED: Final[dict[str, str]] = dict(_HTML5)

_name_prefixes: frozenset[str] | None = None


def name_prefixes() -> frozenset[str]:
    """Every non-empty prefix of every name in :data:`NAMED` (names included).

    Built on first use: the tokenizer's fast path resolves the usual references
    without it, and building it was a good part of the cost of importing the package.
    """
    global _name_prefixes
    if _name_prefixes is None:
        _name_prefixes = frozenset({name[:i] for name in NAMED for i in range(1, len(name) + 1)})
    return _name_prefixes


#: Length of the longest name, ";" included.
MAX_NAME_LENGTH: Final = max(len(name) for name in NAMED)

# The characters a name can be made of: ASCII alphanumerics, then an optional ";".
_NAME_RUN: Final = re.compile(r"[A-Za-z0-9]*;?")

# 13.2.5.80: code points 0x80-0x9F that are replaced by their Windows-1252 meaning.
C1_REPLACEMENTS: Final[dict[int, int]] = {
    0x80: 0x20AC,
    0x82: 0x201A,
    0x83: 0x0192,
    0x84: 0x201E,
    0x85: 0x2026,
    0x86: 0x2020,
    0x87: 0x2021,
    0x88: 0x02C6,
    0x89: 0x2030,
    0x8A: 0x0160,
    0x8B: 0x2039,
    0x8C: 0x0152,
    0x8E: 0x017D,
    0x91: 0x2018,
    0x92: 0x2019,
    0x93: 0x201C,
    0x94: 0x201D,
    0x95: 0x2022,
    0x96: 0x2013,
    0x97: 0x2014,
    0x98: 0x02DC,
    0x99: 0x2122,
    0x9A: 0x0161,
    0x9B: 0x203A,
    0x9C: 0x0153,
    0x9E: 0x017E,
    0x9F: 0x0178,
}


def match_named(text: str, start: int, at_eof: bool) -> int | None:
    """Find the longest character reference name at ``text[start:]``.

    Returns ``match_end``: ``text[start:match_end]`` is the longest name in
    :data:`NAMED` (``match_end == start`` when none matches). Returns ``None``
    when the alphanumeric run reaches the end of ``text`` while still being a
    prefix of some name and ``at_eof`` is false: more input could give a longer
    match.
    """
    m = _NAME_RUN.match(text, start, start + MAX_NAME_LENGTH)
    assert m is not None  # the pattern matches the empty string
    run_end = m.end()
    run = text[start:run_end]
    prefixes = name_prefixes()
    # A run that ends in ";" cannot grow: no name has ";" inside.
    if not at_eof and run_end == len(text) and not run.endswith(";") and (not run or run in prefixes):
        return None
    # Longest match: first cut the run to its longest part that is still a prefix
    # of some name (no longer candidate can match), then shorten until a name is found.
    k = len(run)
    while k and run[:k] not in prefixes:
        k -= 1
    while k:
        if run[:k] in NAMED:
            return start + k
        k -= 1
    return start


def numeric_reference(code: int) -> tuple[str, str | None]:
    """The text for numeric character reference ``code`` and its parse error, if any.

    13.2.5.80: NUL, surrogates and values above U+10FFFF become U+FFFD; C1
    controls map through :data:`C1_REPLACEMENTS`; noncharacters and other
    controls are kept but reported.
    """
    if code == 0:
        return "\ufffd", "null-character-reference"
    if code > 0x10FFFF:
        return "\ufffd", "character-reference-outside-unicode-range"
    if 0xD800 <= code <= 0xDFFF:
        return "\ufffd", "surrogate-character-reference"
    if 0xFDD0 <= code <= 0xFDEF or (code & 0xFFFE) == 0xFFFE:
        return chr(code), "noncharacter-character-reference"
    if code == 0x0D or ((code < 0x20 or 0x7F <= code <= 0x9F) and code not in (0x09, 0x0A, 0x0C)):
        return chr(C1_REPLACEMENTS.get(code, code)), "control-character-reference"
    return chr(code), None
