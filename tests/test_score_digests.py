"""Every number stays as it was: the per-pair results of each case of tests/score_digests.py (SMATCH and the
MRP metric on the shared AMR, EDS and SMATCH pairs, from files, one pair a call from strings and through
mrp.pairwise) digest to what main gave (tests/data/scores/digests.json, the command in its module)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from score_digests import CASES, digest

from conftest import shared_path

_EXPECTED = json.loads((Path(__file__).parent / "data/scores/digests.json").read_text(encoding="utf-8"))


def test_every_case_has_its_digest() -> None:
    assert set(_EXPECTED) == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_per_pair_results_are_unchanged(name: str) -> None:
    shared = shared_path()
    assert digest(CASES[name](shared)) == _EXPECTED[name], name
