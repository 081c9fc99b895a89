"""The pre-filter's fast scan finds every match of its precise test (``ROOTS``), and nothing else.

:func:`stream_mf2.warc.prefilter.scan` looks for ``ROOTS`` only where a cheap needle is
found: the class-mapped "boundary, first letter, second letter" needle, ``adr`` in the
raw bytes, the start of the body, a NUL or ESC byte. So that no root name slips between
the needles, the answer on a whole body must be exactly "``ROOTS`` matches somewhere":
checked here for every root start in every boundary context (around the search blocks
too), and on random bodies built from the pieces the needles and their checks tell
apart (``" href="``, ``"height"``, ``"&#"``, ``"adr"``, ...).
"""

from __future__ import annotations

import random

import pytest

from stream_mf2.mf2.backcompat_data import ROOT_CLASSES
from stream_mf2.warc.prefilter import BLOCK, ROOTS, Prefilter, may_hold_items

#: Every way a match of ROOTS can start: each classic root, h-* names (with a digit, a
#: vendor prefix, the ``&fjlig;`` reference after ``h-``, a long name) and the numeric
#: references that make "maybe" (decimal, hex, leading zeros, without ``;``).
STARTS = [
    *sorted(ROOT_CLASSES),
    "h-entry",
    "h-a",
    "h-x-y",
    "h-a1-b",
    "h-&fjlig;ord",
    "h-" + "a" * 140,
    "&#104;",
    "&#104",
    "&#x68;",
    "&#X68",
    "&#0000104;",
    "&#32;",
    "&#9",
    "&#45;",
    "&#000000000;",
]
#: What may come before a class token: each byte of the look-behind, the two named
#: references that decode to whitespace, and the start of the body ("").
BEFORE = ["\t", "\n", "\f", "\r", " ", '"', "'", "=", "&Tab;", "&NewLine;", ""]
#: What may come after one (and the end of the body, "").
AFTER = ["\t", "\n", "\f", "\r", " ", '"', "'", "&amp;", ">", ""]
#: Text before a start that the needles' checks must see through: a link, words that
#: start like root names ("height", "header", "address", "ads"), a colour.
NOISE = [
    "",
    '<a href="/x">',
    ' href="/y" ',
    "height=1 ",
    'class="header" ',
    "address ",
    ";ads.push(1);",
    "#eee ",
    "&#8217;",
    "h-",
]


def _reference(body: bytes) -> bool:
    """The precise test on the whole body: a match of ROOTS anywhere."""
    return ROOTS.search(body) is not None


@pytest.mark.parametrize("start", STARTS)
def test_every_start_in_every_context_is_found(start: str) -> None:
    for before in BEFORE:
        for after in AFTER:
            for noise in NOISE:
                if not before and noise:
                    continue  # (the start of the body has nothing before it)
                body = f"{noise}{before}{start}{after}".encode()
                assert may_hold_items(body), body
                assert _reference(body), body


@pytest.mark.parametrize("start", ["adr", "vcard", "h-entry", "hentry", "geo", "&#104;"])
@pytest.mark.parametrize("at", [-3, -2, -1, 0, 1, 2])
def test_a_start_around_a_search_block_is_found(start: str, at: int) -> None:
    """The boundary byte, or the name, on either side of the end of a search block."""
    filler = b"<p>plain text, height header address</p>\n" * (2 * BLOCK // 40)
    for where in (BLOCK, 2 * BLOCK):
        cut = where + at
        data = filler[:cut] + b" " + start.encode() + b" " + filler[cut:]
        for step in (1, 4096, BLOCK, 3 * BLOCK):
            pf = Prefilter(max_bytes=None)
            answer = False
            for i in range(0, len(data), step):
                if pf.feed(data[i : i + step]):
                    answer = True
                    break
            assert answer or pf.finish(), (start, at, where, step)


#: Pieces the needles, the raw ``adr`` search and the set look-up tell apart.
PIECES = [
    " ", "\t", "\n", '"', "'", "=", ";", "&", "#", "-", ">", "<", "a", "d", "r", "e", "h", "v", "g", "c", "n",
    "f", "o", "x", "X", "0", "1", "9", "href=", " href=", "hre", "hea", "hei", "adr", "ad", "ads", "h-", "he",
    "hen", "vc", "ve", "ge", "geo", "&#", "&#x", "&#1", "&Tab;", "&NewLine;", "vcard", "hentry", "hfeed",
    "hnews", "hproduct", "hrecipe", "hresume", "hreview", "hreview-aggregate", "vevent", "entry", "card",
    "\x00", "\x1b", "&fjlig;",
]  # fmt: skip


def test_the_scan_is_the_precise_test_on_random_bodies() -> None:
    """On whole bodies, in random pieces and small blocks: maybe exactly when ROOTS matches."""
    rng = random.Random(26)
    maybe = skip = 0
    for _ in range(4000):
        body = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 30))).encode()
        want = _reference(body)
        assert may_hold_items(body) == want, body
        pf = Prefilter(max_bytes=None, block=rng.choice((1, 3, 17, 64)))
        pos = 0
        while pos < len(body):
            n = rng.randint(1, 9)
            pf.feed(body[pos : pos + n])
            pos += n
        assert pf.finish() == want, body
        maybe += want
        skip += not want
    assert maybe > 500 and skip > 500  # (both answers were tried)
