"""Compile the supported XPath subset (load time only).

``/step/step...`` (absolute), ``//*[@id="x"]/step...`` (id-anchored, as browsers copy it)
and, for nested blocks, ``step/...``, ``./step/...`` or ``.//step`` (relative to the parent
block's element). Steps are separated by ``/`` (child) or ``//`` (any depth below). A step is
a name or ``*``, then optionally a position ``[n]`` or ``[last()]``, then attribute
predicates: ``[@a]``, ``[@a="v"]``, ``[contains(@a, "v")]``, ``[starts-with(@a, "v")]``,
joined by ``and``. The last step may instead be ``text()`` or ``@name``. Everything else
(axes, other functions, ``or``, ``..``, a position after an attribute test) is an
:class:`XPathSyntaxError` that says what is supported.
"""

from __future__ import annotations

import re

from stream_mf2.wpt.model import Step, XPath

__all__ = ["XPathSyntaxError", "compile_xpath"]

_ANCHOR = re.compile(r"""//\*\[\s*@id\s*=\s*(?:"([^"]*)"|'([^']*)')\s*\]""")


class XPathSyntaxError(ValueError):
    """An XPath outside the supported subset (message says why)."""


_NAME = re.compile(r"\*|[A-Za-z_][\w.\-:]*")
_WS = re.compile(r"\s*")
_INT = re.compile(r"[0-9]+")
_QUOTED = re.compile(r"""\s*(?:"([^"]*)"|'([^']*)')\s*""")
_ATTR = re.compile(r"@([A-Za-z_][\w.\-:]*)")
_FUNC = re.compile(r"(contains|starts-with)\s*\(\s*")
_AND = re.compile(r"\s*and\s+")


class _Reader:
    """A cursor over one XPath's text, for :func:`_steps`."""

    def __init__(self, text: str, at: int, source: str) -> None:
        self.text = text
        self.i = at
        self.source = source

    def fail(self, why: str) -> XPathSyntaxError:
        return XPathSyntaxError(f"unsupported XPath {self.source!r} at offset {self.i}: {why}")

    def skip_ws(self) -> None:
        m = _WS.match(self.text, self.i)
        assert m is not None
        self.i = m.end()

    def take(self, literal: str) -> bool:
        if self.text.startswith(literal, self.i):
            self.i += len(literal)
            return True
        return False

    def quoted(self) -> str:
        m = _QUOTED.match(self.text, self.i)
        if m is None:
            raise self.fail("expected a quoted string")
        self.i = m.end()
        return m.group(1) if m.group(1) is not None else m.group(2)

    def attr_test(self) -> tuple[str, str, str]:
        """``@a``, ``@a="v"``, ``contains(@a, "v")`` or ``starts-with(@a, "v")``."""
        m = _FUNC.match(self.text, self.i)
        if m is not None:
            self.i = m.end()
            a = _ATTR.match(self.text, self.i)
            if a is None:
                raise self.fail(f'{m.group(1)}() is supported on an attribute only: {m.group(1)}(@name, "text")')
            self.i = a.end()
            self.skip_ws()
            if not self.take(","):
                raise self.fail(f"expected ',' in {m.group(1)}()")
            value = self.quoted()
            if not self.take(")"):
                raise self.fail(f"expected ')' closing {m.group(1)}()")
            return (m.group(1), _attr_name(a.group(1), self), value)
        a = _ATTR.match(self.text, self.i)
        if a is None:
            raise self.fail('a predicate is a position, last(), or an attribute test (@a, @a="v", contains(@a, "v"))')
        self.i = a.end()
        self.skip_ws()
        if self.take("="):
            return ("=", _attr_name(a.group(1), self), self.quoted())
        return ("exists", _attr_name(a.group(1), self), "")


def _attr_name(name: str, r: _Reader) -> str:
    # (prefixed names such as xlink:href are attribute names as the HTML parser writes them)
    return name.lower()


def _step(r: _Reader, descendant: bool) -> Step:
    m = _NAME.match(r.text, r.i)
    if m is None:
        raise r.fail("cannot read a step")
    name = m.group()
    r.i = m.end()
    if r.text.startswith("::", r.i) or "::" in name:
        raise r.fail(f"the {name.split(':')[0]}:: axis (only child steps and '//' are supported)")
    if ":" in name:
        raise r.fail(f"the prefixed name {name!r} (HTML elements are matched by local name)")
    if r.text.startswith("(", r.i):
        raise r.fail(f"the function {name}() as a step (only text() and @name, as the last step)")
    position: int | None = None
    last = False
    tests: list[tuple[str, str, str]] = []
    while r.take("["):
        r.skip_ws()
        n = _INT.match(r.text, r.i)
        if n is not None or r.text.startswith("last()", r.i):
            if position is not None or last:
                raise r.fail("two positions in one step")
            if tests:
                raise r.fail("a position after an attribute test (write name[n][@a='v'])")
            if n is not None:
                position = int(n.group())
                if position < 1:
                    raise r.fail("positions start at 1")
                r.i = n.end()
            else:
                last = True
                r.i += len("last()")
        else:
            tests.append(r.attr_test())
            while True:
                a = _AND.match(r.text, r.i)
                if a is None:
                    break
                r.i = a.end()
                tests.append(r.attr_test())
        r.skip_ws()
        if not r.take("]"):
            raise r.fail("expected ']'")
    attr: tuple[str, str] | None = None
    if len(tests) == 1 and tests[0][0] == "=":
        attr = (tests[0][1], tests[0][2])
        tests = []
    return Step(None if name == "*" else name.lower(), position, attr, descendant, last, tuple(tests))


def _steps(text: str, at: int, source: str, descendant: bool = False) -> tuple[tuple[Step, ...], str | None]:
    """The steps of ``text`` from offset ``at`` (just after a ``/``, or ``//`` when ``descendant``),
    and the final ``text()`` or ``@name`` if the path ends with one."""
    r = _Reader(text, at, source)
    steps: list[Step] = []
    n = len(text)
    while True:
        if r.take("text()"):
            if descendant:
                raise r.fail("'//text()' (write '/text()': the text node children of an element)")
            if r.i < n:
                raise r.fail("text() is supported as the last step only")
            return tuple(steps), "text()"
        if text.startswith("@", r.i):
            a = _ATTR.match(text, r.i)
            if a is None or a.end() < n or descendant:
                raise r.fail("an attribute step is supported as the last step only ('/@name')")
            return tuple(steps), "@" + _attr_name(a.group(1), r)
        steps.append(_step(r, descendant))
        if r.i >= n:
            return tuple(steps), None
        if not r.take("/"):
            raise r.fail("expected '/' or '//' between steps")
        descendant = r.take("/")
        if r.i >= n:
            raise r.fail("trailing '/'")


def compile_xpath(source: str, *, relative_ok: bool = False) -> XPath:
    """Compile an XPath of the supported subset (``relative_ok``: for nested blocks)."""
    text = source.strip()
    if not text:
        raise XPathSyntaxError("empty XPath")
    m = _ANCHOR.match(text)
    if m is not None:
        anchor = m.group(1) if m.group(1) is not None else m.group(2)
        rest = text[m.end() :]
        if not rest:
            return XPath(source, (), absolute=False, anchor=anchor)
        if not rest.startswith("/") or rest in ("/", "//"):
            raise XPathSyntaxError(f"unsupported XPath {source!r}: expected a step after the id anchor")
        deep = rest.startswith("//")
        steps, final = _steps(rest, 2 if deep else 1, source, deep)
        return XPath(source, steps, absolute=False, anchor=anchor, final=final)
    if text.startswith("/"):
        deep = text.startswith("//")
        if text in ("/", "//"):
            raise XPathSyntaxError(f"XPath {source!r} selects the document, not an element: give at least one step")
        steps, final = _steps(text, 2 if deep else 1, source, deep)
        if not steps:
            raise XPathSyntaxError(f"XPath {source!r} selects no element: give at least one element step")
        return XPath(source, steps, absolute=True, final=final)
    if not relative_ok:
        raise XPathSyntaxError(f"XPath {source!r} is relative; a top-level block needs '/...' or '//...'")
    deep = False
    if text.startswith(".//"):
        text, deep = text[3:], True
    elif text.startswith("./"):
        text = text[2:]
    elif text == ".":
        raise XPathSyntaxError(f"XPath {source!r} selects the parent block's element itself")
    steps, final = _steps(text, 0, source, deep)
    return XPath(source, steps, absolute=False, final=final)
