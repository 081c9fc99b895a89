"""``--workers``: the worker processes die with the process that started them.

A child interpreter reads an archive with two workers, prints the workers' pids once
the first entry is out (the pool is open then), and waits. The test kills it with
SIGKILL or SIGTERM and then waits, on a pidfd (an event, not a sleep), for each worker
to exit; a bound only turns a hang into a failure.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.warc_records import html_archive

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import json, multiprocessing, sys
from stream_mf2.warc import iter_warc_parallel
entries = iter(iter_warc_parallel(sys.argv[1], 2, batch_units=1))
next(entries)
print(json.dumps([p.pid for p in multiprocessing.active_children()]), flush=True)
sys.stdin.read()
"""


def _archive(path: Path) -> None:
    html_archive(path, [b"<div class=h-card><p class=p-name>Ann %d</p></div>" % i for i in range(20)])


@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="waits on pidfds (Linux)")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_workers_exit_when_their_parent_is_killed(tmp_path: Path, sig: signal.Signals) -> None:
    archive = tmp_path / "a.warc.gz"
    _archive(archive)
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(archive)], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    try:
        assert child.stdout is not None
        workers = json.loads(child.stdout.readline())
        assert len(workers) == 2
        fds = []
        for pid in workers:
            with contextlib.suppress(ProcessLookupError):  # gone already
                fds.append(os.pidfd_open(pid))
        child.send_signal(sig)
        child.wait(60)
        for fd in fds:
            readable, _, _ = select.select([fd], [], [], 60)
            os.close(fd)
            assert readable, "a worker outlived its parent"
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
