"""Tests of stream_mf2/wpt: Website Parse Templates, loading and matching."""
