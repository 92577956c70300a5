"""UMR sentences pair by (document, sentence): a missing, an extra or a moved sentence or document affects
itself only."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Dict, List

import pytest

import mrp

from conftest import shared_file

SEPARATOR = re.compile(r"(?m)^(?=#{80}\n)")


def _documents(path: Path) -> List[List[str]]:
    """The blocks of a release-layout UMR file, grouped by document (a document starts at snt1)."""
    documents: List[List[str]] = []
    for block in SEPARATOR.split(path.read_text(encoding="utf-8")):
        number = re.search(r"(?m)^# :: snt(\d+)", block)
        if number is None:
            continue
        if int(number.group(1)) == 1 or not documents:
            documents.append([])
        documents[-1].append(block)
    return documents


def _write(path: Path, documents: List[List[str]]) -> Path:
    path.write_text("".join("".join(blocks) for blocks in documents), encoding="utf-8")
    return path


def _items(gold: Path, system: Path, metric: str) -> Dict[str, Any]:
    result = mrp.score(gold, system, metric=metric)
    return {pair.id: pair.item for pair in result.pairs}


@pytest.fixture(scope="module")
def dtest() -> Dict[str, Any]:
    gold = shared_file("data/umr/czech-pdtc/dtest-gold.umr")
    system = shared_file("data/umr/czech-pdtc/dtest-conv.umr")
    return {"gold": gold, "system": system, "documents": _documents(system),
            "full": {metric: _items(gold, system, metric) for metric in ("smatch", "mrp")}}


def _strip(item: Any) -> Any:
    return {key: value for key, value in item.items() if key not in ("steps",)}


@pytest.mark.parametrize("metric", ["smatch", "mrp"])
@pytest.mark.parametrize("where", [(2, 0), (2, 2), (4, 0)])
def test_a_missing_sentence_affects_itself_only(dtest: Dict[str, Any], tmp_path: Path, metric: str,
                                                where: Any) -> None:
    document, sentence = where
    documents = [list(blocks) for blocks in dtest["documents"]]
    removed = documents[document - 1].pop(sentence)
    number = re.search(r"(?m)^# :: snt(\d+)", removed).group(1)  # type: ignore[union-attr]
    missing = f"d{document}.s{number}"
    items = _items(dtest["gold"], _write(tmp_path / "system.umr", documents), metric)
    full = dtest["full"][metric]
    assert set(items) == set(full)
    assert items[missing].get("null") or (items[missing]["c"] if "c" in items[missing] else
                                           items[missing]["all"]["c"]) == 0
    for gid, item in full.items():
        if gid != missing:
            assert _strip(items[gid]) == _strip(item), gid


def test_an_extra_sentence_is_unpaired_and_affects_nothing_else(dtest: Dict[str, Any],
                                                                 tmp_path: Path) -> None:
    documents = [list(blocks) for blocks in dtest["documents"]]
    extra = re.sub(r"(?m)^# :: snt\d+", "# :: snt99", documents[0][-1])
    documents[0].append(extra)
    result = mrp.score(dtest["gold"], _write(tmp_path / "system.umr", documents), metric="smatch")
    assert result.to_dict()["unpaired"] == 1
    assert {pair.id: _strip(pair.item) for pair in result.pairs} == {
        gid: _strip(item) for gid, item in dtest["full"]["smatch"].items()}


def test_swapped_documents_pair_as_before(dtest: Dict[str, Any], tmp_path: Path) -> None:
    documents = [list(blocks) for blocks in dtest["documents"]]
    documents[1], documents[2] = documents[2], documents[1]
    items = _items(dtest["gold"], _write(tmp_path / "system.umr", documents), "smatch")
    assert {gid: _strip(item) for gid, item in items.items()} == {
        gid: _strip(item) for gid, item in dtest["full"]["smatch"].items()}


def test_a_small_hand_made_file(tmp_path: Path) -> None:
    def block(number: int, concept: str) -> str:
        return (f"{'#' * 80}\n# :: snt{number}\nIndex: 1\nWords: w{number}{concept}\n\n"
                f"# sentence level graph:\n(s{number}x / {concept})\n\n# alignment:\ns{number}x: 1-1\n\n"
                f"# document level annotation:\n(s{number}s0 / sentence)\n\n")

    gold = _write(tmp_path / "gold.umr", [[block(1, "a"), block(2, "b")], [block(1, "c"), block(2, "d")]])
    system = _write(tmp_path / "system.umr", [[block(2, "d")], [block(2, "b")]])  # no snt1, documents swapped
    result = mrp.score(gold, system, metric="smatch")
    figures = {pair.id: pair.figures.c for pair in result.pairs if pair.figures}
    assert figures == {"d1.s1": 0, "d1.s2": 3, "d2.s1": 0, "d2.s2": 3}


def test_quiet_silences_the_umr_readers_messages(dtest: Dict[str, Any], tmp_path: Path) -> None:
    from conftest import run_cli, timeless

    documents = [list(blocks) for blocks in dtest["documents"]]
    documents[1].pop(2)  # later sentences' relations now name variables of a missing sentence
    system = _write(tmp_path / "system.umr", documents)
    args = ["--score", "smatch", "--gold", str(dtest["gold"]), str(system)]
    loud, quiet = run_cli("score", args), run_cli("score", ["--quiet", *args])
    assert loud.code == quiet.code == 0
    assert timeless(json.loads(loud.out)) == timeless(json.loads(quiet.out))
    assert "is neither a variable of this or an earlier sentence" in loud.err
    assert all(line.startswith("mrp-score: ") for line in loud.err.splitlines())
    assert quiet.err == ""
