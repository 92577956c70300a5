"""Work done in a fresh Python process (started with exec, not forked): its arguments and its result go
pickled through pipes, its standard output goes to standard error, and it dies with its parent.

For work started while threads run (forking then may leave a lock held in the child; Python 3.12 warns
about it): HiGHS's hand-over (:mod:`mrp.solver.mip`), started from the search's helper thread.  Only this
process's own data crosses the pipes.
"""

from __future__ import annotations

import importlib
import os
import pickle
import select
import signal
import subprocess
import sys
import time
from typing import Any, Callable, Optional

__all__ = ["Spawned"]


class Spawned:
    """``module:function(*args)`` run in a new Python process; :meth:`result` gives what it returned, or
    None when it failed, was killed, or returned nothing that unpickles."""

    def __init__(self, function: str, *args: Any) -> None:
        payload = pickle.dumps((function, args), protocol=pickle.HIGHEST_PROTOCOL)
        self._process = subprocess.Popen([sys.executable, "-m", "mrp.process.spawned"], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, close_fds=True)
        assert self._process.stdin is not None and self._process.stdout is not None
        try:
            self._process.stdin.write(payload)
            self._process.stdin.close()
        except BrokenPipeError:  # it died at once: result() tells
            pass
        self._out = self._process.stdout
        self._data = bytearray()
        self._done = False
        #: how the child ended when it was not killed here: "exit N", "signal N" (None: it returned, or
        #: it was killed here)
        self.died: Optional[str] = None

    def kill(self) -> None:
        """End the child now (its result is then None)."""
        if not self._done:
            self._process.kill()
            self._finish(killed=True)

    def _finish(self, killed: bool = False) -> None:
        self._out.close()
        status = self._process.wait()
        if not killed and status < 0:
            self.died = f"signal {-status}"
        elif not killed and status > 0:
            self.died = f"exit {status}"
        self._done = True

    def result(self, deadline: Optional[float] = None,
               stopped: Optional[Callable[[], bool]] = None) -> Optional[Any]:
        """Wait for the child's result; kill it when ``time.monotonic()`` passes ``deadline`` or
        ``stopped()`` is true, and give None then (or when it failed)."""
        if self._done:
            return None
        descriptor = self._out.fileno()
        while True:
            if (stopped is not None and stopped()) or (deadline is not None and time.monotonic() > deadline):
                self.kill()
                return None
            ready, _, _ = select.select([descriptor], [], [], 0.05)
            if not ready:
                continue
            chunk = os.read(descriptor, 1 << 20)
            if chunk:
                self._data.extend(chunk)
                continue
            self._finish()
            if self.died is not None:
                return None
            try:
                return pickle.loads(bytes(self._data))
            except Exception:  # noqa: BLE001 - an answer that does not unpickle is no answer
                return None


def _main() -> None:  # pragma: no cover - runs in the child process
    from mrp.process.forked import die_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    die_with_parent()
    if os.getppid() == 1:  # the parent ended before this process could ask to die with it
        os._exit(1)
    payload = sys.stdin.buffer.read()
    answer = os.dup(1)
    os.dup2(2, 1)  # what the work (or a library it calls) prints goes to standard error
    sys.stdout = sys.stderr
    function, args = pickle.loads(payload)
    module, name = function.split(":")
    work = getattr(importlib.import_module(module), name)
    data = pickle.dumps(work(*args), protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(data)
    while view:
        view = view[os.write(answer, view):]
    os.close(answer)


if __name__ == "__main__":  # pragma: no cover
    _main()
