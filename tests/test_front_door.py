"""The pipeline's front (issues 41 and 60): its keyword table (mrp.pipeline.keywords) gives every mrp-score
option as a library keyword (from the metrics' declared parameters, no hand-kept list); its reading
(mrp.pipeline.inputs) applies the read options to every kind of input, and ids never written pair by
position; a Scorer over any batching equals one call through it.  That every door goes through the pipeline
is tests/test_pipeline.py's and tests/test_architecture.py's."""

from __future__ import annotations

import inspect
import json
import random
import warnings
from dataclasses import replace
from pathlib import Path
from typing import Any, Dict, List

import penman
import pytest
from test_api import CASES

import mrp
from mrp.errors import InputError, MRPError
from mrp.pipeline.keywords import CLI_ONLY, keywords

from conftest import ROOT, run_cli, shared_file, timeless

GOLD = '# ::id a\n(w / want-01 :ARG0 (b / boy :wiki "Boy") :ARG1 (g / go-02 :ARG0 b))'
SYSTEM = '# ::id a\n(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))'


def _flags() -> Dict[str, Any]:
    """Every option string of mrp-score (with every metric's options) -> its argparse action."""
    from mrp.cli.score_args import parser

    return {flag: action for action in parser(None)._actions for flag in action.option_strings
            if flag.startswith("--") and flag != "--help"}


# ---------------------------------------------------------------- leak 1: options from the registry

def test_every_cli_option_is_a_library_keyword_and_back() -> None:
    flags = _flags()
    by_flag = {keyword.flag: keyword for keyword in keywords().values() if keyword.flag}
    for flag in flags:
        assert flag in by_flag or flag in CLI_ONLY, f"mrp-score {flag} has no library keyword and no reason"
        assert not (flag in by_flag and flag in CLI_ONLY), flag
    for flag, keyword in by_flag.items():
        assert flag in flags, f"keyword {keyword.name} names {flag}, which mrp-score does not have"
    assert all(reason for reason in CLI_ONLY.values())
    assert {name for name, keyword in keywords().items() if keyword.flag is None} == {"progress"}


def test_the_metric_flags_are_made_from_the_keyword_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """mrp-score's (and mrp-similarity's) metric options are the keyword table's: flag, destination, type,
    argument name, default, choices and help, each parameter once; what the table says, the flag says."""
    from mrp.pipeline import keywords as table
    from mrp.pipeline.keywords import metric_keywords

    flags = _flags()
    declared = metric_keywords()
    assert len({keyword.flag for keyword in declared}) == len(declared)
    for keyword in declared:
        action = flags[keyword.flag]
        assert (action.dest, action.help) == (keyword.name, keyword.help), keyword.flag
        if keyword.kind is None:
            assert (action.const, action.default, action.nargs) == (True, False, 0), keyword.flag
        else:
            assert (action.type, action.metavar, action.default, action.choices) == \
                (keyword.kind, keyword.metavar, keyword.default, keyword.choices), keyword.flag
    # a keyword of the table changed is the flag changed, with no edit of the command line
    shown = {**table.keywords(), "umatch_only": replace(table.keywords()["umatch_only"], help="changed",
                                                         metavar="WHAT")}
    monkeypatch.setattr(table, "keywords", lambda: shown)
    action = _flags()["--only"]
    assert (action.help, action.metavar) == ("changed", "WHAT")


def _described(action: Any) -> tuple:
    return (type(action), action.dest, action.nargs, action.const, action.default, action.type,
            action.choices, action.metavar, action.help)


def test_the_run_flags_are_made_from_the_keyword_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """mrp-score's flags of the keywords every run shares (--timeout, --jobs, --no-mip, --text, ...) are the
    keyword table's: flag, destination, action, type, argument name, default, choices and help; what the table
    says, mrp-score's flag (and the read flags of the other commands) says."""
    import argparse

    from mrp.cli import validate
    from mrp.pipeline import keywords as table

    run = [keyword for keyword in keywords().values() if keyword.flag and not keyword.metric]
    assert {keyword.flag for keyword in run} >= {"--timeout", "--limit", "--jobs", "--max-memory", "--no-mip"}
    flags = _flags()
    for keyword in run:
        alone = argparse.ArgumentParser().add_argument(keyword.flag, **keyword.argument())
        assert _described(flags[keyword.flag]) == _described(alone), keyword.flag
    # a run keyword without a Flag is a flag as the library has it: a switch for a bool, else its default
    plain = replace(keywords()["standardize"], cli=None)
    assert plain.argument() == {"dest": "standardize", "metavar": "PRESET", "default": "none",
                                "help": plain.help}
    switch = replace(keywords()["trace"], cli=None)
    assert switch.argument() == {"dest": "trace", "action": "store_true", "help": switch.help}
    # every entry of the table changed is every flag changed, with no edit of the command lines
    def changed(keyword: Any) -> Any:
        if keyword.flag is None or keyword.metric:
            return keyword
        cli = replace(keyword.cli, help=f"changed {keyword.name}", dest=f"the_{keyword.name}")
        if cli.action is None:
            cli = replace(cli, default=f"default of {keyword.name}")
        return replace(keyword, cli=cli, metavar=None if cli.action else keyword.name.upper())

    shown = {name: changed(keyword) for name, keyword in table.keywords().items()}
    monkeypatch.setattr(table, "keywords", lambda: shown)
    monkeypatch.setattr(table, "_SHARED", tuple(shown[keyword.name] for keyword in table._SHARED))
    flags = _flags()
    for keyword in run:
        action = flags[keyword.flag]
        assert (action.help, action.dest) == (f"changed {keyword.name}", f"the_{keyword.name}"), keyword.flag
        if not keyword.cli.action:
            assert (action.default, action.metavar) == (f"default of {keyword.name}", keyword.name.upper())
    read = {flag: action for action in validate.parser()._actions for flag in action.option_strings}
    assert read["--no-wiki"].help == "changed no_wiki" and read["--text"].metavar == "TEXT"


def test_every_metric_parameter_is_a_keyword_of_score_scorer_and_their_help() -> None:
    from mrp.metrics.registry import metrics

    signature, scorer = inspect.signature(mrp.score), inspect.signature(mrp.Scorer)
    for metric in metrics():
        for parameter in metric.parameters:
            assert parameter.field in signature.parameters, parameter.field
            assert parameter.field in scorer.parameters, parameter.field
            assert f"    {parameter.field} (" in (mrp.score.__doc__ or ""), parameter.field
            assert f"    {parameter.field} (" in (mrp.Scorer.__doc__ or ""), parameter.field
    for name in keywords():
        assert signature.parameters[name].kind is inspect.Parameter.KEYWORD_ONLY


#: a value other than the default for each parameter that is neither a switch nor one of a few words
SAMPLES: Dict[str, Any] = {"aspect_depth": None, "sembleu_weights": (0.5, 0.5), "umatch_only": "concept",
                           "umatch_except": "concept", "wlk_iterations": 3, "ancast_cneighbor": 2,
                           "ancast_sense_coefficient": 0.5,
                           "rematch_frames": str(ROOT / "tests" / "data" / "rematch" / "frames.json"),
                           "s2match_vectors": str(ROOT / "tests" / "data" / "s2match" / "vectors.txt"),
                           "s2match_cutoff": 0.25, "s2match_diffsense": 0.75}


def test_every_parameter_given_another_value_is_in_the_signature() -> None:
    """What can change the numbers is recorded: every metric parameter set to a value other than its
    default changes the metric's signature."""
    from mrp.engine.base import parameter_values
    from mrp.engine.options import Options
    from mrp.metrics.registry import metrics
    from mrp.report.signature import signature

    for metric in metrics():
        plain = signature(metric.name, ["amr"], Options())
        for parameter in metric.parameters:
            if parameter.kind is None:
                value: Any = True
            elif parameter.choices:
                value = next(choice for choice in parameter.choices if choice != parameter.default)
            else:
                assert parameter.field in SAMPLES, f"add a sample value of {parameter.field} to SAMPLES"
                value = SAMPLES[parameter.field]
            given = Options(**parameter_values({parameter.field: value}))
            assert signature(metric.name, ["amr"], given) != plain, \
                (metric.name, parameter.field)


def test_the_umatch_options_reproduce_the_command_line() -> None:
    gold = shared_file("data/umr/czech-pdtc/pcedt-gold.umr")
    system = shared_file("data/umr/czech-pdtc/pcedt-conv.umr")
    for options, flags in (({"umatch_compat": True}, ["--umatch-compat"]),
                           ({"umatch_top": True, "umatch_no_document_level": True},
                            ["--top", "--no-document-level"]),
                           ({"umatch_only": "concept,ARG0"}, ["--only", "concept,ARG0"])):
        run = run_cli("score", ["--score", "umatch", "--jobs", "1", *flags, "--gold", str(gold), str(system)])
        assert run.code == 0, run.err
        expected = timeless(json.loads(run.out))
        assert timeless(mrp.score(gold, system, metric="umatch", **options).to_dict()) == expected, options


def test_trace_errors_and_positional_are_keywords() -> None:
    traced = mrp.score(GOLD, SYSTEM, metric="smatch", trace=True).to_dict()
    assert set(traced["scores"][("amr")]) == {"a"}
    assert "scores" not in mrp.score(GOLD, SYSTEM, metric="smatch").to_dict()
    assert "errors" in mrp.score(GOLD, SYSTEM, metric="smatch", errors=True).to_dict()
    two = ["(a / alpha)", "(b / beta)"]
    with pytest.raises(InputError) as refused:
        mrp.score(two, two[:1], metric="smatch")
    assert "positional=True" in str(refused.value) and "--positional" not in str(refused.value)
    result = mrp.score(two, two[:1], metric="smatch", positional=True)
    assert [pair.id for pair in result.pairs] == ["0", "1"]


def test_explain_writes_the_report(tmp_path: Path) -> None:
    target = tmp_path / "report.html"
    mrp.score(GOLD, SYSTEM, metric="smatch", explain=str(target))
    assert "<html" in target.read_text(encoding="utf-8").lower()
    with pytest.raises(TypeError):
        mrp.score(GOLD, SYSTEM, metric="smatch", explain_id="a")


def test_a_keyword_of_another_metric_or_none_is_refused_by_name() -> None:
    with pytest.raises(TypeError, match="umatch_compat is a keyword of metric umatch"):
        mrp.score(GOLD, SYSTEM, metric="smatch", umatch_compat=True)
    with pytest.raises(TypeError, match="did you mean no_wiki"):
        mrp.score(GOLD, SYSTEM, metric="smatch", nowiki=True)
    with pytest.raises(ValueError, match="doc_align"):
        mrp.score(GOLD, SYSTEM, metric="smatch", doc_align="paragraph")
    with pytest.raises(TypeError, match="umatch_top"):
        mrp.Scorer("smatch", umatch_top=True)


def test_string_values_convert_as_the_command_line_converts_them() -> None:
    gold, system = shared_file("data/pairs/amr/test1.amr"), shared_file("data/pairs/amr/test2.amr")
    assert mrp.score(gold, system, metric="sembleu", sembleu_weights="2").to_dict()["weights"] == [0.5, 0.5]
    full = timeless(mrp.score(gold, system, metric="aspects", aspect_depth="full").to_dict())
    assert full == timeless(mrp.score(gold, system, metric="aspects", aspect_depth=None).to_dict())
    assert "depth:full" in full["signature"] or full != timeless(mrp.score(gold, system, metric="aspects")
                                                                 .to_dict())


# ---------------------------------------------------------------- leak 2: read options on every input kind

def _kinds(gold: str, system: str, objects: bool = True) -> Dict[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        graphs = (mrp.read(gold, format="amr"), mrp.read(system, format="amr"))
    found = {"str": (gold, system), "bytes": (gold.encode(), system.encode()),
             "list of str": ([gold], [system]), "mrp.Graph": graphs}
    if objects:  # penman.decode repairs nothing: a graph it cannot read is no penman.Graph
        found["penman.Graph"] = ([penman.decode(gold)], [penman.decode(system)])
    return found


def test_no_wiki_applies_to_every_kind_of_input() -> None:
    for options in ({}, {"no_wiki": True}):
        found = {kind: timeless(mrp.score(g, s, metric="smatch", **options).to_dict())
                 for kind, (g, s) in _kinds(GOLD, SYSTEM).items()}
        first = found["str"]
        assert first["f"] == (1.0 if options else pytest.approx(first["f"])), options
        assert all(value == first for value in found.values()), (options, found)
        for kind, (gold, system) in _kinds(GOLD, SYSTEM).items():
            scorer = mrp.Scorer("smatch", **options)
            scorer.update(gold, system)
            assert scorer.compute().f == first["f"], (options, kind)
    assert mrp.score(GOLD, SYSTEM, metric="smatch").f < 1.0


def test_no_wiki_applies_to_mrp_json_as_to_penman(tmp_path: Path) -> None:
    gold = tmp_path / "gold.mrp"
    mrp.write(mrp.read(GOLD, format="amr"), gold)
    system = tmp_path / "system.mrp"
    mrp.write(mrp.read(SYSTEM, format="amr"), system)
    assert mrp.score(gold, system, metric="smatch", no_wiki=True).f == 1.0
    run = run_cli("score", ["--score", "smatch", "--no-wiki", "--gold", str(gold), str(system)])
    assert run.code == 0 and json.loads(run.out)["f"] == 1.0, run.err


def test_strict_applies_to_every_kind_of_input() -> None:
    broken = SYSTEM[:-1]  # the last parenthesis left open: read by a repair
    for kind, (gold, system) in _kinds(GOLD, broken, objects=False).items():
        loose = mrp.score(gold, system, metric="smatch").to_dict()
        strict = mrp.score(gold, system, metric="smatch", strict=True).to_dict()
        assert (loose["repaired"], loose["invalid"]) == (1, 0), kind
        assert (strict["repaired"], strict["invalid"], strict["c"]) == (0, 1, 0), kind


def test_text_and_wsj_ids_are_refused_for_graphs_read_already() -> None:
    graphs = mrp.read(GOLD, format="amr")
    for option in ({"text": {"a": "The boy wants to go."}}, {"wsj_ids": True}):
        with pytest.raises(InputError, match="read from text or a path"):
            mrp.score(graphs, graphs, metric="smatch", **option)


def test_framework_applies_to_graph_objects() -> None:
    graphs = mrp.read(GOLD, format="amr")
    assert mrp.score(graphs, graphs, framework="amr").to_dict()["n"] == 1
    assert mrp.score(graphs, [graph for graph in graphs if False] or graphs, framework="amr").f == 1.0


# ---------------------------------------------------------------- leak 3: ids never written

def test_graphs_read_one_at_a_time_pair_by_position_as_strings_do() -> None:
    blocks = ["(a / alpha :ARG0 (b / beta))", "(c / gamma)", "(d / delta :mod (e / epsilon))"]
    system = ["(a / alpha :ARG0 (b / beta))", "(c / gamma :quant 1)", "(d / delta)"]
    gold_graphs = [graph for block in blocks for graph in mrp.read(block, format="amr")]
    system_graphs = [graph for block in system for graph in mrp.read(block, format="amr")]
    assert [graph.id for graph in gold_graphs] == ["0", "0", "0"]
    expected = timeless(mrp.score(blocks, system, metric="smatch", trace=True).to_dict())
    found = timeless(mrp.score(gold_graphs, system_graphs, metric="smatch", trace=True).to_dict())
    assert found == expected
    assert [graph.id for graph in gold_graphs] == ["0", "0", "0"]  # the caller's graphs are left alone


def test_an_id_set_by_the_caller_is_kept() -> None:
    graphs = [graph for block in ["(a / alpha)", "(b / beta)"] for graph in mrp.read(block, format="amr")]
    graphs[0].id, graphs[1].id = "x", "y"
    result = mrp.score(graphs, list(reversed(graphs)), metric="smatch", trace=True)
    assert [pair.id for pair in result.pairs] == ["x", "y"] and result.f == 1.0


def test_written_ids_are_not_marked() -> None:
    assert all(graph.assigned_id is None for graph in mrp.read(GOLD, format="amr"))


# ---------------------------------------------------------------- leak 11: batches

#: metric -> inputs of the batching test beyond test_api's CASES (AnCast on UMR documents)
DOCUMENTS = {"ancast": ("data/umr/czech-pdtc/pcedt-gold.umr", "data/umr/czech-pdtc/pcedt-conv.umr", [])}


def _sides(case: str) -> List[List[Any]]:
    gold, system, _ = CASES[case] if case in CASES else DOCUMENTS[case.split("/")[0]]
    with warnings.catch_warnings():  # a system graph that cannot be read is left out of both runs alike
        warnings.simplefilter("ignore")
        return [mrp.read(shared_file(gold)), mrp.read(shared_file(system), errors="skip")]


@pytest.mark.parametrize("case", [*sorted(CASES), "ancast/umr"])
def test_a_scorer_over_any_batching_equals_one_call(case: str) -> None:
    """One pair a batch (a document's relations then always cross batches), and random cuts; a batch's
    system side may be empty."""
    metric = case.split("/")[0]
    gold, system = _sides(case)
    whole = timeless(mrp.score(gold, system, metric=metric, trace=True).to_dict())
    rng = random.Random(11)
    n = len(gold)
    batchings = [list(range(1, n)), sorted(rng.sample(range(1, n), min(3, n - 1)))] if n > 1 else [[]]
    for cuts in batchings:
        scorer = mrp.Scorer(metric, trace=True)
        for start, end in zip([0, *cuts], [*cuts, n]):
            ids = {graph.id for graph in gold[start:end]}
            scorer.update(gold[start:end], [graph for graph in system if graph.id in ids])
        assert timeless(scorer.compute().to_dict()) == whole, (metric, cuts)


def test_a_scorer_refuses_when_no_batch_pairs() -> None:
    scorer = mrp.Scorer("smatch")
    scorer.update(GOLD, [])
    with pytest.raises(MRPError, match="no system graph of any batch pairs"):
        scorer.compute()


def test_library_messages_name_keywords_not_flags() -> None:
    from mrp.pipeline.keywords import spelled

    message = "pass --positional or --no-mip, see --foo"
    assert spelled(message) == "pass positional=True or mip=False, see --foo"
    with pytest.raises(MRPError) as raised:
        mrp.score("(a / alpha)", "(a / alpha)", metric="umatch", umatch_only="concept",
                  umatch_except="concept")
    assert "--" not in str(raised.value)


# ---------------------------------------------------------------- a new metric is its module and one line

def _recipe() -> str:
    from conftest import ROOT

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Adding a metric"):]
    start = section.index("```python\n") + len("```python\n")
    return section[start:section.index("\n```", start)]


def test_the_readme_recipe_registers_a_metric_for_the_cli_and_the_library(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from mrp.cli.score import main_body
    from mrp.metrics import registry

    recipe = _recipe()
    # the recipe takes the engine's public names, as every metric does (tests/test_architecture.py, SEALED)
    import ast

    import mrp.engine
    taken = [(node.module, alias.name) for node in ast.walk(ast.parse(recipe))
             if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("mrp")
             for alias in node.names]
    assert taken and all(module == "mrp.engine" and name in mrp.engine.__all__
                         for module, name in taken), taken
    (tmp_path / "overlap_recipe.py").write_text(recipe, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(registry.METRICS, "overlap", ("overlap_recipe", ()))
    gold, system = tmp_path / "gold.amr", tmp_path / "system.amr"
    gold.write_text("# ::id 1\n(w / Want-01 :ARG0 (b / boy))\n", encoding="utf-8")
    system.write_text("# ::id 1\n(w / want-01 :ARG0 (g / girl))\n", encoding="utf-8")

    loose = mrp.score(gold, system, metric="overlap")
    strict = mrp.score(gold, system, metric="overlap", overlap_strict=True)
    assert (loose.f, strict.f) == (0.5, 0.0)
    # its report gives its figures only: the envelope every result has comes from the base class
    from mrp.engine.pairing import COUNTS

    traced = mrp.score(gold, system, metric="overlap", trace=True).to_dict()
    assert list(traced) == ["n", "g", "s", "c", "p", "r", "f", "scores", "time", "cpu", *COUNTS, "macro",
                            "signature"]  # the last two: the library's, for every metric
    assert traced["n"] == 1 and list(traced["scores"]["amr"]) == ["1"]
    assert list(loose.to_dict()) == [key for key in traced if key != "scores"]
    assert "overlap_strict" in strict.signature and "overlap_strict" not in loose.signature
    with pytest.raises(TypeError, match="overlap_strict is a keyword of metric overlap"):
        mrp.score(gold, system, metric="smatch", overlap_strict=True)

    for flags, expected in (([], loose), (["--overlap-strict"], strict)):
        assert main_body(["--score", "overlap", *flags, "--quiet", "--gold", str(gold), str(system)]) == 0
        printed = json.loads(capsys.readouterr().out)
        assert timeless(printed) == timeless(expected.to_dict())
    scorer = mrp.Scorer("overlap", overlap_strict=True)
    scorer.update(gold, system)
    assert scorer.compute().f == 0.0
