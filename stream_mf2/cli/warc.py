"""``stream-mf2 warc``: microformats out of WARC archives, as versioned JSON Lines or Parquet."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from collections.abc import Sequence
from typing import IO, Any, NoReturn

from stream_mf2.cli._common import ArgumentParser, nonneg_int, nonneg_number, output_name_kind, positive_seconds
from stream_mf2.errors import StreamMF2Error
from stream_mf2.io.payload import DEFAULT_MAX_DECODED_BYTES, DEFAULT_MAX_EXPANSION

PROG = "stream-mf2 warc"

DESCRIPTION = "Extract microformats2 from the HTML records of WARC archives (.warc, .warc.gz)."

EPILOG = """\
inputs:
  local paths and globs ('crawl/*.warc.gz'), - for standard input, http(s):// URLs (streamed; --offset and
  --length become a range request), and any fsspec URL (s3://, gs://, ...) with fsspec and its backend installed
  (pip install 'stream-mf2[remote]'). --input-list FILE adds one name per line (# comments; .gz allowed),
  relative names prefixed with --input-prefix (e.g. https://data.commoncrawl.org/ for a warc.paths.gz).

output (-o NAME, by its ending; standard output when absent):
  .jsonl / other  JSON Lines          .jsonl.gz  gzip-compressed     .jsonl.zst  zstd-compressed (extra: zstd)
  .parquet        X.parquet (items, a "syntax" column), X.records.parquet (records), X.errors.parquet (errors) (extra: parquet)
  A named output is written under NAME.partial and renamed into place when the run completes.

schema (version 4; every line has a "kind"; "schema" is on record, error and summary lines):
  {"kind": "item", "syntax", "warc_file", "offset", "record_id", "uri", "path", "item"[, "children-streamed"]}
      path: where the item sits in the record's items, e.g. [0] or [0, "children", 3]
      syntax: "mf2", or with --syntaxes another syntax ("json-ld", "microdata", "rdfa", "opengraph",
      "twitter", "dublincore"): item is one entry of that syntax's results, path its index [i] in them
  {"kind": "record", "schema", "warc_file", "offset", "length", "record_id", "uri", "date", "status",
      "content_type", "warc_type", "encoding", "encoding_source", "items", "rels", "rel-urls", "notes", "parsed"
      [, "meta-item"]}
      one per HTML record, always, after its items and errors; offset/length locate the record
      (the gzip member for .warc.gz), as a CDX index does; "parsed": false when --prefilter skipped it
  {"kind": "error", "schema", "scope": "record"|"file", "warc_file", "offset", "record_id", "uri", "error"}
  {"kind": "summary", "schema", "files", "files_failed", "records", "html_records", "items", "errors", "skipped",
      "unparsed"}
      the last line

exit status:
  0  every input was read (damaged records are error lines, not failures)
  1  fatal: the output cannot be written, a bad checkpoint, ...
  2  bad command line
  3  some inputs could not be read (each has an error line with scope "file")
  4  no input could be read
"""


_Parser = ArgumentParser
_nonneg_int = nonneg_int


#: ``--checkpoint-records`` when not given.
CHECKPOINT_RECORDS = 1000


def add_run_arguments(p: argparse.ArgumentParser) -> None:
    """The inputs, output, resume, worker and reader options of a WARC run (``warc`` and ``wpt``)."""
    p.add_argument("--input-list", action="append", default=[], metavar="FILE", help="read input names from FILE")
    p.add_argument(
        "--input-prefix",
        metavar="PREFIX",
        help="put PREFIX before relative names of --input-list files (e.g. https://data.commoncrawl.org/)",
    )
    p.add_argument(
        "-o", "--output", metavar="OUT", help="output file (by ending: .jsonl, .jsonl.gz, .jsonl.zst, .parquet)"
    )
    p.add_argument(
        "--summary-json", metavar="FILE", help="write per-input counts (records, items, bytes, seconds) here"
    )
    p.add_argument("--offset", type=_nonneg_int, metavar="N", help="read from byte N of the (single) input")
    p.add_argument("--length", type=_nonneg_int, metavar="M", help="read M bytes (one record from a CDX index)")
    p.add_argument(
        "--resume", action="store_true", help="checkpoint, and go on from a killed run's checkpoint (needs -o)"
    )
    p.add_argument(
        "--checkpoint-records",
        type=int,
        default=None,
        metavar="N",
        help=f"with --resume, checkpoint every N records (default {CHECKPOINT_RECORDS})",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="parse a local file's records in N processes (checkpointed per file); standard input, URLs and "
        "--offset/--length are read in one process (refused when no input is a local file)",
    )
    p.add_argument(
        "--timeout", type=positive_seconds, default=60.0, metavar="S", help="seconds to wait for a remote server"
    )
    p.add_argument(
        "--max-decoded-bytes",
        type=_nonneg_int,
        default=DEFAULT_MAX_DECODED_BYTES,
        metavar="N",
        help=f"stop a record whose compressed body decodes past N bytes (default {DEFAULT_MAX_DECODED_BYTES})",
    )
    p.add_argument(
        "--max-expansion",
        type=nonneg_number,
        default=DEFAULT_MAX_EXPANSION,
        metavar="X",
        help=f"stop a record whose compressed body expands more than X times (default {DEFAULT_MAX_EXPANSION:g}; 0: no limit)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar even on a terminal")


def build_parser() -> argparse.ArgumentParser:
    from stream_mf2.cli._common import add_parser_options
    from stream_mf2.warc.prefilter import DEFAULT_MAX_PREFILTER_BYTES

    p = _Parser(prog=PROG, description=DESCRIPTION, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="*", metavar="INPUT", help="WARC files, globs, URLs, or - for standard input")
    add_run_arguments(p)
    p.add_argument(
        "--type",
        metavar="TYPES",
        help="only mf2 items of these types (comma-separated, e.g. h-entry,h-card), found at any depth, with their "
        "path (the items of other --syntaxes are all written)",
    )
    p.add_argument(
        "--prefilter",
        action="store_true",
        help="items only: do not parse HTML records whose bytes cannot hold a root class name (h-*, vcard, "
        "hentry, ...); their record lines say \"parsed\": false and carry no rels (see docs: web archives)",
    )
    p.add_argument(
        "--max-prefilter-bytes",
        type=_nonneg_int,
        default=DEFAULT_MAX_PREFILTER_BYTES,
        metavar="N",
        help=f"with --prefilter, parse a record anyway once N bytes of it were held without a root class name "
        f"(default {DEFAULT_MAX_PREFILTER_BYTES}; 0: no limit)",
    )
    p.add_argument(
        "--stream-children",
        nargs="?",
        const="",
        default=None,
        metavar="TYPES",
        help="write the children of container items (e.g. a page-wide h-feed) as they close, before the container "
        "(--stream-children=TYPES or --stream-children TYPES limits which containers)",
    )
    # The parse options are those of 'stream-mf2 FILE' (one declaration); a record's URL is its target URI.
    add_parser_options(p, url=False)
    from stream_mf2.cli import dask as _cli_dask

    _cli_dask.add_arguments(p)
    return p


class _Progress:
    """A progress bar on standard error: bytes of the inputs, records, items and items/s."""

    def __init__(self, inputs: Sequence[str]) -> None:
        from tqdm import tqdm

        from stream_mf2.warc.inputs import url_scheme

        self._sizes = []
        for name in inputs:
            try:
                size = os.path.getsize(name) if name != "-" and url_scheme(name) is None else 0
            except OSError:
                size = 0
            self._sizes.append(size)
        total = sum(self._sizes)
        self._bar = tqdm(
            total=total or None,
            unit="B",
            unit_scale=True,
            unit_divisor=1024,
            file=sys.stderr,
            dynamic_ncols=True,
            leave=False,
        )
        self._index = 0
        self._done = [0, 0, 0]  # bytes, records, items of finished inputs
        self._t0 = time.perf_counter()
        self._shown = 0.0

    def _show(self, position: int, records: int, items: int) -> None:
        self._shown = time.perf_counter()
        total = self._bar.total
        pos = self._done[0] + position
        self._bar.n = min(pos, total) if total else pos
        rate = items / max(self._shown - self._t0, 1e-9)
        self._bar.set_postfix_str(f"{records} records, {items} items, {rate:.0f} items/s", refresh=False)
        self._bar.refresh()

    def unit(self, position: int, gzip: bool, s: Any) -> None:
        if time.perf_counter() - self._shown >= 0.1:
            self._show(position, self._done[1] + s.records, self._done[2] + s.items)

    def file_done(self, fs: Any) -> None:
        size = self._sizes[self._index] if self._index < len(self._sizes) else 0
        self._index += 1
        self._done[0] += size
        self._done[1] += fs.records
        self._done[2] += fs.items
        self._show(0, self._done[1], self._done[2])

    def close(self) -> None:
        self._bar.close()


def _names(value: str | None) -> frozenset[str]:
    return frozenset(t.strip() for t in (value or "").split(",") if t.strip())


def _fail(prog: str, message: str, status: int = 2) -> NoReturn:
    print(f"{prog}: error: {message}", file=sys.stderr)
    raise SystemExit(status)


def check_run_arguments(ns: argparse.Namespace, prog: str) -> None:
    """Refuse run options that cannot go together (status 2)."""
    if ns.workers < 1:
        _fail(prog, "--workers must be at least 1")
    if ns.checkpoint_records is None:
        ns.checkpoint_records = CHECKPOINT_RECORDS
    elif not ns.resume:
        # flags that would change nothing without another are refused, not ignored
        _fail(prog, "--checkpoint-records sets how often --resume checkpoints: give it with --resume")
    if ns.checkpoint_records < 1:
        _fail(prog, "--checkpoint-records must be at least 1")
    if ns.input_prefix is not None and not ns.input_list:
        _fail(prog, "--input-prefix goes before the names read from --input-list files: give it with --input-list")
    if ns.output and output_name_kind(ns.output) == "json":
        # JSON Lines under a .json name would not load as JSON: say so before the run, not after
        _fail(
            prog,
            f"cannot write {ns.output}: {prog} writes JSON Lines (a line per item, record, ...), not one JSON "
            "document: name it .jsonl (.jsonl.gz, .jsonl.zst) or .parquet",
            1,
        )
    if ns.resume and (not ns.output or ns.output == "-") and not getattr(ns, "dask", None):
        _fail(prog, "--resume needs a named output (-o FILE)")
    if ns.summary_json:
        # written at the end: a folder that is not there would fail the run after all its work
        folder = os.path.dirname(os.path.abspath(ns.summary_json))
        if not os.path.isdir(folder):
            shown = os.path.dirname(ns.summary_json) or folder
            _fail(prog, f"cannot write {ns.summary_json}: no folder {shown} (create it first)", 1)


def run_inputs(ns: argparse.Namespace, prog: str) -> list[str]:
    """The inputs of the run: names, globs and list files expanded."""
    from stream_mf2.warc import inputs as _inputs

    try:
        inputs = _inputs.expand_inputs(ns.files, ns.input_list, prefix=ns.input_prefix, timeout=ns.timeout)
    except StreamMF2Error as e:
        _fail(prog, str(e), 1)
    if not inputs:
        _fail(prog, "an input is required: give WARC files, URLs, - or --input-list")
    if inputs.count("-") > 1:
        # the second reading would find standard input at its end: an empty input, not a second copy
        _fail(prog, "- (standard input) is given more than once: it can be read only once", 2)
    if (ns.offset is not None or ns.length is not None) and len(inputs) != 1:
        _fail(prog, "--offset and --length apply to a single input")
    return inputs


def check_workers(ns: argparse.Namespace, prog: str, inputs: Sequence[str]) -> None:
    """``--workers N`` splits a local file's records between processes; say where it cannot.

    Standard input and URLs are read front to back in one process, as is one record range
    (``--offset``/``--length``): a run where no input can be split is refused (status 2),
    and one where only some can names the others on stderr, instead of quietly using one
    process for them.
    """
    from stream_mf2.warc.inputs import STDIN, url_scheme

    if ns.workers <= 1 or getattr(ns, "dask", None):
        return
    if ns.offset is not None or ns.length is not None:
        _fail(prog, "--workers cannot go with --offset/--length: one record range is read in one process")
    serial = [name for name in inputs if name == STDIN or url_scheme(name) is not None]
    if len(serial) == len(inputs):
        _fail(
            prog,
            "--workers splits local WARC files between processes: standard input and URLs are read in one "
            "process (drop --workers, or use --dask to spread several inputs)",
        )
    if serial:
        shown = ", ".join(serial[:3]) + (f" and {len(serial) - 3} more" if len(serial) > 3 else "")
        print(f"{prog}: warning: --workers: {shown} read in one process (not a local file)", file=sys.stderr)


def run_options(ns: argparse.Namespace, parser_opts: dict[str, Any], **more: Any) -> Any:
    """The runner's :class:`~stream_mf2.warc.runner.Options` from the run arguments."""
    from stream_mf2.warc import runner as warc_run

    return warc_run.Options(
        parser=parser_opts,
        max_decoded_bytes=ns.max_decoded_bytes or None,
        max_expansion=ns.max_expansion or None,
        offset=ns.offset,
        length=ns.length,
        workers=ns.workers,
        timeout=ns.timeout,
        **more,
    )


def main(argv: Sequence[str], out: IO[bytes]) -> int:
    """Run ``stream-mf2 warc``; return the exit status."""
    ns = build_parser().parse_args(argv)
    from stream_mf2.cli import dask as _cli_dask
    from stream_mf2.cli._common import other_syntaxes, parser_options

    check_run_arguments(ns, PROG)
    if problem := _cli_dask.check(ns):
        _fail(PROG, problem)
    parser_opts = parser_options(ns)
    if ns.prefilter and other_syntaxes(parser_opts):
        _fail(PROG, "--prefilter looks for mf2 root class names only: it cannot go with --syntaxes other than mf2")
    if ns.stream_children is not None:
        parser_opts["stream_children"] = _names(ns.stream_children) or True
    types = type_option(ns.type, PROG)
    inputs = run_inputs(ns, PROG)
    check_workers(ns, PROG, inputs)
    options = run_options(
        ns, parser_opts, types=types, prefilter=ns.prefilter, max_prefilter_bytes=ns.max_prefilter_bytes or None
    )
    if ns.dask:
        try:
            return _cli_dask.run(inputs, ns, options, summary_json=ns.summary_json)
        except StreamMF2Error as e:
            _fail(PROG, " ".join(str(e).split()), 1)
    return run(ns, inputs, options, out, PROG)


def type_option(value: str | None, prog: str) -> frozenset[str] | None:
    """The ``--type`` names (``None``: not given), checked as ``warc`` and ``wpt --items`` check them:
    none at all exits 2; a name that can never match is a warning, and exits 2 if no name can."""
    types = _names(value) or None
    if value is not None and types is None:
        _fail(prog, "--type needs at least one type, e.g. --type h-entry")
    if types is not None:
        _check_types(types, prog)
    return types


def _check_types(types: frozenset[str], prog: str) -> None:
    """Say which ``--type`` names can never match (item types are ``h-*`` names); exit 2 if none can."""
    from stream_mf2.mf2.backcompat_data import ROOT_CLASSES

    never = sorted(t for t in types if not t.startswith("h-") or len(t) < 3)
    for name in never:
        mf1 = ROOT_CLASSES.get(name)
        hint = f"; classic {name} items are typed {mf1}" if mf1 else ""
        print(f"{prog}: warning: --type {name} can never match: item types are h-* names{hint}", file=sys.stderr)
    if len(never) == len(types):
        _fail(prog, "no --type can match (give h-* types, e.g. --type h-entry)")


def run(
    ns: argparse.Namespace, inputs: Sequence[str], options: Any, out: IO[bytes], prog: str, *, no_lines: str | None = None
) -> int:
    """Run ``inputs`` through the WARC runner as the command line asks; the exit status.

    Standard output (written as it comes) or ``-o`` (atomic, resumable), a
    progress bar on a terminal, ``--summary-json`` and the summary on standard error.
    ``no_lines``: a warning for a run whose consumer wrote no line over HTML records.
    """
    from stream_mf2.warc import runner as warc_run
    from stream_mf2.warc.schema import SCHEMA_VERSION

    # Damaged records are error lines; keep stderr for the summary.
    logging.getLogger("warcio").addHandler(logging.NullHandler())
    bar = _Progress(inputs) if sys.stderr.isatty() and not ns.no_progress else None
    t0 = time.perf_counter()
    output = ns.output if ns.output and ns.output != "-" else None
    try:
        if output is None:
            from stream_mf2.warc.outputs import JsonlWriter

            # Standard output: not resumable, written as it comes.
            writer = JsonlWriter(None, stream=out)
            files = []
            for name in inputs:
                fs = warc_run.process_input(name, writer, options, on_unit=bar.unit if bar is not None else None)
                writer.flush()
                files.append(fs)
                if bar is not None:
                    bar.file_done(fs)
            writer.write(warc_run.summary_line(files))
            writer.close()
            result = warc_run.RunResult(files, warc_run.exit_status(files))
        else:
            result = warc_run.run(
                inputs,
                output,
                options,
                resume=ns.resume,
                checkpoint_records=ns.checkpoint_records,
                progress=bar.file_done if bar is not None else None,
                on_unit=bar.unit if bar is not None else None,
            )
    except StreamMF2Error as e:
        _fail(prog, " ".join(str(e).split()), 1)
    finally:
        if bar is not None:
            bar.close()
    files = result.files
    if ns.summary_json:
        data = {
            "schema": SCHEMA_VERSION,
            "files": [f.as_dict() for f in files],
            "total": warc_run.summary_line(files),
            "seconds": time.perf_counter() - t0,
        }
        try:
            with open(ns.summary_json, "w", encoding="utf-8") as f:
                json.dump(data, f, indent=1)
                f.write("\n")
        except OSError as e:
            _fail(prog, f"cannot write {ns.summary_json}: {e.strerror or e}", 1)
    total = warc_run.summary_line(files)
    for fs in files:
        if fs.failed:
            hint = _html_page_hint(fs.warc_file, prog) if fs.records == 0 else ""
            print(
                f"{prog}: {fs.warc_file}: could not be read: {fs.reason or 'see its error line'}{hint}", file=sys.stderr
            )
    extra = "".join(f"{n} {kind} lines, " for kind, n in total.items() if kind not in _SUMMARY_KEYS)
    unparsed = f"{total['unparsed']} not parsed (--prefilter), " if getattr(ns, "prefilter", False) else ""
    print(
        f"{prog}: {total['records']} records, {total['html_records']} HTML records, {total['items']} items, "
        f"{extra}{total['errors']} errors, {total['skipped']} skipped, {unparsed}"
        f"{total['files_failed']} of {total['files']} inputs failed, {time.perf_counter() - t0:.2f} s",
        file=sys.stderr,
    )
    if no_lines is not None and not extra and total["html_records"]:
        print(f"{prog}: warning: {no_lines}", file=sys.stderr)
    return int(result.status)


def _html_page_hint(name: str, prog: str) -> str:
    """For a local input with no WARC record that is an HTML page (a doctype, ``<html>``,
    ``<head>``, ``<body>``, ``<meta>`` or ``<title>`` in its first bytes): which command reads
    it, as the page command names ``stream-mf2 warc`` for an archive given as a page. ``""``
    otherwise."""
    if name == "-" or "://" in name:
        return ""
    try:
        with open(name, "rb") as f:
            head = f.read(512)
    except OSError:
        return ""
    import re

    if not re.search(rb"<(?:!doctype\s+html|html|head|body|meta|title)[\s>/]", head, re.IGNORECASE):
        return ""
    if prog.endswith(" wpt"):
        return "; it is an HTML page: give HTML pages without --warc (or --input-list)"
    import shlex

    return f"; it is an HTML page: read it with '{PROG.split()[0]} {shlex.quote(name)}'"


_SUMMARY_KEYS = frozenset(
    {"kind", "schema", "files", "files_failed", "records", "html_records", "items", "errors", "skipped", "unparsed"}
)
