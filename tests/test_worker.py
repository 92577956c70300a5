"""The kept worker process: calls answered in one process kept between calls, a call stopped or past its
deadline ends the process (the next starts another), a process dying on its own is reported, its output
never reaches standard output, and its CPU time is counted."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Iterator

import pytest

from mrp.process import forked, worker


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    """Each test starts without a kept worker and ends its own."""
    if worker._WORKER is not None and worker._OWNER == os.getpid():
        worker._WORKER.end()
    worker._WORKER = None
    yield
    if worker._WORKER is not None and worker._OWNER == os.getpid():
        worker._WORKER.end()
    worker._WORKER = None


def test_calls_are_answered_by_one_kept_process() -> None:
    pid, died = worker.call("os:getpid", ())
    assert died is None and isinstance(pid, int) and pid != os.getpid()
    assert worker.call("os:getpid", ()) == (pid, None)
    assert worker.call("math:comb", (10, 3)) == (120, None)


def test_a_call_past_its_deadline_ends_the_process_and_the_next_starts_another() -> None:
    pid, _ = worker.call("os:getpid", ())
    started = time.monotonic()  # a call that would sleep 10 minutes: the bound holds under any load
    assert worker.call("time:sleep", (600,), deadline=time.monotonic() + 0.3) == (None, None)
    assert time.monotonic() - started < 300
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # ended and reaped
    other, died = worker.call("os:getpid", ())
    assert died is None and other != pid


def test_a_stopped_call_ends_the_process() -> None:
    stop = threading.Event()
    threading.Timer(0.3, stop.set).start()
    assert worker.call("time:sleep", (30,), stopped=stop.is_set) == (None, None)
    assert worker._WORKER is not None and worker._WORKER.ended


def test_a_process_dying_on_its_own_is_reported_and_replaced() -> None:
    result, died = worker.call("os:_exit", (3,))
    assert result is None and died == "exit 3"
    pid, died = worker.call("os:getpid", ())
    assert died is None
    assert worker.call("os:kill", (pid, 9)) == (None, "signal 9")


def test_a_call_that_raises_gives_no_result_and_the_process_goes_on() -> None:
    pid, _ = worker.call("os:getpid", ())
    assert worker.call("math:sqrt", (-1,)) == (None, None)
    assert worker.call("os:getpid", ()) == (pid, None)


def test_what_the_work_prints_goes_to_standard_error(capfd: pytest.CaptureFixture[str]) -> None:
    assert worker.call("builtins:print", ("a line from the worker",)) == (None, None)
    out, err = capfd.readouterr()
    assert "a line from the worker" not in out and "a line from the worker" in err


def test_the_workers_cpu_time_counts_before_and_after_it_is_reaped() -> None:
    worker.call("os:getpid", ())  # started (its start-up counted from here on is not the point)
    before = worker.cpu_seconds()
    assert worker.call("math:factorial", (60_000,))[1] is None  # about 0.1 s of CPU there
    during = worker.cpu_seconds() - before
    assert during >= 0.03 and worker.unreaped_cpu() > 0
    kept = worker._WORKER
    assert kept is not None
    kept.close()  # reaped: its CPU now among this process's children, once
    assert worker.unreaped_cpu() == 0
    assert worker.cpu_seconds() - before >= during - 0.02


def test_a_forked_child_runs_each_call_in_a_process_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked, "_FORKED", True)
    first, _ = worker.call("os:getpid", ())
    second, _ = worker.call("os:getpid", ())
    assert first != second and worker._WORKER is None


def test_a_second_thread_gets_a_process_of_its_own_while_the_worker_is_busy(tmp_path: Path) -> None:
    kept_pid, _ = worker.call("os:getpid", ())
    kept = worker._WORKER
    answers = []
    fifo = str(tmp_path / "fifo")
    os.mkfifo(fifo)
    # the busy call: opening a FIFO to read blocks (in the worker) until this test opens it to write
    busy = threading.Thread(target=lambda: answers.append(worker.call("os:open", (fifo, os.O_RDONLY))))
    busy.start()
    deadline = time.monotonic() + 120
    while not worker._LOCK.locked():  # the event: the busy call holds the worker
        assert time.monotonic() < deadline and busy.is_alive()
        time.sleep(0.001)
    pid, died = worker.call("os:getpid", ())
    os.close(os.open(fifo, os.O_WRONLY))  # the busy call may end now
    busy.join()
    assert died is None and kept is not None and kept.pid == kept_pid != pid
    assert len(answers) == 1 and isinstance(answers[0][0], int) and answers[0][1] is None  # a descriptor


def test_closing_reaps_the_worker_so_its_cpu_counts_among_the_children() -> None:
    pid, _ = worker.call("math:factorial", (60_000,))
    children = os.times().children_user
    worker.close()
    assert worker.unreaped_cpu() == 0 and worker._WORKER is not None and worker._WORKER.ended
    assert os.times().children_user >= children
    with pytest.raises(ProcessLookupError):
        os.kill(worker._WORKER.pid, 0)


def _worker_pid() -> int:
    pid, _ = worker.call("os:getpid", ())
    return pid


def _busy_worker() -> int:
    worker.call("builtins:sum", (range(20_000_000),))  # about half a second of CPU there
    return _worker_pid()


def test_a_pools_worker_keeps_one_process_reaped_when_the_pool_ends() -> None:
    """A worker of a pool (mrp-score --jobs N) keeps its process between calls (the HiGHS hand-overs of
    its pairs: a fresh Python each cost about 0.4 s of CPU), and when the pool ends with every task done
    it reaps that process, so the process's CPU time counts in this process's children."""
    pool = forked.fork_pool(1)
    try:
        first = pool.submit(_busy_worker).result(60)
        second = pool.submit(_worker_pid).result(60)
    finally:
        before = os.times()
        forked.stop_pool(pool, finished=True)
    after = os.times()
    assert first == second
    with pytest.raises(ProcessLookupError):
        os.kill(first, 0)
    spent = (after.children_user + after.children_system) - (before.children_user + before.children_system)
    assert spent >= 0.2
