"""A fresh Python process kept for one piece of work after another: started once (an interpreter and
its libraries cost about a fifth of a second of CPU to start), killed when a piece of work runs past its
deadline or is stopped, and started again by the next one.

For HiGHS's hand-over (:mod:`mrp.solver.mip`) while threads run (forking is then unsafe, and the pair's
watchdog thread always runs under a time cap): the small programs of merged documents take HiGHS a
tenth of a second, the start of a process twice that.  Requests and answers go pickled through pipes,
each behind its length; the process dies with its parent, or when its standard input closes.
"""

from __future__ import annotations

import atexit
import importlib
import os
import pickle
import select
import signal
import subprocess
import sys
import time
from typing import Any, Callable, List, Optional, Tuple

__all__ = ["Server", "close_all"]

_HEAD = 8
#: The processes started here and not yet ended: :func:`close_all` ends and reaps them, so that their CPU
#: time is counted as this process's children's (a process never reaped is not).
_LIVE: List[Server] = []
_FINALIZED = [-1]  # the process whose multiprocessing exit closes its servers


def close_all() -> None:
    """End every kept process (its standard input closed: it returns), and reap it."""
    for server in list(_LIVE):
        if server.owner == os.getpid():  # a forked child leaves its parent's alone
            server.close()


atexit.register(close_all)


class Server:
    """A process that runs ``module:function(*args)`` requests one at a time (:meth:`call`)."""

    def __init__(self) -> None:  # noqa: D107 - the class says it
        self._process: Optional[subprocess.Popen] = subprocess.Popen(
            [sys.executable, "-m", "mrp.process.server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            bufsize=0, close_fds=True)
        self.pid = self._process.pid
        self.owner = os.getpid()
        _LIVE.append(self)
        if "multiprocessing" in sys.modules and _FINALIZED[0] != os.getpid():
            # a worker of a process pool ends with os._exit, after multiprocessing's finalizers, not atexit
            import multiprocessing.util

            multiprocessing.util.Finalize(None, close_all, exitpriority=0)
            _FINALIZED[0] = os.getpid()

    @property
    def alive(self) -> bool:
        """Whether the process can take more work (not killed, not ended: it dies with the thread that
        started it, as a fresh process of :mod:`mrp.process.spawned` does)."""
        if self._process is not None and self._process.poll() is not None:
            self._end()
        return self._process is not None

    def kill(self) -> None:
        """End the process now."""
        if self._process is not None:
            if self._process.poll() is None:
                try:
                    self._process.kill()
                except ProcessLookupError:
                    pass
            self._end()

    def close(self) -> None:
        """End the process between calls: its standard input closed, it returns (killed after a second)."""
        process = self._process
        if process is not None and process.stdin is not None:
            try:
                process.stdin.close()
                process.wait(1.0)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()

    def _end(self) -> Optional[str]:
        """Reap the process; how it ended ("exit N", "signal N") unless it exited cleanly."""
        process, self._process = self._process, None
        if self in _LIVE:
            _LIVE.remove(self)
        if process is None:
            return None
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
        code = process.wait()
        return f"signal {-code}" if code < 0 else (f"exit {code}" if code else None)

    def call(self, function: str, args: Tuple[Any, ...], deadline: Optional[float] = None,
             stopped: Optional[Callable[[], bool]] = None) -> Tuple[Optional[Any], Optional[str]]:
        """``function(*args)`` in the process: (its result, None), or (None, None) when it was killed here
        (``time.monotonic()`` past ``deadline``, or ``stopped()`` true), or (None, how it died) when it
        died on its own (the process is then gone)."""
        process = self._process
        if process is None or process.stdin is None or process.stdout is None:
            return None, "no process"
        payload = pickle.dumps((function, args), protocol=pickle.HIGHEST_PROTOCOL)
        try:
            process.stdin.write(len(payload).to_bytes(_HEAD, "little") + payload)
        except (BrokenPipeError, OSError):
            return None, self._end() or "exit 0"
        data = bytearray()
        size = -1
        pipe = process.stdout
        while size < 0 or len(data) < _HEAD + size:
            if (stopped is not None and stopped()) or (deadline is not None and time.monotonic() > deadline):
                self.kill()
                return None, None
            if not select.select([pipe], [], [], 0.05)[0]:
                continue
            chunk = pipe.read(1 << 20)
            if not chunk:
                return None, self._end() or "exit 0"
            data += chunk
            if size < 0 and len(data) >= _HEAD:
                size = int.from_bytes(data[:_HEAD], "little")
        try:
            return pickle.loads(bytes(data[_HEAD:])), None
        except Exception:  # noqa: BLE001 - a foreign payload: the process is not to be trusted further
            self.kill()
            return None, None


def _read(stream: Any, size: int) -> bytes:
    data = bytearray()
    while len(data) < size:
        chunk = stream.read(size - len(data))
        if not chunk:
            break
        data += chunk
    return bytes(data)


def _main() -> None:  # pragma: no cover - runs in the child process
    from mrp.process.forked import die_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    die_with_parent()
    if os.getppid() == 1:  # the parent ended before this process could ask to die with it
        os._exit(1)
    answer = os.dup(1)
    os.dup2(2, 1)  # what the work (or a library it calls) prints goes to standard error
    sys.stdout = sys.stderr
    requests = sys.stdin.buffer
    while True:
        head = _read(requests, _HEAD)
        if len(head) < _HEAD:  # the parent closed the pipe (or ended)
            return
        function, args = pickle.loads(_read(requests, int.from_bytes(head, "little")))
        module, name = function.split(":")
        data = pickle.dumps(getattr(importlib.import_module(module), name)(*args),
                            protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(len(data).to_bytes(_HEAD, "little") + data)
        while view:
            view = view[os.write(answer, view):]


if __name__ == "__main__":  # pragma: no cover
    _main()
