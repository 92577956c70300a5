"""Work shared out over forked processes by a queue: this process and ``jobs - 1`` forked children each take
the next item in turn until none is left, so that two processes stay busy to the end whatever each item
costs (items given most costly first keep the tail short).

The queue is a pipe filled before the fork with one 4-byte number per item (a read of 4 bytes from a pipe
is whole, and each number is read by one process); each process's result comes back as a forked
:class:`~mrp.process.forked.Child`'s does.  A child that fails gives None: the caller does what it did not.
"""

from __future__ import annotations

import os
import struct
from typing import Callable, Iterator, List, Optional, TypeVar

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


def in_turn(count: int, jobs: int, work: Callable[[Iterator[int]], T]) -> List[Optional[T]]:
    """``work`` run in this process and in ``jobs - 1`` forked children at once, each given the items
    ``0 .. count - 1`` it takes from the shared queue (each item to one process, in order).

    Args:
        count: the items (at most :data:`MAX_ITEMS`).
        jobs: the processes (this one included); one, or a platform that cannot fork: this process alone.
        work: what a process does with the items it takes (an iterator of their numbers); its result is
            pickled back from a child.

    Returns:
        Each process's result, this process's first (None for a child that failed or was killed).

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
    children: List[Child] = []
    try:
        if can_fork():
            children = [Child(lambda: work(_taken(source))) for _ in range(min(jobs, count) - 1)]
        results: List[Optional[T]] = [work(_taken(source))]
        results.extend(child.result() for child in children)
        return results
    finally:
        for child in children:
            child.kill()
        os.close(source)
