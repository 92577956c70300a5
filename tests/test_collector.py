"""Every door scores with the garbage collector paused (graphs, triples and results hold no cycles: the
collector would only walk them again and again), and gives it back as it found it."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any, List, Optional, Sequence

import pytest

import mrp
from mrp.cli import score as score_cli
from mrp.engine.base import PairCounts
from mrp.engine.options import Options
from mrp.engine.pairing import Pair
from mrp.metrics.smatch.metric import SMATCH

DEMO = Path(__file__).resolve().parents[1] / "data" / "demo"


@pytest.fixture
def collecting(monkeypatch: pytest.MonkeyPatch) -> List[bool]:
    """Whether the collector ran, each time SMATCH scored pairs."""
    seen: List[bool] = []
    real = SMATCH.score_many

    def spy(self: SMATCH, pairs: Sequence[Pair], options: Options) -> List[Optional[PairCounts]]:
        seen.append(gc.isenabled())
        return real(self, pairs, options)

    monkeypatch.setattr(SMATCH, "score_many", spy)
    return seen


@pytest.mark.parametrize("door", ["mrp-score", "library"])
def test_pairs_are_scored_with_the_collector_paused(door: str, collecting: List[bool],
                                                    capsys: Any) -> None:
    gold, system = str(DEMO / "gold.mrp"), str(DEMO / "system.mrp")
    assert gc.isenabled()
    if door == "mrp-score":
        assert score_cli.main_body(["--score", "smatch", "--jobs", "1", "--gold", gold, system]) == 0
        assert '"f"' in capsys.readouterr().out
    else:
        assert mrp.score(gold, system, metric="smatch", jobs=1).f > 0
    assert collecting and not any(collecting)
    assert gc.isenabled()


@pytest.mark.parametrize("door", ["mrp-score", "library"])
def test_a_commands_run_moves_what_it_made_out_of_the_collectors_way(door: str, capsys: Any,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """mrp-score's process ends after its run: what the run made is frozen when it ends (its report then
    walks none of it); the library's run leaves what it made to the collector."""
    from mrp.engine import driver
    from mrp.process.collector import collector_paused

    asked: List[bool] = []

    def spy(freeze: bool = True) -> Any:
        asked.append(freeze)
        return collector_paused(freeze)

    monkeypatch.setattr(driver, "collector_paused", spy)
    gold, system = str(DEMO / "gold.mrp"), str(DEMO / "system.mrp")
    try:
        if door == "mrp-score":
            assert score_cli.main_body(["--score", "smatch", "--jobs", "1", "--gold", gold, system]) == 0
            assert '"f"' in capsys.readouterr().out
        else:
            assert mrp.score(gold, system, metric="smatch", jobs=1).f > 0
        assert asked == [door == "mrp-score"]
    finally:
        gc.unfreeze()
    assert gc.isenabled()
