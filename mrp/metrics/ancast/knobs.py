"""AnCast's hyper-parameters beyond ``--ancast-compat`` and ``--ancast-scope``: each a Parameter of the
``ancast`` metric (flag and keyword), read from a run's options here.

* ``ancast_cneighbor`` (AnCast's ``-c/--cneighbor``, default 1): the factor of the broadcast similarity in
  each round of AnCast's alignment; it steers AnCast's heuristic alone (``--ancast-compat``): the proved
  optimum maximises the LRM whatever it is.
* ``ancast_sense_coefficient`` (AnCast's ``-sc/--sense-coefficient``, default 0.1): the name similarity of
  two concepts of different senses is ``1 - X`` times their string similarity, in the concept, relation and
  alignment scores of both modes (the proved optimum's integer weights are exact where ``10 (1 - X)`` is
  whole, else rounded, and the item says ``rounded``).
* ``ancast_separate_1_and_2`` (AnCast's ``--separate-1-and-2``): its broadcast with one- and two-hop
  neighbours apart (two-hop paths counted, no scaling by the neighbourhood sizes); AnCast's heuristic alone.
* ``ancast_use_alignment`` (AnCast's ``--use-alignment``): AnCast's anchors are the node pairs whose
  alignments start with the same token span (not 0-0) instead of the unique names found in the text; AnCast
  reads alignments at document scope alone, so at sentence scope nothing is anchored.  AnCast's heuristic
  alone.
* ``ancast_no_smatch_top`` (AnCast's ``--use-smatch-top false``): the mock Smatch without the TOP triple.
* ``ancast_weighted`` (AnCast's ``--weighted snts|toks``): AnCast++'s mean over documents weighted by their
  sentences or tokens (the tokens AnCast counts: the words of each test sentence's text as AnCast reads it,
  with ``--ancast-compat``; else of its sentence).  AnCast 0.1.1's command line passes the option under a
  name its evaluation does not take, so its printed mean is unweighted whatever is asked; its evaluation
  called as a library (``evaluate_doc(weighted=...)``) weighs, and that is what mrp reports.
* ``ancast_allow_reify`` (AnCast's ``--allow-reify``): accepted, and it changes no figure, as in AnCast
  0.1.1: there the flag loads the bundled tables (``resources/reification_relations.json`` and
  ``abstract_vocab.json``) but they never reach the graphs.  Its sentences are built without the flag (the
  ``Sentence(...)`` calls of ``document.py`` do not pass ``allow_reify``, so ``Sentence.reify`` never runs),
  and ``sentence.py``/``word.py`` bound the tables' empty dicts at import, before the loading rebinds them
  (its only other effect, the tag ``reified`` allowed, concerns relations reification alone would make).
  Its outputs with and without the flag are byte-identical per pair and per document on every shared
  sample (tests/data/ancast/options.json).  mrp ships no table, and the signature says ``reify:none``.
"""

from __future__ import annotations

from typing import Optional

from mrp.engine import Options, Parameter
from mrp.errors import MRPError

__all__ = ["ALIGNMENT", "CNEIGHBOR", "NO_SMATCH_TOP", "REIFY", "SENSE", "SEPARATE", "WEIGHTED", "allow_reify",
           "cneighbor", "sense", "separate", "smatch_top", "use_alignment", "weighted"]


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise ValueError(f"{text}: a count of 0 or more")
    return value


CNEIGHBOR = Parameter("ancast_cneighbor", "--ancast-cneighbor",
                      "ancast --ancast-compat: AnCast's -c/--cneighbor, the factor of the neighbourhood "
                      "similarity in each broadcast round of its alignment (default 1; the proved optimum "
                      "does not depend on it)", _count, "N", 1)
def _coefficient(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 1:
        raise ValueError(f"{text}: a coefficient from 0 to 1")
    return value


SENSE = Parameter("ancast_sense_coefficient", "--ancast-sense-coefficient",
                  "ancast: AnCast's -sc/--sense-coefficient, what a name similarity loses when the senses "
                  "differ (default 0.1: 0.9 of it is left), from 0 to 1", _coefficient, "X", 0.1)
SEPARATE = Parameter("ancast_separate_1_and_2", "--ancast-separate-1-and-2",
                     "ancast --ancast-compat: AnCast's --separate-1-and-2, one- and two-hop neighbours apart "
                     "in its broadcast (the proved optimum does not depend on it)")
ALIGNMENT = Parameter("ancast_use_alignment", "--ancast-use-alignment",
                      "ancast --ancast-compat: AnCast's --use-alignment, anchors from the UMR alignments "
                      "(nodes whose first aligned token spans are the same) instead of the text; AnCast "
                      "reads alignments at document scope alone (the proved optimum does not use anchors)")
NO_SMATCH_TOP = Parameter("ancast_no_smatch_top", "--ancast-no-smatch-top",
                          "ancast: the mock Smatch without the (TOP :root ROOT) triple (AnCast's "
                          "--use-smatch-top false)")
WEIGHTED = Parameter("ancast_weighted", "--ancast-weighted",
                     "ancast: AnCast++'s mean over documents weighted by their sentences (snts) or tokens "
                     "(toks), as AnCast's --weighted means it (its 0.1.1 command line drops the option)",
                     str, "BY", None, ("snts", "toks"))
REIFY = Parameter("ancast_allow_reify", "--ancast-allow-reify",
                  "ancast: AnCast's --allow-reify, accepted; it changes no figure, as in AnCast 0.1.1, "
                  "which loads its reification tables but never applies them (the signature says "
                  "reify:none)")


def cneighbor(options: Options) -> int:
    """AnCast's Cneighbor of a run."""
    value = CNEIGHBOR.value(options)
    return 1 if value is None else int(value)


def sense(options: Options) -> float:
    """The sense coefficient of a run."""
    value = SENSE.value(options)
    value = 0.1 if value is None else float(value)
    if not 0 <= value <= 1:
        raise MRPError(f"ancast_sense_coefficient: {value} is not from 0 to 1")
    return value


def separate(options: Options) -> bool:
    """Whether AnCast's broadcast takes one- and two-hop neighbours apart."""
    return bool(SEPARATE.value(options))


def use_alignment(options: Options) -> bool:
    """Whether AnCast's anchors come from the alignments."""
    return bool(ALIGNMENT.value(options))


def smatch_top(options: Options) -> bool:
    """Whether the mock Smatch counts the TOP triple."""
    return not NO_SMATCH_TOP.value(options)


def allow_reify(options: Options) -> bool:
    """Whether AnCast's ``--allow-reify`` was asked (it changes no figure, as in AnCast 0.1.1)."""
    return bool(REIFY.value(options))


def weighted(options: Options) -> Optional[str]:
    """How the mean over documents is weighted (None: not at all)."""
    value = WEIGHTED.value(options)
    if value not in (None, "snts", "toks"):
        raise MRPError(f"ancast_weighted: unknown weighting '{value}' (choose from snts, toks)")
    return value
