"""Items of every HTML response in a WARC file, with warcio's ArchiveIterator feeding iter_items.

    python examples/warcio_loop.py crawl.warc.gz

``record.content_stream()`` is a file object (de-chunked, decompressed by
warcio), so ``iter_items`` streams each page without holding it whole. For
damaged archives and per-record error reports use ``stream_mf2.iter_warc``
instead; this loop shows how to plug the parser into code that already walks
archives with warcio.
"""

from __future__ import annotations

import json
import sys
from email.message import Message

from warcio.archiveiterator import ArchiveIterator

import stream_mf2


def media_type(value: str | None) -> tuple[str | None, str | None]:
    """The media type and charset of a Content-Type header value."""
    if not value:
        return None, None
    msg = Message()
    msg["Content-Type"] = value
    return msg.get_content_type(), msg.get_content_charset()


def main(path: str) -> None:
    with open(path, "rb") as f:
        for record in ArchiveIterator(f):
            if record.rec_type != "response" or record.http_headers is None:
                continue
            content_type, charset = media_type(record.http_headers.get_header("Content-Type"))
            if content_type not in ("text/html", "application/xhtml+xml"):
                continue
            uri = record.rec_headers.get_header("WARC-Target-URI")
            options: stream_mf2.ParseOptions = {"encoding": charset} if charset else {}
            for item in stream_mf2.iter_items(record.content_stream(), uri, **options):
                print(json.dumps({"uri": uri, "item": item}, ensure_ascii=False))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: warcio_loop.py FILE.warc[.gz]")
    main(sys.argv[1])
