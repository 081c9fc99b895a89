"""A starting template for a page (``stream-mf2 xpath PAGE --skeleton``).

The skeleton is a WPT file an author edits, not a finished description: one template whose
``ow:url`` is the page's URL, with a block for each element that has an id (``ow:tagid``),
one for the first ``h1``, and a repeatable block for each run of same-name children (rows of
a table, items of a list, cards of a listing) of at least ``min_repeats``; nothing inside a
repeated element gets a block of its own (its ids belong to one item, not to the template). Each block is
labelled with a placeholder concept, declared in the skeleton's ontology, so the file loads
without a warning and every block matches on the page it was made from
(``stream-mf2 wpt lint`` is clean on it). Paths are those of the WHATWG DOM, positions kept
only where a name repeats among siblings.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit
from xml.sax.saxutils import escape, quoteattr

from stream_mf2.html.dom import Element
from stream_mf2.wpt._paths import Place, descendants
from stream_mf2.wpt.find import full_dom
from stream_mf2.wpt.model import OW_NS

__all__ = ["skeleton"]

_WORD = re.compile(r"[A-Za-z_][\w\-]*")
_UNWANTED = frozenset({"html", "head", "body", "script", "style", "template", "noscript", "meta", "link"})


def _short_path(place: Place) -> str:
    """``/html/body/div[2]/h1``: a position only where the parent has several children of that name."""
    steps: list[str] = []
    for p in place.chain():
        counts = p.parent.counts if p.parent is not None else None
        repeated = counts is not None and counts.get(p.name, 0) > 1
        steps.append(f"/{p.name}[{p.pos}]" if repeated else f"/{p.name}")
    return "".join(steps)


def _anchored_short(place: Place) -> tuple[str, str] | None:
    """``(//*[@id="x"]/tbody, x)`` from the nearest ancestor-or-self with an id (``None`` if none)."""
    chain = place.chain()
    for i in range(len(chain) - 1, -1, -1):
        el = chain[i].element
        id_ = el.attrs.get("id") if el is not None else None
        if id_ and '"' not in id_:
            rest = _short_path(chain[-1])[len(_short_path(chain[i])) :]
            return f'//*[@id="{id_}"]{rest}', id_
    return None


def _concept(text: str, used: set[str], fallback: str) -> str:
    """A concept name from ``text`` (an id, a tag name), unique among ``used``."""
    base = text if _WORD.fullmatch(text) else fallback
    name = base
    n = 2
    while name.lower() in used:
        name = f"{base}-{n}"
        n += 1
    used.add(name.lower())
    return name


def skeleton(html: str, url: str, *, min_repeats: int = 3, max_blocks: int = 100) -> str:
    """A WPT file (XML text) describing the page ``html`` at ``url``, to start a template from."""
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        raise ValueError(f"skeleton() needs the page's absolute URL, not {url!r}")
    sink = full_dom(html)
    places = list(descendants(sink.document, Place(None, None, "", 0, 0)))  # counts complete after the walk
    used: set[str] = set()
    blocks: list[str] = []
    ids: set[str] = set()
    h1 = False
    repeating: set[int] = set()  # ids of the places of elements that repeat among their siblings
    for place in places:
        if len(blocks) >= max_blocks:
            break
        el = place.element
        assert isinstance(el, Element)
        chain = place.chain()
        parent_counts = place.parent.counts if place.parent is not None else None
        parent_name = place.parent.name if place.parent is not None else ""
        if (
            parent_name not in _UNWANTED
            and parent_counts is not None
            and parent_counts.get(place.name, 0) >= min_repeats
        ):
            repeating.add(id(place))  # (the children of html and body are the page's layout, not a list)
        if el.name in _UNWANTED or any(p.name in ("head", "template") for p in chain[:-1]):
            continue
        if any(id(p) in repeating for p in chain):
            continue  # inside a repeated element: the block of its run covers it (its ids are per item)
        id_ = el.attrs.get("id")
        if id_ and id_.strip() == id_ and id_ not in ids:
            ids.add(id_)
            concept = _concept(id_, used, f"block{len(blocks) + 1}")
            blocks.append(f"    <ow:block ow:tagid={quoteattr(id_)}>{concept}</ow:block>")
        elif el.name == "h1" and not h1:
            h1 = True
            path = quoteattr(_short_path(place))
            blocks.append(f"    <ow:block ow:xpath={path}>{_concept('title', used, 'title')}</ow:block>")
        for name, n in (place.counts or {}).items():
            if n < min_repeats or name in _UNWANTED or len(blocks) >= max_blocks:
                continue
            anchored = _anchored_short(place)
            where, label = anchored if anchored is not None else (_short_path(place), el.name)
            concept = _concept(f"{label}-{name}", used, f"item{len(blocks) + 1}")
            blocks.append(
                f'    <ow:block ow:xpath={quoteattr(f"{where}/{name}")} ow:type="repeatable">{concept}</ow:block>'
            )
    if not blocks:
        blocks.append(f'    <ow:block ow:xpath="/html/body">{_concept("page", used, "page")}</ow:block>')
    page_url = parts._replace(fragment="").geturl()
    concepts = "\n".join(f"    <ow:concept>{escape(c)}</ow:concept>" for c in sorted(used))
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<ow:wpt xmlns:ow="{OW_NS}" ow:host={quoteattr(f"{parts.scheme}://{parts.netloc}")}>\n'
        f'  <ow:template ow:name="Page" ow:url={quoteattr(page_url)} ow:ontology="page">\n'
        + "\n".join(blocks)
        + "\n  </ow:template>\n"
        '  <ow:ontology ow:name="page">\n'
        f"{concepts}\n"
        "  </ow:ontology>\n"
        "</ow:wpt>\n"
    )
