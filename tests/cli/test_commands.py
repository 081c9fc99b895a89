"""The command line, run as a user runs it: ``python -m stream_mf2 ...`` in a subprocess."""

from __future__ import annotations

import gzip
import http.server
import os
import select
import shlex
import struct
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from stream_mf2.cli.conformance import run_microformats_suite
from stream_mf2.core.parser import parse
from stream_mf2.html.decode import Decoder
from stream_mf2.html.testing import tokenize_for_test
from tests.support.cli import assert_user_error, run_cli
from tests.support.pages import make_page
from tests.support.servers import serve_http
from tests.support.stalling_servers import STALL_HEAD, STALL_TAIL, stalling_http_server
from tests.support.suites import REPO, suite_dir
from tests.support.warc_records import SJIS_NAME, expected_items, standard_records, write_archive

URL = "http://example.com/dir/page.html"
PAGE = make_page(5)


@pytest.fixture
def page_file(tmp_path: Path) -> Path:
    path = tmp_path / "page.html"
    path.write_bytes(PAGE)
    return path


# -- parse command ------------------------------------------------------------------------------


def test_help_everywhere() -> None:
    for args in ([], ["warc"], ["tokens"], ["tree"], ["conformance"]):
        r = run_cli(*args, "--help")
        assert r.returncode == 0 and b"usage:" in r.stdout, (args, r.stderr)
    assert b"\n  warc " in run_cli("--help").stdout


def test_file_prints_the_whole_document(page_file: Path) -> None:
    r = run_cli(str(page_file), "--url", URL)
    assert r.returncode == 0, r.stderr
    assert orjson.loads(r.stdout) == parse(PAGE, URL)
    assert r.stdout.count(b"\n") == 1  # compact by default
    r = run_cli(str(page_file), "--url", URL, "--pretty")
    assert orjson.loads(r.stdout) == parse(PAGE, URL)
    assert r.stdout.startswith(b"{\n  ")  # indented


def test_stdin_and_options(page_file: Path) -> None:
    r = run_cli("-", "--url", URL, "--text", "normalized", "--lang", "--metaformats", stdin=PAGE)
    assert r.returncode == 0, r.stderr
    assert orjson.loads(r.stdout) == parse(PAGE, URL, text="normalized", lang=True, metaformats=True)
    latin = make_page(1, charset_meta=False).decode().encode("latin-1")
    r = run_cli("-", "--encoding", "latin-1", stdin=latin)
    assert orjson.loads(r.stdout) == parse(latin, encoding="latin-1")


def test_jsonl_one_item_per_line_then_rels(page_file: Path) -> None:
    r = run_cli(str(page_file), "--jsonl", "--url", URL)
    assert r.returncode == 0, r.stderr
    lines = [orjson.loads(line) for line in r.stdout.splitlines()]
    want = parse(PAGE, URL)
    assert lines[:-1] == [{"kind": "item", "item": item} for item in want["items"]]
    assert lines[-1] == {
        "kind": "document",
        "url": URL,
        "encoding": "UTF-8",  # the encoding's name as the decoder reports it
        "rels": want["rels"],
        "rel-urls": want["rel-urls"],
        "notes": [],
    }


@pytest.mark.slow
def test_user_errors_are_one_line(tmp_path: Path, page_file: Path) -> None:
    assert_user_error(run_cli(str(tmp_path / "missing.html")), 1, "stream-mf2: error: cannot open")
    assert_user_error(run_cli(str(tmp_path)), 1, "cannot open")
    assert_user_error(run_cli(str(page_file), "--text", "bogus"), 2, "invalid choice")
    assert_user_error(run_cli(str(page_file), "--no-such-option"), 2, "unrecognized arguments")
    assert_user_error(run_cli(), 2, "required")
    assert_user_error(run_cli("warc"), 2, "required")
    assert_user_error(run_cli("warc", str(page_file), "--workers", "0"), 2, "--workers")
    for r in (run_cli(str(page_file), "--max-nothing"), run_cli("warc", "--workers", "x", "a.warc")):
        assert len(r.stderr.decode().strip().splitlines()) == 1, r.stderr


def test_jsonl_from_a_stalled_pipe_flows(tmp_path: Path) -> None:
    # A short page without <meta charset> trickling into standard input: the first item must
    # be printed while the writer still holds the rest back.
    head = b'<!doctype html><div class="h-card"><span class="p-name">Ann</span></div>\n'
    tail = b'<div class="h-card"><span class="p-name">Bob</span></div>'
    proc = subprocess.Popen(
        [sys.executable, "-m", "stream_mf2", "--jsonl", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(head)
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], 15)
        assert ready, "no item while the input was stalled"
        first = proc.stdout.readline()
        proc.stdin.write(tail)
        proc.stdin.close()
        rest = proc.stdout.read()
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    lines = [orjson.loads(line) for line in [first, *rest.splitlines()]]
    want = parse(head + tail)
    assert [line["item"] for line in lines[:-1]] == want["items"]
    assert lines[-1]["kind"] == "document"
    assert (lines[-1]["rels"], lines[-1]["rel-urls"]) == (want["rels"], want["rel-urls"])


@pytest.mark.parametrize("jsonl", [True, False])
def test_broken_pipe_is_quiet(tmp_path: Path, jsonl: bool) -> None:
    big = tmp_path / "big.html"
    big.write_bytes(make_page(20000))
    flag = "--jsonl" if jsonl else ""
    cmd = f"{shlex.quote(sys.executable)} -m stream_mf2 {flag} {shlex.quote(str(big))} | head -1"
    r = subprocess.run(
        ["sh", "-c", cmd], capture_output=True, timeout=120, cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO))
    )
    assert r.stderr == b""
    assert len(r.stdout.splitlines()) == 1


# -- URLs ----------------------------------------------------------------------------------------

SJIS_PAGE = f'<!doctype html><p class="h-card"><span class="p-name">{SJIS_NAME}</span><a class="u-url" href="me">x</a></p>'.encode(
    "shift_jis"
)
FINAL_PAGE = b'<!doctype html><div class="h-entry"><a class="u-url p-name" href="post/1">One</a></div>'


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep test output clean

    def _send(self, status: int, body: bytes, headers: dict[str, str]) -> None:
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        if "Transfer-Encoding" not in headers:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        if self.path == "/page.html":
            self._send(200, PAGE, {"Content-Type": "text/html; charset=utf-8"})
        elif self.path == "/sjis.html":
            self._send(200, SJIS_PAGE, {"Content-Type": "text/html; charset=Shift_JIS"})
        elif self.path == "/gzip.html":
            self._send(200, gzip.compress(PAGE), {"Content-Type": "text/html", "Content-Encoding": "gzip"})
        elif self.path == "/chunked.html":
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=Shift_JIS")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for i in range(0, len(SJIS_PAGE), 10):
                part = SJIS_PAGE[i : i + 10]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
                self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")
        elif self.path == "/redirect":
            self._send(302, b"", {"Location": "/sub/final.html"})
        elif self.path == "/sub/final.html":
            self._send(200, FINAL_PAGE, {"Content-Type": "text/html"})
        else:
            self._send(404, b"not found", {"Content-Type": "text/plain"})


@pytest.fixture(scope="module")
def http_base() -> Iterator[str]:
    with serve_http(Handler) as base:
        yield base


@pytest.mark.network_local
def test_url_plain_gzip_sjis_chunked(http_base: str) -> None:
    for path, body, charset in (
        ("/page.html", PAGE, "utf-8"),
        ("/gzip.html", PAGE, None),
        ("/sjis.html", SJIS_PAGE, "Shift_JIS"),
        ("/chunked.html", SJIS_PAGE, "Shift_JIS"),
    ):
        url = http_base + path
        r = run_cli(url)
        assert r.returncode == 0, (path, r.stderr)
        got = orjson.loads(r.stdout)
        assert got == parse(body, url, encoding=charset), path
    got = orjson.loads(run_cli(http_base + "/chunked.html").stdout)
    assert got["items"][0]["properties"]["name"] == [SJIS_NAME]


@pytest.mark.network_local
def test_url_redirect_uses_the_final_url_as_base(http_base: str) -> None:
    r = run_cli(http_base + "/redirect", "--jsonl")
    assert r.returncode == 0, r.stderr
    item = orjson.loads(r.stdout.splitlines()[0])["item"]
    assert item == parse(FINAL_PAGE, http_base + "/sub/final.html")["items"][0]
    assert item["properties"]["url"] == [http_base + "/sub/post/1"]
    # --url still wins when given
    r = run_cli(http_base + "/redirect", "--url", "http://other.example/x/")
    assert orjson.loads(r.stdout)["items"][0]["properties"]["url"] == ["http://other.example/x/post/1"]


@pytest.mark.network_local
def test_url_stall_rule_first_item_before_the_rest() -> None:
    # The server sends a short page head without <meta charset>, then holds the rest until the
    # test has seen the first item: the stall rule must decide the encoding meanwhile.
    with stalling_http_server(STALL_HEAD, STALL_TAIL, hold=10.0) as server:
        url = f"{server.base}/chunked"
        env = dict(os.environ, PYTHONPATH=str(REPO))
        cmd = [sys.executable, "-m", "stream_mf2", url, "--jsonl"]
        with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO, env=env) as proc:
            assert proc.stdout is not None
            ready, _, _ = select.select([proc.stdout], [], [], 8.0)
            first = proc.stdout.readline() if ready else b""
            tail_was_sent = server.tail_sent.is_set()
            server.release.set()
            rest, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert first and not tail_was_sent
    lines = [orjson.loads(line) for line in [first, *rest.splitlines()]]
    want = parse(STALL_HEAD + STALL_TAIL, url)
    assert [line["item"] for line in lines[:-1]] == want["items"]
    assert (lines[-1]["kind"], lines[-1]["rels"], lines[-1]["rel-urls"]) == ("document", want["rels"], want["rel-urls"])


@pytest.mark.network_local
def test_url_errors(http_base: str) -> None:
    assert_user_error(run_cli(http_base + "/missing"), 1, "HTTP 404")
    assert_user_error(run_cli("http://127.0.0.1:1/"), 1, "cannot fetch")


# -- warc command --------------------------------------------------------------------------------


def warc_lines(out: bytes) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in out.splitlines()]


def test_warc_command(tmp_path: Path) -> None:
    recs = standard_records()
    path = tmp_path / "a.warc.gz"
    offsets = write_archive(path, recs, compress=True)
    data = bytearray(path.read_bytes())
    data[offsets[2] + 10 : offsets[2] + 26] = b"\xff" * 16
    path.write_bytes(bytes(data))
    plain = tmp_path / "b.warc"
    write_archive(plain, recs, compress=False)

    r = run_cli("warc", str(path), str(plain))
    assert r.returncode == 0, r.stderr
    lines = warc_lines(r.stdout)
    errors = [line for line in lines if line["kind"] == "error"]
    items = [line for line in lines if line["kind"] == "item"]
    want_a = [
        (rec.uri, it) for i, rec in enumerate(recs) if rec.html is not None and i != 2 for it in expected_items(rec)
    ]
    want_b = [(rec.uri, it) for rec in recs if rec.html is not None for it in expected_items(rec)]
    assert [(x["uri"], x["item"]) for x in items] == want_a + want_b
    assert all(set(x) == {"kind", "syntax", "warc_file", "offset", "record_id", "uri", "path", "item"} for x in items)
    assert len(errors) == 1 and errors[0]["offset"] == offsets[2] and errors[0]["warc_file"] == str(path)
    summary = r.stderr.decode()
    assert "Traceback" not in summary
    n_records = 2 * len(recs) - 1
    n_html = 2 * sum(rec.html is not None for rec in recs) - 1
    assert f"{n_records} records, {n_html} HTML records, {len(items)} items, 1 errors" in summary

    r2 = run_cli("warc", str(path), str(plain), "--workers", "2", "-o", str(tmp_path / "out.jsonl"))
    assert r2.returncode == 0, r2.stderr
    assert r2.stdout == b""
    assert (tmp_path / "out.jsonl").read_bytes() == r.stdout
    assert r2.stderr.decode().split(", ")[:5] == summary.split(", ")[:5]


def test_warc_exit_status(tmp_path: Path, page_file: Path) -> None:
    r = run_cli("warc", str(page_file))
    assert r.returncode == 4 and "Traceback" not in r.stderr.decode()  # no input could be read
    assert warc_lines(r.stdout)[0]["kind"] == "error"
    r = run_cli("warc", str(tmp_path / "missing.warc"))
    assert r.returncode == 4 and "cannot open" in warc_lines(r.stdout)[0]["error"]
    empty = tmp_path / "empty.warc"
    empty.write_bytes(b"")
    assert run_cli("warc", str(empty)).returncode == 0  # nothing to read is not a failure


# -- debug commands ------------------------------------------------------------------------------


def test_tokens_command(page_file: Path) -> None:
    r = run_cli("tokens", str(page_file))
    assert r.returncode == 0, r.stderr
    decoder = Decoder()
    text = decoder.feed(PAGE) + decoder.close()
    tokens, _ = tokenize_for_test([text], collect_errors=False)
    assert [orjson.loads(line) for line in r.stdout.splitlines()] == tokens
    assert_user_error(run_cli("tokens", str(page_file) + ".missing"), 1, "cannot open")


def test_tree_command(page_file: Path) -> None:
    testing = pytest.importorskip("stream_mf2.html.testing")
    if not hasattr(testing, "tree_for_test"):
        r = run_cli("tree", str(page_file))
        assert_user_error(r, 1, "not available")
        pytest.skip("tree_for_test is not in stream_mf2.html.testing yet")
    r = run_cli("tree", str(page_file))
    assert r.returncode == 0, r.stderr
    decoder = Decoder()
    dump = testing.tree_for_test([decoder.feed(PAGE) + decoder.close()])
    text = dump if isinstance(dump, str) else "\n".join(dump)
    assert r.stdout.decode().rstrip("\n") == text.rstrip("\n")


def test_conformance_command(tmp_path: Path) -> None:
    # No PATH, no $STREAM_MF2_TESTSUITES and no ../shared/testsuites beside the cwd.
    lonely = tmp_path / "a" / "b"
    lonely.mkdir(parents=True)
    assert_user_error(run_cli("conformance", cwd=lonely), 1, "STREAM_MF2_TESTSUITES")
    # With the suites at ../shared/testsuites, as beside a checkout, no PATH is needed.
    suite_root = suite_dir("microformats-tests")
    if suite_root is not None and (REPO.parent / "shared" / "testsuites" / "microformats-tests").is_dir():
        found = run_cli("conformance")
        assert found.returncode == 0, found.stderr
        assert "microformats-v2-unit" in found.stdout.decode()
    assert_user_error(run_cli("conformance", str(tmp_path)), 1, "no microformats test suite")
    suite = suite_dir("microformats-tests")
    if suite is None:
        pytest.skip("microformats-tests suite not found")
    r = run_cli("conformance", str(suite), "--failures", "3")
    assert r.returncode == 0, r.stderr
    report = run_microformats_suite(suite)
    assert r.stdout.decode() == report.format(max_failures=3) + "\n"
    for name in ("microformats-v2", "microformats-v2-unit", "microformats-mixed", "microformats-v1"):
        assert name in r.stdout.decode()
    strict = run_cli("conformance", str(suite), "--strict")
    assert strict.returncode == (0 if report.passed else 1)


def test_warc_progress_bar_only_on_a_terminal(tmp_path: Path) -> None:
    pty = pytest.importorskip("pty")
    fcntl = pytest.importorskip("fcntl")
    termios = pytest.importorskip("termios")
    path = tmp_path / "a.warc.gz"
    write_archive(path, standard_records(), compress=True)
    # stderr a pipe: no bar, only the summary line.
    r = run_cli("warc", str(path))
    assert r.stderr.decode().count("\n") == 1 and "records" in r.stderr.decode()
    # stderr a terminal: the bar shows records, bytes and items/s.
    master, slave = pty.openpty()
    # A terminal of 120 columns (a fresh pty has none, and tqdm would draw nothing).
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "stream_mf2", "warc", str(path)],
            stdout=subprocess.PIPE,
            stderr=slave,
            timeout=120,
            cwd=REPO,
            env=dict(os.environ, PYTHONPATH=str(REPO)),
            check=False,
        )
        os.close(slave)
        shown = b""
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:
                break  # EIO: the terminal's other side is closed and drained
            if not data:
                break
            shown += data
    finally:
        os.close(master)
    assert proc.returncode == 0
    assert proc.stdout == r.stdout
    text = shown.decode(errors="replace")
    assert "items/s" in text and "records" in text and "B" in text
