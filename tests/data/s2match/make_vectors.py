"""Make tests/data/s2match/vectors.txt: small made-up word vectors (GloVe text format) for S2match's tests.

No real embedding is shipped or downloaded.  Each word's vector is drawn from a generator seeded by the
word's SHA-256, around one of eight cluster centres (the word's hash picks it), so that words of a
cluster are close (cosine mostly above 0.5) and words of different clusters mostly are not; about one
word in seven has no vector at all (S2match then gives no graded credit).  The words are those S2match
looks up for the concepts of the shared AMR pairs the tests use: each concept, a frame's lemma without
its sense and with an ``s``, and the parts of a hyphenated concept.

Run from the repository root, naming the shared reference data (../shared):

    python tests/data/s2match/make_vectors.py ../shared > tests/data/s2match/vectors.txt
"""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path

import numpy as np

#: the coli pairs the tests use (the first ones of the files)
COLI_PAIRS = 60
DIMENSIONS = 6
CENTRES = np.random.default_rng(2020).normal(size=(8, DIMENSIONS))


def blocks(path: Path, count: int) -> list:
    """The first ``count`` graphs (blank-line separated blocks with a graph) of a Penman file."""
    out = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        if "(" in block:
            out.append(block)
    return out[:count]


def concepts(text: str) -> set:
    return {found.lower() for found in re.findall(r"/\s*([^\s()\"]+)", text)}


def words(concept: str) -> set:
    out = {concept}
    if "-" in concept and re.match(".*[0-9]+", concept):
        lemma = "-".join(concept.split("-")[:-1])
        out |= {lemma, lemma + "s"}
    out.update(part for part in concept.split("-") if part)
    return out


def vector(word: str):
    seed = int.from_bytes(hashlib.sha256(word.encode("utf-8")).digest()[:8], "little")
    if seed % 7 == 0:
        return None
    generator = np.random.default_rng(seed)
    return CENTRES[seed % len(CENTRES)] + 0.6 * generator.normal(size=DIMENSIONS)


def main() -> None:
    SHARED = Path(sys.argv[1]) / "data" / "pairs" / "amr"
    texts = [(SHARED / name).read_text(encoding="utf-8") for name in ("test1.amr", "test2.amr")]
    texts += blocks(SHARED / "coli.gold.amr", COLI_PAIRS) + blocks(SHARED / "coli.system.amr", COLI_PAIRS)
    for name in ("partial.gold.mrp", "partial.system.mrp"):
        texts += [" ".join("/ " + label for label in re.findall(r'"label":"([^"]+)"',
                                                                 (SHARED / name).read_text("utf-8")))]
    vocabulary = set()
    for text in texts:
        for concept in concepts(text):
            vocabulary |= words(concept)
    for word in sorted(vocabulary):
        found = vector(word)
        if found is not None:
            sys.stdout.write(word + " " + " ".join(f"{x:.4f}" for x in found) + "\n")


if __name__ == "__main__":
    main()
