"""A minimal DOM: the node types every stage of the HTML engine shares.

The tree builder never touches these classes directly; it talks to a sink
(see :mod:`stream_mf2.html.sink`). Both sinks build these nodes, so a kept
subtree from the bounded sink and a subtree from the full DOM sink have the
same shape and can be compared node by node.

Why plain ``__slots__`` classes and not dataclasses: they are created for every
element and text run of a document, so construction cost matters.
"""

from __future__ import annotations

from typing import Final

HTML_NS: Final = "http://www.w3.org/1999/xhtml"
SVG_NS: Final = "http://www.w3.org/2000/svg"
MATHML_NS: Final = "http://www.w3.org/1998/Math/MathML"
XLINK_NS: Final = "http://www.w3.org/1999/xlink"
XML_NS: Final = "http://www.w3.org/XML/1998/namespace"
XMLNS_NS: Final = "http://www.w3.org/2000/xmlns/"


class Node:
    """Base of every node. ``parent`` is ``None`` for a detached node."""

    __slots__ = ("parent",)

    def __init__(self) -> None:
        self.parent: ParentNode | None = None


# The constructors below set every slot directly instead of chaining
# ``super().__init__()``: one Python call per node instead of up to three.


class ParentNode(Node):
    """A node that can hold children: document, fragment or element."""

    __slots__ = ("children",)

    def __init__(self) -> None:
        self.parent = None
        self.children: list[Node] = []


class Document(ParentNode):
    """The document node. ``mode`` is the quirks mode: ``"no-quirks"``,
    ``"quirks"`` or ``"limited-quirks"``."""

    __slots__ = ("mode",)

    def __init__(self) -> None:
        self.parent = None
        self.children = []
        self.mode = "no-quirks"


class DocumentFragment(ParentNode):
    """A fragment: the result of fragment parsing, or a template's contents.

    ``host`` is the ``template`` element whose contents this is, when a sink
    recorded it (the DOM's "template contents owner" link); otherwise ``None``.
    """

    __slots__ = ("host",)

    def __init__(self, host: Element | None = None) -> None:
        self.parent = None
        self.children = []
        self.host = host


class Element(ParentNode):
    """An element.

    ``name`` is the local name (already case-adjusted for SVG), ``namespace``
    one of the ``*_NS`` constants, ``attrs`` maps the attribute's qualified
    name (``"xlink:href"`` for an adjusted foreign attribute) to its value, in
    source order. ``template_contents`` is set only for an HTML ``template``.

    ``sink_state`` is not part of the DOM: it is bookkeeping of the sink that
    created the element (the bounded sink keeps its per-element flags there
    rather than in a dictionary keyed by ``id()``); ``0`` means "not tracked".

    ``source_start`` and ``source_end`` are the element's *source span*, when the
    sink that made it recorded one (``-1`` otherwise; an element built by hand
    has none): offsets in the preprocessed input (characters, newlines
    normalised) from the end of the markup token before the one that created
    the element to the end of the markup token at which it left the stack of
    open elements (the input's end for elements open at the end). So the span
    holds the element's own start tag and everything parsed while it was open;
    text never moves these ends, which makes them the same in every chunking
    (see ``Tokenizer.markup_end``). The full DOM sink records every element;
    the bounded sink only the elements it keeps.
    """

    __slots__ = ("attrs", "name", "namespace", "sink_state", "source_end", "source_start", "template_contents")

    def __init__(self, name: str, namespace: str = HTML_NS, attrs: dict[str, str] | None = None) -> None:
        self.parent = None
        self.children = []
        self.name = name
        self.namespace = namespace
        self.attrs: dict[str, str] = attrs if attrs is not None else {}
        self.template_contents: DocumentFragment | None = None
        self.sink_state = 0
        self.source_start = -1
        self.source_end = -1

    def __repr__(self) -> str:
        return f"<Element {self.name!r} {self.attrs!r}>"

    @property
    def source_length(self) -> int:
        """The length of the source span, or ``-1`` when none was recorded (see the class docstring)."""
        start = self.source_start
        end = self.source_end
        return end - start if start >= 0 and end >= start else -1


class Text(Node):
    """A run of character data. Adjacent runs are merged by the sinks."""

    __slots__ = ("data",)

    def __init__(self, data: str) -> None:
        self.parent = None
        self.data = data

    def __repr__(self) -> str:
        return f"<Text {self.data!r}>"


def grow_text(node: Text, data: str) -> None:
    """Append ``data`` to ``node``'s text in amortised linear time.

    ``node.data += data`` copies the whole text each time (the node keeps a reference to
    the old string), so one long run fed in pieces, say a 100 MB ``p-name``, was quadratic.
    With the node's reference dropped first, the only reference to the string is the local
    one, and CPython (and mypyc's compiled code) resizes the string in place.
    """
    text = node.data
    node.data = ""
    text += data
    node.data = text


class Comment(Node):
    """A comment."""

    __slots__ = ("data",)

    def __init__(self, data: str) -> None:
        self.parent = None
        self.data = data


class Doctype(Node):
    """A DOCTYPE node (only ever a child of a Document)."""

    __slots__ = ("name", "public_id", "system_id")

    def __init__(self, name: str, public_id: str, system_id: str) -> None:
        self.parent = None
        self.name = name
        self.public_id = public_id
        self.system_id = system_id


def text_content(node: Node) -> str:
    """DOM ``textContent`` of a node, computed without recursion."""
    if type(node) is Text:
        return node.data
    if not isinstance(node, ParentNode):
        return ""
    parts: list[str] = []
    stack: list[Node] = list(reversed(node.children))
    while stack:
        n = stack.pop()
        if type(n) is Text:
            parts.append(n.data)
        elif isinstance(n, Element):
            stack.extend(reversed(n.children))
    return "".join(parts)


def is_ancestor(ancestor: ParentNode, node: Node) -> bool:
    """Whether ``ancestor`` is a proper ancestor of ``node`` (parent links only: a template's
    contents are not inside the template)."""
    p = node.parent
    while p is not None:
        if p is ancestor:
            return True
        p = p.parent
    return False


def iter_descendants(node: ParentNode) -> list[Node]:
    """All descendants of ``node`` in document (pre-)order, without recursion.

    Template contents are not descendants, as in the DOM.
    """
    out: list[Node] = []
    stack: list[Node] = list(reversed(node.children))
    while stack:
        n = stack.pop()
        out.append(n)
        if isinstance(n, ParentNode):
            stack.extend(reversed(n.children))
    return out
