"""One archive read by several processes (``--workers``): :func:`iter_warc_parallel`.

The parent scans the archive for unit boundaries (gzip members, or records of an
uncompressed file; :class:`~stream_mf2.warc.walker.Walker` with ``index_only``) and
hands runs of consecutive units, at most ``BATCH_UNITS`` units or ``BATCH_BYTES``
bytes each, to worker processes, each of which reads its run with a
:class:`~stream_mf2.warc.reader.WarcReader` as the single-process walk would;
entries come out in archive order.

Workers die with the process that started them: each watches its parent (a pidfd on
Linux, a check every second elsewhere) and exits when it is gone, so a ``--workers``
run that is killed leaves no process behind.
"""

from __future__ import annotations

import os
import select
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Unpack

from stream_mf2.warc.entries import WarcEntry, WarcSummary
from stream_mf2.warc.reader import (
    PARSER_OPTIONS,
    READER_OPTIONS,
    WarcOptions,
    WarcReader,
    check_call,
    check_warc_options,
    open_archive,
)
from stream_mf2.warc.walker import Walker


def _units(path: str | os.PathLike[str]) -> Iterator[tuple[int, bool]]:
    f, _ = open_archive(path)
    with f:
        walker = Walker(f, WarcSummary(), {}, index_only=True)
        for unit in walker.walk():
            if isinstance(unit, int):
                yield unit, bool(walker.gzip)


def _watch_parent(pid: int) -> None:
    """Worker initializer: exit as soon as the process ``pid`` that started the pool is gone.

    Without it a killed parent leaves its workers blocked for ever on a queue nobody
    feeds. The parent is named by pid, not found with ``getppid()``, because with the
    forkserver start method a worker's parent is the server.
    """

    def watch() -> None:
        try:
            fd = os.pidfd_open(pid)
        except (AttributeError, OSError):  # not Linux 5.3+, or the parent is gone already
            fd = None
        if fd is not None:
            select.select([fd], [], [])  # readable once the process has exited
        else:
            while True:
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    break
                except PermissionError:
                    pass
                time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="stream-mf2-parent-watch", daemon=True).start()


def _run_units(
    path: str, offset: int, count: int, gzip: bool, options: dict[str, Any]
) -> tuple[list[WarcEntry], WarcSummary]:
    """Read ``count`` consecutive units from ``offset``, as the single-process walk would."""
    reader = WarcReader(path, start=offset, max_units=count, gzip=gzip, **options)
    entries = list(reader)
    return entries, reader.summary


#: A task for a worker is a run of consecutive units: at most this many ...
BATCH_UNITS = 64
#: ... spanning at most this many bytes of the archive. One task per record would make
#: the per-task cost (a pickled call, an open and a seek) rival the parsing of the small
#: records (requests, redirects, revisits) that make up half of a typical crawl.
BATCH_BYTES = 1 << 20


class ParallelWarcReader:
    """Reads one archive with several processes; entries come out in archive order.

    The parent scans the archive for unit boundaries (gzip members, or records
    of an uncompressed file) and hands runs of consecutive units (``batch_units``,
    ``batch_bytes``) to workers, each of which seeks to its run and reads it as the
    single-process walk would. At most ``4 * workers`` runs are in flight. The
    summary is the sum of the workers' summaries (``bytes_read`` counts the
    workers' reads).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        workers: int,
        *,
        batch_units: int = BATCH_UNITS,
        batch_bytes: int = BATCH_BYTES,
        **options: Any,
    ) -> None:
        check_call(path, options, "iter_warc_parallel", PARSER_OPTIONS | READER_OPTIONS)
        if workers < 1:
            raise ValueError("workers must be at least 1")
        if batch_units < 1:
            raise ValueError("batch_units must be at least 1")
        self.summary = WarcSummary()
        self._path = os.fspath(path)
        self._workers = workers
        self._batch_units = batch_units
        self._batch_bytes = batch_bytes
        self._options = options

    def _batches(self) -> Iterator[tuple[int, int, bool]]:
        """(first offset, unit count, gzip) for each run of consecutive units."""
        first = -1
        count = 0
        gzip = False
        for offset, gz in _units(self._path):
            if count and (count >= self._batch_units or offset - first >= self._batch_bytes):
                yield first, count, gzip
                count = 0
            if not count:
                first, gzip = offset, gz
            count += 1
        if count:
            yield first, count, gzip

    def __iter__(self) -> Iterator[WarcEntry]:
        t0 = time.perf_counter()
        window = 4 * self._workers
        try:
            head = self._head_errors()
            yield from head
            with ProcessPoolExecutor(
                max_workers=self._workers, initializer=_watch_parent, initargs=(os.getpid(),)
            ) as pool:
                pending: list[Future[tuple[list[WarcEntry], WarcSummary]]] = []
                for offset, count, gz in self._batches():
                    pending.append(pool.submit(_run_units, self._path, offset, count, gz, self._options))
                    if len(pending) >= window:
                        yield from self._collect(pending.pop(0))
                while pending:
                    yield from self._collect(pending.pop(0))
        finally:
            self.summary.seconds += time.perf_counter() - t0

    def _head_errors(self) -> list[WarcEntry]:
        """The error for a damaged head of the file, which no unit covers."""
        reader = WarcReader(self._path, max_units=0, **self._options)
        entries = list(reader)
        self.summary.add(reader.summary)
        self.summary.bytes_read -= reader.summary.bytes_read
        return entries

    def _collect(self, fut: Future[tuple[list[WarcEntry], WarcSummary]]) -> Iterator[WarcEntry]:
        entries, summary = fut.result()
        self.summary.add(summary)
        yield from entries


def iter_warc_parallel(
    path: str | os.PathLike[str],
    workers: int,
    *,
    batch_units: int = BATCH_UNITS,
    batch_bytes: int = BATCH_BYTES,
    **options: Unpack[WarcOptions],
) -> ParallelWarcReader:
    """Like :func:`~stream_mf2.warc.reader.iter_warc`, with ``workers`` processes; output order is archive order.

    Workers get runs of consecutive records, at most ``batch_units`` records or
    ``batch_bytes`` bytes each.
    """
    check_warc_options(options, "iter_warc_parallel")
    return ParallelWarcReader(path, workers, batch_units=batch_units, batch_bytes=batch_bytes, **options)
