"""The whole benchmark in one command: throughput, memory, time to first item, WARC.

Usage::

    python -m bench                                  # everything (hours: see bench/README.md)
    python -m bench --quick                          # smoke run on small inputs (a few minutes)
    python -m bench --builds --compiled-python VENV/bin/python   # both builds, throughput and fixed costs
    python -m bench --sizes 1MB,10MB --skip-peers-above 10MB --skip warc

Sections (each can be left out with ``--skip``):

``throughput``
    :mod:`bench.run` on the fixture pages and the microformats suite pages:
    MB/s per group (pages under 200 KB, larger pages, the suite batch).
``memory``
    :mod:`bench.memory` children, one per (size, shape, parser): peak RSS and
    parse time on streams of ``--sizes`` in three shapes (flat h-entries; one
    page-wide h-feed, without and with ``stream_children``; no microformats).
    Peers get the whole document and run only up to ``--skip-peers-above``.
    A run whose peak RSS, extrapolated linearly from the same (parser, shape)
    at the largest size already measured, would not fit in the memory
    available now is not started either: the table says "capped" and why.
``ttfi``
    no extra runs: read off the memory rows at ``--ttfi-size`` (100MB; in
    ``--quick`` mode the largest size run): stream_mf2's time to its first
    item against each peer's full parse time on the same document.
``warc``
    :mod:`bench.warc_bench`: MB/s and records/s reading a generated archive,
    ``.warc.gz`` and ``.warc``, with 1 and 2 worker processes; and the prefilter row: a
    crawl-like archive of the same size read by ``stream-mf2 warc --type h-entry,h-card``
    with and without ``--prefilter``.
``dask``
    :mod:`bench.dask_bench`: the same WARC files through the Dask runner with 1
    and 2 workers against the single-process command (speed-up, overhead).
``wpt``
    :mod:`bench.wpt_bench`: time a 10-block Website Parse Template adds to a
    parse, and a repeatable-block stream (peak RSS, time to first match).

Everything goes to one JSON file, ``bench/results/<UTC timestamp>.json``, with
the machine description; the tables printed at the end are
:func:`bench.report.render` of that file (the README's tables come from there).
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from bench import dask_bench, fixed_cost, memory, report, warc_bench, wpt_bench
from bench.peers import all_runners, peer_runners
from bench.run import (
    FIXTURES,
    CompiledChild,
    group_rates,
    load_pages,
    machine_info,
    ratios,
    time_page,
    warm_up,
    write_results,
)
from bench.streams import DEFAULT_CHUNK, SHAPES, format_size, parse_size

SECTIONS = ("throughput", "fixed", "memory", "warc", "dask", "wpt")
#: What ``--builds`` keeps: the sections that put the pure and the compiled build side by side.
BUILD_SECTIONS = frozenset({"throughput", "fixed"})
FULL_SIZES = "1MB,10MB,100MB,1GB"
QUICK_SIZES = "1MB"
# Memory-run rows: (shape, parser). stream_children only changes anything for a
# container item, so the "+children" variant is run on the feed shape alone.
STREAM_ROWS = [("entries", memory.STREAM_MF2), ("feed", memory.STREAM_MF2), ("feed", memory.STREAM_MF2_CHILDREN),
               ("plain", memory.STREAM_MF2)]
# Fraction of the memory available at launch a child may use (address-space cap and run-or-cap decision).
MEMORY_SHARE = 0.8
# A child gets this long plus one second per 250 KB of input (0.25 MB/s, far below any parser here).
TIMEOUT_BASE_S = 300.0
TIMEOUT_RATE = 250_000


def mem_available() -> int | None:
    """Bytes of memory available now (``MemAvailable`` on Linux), ``None`` when unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _gb(n: float) -> str:
    return f"{n / 1e9:.1f} GB"


def estimate_peak(rows: list[dict[str, Any]], parser: str, shape: str, size: int) -> tuple[int, int] | None:
    """(estimated peak RSS bytes at ``size``, the size it is extrapolated from), from this run's rows.

    Linear in the document size from the largest smaller size measured without
    error for the same parser and shape: the memory that grows is the DOM (or
    the held item), which is proportional to the input.
    """
    done = [r for r in rows if r["parser"] == parser and r["shape"] == shape and r["size"] < size
            and r.get("peak_rss_kb") and not r.get("error")]
    if not done:
        return None
    ref = max(done, key=lambda r: r["size"])
    base = (ref.get("baseline_rss_kb") or 0) * 1024
    grown = max(ref["peak_rss_kb"] * 1024 - base, 0)
    return base + grown * size // ref["size"], ref["size"]


def run_memory(sizes: list[int], shapes: list[str], parsers: list[str], peer_cap: int, chunk_size: int,
               log: Callable[[str], None]) -> list[dict[str, Any]]:
    """One child per (size, shape, parser), smallest sizes first; capped runs are rows with a note."""
    ours = [(s, p) for s, p in STREAM_ROWS if s in shapes and p in parsers]
    peers = [(s, p) for s in shapes for p in parsers if p not in memory.OURS]
    rows: list[dict[str, Any]] = []
    for size in sorted(sizes):
        for shape, parser in sorted(ours + peers, key=lambda sp: (shapes.index(sp[0]), parsers.index(sp[1]))):
            row: dict[str, Any] = {"parser": parser, "shape": shape, "size": size}
            est = estimate_peak(rows, parser, shape, size)
            avail = mem_available()
            if est is not None:
                row["estimated_peak_bytes"] = est[0]
            if parser not in memory.OURS and size > peer_cap:
                need = f"; would need ~{_gb(est[0])} RSS" if est else ""
                row["capped"] = f"not run: above --skip-peers-above {format_size(peer_cap)}{need}"
            elif est is not None and avail is not None and est[0] > MEMORY_SHARE * avail:
                row["capped"] = (f"not run: would need ~{_gb(est[0])} RSS (extrapolated from "
                                 f"{format_size(est[1])}), {_gb(avail)} available")
            else:
                limit = int(MEMORY_SHARE * avail) if avail else 0
                timeout = TIMEOUT_BASE_S + size / TIMEOUT_RATE
                row.update(memory.run_child(parser, shape, size, chunk_size, timeout, limit))
            rows.append(row)
            peak = row.get("peak_rss_kb")
            log(f"  memory {format_size(size):>6} {shape:8} {parser:20} "
                + (row["capped"] if "capped" in row else
                   f"peak {peak / 1024 if peak else 0:8,.0f} MB  parse {row.get('parse_s') or 0:9.2f} s  "
                   f"first item {row.get('first_item_s') or 0:8.2f} s  {row.get('error') or ''}"))
    return rows


def run_throughput(quick: bool, runs: int, budget: float, only: list[str] | None, include_suite: bool,
                   fixtures: Path, log: Callable[[str], None], compiled_python: str | None = None) -> dict[str, Any]:
    """The :mod:`bench.run` measurement, as a JSON-ready dict."""
    runners = all_runners(only)
    pages = load_pages(include_suite, fixtures)
    if quick:
        runs, budget = 1, min(budget, 5.0)
    for r in runners:
        if pages:
            warm_up(r, pages[0])
    cells = []
    child = CompiledChild(compiled_python, runs, budget, include_suite, fixtures) if compiled_python else None
    try:
        for p in pages:
            cells.extend(time_page(runners, p, runs, budget, child, lambda c: log(
                f"  throughput {c.runner:30} {c.page:42} {c.mb_s or 0:8.2f} MB/s  {c.error or ''}")))
    finally:
        if child is not None:
            child.close()
    if child is not None:
        runners = [*runners[:1], child.runner, *runners[1:]]
        if not child.runner.available:
            log(f"  compiled build not measured: {child.runner.missing}")
    live = [r for r in runners if r.available]
    rates = group_rates(cells, live)
    return {
        "settings": {"runs": runs, "budget_s": budget, "quick": quick},
        "runners": [{"name": r.name, "kind": r.kind, "subject": r.subject, "available": r.available,
                     "missing": r.missing, "version": r.version} for r in runners],
        "pages": [{"name": p.name, "group": p.group, "bytes": p.size, "documents": len(p.docs)} for p in pages],
        "cells": [{**asdict(c), "mb_s": c.mb_s} for c in cells],
        "groups_mb_s": rates,
        "ratios": ratios(rates, live),
    }


def ttfi_rows(rows: list[dict[str, Any]], size: int) -> list[dict[str, Any]]:
    """Time to first item at ``size``: one row per (shape, parser) that has an item at all."""
    out = []
    for r in rows:
        if r["size"] != size or r["shape"] not in ("entries", "feed"):
            continue
        out.append({k: r.get(k) for k in ("parser", "shape", "size", "first_item_s", "parse_s", "items", "error",
                                          "capped")})
    return out


def main(argv: list[str] | None = None, *, out: Callable[[str], None] = print) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench", description="The whole benchmark: throughput, memory, "
                                 "time to first item and WARC, into one JSON file and one set of tables.")
    ap.add_argument("--quick", action="store_true",
                    help=f"smoke run: sizes {QUICK_SIZES}, one timed run per page, a 1MB WARC")
    ap.add_argument("--sizes", default=None, help=f"memory stream sizes (default {FULL_SIZES}; --quick: {QUICK_SIZES})")
    ap.add_argument("--shapes", default=",".join(SHAPES), help=f"memory stream shapes (default {','.join(SHAPES)})")
    ap.add_argument("--skip-peers-above", default="100MB",
                    help="largest stream given to the peers, which hold the whole document (default 100MB)")
    ap.add_argument("--only", action="append", metavar="NAME",
                    help="only these parsers, in throughput and memory (repeatable; default all)")
    ap.add_argument("--skip", action="append", choices=SECTIONS, default=[], help="leave a section out (repeatable)")
    ap.add_argument("--builds", action="store_true",
                    help="only the sections that compare the builds: throughput and fixed costs (with "
                         "--compiled-python, both builds and every peer from one run; minutes, not hours)")
    ap.add_argument("--runs", type=int, default=5, help="throughput: best of N runs (default 5)")
    ap.add_argument("--budget", type=float, default=10.0, help="throughput: seconds per (parser, page) (default 10)")
    ap.add_argument("--no-suite", action="store_true", help="throughput: leave out the microformats suite pages")
    ap.add_argument("--fixtures", type=Path, default=FIXTURES, help="throughput: folder of *.html pages")
    ap.add_argument("--ttfi-size", default="100MB", help="size for the time-to-first-item table (default 100MB)")
    ap.add_argument("--chunk-size", type=int, default=DEFAULT_CHUNK, help="bytes per chunk fed to stream_mf2")
    ap.add_argument("--warc-size", default=None, help="WARC: HTTP body bytes in the archive (default 50MB; --quick 1MB)")
    ap.add_argument("--warc-workers", default="1,2", help="WARC: worker counts (default 1,2)")
    ap.add_argument("--warc-timeout", type=float, default=None,
                    help="WARC: seconds before a reading child is killed (default 120 + 1 per 100 KB of archive)")
    ap.add_argument("--json", type=Path, default=None, help="results file (default bench/results/<timestamp>.json)")
    ap.add_argument("--compiled-python", default=None, metavar="PATH",
                    help="interpreter whose environment has the compiled build: its throughput and fixed-cost rows "
                         "are measured in child processes of it, next to this checkout's pure build")
    args = ap.parse_args(argv)
    if args.builds:
        args.skip = sorted(set(args.skip) | (set(SECTIONS) - BUILD_SECTIONS))

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    sizes = [parse_size(s) for s in (args.sizes or (QUICK_SIZES if args.quick else FULL_SIZES)).split(",") if s.strip()]
    shapes = [s.strip() for s in args.shapes.split(",") if s.strip()]
    if any(s not in SHAPES for s in shapes):
        ap.error(f"unknown shape in {shapes}; choose from {SHAPES}")
    known = [r.name for r in all_runners()] + list(memory.OURS)
    if args.only and any(n not in known for n in args.only):
        ap.error(f"unknown parser in --only; choose from {known}")
    # Memory runs: stream_mf2 (both variants) and the mf2 parsers and HTML floors that take bytes.
    mem_parsers = [*memory.OURS, *(r.name for r in peer_runners())]
    if args.only:
        wanted = set(args.only) | ({memory.STREAM_MF2_CHILDREN} if memory.STREAM_MF2 in args.only else set())
        mem_parsers = [p for p in mem_parsers if p in wanted]
    peer_cap = parse_size(args.skip_peers_above)
    ttfi_size = max(sizes) if args.quick and not args.sizes else parse_size(args.ttfi_size)
    warc_size = parse_size(args.warc_size or ("1MB" if args.quick else "50MB"))
    warc_workers = [int(w) for w in args.warc_workers.split(",") if w.strip()]

    started = dt.datetime.now(dt.UTC)
    doc: dict[str, Any] = {
        "kind": "bench.full",
        "started_utc": started.isoformat(),
        "machine": machine_info(),
        "settings": {"quick": args.quick, "sizes": sizes, "shapes": shapes, "skip_peers_above_bytes": peer_cap,
                     "chunk_size": args.chunk_size, "ttfi_size": ttfi_size, "warc_size": warc_size,
                     "warc_workers": warc_workers, "skipped_sections": args.skip,
                     "compiled_python": args.compiled_python,
                     "memory_available_at_start_bytes": mem_available(), "argv": sys.argv[1:] if argv is None else argv},
    }
    if "throughput" not in args.skip:
        log("throughput")
        doc["throughput"] = run_throughput(args.quick, max(1, args.runs), args.budget, args.only, not args.no_suite,
                                           args.fixtures, log, args.compiled_python)
    if "fixed" not in args.skip:
        log("fixed costs (child processes)")
        doc["fixed"] = fixed_cost.measure(args.compiled_python, runs=3 if args.quick else 7,
                                          batch=100 if args.quick else 500)
    if "memory" not in args.skip:
        log("memory (one child process per row)")
        doc["memory"] = {"rows": run_memory(sizes, shapes, mem_parsers, peer_cap, args.chunk_size, log)}
        doc["ttfi"] = {"size": ttfi_size, "rows": ttfi_rows(doc["memory"]["rows"], ttfi_size)}
    if "warc" not in args.skip:
        log("warc")
        doc["warc"] = warc_bench.measure(warc_size, warc_workers, args.warc_timeout, log=log)
        log("warc prefilter row (crawl-like archive, --type h-entry,h-card with and without --prefilter)")
        doc["prefilter"] = warc_bench.measure_prefilter(
            warc_size, args.warc_timeout, log=log, runs=1 if args.quick else 2
        )
    if "dask" not in args.skip:
        log("dask")
        doc["dask"] = dask_bench.measure(4 if args.quick else 8, parse_size("1MB" if args.quick else "4MB"), [1, 2],
                                         log=log)
    if "wpt" not in args.skip:
        doc["wpt"] = wpt_bench.measure(args.quick, log, fixtures=args.fixtures)
    doc["finished_utc"] = dt.datetime.now(dt.UTC).isoformat()

    path = write_results(doc, args.json, started)
    out(report.render([doc]))
    if doc.get("prefilter"):
        out("\nWARC prefilter row (bench.warc_bench)\n" + warc_bench.format_prefilter(doc["prefilter"]))
    if doc.get("dask"):
        out("\nDask runner (bench.dask_bench)\n" + dask_bench.format_rows(doc["dask"]))
    if "wpt" in doc:
        out("\n" + wpt_bench.table(doc["wpt"]))
    out(f"\nResults written to {path}")
    return 0
