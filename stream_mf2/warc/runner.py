"""Running WARC inputs to output lines: one input, many inputs, resuming.

The lines follow the versioned schema of :mod:`stream_mf2.warc.schema` (item, record,
error and summary lines, and the lines of a ``consumer``).

A ``consumer`` (:class:`LineConsumer`, e.g. the Website Parse Template lines of
``stream-mf2 wpt``) adds its own lines, written after a record's items and
before its ``record`` line; each gets ``warc_file``, ``offset``,
``record_id`` and ``uri`` after its ``kind``. The runner knows nothing of
what they hold. ``Options.items`` ``False`` leaves the ``item`` lines out (the
``items`` counts still count the mf2 items found).

:func:`process_input` reads one input and writes its lines; it is what a
distributed runner calls per file. :func:`run` reads many, with checkpoints
for ``resume``; where the output goes is :mod:`stream_mf2.warc.target`.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Protocol

from stream_mf2.errors import StreamMF2Error
from stream_mf2.io.payload import DEFAULT_MAX_DECODED_BYTES, DEFAULT_MAX_EXPANSION
from stream_mf2.warc.entries import RecordConsumer, WarcEntry, WarcError, WarcExtra, WarcItem
from stream_mf2.warc.inputs import DEFAULT_TIMEOUT, open_input
from stream_mf2.warc.outputs import Writer, open_writer, partial_exists, write_json_atomic
from stream_mf2.warc.prefilter import DEFAULT_MAX_PREFILTER_BYTES
from stream_mf2.warc.reader import WarcReader
from stream_mf2.warc.schema import (
    EXIT_ALL_FAILED,
    EXIT_OK,
    EXIT_SOME_FAILED,
    SCHEMA_VERSION,
    entry_line,
    error_line,
    extra_line,
)
from stream_mf2.warc.target import OutputError, OutputLock, OutputTarget, resolve_output


class _OutputFailed(Exception):
    """Writing a line failed (its cause is the real error)."""


class LineWriter(Protocol):
    """Where :func:`process_input` writes: anything with ``write(line_dict)``."""

    def write(self, line: dict[str, Any]) -> None: ...


class LineConsumer(RecordConsumer, Protocol):
    """A :class:`~stream_mf2.warc.entries.RecordConsumer` the runner can be given (``Options.consumer``).

    Besides turning events into lines, it names the parser options it needs
    (e.g. ``wpt``), the line kinds it writes (Parquet tables are made for
    them) and a fingerprint of its settings (a resumed run must use the same).
    """

    def parser_options(self) -> dict[str, Any]:
        """Parser options the consumer needs (added to ``Options.parser``)."""
        ...

    def kinds(self) -> tuple[str, ...]:
        """The ``kind`` of every line it may write."""
        ...

    def fingerprint(self) -> str:
        """Identifies its settings (e.g. a hash of the template file), for checkpoints."""
        ...


@dataclass
class FileSummary:
    """What one input gave; ``failed`` when it could not be read (an ``error`` line says why)."""

    warc_file: str
    records: int = 0
    html_records: int = 0
    items: int = 0
    errors: int = 0
    skipped: int = 0
    unparsed: int = 0  #: HTML records the prefilter did not parse
    bytes: int = 0  #: bytes read from the input
    seconds: float = 0.0
    failed: bool = False
    #: why the input failed, in one line (``None`` when it did not)
    reason: str | None = None
    #: consumer lines written, by kind (empty without a consumer)
    extra: dict[str, int] = field(default_factory=dict)

    COUNTS = ("records", "html_records", "items", "errors", "skipped", "unparsed", "bytes", "seconds")

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Options:
    """How inputs are read: reader and parser options."""

    parser: dict[str, Any] = field(default_factory=dict)  #: Parser options (text, lang, metaformats, …)
    types: frozenset[str] | None = None  #: ``--type``
    max_decoded_bytes: int | None = DEFAULT_MAX_DECODED_BYTES  #: ``None``: no cap
    max_expansion: float | None = DEFAULT_MAX_EXPANSION  #: ``None``: no cap
    offset: int | None = None
    length: int | None = None
    workers: int = 1
    timeout: float = DEFAULT_TIMEOUT
    consumer: LineConsumer | None = None  #: more lines per record (see the module docs)
    items: bool = True  #: write ``item`` lines
    #: ``--prefilter``: leave HTML records without a root class name unparsed (items-only runs)
    prefilter: bool = False
    max_prefilter_bytes: int | None = DEFAULT_MAX_PREFILTER_BYTES  #: ``None``: no cap

    def reader_kwargs(self) -> dict[str, Any]:
        kw: dict[str, Any] = dict(self.parser)
        if self.prefilter:
            kw["prefilter"] = True
            kw["max_prefilter_bytes"] = self.max_prefilter_bytes
        if self.types:
            kw["types"] = self.types
        kw["max_decoded_bytes"] = self.max_decoded_bytes
        kw["max_expansion"] = self.max_expansion
        if self.consumer is not None:
            kw.update(self.consumer.parser_options())
            kw["consumer"] = self.consumer
        return kw

    def key(self) -> dict[str, Any]:
        """The options as plain data, for a checkpoint (the consumer by its fingerprint)."""
        plain = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("consumer", "items")}
        key: dict[str, Any] = _canonical(plain)
        if self.consumer is not None:
            key["consumer"] = self.consumer.fingerprint()
            key["items"] = self.items
        return key

    def tables(self) -> tuple[str, ...] | None:
        """The line kinds a Parquet output gets tables for (``None``: the default ones)."""
        if self.consumer is None:
            return None
        return (*(("item",) if self.items else ()), "record", "error", *self.consumer.kinds())


#: Called at each unit boundary of an input: (offset of the next unit, gzip, counts so far).
OnUnit = Callable[[int, bool, FileSummary], None]


def process_input(
    source: str,
    writer: LineWriter,
    options: Options | None = None,
    *,
    resume_at: tuple[int, bool] | None = None,
    resume_summary: FileSummary | None = None,
    on_unit: OnUnit | None = None,
    warc_file: str | None = None,
) -> FileSummary:
    """Read one input (path, URL, ``-``) and write its schema lines to ``writer``; return its counts.

    ``warc_file``, the name the lines and the summary give the input, is the input's
    name as the user gave it (default: ``source``); a distributed run reads the
    absolute path but names the input as given, so every runner writes the same lines.

    A file that cannot be opened or read on is one ``error`` line (``scope``
    ``file``) and a summary with ``failed`` set; nothing is raised for it.
    ``resume_at`` (an offset and whether the archive is gzip, as given to
    ``on_unit``) with ``resume_summary`` continues an input read up to there.
    """
    opts = options or Options()
    name = source if warc_file is None else warc_file
    summary = resume_summary if resume_summary is not None else FileSummary(name)
    base = FileSummary(name, **{k: getattr(summary, k) for k in FileSummary.COUNTS})
    t0 = time.perf_counter()
    extra = summary.extra  # counted as lines are written, so it is right at every checkpoint
    items = opts.items

    def write(line: dict[str, Any]) -> None:
        try:
            writer.write(line)
        except Exception as e:  # the output failed, not the input: not an error line of this input
            raise _OutputFailed() from e

    def write_entry(entry: WarcEntry) -> None:
        if isinstance(entry, WarcExtra):
            line = extra_line(entry)
            extra[line["kind"]] = extra.get(line["kind"], 0) + 1
            write(line)
        elif items or type(entry) is not WarcItem:
            write(entry_line(entry))

    start = opts.offset or 0
    gzip: bool | None = None
    if resume_at is not None:
        start, gzip = resume_at
    reader: WarcReader | None = None
    position = start

    def update() -> None:
        s = reader.summary if reader is not None else None
        if s is not None:
            summary.records = base.records + s.records
            summary.html_records = base.html_records + s.html_records
            summary.items = base.items + s.items
            summary.errors = base.errors + s.errors
            summary.skipped = base.skipped + s.skipped
            summary.unparsed = base.unparsed + s.unparsed
            summary.bytes = base.bytes + s.bytes_read
        summary.seconds = base.seconds + time.perf_counter() - t0

    try:
        length = None
        if opts.length is not None:
            length = max(0, opts.offset or 0) + opts.length - start
        if opts.workers > 1 and resume_at is None and opts.offset is None and opts.length is None and _is_local(source):
            from stream_mf2.warc.parallel import iter_warc_parallel  # (multiprocessing: only when used)

            par = iter_warc_parallel(source, opts.workers, warc_file=name, **opts.reader_kwargs())
            for found in par:
                write_entry(found)
            s = par.summary
            summary.records, summary.html_records, summary.items = s.records, s.html_records, s.items
            summary.errors, summary.skipped, summary.bytes = s.errors, s.skipped, s.bytes_read
            summary.unparsed = s.unparsed
        else:
            with open_input(source, offset=start, length=length, timeout=opts.timeout) as f:
                reader = WarcReader(f, warc_file=name, gzip=gzip, **opts.reader_kwargs())
                for entry in reader.iter_with_positions():
                    if isinstance(entry, int):
                        position = entry
                        if on_unit is not None and reader.gzip is not None:
                            update()
                            on_unit(entry, reader.gzip, summary)
                        continue
                    write_entry(entry)
    except _OutputFailed as e:
        assert e.__cause__ is not None
        raise e.__cause__ from None
    except (StreamMF2Error, OSError) as e:
        update()
        summary.errors += 1
        summary.failed = True
        message = " ".join(str(e).split()) or type(e).__name__
        summary.reason = message
        write(error_line(WarcError(None, position, None, message, name, "file")))
        return summary
    update()
    if summary.records == 0 and summary.errors:
        summary.failed = True  # nothing in it was a WARC record
        summary.reason = f"no WARC record found in it ({summary.errors} damaged stretches: see its error lines)"
    return summary


def _is_local(name: str) -> bool:
    from stream_mf2.warc.inputs import STDIN, url_scheme

    return name != STDIN and url_scheme(name) is None


def summary_line(files: Sequence[FileSummary]) -> dict[str, Any]:
    extra: dict[str, int] = {}
    for f in files:
        for kind, n in f.extra.items():
            extra[kind] = extra.get(kind, 0) + n
    return {
        "kind": "summary",
        "schema": SCHEMA_VERSION,
        "files": len(files),
        "files_failed": sum(f.failed for f in files),
        "records": sum(f.records for f in files),
        "html_records": sum(f.html_records for f in files),
        "items": sum(f.items for f in files),
        "errors": sum(f.errors for f in files),
        "skipped": sum(f.skipped for f in files),
        "unparsed": sum(f.unparsed for f in files),
        **extra,
    }


def exit_status(files: Sequence[FileSummary]) -> int:
    """:data:`EXIT_OK`, :data:`EXIT_SOME_FAILED` or :data:`EXIT_ALL_FAILED`."""
    failed = sum(f.failed for f in files)
    if failed == 0:
        return EXIT_OK
    return EXIT_ALL_FAILED if failed == len(files) else EXIT_SOME_FAILED


# -- many inputs, with checkpoints ----------------------------------------------------------------


def _canonical(value: Any) -> Any:
    """``value`` with sets sorted, so that it compares equal across processes."""
    if isinstance(value, frozenset | set):
        return sorted(_canonical(v) for v in value)
    if isinstance(value, dict):
        return {str(k): _canonical(v) for k, v in sorted(value.items())}
    if isinstance(value, list | tuple):
        return [_canonical(v) for v in value]
    return value


def checkpoint_path(output: str) -> str:
    """Where a resumable run keeps its checkpoint for ``output``."""
    return output + ".checkpoint.json"


def _load_checkpoint(cp_path: str, key: dict[str, Any]) -> dict[str, Any]:
    """The checkpoint of a killed run of the same inputs and options (:class:`StreamMF2Error` otherwise)."""
    again = f"remove {cp_path} to start the run again"
    try:
        with open(cp_path, encoding="utf-8") as f:
            state = json.load(f)
    except OSError as e:
        raise StreamMF2Error(f"cannot read {cp_path}: {e.strerror or e}") from None
    except ValueError:
        raise StreamMF2Error(f"{cp_path} is not a checkpoint (not JSON); {again}") from None
    if not isinstance(state, dict) or not isinstance(state.get("done"), list) or "token" not in state:
        raise StreamMF2Error(f"{cp_path} is not a checkpoint; {again}")
    if state.get("key") != key:
        raise StreamMF2Error(f"{cp_path} belongs to a run with other inputs or options; {again}")
    if not isinstance(state["token"], dict):
        raise StreamMF2Error(f"{cp_path} is from an older version of stream-mf2; {again}")
    current = state.get("current")
    try:
        state["done"] = [FileSummary(**d) for d in state["done"]]
        if current is not None:
            current["summary"] = FileSummary(**current["summary"])
            if type(current["index"]) is not int or type(current["position"]) is not int:
                raise TypeError
    except (TypeError, KeyError):
        raise StreamMF2Error(f"{cp_path} is damaged; {again}") from None
    return state


@dataclass
class RunResult:
    files: list[FileSummary]
    status: int


def run(
    inputs: Sequence[str],
    output: str | None,
    options: Options,
    *,
    resume: bool = False,
    checkpoint_records: int = 1000,
    checkpoint_seconds: float = 30.0,
    progress: Callable[[FileSummary], None] | None = None,
    on_unit: OnUnit | None = None,
) -> RunResult:
    """Read ``inputs`` in order into ``output`` (see :func:`stream_mf2.warc.outputs.open_writer`).

    ``output`` is resolved once (:func:`stream_mf2.warc.target.resolve_output`): a
    regular file is written through ``.partial`` and renamed into place at the end,
    a FIFO or character device is written in place, ``None``/``-`` is standard
    output. A named output is locked for the run: a second run naming it fails at
    once (:class:`~stream_mf2.warc.target.OutputError`).

    With ``resume`` (a regular file output only) the run checkpoints after every
    input and, within an input, at a record boundary every ``checkpoint_records``
    records or ``checkpoint_seconds``; a run started again with ``resume`` after
    being killed at any moment goes on from the last checkpoint and writes
    exactly what an uninterrupted run writes. The temporary output must still
    hold what the checkpoint made durable (size and SHA-256): otherwise the run
    stops with a message instead of writing a damaged output. A run without
    ``resume`` starts afresh and removes an earlier run's checkpoint.
    """
    target = resolve_output(output)
    if resume and not target.resumable:
        raise OutputError("--resume needs a regular file as output (-o FILE), not standard output or a special file")
    with OutputLock(target):
        return _run_locked(
            inputs, target, options, resume, checkpoint_records, checkpoint_seconds, progress, on_unit
        )


def _run_locked(
    inputs: Sequence[str],
    target: OutputTarget,
    options: Options,
    resume: bool,
    checkpoint_records: int,
    checkpoint_seconds: float,
    progress: Callable[[FileSummary], None] | None,
    on_unit: OnUnit | None,
) -> RunResult:
    key = {"inputs": list(inputs), "options": options.key(), "schema": SCHEMA_VERSION}
    cp_path = checkpoint_path(target.name) if target.name is not None and target.kind == "file" else None
    state: dict[str, Any] | None = None
    if cp_path is not None and not resume:
        # This run writes the temporary output afresh: an earlier run's checkpoint no longer
        # describes it, and a later --resume must not trust it.
        with contextlib.suppress(FileNotFoundError):
            os.remove(cp_path)
        cp_path = None
    if cp_path is not None and os.path.exists(cp_path):
        state = _load_checkpoint(cp_path, key)
    done: list[FileSummary] = state["done"] if state else []
    if cp_path is not None and state is not None and not partial_exists(target):
        if len(done) == len(inputs):
            # Killed after the output was moved into place: the run is complete.
            with contextlib.suppress(OSError):
                os.remove(cp_path)
            return RunResult(done, exit_status(done))
        raise OutputError(
            f"cannot resume {target.name}: its temporary output is gone; remove {cp_path} to start the run again"
        )
    writer: Writer = open_writer(target, resume=state["token"] if state else None, tables=options.tables())
    current = state.get("current") if state else None
    last = [time.monotonic(), 0]

    def save(cur: dict[str, Any] | None) -> None:
        assert cp_path is not None
        token = writer.checkpoint()
        write_json_atomic(
            cp_path, {"key": key, "token": token, "done": [d.as_dict() for d in done], "current": cur}
        )
        last[0] = time.monotonic()

    try:
        for index in range(len(done), len(inputs)):
            name = inputs[index]
            resume_at = None
            resume_summary = None
            if current is not None and current["index"] == index:
                resume_at = (current["position"], current["gzip"])
                resume_summary = current["summary"]
            current = None
            unit = on_unit
            if cp_path is not None:
                last[1] = resume_summary.records if resume_summary else 0

                def unit(position: int, gzip: bool, s: FileSummary, index: int = index) -> None:
                    if on_unit is not None:
                        on_unit(position, gzip, s)
                    if s.records - last[1] >= checkpoint_records or time.monotonic() - last[0] >= checkpoint_seconds:
                        last[1] = s.records
                        save({"index": index, "position": position, "gzip": gzip, "summary": s.as_dict()})

            fs = process_input(
                name, writer, options, resume_at=resume_at, resume_summary=resume_summary, on_unit=unit
            )
            done.append(fs)
            if progress is not None:
                progress(fs)
            if cp_path is not None:
                save(None)
        writer.write(summary_line(done))
        writer.close()
    except BaseException:
        writer.abandon()
        raise
    if cp_path is not None:
        with contextlib.suppress(OSError):
            os.remove(cp_path)
    return RunResult(done, exit_status(done))
