"""Option values (issue 42, item 3): one check of timeout, limit, jobs and the other numeric options, for
every command and the library.  ``inf`` (and 0) is "no cap"; NaN, negative and non-numbers are refused with
a one-line message (exit 2 on the command line, :class:`mrp.errors.OptionError` in the library)."""

from __future__ import annotations

import json
import math
import time
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Dict, List

import numpy as np
import pytest

import mrp
from mrp.engine.options import checked
from mrp.errors import MRPError, OptionError

from conftest import run_cli

GOLD = """# ::id 1
(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))

# ::id 2
(d / dog :mod (b / big))
"""
SYSTEM = """# ::id 1
(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 (g2 / girl)))

# ::id 2
(d / dog)
"""

NAN, INF = float("nan"), float("inf")


@pytest.fixture
def files(tmp_path: Path) -> Dict[str, str]:
    (tmp_path / "g.amr").write_text(GOLD)
    (tmp_path / "s.amr").write_text(SYSTEM)
    return {"gold": str(tmp_path / "g.amr"), "system": str(tmp_path / "s.amr"), "dir": str(tmp_path)}


# --- the one check ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, value, expected", [
    ("timeout", None, None), ("timeout", 0, None), ("timeout", INF, None), ("timeout", 2, 2.0),
    ("timeout", 0.25, 0.25), ("timeout", np.float64(3), 3.0), ("limit", None, None), ("limit", 0, 0),
    ("limit", 3000, 3000), ("limit", INF, None), ("limit", np.int64(7), 7), ("jobs", "auto", 0),
    ("jobs", " Auto ", 0), ("jobs", 3, 3), ("top_k", None, None), ("top_k", 1, 1),
    ("block_size", 5, 5), ("bootstrap", 200, 200), ("seed", 0, 0), ("seed", 12, 12)])
def test_accepted_values(name: str, value: Any, expected: Any) -> None:
    assert checked(name, value) == expected


@pytest.mark.parametrize("name, value", [
    ("timeout", NAN), ("timeout", -1), ("timeout", -INF), ("timeout", "10"), ("timeout", True),
    ("limit", -1), ("limit", 2.5), ("limit", NAN), ("limit", -INF), ("limit", "5"), ("limit", False),
    ("jobs", -1), ("jobs", 0), ("jobs", 1.5), ("jobs", "many"), ("jobs", None), ("jobs", True), ("top_k", 0),
    ("block_size", -3), ("bootstrap", 0), ("seed", -1), ("seed", None), ("seed", 1.5)])
def test_refused_values(name: str, value: Any) -> None:
    """The command line's values are text, read exactly; the library takes no text for a number (but
    ``jobs="auto"``)."""
    line = not isinstance(value, str) or name == "jobs"
    with pytest.raises(OptionError) as raised:
        checked(name, value, flag=line)
    message = str(raised.value)
    assert "\n" not in message and message.startswith(("--" + name.replace("_", "-") if line else name) + ":")
    assert isinstance(raised.value, ValueError) and isinstance(raised.value, MRPError)


# --- the library ------------------------------------------------------------------------------------------

def _signature(result: mrp.Result) -> str:
    return str(result.to_dict()["signature"])


def test_library_inf_is_no_cap(files: Dict[str, str]) -> None:
    """timeout=inf scores as timeout=0 (no cap): the same numbers and signature, no timeout field."""
    unbounded = mrp.score(files["gold"], files["system"], "smatch", timeout=INF)
    zero = mrp.score(files["gold"], files["system"], "smatch", timeout=0)
    assert "timeout:" not in _signature(unbounded)
    assert _signature(unbounded) == _signature(zero)
    assert unbounded.f == zero.f and unbounded.exact


@pytest.mark.parametrize("keywords", [{"timeout": -1}, {"timeout": NAN}, {"limit": -5}, {"limit": 1.5},
                                      {"jobs": -2}, {"jobs": "lots"}, {"bootstrap": 0}, {"seed": -1}])
def test_library_refuses(files: Dict[str, str], keywords: Dict[str, Any]) -> None:
    """Before anything is scored (a negative timeout cut every pair at once, silently, before)."""
    name = next(iter(keywords))
    with pytest.raises(OptionError, match=f"^{name}: "):
        mrp.score(files["gold"], files["system"], "smatch", **keywords)
    with pytest.raises(OptionError, match=f"^{name}: "):
        mrp.Scorer("smatch", **keywords)


@pytest.mark.parametrize("keywords", [{"timeout": -1}, {"timeout": NAN}, {"limit": -1}, {"jobs": -1},
                                      {"top_k": 0}, {"block_size": 0}])
def test_similarity_refuses(files: Dict[str, str], keywords: Dict[str, Any]) -> None:
    name = next(iter(keywords))
    with pytest.raises(OptionError, match=f"^{name}: "):
        mrp.similarity(files["gold"], metric="smatch", **keywords)


@pytest.mark.parametrize("keywords", [{"timeout": NAN}, {"jobs": 0.5}, {"block_size": -1}])
def test_ensemble_refuses(files: Dict[str, str], keywords: Dict[str, Any]) -> None:
    name = next(iter(keywords))
    with pytest.raises(OptionError, match=f"^{name}: "):
        mrp.ensemble([files["gold"], files["system"]], "smatch", **keywords)


def test_similarity_inf_is_no_cap(files: Dict[str, str]) -> None:
    capped = mrp.similarity(files["gold"], files["system"], metric="smatch", timeout=INF)
    assert capped.all_exact
    assert np.array_equal(capped.c, mrp.similarity(files["gold"], files["system"], metric="smatch").c)


def test_watchdog_survives_an_endless_deadline() -> None:
    """A deadline of inf (or years away) does not kill the watchdog's thread (OverflowError before): a
    later, short deadline still fires."""
    from mrp.solver.watchdog import Watchdog

    dog = Watchdog()
    far, near = np.zeros(1, np.uint8), np.zeros(1, np.uint8)
    dog.arm(far, INF)
    time.sleep(0.05)
    dog.arm(near, 1e12)
    time.sleep(0.05)
    dog.arm(near, 0.01)
    deadline = time.monotonic() + 30
    while not near[0] and time.monotonic() < deadline:
        time.sleep(0.01)
    assert near[0] == 1 and far[0] == 0


# --- the commands -----------------------------------------------------------------------------------------

def _refused(tool: str, args: List[str], option: str) -> None:
    done = run_cli(tool, args)
    assert done.code == 2, (tool, args, done)
    assert done.out == ""
    lines = done.err.strip().splitlines()
    assert len(lines) == 1 and option in lines[0] and "Traceback" not in done.err, done.err


@pytest.mark.parametrize("value", ["nan", "-1", "-inf"])
def test_score_refuses(files: Dict[str, str], value: str) -> None:
    _refused("score", ["--score", "smatch", f"--timeout={value}", "--gold", files["gold"], files["system"]],
             "--timeout")


def test_score_refuses_a_negative_limit(files: Dict[str, str]) -> None:
    _refused("score", ["--score", "smatch", "--limit", "-1", "--gold", files["gold"], files["system"]],
             "--limit")


def test_score_inf(files: Dict[str, str]) -> None:
    """--timeout inf: no cap, the signature as with --timeout 0 (it said "timeout:infs" before)."""
    runs = [run_cli("score", ["--score", "smatch", "--timeout", value, "--gold", files["gold"],
                              files["system"]]) for value in ("inf", "0")]
    assert [done.code for done in runs] == [0, 0] and "Traceback" not in runs[0].err
    documents = [json.loads(done.out) for done in runs]
    assert documents[0]["signature"] == documents[1]["signature"]
    assert "timeout:" not in documents[0]["signature"]
    assert documents[0]["f"] == documents[1]["f"]


@pytest.mark.parametrize("args, option", [
    (["--timeout", "-1"], "--timeout"), (["--timeout", "nan"], "--timeout"), (["--limit", "-3"], "--limit"),
    (["--jobs", "-1"], "--jobs"), (["--top-k", "0"], "--top-k"), (["--block-size", "0"], "--block-size")])
def test_similarity_command_refuses(files: Dict[str, str], args: List[str], option: str) -> None:
    output = str(Path(files["dir"]) / "m.npz")
    _refused("similarity", ["--metric", "smatch", *args, files["gold"], "--output", output], option)
    assert not Path(output).exists()


def test_ensemble_command_refuses(files: Dict[str, str]) -> None:
    output = str(Path(files["dir"]) / "e.amr")
    _refused("ensemble", ["--metric", "smatch", "--timeout", "nan", "--output", output, "--report",
                          str(Path(files["dir"]) / "e.json"), files["gold"],
                          files["system"]], "--timeout")


@pytest.mark.parametrize("value", ["nan", "-2"])
def test_mtool_refuses(files: Dict[str, str], value: str) -> None:
    _refused("mtool", ["--read", "amr", "--score", "smatch", "--timeout", value, "--gold", files["gold"],
                       files["system"]], "--timeout")


def test_umr_compare_refuses(files: Dict[str, str]) -> None:
    _refused("umr_compare", ["--exact", "--timeout", "nan", files["gold"], files["system"]], "--timeout")


def test_checked_is_total_on_floats() -> None:
    """Every float is either accepted as a timeout (a number of seconds or None) or refused; never a crash."""
    for value in (0.0, -0.0, 1e-300, 1e300, INF, -INF, NAN, -1e-300, math.pi):
        try:
            result = checked("timeout", value)
        except OptionError:
            assert not value >= 0 or math.isnan(value)
        else:
            assert result is None or result > 0


# --- issue 61, item 4: no value turns into "no cap" by underflow or overflow ---------------------------

@pytest.mark.parametrize("option", ["--timeout", "--max-memory"])
@pytest.mark.parametrize("value", ["1e-999", "1e-400", "-1e-999", "1e999", "1e400", "1e-99999999999"])
def test_score_refuses_underflow_and_overflow(files: Dict[str, str], option: str, value: str) -> None:
    """``1e-999`` parsed as a float is 0, which means no cap (signature ``maxmem:none``) while 0.5 was
    refused; ``1e999`` is inf, no cap too: both are refused, in one line naming the option."""
    _refused("score", ["--score", "smatch", f"{option}={value}", "--gold", files["gold"], files["system"]],
             option)


@pytest.mark.parametrize("tool, args", [
    ("similarity", ["--metric", "smatch", "--timeout", "1e-999"]),
    ("similarity", ["--metric", "smatch", "--max-memory", "1e-999M"]),
    ("similarity", ["--metric", "smatch", "--top-k", "1e999"]),
    ("similarity", ["--metric", "smatch", "--limit", "99999999999999999999999"]),
    ("mtool", ["--read", "amr", "--score", "smatch", "--timeout", "1e-999"]),
    ("umr_compare", ["--exact", "--timeout", "1e-999"]),
    ("umr_compare", ["--exact", "--max-memory", "1e-999"]),
    ("score", ["--score", "smatch", "--limit", "1e30"]),
    ("score", ["--score", "smatch", "--seed", "1e-999"]),
    ("score", ["--score", "smatch", "--bootstrap", "1e999"]),
    ("score", ["--score", "smatch", "--timeout", "ten"]),
    ("score", ["--score", "smatch", "--jobs", "1e999"]),
    ("score", ["--score", "smatch", "--jobs", "99999999999"]),  # OverflowError: int too large for C int
    ("similarity", ["--metric", "smatch", "--jobs", "99999999999"]),
    ("mtool", ["--read", "amr", "--score", "smatch", "--cores", "99999999999999999999"])])
def test_commands_refuse_hostile_numbers(files: Dict[str, str], tool: str, args: List[str]) -> None:
    option = [arg for arg in args if arg.startswith("--")][-1]
    rest = {"similarity": [files["gold"], "--output", str(Path(files["dir"]) / "m.npz")],
            "mtool": ["--gold", files["gold"], files["system"]],
            "umr_compare": [files["gold"], files["system"]],
            "score": ["--gold", files["gold"], files["system"]]}[tool]
    _refused(tool, [*args, *rest], option)


def test_argument_errors_are_one_line(files: Dict[str, str]) -> None:
    """argparse's own refusals (an unknown option, a missing file) are one line too, not a usage block."""
    _refused("score", ["--bogus", "--gold", files["gold"], files["system"]], "--bogus")
    _refused("score", [files["system"]], "--gold")


@pytest.mark.parametrize("name, value", [
    ("timeout", Fraction(1, 10 ** 1000)), ("timeout", 10 ** 400), ("timeout", Decimal("1e-999")),
    ("max_memory", Fraction(1, 10 ** 1000)), ("max_memory", 10 ** 400), ("max_memory", 1e300),
    ("max_memory", "1e-999"), ("max_memory", "1e999G"), ("limit", 2 ** 64), ("seed", 2 ** 70),
    ("top_k", 10 ** 30), ("block_size", 2 ** 63), ("jobs", 10 ** 30), ("bootstrap", 10 ** 19)])
def test_library_refuses_underflow_and_overflow(name: str, value: Any) -> None:
    with pytest.raises(OptionError) as raised:
        checked(name, value)
    message = str(raised.value)
    assert message.startswith(name + ":") and "\n" not in message and len(message) < 200


def test_library_refuses_underflow_when_scoring(files: Dict[str, str]) -> None:
    with pytest.raises(OptionError, match="^max_memory: .*underflows"):
        mrp.score(files["gold"], files["system"], "smatch", max_memory="1e-999")
    with pytest.raises(OptionError, match="^timeout: .*underflows"):
        mrp.score(files["gold"], files["system"], "smatch", timeout=Fraction(1, 10 ** 400))


@pytest.mark.parametrize("text, expected", [("1e-300", 1e-300), ("2.5", 2.5), ("0", None), ("inf", None),
                                            ("1e3", 1000.0), ("+INF", None), ("-0", None)])
def test_command_line_seconds_read_exactly(text: str, expected: Any) -> None:
    assert checked("timeout", text, flag=True) == expected
