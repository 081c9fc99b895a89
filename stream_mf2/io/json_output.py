"""JSON output: orjson, with an iterative fallback for very deep items and very large integers.

orjson refuses values nested more than 255 levels (items nested about 126
deep, since each level is a dict in a list). The parser builds such items
without recursion, so the output side must not fail on them either: past
orjson's limit the same bytes are produced by an explicit-stack encoder that
uses orjson for the leaves (so escaping and number formatting are identical).
orjson also refuses integers outside 64 bits, which JSON-LD blocks may hold
(``"id": 123456789012345678901234567890``, read as Python reads it): the same
encoder writes them as their digits, as :mod:`json` does.
"""

from __future__ import annotations

from typing import Any

import orjson

__all__ = ["dumps"]


def dumps(obj: Any, *, indent: bool = False) -> bytes:
    """``obj`` as JSON bytes with a trailing newline; 2-space indented if ``indent``."""
    option = (orjson.OPT_INDENT_2 if indent else 0) | orjson.OPT_APPEND_NEWLINE
    try:
        return orjson.dumps(obj, option=option)
    except orjson.JSONEncodeError as exc:
        if "Recursion limit" not in str(exc) and "64-bit" not in str(exc):
            raise
    return _dumps_deep(obj, indent) + b"\n"


def _dumps_deep(obj: Any, indent: bool) -> bytes:
    """Encode without recursion, in orjson's exact layout."""
    out: list[bytes] = []
    # Work items: a value to encode at a depth, or literal bytes to emit.
    stack: list[tuple[Any, int] | bytes] = [(obj, 0)]
    while stack:
        top = stack.pop()
        if type(top) is bytes:
            out.append(top)
            continue
        value, depth = top
        if type(value) is dict:
            if not value:
                out.append(b"{}")
                continue
            out.append(b"{")
            parts: list[tuple[Any, int] | bytes] = []
            for n, (key, child) in enumerate(value.items()):
                sep = b"," if n else b""
                lead = b"\n" + b"  " * (depth + 1) if indent else b""
                colon = b": " if indent else b":"
                parts.append(sep + lead + orjson.dumps(str(key)) + colon)
                parts.append((child, depth + 1))
            parts.append((b"\n" + b"  " * depth if indent else b"") + b"}")
            stack.extend(reversed(parts))
        elif type(value) is list or type(value) is tuple:
            if not value:
                out.append(b"[]")
                continue
            out.append(b"[")
            parts = []
            for n, child in enumerate(value):
                sep = b"," if n else b""
                lead = b"\n" + b"  " * (depth + 1) if indent else b""
                parts.append(sep + lead)
                parts.append((child, depth + 1))
            parts.append((b"\n" + b"  " * depth if indent else b"") + b"]")
            stack.extend(reversed(parts))
        elif type(value) is int and not -(2**63) <= value < 2**64:
            out.append(str(value).encode("ascii"))
        else:
            out.append(orjson.dumps(value))
    return b"".join(out)
