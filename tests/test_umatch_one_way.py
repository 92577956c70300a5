"""The juːmæʧ metric counts a gold file against a system file only, not the system against the gold as well
(``compare.run(one_way=True)``, issue 64 goal 2): an oracle against the run counting both ways, which the
comparator's report needs, on every shared UMR file pair: the same correspondence, counts per sentence
pair, document-level counts, cuts and forward tallies, under the greedy and the exact map."""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

import pytest

from mrp.corpora.load import read_corpus
from mrp.metrics.umatch import compare, graphs
from mrp.metrics.umatch.exact import ExactMapper
from mrp.metrics.umatch.triples import Selection

from conftest import ROOT, shared_file

CZECH = "data/umr/czech-pdtc"


def _pairs() -> List[Tuple[str, str]]:
    czech = [(str(shared_file(CZECH, f"{n}-gold.umr")), str(shared_file(CZECH, f"{n}-conv.umr")))
             for n in ("pdt", "pdtsc", "pcedt")]
    english = sorted(shared_file("data", "umr", "english").glob("*.umr"))
    data = ROOT / "tests" / "data" / "umatch"
    return czech + [(czech[0][1], czech[0][0]), (str(data / "gold.umr"), str(data / "system.umr")),
                    (str(english[0]), str(english[0]))]


def _run(gold: str, system: str, compat: bool, exact: bool, settings: compare.Settings, one_way: bool
         ) -> Tuple[Any, ...]:
    """One run on freshly read files: what the metric reads of it, and the correspondence it made."""
    first, second = read_corpus(gold, "umr").graphs, read_corpus(system, "umr").graphs
    pairs = list(zip(first, second))
    files = graphs.files(pairs, settings.top, compat)[:2]
    mapper: Optional[ExactMapper] = ExactMapper() if exact else None
    result = compare.run(list(files), settings, mapper, check_tokens=False, one_way=one_way)
    links = [sorted((node.variable, sorted(node.cross.get("SYSTEM", {}))) for node in item.nodes.values())
             for item in files[0].sentences]
    proofs = sorted((key, vars(proof)) for key, proof in mapper.proofs.items()) if mapper else []
    return (result.sentences.get(("GOLD", "SYSTEM")), result.documents.get(("GOLD", "SYSTEM")),
            sorted(result.capped), sorted(result.stopped), dict(result.counts[("GOLD", "SYSTEM")]),
            dict(result.nodes), dict(result.tokens), {k: dict(v) for k, v in result.projected.items()},
            links, proofs, ("SYSTEM", "GOLD") in result.counts)


@pytest.mark.parametrize("k", range(6))
@pytest.mark.parametrize("compat, exact", [(True, False), (False, False), (False, True)])
def test_one_way_counts_what_the_metric_reads_as_both_ways_do(k: int, compat: bool, exact: bool) -> None:
    gold, system = _pairs()[k]
    for settings in (compare.Settings(), compare.Settings(Selection.of(["concept", "ARG0"]), False, True)):
        both = _run(gold, system, compat, exact, settings, one_way=False)
        one = _run(gold, system, compat, exact, settings, one_way=True)
        assert one[:-1] == both[:-1]
        assert both[-1] and not one[-1]  # the system's counts against the gold: left out
        assert sum(item.get("correct", 0) for item in one[0]) > 0
