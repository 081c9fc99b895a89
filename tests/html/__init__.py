"""Tests of stream_mf2/html: tokenizer, decoder, tree builder, DomSink, serializer."""
