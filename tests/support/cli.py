"""Running the command line as a user runs it: ``python -m stream_mf2 ...`` in a subprocess.

* :func:`run_cli` runs any command from the checkout (``STREAM_MF2_TESTSUITES`` unset, so a
  command finds the suites only where it is told); :func:`run_warc` runs ``warc``;
* :func:`assert_user_error`: the exit status and a one-line message, no traceback;
* :func:`lines`: JSON Lines output as dicts;
* :func:`killed_runs`: a ``--resume`` run killed at random moments until one completes.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from stream_mf2.warc.schema import EXIT_OK
from tests.support.suites import REPO


def run_cli(*args: str, stdin: bytes | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("STREAM_MF2_TESTSUITES", None)
    return subprocess.run(
        [sys.executable, "-m", "stream_mf2", *args],
        input=stdin,
        capture_output=True,
        timeout=120,
        cwd=cwd or REPO,
        env=env,
        check=False,
    )


def assert_user_error(r: subprocess.CompletedProcess[bytes], status: int, text: str) -> None:
    err = r.stderr.decode()
    assert r.returncode == status, err
    assert "Traceback" not in err
    assert text in err, err


def run_warc(*args: str, stdin: bytes | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    full_env = {**os.environ, "PYTHONPATH": str(REPO), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "stream_mf2", "warc", *args],
        input=stdin,
        capture_output=True,
        env=full_env,
        cwd=REPO,
        timeout=300,
        check=False,
    )


def lines(data: bytes) -> list[dict[str, Any]]:
    return [json.loads(x) for x in data.splitlines()]


def _size(path: Path) -> int:
    """The size of ``path``, 0 if it is not there (any more)."""
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def killed_runs(
    args: list[str], out: Path, rng: random.Random, final_size: int, command: tuple[str, ...] = ("warc",)
) -> tuple[int, int]:
    """Run ``stream-mf2 COMMAND`` with --resume, killing the process at random moments, until one run completes.

    Returns the number of kills and of restarts from a checkpoint inside an input.
    """
    kills = 0
    inside = 0
    checkpoint = Path(str(out) + ".checkpoint.json")
    partial = Path(str(out) + ".partial")
    parts = Path(str(out) + ".partial.d")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    while True:
        if checkpoint.exists() and json.loads(checkpoint.read_text())["current"] is not None:
            inside += 1
        proc = subprocess.Popen(
            [sys.executable, "-m", "stream_mf2", *command, *args, "-o", str(out), "--resume", "--checkpoint-records", "3"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=env,
            cwd=REPO,
        )
        if kills < 6:
            # Kill once the output has grown past a random point (or right away), whatever the process is doing.
            target = rng.choice([0, rng.randrange(max(1, final_size))])
            while proc.poll() is None:
                # (the run may end and rename its files between a look and the next)
                size = _size(partial)
                with contextlib.suppress(FileNotFoundError):
                    size = sum(_size(p) for p in parts.iterdir())
                if size >= target:
                    break
                time.sleep(0.002)  # polling the output's progress
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                proc.stderr.close()  # type: ignore[union-attr]
                kills += 1
                continue
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == EXIT_OK, err
        return kills, inside
