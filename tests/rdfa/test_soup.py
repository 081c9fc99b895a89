"""A fixed sample of the RDFa fuzz target's tag soup (``tests/fuzz/rdfa.py``), in every run.

Soup dense with RDFa attributes, misnested tags, tables, templates, late ``<html>``/``<body>``
attributes: no exception, the same triples in every chunking, nothing held at the end.
The long runs: ``python -m tests.fuzz --targets rdfa``.
"""

from __future__ import annotations

import pytest

from tests.fuzz import rdfa


@pytest.mark.parametrize("seed", range(0, 400, 5))
def test_soup(seed: int) -> None:
    rdfa.check((rdfa._soup(seed, 1 + seed % 120).encode("utf-8"), seed))
