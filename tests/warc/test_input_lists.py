"""``--input-list`` files are read as a stream, bounded, and their lines are names.

A small ``.gz`` list that decompresses to a huge file (a bomb of blank lines or of one
endless line) is read in bounded memory: blank lines are skipped as they stream by,
an endless line is refused. Lines are names: ``*`` in one is not a glob.
"""

from __future__ import annotations

import gzip
import tracemalloc
import zlib
from pathlib import Path

import pytest

from stream_mf2.errors import SourceError
from stream_mf2.warc.inputs import MAX_LIST_LINE, expand_inputs


def _gzip_stream(path: Path, chunk: bytes, times: int, tail: bytes = b"") -> None:
    z = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    with open(path, "wb") as f:
        for _ in range(times):
            f.write(z.compress(chunk))
        f.write(z.compress(tail) + z.flush())


def test_names_with_comments_prefix_and_gzip(tmp_path: Path) -> None:
    lst = tmp_path / "warc.paths.gz"
    lst.write_bytes(gzip.compress(b"# a comment\ncrawl-data/a.warc.gz\n\n  crawl-data/b.warc.gz  \n/abs/c.warc.gz\n"))
    got = expand_inputs([], [str(lst)], prefix="https://data.example/")
    assert got == [
        "https://data.example/crawl-data/a.warc.gz",
        "https://data.example/crawl-data/b.warc.gz",
        "/abs/c.warc.gz",
    ]


def test_list_lines_are_names_not_globs(tmp_path: Path) -> None:
    (tmp_path / "x1.warc").write_bytes(b"")
    (tmp_path / "x2.warc").write_bytes(b"")
    lst = tmp_path / "list.txt"
    lst.write_text(f"{tmp_path}/x*.warc\n")
    assert expand_inputs([], [str(lst)]) == [f"{tmp_path}/x*.warc"]
    # on the command line a glob is still expanded
    assert expand_inputs([f"{tmp_path}/x*.warc"]) == [f"{tmp_path}/x1.warc", f"{tmp_path}/x2.warc"]


def test_blank_line_bomb_streams_by(tmp_path: Path) -> None:
    # 64 MiB of newlines in well under 1 MiB of gzip: read block by block, nothing kept
    lst = tmp_path / "bomb.gz"
    _gzip_stream(lst, b"\n" * (1 << 20), 64, tail=b"a.warc.gz\n")
    assert lst.stat().st_size < (1 << 20)
    tracemalloc.start()
    try:
        assert expand_inputs([], [str(lst)]) == ["a.warc.gz"]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 << 20  # (it held the whole list before: 64 MiB here)


def test_endless_line_is_refused(tmp_path: Path) -> None:
    lst = tmp_path / "line.gz"
    _gzip_stream(lst, b"a" * (1 << 20), 64)
    with pytest.raises(SourceError, match=f"a line longer than {MAX_LIST_LINE} bytes"):
        expand_inputs([], [str(lst)])


def test_damaged_gzip_list_is_a_source_error(tmp_path: Path) -> None:
    lst = tmp_path / "bad.gz"
    lst.write_bytes(gzip.compress(b"a.warc.gz\n" * 100)[:-20])
    with pytest.raises(SourceError, match="cannot read the list"):
        expand_inputs([], [str(lst)])
