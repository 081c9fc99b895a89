"""Where ``-o`` writes, and how a resumed run trusts what it finds.

* An output name is resolved once: a regular file (also through a symbolic link) is
  written through ``.partial`` and renamed onto the file the name points to; a FIFO is
  written in place and stays a FIFO; a directory is refused with a message.
* Suffixes are compared case-insensitively; a compression this project does not
  write (``.bz2``) is refused instead of giving plain text under that name.
* Two runs naming one output: the second fails at once, the first is unharmed.
* A run without ``--resume`` removes an earlier run's stale checkpoint; ``--resume``
  refuses a temporary output that is shorter than, or differs from, what its
  checkpoint made durable, and a checkpoint file that is not one.
"""

from __future__ import annotations

import gzip
import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from stream_mf2.errors import StreamMF2Error
from stream_mf2.warc.outputs import _part_number, open_writer
from stream_mf2.warc.runner import Options, checkpoint_path, run
from stream_mf2.warc.target import OutputError, OutputLock, output_format, resolve_output
from tests.support.warc_records import html_archive

PAGE = (
    b"<!doctype html><title>t</title><body>"
    b"<article class=h-entry><h1 class=p-name>Post %d</h1><a class=u-url href=/p/%d>link</a></article>"
)


def _archive(path: Path, records: int) -> Path:
    return html_archive(path, [PAGE % (i, i) for i in range(records)])


@pytest.fixture
def inputs(tmp_path: Path) -> list[str]:
    return [str(_archive(tmp_path / f"crawl-{n}.warc.gz", 5)) for n in range(3)]


def _lines(data: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in data.splitlines() if line.strip()]


def _expected(inputs: list[str], tmp_path: Path) -> bytes:
    out = tmp_path / "expected.jsonl"
    run(inputs, str(out), Options())
    return out.read_bytes()


# -- what a name resolves to ---------------------------------------------------------------------


def test_symlink_output_stays_a_link_and_its_target_gets_the_output(inputs: list[str], tmp_path: Path) -> None:
    real = tmp_path / "real.jsonl"
    real.write_text("old\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    run(inputs, str(link), Options())
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes() == _expected(inputs, tmp_path)
    assert sorted(p.name for p in tmp_path.glob("*.partial*")) == []


def test_dangling_symlink_output_creates_its_target(inputs: list[str], tmp_path: Path) -> None:
    link = tmp_path / "link.jsonl"
    link.symlink_to(tmp_path / "made.jsonl")
    run(inputs, str(link), Options())
    assert link.is_symlink()
    assert (tmp_path / "made.jsonl").read_bytes() == _expected(inputs, tmp_path)


def test_fifo_output_is_written_in_place_and_stays_a_fifo(inputs: list[str], tmp_path: Path) -> None:
    fifo = tmp_path / "out.jsonl"
    os.mkfifo(fifo)
    got: list[bytes] = []

    def read() -> None:
        with open(fifo, "rb") as f:
            got.append(f.read())

    reader = threading.Thread(target=read)
    reader.start()
    run(inputs, str(fifo), Options())
    reader.join()
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got == [_expected(inputs, tmp_path)]
    assert not (tmp_path / "out.jsonl.partial").exists()


def test_fifo_output_through_the_command_line(inputs: list[str], tmp_path: Path) -> None:
    fifo = tmp_path / "out.jsonl.gz"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    r = subprocess.run(
        [sys.executable, "-m", "stream_mf2", "warc", *inputs, "-o", str(fifo), "--no-progress"],
        capture_output=True,
        check=False,
    )
    reader.join()
    assert r.returncode == 0, r.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert gzip.decompress(got[0]) == _expected(inputs, tmp_path)


@pytest.mark.parametrize("flags", [["--resume"], []])
def test_special_file_outputs_refuse_resume_and_parquet(tmp_path: Path, flags: list[str]) -> None:
    fifo = tmp_path / "out.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(OutputError, match="regular file"):
        run([], str(fifo), Options(), resume=True)
    pq = tmp_path / "out.parquet"
    os.mkfifo(pq)
    with pytest.raises(OutputError, match="several files"):
        resolve_output(str(pq))


def test_output_in_a_missing_folder_names_the_folder(inputs: list[str], tmp_path: Path) -> None:
    """``-o results/items.jsonl`` before ``mkdir results`` said "cannot lock
    results/items.jsonl.lock: No such file or directory": a lock file the user never named."""
    out = tmp_path / "results" / "items.jsonl"
    with pytest.raises(OutputError, match=r"no folder .*results \(create it first\)"):
        run(inputs, str(out), Options())
    link = tmp_path / "link.jsonl"  # a link to a file in a folder that is not there either
    link.symlink_to(tmp_path / "gone" / "made.jsonl")
    with pytest.raises(OutputError, match=r"no folder .*gone"):
        resolve_output(str(link))
    page = tmp_path / "page.html"
    page.write_bytes(PAGE % (1, 1))
    template = Path(__file__).resolve().parents[2] / "fixtures" / "wpt" / "artist.xml"
    for command in (["warc", *inputs, "--no-progress"], ["wpt", str(template), str(page)]):
        r = subprocess.run(
            [sys.executable, "-m", "stream_mf2", *command, "-o", str(out)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert r.returncode == 1, r.stderr
        assert "(create it first)" in r.stderr and ".lock" not in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "results").exists()


def test_summary_json_in_a_missing_folder_is_refused_before_the_run(inputs: list[str], tmp_path: Path) -> None:
    """``--summary-json`` is written last: a missing folder failed the run (status 1) after it had
    read every input and written its output. It is now refused before anything is read."""
    out = tmp_path / "items.jsonl"
    r = subprocess.run(
        [sys.executable, "-m", "stream_mf2", "warc", *inputs, "-o", str(out), "--no-progress",
         "--summary-json", str(tmp_path / "stats" / "summary.json")],
        capture_output=True,
        text=True,
        check=False,
    )  # fmt: skip
    assert r.returncode == 1, r.stderr
    assert "cannot write" in r.stderr and "no folder" in r.stderr and "(create it first)" in r.stderr
    assert not out.exists()  # refused before the run, not after it
    assert "records" not in r.stderr  # no summary of a run


def test_directory_output_is_refused_with_a_message(inputs: list[str], tmp_path: Path) -> None:
    out = tmp_path / "dir.jsonl"
    out.mkdir()
    with pytest.raises(OutputError, match="is a directory"):
        run(inputs, str(out), Options())
    r = subprocess.run(
        [sys.executable, "-m", "stream_mf2", "warc", *inputs, "-o", str(out), "--no-progress"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 1
    assert "is a directory" in r.stderr and "Traceback" not in r.stderr
    assert out.is_dir()


# -- formats by suffix ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "fmt"),
    [
        ("x.jsonl", "jsonl"),
        ("x.JSONL.GZ", "jsonl.gz"),
        ("x.jsonl.Zst", "jsonl.zst"),
        ("x.PARQUET", "parquet"),
        ("x.out", "jsonl"),
        ("x", "jsonl"),
    ],
)
def test_format_by_suffix_case_insensitively(name: str, fmt: str) -> None:
    assert output_format(name) == fmt


@pytest.mark.parametrize("name", ["x.jsonl.bz2", "x.JSONL.XZ", "x.zip", "x.jsonl.lz4"])
def test_unsupported_compression_suffix_is_refused(name: str) -> None:
    with pytest.raises(OutputError, match="compression is not supported"):
        output_format(name)


def test_upper_case_gz_output_is_gzip(inputs: list[str], tmp_path: Path) -> None:
    out = tmp_path / "OUT.JSONL.GZ"
    run(inputs, str(out), Options())
    assert gzip.decompress(out.read_bytes()) == _expected(inputs, tmp_path)


def test_unsupported_suffix_through_the_command_line(inputs: list[str], tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl.bz2"
    r = subprocess.run(
        [sys.executable, "-m", "stream_mf2", "warc", *inputs, "-o", str(out), "--no-progress"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 1 and ".bz2 compression is not supported" in r.stderr
    assert not out.exists() and not Path(str(out) + ".partial").exists()


# -- two runs, one output ------------------------------------------------------------------------


def test_second_run_on_a_locked_output_fails_at_once(inputs: list[str], tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    with OutputLock(resolve_output(str(out))):
        with pytest.raises(OutputError, match="another run is writing this output"):
            run(inputs, str(out), Options())
        assert not out.exists()
    run(inputs, str(out), Options())  # the lock is gone with its holder
    assert out.read_bytes() == _expected(inputs, tmp_path)
    assert not Path(str(out) + ".lock").exists()


def test_lock_left_by_a_killed_run_is_taken_over(inputs: list[str], tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    Path(str(out) + ".lock").write_text("")  # a file, but nobody holds a lock on it
    run(inputs, str(out), Options())
    assert out.read_bytes() == _expected(inputs, tmp_path)


# -- resuming ------------------------------------------------------------------------------------


class _Killed(BaseException):
    """Stands for SIGKILL: stops the run between two checkpoints."""


def _killed_run(inputs: list[str], out: Path, after_files: int) -> None:
    """A --resume run stopped after ``after_files`` inputs were checkpointed."""
    seen = [0]

    def progress(_fs: object) -> None:
        seen[0] += 1
        if seen[0] == after_files:
            raise _Killed

    # The checkpoint after an input is written after progress() is told: stop on the next one.
    with pytest.raises(_Killed):
        run(inputs, str(out), Options(), resume=True, progress=progress, checkpoint_records=10**9)


def test_run_without_resume_removes_a_stale_checkpoint(inputs: list[str], tmp_path: Path) -> None:
    out = tmp_path / "k.jsonl"
    _killed_run(inputs, out, 2)
    assert Path(checkpoint_path(str(out))).exists()
    run(inputs, str(out), Options())
    assert not Path(checkpoint_path(str(out))).exists()
    expected = out.read_bytes()
    run(inputs, str(out), Options(), resume=True)  # a later --resume starts afresh and completes
    assert out.read_bytes() == expected


@pytest.mark.parametrize("suffix", [".jsonl", ".jsonl.gz"])
def test_resume_goes_on_from_a_verified_partial(inputs: list[str], tmp_path: Path, suffix: str) -> None:
    out = tmp_path / f"k{suffix}"
    _killed_run(inputs, out, 2)
    run(inputs, str(out), Options(), resume=True)
    whole = tmp_path / f"whole{suffix}"
    run(inputs, str(whole), Options())
    # (a resumed .gz has a gzip member per checkpoint: the same lines, other bytes)
    read = gzip.decompress if suffix.endswith(".gz") else bytes
    assert read(out.read_bytes()) == read(whole.read_bytes())


@pytest.mark.parametrize("damage", ["shorter", "changed"])
@pytest.mark.parametrize("suffix", [".jsonl", ".jsonl.gz"])
def test_resume_refuses_a_partial_that_is_not_the_checkpointed_one(
    inputs: list[str], tmp_path: Path, damage: str, suffix: str
) -> None:
    out = tmp_path / f"k{suffix}"
    _killed_run(inputs, out, 2)
    partial = Path(str(out) + ".partial")
    data = bytearray(partial.read_bytes())
    token = json.loads(Path(checkpoint_path(str(out))).read_text())["token"]
    assert token["offset"] <= len(data)
    if damage == "shorter":
        partial.write_bytes(data[: token["offset"] // 2])
        message = "fewer than"
    else:
        data[token["offset"] // 2] ^= 0x20
        partial.write_bytes(bytes(data))
        message = "not those its checkpoint made durable"
    with pytest.raises(OutputError, match=message):
        run(inputs, str(out), Options(), resume=True)
    assert not out.exists()


def test_resume_refuses_when_the_partial_is_gone(inputs: list[str], tmp_path: Path) -> None:
    out = tmp_path / "k.jsonl"
    _killed_run(inputs, out, 2)
    Path(str(out) + ".partial").unlink()
    with pytest.raises(OutputError, match="temporary output is gone"):
        run(inputs, str(out), Options(), resume=True)


@pytest.mark.parametrize(("content", "message"), [("{not json", "not JSON"), ("[1, 2]", "is not a checkpoint")])
def test_resume_refuses_a_checkpoint_that_is_not_one(
    inputs: list[str], tmp_path: Path, content: str, message: str
) -> None:
    out = tmp_path / "k.jsonl"
    Path(checkpoint_path(str(out))).write_text(content)
    with pytest.raises(StreamMF2Error, match=message):
        run(inputs, str(out), Options(), resume=True)
    r = subprocess.run(
        [sys.executable, "-m", "stream_mf2", "warc", *inputs, "-o", str(out), "--resume", "--no-progress"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 1 and message in r.stderr and "Traceback" not in r.stderr


def test_parquet_resume_refuses_a_damaged_part(inputs: list[str], tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    out = tmp_path / "k.parquet"
    _killed_run(inputs, out, 2)
    parts = sorted(Path(str(out) + ".partial.d").iterdir())
    assert parts
    parts[0].write_bytes(parts[0].read_bytes()[:-10])
    with pytest.raises(OutputError, match="is not the one its checkpoint made durable"):
        run(inputs, str(out), Options(), resume=True)


def test_parquet_resume_of_wpt_tables(tmp_path: Path) -> None:
    # Part files of tables whose names hold "-" (wpt-match) are numbered from the right.
    assert _part_number("wpt-match-000012.parquet") == 12
    assert _part_number("item-000003.parquet") == 3
    assert _part_number("stray.parquet") == -1
    pytest.importorskip("pyarrow")
    out = tmp_path / "w.parquet"
    writer = open_writer(str(out), tables=("wpt", "wpt-match"))
    writer.write({"kind": "wpt-match", "template": "t", "block": 0, "match": {"text": "a"}})
    token = writer.checkpoint()
    writer.write({"kind": "wpt-match", "template": "t", "block": 1, "match": {"text": "b"}})
    writer.checkpoint()
    writer.abandon()
    resumed = open_writer(str(out), tables=("wpt", "wpt-match"), resume=token)
    resumed.write({"kind": "wpt-match", "template": "t", "block": 2, "match": {"text": "c"}})
    resumed.close()
    import pyarrow.parquet as pq

    rows = pq.read_table(tmp_path / "w.wpt-matches.parquet").to_pylist()
    assert [r["block"] for r in rows] == [0, 2]
