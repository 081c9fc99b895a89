"""Tests of stream_mf2/warc: the WARC reader, the warc runner and command, the Dask runner."""
