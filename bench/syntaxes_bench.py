"""Every structured-data syntax in one pass: ``stream_mf2.extract`` against extruct on the same pages.

Usage::

    python -m bench.syntaxes_bench                  # best of 3 runs per (parser, page)
    python -m bench.syntaxes_bench --quick          # one run per cell
    python -m bench.syntaxes_bench --per-syntax     # and each syntax on its own
    python -m bench.syntaxes_bench --memory [...]   # peak RSS on microdata pages, time to first
                                                    # entry per syntax (bench/syntaxes_memory.py)

Each comparison gives both sides the same syntaxes, the page's bytes and its URL:

* ``all``: extruct's six default syntaxes (microdata, JSON-LD, OpenGraph, microformats through
  mf2py, RDFa through pyrdfa3 and rdflib, Dublin Core) against :func:`stream_mf2.extract` with
  the same six, in one streaming pass;
* ``libxml2``: the four extruct extracts from its lxml (libxml2) tree, JSON-LD, microdata,
  OpenGraph and Dublin Core;
* with ``--per-syntax``, each of the six alone.

Pages: ``fixtures/bench/*.html`` (generated pages of 30 KB to 2 MB with JSON-LD, OpenGraph,
Twitter cards, RDFa ``prefix`` use, microformats) and ``fixtures/realworld/*.html`` (WordPress,
Known, Pelican, ... pages with microdata and RDFa), timed as two groups.

Time is the process's CPU time (``time.process_time``) of each call, so other work on a shared
machine counts less than in wall time; a cell is the best of ``--runs`` runs. The figures to
read are the ratios (stream_mf2.extract ÷ extruct on the same syntaxes, >1: stream_mf2
faster), which the machine's load affects least. The compiled build is measured by putting it
first on the path: ``PYTHONPATH=BUILD:CHECKOUT python -m bench.syntaxes_bench`` run from outside the
checkout (the results say which ``stream_mf2`` ran, and whether it is compiled). Results go to
``bench/results/syntaxes-<UTC start>.json``; nothing else reads them (``docs/performance.md``
is made from ``python -m bench`` runs only).
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from bench.peers import Runner, extruct_runner, stream_mf2_extract_runner
from bench.run import REPO, Cell, Page, _fmt, _table, machine_info, write_results

#: extruct's default syntaxes, by this library's names.
ALL: tuple[str, ...] = ("microdata", "json-ld", "opengraph", "mf2", "rdfa", "dublincore")
#: The syntaxes extruct extracts from its lxml tree.
LIBXML2: tuple[str, ...] = ("json-ld", "microdata", "opengraph", "dublincore")
GROUPS: dict[str, Path] = {"bench": REPO / "fixtures" / "bench", "realworld": REPO / "fixtures" / "realworld"}


def comparisons(per_syntax: bool) -> list[tuple[str, tuple[str, ...]]]:
    """(label, syntaxes) of each comparison."""
    out = [("all", ALL), ("libxml2", LIBXML2)]
    if per_syntax:
        out += [(name, (name,)) for name in ALL]
    return out


def load_pages(groups: dict[str, Path] = GROUPS) -> list[Page]:
    """Every ``*.html`` of each group's folder, by size within the group."""
    pages: list[Page] = []
    for group, folder in groups.items():
        found = [Page(p.name, group, [(p.read_bytes(), f"https://bench.example/{p.name}")]) for p in folder.glob("*.html")]
        pages += sorted(found, key=lambda p: (p.size, p.name))
    return pages


def time_cell(runner: Runner, page: Page, runs: int, clock: Callable[[], float] = time.process_time) -> Cell:
    """Best of ``runs`` CPU times of ``runner`` over ``page`` (one untimed call first)."""
    cell = Cell(runner.name, page.name, page.group, 0, len(page.docs))
    run = runner.run
    if run is None:
        cell.error = runner.missing
        return cell
    data, url = page.docs[0]
    try:
        run(data, url)  # warm-up: lazy imports, first-call caches
    except Exception as exc:  # a parser failing on a page is a result
        cell.error = f"{type(exc).__name__}: {str(exc)[:200]}"
        cell.failed_docs = 1
        return cell
    for _ in range(runs):
        gc.collect()
        start = clock()
        out = run(data, url)
        cell.times_s.append(clock() - start)
        cell.runs += 1
    cell.bytes = len(data)
    cell.best_s = min(cell.times_s)
    cell.items = sum(len(v) for v in out.values() if isinstance(v, list)) if isinstance(out, dict) else None
    return cell


def rates(cells: Sequence[Cell], runners: Sequence[Runner], groups: Sequence[str]) -> dict[str, dict[str, float | None]]:
    """Group (and ``"all pages"``) -> runner -> MB/s (total bytes / total best CPU time); ``None`` if a page failed."""
    out: dict[str, dict[str, float | None]] = {}
    for g in [*groups, "all pages"]:
        out[g] = {}
        for r in runners:
            mine = [c for c in cells if c.runner == r.name and (g == "all pages" or c.group == g)]
            total = sum(c.best_s or 0.0 for c in mine)
            ok = mine and all(c.best_s is not None for c in mine) and total > 0
            out[g][r.name] = sum(c.bytes for c in mine) / total / 1e6 if ok else None
    return out


def main(argv: list[str] | None = None, *, out: Callable[[str], None] = print,
         groups: dict[str, Path] = GROUPS) -> int:
    given = sys.argv[1:] if argv is None else argv
    if "--memory" in given:  # (the memory and time-to-first-entry tables: their own options)
        from bench.syntaxes_memory import main as memory_main

        return memory_main([a for a in given if a != "--memory"])
    ap = argparse.ArgumentParser(prog="python -m bench.syntaxes_bench",
                                 description="stream_mf2.extract vs extruct, the same syntaxes (MB/s of CPU time).")
    ap.add_argument("--quick", action="store_true", help="one timed run per cell")
    ap.add_argument("--runs", type=int, default=3, help="best of N runs per (parser, page) (default 3)")
    ap.add_argument("--per-syntax", action="store_true", help="also compare each syntax on its own")
    ap.add_argument("--memory", action="store_true",
                    help="instead: peak RSS on microdata pages and time to first entry per syntax "
                         "(python -m bench.syntaxes_memory; its options follow)")
    ap.add_argument("--json", type=Path, default=None, help="results file (default bench/results/syntaxes-<UTC>.json)")
    ns = ap.parse_args(argv)
    started = dt.datetime.now(dt.UTC)
    runs = 1 if ns.quick else max(1, ns.runs)
    pages = load_pages(groups)
    pairs = [(label, stream_mf2_extract_runner(label, s), extruct_runner(label, s)) for label, s in comparisons(ns.per_syntax)]
    runners = [r for _, a, b in pairs for r in (a, b)]
    cells = [time_cell(r, p, runs) for p in pages for r in runners]
    by_group = rates(cells, runners, list(groups))
    ratio: dict[str, dict[str, float | None]] = {}
    for label, mine, theirs in pairs:
        ratio[label] = {g: (a / b if (a := r.get(mine.name)) is not None and (b := r.get(theirs.name)) else None)
                        for g, r in by_group.items()}
    import stream_mf2

    doc: dict[str, Any] = {
        "started": started.isoformat(),
        "machine": machine_info(),
        # which stream_mf2 ran: this checkout (pure) or a compiled build first on PYTHONPATH
        "stream_mf2": {"file": stream_mf2.__file__, "compiled": stream_mf2.COMPILED},
        "runs": runs,
        "comparisons": {label: list(s) for label, s in comparisons(ns.per_syntax)},
        "pages": [{"name": p.name, "group": p.group, "bytes": p.size} for p in pages],
        "cells": [asdict(c) for c in cells],
        "mb_s": by_group,
        "ratios": ratio,
    }
    path = write_results(doc, ns.json, started, prefix="syntaxes-")
    live = [r for r in runners if r.available]
    for r in runners:
        if not r.available:
            out(f"unavailable: {r.name}: {r.missing}")
    rows = [[g, *[_fmt(by_group[g].get(r.name)) for r in live]] for g in by_group]
    out("MB/s of CPU time per group (total bytes / total best time)\n" + _table(["group", *[r.name for r in live]], rows))
    rows = [[label, *[_fmt(v.get(g)) for g in by_group]] for label, v in ratio.items()]
    out("\nstream_mf2.extract ÷ extruct, the same syntaxes (>1: stream_mf2 faster)\n" + _table(["syntaxes", *by_group], rows))
    failed = [c for c in cells if c.error]
    for c in failed:
        out(f"error: {c.runner} on {c.page}: {c.error}")
    out(f"\nstream_mf2: {stream_mf2.__file__} (compiled: {stream_mf2.COMPILED})\nresults: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
