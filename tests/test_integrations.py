"""mrp in Hugging Face evaluate and torchmetrics: the numbers of one mrp.score call, however the batches and
processes were cut.  The evaluate test runs against the real library (CI installs the hf extra and sets
MRP_REQUIRE=hf, under which its absence fails); the torchmetrics test runs where torch installs and skips
elsewhere."""

from __future__ import annotations

import os
import pickle
import random
import sys
from pathlib import Path
from typing import Any, List

import pytest

import mrp
import mrp.integrations

from conftest import shared_file


def _blocks(n: int) -> tuple[List[str], List[str]]:
    def read(name: str) -> List[str]:
        text = shared_file(f"data/pairs/amr/coli.{name}.amr").read_text()
        return [block for block in text.split("\n\n") if block.strip()][:n]

    return read("gold"), read("system")


def _evaluate() -> Any:
    try:
        import evaluate
    except ImportError:
        if "hf" in os.environ.get("MRP_REQUIRE", "").split(","):
            pytest.fail("MRP_REQUIRE=hf (CI's make test installs the hf extra): evaluate is missing")
        pytest.skip("evaluate is not installed (pip install 'mrp-graphs[hf]')")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("HF_EVALUATE_OFFLINE", "1")
    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
    return evaluate


def test_the_package_imports_no_framework() -> None:
    assert Path(mrp.integrations.EVALUATE, "mrp_graphs.py").is_file()
    assert Path(mrp.integrations.EVALUATE, "README.md").is_file()  # the metric card
    code = ("import sys, mrp.integrations; print('evaluate' in sys.modules, 'torch' in sys.modules, "
            "'datasets' in sys.modules)")
    import subprocess

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["False", "False", "False"], done.stderr


def test_evaluate_module_gives_mrp_score_numbers(tmp_path: Path) -> None:
    evaluate = _evaluate()
    gold, system = _blocks(30)
    metric = evaluate.load(mrp.integrations.EVALUATE, cache_dir=str(tmp_path))
    assert set(metric.features) == {"predictions", "references"}
    assert metric.features["predictions"].dtype == "string"
    for k in range(0, 30, 7):  # batches as a training loop adds them
        metric.add_batch(predictions=system[k:k + 7], references=gold[k:k + 7])
    found = metric.compute()
    one = mrp.score(gold, system, metric="smatch")
    assert found["f"] == one.f and found["p"] == one.p and found["r"] == one.r
    assert found["signature"] == one.signature and found["exact"] == found["n"] == 30
    assert found["bound_f"] == one.to_dict()["bound"]["f"]
    ids = evaluate.load(mrp.integrations.EVALUATE, cache_dir=str(tmp_path))  # a parser's own ids
    found = ids.compute(predictions=[f"# ::id {k}\n{graph}" for k, graph in enumerate(system[:5], 1)],
                        references=[f"# ::id g{k}\n{graph}" for k, graph in enumerate(gold[:5])])
    assert found["f"] == mrp.score(gold[:5], system[:5], metric="smatch").f  # paired in order
    other = evaluate.load(mrp.integrations.EVALUATE, "mrp", cache_dir=str(tmp_path))
    assert other.compute(predictions=system[:5], references=gold[:5], timeout=30)["f"] == \
        mrp.score(gold[:5], system[:5], metric="mrp", timeout=30).f


def test_torchmetrics_states_reduce_to_one_call() -> None:
    pytest.importorskip("torch")
    pytest.importorskip("torchmetrics")
    from mrp.integrations.torchmetrics import MRPMetric

    gold, system = _blocks(40)
    for metric in ("smatch", "mrp"):
        one = mrp.score(gold, system, metric=metric).to_dict()
        rng = random.Random(3)
        ranks = [MRPMetric(metric) for _ in range(3)]
        for k in range(0, 40, 5):  # batches spread over three simulated processes
            rng.choice(ranks).update(system[k:k + 5], gold[k:k + 5])
        merged = pickle.loads(pickle.dumps(ranks[0]))
        for other in ranks[1:]:
            merged.merge_state(other)  # what the all-reduce of dist_reduce_fx="sum" does
        found = merged.compute()
        main = one if metric == "smatch" else one["all"]
        assert [float(found[key]) for key in "fpr"] == [main[key] for key in "fpr"]
        assert int(found["n"]) == one["n"] and int(found["exact"]) == one["exact"]
        assert float(found["bound_f"]) == one["bound"]["f"]
    with pytest.raises(ValueError, match="add up"):
        MRPMetric("sembleu").update(system[:2], gold[:2])
