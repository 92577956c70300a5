"""Work shared out by a queue over this process and forked children (mrp.process.shared): each item is done
by exactly one process and its result taken here once; a child that fails hands over no more (what it did
not hand over is the caller's to do)."""

from __future__ import annotations

import os
from typing import List, Tuple

import pytest

from mrp.process.shared import MAX_ITEMS, in_turn


def _done(k: int) -> Tuple[int, int]:
    return k, os.getpid()


def test_each_item_is_done_once_and_taken_here() -> None:
    taken: List[Tuple[int, int]] = []
    in_turn(200, 3, _done, taken.append)
    assert sorted(k for k, _ in taken) == list(range(200))
    assert os.getpid() in {pid for _, pid in taken}


def test_one_process_does_every_item_in_order() -> None:
    taken: List[Tuple[int, int]] = []
    in_turn(5, 1, _done, taken.append)
    assert taken == [(k, os.getpid()) for k in range(5)]


def test_a_child_that_fails_hands_over_no_more() -> None:
    parent = os.getpid()

    def work(k: int) -> int:
        if os.getpid() != parent:
            raise RuntimeError("a child fails")
        return k

    taken: List[int] = []
    in_turn(20, 2, work, taken.append)
    assert len(set(taken)) == len(taken) and set(taken) <= set(range(20)) and len(taken) >= 19


def test_a_queue_holds_at_most_its_items() -> None:
    with pytest.raises(ValueError):
        in_turn(MAX_ITEMS + 1, 2, _done, print)
