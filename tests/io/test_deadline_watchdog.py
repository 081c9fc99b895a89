"""The deadline watchdog holds about the requests still running, not every request ever made.

Each ``fetch`` registers a deadline (600 s by default) with one shared watchdog. A
cancelled one (the request ended in time) used to stay in its heap until its time came,
so a crawler's heap grew with every request of the last ten minutes.
"""

from __future__ import annotations

from stream_mf2.io.deadline import Deadline, _watchdog


def test_cancelled_deadlines_do_not_pile_up() -> None:
    running = [Deadline(600) for _ in range(100)]
    before = len(_watchdog()._heap)
    for _ in range(20_000):
        Deadline(600).cancel()
    assert len(_watchdog()._heap) <= 2 * before + 130
    for d in running:
        assert not d.done and not d.passed
        d.cancel()
