"""Where a run's output goes: the output name resolved once, before anything is written.

* ``None`` or ``-``: standard output, written as it comes.
* A name that does not exist yet, or that names a regular file (also through a
  symbolic link): written as ``<file>.partial`` beside the file the name resolves
  to, and renamed onto that file when the run completes, so a reader never sees a
  half-written output and a link stays a link. Only such a target can be resumed.
* A FIFO, a character device (``/dev/stdout``, ``/dev/null``) or a socket: written
  in place, as a stream. It is never renamed over, cannot be resumed and cannot
  hold Parquet (which is several files).
* A directory or a block device: refused.

The format comes from the name's suffixes, compared case-insensitively:
``.parquet``; ``.gz`` and ``.zst`` compress JSON Lines; another compression suffix
(``.bz2``, ``.xz``, ``.lz4``, ...) is refused rather than written as plain text
under a name that promises otherwise; any other name is JSON Lines.

:class:`OutputLock` keeps two runs from writing the same output: the second one
fails at once with a message naming the lock.
"""

from __future__ import annotations

import contextlib
import os
import stat
from dataclasses import dataclass
from typing import IO, Literal

from stream_mf2.errors import StreamMF2Error

__all__ = ["OutputError", "OutputLock", "OutputTarget", "resolve_output"]

Format = Literal["jsonl", "jsonl.gz", "jsonl.zst", "parquet"]
Kind = Literal["stdout", "file", "stream"]

#: Compression suffixes no writer here produces: a name ending in one is refused.
UNSUPPORTED_COMPRESSION = frozenset(
    {".bz2", ".xz", ".lz4", ".lzma", ".lz", ".z", ".zip", ".br", ".7z", ".tgz", ".zstd"}
)

PARTIAL = ".partial"
LOCK = ".lock"


class OutputError(StreamMF2Error):
    """The output cannot be written (a missing optional dependency, a full disk, a bad target, ...)."""


@dataclass(frozen=True, slots=True)
class OutputTarget:
    """A resolved output: what was named, what is written, how, in which format."""

    #: The name as given (``None`` for standard output).
    name: str | None
    #: The file written: ``name`` with symbolic links resolved (``None`` for standard output).
    path: str | None
    kind: Kind
    format: Format

    @property
    def resumable(self) -> bool:
        """Only a regular file is written through ``.partial`` and can be resumed."""
        return self.kind == "file"

    @property
    def partial(self) -> str:
        """The temporary name of a ``file`` target (Parquet: the folder of its parts is this plus ``.d``)."""
        if self.path is None:
            raise ValueError("standard output has no temporary file")
        return self.path + PARTIAL


def output_format(name: str) -> Format:
    """The format a name asks for (see the module docs); :class:`OutputError` for a compression we lack."""
    lower = os.path.basename(name).lower()
    if lower.endswith(".parquet"):
        return "parquet"
    if lower.endswith(".gz"):
        return "jsonl.gz"
    if lower.endswith(".zst"):
        return "jsonl.zst"
    suffix = os.path.splitext(lower)[1]
    if suffix in UNSUPPORTED_COMPRESSION:
        raise OutputError(
            f"cannot write {name}: {suffix} compression is not supported (use .jsonl, .jsonl.gz, .jsonl.zst or .parquet)"
        )
    return "jsonl"


def resolve_output(name: str | None) -> OutputTarget:
    """Resolve the output name ``name`` (see the module docs); :class:`OutputError` if it cannot be written."""
    if name is None or name == "-":
        return OutputTarget(None, None, "stdout", "jsonl")
    fmt = output_format(name)
    try:
        mode = os.stat(name).st_mode
    except FileNotFoundError:
        # Not there yet (or a link to nothing yet): a new file, where the name points; its
        # folder must be there (said now, not as a lock or temporary file that cannot be made).
        folder = os.path.dirname(os.path.realpath(name))
        if not os.path.isdir(folder):
            named = os.path.dirname(name)  # as the user wrote it, unless a link points elsewhere
            shown = named if named and os.path.realpath(named) == folder else folder
            raise OutputError(f"cannot write {name}: no folder {shown} (create it first)") from None
        return OutputTarget(name, os.path.realpath(name), "file", fmt)
    except OSError as e:
        raise OutputError(f"cannot write {name}: {e.strerror or e}") from None
    if stat.S_ISREG(mode):
        return OutputTarget(name, os.path.realpath(name), "file", fmt)
    if stat.S_ISDIR(mode):
        raise OutputError(f"cannot write {name}: it is a directory (name a file inside it)")
    if stat.S_ISBLK(mode):
        raise OutputError(f"cannot write {name}: it is a block device")
    # A FIFO, a character device or a socket: a stream, written where it is.
    if fmt == "parquet":
        raise OutputError(f"cannot write {name}: Parquet output is several files and needs a regular file name")
    return OutputTarget(name, name, "stream", fmt)


def open_stream(target: OutputTarget) -> IO[bytes]:
    """Open a ``stream`` target for writing in place (never truncated or renamed)."""
    assert target.path is not None
    try:
        return open(target.path, "ab")  # closed by the writer
    except OSError as e:
        raise OutputError(f"cannot write {target.name}: {e.strerror or e}") from None


class OutputLock:
    """An exclusive lock on an output for the length of a run: ``<file>.lock`` beside it.

    Taken without waiting: a second run naming the same output fails at once. The
    lock file is removed when the lock is released; a lock file left by a killed run
    holds no lock and is taken over. Only a regular file output is locked (standard
    output and special files are not written through a temporary file), and where the
    platform has no ``fcntl`` (Windows) no lock is taken.
    """

    __slots__ = ("_fd", "path")

    def __init__(self, target: OutputTarget) -> None:
        #: The lock file (``None``: this output is not locked).
        self.path = target.path + LOCK if target.kind == "file" and target.path is not None else None
        self._fd: int | None = None

    def acquire(self) -> None:
        path = self.path
        if path is None:
            return
        try:
            import fcntl
        except ImportError:  # pragma: no cover  (Windows)
            return
        while True:
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as e:
                raise OutputError(f"cannot lock {path}: {e.strerror or e}") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise OutputError(
                    f"another run is writing this output (it holds {path}); wait for it or name another output"
                ) from None
            # The holder before us may have removed the file between our open and our lock:
            # then we hold a lock on a name nobody sees, and start again.
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(path))
            except FileNotFoundError:
                same = False
            if same:
                self._fd = fd
                return
            os.close(fd)

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None and self.path is not None:
            with contextlib.suppress(OSError):
                os.remove(self.path)
            os.close(fd)

    def __enter__(self) -> OutputLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
