"""Every door fuzzed (issue 61): each command (mrp-score with every registered metric, mrp-convert,
mrp-validate, mrp-umr-validate, mrp-umr-compare, mrp-analyze, mrp-mtool, mrp-evaluate, mrp-similarity)
and the library (mrp.read, mrp.score) meets seeded mutations of the shared files of every format
(tests/fuzzing.py), often with an option of a hostile value (underflow, overflow, NaN, negative, huge, a
deeply nested option file): 0 internal errors, 0 tracebacks, every refusal one line naming the input or
the option.

The suite runs a short round (a few files per door, run in this process through each command's ``main``);
``MRP_FUZZ=k make fuzz`` runs 60 k files per door and prints the figures: files tried per door, failures.
A failure names its door, seed and file; ``fuzz_case`` rebuilds the file from the seed."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Callable, List, Optional, Sequence, Tuple

import pytest
from fuzzing import FIGURES, FUZZ_COUNT, Done, mutated, run_here, trouble, window

import mrp
from mrp.errors import MRPError
from mrp.metrics.registry import METRICS

from conftest import shared_path

#: the seed files: (path under ../shared/data or tests/data, format)
SEEDS = [("pairs/amr/test1.amr", "amr"), ("pairs/amr/coli.gold.amr", "amr"), ("pairs/amr/test1.mrp", "mrp"),
         ("wsj/dm/wsj.sdp", "dm"), ("wsj/psd/wsj.sdp", "psd"), ("wsj/eds/wsj.eds", "eds"),
         ("wsj/ucca/wsj.mrp", "mrp"), ("wsj/eds/wsj.mrp", "mrp"), ("umr/english/english_umr-0001.umr", "umr"),
         ("umr/czech-pdtc/dtest-gold.umr", "umr"), ("pairs/smatch/test_input1.txt", "amr")]
EXTENSIONS = {"amr": ".amr", "mrp": ".mrp", "dm": ".sdp", "psd": ".sdp", "eds": ".eds", "umr": ".umr"}
#: (option, hostile value) pairs, each for the doors that have the option
HOSTILE = [("--timeout", "1e-999"), ("--timeout", "nan"), ("--timeout", "-1"), ("--timeout", "1e999"),
           ("--max-memory", "1e-999"), ("--max-memory", "-5G"), ("--max-memory", "99999999999999999999999T"),
           ("--limit", "nan"), ("--limit", "1e999"), ("--limit", "-1"), ("--jobs", "0"), ("--jobs", "1e999"),
           ("--seed", "-1"), ("--seed", "1e-999"), ("--bootstrap", "0"), ("--bootstrap", "1e999"),
           ("--top-k", "1e-999"), ("--top-k", "-1"), ("--block-size", "99999999999999999999"),
           ("--wlk-iterations", "-1"), ("--wlk-iterations", "1e999"), ("--sembleu-weights", "nan,inf"),
           ("--sembleu-weights", "1e999"), ("--sembleu-weights", "-1,2"), ("--aspect-depth", "-1"),
           ("--aspect-depth", "1e999"), ("--rematch-frames", "DEEP"), ("--rematch-frames", "NOT_JSON"),
           ("--text", "DEEP"), ("--filter", "NOT_JSON"), ("--i", "-1"), ("--n", "1e999"), ("--indent", "-5"),
           ("--max-err", "-1"), ("--level", "99999999999999999999"), ("--cores", "-1"),
           ("--cores", "99999999999999999999")]
#: the options each door has (what a hostile value may be given to)
OPTIONS = {
    "score": ("--timeout", "--max-memory", "--limit", "--jobs", "--seed", "--bootstrap", "--text"),
    "convert": ("--text", "--filter", "--i", "--n", "--indent"),
    "validate": ("--text",),
    "umr_validate": ("--max-err", "--level"),
    "umr_compare": ("--timeout", "--max-memory"),
    "analyze": ("--text",),
    "mtool": ("--timeout", "--cores", "--text", "--filter", "--i", "--n"),
    "similarity": ("--timeout", "--max-memory", "--limit", "--jobs", "--top-k", "--block-size"),
    "evaluate": ("--jobs",),
}
METRIC_OPTIONS = {"wlk": "--wlk-iterations", "sembleu": "--sembleu-weights", "aspects": "--aspect-depth",
                  "rematch": "--rematch-frames"}

def _texts() -> List[Tuple[str, str]]:
    folder = shared_path() / "data"
    return [((folder / name).read_text(encoding="utf-8", errors="replace"), kind) for name, kind in SEEDS]


@pytest.fixture(scope="module")
def seeds() -> List[Tuple[str, str]]:
    return _texts()


def _hostile_file(directory: Path, kind: str) -> str:
    path = directory / f"{kind.lower()}.json"
    if kind == "DEEP":
        path.write_text('{"a": ' * 20_000 + "1" + "}" * 20_000)
    else:
        path.write_bytes(b"\xff\xfe{not json" * 10)
    return str(path)


def fuzz_case(seeds: Sequence[Tuple[str, str]], door: str, seed: int, directory: Path,
              kinds: Optional[Sequence[str]] = None) -> Tuple[str, str, List[str], str]:
    """The mutated file of a door's seed (written into ``directory``), its format, a hostile option (flag and
    value, or nothing) and the gold file: the same seed gives the same case."""
    rng = random.Random(f"{door}:{seed}")
    choices = [item for item in seeds if kinds is None or item[1] in kinds]
    text, kind = rng.choice(choices)
    clean = window(text, rng, 40 if kind != "mrp" else 6)
    path = directory / f"{door.replace(':', '-')}-{seed}{EXTENSIONS[kind]}"
    path.write_text(mutated(clean, rng), encoding="utf-8")
    gold = directory / f"gold-{seed}{EXTENSIONS[kind]}"
    gold.write_text(clean if rng.random() < 0.7 else mutated(clean, rng), encoding="utf-8")
    option: List[str] = []
    base = door.split(":")[0]
    allowed = OPTIONS.get(base, ()) + ((METRIC_OPTIONS[door.split(":")[1]],)
                                       if ":" in door and door.split(":")[1] in METRIC_OPTIONS else ())
    if allowed and rng.random() < 0.5:
        flag, value = rng.choice([item for item in HOSTILE if item[0] in allowed] or [("", "")])
        if flag:
            if value in ("DEEP", "NOT_JSON"):
                value = _hostile_file(directory, value)
            option = [flag, value]
    return str(path), kind, option, str(gold)


def _format(kind: str) -> str:
    return {"dm": "dm", "psd": "psd", "eds": "eds"}.get(kind, kind)


def _argv(door: str, path: str, kind: str, option: List[str], gold: str, out: Path) -> List[str]:
    base = door.split(":")[0]
    if base == "score":
        return ["--score", door.split(":")[1], "--quiet", "--jobs", "1", "--timeout", "2", *option,
                "--format", _format(kind), "--gold", gold, path]
    if base == "convert":
        target = {"umr": "mrp"}.get(kind, "mrp" if kind != "mrp" else "amr")
        return ["--from", _format(kind), "--to", target, *option, path, str(out / f"converted.{target}")]
    if base == "validate":
        return [*option, "--format", _format(kind), *(["--umr-level", "3"] if kind == "umr" else []), path]
    if base == "umr_validate":
        return ["--level", door.split(":")[1], *option, path]
    if base == "umr_compare":
        return ["--exact", "--quiet", "--timeout", "2", *option, "gold", gold, "system", path]
    if base == "analyze":
        return ["--format", _format(kind), *option, path]
    if base == "mtool":
        read = {"umr": "umr", "amr": "amr", "mrp": "mrp", "eds": "eds", "dm": "dm", "psd": "psd"}[kind]
        return ["--read", read, "--score", "mrp", "--timeout", "2", *option, "--gold", gold, path]
    if base == "similarity":
        return ["--metric", "smatch", "--jobs", "1", "--quiet", "--timeout", "2", *option, "--format",
                _format(kind), path, "--output", str(out / "matrix.npz")]
    raise AssertionError(door)


#: the doors and the formats each reads
DOORS: List[Tuple[str, Optional[Tuple[str, ...]]]] = (
    [(f"score:{name}", None) for name in METRICS]
    + [("convert", ("amr", "mrp", "dm", "psd", "eds")), ("validate", None), ("analyze", None),
       ("mtool", ("amr", "mrp", "dm", "psd", "eds")), ("similarity", ("amr", "mrp", "dm", "psd", "eds")),
       ("umr_compare", ("umr",))]
    + [(f"umr_validate:{level}", ("umr",)) for level in (1, 2, 3, 4, 5)])


def _names(path: str, gold: str, option: List[str], door: str) -> List[str]:
    """What a refusal may name: the inputs (by path or base name), the option, the metric."""
    names = [path, gold, os.path.basename(path), os.path.basename(gold), *option[:1]]
    names += [value for value in option[1:] if os.sep in value]  # an option's file
    if door.startswith("score:"):
        names.append(door.split(":")[1])
    return names


def _run_door(door: str, kinds: Optional[Sequence[str]], seeds: List[Tuple[str, str]], tmp_path: Path,
              call: Callable[[str, str, List[str], str, Path], Optional[str]]) -> None:
    failures = []
    for seed in range(FUZZ_COUNT):
        case = tmp_path / str(seed)
        case.mkdir()
        path, kind, option, gold = fuzz_case(seeds, door, seed, case, kinds)
        wrong = call(path, kind, option, gold, case)
        if wrong:
            failures.append(f"{door} seed {seed} ({kind}, {' '.join(option) or 'no option'}): {wrong}")
    tried, failed = FIGURES.setdefault(door, [0, 0])
    FIGURES[door] = [tried + FUZZ_COUNT, failed + len(failures)]  # printed at the end (conftest.py)
    assert not failures, "\n".join(failures[:5])


@pytest.mark.parametrize("door, kinds", DOORS, ids=[door for door, _ in DOORS])
def test_a_command_door(door: str, kinds: Optional[Tuple[str, ...]], seeds: List[Tuple[str, str]],
                        tmp_path: Path) -> None:
    def call(path: str, kind: str, option: List[str], gold: str, case: Path) -> Optional[str]:
        tool = door.split(":")[0]
        done: Done = run_here(tool, _argv(door, path, kind, option, gold, case))
        return trouble(done, _names(path, gold, option, door))

    _run_door(door, kinds, seeds, tmp_path, call)


def test_evaluate_door(seeds: List[Tuple[str, str]], tmp_path: Path) -> None:
    """mrp-evaluate on a submission whose files are mutated (the demo task's gold)."""
    root = Path(__file__).resolve().parent.parent / "data" / "demo" / "task"

    def call(path: str, kind: str, option: List[str], gold: str, case: Path) -> Optional[str]:
        team = case / "team"
        team.mkdir()
        text = Path(path).read_text(encoding="utf-8")
        for name in ("en-0001.umr", "cs-0001.umr"):
            (team / name).write_text(text if name.startswith(random.Random(path).choice(("en", "cs"))) else
                                     (root / "team-a" / name).read_text(encoding="utf-8"), encoding="utf-8")
        done = run_here("evaluate", ["--task", "dmr2026-umr", "--gold", str(root / "gold"), "--output",
                                     str(case / "results"), *option, str(team)])
        return trouble(done, [str(team), "team", *option[:1], "en-0001", "cs-0001"])

    _run_door("evaluate", ("umr",), seeds, tmp_path, call)


@pytest.mark.parametrize("metric", ["mrp", "smatch", "ancast", "sembleu"])
def test_the_library_door(metric: str, seeds: List[Tuple[str, str]], tmp_path: Path) -> None:
    """mrp.read and mrp.score on mutated files: a result or an MRPError, never another exception."""
    def call(path: str, kind: str, option: List[str], gold: str, case: Path) -> Optional[str]:
        try:
            mrp.read(path, format=_format(kind))
            mrp.score(gold, path, metric, format=_format(kind), timeout=2, jobs=1)
        except MRPError as error:
            message = str(error)
            if "\n" in message.strip():
                return f"a message of several lines: {message[:300]!r}"
        except Exception as error:  # noqa: BLE001 - what the test looks for
            return f"{type(error).__name__}: {str(error)[:300]}"
        return None

    _run_door(f"library:{metric}", None, seeds, tmp_path, call)
