"""Stream items out of pages fetched concurrently with aiohttp.

    python examples/aiohttp_stream.py URL [URL...]

An aiohttp ``ClientResponse`` is a source for ``aiter_items`` as it is (its body
is read with ``content.iter_chunked``). Prints ``{"url": ..., "item": ...}`` per
top-level item, pages interleaved as their items complete.
"""

from __future__ import annotations

import asyncio
import json
import sys

import aiohttp

import stream_mf2


async def items_of(session: aiohttp.ClientSession, url: str) -> int:
    count = 0
    async with session.get(url) as response:
        response.raise_for_status()
        async for item in stream_mf2.aiter_items(response):
            print(json.dumps({"url": url, "item": item}, ensure_ascii=False), flush=True)
            count += 1
    return count


async def main(urls: list[str]) -> None:
    async with aiohttp.ClientSession() as session:
        counts = await asyncio.gather(*(items_of(session, url) for url in urls))
    print(json.dumps({"pages": len(urls), "items": sum(counts)}), file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: aiohttp_stream.py URL [URL...]")
    asyncio.run(main(sys.argv[1:]))
