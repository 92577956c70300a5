"""The kit's lean UMR validation (mrp.validation.umr.reading.umr_problems): the problems of validate_umr's
report in its order, a level check's left as it was found, give the report's problems, lines and test tags
once each is made into the report's problem, on the shared files and on files perturbed to fail every kind
of check (trailing white space, empty lines, blocks, bracketed sentence ids, CRLF, unreadable parts)."""

from __future__ import annotations

from pathlib import Path
from typing import List

import pytest

from mrp.task.gold import tagged
from mrp.validation.umr.check import LevelProblem
from mrp.validation.umr.reading import level_problem, umr_problems, validate_umr

from conftest import ROOT, shared_file


def _perturbed(source: Path, folder: Path) -> List[Path]:
    text = source.read_text(encoding="utf-8")
    lines = text.split("\n")
    variants = {
        "trailing": "\n".join(line + ("  " if k % 3 == 0 else "") for k, line in enumerate(lines)),
        "empty": text.replace("\n\n\n", "\n\n\n\n", 5) + "\n" * 7,
        "blocks": text.replace("# alignment:", "# alignment:\n\n", 3),
        "bracket": text.replace("# :: snt1", "# :: snt1 [x]", 1).replace("::snt", ":: snt[", 2) + "  \n\n\n",
        "crlf": text.replace("\n", "\r\n", 40),
        "broken": text.replace("(s1", "((s1", 1).replace(":ARG0", ":ARG0 (", 2) + "\n\n\nstray line\n",
        "comment": text.replace("\n(", "\n# a comment\n(", 2),
    }
    found = []
    for name, variant in variants.items():
        path = folder / f"{source.stem}-{name}.umr"
        path.write_bytes(variant.encode("utf-8"))
        found.append(path)
    return found


def _files(tmp_path: Path) -> List[Path]:
    czech, english = shared_file("data", "umr", "czech-pdtc"), shared_file("data", "umr", "english")
    files = [czech / "pdt-gold.umr", czech / "dtest-conv.umr", *sorted(english.glob("*.umr"))[:2]]
    files += sorted((ROOT / "data" / "demo" / "task" / "gold").glob("*.umr"))
    return files + [path for source in files[1:3] + files[-1:] for path in _perturbed(source, tmp_path)]


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_the_lean_problems_are_the_report_s(tmp_path: Path, level: int) -> None:
    levels = 0
    for path in _files(tmp_path):
        full = validate_umr(str(path), level=level)
        report, found = umr_problems(str(path), level)
        assert report.fatal == full.fatal, path
        made = [level_problem(report.name, p) if isinstance(p, LevelProblem) else p for p in found]
        levels += sum(isinstance(p, LevelProblem) for p in found)
        assert made == full.problems, path
        assert [str(p) for p in made] == [str(p) for p in full.problems]
        assert [p.test for p in made] == [p.test for p in full.problems]
        assert [tagged(p) for p in found] == [tagged(p) for p in full.problems], path
    assert levels > (100 if level else -1)  # the files hold level problems to be made


def test_a_variable_is_read_as_the_rule_says_in_any_script() -> None:
    """A variable is ``s``, digits, lowercase letters of any script (Unicode Ll), optional digits, each run
    as long as it goes: on random texts of ASCII and other characters, what the checks read is what a
    pattern of that rule over the alphabet finds."""
    import random
    import re
    import unicodedata

    from mrp.validation.umr.state import variable

    alphabet = "s0123456789abkqzAZ:_- (\u00e9\u00df\u0101\u03b1\u00c9\u01c5\u0663\u0430\u3042"
    lowercase = "".join(ch for ch in alphabet if unicodedata.category(ch) == "Ll")
    rule = re.compile(rf"s[0-9]+[{re.escape(lowercase)}]+[0-9]*")
    rng = random.Random(3)
    tried = 0
    for _ in range(20000):
        text = "s" + "".join(rng.choice(alphabet if rng.random() < 0.5 else "0123456789abz\u00e9")
                             for _ in range(rng.randrange(0, 9)))
        found = rule.match(text)
        assert variable(text) == (found.group() if found else None), text
        tried += found is not None
    assert tried > 1000
    assert variable("s12ab\u00e93:") == "s12ab\u00e93" and variable("s1x") == "s1x"
    assert variable("x1a") is None
