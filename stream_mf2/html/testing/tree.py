"""Tree construction helpers for the html5lib-tests format and simple parsing.

* :func:`dump_tree` renders a node's children as an html5lib-tests tree dump.
* :func:`tree_for_test` parses chunks (document or fragment) and dumps them.
* :func:`parse_document` / :func:`parse_fragment` return the DOM.

All walks use explicit stacks: documents can be arbitrarily deep.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from stream_mf2.html.dom import (
    HTML_NS,
    MATHML_NS,
    SVG_NS,
    Comment,
    Doctype,
    Document,
    DocumentFragment,
    Element,
    Node,
    ParentNode,
    Text,
)
from stream_mf2.html.sink import DomSink, TreeSink
from stream_mf2.html.tree_tables import FOREIGN_ATTR_ADJUST, NS_PREFIX
from stream_mf2.html.treebuilder import TreeBuilder

__all__ = ["context_element", "dump_tree", "parse_document", "parse_fragment", "tree_for_test"]


def _attr_name(el: Element, key: str) -> str:
    if el.namespace != HTML_NS:
        adj = FOREIGN_ATTR_ADJUST.get(key)
        if adj is not None:
            prefix, local, _ns = adj
            return f"{prefix} {local}" if prefix else local
    return key


def dump_tree(root: ParentNode, indent: int = 0) -> str:
    """The html5lib-tests dump of ``root``'s children (one ``| `` line per node).

    ``indent`` is the depth of ``root``'s children (0 for a document).
    """
    lines: list[str] = []
    # Stack entries: (node, depth) or a template's "content" marker.
    stack: list[tuple[Node | str, int]] = [(c, indent) for c in reversed(root.children)]
    while stack:
        node, depth = stack.pop()
        pad = "| " + "  " * depth
        if isinstance(node, str):
            lines.append(pad + node)
            continue
        if isinstance(node, Element):
            lines.append(f"{pad}<{NS_PREFIX.get(node.namespace, '')}{node.name}>")
            attrs = sorted((_attr_name(node, k), v) for k, v in node.attrs.items())
            apad = "| " + "  " * (depth + 1)
            for k, v in attrs:
                lines.append(f'{apad}{k}="{v}"')
            kids: list[tuple[Node | str, int]] = [(c, depth + 1) for c in node.children]
            contents = node.template_contents
            if contents is not None and node.namespace == HTML_NS:
                kids = [("content", depth + 1)] + [(c, depth + 2) for c in contents.children] + kids
            stack.extend(reversed(kids))
        elif type(node) is Text:
            lines.append(f'{pad}"{node.data}"')
        elif isinstance(node, Comment):
            lines.append(f"{pad}<!-- {node.data} -->")
        elif isinstance(node, Doctype):
            if node.public_id or node.system_id:
                lines.append(f'{pad}<!DOCTYPE {node.name} "{node.public_id}" "{node.system_id}">')
            else:
                lines.append(f"{pad}<!DOCTYPE {node.name}>")
    return "\n".join(lines)


def context_element(spec: str) -> Element:
    """An html5lib-tests fragment context (``"td"``, ``"svg path"``, ``"math mi"``)."""
    if spec.startswith("svg "):
        return Element(spec[4:], SVG_NS)
    if spec.startswith("math "):
        return Element(spec[5:], MATHML_NS)
    return Element(spec, HTML_NS)


def build(
    chunks: Iterable[str], sink: TreeSink, fragment_context: Element | None = None, **options: Any
) -> TreeBuilder:
    """Tokenize ``chunks`` into a tree builder writing to ``sink``; return the builder."""
    from stream_mf2.html.tokenizer import Tokenizer

    tb = TreeBuilder(sink, fragment_context=fragment_context, **options)
    # (introduces itself to the builder, and through it to a sink that records source spans)
    tok = Tokenizer(tb)
    for chunk in chunks:
        tok.feed(chunk)
    tok.close()
    return tb


def parse_document(html: str | Iterable[str]) -> Document:
    """Parse a whole document (a string or an iterable of chunks) into a DOM."""
    sink = DomSink()
    build([html] if isinstance(html, str) else html, sink)
    return sink.document


def parse_fragment(html: str | Iterable[str], context: str | Element = "body") -> DocumentFragment:
    """HTML fragment parsing with ``context`` (a tag name, ``"svg x"``/``"math x"``, or an Element)."""
    ctx = context_element(context) if isinstance(context, str) else context
    sink = DomSink()
    build([html] if isinstance(html, str) else html, sink, ctx)
    frag = DocumentFragment()
    root = sink.document.children[0]
    assert isinstance(root, Element)
    for child in list(root.children):
        child.parent = frag
        frag.children.append(child)
    root.children = []
    return frag


def tree_for_test(chunks: Iterable[str], fragment_context: str | None = None) -> str:
    """The html5lib-tests ``#document`` dump for ``chunks`` (scripting disabled)."""
    sink = DomSink()
    if fragment_context is None:
        build(chunks, sink)
        return dump_tree(sink.document)
    build(chunks, sink, context_element(fragment_context))
    root = sink.document.children[0]
    assert isinstance(root, Element)
    return dump_tree(root)


class TreeTest:
    """One html5lib-tests tree-construction case."""

    __slots__ = ("data", "document", "file", "fragment_context", "index", "scripting")

    def __init__(
        self, file: str, index: int, data: str, fragment_context: str | None, scripting: str | None, document: str
    ) -> None:
        self.file = file
        self.index = index
        self.data = data
        self.fragment_context = fragment_context
        #: ``"on"``, ``"off"`` or ``None`` (run in both modes).
        self.scripting = scripting
        self.document = document

    @property
    def id(self) -> str:
        return f"{self.file}:{self.index}"


_SECTIONS = ("#data", "#errors", "#new-errors", "#document", "#document-fragment", "#script-on", "#script-off")


def read_tree_tests(raw: bytes, file: str = "") -> list[TreeTest]:
    """Parse a tree-construction ``.dat`` file given as bytes.

    Bytes, because some files hold raw NUL and CR characters that must reach the
    parser unchanged (text-mode reading would translate CR).
    """
    text = raw.decode("utf-8")
    out: list[TreeTest] = []
    blocks = text.split("\n\n#data\n")
    for i, block in enumerate(blocks):
        if i == 0:
            if not block.startswith("#data\n"):
                continue
            block = block[len("#data\n") :]
        lines = block.split("\n")
        section = "#data"
        data: list[str] = []
        doc: list[str] = []
        frag: str | None = None
        scripting: str | None = None
        for line in lines:
            if line in _SECTIONS and (section != "#data" or line == "#errors"):
                section = line
                if line == "#script-on":
                    scripting = "on"
                elif line == "#script-off":
                    scripting = "off"
                continue
            if section == "#data":
                data.append(line)
            elif section == "#document":
                doc.append(line)
            elif section == "#document-fragment" and frag is None:
                frag = line
        out.append(TreeTest(file, len(out), "\n".join(data), frag, scripting, "\n".join(doc).rstrip("\n")))
    return out
