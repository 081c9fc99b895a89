"""One rule for ``warc_file``: the input's name as the user gave it, in every runner.

A relative path stays relative in the lines of a single-process run, of ``--workers``
and of a Dask run (which reads the absolute path on its workers but names the input
as given), so outputs of the same inputs can be compared or concatenated.
"""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path
from typing import Any

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from stream_mf2.warc.runner import Options, run


def _archive(path: Path) -> None:
    with open(path, "wb") as f:
        w = WARCWriter(f, gzip=True)
        for i in range(3):
            headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
            body = b"<div class=h-card><p class=p-name>Ann %d</p></div>" % i
            rec = w.create_warc_record(
                f"https://a.example/{i}", "response", payload=io.BytesIO(body), http_headers=headers
            )
            w.write_record(rec)


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
