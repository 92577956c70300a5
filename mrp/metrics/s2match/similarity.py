"""S2match's concept similarity (Opitz et al., TACL 2020): word vectors read from a file, and the graded
credit of two concepts, as the original's ``maybe_sim`` defines it (amr-metric-suite,
``py3-Smatch-and-S2match/smatch/s2match.py``).

Two concepts ``a`` and ``b`` (lowercased) are worth:

* 1 when they are equal;
* ``diffsense`` when they are the same frame with other senses (``hit-01``/``hit-02``), or a frame and its
  lemma (``hit-01``/``hit``); a concept is a frame when it has a ``-`` and a digit, its lemma everything
  before its last ``-``;
* else the similarity of their vectors when it is above ``cutoff`` (times ``diffsense`` when either is a
  frame), 0 otherwise.  A frame's vector is its lemma's, plus that of the lemma with an ``s`` when the
  file has it; another concept's is its own, or, hyphenated and not in the file, the sum of its parts'
  that are.  A concept without a vector is worth 0.

Similarity functions: ``cosine`` (negative cosines count as 0), ``euclidean`` and ``cityblock``
(``e ** -distance``).
"""

from __future__ import annotations

import hashlib
import math
import os
import re
from typing import Dict, List, Optional, Tuple

import numpy as np

from mrp.errors import MRPError
from mrp.memo import Memo

__all__ = ["FUNCTIONS", "Similarity", "Vectors", "load"]

Vectors = Dict[str, np.ndarray]

#: loaded files by (path, modification time, size): (vectors, digest)
_LOADED: Memo[Tuple[str, int, int], Tuple[Vectors, str]] = Memo(4)
_FRAME = re.compile(".*[0-9]+")
#: concept pairs whose credit a Similarity keeps at most
KEPT = 1 << 20


def load(path: str) -> Tuple[Vectors, str]:
    """The word vectors of a text file (GloVe: ``word x1 x2 ...`` a line; word2vec's text format, whose
    first line ``count dimensions`` is skipped) and the first 12 hex digits of its SHA-256.

    A word given twice keeps its last vector, as the original does.

    Args:
        path: the file.

    Returns:
        word -> vector, and the file's digest (for the signature).

    Raises:
        MRPError: the file cannot be read, or a line is not a word and numbers of the file's dimension.
    """
    try:
        stat = os.stat(path)
        key = (os.path.abspath(path), stat.st_mtime_ns, stat.st_size)
        if key in _LOADED:
            return _LOADED[key]
        with open(path, "rb") as stream:
            data = stream.read()
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise MRPError(f"--s2match-vectors {path}: cannot read the vectors: {error}") from None
    vectors: Vectors = {}
    width = None
    for number, line in enumerate(text.split("\n"), 1):
        parts = line.split()
        if not parts or (number == 1 and len(parts) == 2 and all(part.isdigit() for part in parts)):
            continue  # an empty line, or word2vec's header
        try:
            vector = np.array([float(x) for x in parts[1:]])
        except ValueError:
            raise MRPError(f"{path}:{number}: expected a word and its vector's numbers") from None
        if width is None:
            width = len(vector)
        if len(vector) != width or not width:
            raise MRPError(f"{path}:{number}: the vector of {parts[0]!r} has {len(vector)} numbers, the "
                           f"file's first {width}")
        vectors[parts[0]] = vector
    return _LOADED.keep(key, (vectors, hashlib.sha256(data).hexdigest()[:12]))


def _cosine(u: np.ndarray, v: np.ndarray) -> float:
    """1 - the cosine distance (as scipy computes it, clipped to [0, 2]), at least 0."""
    product = float(np.dot(u, u)) * float(np.dot(v, v))
    if not product:
        return 0.0  # a zero vector: no direction, no similarity (the original's NaN counts nothing)
    distance = min(max(1.0 - float(np.dot(u, v)) / math.sqrt(product), 0.0), 2.0)
    return 1 - min(1, distance)


def _euclidean(u: np.ndarray, v: np.ndarray) -> float:
    return 1 / (math.e ** float(np.sqrt(np.dot(u - v, u - v))))


def _cityblock(u: np.ndarray, v: np.ndarray) -> float:
    return 1 / (math.e ** float(np.abs(u - v).sum()))


#: the similarity functions by the original's names (its -similarityfunction)
FUNCTIONS = {"cosine": _cosine, "euclidean": _euclidean, "cityblock": _cityblock}


def _lemma(concept: str) -> Optional[str]:
    """A frame's lemma (everything before its last ``-``), None for a concept that is no frame."""
    if "-" in concept and _FRAME.match(concept):
        return "-".join(concept.split("-")[:-1]) or None
    return None


def _vector(word: str, vectors: Vectors, split: bool) -> Optional[np.ndarray]:
    """The word's vector, or with ``split`` for a hyphenated word not in the file, its parts' summed."""
    if word in vectors:
        return np.copy(vectors[word])
    if split and "-" in word:
        parts = [vectors[part] for part in word.split("-") if part in vectors]
        if parts:
            return np.sum(np.array(parts), axis=0)  # type: ignore[no-any-return]
    return None


class Similarity:
    """The graded credit of two concepts under a run's vectors and parameters, kept per pair of concepts.

    Args:
        vectors: word -> vector.
        cutoff: similarities at or below it count 0.
        diffsense: the factor of a frame's other sense, and of every similarity involving a frame.
        function: a name of :data:`FUNCTIONS`.
    """

    def __init__(self, vectors: Vectors, cutoff: float, diffsense: float, function: str = "cosine") -> None:
        self.vectors, self.cutoff, self.diffsense = vectors, cutoff, diffsense
        self.function = FUNCTIONS[function]
        self._known: Dict[Tuple[str, str], float] = {}

    def __call__(self, a: str, b: str) -> float:
        """The credit of concepts ``a`` and ``b`` (lowercased), in [0, 1]."""
        if a == b:
            return 1.0
        key = (a, b) if a < b else (b, a)
        found = self._known.get(key)
        if found is None:
            if len(self._known) >= KEPT:
                self._known.clear()
            found = self._known[key] = self._graded(*key)
        return found

    def _graded(self, a: str, b: str) -> float:
        lemma_a, lemma_b = _lemma(a), _lemma(b)
        if (lemma_a and lemma_a in (lemma_b, b)) or (lemma_b and lemma_b == a):
            return self.diffsense
        vectors = self.vectors
        u = _vector(lemma_a, vectors, False) if lemma_a else _vector(a, vectors, True)
        v = _vector(lemma_b, vectors, False) if lemma_b else _vector(b, vectors, True)
        if u is None or v is None:
            return 0.0
        for lemma, vector in ((lemma_a, u), (lemma_b, v)):
            third = vectors.get(lemma + "s") if lemma else None
            if third is not None:
                vector += third
        similarity = self.function(u, v)
        if not similarity > self.cutoff:
            return 0.0
        return similarity * self.diffsense if (lemma_a or lemma_b) else similarity

    def matrix(self, gold: List[str], system: List[str]) -> np.ndarray:
        """The credits of every gold concept with every system concept (float64, len(gold) x len(system))."""
        out = np.zeros((len(gold), len(system)))
        for i, a in enumerate(gold):
            for j, b in enumerate(system):
                out[i, j] = self(a, b)
        return out
