"""Tests of stream_mf2/core: the Parser façade, options, streaming equivalence, stream_children."""
