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
import signal
import subprocess
import sys
from typing import Any, Optional

from mrp.process.forked import Child

__all__ = ["Spawned"]


class Spawned(Child):
    """``module:function(*args)`` run in a new Python process; :meth:`result` gives what it returned, or
    None when it failed, was killed, or returned nothing that unpickles (as for a forked :class:`Child`)."""

    def __init__(self, function: str, *args: Any) -> None:  # noqa: D107 - the class says it
        payload = pickle.dumps((function, args), protocol=pickle.HIGHEST_PROTOCOL)
        self._process = subprocess.Popen([sys.executable, "-m", "mrp.process.spawned"], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, bufsize=0, close_fds=True)
        assert self._process.stdin is not None and self._process.stdout is not None
        try:
            self._process.stdin.write(payload)
            self._process.stdin.close()
        except BrokenPipeError:  # it died at once: result() tells
            pass
        self.pid = self._process.pid
        self._pipe = self._process.stdout  # type: ignore[assignment]  # unbuffered: reads return what is there
        self._data = bytearray()
        self._done = False
        self.died: Optional[str] = None

    def _finish(self, killed: bool = False) -> None:
        super()._finish(killed)
        self._process.returncode = self._process.returncode or 0  # reaped here, not by subprocess


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
