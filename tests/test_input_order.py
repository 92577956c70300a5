"""Order (issue 42, item 9): reordering the gold file's graphs changes no figure, not even in the last bit:
macro figures are summed, and the bootstrap resamples, over items in a canonical order ((framework, id)),
under the same signature.  Compared byte for byte as JSON, except the per-item "scores", which list the
items in the order of the input, and the clock readings."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Dict

import pytest

import mrp
from mrp.report.items import item_keys

from conftest import shared_file, timeless

GOLD = ("data", "wsj", "eds", "wsj.mrp")
SYSTEM = ("data", "pairs", "eds", "wsj.pet.mrp")


def _without_order(document: Dict[str, Any]) -> str:
    kept = {key: value for key, value in timeless(document).items() if key != "scores"}
    return json.dumps(kept, sort_keys=True)


def _shuffled(source: Path, target: Path, seed: int) -> Path:
    lines = [line for line in source.read_text(encoding="utf-8").splitlines() if line.strip()]
    random.Random(seed).shuffle(lines)
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


@pytest.mark.parametrize("metric", ["mrp", "edm"])
def test_shuffling_the_gold_file_changes_no_figure(tmp_path: Path, metric: str) -> None:
    gold, system = shared_file(*GOLD), shared_file(*SYSTEM)
    documents = []
    for seed in (None, 1, 2):
        path = gold if seed is None else _shuffled(gold, tmp_path / f"gold.{seed}.mrp", seed)
        documents.append(mrp.score(str(path), str(system), metric, bootstrap=200, seed=0).to_dict())
    reference = _without_order(documents[0])
    assert "ci" in documents[0] and "macro" in documents[0]
    for document in documents[1:]:
        assert _without_order(document) == reference


def test_shuffling_both_files_changes_no_figure(tmp_path: Path) -> None:
    gold, system = shared_file(*GOLD), shared_file(*SYSTEM)
    first = mrp.score(str(gold), str(system), "mrp", bootstrap=200, seed=0).to_dict()
    shuffled = _shuffled(gold, tmp_path / "g.mrp", 5), _shuffled(system, tmp_path / "s.mrp", 6)
    second = mrp.score(str(shuffled[0]), str(shuffled[1]), "mrp", bootstrap=200, seed=0).to_dict()
    assert _without_order(second) == _without_order(first)


def test_items_are_in_canonical_order() -> None:
    result = {"scores": {"eds": {"b": {}, "a": {}, "10": {}, "9": {}}, "amr": {"z": {}}}}
    assert item_keys(result) == [("amr", "z"), ("eds", "10"), ("eds", "9"), ("eds", "a"), ("eds", "b")]
