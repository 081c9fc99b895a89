"""Compile WPT patterns and the supported XPath subset (load time only).

Patterns: literal text with captures ``(concept[REGEX])``; the variant
``([concept[REGEX]])`` that the submission also uses reads the same. A capture
starts at ``(`` (optionally ``[``) followed by a concept name and ``[``; its
expression runs to the first ``])`` outside a character class and escapes.
Any other text, ``(`` included, is literal. Each capture becomes a named
group of the ``regex`` package (``c0``, ``c1``, …, :func:`capture_group`), so a
concept may appear several times and groups inside a capture's own expression
do not shift the captures after it.

XPath: ``/step/step...`` (absolute), ``//*[@id="x"]/step...`` (id-anchored,
as browsers copy it) and, for nested blocks, ``step/...`` or ``./step/...``
(relative to the parent block's element). A step is a name or ``*``, then
optionally a position ``[n]``, then optionally ``[@attr="value"]``.
"""

from __future__ import annotations

import re
from typing import Any

from stream_mf2.errors import MissingExtra
from stream_mf2.wpt.model import Pattern, Step, TimedRegex, XPath

__all__ = ["PatternSyntaxError", "XPathSyntaxError", "capture_group", "compile_pattern", "compile_xpath"]

_CONCEPT = re.compile(r"[A-Za-z_][\w.\-]*")
_STEP = re.compile(
    r"""(?P<name>\*|[A-Za-z_][\w.\-:]*)
        (?:\[\s*(?P<pos>[0-9]+)\s*\])?
        (?:\[\s*@(?P<attr>[A-Za-z_][\w.\-:]*)\s*=\s*(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)')\s*\])?
        (?:\[\s*(?P<pos2>[0-9]+)\s*\])?
    """,
    re.VERBOSE,
)
_ANCHOR = re.compile(r"""//\*\[\s*@id\s*=\s*(?:"([^"]*)"|'([^']*)')\s*\]""")


class PatternSyntaxError(ValueError):
    """A pattern that cannot be compiled (message says why)."""


class XPathSyntaxError(ValueError):
    """An XPath outside the supported subset (message says why)."""


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


def compile_pattern(source: str, *, whole: bool = False) -> Pattern:
    """Compile a WPT pattern (``whole``: anchored at both ends, for URLs).

    Every search of the result is bounded in time (:class:`TimedRegex`): expressions
    that backtrack exponentially (``(a|aa)+c``) or match fuzzily (``{e<=6}``) are accepted,
    and bounded in time where they run, since no syntactic test tells them all apart.
    """
    regex = _regex_module()
    out: list[str] = []
    concepts: list[str] = []
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
                expr = source[start:end]
                try:
                    regex.compile(expr)
                except regex.error as e:
                    raise PatternSyntaxError(f"capture {m.group()!r}: bad regular expression {expr!r}: {e}") from e
                out.append(re.escape("".join(literal)))
                literal = []
                # A named group per capture: groups inside the expression (``(\.[0-9]{2})?``)
                # then cannot shift the captures after it.
                out.append(f"(?P<{capture_group(len(concepts))}>{expr})")
                concepts.append(m.group())
                i = end + 2
                continue
        literal.append(c)
        i += 1
    out.append(re.escape("".join(literal)))
    body = "".join(out)
    if not body:
        raise PatternSyntaxError("empty pattern")
    try:
        compiled = regex.compile(body, regex.DOTALL | regex.V0)
    except regex.error as e:
        raise PatternSyntaxError(f"bad pattern: {e}") from e
    if not whole and compiled.fullmatch("") is not None:
        raise PatternSyntaxError("the pattern matches empty text")
    return Pattern(source, TimedRegex(compiled, source), tuple(concepts))


def _steps(text: str, at: int, source: str) -> tuple[Step, ...]:
    steps: list[Step] = []
    i = at
    n = len(text)
    while i < n:
        m = _STEP.match(text, i)
        if m is None or m.end() == i:
            raise XPathSyntaxError(f"unsupported XPath {source!r}: cannot read a step at offset {i}")
        if m.group("pos") and m.group("pos2"):
            raise XPathSyntaxError(f"unsupported XPath {source!r}: two positions in one step")
        if m.group("pos2") and m.group("attr"):
            raise XPathSyntaxError(
                f"unsupported XPath {source!r}: a position after an attribute test (write name[n][@a='v'])"
            )
        pos_text = m.group("pos") or m.group("pos2")
        position = int(pos_text) if pos_text else None
        if position is not None and position < 1:
            raise XPathSyntaxError(f"XPath {source!r}: positions start at 1")
        attr = None
        if m.group("attr"):
            value = m.group("dq") if m.group("dq") is not None else m.group("sq")
            attr = (m.group("attr").lower(), value or "")
        name = m.group("name")
        if "::" in name:
            axis = name.split("::", 1)[0]
            raise XPathSyntaxError(f"unsupported XPath {source!r}: the {axis}:: axis (only child steps are supported)")
        if ":" in name:
            raise XPathSyntaxError(
                f"unsupported XPath {source!r}: the prefixed name {name!r} (HTML elements are matched by local name)"
            )
        steps.append(Step(None if name == "*" else name.lower(), position, attr))
        i = m.end()
        if i < n:
            if text[i] != "/" or i + 1 >= n or text[i + 1] == "/":
                raise XPathSyntaxError(
                    f"unsupported XPath {source!r} at offset {i}: only child steps ('/name[n]') are supported"
                )
            i += 1
    return tuple(steps)


def compile_xpath(source: str, *, relative_ok: bool = False) -> XPath:
    """Compile an XPath of the supported subset (``relative_ok``: for nested blocks)."""
    text = source.strip()
    if not text:
        raise XPathSyntaxError("empty XPath")
    m = _ANCHOR.match(text)
    if m is not None:
        anchor = m.group(1) if m.group(1) is not None else m.group(2)
        rest = text[m.end() :]
        if rest and not rest.startswith("/"):
            raise XPathSyntaxError(f"unsupported XPath {source!r}: expected '/' after the id anchor")
        steps = _steps(rest[1:], 0, source) if rest else ()
        if rest and not steps:
            raise XPathSyntaxError(f"unsupported XPath {source!r}: trailing '/'")
        return XPath(source, steps, absolute=False, anchor=anchor)
    if text.startswith("//"):
        raise XPathSyntaxError(f"unsupported XPath {source!r}: '//' only as '//*[@id=\"x\"]' at the start")
    if text.startswith("/"):
        steps = _steps(text, 1, source)
        if not steps:
            raise XPathSyntaxError(f"XPath {source!r} selects the document, not an element: give at least one step")
        return XPath(source, steps, absolute=True)
    if not relative_ok:
        raise XPathSyntaxError(f"XPath {source!r} is relative; a top-level block needs '/...' or '//*[@id=...]'")
    if text.startswith("./"):
        text = text[2:]
    return XPath(source, _steps(text, 0, source), absolute=False)
