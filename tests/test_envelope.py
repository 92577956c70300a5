"""Every result has the envelope (mrp.engine.envelope) from the base class, with the same meaning whatever
the metric: n first, the items under trace, time then cpu, the pairing counts, and for a metric whose layout
has them exact, bound, steps and cut; a metric's report holds its own figures only."""

from __future__ import annotations

import warnings
from typing import Any, Dict, List

import pytest

import mrp
from mrp.corpora.corpus import Corpus
from mrp.engine import envelope
from mrp.engine.base import Metric, PairCounts, Run
from mrp.engine.counting import prf
from mrp.engine.options import Options
from mrp.engine.pairing import COUNTS, Pair, pair
from mrp.metrics.registry import METRICS, metric

GOLD = ("# ::id a\n# ::snt x\n(w / want-01 :ARG0 (b / boy))\n\n"
        "# ::id b\n# ::snt y\n(s / sleep-01 :ARG0 (g / girl))\n\n"
        "# ::id c\n# ::snt z\n(r / rain-01)\n")
#: a, then a again (duplicate), then d (no gold graph); b and c have no system graph
SYSTEM = ("# ::id a\n# ::snt x\n(w / want-01 :ARG0 (b / boy))\n\n"
          "# ::id a\n# ::snt x\n(w / want-01)\n\n"
          "# ::id d\n# ::snt q\n(r / rain-01)\n")


def _result(name: str, trace: bool) -> Dict[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return mrp.score(GOLD, SYSTEM, metric=name, format="amr", trace=trace).to_dict()


def _layout(name: str) -> Any:
    found = metric(name)
    return found.layout or (envelope.SEARCHING if found.searches else envelope.PLAIN)


@pytest.mark.parametrize("name", sorted(METRICS))
def test_every_layout_places_the_envelope_once(name: str) -> None:
    layout = _layout(name)
    assert layout[0] == envelope.N and layout.count(envelope.FIGURES) == 1
    for section in (envelope.N, envelope.SCORES, envelope.TIME, envelope.ACCOUNTING):
        assert layout.count(section) == 1, section
    assert (envelope.EXACT in layout) == metric(name).searches
    assert len(set(layout)) == len(layout)


@pytest.mark.parametrize("name", sorted(METRICS))
def test_every_result_has_the_envelope_with_one_meaning(name: str) -> None:
    out = _result(name, trace=True)
    keys = list(out)
    assert keys[0] == "n" and out["n"] == 3  # gold graphs a, b, c: b and c scored against nothing
    assert {framework: sorted(items) for framework, items in out["scores"].items()} == \
        {"amr": ["a", "b", "c"]}
    assert keys[keys.index("time") + 1] == "cpu"
    assert out["time"] >= 0 and out["cpu"] >= 0
    assert {key: out[key] for key in COUNTS} == {"missing": 2, "unpaired": 1, "duplicates": 1, "invalid": 0,
                                                "repaired": 0}
    # the envelope's keys stand where the layout puts them, in its order
    written = envelope.written(_layout(name))
    assert [key for key in keys if key in written] == [key for key in written if key in out]
    items = [item for framework in out["scores"].values() for item in framework.values()]
    if envelope.EXACT in _layout(name):
        assert out["exact"] == sum(bool(item["exact"]) for item in items)
    if envelope.SEARCH in _layout(name):
        assert out["steps"] == sum(item["steps"] for item in items)
        assert out["bound"]["c"] == sum(item["bound"] for item in items)
        assert out["cut"]["n"] == sum("cut" in item for item in items)
        assert [out["cut"][why] for why in ("limit", "timeout", "error")] == \
            [sum(item.get("cut") == why for item in items) for why in ("limit", "timeout", "error")]
    untraced = _result(name, trace=False)
    assert "scores" not in untraced
    assert [key for key in untraced] == [key for key in keys if key != "scores"]


class _Toy(Metric):
    name = "toy"

    def __init__(self, report: Dict[str, Any], layout: Any = None) -> None:
        self.figures_of, self.layout = report, layout

    def score(self, pair: Pair, options: Options) -> PairCounts:
        return PairCounts({(): (len(pair.gold.nodes), len(pair.system.nodes), 0)})

    def report(self, run: Run) -> Dict[str, Any]:
        return dict(self.figures_of)


def _run(toy: _Toy, trace: bool = False) -> Dict[str, Any]:
    from mrp.engine.driver import evaluate_metric as evaluate

    graphs = mrp.read(GOLD, format="amr")
    gold = Corpus("gold", "amr", graphs=graphs)
    system = Corpus("system", "amr", graphs=graphs[:1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return evaluate(toy, pair(gold, system), Options(trace=trace))[0]


def test_a_new_metric_gets_the_envelope_from_the_base_class() -> None:
    out = _run(_Toy(prf(3, 4, 2)), trace=True)
    assert list(out) == ["n", "g", "s", "c", "p", "r", "f", "scores", "time", "cpu", *COUNTS]
    assert out["n"] == 3 and out["missing"] == 2 and sorted(out["scores"]["amr"]) == ["a", "b", "c"]


def test_a_layout_places_named_figures_and_the_rest_in_order() -> None:
    layout = (envelope.N, envelope.SCORES, envelope.FIGURES, envelope.TIME, "after", envelope.ACCOUNTING)
    out = _run(_Toy({"after": 1, "x": 2, "y": 3}, layout + ("absent",)))  # a key named but absent: skipped
    assert list(out) == ["n", "x", "y", "time", "cpu", "after", *COUNTS]


@pytest.mark.parametrize("report", [{"n": 3}, {"time": 0.0}, {"missing": 0}, {"scores": {}}])
def test_a_report_that_writes_the_envelope_is_refused(report: Dict[str, Any]) -> None:
    with pytest.raises(TypeError, match="which the envelope writes"):
        _run(_Toy(report))


def test_a_layout_without_the_figures_is_refused() -> None:
    with pytest.raises(TypeError, match="places its figures"):
        _run(_Toy({}, (envelope.N, envelope.TIME)))


def test_a_searching_layout_writes_exact_and_the_search() -> None:
    toy = _Toy({"f": 0.5}, envelope.SEARCHING)
    keys: List[str] = list(_run(toy))
    assert keys == ["n", "f", "exact", "time", "cpu", "bound", "steps", "cut", *COUNTS]
