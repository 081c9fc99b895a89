"""Inputs of the WARC runner: any name as a binary stream, and lists of names.

A name is a local path, ``-`` (standard input), an ``http(s)://`` URL (read as
a stream; ``offset`` / ``length`` become an HTTP range request), or any other
``scheme://`` URL that fsspec knows (``s3://``, ``gs://``, …) when fsspec and
the backend are installed (``pip install 'stream-mf2[remote]'``).

:func:`expand_inputs` turns command-line names into the list of inputs: local
globs are expanded (sorted), fsspec globs through the filesystem's ``glob``,
and list files (one name per line, ``#`` comments, optionally ``.gz``, the
shape of Common Crawl's ``warc.paths.gz``) are read in order.

Every failure is a :class:`~stream_mf2.errors.SourceError` with a one-line
reason, so a runner can report it for that input and go on.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
import zlib
from collections.abc import Iterator, Sequence
from typing import IO, Any

from stream_mf2.errors import SourceError

#: The name of standard input.
STDIN = "-"
#: Seconds to wait for a remote server (connection and each read).
DEFAULT_TIMEOUT = 60.0
#: Buffer of a non-seekable stream.
READ_BUFFER = 64 * 1024

_SCHEME_RE = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
_GLOB_CHARS = re.compile(r"[*?[]")
REMOTE_HINT = "pip install 'stream-mf2[remote]'"


def is_http(name: str) -> bool:
    """Is ``name`` an ``http://`` or ``https://`` URL?"""
    return name[:8].lower().startswith(("http://", "https://"))


def url_scheme(name: str) -> str | None:
    """The scheme of a ``scheme://`` URL (lower case), else ``None`` (a local path)."""
    m = _SCHEME_RE.match(name)
    if m is None or len(m.group(1)) == 1:  # a Windows drive letter is a path
        return None
    return m.group(1).lower()


def _fsspec() -> Any:
    try:
        import fsspec
    except ImportError:
        raise SourceError(f"reading fsspec URLs (s3://, gs://, ...) needs fsspec and its backend: {REMOTE_HINT}") from None
    return fsspec


class _Stream(io.RawIOBase):
    """A non-seekable stream that reports absolute offsets (``start`` + bytes read) and may stop early."""

    def __init__(self, f: Any, start: int, length: int | None, closer: Any = None) -> None:
        super().__init__()
        self._f = f
        self._pos = start
        self._left = length
        self._closer = closer

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return False

    def tell(self) -> int:
        return self._pos

    def read(self, n: int | None = -1) -> bytes:
        if self._left is not None:
            if self._left <= 0:
                return b""
            n = self._left if n is None or n < 0 else min(n, self._left)
        try:
            data: bytes = self._f.read(n if n is not None and n >= 0 else -1)
        except (OSError, ValueError) as e:  # (urllib's URLError is an OSError)
            raise SourceError(f"read failed: {e}") from e
        except Exception as e:  # http.client raises its own exception types mid-body
            raise SourceError(f"read failed: {type(e).__name__}: {e}") from e
        self._pos += len(data)
        if self._left is not None:
            self._left -= len(data)
        return data

    def readinto(self, b: Any) -> int:
        data = self.read(len(b))
        b[: len(data)] = data
        return len(data)

    def close(self) -> None:
        if not self.closed and self._closer is not None:
            with contextlib.suppress(Exception):
                self._closer()
        super().close()


def _buffered(raw: _Stream) -> IO[bytes]:
    return io.BufferedReader(raw, READ_BUFFER)


def _skip(f: Any, n: int) -> None:
    while n > 0:
        data = f.read(min(n, 1 << 20))
        if not data:
            return
        n -= len(data)


def _open_http(url: str, offset: int, length: int | None, timeout: float) -> IO[bytes]:
    # (imported here: urllib.request brings http.client, ssl and email, which a run over
    # local files does not need; start-up is part of every command-line run)
    import urllib.error
    import urllib.request

    from stream_mf2._version import __version__

    headers = {"User-Agent": f"stream-mf2/{__version__}", "Accept-Encoding": "identity"}
    ranged = offset > 0 or length is not None
    if ranged:
        last = "" if length is None else str(offset + length - 1)
        headers["Range"] = f"bytes={offset}-{last}"
    try:
        resp = urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=timeout)
    except urllib.error.HTTPError as e:
        if e.code == 416:
            raise SourceError(f"cannot read {url}: offset {offset} is past the end (HTTP 416)") from None
        raise SourceError(f"cannot fetch {url}: HTTP {e.code} {e.reason}") from None
    except (urllib.error.URLError, OSError, ValueError) as e:
        reason = getattr(e, "reason", None) or e
        raise SourceError(f"cannot fetch {url}: {reason}") from None
    if ranged and resp.status != 206 and offset:
        _skip(resp, offset)  # the server ignored the range: read up to the offset
    return _buffered(_Stream(resp, offset, length, resp.close))


def _open_fsspec(name: str, offset: int, length: int | None) -> IO[bytes]:
    fsspec = _fsspec()
    try:
        f = fsspec.open(name, "rb").open()
        if offset:
            f.seek(offset)
    except ImportError as e:
        raise SourceError(f"cannot open {name}: {e} ({REMOTE_HINT})") from None
    except (OSError, ValueError) as e:
        raise SourceError(f"cannot open {name}: {e}") from None
    except Exception as e:  # backends raise their own exception types
        raise SourceError(f"cannot open {name}: {type(e).__name__}: {e}") from None
    if length is None:
        opened: IO[bytes] = f  # seekable: damaged plain archives can be resynchronised
        return opened
    return _buffered(_Stream(f, offset, length, f.close))


@contextlib.contextmanager
def open_input(
    name: str, *, offset: int = 0, length: int | None = None, timeout: float = DEFAULT_TIMEOUT
) -> Iterator[IO[bytes]]:
    """Open ``name`` for binary reading at ``offset``, at most ``length`` bytes when given.

    The stream's ``tell()`` is the absolute offset in the input. Local and fsspec
    files are seekable (without ``length``); standard input and HTTP are not.
    """
    if offset < 0 or (length is not None and length < 0):
        raise SourceError("offset and length must be >= 0")
    f: IO[bytes]
    if name == STDIN:
        stdin = sys.stdin.buffer
        _skip(stdin, offset)
        f = _buffered(_Stream(stdin, offset, length))
    elif is_http(name):
        f = _open_http(name, offset, length, timeout)
    elif url_scheme(name) is not None and url_scheme(name) != "file":
        f = _open_fsspec(name, offset, length)
    else:
        path = name[7:] if name.startswith("file://") else name
        try:
            raw = open(path, "rb")  # noqa: SIM115  # closed below
        except (OSError, ValueError) as e:
            reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            raise SourceError(f"cannot open {name}: {reason}") from None
        try:
            if offset:
                raw.seek(offset)
        except OSError as e:
            raw.close()
            raise SourceError(f"cannot seek in {name}: {e.strerror or e}") from None
        f = raw if length is None else _buffered(_Stream(raw, offset, length, raw.close))
    try:
        yield f
    finally:
        if name != STDIN:
            with contextlib.suppress(Exception):
                f.close()


#: Longest line of an input list, in bytes (a longer one is not a name: the list is refused).
MAX_LIST_LINE = 64 * 1024
#: Most names one input list may hold.
MAX_LIST_NAMES = 1_000_000


def _read_list(name: str, timeout: float) -> list[str]:
    """The names of an input list, read as a stream (a ``.gz`` list is decompressed as it is read).

    Memory is bounded by the names kept: a line longer than :data:`MAX_LIST_LINE` or more than
    :data:`MAX_LIST_NAMES` names is an error, whatever the list decompresses to.
    """
    names: list[str] = []
    with open_input(name, timeout=timeout) as raw:
        head = raw.read(2)
        stream: io.BufferedIOBase = io.BufferedReader(_Prefixed(head, raw))
        if name.endswith(".gz") or head == b"\x1f\x8b":
            import gzip

            stream = gzip.GzipFile(fileobj=stream)
        try:
            rest = b""
            while block := stream.read(1 << 16):
                data = rest + block
                end = data.rfind(b"\n") + 1
                # Runs of blank lines are skipped by the regex engine, not line by line in Python.
                for m in _LIST_LINE.finditer(data, 0, end):
                    _add_name(names, m.group(), name)
                rest = data[end:]
                if len(rest) > MAX_LIST_LINE:
                    raise SourceError(f"cannot read the list {name}: a line longer than {MAX_LIST_LINE} bytes")
            if rest:
                _add_name(names, rest, name)
        except (OSError, EOFError, zlib.error) as e:
            raise SourceError(f"cannot read the list {name}: {e}") from None
    return names


_LIST_LINE = re.compile(rb"[^\n]+")


def _add_name(names: list[str], raw: bytes, list_name: str) -> None:
    line = raw.decode("utf-8", "replace").strip()
    if line and not line.startswith("#"):
        if len(names) >= MAX_LIST_NAMES:
            raise SourceError(f"cannot read the list {list_name}: more than {MAX_LIST_NAMES} names")
        names.append(line)


class _Prefixed(io.RawIOBase):
    """``head`` (bytes already read) followed by the rest of ``raw``, as one readable stream."""

    def __init__(self, head: bytes, raw: IO[bytes]) -> None:
        self._head = head
        self._raw = raw

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        if self._head:
            n = min(len(view), len(self._head))
            view[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        data = self._raw.read(len(view))
        view[: len(data)] = data
        return len(data)


def _expand(name: str) -> list[str]:
    if name == STDIN or is_http(name) or not _GLOB_CHARS.search(name):
        return [name]
    scheme = url_scheme(name)
    if scheme is not None and scheme != "file":
        fsspec = _fsspec()
        try:
            fs, _, paths = fsspec.core.get_fs_token_paths(name)
        except Exception as e:
            raise SourceError(f"cannot list {name}: {type(e).__name__}: {e}") from None
        protocol = fs.protocol[0] if isinstance(fs.protocol, tuple | list) else fs.protocol
        return [f"{protocol}://{p}" for p in sorted(paths)]
    import glob

    found = sorted(glob.glob(name, recursive=True))
    return [p for p in found if not os.path.isdir(p)] or [name]  # no match: reported when opened


def expand_inputs(
    names: Sequence[str],
    input_lists: Sequence[str] = (),
    *,
    prefix: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
) -> list[str]:
    """Inputs from command-line names (globs expanded) followed by those of the list files.

    The lines of a list file are names as they are (no glob is expanded in them).
    ``prefix`` is put in front of the relative names of list files (Common Crawl's
    ``warc.paths.gz`` holds ``crawl-data/…`` paths, relative to ``https://data.commoncrawl.org/``).
    """
    out: list[str] = []
    for name in names:
        out.extend(_expand(name))
    for list_name in input_lists:
        # A list's lines are names, never globs: a name with * or ? in it is read as it is.
        for name in _read_list(list_name, timeout):
            if prefix and url_scheme(name) is None and not os.path.isabs(name) and name != STDIN:
                name = prefix + name
            out.append(name)
    return out
