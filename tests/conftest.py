"""Shared helpers: sample pages and a slow, self-stopping TCP server on loopback."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from hypothesis import settings

# In CI the property tests draw the same examples every run (a failure there is a
# bug to reproduce, not luck); locally they explore new ones each run.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI", "").lower() == "true":
    settings.load_profile("ci")

#: A server never lives longer than this, whatever the test does.
SERVER_LIFETIME = 20.0


def make_page(n_items: int, *, charset_meta: bool = True, tag: str = "card") -> bytes:
    """An HTML page with ``n_items`` top-level h-cards, a rel=me link and some nesting."""
    head = '<meta charset="utf-8">' if charset_meta else ""
    cards = "\n".join(
        f'<div class="h-card"><a class="p-name u-url" href="/people/{tag}{i}">{tag} {i} \u00e9</a>'
        f'<p class="p-note">note <b>{i}</b></p></div>'
        for i in range(n_items)
    )
    return (
        f"<!doctype html><html><head>{head}<title>t</title>"
        f'<link rel="me" href="https://me.example/"></head><body>\n{cards}\n'
        '<a rel="author" href="/about">about</a></body></html>'
    ).encode()


@dataclass
class SlowServer:
    """A running server: where it listens and how far it got."""

    host: str
    port: int
    sent: int = 0  # bytes written so far
    finished: threading.Event = field(default_factory=threading.Event)  # set after the last byte


@contextmanager
def slow_server(pieces: Sequence[bytes], delays: Sequence[float]) -> Iterator[SlowServer]:
    """An asyncio TCP server on 127.0.0.1 (own loop, own thread) for one connection.

    It writes ``pieces[i]`` and then sleeps ``delays[i]`` seconds, sets
    ``finished`` and closes the connection. It stops after that connection,
    or after :data:`SERVER_LIFETIME` seconds, whichever comes first.
    """
    ready = threading.Event()
    box: dict[str, SlowServer] = {}
    stop: list[Callable[[], object]] = []
    loop = asyncio.new_event_loop()

    async def main() -> None:
        done = asyncio.Event()

        handlers: set[asyncio.Task[None]] = set()

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            task = asyncio.current_task()
            if task is not None:
                handlers.add(task)
            state = box["state"]
            try:
                for piece, delay in zip(pieces, delays, strict=True):
                    writer.write(piece)
                    await writer.drain()
                    state.sent += len(piece)
                    await asyncio.sleep(delay)
                state.finished.set()
                writer.close()
                await writer.wait_closed()
            except (ConnectionError, OSError):
                pass  # the client went away early: fine for a test server
            finally:
                done.set()

        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        host, port = server.sockets[0].getsockname()[:2]
        box["state"] = SlowServer(host, port)
        stop.append(lambda: loop.call_soon_threadsafe(done.set))
        ready.set()
        try:
            await asyncio.wait_for(done.wait(), SERVER_LIFETIME)
        except TimeoutError:
            pass
        finally:
            for task in handlers:  # stopped early: end a handler that is still sending
                task.cancel()
            await asyncio.gather(*handlers, return_exceptions=True)
            server.close()
            await server.wait_closed()

    thread = threading.Thread(target=loop.run_until_complete, args=(main(),), daemon=True)
    thread.start()
    try:
        if not ready.wait(5):
            raise RuntimeError("test server did not start")
        yield box["state"]
    finally:
        if stop and not box["state"].finished.is_set():
            stop[0]()  # the test ended early: do not wait for the lifetime to run out
        thread.join(SERVER_LIFETIME + 5)
        loop.close()


def split_every(data: bytes, n: int) -> list[bytes]:
    """``data`` in pieces of ``n`` bytes."""
    return [data[i : i + n] for i in range(0, len(data), n)]
