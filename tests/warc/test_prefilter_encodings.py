"""Point 1 of the prefilter's argument, on the decoders the parser really uses.

Without NUL and ESC bytes, every encoding the parser can pick is *ASCII-faithful*:
each run of ASCII characters of the decoded text is also a run of the same bytes.
Checked exhaustively on byte pairs (between ASCII context bytes) for the
multi-byte encodings, byte by byte for the single-byte ones, and on random byte
strings fed in random pieces for all of them.
"""

from __future__ import annotations

import random
import re

import pytest
import webencodings

from stream_mf2.html.decode import _make_decoder, lookup_encoding

ENCODINGS = sorted({name for label in webencodings.LABELS if (name := lookup_encoding(label)) is not None})
MULTI_BYTE = ("Big5", "EUC-JP", "EUC-KR", "GBK", "gb18030", "Shift_JIS", "ISO-2022-JP", "UTF-8", "UTF-16BE", "UTF-16LE")
_ASCII_RUN = re.compile(r"[\x00-\x7f]+")
_BYTES = [b for b in range(1, 256) if b != 0x1B]


def _decode(encoding: str, data: bytes, pieces: list[int] | None = None) -> str:
    decoder = _make_decoder(encoding)
    if pieces is None:
        return decoder.decode(data, True)
    out, pos = [], 0
    for n in pieces:
        out.append(decoder.decode(data[pos : pos + n]))
        pos += n
    out.append(decoder.decode(data[pos:], True))
    return "".join(out)


def _faithful(data: bytes, text: str) -> bool:
    return all(run.encode("ascii") in data for run in _ASCII_RUN.findall(text))


def test_every_encoding_is_covered() -> None:
    assert set(MULTI_BYTE) <= set(ENCODINGS)
    assert len(ENCODINGS) == 40  # the Encoding Standard's encodings


@pytest.mark.parametrize("encoding", [e for e in ENCODINGS if e not in MULTI_BYTE])
def test_single_byte_encodings_map_ascii_to_itself_only(encoding: str) -> None:
    for b in _BYTES:
        text = _decode(encoding, bytes([b]))
        if b < 0x80:
            assert text == chr(b) or encoding == "replacement"
        else:
            assert all(ord(c) >= 0x80 for c in text), (encoding, b, text)


@pytest.mark.parametrize("encoding", MULTI_BYTE)
def test_multi_byte_encodings_are_ascii_faithful_on_every_byte_pair(encoding: str) -> None:
    for a in _BYTES:
        if a < 0x80 and encoding not in ("UTF-16BE", "UTF-16LE", "ISO-2022-JP"):
            continue  # an ASCII lead byte is itself in these encodings (checked in the random test)
        for b in _BYTES:
            data = b'"' + bytes((a, b)) + b"h-"
            text = _decode(encoding, data)
            assert _faithful(data, text), (encoding, data, text)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_random_bytes_in_random_pieces_are_ascii_faithful(encoding: str) -> None:
    rng = random.Random(encoding)
    context = list(b"h-vcard \"'=;\t\n&#x0123456789")
    for _ in range(1500):
        data = bytes(
            rng.choice(_BYTES) if rng.random() < 0.5 else rng.choice(context) for _ in range(rng.randint(1, 14))
        )
        cuts = [rng.randint(1, 4) for _ in range(rng.randint(0, 4))]
        text = _decode(encoding, data, cuts)
        assert _faithful(data, text), (encoding, data, text)


def test_utf16_without_nul_decodes_no_ascii() -> None:
    rng = random.Random(16)
    for encoding in ("UTF-16LE", "UTF-16BE"):
        for _ in range(2000):
            data = bytes(rng.choice(_BYTES) for _ in range(rng.randint(2, 20)))
            assert not _ASCII_RUN.search(_decode(encoding, data))
