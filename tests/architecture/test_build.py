"""The two builds: which one runs, what the compiled one holds, and that the pure wheel builds.

CI runs the suite twice: against a plain install and against
``STREAM_MF2_COMPILE=1 pip install .`` with ``STREAM_MF2_EXPECT_COMPILED=1``,
where :func:`test_the_expected_build_runs` fails if the package imported is the
pure one (the tests must not silently run the source tree twice).
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import stream_mf2
from stream_mf2._build import COMPILED_MODULES, is_extension_module
from stream_mf2.cli import main
from tests.support.suites import REPO

#: Third-party modules a compiled module may import: core dependencies only (an
#: optional dependency would make the compiled build need it at import time).
CORE_THIRD_PARTY = {"webencodings", "typing_extensions", "orjson"}


def test_the_expected_build_runs() -> None:
    compiled = [name for name in COMPILED_MODULES if is_extension_module(name)]
    if os.environ.get("STREAM_MF2_EXPECT_COMPILED") == "1":
        assert stream_mf2.COMPILED, f"the pure-Python package was imported from {Path(stream_mf2.__file__).parent}"
        assert compiled == list(COMPILED_MODULES)
    # one build or the other, never a mix
    assert compiled == (list(COMPILED_MODULES) if stream_mf2.COMPILED else [])


def test_version_names_the_build(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out.strip()
    build = "compiled with mypyc" if stream_mf2.COMPILED else "pure Python"
    assert out == f"stream-mf2 {stream_mf2.__version__} ({build})"
    assert out == stream_mf2._build_info()


def _module_file(name: str) -> Path:
    base = REPO.joinpath(*name.split("."))
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


@pytest.mark.parametrize("name", COMPILED_MODULES)
def test_compiled_modules_import_no_optional_dependency(name: str) -> None:
    tree = ast.parse(_module_file(name).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            tops = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            tops = [node.module.split(".")[0]]
        else:
            continue
        for top in tops:
            assert top in sys.stdlib_module_names or top == "stream_mf2" or top in CORE_THIRD_PARTY, (
                f"{name} imports {top}: compiled modules may import only the standard library, "
                "stream_mf2 and core dependencies"
            )


@pytest.mark.parametrize("name", COMPILED_MODULES)
def test_compiled_modules_define_no_module_getattr(name: str) -> None:
    """A module-level ``__getattr__`` (PEP 562, lazy attributes) in a mypyc-compiled module
    crashes the interpreter when the module is imported (a segmentation fault, not an error):
    a lazy import belongs in a pure module."""
    tree = ast.parse(_module_file(name).read_text(encoding="utf-8"))
    names = {node.name for node in tree.body if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}
    assert not names & {"__getattr__", "__dir__"}, f"{name} defines a module __getattr__/__dir__"


def test_compiled_modules_exist() -> None:
    for name in COMPILED_MODULES:
        assert _module_file(name).is_file(), name
    assert len(set(COMPILED_MODULES)) == len(COMPILED_MODULES)


def test_compiled_build_needs_no_mypy_at_run_time() -> None:
    code = (
        "import sys, stream_mf2; stream_mf2.parse(b'<div class=h-card>x</div>'); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('mypy', 'mypyc', 'mypy_extensions', 'librt')))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO)
    assert r.stdout.strip() == "[]"


@pytest.mark.slow
def test_pure_wheel_builds(tmp_path: Path) -> None:
    """``pip wheel .`` without the switch gives a ``py3-none-any`` wheel with no compiled file."""
    src = tmp_path / "src"
    # a copy: the build writes build/ and *.egg-info next to the sources
    shutil.copytree(REPO, src, ignore=shutil.ignore_patterns(".git", ".venv*", "build", "dist", "*.egg-info",
                                                             "__pycache__", "*.so", "*.pyd", "fixtures", "tests"))
    env = {k: v for k, v in os.environ.items() if k != "STREAM_MF2_COMPILE"}
    r = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "dist"), str(src)],
        capture_output=True, text=True, env=env, check=False,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "stream_mf2/_build.py" in names and "stream_mf2/html/tokenizer.py" in names
    assert not [n for n in names if n.endswith((".so", ".pyd", ".c"))]
    assert not [n for n in names if n.startswith("build_backend/") or n == "setup.py"]
