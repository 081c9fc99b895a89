"""A quiet shutdown for the local Dask clusters of ``--dask local[:N]``.

When a worker closes, distributed (checked with 2026.7) stops its periodic heartbeat but
does not wait for a heartbeat already sent to the scheduler; it then closes its own
connection pool, which aborts that heartbeat's connection, and the heartbeat logs
"Failed to communicate with scheduler during heartbeat." at ERROR level with a full
traceback. Nothing is lost: every part is written and committed before the cluster is
closed (client first, then the cluster: the order is already right). But the traceback
lands on the command's stderr after the summary of a successful run, about once in 15 runs
on a busy machine (a heartbeat goes out every half second and takes longer under load).

:class:`ClosingHeartbeatFilter` drops exactly that record, and only while its worker is
closing; the same failure of a running worker (a scheduler that went away) is still
logged. :class:`QuietClose` installs it on every worker of the cluster, those that join
later included. This module imports ``distributed``: import it only when running Dask.
"""

from __future__ import annotations

import logging
from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin

#: The message distributed's ``Worker.heartbeat`` logs, with a traceback, when the heartbeat fails.
HEARTBEAT_FAILED = "Failed to communicate with scheduler during heartbeat."
#: Worker states (``distributed.core.Status`` names) in which that failure is part of shutting down.
CLOSING = frozenset({"closing", "closing_gracefully", "closed"})


class ClosingHeartbeatFilter(logging.Filter):
    """Drops the heartbeat failure of ``worker`` while it is closing; passes every other record."""

    def __init__(self, worker: Any) -> None:
        super().__init__()
        self._worker = worker

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg != HEARTBEAT_FAILED:
            return True
        status = getattr(self._worker, "status", None)
        return getattr(status, "name", None) not in CLOSING


class QuietClose(WorkerPlugin):
    """A worker plugin: :class:`ClosingHeartbeatFilter` on the ``distributed.worker`` logger."""

    name = "stream-mf2-quiet-close"

    def __init__(self) -> None:
        self._filter: ClosingHeartbeatFilter | None = None

    def setup(self, worker: Any) -> None:
        self._filter = ClosingHeartbeatFilter(worker)
        logging.getLogger("distributed.worker").addFilter(self._filter)

    # No teardown: plugins are torn down at the start of Worker.close, before the heartbeat
    # that this filter is for can fail; the filter goes with the worker's process.
