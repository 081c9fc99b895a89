"""Markdown tables from benchmark results JSON: the README's benchmark tables.

Usage::

    python -m bench.report bench/results/20261122T140000Z.json
    python -m bench.report bench/results/full.json bench/results/memory-1gb.json   # merged, later files win

Reads the files written by ``python -m bench`` (all sections), ``python -m
bench.run`` (throughput), ``python -m bench.memory`` (memory rows) and
``python -m bench.warc_bench`` (WARC). Memory rows are merged by (size, shape,
parser), a later file replacing an earlier one's row; throughput and WARC
come from the last file that has them.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.streams import format_size

GROUP_ORDER = ("small <200 KB", "large >=200 KB", "suite", "all fixtures")
#: The runner name of the compiled build's full pipeline (``--compiled-python``).
COMPILED_RUNNER = "stream_mf2 (compiled)"
SHAPE_NAMES = {"entries": "flat h-entries", "feed": "one h-feed", "plain": "no microformats"}



def _clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters at a word boundary, marked with "…"."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut) + "…"

def _table(header: Sequence[str], rows: Sequence[Sequence[str]], right_from: int = 1, right_to: int | None = None) -> str:
    """A Markdown table; columns ``right_from`` .. ``right_to`` (exclusive) are numbers, aligned right."""

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(cells) + " |"

    end = len(header) if right_to is None else right_to
    sep = ["---:" if right_from <= i < end else "---" for i in range(len(header))]
    return "\n".join([line(header), line(sep), *(line(r) for r in rows)])


def _n(v: float | None, digits: int = 2) -> str:
    return "—" if v is None else f"{v:,.{digits}f}"


def merge(docs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One view over several results files (see the module docstring for the rules)."""
    merged: dict[str, Any] = {"sources": [], "throughput": None, "memory": {}, "warc": None, "ttfi_size": None,
                              "peer_cap": None, "fixed": None}
    for doc in docs:
        has = [k for k in ("throughput", "memory", "warc", "fixed") if doc.get(k)]
        if "cells" in doc:
            has.append("throughput")
        if "rows" in doc:
            has.append("memory")
        merged["sources"].append({"started_utc": doc.get("started_utc"), "machine": doc.get("machine") or {},
                                  "sections": has})
        settings = doc.get("settings") or {}
        cap = settings.get("skip_peers_above_bytes", settings.get("peer_cap_bytes"))
        if cap is not None:
            merged["peer_cap"] = cap if merged["peer_cap"] is None else min(cap, merged["peer_cap"])
        if "cells" in doc and "groups_mb_s" in doc:  # bench.run
            merged["throughput"] = doc
        if doc.get("throughput"):
            merged["throughput"] = doc["throughput"]
        rows = (doc.get("memory") or {}).get("rows") or (doc.get("rows") if "settings" in doc else None) or []
        for r in rows:
            merged["memory"][(r["size"], r["shape"], r["parser"])] = r
        if doc.get("ttfi"):
            merged["ttfi_size"] = doc["ttfi"]["size"]
        if doc.get("warc"):
            merged["warc"] = doc["warc"]
        if doc.get("fixed"):
            merged["fixed"] = doc["fixed"]
    return merged


def throughput_table(tp: dict[str, Any]) -> str:
    """MB/s per parser and page group."""
    rates: dict[str, dict[str, float | None]] = tp["groups_mb_s"]
    groups = [g for g in GROUP_ORDER if g in rates]
    runners = [r for r in tp["runners"] if r["available"]]
    # Pages per group; the suite batch counts its documents.
    count = {g: sum(p["documents"] for p in tp["pages"] if p["group"] == g) for g in groups}
    count["all fixtures"] = sum(1 for p in tp["pages"] if p["group"] != "suite")
    head = ["parser", "kind"] + [f"{g} ({count.get(g, 0)} pages)" for g in groups]
    rows = [[r["name"], "mf2" if r["kind"] == "mf2" else "HTML only", *[_n(rates[g].get(r["name"])) for g in groups]]
            for r in runners]
    missing = [f"{r['name']}: {r['missing']}" for r in tp["runners"] if not r["available"]]
    note = f"\n\nNot run: {'; '.join(missing)}." if missing else ""
    mode = "one run per page (--quick)" if tp.get("settings", {}).get("quick") else \
        f"best of {tp.get('settings', {}).get('runs', '?')} runs per page"
    return f"Throughput, MB/s (total bytes / total best time; {mode}):\n\n" + _table(head, rows, 2) + note


def _mem_cell(r: dict[str, Any] | None) -> str:
    if r is None:
        return "—"
    if r.get("capped"):
        est = r.get("estimated_peak_bytes")
        return f"not run (needs ~{est / 1e9:.0f} GB)" if est and "available" in r["capped"] else \
            f"not run (> peer cap{f', ~{est / 1e9:.0f} GB' if est else ''})"
    if r.get("error"):
        err = str(r["error"])
        if err.startswith("skipped: above peer cap"):
            return "not run (> peer cap)"
        peak = r.get("peak_rss_kb")
        at = f" (peak {peak / 1024:,.0f} MB)" if peak else ""
        return f"error{at}: {_clip(err, 90)}"
    peak = r.get("peak_rss_kb")
    return f"{peak / 1024:,.0f} MB, {_n(r.get('parse_s'), 1)} s" if peak else "—"


def _estimate_gb(rows: dict[tuple[int, str, str], dict[str, Any]], shape: str, parser: str, size: int) -> float | None:
    """Peak RSS in GB at ``size``, extrapolated along the line through the two largest sizes measured.

    A flat profile (stream_mf2 streaming) stays flat; a DOM grows with the input.
    ``None`` with fewer than two measured sizes.
    """
    done = sorted((r for (sz, sh, p), r in rows.items() if sh == shape and p == parser and sz < size
                   and r.get("peak_rss_kb") and not r.get("error")), key=lambda r: r["size"])
    if len(done) < 2:
        return None
    a, b = done[-2], done[-1]
    slope = (b["peak_rss_kb"] - a["peak_rss_kb"]) / (b["size"] - a["size"])
    return float(b["peak_rss_kb"] + slope * (size - b["size"])) * 1024 / 1e9


def _missing_cell(rows: dict[tuple[int, str, str], dict[str, Any]], shape: str, parser: str, size: int,
                  peer_cap: int | None) -> str:
    """What to say for a (size, shape, parser) no results file has."""
    est = _estimate_gb(rows, shape, parser, size)
    need = f"~{est:,.0f} GB by extrapolation" if est is not None and est >= 1 else None
    if not parser.startswith("stream_mf2") and peer_cap is not None and size > peer_cap:
        return f"not run: peers only up to {format_size(peer_cap)}" + (f" ({need})" if need else "")
    return f"not measured ({need})" if need else "—"


def memory_table(rows: dict[tuple[int, str, str], dict[str, Any]], peer_cap: int | None = None) -> str:
    """Peak RSS and parse time per (shape, parser) and size."""
    sizes = sorted({k[0] for k in rows})
    order = {"entries": 0, "feed": 1, "plain": 2}
    keys = sorted({(k[1], k[2]) for k in rows},
                  key=lambda sp: (order.get(sp[0], 9), not sp[1].startswith("stream_mf2"), sp[1]))
    body = []
    for shape, parser in keys:
        label = SHAPE_NAMES.get(shape, shape)
        name = "stream_mf2, stream_children=True" if parser == "stream_mf2+children" else parser
        body.append([label, name, *[_mem_cell(rows[(s, shape, parser)]) if (s, shape, parser) in rows
                                    else _missing_cell(rows, shape, parser, s, peer_cap) for s in sizes]])
    head = ["stream", "parser", *[format_size(s) for s in sizes]]
    return ("Memory: peak RSS of a child process (interpreter included) and parse time; stream_mf2 is fed 64 KiB "
            "chunks, peers get the whole document:\n\n" + _table(head, body, 2)
            + "\n\n\"not measured\", — : no results file has that run; \"not run\": capped by the harness "
            "(see bench/README.md). GB figures for missing runs are linear extrapolations of the two largest "
            "sizes measured.")


def ttfi_table(rows: dict[tuple[int, str, str], dict[str, Any]], size: int | None) -> str | None:
    """Time to first item (stream_mf2) vs full parse time (everyone) at one size.

    Without rows at ``size`` (or with ``size`` ``None``), the largest size at
    which a peer was measured is used, so the table always compares something.
    """
    if size is None or not any(k[0] == size for k in rows):
        measured = [k[0] for k, r in rows.items() if not k[2].startswith("stream_mf2") and r.get("peak_rss_kb")]
        if not measured and not rows:
            return None
        size = max(measured) if measured else max(k[0] for k in rows)
    body = []
    for shape in ("entries", "feed"):
        for (sz, sh, parser), r in sorted(rows.items(), key=lambda kv: (not kv[0][2].startswith("stream_mf2"), kv[0][2])):
            if sz != size or sh != shape:
                continue
            name = "stream_mf2, stream_children=True" if parser == "stream_mf2+children" else parser
            if r.get("capped") or r.get("error"):
                body.append([SHAPE_NAMES[shape], name, "—", "—", _mem_cell(r)])
                continue
            body.append([SHAPE_NAMES[shape], name, _n(r.get("first_item_s"), 3), _n(r.get("parse_s"), 1),
                         "—" if r.get("items") is None else f"{r['items']:,}"])
    if not body:
        return None
    return (f"Time to first item on the {format_size(size)} streams (a peer's first item is its full parse):\n\n"
            + _table(["stream", "parser", "first item s", "full parse s", "items"], body, 2))


def warc_table(w: dict[str, Any]) -> str:
    """WARC reading throughput per archive form and worker count."""
    a = w["archive"]
    body = []
    for r in w["rows"]:
        s = r.get("summary") or {}
        body.append([r["archive"] + (" (.warc.gz)" if r["archive"] == "gzip" else " (.warc)"), str(r["workers"]),
                     _n(r["bytes"] / 1e6, 1), _n(r.get("mb_s")), _n(r.get("records_s"), 0), _n(r.get("items_s"), 0),
                     f"{s.get('records', '—')} / {a['records']}", str(s.get("errors", "—")),
                     _clip(str(r.get("error") or ""), 90)])
    head = ["archive", "workers", "MB", "MB/s", "records/s", "items/s", "records read / written", "errors", "note"]
    by = a["by_type"]
    return (f"WARC: `stream_mf2.iter_warc` (1 worker) / `iter_warc_parallel` over a generated archive of "
            f"{a['records']} records ({by['response']} responses, {a['html_records']} of them HTML; "
            f"{by['request']} requests, {by['revisit']} revisits, 1 warcinfo); MB/s is archive bytes on disk "
            f"/ wall time:\n\n" + _table(head, body, 1, 8))


def ratio_table(tp: dict[str, Any]) -> str | None:
    """Speed ratios of stream_mf2's full-pipeline rows (pure, compiled) against the others, per group."""
    rat: dict[str, dict[str, float | None]] = tp.get("ratios") or {}
    keys = [k for k in rat if k.split(" / ")[0] in ("stream_mf2", COMPILED_RUNNER)]
    if not keys:
        return None
    groups = [g for g in GROUP_ORDER if any(g in rat[k] for k in keys)]
    rows = [[k.replace(" / ", " ÷ "), *[_n(rat[k].get(g)) for g in groups]] for k in keys]
    return "Speed ratios (> 1: the first is faster):\n\n" + _table(["ratio", *groups], rows)


def fixed_table(fixed: dict[str, Any]) -> str:
    """Per-document fixed cost and import cost, one row per build."""
    body = []
    for r in fixed["rows"]:
        b = ((r.get("per_document") or {}).get("build") or (r.get("import") or {}).get("build") or {})
        label = r["build"] + ("" if not b or b.get("compiled") == (r["build"] == "compiled")
                              else f" (COMPILED={b.get('compiled')})")
        if r.get("error"):
            body.append([label, f"error: {_clip(str(r['error']), 90)}", "", "", "", "", ""])
            continue
        d, i = r["per_document"], r["import"]
        body.append([label, _n(d["str_us"], 0), _n(d["bytes_us"], 0), _n(i["wall_s"] * 1e3, 0),
                     _n(i["interpreter_s"] * 1e3, 0), _n(i["import_s"] * 1e3, 1),
                     f"{i['modules']} ({_n((i.get('rss_added_kb') or 0) / 1024, 1)} MB)"])
    head = ["build", f"parse() of a {fixed['page_bytes']}-byte page, str, µs", "same, bytes, µs",
            "`python -c \"import stream_mf2\"`, ms", "`python -c pass`, ms", "import alone, ms",
            "modules loaded (RSS added)"]
    return (f"Fixed costs (best of {fixed['runs']}; per document: batches of {fixed['batch']}; warm bytecode "
            "cache):\n\n" + _table(head, body, 1))


def machine_line(sources: list[dict[str, Any]]) -> str:
    """Where and when the numbers were taken."""
    out = []
    for s in sources:
        m = s["machine"]
        pk = m.get("packages") or {}
        vers = ", ".join(f"{k} {v}" for k, v in pk.items() if v)
        load = m.get("loadavg_at_start")
        what = f" ({', '.join(s['sections'])})" if s.get("sections") else ""
        out.append(f"- {(s.get('started_utc') or '?')[:16]}Z{what}: {m.get('cpu', '?')}, {m.get('cores', '?')} cores, "
                   f"Python {m.get('python', '?')}, load average at start "
                   f"{', '.join(f'{x:.1f}' for x in load) if load else '?'}; {vers}")
    return "Measured on:\n\n" + "\n".join(out)


def render(docs: Sequence[dict[str, Any]]) -> str:
    """All the tables the given results files have, as Markdown."""
    m = merge(docs)
    parts = []
    if m["throughput"]:
        parts.append(throughput_table(m["throughput"]))
        rt = ratio_table(m["throughput"])
        if rt:
            parts.append(rt)
    if m["fixed"]:
        parts.append(fixed_table(m["fixed"]))
    if m["memory"]:
        parts.append(memory_table(m["memory"], m["peer_cap"]))
        t = ttfi_table(m["memory"], m["ttfi_size"])
        if t:
            parts.append(t)
        # Also the largest size at which the peers were measured, if that is another one.
        t2 = ttfi_table(m["memory"], None)
        if t2 and t2 != t:
            parts.append(t2)
    if m["warc"]:
        parts.append(warc_table(m["warc"]))
    parts.append(machine_line(m["sources"]))
    return "\n\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.report", description="Markdown tables from results JSON.")
    ap.add_argument("files", nargs="+", type=Path, help="results files; later ones win on overlapping rows")
    args = ap.parse_args(argv)
    print(render([json.loads(p.read_text(encoding="utf-8")) for p in args.files]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
