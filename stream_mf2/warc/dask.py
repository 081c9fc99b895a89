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
own task only: its part holds the ``error`` lines a single-process run writes
for it, its manifest says ``failed`` (so a rerun tries it again), and the final
summary lists it with its error. Damaged records inside a readable file are
``error`` lines of its part, as in the single-process output. A task that ends
without a part (it raised, or its workers kept dying: Dask's ``KilledWorker``)
is listed the same way.

This module imports ``distributed`` and ``fsspec`` only when used; they come
with the ``dask`` extra (``pip install 'stream-mf2[dask]'``).
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import os
import posixpath
import re
import shutil
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, cast

from stream_mf2.errors import MissingExtra
from stream_mf2.warc.outputs import file_digest

if TYPE_CHECKING:
    from distributed import Client

    from stream_mf2.warc.runner import FileSummary, Options

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


class MissingExtraError(MissingExtra):
    """``distributed`` or ``fsspec`` is not installed."""


def require_extra() -> None:
    """Raise :class:`MissingExtraError` with an install hint unless the ``dask`` extra is installed."""
    try:
        import distributed  # noqa: F401
        import fsspec  # noqa: F401
    except ImportError as e:
        raise MissingExtraError(f"{_EXTRA_HINT} ({e})", extra="dask") from None


# -- part names ---------------------------------------------------------------------------------


def canonical_input(name: str) -> str:
    """The input as workers read it and as it names its part: URLs as given, local paths made absolute."""
    from stream_mf2.warc.inputs import STDIN, url_scheme

    if name == STDIN:
        raise ValueError("standard input (-) cannot be read by Dask workers: give files or URLs")
    if url_scheme(name) is not None:
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

        fs, _ = fsspec.core.url_to_fs(self.url)
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

    def commit_file(self, local: str, name: str) -> tuple[int, str]:
        """Move (locally) or upload the finished file ``local`` to ``name``, atomically; its size and SHA-256."""
        size, sha = file_digest(local)
        if self.local:
            with open(local, "rb") as f:
                os.fsync(f.fileno())
            os.replace(local, self.join(name))
            _fsync_dir(self.path)
        else:
            with open(local, "rb") as src, self.atomic_write(name) as dst:
                while block := src.read(1 << 20):
                    dst.write(block)
            os.unlink(local)
        return size, sha

    def remove_temporaries(self) -> int:
        """Delete the ``*.tmp-*`` files left by attempts that died; returns how many."""
        if self.local:
            names = os.listdir(self.path) if os.path.isdir(self.path) else []
            gone = 0
            for n in names:
                if _TMP_MARK in n and n.startswith("part-"):
                    with contextlib.suppress(OSError):
                        path = self.join(n)
                        if os.path.isdir(path):  # a Parquet part's staging folder
                            shutil.rmtree(path)
                        else:
                            os.unlink(path)
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


def _fsync_dir(path: str) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# -- one task -------------------------------------------------------------------------------------


#: Error messages a manifest keeps (the part has them all).
MANIFEST_MESSAGES = 5


class _Lines:
    """Passes schema lines to a writer and keeps the first error messages."""

    def __init__(self, writer: Any) -> None:
        self._writer = writer
        self.messages: list[str] = []

    def write(self, line: dict[str, Any]) -> None:
        if line.get("kind") == "error" and len(self.messages) < MANIFEST_MESSAGES:
            self.messages.append(str(line.get("error")))
        self._writer.write(line)


@dataclass(frozen=True, slots=True)
class PartTask:
    """What one task needs: all plain data, so it pickles small."""

    input: str  #: the canonical input (absolute path or URL), what the worker reads
    output_dir: str
    part: str
    fmt: str
    options: Options
    storage_options: dict[str, dict[str, Any]]
    #: the input as the user named it: the ``warc_file`` of its lines, as in a single-process run
    name: str = ""


def part_files(part: str) -> list[str]:
    """The files of a part: one for JSON Lines, three tables for Parquet (items, records, errors)."""
    if part.endswith(".parquet"):
        from stream_mf2.warc.outputs import parquet_paths

        return list(parquet_paths(part).values())
    return [part]


def verified_manifest(folder: _Folder, part: str) -> dict[str, Any] | None:
    """The part's manifest if it and every file it lists exist and agree (size, SHA-256), else ``None``."""
    raw = folder.read_bytes(part + MANIFEST_SUFFIX)
    if raw is None:
        return None
    try:
        manifest = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(manifest, dict) or manifest.get("part") != part:
        return None
    files = manifest.get("files")
    if not isinstance(files, list) or [f.get("name") for f in files] != part_files(part):
        return None
    for f in files:
        if folder.size(f["name"]) != f.get("bytes") or folder.sha256(f["name"]) != f.get("sha256"):
            return None
    return manifest


def verify_part(output_dir: str, part: str) -> dict[str, Any] | None:
    """The manifest of ``part`` in ``output_dir`` if the part is complete (every file matches), else ``None``."""
    return verified_manifest(_Folder(output_dir), part)


def _use_storage_options(storage_options: dict[str, dict[str, Any]]) -> None:
    """Make ``storage_options`` fsspec's defaults in this process (per protocol), for inputs and outputs."""
    if not storage_options:
        return
    import fsspec.config

    for protocol, opts in storage_options.items():
        fsspec.config.conf.setdefault(protocol, {}).update(opts)


def _write_part(task: PartTask, folder: _Folder) -> tuple[FileSummary, list[str], list[dict[str, Any]]]:
    """Write the part with the single-process writer of its format, then commit its file(s) to the folder.

    The writer (:func:`stream_mf2.warc.outputs.open_writer`, chosen by the part's suffix) writes local
    files: in a staging folder next to the parts when they are local (the commit is a rename),
    else in a temporary folder on the worker, uploaded when complete. The staging folder's
    name carries the temporary mark, so one left by a killed attempt is removed at the end
    of the run.
    """
    import tempfile

    from stream_mf2.warc.outputs import open_writer
    from stream_mf2.warc.runner import process_input

    where = folder.path if folder.local else None
    with tempfile.TemporaryDirectory(prefix=f"{task.part}{_TMP_MARK}", dir=where) as tmp:
        local = os.path.join(tmp, task.part)
        writer = open_writer(local)
        lines = _Lines(writer)
        try:
            summary = process_input(task.input, lines, task.options, warc_file=task.name or task.input)
        except BaseException:
            writer.abandon()
            raise
        writer.close()
        files = []
        for path, name in zip(part_files(local), part_files(task.part), strict=True):
            size, sha = folder.commit_file(path, name)
            files.append({"name": name, "bytes": size, "sha256": sha})
    return summary, lines.messages, files


def part_key(task: PartTask) -> dict[str, Any]:
    """What a part's lines depend on besides its input: the options that shape the output (not
    ``workers`` or ``timeout``), the line schema, and a Parquet part's columns. A part whose
    manifest has another key (a run with other options, or by a version with other columns) is
    written again, so the parts of one folder are always of one run's options and one schema."""
    from stream_mf2.warc.schema import SCHEMA_VERSION

    key = {k: v for k, v in task.options.key().items() if k not in ("workers", "timeout")}
    key["schema"] = SCHEMA_VERSION
    if task.fmt == "parquet":
        from stream_mf2.warc.outputs import table_columns

        key["columns"] = table_columns(task.options.tables())
    return key


def run_part(task: PartTask) -> dict[str, Any]:
    """Run on a worker: write the part and manifest of one input, unless they already verify.

    Returns the manifest, with ``"status"``: ``"done"`` (written now), ``"skipped"``
    (found complete), or ``"failed"``: the input could not be read; its part holds the
    ``error`` lines a single-process run writes for it, ``"error"`` the first message,
    and a later run tries it again.
    """
    _use_storage_options(task.storage_options)
    folder = _Folder(task.output_dir)
    found = verified_manifest(folder, task.part)
    key = part_key(task)
    if found is not None and not found.get("failed") and found.get("key") == key:
        return {**found, "status": "skipped"}
    # A worker process holds about 60,000 objects the cyclic garbage collector tracks (distributed,
    # its state, its imports), 2.5 times a plain process's, and every older-generation collection
    # the parser's garbage triggers walks them all: measured, 0.15-0.19 s of GC in 0.83 s of task
    # CPU, 0.07-0.10 s with them frozen. Frozen for the task they are left out; unfrozen after,
    # so nothing is kept for good (a second thread's task at worst loses the gain).
    gc.freeze()
    try:
        summary, messages, files = _write_part(task, folder)
    finally:
        gc.unfreeze()
    manifest: dict[str, Any] = {
        "kind": "manifest",
        "schema": MANIFEST_SCHEMA,
        "input": task.input,
        "part": task.part,
        "format": task.fmt,
        "records": summary.records,
        "html_records": summary.html_records,
        "items": summary.items,
        "errors": summary.errors,
        "skipped": summary.skipped,
        "unparsed": summary.unparsed,
        "input_bytes": summary.bytes,
        "seconds": round(summary.seconds, 6),
        "failed": summary.failed,
        "error_messages": messages,
        "bytes": sum(f["bytes"] for f in files),
        "sha256": files[0]["sha256"],
        "files": files,
        "key": key,
    }
    # The manifest is written after the part: a part without one is redone, never trusted.
    with folder.atomic_write(task.part + MANIFEST_SUFFIX) as f:
        f.write(json.dumps(manifest, indent=1, sort_keys=True).encode("utf-8") + b"\n")
    if summary.failed:
        return {**manifest, "status": "failed", "error": messages[0] if messages else "the input could not be read"}
    return {**manifest, "status": "done"}


def _one_line(e: BaseException) -> str:
    return " ".join(str(e).split()) or type(e).__name__


# -- the run --------------------------------------------------------------------------------------


@dataclass
class DaskRunSummary:
    """What a run did: one entry per input, in input order, and totals over the parts."""

    output_dir: str
    parts: list[dict[str, Any]]  #: manifests (with ``status``) of the inputs that have a part, in input order
    failed: list[dict[str, Any]]  #: ``{"input", "part", "error"}`` of the inputs that failed (``part`` ``None``: no part)
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

    @property
    def status(self) -> int:
        """Exit status, as the single-process command's: 0, 3 (some inputs failed) or 4 (all did)."""
        from stream_mf2.warc.schema import EXIT_ALL_FAILED, EXIT_OK, EXIT_SOME_FAILED

        if not self.failed:
            return EXIT_OK
        return EXIT_SOME_FAILED if len(self.failed) < self.files else EXIT_ALL_FAILED

    @property
    def files(self) -> int:
        """Inputs of the run."""
        return len(self.parts) + sum(1 for f in self.failed if f.get("part") is None)

    def total(self, key: str) -> int:
        """Sum of a manifest count over all parts (``records``, ``items``, ``errors``, ``bytes``, …)."""
        return sum(int(p.get(key, 0)) for p in self.parts)

    def as_dict(self) -> dict[str, Any]:
        """The JSON form written to ``_summary.json``: the single-process summary's counts, then the parts."""
        from stream_mf2.warc.schema import SCHEMA_VERSION

        return {
            "kind": "summary",
            "schema": SCHEMA_VERSION,
            "files": self.files,
            "files_failed": len(self.failed),
            "records": self.total("records"),
            "html_records": self.total("html_records"),
            "items": self.total("items"),
            # A task that ended without a part (it raised, or its workers kept dying) is one error.
            "errors": self.total("errors") + sum(1 for f in self.failed if f.get("part") is None),
            "skipped": self.total("skipped"),
            "unparsed": self.total("unparsed"),
            "output_dir": self.output_dir,
            "parts_written": self.done,
            "parts_skipped": self.skipped,
            "input_bytes": self.total("input_bytes"),
            "bytes": self.total("bytes"),
            "seconds": round(self.seconds, 6),
            "parts": self.parts,
            "failed": self.failed,
        }


def plan(inputs: Sequence[str], output_dir: str, fmt: str = "jsonl.gz", *,
         options: Options | None = None,
         storage_options: dict[str, dict[str, Any]] | None = None) -> list[PartTask]:
    """One :class:`PartTask` per distinct input, in input order."""
    import dataclasses

    from stream_mf2.warc.runner import Options

    # A task reads its file in its own worker process: no process pool inside it.
    opts = dataclasses.replace(options or Options(), workers=1)
    seen: set[str] = set()
    tasks: list[PartTask] = []
    for name in inputs:
        canon = canonical_input(name)
        if canon in seen:
            continue  # the same input twice is one part
        seen.add(canon)
        tasks.append(PartTask(canon, output_dir, part_name(canon, fmt), fmt, opts, dict(storage_options or {}), name))
    return tasks


def run_warc_dask(
    client: Client,
    inputs: Sequence[str],
    output_dir: str,
    *,
    fmt: str = "jsonl.gz",
    options: Options | None = None,
    storage_options: dict[str, dict[str, Any]] | None = None,
    on_result: Callable[[dict[str, Any], int, int], None] | None = None,
) -> DaskRunSummary:
    """Process ``inputs`` on ``client``'s cluster, one task and one part per input file.

    ``inputs`` are local paths (made absolute: every worker must see them at the same
    path), ``http(s)://`` URLs or fsspec URLs; ``output_dir`` is a local folder or an
    fsspec URL (``s3://bucket/prefix``) that every worker can reach. ``fmt`` is the
    part format (``jsonl.gz``, ``jsonl``, ``jsonl.zst``, ``parquet``); ``options`` the
    :class:`stream_mf2.warc.runner.Options` of a single-process run (parser options, types,
    limits). ``storage_options`` maps an fsspec protocol to its options
    (``{"s3": {"endpoint_url": ..., "key": ..., "secret": ...}}``), applied on the
    workers to inputs and outputs of that protocol; without it fsspec's configuration
    and the usual environment variables (``AWS_*``, ``FSSPEC_S3_*``) apply.

    Parts already complete in ``output_dir`` (part and manifest verify) are kept, not
    redone, so calling this again after an interruption finishes the job.
    ``on_result(result, finished, total)`` is called as each task ends (progress).
    Returns the merged summary, also written to ``<output_dir>/_summary.json``.
    """
    require_extra()
    from distributed import as_completed

    completed = cast("Callable[[list[Any]], Iterator[Any]]", as_completed)
    t0 = time.perf_counter()
    folder = _Folder(output_dir)
    if folder.local:
        output_dir = os.path.abspath(folder.path)  # the workers' working folder may be another one
        folder = _Folder(output_dir)
    tasks = plan(inputs, output_dir, fmt, options=options, storage_options=storage_options)
    _use_storage_options(dict(storage_options or {}))
    folder.makedirs()
    # Keys are unique to this call: a finished task of an earlier call (same part name, maybe
    # another output folder) still known to the scheduler must not stand in for this one.
    # Exactly-once rests on the part files, not on keys.
    run_id = uuid.uuid4().hex[:12]
    futures = {client.submit(run_part, t, key=f"stream-mf2-{t.part}-{run_id}", pure=False, retries=0): t
               for t in tasks}
    results: dict[str, dict[str, Any]] = {}
    for finished, fut in enumerate(completed(list(futures)), 1):
        task = futures[fut]
        try:
            result = fut.result()
        except Exception as e:  # a task that raised, or killed its workers too often (KilledWorker)
            result = {"input": task.input, "part": None, "status": "lost",
                      "error": f"{type(e).__name__}: {_one_line(e)}"}
        results[task.part] = result
        if on_result is not None:
            on_result(result, finished, len(tasks))
    parts = [results[t.part] for t in tasks if results[t.part].get("part") is not None]
    failed = [{k: results[t.part].get(k) for k in ("input", "part", "error")}
              for t in tasks if results[t.part].get("status") in ("failed", "lost")]
    summary = DaskRunSummary(output_dir, parts, failed, time.perf_counter() - t0)
    summary.temporaries_removed = folder.remove_temporaries()
    with folder.atomic_write(SUMMARY_NAME) as f:
        f.write(json.dumps(summary.as_dict(), indent=1).encode("utf-8") + b"\n")
    return summary


def read_summary(output_dir: str, storage_options: dict[str, dict[str, Any]] | None = None) -> dict[str, Any] | None:
    """The ``_summary.json`` of an output folder, ``None`` when there is none."""
    _use_storage_options(dict(storage_options or {}))
    raw = _Folder(output_dir).read_bytes(SUMMARY_NAME)
    return None if raw is None else dict(json.loads(raw))
