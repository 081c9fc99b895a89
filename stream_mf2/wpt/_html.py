"""A match's ``html``: the element's inner HTML, serialised as e-* values are.

The HTML fragment serialisation algorithm, written straight from the tree with
:mod:`stream_mf2.html.serialize`'s escaping and element tables (the same
output as :func:`~stream_mf2.html.serialize.serialize_children` with its
default options, without building token objects), then trimmed of ASCII
whitespace like an e-* ``html``. URLs are left as written.
"""

from __future__ import annotations

from stream_mf2.html.dom import HTML_NS, Comment, Doctype, Element, Node, Text, text_content
from stream_mf2.html.serialize import RAW_TEXT_ELEMENTS, VOID_ELEMENTS, escape_attribute, escape_text
from stream_mf2.wpt._paths import Place, State, Summary, _select_summaries, advance_with, any_may_match, frozen
from stream_mf2.wpt.model import Step, XPath

__all__ = ["Selection", "html_and_text", "inner_html", "marked", "selecting"]


class Selection:
    """Relative paths without ``[last()]`` (:func:`~stream_mf2.wpt._paths.walkable`, a match's
    nested blocks) selected in the walk that writes the match's HTML (:func:`selecting`), with
    the same automaton and places as :func:`~stream_mf2.wpt._paths.select_many`.

    ``marking[i]``: which elements path ``i`` selects get their own (html, text) pair cut from
    the walk: ``0`` none, ``1`` every one, ``2`` the first whose ``id`` is ``tagids[i]`` (or
    the first, if ``None``). After the walk, ``found`` holds ``(path index, place)`` in
    document order, and ``incomplete`` says the walk could not follow a path (into the
    children of a ``template`` or void element, which the HTML walk does not visit).
    """

    __slots__ = ("found", "incomplete", "marked", "marking", "summaries", "tagids", "xpaths")

    def __init__(self, xpaths: list[XPath], marking: list[int], tagids: list[str | None]) -> None:
        self.xpaths = xpaths
        self.marking = marking
        self.tagids = tagids
        self.summaries = _select_summaries(*xpaths)
        self.found: list[tuple[int, Place]] = []
        self.marked = [False] * len(xpaths)
        self.incomplete = False


#: The place of a walk level where no path is followed (never read, never changed)
_NOWHERE = Place(None, None, "", 0, 0)

#: ``[last()]`` is never asked of walkable paths (the ``lasts`` of ``advance_with``)
_KNOWN = (True, True)


def inner_html(element: Element) -> str:
    """``element.innerHTML`` (template contents for a template), trimmed."""
    return html_and_text(element, False)[0]


def html_and_text(element: Element, text: bool = True) -> tuple[str, str]:
    """``element.innerHTML``, trimmed (:func:`inner_html`), and with ``text`` its DOM
    ``textContent`` (:func:`~stream_mf2.html.dom.text_content`), in one walk of the subtree."""
    if element.namespace == HTML_NS and element.name in VOID_ELEMENTS:
        return "", text_content(element) if text else ""
    if element.template_contents is not None:
        # (the HTML of its contents, the text of its children: two walks)
        return _walk(element, False, None)[0], text_content(element) if text else ""
    return _walk(element, text, None)


def marked(element: Element, marks: set[Element]) -> dict[Element, tuple[str, str]]:
    """:func:`html_and_text` of ``element``, and of each of ``marks`` inside it, in one walk:
    each marked element's pair is the slice of its content in the walk's output (the
    serialisation of a subtree does not depend on what is around it). Marked elements must
    not be void or ``template`` elements, and must be outside template contents."""
    spans: dict[Element, tuple[str, str]] = {}
    spans[element] = _walk(element, True, marks, spans)
    return spans


def selecting(element: Element, place: Place, selection: Selection) -> dict[Element, tuple[str, str]]:
    """:func:`marked` of ``element`` (at ``place``; not a void or ``template`` element), its
    marks chosen by ``selection`` as the walk runs its paths (see :class:`Selection`)."""
    spans: dict[Element, tuple[str, str]] = {}
    states = tuple((i, 0, ()) for i in range(len(selection.xpaths)))
    spans[element] = _walk(element, True, None, spans, selection, frozen(place), states)
    return spans


def _walk(
    element: Element,
    text: bool,
    marks: set[Element] | None,
    spans: dict[Element, tuple[str, str]] | None = None,
    selection: Selection | None = None,
    top_place: Place | None = None,
    top_states: tuple[State, ...] = (),
) -> tuple[str, str]:
    out: list[str] = []
    append = out.append
    texts: list[str] = []
    add_text = texts.append
    void = VOID_ELEMENTS
    raw_names = RAW_TEXT_ELEMENTS
    contents = element.template_contents
    top = list(contents.children) if contents is not None else element.children
    # where each open marked element's content starts in out and texts
    starts: dict[Element, tuple[int, int]] = {}
    # the selection's paths: their states (empty: none followed here) and summaries
    xpaths: list[XPath] = []
    summaries: dict[tuple[State, ...], Summary] = {}
    found: list[tuple[int, Place]] = []
    marking: list[int] = []
    if selection is not None:
        xpaths = selection.xpaths
        summaries = selection.summaries
        found = selection.found
        marking = selection.marking
    seen: tuple[State, ...] | None = None
    summary: Summary | None = None
    # The walk's current level: its child nodes, the next index, the end tag to write after
    # them, raw text?, textContent?, the marked owner, the nodes' parent's place and the
    # paths' states there (when a path is followed). ``stack`` holds the enclosing levels; a
    # child level replaces these locals (no tuple built and unpacked for it).
    nodes: list[Node] = top
    i = 0
    n = len(top)
    end = ""
    raw = element.namespace == HTML_NS and element.name in raw_names
    collect = text
    owner: Element | None = None
    place = top_place if top_place is not None else _NOWHERE
    tags: dict[str, bool | tuple[Step, ...]] = {}
    states = top_states
    if states:
        summary = summaries.get(states)
        if summary is None:
            summary = summaries[states] = Summary(xpaths, states, None)
        seen = states
        tags = summary.tags
    stack: list[tuple[list[Node], int, str, bool, bool, Element | None, Place, tuple[State, ...]]] = []
    while True:
        while i < n:
            node = nodes[i]
            i += 1
            if type(node) is Text:
                data = node.data
                if collect:
                    add_text(data)
                if not raw and ("&" in data or "<" in data or ">" in data or "\u00a0" in data):
                    data = escape_text(data)
                append(data)
            elif type(node) is Element:
                name = node.name
                attrs = node.attrs
                mark = marks is not None and node in marks
                sub_states: tuple[State, ...] = ()
                p: Place | None = None
                pos = 0
                if states:
                    # the paths, as select_many's walk follows them (places only where needed)
                    counts = place.counts
                    if counts is None:
                        counts = place.counts = {}
                    pos = counts[name] = counts.get(name, 0) + 1
                    place.n += 1
                    verdict = tags.get(name)
                    if verdict is None:
                        assert summary is not None
                        verdict = summary.verdict(name)
                    if verdict is True or (verdict is not False and not any_may_match(verdict, attrs)):
                        sub_states = states
                    else:
                        assert summary is not None
                        p = Place(place, node, name, pos, place.n)
                        p.cache = True
                        sub_states, hits = advance_with(xpaths, states, summary, p, _KNOWN)
                        if hits is not None:
                            for xi, _ in hits:
                                found.append((xi, p))
                                if marking[xi] and _marks(selection, xi, node):
                                    mark = True
                if attrs:
                    # the start tag, piece by piece into the output (no call, no list per element)
                    append("<" + name)
                    for k, v in attrs.items():
                        if "&" in v or '"' in v or "\u00a0" in v:
                            v = escape_attribute(v, chr(34), False)
                        append(f' {k}="{v}"')
                    append(">")
                else:
                    append("<" + name + ">")
                html = node.namespace == HTML_NS
                if html and name in void:
                    if node.children:  # (not from the HTML parser)
                        if collect:
                            add_text(text_content(node))
                        if sub_states:
                            assert selection is not None
                            selection.incomplete = True
                    continue
                sub_contents = node.template_contents
                if sub_contents is not None:
                    if node.children:
                        if collect:
                            add_text(text_content(node))
                        if sub_states:
                            assert selection is not None
                            selection.incomplete = True  # (its children are not walked: its contents are)
                    sub_states = ()
                    sub: list[Node] = list(sub_contents.children)
                    sub_collect = False
                else:
                    sub = node.children
                    sub_collect = collect
                if not sub:
                    if mark:
                        _span(spans, node, out, texts, len(out), len(texts))
                    append("</" + name + ">")
                    continue
                if len(sub) == 1 and type(only := sub[0]) is Text and sub_contents is None:
                    # a text-only element (most of them), written here rather than as a level
                    data = only.data
                    if collect:
                        add_text(data)
                    if not (html and name in raw_names) and (
                        "&" in data or "<" in data or ">" in data or "\u00a0" in data
                    ):
                        data = escape_text(data)
                    append(data)
                    if mark:
                        _span(spans, node, out, texts, len(out) - 1, len(texts) - 1 if collect else len(texts))
                    append("</" + name + ">")
                    continue
                if mark:
                    starts[node] = (len(out), len(texts))
                stack.append((nodes, i, end, raw, collect, owner, place, states))
                if sub_states:
                    # (a place only for an element whose children the paths are followed in)
                    if p is None:
                        p = Place(place, node, name, pos, place.n)
                        p.cache = True
                    place = p
                else:
                    place = _NOWHERE
                nodes = sub
                i = 0
                n = len(sub)
                end = "</" + name + ">"
                raw = html and name in raw_names
                collect = sub_collect
                owner = node if mark else None
                states = sub_states
                if states and states is not seen:
                    summary = summaries.get(states)
                    if summary is None:
                        summary = summaries[states] = Summary(xpaths, states, None)
                    seen = states
                    tags = summary.tags
            elif isinstance(node, Comment):
                append("<!--" + node.data + "-->")
            elif isinstance(node, Doctype):
                append("<!DOCTYPE " + (node.name or "") + ">")
        if owner is not None:
            at, at_text = starts.pop(owner)
            _span(spans, owner, out, texts, at, at_text)
        append(end)
        if not stack:
            break
        nodes, i, end, raw, collect, owner, place, states = stack.pop()
        n = len(nodes)
        if states and states is not seen:
            summary = summaries.get(states)
            if summary is None:
                summary = summaries[states] = Summary(xpaths, states, None)
            seen = states
            tags = summary.tags
    return "".join(out).strip(" \t\n\f\r"), "".join(texts)


def _marks(selection: Selection | None, xi: int, node: Element) -> bool:
    """Does ``node``, selected by path ``xi``, get its own pair (:class:`Selection`)?"""
    assert selection is not None
    if node.template_contents is not None or (node.namespace == HTML_NS and node.name in VOID_ELEMENTS):
        return False  # (their pairs are not slices of the walk)
    if selection.marking[xi] == 1:
        return True
    if selection.marked[xi]:
        return False
    tagid = selection.tagids[xi]
    if tagid is not None and node.attrs.get("id") != tagid:
        return False
    selection.marked[xi] = True
    return True


def _span(
    spans: dict[Element, tuple[str, str]] | None,
    element: Element,
    out: list[str],
    texts: list[str],
    at: int,
    at_text: int,
) -> None:
    """Note ``element``'s pair: its content is ``out[at:]`` and ``texts[at_text:]`` so far."""
    if spans is not None:
        spans[element] = ("".join(out[at:]).strip(" \t\n\f\r"), "".join(texts[at_text:]))
