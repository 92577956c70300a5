"""Deeply nested Penman read as deep as the node limit allows.

penman's parser (and the tree functions after it) recurse once or more per
level of nesting, so Python's default recursion limit (1,000) refuses a chain
of some 450 nodes, far below :data:`mrp.io.limits.MAX_NODES`.  A graph whose
reading runs out of recursion is read again on a thread of its own, with a
large stack and a recursion limit that covers a chain of ``MAX_NODES`` nodes;
only what is still too deep then (beyond the node limit) is refused, as a
graph "nested too deeply to be read".
"""

from __future__ import annotations

import sys
import threading
from typing import Callable, List, TypeVar

from mrp.io.limits import MAX_NODES

__all__ = ["deeply"]

T = TypeVar("T")

#: frames per level of nesting that reading a graph takes, at most (penman's parser, mrp's tree walks)
FRAMES_PER_LEVEL = 8
#: the recursion limit while a deep graph is read: a chain of MAX_NODES nodes
LIMIT = FRAMES_PER_LEVEL * MAX_NODES + 1_000
#: the reading thread's stack (address space, touched only as it is used); smaller where refused
STACKS = (1 << 30, 256 << 20, 64 << 20)

_LOCK = threading.Lock()  # one deep read at a time: the recursion limit is the interpreter's


def deeply(read: Callable[[], T]) -> T:
    """``read()`` on a thread with a large stack and a recursion limit for ``MAX_NODES`` levels.

    Args:
        read: what to run (reading one graph).

    Returns:
        What ``read`` returns; what it raises is raised here (RecursionError for what is deeper still).
    """
    done: List[T] = []
    failed: List[BaseException] = []

    def run() -> None:
        try:
            done.append(read())
        except BaseException as error:  # noqa: BLE001 - handed to the calling thread
            failed.append(error)

    with _LOCK:
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, LIMIT))
        try:
            thread = _started(run)
            thread.join()
        finally:
            sys.setrecursionlimit(limit)
    if failed:
        raise failed[0]
    return done[0]


def _started(run: Callable[[], None]) -> threading.Thread:
    """A thread running ``run``, started with the largest stack of :data:`STACKS` the system grants."""
    for size in STACKS:
        try:
            previous = threading.stack_size(size)
        except (ValueError, RuntimeError):
            continue
        try:
            thread = threading.Thread(target=run, name="mrp-deep-read", daemon=True)
            thread.start()
            return thread
        except RuntimeError:  # a stack that large cannot be had
            continue
        finally:
            threading.stack_size(previous)
    thread = threading.Thread(target=run, name="mrp-deep-read", daemon=True)
    thread.start()
    return thread
