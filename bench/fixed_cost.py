"""Fixed costs: the time of one tiny document, and of ``import stream_mf2``.

Usage::

    python -m bench.fixed_cost                                  # this checkout, pure Python
    python -m bench.fixed_cost --compiled-python /venv/bin/python   # and an installed compiled build

Rows, for each build measured:

``per document``
    ``stream_mf2.parse(PAGE, url)`` on a 200-byte page with one h-card, as ``str``
    and as ``bytes`` (decoder and encoding prescan included): microseconds per
    document, best of ``--runs`` batches of ``--batch`` documents. What every page
    pays whatever its size.
``import``
    a fresh ``python -c "import stream_mf2"``: wall time of the whole child, best of
    ``--runs`` (next to ``python -c "pass"``, the interpreter alone), the import
    itself timed inside the child, the modules it loads and the memory it adds
    (RSS). The bytecode cache is warm, as for an installed package: the children
    write and read it in a temporary ``PYTHONPYCACHEPREFIX``.

Every measurement runs in a child process of the interpreter under test, so one
run can put two builds side by side. The pure build is this checkout's source
(``PYTHONPATH`` = the repository); another interpreter (``--compiled-python``)
uses the ``stream_mf2`` installed in its environment, and the child reports
which one it loaded and whether it is compiled (``stream_mf2.COMPILED``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent

#: The per-document page: 200 bytes, one h-card, a meta charset (so the prescan decides early).
PAGE = (
    '<!doctype html><html><head><meta charset="utf-8"><title>Ana</title></head>'
    '<body><div class="h-card"><a class="p-name u-url" href="/ana">Ana Example</a>'
    "<p>Hello, world, from me.</p></div></body></html>"
)
assert len(PAGE) == 200, len(PAGE)

PURE = "pure"
COMPILED = "compiled"


def child_env(pure: bool, pycache: str) -> dict[str, str]:
    """The environment of a measuring child: warm bytecode cache; the checkout on the path only for ``pure``."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
    env["PYTHONPYCACHEPREFIX"] = pycache
    if pure:
        env["PYTHONPATH"] = str(REPO)
    return env


def child_code(call: str) -> str:
    """``-c`` code for a child: ``bench`` from this checkout, ``stream_mf2`` from the path.

    The checkout is *appended* to ``sys.path``: an installed ``stream_mf2`` (the
    compiled build) comes first, and the pure build is found through ``PYTHONPATH``.
    """
    return f"import sys; sys.path.append({str(REPO)!r}); import bench.fixed_cost as m; {call}"


def build_info() -> dict[str, Any]:
    """Which ``stream_mf2`` this process loaded (call after importing it)."""
    import stream_mf2

    return {"file": stream_mf2.__file__, "compiled": bool(getattr(stream_mf2, "COMPILED", False)),
            "python": sys.version.split()[0], "executable": sys.executable}


def per_document(runs: int, batch: int) -> dict[str, Any]:
    """Child side: microseconds per ``parse()`` of :data:`PAGE`, str and bytes."""
    from stream_mf2 import parse

    out: dict[str, Any] = {"page_bytes": len(PAGE)}
    for kind, doc in (("str", PAGE), ("bytes", PAGE.encode("utf-8"))):
        assert parse(doc, "https://bench.example/")["items"], "the page has an h-card"
        best = float("inf")
        for _ in range(runs):
            start = time.perf_counter()
            for _ in range(batch):
                parse(doc, "https://bench.example/")
            best = min(best, time.perf_counter() - start)
        out[f"{kind}_us"] = best / batch * 1e6
    out["build"] = build_info()
    return out


def import_child() -> dict[str, Any]:
    """Child side: the import of ``stream_mf2`` timed from inside, with modules and RSS."""
    before = set(sys.modules)
    rss0 = _rss_kb()
    start = time.perf_counter()
    import stream_mf2  # noqa: F401

    took = time.perf_counter() - start
    return {"import_s": took, "modules": len(set(sys.modules) - before), "modules_total": len(sys.modules),
            "rss_added_kb": (_rss_kb() or 0) - (rss0 or 0) if rss0 is not None else None, "rss_kb": _rss_kb(),
            "build": build_info()}


def _rss_kb() -> int | None:
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def _run_child(python: str, code: str, env: dict[str, str], cwd: str, timeout: float) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run([python, "-c", code], env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          check=False)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{python} failed: {done.stderr.strip()[-500:]}")
    return took, done.stdout


def measure_build(python: str, label: str, runs: int = 5, batch: int = 500, timeout: float = 300.0) -> dict[str, Any]:
    """Both rows for one build, each in child processes of ``python``."""
    row: dict[str, Any] = {"build": label, "python": python}
    try:
        with tempfile.TemporaryDirectory(prefix="bench-fixed-") as tmp:
            env = child_env(label == PURE, str(Path(tmp) / "pycache"))
            # The first child writes the bytecode cache; the timed ones read it.
            _run_child(python, child_code("m.import_child()"), env, tmp, timeout)
            walls, bare = [], []
            inner: dict[str, Any] | None = None
            for _ in range(max(1, runs)):
                t, _ = _run_child(python, "pass", env, tmp, timeout)
                bare.append(t)
                # (the checkout is appended to sys.path: used only where no build is installed)
                t, _ = _run_child(python, f"import sys; sys.path.append({str(REPO)!r}); import stream_mf2", env, tmp,
                                  timeout)
                walls.append(t)
                _, text = _run_child(python, child_code("import json; print(json.dumps(m.import_child()))"), env, tmp,
                                     timeout)
                got = json.loads(text)
                if inner is None or got["import_s"] < inner["import_s"]:
                    inner = got
            assert inner is not None
            row["import"] = {"wall_s": min(walls), "interpreter_s": min(bare), **inner}
            _, text = _run_child(python, child_code(f"import json; print(json.dumps(m.per_document({runs}, {batch})))"),
                                 env, tmp, timeout)
            row["per_document"] = json.loads(text)
    except (RuntimeError, subprocess.TimeoutExpired, json.JSONDecodeError) as exc:
        row["error"] = f"{type(exc).__name__}: {exc}"
    return row


def measure(compiled_python: str | None = None, runs: int = 5, batch: int = 500) -> dict[str, Any]:
    """The rows for the pure build (this interpreter, this checkout) and, if given, the compiled build."""
    rows = [measure_build(sys.executable, PURE, runs, batch)]
    if compiled_python:
        rows.append(measure_build(compiled_python, COMPILED, runs, batch))
    return {"page_bytes": len(PAGE), "runs": runs, "batch": batch, "rows": rows}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.fixed_cost", description=__doc__.split("\n\n")[0])
    ap.add_argument("--compiled-python", default=None, help="interpreter whose environment has the compiled build")
    ap.add_argument("--runs", type=int, default=5, help="best of N (default 5)")
    ap.add_argument("--batch", type=int, default=500, help="documents per timed batch (default 500)")
    ap.add_argument("--json", type=Path, default=None, help="also write the result here")
    args = ap.parse_args(argv)
    result = measure(args.compiled_python, args.runs, args.batch)
    from bench import report

    print(report.fixed_table(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
