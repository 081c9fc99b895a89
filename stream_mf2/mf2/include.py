"""The classic microformats include pattern, for backcompat roots.

Classic microformats let a root pull in markup that lives elsewhere in the
page, referenced by id:

* ``itemref="id1 id2"`` on an element: the referenced elements are added as
  its last children, in the order listed;
* ``headers="id1 id2"`` on a table cell (``td``/``th``): the same, for the
  header cells it names;
* ``<a class="include" href="#id">`` and ``<object class="include" data="#id">``:
  the include element is replaced by the referenced element.

Only markers inside a backcompat root count (the pattern is not part of mf2):
a nested element with an mf2 root class ends the scope, a nested mf1 root
starts it again.

:func:`expand_includes` returns a copy of the subtree with every include
applied, so that the ordinary parser sees included properties and text where
the pattern puts them, and the original tree is never changed. The caller
supplies ``resolve_id(id) -> Element | None``: a whole-document caller indexes
ids (:func:`index_ids`); a streaming caller keeps id'd subtrees within its
budget and can ask :func:`include_references` which ids a root waits for.

Guards: an element is never included inside itself or inside one of its own
descendants or includes (self-inclusion and include loops); the chain of nested
includes is at most ``max_depth`` deep; at most ``max_includes`` includes are
applied and at most ``max_nodes`` nodes copied from included subtrees per call;
the ancestor walks of the loop guards are bounded by ``16 * max_nodes`` steps.
An include that would break a limit is skipped, never half applied.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Final

from stream_mf2.html.dom import HTML_NS, Comment, Element, Node, ParentNode, Text
from stream_mf2.mf2.backcompat import has_mf2_root
from stream_mf2.mf2.backcompat_data import ROOT_CLASSES

__all__ = [
    "DEFAULT_MAX_DEPTH",
    "DEFAULT_MAX_INCLUDES",
    "DEFAULT_MAX_NODES",
    "ResolveId",
    "expand_includes",
    "include_references",
    "index_ids",
]

#: Looks up the element with a given id (``None`` if unknown or not kept).
ResolveId = Callable[[str], Element | None]

DEFAULT_MAX_DEPTH: Final = 8
DEFAULT_MAX_INCLUDES: Final = 256
DEFAULT_MAX_NODES: Final = 20_000
# Ancestor-walk steps allowed per copied-node budget unit (loop guards on deep trees).
_STEPS_PER_NODE: Final = 16

_ASCII_WS: Final = "\t\n\f\r "
_TOKENS: Final = re.compile(r"[^\t\n\f\r ]+")
#: The class of an ``a``/``object`` include marker (also what the marker pre-checks look for).
INCLUDE_CLASS: Final = "include"
_CELLS: Final = frozenset({"td", "th"})


def _classes(element: Element) -> list[str]:
    return _split(element.attrs.get("class", ""))


def _split(value: str) -> list[str]:
    """Split on ASCII whitespace, as HTML does for class, itemref and headers."""
    # (not str.split(), which also splits on Unicode spaces; the regex scan runs in C)
    return _TOKENS.findall(value) if value else []


def _scope(element: Element, inherited: bool) -> bool:
    """Is ``element`` inside a backcompat root (itself included)?"""
    classes = _classes(element)
    if has_mf2_root(classes):
        return False
    if any(c in ROOT_CLASSES for c in classes):
        return True
    return inherited


def _fragment_id(url: str) -> str | None:
    """``"#id"`` -> ``"id"``; other URLs are not same-document includes."""
    url = url.strip(_ASCII_WS)
    if len(url) > 1 and url[0] == "#":
        return url[1:]
    return None


def _replacement_ref(element: Element) -> str | None:
    """The id an ``a.include`` / ``object.include`` element stands for."""
    if element.namespace != HTML_NS or INCLUDE_CLASS not in _classes(element):
        return None
    if element.name == "a":
        return _fragment_id(element.attrs.get("href", ""))
    if element.name == "object":
        return _fragment_id(element.attrs.get("data", ""))
    return None


def _appended_refs(element: Element) -> list[str]:
    """Ids whose elements are appended to ``element`` (itemref, then headers)."""
    refs = _split(element.attrs.get("itemref", ""))
    if element.namespace == HTML_NS and element.name in _CELLS:
        refs.extend(_split(element.attrs.get("headers", "")))
    return refs


def _may_hold_markers(root: Element) -> bool:
    """Cheap pre-check: does any element look like an include marker at all?

    Plain attribute look-ups, no class splitting or scope tracking, so a
    subtree without markers (nearly every one) costs one quick walk.
    """
    if is_marker_like(root):
        return True
    # one iterator over child nodes per open element: the loop over children runs in C
    stack: list[Iterator[Node]] = [iter(root.children)]
    while stack:
        for child in stack[-1]:
            if type(child) is Element:
                attrs = child.attrs
                # is_marker_like, inlined: this runs for every element of every kept subtree
                if attrs and ("itemref" in attrs or "headers" in attrs or INCLUDE_CLASS in attrs.get("class", "")):
                    return True
                children = child.children
                if children and (len(children) > 1 or type(children[0]) is not Text):  # not only a text node
                    stack.append(iter(children))
                    break
        else:
            stack.pop()
    return False


def is_marker_like(element: Element) -> bool:
    """Might ``element`` be an include marker (``itemref``, ``headers``, an ``include`` class)?"""
    attrs = element.attrs
    return "itemref" in attrs or "headers" in attrs or INCLUDE_CLASS in attrs.get("class", "")


def _walk_scoped(root: Element, in_backcompat: bool) -> list[tuple[Element, bool]]:
    """Every element of ``root``'s subtree with its backcompat scope, in tree order."""
    out: list[tuple[Element, bool]] = []
    stack: list[tuple[Element, bool]] = [(root, in_backcompat)]
    while stack:
        element, inherited = stack.pop()
        scoped = _scope(element, inherited)
        out.append((element, scoped))
        for child in reversed(element.children):
            if isinstance(child, Element):
                stack.append((child, scoped))
    return out


def include_references(root: Element, *, in_backcompat: bool = False) -> list[str]:
    """The ids that include markers in ``root``'s subtree refer to, in tree order,
    without duplicates. Only the first level: included elements may refer to
    more ids once they are resolved.

    ``in_backcompat`` says whether ``root``'s parent is inside a backcompat root.
    """
    seen: set[str] = set()
    out: list[str] = []
    if not _may_hold_markers(root):
        return out
    for element, scoped in _walk_scoped(root, in_backcompat):
        if not scoped:
            continue
        ref = _replacement_ref(element)
        refs = [ref] if ref is not None else _appended_refs(element)
        for ref_id in refs:
            if ref_id not in seen:
                seen.add(ref_id)
                out.append(ref_id)
    return out


def index_ids(root: ParentNode) -> dict[str, Element]:
    """Map each id in ``root``'s subtree to its first element in tree order
    (what ``getElementById`` returns); a ``resolve_id`` for whole-DOM callers."""
    ids: dict[str, Element] = {}
    stack: list[Node] = list(reversed(root.children))
    if isinstance(root, Element):
        stack.append(root)
    while stack:
        node = stack.pop()
        if isinstance(node, Element):
            ident = node.attrs.get("id")
            if ident and ident not in ids:
                ids[ident] = node
            stack.extend(reversed(node.children))
    return ids


def _subtree_size(element: Element, limit: int) -> int:
    """Number of nodes in ``element``'s subtree, counting stops past ``limit``."""
    count = 0
    stack: list[Node] = [element]
    while stack and count <= limit:
        node = stack.pop()
        count += 1
        if isinstance(node, ParentNode):
            stack.extend(node.children)
    return count


@dataclass
class _Budget:
    includes: int
    nodes: int
    steps: int  # ancestor-walk steps for the loop guards (deep trees)


def _is_ancestor_or_self(candidate: Node, node: Node | None, budget: _Budget) -> bool:
    """Is ``candidate`` ``node`` or one of its ancestors (by identity)?

    Walking up costs the tree's depth, so the steps are charged to ``budget``;
    when it runs out the answer is a conservative ``True`` (do not include).
    """
    while node is not None:
        if node is candidate:
            return True
        budget.steps -= 1
        if budget.steps < 0:
            return True
        node = node.parent
    return False


@dataclass
class _Task:
    """Copy ``source`` (an original node) as the last child of ``parent``."""

    source: Node
    parent: ParentNode
    scope: bool  # the backcompat scope inherited from the insertion point
    anchors: tuple[Element, ...] = field(default_factory=tuple)  # include markers on the path
    depth: int = 0


def _acceptable(
    target: Element, marker: Element, anchors: tuple[Element, ...], appended: bool, budget: _Budget
) -> bool:
    """May ``target`` be included at ``marker``? No self-inclusion, no loops."""
    # Including an element inside itself or inside its own descendant.
    if _is_ancestor_or_self(target, marker, budget):
        return False
    for anchor in anchors:
        if _is_ancestor_or_self(target, anchor, budget):
            return False
    # Appending a descendant of the marker would duplicate content it already has.
    return not (appended and _is_ancestor_or_self(marker, target.parent, budget))


def _needs_expansion(root: Element, in_backcompat: bool) -> bool:
    if not _may_hold_markers(root):
        return False
    for element, scoped in _walk_scoped(root, in_backcompat):
        if scoped and (_replacement_ref(element) is not None or _appended_refs(element)):
            return True
    return False


def expand_includes(
    root: Element,
    resolve_id: ResolveId,
    *,
    in_backcompat: bool = False,
    max_depth: int = DEFAULT_MAX_DEPTH,
    max_includes: int = DEFAULT_MAX_INCLUDES,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> Element:
    """``root`` with the include pattern applied to its backcompat parts.

    Returns ``root`` itself when nothing in it is an include marker in scope;
    otherwise a detached copy of the subtree with the includes applied. The
    copy's ``parent`` is ``root.parent`` (so ancestor look-ups still work) but
    the copy is not among that parent's children. Included elements keep their
    attributes (including ``id``) and are copied, never moved. Nothing is
    written to the original tree.

    ``in_backcompat`` says whether ``root``'s parent is inside a backcompat
    root (call with ``False`` for a top-level item).
    """
    if not _needs_expansion(root, in_backcompat):
        return root
    budget = _Budget(includes=max_includes, nodes=max_nodes, steps=_STEPS_PER_NODE * max_nodes)
    holder = ParentNode()
    stack: list[_Task] = [_Task(root, holder, in_backcompat)]
    while stack:
        task = stack.pop()
        source = task.source
        if not isinstance(source, Element):
            _append(task.parent, _copy_leaf(source))
            continue
        scope = _scope(source, task.scope)
        ref = _replacement_ref(source) if scope else None
        if ref is not None:
            target = _resolve(ref, source, task, budget, max_depth, resolve_id, appended=False)
            if target is not None:
                # The marker is replaced: the target takes its place and scope.
                stack.append(_Task(target, task.parent, task.scope, (*task.anchors, source), task.depth + 1))
                continue
        copy = Element(source.name, source.namespace, dict(source.attrs))
        copy.template_contents = source.template_contents
        # the copy stands for the same markup (an item's output allowance reads its span)
        copy.source_start = source.source_start
        copy.source_end = source.source_end
        _append(task.parent, copy)
        included: list[_Task] = []
        if scope:
            for ref_id in _appended_refs(source):
                target = _resolve(ref_id, source, task, budget, max_depth, resolve_id, appended=True)
                if target is not None:
                    included.append(_Task(target, copy, scope, (*task.anchors, source), task.depth + 1))
        # Stack order: own children first (in order), then the included elements.
        stack.extend(reversed(included))
        stack.extend(_Task(child, copy, scope, task.anchors, task.depth) for child in reversed(source.children))
    result = holder.children[0]
    assert isinstance(result, Element)
    result.parent = root.parent
    return result


def _resolve(
    ref: str,
    marker: Element,
    task: _Task,
    budget: _Budget,
    max_depth: int,
    resolve_id: ResolveId,
    *,
    appended: bool,
) -> Element | None:
    """The element to include for ``ref`` at ``marker``, charged to ``budget``;
    ``None`` when it is unknown or would break a guard or limit."""
    if task.depth >= max_depth or budget.includes <= 0:
        return None
    target = resolve_id(ref)
    if target is None or not _acceptable(target, marker, task.anchors, appended, budget):
        return None
    size = _subtree_size(target, budget.nodes)
    if size > budget.nodes:
        return None
    budget.includes -= 1
    budget.nodes -= size
    return target


def _copy_leaf(node: Node) -> Node:
    if isinstance(node, Text):
        return Text(node.data)
    if isinstance(node, Comment):
        return Comment(node.data)
    raise TypeError(f"unexpected node in an element subtree: {type(node).__name__}")


def _append(parent: ParentNode, child: Node) -> None:
    child.parent = parent
    parent.children.append(child)
