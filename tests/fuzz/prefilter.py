"""The archive pre-filter is conservative: when it says "skip", ``parse`` yields no item.

Documents are built from fragments chosen to sit on the edges of the argument in
:mod:`stream_mf2.warc.prefilter`: class attributes spelled every way (``CLASS=``,
unquoted, tabs, form feeds), root names (h-*, every mf1 root) and near misses,
characters of a name written as numeric or named references (``&#104;``,
``&#x68``, ``&#0000045;``, ``&fjlig;``, ``&hyphen;``), separators written as
references (``&#32;``, ``&Tab;``, ``&#9`` without ``;``), markup the tree drops
or keeps apart (comments, ``<template>``, ``<noscript>``, ``<script>``, SVG),
``<meta>``/``<title>``/``<link>`` for metaformats; then encoded in a random
encoding (UTF-16 with or without BOM, ISO-2022-JP, Shift_JIS, gb18030, ...),
sometimes with a ``<meta charset>`` or a transport ``encoding`` naming another one,
and sometimes with random bytes (NUL, ESC, high bytes) put in.

:func:`check_prefilter` asserts, with the case's options: "skip" implies no item
(and no ``meta-item`` with ``metaformats``), and the answer is the same whole or
fed in random pieces.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

import stream_mf2
from stream_mf2.warc.prefilter import Prefilter, may_hold_items

from .invariants import Finding

ROOTS = (
    "h-entry", "h-card", "h-x-y", "h-a1-b", "h-fjord", "h-review-aggregate",
    "vcard", "hentry", "hfeed", "vevent", "hreview", "hproduct", "hrecipe", "hresume", "geo", "adr",
    "hreview-aggregate", "hnews",
)  # fmt: skip
NEAR_MISSES = ("h-4", "H-entry", "hcard", "vcards", "x-h-entry", "h-", "h--a", "geo-x", "h-entry1", "search-form")
SEPARATORS = (
    " ",
    "\t",
    "\n",
    "\f",
    "\r",
    "\r\n",
    "&#32;",
    "&#x20",
    "&#9",
    "&Tab;",
    "&NewLine;",
    "&#10;",
    "&nbsp;",
    "\xa0",
    "&quot;",
)
ENCODINGS = (
    "utf-8", "utf-16-le", "utf-16-be", "windows-1252", "shift_jis", "iso-2022-jp", "euc-jp", "gb18030", "big5",
    "euc-kr", "koi8-r",
)  # fmt: skip
LABELS = ("utf-8", "utf-16", "utf-16le", "utf-16be", "iso-2022-jp", "shift_jis", "x-user-defined", "gbk", "big5",
          "windows-1252", "replacement", "csiso2022kr", "ebcdic-cp-us", "utf-32", "utf-7")  # fmt: skip


def _char(c: str, draw: st.DrawFn) -> str:
    """``c`` as itself or as a reference."""
    how = draw(st.sampled_from(("plain", "plain", "plain", "dec", "hex", "zeros", "nosemi")))
    code = ord(c)
    if how == "dec":
        return f"&#{code};"
    if how == "hex":
        return f"&#{draw(st.sampled_from('xX'))}{code:x};"
    if how == "zeros":
        return f"&#{'0' * draw(st.integers(1, 12))}{code};"
    if how == "nosemi":
        return f"&#{code}"
    return c


@st.composite
def token(draw: st.DrawFn) -> str:
    if draw(st.integers(0, 9)) == 0:
        # Longer than the scan's overlap: found by its start, whatever the pieces.
        return "h-" + "a" * draw(st.integers(100, 400)) + draw(st.sampled_from(("", "-b", "1", "&fjlig;")))
    name = draw(st.sampled_from(ROOTS if draw(st.booleans()) else NEAR_MISSES))
    if draw(st.booleans()):
        return name
    out = [_char(c, draw) for c in name]
    text = "".join(out)
    if "fj" in name and draw(st.booleans()):
        text = text.replace("fj", "&fjlig;")
    if "-" in name and draw(st.integers(0, 5)) == 0:
        text = text.replace("-", "&hyphen;", 1)
    return text


@st.composite
def class_attr(draw: st.DrawFn) -> str:
    tokens = draw(st.lists(token(), min_size=1, max_size=3))
    value = ""
    for t in tokens:
        value += draw(st.sampled_from(SEPARATORS)) if value or draw(st.booleans()) else ""
        value += t
    name = draw(st.sampled_from(("class", "CLASS", "Class", "data-class", "id")))
    eq = draw(st.sampled_from(("=", " = ", "=\t", "\f=")))
    quote = draw(st.sampled_from(('"', "'", "")))
    if not quote:
        value = value.replace(" ", "").replace("\t", "").replace("\n", "").replace("\f", "").replace("\r", "")
    return f"{name}{eq}{quote}{value}{quote}"


@st.composite
def fragment(draw: st.DrawFn) -> str:
    kind = draw(
        st.sampled_from(
            ("div", "div", "div", "template", "comment", "noscript", "script", "svg", "text", "meta", "title",
             "link", "plain", "escaped", "japanese")
        )
    )  # fmt: skip
    if kind in ("div", "template", "comment", "noscript", "script", "svg"):
        attr = draw(class_attr())
        el = f'<div {attr}><a class="p-name u-url" href="/x">x</a></div>'
        if kind == "template":
            return f"<template>{el}</template>"
        if kind == "comment":
            return f"<!-- {el} -->"
        if kind == "noscript":
            return f"<noscript>{el}</noscript>"
        if kind == "script":
            return f"<script>var s = '{el}';</script>"
        if kind == "svg":
            return f"<svg><g {attr}><title>t</title></g></svg>"
        return el
    if kind == "text":
        return draw(token())
    if kind == "meta":
        return draw(st.sampled_from(('<meta name="description" content="d">', "<META property=og:title content=T>",
                                     '<meta\tname=author content=a>')))  # fmt: skip
    if kind == "title":
        return draw(st.sampled_from(("<title>T</title>", "<TITLE>T</TITLE>")))
    if kind == "link":
        return '<link rel="canonical" href="/c">'
    if kind == "escaped":
        return "<pre>&lt;div class=&quot;h-entry&quot;&gt;</pre>"
    if kind == "japanese":
        return "<p>山田太郎 です</p>"
    return "<p>plain text, a <a href='/a'>link</a> and &#8217;quotes&#039;</p>"


@st.composite
def documents(draw: st.DrawFn) -> tuple[bytes, dict[str, Any], int]:
    """(bytes, parse options, seed for the pieces)."""
    # Often one fragment: a lone name is what the scan must not miss (others would hide a miss).
    parts = draw(st.lists(fragment(), min_size=1, max_size=draw(st.sampled_from((1, 1, 3, 6)))))
    head = ""
    if draw(st.integers(0, 3)) == 0:
        head = f'<meta charset="{draw(st.sampled_from(LABELS))}">'
    text = f"<!doctype html><html><head>{head}</head><body>{''.join(parts)}</body></html>"
    if draw(st.integers(0, 5)) == 0:
        text = "".join(parts)  # a body that starts with a fragment (or a name)
    enc = draw(st.sampled_from(ENCODINGS))
    data = text.encode(enc, errors="xmlcharrefreplace")
    if enc.startswith("utf-16") and draw(st.booleans()):
        data = (b"\xff\xfe" if enc.endswith("le") else b"\xfe\xff") + data
    if draw(st.integers(0, 4)) == 0:
        rng = random.Random(draw(st.integers(0, 2**16)))
        junk = bytes(rng.choice((0, 0x1B, 0x80, 0xA0, 0xFE, 0xFF, 0x8E, 0x22, 0x20)) for _ in range(rng.randint(1, 3)))
        at = rng.randint(0, len(data))
        data = data[:at] + junk + data[at:]
    options: dict[str, Any] = {}
    if draw(st.booleans()):
        options["metaformats"] = True
    if draw(st.integers(0, 3)) == 0:
        options["filter_roots"] = True
    if draw(st.integers(0, 2)) == 0:
        options["encoding"] = draw(st.sampled_from(LABELS + ENCODINGS))
    return data, options, draw(st.integers(0, 2**16))


def check_prefilter(data: bytes, options: dict[str, Any], seed: int) -> None:
    """Skip implies no item (and no meta-item with metaformats); pieces do not change the answer."""
    metaformats = bool(options.get("metaformats"))
    whole = may_hold_items(data, metaformats=metaformats)
    rng = random.Random(seed)
    # (a small search block: the pieces are searched as they come, with their context)
    pf = Prefilter(metaformats=metaformats, max_bytes=None, block=rng.choice((1, 3, 50, 300)))
    pos = 0
    while pos < len(data):
        step = rng.choice((rng.randint(1, 40), rng.randint(1, 400)))
        pf.feed(data[pos : pos + step])
        pos += step
    pieces = pf.finish()
    if pieces != whole:
        raise Finding("prefilter-pieces", f"whole {whole}, in pieces {pieces}", "prefilter-pieces", data, options)
    if whole:
        return
    result = stream_mf2.parse(data, **options)
    if result["items"]:
        raise Finding(
            "prefilter-skip",
            f"skipped, but parse gives {result['items'][0].get('type')}",
            "prefilter-skip",
            data,
            options,
        )
    if metaformats and "meta-item" in result:
        raise Finding("prefilter-skip", "skipped, but parse gives a meta-item", "prefilter-meta", data, options)
