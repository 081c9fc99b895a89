"""Tests of stream_mf2/html/bounded: the bounded sink against the full DOM, its order and its cost."""
