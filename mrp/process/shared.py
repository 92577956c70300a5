"""Work shared out over forked processes by a queue: this process and ``jobs - 1`` forked children each take
the next item in turn until none is left, so that every process stays busy to the end whatever each item
costs (items given most costly first keep the tail short).

The queue is a pipe filled before the fork with one 4-byte number per item (a read of 4 bytes from a pipe
is whole, and each number is read by one process).  A child hands each item's result over as soon as it
has it: pickled into a scratch file, its number then written to the child's own pipe; this process takes
the results that have arrived between two items of its own and after its last, so that taking them (for a
large result, as long as computing part of it) overlaps the children's work instead of following it.  A
child that fails hands over no more: the caller does what it did not.
"""

from __future__ import annotations

import os
import pickle
import select
import shutil
import struct
import tempfile
from functools import partial
from typing import Callable, Dict, Iterator, TypeVar

from mrp.io.write import output
from mrp.process.collector import collector_paused
from mrp.process.forked import Child, can_fork

__all__ = ["MAX_ITEMS", "in_turn"]

T = TypeVar("T")

_NUMBER = struct.Struct("<I")
#: the most items a queue holds (a pipe's 64 KiB of 4-byte numbers, written before any process reads)
MAX_ITEMS = (1 << 16) // _NUMBER.size


def _taken(source: int) -> Iterator[int]:
    while True:
        data = os.read(source, _NUMBER.size)
        if len(data) < _NUMBER.size:
            return
        yield _NUMBER.unpack(data)[0]


def _handing(source: int, sink: int, folder: str, work: Callable[[int], T]) -> None:
    """A child's loop: each item taken, its result pickled into ``folder`` and its number written."""
    for k in _taken(source):
        with output(os.path.join(folder, str(k)), "wb", durable=False) as stream:
            pickle.dump(work(k), stream, protocol=pickle.HIGHEST_PROTOCOL)
        os.write(sink, _NUMBER.pack(k))


class _Arrivals:
    """The children's results as they arrive: their pipes of numbers, and the folder of their files."""

    def __init__(self, folder: str, pipes: Dict[int, Child], take: Callable[[T], None]) -> None:
        self.folder, self.pipes, self.take = folder, pipes, take
        self.partial: Dict[int, bytes] = {fd: b"" for fd in pipes}

    def collect(self, wait: bool) -> None:
        """Take what has arrived (``wait``: until every child has ended)."""
        while self.pipes:
            ready = select.select(list(self.pipes), [], [], None if wait else 0)[0]
            if not ready:
                return
            for fd in ready:
                data = os.read(fd, 1 << 16)
                if not data:  # the child has ended (or died): reaped
                    self.pipes.pop(fd).result()
                    os.close(fd)
                    continue
                data = self.partial[fd] + data
                whole = len(data) - len(data) % _NUMBER.size
                self.partial[fd] = data[whole:]
                for (k,) in _NUMBER.iter_unpack(data[:whole]):
                    path = os.path.join(self.folder, str(k))
                    with open(path, "rb") as stream, collector_paused():  # many objects, none garbage
                        found = pickle.load(stream)
                    os.unlink(path)
                    self.take(found)


def in_turn(count: int, jobs: int, work: Callable[[int], T], take: Callable[[T], None]) -> None:
    """``work(k)`` for each item ``k`` of ``0 .. count - 1``, in this process and in ``jobs - 1`` forked
    children at once, each taking the next item from the shared queue; each result given to ``take`` in
    this process (a child's between two items of this process's own, or after its last).

    Args:
        count: the items (at most :data:`MAX_ITEMS`).
        jobs: the processes (this one included); one, or a platform that cannot fork: this process alone.
        work: an item's computation (its result is pickled back from a child).
        take: what this process does with each result, in the order they come.

    Raises:
        ValueError: for more than :data:`MAX_ITEMS` items.
    """
    if count > MAX_ITEMS:
        raise ValueError(f"{count} items: at most {MAX_ITEMS} in one queue")
    source, sink = os.pipe()
    try:
        os.write(sink, b"".join(_NUMBER.pack(k) for k in range(count)))
    finally:
        os.close(sink)
    children = max(0, min(jobs, count) - 1) if can_fork() else 0
    folder = tempfile.mkdtemp(prefix="mrp-shared-") if children else ""
    pipes: Dict[int, Child] = {}
    try:
        for _ in range(children):
            readable, writable = os.pipe()
            pipes[readable] = Child(partial(_handing, source, writable, folder, work))
            os.close(writable)
        arrivals = _Arrivals(folder, pipes, take)
        for k in _taken(source):
            take(work(k))
            arrivals.collect(wait=False)
        arrivals.collect(wait=True)
    finally:
        for fd, child in list(pipes.items()):
            child.kill()
            os.close(fd)
        os.close(source)
        if folder:
            shutil.rmtree(folder, ignore_errors=True)

