"""``stream-mf2 warc --dask ...``: the command-line face of :mod:`stream_mf2.warc.dask`.

``--dask local[:N]`` starts a ``LocalCluster`` of N worker processes (one thread
each; default: one per core) for the run and stops it after; ``--dask
tcp://HOST:PORT`` (or any scheduler address) uses a running cluster. Parts,
manifests and ``_summary.json`` go to ``--output-dir``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from stream_mf2.warc.runner import Options

PROG = "stream-mf2 warc"


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``--dask`` options of ``stream-mf2 warc``."""
    g = p.add_argument_group("distributed runs (needs the 'dask' extra)")
    g.add_argument(
        "--dask",
        metavar="local[:N]|ADDRESS",
        help="run one Dask task per input file: 'local' or 'local:N' starts N worker processes on this machine "
        "(default one per core), 'tcp://HOST:PORT' uses a running scheduler. Needs --output-dir. Each input "
        "becomes one part file plus a manifest; parts already complete are kept, so rerunning the same "
        "command after an interruption finishes the job",
    )
    g.add_argument(
        "--output-dir",
        metavar="DIR",
        help="with --dask: folder (local path or fsspec URL such as s3://bucket/prefix) for the parts, their "
        "manifests and _summary.json",
    )
    g.add_argument(
        "--part-format",
        choices=("jsonl.gz", "jsonl", "jsonl.zst", "parquet"),
        default="jsonl.gz",
        help="with --dask: format of each part (default jsonl.gz)",
    )


def parse_dask_target(value: str) -> tuple[str, int | None]:
    """``("local", N or None)`` or ``("address", None)`` for a ``--dask`` value."""
    if value == "local" or value.startswith("local:"):
        _, _, n = value.partition(":")
        if not n:
            return "local", None
        if not n.isdigit() or int(n) < 1:
            raise ValueError(f"--dask {value}: the number of local workers must be a positive integer")
        return "local", int(n)
    if "://" in value:
        return value, None
    raise ValueError(f"--dask {value}: expected local, local:N or a scheduler address such as tcp://HOST:PORT")


@contextlib.contextmanager
def connect(target: str) -> Iterator[Any]:
    """A ``distributed.Client`` for a ``--dask`` value; a local cluster lives as long as the block."""
    import distributed

    dist: Any = distributed  # its constructors carry no type hints
    kind, n = parse_dask_target(target)
    if kind != "local":
        with dist.Client(kind) as client:
            yield client
        return
    with local_cluster(n or os.cpu_count() or 1) as cluster, dist.Client(cluster) as client:
        yield client


#: Dask settings of the local clusters started here, chosen for a few long CPU-bound tasks in
#: pure Python. Every periodic callback of a worker's event loop takes the GIL from the task's
#: thread, so fewer of them leave more of the CPU to the parser. Measured on an idle
#: ``local:2`` cluster (2 cores): 0.09-0.12 CPU seconds per second with Dask's defaults,
#: 0.013-0.017 with these.
#:
#: * the stack-sampling profiler (every 10 ms, for the dashboard's profile page): off;
#: * the event-loop health check (``admin.tick``, every 20 ms; it only logs a warning when
#:   the loop was blocked for seconds): every second. This is most of the idle cost;
#: * the system monitor (dashboard graphs) every 2 s, and the memory monitor (pause or
#:   restart a worker near its memory limit) every 0.5 s instead of 0.1 s: the parser's
#:   memory is bounded by its limits, so a slower reaction is safe;
#: * work stealing: off. Tasks are queued at the scheduler and handed to a worker when it has
#:   a free thread, so there is nothing to steal, only a periodic rebalance to compute;
#: * GIL contention sampling (every 1 ms when ``gilknocker`` is installed): off.
#:
#: On a cluster of your own, set the same through Dask's configuration (a YAML file or
#: ``DASK_DISTRIBUTED__ADMIN__TICK__INTERVAL=1s`` style environment variables).
LOCAL_CONFIG: dict[str, object] = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.admin.system-monitor.gil.enabled": False,
    "distributed.worker.memory.monitor-interval": "500ms",
    "distributed.scheduler.work-stealing": False,
}


def _have_bokeh() -> bool:
    return importlib.util.find_spec("bokeh") is not None


@contextlib.contextmanager
def local_cluster(workers: int) -> Iterator[Any]:
    """A ``LocalCluster`` of ``workers`` processes with one thread each, on 127.0.0.1, with :data:`LOCAL_CONFIG`.

    The scheduler's HTTP server (the dashboard when bokeh is installed, else only health and
    metrics pages) gets a free port, so runs never clash.
    """
    import dask
    import distributed

    dist: Any = distributed
    with (
        dask.config.set(LOCAL_CONFIG),
        dist.LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=":0"
        ) as cluster,
    ):
        yield cluster


def dashboard_link(client: Any, local: bool) -> str:
    """The scheduler's dashboard URL, or how to get one."""
    if local and not _have_bokeh():
        return "dashboard: pip install bokeh"
    try:
        services = client.scheduler_info().get("services", {})
    except Exception:  # a scheduler that does not say
        services = {}
    if "dashboard" not in services:
        return "no dashboard"
    return f"dashboard {client.dashboard_link}"


def check(ns: argparse.Namespace) -> str | None:
    """What is wrong with the ``--dask`` options combined with the others, if anything."""
    if not ns.dask:
        return "--output-dir and --part-format need --dask" if ns.output_dir else None
    if not ns.output_dir:
        return "--dask needs --output-dir (each input becomes a part file there)"
    if ns.output:
        return "--dask writes parts to --output-dir, not to -o"
    if ns.offset is not None or ns.length is not None:
        return "--offset and --length read one record: run them without --dask"
    if "-" in ns.files:
        return "standard input (-) cannot be read by Dask workers: give files or URLs"
    if ns.workers != 1:
        return "--workers does not apply with --dask (one task per file): use --dask local:N"
    try:
        parse_dask_target(ns.dask)
    except ValueError as e:
        return str(e)
    return None


class _Progress:
    """A bar of finished inputs on standard error (a terminal), with records, items and failures so far.

    Fed by the run's ``as_completed`` loop; the per-input lines are written above it.
    """

    def __init__(self, total: int) -> None:
        from tqdm import tqdm

        self._bar = tqdm(total=total, unit="file", file=sys.stderr, dynamic_ncols=True, leave=False)
        self._counts = [0, 0, 0]  # records, items, failed inputs

    def write(self, line: str) -> None:
        self._bar.write(line, file=sys.stderr)

    def update(self, result: dict[str, Any]) -> None:
        self._counts[0] += int(result.get("records") or 0)
        self._counts[1] += int(result.get("items") or 0)
        self._counts[2] += result.get("status") in ("failed", "lost")
        records, items, failed = self._counts
        self._bar.set_postfix_str(f"{records} records, {items} items, {failed} failed", refresh=False)
        self._bar.update(1)
        self._bar.refresh()  # inputs finish seconds apart: show each one, whatever tqdm's minimum interval

    def close(self) -> None:
        self._bar.close()


def run(inputs: Sequence[str], ns: argparse.Namespace, options: Options, summary_json: str | None = None) -> int:
    """Run ``inputs`` on the cluster named by ``ns.dask``; the exit status.

    ``--resume`` changes nothing here: a Dask run always keeps the parts that are
    already complete. ``--workers`` does not apply (one task per file instead).
    On a terminal a progress bar of finished inputs runs below the per-input lines
    (not with ``--no-progress``); the dashboard link, when there is one, shows Dask's own.
    """
    from stream_mf2.warc import dask as _dask

    _dask.require_extra()
    bar: _Progress | None = None
    with connect(ns.dask) as client:
        link = dashboard_link(client, ns.dask.startswith("local"))
        workers = len(client.scheduler_info().get("workers", {}))
        print(
            f"{PROG}: {len(inputs)} inputs on {workers} Dask workers ({ns.dask}), {link}", file=sys.stderr, flush=True
        )
        if sys.stderr.isatty() and not ns.no_progress:
            bar = _Progress(len(inputs))

        def on_result(result: dict[str, Any], finished: int, total: int) -> None:
            status = result.get("status")
            what = (
                f"{result.get('records', 0)} records, {result.get('items', 0)} items, {result.get('errors', 0)} errors"
                if status in ("done", "skipped")
                else str(result.get("error"))
            )
            line = f"{PROG}: [{finished}/{total}] {status} {result.get('part')}: {what} ({result.get('input')})"
            if bar is None:
                print(line, file=sys.stderr, flush=True)
                return
            bar.write(line)
            bar.update(result)

        try:
            summary = _dask.run_warc_dask(
                client, list(inputs), ns.output_dir, fmt=ns.part_format, options=options, on_result=on_result
            )
        finally:
            if bar is not None:
                bar.close()
    doc = summary.as_dict()
    if summary_json:
        import json

        with open(summary_json, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
    print(
        f"{PROG}: {doc['files']} inputs: {doc['parts_written']} parts written, {doc['parts_skipped']} already "
        f"complete, {doc['files_failed']} failed; {doc['records']} records, {doc['items']} items, "
        f"{doc['errors']} errors; {doc['seconds']:.2f} s; summary in {ns.output_dir.rstrip('/')}/{_dask.SUMMARY_NAME}",
        file=sys.stderr,
        flush=True,
    )
    for failure in summary.failed:
        print(f"{PROG}: failed: {failure['input']}: {failure['error']}", file=sys.stderr)
    return summary.status
