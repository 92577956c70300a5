"""Per-pair results on the shared data, digested, for the test that every number stays as it was
(tests/test_score_digests.py): each case scores a shared file pair (or its pairs one call each, or through
:func:`mrp.pairwise`) and keeps of every pair its id, its figures, whether it is proved optimal, its bound
and why it was cut.  Run as a script to write the digests of today's code:
``python tests/score_digests.py ../shared > tests/data/scores/digests.json`` (made on main at fa6a982)."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List

import mrp


def _blocks(path: Path) -> List[str]:
    return [block.strip() for block in path.read_text(encoding="utf-8").split("\n\n") if block.strip()]


def _pairs(result: Any) -> List[Any]:
    return [[pair.id, None if pair.figures is None else [pair.figures.p, pair.figures.r, pair.figures.f],
             pair.exact, pair.bound, pair.cut] for pair in result.pairs]


def _files(gold: str, system: str, metric: str, **options: Any) -> Callable[[Path], Any]:
    def made(shared: Path) -> Any:
        result = mrp.score(shared / gold, shared / system, metric=metric, **options)
        return {"f": result.f, "pairs": _pairs(result)}
    return made


def _one_by_one(count: int, **options: Any) -> Callable[[Path], Any]:
    def made(shared: Path) -> Any:
        golds = _blocks(shared / "data/pairs/amr/coli.gold.amr")[:count]
        systems = _blocks(shared / "data/pairs/amr/coli.system.amr")[:count]
        return [_pairs(mrp.score([gold], [system], metric="smatch", **options))
                for gold, system in zip(golds, systems)]
    return made


def _rewards(shared: Path) -> Any:
    golds = _blocks(shared / "data/pairs/amr/coli.gold.amr")
    systems = _blocks(shared / "data/pairs/amr/coli.system.amr")
    rewards = mrp.pairwise(golds, systems, metric="smatch")
    return [rewards.tolist(), rewards.exact.tolist(), rewards.bound.tolist()]  # type: ignore[union-attr]


#: each case's name and how it is made from the shared data's directory
CASES: Dict[str, Callable[[Path], Any]] = {
    "smatch coli": _files("data/pairs/amr/coli.gold.amr", "data/pairs/amr/coli.system.amr", "smatch"),
    "smatch coli compat": _files("data/pairs/amr/coli.gold.amr", "data/pairs/amr/coli.system.amr", "smatch",
                                 smatch_compat=True),
    "smatch test1 test2": _files("data/pairs/amr/test1.amr", "data/pairs/amr/test2.amr", "smatch"),
    "smatch test_input": _files("data/pairs/smatch/test_input1.txt", "data/pairs/smatch/test_input2.txt",
                                "smatch"),
    "smatch wsj amr": _files("data/wsj/amr/wsj.amr", "data/wsj/amr/wsj.amr", "smatch"),
    "mrp coli": _files("data/pairs/amr/coli.gold.amr", "data/pairs/amr/coli.system.amr", "mrp"),
    "mrp eds": _files("data/wsj/eds/wsj.mrp", "data/pairs/eds/wsj.pet.mrp", "mrp"),
    "smatch eds": _files("data/wsj/eds/wsj.mrp", "data/pairs/eds/wsj.pet.mrp", "smatch"),
    "smatch coli one pair a call": _one_by_one(60),
    "smatch coli one pair a call compat": _one_by_one(20, smatch_compat=True),
    "rewards coli": _rewards,
}


def digest(value: Any) -> str:
    """The sha256 of a case's value written as JSON (floats as Python writes them: every bit)."""
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode("utf-8")).hexdigest()


def digests(shared: Path) -> Dict[str, str]:
    """Each case's digest."""
    return {name: digest(made(shared)) for name, made in CASES.items()}


if __name__ == "__main__":
    json.dump(digests(Path(sys.argv[1])), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
