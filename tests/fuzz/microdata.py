"""The ``microdata`` fuzz target: tag soup full of microdata attributes.

Checks, for each document: no undocumented exception, and the microdata items
and notes (both item forms) the same whole, split in two, fed byte by byte
(small documents), in random chunkings, and as ``str``; with microformats and
JSON-LD extracted in the same pass (their consumers keep subtrees of their own,
which the microdata consumer then receives), the same items whole and in random
chunkings, and the items of the microdata-only parse unless that one left an
``itemref`` target unresolved (an enclosing kept subtree may hold a target that
came before its item: documented).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from hypothesis import strategies as st

from stream_mf2.html.decode import Decoder
from tests.fuzz.inputs import CLASSES, TAGS, TEXTS
from tests.fuzz.invariants import ONE_BY_ONE_MAX, _compare, outcome, random_chunks
from tests.microdata.drive import microdata

ITEM_ATTRS: dict[str, tuple[str, ...]] = {
    "itemscope": ("",),
    "itemprop": ("name", "url", "name url", " a\tb ", "", "q-input", "offers"),
    "itemtype": ("https://schema.org/Thing", "http://s.org/A http://s.org/B", ""),
    "itemid": ("urn:x", " /rel ", ""),
    "itemref": ("i1", "i2 i1", "i3", "nope", "i1 i1"),
    "id": ("i1", "i2", "i3", ""),
    "href": ("", "/a", "b c", "http://[::1"),
    "src": ("", "i.png", " sp ace "),
    "content": ("", "c", "2000-01-01"),
    "datetime": ("", "2000"),
    "value": ("", "v"),
    "data": ("o.pdf",),
    "class": CLASSES[:12],
    "rel": ("me",),
}
_RAW = ("<base href=/b/>", "<table><tr><td>", "</table>", "<template>", "</template>", "<p>", "</p>", "<li>")


@st.composite
def _tag(draw: st.DrawFn) -> str:
    name = draw(st.sampled_from(TAGS))
    parts = [name]
    for key in draw(st.lists(st.sampled_from(sorted(ITEM_ATTRS)), max_size=4, unique=True)):
        value = draw(st.sampled_from(ITEM_ATTRS[key]))
        parts.append(key if key == "itemscope" else f'{key}="{value}"')
    return "<" + " ".join(parts) + ">"


@st.composite
def microdata_soup(draw: st.DrawFn) -> bytes:
    pieces = draw(
        st.lists(
            st.one_of(
                _tag(), st.sampled_from(TAGS).map(lambda n: f"</{n}>"), st.sampled_from(TEXTS), st.sampled_from(_RAW)
            ),
            max_size=50,
        )
    )
    return "".join(pieces).encode("utf-8", "surrogatepass")


def strategy() -> st.SearchStrategy[Any]:
    return st.tuples(
        microdata_soup(), st.sampled_from(("extruct", "whatwg")), st.integers(0, 2**16), st.integers(0, 2**16)
    )


_MIXED = {"mf2", "microdata", "json-ld"}


def _run(chunks: list[bytes] | list[str], form: str, syntaxes: set[str] | None = None) -> tuple[list[Any], list[str]]:
    run = microdata(chunks, microdata_form=form, syntaxes=syntaxes or {"microdata"})
    return [(e.item, e.start, e.end, e.page) for e in run.events], [n for n in run.notes if n.startswith("microdata:")]


def check(case: Any) -> None:
    data, form, seed, split = case
    options = {"microdata_form": form}
    whole = outcome(lambda: _run([data], form), "microdata(bytes)", data, options)
    chunkings: list[tuple[str, list[Any]]] = [(f"random(seed={seed})", random_chunks(data, seed))]
    if len(data) <= ONE_BY_ONE_MAX:
        chunkings.append(("one-by-one", [data[i : i + 1] for i in range(len(data))]))
    if len(data) > 1:
        at = 1 + split % (len(data) - 1)
        chunkings.append((f"split@{at}", [data[:at], data[at:]]))
    decoder = Decoder(None)  # (the text the engine reads from these bytes)
    text = decoder.feed(data) + decoder.close()
    chunkings.append(("str", [text]))
    chunkings.append((f"str random(seed={seed})", random_chunks(text, seed)))
    for label, chunks in chunkings:
        got = outcome(partial(_run, chunks, form), f"microdata {label}", data, options)
        _compare("microdata-chunking-differs", label, whole, got, data, options)
    mixed = outcome(lambda: _run([data], form, _MIXED), "microdata+mf2+json-ld", data, options)
    got = outcome(lambda: _run(random_chunks(data, seed + 1), form, _MIXED), "mixed random", data, options)
    _compare("microdata-mixed-chunking-differs", f"mixed random(seed={seed + 1})", mixed, got, data, options)
    if whole[0] == "ok" and not any("itemref" in n for n in whole[1][1]):
        _compare("microdata-mixed-differs", "with mf2 and json-ld", whole, mixed, data, options)
