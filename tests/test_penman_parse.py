"""The fast reader of plain Penman trees gives penman.parse's tree wherever it answers, and declines
(None) every text penman warns about or refuses, so the AMR reader's errors stay penman's."""

from __future__ import annotations

import logging
import random
from pathlib import Path
from typing import Any, Iterator, List

import penman
import pytest

from mrp.codecs.penman import read_string
from mrp.codecs.penman.parse import MAX_DEPTH, parse

from conftest import shared_path


class _Counter(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


@pytest.fixture
def penman_says() -> Iterator[Any]:
    """penman.parse's node of a text, "warned" when penman logs a warning, "raised" when it raises."""
    logger = logging.getLogger("penman")
    counter = _Counter()
    level, propagate = logger.level, logger.propagate
    logger.addHandler(counter)
    logger.setLevel(logging.WARNING)
    logger.propagate = False

    def says(text: str) -> Any:
        counter.count = 0
        try:
            node = penman.parse(text).node
        except Exception:  # noqa: BLE001 - any refusal counts
            return "raised"
        return "warned" if counter.count else node

    try:
        yield says
    finally:
        logger.removeHandler(counter)
        logger.setLevel(level)
        logger.propagate = propagate


def _graph_texts(path: Path) -> List[str]:
    texts = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        lines = [line for line in block.split("\n") if not line.lstrip().startswith("#")]
        text = "\n".join(lines).strip()
        if text.startswith("("):
            texts.append(text)
    return texts


def test_every_amr_graph_of_the_shared_data_is_read_the_fast_way_as_penman_reads_it(penman_says: Any) -> None:
    shared = shared_path()
    paths = sorted(shared.glob("**/*.amr"))
    assert paths
    for path in paths:
        for text in _graph_texts(path):
            node = parse(text)
            assert node is not None, f"{path}: declined a plain graph: {text[:80]}"
            assert node == penman_says(text), f"{path}: {text[:80]}"


@pytest.mark.parametrize("text, node", [
    ("(a / b)", ("a", [("/", "b")])),
    ("(a)", ("a", [])),
    ("(a :ARG0 b)", ("a", [(":ARG0", "b")])),
    ('(a / "quoted \\" concept"~e.1 :ARG0~e.2 "x y"~e.3 :op1 (c) )', (
        "a", [("/", '"quoted \\" concept"~e.1'), (":ARG0~e.2", '"x y"~e.3'), (":op1", ("c", []))])),
    ("(a / b :\n  (c / d)) trailing ( tokens", ("a", [("/", "b"), (":", ("c", [("/", "d")]))])),
    ("(a / b~1,2 :mod~3 (c / d~e.4))", ("a", [("/", "b~1,2"), (":mod~3", ("c", [("/", "d~e.4")]))])),
    ("(x#1 / ü :wiki -)", ("x#1", [("/", "ü"), (":wiki", "-")])),
])
def test_plain_text_gives_penmans_tree(text: str, node: Any, penman_says: Any) -> None:
    assert parse(text) == node == penman_says(text)


@pytest.mark.parametrize("text, why", [
    ("# ::id 1\n(a / b)", "a comment"),
    ("(a / b # note\n :ARG0 c)", "a comment inside"),
    ("(a / :ARG0 b)", "a missing concept"),
    ("(a / b :ARG0)", "a missing target"),
    ("(a / b :ARG0 :ARG1 c)", "a missing target"),
    ("(a / b", "a node left open"),
    ("()", "a node without variable"),
    ("(a / b :ARG0 \"x\ny\")", "a string across lines"),
    ("(a / b :ARG0 c~)", "a lone ~"),
    ("(a~1 / b)", "an aligned variable"),
    ("(a / b)\r", "a line break other than \\n"),
    ("(a / b\u2028:ARG0 c)", "a line break other than \\n"),
    ("a / b", "no node"),
    ("", "nothing"),
])
def test_text_outside_the_plain_grammar_is_left_to_penman(text: str, why: str) -> None:
    assert parse(text) is None, why


def test_nesting_deeper_than_the_limit_is_left_to_penman() -> None:
    def nested(depth: int) -> str:
        return "".join(f"(n{k} :ARG0 " for k in range(depth - 1)) + f"(n{depth - 1})" + ")" * (depth - 1)

    assert parse(nested(MAX_DEPTH)) is not None
    assert parse(nested(MAX_DEPTH + 1)) is None


_PIECES = ["(", ")", " ", "/", ":ARG0", ":", "~e.1", "~", '"x y"', '"', "a", "b", "\n", "#c", "x~1", "\\",
           ":op1", '"a\\"b"', "\t", "\r", "é", "\u2028", "\v"]


def _random_tree(rng: random.Random, depth: int = 0) -> str:
    """A random Penman node in the plain grammar, spaced at random."""
    space = lambda: rng.choice([" ", "  ", "\n", "\t", "\n   ", ""])  # noqa: E731
    parts = ["(", space(), rng.choice(["a", "b1", "x#", "é"])]
    if rng.random() < 0.8:
        parts += [space(), "/", space(), rng.choice(["want-01", '"q \\" r"', "c"]),
                  rng.choice(["", "~e.1", "~2,3"])]
    for _ in range(rng.randint(0, 3)):
        parts += [" ", rng.choice([":ARG0", ":", ":op1-of", ":mod"]), rng.choice(["", "~e.4"]), " "]
        if depth < 3 and rng.random() < 0.4:
            parts.append(_random_tree(rng, depth + 1))
        else:
            parts += [rng.choice(["a", '"s t"', "-", "12"]), rng.choice(["", "~e.5"])]
    return "".join(parts + [space(), ")"])


def mutate(rng: random.Random, tokens: List[str], actions: int = 3) -> None:
    """One random change of a text's tokens, in place: a token deleted, a piece inserted, a token replaced
    by a piece, or (with ``actions`` 4) a token of the text repeated elsewhere."""
    k = rng.randrange(len(tokens))
    action = rng.randrange(actions)
    if action == 0:
        del tokens[k]
    elif action == 1:
        tokens.insert(k, rng.choice(_PIECES))
    elif action == 2:
        tokens[k] = rng.choice(_PIECES)
    else:
        tokens.insert(k, tokens[rng.randrange(len(tokens))])


def test_random_texts_are_read_as_penman_reads_them_or_left_to_it(penman_says: Any) -> None:
    rng = random.Random(26)
    answered = 0
    texts = []
    for _ in range(20_000):
        text = "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 14)))
        texts.append("(" + text if rng.random() < 0.6 else text)
    for _ in range(6_000):
        tokens = _random_tree(rng).replace("(", " ( ").replace(")", " ) ").split(" ")
        if rng.random() < 0.7:
            mutate(rng, tokens)
        texts.append(" ".join(tokens))
    for text in texts:
        node = parse(text)
        if node is not None:
            answered += 1
            assert node == penman_says(text), repr(text)
    assert answered > 2_000  # the comparison is not empty


def test_the_amr_reader_reports_penmans_errors_for_text_the_fast_reader_declines() -> None:
    (error,) = read_string("# ::id 7\n(a / b :ARG0 (c / d)\n   :ARG1 \"open)\n")
    assert not hasattr(error, "nodes") and "Penman syntax error" in str(error) and "7" in str(error)
    (missing,) = read_string("# ::id 8\n(a / :ARG0 b)\n")
    assert "missing concept" in str(missing).lower()
