"""In-tree PEP 517 backend: setuptools, plus mypy as a build requirement only when compiling.

``STREAM_MF2_COMPILE=1 pip install .`` asks for the mypyc-compiled build; only then
does the build environment need mypy (which brings mypyc). A plain install needs
nothing but setuptools and no C compiler. Everything else is setuptools' own
backend, unchanged; ``setup.py`` does the compiling (and falls back to pure Python).
"""

from __future__ import annotations

import os
from collections.abc import Callable

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (the backend's other hooks, unchanged)

_Settings = dict[str, str | list[str]] | None

#: mypy's version range known to compile the project (mypyc ships with mypy).
MYPY_REQUIREMENT = "mypy>=1.10"


def compile_requested() -> bool:
    """Whether the build was asked to compile (exactly ``STREAM_MF2_COMPILE=1``)."""
    return os.environ.get("STREAM_MF2_COMPILE", "") == "1"


#: Set while setuptools runs ``setup.py`` only to list requirements: mypy is not
#: installed yet then, and ``setup.py`` must not report a failed compile.
REQUIRES_ONLY = "STREAM_MF2_BUILD_REQUIRES_ONLY"


def _with_mypy(get: Callable[[_Settings], list[str]], config_settings: _Settings) -> list[str]:
    os.environ[REQUIRES_ONLY] = "1"
    try:
        requires = list(get(config_settings))
    finally:
        del os.environ[REQUIRES_ONLY]
    return [*requires, MYPY_REQUIREMENT] if compile_requested() else requires


def get_requires_for_build_wheel(config_settings: _Settings = None) -> list[str]:
    return _with_mypy(_setuptools.get_requires_for_build_wheel, config_settings)


def get_requires_for_build_editable(config_settings: _Settings = None) -> list[str]:
    return _with_mypy(_setuptools.get_requires_for_build_editable, config_settings)
