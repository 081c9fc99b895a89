"""``stream-mf2 warc -o X.parquet --resume`` across the ``source`` column (seams6).

The child process is killed at a checkpoint, with no timing: its inputs are a local archive,
then an archive on a real HTTP server on 127.0.0.1 whose first request is held. That request
comes only after the run checkpointed the first input (a checkpoint after every input), so
the test kills the child once the server has seen it, then lets the server answer the resumed
run. The resumed output must be the uninterrupted run's, table by table, schema included.

The items and errors tables got a ``source`` column (null for WARC rows) after parts of
such a run could have been written: parts without it (rewritten here as an earlier version
wrote them, their checkpoint vouching for them) are read with a null ``source``, so the
finished tables have one schema; a part with any other difference is refused with a message
saying how to start again, never joined into a mixed-schema table.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from stream_mf2.warc.outputs import file_digest, parquet_paths
from tests.support.cli import assert_user_error, run_warc
from tests.support.servers import serve_http
from tests.support.suites import REPO
from tests.support.warc_records import html_archive

pq = pytest.importorskip("pyarrow.parquet")
pa = pytest.importorskip("pyarrow")


def _post(i: int) -> bytes:
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Post {i}</title></head><body>'
        f'<article class="h-entry"><h1 class="p-name">Post {i}</h1><a class="u-url" href="/p/{i}">#</a>'
        f'<a class="p-author h-card" href="/">Ada</a><div class="e-content">Body {i}.</div></article>'
        "</body></html>"
    ).encode()


class _HeldOnce:
    """Serves one archive; the first request is held until ``release`` is set (``asked`` says
    it came), later requests are answered at once."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.asked = threading.Event()
        self.release = threading.Event()
        self.requests = 0

    def handler(self) -> type[BaseHTTPRequestHandler]:
        site = self

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def do_GET(self) -> None:
                site.requests += 1
                if site.requests == 1:
                    site.asked.set()
                    site.release.wait(120)
                    return  # (the client was killed: nothing to answer)
                self.send_response(200)
                self.send_header("Content-Type", "application/warc")
                self.send_header("Content-Length", str(len(site.data)))
                self.end_headers()
                self.wfile.write(site.data)

        return _Handler


@pytest.fixture
def crawl(tmp_path: Path) -> Iterator[tuple[list[str], _HeldOnce]]:
    first = html_archive(tmp_path / "a.warc.gz", [_post(i) for i in range(5)])
    second = html_archive(tmp_path / "b.warc.gz", [_post(i) for i in range(5, 9)], uri="https://b.example/{}")
    site = _HeldOnce(second.read_bytes())
    with serve_http(site.handler()) as base:
        try:
            yield [str(first), f"{base}/b.warc.gz"], site
        finally:
            site.release.set()


def _killed_at_the_first_checkpoint(inputs: list[str], out: Path, site: _HeldOnce) -> dict[str, Any]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "stream_mf2", "warc", *inputs, "-o", str(out), "--resume", "--no-progress"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        cwd=REPO,
    )
    try:
        assert site.asked.wait(120), "the run never asked for its second input"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    site.release.set()
    state: dict[str, Any] = json.loads(Path(f"{out}.checkpoint.json").read_text())
    assert len(state["done"]) == 1 and state["current"] is None  # killed at the checkpoint after input 1
    return state


def _tables(out: Path) -> dict[str, Any]:
    return {kind: pq.read_table(path) for kind, path in parquet_paths(str(out)).items()}


def _uninterrupted(inputs: list[str], tmp_path: Path) -> dict[str, Any]:
    ref = tmp_path / "ref.parquet"
    r = run_warc(*inputs, "-o", str(ref), "--no-progress")
    assert r.returncode == 0, r.stderr.decode()
    return _tables(ref)


def _same(got: dict[str, Any], want: dict[str, Any]) -> None:
    assert got.keys() == want.keys()
    for kind in want:
        assert got[kind].schema.equals(want[kind].schema, check_metadata=True), kind
        assert got[kind].to_pylist() == want[kind].to_pylist(), kind
    assert got["item"].num_rows == 9  # one h-entry per record (its author is a property)
    assert "source" in got["item"].schema.names and set(got["item"].column("source").to_pylist()) == {None}


def test_resume_of_a_parquet_run_killed_at_a_checkpoint(crawl: tuple[list[str], _HeldOnce], tmp_path: Path) -> None:
    inputs, site = crawl
    out = tmp_path / "out.parquet"
    _killed_at_the_first_checkpoint(inputs, out, site)
    r = run_warc(*inputs, "-o", str(out), "--resume", "--no-progress")
    assert r.returncode == 0, r.stderr.decode()
    _same(_tables(out), _uninterrupted(inputs, tmp_path))


def _drop_source(part: Path) -> None:
    """Rewrite a part file without its ``source`` column, as an earlier version wrote it."""
    table = pq.read_table(part)
    table = table.drop_columns(["source"]).replace_schema_metadata(table.schema.metadata)
    pq.write_table(table, part)


def test_resume_over_parts_written_without_the_source_column(
    crawl: tuple[list[str], _HeldOnce], tmp_path: Path
) -> None:
    inputs, site = crawl
    out = tmp_path / "out.parquet"
    state = _killed_at_the_first_checkpoint(inputs, out, site)
    parts = Path(f"{out}.partial.d")
    rewritten = 0
    for name in state["token"]["files"]:
        if name.startswith(("item-", "error-")):
            _drop_source(parts / name)
            state["token"]["files"][name] = list(file_digest(str(parts / name)))
            rewritten += 1
    assert rewritten
    Path(f"{out}.checkpoint.json").write_text(json.dumps(state))
    r = run_warc(*inputs, "-o", str(out), "--resume", "--no-progress")
    assert r.returncode == 0, r.stderr.decode()
    _same(_tables(out), _uninterrupted(inputs, tmp_path))


def test_resume_over_a_part_with_other_columns_is_refused(crawl: tuple[list[str], _HeldOnce], tmp_path: Path) -> None:
    inputs, site = crawl
    out = tmp_path / "out.parquet"
    state = _killed_at_the_first_checkpoint(inputs, out, site)
    parts = Path(f"{out}.partial.d")
    name = next(n for n in state["token"]["files"] if n.startswith("item-"))
    table = pq.read_table(parts / name)
    pq.write_table(table.drop_columns(["type"]), parts / name)
    state["token"]["files"][name] = list(file_digest(str(parts / name)))
    Path(f"{out}.checkpoint.json").write_text(json.dumps(state))
    r = run_warc(*inputs, "-o", str(out), "--resume", "--no-progress")
    assert_user_error(r, 1, f"cannot resume {out}.partial.d: its part {name}")
    assert "start the run again" in r.stderr.decode()
    assert not out.exists()


# --- Dask parts: one run's options and one schema per folder -------------------------------------


def test_dask_parts_of_other_options_or_columns_are_written_again(tmp_path: Path) -> None:
    """A part is kept by a later run only when it was written with the same options and columns:
    before, a rerun with other options (or by a version with other Parquet columns) kept the
    earlier parts beside new ones, a folder of two kinds of output."""
    pytest.importorskip("fsspec")
    from stream_mf2.warc import dask as _dask
    from stream_mf2.warc.runner import Options

    archive = html_archive(tmp_path / "a.warc.gz", [_post(i) for i in range(3)])
    out = tmp_path / "parts"
    out.mkdir()

    def run(options: Options) -> dict[str, Any]:
        (task,) = _dask.plan([str(archive)], str(out), "parquet", options=options)
        return _dask.run_part(task)

    first = run(Options(parser={"text": "spec"}))
    assert first["status"] == "done"
    assert run(Options(parser={"text": "spec"}, workers=4, timeout=5.0))["status"] == "skipped"
    # other parse options: the part is the new options' output
    again = run(Options(parser={"text": "spec", "lang": True}))
    assert again["status"] == "done"
    items = pq.read_table(out / again["part"]).column("item").to_pylist()
    assert items and all(json.loads(item)["lang"] == "en" for item in items)
    # a manifest an earlier version wrote (no key: its part may lack the source column) is not trusted
    manifest = out / (again["part"] + _dask.MANIFEST_SUFFIX)
    doc = json.loads(manifest.read_text())
    del doc["key"]
    manifest.write_text(json.dumps(doc))
    assert run(Options(parser={"text": "spec", "lang": True}))["status"] == "done"
    assert run(Options(parser={"text": "spec", "lang": True}))["status"] == "skipped"
