"""Documents' path through the solver (mrp.solver.handover): root and fixing, the program on the pairs left,
then the search; and the warm-started assignment of the root's rounds (mrp.solver.lap.warm).

Every claim is checked against brute force on tiny random Problems with few labels (many ties: the root
rarely closes them, so fixing, the smaller program and the search all run): the fixing bans only pairs no
better map uses, the program without them has the optimum of the whole, and the answer is the optimum.
"""

from __future__ import annotations

import itertools
import random
import sys
from pathlib import Path
from typing import Iterator

import numpy as np
import pytest

from mrp.solver import mip
from mrp.solver.handover import document
from mrp.solver.kernel import fix_size, settle
from mrp.solver.lap import assignment, warm
from mrp.solver.problem import Problem, with_edges
from mrp.solver.solve import solve_problem

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_mip import document as coli_document  # noqa: E402

needs_highs = pytest.mark.skipif(not mip.available(), reason="HiGHS (highspy) is not installed")


def random_problem(rng: random.Random, n: int, m: int, labels: int = 2) -> Problem:
    U = np.array([[rng.choice((0, 0, 0, 1)) for _ in range(m)] for _ in range(n)], np.int64)

    def edges(size: int) -> dict:
        found = {}
        for _ in range(rng.randint(size, 3 * size)):
            a, b = rng.sample(range(size), 2) if size > 1 else (0, 0)
            if a != b:
                found[(a, b, rng.randrange(labels))] = rng.choice((1, 1, 2))
        return found

    return with_edges(U, edges(n), edges(m), None)


def maps(n: int, m: int) -> Iterator[np.ndarray]:
    """Every injective partial map of n gold onto m system nodes."""
    for targets in itertools.product(range(-1, m), repeat=n):
        chosen = [j for j in targets if j >= 0]
        if len(chosen) == len(set(chosen)):
            yield np.array(targets, np.int64)


def brute(problem: Problem) -> int:
    return max(mip.value_of(problem, pi) for pi in maps(*problem.U.shape))


def test_fixing_bans_only_pairs_no_better_map_uses_and_the_smaller_program_keeps_the_optimum() -> None:
    rng = random.Random(25)
    stop = np.zeros(1, np.int64)
    checked = 0
    for _ in range(300):
        problem = random_problem(rng, rng.randint(2, 5), rng.randint(2, 5), labels=1)
        n, m = problem.U.shape
        seed = np.array([rng.choice([-1] + list(range(m))) for _ in range(n)], np.int64)

        seen = set()
        for i in range(n):  # keep the seed injective
            if seed[i] in seen:
                seed[i] = -1
            elif seed[i] >= 0:
                seen.add(int(seed[i]))
        best, bound, pi, _, banned = settle(problem, 700, stop, seed, fix_size(700))
        optimum = brute(problem)
        assert mip.value_of(problem, pi) == best <= optimum <= bound
        if best >= bound:
            continue
        checked += 1
        for other in maps(n, m):  # a banned pair (the incumbent's own aside) is in no better map
            rows = np.nonzero(other >= 0)[0]
            if banned[rows, other[rows]].any():
                assert mip.value_of(problem, other) <= best
        assert brute(mip.without(problem, banned, pi)) == optimum
        done = document(problem, 10_000, 700, None, stop, seed, 10.0)
        assert done.exact and done.value == done.bound == optimum
        assert mip.value_of(problem, done.mapping) == optimum
    assert checked >= 20, "too few pairs left open by the root: make the Problems harder"


@needs_highs
def test_the_program_on_the_pairs_left_proves_the_optimum() -> None:
    rng = random.Random(7)
    stop = np.zeros(1, np.int64)
    proved = 0
    for _ in range(200):
        problem = random_problem(rng, rng.randint(2, 5), rng.randint(2, 5), labels=1)
        best, bound, pi, _, banned = settle(problem, 700, stop, np.zeros(0, np.int64), fix_size(700))
        if best >= bound:
            continue
        proof = mip.prove(problem, pi, None, stop, banned)
        assert proof is not None and proof.finished
        assert proof.value == proof.bound == brute(problem) == mip.value_of(problem, proof.mapping)
        proved += 1
    assert proved >= 10


@needs_highs
def test_a_document_is_proved_without_the_search() -> None:
    """A merged coli document (test_mip): the document's root, or the program on the pairs it leaves, proves
    it without a step of search, the same optimum as the path of other pairs (before the root's reduction,
    mrp.solver.reduction, the search and then the whole program; now the root alone)."""
    problem = coli_document(8, 152)
    before = solve_problem(problem)
    assert before.exact
    seed = np.array(before.mapping, np.int64)
    seed[: seed.shape[0] // 2] = -1  # a worse start: the root has to work
    after = solve_problem(problem, seeding=lambda built, stop: seed)
    assert after.exact and after.value == after.bound == before.value
    assert after.steps == 0
    assert mip.value_of(problem, np.array(after.mapping)) == after.value


@needs_highs
def test_without_the_program_the_search_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    problem = coli_document(8, 152)
    optimum = solve_problem(problem).value
    seed = np.full(problem.U.shape[0], -1, np.int64)
    monkeypatch.setattr(mip, "_HIGHSPY", False)
    alone = solve_problem(problem, seeding=lambda built, stop: seed)
    assert not alone.mip and alone.exact and alone.value == alone.bound == optimum


def test_a_warm_assignment_is_the_optimum_whatever_its_start() -> None:
    rng = np.random.default_rng(25)
    stop = np.zeros(1, np.int64)
    for _ in range(200):
        n, m = (int(x) for x in rng.integers(1, 7, 2))
        B = rng.integers(0, 20, (n, m)) * (rng.random((n, m)) < 0.6)
        duals = np.zeros(max(n, m) + 1, np.int64)
        matched = np.zeros(max(n, m) + 1, np.int64)
        for _ in range(4):
            N = max(n, m)
            padded = np.zeros((N, N), np.int64)
            padded[:n, :m] = B
            best = max(int(padded[np.arange(N), list(q)].sum()) for q in itertools.permutations(range(N)))
            done, value, col, slack = warm(B, stop, True, duals, matched)
            assert done and value == best == assignment(B, stop, False)[1]
            taken = col[col >= 0]
            assert len(set(taken.tolist())) == taken.shape[0]
            assert sum(int(B[i, col[i]]) for i in range(n) if col[i] >= 0) == value
            assert (slack >= 0).all()
            for i, j in itertools.product(range(n), range(m)):  # the slack bounds maps through (i, j)
                rest = np.delete(np.delete(padded, i, 0), j, 1)
                if N > 1:
                    through = B[i, j] + max(int(rest[np.arange(N - 1), list(q)].sum())
                                            for q in itertools.permutations(range(N - 1)))
                else:
                    through = B[i, j]
                assert through <= value - slack[i, j]
            B = np.maximum(0, B + rng.integers(-4, 5, (n, m)))
            duals[rng.integers(0, duals.shape[0])] += int(rng.integers(-30, 30))  # any start at all
            matched[rng.integers(0, matched.shape[0])] = rng.integers(0, matched.shape[0])


@needs_highs
def test_a_document_whose_highs_process_dies_goes_on_with_the_search(dead_highs: None) -> None:

    problem = coli_document(8, 94)  # a merged coli document its root leaves open
    seed = np.full(problem.U.shape[0], -1, np.int64)
    solution = solve_problem(problem, limit=3000, seeding=lambda built, stop: seed)
    assert solution.note is not None and "HiGHS's process died (signal 9)" in solution.note
    assert solution.steps > 0 and not solution.mip and solution.value <= solution.bound
    assert mip.value_of(problem, np.array(solution.mapping)) == solution.value


def test_the_warm_up_readies_the_kernels_documents_call() -> None:
    """A fresh process's warm-up loads settle and resume too: a document's first pair compiles nothing on
    its clock (on a fresh install compiling took longer than a 20 s --timeout)."""
    import subprocess
    import sys

    code = ("from mrp.solver.warmup import ready; ready(); from mrp.solver.kernel import resume, settle; "
            "print(len(settle.signatures), len(resume.signatures))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert [int(n) for n in done.stdout.split()] >= [1, 1] and "0" not in done.stdout.split()
