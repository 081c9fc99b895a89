"""Peak memory and wall time on large synthetic streams, one child process per measurement.

Usage::

    python -m bench.memory                          # 1MB and 10MB, all shapes, all parsers
    python -m bench.memory --sizes 1MB,10MB,100MB,1GB --parsers stream_mf2
    python -m bench.memory --ttfi                   # time to first item on the 100MB streams

Each (size, shape, parser) runs in a fresh ``python -m bench.memory --child ...``
process, so one measurement's heap cannot inflate the next. The child reports its
own peak resident set size (``VmHWM`` on Linux, else ``ru_maxrss``), its RSS
after imports (the baseline every parser pays), the parse wall time, the time
to the first item and the item count, as one JSON line.

* stream_mf2 is fed the stream chunk by chunk through ``stream_mf2.Parser(url)``
  and never sees the whole document; the time spent generating chunks is left out.
* ``stream_mf2+children`` is the same with ``Parser(url, stream_children=True)``:
  the children of a container item (the "feed" shape's page-wide ``h-feed``) are
  yielded as they close and their subtrees freed, so memory stays flat for
  that shape too (without it, the whole ``h-feed`` is kept until its end).
* Peers cannot stream: the child first joins the stream into one ``bytes``
  object (its size counts towards the peak, as it would for any caller) and then
  parses it. Peers run only up to ``--peer-cap`` (default 100MB); bigger sizes
  are reported as skipped.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.peers import all_runners, peer_runners
from bench.run import machine_info, write_results
from bench.streams import DEFAULT_CHUNK, SHAPES, format_size, parse_size, stream, stream_bytes

REPO = Path(__file__).resolve().parent.parent
BASE_URL = "https://stream.example/"
STREAM_MF2 = "stream_mf2"
STREAM_MF2_CHILDREN = "stream_mf2+children"
OURS = (STREAM_MF2, STREAM_MF2_CHILDREN)


def _rss_now_kb() -> int | None:
    """Current resident set size from /proc (Linux); ``None`` elsewhere."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            pages = int(f.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return pages * (os.sysconf("SC_PAGE_SIZE") // 1024)


def _peak_kb() -> int:
    """This process's peak RSS in KiB.

    On Linux ``VmHWM`` from /proc is used: ``ru_maxrss`` survives ``execve``, so a
    child forked from a big parent would report the parent's size as its own
    peak; ``VmHWM`` belongs to the child's own address space only.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # ru_maxrss is kilobytes on Linux and bytes on macOS.
    return peak // 1024 if sys.platform == "darwin" else peak


def _is_item_event(event: Any) -> bool:
    return type(event).__name__ == "ItemEvent"


def _count_out(out: Any) -> int:
    """Items in whatever a feed()/close() call returned (events, items, or nothing)."""
    if out is None or isinstance(out, str | bytes | dict):
        return 0
    try:
        seq = list(out)
    except TypeError:
        return 0
    return sum(1 for x in seq if _is_item_event(x) or isinstance(x, dict))


def child_stream_mf2(shape: str, size: int, chunk_size: int, *, stream_children: bool = False) -> dict[str, Any]:
    """Feed the stream to ``stream_mf2.Parser`` chunk by chunk; time parsing only."""
    import stream_mf2

    parser_cls = getattr(stream_mf2, "Parser", None)
    if parser_cls is None:
        return {"error": "not available yet (stream_mf2.Parser missing)"}
    parser = parser_cls(BASE_URL, stream_children=True) if stream_children else parser_cls(BASE_URL)
    # feed_events()/close_events() yield events as items complete; plain
    # feed()/close() are the fallback if only those exist.
    feed = getattr(parser, "feed_events", None) or parser.feed
    close = getattr(parser, "close_events", None) or parser.close
    clock = time.perf_counter
    parse_s = 0.0
    first: float | None = None
    items = 0
    for chunk in stream(shape, size, chunk_size):
        start = clock()
        n = _count_out(feed(chunk))
        parse_s += clock() - start
        if n and first is None:
            first = parse_s
        items += n
    start = clock()
    n = _count_out(close())
    parse_s += clock() - start
    if n and first is None:
        first = parse_s
    items += n
    return {"parse_s": parse_s, "first_item_s": first, "items": items, "input_resident_bytes": 0}


def child_peer(name: str, shape: str, size: int) -> dict[str, Any]:
    """Materialise the document, then run the peer once on the whole of it."""
    runner = next((r for r in peer_runners() if r.name == name), None)
    if runner is None:
        return {"error": f"unknown parser {name!r}"}
    if runner.run is None:
        return {"error": runner.missing}
    data = stream_bytes(shape, size)
    start = time.perf_counter()
    out = runner.run(data, BASE_URL)
    parse_s = time.perf_counter() - start
    items = len(out) if isinstance(out, list) else None
    # A whole-document parser hands out its first item only when everything is parsed.
    return {"parse_s": parse_s, "first_item_s": parse_s if items else None, "items": items,
            "input_resident_bytes": len(data)}


def child_main(args: argparse.Namespace) -> int:
    if args.mem_limit:
        # Address-space cap so a runaway peer fails with MemoryError instead of
        # pushing the machine into swap or the OOM killer.
        resource.setrlimit(resource.RLIMIT_AS, (args.mem_limit, args.mem_limit))
    report: dict[str, Any] = {"baseline_rss_kb": _rss_now_kb(), "baseline_peak_kb": _peak_kb()}
    start = time.perf_counter()
    try:
        if args.parser in OURS:
            report.update(child_stream_mf2(args.shape, args.size, args.chunk_size,
                                           stream_children=args.parser == STREAM_MF2_CHILDREN))
        else:
            report.update(child_peer(args.parser, args.shape, args.size))
    except MemoryError:
        report["error"] = f"MemoryError (address space capped at {args.mem_limit} bytes)"
    except RecursionError as exc:
        report["error"] = f"RecursionError: {exc}"
    except Exception as exc:  # reported, not raised: the parent tabulates every outcome
        report["error"] = f"{type(exc).__name__}: {str(exc)[:200]}"
    report["wall_s"] = time.perf_counter() - start
    report["peak_rss_kb"] = _peak_kb()
    print(json.dumps(report), flush=True)
    return 0


def run_child(parser: str, shape: str, size: int, chunk_size: int, timeout: float, mem_limit: int) -> dict[str, Any]:
    """Run one measurement in a fresh interpreter and return its JSON report."""
    cmd = [sys.executable, "-m", "bench.memory", "--child", "--parser", parser, "--shape", shape,
           "--size", str(size), "--chunk-size", str(chunk_size), "--mem-limit", str(mem_limit)]
    return run_json_child(cmd, timeout)


def run_json_child(cmd: list[str], timeout: float) -> dict[str, Any]:
    """Run ``cmd`` (a ``python -m bench.…`` child) from the repository root and return the
    last JSON line it printed, or ``{"error": …}`` when it timed out, failed or printed none."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    try:
        proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s"}
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or [f"exit status {proc.returncode}"]
        return {"error": f"child failed (exit {proc.returncode}): {tail[0][:200]}"}
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def _fmt_mb(kb: int | None) -> str:
    return "—" if kb is None else f"{kb / 1024:,.0f}"


def _fmt_s(s: float | None) -> str:
    return "—" if s is None else f"{s:,.2f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.memory", description="Peak RSS and time on large streams.")
    ap.add_argument("--sizes", default="1MB,10MB", help="comma-separated sizes: 1MB,10MB,100MB,1GB (default 1MB,10MB)")
    ap.add_argument("--shapes", default=",".join(SHAPES), help=f"comma-separated shapes from {','.join(SHAPES)}")
    ap.add_argument("--parsers", default=None, help="comma-separated parser names (default: stream_mf2 and every peer)")
    ap.add_argument("--peer-cap", default="100MB", help="largest size given to peers, which need the whole document (default 100MB)")
    ap.add_argument("--chunk-size", type=int, default=DEFAULT_CHUNK, help="bytes per chunk fed to stream_mf2")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds before a child is killed (default 900)")
    ap.add_argument("--mem-limit", default="16GB", help="address-space cap for each child (default 16GB; 0 = none)")
    ap.add_argument("--ttfi", action="store_true",
                    help="time to first item on the 100MB entries and feed streams (stream_mf2) vs peers' full parse")
    ap.add_argument("--json", type=Path, default=None, help="results file (default bench/results/memory-<timestamp>.json)")
    # Child mode: one measurement, reported as a JSON line on stdout.
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--parser", help=argparse.SUPPRESS)
    ap.add_argument("--shape", help=argparse.SUPPRESS)
    ap.add_argument("--size", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    mem_limit = parse_size(args.mem_limit)
    if args.child:
        args.mem_limit = mem_limit
        return child_main(args)

    if args.ttfi:
        sizes = [100 * 10**6]
        shapes = ["entries", "feed"]
    else:
        sizes = [parse_size(s) for s in args.sizes.split(",") if s.strip()]
        shapes = [s.strip() for s in args.shapes.split(",") if s.strip()]
    bad = [s for s in shapes if s not in SHAPES]
    if bad:
        ap.error(f"unknown shape(s) {bad}; choose from {SHAPES}")
    names = [*OURS, *(r.name for r in peer_runners())]
    if args.parsers:
        names = [n.strip() for n in args.parsers.split(",") if n.strip()]
    known = {r.name for r in all_runners()} | set(OURS)
    if any(n not in known for n in names):
        ap.error(f"unknown parser(s); choose from {sorted(known)}")
    cap = parse_size(args.peer_cap)
    print(f"Peers get the whole document as bytes and run only up to {format_size(cap)} (--peer-cap); "
          f"stream_mf2 is fed {args.chunk_size}-byte chunks.", flush=True)

    started = dt.datetime.now(dt.UTC)
    rows: list[dict[str, Any]] = []
    for size in sizes:
        for shape in shapes:
            for name in names:
                row: dict[str, Any] = {"parser": name, "shape": shape, "size": size}
                if name not in OURS and size > cap:
                    row["error"] = f"skipped: above peer cap {format_size(cap)}"
                else:
                    row.update(run_child(name, shape, size, args.chunk_size, args.timeout, mem_limit))
                rows.append(row)
                print(f"  {format_size(size):>6} {shape:8} {name:18} peak {_fmt_mb(row.get('peak_rss_kb')):>7} MB  "
                      f"parse {_fmt_s(row.get('parse_s')):>8} s  first item {_fmt_s(row.get('first_item_s')):>8} s  "
                      f"items {row.get('items', '—')}  {row.get('error') or ''}", flush=True)

    print()
    header = f"{'size':>6}  {'shape':8}  {'parser':18}  {'peak RSS MB':>11}  {'after imports MB':>16}  {'parse s':>9}  {'first item s':>12}  {'items':>8}  note"
    print(header)
    print("-" * len(header))
    for row in rows:
        print(f"{format_size(row['size']):>6}  {row['shape']:8}  {row['parser']:18}  {_fmt_mb(row.get('peak_rss_kb')):>11}  "
              f"{_fmt_mb(row.get('baseline_rss_kb')):>16}  {_fmt_s(row.get('parse_s')):>9}  "
              f"{_fmt_s(row.get('first_item_s')):>12}  {row.get('items', '—')!s:>8}  {row.get('error') or ''}")

    result = {
        "started_utc": started.isoformat(),
        "finished_utc": dt.datetime.now(dt.UTC).isoformat(),
        "machine": machine_info(),
        "settings": {"sizes": sizes, "shapes": shapes, "parsers": names, "peer_cap_bytes": cap,
                     "chunk_size": args.chunk_size, "mem_limit_bytes": mem_limit, "ttfi": args.ttfi},
        "rows": rows,
    }
    path = write_results(result, args.json, started, "memory-")
    print(f"\nResults written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
