"""A local Dask cluster shuts down without a worker's heartbeat traceback.

distributed's ``Worker.close`` stops the periodic heartbeat but not a heartbeat already
sent; closing its connection pool then aborts that heartbeat's connection and the worker
logs "Failed to communicate with scheduler during heartbeat." with a traceback, on the
command's stderr after every part is written (``--dask local:2``, about 1 run in 15 on a
busy machine). Here the race is made certain: the scheduler holds every heartbeat from the
end of the run, so each worker closes with one in flight.
"""

from __future__ import annotations

import asyncio
import io
import logging
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from tests.support.suites import REPO

distributed = pytest.importorskip("distributed", reason="the dask extra (distributed) is not installed")

pytestmark = [pytest.mark.dask, pytest.mark.network_local]

#: Upper bound for any wait on another thread or process (a hang fails the test instead of CI).
WAIT = 120.0


#: Set when the scheduler (in this process: a LocalCluster's scheduler runs in the client's
#: process) has received a heartbeat it will not answer.
HELD = threading.Event()


def _hold_heartbeats(dask_scheduler: Any) -> None:
    """For ``run_on_scheduler``: from now on the scheduler never answers a heartbeat."""
    never = asyncio.Event()

    async def held_heartbeat(**msg: Any) -> None:
        HELD.set()
        await never.wait()  # no answer: the worker closes with this heartbeat in flight

    dask_scheduler.handlers["heartbeat_worker"] = held_heartbeat


def test_workers_closing_with_a_heartbeat_in_flight_log_no_traceback(capfd: pytest.CaptureFixture[str]) -> None:
    from stream_mf2.cli.dask import connect

    HELD.clear()
    with connect("local:2") as client:
        assert client.submit(sum, [1, 2]).result() == 3
        client.run_on_scheduler(_hold_heartbeats)
        assert HELD.wait(WAIT)  # a heartbeat is in flight now
    err = capfd.readouterr().err
    assert "Traceback" not in err and "during heartbeat" not in err, err


def test_the_filter_drops_only_the_heartbeat_of_a_closing_worker() -> None:
    from stream_mf2.cli.dask_shutdown import ClosingHeartbeatFilter

    class Worker:
        status: Any = distributed.core.Status.running

    worker = Worker()
    log = logging.getLogger("stream_mf2.tests.heartbeat")
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    log.addHandler(handler)
    log.propagate = False
    log.addFilter(ClosingHeartbeatFilter(worker))
    try:
        log.error("Failed to communicate with scheduler during heartbeat.")  # running: kept
        worker.status = distributed.core.Status.closing
        log.error("Failed to communicate with scheduler during heartbeat.")  # closing: dropped
        log.error("Unexpected exception during heartbeat. Closing worker.")  # another message: kept
    finally:
        log.removeHandler(handler)
    assert stream.getvalue().splitlines() == [
        "Failed to communicate with scheduler during heartbeat.",
        "Unexpected exception during heartbeat. Closing worker.",
    ]


def _warc(path: Path, pages: int) -> Path:
    with open(path, "wb") as f:
        w = WARCWriter(f, gzip=True)
        for i in range(pages):
            body = f'<!doctype html><div class="h-card"><a class="p-name u-url" href="/{i}">N {i}</a></div>'.encode()
            headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
            uri = f"https://{path.stem}.example/{i}"
            w.write_record(w.create_warc_record(uri, "response", payload=io.BytesIO(body), http_headers=headers))
    return path


@pytest.mark.slow
def test_warc_run_on_local_2_prints_no_traceback(tmp_path: Path) -> None:
    """The command itself: its stderr has the per-part lines and the summary, and no traceback."""
    inputs = [str(_warc(tmp_path / f"w{i}.warc.gz", 3 + i)) for i in range(3)]
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "stream_mf2",
            "warc",
            *inputs,
            "--dask",
            "local:2",
            "--output-dir",
            str(tmp_path / "out"),
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=WAIT * 2,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("] done part-") == 3 and "3 parts written" in r.stderr
    assert "Traceback" not in r.stderr, r.stderr
