"""Hypothesis strategies for HTML inputs: random bytes, tag soup, mutated suite pages and fixtures;
and a plain generator of targeted `<selectedcontent>` soup (:func:`select_soup`)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from random import Random
from typing import Any

from hypothesis import strategies as st

from tests.support.suites import suite_dir

TAGS = (
    "html", "head", "body", "title", "base", "meta", "link", "script", "style", "template", "noscript", "p", "div",
    "span", "a", "b", "i", "em", "strong", "font", "nobr", "u", "s", "code", "big", "small", "tt", "strike",
    "table", "tbody", "thead", "tfoot", "tr", "td", "th", "caption", "col", "colgroup", "select", "option",
    "optgroup", "button", "form", "input", "textarea", "img", "area", "map", "object", "video", "audio", "source",
    "abbr", "time", "data", "ins", "del", "pre", "br", "hr", "li", "ul", "ol", "dl", "dd", "dt", "h1", "h2",
    "frameset", "frame", "plaintext", "svg", "math", "foreignObject", "desc", "mi", "mo", "annotation-xml",
    "iframe", "xmp", "noembed", "listing", "ruby", "rt", "image", "applet", "marquee", "embed", "keygen", "label",
    "fieldset", "legend", "details", "summary", "main", "article", "section", "address", "center", "dir", "menu",
    "search", "selectedcontent",
)  # fmt: skip
CLASSES = (
    "h-card", "h-entry", "h-feed", "h-event", "h-x-y", "h-adr", "h-geo", "h-cite", "h-review", "h-product",
    "p-name", "p-author", "p-summary", "p-category", "p-org", "u-url", "u-photo", "u-uid", "dt-start", "dt-end",
    "dt-published", "e-content", "e-summary", "value", "value-title", "vcard", "fn", "url", "hentry", "hfeed",
    "entry-title", "entry-content", "author", "vevent", "dtstart", "dtend", "summary", "hreview", "item", "include",
    "adr", "geo", "category", "org", "tag", "x", "h-", "p-a", "h-A",
)  # fmt: skip
ATTR_VALUES: dict[str, tuple[str, ...]] = {
    "href": ("", "/a", "b c", "#id1", "http://[::1", "javascript:x", "//h/p", "?q", "http://example.org/x y"),
    "src": ("", "i.png", "http://[bad", " sp ace ", "data:,x"),
    "alt": ("", "Alt", " A "),
    "title": ("", "T", "2000-01-01"),
    "datetime": ("", "2000-01-01", "10:00pm", "junk", "2000-01-01T10:00+01:00"),
    "value": ("", "V", "+01:00", "12:00"),
    "content": ("", "c", "/u", "2000-02-02", "text/html; charset=utf-8", "text/html; charset=shift_jis"),
    "charset": ("utf-8", "windows-1252", "shift_jis", "utf-16", "x-user-defined", "iso-8859-2"),
    "http-equiv": ("content-type", "Content-Language", "refresh"),
    "name": ("description", "author", "m"),
    "property": ("og:title", "og:image", "og:type", "article:published_time"),
    "rel": ("me", "tag", "me tag", "", "alternate", "author"),
    "id": ("id1", "id2", "", "i"),
    "itemref": ("id1", "id2 id1", "nope"),
    "headers": ("id1", "id2"),
    "data": ("#id1", "o.swf"),
    "lang": ("", "en", "de"),
    "shape": ("rect", "circle", "default"),
    "coords": ("1,2,3,4", "5,5,2"),
    "srcset": ("", ",,", "a.png 2x, b.png", "x 1x,x 1x"),
    "type": ("hidden", "text/html", "image/svg+xml"),
    "encoding": ("text/html", "application/xhtml+xml"),
    "poster": ("p.png",),
}
TEXTS = (
    "text", " ", "2000-01-01", "7pm", "\n x \n", "&amp;", "&notin;", "&#x0;", "&#X110000;", "&amp", "\x00",
    "\r\n", "\r", "\t", "\u00a0", "é", "😀", "]]>", "<", ">", "'", '"', "&", "x y z", "12:00", "-08:00",
)  # fmt: skip
RAW_PIECES = (
    "<!doctype html>", "<!DOCTYPE html PUBLIC '-//W3C//DTD HTML 4.01//EN'>", "<!-- c -->", "<!-->", "<!--",
    "<![CDATA[x]]>", "</", "<", "<?x?>", "</>", "<a<b>", "<p/>", "</p>", "</br>", "</body>", "</html>",
    "<svg><![CDATA[y]]></svg>", "<math><mi>x</mi></math>", "<table><tr><td>", "</td></tr></table>",
    "<template><col>", "<select><option>", "<frameset>", "<isindex>", "<body class=h-entry>",
    "<html class=h-card lang=en>", "<base href=/base/>", "<meta charset=utf-8>", "<meta charset=windows-1252>",
    "<p><button>", "<textarea>", "</textarea>", "<script>", "</script>", "<style>", "</style>", "<plaintext>",
)  # fmt: skip


@st.composite
def _start_tag(draw: st.DrawFn) -> str:
    name = draw(st.sampled_from(TAGS))
    if draw(st.integers(0, 9)) == 0:
        name = name.upper()
    parts = [name]
    if draw(st.booleans()):
        classes = draw(st.lists(st.sampled_from(CLASSES), min_size=1, max_size=3))
        quote = draw(st.sampled_from(('"', "'", "")))
        value = " ".join(classes)
        parts.append(f"class={quote}{value}{quote}" if quote or " " not in value else f'class="{value}"')
    for key in draw(st.lists(st.sampled_from(sorted(ATTR_VALUES)), max_size=3, unique=True)):
        parts.append(f'{key}="{draw(st.sampled_from(ATTR_VALUES[key]))}"')
    closing = "/" if draw(st.integers(0, 7)) == 0 else ""
    return "<" + " ".join(parts) + closing + ">"


def _piece() -> st.SearchStrategy[str]:
    return st.one_of(
        _start_tag(),
        st.sampled_from(TAGS).map(lambda n: f"</{n}>"),
        st.sampled_from(TEXTS),
        st.sampled_from(RAW_PIECES),
    )


@st.composite
def tag_soup(draw: st.DrawFn, max_pieces: int = 60) -> str:
    """A document of random tags (with mf2 classes and attributes), text and raw pieces."""
    return "".join(draw(st.lists(_piece(), max_size=max_pieces)))


@st.composite
def soup_bytes(draw: st.DrawFn) -> bytes:
    """Tag soup, encoded as UTF-8, windows-1252 (unmappable as references) or UTF-16 with a BOM."""
    text = draw(tag_soup())
    how = draw(st.sampled_from(("utf-8", "utf-8", "utf-8", "cp1252", "utf-8-bom", "utf-16")))
    if how == "cp1252":
        return text.encode("cp1252", "xmlcharrefreplace")
    if how == "utf-8-bom":
        return b"\xef\xbb\xbf" + text.encode("utf-8", "surrogatepass")
    if how == "utf-16":
        return text.encode("utf-16", "surrogatepass")
    return text.encode("utf-8", "surrogatepass")


#: Pages larger than this are not used as mutation seeds (each case feeds them several times).
CORPUS_MAX_BYTES = 24_000


@lru_cache(maxsize=1)
def corpus() -> tuple[tuple[str, bytes], ...]:
    """Suite pages (microformats, html5lib tree tests are not pages) and fixtures, small enough to fuzz."""
    pages: list[tuple[str, bytes]] = []
    fixtures = Path(__file__).resolve().parents[2] / "fixtures"
    roots = [fixtures]
    found = suite_dir("microformats-tests")
    if found is not None:
        roots.append(found)
    for root in roots:
        for path in sorted(root.rglob("*.html")):
            data = path.read_bytes()
            if len(data) <= CORPUS_MAX_BYTES:
                pages.append((str(path.relative_to(root.parent)), data))
    return tuple(pages)


@st.composite
def mutated_page(draw: st.DrawFn) -> tuple[str, bytes]:
    """A corpus page with a few mutations: deletions, insertions of soup, byte flips,
    duplicated spans, truncation."""
    pages = corpus()
    if not pages:
        return "soup", draw(tag_soup()).encode()
    name, data = draw(st.sampled_from(pages))
    buf = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        n = len(buf)
        at = draw(st.integers(0, n))
        kind = draw(st.sampled_from(("delete", "insert", "flip", "duplicate", "truncate", "insert")))
        if kind == "delete" and n:
            end = min(n, at + draw(st.integers(1, 200)))
            del buf[at:end]
        elif kind == "insert":
            buf[at:at] = "".join(draw(st.lists(_piece(), min_size=1, max_size=4))).encode()
        elif kind == "flip" and at < n:
            buf[at] ^= 1 << draw(st.integers(0, 7))
        elif kind == "duplicate" and n:
            end = min(n, at + draw(st.integers(1, 300)))
            buf[at:at] = buf[at:end]
        elif kind == "truncate":
            del buf[at:]
    return name, bytes(buf)


def options() -> st.SearchStrategy[dict[str, Any]]:
    """Parser options: the mf2 switches, and sometimes small limits."""
    limits = st.fixed_dictionaries(
        {},
        optional={
            "max_token_chars": st.sampled_from((40, 300, 5000)),
            "max_depth": st.sampled_from((8, 60)),
            "max_kept_nodes": st.sampled_from((20, 400)),
            "max_held_items": st.sampled_from((0, 2)),
            "max_nested_html_chars": st.sampled_from((0, 50)),
            "max_reparse_bytes": st.sampled_from((0, 100)),
            "max_item_chars": st.sampled_from((0, 200)),
            # the output allowance relative to the input (small: reductions happen)
            "max_output_ratio": st.sampled_from((0, 1, 4)),
            "output_floor_chars": st.sampled_from((0, 60)),
        },
    )
    switches = st.fixed_dictionaries(
        {},
        optional={
            "text": st.sampled_from(("spec", "normalized")),
            "lang": st.booleans(),
            "metaformats": st.booleans(),
            "filter_roots": st.booleans(),
            "detect_utf8": st.booleans(),
        },
    )

    def merge(parts: tuple[dict[str, Any], dict[str, Any], bool]) -> dict[str, Any]:
        switch, limit, use_limits = parts
        return {**switch, **limit} if use_limits else switch

    return st.tuples(switches, limits, st.integers(0, 4).map(lambda k: k == 0)).map(merge)


# Targeted soup around <selectedcontent> (HTML "maybe clone an option into selectedcontent"):
# nestings of select/option/selectedcontent with foreign content, templates, tables and
# misnested formatting elements, h-*/p-* classes, text and ``selected`` attributes.
SELECT_TAGS = (
    "select", "select", "option", "option", "option", "selectedcontent", "selectedcontent", "svg", "math",
    "template", "table", "td", "tr", "b", "b", "i", "a", "div", "button", "optgroup", "span", "p", "hr",
    "datalist", "foreignObject", "mi", "desc", "caption",
)  # fmt: skip
SELECT_CLASSES = ("h-x", "h-card", "p-name", "p-note", "h-y", "", "", "", "u-url", "e-content")
SELECT_ENDS = (
    "b", "b", "i", "a", "option", "select", "table", "template", "svg", "div", "selectedcontent", "td", "p",
    "span", "button", "math",
)  # fmt: skip
SELECT_TEXTS = ("t", "A", "bb", " ", "x y")


def select_soup(rng: Random) -> str:
    """One targeted ``selectedcontent`` soup document (deterministic given ``rng``'s state)."""
    out: list[str] = []
    for _ in range(rng.randint(3, 22)):
        r = rng.random()
        if r < 0.5:
            name = rng.choice(SELECT_TAGS)
            attrs = ""
            cls = rng.choice(SELECT_CLASSES)
            if cls:
                attrs += f" class={cls}"
            if name == "option" and rng.random() < 0.3:
                attrs += " selected"
            if name == "select" and rng.random() < 0.05:
                attrs += " multiple"
            out.append(f"<{name}{attrs}>")
        elif r < 0.75:
            out.append(f"</{rng.choice(SELECT_ENDS)}>")
        else:
            out.append(rng.choice(SELECT_TEXTS))
    if not any("selectedcontent" in piece for piece in out):
        cls = rng.choice(("h-x", "p-name", "h-card"))
        out.insert(rng.randrange(len(out) + 1), f"<selectedcontent class={cls}>")
    return "".join(out)
