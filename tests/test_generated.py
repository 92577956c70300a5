"""Model output as it comes (issue 63 item 5): ``read="generated"`` / ``mrp-score --read generated`` finds the
graph in a language model's response, repairs what the Penman reader repairs, scores an unusable response
as an empty graph in its place, and reports the well-formed rate, the repaired rate and the reasons."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest

import mrp
from mrp.codecs.generated import reading_counts

from conftest import run_cli

WANT = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))"
DOG = '(b / bark-01 :ARG0 (d / dog :name (n / name :op1 "Rex")))'

#: realistic responses, one per kind: (gold, response, what reading it gives: the Penman text the graph is
#: read as, or None when unusable; the reason, or None when well-formed)
CASES: List[Tuple[str, str, Optional[str], Optional[str]]] = [
    # a bare graph, as a fine-tuned parser writes it
    (WANT, WANT, WANT, None),
    # a chat model: a sentence, a Markdown fence with a language tag, a closing remark
    (DOG, f"Sure! Here is the AMR graph for the sentence:\n\n```amr\n{DOG}\n```\n\nLet me know if you need "
          "anything else.", DOG, None),
    # prose with parentheses before the graph (not a graph), then the graph without a fence
    (WANT, f"The sentence (a simple one) has this AMR:\n{WANT}", WANT, None),
    # several candidate graphs: the first complete one counts
    (DOG, f"Option 1:\n```\n{DOG}\n```\nOption 2:\n```\n(b / bark-01)\n```", DOG, None),
    # cut off at the token limit: its parentheses closed
    (WANT, "```\n(w / want-01\n   :ARG0 (b / boy)\n   :ARG1 (g / go-02\n      :ARG0 b",
     "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))", "truncated"),
    # a parenthesis left open, and the response goes on
    (WANT, "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b)\n\nThis graph says the boy wants to go.",
     WANT, "unbalanced"),
    # one parenthesis too many
    (DOG, DOG + ")", DOG, "unbalanced"),
    # no graph at all: a refusal
    (WANT, "I'm sorry, but I cannot produce an AMR graph for this input.", None, "no graph"),
    # an invalid role (a space inside it)
    (DOG, '(b / bark-01 :ARG 0 (d / dog :name (n / name :op1 "Rex")))', None, "invalid role"),
    # cut off inside a quoted name: nothing the Penman reader repairs
    (DOG, '(b / bark-01 :ARG0 (d / dog :name (n / name :op1 "Re', None, "truncated"),
    # an empty response
    (WANT, "", None, "no graph"),
]

GOLD = [gold for gold, _, _, _ in CASES]
RESPONSES = [response for _, response, _, _ in CASES]
EXPECTED = {"responses": 11, "well_formed": 4, "repaired": 3, "unusable": 4, "well_formed_rate": 4 / 11,
            "repaired_rate": 3 / 11,
            "reasons": {"truncated": 2, "unbalanced": 2, "invalid role": 1, "no graph": 2}}


def _pairs(result: mrp.Result) -> Dict[str, Tuple[int, int, int]]:
    return {pair.id: (pair.figures.g, pair.figures.s, pair.figures.c) for pair in result.pairs}


def test_the_figures_of_model_output_in_the_library() -> None:
    result = mrp.score(GOLD, RESPONSES, metric="smatch", read="generated")
    assert result.generated == EXPECTED
    assert result.to_dict()["generated"] == EXPECTED
    assert result.to_dict()["invalid"] == 4 and result.to_dict()["repaired"] == 3
    pairs = _pairs(result)
    assert len(pairs) == len(CASES)  # nothing dropped: each response keeps its place
    for k, (gold, _, read_as, _) in enumerate(CASES):
        if read_as is None:  # unusable: an empty graph
            assert pairs[str(k)][1:] == (0, 0) and pairs[str(k)][0] > 0, k
        else:  # as the graph it is read as, written as Penman
            (alone,) = _pairs(mrp.score([gold], [read_as], metric="smatch")).values()
            assert pairs[str(k)] == alone, k


def test_a_scorer_adds_the_figures_of_its_batches() -> None:
    scorer = mrp.Scorer("smatch", read="generated")
    for start in range(0, len(CASES), 4):
        scorer.update(GOLD[start:start + 4], RESPONSES[start:start + 4])
    assert scorer.compute().generated == EXPECTED
    assert scorer.compute().f == mrp.score(GOLD, RESPONSES, metric="smatch", read="generated").f


def test_without_generated_reading_there_is_no_such_block() -> None:
    result = mrp.score(GOLD[:1], [WANT], metric="smatch")
    assert result.generated is None and "generated" not in result.to_dict()


def test_reading_counts_of_nothing() -> None:
    assert reading_counts(0, [], [])["well_formed_rate"] == 0.0


def _files(tmp_path: Path) -> Tuple[Path, Path]:
    gold = tmp_path / "gold.amr"
    gold.write_text("\n\n".join(GOLD) + "\n", encoding="utf-8")
    system = tmp_path / "responses.jsonl"
    lines = [json.dumps(response) if k % 2 else json.dumps({"response": response, "model": "x"})
             for k, response in enumerate(RESPONSES)]
    system.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return gold, system


def test_mrp_score_read_generated(tmp_path: Path) -> None:
    gold, system = _files(tmp_path)
    run = run_cli("score", ["--score", "smatch", "--read", "generated", "--gold", str(gold), str(system)])
    printed = json.loads(run.out)
    assert printed["generated"] == EXPECTED
    library = mrp.score(GOLD, RESPONSES, metric="smatch", read="generated").to_dict()
    assert (printed["g"], printed["s"], printed["c"]) == (library["g"], library["s"], library["c"])
    # stderr names each unusable response by its line, and says it is scored as empty
    assert f"{system.name}:8: graph 7: unusable model output (no graph) (scored as an empty graph)" in run.err
    table = run_cli("score", ["--score", "smatch", "--read", "generated", "--table", "--quiet", "--gold",
                              str(gold), str(system)])
    assert ("generated: well-formed 0.3636 (4 of 11), repaired 0.2727 (3), unusable 4 (scored as empty); "
            "reasons: truncated 2, unbalanced 2, invalid role 1, no graph 2") in table.out.splitlines()


@pytest.mark.parametrize("line, message", [
    ("not json", "not a JSON line"),
    ('{"answer": "(a / b)"}', "a JSON line without a response"),
])
def test_a_line_without_a_response_is_unusable_in_its_place(tmp_path: Path, line: str, message: str) -> None:
    system = tmp_path / "responses.jsonl"
    system.write_text(f'"{WANT}"\n{line}\n"{WANT}"\n', encoding="utf-8")
    result = mrp.score([WANT, WANT, WANT], system, metric="smatch", read="generated")
    assert result.generated is not None and result.generated["unusable"] == 1
    assert result.generated["reasons"] == {"unreadable": 1}
    assert _pairs(result)["1"][1:] == (0, 0) and _pairs(result)["2"] == _pairs(result)["0"]
