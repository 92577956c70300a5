"""Run the original S2match (amr-metric-suite, py3-Smatch-and-S2match/smatch/s2match.py) pair by pair.

The original prints F-scores to three decimals only; this script imports its module and calls its own
steps for each pair (its reader, its triples, its hill-climbing ``get_best_match``), as its ``main`` does,
and prints one JSON line per pair with the triple counts and the full graded match number:
``{"pair": k, "test": T, "gold": G, "match": M, "mapping": [...]}`` (``test`` is the first file's graph,
the prediction; ``gold`` the second's).  Nothing of the original is copied here; it is imported from
where the user unpacked it (no licence file ships with the suite's S2match code).

    python run_reference.py SMATCH_DIR VECTORS PREDICTION GOLD [CUTOFF DIFFSENSE]

SMATCH_DIR is the original's ``py3-Smatch-and-S2match/smatch`` directory (it needs numpy and scipy).
"""

from __future__ import annotations

import json
import sys


def main() -> None:
    directory, vectors_path, prediction, gold = sys.argv[1:5]
    cutoff, diffsense = (float(sys.argv[5]), float(sys.argv[6])) if len(sys.argv) > 6 else (0.5, 0.5)
    sys.path.insert(0, directory)
    import amr_py3 as amr  # noqa: PLC0415 - the original's reader, from the directory named
    import s2match  # noqa: PLC0415 - the original

    s2match.iteration_num = 5  # its default: -r 4 restarts, plus the smart start
    vectors = s2match.load_vecs(vectors_path)
    with open(prediction, encoding="utf-8") as one, open(gold, encoding="utf-8") as two:
        k = 0
        while True:
            first, second = s2match.get_amr_line(one), s2match.get_amr_line(two)
            if first == "" or second == "":
                break
            amr1, amr2 = amr.AMR.parse_AMR_line(first), amr.AMR.parse_AMR_line(second)
            amr1.rename_node("a")
            amr2.rename_node("b")
            instance1, attributes1, relation1 = amr1.get_triples()
            instance2, attributes2, relation2 = amr2.get_triples()
            mapping, match = s2match.get_best_match(instance1, attributes1, relation1, instance2, attributes2,
                                                    relation2, "a", "b", vectors, cutoff, diffsense,
                                                    s2match.cosine_sim, "split")
            s2match.match_triple_dict.clear()
            print(json.dumps({"pair": k, "test": len(instance1) + len(attributes1) + len(relation1),
                              "gold": len(instance2) + len(attributes2) + len(relation2),
                              "match": float(match), "mapping": [int(j) for j in mapping]}))
            k += 1


if __name__ == "__main__":
    main()
