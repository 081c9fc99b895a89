"""The official microformats-v1 (classic, backcompat) and microformats-mixed suites.

Each case runs through both callers of the backcompat hooks and of the
include pattern, and must equal the expected JSON:

* the whole-DOM path (``parse_dom`` over the full tree, ids indexed up front);
* the streaming ``Parser``, fed in the chunkings of :mod:`tests.support.chunking`
  (whole, one character at a time, random sizes) plus a bounded sample of 2-
  and 3-way splits, so include targets that arrive after their root and rel=tag
  links cut mid-attribute are covered.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from stream_mf2.html.testing import parse_document
from stream_mf2.mf2 import parse_dom
from tests.support.chunking import chunkings
from tests.support.mf2_suite import Case, base_url, diff, iter_cases
from tests.support.suites import require_suite, suite_dir

SUITES = ("microformats-v1", "microformats-mixed")
#: Bounded number of extra 2-way and 3-way splits per page.
MAX_SPLITS = 12

#: Cases the streaming path cannot get right yet, with the reason.
STREAMING_KNOWN: dict[str, str] = {}


def _cases(known: dict[str, str] | None = None) -> Iterator[Any]:
    root = suite_dir("microformats-tests")
    if root is None:
        yield pytest.param(None, id="suite-missing")
        return
    for case in iter_cases(root, SUITES):
        reason = (known or {}).get(case.id)
        marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
        yield pytest.param(case, id=case.id, marks=marks)


def _expected(case: Case) -> dict[str, Any]:
    data: dict[str, Any] = orjson.loads(case.expected.read_bytes())
    return {k: data.get(k, {} if k != "items" else []) for k in ("items", "rels", "rel-urls")}


def _splits(text: str) -> Iterator[tuple[str, list[str]]]:
    n = len(text)
    step = max(1, n // MAX_SPLITS)
    for i in range(1, n, step):
        yield f"split@{i}", [text[:i], text[i:]]
        j = min(n - 1, i + max(1, step // 2))
        if j > i:
            yield f"split@{i},{j}", [text[:i], text[i:j], text[j:]]


def _stream(chunks: list[str], url: str) -> dict[str, Any]:
    from stream_mf2.core.parser import Parser

    parser = Parser(url)
    items: list[Any] = []
    for chunk in chunks:
        items.extend(parser.feed(chunk))
    items.extend(parser.close())
    return {"items": items, "rels": parser.rels, "rel-urls": parser.rel_urls}


@pytest.mark.parametrize("case", list(_cases()))
def test_whole_dom(case: Case | None) -> None:
    require_suite("microformats-tests")
    assert case is not None
    base = base_url(case.suite)
    document = parse_document(case.html.read_text(encoding="utf-8"))
    problems = diff(_expected(case), parse_dom(document, base), base=base)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("case", list(_cases(STREAMING_KNOWN)))
def test_streaming_chunkings(case: Case | None) -> None:
    require_suite("microformats-tests")
    assert case is not None
    base = base_url(case.suite)
    text = case.html.read_text(encoding="utf-8")
    expected = _expected(case)
    tried = 0
    for label, chunks in [*chunkings(text, splits=False), *_splits(text)]:
        problems = diff(expected, _stream(chunks, base), base=base)
        assert not problems, f"chunking {label}:\n" + "\n".join(problems)
        tried += 1
    assert tried >= 5


def test_suite_counts() -> None:
    """The suites hold the cases this file is meant to cover (39 + 4)."""
    root = require_suite("microformats-tests")
    counts = {s: sum(1 for _ in iter_cases(Path(root), (s,))) for s in SUITES}
    assert counts == {"microformats-v1": 39, "microformats-mixed": 4}
