"""``max_token_chars`` counts only what one token really spans (defects found by fuzzing).

Not the rest of a chunk left unconsumed after the tokenizer paused at a ``<meta charset>``
(the parser may switch the decoder there), and not a ``<`` that starts no tag; a real long
tag still raises :class:`~stream_mf2.LimitExceeded`. Each reproduction runs whole and in
every chunking.
"""

from __future__ import annotations

from typing import Any

import pytest

import stream_mf2
from tests.support.chunking import chunkings
from tests.support.streamed import stream_events


def _parse_chunks(chunks: list[bytes] | list[str], url: str | None = None, **options: Any) -> dict[str, Any]:
    return stream_events(chunks, url, **options)[0]


META_DOCS = {
    # The tokenizer pauses after the <meta> (the parser may switch the decoder):
    # what is left of the chunk is not lookahead.
    "meta-first": b"<meta charset=utf-8><p class=h-card>" + b"x" * 3000 + b"</p>",
    "meta-late": b"<p>" + b"a" * 1500 + b"<meta charset=utf-8><p class=h-card>" + b"x" * 3000 + b"</p>",
    "meta-switch": b"<p>" + b"a" * 1500 + b"<meta charset=windows-1251><p class=h-card>\xe0" + b"x" * 3000 + b"</p>",
}


@pytest.mark.parametrize("name", sorted(META_DOCS))
def test_meta_pause_does_not_count_the_rest_of_the_chunk(name: str) -> None:
    data = META_DOCS[name]
    expected = stream_mf2.parse(data)  # default limit: nothing near it
    assert len(expected["items"]) == 1
    for label, chunks in chunkings(data, splits=False):
        assert _parse_chunks(chunks, max_token_chars=1000) == expected, label
    # 2-way splits around the tag and inside the long text
    for i in range(1, len(data), 97):
        assert _parse_chunks([data[:i], data[i:]], max_token_chars=1000) == expected, f"split@{i}"


@pytest.mark.parametrize("lead", ["1 <2", "<\xa6", "a < b ", "<p class=h-card>1 <2"])
@pytest.mark.parametrize("limit", [64, 1000, 2047])
def test_lt_that_starts_no_tag_is_not_a_long_token(lead: str, limit: int) -> None:
    doc = lead + "x" * 3000 + "</p>"
    expected = stream_mf2.parse(doc)
    for label, chunks in chunkings(doc, splits=False):
        assert _parse_chunks(chunks, max_token_chars=limit) == expected, label
    for i in range(1, len(doc), 89):
        assert _parse_chunks([doc[:i], doc[i:]], max_token_chars=limit) == expected, f"split@{i}"
        data = doc.encode("utf-8")
        assert _parse_chunks([data[:i], data[i:]], max_token_chars=limit) == expected, f"bytes split@{i}"


def test_a_real_long_tag_still_raises_in_every_chunking() -> None:
    doc = "<p title='" + "y" * 200 + "'>text"
    for label, chunks in chunkings(doc):
        with pytest.raises(stream_mf2.LimitExceeded) as info:
            _parse_chunks(chunks, max_token_chars=100)
        assert info.value.limit == "max_token_chars", label
