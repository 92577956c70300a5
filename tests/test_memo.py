"""The one bounded memo (mrp.memo.Memo): its bound holds, its values are right, and a value it returns is
never one kept under another key or before it started again."""

from __future__ import annotations

from typing import Dict, List

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mrp.memo import Memo


def test_make_makes_once_and_returns_the_value() -> None:
    made: List[int] = []

    def square(key: int) -> int:
        made.append(key)
        return key * key

    memo: Memo[int, int] = Memo(4)
    assert [memo.make(3, square), memo.make(3, square), memo.make(2, square)] == [9, 9, 4]
    assert made == [3, 2]


def test_the_bound_holds_and_a_full_memo_starts_again() -> None:
    memo: Memo[int, str] = Memo(3)
    for key in range(3):
        memo.keep(key, str(key))
    assert len(memo) == 3
    memo.keep(1, "one")  # a key held already is replaced, nothing forgotten
    assert memo == {0: "0", 1: "one", 2: "2"}
    memo.keep(7, "7")  # the entry past the bound empties it first
    assert memo == {7: "7"}


def test_a_memo_holds_at_least_one_entry() -> None:
    with pytest.raises(ValueError):
        Memo(0)
    memo: Memo[str, int] = Memo(1)
    assert memo.make("a", len) == 1 and memo.make("bb", len) == 2 and memo == {"bb": 2}


@given(st.integers(1, 5), st.lists(st.tuples(st.integers(0, 9), st.booleans()), max_size=60))
def test_no_stale_value_and_the_bound_holds(most: int, steps: List[tuple]) -> None:
    """Whatever the order of makes and keeps, every value read is the one last given for its key, and the
    memo never holds more than ``most`` entries."""
    memo: Memo[int, object] = Memo(most)
    truth: Dict[int, object] = {}
    for key, fresh in steps:
        if fresh:  # a new value for the key: kept (and from then on the one returned)
            truth[key] = object()
            assert memo.keep(key, truth[key]) is truth[key]
        else:
            expected = truth.setdefault(key, object())
            assert memo.make(key, truth.__getitem__) is expected
        assert len(memo) <= most
        assert all(value is truth[k] for k, value in memo.items())


def test_the_instance_role_is_a_token_after_the_role_memo_starts_again() -> None:
    """The instance role ("/") stays a role token when the memo of roles has been emptied (it was kept
    only as the memo's first entry)."""
    from mrp.codecs.penman import tokens

    memo = tokens.TOKENS[tokens.ROLE]
    for k in range(memo.most + 1):
        tokens.token(f":r{k}", tokens.ROLE)
    assert len(memo) < memo.most  # it started again
    assert tokens.token("/", tokens.ROLE)
    assert not tokens.token("/", tokens.ATOM)
    assert not tokens.token(":a/b", tokens.ROLE)
