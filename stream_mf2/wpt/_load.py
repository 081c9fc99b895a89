"""Load a WPT file into the typed model, with defusedxml and exact positions.

Templates are untrusted: the XML is read by defusedxml's expat parser with
DTDs forbidden (so no entity can be declared: a billion-laughs bomb stops at
its ``<!DOCTYPE``), entities and external references forbidden. Every problem
is a :class:`~stream_mf2.wpt.model.TemplateError` with a 1-based line and
column: expat's position for malformed XML, the element's start tag for
semantic errors. What the submission requires is an error; what only makes a
template useless or suspicious (a template no URL chooses, an unknown ``ow:``
attribute, an ontology name no ``ow:ontology`` has, an undeclared concept) is a
warning in :attr:`Wpt.warnings`, an error with ``strict=True``.

Loading is linear in the template: the size limits (``max_template_depth``,
``max_template_blocks``, ``max_template_pattern_chars``) are checked as the XML
is read, and concepts are looked up in tables made once.
"""

from __future__ import annotations

import codecs
import difflib
import os
import re
from dataclasses import dataclass, field
from typing import Any

from stream_mf2.errors import MissingExtra
from stream_mf2.wpt._compile import PatternSyntaxError, XPathSyntaxError, compile_pattern, compile_xpath
from stream_mf2.wpt.model import (
    OW_NS,
    RDF_NS,
    Block,
    Concept,
    Ontology,
    Pattern,
    RdfNode,
    RdfProperty,
    Template,
    TemplateError,
    UrlsSection,
    Wpt,
    XPath,
)

__all__ = [
    "DEFAULT_MAX_TEMPLATE_BLOCKS",
    "DEFAULT_MAX_TEMPLATE_DEPTH",
    "DEFAULT_MAX_TEMPLATE_PATTERN_CHARS",
    "KNOWN_ATTRIBUTES",
    "MAX_TEMPLATE_DEPTH_CEILING",
    "load",
]

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
#: The largest ``max_template_depth`` accepted: the matcher follows nested blocks recursively
#: (three or four Python frames a level), so deeper templates would fail at match time.
MAX_TEMPLATE_DEPTH_CEILING = 128
#: Most ``ow:block`` elements in one WPT file.
DEFAULT_MAX_TEMPLATE_BLOCKS = 10_000
#: Most characters of all the patterns (``ow:pattern``, ``ow:url``) of one WPT file together:
#: compiling a regular expression costs microseconds per character.
DEFAULT_MAX_TEMPLATE_PATTERN_CHARS = 131_072

#: The ``ow:`` attributes of each ``ow:`` element (by local name); any other is a warning.
KNOWN_ATTRIBUTES: dict[str, frozenset[str]] = {
    "wpt": frozenset({"host"}),
    "template": frozenset({"name", "url", "ontology"}),
    "block": frozenset({"tagid", "xpath", "pattern", "type"}),
    "urls": frozenset({"name", "template"}),
    "url": frozenset(),
    "ontology": frozenset({"name"}),
    "concept": frozenset({"name"}),
    "inherit": frozenset(),
    "has": frozenset(),
}

_BLOCK_TAG = "{" + OW_NS + "}block"


class _Target:
    """ElementTree parser target that records positions from the expat parser."""

    def __init__(
        self,
        data: bytes,
        max_depth: int = DEFAULT_MAX_TEMPLATE_DEPTH,
        max_blocks: int = DEFAULT_MAX_TEMPLATE_BLOCKS,
    ) -> None:
        self.data_bytes = data
        self.max_depth = max_depth
        self.max_blocks = max_blocks
        self.blocks = 0
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
        if tag == _BLOCK_TAG:
            self.blocks += 1
            if self.blocks > self.max_blocks:
                raise TemplateError(
                    f"more than {self.max_blocks} ow:block elements (max_template_blocks={self.max_blocks})", line, col
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


_DECLARED = re.compile(rb"""<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._\-]+)["']""")


def _encoding(data: bytes) -> str:
    """The template's encoding, by its byte order mark, its first bytes or its XML declaration
    (XML 1.0, appendix F); UTF-8 when nothing says."""
    if data.startswith(codecs.BOM_UTF8):
        return "utf-8"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    if data.startswith(b"<\x00?\x00"):
        return "utf-16-le"
    if data.startswith(b"\x00<\x00?"):
        return "utf-16-be"
    m = _DECLARED.match(data, 0, 200)
    return m.group(1).decode("ascii").lower() if m is not None else "utf-8"


def _as_utf8(data: bytes) -> tuple[bytes, str | None]:
    """The template as UTF-8 bytes, and the same as text when it was in another encoding.

    Expat reports byte offsets in the encoding it reads; the loader cuts block
    descriptions out of the bytes at those offsets and decodes them as UTF-8, so a
    template in another encoding is read as text (expat then reads it as UTF-8,
    whatever its declaration says). Bytes that do not decode go to expat as they are,
    for its error with a position.
    """
    name = _encoding(data)
    try:
        if codecs.lookup(name).name == "utf-8":
            return data, None
        text = data.decode(name)
    except (LookupError, UnicodeDecodeError):
        return data, None
    return text.encode("utf-8"), text


def _parse_xml(
    data: bytes,
    max_depth: int = DEFAULT_MAX_TEMPLATE_DEPTH,
    max_blocks: int = DEFAULT_MAX_TEMPLATE_BLOCKS,
    text: str | None = None,
) -> _Node:
    """Read the XML of ``data`` (given as ``text`` when that is not UTF-8: see :func:`_as_utf8`)."""
    det = _defused()
    target = _Target(data, max_depth, max_blocks)
    parser = det.DefusedXMLParser(target=target, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    target.expat = parser.parser
    try:
        parser.feed(text if text is not None else data)
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
    def __init__(
        self,
        data: bytes,
        strict: bool,
        max_pattern_chars: int = DEFAULT_MAX_TEMPLATE_PATTERN_CHARS,
    ) -> None:
        self.data = data
        self.strict = strict
        self.max_pattern_chars = max_pattern_chars
        self.pattern_chars = 0
        self.warnings: list[str] = []
        # (concept, line, column, template ontology) to check once ontologies are known
        self.used: list[tuple[str, int, int, str | None]] = []

    def error(self, node: _Node, message: str) -> TemplateError:
        return TemplateError(message, node.line, node.column)

    def warn(self, line: int, column: int, message: str) -> None:
        """A problem that does not stop the template from loading (an error with ``strict``)."""
        if self.strict:
            raise TemplateError(message, line, column)
        self.warnings.append(f"{line}:{column}: {message}")

    def attributes(self, node: _Node) -> None:
        """Warn of the ``ow:`` (or unprefixed) attributes the submission does not define on ``node``
        (a misspelt ``ow:xpth`` would leave the block without its reference, silently)."""
        known = KNOWN_ATTRIBUTES.get(_local(node.tag))
        if known is None:
            return
        for key in node.attrs:
            if key.startswith(_OW):
                name = key[len(_OW) :]
            elif key.startswith("{"):
                continue  # another vocabulary's attribute (rdf:about, xml:lang): not ours to judge
            else:
                name = key
            if name in known:
                continue
            close = difflib.get_close_matches(name, sorted(known), n=1)
            hint = f" (did you mean ow:{close[0]}?)" if close else ""
            self.warn(node.line, node.column, f"unknown attribute ow:{name} on ow:{_local(node.tag)}{hint}")

    def pattern(self, node: _Node, text: str, what: str, *, whole: bool, ontology: str | None) -> Pattern:
        self.pattern_chars += len(text)
        if self.pattern_chars > self.max_pattern_chars:
            raise self.error(
                node,
                f"{what}: the template's patterns are longer than {self.max_pattern_chars} characters together"
                f" (max_template_pattern_chars={self.max_pattern_chars})",
            )
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
        self.attributes(node)
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
        written = b"".join(pieces).decode("utf-8", "replace").strip()  # UTF-8 whatever was read: _as_utf8
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
            rdf=_rdf_nodes(node.children) if foreign else (),
        )

    def template(self, node: _Node, host: str) -> Template:
        self.attributes(node)
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
        self.attributes(node)
        template = _attr(node, "template")
        if not template or not template.strip():
            raise self.error(node, "ow:urls has no ow:template")
        patterns: list[Pattern] = []
        for c in node.children:
            if _is_ow(c, "url"):
                self.attributes(c)
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
        self.attributes(node)
        oname = _attr(node, "name")
        if oname is None or not oname.strip():
            # "It is required to specify the ontology name (any rational string) within <ow:ontology> tag."
            raise self.error(node, "ow:ontology has no ow:name (the submission requires one)")
        concepts: list[Concept] = []
        for c in node.children:
            if not _is_ow(c, "concept"):
                continue
            self.attributes(c)
            name = _attr(c, "name") or "".join(c.text).strip()
            if not name:
                raise self.error(c, "ow:concept has no name (ow:name or text)")
            inherits = tuple("".join(x.text).strip() for x in c.children if _is_ow(x, "inherit"))
            has = tuple("".join(x.text).strip() for x in c.children if _is_ow(x, "has"))
            concepts.append(Concept(name.strip(), inherits, has))
        return Ontology(oname.strip(), tuple(concepts))


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


_RDF = "{" + RDF_NS + "}"
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def _iri(tag: str) -> str | None:
    """The IRI an element's name stands for in RDF/XML (namespace + local name); ``None``
    without a namespace."""
    if not tag.startswith("{"):
        return None
    ns, _, local = tag[1:].partition("}")
    return ns + local


def _rdf_nodes(children: list[_Node]) -> tuple[RdfNode, ...]:
    """The RDF node elements among a block's content elements (inside ``rdf:RDF`` or not).

    A node element is ``rdf:Description`` or a typed node (any other namespaced element);
    its ``rdf:about``, ``rdf:type`` (attribute or ``rdf:resource`` property) and property
    elements are read, nested node elements inside a property are not (left to the text of
    the description)."""
    nodes: list[RdfNode] = []
    for c in children:
        if c.tag.startswith(_OW):
            continue
        if c.tag == _RDF + "RDF":
            nodes.extend(_rdf_nodes(c.children))
            continue
        iri = _iri(c.tag)
        if iri is None:
            continue
        types: list[str] = [] if c.tag == _RDF + "Description" else [iri]
        if c.attrs.get(_RDF + "type"):
            types.append(c.attrs[_RDF + "type"].strip())
        props: list[RdfProperty] = []
        for p in c.children:
            piri = _iri(p.tag)
            if piri is None or p.tag.startswith(_OW) or p.children:
                continue  # (a property holding a nested node is not read)
            resource = p.attrs.get(_RDF + "resource")
            if p.tag == _RDF + "type":
                if resource:
                    types.append(resource.strip())
                continue
            text = "".join(p.text).strip()
            props.append(
                RdfProperty(
                    piri,
                    value=text if text and resource is None else None,
                    resource=resource.strip() if resource is not None else None,
                    lang=p.attrs.get(_XML_LANG) or c.attrs.get(_XML_LANG),
                )
            )
        nodes.append(RdfNode(c.attrs.get(_RDF + "about"), tuple(types), tuple(props)))
    return tuple(nodes)


class _Concepts:
    """The concepts of some ontologies, for the question "is ``a.b`` declared?", answered in
    time linear in the ontologies over all the questions (a table made once; the answer of
    "does concept X have attribute Y, through ``ow:inherit``" remembered for every concept
    the search passes, so a chain of inheritance is walked once per attribute, not once per use).

    Names compare case-insensitively (the submission's own example declares ``logo`` and
    uses ``Logo``). ``a.b`` needs concept ``a`` with ``b`` among its ``ow:has`` (through
    ``ow:inherit``), ``id`` (every concept has it) or a declared concept ``b``.
    """

    def __init__(self, ontologies: list[Ontology]) -> None:
        self.table: dict[str, Concept] = {}
        for o in ontologies:
            for c in o.concepts:
                self.table.setdefault(c.name.lower(), c)
        self.has: dict[str, frozenset[str]] = {k: frozenset(h.lower() for h in c.has) for k, c in self.table.items()}
        self.inherits: dict[str, tuple[str, ...]] = {
            k: tuple(i.lower() for i in c.inherits if i.lower() in self.table) for k, c in self.table.items()
        }
        self.known: dict[tuple[str, str], bool] = {}

    def has_attribute(self, concept: str, attribute: str) -> bool:
        """Does ``concept`` (declared, lower case) have ``attribute``, itself or through ``ow:inherit``?"""
        known = self.known
        if (concept, attribute) in known:
            return known[(concept, attribute)]
        # Depth-first over the parents; ``came`` records how each concept was reached, so a
        # found attribute marks the whole path, and a failed search every concept it saw.
        came: dict[str, str | None] = {concept: None}
        todo = [concept]
        found: str | None = None
        while todo:
            c = todo.pop()
            answer = known.get((c, attribute))
            if answer is None:
                answer = attribute in self.has[c]
                if not answer:
                    for parent in self.inherits[c]:
                        if parent not in came:
                            came[parent] = c
                            todo.append(parent)
                    continue
            if answer:
                found = c
                break
        if found is None:
            for c in came:
                known[(c, attribute)] = False
            return False
        step: str | None = found
        while step is not None:
            known[(step, attribute)] = True
            step = came[step]
        return True

    def declared(self, concept: str) -> bool:
        """Is ``concept`` (``name`` or ``name.attribute...``) declared?"""
        parts = concept.lower().split(".")
        if parts[0] not in self.table:
            return False
        current = parts[0]
        for part in parts[1:]:
            if part == "id":
                return True
            if current in self.table:
                if not self.has_attribute(current, part):
                    return False
            else:
                return False  # an attribute of an undeclared concept (``a.b.c`` with ``b`` not a concept)
            current = part
        return True


def load(
    source: str | bytes | os.PathLike[str],
    *,
    strict: bool = False,
    max_template_depth: int = DEFAULT_MAX_TEMPLATE_DEPTH,
    max_template_blocks: int = DEFAULT_MAX_TEMPLATE_BLOCKS,
    max_template_pattern_chars: int = DEFAULT_MAX_TEMPLATE_PATTERN_CHARS,
) -> Wpt:
    """Load a WPT from XML text (``str``), XML bytes, or a file (``os.PathLike``, e.g. a ``Path``).

    The package's one input rule holds here too: a ``str`` is the template
    itself, never a file name (a ``str`` that cannot be XML is a
    :class:`TypeError` that says so). Bytes are read in the encoding their byte
    order mark or XML declaration gives (UTF-8, UTF-16, ISO-8859-1, ...).

    Raises :class:`TemplateError` (with line and column) for any problem in the
    template. Problems that do not stop a template from loading are listed in
    :attr:`Wpt.warnings` (``"line:column: message"``), or raise with
    ``strict=True``: undeclared concepts, an ``ow:ontology`` name that no
    ontology has, unknown ``ow:`` attributes, a template that no URL chooses.

    Limits, each a :class:`TemplateError` at the element past it: elements nested
    more than ``max_template_depth`` deep (64, at most 128; loading and matching
    follow the nesting), more than ``max_template_blocks`` ``ow:block`` elements (10,000),
    patterns longer than ``max_template_pattern_chars`` characters together
    (131,072). The time patterns may take on a page is the parse option
    ``max_pattern_seconds``.
    """
    if not 1 <= max_template_depth <= MAX_TEMPLATE_DEPTH_CEILING:
        # Matching follows the nesting recursively: a deeper template would load, then fail on every page.
        raise ValueError(f"max_template_depth must be from 1 to {MAX_TEMPLATE_DEPTH_CEILING}, not {max_template_depth}")
    if max_template_blocks < 1:
        raise ValueError("max_template_blocks must be at least 1")
    if max_template_pattern_chars < 1:
        raise ValueError("max_template_pattern_chars must be at least 1")
    text: str | None = None
    if isinstance(source, bytes):
        data, text = _as_utf8(source)
    elif isinstance(source, str):
        if not source.lstrip("\ufeff \t\r\n").startswith("<"):
            raise TypeError(
                f"load() takes template XML as str; {source[:60]!r} is not XML "
                "(for a file, pass a path: pathlib.Path(...))"
            )
        # Read as text: an encoding declaration in it says how it was stored, not how to read it.
        data, text = source.encode("utf-8"), source
    elif isinstance(source, os.PathLike):
        with open(source, "rb") as f:
            data, text = _as_utf8(f.read())
    else:
        raise TypeError(f"load() takes XML text (str), XML bytes or a path (os.PathLike), not {type(source).__name__}")
    root = _parse_xml(data, max_template_depth, max_template_blocks, text)
    loader = _Loader(data, strict, max_template_pattern_chars)
    if not _is_ow(root, "wpt"):
        raise loader.error(root, f"the root element must be ow:wpt in namespace {OW_NS}, not {root.tag!r}")
    loader.attributes(root)
    host = _attr(root, "host")
    if not host or not host.strip():
        raise loader.error(root, "ow:wpt has no ow:host")
    templates: list[Template] = []
    sections: list[UrlsSection] = []
    ontologies: list[Ontology] = []
    seen: set[str] = set()
    for c in root.children:
        if _is_ow(c, "template"):
            t = loader.template(c, host.strip())
            if t.name in seen:
                raise loader.error(c, f"a second template named {t.name!r}")
            seen.add(t.name)
            templates.append(t)
        elif _is_ow(c, "urls"):
            sections.append(loader.urls(c))
        elif _is_ow(c, "ontology"):
            ontologies.append(loader.ontology(c))
        elif c.tag.startswith(_OW):
            raise loader.error(c, f"unexpected {_local(c.tag)!r} inside ow:wpt")
    if not templates:
        raise loader.error(root, "ow:wpt has no ow:template")
    names = {t.name for t in templates}
    for s in sections:
        if s.template not in names:
            raise TemplateError(f"ow:urls names an unknown template {s.template!r}", s.line, s.column)
    chosen = {s.template for s in sections}
    named = {o.name for o in ontologies}
    for t in templates:
        if t.url is None and t.name not in chosen:
            # "It is required to ... define URL which complies with specific template"; the
            # URLs section "is mandatory if the templates do not define URLs".
            loader.warn(
                t.line,
                t.column,
                f"template {t.name!r} has no ow:url and no ow:urls section names it: no page URL chooses it"
                " (it applies only when given alone, or chosen by name)",
            )
        if t.ontology is not None and t.ontology not in named:
            loader.warn(t.line, t.column, f"template {t.name!r} names ontology {t.ontology!r}, which is not declared")
    # One table per ontology scope (a template's ontology, or all of them), made once.
    tables: dict[str | None, _Concepts] = {}
    for concept, line, col, onto in loader.used:
        key = onto if onto in named else None
        table = tables.get(key)
        if table is None:
            table = tables[key] = _Concepts([o for o in ontologies if key is None or o.name == key])
        if not table.declared(concept):
            where = f"ontology {onto!r}" if onto else "any ontology"
            loader.warn(line, col, f"concept {concept!r} is not declared in {where}")
    return Wpt(host.strip(), tuple(templates), tuple(sections), tuple(ontologies), tuple(loader.warnings))
