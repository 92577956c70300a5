"""Work shared out by a queue over this process and forked children (mrp.process.shared): each item is taken
by exactly one process, and a child that fails gives None (its items are then the caller's to do)."""

from __future__ import annotations

import os
from typing import Iterator, List, Tuple

import pytest

from mrp.process.shared import MAX_ITEMS, in_turn


def _taken(items: Iterator[int]) -> Tuple[int, List[int]]:
    return os.getpid(), list(items)


def test_each_item_is_taken_by_one_process() -> None:
    found = in_turn(50, 3, _taken)
    assert len(found) == 3 and all(item is not None for item in found)
    taken = sorted(k for item in found if item is not None for k in item[1])
    assert taken == list(range(50))
    assert found[0] is not None and found[0][0] == os.getpid()
    assert len({item[0] for item in found if item is not None}) == 3


def test_one_process_takes_every_item() -> None:
    assert in_turn(5, 1, _taken) == [(os.getpid(), [0, 1, 2, 3, 4])]


def test_a_child_that_fails_gives_none() -> None:
    parent = os.getpid()

    def work(items: Iterator[int]) -> List[int]:
        taken = list(items)
        if os.getpid() != parent:
            raise RuntimeError("a child fails")
        return taken

    found = in_turn(20, 2, work)
    assert found[1] is None and found[0] is not None


def test_a_queue_holds_at_most_its_items() -> None:
    with pytest.raises(ValueError):
        in_turn(MAX_ITEMS + 1, 2, _taken)
