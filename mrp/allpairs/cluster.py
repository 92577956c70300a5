"""Blocks as tasks of a Dask cluster (``pip install mrp-graphs[dask]``; imported only when a run is given a
client or a scheduler address).  The work (graphs, metric, options) is scattered to the workers once; each
block is one task; Dask runs again the tasks of a worker that dies.  A local cluster made here listens on
127.0.0.1 only (its comms and its HTTP servers), and its comms speak TLS with a certificate made for the run
and held in memory (Dask's ``Security.temporary()``): a process without it, another local user's included,
cannot join the cluster or run code on its workers.  Its processes are mrp's, and so are its messages:
Dask's own log lines (a worker's heartbeat failing as the run is interrupted, a slow event loop) are kept
off stderr while it runs, what matters reaching the run as an error of a task."""

from __future__ import annotations

import logging
import signal
import threading
import warnings
from multiprocessing import resource_tracker
from typing import Any, Callable, Dict, List, Sequence

import numpy as np

from mrp.allpairs.work import Block, Work, score_block
from mrp.corpora import live
from mrp.errors import InputError

__all__ = ["connect", "run_on"]

SILENT = logging.CRITICAL + 1  # above every level Dask logs at


def _dask() -> Any:
    try:
        import dask.distributed as distributed
    except ImportError:
        raise InputError("running on Dask needs the dask extra: pip install 'mrp-graphs[dask]'") from None
    return distributed


def _temporary() -> Any:
    """Credentials for one run: a self-signed certificate and key, in memory only, that the scheduler, the
    workers and the client all present and require (mutual TLS)."""
    from distributed.security import Security

    try:
        return Security.temporary()
    except ImportError:
        raise InputError("a local Dask cluster needs the cryptography package (for its per-run TLS "
                         "certificate): pip install 'mrp-graphs[dask]'") from None


def _silent_workers(distributed: Any) -> Any:
    """A worker plugin for the worker processes of mrp's local cluster, whose stderr is the command's: Dask's
    log lines kept off it, warnings (numba's cache failing in a worker, say) shown as this process shows
    them (a command's: one line each), and SIGINT ignored (a terminal's Ctrl-C reaches every process of the
    group; the command answers it and closes the cluster); set up again in a worker that Dask starts anew.
    Before it is set up, a worker holds SIGINT blocked, as :func:`_local` spawned it."""
    shown = warnings.showwarning

    class Silent(distributed.WorkerPlugin):  # type: ignore[misc, name-defined]
        name = "mrp-silent"

        def setup(self, worker: Any) -> None:
            for handler in logging.getLogger("distributed").handlers:
                handler.setLevel(SILENT)
            warnings.showwarning = shown
            if threading.current_thread() is threading.main_thread():  # the worker's event loop
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C is the command's

    return Silent()


def connect(address: str, workers: int = 2) -> Any:
    """A client of a Dask scheduler.

    Args:
        address: a scheduler's address (Dask's own security settings apply, from its configuration: mrp
            adds no credentials), or ``local`` for a new cluster on 127.0.0.1 whose comms require TLS
            with a certificate made for this run (closed with the client).
        workers: the number of worker processes of a local cluster.

    Returns:
        A ``dask.distributed.Client``; close it with :func:`close`.

    Raises:
        InputError: Dask (or, for ``local``, cryptography) is not installed, or the scheduler cannot be
            reached.
    """
    if address == "local":
        return _local(workers)
    distributed = _dask()
    try:
        return distributed.Client(address, timeout="30s")
    except (OSError, TimeoutError, ValueError) as error:
        raise InputError(f"cannot reach the Dask scheduler at {address}: {error}") from None


def _local(workers: int) -> Any:
    """A client of a new cluster of ``workers`` processes on 127.0.0.1, its comms over TLS with a
    certificate made for this run (see :func:`connect`).

    While the cluster starts, SIGINT is blocked in the calling (main) thread: the threads Dask starts and
    the processes they spawn (workers, multiprocessing's resource tracker) inherit the block, so a Ctrl-C
    in those seconds ends no process half set up, with a traceback; it waits, pending, and is raised here
    as ``KeyboardInterrupt`` once the cluster is up (and closed again)."""
    main = threading.current_thread() is threading.main_thread()
    if main:  # started ahead: starting it unblocks SIGINT (multiprocessing's own handling of the mask)
        resource_tracker.ensure_running()
    # A thread started before the mask (a progress line's, numba's) does not block SIGINT: the kernel may
    # hand it a Ctrl-C, whose Python handler then ran in the main thread somewhere inside Dask's start-up
    # (which swallowed it: the run went on to the end and exited 0).  Until the cluster is up, a Ctrl-C is
    # only noted, whichever thread receives it, and raised here afterwards.
    noted: List[int] = []
    handler = signal.getsignal(signal.SIGINT) if main else None
    if main:
        signal.signal(signal.SIGINT, lambda number, frame: noted.append(number))
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if main else None
    client = None
    try:
        client = _started(_dask(), workers)
    finally:
        if before is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)  # a pending Ctrl-C is noted here
            signal.signal(signal.SIGINT, handler if handler is not None else signal.default_int_handler)
    if noted:
        if client is not None:
            close(client)
        raise KeyboardInterrupt
    return client


def _started(distributed: Any, workers: int) -> Any:
    """The cluster and its client (:func:`_local` without the signal mask)."""
    # every server of the cluster on 127.0.0.1: its comms (host), and the HTTP servers of the scheduler
    # and of the workers, which Dask otherwise opens on every interface (port 8787 and a random one);
    # the comms, which run code, only for a holder of this run's certificate
    cluster = distributed.LocalCluster(n_workers=max(1, workers), threads_per_worker=1, processes=True,
                                       host="127.0.0.1", protocol="tls", security=_temporary(),
                                       dashboard_address="127.0.0.1:0",
                                       worker_dashboard_address="127.0.0.1:0",
                                       silence_logs=SILENT)  # this process's Dask lines, while it runs
    client = distributed.Client(cluster)  # with the cluster's credentials
    client.register_plugin(_silent_workers(distributed))
    client._mrp_cluster = cluster  # closed with the client by close()
    return client


def close(client: Any) -> None:
    """Close a client made by :func:`connect` (and its local cluster)."""
    cluster = getattr(client, "_mrp_cluster", None)
    client.close()
    if cluster is not None:
        cluster.close()


def _task(work: Work, block: Block) -> Dict[str, np.ndarray]:
    return score_block(work, block)


def run_on(client: Any, work: Work, blocks: Sequence[Block],
           finished: Callable[[int, Dict[str, np.ndarray]], None]) -> None:
    """Run blocks as tasks of ``client``'s cluster; ``finished(k, arrays)`` for each, as it finishes."""
    distributed = _dask()
    shipped = work.shipped()
    shipped.rows = [live(graph) for graph in work.rows]
    if work.columns is not None:
        shipped.columns = [live(graph) for graph in work.columns]
    held = client.scatter(shipped, broadcast=True, hash=False)
    futures: List[Any] = [client.submit(_task, held, block, pure=False, retries=2) for block in blocks]
    index = {future.key: k for k, future in enumerate(futures)}
    try:
        for future in distributed.as_completed(futures):
            finished(index[future.key], future.result())
    finally:
        client.cancel(futures)
