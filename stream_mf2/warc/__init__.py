"""WARC archives: records in, items out, every problem reported per record.

One stage of the pipeline, above :mod:`stream_mf2.io` (``cli → warc → io → core``):

* :mod:`~stream_mf2.warc.reader` — ``iter_warc``/``aiter_warc`` and their options, on
  :mod:`~stream_mf2.warc.entries` (what they yield: items, records, errors, the summary),
  :mod:`~stream_mf2.warc.framing` (gzip members, records, HTTP heads) and
  :mod:`~stream_mf2.warc.walker` (the walk over an archive, per-record errors);
* :mod:`~stream_mf2.warc.parallel` — ``iter_warc_parallel``: worker processes (``--workers``);
* :mod:`~stream_mf2.warc.prefilter` — the byte scan behind ``prefilter`` (``--prefilter``): which
  records cannot hold an item, and why that is safe;
* :mod:`~stream_mf2.warc.runner` — the batch runner behind ``stream-mf2 warc``: the
  versioned line schema, one input (``process_input``), many inputs with checkpoints (``run``);
* :mod:`~stream_mf2.warc.schema` — the line schema's version;
* :mod:`~stream_mf2.warc.inputs` / :mod:`~stream_mf2.warc.outputs` — where archives come
  from (paths, globs, lists, HTTP ranges, fsspec) and where lines go (JSON Lines, Parquet);
* :mod:`~stream_mf2.warc.dask` — many archives on a Dask cluster (``run_warc_dask``).

The names below are the library's WARC API (also importable from :mod:`stream_mf2`).
"""

from typing import TYPE_CHECKING, Any

from stream_mf2.warc.entries import RecordConsumer, WarcError, WarcExtra, WarcItem, WarcRecord, WarcSummary
from stream_mf2.warc.reader import AsyncWarcReader, WarcOptions, WarcReader, WarcReaderOptions, aiter_warc, iter_warc

if TYPE_CHECKING:
    from stream_mf2.warc.parallel import ParallelWarcReader, iter_warc_parallel


def __getattr__(name: str) -> Any:
    # The worker pool (multiprocessing) is imported when first asked for: a run with one
    # worker (and every ``stream-mf2 warc`` start-up) does without it.
    if name in ("ParallelWarcReader", "iter_warc_parallel"):
        from stream_mf2.warc import parallel

        return getattr(parallel, name)
    raise AttributeError(f"module 'stream_mf2.warc' has no attribute {name!r}")


__all__ = [
    "AsyncWarcReader",
    "ParallelWarcReader",
    "RecordConsumer",
    "WarcError",
    "WarcExtra",
    "WarcItem",
    "WarcOptions",
    "WarcReader",
    "WarcReaderOptions",
    "WarcRecord",
    "WarcSummary",
    "aiter_warc",
    "iter_warc",
    "iter_warc_parallel",
]
