"""Fixtures shared by the tests of ``stream_mf2.core``."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest


@pytest.fixture
def no_gc() -> Iterator[None]:
    """The cyclic collector off for the test: what ``gc.collect()`` then finds, a parse left."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect()
