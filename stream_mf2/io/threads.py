"""The library's own worker threads, for the blocking reads of the async front ends.

``afetch`` and ``aiter_items``/``aiter_events`` over a fetched response (urllib has no
async API), and ``aiter_warc``, read in worker threads. They do not use asyncio's
default executor: that pool is the application's (``asyncio.to_thread``, aiofiles),
holds ``min(32, cores + 4)`` threads, and a read from a silent server holds a thread
for up to its timeout, so a few silent servers would stall every other blocking call
of the application. Ours is a separate pool of at most :data:`MAX_THREADS` threads,
made on first use; reads past that many wait for a free thread (only each other).
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

__all__ = ["MAX_THREADS", "run_in_thread"]

#: Most worker threads the library's async front ends use at once (all event loops together).
MAX_THREADS = 64

T = TypeVar("T")

_POOL: list[ThreadPoolExecutor] = []
_LOCK = threading.Lock()
# A forked child has none of the parent's threads: it makes its own pool when needed.
os.register_at_fork(after_in_child=_POOL.clear)


def _pool() -> ThreadPoolExecutor:
    with _LOCK:
        if not _POOL:
            _POOL.append(ThreadPoolExecutor(max_workers=MAX_THREADS, thread_name_prefix="stream-mf2-read"))
        return _POOL[0]


async def run_in_thread(func: Callable[..., T], *args: object) -> T:
    """``func(*args)`` in one of the library's worker threads (see the module docs)."""
    return await asyncio.get_running_loop().run_in_executor(_pool(), func, *args)
