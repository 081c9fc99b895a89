"""The core: the sans-IO :class:`~stream_mf2.Parser` and what it wires together.

One stage of the pipeline (``cli → warc → io → core → consumers → html``):

* :mod:`~stream_mf2.core.options` — every parse option, typed and checked once;
* :mod:`~stream_mf2.core.parser` — the ``Parser`` façade: bytes or text in, events out;
  it builds the HTML engine, the bounded sink and the consumers (mf2, WPT);
* :mod:`~stream_mf2.core.fanout` — several consumers of one bounded tree;
* :mod:`~stream_mf2.core.reassemble` — whole-document items from streamed children.

The core does no I/O: files, sockets, HTTP and archives are :mod:`stream_mf2.io`
and :mod:`stream_mf2.warc`.
"""
