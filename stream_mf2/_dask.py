"""Many WARC files on a Dask cluster: one task per input file, exactly one output part each.

:func:`run_warc_dask` takes a ``distributed.Client`` (a ``LocalCluster`` on one machine,
or a scheduler address of a real cluster) and a list of input files (local paths,
``http(s)://`` URLs, any fsspec URL such as ``s3://``). Each input becomes one task,
run on some worker, which reads the file and writes its own *part* to the output
folder (a local path or an fsspec URL):

* the part's name is derived from the input alone (its stem and a hash of its
  URL), so a retried or repeated task always targets the same name;
* the part is written under a temporary name and renamed when complete: the
  rename is the commit point, so a worker killed mid-task leaves no part;
* a manifest (``<part>.manifest.json``: counts, the part's size and SHA-256) is
  written after the part, also by temporary name and rename;
* before any work, a task whose part and manifest exist and verify (size and
  checksum) returns that manifest: a rerun, ``--resume`` or a second copy of the
  same task writes nothing twice.

Why one task per file: archives come as files of about 1 GB (Common Crawl's
are), which take tens of seconds to minutes each, so the scheduler's cost per
task (a few milliseconds) is noise and files are the natural unit of retry.
Nothing is split below the file.

An input that cannot be read at all (missing, refused, not a WARC) fails its
own task only: no part is written for it (so a rerun tries it again), and the
final summary lists it with its error. Damaged records inside a readable file
are ``error`` lines of its part, as in the single-process output.

This module imports ``distributed`` and ``fsspec`` only when used; they come
with the ``dask`` extra (``pip install 'stream-mf2[dask]'``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import posixpath
import re
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any, cast

from stream_mf2.errors import StreamMF2Error

if TYPE_CHECKING:
    from distributed import Client

#: Version of the manifest and run-summary documents.
MANIFEST_SCHEMA = 1
#: Output formats of a part, by file suffix.
PART_FORMATS = ("jsonl.gz", "jsonl", "jsonl.zst", "parquet")
#: Suffix of a part's manifest (next to the part).
MANIFEST_SUFFIX = ".manifest.json"
#: Name of the merged summary written in the output folder at the end of a run.
SUMMARY_NAME = "_summary.json"
#: Characters kept from an input's file name in its part's name.
_STEM_CHARS = 60
_TMP_MARK = ".tmp-"
_EXTRA_HINT = "the Dask runner needs the 'dask' extra: pip install 'stream-mf2[dask]'"


class MissingExtraError(StreamMF2Error):
    """``distributed`` or ``fsspec`` is not installed."""


def require_extra() -> None:
    """Raise :class:`MissingExtraError` with an install hint unless the ``dask`` extra is installed."""
    try:
        import distributed  # noqa: F401
        import fsspec  # noqa: F401
    except ImportError as e:
        raise MissingExtraError(f"{_EXTRA_HINT} ({e})") from None


# -- part names ---------------------------------------------------------------------------------


def canonical_input(name: str) -> str:
    """The input as it names its part: URLs as given, local paths made absolute."""
    if "://" in name:
        return name
    return os.path.abspath(name)


def part_name(input_name: str, fmt: str) -> str:
    """The part's file name for an input: ``part-<stem>-<hash>.<fmt>``, the same on every run.

    The hash is of the canonical input (absolute path or URL), so two inputs with
    the same file name in different folders get different parts.
    """
    if fmt not in PART_FORMATS:
        raise ValueError(f"unknown part format {fmt!r}; choose from {', '.join(PART_FORMATS)}")
    canon = canonical_input(input_name)
    base = posixpath.basename(canon.split("?", 1)[0].rstrip("/")) or "input"
    for suffix in (".gz", ".warc", ".arc"):
        base = base.removesuffix(suffix)
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", base)[:_STEM_CHARS].strip("._") or "input"
    digest = hashlib.sha256(canon.encode("utf-8")).hexdigest()[:16]
    return f"part-{stem}-{digest}.{fmt}"


# -- output folders through fsspec ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Folder:
    """An output folder: local (plain OS calls, fsync) or an fsspec file system."""

    url: str
    storage_options: dict[str, Any] = field(default_factory=dict)

    @property
    def local(self) -> bool:
        return "://" not in self.url or self.url.startswith("file://")

    @property
    def path(self) -> str:
        return self.url.removeprefix("file://") if self.local else self.url.rstrip("/")

    def join(self, name: str) -> str:
        return os.path.join(self.path, name) if self.local else f"{self.path}/{name}"

    def fs(self) -> Any:
        import fsspec

        fs, _ = fsspec.core.url_to_fs(self.url, **options_for(self.url, self.storage_options))
        # fsspec caches listings per instance (and instances per process): another worker may have
        # written since, and a stale listing must never hide or invent a part.
        fs.invalidate_cache()
        return fs

    def makedirs(self) -> None:
        if self.local:
            os.makedirs(self.path, exist_ok=True)
        else:
            self.fs().makedirs(self.path, exist_ok=True)

    def size(self, name: str) -> int | None:
        """Size of a file in the folder, ``None`` when it does not exist."""
        if self.local:
            try:
                return os.stat(self.join(name)).st_size
            except FileNotFoundError:
                return None
        fs = self.fs()
        try:
            info = fs.info(self.join(name))
        except FileNotFoundError:
            return None
        return int(info["size"])

    def read_bytes(self, name: str) -> bytes | None:
        if self.local:
            try:
                with open(self.join(name), "rb") as f:
                    return f.read()
            except FileNotFoundError:
                return None
        try:
            data: bytes = self.fs().cat_file(self.join(name))
        except FileNotFoundError:
            return None
        return data

    def sha256(self, name: str) -> str | None:
        h = hashlib.sha256()
        try:
            with self.open_read(name) as f:
                while block := f.read(1 << 20):
                    h.update(block)
        except FileNotFoundError:
            return None
        return h.hexdigest()

    @contextlib.contextmanager
    def open_read(self, name: str) -> Iterator[IO[bytes]]:
        if self.local:
            with open(self.join(name), "rb") as f:
                yield f
        else:
            with self.fs().open(self.join(name), "rb") as f:
                yield f

    @contextlib.contextmanager
    def atomic_write(self, name: str) -> Iterator[IO[bytes]]:
        """A file object for ``name`` that appears under that name only if the block ends normally.

        Written under ``<name>.tmp-<random>`` and renamed after; locally with an fsync of
        the file before and of the folder after, so a committed part survives a power cut.
        On object stores the rename is a server-side copy, which is atomic per object.
        """
        tmp = f"{name}{_TMP_MARK}{uuid.uuid4().hex[:12]}"
        if self.local:
            tmp_path, final = self.join(tmp), self.join(name)
            try:
                with open(tmp_path, "wb") as f:
                    yield f
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(tmp_path, final)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp_path)
                raise
            _fsync_dir(self.path)
            return
        fs = self.fs()
        tmp_url, final_url = self.join(tmp), self.join(name)
        try:
            with fs.open(tmp_url, "wb") as f:
                yield f
            fs.mv(tmp_url, final_url)
        except BaseException:
            with contextlib.suppress(Exception):
                fs.rm(tmp_url)
            raise

    def remove_temporaries(self) -> int:
        """Delete the ``*.tmp-*`` files left by attempts that died; returns how many."""
        if self.local:
            names = os.listdir(self.path) if os.path.isdir(self.path) else []
            gone = 0
            for n in names:
                if _TMP_MARK in n and n.startswith("part-"):
                    with contextlib.suppress(OSError):
                        os.unlink(self.join(n))
                        gone += 1
            return gone
        fs = self.fs()
        try:
            urls = [u for u in fs.ls(self.path, detail=False) if _TMP_MARK in posixpath.basename(u)]
        except FileNotFoundError:
            return 0
        for u in urls:
            with contextlib.suppress(Exception):
                fs.rm(u)
        return len(urls)


def options_for(url: str, storage_options: dict[str, Any]) -> dict[str, Any]:
    """The fsspec options for ``url``: ``storage_options`` maps a protocol (``"s3"``) to its options."""
    protocol = url.split("://", 1)[0] if "://" in url else "file"
    found = storage_options.get(protocol)
    if found is None and protocol in ("s3a", "s3n"):
        found = storage_options.get("s3")
    return dict(found or {})


def _fsync_dir(path: str) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# -- one task -------------------------------------------------------------------------------------


class _HashingWriter:
    """Passes writes through to a file and keeps the SHA-256 and size of what was written."""

    def __init__(self, f: IO[bytes]) -> None:
        self._f = f
        self.sha = hashlib.sha256()
        self.size = 0

    def write(self, data: bytes) -> int:
        self.sha.update(data)
        self.size += len(data)
        self._f.write(data)
        return len(data)

    def tell(self) -> int:
        return self.size

    def flush(self) -> None:
        self._f.flush()

    @property
    def closed(self) -> bool:
        return False

    def writable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return False

    def readable(self) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class PartTask:
    """What one task needs: everything is plain data, so it pickles small."""

    input: str
    output_dir: str
    part: str
    fmt: str
    options: dict[str, Any]
    storage_options: dict[str, Any]


def verified_manifest(folder: _Folder, part: str) -> dict[str, Any] | None:
    """The part's manifest if the part and manifest exist and agree (size and SHA-256), else ``None``."""
    raw = folder.read_bytes(part + MANIFEST_SUFFIX)
    if raw is None:
        return None
    try:
        manifest = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(manifest, dict) or manifest.get("part") != part:
        return None
    if folder.size(part) != manifest.get("bytes"):
        return None
    if folder.sha256(part) != manifest.get("sha256"):
        return None
    return manifest


def run_part(task: PartTask) -> dict[str, Any]:
    """Run on a worker: write the part and manifest of one input, unless they already verify.

    Returns the manifest, with ``"status"``: ``"done"`` (written now), ``"skipped"``
    (found complete), or ``"failed"`` (the input could not be read; ``"error"`` says
    why, and nothing was written).
    """
    folder = _Folder(task.output_dir, task.storage_options)
    found = verified_manifest(folder, task.part)
    if found is not None:
        return {**found, "status": "skipped"}
    t0 = time.perf_counter()
    try:
        with folder.atomic_write(task.part) as raw:
            out = _HashingWriter(raw)
            counts = _process(task.input, out, task.fmt, task.options, task.storage_options)
    except (StreamMF2Error, OSError, ValueError) as e:
        return {"input": task.input, "part": task.part, "status": "failed", "error": _one_line(e)}
    manifest: dict[str, Any] = {
        "kind": "manifest",
        "schema": MANIFEST_SCHEMA,
        "input": task.input,
        "part": task.part,
        "format": task.fmt,
        "records": counts.get("records", 0),
        "html_records": counts.get("html_records", 0),
        "items": counts.get("items", 0),
        "errors": counts.get("errors", 0),
        "input_bytes": counts.get("bytes_read", 0),
        "bytes": out.size,
        "sha256": out.sha.hexdigest(),
        "seconds": round(time.perf_counter() - t0, 6),
        "summary": counts,
    }
    with folder.atomic_write(task.part + MANIFEST_SUFFIX) as f:
        f.write(json.dumps(manifest, indent=1, sort_keys=True).encode("utf-8") + b"\n")
    return {**manifest, "status": "done"}


def _one_line(e: BaseException) -> str:
    return " ".join(str(e).split()) or type(e).__name__


def _process(input_name: str, out: _HashingWriter, fmt: str, options: dict[str, Any],
             storage_options: dict[str, Any]) -> dict[str, Any]:
    """Read one input and write its entries to ``out`` in ``fmt``; the input's counts."""
    import gzip

    from stream_mf2._json import dumps
    from stream_mf2.warc import WarcItem, iter_warc

    if fmt != "jsonl.gz":
        raise ValueError(f"part format {fmt!r} is not supported yet")
    with _open_input(input_name, storage_options) as src, gzip.GzipFile(fileobj=out, mode="wb", mtime=0) as gz:
        reader = iter_warc(src, **options)
        for entry in reader:
            line: dict[str, Any]
            if isinstance(entry, WarcItem):
                line = {"kind": "item", "uri": entry.uri, "record_id": entry.record_id, "item": entry.item}
            else:
                line = {"kind": "error", "error": entry.message, "record_id": entry.record_id,
                        "offset": entry.offset, "uri": entry.uri}
            gz.write(dumps(line))
        return reader.summary.as_dict()


@contextlib.contextmanager
def _open_input(name: str, storage_options: dict[str, Any]) -> Iterator[IO[bytes]]:
    if "://" not in name:
        with open(name, "rb") as f:
            yield f
        return
    import fsspec

    with fsspec.open(name, "rb", **options_for(name, storage_options)) as f:
        yield f


# -- the run --------------------------------------------------------------------------------------


@dataclass
class DaskRunSummary:
    """What a run did: one entry per input, in input order, and totals over the parts."""

    output_dir: str
    parts: list[dict[str, Any]]  #: manifests (with ``status``) of the inputs that have a part
    failed: list[dict[str, Any]]  #: ``{"input", "part", "error"}`` of the inputs that failed
    seconds: float
    temporaries_removed: int = 0

    @property
    def done(self) -> int:
        """Parts written by this run."""
        return sum(1 for p in self.parts if p.get("status") == "done")

    @property
    def skipped(self) -> int:
        """Parts found complete and left alone."""
        return sum(1 for p in self.parts if p.get("status") == "skipped")

    def total(self, key: str) -> int:
        """Sum of a manifest count over all parts (``records``, ``items``, ``errors``, ``bytes``, …)."""
        return sum(int(p.get(key, 0)) for p in self.parts)

    def as_dict(self) -> dict[str, Any]:
        """The JSON form written to ``_summary.json``."""
        return {
            "kind": "summary",
            "schema": MANIFEST_SCHEMA,
            "output_dir": self.output_dir,
            "inputs": len(self.parts) + len(self.failed),
            "parts_written": self.done,
            "parts_skipped": self.skipped,
            "failed_inputs": len(self.failed),
            "records": self.total("records"),
            "html_records": self.total("html_records"),
            "items": self.total("items"),
            "errors": self.total("errors"),
            "input_bytes": self.total("input_bytes"),
            "bytes": self.total("bytes"),
            "seconds": round(self.seconds, 6),
            "parts": [{k: v for k, v in p.items() if k != "summary"} for p in self.parts],
            "failed": self.failed,
        }


def plan(inputs: Sequence[str], output_dir: str, fmt: str = "jsonl.gz", *,
         options: dict[str, Any] | None = None,
         storage_options: dict[str, Any] | None = None) -> list[PartTask]:
    """One :class:`PartTask` per distinct input, in input order."""
    seen: set[str] = set()
    tasks: list[PartTask] = []
    for name in inputs:
        canon = canonical_input(name)
        if canon in seen:
            continue  # the same input twice is one part
        seen.add(canon)
        tasks.append(PartTask(canon, output_dir, part_name(canon, fmt), fmt, dict(options or {}),
                              dict(storage_options or {})))
    return tasks


def run_warc_dask(
    client: Client,
    inputs: Sequence[str],
    output_dir: str,
    *,
    fmt: str = "jsonl.gz",
    options: dict[str, Any] | None = None,
    storage_options: dict[str, Any] | None = None,
    on_result: Callable[[dict[str, Any], int, int], None] | None = None,
) -> DaskRunSummary:
    """Process ``inputs`` on ``client``'s cluster, one task and one part per input file.

    ``output_dir`` is a local folder or an fsspec URL (``s3://bucket/prefix``) that
    every worker can reach. ``storage_options`` maps an fsspec protocol to its options
    (``{"s3": {"endpoint_url": ..., "key": ..., "secret": ...}}``), used for inputs and
    outputs of that protocol; without it fsspec's own configuration and the usual
    environment variables (``AWS_*``, ``FSSPEC_S3_*``) apply.
    ``options`` are the parse options of a single-process run. Parts already complete
    in ``output_dir`` (part and manifest verify) are kept, not redone, so calling this
    again after an interruption finishes the job. ``on_result(result, finished,
    total)`` is called as each task ends (progress). Returns the merged summary, which
    is also written to ``<output_dir>/_summary.json``.
    """
    require_extra()
    from distributed import as_completed

    completed = cast("Callable[[list[Any]], Iterator[Any]]", as_completed)
    t0 = time.perf_counter()
    tasks = plan(inputs, output_dir, fmt, options=options, storage_options=storage_options)
    folder = _Folder(output_dir, dict(storage_options or {}))
    folder.makedirs()
    # The key is the part name: the scheduler holds one task per part, however often it is asked.
    futures = {
        client.submit(run_part, t, key=f"stream-mf2-{t.part}", pure=False, retries=0): t for t in tasks
    }
    results: dict[str, dict[str, Any]] = {}
    for finished, fut in enumerate(completed(list(futures)), 1):
        task = futures[fut]
        try:
            result = fut.result()
        except Exception as e:  # a task that raised, or killed its workers too often (KilledWorker)
            result = {"input": task.input, "part": task.part, "status": "failed",
                      "error": f"{type(e).__name__}: {_one_line(e)}"}
        results[task.part] = result
        if on_result is not None:
            on_result(result, finished, len(tasks))
    parts = [results[t.part] for t in tasks if results[t.part].get("status") != "failed"]
    failed: list[dict[str, Any]] = [{k: results[t.part].get(k) for k in ("input", "part", "error")}
              for t in tasks if results[t.part].get("status") == "failed"]
    summary = DaskRunSummary(output_dir, parts, failed, time.perf_counter() - t0)
    summary.temporaries_removed = folder.remove_temporaries()
    with folder.atomic_write(SUMMARY_NAME) as f:
        f.write(json.dumps(summary.as_dict(), indent=1).encode("utf-8") + b"\n")
    return summary


def read_summary(output_dir: str, storage_options: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The ``_summary.json`` of an output folder, ``None`` when there is none."""
    raw = _Folder(output_dir, dict(storage_options or {})).read_bytes(SUMMARY_NAME)
    return None if raw is None else dict(json.loads(raw))
