"""Every name the 0.1 README documented still imports from its documented path.

0.2.0 moved modules into one folder per pipeline stage; the documented module paths
that moved keep thin re-exports, which must be the very same objects as the new ones.
"""

from __future__ import annotations

import importlib

import pytest

import stream_mf2

MOVED = [
    ("stream_mf2.warc_run", "run", "stream_mf2.warc.runner"),
    ("stream_mf2.warc_run", "process_input", "stream_mf2.warc.runner"),
    ("stream_mf2.warc_run", "Options", "stream_mf2.warc.runner"),
    ("stream_mf2.warc_run", "SCHEMA_VERSION", "stream_mf2.warc.schema"),
    ("stream_mf2._dask", "run_warc_dask", "stream_mf2.warc.dask"),
    ("stream_mf2.warc", "iter_warc", "stream_mf2.warc.reader"),
    ("stream_mf2.warc", "iter_warc_parallel", "stream_mf2.warc.parallel"),
    ("stream_mf2.warc", "WarcRecord", "stream_mf2.warc.entries"),
]


@pytest.mark.parametrize(("old", "name", "new"), MOVED)
def test_moved_names_are_the_same_objects(old: str, name: str, new: str) -> None:
    assert getattr(importlib.import_module(old), name) is getattr(importlib.import_module(new), name)


@pytest.mark.parametrize("name", stream_mf2.__all__)
def test_every_public_name_imports(name: str) -> None:
    assert getattr(stream_mf2, name) is not None


def test_documented_modules_import() -> None:
    for module in ("stream_mf2.events", "stream_mf2.errors", "stream_mf2.mf2py", "stream_mf2.wpt", "stream_mf2.warc"):
        importlib.import_module(module)
    assert stream_mf2.Event is importlib.import_module("stream_mf2.core.events").Event
