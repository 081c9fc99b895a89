"""Text of an element: the spec's textContent variants.

``"spec"`` text is DOM textContent with ``<script>``/``<style>`` dropped and,
where the spec asks for it, each ``<img>`` replaced by its ``alt`` (or by its
resolved ``src`` with a space on both sides), trimmed of ASCII whitespace.

``"normalized"`` text is the whitespace-normalising variant of the
textContent-parsing draft that mf2py and php-mf2 implement (see
:func:`normalized_text`).
"""

from __future__ import annotations

import re

from stream_mf2.html.dom import Element, Node, ParentNode, Text

from .urls import resolve

ASCII_WS = " \t\n\f\r"

_SKIP = frozenset({"script", "style", "template"})

_SPACE_RUN = re.compile(r" {2,}")


def trim(value: str) -> str:
    """Remove leading and trailing ASCII whitespace."""
    return value.strip(ASCII_WS)


def _image_text(img: Element, base: str | None) -> str:
    alt = img.attrs.get("alt")
    if alt is not None:
        return alt
    src = img.attrs.get("src")
    if src is not None:
        return " " + resolve(src, base) + " "
    return ""


def raw_text(element: ParentNode, base: str | None, replace_images: bool) -> str:
    """Untrimmed textContent without script/style, images optionally replaced."""
    parts: list[str] = []
    stack: list[Node] = list(reversed(element.children))
    while stack:
        node = stack.pop()
        if type(node) is Text:
            parts.append(node.data)
        elif isinstance(node, Element):
            name = node.name
            if name in _SKIP:
                continue
            if replace_images and name == "img":
                parts.append(_image_text(node, base))
                continue
            stack.extend(reversed(node.children))
    return "".join(parts)


# Markers in the normalised algorithm's token list (strings are text).
_P_BEFORE = 1  # a paragraph starts: at least one line break before what follows
_P_AFTER = 0  # a paragraph ended (its own "\n" token follows)
_PRE_BEFORE = 2  # preformatted text follows: spaces before it are dropped
_PRE_AFTER = 3
_P_END = "</p>"  # stack marker: leaving a <p>
_NEWLINES = re.compile(r"[\n\t\r]+")


def _normalized_tokens(element: ParentNode, base: str | None, replace_images: bool) -> list[str | int]:
    tokens: list[str | int] = []
    stack: list[Node | str] = list(reversed(element.children))
    while stack:
        node = stack.pop()
        if isinstance(node, str):  # only _P_END is pushed as a string
            tokens.extend((_P_AFTER, "\n"))
            continue
        if type(node) is Text:
            value = _SPACE_RUN.sub(" ", _NEWLINES.sub(" ", node.data))
            if value:
                tokens.append(value)
            continue
        if not isinstance(node, Element):
            continue
        name = node.name
        if name in _SKIP:
            continue
        if name == "pre":
            tokens.extend((_PRE_BEFORE, raw_text(node, base, False), _PRE_AFTER))
        elif name == "img":
            if replace_images:
                alt = node.attrs.get("alt")
                if alt is None and "src" in node.attrs:
                    alt = resolve(node.attrs["src"], base)
                if alt is not None:
                    tokens.extend((" ", alt, " ") if alt else (" ", " "))
        elif name == "br":
            tokens.append("\n")
        else:
            if name == "p":
                tokens.append(_P_BEFORE)
                stack.append(_P_END)
            stack.extend(reversed(node.children))
    return tokens


def normalized_text(element: ParentNode, base: str | None, replace_images: bool) -> str:
    """Whitespace-normalised text, as mf2py and php-mf2 compute it.

    Based on the textContent-parsing draft (microformats.org/wiki/textcontent-parsing):
    tabs and line breaks in text become spaces and space runs collapse; an
    image becomes its ``alt`` (or resolved ``src``) between spaces; ``<br>``
    is a line break; ``<pre>`` text is kept as written; a ``<p>`` is separated
    from what precedes it by a line break and from a following paragraph by
    an empty line; script, style and template content is dropped. Stand-alone
    spaces next to other spaces or paragraph edges go, spaces next to line
    breaks go (outside ``<pre>``), and the ends are trimmed.
    """
    tokens = _normalized_tokens(element, base, replace_images)
    last = len(tokens) - 1
    for i, token in enumerate(tokens):
        if token == " " and (
            i == 0
            or i == last
            or tokens[i - 1] == " "
            or tokens[i - 1] in (_P_BEFORE, _P_AFTER)
            or tokens[i + 1] == " "
            or tokens[i + 1] in (_P_BEFORE, _P_AFTER)
        ):
            tokens[i] = ""
    start, end = 0, len(tokens)
    while start < end and _blank_edge(tokens[start]):
        start += 1
    while end > start and _blank_edge(tokens[end - 1]):
        end -= 1
    kept = tokens[start:end]
    if kept and isinstance(kept[0], str):
        kept[0] = kept[0].lstrip()
    if kept and isinstance(kept[-1], str):
        kept[-1] = kept[-1].rstrip()
    parts: list[str] = []
    breaks = 0
    in_pre = False
    for token in kept:
        if isinstance(token, int):
            if token in (_P_BEFORE, _P_AFTER):
                breaks = max(breaks, token)
            elif token == _PRE_BEFORE:
                in_pre = True
                _strip_trailing_spaces(parts)
            else:
                in_pre = False
            continue
        if in_pre:
            parts.append("\n" * breaks + token)
            breaks = 0
            continue
        if breaks:
            _strip_trailing_spaces(parts)
            parts.append("\n" * breaks)
            breaks = 0
        if parts and parts[-1].endswith(("\n", " ")):
            token = token.lstrip(" ")  # no space after a line break, no run of spaces
        if token.startswith("\n"):
            _strip_trailing_spaces(parts)
        if token:
            parts.append(token)
    return "".join(parts)


def _strip_trailing_spaces(parts: list[str]) -> None:
    """No spaces directly before a line break (the draft's rule)."""
    while parts:
        stripped = parts[-1].rstrip(" ")
        if stripped:
            parts[-1] = stripped
            return
        parts.pop()


def _blank_edge(token: str | int) -> bool:
    """Dropped at either end: empty or whitespace-only text, paragraph markers."""
    if isinstance(token, str):
        return token == "" or token.isspace()
    return token in (_P_BEFORE, _P_AFTER)


def element_text(element: ParentNode, base: str | None, mode: str, replace_images: bool) -> str:
    """Trimmed text of ``element`` in the given mode (``"spec"`` or ``"normalized"``)."""
    if mode == "normalized":
        return normalized_text(element, base, replace_images)
    return trim(raw_text(element, base, replace_images))
