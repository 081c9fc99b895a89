"""Items of every HTML response in a WARC file, read with FastWARC (Resiliparse).

    python examples/fastwarc_loop.py crawl.warc.gz

FastWARC parses the HTTP head (``parse_http=True``) and leaves ``record.reader``
at the start of the HTTP body: a file object, so ``iter_items`` streams it. The
body is what the server sent: a ``Transfer-Encoding: chunked`` or
``Content-Encoding`` body is skipped here (``stream_mf2.iter_warc`` decodes
those).
"""

from __future__ import annotations

import json
import sys
from email.message import Message

from fastwarc.warc import ArchiveIterator, WarcRecordType

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
        for record in ArchiveIterator(f, record_types=WarcRecordType.response, parse_http=True):
            headers = record.http_headers
            if headers is None:
                continue
            content_type, charset = media_type(headers.get("Content-Type"))
            if content_type not in ("text/html", "application/xhtml+xml"):
                continue
            if headers.get("Transfer-Encoding") or headers.get("Content-Encoding"):
                print(f"skipped an encoded body: {record.headers.get('WARC-Target-URI')}", file=sys.stderr)
                continue
            uri = record.headers.get("WARC-Target-URI")
            options: stream_mf2.ParseOptions = {"encoding": charset} if charset else {}
            for item in stream_mf2.iter_items(record.reader, uri, **options):
                print(json.dumps({"uri": uri, "item": item}, ensure_ascii=False))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: fastwarc_loop.py FILE.warc[.gz]")
    main(sys.argv[1])
