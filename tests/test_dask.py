"""Blocks as Dask tasks: a real LocalCluster of two worker processes (on 127.0.0.1, started here) gives
the same arrays, bit for bit, as the local run; its comms speak TLS with a per-run certificate, and a
process without it is refused."""

from __future__ import annotations

import os
import ssl
import time
from pathlib import Path
from typing import List, Set

import numpy as np
import pytest
from test_similarity import coli, random_graphs

import mrp

distributed = pytest.importorskip("dask.distributed", reason="dask is not installed (pip install "
                                  "'mrp-graphs[dask]'; make test installs it)")


@pytest.fixture(scope="module")
def client():
    from mrp.allpairs.cluster import close, connect

    made = connect("local", 2)  # what --scheduler local starts
    yield made
    close(made)


def test_a_local_cluster_gives_the_local_numbers(client) -> None:
    graphs = coli(24)
    local = mrp.similarity(graphs, metric="smatch")
    remote = mrp.similarity(graphs, metric="smatch", client=client, block_size=17)
    for name in ("f", "g", "s", "c", "bound", "exact"):
        assert np.array_equal(getattr(local, name), getattr(remote, name)), name
    assert len(client.scheduler_info()["workers"]) == 2
    top = mrp.similarity(graphs, metric="smatch", top_k=3, client=client, block_size=11)
    assert np.array_equal(top.neighbours, mrp.similarity(graphs, metric="smatch", top_k=3).neighbours)


def test_ensemble_on_the_cluster(client) -> None:
    systems = [random_graphs(seed, 8) for seed in (41, 42, 43)]
    assert mrp.ensemble(systems, client=client).chosen == mrp.ensemble(systems).chosen


def _listening(pids: Set[int]) -> List[str]:
    """The local addresses of the TCP sockets that the processes listen on (from /proc)."""
    inodes = set()
    for pid in pids:
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
                if link.startswith("socket:["):
                    inodes.add(link[8:-1])
        except OSError:
            pass
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table, encoding="ascii") as stream:
            for line in stream.readlines()[1:]:
                fields = line.split()
                if fields[3] == "0A" and fields[9] in inodes:  # LISTEN
                    found.append(fields[1])
    return found


def _tree() -> Set[int]:
    pids, todo = set(), [os.getpid()]
    while todo:
        pid = todo.pop()
        pids.add(pid)
        for task in Path(f"/proc/{pid}/task").iterdir():
            try:
                todo.extend(int(child) for child in (task / "children").read_text().split())
            except OSError:
                pass
    return pids


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux /proc to list sockets")
def test_the_cluster_listens_on_localhost_only(client) -> None:
    assert client.scheduler.address.startswith("tls://127.0.0.1:")
    assert all(address.startswith("tls://127.0.0.1:") for address in client.scheduler_info()["workers"])
    # Dask's HTTP endpoints (dashboard, health) too: a free port of 127.0.0.1, not :8787 on every interface
    assert client.dashboard_link.startswith("http://127.0.0.1:")
    assert not client.dashboard_link.startswith("http://127.0.0.1:8787/")
    found = _listening(_tree())
    assert len(found) >= 3  # the scheduler's and the workers' comms and HTTP servers
    loopback = ("0100007F:", "0000000000000000FFFF00000100007F:")  # 127.0.0.1, as IPv4 and mapped IPv6
    assert all(address.startswith(loopback) for address in found), found


def _refused(address: str, **connecting) -> str:
    """How a connection to ``address`` without this run's certificate ends: the error's name (within a few
    seconds); the test fails if the scheduler answers."""
    import asyncio

    from distributed.comm import connect

    async def attempt() -> str:
        try:
            comm = await connect(address, timeout="3s", **connecting)
            await comm.write({"op": "identity"})
            answer = await asyncio.wait_for(comm.read(), 3)
        except (OSError, asyncio.TimeoutError, distributed.comm.CommClosedError) as error:
            return type(error).__name__
        return f"answered: {answer!r}"

    started = time.monotonic()
    outcome = asyncio.run(attempt())
    assert time.monotonic() - started < 120  # a refusal, not a hang (its own waits are 3 s each)
    assert not outcome.startswith("answered"), outcome
    return outcome


def test_the_local_cluster_refuses_a_process_without_its_certificate(client) -> None:
    address = client.scheduler.address
    assert address.startswith("tls://127.0.0.1:")
    assert client.submit(lambda: 6 * 7).result() == 42  # mrp's own client holds the credentials
    assert set(client.run(os.getpid).values()) and client.security.require_encryption
    # another local process: plain tcp to the TLS port
    _refused(address.replace("tls://", "tcp://"))
    # TLS that checks nothing and presents no certificate (the scheduler asks for one it trusts)
    careless = ssl.create_default_context(ssl.Purpose.SERVER_AUTH)
    careless.check_hostname = False
    careless.verify_mode = ssl.CERT_NONE
    _refused(address, ssl_context=careless)
    # TLS with a certificate of its own (as Security.temporary() makes one): not this run's, so refused
    from distributed.security import Security

    other = Security.temporary().get_connection_args("client")
    other["ssl_context"].check_hostname = False
    other["ssl_context"].verify_mode = ssl.CERT_NONE  # even trusting any scheduler
    _refused(address, ssl_context=other["ssl_context"])
    # and a whole Dask client without credentials cannot run code on the workers
    started = time.monotonic()
    with pytest.raises((OSError, TimeoutError, distributed.comm.CommClosedError)):
        intruder = distributed.Client(address.replace("tls://", "tcp://"), timeout="3s")
        intruder.run(os.getpid)
    assert time.monotonic() - started < 120  # refused, not hung (its timeout is 3 s)


def _chains(path: Path, count: int) -> None:
    """``count`` AMR graphs of 14 nodes with few labels and re-entrancies: pairs that take a while."""
    import random

    pick = random.Random(1)
    with open(path, "w", encoding="utf-8") as stream:
        for k in range(count):
            extra = "".join(f" :ARG2 n{pick.randrange(14)}" for _ in range(6))
            body = "".join(f" :ARG{pick.randrange(2)} (n{i} / c{pick.randrange(3)}" for i in range(1, 14))
            stream.write(f"# ::id g{k}\n(n0 / c0{extra}{body}{')' * 13})\n\n")



def _terminal_ctrl_c() -> None:
    """In the command's process before it starts: Ctrl-C as a terminal's shell leaves it (its default
    action, not blocked), whatever the test run was started with: a background job of a shell without job
    control starts with SIGINT ignored, every process it starts inherits that, and Python then installs no
    handler of its own (the command would run to its end)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})

def test_ctrl_c_of_a_dask_run_prints_only_mrps_line(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys

    corpus = tmp_path / "chains.amr"
    _chains(corpus, 150)
    blocks = tmp_path / "blocks"  # each finished block lands here: the event that the workers score
    proc = subprocess.Popen([sys.executable, "-m", "mrp.cli.similarity", "--metric", "smatch", str(corpus),
                             "--output", str(tmp_path / "out.npz"), "--scheduler", "local", "--jobs", "2",
                             "--checkpoint", str(blocks), "--block-size", "100"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=_terminal_ctrl_c)
    try:
        deadline = time.monotonic() + 600  # a loaded machine may take minutes to start the cluster
        while not list(blocks.glob("block-*.npz")):  # the cluster is up and its workers score blocks
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.01)
        assert proc.poll() is None, proc.communicate()  # 113 blocks of 100 pairs: one is done
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: to the command and its workers
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130
    assert out == b""
    lines = [line for line in err.decode().splitlines() if "pairs/s" not in line]  # progress lines aside
    assert lines == ["mrp-similarity: interrupted; no results written"], err.decode()
    assert not (tmp_path / "out.npz").exists()


def test_ctrl_c_as_the_workers_start_prints_only_mrps_line(tmp_path: Path) -> None:
    """A Ctrl-C while the local cluster's worker processes are still importing Dask: no process ends with
    a traceback; the command answers it once the cluster is up, and closes it."""
    import signal
    import subprocess
    import sys

    psutil = pytest.importorskip("psutil")  # a dependency of dask.distributed
    corpus = tmp_path / "chains.amr"
    _chains(corpus, 150)
    proc = subprocess.Popen([sys.executable, "-m", "mrp.cli.similarity", "--metric", "smatch", str(corpus),
                             "--output", str(tmp_path / "out.npz"), "--scheduler", "local", "--jobs", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=_terminal_ctrl_c)
    try:
        started = time.monotonic()
        while time.monotonic() - started < 60:  # the first worker process spawned, still importing
            if any("spawn_main" in " ".join(child.cmdline())
                   for child in psutil.Process(proc.pid).children(recursive=True)):
                break
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err.decode()
    assert out == b""
    lines = [line for line in err.decode().splitlines() if "pairs/s" not in line]
    assert lines == ["mrp-similarity: interrupted; no results written"], err.decode()


def test_a_cache_warning_in_a_dask_worker_is_one_line(tmp_path: Path) -> None:
    """numba's cache unwritable in the cluster's worker processes (which compile the solver): the warning is
    the command's one line, not Python's two (file:line: Category: message, then the source line)."""
    import subprocess
    import sys

    from numba.core import config

    if not hasattr(config, "CACHE_LOCATOR_CLASSES"):
        pytest.skip("this numba cannot be told to use only an unwritable cache")
    corpus = tmp_path / "chains.amr"
    _chains(corpus, 4)
    environment = dict(os.environ, NUMBA_CACHE_LOCATOR_CLASSES="UserProvidedCacheLocator",
                       NUMBA_CACHE_DIR="/dev/null/cache")
    done = subprocess.run([sys.executable, "-m", "mrp.cli.similarity", "--metric", "smatch", str(corpus),
                           "--output", str(tmp_path / "out.npz"), "--scheduler", "local", "--jobs", "1"],
                          capture_output=True, text=True, env=environment, timeout=600)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert any("numba cannot write its cache" in line for line in lines), done.stderr
    assert all(line.startswith("mrp-similarity: ") for line in lines), done.stderr


def test_a_ctrl_c_taken_by_another_thread_as_the_cluster_starts_is_raised_once_it_is_up(monkeypatch) -> None:
    """A thread started before the cluster (a progress line's) does not block SIGINT: the kernel may hand it
    the Ctrl-C, whose Python handler then raised KeyboardInterrupt in the main thread inside Dask's start-up,
    which swallowed it (the run went on to the end and exited 0, issue 61 item 8).  It is noted whichever
    thread takes it, and raised once the cluster is up; the cluster is closed."""
    import signal
    import threading

    from mrp.allpairs import cluster

    go, taken = threading.Event(), threading.Event()

    def bystander() -> None:  # started before the mask: SIGINT is not blocked here
        go.wait(60)
        os.kill(os.getpid(), signal.SIGINT)
        taken.set()

    thread = threading.Thread(target=bystander, daemon=True)
    thread.start()
    closed = []

    def started(distributed, workers):  # as Dask's start-up: whatever is raised inside it is swallowed
        go.set()
        assert taken.wait(60)
        try:
            for _ in range(1000):  # the Python handler runs in the main thread, at a check between
                sum(range(100))   # bytecodes: here, inside the start-up
        except BaseException:  # noqa: BLE001 - what Dask's loop did with the KeyboardInterrupt
            pass
        return "client"

    monkeypatch.setattr(cluster, "_started", started)
    monkeypatch.setattr(cluster, "_dask", lambda: None)
    monkeypatch.setattr(cluster, "close", closed.append)
    with pytest.raises(KeyboardInterrupt):
        cluster._local(2)
    assert closed == ["client"]
    thread.join(10)
