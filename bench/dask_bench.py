"""Distributed WARC runs: the Dask runner with 1 and 2 workers against the plain single-process command.

Usage::

    python -m bench.dask_bench                         # 8 archives of 4MB of HTTP bodies, 1 and 2 workers
    python -m bench.dask_bench --files 4 --size 1MB    # a quick run

One archive is generated with :func:`bench.warc_bench.write_archives` (the same
records as the WARC benchmark: HTML pages, assets, requests, revisits, gzip and
chunked bodies) and copied ``--files`` times under different names, so every task
has the same work and the speed-up measures the runner, not the load balance.

Each measurement runs in a fresh child process:

``single``
    ``stream-mf2 warc FILES... -o out.jsonl.gz``: the wall time of the command, and the
    time it reports itself (after interpreter start and imports).
``dask N``
    a ``LocalCluster`` of N worker processes (one thread each) is started and warmed up
    (stream_mf2 imported in every worker), then :func:`stream_mf2._dask.run_warc_dask`
    is timed over the same files into a fresh folder. Cluster start-up is reported
    apart. ``overhead`` is the run's wall time times N minus the time the tasks spent
    reading and writing (the manifests' ``seconds``): scheduler round trips,
    serialisation of tasks and results, the check for existing parts, idle workers.
    A second figure, ``no-op task``, is the mean round trip of 200 empty tasks
    submitted together on the same cluster.

Speed-up is ``dask 1`` wall time / ``dask 2`` wall time; Dask's overhead is ``dask 1``
wall time minus the single command's own time, as a share of the latter.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.memory import run_json_child
from bench.run import REPO, machine_info, write_results
from bench.streams import format_size, parse_size
from bench.warc_bench import write_archives

NOOP_TASKS = 200


def make_inputs(folder: Path, files: int, size: int) -> list[Path]:
    """``files`` copies of one generated ``.warc.gz`` of ``size`` bytes of HTTP bodies."""
    made = write_archives(folder, size)
    src = Path(made["files"]["gzip"]["path"])
    out = []
    for i in range(files):
        dst = folder / f"crawl-{i:03d}.warc.gz"
        shutil.copyfile(src, dst)
        out.append(dst)
    return out


def child_single(paths: list[str], out: str) -> dict[str, Any]:
    """The plain command in its own process; its wall time and the time it reports."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "stream_mf2", "warc", *paths, "-o", out, "--no-progress"],
                          cwd=REPO, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        return {"error": f"exit {proc.returncode}: {proc.stderr.strip()[-200:]}"}
    reported = re.findall(r"([0-9.]+) s\b", proc.stderr)
    return {"wall_s": wall, "run_s": float(reported[-1]) if reported else wall}


def _noop(x: int) -> int:
    return x


def child_dask(paths: list[str], out: str, workers: int) -> dict[str, Any]:
    """Start a local cluster of ``workers`` processes, warm it, time one run and the no-op round trip."""
    import importlib

    import distributed

    from stream_mf2 import _dask

    dist: Any = distributed
    t0 = time.perf_counter()
    with dist.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                           dashboard_address=":0") as cluster, dist.Client(cluster) as client:
        client.run(importlib.import_module, "stream_mf2._dask")
        client.run(importlib.import_module, "stream_mf2.warc_run")
        start_s = time.perf_counter() - t0
        t1 = time.perf_counter()
        summary = _dask.run_warc_dask(client, paths, out)
        wall = time.perf_counter() - t1
        task_s = sum(float(p.get("seconds", 0.0)) for p in summary.parts)
        t2 = time.perf_counter()
        client.gather(client.map(_noop, range(NOOP_TASKS), pure=False))
        noop = (time.perf_counter() - t2) / NOOP_TASKS
    if summary.failed:
        return {"error": f"{len(summary.failed)} inputs failed: {summary.failed[0]['error']}"}
    return {"wall_s": wall, "start_s": start_s, "task_s": task_s, "overhead_s": wall * workers - task_s,
            "noop_task_s": noop, "records": summary.total("records"), "items": summary.total("items"),
            "parts": len(summary.parts)}


def measure(files: int, size: int, workers: list[int], timeout: float = 900.0,
            log: Any = None) -> dict[str, Any]:
    """Generate the inputs, then one child per row: single, and dask with each worker count."""
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="bench-dask-") as tmp:
        folder = Path(tmp)
        paths = [str(p) for p in make_inputs(folder, files, size)]
        total = sum(os.path.getsize(p) for p in paths)
        listing = folder / "inputs.json"
        listing.write_text(json.dumps(paths))
        runs: list[tuple[str, int]] = [("single", 1), *(("dask", n) for n in workers)]
        for kind, n in runs:
            out = folder / f"out-{kind}-{n}"
            cmd = [sys.executable, "-m", "bench.dask_bench", "--child", kind, "--inputs", str(listing),
                   "--out", str(out) + (".jsonl.gz" if kind == "single" else ""), "--workers", str(n)]
            row: dict[str, Any] = {"run": kind, "workers": n, "files": files, "bytes": total}
            row.update(run_json_child(cmd, timeout))
            if row.get("wall_s"):
                row["mb_s"] = total / row["wall_s"] / 1e6
            rows.append(row)
            if log is not None:
                log(f"  dask-bench {kind:6} workers {n}: {row.get('wall_s', 0):7.2f} s  {row.get('error') or ''}")
    return {"files": files, "size": size, "rows": rows, **derived(rows)}


def derived(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Speed-up of 2 workers over 1, and Dask's overhead against the single command's own time."""
    by = {(r["run"], r["workers"]): r for r in rows if not r.get("error")}
    out: dict[str, Any] = {}
    single, one, two = by.get(("single", 1)), by.get(("dask", 1)), by.get(("dask", 2))
    if one and two:
        out["speedup_2_vs_1"] = one["wall_s"] / two["wall_s"]
    if single and one:
        out["dask1_minus_single_s"] = one["wall_s"] - single["run_s"]
        out["overhead_share_of_single"] = (one["wall_s"] - single["run_s"]) / single["run_s"]
        out["overhead_per_task_s"] = one["overhead_s"] / max(one["parts"], 1)
    return out


def format_rows(result: dict[str, Any]) -> str:
    """A plain-text table of one :func:`measure` result, then the derived figures."""
    header = f"{'run':8} {'workers':>7} {'files':>5} {'MB':>7} {'wall s':>8} {'MB/s':>7} {'start s':>7} " \
             f"{'task s':>7} {'overhead s':>10} {'no-op task ms':>13}  note"
    out = [header, "-" * len(header)]
    for r in result["rows"]:
        out.append(f"{r['run']:8} {r['workers']:>7} {r['files']:>5} {r['bytes'] / 1e6:>7.1f} {r.get('wall_s', 0):>8.2f} "
                   f"{r.get('mb_s', 0):>7.2f} {r.get('start_s', 0):>7.2f} {r.get('task_s', 0):>7.2f} "
                   f"{r.get('overhead_s', 0):>10.3f} {r.get('noop_task_s', 0) * 1e3:>13.2f}  "
                   + (r.get("error") or (f"single-process own time {r['run_s']:.2f} s" if r["run"] == "single" else "")))
    if "speedup_2_vs_1" in result:
        out.append(f"speed-up, 2 workers vs 1: {result['speedup_2_vs_1']:.2f}x")
    if "overhead_share_of_single" in result:
        out.append(f"Dask with 1 worker vs the single-process command: {result['dask1_minus_single_s']:+.2f} s "
                   f"({result['overhead_share_of_single'] * 100:+.1f} %); overhead per task "
                   f"{result['overhead_per_task_s'] * 1e3:.1f} ms")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.dask_bench", description="The Dask runner against one process.")
    ap.add_argument("--files", type=int, default=8, help="number of archives (default 8)")
    ap.add_argument("--size", default="4MB", help="HTTP body bytes per archive (default 4MB)")
    ap.add_argument("--workers", default="1,2", help="comma-separated worker counts (default 1,2)")
    ap.add_argument("--json", type=Path, default=None, help="results file (default bench/results/dask-<timestamp>.json)")
    ap.add_argument("--child", choices=("single", "dask"), help=argparse.SUPPRESS)
    ap.add_argument("--inputs", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    workers = [int(w) for w in str(args.workers).split(",") if w.strip()]
    if args.child:
        paths = json.loads(Path(args.inputs).read_text())
        result = child_single(paths, args.out) if args.child == "single" else child_dask(paths, args.out, workers[0])
        print(json.dumps(result), flush=True)
        return 0
    started = dt.datetime.now(dt.UTC)
    size = parse_size(args.size)
    print(f"Dask benchmark: {args.files} archives of {format_size(size)} of HTTP bodies, workers {workers}", flush=True)
    result = measure(args.files, size, workers, log=lambda s: print(s, flush=True))
    print(format_rows(result))
    doc = {"started_utc": started.isoformat(), "finished_utc": dt.datetime.now(dt.UTC).isoformat(),
           "machine": machine_info(), "settings": {"files": args.files, "size": size, "workers": workers},
           "dask": result}
    path = write_results(doc, args.json, started, "dask-")
    print(f"\nResults written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
