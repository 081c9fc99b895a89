"""The RDFa fuzz target: tag soup dense with RDFa attributes, through the RDFa consumer.

Checks, on each document: no exception; the same triples and notes whole, byte by byte
(small documents), in random chunkings and split in two (bytes, and the same for the text
decoded once, as str); nothing held after the document ends.
"""

from __future__ import annotations

import itertools
import random
from typing import TypeVar

from hypothesis import strategies as st

from tests.rdfa.drive import stream_triples

from .invariants import Finding

S = TypeVar("S", str, bytes)

_TAGS = (
    "div", "span", "a", "p", "b", "i", "table", "tr", "td", "time", "meta", "link", "base",
    "ol", "li", "head", "body", "html", "template", "svg", "img", "del", "select", "option", "frameset",
)  # fmt: skip
_IRI_VALUES = ("#a", "#b", "[ex:x]", "[]", "_:n", "_:", "", "ex:y", "http://abs.example/z", "rel/p", "[undefined:q]")
_TERM_VALUES = (
    "ex:p", "name", "license", "ex:p ex:q", "rdf:XMLLiteral", "rdf:HTML", "", "_:x", "http://p.example/p",
    "Thing", "xsd:integer", "undefined:t", ":local", "nofollow",
)  # fmt: skip
_ATTRS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("about", _IRI_VALUES),
    ("resource", _IRI_VALUES),
    ("href", _IRI_VALUES),
    ("src", _IRI_VALUES),
    ("property", _TERM_VALUES),
    ("rel", _TERM_VALUES),
    ("rev", _TERM_VALUES),
    ("typeof", _TERM_VALUES),
    ("datatype", _TERM_VALUES),
    ("inlist", ("",)),
    ("vocab", ("http://schema.org/", "", "rel/")),
    ("prefix", ("ex: http://example.org/ns#", "ex: http://other.example/ EX: http://x/", "bad", "ex:")),
    ("xmlns:ex", ("http://xmlns.example/",)),
    ("lang", ("en", "", "FR")),
    ("xml:lang", ("de",)),
    ("content", ("c", "")),
    ("datetime", ("2020-01-02", "12:30", "P3D", "soon")),
    ("role", ("navigation", "ex:r note")),
    ("id", ("i1", "i2")),
)


def _start(rng: random.Random) -> str:
    tag = rng.choice(_TAGS)
    attrs = []
    for _ in range(rng.randrange(4)):
        name, values = rng.choice(_ATTRS)
        attrs.append(f' {name}="{rng.choice(values)}"')
    return f"<{tag}{''.join(attrs)}{'/' if rng.random() < 0.1 else ''}>"


def _soup(seed: int, pieces: int) -> str:
    rng = random.Random(seed)
    out = []
    for _ in range(pieces):
        r = rng.random()
        if r < 0.5:
            out.append(_start(rng))
        elif r < 0.75:
            out.append(f"</{rng.choice(_TAGS)}>")
        else:
            out.append(rng.choice(("text", " ", "2021-05-06", "&amp;", "caf\u00e9", "<!-- c -->", "<b>x</b>")))
    return "".join(out)


def documents() -> st.SearchStrategy[tuple[bytes, int]]:
    """``(document, chunking seed)``."""
    return st.tuples(
        st.builds(lambda s, n: _soup(s, n).encode("utf-8"), st.integers(0, 2**32), st.integers(1, 120)),
        st.integers(0, 2**16),
    )


def _run(chunks: list[str] | list[bytes]) -> tuple[list[object], list[str]]:
    triples, notes, consumer = stream_triples(chunks)
    if consumer.held():
        raise Finding("rdfa-held", f"{consumer.held()} objects held after the end", "rdfa-held", b"")
    return list(triples), notes


def _chunks(data: S, seed: int) -> list[S]:
    rng = random.Random(seed)
    cuts: list[int] = (
        sorted(rng.sample(range(1, len(data)), min(len(data) - 1, rng.randrange(1, 12)))) if len(data) > 1 else []
    )
    return [data[a:b] for a, b in itertools.pairwise([0, *cuts, len(data)])]


def check(case: tuple[bytes, int]) -> None:
    data, seed = case
    try:
        want = _run([data])
        chunkings: list[tuple[str, list[bytes] | list[str]]] = [
            (f"random({seed})", _chunks(data, seed)),
            ("halves", [data[: len(data) // 2], data[len(data) // 2 :]]),
        ]
        if len(data) <= 1500:
            chunkings.append(("one-by-one", [data[i : i + 1] for i in range(len(data))]))
        for label, chunks in chunkings:
            got = _run(chunks)
            if got != want:
                raise Finding(
                    "rdfa-chunking", f"{label}: triples differ from the whole document", "rdfa-chunking", data
                )
        text = data.decode("utf-8")
        want_text = _run([text])
        if _run(_chunks(text, seed)) != want_text:
            raise Finding("rdfa-chunking-str", "str chunks differ from the whole text", "rdfa-chunking-str", data)
    except Finding as f:
        f.data = data
        raise
    except Exception as exc:  # (any exception is a finding)
        raise Finding("rdfa-crash", repr(exc)[:300], f"rdfa-crash:{type(exc).__name__}", data) from exc


def replay(case: tuple[bytes, int], data: bytes) -> tuple[bytes, int]:
    return data, case[1]
