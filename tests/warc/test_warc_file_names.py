"""One rule for ``warc_file``: the input's name as the user gave it, in every runner.

A relative path stays relative in the lines of a single-process run, of ``--workers``
and of a Dask run (which reads the absolute path on its workers but names the input
as given), so outputs of the same inputs can be compared or concatenated.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from stream_mf2.warc.runner import Options, run
from tests.support.warc_records import html_archive


def _archive(path: Path) -> None:
    html_archive(path, [b"<div class=h-card><p class=p-name>Ann %d</p></div>" % i for i in range(3)])


def _names(lines: list[dict[str, Any]]) -> set[str]:
    return {line["warc_file"] for line in lines if "warc_file" in line}


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "crawl").mkdir()
    _archive(tmp_path / "crawl" / "a.warc.gz")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("workers", [1, 2])
def test_single_process_keeps_the_name_as_given(here: Path, workers: int) -> None:
    run(["crawl/a.warc.gz"], "out.jsonl", Options(workers=workers))
    lines = [json.loads(line) for line in (here / "out.jsonl").read_text().splitlines()]
    assert _names(lines) == {"crawl/a.warc.gz"}


@pytest.mark.dask
def test_dask_keeps_the_name_as_given(here: Path) -> None:
    pytest.importorskip("distributed")
    from distributed import Client

    from stream_mf2.cli.dask import local_cluster
    from stream_mf2.warc.dask import run_warc_dask

    with local_cluster(1) as cluster, Client(cluster) as client:
        summary = run_warc_dask(client, ["crawl/a.warc.gz"], str(here / "parts"))
    assert summary.status == 0
    (part,) = sorted((here / "parts").glob("part-*.jsonl.gz"))
    lines = [json.loads(line) for line in gzip.decompress(part.read_bytes()).splitlines()]
    assert _names(lines) == {"crawl/a.warc.gz"}
