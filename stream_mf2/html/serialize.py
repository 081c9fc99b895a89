"""HTML serialisation: the WHATWG fragment serialisation algorithm, plus options.

Spec: HTML §13.3 "Serializing HTML fragments" (the ``innerHTML`` getter), its
*escaping a string* (which, since 2025, also turns ``<`` and ``>`` into ``&lt;`` and
``&gt;`` inside attribute values), and §13.1.2.4 "Optional tags".

One implementation serves two uses:

* :func:`serialize_children` / :func:`serialize_outer` walk a
  :mod:`stream_mf2.html.dom` tree (without recursion) and serialise it with
  :data:`WHATWG_OPTIONS`: exactly the spec algorithm (always-quoted attributes,
  no optional-tag omission, no trailing solidus);
* :func:`serialize_tokens` serialises a token stream (:class:`StartTag`,
  :class:`EndTag`, :class:`Characters`, :class:`Comment`, :class:`Doctype`) with any
  :class:`SerializerOptions`, e.g. :data:`HTML5LIB_OPTIONS`, the defaults the
  html5lib-tests serializer suite assumes (minimal quoting, optional tags omitted,
  boolean attributes minimised).

The DOM walker turns the tree into the same tokens, so both paths share the escaping,
raw-text, void-element and optional-tag rules.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any, Literal, NamedTuple

from stream_mf2.html import dom
from stream_mf2.html.dom import HTML_NS, Element, Node, ParentNode, Text

__all__ = [
    "HTML5LIB_OPTIONS",
    "WHATWG_OPTIONS",
    "Characters",
    "Comment",
    "Doctype",
    "EndTag",
    "SerializerOptions",
    "StartTag",
    "Token",
    "dom_tokens",
    "serialize_children",
    "serialize_outer",
    "serialize_tokens",
]


# --------------------------------------------------------------------------- tokens


class StartTag(NamedTuple):
    """A start tag. ``attrs`` are ``(serialised name, value)`` pairs in order.

    ``empty`` marks an html5lib-tests ``EmptyTag`` token: an element with no content
    and no end tag to come.
    """

    name: str
    attrs: tuple[tuple[str, str], ...] = ()
    namespace: str = HTML_NS
    empty: bool = False


class EndTag(NamedTuple):
    """An end tag."""

    name: str
    namespace: str = HTML_NS


class Characters(NamedTuple):
    """Character data."""

    data: str


class Comment(NamedTuple):
    """A comment."""

    data: str


class Doctype(NamedTuple):
    """A DOCTYPE."""

    name: str
    public_id: str = ""
    system_id: str = ""


Token = StartTag | EndTag | Characters | Comment | Doctype


# --------------------------------------------------------------------------- options


@dataclass(frozen=True, slots=True)
class SerializerOptions:
    """How to serialise. The defaults are the WHATWG fragment serialisation algorithm.

    The names follow html5lib's serializer options.

    ``quote_attr_values``
        ``"always"``: every value quoted (the spec). ``"spec"``: quotes only when the
        value is empty or holds ASCII whitespace, ``"``, ``'``, ``=``, ``>`` or a
        backtick (``<`` never needs them: it is written as ``&lt;``).
        ``"legacy"``: also quotes for C0 controls, ``/``, U+00A0 and other Unicode
        spaces.
    ``quote_char``, ``use_best_quote_char``
        The quote to use; with ``use_best_quote_char`` a value holding only one kind
        of quote is wrapped in the other kind, so it needs no escape.
    ``omit_optional_tags``
        Leave out start and end tags the "Optional tags" section allows to omit.
        A start tag with attributes is never omitted.
    ``minimize_boolean_attributes``
        Write a boolean attribute whose value is empty or its own name as the bare name.
    ``use_trailing_solidus``, ``space_before_trailing_solidus``
        Write ``<br />`` (or ``<br/>``) for void elements and empty-element tokens.
    ``escape_lt_in_attrs``
        Escape ``<`` and ``>`` in attribute values, as the spec has done since 2025;
        ``False`` gives the earlier behaviour (only ``&``, U+00A0 and the quote).
    ``escape_rcdata``
        Escape text inside raw text elements (``script``, ``style``, ...) too.
    ``alphabetical_attributes``
        Sort attributes by name.
    ``inject_meta_charset``, ``encoding``
        With an ``encoding``: rewrite ``<meta charset>`` and
        ``<meta http-equiv=content-type content>`` inside ``head`` to declare it, or
        add ``<meta charset=...>`` at the start of a ``head`` that has none.
        Characters the encoding cannot represent are written as numeric character
        references. The result is still a ``str``.
    ``strip_whitespace``
        Collapse runs of ASCII whitespace in text to one space, except inside
        ``pre``, ``textarea`` and raw text elements.
    ``doctype_ids``
        Write a doctype's public and system identifiers (the spec writes the name only).
    ``scripting``
        Whether scripting is enabled for the nodes: only then is ``noscript`` content
        raw text. stream_mf2 parses with scripting disabled, where ``noscript``
        content is ordinary markup whose text must be escaped.
    ``html5lib_legacy``
        html5lib's historical extras, needed by html5lib-tests: the early-HTML5
        ``irrelevant`` boolean attribute; ``</p>`` omitted before ``datagrid`` and
        ``dir``; ``</tfoot>`` omitted before ``<tbody>``.
    """

    quote_attr_values: Literal["always", "spec", "legacy"] = "always"
    quote_char: Literal['"', "'"] = '"'
    use_best_quote_char: bool = False
    omit_optional_tags: bool = False
    minimize_boolean_attributes: bool = False
    use_trailing_solidus: bool = False
    space_before_trailing_solidus: bool = True
    escape_lt_in_attrs: bool = True
    escape_rcdata: bool = False
    alphabetical_attributes: bool = False
    inject_meta_charset: bool = False
    encoding: str | None = None
    strip_whitespace: bool = False
    doctype_ids: bool = False
    scripting: bool = False
    html5lib_legacy: bool = False

    def __post_init__(self) -> None:
        if self.quote_attr_values not in ("always", "spec", "legacy"):
            raise ValueError(f"quote_attr_values must be 'always', 'spec' or 'legacy', not {self.quote_attr_values!r}")
        if self.quote_char not in ('"', "'"):
            raise ValueError(f"quote_char must be '\"' or \"'\", not {self.quote_char!r}")

    def with_(self, **changes: Any) -> SerializerOptions:
        """A copy with some options changed.

        As in html5lib, choosing a ``quote_char`` explicitly turns
        ``use_best_quote_char`` off unless that is given too.
        """
        if "quote_char" in changes and "use_best_quote_char" not in changes:
            changes["use_best_quote_char"] = False
        # (each value is checked by the constructor replace() calls)
        return replace(self, **changes)


#: The WHATWG HTML fragment serialisation algorithm (``innerHTML``).
WHATWG_OPTIONS = SerializerOptions()

#: html5lib's serializer defaults, as the html5lib-tests serializer suite assumes them.
HTML5LIB_OPTIONS = SerializerOptions(
    quote_attr_values="spec",
    use_best_quote_char=True,
    omit_optional_tags=True,
    minimize_boolean_attributes=True,
    inject_meta_charset=True,
    doctype_ids=True,
    html5lib_legacy=True,
)


# --------------------------------------------------------------------------- element sets

VOID_ELEMENTS = frozenset(
    [
        "area",
        "base",
        "basefont",
        "bgsound",
        "br",
        "col",
        "embed",
        "frame",
        "hr",
        "img",
        "input",
        "keygen",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    ]
)
#: Elements whose text children are written as they are ("noscript" only with scripting).
RAW_TEXT_ELEMENTS = frozenset(["style", "script", "xmp", "iframe", "noembed", "noframes", "plaintext"])
#: Elements inside which strip_whitespace keeps whitespace.
_SPACE_PRESERVING = frozenset({"pre", "textarea", "noscript"}) | RAW_TEXT_ELEMENTS

#: Boolean attributes per element ("" = any element), from the HTML attribute index.
_BOOLEAN_ATTRIBUTES: dict[str, frozenset[str]] = {
    "": frozenset({"autofocus", "inert", "itemscope"}),
    "audio": frozenset({"autoplay", "controls", "loop", "muted"}),
    "video": frozenset({"autoplay", "controls", "loop", "muted", "playsinline"}),
    "button": frozenset({"disabled", "formnovalidate"}),
    "details": frozenset({"open"}),
    "dialog": frozenset({"open"}),
    "fieldset": frozenset({"disabled"}),
    "form": frozenset({"novalidate"}),
    "iframe": frozenset({"allowfullscreen"}),
    "img": frozenset({"ismap"}),
    "input": frozenset({"alpha", "checked", "disabled", "formnovalidate", "multiple", "readonly", "required"}),
    "link": frozenset({"disabled"}),
    "ol": frozenset({"reversed"}),
    "optgroup": frozenset({"disabled"}),
    "option": frozenset({"disabled", "selected"}),
    "script": frozenset({"async", "defer", "nomodule"}),
    "select": frozenset({"disabled", "multiple", "required"}),
    "template": frozenset(
        {"shadowrootclonable", "shadowrootcustomelementregistry", "shadowrootdelegatesfocus", "shadowrootserializable"}
    ),
    "textarea": frozenset({"disabled", "readonly", "required"}),
    "track": frozenset({"default"}),
}
_LEGACY_BOOLEAN_GLOBAL = frozenset({"irrelevant"})

#: Start tags before which a ``p`` end tag may be omitted.
_P_CLOSERS = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "details",
        "dialog",
        "div",
        "dl",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hgroup",
        "hr",
        "main",
        "menu",
        "nav",
        "ol",
        "p",
        "pre",
        "search",
        "section",
        "table",
        "ul",
    ]
)
_LEGACY_P_CLOSERS = frozenset({"datagrid", "dir"})
#: Parents in which a final ``p`` end tag must stay.
_P_KEEP_PARENTS = frozenset(["a", "audio", "del", "ins", "map", "noscript", "video"])
_BODY_KEEP_FIRST = frozenset(["meta", "noscript", "link", "script", "style", "template"])

_WS = "\t\n\x0c\r "
_WS_RUN = re.compile("[\t\n\x0c\r ]+")
_QUOTE_SPEC = re.compile("[\t\n\x0c\r \"'=>`]")
_QUOTE_LEGACY = re.compile("[\x00-\x20\"'=>`/\u00a0\u1680\u180e\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")


# --------------------------------------------------------------------------- escaping


def escape_text(s: str) -> str:
    """*Escaping a string* for text: ``&``, U+00A0, ``<``, ``>``."""
    if "&" in s:
        s = s.replace("&", "&amp;")
    if "\u00a0" in s:
        s = s.replace("\u00a0", "&nbsp;")
    if "<" in s:
        s = s.replace("<", "&lt;")
    if ">" in s:
        s = s.replace(">", "&gt;")
    return s


def escape_attribute(s: str, quote: str = '"', escape_lt: bool = True) -> str:
    """*Escaping a string* in attribute mode for a value wrapped in ``quote``
    (``""`` for an unquoted value): ``&``, U+00A0, the quote, ``<`` and ``>``."""
    if "&" in s:
        s = s.replace("&", "&amp;")
    if "\u00a0" in s:
        s = s.replace("\u00a0", "&nbsp;")
    if quote == '"' and '"' in s:
        s = s.replace('"', "&quot;")
    elif quote == "'" and "'" in s:
        s = s.replace("'", "&#39;")
    if escape_lt:
        if "<" in s:
            s = s.replace("<", "&lt;")
        if ">" in s:
            s = s.replace(">", "&gt;")
    return s


# --------------------------------------------------------------------------- optional tags


def _starts_with_space(tok: Token | None) -> bool:
    return type(tok) is Characters and tok.data[:1] in tuple(_WS)


def _is_start(tok: Token | None, names: frozenset[str] | set[str] | tuple[str, ...]) -> bool:
    return type(tok) is StartTag and tok.namespace == HTML_NS and tok.name in names


def _ends_parent(tok: Token | None) -> bool:
    """ "No more content in the parent element": the next token closes something."""
    return tok is None or type(tok) is EndTag


def _omit_start_tag(tok: StartTag, nxt: Token | None, prev_omitted_end: str | None) -> bool:
    """Whether an HTML start tag without attributes may be left out."""
    name = tok.name
    if name == "html":
        # The spec says "not a comment"; leading whitespace would be lost as well.
        return type(nxt) is not Comment and not _starts_with_space(nxt)
    if name == "head":
        return nxt is None or type(nxt) is StartTag or (type(nxt) is EndTag and nxt.name == "head")
    if name == "body":
        if type(nxt) is Comment or _starts_with_space(nxt):
            return False
        return not _is_start(nxt, _BODY_KEEP_FIRST)
    if name == "colgroup":
        return _is_start(nxt, ("col",)) and prev_omitted_end != "colgroup"
    if name == "tbody":
        return _is_start(nxt, ("tr",)) and prev_omitted_end not in ("tbody", "thead", "tfoot")
    return False


def _omit_end_tag(name: str, nxt: Token | None, parent: tuple[str, str] | None, legacy: bool) -> bool:
    """Whether an HTML end tag may be left out, given the token after it."""
    if name in ("html", "body", "head", "colgroup", "caption"):
        # html/body: "not immediately followed by a comment"; whitespace after them
        # would move into the body, so it is kept too (as html5lib does).
        return type(nxt) is not Comment and not _starts_with_space(nxt)
    if name == "li":
        return _is_start(nxt, ("li",)) or _ends_parent(nxt)
    if name == "dt":
        return _is_start(nxt, ("dt", "dd"))
    if name == "dd":
        return _is_start(nxt, ("dd", "dt")) or _ends_parent(nxt)
    if name == "p":
        if _is_start(nxt, _P_CLOSERS) or (legacy and _is_start(nxt, _LEGACY_P_CLOSERS)):
            return True
        if not _ends_parent(nxt):
            return False
        if parent is None or parent[0] != HTML_NS:
            return parent is None
        return parent[1] not in _P_KEEP_PARENTS and "-" not in parent[1]
    if name in ("rt", "rp"):
        return _is_start(nxt, ("rt", "rp")) or _ends_parent(nxt)
    if name == "optgroup":
        return _is_start(nxt, ("optgroup", "hr")) or _ends_parent(nxt)
    if name == "option":
        return _is_start(nxt, ("option", "optgroup", "hr")) or _ends_parent(nxt)
    if name == "thead":
        return _is_start(nxt, ("tbody", "tfoot"))
    if name == "tbody":
        return _is_start(nxt, ("tbody", "tfoot")) or _ends_parent(nxt)
    if name == "tfoot":
        return _ends_parent(nxt) or (legacy and _is_start(nxt, ("tbody",)))
    if name == "tr":
        return _is_start(nxt, ("tr",)) or _ends_parent(nxt)
    if name in ("td", "th"):
        return _is_start(nxt, ("td", "th")) or _ends_parent(nxt)
    return False


# --------------------------------------------------------------------------- filters


def _inject_meta_charset(tokens: Iterable[Token], encoding: str) -> Iterator[Token]:
    """Declare ``encoding`` in ``head``: rewrite charset metas or add one.

    The head's tokens are held until its end tag, to know whether a declaration was
    found (a head is small; nothing outside it is held).
    """
    held: list[Token] | None = None
    found = False
    for tok in tokens:
        if held is None:
            yield tok
            if type(tok) is StartTag and tok.namespace == HTML_NS and tok.name == "head" and not tok.empty:
                held, found = [], False
            continue
        if type(tok) is EndTag and tok.namespace == HTML_NS and tok.name == "head":
            if not found:
                yield StartTag("meta", (("charset", encoding),), HTML_NS, True)
            yield from held
            yield tok
            held = None
            continue
        if type(tok) is StartTag and tok.namespace == HTML_NS and tok.name == "meta":
            attrs = dict(tok.attrs)
            if "charset" in attrs:
                attrs["charset"] = encoding
                found = True
            elif attrs.get("http-equiv", "").lower() == "content-type" and "content" in attrs:
                attrs["content"] = f"text/html; charset={encoding}"
                found = True
            tok = tok._replace(attrs=tuple(attrs.items()))
        held.append(tok)
    if held is not None:
        yield from held


# --------------------------------------------------------------------------- serializer


def _attr_text(tok: StartTag, o: SerializerOptions) -> str:
    attrs = sorted(tok.attrs) if o.alphabetical_attributes else tok.attrs
    booleans: frozenset[str] | None = None
    if o.minimize_boolean_attributes and tok.namespace == HTML_NS:
        booleans = _BOOLEAN_ATTRIBUTES[""] | _BOOLEAN_ATTRIBUTES.get(tok.name, frozenset())
        if o.html5lib_legacy:
            booleans |= _LEGACY_BOOLEAN_GLOBAL
    parts: list[str] = []
    for name, value in attrs:
        if booleans is not None and name in booleans and (value == "" or value.lower() == name):
            parts.append(" " + name)
            continue
        if o.quote_attr_values == "always" or value == "":
            quoted = True
        elif o.quote_attr_values == "spec":
            quoted = _QUOTE_SPEC.search(value) is not None
        else:
            quoted = _QUOTE_LEGACY.search(value) is not None
        if not quoted:
            parts.append(f" {name}={escape_attribute(value, '', o.escape_lt_in_attrs)}")
            continue
        q = o.quote_char
        if o.use_best_quote_char:
            if "'" in value and '"' not in value:
                q = '"'
            elif '"' in value and "'" not in value:
                q = "'"
        parts.append(f" {name}={q}{escape_attribute(value, q, o.escape_lt_in_attrs)}{q}")
    return "".join(parts)


def serialize_tokens(
    tokens: Iterable[Token],
    options: SerializerOptions = WHATWG_OPTIONS,
    context: tuple[str, str] | None = None,
) -> str:
    """Serialise a token stream.

    ``context`` is the ``(namespace, local name)`` of the element the tokens are the
    content of, if any: it decides whether leading text is raw (``script``) and
    whether a final ``</p>`` may be omitted.
    """
    o = options
    if o.inject_meta_charset and o.encoding:
        tokens = _inject_meta_charset(tokens, o.encoding)
    raw_text = RAW_TEXT_ELEMENTS | {"noscript"} if o.scripting else RAW_TEXT_ELEMENTS
    solidus = (" /" if o.space_before_trailing_solidus else "/") if o.use_trailing_solidus else ""
    out: list[str] = []
    # Open elements, for raw text, whitespace preservation and the p-end-tag parent rule.
    stack: list[tuple[str, str]] = [context] if context is not None else []
    base = len(stack)
    prev_omitted_end: str | None = None
    it = iter(tokens)
    nxt: Token | None = next(it, None)
    while nxt is not None:
        tok = nxt
        nxt = next(it, None)
        omitted_end: str | None = None
        kind = type(tok)
        if kind is Characters:
            assert type(tok) is Characters
            data = tok.data
            parent = stack[-1] if stack else None
            if parent is not None and parent[0] == HTML_NS and parent[1] in raw_text and not o.escape_rcdata:
                out.append(data)
            else:
                if o.strip_whitespace and not any(ns == HTML_NS and n in _SPACE_PRESERVING for ns, n in stack):
                    data = _WS_RUN.sub(" ", data)
                out.append(escape_text(data))
        elif kind is StartTag:
            assert type(tok) is StartTag
            html = tok.namespace == HTML_NS
            void = html and tok.name in VOID_ELEMENTS
            if not (o.omit_optional_tags and html and not tok.attrs and _omit_start_tag(tok, nxt, prev_omitted_end)):
                trailing = solidus if (void or tok.empty) else ""
                out.append(f"<{tok.name}{_attr_text(tok, o)}{trailing}>")
            if not (void or tok.empty):
                stack.append((tok.namespace, tok.name))
        elif kind is EndTag:
            assert type(tok) is EndTag
            key = (tok.namespace, tok.name)
            # Pop to the matching element, if it is open (token streams may be unbalanced).
            for i in range(len(stack) - 1, base - 1, -1):
                if stack[i] == key:
                    del stack[i:]
                    break
            parent = stack[-1] if stack else None
            if (
                o.omit_optional_tags
                and tok.namespace == HTML_NS
                and _omit_end_tag(tok.name, nxt, parent, o.html5lib_legacy)
            ):
                omitted_end = tok.name
            else:
                out.append(f"</{tok.name}>")
        elif kind is Comment:
            assert type(tok) is Comment
            out.append(f"<!--{tok.data}-->")
        else:
            assert type(tok) is Doctype
            out.append(_doctype(tok, o.doctype_ids))
        prev_omitted_end = omitted_end
    result = "".join(out)
    if o.encoding:
        result = result.encode(o.encoding, "xmlcharrefreplace").decode(o.encoding)
    return result


def _doctype(tok: Doctype, ids: bool) -> str:
    if not ids:
        return f"<!DOCTYPE {tok.name}>"
    if tok.public_id:
        tail = f' PUBLIC "{tok.public_id}"' + (f' "{tok.system_id}"' if tok.system_id else "")
    elif tok.system_id:
        tail = f' SYSTEM "{tok.system_id}"'
    else:
        tail = ""
    return f"<!DOCTYPE {tok.name}{tail}>"


# --------------------------------------------------------------------------- DOM


def _content(node: ParentNode) -> list[Node]:
    """The nodes the algorithm serialises for ``node``: a template's contents, else children."""
    if type(node) is Element and node.template_contents is not None and node.namespace == HTML_NS:
        return node.template_contents.children
    return node.children


def _serializes_as_void(node: Node) -> bool:
    return type(node) is Element and node.namespace == HTML_NS and node.name in VOID_ELEMENTS


def dom_tokens(nodes: Iterable[Node]) -> Iterator[Token]:
    """Tokens for a sequence of sibling nodes and their subtrees, in document order.

    Iterative (an explicit stack of child iterators), so depth is not limited by
    Python's recursion limit. A void element's children, if a script-free DOM
    somehow has any, are skipped as the spec says.
    """
    stack: list[Iterator[Node]] = [iter(nodes)]
    open_elements: list[Element] = []
    while stack:
        node = next(stack[-1], None)
        if node is None:
            stack.pop()
            if open_elements:
                el = open_elements.pop()
                yield EndTag(el.name, el.namespace)
            continue
        if type(node) is Text:
            yield Characters(node.data)
        elif isinstance(node, Element):
            yield StartTag(node.name, tuple(node.attrs.items()), node.namespace)
            if not _serializes_as_void(node):
                open_elements.append(node)
                stack.append(iter(_content(node)))
        elif type(node) is dom.Comment:
            yield Comment(node.data)
        elif type(node) is dom.Doctype:
            yield Doctype(node.name, node.public_id, node.system_id)


def serialize_children(node: ParentNode, options: SerializerOptions = WHATWG_OPTIONS) -> str:
    """The HTML fragment serialisation algorithm: ``node.innerHTML``.

    A void element serialises to ``""``; a ``template`` serialises its contents.
    """
    if _serializes_as_void(node):
        return ""
    context = (node.namespace, node.name) if isinstance(node, Element) else None
    return serialize_tokens(dom_tokens(_content(node)), options, context)


def serialize_outer(element: Element, options: SerializerOptions = WHATWG_OPTIONS) -> str:
    """``element.outerHTML``: the element itself, its attributes and its content."""
    parent = element.parent
    context = (parent.namespace, parent.name) if isinstance(parent, Element) else None
    return serialize_tokens(dom_tokens((element,)), options, context)
