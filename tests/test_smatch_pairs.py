"""Every SMATCH number unchanged by the solver's speed work: each pair's counts (gold, system and matched
triples), bound and exact flag on the shared AMR pairs, against the table main gave before the work
(tests/data/smatch_pairs/, one line a pair: ``g s c bound exact``).

The tables were made on main fa6a982 (before issue 64's goal 3) by

    PYTHONPATH=. python tests/test_smatch_pairs.py --write

and a change that moves any pair's number (not only a total) fails here, naming the first pair that moved.
The sets: the 1,368 coli pairs (the original tool's triples, and ``--smatch-compat``), the 2,000 random coli
pairs of Rematch's testbed (../shared/reference/rematch/testbed-2k.*: pairs of unrelated sentences, where
the search's bound does the work).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

import mrp

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "smatch_pairs"
SHARED = HERE.parent.parent / "shared"
#: name -> (gold, system, options of mrp.score)
COLI = ("data/pairs/amr/coli.gold.amr", "data/pairs/amr/coli.system.amr")
SETS: Dict[str, Tuple[str, str, Dict[str, Any]]] = {
    "coli": (*COLI, {}),
    "coli-compat": (*COLI, {"smatch_compat": True}),
    "testbed-2k": ("reference/rematch/testbed-2k.a.amr", "reference/rematch/testbed-2k.b.amr", {}),
}


def table(name: str, shared: Path = SHARED) -> List[str]:
    """One line per pair of set ``name``: ``g s c bound exact``."""
    gold, system, options = SETS[name]
    result = mrp.score(str(shared / gold), str(shared / system), metric="smatch", format="amr", **options)
    lines = []
    for pair in result.pairs:
        item = pair.item
        lines.append(f"{item['g']} {item['s']} {item['c']} {item['bound']} {int(bool(item['exact']))}")
    return lines


@pytest.mark.parametrize("name", sorted(SETS))
def test_every_pair_as_before(name: str) -> None:
    from conftest import shared_path

    shared = shared_path()
    expected = (DATA / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    got = table(name, shared)
    assert len(got) == len(expected), f"{name}: {len(got)} pairs, {len(expected)} before"
    for k, (now, before) in enumerate(zip(got, expected)):
        assert now == before, f"{name}: pair {k + 1}: g s c bound exact {now}, before {before}"
    assert all(line.endswith(" 1") for line in got), f"{name}: a pair not proved optimal"


def main(argv: List[str]) -> None:
    """``python tests/test_smatch_pairs.py --write``: write the tables from this tree."""
    if argv != ["--write"]:
        raise SystemExit(__doc__)
    DATA.mkdir(parents=True, exist_ok=True)
    for name in SETS:
        (DATA / f"{name}.txt").write_text("\n".join(table(name)) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
