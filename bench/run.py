"""Throughput benchmark: MB/s of stream_mf2 and its peers on the same pages.

Usage::

    python -m bench.run               # full run: best of 5, up to 10 s per (parser, page)
    python -m bench.run --quick       # smoke run: one timed run per (parser, page)
    python -m bench.run --only mf2py[lxml] --only stream_mf2 --no-suite

Pages: every ``*.html`` in ``fixtures/bench/`` (made by ``bench/make_fixtures.py``)
and, when present, the official microformats test-suite pages (timed as one batch,
since each is tiny). Every parser gets the page's bytes and a base URL, so each one
does its own encoding detection, HTML parsing and (for mf2 parsers) extraction.

A run is timed with ``time.perf_counter`` around one call; a cell's figure is the
best of ``--runs`` runs, stopping early once ``--budget`` seconds have been spent
on that cell (at least one run always happens). Groups add bytes and best times,
so a group's MB/s is total bytes / total time, not a mean of page rates.
MB is 10**6 bytes. Results go to ``bench/results/<UTC timestamp>.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import gc
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bench.peers import Runner, all_runners, dist_version

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures" / "bench"
RESULTS = REPO / "bench" / "results"
SUITES_ENV = "STREAM_MF2_TESTSUITES"
SMALL_LIMIT = 200_000  # bytes: pages below this are the "small" group
SUITE_GROUP = "suite"
SMALL_GROUP = "small <200 KB"
LARGE_GROUP = "large >=200 KB"
#: The runner name of the compiled build (``--compiled-python``), measured in a child process.
COMPILED_RUNNER = "stream_mf2 (compiled)"
GROUPS = (SMALL_GROUP, LARGE_GROUP, SUITE_GROUP)
PACKAGES = ("stream-mf2", "mf2py", "mf2dom", "justhtml", "html5lib", "lxml", "beautifulsoup4", "webencodings",
            "selectolax")


@dataclass
class Page:
    """One timed input: a single file, or the whole suite as one batch of documents."""

    name: str
    group: str
    docs: list[tuple[bytes, str]]  # (document bytes, base URL)

    @property
    def size(self) -> int:
        return sum(len(d) for d, _ in self.docs)


@dataclass
class Cell:
    """The measurement of one runner on one page.

    ``bytes`` counts only the documents the runner parsed without raising;
    ``failed_docs`` counts the others (``error`` holds the first message).
    """

    runner: str
    page: str
    group: str
    bytes: int
    documents: int
    runs: int = 0
    best_s: float | None = None
    items: int | None = None
    failed_docs: int = 0
    error: str | None = None
    times_s: list[float] = field(default_factory=list)

    @property
    def mb_s(self) -> float | None:
        if self.best_s is None or self.best_s <= 0 or self.bytes == 0:
            return None
        return self.bytes / self.best_s / 1e6


def suites_root() -> Path:
    """Same lookup as ``tests/support/suites.py``: ``$STREAM_MF2_TESTSUITES`` or ``../shared/testsuites``."""
    env = os.environ.get(SUITES_ENV)
    return Path(env).resolve() if env else (REPO.parent / "shared" / "testsuites").resolve()


def load_pages(include_suite: bool, fixtures: Path = FIXTURES) -> list[Page]:
    """The fixture pages (sorted by size) and, optionally, the suite batch."""
    pages: list[Page] = []
    for path in sorted(fixtures.glob("*.html")):
        data = path.read_bytes()
        group = SMALL_GROUP if len(data) < SMALL_LIMIT else LARGE_GROUP
        pages.append(Page(path.name, group, [(data, f"https://bench.example/{path.name}")]))
    pages.sort(key=lambda p: (p.group != SMALL_GROUP, p.size, p.name))
    if include_suite:
        suite = suites_root() / "microformats-tests" / "tests"
        files = sorted(suite.rglob("*.html")) if suite.is_dir() else []
        if files:
            # The suite's expected output is computed against this base URL.
            docs = [(f.read_bytes(), "http://example.com/") for f in files]
            pages.append(Page(f"microformats-tests ({len(files)} files)", SUITE_GROUP, docs))
    return pages


def _count(result: Any) -> int:
    return len(result) if isinstance(result, list) else 0


def warm_up(runner: Runner, page: Page) -> None:
    """One untimed call, so lazy imports and first-call caches are not timed."""
    if runner.run is None:
        return
    data, url = page.docs[0]
    # A failure here is recorded by the timed runs.
    with contextlib.suppress(Exception):
        runner.run(runner.prepare(data) if runner.prepare else data, url)


def time_cell(runner: Runner, page: Page, runs: int, budget: float) -> Cell:
    """Best-of-``runs`` wall time of ``runner`` over ``page``, within ``budget`` seconds.

    Each document is timed on its own and the times are summed, so the
    ``prepare`` step stays outside the clock and a document the runner raises
    on can be dropped from its total (and reported) instead of voiding the
    whole batch.
    """
    cell = Cell(runner.name, page.name, page.group, 0, len(page.docs))
    run = runner.run
    if run is None:
        cell.error = runner.missing
        return cell
    prepare = runner.prepare
    inputs = [(prepare(d) if prepare else d, url, len(d)) for d, url in page.docs]
    ok = [True] * len(inputs)
    spent = 0.0
    clock = time.perf_counter
    while cell.runs < runs and (cell.runs == 0 or spent < budget):
        # Collect between runs so one run's garbage is not charged to the next.
        gc.collect()
        total = 0.0
        items = 0
        for i, (doc, url, _) in enumerate(inputs):
            if not ok[i]:
                continue
            try:
                start = clock()
                out = run(doc, url)
                total += clock() - start
            except Exception as exc:  # a peer crashing on a page is a result, not a harness failure
                ok[i] = False
                cell.failed_docs += 1
                if cell.error is None:
                    cell.error = f"{type(exc).__name__}: {str(exc)[:200]}"
                continue
            items += _count(out)
        if not any(ok):
            break
        cell.runs += 1
        spent += total
        cell.times_s.append(total)
    if cell.runs and any(ok):
        # A failing document raises in the first run (parsers are deterministic),
        # before its time is added, so every run's total covers the same documents.
        cell.bytes = sum(n for (_, _, n), good in zip(inputs, ok, strict=True) if good)
        cell.best_s = min(cell.times_s)
        cell.items = items if runner.kind == "mf2" else None
    return cell


def _measured_in_child(data: Any, url: str) -> Any:
    raise RuntimeError("this runner is measured in a child process (--compiled-python)")


def child_serve(runs: int, budget: float, include_suite: bool, fixtures: Path) -> None:
    """Child side of :class:`CompiledChild`: one header line, then one cell per page index read from stdin."""
    from bench.fixed_cost import build_info
    from bench.peers import stream_mf2_runner

    runner = stream_mf2_runner()
    pages = load_pages(include_suite, fixtures)
    if runner.available:
        warm_up(runner, pages[0])
    header = {"version": runner.version, "build": build_info() if runner.available else None,
              "missing": runner.missing, "pages": [p.name for p in pages]}
    print(json.dumps(header), flush=True)
    for line in sys.stdin:
        cell = time_cell(runner, pages[int(line)], runs, budget)
        print(json.dumps(asdict(cell)), flush=True)


class CompiledChild:
    """The full pipeline of the build installed for another interpreter (the compiled one), in a child process.

    The child loads the same pages and times them with the same code, one page
    when asked (:meth:`time`), so the harness can interleave it with the
    in-process runners page by page: on a shared machine both builds then see the
    same load. The child imports the ``stream_mf2`` installed in ``python``'s
    environment (this checkout only if none is) and says which it was:
    :attr:`runner` is named :data:`COMPILED_RUNNER`, its version says whether the
    build is compiled, and it is unavailable (with the reason) if the child failed.
    """

    def __init__(self, python: str, runs: int, budget: float, include_suite: bool, fixtures: Path) -> None:
        from bench.fixed_cost import child_code, child_env

        self.python = python
        self._tmp = tempfile.TemporaryDirectory(prefix="bench-compiled-")
        env = child_env(False, str(Path(self._tmp.name) / "pycache"))
        if SUITES_ENV not in env:
            env[SUITES_ENV] = str(suites_root())
        call = (f"import pathlib, bench.run as r; r.child_serve({runs}, {budget}, {include_suite}, "
                f"pathlib.Path({str(fixtures.resolve())!r}))")
        self._proc: subprocess.Popen[str] | None = None
        self.pages: list[str] = []
        try:
            self._proc = subprocess.Popen([python, "-c", child_code(call)], env=env, cwd=self._tmp.name, text=True,
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            header = json.loads(self._read_line())
        except (OSError, RuntimeError, json.JSONDecodeError) as exc:
            self.runner = Runner(COMPILED_RUNNER, "mf2", None, f"{python}: {type(exc).__name__}: {exc}", subject=True)
            self.close()
            return
        if header["missing"]:
            self.runner = Runner(COMPILED_RUNNER, "mf2", None, f"{python}: {header['missing']}", subject=True)
            self.close()
            return
        build = header["build"] or {}
        version = (f"{header['version']} ({'compiled' if build.get('compiled') else 'NOT compiled'}, "
                   f"{build.get('file')})")
        self.pages = header["pages"]
        self.runner = Runner(COMPILED_RUNNER, "mf2", _measured_in_child, version=version, subject=True)

    def _read_line(self) -> str:
        assert self._proc is not None and self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line:
            err = self._proc.stderr.read() if self._proc.stderr is not None else ""
            raise RuntimeError(f"the child stopped: {err.strip()[-500:]}")
        return line

    def time(self, page: Page) -> Cell | None:
        """The child's cell for ``page`` (``None`` if the child is not running or does not have it)."""
        if self._proc is None or page.name not in self.pages:
            return None
        assert self._proc.stdin is not None
        try:
            self._proc.stdin.write(f"{self.pages.index(page.name)}\n")
            self._proc.stdin.flush()
            got = json.loads(self._read_line())
        except (OSError, RuntimeError, json.JSONDecodeError) as exc:
            self.close()
            return Cell(COMPILED_RUNNER, page.name, page.group, 0, len(page.docs), error=f"{type(exc).__name__}: {exc}")
        return Cell(**{**got, "runner": COMPILED_RUNNER})

    def close(self) -> None:
        if self._proc is not None:
            if self._proc.stdin is not None:
                self._proc.stdin.close()
            try:
                self._proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
            for f in (self._proc.stdout, self._proc.stderr):
                if f is not None:
                    f.close()
            self._proc = None
        self._tmp.cleanup()


def time_page(runners: Sequence[Runner], page: Page, runs: int, budget: float, child: CompiledChild | None,
              log: Callable[[Cell], None]) -> list[Cell]:
    """Every runner on ``page``; the child's build right after ``stream_mf2`` (or last), so both see the same load."""
    cells: list[Cell] = []
    pending = child
    for r in runners:
        cell = time_cell(r, page, runs, budget)
        cells.append(cell)
        if r.available:
            log(cell)
        if pending is not None and r.name == "stream_mf2":
            got, pending = pending.time(page), None
            if got is not None:
                cells.append(got)
                log(got)
    if pending is not None:
        got = pending.time(page)
        if got is not None:
            cells.append(got)
            log(got)
    return cells


def compiled_cells(python: str, runs: int, budget: float, include_suite: bool, fixtures: Path) -> tuple[Runner, list[Cell]]:
    """All pages through a :class:`CompiledChild`: its runner and cells."""
    child = CompiledChild(python, runs, budget, include_suite, fixtures)
    try:
        cells = [c for p in load_pages(include_suite, fixtures) if (c := child.time(p)) is not None]
    finally:
        child.close()
    return child.runner, cells


def group_rates(cells: Sequence[Cell], runners: Sequence[Runner]) -> dict[str, dict[str, float | None]]:
    """Group -> runner -> MB/s (total bytes / total best time); ``None`` if any page failed."""
    groups = [*GROUPS, "all fixtures"]
    out: dict[str, dict[str, float | None]] = {g: {} for g in groups}
    for r in runners:
        for g in groups:
            mine = [c for c in cells if c.runner == r.name and (c.group == g or (g == "all fixtures" and c.group != SUITE_GROUP))]
            if not mine or any(c.best_s is None for c in mine):
                out[g][r.name] = None
                continue
            total_t = sum(c.best_s for c in mine if c.best_s is not None)
            out[g][r.name] = sum(c.bytes for c in mine) / total_t / 1e6 if total_t > 0 else None
    return out


def ratios(rates: dict[str, dict[str, float | None]], runners: Sequence[Runner]) -> dict[str, dict[str, float | None]]:
    """``"<subject> / <peer>"`` -> group -> speed ratio (>1 means the subject is faster)."""
    out: dict[str, dict[str, float | None]] = {}
    for s in (r for r in runners if r.subject and r.available):
        for p in (r for r in runners if not r.subject and r.available):
            key = f"{s.name} / {p.name}"
            out[key] = {}
            for g, by_runner in rates.items():
                a, b = by_runner.get(s.name), by_runner.get(p.name)
                out[key][g] = a / b if a is not None and b else None
    names = {r.name for r in runners if r.available}
    if COMPILED_RUNNER in names and "stream_mf2" in names:
        # the two builds side by side: the compiled build's speed-up in this run
        out[f"{COMPILED_RUNNER} / stream_mf2"] = {
            g: (a / b if (a := by.get(COMPILED_RUNNER)) is not None and (b := by.get("stream_mf2")) else None)
            for g, by in rates.items()}
    return out


def write_results(doc: dict[str, Any], path: Path | None, started: dt.datetime, prefix: str = "") -> Path:
    """Write a results document to ``path``, or to ``bench/results/<prefix><UTC start>.json``."""
    path = path or RESULTS / f"{prefix}{started.strftime('%Y%m%dT%H%M%SZ')}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def machine_info() -> dict[str, Any]:
    """CPU, cores, OS, Python and package versions: enough to compare runs across machines."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        load: list[float] | None = list(os.getloadavg())
    except OSError:
        load = None
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "loadavg_at_start": load,
        "packages": {p: dist_version(p) for p in PACKAGES},
    }


def _fmt(v: float | None, digits: int = 2) -> str:
    return "—" if v is None else f"{v:.{digits}f}"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows, strict=True)]
    line = "  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(header, widths, strict=True)))
    out = [line, "  ".join("-" * w for w in widths)]
    for row in rows:
        out.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))))
    return "\n".join(out)


def report(pages: Sequence[Page], runners: Sequence[Runner], cells: Sequence[Cell]) -> str:
    """The human-readable tables: per page, per group, and ratios."""
    live = [r for r in runners if r.available]
    parts: list[str] = []
    unavailable = [r for r in runners if not r.available]
    if unavailable:
        parts.append("Unavailable: " + "; ".join(f"{r.name}: {r.missing}" for r in unavailable))
    by = {(c.runner, c.page): c for c in cells}
    rows = []
    for p in pages:
        row = [f"{p.name} ({p.size / 1e3:,.0f} KB)"]
        for r in live:
            c = by.get((r.name, p.name))
            if c is None or c.best_s is None:
                row.append("error" if c is not None and c.error else "—")
            elif c.failed_docs:
                row.append(f"{_fmt(c.mb_s)} ({c.failed_docs}/{c.documents} failed)")
            else:
                row.append(_fmt(c.mb_s))
        rows.append(row)
    parts.append("MB/s per page (best run)\n" + _table(["page", *[r.name for r in live]], rows))
    rates = group_rates(cells, live)
    rows = [[g, *[_fmt(rates[g].get(r.name)) for r in live]] for g in rates]
    parts.append("MB/s per group (total bytes / total best time)\n" + _table(["group", *[r.name for r in live]], rows))
    rat = ratios(rates, live)
    if rat:
        groups = list(rates)
        rows = [[k, *[_fmt(v.get(g)) for g in groups]] for k, v in rat.items()]
        parts.append("Speed ratios (stream_mf2 ÷ peer; >1 = stream_mf2 faster)\n" + _table(["ratio", *groups], rows))
    errors = [c for c in cells if c.error and any(r.name == c.runner for r in live)]
    if errors:
        parts.append("Errors (failed documents are left out of that parser's bytes and time):\n"
                     + "\n".join(f"  {c.runner} on {c.page}: {c.failed_docs}/{c.documents} documents failed; first: {c.error}"
                                 for c in errors))
    return "\n\n".join(parts)


def main(argv: list[str] | None = None, *, out: Callable[[str], None] = print) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.run", description="Throughput of stream_mf2 vs peers (MB/s).")
    ap.add_argument("--quick", action="store_true", help="one run per cell, 5 s budget: a fast smoke run")
    ap.add_argument("--runs", type=int, default=5, help="best of N runs per (parser, page) (default 5)")
    ap.add_argument("--budget", type=float, default=10.0, help="seconds per (parser, page) before stopping early (default 10)")
    ap.add_argument("--only", action="append", metavar="NAME", help="run only these parsers (repeatable)")
    ap.add_argument("--no-suite", action="store_true", help="skip the official microformats suite pages")
    ap.add_argument("--fixtures", type=Path, default=FIXTURES, help="folder of *.html pages")
    ap.add_argument("--json", type=Path, default=None, help="write results here (default bench/results/<timestamp>.json)")
    ap.add_argument("--compiled-python", default=None, metavar="PATH",
                    help="also time the stream_mf2 installed for this interpreter (the compiled build), in a child")
    args = ap.parse_args(argv)
    runs, budget = (1, 5.0) if args.quick else (max(1, args.runs), args.budget)

    runners = all_runners(args.only)
    if not runners:
        ap.error("no parser matches --only")
    pages = load_pages(not args.no_suite, args.fixtures)
    if not pages:
        ap.error(f"no pages in {args.fixtures}; run: python -m bench.make_fixtures")
    started = dt.datetime.now(dt.UTC)
    cells: list[Cell] = []
    for r in runners:
        warm_up(r, pages[0])
    child = CompiledChild(args.compiled_python, runs, budget, not args.no_suite, args.fixtures) \
        if args.compiled_python else None
    try:
        for p in pages:
            cells.extend(time_page(runners, p, runs, budget, child, lambda c: print(
                f"  {c.runner:22} {c.page:42} {_fmt(c.mb_s):>8} MB/s  {c.error or ''}", file=sys.stderr, flush=True)))
    finally:
        if child is not None:
            child.close()
    if child is not None:
        runners = [*runners[:1], child.runner, *runners[1:]]
    out(report(pages, runners, cells))
    live = [r for r in runners if r.available]
    rates = group_rates(cells, live)
    result = {
        "started_utc": started.isoformat(),
        "finished_utc": dt.datetime.now(dt.UTC).isoformat(),
        "machine": machine_info(),
        "settings": {"runs": runs, "budget_s": budget, "quick": args.quick, "small_limit_bytes": SMALL_LIMIT},
        "runners": [{"name": r.name, "kind": r.kind, "subject": r.subject, "available": r.available,
                     "missing": r.missing, "version": r.version} for r in runners],
        "pages": [{"name": p.name, "group": p.group, "bytes": p.size, "documents": len(p.docs)} for p in pages],
        "cells": [{**asdict(c), "mb_s": c.mb_s} for c in cells],
        "groups_mb_s": rates,
        "ratios": ratios(rates, live),
    }
    path = write_results(result, args.json, started)
    out(f"\nResults written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
