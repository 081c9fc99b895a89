"""Moved to :mod:`stream_mf2.warc.dask` (0.2.0); this path keeps the documented names working."""

from stream_mf2.warc.dask import DaskRunSummary, plan, read_summary, run_warc_dask, verify_part

__all__ = ["DaskRunSummary", "plan", "read_summary", "run_warc_dask", "verify_part"]
