"""Reading the text of a JSON-LD block, as leniently as real pages need.

Most blocks are plain JSON: :func:`orjson.loads` reads them, and nothing else
runs. Only when it refuses does :func:`read_block` try, in turn:

1. :func:`json.loads` with ``strict=False``, which also takes what orjson does
   not: control characters inside strings (a raw newline in a description),
   ``NaN``/``Infinity``, and integers past 64 bits, which orjson would turn
   into floats (so a text with nineteen digits in a row goes there first);
2. the same on the text cleaned of what pages wrap around or leave in their
   JSON (:func:`clean`): a byte order mark, an HTML comment (``<!-- ... -->``)
   or CDATA section (``<![CDATA[ ... ]]>``, often behind ``//``) around it,
   JavaScript comments, commas before a closing ``}`` or ``]``.

Outside strings only: the cleaning never changes a string's content. What is
still not JSON is an error message (the position of the first error), which
the consumer turns into a note.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

import orjson

__all__ = ["clean", "items_of", "read_block"]

# A JSON string (kept as it is), or what clean() drops outside strings: a JavaScript
# comment, the markers of an HTML comment or a CDATA section.
_JUNK: Final = re.compile(r'("(?:[^"\\]|\\.)*")|//[^\n\r]*|/\*.*?\*/|<!--|-->|<!\[CDATA\[|\]\]>', re.S)
# A JSON string (kept), or a comma before a closing bracket (dropped).
_TRAILING_COMMA: Final = re.compile(r'("(?:[^"\\]|\\.)*")|,(?=\s*[}\]])', re.S)
_BOM: Final = "\ufeff"
# A number orjson would read as a float (it reads integers of 64 bits at most): nineteen
# digits or more in a row (inside a string too, which only costs the slower reader).
_LONG_DIGITS: Final = re.compile(r"\d{19}")


def _keep_string(match: re.Match[str]) -> str:
    return match.group(1) or ""


def clean(text: str) -> str:
    """``text`` without a byte order mark, comment or CDATA markers, JavaScript comments and
    trailing commas, each outside JSON strings."""
    text = text.strip().lstrip(_BOM)
    text = _JUNK.sub(_keep_string, text)
    return _TRAILING_COMMA.sub(_keep_string, text)


def read_block(text: str) -> tuple[Any, str | None]:
    """The JSON value of a block's text, and ``None``; or ``None`` and why it cannot be read."""
    if _LONG_DIGITS.search(text) is None:
        try:
            return orjson.loads(text), None
        except orjson.JSONDecodeError:
            pass
    try:
        return json.loads(text, strict=False), None
    except ValueError:
        pass
    except RecursionError:
        return None, "nested too deeply"
    try:
        return json.loads(clean(text), strict=False), None
    except ValueError as e:
        return None, str(e)
    except RecursionError:
        return None, "nested too deeply"


def items_of(value: Any) -> list[Any]:
    """The items of a block's value, as extruct lists them: each non-empty element of a
    top-level array, or a non-empty top-level object (none for anything else)."""
    if type(value) is list:
        return [v for v in value if v]
    if type(value) is dict:
        return [value] if value else []
    return []
