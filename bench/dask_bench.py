"""Distributed WARC runs: the Dask runner with 1 and 2 workers against the plain single-process command.

Usage::

    python -m bench.dask_bench                         # 8 archives of 4MB of HTTP bodies, 1 and 2 workers
    python -m bench.dask_bench --files 4 --size 1MB    # a quick run

One archive is generated with :func:`bench.warc_bench.write_archives` (the same
records as the WARC benchmark: HTML pages, assets, requests, revisits, gzip and
chunked bodies) and copied ``--files`` times under different names, so every task
has the same work and the speed-up measures the runner, not the load balance.

Each measurement runs in a fresh child process, ``--rounds`` times, interleaved (single,
Dask 1, Dask 2, single, …), so a change in the machine's load touches every run:

``single``
    :func:`stream_mf2.warc.runner.run` over the files into ``out.jsonl.gz``: what
    ``stream-mf2 warc FILES... -o out.jsonl.gz`` runs, timed after its imports.
``plain 2``
    two such processes at once, each over half of the files into its own output,
    released together once both have imported: the machine's own ceiling for two
    CPU-bound processes (shared caches and memory bandwidth, a virtual machine's CPU
    steal), which no runner can beat. Its wall time is the slower one's.
``dask N``
    the ``LocalCluster`` of ``--dask local:N`` (N worker processes, one thread each) is started and warmed up
    (stream_mf2 imported in every worker), then :func:`stream_mf2.warc.dask.run_warc_dask`
    is timed over the same files into a fresh folder (parts in ``.jsonl.gz``). Cluster
    start-up is reported apart. ``idle+sched`` is the run's wall time times N minus the
    time the tasks spent reading and writing (the manifests' ``seconds``): scheduler round
    trips, serialisation of tasks and results, the check for existing parts, and workers
    waiting (for the last task, or for a CPU on a loaded machine). ``no-op`` is the mean
    round trip of 200 empty tasks submitted together on the same cluster; ``idle CPU`` the
    CPU seconds per second the whole cluster (workers, nannies, scheduler, client) uses
    when it has nothing to do, measured over a few seconds after the run.

Same work, same environment: the plain processes run with the environment a Dask nanny gives
its workers (``distributed.nanny.pre-spawn-environ``: ``MALLOC_TRIM_THRESHOLD_`` and the
thread-count variables, and a fixed ``PYTHONHASHSEED``), so the only difference left is Dask.
Both write gzip level 6 JSON Lines; ``task s`` is the time spent reading inputs and writing
lines, per input summed (``FileSummary.seconds`` in the plain processes, the manifests'
``seconds`` with Dask), so the work per file can be compared directly.

Wall time and CPU time are both reported: on a machine shared with other work, wall time
measures the share of the CPUs a run got as much as the run, and CPU time (all processes
of the run: workers, scheduler, nannies, client) is the steadier measure of overhead.

Speed-up is the best ``dask 1`` wall time / the best ``dask 2`` wall time, printed next to
the ceiling (best ``single`` / best ``plain 2``); Dask's overhead is ``dask 1`` against
``single``, in wall time and in CPU time, as a share of ``single``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.run import machine_info, write_results
from bench.streams import format_size, parse_size
from bench.warc_bench import write_archives

NOOP_TASKS = 200
#: Seconds an idle cluster is watched for its own CPU use.
IDLE_SECONDS = 3.0


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


def _cpu_s(who: int = resource.RUSAGE_SELF) -> float:
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def child_single(paths: list[str], out: str, barrier: bool = False) -> dict[str, Any]:
    """What ``stream-mf2 warc FILES... -o out.jsonl.gz`` runs (:func:`stream_mf2.warc.runner.run`), timed in-process.

    Imports are done before the clock starts, as the Dask workers are warmed before theirs.
    With ``barrier``, prints ``ready`` and waits for a line on standard input first, so that
    two of them can be released at the same moment.
    """
    import logging

    from stream_mf2.warc import runner as warc_run

    logging.getLogger("warcio").addHandler(logging.NullHandler())
    if barrier:
        print("ready", flush=True)
        sys.stdin.readline()
    cpu0 = _cpu_s()
    t0 = time.perf_counter()
    result = warc_run.run(paths, out, warc_run.Options())
    wall = time.perf_counter() - t0
    if result.status != 0:
        return {"error": f"exit status {result.status}"}
    return {"wall_s": wall, "cpu_s": _cpu_s() - cpu0, "records": sum(f.records for f in result.files),
            "items": sum(f.items for f in result.files), "task_s": sum(f.seconds for f in result.files),
            "parts": len(result.files)}


def worker_environment() -> dict[str, str]:
    """The environment variables a Dask nanny sets for its workers (see the module docs)."""
    import dask.config

    env = {str(k): str(v) for k, v in dict(dask.config.get("distributed.nanny.pre-spawn-environ", {})).items()}
    if env.get("PYTHONHASHSEED") in (None, "0"):
        env["PYTHONHASHSEED"] = "6640"  # what the nanny sets, for the same hashing in every worker
    return env


def _child_env() -> dict[str, str]:
    repo = str(Path(__file__).resolve().parent.parent)
    return {**os.environ, **worker_environment(),
            "PYTHONPATH": os.pathsep.join(filter(None, [repo, os.environ.get("PYTHONPATH")]))}


def _last_json(text: str) -> dict[str, Any] | None:
    lines = [ln for ln in text.splitlines() if ln.startswith("{")]
    return dict(json.loads(lines[-1])) if lines else None


def run_child(cmd: list[str], timeout: float) -> dict[str, Any]:
    """Run one child (``--child``) with the workers' environment; its JSON line or ``{"error": …}``."""
    try:
        proc = subprocess.run(cmd, env=_child_env(), capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s"}
    result = _last_json(proc.stdout)
    if proc.returncode != 0 or result is None:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or [f"exit status {proc.returncode}"]
        return {"error": f"child failed (exit {proc.returncode}): {tail[0][:200]}"}
    return result


def run_plain_pair(cmds: list[list[str]], timeout: float) -> dict[str, Any]:
    """Run ``single`` children at once, released together after their imports; the pair as one row.

    Wall time is the slowest child's, CPU, records, items and task seconds are summed.
    """
    procs = [subprocess.Popen([*cmd, "--barrier"], env=_child_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for cmd in cmds]
    try:
        for p in procs:
            assert p.stdout is not None
            if p.stdout.readline().strip() != "ready":
                return {"error": "a child did not start"}
        for p in procs:
            assert p.stdin is not None
            p.stdin.write("go\n")
            p.stdin.flush()
        results = []
        for p in procs:
            out, err = p.communicate(timeout=timeout)
            result = _last_json(out)
            if p.returncode != 0 or result is None or "error" in result:
                return {"error": (result or {}).get("error") or f"child failed (exit {p.returncode}): {err[-200:]}"}
            results.append(result)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    row: dict[str, Any] = {"wall_s": max(r["wall_s"] for r in results)}
    for key in ("cpu_s", "records", "items", "task_s", "parts"):
        row[key] = sum(r[key] for r in results)
    return row


def _noop(x: int) -> int:
    return x


def _worker_cpu_s() -> float:
    return _cpu_s()


def _peak_rss_kb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def child_dask(paths: list[str], out: str, workers: int) -> dict[str, Any]:
    """Start a local cluster of ``workers`` processes, warm it, time one run and the no-op round trip.

    CPU time is the workers' (read in each worker before and after) plus this process's,
    where the scheduler, the nannies and the client run.
    """
    import importlib

    import distributed

    from stream_mf2.cli.dask import local_cluster
    from stream_mf2.warc import dask as _dask

    dist: Any = distributed
    t0 = time.perf_counter()
    # The cluster ``stream-mf2 warc --dask local:N`` starts.
    with local_cluster(workers) as cluster, dist.Client(cluster) as client:
        client.run(importlib.import_module, "stream_mf2.warc.dask")
        client.run(importlib.import_module, "stream_mf2.warc.runner")
        start_s = time.perf_counter() - t0
        before = client.run(_worker_cpu_s)
        cpu0 = _cpu_s()
        t1 = time.perf_counter()
        summary = _dask.run_warc_dask(client, paths, out)
        wall = time.perf_counter() - t1
        local_cpu = _cpu_s() - cpu0
        after = client.run(_worker_cpu_s)
        worker_cpu = sum(after[w] - before[w] for w in before)
        peak_kb = max(client.run(_peak_rss_kb).values())
        task_s = sum(float(p.get("seconds", 0.0)) for p in summary.parts)
        t2 = time.perf_counter()
        client.gather(client.map(_noop, range(NOOP_TASKS), pure=False))
        noop = (time.perf_counter() - t2) / NOOP_TASKS
        idle = client.run(_worker_cpu_s)
        idle_local = _cpu_s()
        t3 = time.perf_counter()
        time.sleep(IDLE_SECONDS)  # the cluster's own background work, with no task to run
        idle_cpu = sum(v - idle[w] for w, v in client.run(_worker_cpu_s).items()) + _cpu_s() - idle_local
        idle_cpu_per_s = idle_cpu / (time.perf_counter() - t3)
    if summary.failed:
        return {"error": f"{len(summary.failed)} inputs failed: {summary.failed[0]['error']}"}
    return {"wall_s": wall, "start_s": start_s, "task_s": task_s, "overhead_s": wall * workers - task_s,
            "cpu_s": worker_cpu + local_cpu, "worker_cpu_s": worker_cpu, "scheduler_client_cpu_s": local_cpu,
            "noop_task_s": noop, "idle_cpu_per_s": idle_cpu_per_s, "records": summary.total("records"), "items": summary.total("items"),
            "worker_peak_rss_kb": peak_kb, "part_bytes": summary.total("bytes"),
            "parts": len(summary.parts)}


def measure(files: int, size: int, workers: list[int], rounds: int = 3, timeout: float = 900.0,
            log: Any = None) -> dict[str, Any]:
    """Generate the inputs, then ``rounds`` rounds of one child per run: single, then Dask per worker count.

    Rounds interleave the runs, so a change in the machine's load hits all of them; the
    figures derived compare the best (least wall time) row of each run.
    """
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="bench-dask-") as tmp:
        folder = Path(tmp)
        paths = [str(p) for p in make_inputs(folder, files, size)]
        total = sum(os.path.getsize(p) for p in paths)
        listing = folder / "inputs.json"
        listing.write_text(json.dumps(paths))
        runs: list[tuple[str, int]] = [("single", 1), ("plain", 2), *(("dask", n) for n in workers)]
        halves = [paths[: (len(paths) + 1) // 2], paths[(len(paths) + 1) // 2 :]]
        for half, name in zip(halves, ("inputs-a.json", "inputs-b.json"), strict=True):
            (folder / name).write_text(json.dumps(half))
        for rnd in range(rounds):
            for kind, n in runs:
                out = folder / f"out-{kind}-{n}-{rnd}"
                child = [sys.executable, "-m", "bench.dask_bench", "--child", "single" if kind == "plain" else kind]
                row: dict[str, Any] = {"run": kind, "workers": n, "round": rnd, "files": files, "bytes": total,
                                       "loadavg": os.getloadavg()[0]}
                if kind == "plain":
                    row.update(run_plain_pair(
                        [[*child, "--inputs", str(folder / name), "--out", f"{out}-{name[7]}.jsonl.gz"]
                         for name in ("inputs-a.json", "inputs-b.json")], timeout))
                else:
                    row.update(run_child([*child, "--inputs", str(listing), "--out",
                                          str(out) + (".jsonl.gz" if kind == "single" else ""), "--workers", str(n)],
                                         timeout))
                if row.get("wall_s"):
                    row["mb_s"] = total / row["wall_s"] / 1e6
                if row.get("task_s") and row.get("parts"):
                    row["task_s_per_file"] = row["task_s"] / row["parts"]
                rows.append(row)
                if log is not None:
                    log(f"  dask-bench round {rnd} {kind:6} workers {n}: {row.get('wall_s', 0):7.2f} s wall, "
                        f"{row.get('cpu_s', 0):7.2f} s CPU  {row.get('error') or ''}")
    return {"files": files, "size": size, "rounds": rounds, "rows": rows, **derived(rows)}


def best(rows: list[dict[str, Any]]) -> dict[tuple[str, int], dict[str, Any]]:
    """The row with the least wall time of each (run, workers)."""
    out: dict[tuple[str, int], dict[str, Any]] = {}
    for r in rows:
        key = (r["run"], r["workers"])
        if not r.get("error") and (key not in out or r["wall_s"] < out[key]["wall_s"]):
            out[key] = r
    return out


def derived(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Speed-up of 2 workers over 1 and the machine's ceiling; Dask's overhead against the single process."""
    by = best(rows)
    out: dict[str, Any] = {}
    single, plain, one, two = by.get(("single", 1)), by.get(("plain", 2)), by.get(("dask", 1)), by.get(("dask", 2))
    if one and two:
        out["speedup_2_vs_1"] = one["wall_s"] / two["wall_s"]
    if single and plain:
        out["ceiling_plain2_vs_single"] = single["wall_s"] / plain["wall_s"]
    if single and two:
        out["speedup_dask2_vs_single"] = single["wall_s"] / two["wall_s"]
    if single and one:
        out["dask1_minus_single_s"] = one["wall_s"] - single["wall_s"]
        out["overhead_share_of_single"] = (one["wall_s"] - single["wall_s"]) / single["wall_s"]
        out["cpu_overhead_share_of_single"] = (one["cpu_s"] - single["cpu_s"]) / single["cpu_s"]
        out["overhead_per_task_s"] = one["overhead_s"] / max(one["parts"], 1)
    for measure in ("wall_s", "cpu_s"):
        out[f"median_{measure}"] = medians(rows, measure)
    med_cpu = out["median_cpu_s"]
    if "single 1" in med_cpu and "dask 1" in med_cpu:
        out["median_cpu_overhead_share_of_single"] = med_cpu["dask 1"] / med_cpu["single 1"] - 1
    return out


def medians(rows: list[dict[str, Any]], measure: str) -> dict[str, float]:
    """The median of ``measure`` over the rounds of each run (``"single 1"``, ``"dask 2"``, …), failed rows left out."""
    values: dict[str, list[float]] = {}
    for r in rows:
        if not r.get("error"):
            values.setdefault(f"{r['run']} {r['workers']}", []).append(float(r[measure]))
    return {key: statistics.median(v) for key, v in values.items()}


def format_rows(result: dict[str, Any]) -> str:
    """A plain-text table of one :func:`measure` result, then the derived figures."""
    header = (f"{'run':6} {'workers':>7} {'round':>5} {'MB':>6} {'wall s':>7} {'CPU s':>7} {'MB/s':>6} "
              f"{'start s':>7} {'task s':>7} {'s/file':>6} {'idle+sched s':>12} {'no-op ms':>8} {'idle CPU':>8} "
              f"{'load':>5}  note")
    out = [header, "-" * len(header)]
    for r in result["rows"]:
        out.append(f"{r['run']:6} {r['workers']:>7} {r.get('round', 0):>5} {r['bytes'] / 1e6:>6.1f} "
                   f"{r.get('wall_s', 0):>7.2f} {r.get('cpu_s', 0):>7.2f} {r.get('mb_s', 0):>6.2f} "
                   f"{r.get('start_s', 0):>7.2f} {r.get('task_s', 0):>7.2f} {r.get('task_s_per_file', 0):>6.2f} "
                   f"{r.get('overhead_s', 0):>12.2f} {r.get('noop_task_s', 0) * 1e3:>8.2f} "
                   f"{r.get('idle_cpu_per_s', 0):>8.3f} {r.get('loadavg', 0):>5.1f}  {r.get('error') or ''}")
    for measure, label in (("median_wall_s", "median wall s"), ("median_cpu_s", "median CPU s")):
        if result.get(measure):
            out.append(f"{label}: " + ", ".join(f"{k} {v:.2f}" for k, v in result[measure].items()))
    if "speedup_2_vs_1" in result:
        line = f"speed-up, 2 workers vs 1 (best wall times): {result['speedup_2_vs_1']:.2f}x"
        if "ceiling_plain2_vs_single" in result:
            line += (f"; the machine's ceiling, 2 plain processes vs 1: {result['ceiling_plain2_vs_single']:.2f}x"
                     f" ({result['speedup_2_vs_1'] / result['ceiling_plain2_vs_single'] * 100:.0f} % of it)")
        out.append(line)
    if "speedup_dask2_vs_single" in result:
        out.append(f"Dask with 2 workers vs the single process: {result['speedup_dask2_vs_single']:.2f}x")
    if "overhead_share_of_single" in result:
        out.append(f"Dask with 1 worker vs the single process: wall {result['dask1_minus_single_s']:+.2f} s "
                   f"({result['overhead_share_of_single'] * 100:+.1f} %), CPU "
                   f"{result['cpu_overhead_share_of_single'] * 100:+.1f} %; idle+scheduling per task "
                   f"{result['overhead_per_task_s'] * 1e3:.1f} ms")
    if "median_cpu_overhead_share_of_single" in result:
        out.append(f"Dask with 1 worker vs the single process, median CPU: "
                   f"{result['median_cpu_overhead_share_of_single'] * 100:+.1f} %")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.dask_bench", description="The Dask runner against one process.")
    ap.add_argument("--files", type=int, default=8, help="number of archives (default 8)")
    ap.add_argument("--size", default="4MB", help="HTTP body bytes per archive (default 4MB)")
    ap.add_argument("--workers", default="1,2", help="comma-separated worker counts (default 1,2)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of all runs, interleaved; best of each (default 3)")
    ap.add_argument("--json", type=Path, default=None, help="results file (default bench/results/dask-<timestamp>.json)")
    ap.add_argument("--child", choices=("single", "dask"), help=argparse.SUPPRESS)
    ap.add_argument("--inputs", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    ap.add_argument("--barrier", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    workers = [int(w) for w in str(args.workers).split(",") if w.strip()]
    if args.child:
        paths = json.loads(Path(args.inputs).read_text())
        result = child_single(paths, args.out, args.barrier) if args.child == "single" else child_dask(paths, args.out, workers[0])
        print(json.dumps(result), flush=True)
        return 0
    started = dt.datetime.now(dt.UTC)
    size = parse_size(args.size)
    print(f"Dask benchmark: {args.files} archives of {format_size(size)} of HTTP bodies, workers {workers}", flush=True)
    result = measure(args.files, size, workers, max(1, args.rounds), log=lambda s: print(s, flush=True))
    print(format_rows(result))
    doc = {"started_utc": started.isoformat(), "finished_utc": dt.datetime.now(dt.UTC).isoformat(),
           "machine": machine_info(), "settings": {"files": args.files, "size": size, "workers": workers, "rounds": args.rounds},
           "dask": result}
    path = write_results(doc, args.json, started, "dask-")
    print(f"\nResults written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
