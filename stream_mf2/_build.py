"""Which build is running: the pure-Python source or the same source compiled with mypyc.

:data:`COMPILED_MODULES` is the one list of modules the compiled build compiles
(``setup.py`` reads it without importing the package). It holds every module on
the parse path; the I/O, CLI, async, WARC, JSON and test-format modules stay pure
Python (they import optional or heavy third-party modules, or gain nothing from
compilation). ``docs/internals/layout.md`` explains the choice.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    #: Modules compiled by ``STREAM_MF2_COMPILE=1 pip install .``, as dotted names (the folder
    #: rule), listed on first use (a walk over the package's folders: not for every start-up).
    COMPILED_MODULES: tuple[str, ...]


def __getattr__(name: str) -> tuple[str, ...]:
    if name != "COMPILED_MODULES":
        raise AttributeError(f"module 'stream_mf2._build' has no attribute {name!r}")
    from pathlib import Path

    from stream_mf2._compiled import compiled_modules

    value = compiled_modules(Path(__file__).parent)
    globals()[name] = value  # later reads skip this function
    return value


def is_extension_module(name: str) -> bool:
    """Whether the module ``name`` would load from a compiled extension file (it is not imported)."""
    spec = importlib.util.find_spec(name)
    origin = spec.origin if spec is not None else None
    return origin is not None and origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


#: ``True`` when the parse path runs compiled code (the tokenizer is the witness).
COMPILED: bool = is_extension_module("stream_mf2.html.tokenizer")


#: Written by the build when ``STREAM_MF2_COMPILE=1`` was set but compiling failed.
_FAILURE_NOTE = os.path.join(os.path.dirname(__file__), "_compile_failed.txt")


def build_info(version: str) -> str:
    """One line for ``--version``: the version and which build runs (and why, if a compile failed)."""
    if COMPILED:
        return f"stream-mf2 {version} (compiled with mypyc)"
    try:
        with open(_FAILURE_NOTE, encoding="utf-8") as note:
            failure = " ".join(note.read().split())
    except OSError:
        return f"stream-mf2 {version} (pure Python)"
    return f"stream-mf2 {version} (pure Python; the requested compile failed: {failure[:300]})"
