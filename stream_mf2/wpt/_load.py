"""Load a WPT file into the typed model, with defusedxml and exact positions.

Templates are untrusted: the XML is read by defusedxml's expat parser with
DTDs forbidden (so no entity can be declared: a billion-laughs bomb stops at
its ``<!DOCTYPE``), entities and external references forbidden. Every problem
is a :class:`~stream_mf2.wpt.model.TemplateError` with a 1-based line and
column: expat's position for malformed XML, the element's start tag for
semantic errors.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

from stream_mf2.errors import MissingExtra
from stream_mf2.wpt._compile import PatternSyntaxError, XPathSyntaxError, compile_pattern, compile_xpath
from stream_mf2.wpt.model import (
    OW_NS,
    Block,
    Concept,
    Ontology,
    Pattern,
    Template,
    TemplateError,
    UrlsSection,
    Wpt,
    XPath,
)

__all__ = ["load"]

_OW = "{" + OW_NS + "}"
_CONCEPT_TEXT = re.compile(r"[A-Za-z_][\w.\-]*")


def _defused() -> Any:
    try:
        import defusedxml.ElementTree as det
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise MissingExtra("WPT templates need defusedxml: pip install 'stream-mf2[wpt]'", extra="wpt") from e
    return det


@dataclass
class _Node:
    """One element of the template, as read (tag ``{ns}local``)."""

    tag: str
    attrs: dict[str, str]
    line: int
    column: int
    start: int  # byte offset of "<"
    content_start: int = 0  # byte offset after the start tag's ">"
    end: int = 0  # byte offset of the end tag's "<" (content end)
    outer_end: int = 0  # byte offset after the end tag
    text: list[str] = field(default_factory=list)
    children: list[_Node] = field(default_factory=list)


def _tag_end(data: bytes, i: int) -> int:
    """Offset after the ``>`` of the tag starting at ``i`` (quotes respected)."""
    quote = 0
    n = len(data)
    while i < n:
        c = data[i]
        if quote:
            if c == quote:
                quote = 0
        elif c in (0x22, 0x27):
            quote = c
        elif c == 0x3E:
            return i + 1
        i += 1
    return n


#: Deepest element nesting of a template (``ow:wpt`` > ``ow:template`` > blocks inside blocks).
DEFAULT_MAX_TEMPLATE_DEPTH = 64


class _Target:
    """ElementTree parser target that records positions from the expat parser."""

    def __init__(self, data: bytes, max_depth: int = DEFAULT_MAX_TEMPLATE_DEPTH) -> None:
        self.data_bytes = data
        self.max_depth = max_depth
        self.expat: Any = None
        self.stack: list[_Node] = []
        self.root: _Node | None = None

    def _pos(self) -> tuple[int, int, int]:
        p = self.expat
        return p.CurrentLineNumber, p.CurrentColumnNumber + 1, p.CurrentByteIndex

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        line, col, at = self._pos()
        if len(self.stack) >= self.max_depth:
            # Blocks nest as deep as their elements; loading and matching walk them recursively.
            raise TemplateError(
                f"elements nested more than {self.max_depth} deep (max_template_depth={self.max_depth})", line, col
            )
        node = _Node(tag, dict(attrs), line, col, at)
        node.content_start = _tag_end(self.data_bytes, at)
        if self.stack:
            self.stack[-1].children.append(node)
        else:
            self.root = node
        self.stack.append(node)

    def end(self, tag: str) -> None:
        _, _, at = self._pos()
        node = self.stack.pop()
        if self.data_bytes[node.content_start - 2 : node.content_start] == b"/>":  # an empty-element tag
            node.end = node.outer_end = node.content_start
        else:
            node.end = at
            node.outer_end = _tag_end(self.data_bytes, at)

    def data(self, text: str) -> None:
        if self.stack:
            self.stack[-1].text.append(text)

    def close(self) -> _Node | None:
        return self.root


def _parse_xml(data: bytes, max_depth: int = 64) -> _Node:
    det = _defused()
    target = _Target(data, max_depth)
    parser = det.DefusedXMLParser(target=target, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    target.expat = parser.parser
    try:
        parser.feed(data)
        root: _Node | None = parser.close()
    except det.ParseError as e:
        line, col = e.position
        raise TemplateError(f"malformed XML: {_expat_message(e)}", line, col + 1) from None
    except det.DTDForbidden:
        line, col, _ = target._pos()
        raise TemplateError(
            "DTDs are not allowed in templates (no <!DOCTYPE>, no entity declarations)", line, col
        ) from None
    except (det.EntitiesForbidden, det.ExternalReferenceForbidden) as e:
        line, col, _ = target._pos()
        raise TemplateError(f"entities are not allowed in templates: {e}", line, col) from None
    if root is None:  # pragma: no cover - expat reports "no element found" first
        raise TemplateError("malformed XML: no element found", 1, 1)
    return root


def _expat_message(e: Exception) -> str:
    text = str(e)
    return re.sub(r":\s*line \d+, column \d+$", "", text)


def _attr(node: _Node, name: str) -> str | None:
    """An ``ow:`` attribute (the unprefixed spelling is accepted too)."""
    value = node.attrs.get(_OW + name)
    if value is None:
        value = node.attrs.get(name)
    return value


def _is_ow(node: _Node, local: str) -> bool:
    return node.tag == _OW + local


class _Loader:
    def __init__(self, data: bytes, strict: bool) -> None:
        self.data = data
        self.strict = strict
        self.warnings: list[str] = []
        # (concept, line, column, template ontology) to check once ontologies are known
        self.used: list[tuple[str, int, int, str | None]] = []

    def error(self, node: _Node, message: str) -> TemplateError:
        return TemplateError(message, node.line, node.column)

    def pattern(self, node: _Node, text: str, what: str, *, whole: bool, ontology: str | None) -> Pattern:
        try:
            p = compile_pattern(text, whole=whole)
        except PatternSyntaxError as e:
            raise self.error(node, f"{what}: {e}") from None
        for concept in p.concepts:
            self.used.append((concept, node.line, node.column, ontology))
        return p

    def xpath(self, node: _Node, text: str, nested: bool) -> XPath:
        try:
            return compile_xpath(text, relative_ok=nested)
        except XPathSyntaxError as e:
            raise self.error(node, str(e)) from None

    def block(self, node: _Node, ontology: str | None, nested: bool) -> Block:
        tagid = _attr(node, "tagid")
        xpath_text = _attr(node, "xpath")
        pattern_text = _attr(node, "pattern")
        if tagid is not None and not tagid.strip():
            raise self.error(node, "ow:tagid is empty")
        if not tagid and not xpath_text and not pattern_text:
            raise self.error(node, "ow:block has no reference (ow:tagid, ow:xpath or ow:pattern)")
        xpath = self.xpath(node, xpath_text, nested) if xpath_text else None
        pattern = (
            self.pattern(node, pattern_text, "ow:pattern", whole=False, ontology=ontology) if pattern_text else None
        )
        kind = _attr(node, "type")
        if kind is not None and kind.strip() not in ("repeatable", ""):
            raise self.error(node, f"unknown ow:type {kind!r} (only 'repeatable' is defined)")
        children: list[Block] = []
        cut: list[tuple[int, int]] = []
        for child in node.children:
            if _is_ow(child, "block"):
                children.append(self.block(child, ontology, nested=True))
                cut.append((child.start, child.outer_end))
            elif child.tag.startswith(_OW):
                raise self.error(child, f"unexpected {_local(child.tag)!r} inside ow:block")
        # The content as written, with nested blocks cut out.
        pieces: list[bytes] = []
        at = node.content_start
        for s, e in cut:
            pieces.append(self.data[at:s])
            at = e
        pieces.append(self.data[at : node.end])
        written = b"".join(pieces).decode("utf-8", "replace").strip()
        concept: str | None = None
        description: str | None = None
        plain = "".join(node.text).strip()
        foreign = any(not _is_ow(c, "block") for c in node.children)
        if written:
            if not foreign and _CONCEPT_TEXT.fullmatch(plain):
                concept = plain
                self.used.append((concept, node.line, node.column, ontology))
            else:
                description = written
        return Block(
            concept=concept,
            description=description,
            tagid=tagid.strip() if tagid else None,
            xpath=xpath,
            pattern=pattern,
            repeatable=(kind or "").strip() == "repeatable",
            blocks=tuple(children),
            line=node.line,
            column=node.column,
        )

    def template(self, node: _Node, host: str) -> Template:
        name = _attr(node, "name")
        if not name or not name.strip():
            raise self.error(node, "ow:template has no ow:name")
        ontology = _attr(node, "ontology")
        url_text = _attr(node, "url")
        url = self.pattern(node, url_text, "ow:url", whole=True, ontology=ontology) if url_text else None
        blocks = [self.block(c, ontology, nested=False) for c in node.children if _is_ow(c, "block")]
        for c in node.children:
            if c.tag.startswith(_OW) and not _is_ow(c, "block"):
                raise self.error(c, f"unexpected {_local(c.tag)!r} inside ow:template")
        if not blocks:
            raise self.error(node, f"template {name!r} has no ow:block (a template needs at least one)")
        return Template(name.strip(), url, ontology, tuple(blocks), node.line, node.column, host)

    def urls(self, node: _Node) -> UrlsSection:
        template = _attr(node, "template")
        if not template or not template.strip():
            raise self.error(node, "ow:urls has no ow:template")
        patterns: list[Pattern] = []
        for c in node.children:
            if _is_ow(c, "url"):
                text = "".join(c.text).strip()
                if not text:
                    raise self.error(c, "empty ow:url")
                patterns.append(self.pattern(c, text, "ow:url", whole=True, ontology=None))
            elif c.tag.startswith(_OW):
                raise self.error(c, f"unexpected {_local(c.tag)!r} inside ow:urls")
        if not patterns:
            raise self.error(node, "ow:urls has no ow:url")
        return UrlsSection(_attr(node, "name"), template.strip(), tuple(patterns), node.line, node.column)

    def ontology(self, node: _Node) -> Ontology:
        concepts: list[Concept] = []
        for c in node.children:
            if not _is_ow(c, "concept"):
                continue
            name = _attr(c, "name") or "".join(c.text).strip()
            if not name:
                raise self.error(c, "ow:concept has no name (ow:name or text)")
            inherits = tuple("".join(x.text).strip() for x in c.children if _is_ow(x, "inherit"))
            has = tuple("".join(x.text).strip() for x in c.children if _is_ow(x, "has"))
            concepts.append(Concept(name.strip(), inherits, has))
        return Ontology(_attr(node, "name"), tuple(concepts))


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _declared(concept: str, ontologies: list[Ontology]) -> bool:
    """Is ``concept`` (``name`` or ``name.attribute``) declared in one of ``ontologies``?

    Names compare case-insensitively (the submission's own example declares
    ``logo`` and uses ``Logo``). ``a.b`` needs concept ``a`` with ``b`` among
    its ``ow:has`` (through ``ow:inherit``), ``id`` (every concept has it) or a
    declared concept ``b``.
    """
    table: dict[str, Concept] = {}
    for o in ontologies:
        for c in o.concepts:
            table.setdefault(c.name.lower(), c)
    parts = concept.lower().split(".")
    if parts[0] not in table:
        return False
    current = table[parts[0]]
    for part in parts[1:]:
        if part == "id":
            return True
        seen: set[str] = set()
        todo = [current]
        found = False
        while todo and not found:
            c = todo.pop()
            if c.name.lower() in seen:
                continue
            seen.add(c.name.lower())
            if any(h.lower() == part for h in c.has):
                found = True
            todo.extend(table[i.lower()] for i in c.inherits if i.lower() in table)
        if not found:
            return False
        current = table.get(part, Concept(part))
    return True


def load(
    source: str | bytes | os.PathLike[str],
    *,
    strict: bool = False,
    max_template_depth: int = DEFAULT_MAX_TEMPLATE_DEPTH,
) -> Wpt:
    """Load a WPT from XML text (``str``), XML bytes, or a file (``os.PathLike``, e.g. a ``Path``).

    The package's one input rule holds here too: a ``str`` is the template
    itself, never a file name (a ``str`` that cannot be XML is a
    :class:`TypeError` that says so). Raises :class:`TemplateError` (with line
    and column) for any problem in the template; undeclared concepts are listed
    in :attr:`Wpt.warnings`, or raise with ``strict=True``. Elements nested more than
    ``max_template_depth`` deep (blocks inside blocks, 64 by default) are a
    :class:`TemplateError`: loading and matching follow the nesting.
    """
    if max_template_depth < 1:
        raise ValueError("max_template_depth must be at least 1")
    if isinstance(source, bytes):
        data = source
    elif isinstance(source, str):
        if not source.lstrip("\ufeff \t\r\n").startswith("<"):
            raise TypeError(
                f"load() takes template XML as str; {source[:60]!r} is not XML "
                "(for a file, pass a path: pathlib.Path(...))"
            )
        data = source.encode("utf-8")
    elif isinstance(source, os.PathLike):
        with open(source, "rb") as f:
            data = f.read()
    else:
        raise TypeError(f"load() takes XML text (str), XML bytes or a path (os.PathLike), not {type(source).__name__}")
    root = _parse_xml(data, max_template_depth)
    loader = _Loader(data, strict)
    if not _is_ow(root, "wpt"):
        raise loader.error(root, f"the root element must be ow:wpt in namespace {OW_NS}, not {root.tag!r}")
    host = _attr(root, "host")
    if not host or not host.strip():
        raise loader.error(root, "ow:wpt has no ow:host")
    templates: list[Template] = []
    sections: list[UrlsSection] = []
    ontologies: list[Ontology] = []
    for c in root.children:
        if _is_ow(c, "template"):
            t = loader.template(c, host.strip())
            if any(x.name == t.name for x in templates):
                raise loader.error(c, f"a second template named {t.name!r}")
            templates.append(t)
        elif _is_ow(c, "urls"):
            sections.append(loader.urls(c))
        elif _is_ow(c, "ontology"):
            ontologies.append(loader.ontology(c))
        elif c.tag.startswith(_OW):
            raise loader.error(c, f"unexpected {_local(c.tag)!r} inside ow:wpt")
    names = {t.name for t in templates}
    for s in sections:
        if s.template not in names:
            raise TemplateError(f"ow:urls names an unknown template {s.template!r}", s.line, s.column)
    for concept, line, col, onto in loader.used:
        scope = [o for o in ontologies if onto is None or o.name == onto] or ontologies
        if not _declared(concept, scope):
            where = f"ontology {onto!r}" if onto else "any ontology"
            message = f"concept {concept!r} is not declared in {where}"
            if strict:
                raise TemplateError(message, line, col)
            loader.warnings.append(f"{line}:{col}: {message}")
    if not templates:
        raise loader.error(root, "ow:wpt has no ow:template")
    return Wpt(host.strip(), tuple(templates), tuple(sections), tuple(ontologies), tuple(loader.warnings))
