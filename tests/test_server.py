"""The kept process of mrp.process.server: reused between calls, killed past a deadline, its death told."""

from __future__ import annotations

import time

from mrp.process.server import Server


def test_one_process_serves_call_after_call() -> None:
    server = Server()
    try:
        first, died = server.call("os:getpid", ())
        again, _ = server.call("os:getpid", ())
        assert died is None and first == again == server.pid
        assert server.call("math:gcd", (12, 18)) == (6, None)
    finally:
        server.kill()
    assert not server.alive


def test_a_call_past_its_deadline_or_stopped_kills_the_process() -> None:
    server = Server()
    started = time.monotonic()
    assert server.call("time:sleep", (30,), started + 0.3) == (None, None)
    assert time.monotonic() - started < 5 and not server.alive
    other = Server()
    assert other.call("time:sleep", (30,), None, lambda: True) == (None, None)
    assert not other.alive


def test_a_process_that_dies_on_its_own_says_how() -> None:
    server = Server()
    assert server.call("os:_exit", (3,)) == (None, "exit 3")
    assert not server.alive
    assert server.call("os:getpid", ())[0] is None


def test_close_all_ends_and_reaps_every_kept_process() -> None:
    """Its CPU is counted as its parent's children's even when the parent ends with os._exit (as
    mrp-score does): the kept process was reaped."""
    import resource
    import subprocess
    import sys

    script = ("import os\nfrom mrp.process.server import Server, close_all\n"
              "s = Server()\nassert s.call('builtins:sum', (range(30_000_000),))[0]\n"
              "close_all()\nassert not s.alive\nos._exit(0)\n")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    before = usage.ru_utime + usage.ru_stime
    started = time.process_time()
    subprocess.run([sys.executable, "-c", script], check=True)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert usage.ru_utime + usage.ru_stime - before > 0.3
    assert time.process_time() - started < 0.3
