"""Shared fixtures: where ../shared is, and running the command-line tools."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List, NamedTuple, Optional

import pytest
from hypothesis import settings

from mrp.codecs.mrp import encode
from mrp.graph import Graph
from mrp.io.source import Line

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


def shared_path() -> Path:
    """../shared, or skip (fail under CI=true) when it is absent."""
    if not (SHARED / "README.md").exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{SHARED} is missing, and CI=true requires it for the conformance tests")
        pytest.skip(f"{SHARED} is absent: conformance tests need the shared reference data")
    return SHARED


def shared_file(*parts: str) -> Path:
    """A file under ../shared; skip when absent (fail under CI=true)."""
    return shared_path().joinpath(*parts)


def timeless(value: Any) -> Any:
    """A result (JSON value) without its clock readings ("time", "cpu"), at every depth."""
    if isinstance(value, dict):
        return {k: timeless(v) for k, v in value.items() if k not in ("time", "cpu")}
    return [timeless(v) for v in value] if isinstance(value, list) else value


def canonical(graph: Any) -> Dict[str, Any]:
    """The MRP JSON of a graph without time/version, with edges as a sorted list."""
    obj = encode(graph) if isinstance(graph, Graph) else dict(graph)
    for key in ("time", "version"):
        obj.pop(key, None)
    obj["edges"] = sorted(json.dumps(edge, sort_keys=True) for edge in obj.get("edges", []))
    return obj


def lines(text: str) -> List[Line]:
    """Numbered lines of a string, as a reader receives them."""
    return [Line(k, t) for k, t in enumerate(text.split("\n"), start=1)]


#: ``pytest -n auto`` (``make test``) runs at most this many worker processes
MOST_WORKERS = 4


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: Any) -> int:
    """One worker per CPU this process may run on (its affinity, as ``taskset`` or a container sets it;
    xdist's own count is of physical cores, one on a machine of two hyperthreads), at most MOST_WORKERS."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(MOST_WORKERS, cpus))


#: ``MRP_FUZZ=k`` (``make fuzz``) runs the hypothesis tests 20 k times longer, randomized
FUZZ = int(os.environ.get("MRP_FUZZ", "0") or 0)


def budget(examples: int) -> settings:
    """Hypothesis settings: deterministic and small by default; ``MRP_FUZZ=k`` multiplies the examples by 20 k
    and randomizes.

    Every health check is on.  The one relaxation is ``deadline=None``: a first example may compile the
    solver's kernels (seconds), and CI machines vary in speed; timing belongs in ``make bench``.
    """
    return settings(
        max_examples=examples * 20 * FUZZ if FUZZ > 0 else examples,
        derandomize=FUZZ <= 0,
        database=None,
        deadline=None,
    )


@pytest.fixture
def shared() -> Path:
    """The shared reference data folder."""
    return shared_path()


class Run(NamedTuple):
    code: int
    out: str
    err: str


def cpu_seconds() -> float:
    """CPU seconds spent so far by this process (every thread) and the children it has waited for: what a
    test that something "ends in time" compares, as the machine's load stretches wall time but not this
    (speed itself is measured in ``make bench``, never here)."""
    import resource

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def run_cli(tool: str, args: List[str], stdin: Optional[bytes] = None) -> Run:
    """Run `python -m mrp.cli.<tool>` in a subprocess."""
    proc = subprocess.run(
        [sys.executable, "-m", f"mrp.cli.{tool}", *args],
        input=stdin, capture_output=True, cwd=ROOT, timeout=600,
    )
    out, err = (stream.decode("utf-8", "replace") for stream in (proc.stdout, proc.stderr))
    return Run(proc.returncode, out, err)


@pytest.fixture
def dead_highs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every HiGHS process dies on its own, as the out-of-memory killer would kill it (skips where HiGHS
    does not run in a child process)."""
    import signal

    from mrp.process import worker
    from mrp.solver import mip

    if not hasattr(os, "fork"):
        pytest.skip("HiGHS runs in a child process only where processes fork")

    def killed(*args: Any) -> Any:  # runs in the child
        os.kill(os.getpid(), signal.SIGKILL)

    def doomed() -> Any:  # the kept HiGHS process (used while threads run), killed from outside
        kept = worker.Worker()
        os.kill(kept.pid, signal.SIGKILL)
        return kept

    monkeypatch.setattr(mip, "_run", killed)
    monkeypatch.setattr(worker, "_kept", doomed)


@pytest.fixture(params=["scanned", "unscanned"])
def scanning(request: pytest.FixtureRequest) -> Iterator[str]:
    """The compiled Penman scan ready, or not (as before the warm-up), restored afterwards."""
    from mrp.codecs.penman import scan as penman_scan
    from mrp.codecs.penman.scanner import warm_scan

    saved = list(penman_scan._SCAN)
    warm_scan()
    if request.param == "unscanned":
        penman_scan.use(None)
    try:
        yield request.param
    finally:
        penman_scan._SCAN[:] = saved


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The fuzzing figures (tests/fuzzing.py): files tried and failures per door, when doors were fuzzed in
    this process (``make fuzz``; under ``-n`` each worker keeps its own)."""
    fuzzing = sys.modules.get("fuzzing")
    figures = getattr(fuzzing, "FIGURES", None)
    if not figures:
        return
    mode = f"MRP_FUZZ={fuzzing.FUZZ}" if fuzzing.FUZZ else "short run"  # type: ignore[union-attr]
    terminalreporter.write_sep("-", f"fuzzing ({mode}): files tried and failures per door")
    for door, (tried, failed) in sorted(figures.items()):
        terminalreporter.write_line(f"{door:<28} {tried:>7} tried {failed:>5} failed")


class FileOpens:
    """The kernel's word (inotify) that a file was opened, by any process: watch the files before the
    process starts, then :meth:`wait` for the first open.  No polling, so an open that lasts a few
    milliseconds is not missed (as a look at /proc/PID/fd between sleeps can miss it)."""

    IN_OPEN = 0x20

    def __init__(self, paths: List[str]) -> None:
        import ctypes

        if not sys.platform.startswith("linux"):
            pytest.skip("needs Linux inotify to see a file opened")
        self._libc = ctypes.CDLL(None, use_errno=True)
        self.paths = paths
        self.fd = self._libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if self.fd < 0:
            pytest.skip(f"inotify is not available here ({os.strerror(ctypes.get_errno())})")
        for path in paths:
            if self._libc.inotify_add_watch(self.fd, os.fsencode(path), self.IN_OPEN) < 0:
                os.close(self.fd)
                pytest.skip(f"inotify cannot watch {path} ({os.strerror(ctypes.get_errno())})")

    def wait(self, proc: subprocess.Popen[Any], seconds: float = 300.0, opens: int = 1) -> None:
        """Return once the files have been opened ``opens`` times in all; fail when ``proc`` ends first or
        after ``seconds`` (a loaded machine may take long to start Python)."""
        import select
        import struct

        seen = 0
        try:
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                ready, _, _ = select.select([self.fd], [], [], 0.1)
                if ready:
                    data, at = os.read(self.fd, 65536), 0
                    while at + 16 <= len(data):  # struct inotify_event: wd, mask, cookie, len, name
                        seen += 1
                        at += 16 + struct.unpack_from("iIII", data, at)[3]
                    if seen >= opens:
                        return
                if proc.poll() is not None:
                    pytest.fail(f"process {proc.pid} ended before opening {', '.join(sorted(self.paths))} "
                                f"{opens} times ({seen})")
            pytest.fail(f"process {proc.pid} did not open {', '.join(sorted(self.paths))} {opens} times "
                        f"within {seconds:.0f} s ({seen})")
        finally:
            os.close(self.fd)


