"""A total deadline for a request: its sockets are shut down when its time is up.

A socket timeout bounds each read, not a request: a server that sends one byte a
second, in its headers or its body, never lets a read time out. A
:class:`Deadline` is started with the request; every socket the request opens
(redirects open more) is registered with it as soon as it exists, and when the
deadline passes one watchdog thread, shared by every request of the process,
shuts those sockets down. The blocked read then returns at once, and the reader
asks :attr:`Deadline.passed` to report the right cause.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import os
import socket
import threading
import time

__all__ = ["Deadline"]


class Deadline:
    """The end of one request's time (``seconds`` from now)."""

    __slots__ = ("_lock", "_socks", "at", "done", "passed", "seconds")

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.at = time.monotonic() + seconds
        #: Set when the deadline fired: the request's sockets have been shut down.
        self.passed = False
        #: Set when the request finished first (:meth:`cancel`).
        self.done = False
        self._socks: list[socket.socket] = []
        self._lock = threading.Lock()
        _watchdog().add(self)

    def watch(self, sock: socket.socket) -> None:
        """Shut ``sock`` down when the deadline passes (at once if it has)."""
        with self._lock:
            if not self.passed:
                self._socks.append(sock)
                return
        _shutdown(sock)

    def cancel(self) -> None:
        """The request is over: forget its sockets."""
        with self._lock:
            if self.done:
                return
            self.done = True
            fired = self.passed  # (then the watchdog has let go of it already)
            self._socks.clear()
        if not fired:
            _watchdog().forget()

    def fire(self) -> None:
        """Called by the watchdog when the time is up."""
        with self._lock:
            if self.done:
                return
            self.passed = True
            socks, self._socks = self._socks, []
        for sock in socks:
            _shutdown(sock)


def _shutdown(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)


class _Watchdog:
    """One daemon thread firing deadlines in time order."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, Deadline]] = []
        self._done = 0  # cancelled deadlines still in the heap
        self._seq = itertools.count()
        self._cond = threading.Condition()
        threading.Thread(target=self._run, name="stream-mf2-deadlines", daemon=True).start()

    def add(self, deadline: Deadline) -> None:
        with self._cond:
            heapq.heappush(self._heap, (deadline.at, next(self._seq), deadline))
            self._cond.notify()

    def forget(self) -> None:
        """A deadline was cancelled. Once most of the heap is cancelled ones it is rebuilt, so
        the heap holds about the requests still running, not every request of the last
        ``deadline`` seconds (linear work in all, as each rebuild at least halves it)."""
        with self._cond:
            self._done += 1
            if self._done > 64 and 2 * self._done > len(self._heap):
                self._heap = [entry for entry in self._heap if not entry[2].done]
                heapq.heapify(self._heap)
                self._done = 0

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._heap:
                    self._cond.wait()
                at, _, deadline = self._heap[0]
                wait = at - time.monotonic()
                if wait > 0 and not deadline.done:
                    self._cond.wait(wait)
                    continue
                heapq.heappop(self._heap)
                if deadline.done:
                    self._done = max(0, self._done - 1)
            deadline.fire()


_WATCHDOG: list[_Watchdog] = []
_WATCHDOG_LOCK = threading.Lock()
# A forked child (worker processes) has no watchdog thread: it starts its own when needed.
os.register_at_fork(after_in_child=_WATCHDOG.clear)


def _watchdog() -> _Watchdog:
    with _WATCHDOG_LOCK:
        if not _WATCHDOG:
            _WATCHDOG.append(_Watchdog())
        return _WATCHDOG[0]
