"""A Python process kept for calls handed over again and again (HiGHS's programs): started once with exec
(as :class:`~mrp.process.spawned.Spawned`, so it can be started while threads run), given one call at a
time through pipes, killed when a call's deadline passes or the call is stopped (the next call starts a
new one), and ended with its parent.

Starting a Python process that loads HiGHS costs about a fifth of a second of CPU; a kept one costs that
once per process instead of once per call.  Its CPU time is reported with every answer, so that the run
that used it counts it (:func:`unreaped_cpu`) before it is reaped (when this process exits, or when it is
killed), after which it counts among this process's children.
"""

from __future__ import annotations

import atexit
import importlib
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import threading
import time
from typing import Any, Callable, Optional, Tuple

from mrp.process.forked import at_pool_worker_exit, is_forked_child, is_pool_worker
from mrp.process.spawned import Spawned

__all__ = ["Worker", "call", "close", "cpu_seconds", "unreaped_cpu"]

_HEADER = struct.Struct("<Q")
#: How often the worker looks whether its parent is gone, seconds.
_ORPHAN_CHECK = 0.5


class Worker:
    """One kept process; :meth:`call` runs ``module:function(*args)`` there."""

    def __init__(self) -> None:
        self._process = subprocess.Popen([sys.executable, "-m", "mrp.process.worker"], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, bufsize=0, close_fds=True)
        assert self._process.stdin is not None and self._process.stdout is not None
        self._in = self._process.stdin
        self._out = self._process.stdout
        self.pid = self._process.pid
        #: its CPU seconds as it last reported them
        self.cpu = 0.0
        self.ended = False

    def alive(self) -> bool:
        """Whether it runs (and can take a call)."""
        return not self.ended and self._process.poll() is None

    def call(self, function: str, args: Tuple[Any, ...], deadline: Optional[float] = None,
             stopped: Optional[Callable[[], bool]] = None) -> Tuple[Optional[Any], Optional[str]]:
        """``function(*args)`` in the worker: (its result, None); (None, None) when it was stopped or its
        ``deadline`` (``time.monotonic()``) passed, or the call raised; (None, how it died) when the
        process died on its own.  A worker stopped or dead is ended: make a new one."""
        payload = pickle.dumps((function, args), protocol=pickle.HIGHEST_PROTOCOL)
        try:
            return self._exchange(payload, deadline, stopped)
        except BaseException:  # interrupted (Ctrl-C, a pair's guard: mrp.engine.limits) with a call in
            self.end()  # flight: its answer would be read as the next call's
            raise

    def _exchange(self, payload: bytes, deadline: Optional[float],
                  stopped: Optional[Callable[[], bool]]) -> Tuple[Optional[Any], Optional[str]]:
        """:meth:`call`'s request and answer."""
        try:
            self._in.write(_HEADER.pack(len(payload)) + payload)
        except (BrokenPipeError, OSError):
            return None, self._reap(killed=False)
        data = bytearray()
        wanted = _HEADER.size
        length: Optional[int] = None
        while True:
            if (stopped is not None and stopped()) or (deadline is not None and time.monotonic() > deadline):
                self.end()
                return None, None
            if not select.select([self._out], [], [], 0.05)[0]:
                continue
            chunk = self._out.read(max(1, wanted - len(data)))
            if not chunk:
                return None, self._reap(killed=False)
            data += chunk
            if len(data) < wanted:
                continue
            if length is None:
                (length,) = _HEADER.unpack(bytes(data))
                data.clear()
                wanted = length
                if length:
                    continue
            break
        try:
            ok, result, self.cpu = pickle.loads(bytes(data))
        except Exception:  # noqa: BLE001 - a foreign answer: the worker cannot be trusted further
            self.end()
            return None, None
        return (result if ok else None), None

    def end(self) -> None:
        """Kill it now and reap it (its CPU then counts among this process's children)."""
        if not self.ended:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self._reap(killed=True)

    def close(self) -> None:
        """Let it finish (its input closed) and reap it."""
        if not self.ended:
            try:
                self._in.close()
                self._process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                pass
            self.end()

    def _reap(self, killed: bool) -> Optional[str]:
        """Reap the process: how it died on its own ("signal N", "exit N"), or None."""
        for stream in (self._in, self._out):
            try:
                stream.close()
            except OSError:
                pass
        status = self._process.wait()
        self.ended = True
        self.cpu = 0.0
        if killed:
            return None
        if status < 0:
            return f"signal {-status}"
        return f"exit {status}" if status else "exit 0"


_LOCK = threading.Lock()
_WORKER: Optional[Worker] = None
_OWNER = -1


def _kept() -> Worker:
    """This process's worker, started when there is none (a forked process starts its own; a pool's
    worker closes its own when it ends)."""
    global _WORKER, _OWNER
    if _WORKER is None or _OWNER != os.getpid() or not _WORKER.alive():
        if _WORKER is not None and _OWNER == os.getpid():
            _WORKER.end()
        elif is_pool_worker() and _OWNER != os.getpid():  # this process's first: closed at its end
            at_pool_worker_exit(close)
        _WORKER = Worker()
        _OWNER = os.getpid()
    return _WORKER


def call(function: str, args: Tuple[Any, ...], deadline: Optional[float] = None,
         stopped: Optional[Callable[[], bool]] = None) -> Tuple[Optional[Any], Optional[str]]:
    """``module:function(*args)`` in this process's kept worker (see :meth:`Worker.call`); in a process of
    its own (:class:`~mrp.process.spawned.Spawned`) when another thread is using it, or when this process
    is a child mrp forked other than a pool's worker (a read-ahead, a HiGHS run: it ends with ``os._exit``,
    and its own children must have ended by then for their CPU time to count; a pool's worker closes its
    kept worker when its pool ends, :func:`~mrp.process.forked.stop_pool`)."""
    if (is_forked_child() and not is_pool_worker()) or not _LOCK.acquire(blocking=False):
        child = Spawned(function, *args)
        return child.result(deadline, stopped), child.died
    try:
        worker = _kept()
        return worker.call(function, args, deadline, stopped)
    finally:
        _LOCK.release()


def unreaped_cpu() -> float:
    """CPU seconds of this process's live worker as last reported (not yet among its children's)."""
    worker = _WORKER
    return worker.cpu if worker is not None and _OWNER == os.getpid() and not worker.ended else 0.0


def cpu_seconds() -> float:
    """CPU seconds of this process, of its children reaped, and of its kept worker as last reported (the
    difference of two readings is the CPU time used between them, a worker reaped meanwhile included)."""
    children = os.times()
    return time.process_time() + children.children_user + children.children_system + unreaped_cpu()


@atexit.register
def close() -> None:
    """End this process's kept worker and reap it (its CPU then counts among this process's children): at
    exit, and before a command ends with ``os._exit`` (which skips ``atexit``)."""
    if _WORKER is not None and _OWNER == os.getpid():
        _WORKER.close()


def _watch_parent(parent: int) -> None:  # pragma: no cover - runs in the worker
    while True:
        time.sleep(_ORPHAN_CHECK)
        if os.getppid() != parent:
            os._exit(1)


def _read(stream: Any, size: int) -> Optional[bytes]:  # pragma: no cover - runs in the worker
    data = bytearray()
    while len(data) < size:
        chunk = stream.read(size - len(data))
        if not chunk:
            return None
        data += chunk
    return bytes(data)


def _main() -> None:  # pragma: no cover - runs in the worker
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    parent = os.getppid()
    if parent == 1:
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    answer = os.dup(1)
    os.dup2(2, 1)  # what the work (or a library it calls) prints goes to standard error
    sys.stdout = sys.stderr
    source = sys.stdin.buffer
    while True:
        header = _read(source, _HEADER.size)
        if header is None:
            return
        payload = _read(source, _HEADER.unpack(header)[0])
        if payload is None:
            return
        try:
            function, args = pickle.loads(payload)
            module, name = function.split(":")
            result: Any = getattr(importlib.import_module(module), name)(*args)
            ok = True
        except Exception:  # noqa: BLE001 - the caller sees no result and decides
            result, ok = None, False
        data = pickle.dumps((ok, result, time.process_time()), protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(_HEADER.pack(len(data)) + data)
        while view:
            view = view[os.write(answer, view):]


if __name__ == "__main__":  # pragma: no cover
    _main()
