"""The Dask runner with real parts: a LocalCluster of worker processes, HTTP and S3 servers on 127.0.0.1.

Every archive is written here with warcio. Faults are real: a worker process is
killed with SIGKILL while its task is blocked mid-read on an HTTP input (the test
server holds the response until the test has killed the worker), and a whole CLI
run is killed once its first part is reported. Synchronisation is on events and
on the command's own output lines, never on sleeps.
"""

from __future__ import annotations

import contextlib
import gzip
import http.server
import io
import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from tests.support.suites import REPO

distributed = pytest.importorskip("distributed", reason="the dask extra (distributed) is not installed")
fsspec = pytest.importorskip("fsspec", reason="the dask extra (fsspec) is not installed")

from stream_mf2.warc import dask as _dask  # noqa: E402
from tests.support.servers import S3Server, s3_server  # noqa: E402

#: Upper bound for any wait on another thread or process (a hang fails the test instead of CI).
WAIT = 120.0


# -- archives -------------------------------------------------------------------------------------


def page(tag: str, n: int) -> bytes:
    cards = "".join(f'<div class="h-card"><a class="p-name u-url" href="/p/{tag}/{i}">{tag} {i}</a></div>' for i in range(n))
    return (f'<!doctype html><html><head><title>{tag}</title><link rel="me" href="/me/{tag}"></head>'
            f"<body>{cards}</body></html>").encode()


def write_warc(path: Path, tag: str, pages: int) -> Path:
    """A .warc.gz with ``pages`` HTML responses (one without items), a request and a CSS response."""
    with open(path, "wb") as f:
        w = WARCWriter(f, gzip=True)
        w.write_record(w.create_warcinfo_record(path.name, {"software": "tests"}))
        for i in range(pages):
            uri = f"https://{tag}.example/page/{i}"
            body = page(f"{tag}{i}", i % 4)  # page 0 has no items
            http_headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8"),
                                                       ("Content-Length", str(len(body)))], protocol="HTTP/1.1")
            req = StatusAndHeaders("GET / HTTP/1.1", [("Host", f"{tag}.example")], is_http_request=True)
            w.write_record(w.create_warc_record(uri, "request", http_headers=req))
            w.write_record(w.create_warc_record(uri, "response", payload=io.BytesIO(body), http_headers=http_headers))
        css = b"body{color:red}"
        w.write_record(w.create_warc_record(
            f"https://{tag}.example/a.css", "response", payload=io.BytesIO(css),
            http_headers=StatusAndHeaders("200 OK", [("Content-Type", "text/css")], protocol="HTTP/1.1")))
    return path


@pytest.fixture(scope="module")
def warcs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    d = tmp_path_factory.mktemp("warcs")
    return [write_warc(d / f"w{i}.warc.gz", f"site{i}", 5 + i) for i in range(4)]


# -- an HTTP server that can hold one response mid-body -------------------------------------------


class GatedFiles(http.server.ThreadingHTTPServer):
    """Serves files from memory with Range support; the first GET of ``gated`` stops half-way.

    It sends the headers and half the body, sets ``held``, and sends the rest only
    once ``release`` is set: the reading task is then blocked in the middle of its
    input, which is where the tests kill its worker or its whole run.
    """

    daemon_threads = True

    def __init__(self, files: dict[str, bytes], gated: str | None) -> None:
        super().__init__(("127.0.0.1", 0), _GatedHandler)
        self.files = files
        self.gated = gated
        self.held = threading.Event()
        self.release = threading.Event()
        self.held_client_port: int | None = None
        self.gets: dict[str, int] = {}
        self.lock = threading.Lock()

    def url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/{name}"


class _GatedHandler(http.server.BaseHTTPRequestHandler):
    server: GatedFiles

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _target(self) -> tuple[str, bytes | None]:
        name = self.path.lstrip("/")
        return name, self.server.files.get(name)

    def do_HEAD(self) -> None:
        _, data = self._target()
        if data is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()

    def do_GET(self) -> None:
        name, data = self._target()
        if data is None:
            self.send_error(404)
            return
        start, end = 0, len(data) - 1
        rng = self.headers.get("Range")
        if rng and rng.startswith("bytes="):
            a, _, b = rng[6:].partition("-")
            start, end = int(a or 0), min(int(b) if b else len(data) - 1, len(data) - 1)
        body = data[start : end + 1]
        with self.server.lock:
            self.server.gets[name] = self.server.gets.get(name, 0) + 1
            hold = name == self.server.gated and self.server.gets[name] == 1
        self.send_response(206 if rng else 200)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Accept-Ranges", "bytes")
        if rng:
            self.send_header("Content-Range", f"bytes {start}-{end}/{len(data)}")
        self.end_headers()
        try:
            if hold:
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                self.server.held_client_port = self.client_address[1]
                self.server.held.set()
                self.server.release.wait(WAIT)
                body = body[len(body) // 2 :]
            self.wfile.write(body)
        except OSError:
            pass  # the reader was killed: expected for the held response


@contextlib.contextmanager
def gated_server(files: dict[str, bytes], gated: str | None = None) -> Iterator[GatedFiles]:
    server = GatedFiles(files, gated)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.release.set()
        server.shutdown()
        server.server_close()
        thread.join(WAIT)


def pid_connected_to(port: int, pids: list[int]) -> int:
    """Which of ``pids`` owns the TCP connection whose local port is ``port``."""
    import psutil

    for pid in pids:
        if any(c.laddr and c.laddr.port == port for c in psutil.Process(pid).net_connections(kind="tcp")):
            return pid
    raise AssertionError(f"no worker holds the connection from port {port}")


# -- the cluster ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """The cluster ``--dask local:2`` starts: 2 worker processes with one thread each, on 127.0.0.1."""
    from distributed import Client

    from stream_mf2.cli.dask import local_cluster

    with local_cluster(2) as cluster, Client(cluster) as c:
        assert len(c.scheduler_info()["workers"]) == 2
        yield c


# -- expected output ------------------------------------------------------------------------------


def single_process_lines(inputs: list[Path], tmp: Path, *options: str, by_name: bool = False,
                         status: int = 0) -> list[dict[str, Any]]:
    """Record, item and error lines of the plain single-process ``stream-mf2 warc`` over ``inputs``.

    ``by_name``: ``warc_file`` cut to the file name, to compare with a run that read the same
    files from another place (S3, HTTP).
    """
    out = tmp / "single.jsonl"
    r = subprocess.run([sys.executable, "-m", "stream_mf2", "warc", *map(str, inputs), *options, "-o", str(out)],
                       capture_output=True, cwd=REPO, env=_env(), timeout=WAIT, check=False)
    assert r.returncode == status, r.stderr.decode()
    lines = list(map(json.loads, out.read_bytes().splitlines()))
    assert lines[-1]["kind"] == "summary"  # the run's own total; the Dask run's is _summary.json
    return [named(line, by_name) for line in lines[:-1]]


def named(line: dict[str, Any], by_name: bool) -> dict[str, Any]:
    if by_name and line.get("warc_file"):
        return {**line, "warc_file": line["warc_file"].rsplit("/", 1)[-1]}
    return line


def merged_lines(summary: dict[str, Any], folder: Path, *, by_name: bool = False) -> list[dict[str, Any]]:
    """The parts' lines, in input order, as listed by the run summary."""
    lines: list[dict[str, Any]] = []
    for p in summary["parts"]:
        with gzip.open(folder / p["part"]) as f:
            lines.extend(named(line, by_name) for line in map(json.loads, f.read().splitlines()))
    return lines


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return env


# -- tests ----------------------------------------------------------------------------------------


def test_part_names_are_stable_and_distinct() -> None:
    a = _dask.part_name("/data/a/CC-MAIN-1.warc.gz", "jsonl.gz")
    assert a == _dask.part_name("/data/a/CC-MAIN-1.warc.gz", "jsonl.gz")
    assert a.startswith("part-CC-MAIN-1-") and a.endswith(".jsonl.gz")
    assert a != _dask.part_name("/data/b/CC-MAIN-1.warc.gz", "jsonl.gz")
    assert _dask.part_name("s3://b/x.warc.gz", "parquet").endswith(".parquet")
    with pytest.raises(ValueError, match="unknown part format"):
        _dask.part_name("x.warc.gz", "csv")


@pytest.mark.network_local
@pytest.mark.dask
def test_merged_parts_equal_the_single_process_output(client: Any, warcs: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "out"
    summary = _dask.run_warc_dask(client, [str(p) for p in warcs], str(out))
    assert summary.done == len(warcs) and not summary.failed
    doc = _dask.read_summary(str(out))
    assert doc is not None
    expected = single_process_lines(warcs, tmp_path)
    assert merged_lines(doc, out) == expected
    assert doc["items"] == sum(1 for line in expected if line.get("kind") == "item") > 0
    assert doc["html_records"] == sum(1 for line in expected if line.get("kind") == "record")
    # Exactly the parts and manifests, nothing temporary left.
    names = sorted(os.listdir(out))
    parts = sorted(p["part"] for p in doc["parts"])
    assert names == sorted([*parts, *(p + _dask.MANIFEST_SUFFIX for p in parts), _dask.SUMMARY_NAME])

    # A second run finds every part complete and writes nothing.
    stats = {n: os.stat(out / n).st_ino for n in parts}
    again = _dask.run_warc_dask(client, [str(p) for p in warcs], str(out))
    assert (again.done, again.skipped) == (0, len(warcs))
    assert {n: os.stat(out / n).st_ino for n in parts} == stats


@pytest.mark.network_local
@pytest.mark.dask
def test_a_damaged_part_is_redone(client: Any, warcs: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = _dask.run_warc_dask(client, [str(warcs[0]), str(warcs[1])], str(out))
    victim = out / first.parts[0]["part"]
    victim.write_bytes(victim.read_bytes()[:-5])  # a part that no longer matches its manifest
    second = _dask.run_warc_dask(client, [str(warcs[0]), str(warcs[1])], str(out))
    assert [p["status"] for p in second.parts] == ["done", "skipped"]
    assert second.parts[0]["sha256"] == first.parts[0]["sha256"]


@pytest.mark.network_local
@pytest.mark.dask
def test_bad_inputs_fail_only_their_own_task(client: Any, warcs: list[Path], tmp_path: Path) -> None:
    missing = tmp_path / "missing.warc.gz"
    garbage = tmp_path / "garbage.warc.gz"
    garbage.write_bytes(b"this is not a WARC file\n" * 100)
    data = warcs[2].read_bytes()
    truncated = tmp_path / "truncated.warc.gz"
    truncated.write_bytes(data[: len(data) * 2 // 3])  # readable records, then a cut gzip member
    inputs = [warcs[0], missing, truncated, garbage, warcs[1]]
    out = tmp_path / "out"
    summary = _dask.run_warc_dask(client, [str(p) for p in inputs], str(out))
    assert summary.status == 3
    assert [f["input"] for f in summary.failed] == [str(missing), str(garbage)]
    assert "missing.warc.gz" in summary.failed[0]["error"]
    assert [p["status"] for p in summary.parts] == ["done", "failed", "done", "failed", "done"]
    damaged = summary.parts[2]
    assert damaged["errors"] >= 1 and damaged["html_records"] >= 1 and not damaged["failed"]
    doc = _dask.read_summary(str(out))
    assert doc is not None
    assert (doc["files"], doc["files_failed"]) == (5, 2)
    # Nothing lost: a failed input's part holds its error lines, so the parts are the single-process output.
    expected = single_process_lines(inputs, tmp_path, status=3)
    assert merged_lines(doc, out) == expected
    assert doc["errors"] == sum(1 for line in expected if line["kind"] == "error")
    # A rerun keeps the complete parts and tries the failed inputs again.
    again = _dask.run_warc_dask(client, [str(p) for p in inputs], str(out))
    assert [p["status"] for p in again.parts] == ["skipped", "failed", "skipped", "failed", "skipped"]


@pytest.mark.network_local
@pytest.mark.dask
def test_a_worker_killed_mid_task_loses_and_duplicates_nothing(client: Any, warcs: list[Path], tmp_path: Path) -> None:
    files = {p.name: p.read_bytes() for p in warcs}
    out = tmp_path / "out"
    with gated_server(files, gated=warcs[1].name) as server:
        inputs = [server.url(p.name) for p in warcs]
        box: dict[str, Any] = {}

        def run() -> None:
            try:
                box["summary"] = _dask.run_warc_dask(client, inputs, str(out))
            except BaseException as e:  # handed to the test thread
                box["error"] = e

        runner = threading.Thread(target=run)
        runner.start()
        assert server.held.wait(WAIT), "the gated input was never requested"
        # The task reading the gated input is blocked half-way through it: kill its worker process.
        assert server.held_client_port is not None
        pids = list(client.run(os.getpid).values())
        victim = pid_connected_to(server.held_client_port, pids)
        os.kill(victim, signal.SIGKILL)
        server.release.set()
        runner.join(WAIT)
        assert not runner.is_alive()
    assert "error" not in box, box.get("error")
    summary = box["summary"]
    assert not summary.failed and summary.done == len(warcs)
    assert server.gets[warcs[1].name] >= 2  # read again by the retried task
    assert summary.temporaries_removed >= 1  # the killed attempt had started its part
    doc = _dask.read_summary(str(out))
    assert doc is not None
    assert merged_lines(doc, out, by_name=True) == single_process_lines(warcs, tmp_path, by_name=True)
    assert len([n for n in os.listdir(out) if n.startswith("part-") and not n.endswith(_dask.MANIFEST_SUFFIX)]) == len(warcs)


def run_cli(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "stream_mf2", "warc", *args], capture_output=True, cwd=REPO,
                          env=_env(), timeout=WAIT * 2, check=False)


@pytest.mark.network_local
@pytest.mark.dask
@pytest.mark.slow
def test_cli_run_killed_then_rerun_completes_without_duplicates(warcs: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "out"
    files = {warcs[2].name: warcs[2].read_bytes()}
    with gated_server(files, gated=warcs[2].name) as server:
        listing = tmp_path / "paths.txt"
        listing.write_text(f"# a list file, as Common Crawl's warc.paths\n{warcs[3]}\n")
        inputs = [str(warcs[0]), str(warcs[1]), server.url(warcs[2].name), "--input-list", str(listing)]
        # Parse options go through to the workers: compared with a single-process run with the same ones.
        options = ["--metaformats", "--stream-children", "--type", "h-card"]
        cmd = [sys.executable, "-m", "stream_mf2", "warc", *inputs, *options, "--dask", "local:2",
               "--output-dir", str(out)]
        # Its own session, so the run, its cluster's nanny and worker processes can be killed together.
        proc = subprocess.Popen(cmd, cwd=REPO, env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                start_new_session=True)
        first_part = threading.Event()
        seen: list[str] = []

        def watch() -> None:
            assert proc.stderr is not None
            for raw in proc.stderr:
                line = raw.decode(errors="replace")
                seen.append(line)
                if "] done part-" in line:
                    first_part.set()

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        try:
            assert first_part.wait(WAIT), "".join(seen)
            assert server.held.wait(WAIT)  # the HTTP input is mid-read: the run cannot have finished
        finally:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(WAIT)
            watcher.join(WAIT)
        server.release.set()
        assert not (out / _dask.SUMMARY_NAME).exists()
        written_before = {n for n in os.listdir(out) if n.endswith(_dask.MANIFEST_SUFFIX)}
        assert written_before

        again = run_cli(*inputs, *options, "--dask", "local:2", "--output-dir", str(out), "--resume")
        assert again.returncode == 0, again.stderr.decode()
    doc = _dask.read_summary(str(out))
    assert doc is not None
    assert doc["parts_skipped"] == len(written_before)
    assert doc["parts_written"] == len(warcs) - len(written_before)
    expected = single_process_lines(warcs, tmp_path, *options, by_name=True)
    assert any("meta-item" in line for line in expected)
    assert merged_lines(doc, out, by_name=True) == expected
    assert not [n for n in os.listdir(out) if ".tmp-" in n]


@pytest.fixture(scope="module")
def s3() -> Iterator[S3Server]:
    """moto's S3 server on 127.0.0.1 (a real HTTP server speaking the S3 API)."""
    with s3_server() as server:
        yield server


@pytest.mark.network_local
@pytest.mark.dask
@pytest.mark.slow
def test_inputs_from_s3_and_http_parts_to_s3(client: Any, warcs: list[Path], s3: S3Server, tmp_path: Path) -> None:
    for p in warcs[:2]:
        s3.put(f"archive/in/{p.name}", p.read_bytes())
    # The workers get the endpoint and keys from the run, not from their environment.
    options = {"s3": {"endpoint_url": s3.endpoint, "key": "testing", "secret": "testing"}}
    fs = s3.fs
    with gated_server({p.name: p.read_bytes() for p in warcs[2:]}) as server:
        inputs = [f"s3://archive/in/{warcs[0].name}", f"s3://archive/in/{warcs[1].name}",
                  *(server.url(p.name) for p in warcs[2:])]
        summary = _dask.run_warc_dask(client, inputs, "s3://archive/out", storage_options=options)
        assert not summary.failed and summary.done == len(inputs)
        again = _dask.run_warc_dask(client, inputs, "s3://archive/out", storage_options=options)
        assert again.skipped == len(inputs)
    fs.invalidate_cache()
    doc = _dask.read_summary("s3://archive/out", options)
    assert doc is not None
    local = tmp_path / "parts"
    local.mkdir()
    for p in doc["parts"]:
        fs.get_file(f"archive/out/{p['part']}", str(local / p["part"]))
    assert merged_lines(doc, local, by_name=True) == single_process_lines(warcs, tmp_path, by_name=True)
    names = sorted(n.rsplit("/", 1)[1] for n in fs.ls("archive/out", detail=False))
    parts = sorted(p["part"] for p in doc["parts"])
    assert names == sorted([*parts, *(p + _dask.MANIFEST_SUFFIX for p in parts), _dask.SUMMARY_NAME])


def test_without_the_extra_the_core_works_and_dask_says_what_to_install(warcs: list[Path], tmp_path: Path) -> None:
    # A fresh interpreter where distributed and fsspec cannot be imported (as when the extra is not installed).
    code = ("import sys; sys.modules['distributed'] = None; sys.modules['fsspec'] = None\n"
            "from stream_mf2.cli import main\n"
            "raise SystemExit(main(sys.argv[1:]))\n")
    plain = subprocess.run([sys.executable, "-c", code, "warc", str(warcs[0]), "-o", str(tmp_path / "a.jsonl")],
                           capture_output=True, cwd=REPO, env=_env(), timeout=WAIT, check=False)
    assert plain.returncode == 0, plain.stderr.decode()
    dask = subprocess.run([sys.executable, "-c", code, "warc", str(warcs[0]), "--dask", "local:1",
                           "--output-dir", str(tmp_path / "out")],
                          capture_output=True, cwd=REPO, env=_env(), timeout=WAIT, check=False)
    assert dask.returncode == 1
    err = dask.stderr.decode()
    assert "pip install 'stream-mf2[dask]'" in err and "Traceback" not in err


@pytest.mark.network_local
@pytest.mark.dask
def test_parquet_parts_with_parse_options_equal_the_single_process_parquet(
    client: Any, warcs: list[Path], tmp_path: Path
) -> None:
    pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow is not installed")
    from stream_mf2.warc.outputs import parquet_paths
    from stream_mf2.warc.runner import Options

    out = tmp_path / "out"
    options = Options(parser={"metaformats": True, "text": "normalized"}, types=frozenset({"h-card"}))
    summary = _dask.run_warc_dask(client, [str(p) for p in warcs], str(out), fmt="parquet", options=options)
    assert summary.done == len(warcs) and not summary.failed
    single = tmp_path / "single.parquet"
    r = subprocess.run([sys.executable, "-m", "stream_mf2", "warc", *map(str, warcs), "--metaformats", "--text",
                        "normalized", "--type", "h-card", "-o", str(single)],
                       capture_output=True, cwd=REPO, env=_env(), timeout=WAIT, check=False)
    assert r.returncode == 0, r.stderr.decode()
    for kind, path in parquet_paths(str(single)).items():
        expected = pq.read_table(path).to_pylist()
        got: list[dict[str, Any]] = []
        for p in summary.parts:
            assert [f["name"] for f in p["files"]] == _dask.part_files(p["part"])
            got.extend(pq.read_table(out / parquet_paths(p["part"])[kind]).to_pylist())
        assert got == expected, kind
        if kind == "record":
            assert any(row["meta-item"] for row in got)
    again = _dask.run_warc_dask(client, [str(p) for p in warcs], str(out), fmt="parquet", options=options)
    assert again.skipped == len(warcs)
    assert not [n for n in os.listdir(out) if ".tmp-" in n]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--dask", "local:2"], "--dask needs --output-dir"),
        (["--output-dir", "out"], "need --dask"),
        (["--dask", "local:0", "--output-dir", "out"], "positive integer"),
        (["--dask", "cluster", "--output-dir", "out"], "scheduler address"),
        (["--dask", "local", "--output-dir", "out", "-o", "x.jsonl"], "not to -o"),
        (["--dask", "local", "--output-dir", "out", "--workers", "2"], "--workers does not apply"),
        (["-", "--dask", "local", "--output-dir", "out"], "standard input"),
    ],
)
def test_cli_option_errors_are_one_line(warcs: list[Path], args: list[str], message: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    from stream_mf2.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(["warc", str(warcs[0]), *args])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and message in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.network_local
@pytest.mark.dask
def test_the_same_task_run_twice_at_once_leaves_one_part(client: Any, warcs: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (task,) = _dask.plan([str(warcs[3])], str(out))
    # Two copies of one task, one on each worker process, racing to the same part name.
    workers = list(client.scheduler_info()["workers"])
    futures = [client.submit(_dask.run_part, task, pure=False, workers=[w]) for w in workers]
    results = client.gather(futures)
    assert {r["status"] for r in results} <= {"done", "skipped"}
    assert sorted(os.listdir(out)) == sorted([task.part, task.part + _dask.MANIFEST_SUFFIX])
    manifest = _dask.verify_part(str(out), task.part)
    assert manifest is not None
    assert merged_lines({"parts": [manifest]}, out) == single_process_lines([warcs[3]], tmp_path)


def _run_on_a_terminal(args: list[str]) -> tuple[int, str]:
    """Run ``stream-mf2 warc ARGS`` with standard error on a pseudo-terminal; its status and what it showed."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    # a terminal of 40 rows and 200 columns (a fresh pseudo-terminal has none, and the bar fits its width)
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 200, 0, 0))
    proc = subprocess.Popen([sys.executable, "-m", "stream_mf2", "warc", *args], stdout=subprocess.DEVNULL,
                            stderr=slave, cwd=REPO, env=_env())
    os.close(slave)
    shown = bytearray()
    import select

    while True:  # read until the child closes its end (EIO on Linux, b"" elsewhere)
        if not select.select([master], [], [], WAIT)[0]:
            break  # a bound against a hang only: the assertions on the output then fail
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        shown += data
    os.close(master)
    return proc.wait(WAIT), shown.decode("utf-8", "replace")


@pytest.mark.network_local
@pytest.mark.dask
@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_progress_bar_on_a_terminal_and_not_with_no_progress(warcs: list[Path], tmp_path: Path) -> None:
    inputs = [str(w) for w in warcs[:3]]
    status, shown = _run_on_a_terminal([*inputs, "--dask", "local:2", "--output-dir", str(tmp_path / "a")])
    assert status == 0, shown
    # the bar: finished inputs out of all, with the counts so far, redrawn in place
    assert "\r" in shown and "| 3/3 [" in shown and "file/s" in shown, shown
    records = json.loads((tmp_path / "a" / _dask.SUMMARY_NAME).read_text())["records"]
    assert f"{records} records" in shown, shown
    assert shown.count("] done part-") == 3  # the per-input lines are still written, above the bar
    # --no-progress: the same lines, no bar (a rerun skips every part)
    status, plain = _run_on_a_terminal([*inputs, "--dask", "local:2", "--output-dir", str(tmp_path / "a"),
                                        "--no-progress"])
    assert status == 0, plain
    assert "file/s" not in plain and "| 3/3 [" not in plain, plain
    assert plain.count("] skipped part-") == 3


def test_a_task_leaves_the_garbage_collector_as_it_found_it(warcs: list[Path], tmp_path: Path) -> None:
    """run_part freezes the worker's objects for the collector while it parses; nothing stays frozen after."""
    import gc

    assert gc.get_freeze_count() == 0
    (tmp_path / "out").mkdir()
    done = _dask.run_part(_dask.plan([str(warcs[0])], str(tmp_path / "out"))[0])
    assert done["status"] == "done" and gc.get_freeze_count() == 0
    # a task whose part cannot be staged (its folder is gone) raises, and the run lists it as
    # lost; the collector is unfrozen on that path too
    with pytest.raises(FileNotFoundError):
        _dask.run_part(_dask.plan([str(warcs[1])], str(tmp_path / "gone"))[0])
    assert gc.get_freeze_count() == 0
