"""The inflate-ahead thread of a ``.warc.gz`` (:class:`stream_mf2.warc.framing.Input`,
``inflate_ahead``): same entries as inflating in the reading thread, on whole and damaged
archives, with the default limits and with limits small enough that the thread waits for
room, gives members up and leaves large ones to the reading thread; no thread left behind
however iteration ends; off on a non-seekable stream.
"""

from __future__ import annotations

import base64
import gzip
import io
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stream_mf2 import SourceError, WarcItem, iter_warc
from stream_mf2.warc.entries import WarcSummary
from stream_mf2.warc.framing import READ_SIZE, Input, Member
from stream_mf2.warc.walker import Walker
from tests.fuzz import warcs
from tests.support.chunking import Pipe

THREAD = "stream-mf2-inflate-ahead"
#: Limits that make the thread wait for room and give members up at every step.
TINY = (1024, 600)


def _threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == THREAD]


def _walk(data: bytes, ahead: bool, limits: tuple[int, int] | None = None) -> tuple[list[Any], WarcSummary]:
    summary = WarcSummary()
    kw: dict[str, Any] = {"inflate_ahead": ahead}
    if limits is not None:
        kw["inflate_ahead_limits"] = limits
    entries = list(Walker(io.BytesIO(data), summary, {}, **kw).walk())
    assert not _threads()
    return entries, summary


_FILLER = base64.b64encode(random.Random(7).randbytes(300_000))


def _archive(n: int, big: int = 0) -> bytes:
    """``n`` gzip members of HTML responses with an h-entry each; ``big``: bytes of text that
    compresses little in every third page (members larger than :data:`TINY`'s limits)."""
    recs = [warcs.Record("warcinfo", "", b"software: test\r\n", "application/warc-fields")]
    for i in range(n):
        filler = b"<p>" + _FILLER[i * 997 % 1000 :][:big] + b"</p>" if big and i % 3 == 0 else b""
        page = b'<div class="h-entry"><a class="p-name u-url" href="/e%d">entry %d</a></div>' % (i, i) + filler
        http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + page
        recs.append(warcs.Record("response", f"http://a.example/r{i}", http, "application/http; msgtype=response", page))
    return b"".join(warcs.write(recs, True))


@pytest.mark.parametrize("limits", [None, TINY, (64, 1)])
def test_same_entries_as_inflating_in_the_reading_thread(limits: tuple[int, int] | None) -> None:
    data = _archive(40, big=3000)
    want, want_summary = _walk(data, False)
    got, got_summary = _walk(data, True, limits)
    assert got == want
    assert got_summary == want_summary
    assert sum(isinstance(e, WarcItem) for e in got) == 40


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_damaged_archives_give_the_same_entries(data: st.DataObject) -> None:
    recs = data.draw(warcs.records())
    parts = warcs.write(recs, True)
    ops = data.draw(warcs.damages([len(p) for p in parts]))
    damaged, before, _ = warcs.apply(parts, ops)
    archive = b"".join(b + d for b, d in zip(before, damaged, strict=True))
    want = _walk(archive, False)
    for limits in (None, TINY):
        assert _walk(archive, True, limits) == want


def test_members_come_from_the_thread(tmp_path: Path) -> None:
    data = _archive(5)
    path = tmp_path / "a.warc.gz"
    path.write_bytes(data)
    with path.open("rb") as f:
        inp = Input(f, WarcSummary(), inflate_ahead=True)
        got = inp.ahead_member()
        assert got is not None
        end, pieces = got
        assert b"".join(pieces) == gzip.GzipFile(fileobj=io.BytesIO(data[:end])).read()
        inp.close_ahead()
        assert not _threads()


def test_a_member_reads_as_inflated_here(tmp_path: Path) -> None:
    data = _archive(6, big=2000)
    path = tmp_path / "a.warc.gz"
    path.write_bytes(data)
    outs: list[list[bytes]] = []
    ends: list[list[int]] = []
    for ahead in (False, True):
        with path.open("rb") as f:
            inp = Input(f, WarcSummary(), inflate_ahead=ahead)
            out, at = [], []
            while inp.peek(1):
                m = Member(inp)
                # reads of every size, as the walker's line and block reads make them
                size = 1
                while True:
                    piece = m.read(size)
                    if not piece:
                        break
                    out.append(piece)
                    size = size * 7 % 5000 + 1
                at.append(inp.tell())
            inp.close_ahead()
            outs.append(out)
            ends.append(at)
    assert outs[0] == outs[1]
    assert ends[0] == ends[1]
    assert ends[1][-1] == len(data)


def test_off_on_a_non_seekable_stream() -> None:
    data = _archive(3)
    inp = Input(Pipe(data, 1000), WarcSummary(), inflate_ahead=True)
    assert inp.ahead_member() is None
    assert not _threads()
    assert len([e for e in iter_warc(Pipe(data, 1000)) if isinstance(e, WarcItem)]) == 3


def _blocked_walk() -> Iterator[Any]:
    """A walk in its first member whose thread is alive: an archive of several reads, and
    limits so small that the thread waits for room to hand over its second read until it is
    closed (the walk is still in its first)."""
    walker = Walker(io.BytesIO(_archive(150, big=10_000)), WarcSummary(), {}, inflate_ahead=True,
                    inflate_ahead_limits=TINY)  # fmt: skip
    it = walker.walk()
    next(it)
    next(it)
    assert _threads()
    return it


def test_no_thread_left_when_iteration_stops_early(tmp_path: Path) -> None:
    it = _blocked_walk()
    it.close()  # type: ignore[attr-defined]
    assert not _threads()
    path = tmp_path / "a.warc.gz"
    path.write_bytes(_archive(30))
    entries = iter(iter_warc(path))
    next(entries)
    entries.close()  # type: ignore[attr-defined]
    assert not _threads()


class _Boom(Exception):
    pass


def test_no_thread_left_when_the_consumer_raises(tmp_path: Path) -> None:
    it = _blocked_walk()
    with pytest.raises(_Boom):
        for _ in it:
            raise _Boom
    del it  # (what a caller's frame holds: dropped, the walk is closed and the thread stopped)
    assert not _threads()
    path = tmp_path / "a.warc.gz"
    path.write_bytes(_archive(30))
    with pytest.raises(_Boom):
        for _ in iter_warc(path):
            raise _Boom
    assert not _threads()


class _FailingFile(io.BytesIO):
    """A seekable file whose reads fail past ``at``."""

    def __init__(self, data: bytes, at: int) -> None:
        super().__init__(data)
        self._at = at

    def read(self, n: int | None = -1) -> bytes:
        if self.tell() >= self._at:
            raise OSError("disk on fire")
        return super().read(n if n is None or n < 0 else min(n, self._at - self.tell()))


@pytest.mark.parametrize("ahead", [False, True])
def test_a_read_error_is_a_source_error(ahead: bool) -> None:
    data = _archive(90, big=10_000)
    got: list[Any] = []
    with pytest.raises(SourceError, match="disk on fire"):
        for e in iter_warc(_FailingFile(data, len(data) // 2), inflate_ahead=ahead):
            got.append(e)
    assert not _threads()
    assert 20 < sum(isinstance(e, WarcItem) for e in got) < 70


def test_the_file_is_left_where_reading_stopped() -> None:
    # about 4 KB a member: the thread reads far ahead of three units
    data = _archive(150, big=10_000)
    f = io.BytesIO(data)
    walker = Walker(f, WarcSummary(), {}, inflate_ahead=True)
    it = walker.walk()
    units = 0
    for entry in it:
        units += isinstance(entry, int)
        if units == 4:
            break
    it.close()
    assert not _threads()
    assert walker.inp.tell() <= f.tell() <= walker.inp.tell() + 2 * READ_SIZE < len(data)


@pytest.mark.parametrize(("kw", "thread"), [({}, True), ({"max_units": 50}, False), ({"index_only": True}, False)])
def test_off_for_a_run_of_units_and_for_an_index(kw: dict[str, Any], thread: bool) -> None:
    # (an archive of several reads, and limits so small that a thread, once started, waits for
    # room to hand over its second read until it is closed: the walk is still in its first)
    walker = Walker(io.BytesIO(_archive(150, big=10_000)), WarcSummary(), {}, inflate_ahead=True,
                    inflate_ahead_limits=TINY, **kw)  # fmt: skip
    it = walker.walk()
    assert next(it) == 0  # the first unit starts
    next(it)  # its member is being read
    assert bool(_threads()) is thread
    it.close()
    assert not _threads()


def test_a_file_closed_under_the_walk(tmp_path: Path) -> None:
    path = tmp_path / "a.warc.gz"
    path.write_bytes(_archive(150, big=10_000))
    with path.open("rb") as f:
        walker = Walker(f, WarcSummary(), {}, inflate_ahead=True, inflate_ahead_limits=TINY)
        it = walker.walk()
        next(it)
        next(it)
        assert _threads()
    # the thread waits for room or reads a closed file: either way it ends quietly, and the
    # walk's end does not fail on the closed file
    with pytest.raises(ValueError):
        list(it)
    assert not _threads()
