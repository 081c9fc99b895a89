"""The microdata items are the same however the input is split, ``str`` or ``bytes``.

Each page runs whole, one character (and one byte) at a time, 2-way split at
spread positions, in sampled 3-way splits and in random chunkings (the
seeds are in the labels), in both item forms.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.microdata.drive import microdata
from tests.microdata.pages import PAGES
from tests.support.chunking import RANDOM_RUNS, SEED, S, one_by_one, random_chunks, three_way

#: 2-way splits per page (spread over it; every position for short pages).
TWO_WAY = 60


def splits(data: S) -> Iterator[tuple[str, list[S]]]:
    yield "one-by-one", one_by_one(data)
    step = max(1, len(data) // TWO_WAY)
    for i in range(1, len(data), step):
        yield f"split@{i}", [data[:i], data[i:]]
    yield from three_way(data, limit=15)
    for k in range(RANDOM_RUNS):
        yield f"random(seed={SEED + k})", random_chunks(data, SEED + k)


@pytest.mark.parametrize("form", ["extruct", "whatwg"])
@pytest.mark.parametrize("kind", ["str", "bytes"])
@pytest.mark.parametrize("name", sorted(PAGES))
def test_items_do_not_depend_on_the_chunking(name: str, kind: str, form: str) -> None:
    text = PAGES[name]
    data: str | bytes = text if kind == "str" else text.encode()
    whole = microdata(data, microdata_form=form)
    expected = [(e.item, e.start, e.end) for e in whole.events]
    assert expected
    cases: list[tuple[str, list[str]]] | list[tuple[str, list[bytes]]] = (
        list(splits(text)) if kind == "str" else list(splits(text.encode()))
    )
    for label, chunks in cases:
        run = microdata(chunks, microdata_form=form)
        assert [(e.item, e.start, e.end) for e in run.events] == expected, label
        assert run.notes == whole.notes, label


def test_str_and_bytes_agree() -> None:
    for name, text in PAGES.items():
        assert [e.item for e in microdata(text).events] == [e.item for e in microdata(text.encode()).events], name
