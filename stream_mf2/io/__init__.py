"""Sources: where bytes come from, as sync and async front ends over the one push core.

* :mod:`~stream_mf2.io.sources` — the input rule and ``iter_items``/``aiter_items``/
  ``iter_events``/``aiter_events`` over paths, files, sockets, iterables, responses;
* :mod:`~stream_mf2.io.api` — the public ``parse()`` of any source;
* :mod:`~stream_mf2.io.fetch` — ``fetch``/``afetch`` for ``http(s)://`` URLs;
* :mod:`~stream_mf2.io.responses` — httpx / requests / aiohttp responses as sources;
* :mod:`~stream_mf2.io.payload` — HTTP bodies: chunked, gzip/deflate/br, the
  decompression cap, HTML sniffing (shared with the WARC reader);
* :mod:`~stream_mf2.io.json_output` — JSON encoding of results (orjson).
"""
