"""html5lib-tests ``encoding/``: the encoding sniffing algorithm, in every chunking.

Each ``#data`` block (read as bytes) must give its ``#encoding``. The files are read in
binary mode and one trailing newline is dropped from the data, as the format says.
Every case is fed, chunk by chunk, to the real :class:`stream_mf2.Parser`, and
``parser.encoding`` is checked after ``close()``.

Most cases are decided by the decoder alone (BOM, prescan, default). Seven cases in
``tests1.dat`` (#47-#53) put the ``<meta>`` after the 1024-byte prescan window: the
tree builder finds it and the parser *changes the encoding*. In #53 non-ASCII bytes
come before that ``<meta>``; the spec then parses the document again from the start
with the new encoding, which the parser does because it has produced nothing yet and
the tag ends within its re-parse budget (``max_reparse_bytes``). Without that budget
it keeps the encoding and records a note (checked separately).

``scripted/tests1.dat`` builds its ``<meta>`` with ``document.write``; stream_mf2
parses with scripting disabled, so it is skipped.

``chardet/test_big5.txt`` is a Big5 text without a declaration (html5lib used it for
statistical detection, which this decoder does not do); it is used as a multi-byte
decoding test: labelled ``big5`` by the transport layer, it must decode without
U+FFFD and identically in every chunking.
"""

from __future__ import annotations

import codecs
import functools
from collections.abc import Iterator
from pathlib import Path

import pytest

import stream_mf2
from stream_mf2.html.decode import Decoder, lookup_encoding, prescan
from tests.support.chunking import RANDOM_RUNS, SEED, chunkings, one_by_one, random_chunks, three_way, two_way, whole
from tests.support.suites import require_suite, suite_dir

SUITE = "html5lib-tests/encoding"
FILES = ("tests1.dat", "tests2.dat", "test-yahoo-jp.dat", "scripted/tests1.dat")
MODES = ("whole", "one-by-one", "splits", "random")


def parse_dat(raw: bytes) -> list[tuple[bytes, str]]:
    """``(data, encoding)`` pairs of an encoding ``.dat`` file, as bytes."""
    cases: list[tuple[bytes, str]] = []
    for block in raw.split(b"#data\n")[1:]:
        data, sep, rest = block.rpartition(b"\n#encoding\n")
        assert sep, block[:80]
        cases.append((data, rest.split(b"\n", 1)[0].strip().decode("ascii")))
    return cases


def _case_ids() -> Iterator[tuple[str, int]]:
    root = suite_dir(SUITE)
    if root is None:
        yield ("missing", 0)
        return
    for name in FILES:
        for i in range(len(parse_dat((root / name).read_bytes()))):
            yield (name, i)


CASES = list(_case_ids())


@functools.lru_cache(maxsize=8)
def _three_way(data: bytes) -> list[tuple[str, list[bytes]]]:
    # Generating the 3-way sample is the costly part for the 8 KB inputs: do it once.
    return list(three_way(data))


def _chunkings_for(data: bytes, mode: str) -> Iterator[tuple[str, list[bytes]]]:
    """The chunkings of :func:`tests.support.chunking.chunkings`, one family per test."""
    if mode == "whole":
        yield "whole", whole(data)
    elif mode == "one-by-one":
        yield "one-by-one", one_by_one(data)
    elif mode == "splits":
        yield from two_way(data)
        yield from _three_way(data)
    else:
        for k in range(RANDOM_RUNS):
            yield f"random(seed={SEED + k})", random_chunks(data, SEED + k)


#: The case whose late ``<meta>`` follows non-ASCII bytes: needs a re-parse.
REPARSE_CASE = ("tests1.dat", 53)
#: Every 2-way split of the re-parse case parses it again from the start: ``slow``.
REPARSE_MODES = [pytest.param(m, marks=pytest.mark.slow) if m == "splits" else m for m in MODES]
SLOW_CASE = (*REPARSE_CASE, "splits")


def _parse(chunks: list[bytes], detect_utf8: bool, **options: int) -> stream_mf2.Parser:
    parser = stream_mf2.Parser(detect_utf8=detect_utf8, **options)
    for chunk in chunks:
        parser.feed(chunk)
    parser.close()
    return parser


@pytest.mark.parametrize("detect_utf8", [False, True], ids=["spec", "detect-utf8"])
@pytest.mark.parametrize(
    ("file", "index", "mode"),
    [
        pytest.param(f, i, mode, id=f"{f}#{i}-{mode}", marks=[pytest.mark.slow] if (f, i, mode) == SLOW_CASE else [])
        for f, i in CASES
        for mode in MODES
    ],
)
def test_encoding(file: str, index: int, mode: str, detect_utf8: bool) -> None:
    root = require_suite(SUITE)
    if file.startswith("scripted/"):
        pytest.skip("needs script execution (document.write); stream_mf2 parses with scripting disabled")
    data, expected = parse_dat((root / file).read_bytes())[index]
    want = lookup_encoding(expected)
    assert want is not None, expected
    for label, chunks in _chunkings_for(data, mode):
        parser = _parse(chunks, detect_utf8)
        assert parser.encoding == want, f"{label}: got {parser.encoding} ({parser.encoding_confidence}), want {want}"


def _reparse_case() -> tuple[bytes, str, int]:
    """#53's data, the encoding its late ``<meta>`` declares, and the byte offset of that tag's end."""
    root = require_suite(SUITE)
    file, index = REPARSE_CASE
    data, expected = parse_dat((root / file).read_bytes())[index]
    declared, after = prescan(data, 0, len(data))
    assert declared is not None and declared == lookup_encoding(expected) and after > 1024
    assert not data[:after].isascii()
    return data, declared, after


@pytest.mark.parametrize("mode", REPARSE_MODES)
def test_reparse_case_is_parsed_again_with_a_note(mode: str) -> None:
    """#53: the same outcome in every chunking: the declared encoding, certain, and a note."""
    data, declared, after = _reparse_case()
    for detect_utf8 in (False, True):
        for label, chunks in _chunkings_for(data, mode):
            parser = _parse(chunks, detect_utf8)
            assert (parser.encoding, parser.encoding_confidence) == (declared, "certain"), label
            assert len(parser.errors) == 1, (label, parser.errors)
            assert declared in parser.errors[0] and "parsed again" in parser.errors[0], (label, parser.errors)
    # The smallest budget that still holds the whole tag.
    for label, chunks in _chunkings_for(data, mode):
        parser = _parse(chunks, detect_utf8=False, max_reparse_bytes=after)
        assert parser.encoding == declared, label


@pytest.mark.parametrize("mode", REPARSE_MODES)
def test_reparse_case_without_budget_keeps_encoding_with_a_note(mode: str) -> None:
    """#53 with no re-parse budget, or one that ends inside the tag: the prescan's choice, certain, a note."""
    data, declared, after = _reparse_case()
    for budget in (0, after - 1):
        for label, chunks in _chunkings_for(data, mode):
            parser = _parse(chunks, detect_utf8=False, max_reparse_bytes=budget)
            assert (parser.encoding, parser.encoding_confidence) == ("windows-1252", "certain"), (budget, label)
            assert len(parser.errors) == 1, (budget, label, parser.errors)
            assert declared in parser.errors[0] and "re-parse" in parser.errors[0], (budget, label, parser.errors)
            assert "max_reparse_bytes" in parser.errors[0], (budget, label, parser.errors)


def test_case_count() -> None:
    root = require_suite(SUITE)
    counts = {name: len(parse_dat((root / name).read_bytes())) for name in FILES}
    assert counts == {"tests1.dat": 59, "tests2.dat": 22, "test-yahoo-jp.dat": 1, "scripted/tests1.dat": 1}


def test_big5_text_in_every_chunking() -> None:
    root = require_suite(SUITE)
    raw = Path(root / "chardet" / "test_big5.txt").read_bytes()
    # Oracle: the whole file decoded in one call by the codec the label maps to.
    reference = codecs.decode(raw, "big5hkscs")
    assert "\ufffd" not in reference
    for label, chunks in chunkings(raw, splits=True):
        d = Decoder("big5")
        text = "".join(d.feed(c) for c in chunks) + d.close()
        assert (d.encoding, d.confidence, d.source) == ("Big5", "certain", "transport"), label
        assert text == reference, label


def test_big5_text_without_label_is_not_utf8() -> None:
    root = require_suite(SUITE)
    raw = Path(root / "chardet" / "test_big5.txt").read_bytes()
    d = Decoder()
    d.feed(raw)
    d.close()
    # No declaration, not valid UTF-8: the configured default, tentatively.
    assert (d.encoding, d.confidence, d.source) == ("windows-1252", "tentative", "default")
