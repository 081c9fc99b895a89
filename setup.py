"""Build script: pure Python by default; with ``STREAM_MF2_COMPILE=1``, the parse path compiled by mypyc.

Project metadata lives in ``pyproject.toml``; this file only adds the optional
compiled extension modules. The modules to compile follow one folder rule, in
``stream_mf2/_compiled.py`` (run here by path, the package is not imported).

A compile that fails (mypyc missing or rejecting the code, no C compiler, a
compiler error) never breaks the install: the build prints why, removes every
compiled file it made, and installs the pure-Python package. The installed
package then reports the failure in ``stream-mf2 --version``.
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
#: Written into the built package when a requested compile failed (read by ``stream_mf2._build``).
FAILURE_NOTE = "_compile_failed.txt"
#: setup.py commands that build the package (the others only write metadata or an sdist).
BUILD_COMMANDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "install", "develop"}


def compiled_modules() -> list[str]:
    """The compiled modules by the folder rule of ``stream_mf2/_compiled.py`` (run by path:
    the package itself is not imported, its dependencies may be missing here)."""
    rule = runpy.run_path(str(HERE / "stream_mf2" / "_compiled.py"))
    return list(rule["compiled_modules"](HERE / "stream_mf2"))


def module_path(name: str) -> str:
    """The source file of a dotted module name, relative to the project root."""
    base = Path(*name.split("."))
    return str(base / "__init__.py") if (HERE / base).is_dir() else str(base.with_suffix(".py"))


def compile_requested() -> bool:
    return os.environ.get("STREAM_MF2_COMPILE", "") == "1"


def compiled_files(root: Path) -> list[Path]:
    """Compiled files of an earlier build under ``root`` (build/lib or the source tree)."""
    found: list[Path] = []
    for name in compiled_modules():
        path = root / module_path(name)
        found += [*path.parent.glob(f"{path.stem}.*.so"), *path.parent.glob(f"{path.stem}.*.pyd")]
    found += [*root.glob("*__mypyc.*.so"), *root.glob("*__mypyc.*.pyd")]
    note = root / "stream_mf2" / FAILURE_NOTE
    return [*found, note] if note.exists() else found


def say(message: str) -> None:
    print(f"stream-mf2 build: {message}", file=sys.stderr, flush=True)


def fallback(reason: str) -> None:
    say(f"the compiled build FAILED ({reason}); installing the pure-Python build instead")


class CleanBuildPy(build_py):
    """``build_py`` that first removes what an earlier build compiled.

    ``build/`` is reused between builds: without this, a plain build after a
    compiled one would ship the old compiled modules. An editable install also
    removes compiled modules left next to the sources (by ``setup.py build_ext
    --inplace``, say): they would shadow every edit.
    """

    def run(self) -> None:
        stale = compiled_files(Path(self.build_lib))
        if getattr(self, "editable_mode", False):
            stale += compiled_files(HERE)
        for path in stale:
            path.unlink(missing_ok=True)
        super().run()


class OptionalBuildExt(build_ext):
    """``build_ext`` that turns any compile failure into a pure-Python build."""

    failure: str | None = None

    def run(self) -> None:
        try:
            super().run()
        except (Exception, SystemExit) as exc:  # CompileError, LinkError, a missing compiler
            self.failure = f"{type(exc).__name__}: {exc}".strip()
            fallback(self.failure)
            self._discard_compiled()

    def _discard_compiled(self) -> None:
        # The modules share one mypyc runtime library: a partial build would leave
        # modules that cannot import, so every compiled file goes (in build/ and in place).
        for ext in self.extensions:
            filename = self.get_ext_filename(ext.name)
            for root in (Path(self.build_lib), HERE):
                (root / filename).unlink(missing_ok=True)
        note = Path(self.build_lib) / "stream_mf2" / FAILURE_NOTE
        if note.parent.is_dir() and not self.inplace and not getattr(self, "editable_mode", False):
            note.write_text(self.failure or "unknown failure", encoding="utf-8")
        self.extensions = []

    def get_outputs(self) -> list[str]:
        return [] if self.failure else list(super().get_outputs())

    def get_output_mapping(self) -> dict[str, str]:
        return {} if self.failure else dict(super().get_output_mapping())


def extensions() -> list[Any]:
    """The mypyc extension modules when ``STREAM_MF2_COMPILE=1``, else none."""
    if not compile_requested() or os.environ.get("STREAM_MF2_BUILD_REQUIRES_ONLY") == "1":
        return []  # (the backend is only listing requirements: mypy comes next)
    if not BUILD_COMMANDS.intersection(sys.argv[1:]):
        return []  # metadata only (egg_info, dist_info, sdist): nothing to compile
    if "editable_wheel" in sys.argv[1:] or "develop" in sys.argv[1:]:
        # Compiled modules would sit next to the sources and silently shadow every edit.
        say("editable installs stay pure Python; use 'STREAM_MF2_COMPILE=1 pip install .' for the compiled build")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as exc:
        fallback(f"mypyc is not importable: {exc}")
        return []
    paths = [module_path(name) for name in compiled_modules()]
    say(f"compiling {len(paths)} modules with mypyc")
    try:
        # Third-party modules the compiled code does not use may be absent from the
        # build environment: they are typed Any instead of failing the type check.
        return list(mypycify(["--ignore-missing-imports", "--no-warn-unused-ignores", *paths]))
    except (Exception, SystemExit) as exc:  # mypyc exits on a type error
        fallback(f"mypyc rejected the code: {type(exc).__name__}: {exc}")
        return []


setup(ext_modules=extensions(), cmdclass={"build_py": CleanBuildPy, "build_ext": OptionalBuildExt})
