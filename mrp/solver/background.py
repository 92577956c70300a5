"""The compiler process: fills numba's cache with the solver's kernels while the run that started it scores.

One such process runs at a time for a cache (any number of mrp processes may
wait for it): it holds an exclusive lock on a file named after the cache, the
solver's sources and the interpreter, and writes how far it is to a status file
beside it.  It outlives the run that started it, so that a run shorter than
compiling still leaves the kernels compiled for the next one; Ctrl-C in the
terminal stops it with the run (it is in the same process group).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable, Dict, List, Optional

try:
    import fcntl
except ImportError:  # not on Windows: there the kernels are compiled in the run itself
    fcntl = None  # type: ignore[assignment]

__all__ = ["available", "finished", "lock_path", "start", "status", "wait"]


#: the compiler processes this run started, kept: they outlive it on purpose, and a process object dropped
#: while its process runs gives a ResourceWarning ("subprocess N is still running") that a caller recording
#: warnings (the task kit's notes) would report
_STARTED: List[subprocess.Popen[bytes]] = []


def available() -> bool:
    """Whether a compiler process can be started here (a POSIX system with a known interpreter, and not
    switched off by ``MRP_COMPILE=here``)."""
    return fcntl is not None and bool(sys.executable) and os.environ.get("MRP_COMPILE", "") != "here"


def _cache_dir() -> str:
    """numba's cache directory as configured now (mrp's private one where numba's was unwritable), or ""
    for numba's default (beside the sources)."""
    import numba

    return str(getattr(numba.config, "CACHE_DIR", "") or "")


def lock_path() -> str:
    """The lock file of the compiler process of this cache, sources and interpreter."""
    import numba

    from mrp.compiled import sources_digest

    key = hashlib.sha256(repr((_cache_dir(), sys.executable, numba.__version__)).encode()
                         + sources_digest(os.path.dirname(os.path.abspath(__file__)))).hexdigest()[:16]
    uid = os.getuid() if hasattr(os, "getuid") else "user"
    return os.path.join(tempfile.gettempdir(), f"mrp-compile-{uid}-{key}.lock")


def _held(path: str) -> bool:
    """Whether a compiler process holds the lock ``path`` now."""
    try:
        handle = os.open(path, os.O_RDWR)
    except OSError:
        return False
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(handle)
    return False


def finished() -> bool:
    """Whether no compiler process is running for this cache (it ended, or never started)."""
    return not _held(lock_path())


def start() -> bool:
    """Start the compiler process unless one runs already; False when it cannot be started here."""
    if not available():
        return False
    path = lock_path()
    try:
        handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        return False
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return True  # another run's compiler fills this cache: wait for it
        import mrp

        environment = dict(os.environ, NUMBA_CACHE_DIR=_cache_dir()) if _cache_dir() else dict(os.environ)
        root = os.path.dirname(os.path.dirname(os.path.abspath(mrp.__file__)))
        environment["PYTHONPATH"] = os.pathsep.join(filter(None, [root, environment.get("PYTHONPATH")]))
        code = ("from mrp.solver.background import main; from mrp.solver.warmup import compile_all; "
                f"main({handle}, {path!r}, compile_all)")
        try:
            quiet = subprocess.DEVNULL
            _STARTED.append(subprocess.Popen([sys.executable, "-c", code], stdin=quiet, stdout=quiet,
                                             stderr=quiet, pass_fds=(handle,), env=environment,
                                             close_fds=True))
        except (OSError, ValueError):  # no such interpreter, too many processes, ...: compiled in the run
            return False
        return True
    finally:
        os.close(handle)  # the child's copy holds the lock from now on


def status() -> Optional[Dict[str, Any]]:
    """What the compiler process says it has done (``done``, ``total``, ``kernel``, ``seconds``), or None."""
    try:
        with open(lock_path() + ".json", encoding="utf-8") as stream:
            found = json.load(stream)
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def wait(tick: Optional[Any] = None, every: float = 0.5) -> None:
    """Wait until no compiler process runs for this cache; ``tick()`` is called every ``every`` seconds."""
    path = lock_path()
    while _held(path):
        if tick is not None:
            tick()
        time.sleep(every)


def main(handle: int, path: str, compile_all: Callable[..., None]) -> None:
    """The compiler process: compile every kernel into the cache, saying how far it is, then release the
    lock (``handle``: the lock file, already locked by the run that started this process; ``compile_all``:
    :func:`mrp.solver.warmup.compile_all`, given by the process's command, which warmup starts)."""
    from mrp.io.write import write_text

    began = time.monotonic()
    now: Dict[str, Any] = {"done": 0, "total": 0, "kernel": "", "functions": 0, "pid": os.getpid()}

    def write() -> None:
        now["seconds"] = round(time.monotonic() - began, 1)
        try:
            write_text(path + ".json", json.dumps(now))
        except Exception:  # noqa: BLE001 - the status is a courtesy; compiling goes on without it
            pass

    write()  # at once: who holds the lock
    from numba.core import event

    class Count(event.Listener):  # type: ignore[misc]  # numba is untyped
        def on_start(self, ev: Any) -> None:
            function = getattr(ev.data.get("dispatcher"), "py_func", None)
            if function is not None and function.__module__.startswith("mrp."):
                now["functions"] += 1
                now["function"] = f"{function.__module__.rsplit('.', 1)[-1]}.{function.__name__}"
                write()

        def on_end(self, ev: Any) -> None:
            pass

    def say(done: int, total: int, kernel: str) -> None:
        now.update(done=done, total=total, kernel=kernel)
        write()

    event.register("numba:compile", Count())
    try:
        compile_all(say)
    finally:
        os.close(handle)
