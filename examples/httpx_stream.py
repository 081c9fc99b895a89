"""Stream items out of a page fetched with httpx, as they arrive.

    python examples/httpx_stream.py https://example.com/ [--async]

An httpx ``Response`` is a source as it is: its charset is the transport
encoding and its URL (after redirects) the base URL. Prints one JSON line per
top-level item.
"""

from __future__ import annotations

import asyncio
import json
import sys

import httpx

import stream_mf2


def sync_main(url: str) -> None:
    with httpx.Client(follow_redirects=True) as client, client.stream("GET", url) as response:
        response.raise_for_status()
        for item in stream_mf2.iter_items(response):
            print(json.dumps(item, ensure_ascii=False), flush=True)


async def async_main(url: str) -> None:
    async with httpx.AsyncClient(follow_redirects=True) as client, client.stream("GET", url) as response:
        response.raise_for_status()
        async for item in stream_mf2.aiter_items(response):
            print(json.dumps(item, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: httpx_stream.py URL [--async]")
    if "--async" in sys.argv[2:]:
        asyncio.run(async_main(sys.argv[1]))
    else:
        sync_main(sys.argv[1])
