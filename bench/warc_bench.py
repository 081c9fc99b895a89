"""WARC throughput: MB/s and records/s of ``stream_mf2.iter_warc`` end to end.

Usage::

    python -m bench.warc_bench                      # 50MB of records, .warc.gz and .warc, 1 and 2 workers
    python -m bench.warc_bench --size 5MB --workers 1,2,4
    python -m bench.warc_bench --only-prefilter --crawl-size 40MB   # the prefilter row only

The archive is generated with warcio into a temporary folder (never committed)
from fixed inputs, so every run reads the same records:

* HTML ``response`` records: the ``fixtures/bench`` pages (items, mf1 markup,
  windows-1252, a page without microformats, a 1.4 MB h-feed, a 2 MB SVG page)
  and synthetic ``bench.streams`` pages of 100 KB (flat h-entries, and a news
  page with no microformats);
* non-HTML ``response`` records (CSS, JavaScript, JSON, PNG-like bytes), which
  are counted and skipped;
* a ``request`` record before each response, a ``warcinfo`` record first and
  a ``revisit`` record now and then, as crawlers write them;
* HTTP bodies in every transport form the reader has to undo: plain,
  ``Content-Encoding: gzip`` and ``Transfer-Encoding: chunked``.

The same records are written twice: as ``.warc.gz`` (one gzip member per
record, as crawlers write) and as an uncompressed ``.warc``.

Each measurement runs in a fresh child process (``--child``) that iterates the
whole archive with :func:`stream_mf2.iter_warc` (``workers`` 1) or
:func:`stream_mf2.warc.parallel.iter_warc_parallel` and reports wall time, CPU time of
the child (the workers' CPU is not included), its peak RSS and the reader's
summary. MB/s is archive bytes on disk / wall time; records/s counts every
WARC record (all types); HTML MB/s is the decoded HTML bytes / wall time.

The prefilter row (:func:`measure_prefilter`) writes a crawl-like ``.warc.gz``
(:mod:`bench.crawl_archive`: about one HTML record in ten with microformats) and
runs ``stream-mf2 warc --type h-entry,h-card -o out.jsonl`` on it end to end (a
fresh interpreter, start-up included), with and without ``--prefilter``: the two
wall times, their ratio, and whether the item lines are identical.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gzip
import io
import json
import random
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.memory import _peak_kb, run_json_child
from bench.run import FIXTURES, machine_info, write_results
from bench.streams import format_size, parse_size, stream_bytes

SYNTHETIC_PAGE = 100_000
# Every this many records a revisit record is written instead of a response.
_REVISIT_EVERY = 7


def _http_body(payload: bytes, n: int) -> tuple[bytes, list[tuple[str, str]]]:
    """The body as sent on the wire, and its transfer headers: plain, gzip or chunked by turn."""
    form = n % 3
    if form == 1:
        return gzip.compress(payload, mtime=0), [("Content-Encoding", "gzip")]
    if form == 2:
        out = io.BytesIO()
        for start in range(0, len(payload), 8192):
            piece = payload[start : start + 8192]
            out.write(b"%x\r\n%s\r\n" % (len(piece), piece))
        out.write(b"0\r\n\r\n")
        return out.getvalue(), [("Transfer-Encoding", "chunked")]
    return payload, []


def _resources() -> list[tuple[str, str, bytes]]:
    """(path, content type, body) for one round of records: HTML pages and non-HTML assets."""
    rng = random.Random(6)
    html: list[tuple[str, str, bytes]] = []
    for path in sorted(FIXTURES.glob("*.html")):
        ctype = "text/html; charset=windows-1252" if "1252" in path.name else "text/html; charset=utf-8"
        html.append((f"/{path.stem}", ctype, path.read_bytes()))
    for shape in ("entries", "plain"):
        html.append((f"/synthetic-{shape}", "text/html", stream_bytes(shape, SYNTHETIC_PAGE)))
    assets = [
        ("/main.css", "text/css", b".h-entry{margin:1em 0}\nbody{font:16px/1.5 sans-serif}\n" * 400),
        ("/app.js", "application/javascript", b"window.ads=window.ads||[];ads.push({slot:1,ok:1<2});\n" * 600),
        ("/api/posts.json", "application/json", json.dumps([{"id": i, "title": f"post {i}"} for i in range(800)]).encode()),
        ("/media/photo.png", "image/png", b"\x89PNG\r\n\x1a\n" + rng.randbytes(60_000)),
    ]
    # Interleave so gzip/chunked/plain forms fall on both kinds of record.
    out: list[tuple[str, str, bytes]] = []
    for i, page in enumerate(html):
        out.append(page)
        if i < len(assets):
            out.append(assets[i])
    return out


def _records(target: int) -> Iterator[tuple[str, str, bytes, list[tuple[str, str]]]]:
    """(record type, URI, body, HTTP headers) until about ``target`` body bytes were produced."""
    resources = _resources()
    produced = 0
    n = 0
    rnd = 0
    while produced < target:
        for path, ctype, payload in resources:
            uri = f"https://site{rnd % 17}.example{path}?r={rnd}"
            if n % _REVISIT_EVERY == _REVISIT_EVERY - 1:
                yield "revisit", uri, b"", [("Content-Type", ctype)]
            else:
                body, transfer = _http_body(payload, n)
                yield "response", uri, body, [("Content-Type", ctype), *transfer]
                produced += len(body)
            n += 1
            if produced >= target:
                return
        rnd += 1


def write_archives(folder: Path, size: int) -> dict[str, Any]:
    """Write ``bench.warc.gz`` and ``bench.warc`` with the same records; return what is in them."""
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    counts = {"response": 0, "request": 0, "revisit": 0, "warcinfo": 0}
    html_records = 0
    out_paths = {"gzip": folder / "bench.warc.gz", "plain": folder / "bench.warc"}
    files = {k: open(p, "wb") for k, p in out_paths.items()}  # noqa: SIM115  # closed below
    try:
        writers = {k: WARCWriter(f, gzip=k == "gzip") for k, f in files.items()}
        for w in writers.values():
            w.write_record(w.create_warcinfo_record("bench.warc", {"software": "bench.warc_bench"}))
        counts["warcinfo"] += 1
        for kind, uri, body, headers in _records(size):
            for w in writers.values():
                req_headers = StatusAndHeaders("GET / HTTP/1.1", [("Host", uri.split("/")[2])], is_http_request=True)
                w.write_record(w.create_warc_record(uri, "request", http_headers=req_headers))
                if kind == "revisit":
                    http = StatusAndHeaders("304 Not Modified", headers, protocol="HTTP/1.1")
                    w.write_record(w.create_warc_record(uri, "revisit", http_headers=http))
                else:
                    http = StatusAndHeaders("200 OK", [*headers, ("Content-Length", str(len(body)))]
                                            if not any(h == "Transfer-Encoding" for h, _ in headers) else headers,
                                            protocol="HTTP/1.1")
                    w.write_record(w.create_warc_record(uri, "response", payload=io.BytesIO(body), http_headers=http))
            counts["request"] += 1
            counts[kind] += 1
            if kind == "response" and headers[0][1].startswith("text/html"):
                html_records += 1
    finally:
        for f in files.values():
            f.close()
    return {
        "records": sum(counts.values()),
        "by_type": counts,
        "html_records": html_records,
        "files": {k: {"path": str(p), "bytes": p.stat().st_size} for k, p in out_paths.items()},
    }


def child_main(path: str, workers: int) -> int:
    """Read the whole archive once and print one JSON line of measurements."""
    import logging

    from stream_mf2.warc.parallel import iter_warc_parallel
    from stream_mf2.warc.reader import iter_warc

    logging.getLogger("warcio").addHandler(logging.NullHandler())
    entries = 0
    cpu0 = time.process_time()
    t0 = time.perf_counter()
    reader = iter_warc_parallel(path, workers) if workers > 1 else iter_warc(path)
    for _ in reader:
        entries += 1
    wall = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    print(json.dumps({"wall_s": wall, "cpu_s": cpu, "entries": entries, "peak_rss_kb": _peak_kb(),
                      "summary": reader.summary.as_dict()}), flush=True)
    return 0


def run_child(path: Path, workers: int, timeout: float) -> dict[str, Any]:
    """One measurement in a fresh interpreter."""
    cmd = [sys.executable, "-m", "bench.warc_bench", "--child", str(path), "--workers", str(workers)]
    return run_json_child(cmd, timeout)


def default_timeout(size: int) -> float:
    """Seconds a reading child gets: two minutes plus one second per 100 KB (0.1 MB/s, far below any real rate)."""
    return 120.0 + size / 100_000


def measure(size: int, workers: list[int], timeout: float | None = None,
            log: Any = None) -> dict[str, Any]:
    """Generate the archives in a temporary folder, read each with every worker count.

    A child that has not finished after ``timeout`` seconds (default
    :func:`default_timeout`) is killed and its row records the time-out.
    """
    if timeout is None:
        timeout = default_timeout(size)
    with tempfile.TemporaryDirectory(prefix="bench-warc-") as tmp:
        t0 = time.perf_counter()
        made = write_archives(Path(tmp), size)
        made["generate_s"] = time.perf_counter() - t0
        rows: list[dict[str, Any]] = []
        for kind in ("gzip", "plain"):
            info = made["files"][kind]
            for n in workers:
                row: dict[str, Any] = {"archive": kind, "workers": n, "bytes": info["bytes"]}
                row.update(run_child(Path(info["path"]), n, timeout))
                wall = row.get("wall_s")
                summary = row.get("summary") or {}
                if wall:
                    row["mb_s"] = info["bytes"] / wall / 1e6
                    row["records_s"] = summary.get("records", 0) / wall
                    row["items_s"] = summary.get("items", 0) / wall
                rows.append(row)
                if log is not None:
                    log(f"  warc {kind:5} workers {n}: {row.get('mb_s', 0):7.2f} MB/s  "
                        f"{row.get('records_s', 0):8.1f} records/s  {row.get('error') or ''}")
    for f in made["files"].values():
        f.pop("path")
    return {"archive": made, "rows": rows}


def format_rows(result: dict[str, Any]) -> str:
    """A plain-text table of one :func:`measure` result."""
    header = f"{'archive':8} {'workers':>7} {'size MB':>8} {'MB/s':>7} {'records/s':>10} {'items/s':>8} " \
             f"{'peak RSS MB':>11}  note"
    out = [header, "-" * len(header)]
    for r in result["rows"]:
        s = r.get("summary") or {}
        note = r.get("error") or f"{s.get('records')} records, {s.get('items')} items, {s.get('errors')} errors"
        out.append(f"{r['archive']:8} {r['workers']:>7} {r['bytes'] / 1e6:>8.1f} {r.get('mb_s', 0):>7.2f} "
                   f"{r.get('records_s', 0):>10.1f} {r.get('items_s', 0):>8.1f} "
                   f"{(r.get('peak_rss_kb') or 0) / 1024:>11.0f}  {note}")
    return "\n".join(out)


# -- the prefilter row: a crawl-like archive, --type h-entry,h-card with and without --prefilter ---

PREFILTER_TYPES = "h-entry,h-card"


def _child_env() -> dict[str, str]:
    """The children's environment: this checkout first on the path, and bytecode written and
    read as an installed package has it, even where ``PYTHONDONTWRITEBYTECODE`` is set:
    otherwise every fresh interpreter compiles the package again, which is no part of a run."""
    import os

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parent.parent)
    return env


def _compile_package(env: dict[str, str]) -> None:
    """Write the package's bytecode (its ``__pycache__`` folders, as any import does), untimed."""
    import subprocess

    package = Path(__file__).resolve().parent.parent / "stream_mf2"
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], env=env, check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip


def _cli_run(archive: Path, out: Path, extra: list[str], timeout: float, env: dict[str, str]) -> dict[str, Any]:
    """``stream-mf2 warc ARCHIVE --type h-entry,h-card EXTRA -o OUT`` in a fresh interpreter: wall time, lines."""
    import subprocess

    cmd = [sys.executable, "-m", "stream_mf2", "warc", str(archive), "--type", PREFILTER_TYPES, *extra, "-o", str(out),
           "--no-progress"]  # fmt: skip
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    try:
        r = subprocess.run(cmd, capture_output=True, timeout=timeout, env=env, check=False)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:g} s", "wall_s": time.perf_counter() - t0}
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # CPU time of the child: on a shared machine it moves far less than wall time.
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if r.returncode != 0:
        return {"error": r.stderr.decode(errors="replace")[-500:], "wall_s": wall}
    lines = [json.loads(x) for x in out.read_bytes().splitlines()]
    return {"wall_s": wall, "cpu_s": cpu, "items": [x for x in lines if x["kind"] == "item"], "summary": lines[-1]}


def measure_prefilter(size: int, timeout: float | None = None, log: Any = None, runs: int = 1) -> dict[str, Any]:
    """The prefilter row: one crawl-like ``.warc.gz`` (:mod:`bench.crawl_archive`), read end to end by the
    command line with and without ``--prefilter`` (each ``runs`` times, alternating; the best wall time
    counts, and the least CPU time of the child), with the item lines compared."""
    import os

    from bench.crawl_archive import write_crawl_archive

    if timeout is None:
        timeout = default_timeout(size)
    load_at_start = list(os.getloadavg())
    with tempfile.TemporaryDirectory(prefix="bench-crawl-") as tmp:
        archive = Path(tmp) / "crawl.warc.gz"
        made = write_crawl_archive(archive, size)
        env = _child_env()
        _compile_package(env)
        best: dict[str, dict[str, Any]] = {}
        cpu: dict[str, float] = {}
        every: dict[str, list[list[float]]] = {"without": [], "prefilter": []}  # [wall, CPU] of each run
        for _ in range(runs):
            for name, extra in (("without", []), ("prefilter", ["--prefilter"])):
                got = _cli_run(archive, Path(tmp) / f"{name}.jsonl", extra, timeout, env)
                if "error" in got:
                    return {"archive": made, "error": f"{name}: {got['error']}"}
                if name not in best or got["wall_s"] < best[name]["wall_s"]:
                    best[name] = got
                cpu[name] = min(cpu.get(name, got["cpu_s"]), got["cpu_s"])
                every[name].append([got["wall_s"], got["cpu_s"]])
                if log is not None:
                    log(f"  crawl {name:9}: {got['wall_s']:7.2f} s wall, {got['cpu_s']:7.2f} s CPU")
    identical = best["without"]["items"] == best["prefilter"]["items"]
    row = {
        "archive": made,
        "command": f"stream-mf2 warc crawl.warc.gz --type {PREFILTER_TYPES} [--prefilter] -o out.jsonl",
        "runs": runs,
        "without_s": best["without"]["wall_s"],
        "prefilter_s": best["prefilter"]["wall_s"],
        "ratio": best["without"]["wall_s"] / best["prefilter"]["wall_s"],
        "without_cpu_s": cpu["without"],
        "prefilter_cpu_s": cpu["prefilter"],
        "cpu_ratio": cpu["without"] / cpu["prefilter"],
        # Every run (the best counts above): on a shared machine the spread says how quiet it was.
        "runs_wall_cpu_s": every,
        "loadavg_at_start": load_at_start,
        "loadavg_at_end": list(os.getloadavg()),
        "items": len(best["without"]["items"]),
        "identical_items": identical,
        "unparsed": best["prefilter"]["summary"].get("unparsed"),
        "html_records": best["prefilter"]["summary"].get("html_records"),
    }
    return row


def format_prefilter(row: dict[str, Any]) -> str:
    if "error" in row:
        return f"prefilter row failed: {row['error']}"
    a = row["archive"]
    start, load = row.get("loadavg_at_start"), row.get("loadavg_at_end")  # (not in older results)
    return (
        f"crawl-like .warc.gz: {a['bytes'] / 1e6:.1f} MB, {a['html_records']} HTML records "
        f"({a['markup_records']} with microformats), {row['items']} items\n"
        f"  without --prefilter {row['without_s']:7.2f} s\n"
        f"  with --prefilter    {row['prefilter_s']:7.2f} s  ({row['unparsed']} records not parsed)\n"
        f"  ratio {row['ratio']:.2f}x wall ({row['without_cpu_s']:.2f} s / {row['prefilter_cpu_s']:.2f} s CPU: "
        f"{row['cpu_ratio']:.2f}x), item lines identical: {row['identical_items']}"
        + (f", load average {start[0]:.2f} at the start, {load[0]:.2f} at the end" if start and load else "")
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.warc_bench", description="WARC throughput of stream_mf2.")
    ap.add_argument("--size", default="50MB", help="HTTP body bytes to write into the archive (default 50MB)")
    ap.add_argument("--workers", default="1,2", help="comma-separated worker counts (default 1,2)")
    ap.add_argument("--timeout", type=float, default=None,
                    help="seconds before a reading child is killed (default 120 + 1 per 100 KB)")
    ap.add_argument("--json", type=Path, default=None, help="results file (default bench/results/warc-<timestamp>.json)")
    ap.add_argument("--crawl-size", default="40MB",
                    help="HTTP body bytes of the crawl-like archive of the prefilter row (default 40MB; 0: no row)")
    ap.add_argument("--crawl-runs", type=int, default=2, help="runs of each prefilter command; the best counts")
    ap.add_argument("--only-prefilter", action="store_true", help="only the prefilter row")
    ap.add_argument("--child", metavar="ARCHIVE", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    workers = [int(w) for w in str(args.workers).split(",") if w.strip()]
    if args.child:
        return child_main(args.child, workers[0])
    started = dt.datetime.now(dt.UTC)
    size = parse_size(args.size)
    result = None
    if not args.only_prefilter:
        print(f"WARC benchmark: {format_size(size)} of HTTP bodies, workers {workers}", flush=True)
        result = measure(size, workers, args.timeout, log=lambda s: print(s, flush=True))
        print(format_rows(result))
    crawl_size = parse_size(args.crawl_size) if args.crawl_size not in ("0", "") else 0
    prefilter = None
    if crawl_size:
        print(f"\nPrefilter row: crawl-like archive of {format_size(crawl_size)} of HTTP bodies", flush=True)
        prefilter = measure_prefilter(crawl_size, args.timeout, log=lambda s: print(s, flush=True),
                                      runs=args.crawl_runs)
        print(format_prefilter(prefilter))
    doc = {"started_utc": started.isoformat(), "finished_utc": dt.datetime.now(dt.UTC).isoformat(),
           "machine": machine_info(), "settings": {"size": size, "workers": workers, "crawl_size": crawl_size},
           "warc": result, "prefilter": prefilter}
    path = write_results(doc, args.json, started, "warc-")
    print(f"\nResults written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
