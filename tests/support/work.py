"""Work measured deterministically: the lines of chosen modules a call executes.

The growth tests build an input at n, 2n and 4n and compare the work: linear work doubles
with each step, quadratic work nearly quadruples. Counting executed lines (``sys.settrace``)
instead of timing cannot flake on a loaded machine. Line tracing sees only Python code, so
such tests run against the pure-Python build (``tests.support.builds.pure_only``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

#: The HTML engine, the capture and the parser façade (the default modules counted).
ENGINE = ("/stream_mf2/html/", "/stream_mf2/mf2/capture.py", "/stream_mf2/core/parser.py")


def lines_executed(run: Callable[[], object], modules: tuple[str, ...] = ENGINE) -> int:
    """How many lines of the engine (or of ``modules``: path parts) ``run()`` executes
    (a deterministic measure of work)."""
    count = 0

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return local

    def global_(frame: FrameType, event: str, arg: Any) -> Any:
        filename = frame.f_code.co_filename.replace("\\", "/")
        return local if any(part in filename for part in modules) else None

    sys.settrace(global_)
    try:
        run()
    finally:
        sys.settrace(None)
    return count
