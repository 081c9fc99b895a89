"""Tests of stream_mf2/io: sources, fetch, client responses, async, JSON output."""
