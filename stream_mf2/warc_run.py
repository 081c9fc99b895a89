"""Moved to :mod:`stream_mf2.warc.runner` (0.2.0); this path keeps the documented names working."""

from stream_mf2.warc.runner import (
    FileSummary,
    LineConsumer,
    Options,
    RunResult,
    process_input,
    run,
)
from stream_mf2.warc.schema import EXIT_ALL_FAILED, EXIT_FATAL, EXIT_OK, EXIT_SOME_FAILED, SCHEMA_VERSION

__all__ = [
    "EXIT_ALL_FAILED",
    "EXIT_FATAL",
    "EXIT_OK",
    "EXIT_SOME_FAILED",
    "SCHEMA_VERSION",
    "FileSummary",
    "LineConsumer",
    "Options",
    "RunResult",
    "process_input",
    "run",
]
