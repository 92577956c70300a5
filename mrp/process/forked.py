"""Work done in a forked child process: its result comes back pickled through a pipe, and the child
dies with its parent.

Used to read a file while the parent does other work (:mod:`mrp.corpora.ahead`) and to run HiGHS where it can
be killed at a time limit (:mod:`mrp.solver.mip`).
"""

from __future__ import annotations

import gc
import os
import pickle
import select
import signal
import sys
import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Optional

__all__ = ["Child", "at_pool_worker_exit", "available_cpus", "can_fork", "child_start", "die_with_parent",
           "is_forked_child", "is_pool_worker", "fork_pool", "freeze_heap", "keep_stdout", "pool_start",
           "silenced_stdout", "stop_pool"]


def die_with_parent() -> None:
    """Ask Linux to end this process when its parent ends (a killed command leaves no child behind)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the parent's shutdown still stops them
        pass


def keep_stdout() -> None:
    """In a child process: whatever it writes to standard output goes to standard error instead.

    Standard output carries the parent's report; a child (or a library it calls, such as HiGHS, which
    prints a banner from C) must not write there.  Redirected at the file-descriptor level, so that C
    code and inherited Python streams are covered alike.
    """
    try:
        sys.stdout.flush()
    except (OSError, ValueError, AttributeError):
        pass
    try:
        os.dup2(2, 1)
    except OSError:  # no standard error to share: nowhere at all
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    sys.stdout = sys.stderr


@contextmanager
def silenced_stdout() -> Iterator[None]:
    """Standard output, at the file-descriptor level, sent nowhere meanwhile (a library's banner printed
    from C, such as HiGHS's "Running HiGHS ..." when a solver object is made)."""
    try:
        sys.stdout.flush()
        saved = os.dup(1)
    except (OSError, ValueError, AttributeError):
        yield
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)


_FORKED = False
_POOLED = False


def is_forked_child() -> bool:
    """Whether this process is a child mrp forked (a pool's worker, a read-ahead, a HiGHS run)."""
    return _FORKED


def is_pool_worker() -> bool:
    """Whether this process is a worker of a pool of :func:`fork_pool` (it ends through multiprocessing's
    exit, which runs :func:`at_pool_worker_exit`'s callbacks, when its pool ends with every task done)."""
    return _POOLED


def child_start() -> None:
    """What every child mrp forks does first: leave Ctrl-C to the parent, die with it, and keep off its
    standard output."""
    global _FORKED
    _FORKED = True
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    die_with_parent()
    keep_stdout()


def pool_start() -> None:
    """What a worker of :func:`fork_pool` does first: :func:`child_start`, and knowing itself a pool's."""
    global _POOLED
    child_start()
    _POOLED = True


def at_pool_worker_exit(callback: Callable[[], Any]) -> None:
    """Run ``callback`` when this pool worker ends normally (its pool shut down with every task done, see
    :func:`stop_pool`); not when it is killed."""
    from multiprocessing import util

    util.Finalize(None, callback, exitpriority=10)


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity where the platform has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # no affinity on this platform
        return os.cpu_count() or 1


def can_fork() -> bool:
    """Whether a child can be forked safely: the platform forks, and this process runs no other
    thread (a thread holding a lock at the fork would leave it held in the child)."""
    return hasattr(os, "fork") and threading.active_count() == 1


class Child:
    """``work()`` run in a forked process; :meth:`result` gives what it returned (pickled through a
    pipe), or None when the child failed, was killed, or returned nothing that unpickles."""

    def __init__(self, work: Callable[[], Any]) -> None:
        for stream in (sys.stdout, sys.stderr):  # nothing buffered is written twice
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        readable, writable = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child (its coverage is not collected)
            code = 1
            try:
                os.close(readable)
                child_start()
                payload = pickle.dumps(work(), protocol=pickle.HIGHEST_PROTOCOL)
                with os.fdopen(writable, "wb") as out:
                    out.write(payload)
                code = 0
            except BaseException:  # noqa: BLE001 - the parent sees no result and decides
                pass
            finally:
                os._exit(code)
        os.close(writable)
        self.pid = pid
        self._pipe = os.fdopen(readable, "rb", buffering=0)
        self._data = bytearray()
        self._done = False
        #: how the child ended when it was not killed here: "exit N", "signal N" (None: it returned, or
        #: it was killed here)
        self.died: Optional[str] = None

    def kill(self) -> None:
        """End the child now (its result is then None)."""
        if not self._done:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self._finish(killed=True)

    def _finish(self, killed: bool = False) -> None:
        self._pipe.close()
        try:
            _, status = os.waitpid(self.pid, 0)
        except ChildProcessError:
            status = 0
        if not killed and os.WIFSIGNALED(status):
            self.died = f"signal {os.WTERMSIG(status)}"
        elif not killed and os.WIFEXITED(status) and os.WEXITSTATUS(status):
            self.died = f"exit {os.WEXITSTATUS(status)}"
        self._done = True

    def result(self, deadline: Optional[float] = None,
               stopped: Optional[Callable[[], bool]] = None) -> Optional[Any]:
        """Wait for the child's result; kill it when ``time.monotonic()`` passes ``deadline`` or
        ``stopped()`` is true, and give None then (or when it failed)."""
        if self._done:
            return None
        polled = deadline is not None or stopped is not None
        while True:
            if polled and ((stopped is not None and stopped())
                           or (deadline is not None and time.monotonic() > deadline)):
                self.kill()
                return None
            if polled and not select.select([self._pipe], [], [], 0.05)[0]:
                continue
            chunk = self._pipe.read(1 << 20)
            if not chunk:
                break
            self._data += chunk
        self._finish()
        if not self._data:
            return None
        try:
            return pickle.loads(bytes(self._data))
        except Exception:  # noqa: BLE001 - a truncated or foreign payload: no result
            return None


def freeze_heap() -> None:
    """Freeze the heap as it stands before workers are forked (after collecting the young generations; a
    full collection costs tens of milliseconds each time): their collectors then leave the inherited objects,
    and their pages, alone.  ``gc.unfreeze()`` when the workers are gone."""
    gc.collect(1)
    gc.freeze()


def fork_pool(jobs: int) -> Any:
    """A ``concurrent.futures.ProcessPoolExecutor`` of ``jobs`` forked workers, each started as every child
    mrp forks is (:func:`child_start`); the pool's modules are imported only here."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork"), initializer=pool_start)


#: How long :func:`stop_pool` lets the workers of a finished pool end on their own, seconds.
POOL_END = 2.0


def stop_pool(pool: Any, finished: bool = False) -> None:
    """End a process pool (a ``concurrent.futures.ProcessPoolExecutor``), cancelling what waits and killing
    its workers, and reap the workers, so that their CPU time counts in this process's children and none
    outlives it (about 0.01 s).

    Args:
        pool: the pool.
        finished: every task given to the pool is done: the workers are first let end on their own (up to
            :data:`POOL_END` seconds), which ends and reaps their kept processes (:mod:`mrp.process.worker`),
            so that those processes' CPU time counts too.
    """
    workers = getattr(pool, "_processes", None) or {}
    processes = list(workers.values())
    pool.shutdown(wait=False, cancel_futures=True)
    if finished:
        ending = time.monotonic() + POOL_END
        for process in processes:
            process.join(max(0.0, ending - time.monotonic()))
    for process in processes:
        if process.is_alive():
            process.kill()
    for process in processes:
        process.join(5)
