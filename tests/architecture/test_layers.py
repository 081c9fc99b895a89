"""The layout enforces the architecture: layers point one way and no module imports itself back.

* ``lint-imports`` checks the layers contract of ``pyproject.toml``
  (``cli -> warc -> io -> core -> {mf2, wpt} -> html -> errors/events``): a wrong
  arrow anywhere, even inside a function, fails here.
* No import cycle between modules at run time (imports under ``TYPE_CHECKING``
  only name types and are not run, so they do not count).
* No module is longer than a newcomer can read, except the spec transliterations.
"""

from __future__ import annotations

import subprocess
import sys

import grimp

from tests.support.suites import REPO

PACKAGE = REPO / "stream_mf2"

#: Longest module, in lines; the exceptions are spec transliterations (one state or
#: insertion mode after another).
MAX_LINES = 1500
LONG_ALLOWED = {"html/tokenizer.py", "html/treebuilder.py"}


def test_layers_contract_is_kept() -> None:
    r = subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "1 kept, 0 broken" in r.stdout


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph.modules):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.find_modules_directly_imported_by(start))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
                elif child in on_stack:
                    low[v] = min(low[v], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_cycles() -> None:
    graph = grimp.build_graph("stream_mf2", include_external_packages=False, exclude_type_checking_imports=True)
    assert _cycles(graph) == []


def test_cycle_finder_finds_a_cycle() -> None:
    # The check above must be able to fail: a graph with a -> b -> a has one cycle.
    graph = grimp.ImportGraph()
    for name in ("pkg", "pkg.a", "pkg.b", "pkg.c"):
        graph.add_module(name)
    graph.add_import(importer="pkg.a", imported="pkg.b")
    graph.add_import(importer="pkg.b", imported="pkg.a")
    graph.add_import(importer="pkg.b", imported="pkg.c")
    assert _cycles(graph) == [["pkg.a", "pkg.b"]]


def test_no_module_is_too_long() -> None:
    long = {}
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE).as_posix()
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_LINES and rel not in LONG_ALLOWED:
            long[rel] = n
    assert long == {}
