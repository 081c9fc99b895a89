"""Full XPaths of elements by id or text (the ``stream-mf2 xpath`` helper)."""

from __future__ import annotations

from stream_mf2.html.dom import Element, text_content
from stream_mf2.html.sink import DomSink
from stream_mf2.html.tokenizer import Tokenizer
from stream_mf2.html.treebuilder import TreeBuilder
from stream_mf2.wpt._paths import Place, descendants

__all__ = ["element_paths", "full_dom"]


def full_dom(html: str) -> DomSink:
    """The whole WHATWG DOM of ``html`` (a full DOM sink)."""
    sink = DomSink()
    tree = TreeBuilder(sink)
    tok = Tokenizer(tree)
    tok.feed(html)
    tok.close()
    return sink


def element_paths(html: str, *, id: str | None = None, text: str | None = None) -> list[dict[str, str | None]]:
    """``[{"xpath", "anchored", "text"}]`` for the elements of ``html`` whose ``id`` is ``id``
    and/or whose whitespace-collapsed text content equals ``text`` (the innermost
    such elements), in document order. ``anchored`` is the id-anchored form
    (``//*[@id="x"]/...``) from the nearest ancestor with an id, if any.
    """
    sink = full_dom(html)
    root = Place(None, None, "", 0, 0)
    found: list[dict[str, str | None]] = []
    places = list(descendants(sink.document, root))
    wanted_text = " ".join(text.split()) if text is not None else None
    for p in places:
        el = p.element
        assert isinstance(el, Element)
        if id is not None and el.attrs.get("id") != id:
            continue
        if wanted_text is not None:
            if " ".join(text_content(el).split()) != wanted_text:
                continue
            # innermost: no element child with the same text
            if any(isinstance(c, Element) and " ".join(text_content(c).split()) == wanted_text for c in el.children):
                continue
        found.append({"xpath": p.xpath(), "anchored": anchored_path(p), "text": " ".join(text_content(el).split())})
    return found


def anchored_path(place: Place) -> str | None:
    """``//*[@id="x"]/...`` from the nearest ancestor-or-self with an id (``None`` if none)."""
    chain = place.chain()
    for i in range(len(chain) - 1, -1, -1):
        el = chain[i].element
        id_ = el.attrs.get("id") if el is not None else None
        if id_ and '"' not in id_:
            rest = "".join(f"/{p.name}[{p.pos}]" for p in chain[i + 1 :])
            return f'//*[@id="{id_}"]{rest}'
    return None
