"""An exact solver for maximum common edge subgraph problems with node rewards.

The problem (a ``Problem`` of integer arrays: the solver knows nothing of
graphs): find an injective partial map ``pi`` from gold nodes ``0..n-1`` to
system nodes ``0..m-1`` that maximizes

    sum_i U[i, pi(i)]  +  sum over gold edges e = (a, b) of w(e, pi(a), pi(b))

where ``w(e, c, d)`` is the weight of the candidate system edge ``(c, d)`` of
``e`` (zero when there is none).  Loops belong in ``U``; gold edges are not
loops and their candidates are system edges that are not loops.

The steps, each a function:

1. ``index`` (arrays.py): lookup tables over the gold side (an ``Index``).
2. ``root`` (here): the root bound.  The weight of each candidate edge match
   is split between its two node pairs (``share``, potential.py); a node
   pair's potential is its reward plus the best shares its edges can collect
   there, and a linear assignment over the potentials bounds the optimum
   (Gilmore-Lawler with a Lagrangian split).  The shares start split by
   what each end could collect (``first_shares``); subgradient steps tune
   them; each round's assignment also seeds the incumbent.
3. The incumbent (incumbent.py): each round's assignment, hill-climbed with
   moves and swaps; a greedy map where assignments are too large.
4. ``fixing`` (here): reduced-cost fixing.  The assignment's dual bounds every
   map through a pair (i, j); pairs whose bound cannot beat the incumbent are
   banned from the search.
5. ``search`` (search.py): depth-first branch and bound with the best shares,
   bounded by row/column maxima and an assignment (``assignment``, lap.py)
   at every node.

All arithmetic is in integers scaled by ``SCALE``.  Every answer carries an
upper bound; it is exact when the bound equals the value found.
"""

from __future__ import annotations

from typing import Any, Tuple

import numpy as np

from mrp.compiled import njit
from mrp.solver import ABANDON, NO_BOUND
from mrp.solver.arrays import Index, index, positive
from mrp.solver.incumbent import greedy, improve, objective
from mrp.solver.lap import assignment, warm
from mrp.solver.potential import SCALE, potentials, scratch
from mrp.solver.reduction import expanded, reduced, rule_out
from mrp.solver.search import search

__all__ = ["SCALE", "ROUNDS", "fix_size", "resume", "settle", "solve", "solved"]

#: Subgradient rounds at the root at most.
ROUNDS = 400
#: The first step moves a share by THETA of its candidate's weight ...
THETA = 0.5
#: ... and shrinks by DECAY after STALL rounds without a better bound ...
STALL = 4
DECAY = 0.8
#: ... until it is below EPS.
EPS = 0.004
#: Below this many nodes on the larger side, a short schedule (the search closes small gaps faster
#: than long tuning): first step QUICK[0], shrinking by QUICK[2] after QUICK[1] stalls, down to QUICK[3].
SHORT_ROOT = 100
QUICK = (0.25, 3, 0.6, 1 / 64)
#: Root rounds stop after about this many elementary steps of assignments (N^3 each; one at least) ...
ROOT_WORK = 4e9
#: ... and after this many for a document started from its sentence-by-sentence map (a seed): at
#: 600 nodes a side, 4e9 allows 18 rounds and leaves the bound 4 points of F above the map found, where
#: 130 rounds close it to 0.2 points (bench/docbench.py, k = 64); the pair's stop flag ends them.
DOCUMENT_ROOT_WORK = 4e11
#: A document's root (a pair with a sentence-by-sentence start) shrinks its step more slowly, over more
#: rounds at most: on the first k = 64 coli document but one, 1,239 -> 1,236 (over 1,233 found) in about as
#: many rounds (400), and of the first 8 at k = 32 one more is closed at the root, the others left 1 triple
#: open (before: 1-2).  The rounds are cheaper since they start from the last round's assignment (lap.warm).
DOCUMENT_DECAY = 0.9
DOCUMENT_ROUNDS = 1000
#: A round of a document of fewer than CLIMB_SIZE nodes a side hill-climbs its assignment only when the
#: assignment's value is within DOCUMENT_CLIMB times the gap (bound - best) below the incumbent: the seed is
#: nearly optimal there, and late rounds' climbs from assignments far below it found nothing (k = 8 MRP,
#: all 171 (at most 208 nodes): the root and fixing 6.4-7.2 -> 4.3-5.0 s, the same incumbents; 2 instead of
#: 4 lost 5 of them).  Larger documents climb every round: at k = 64 (788 nodes) 4 lost 3 triples on one.
DOCUMENT_CLIMB = 4
CLIMB_SIZE = 300
#: The root solves assignments up to this many nodes on the larger side (the search up to ``lap_size``).
ROOT_LAP_SIZE = 2000


@njit(cache=True)
def row_col_bound(K):  # pragma: no cover - compiled
    """The smaller of the sums of row maxima and of column maxima of a non-negative matrix."""
    n, m = K.shape
    rows = 0
    for i in range(n):
        top = 0
        for j in range(m):
            if K[i, j] > top:
                top = K[i, j]
        rows += top
    cols = 0
    for j in range(m):
        top = 0
        for i in range(n):
            if K[i, j] > top:
                top = K[i, j]
        cols += top
    return rows if rows < cols else cols


@njit(cache=True)
def subgradient(pb, share, col, theta):  # pragma: no cover - compiled
    """Move shares toward the end whose pair the assignment ``col`` did not take.

    Candidate q moves by ``theta * cw[q] * SCALE`` (at least 1).  Returns how many moved.
    """
    moving = 0
    for e in range(pb.src.shape[0]):
        a, b = pb.src[e], pb.tgt[e]
        for q in range(pb.cptr[e], pb.cptr[e + 1]):
            on_a = col[a] == pb.cc[q]
            on_b = col[b] == pb.cd[q]
            if on_a == on_b:
                continue
            moving += 1
            delta = int(theta * pb.cw[q] * SCALE)
            if delta < 1:
                delta = 1
            if on_a:
                share[q] = max(0, share[q] - delta)
            else:
                share[q] = min(pb.cw[q] * SCALE, share[q] + delta)
    return moving


@njit(cache=True)
def root(pb, ix, share, use_lap, stop, sc, best, best_pi, work, document, ruled):  # pragma: no cover
    """The root bound and incumbent: returns (best, bound); ``share`` ends as the best shares found.

    ``best``: the value of the map in ``best_pi`` to start from (-1: none); ``best_pi`` receives the
    incumbent's map, and the rounds stop once the bound reaches it.  Without assignments
    (``use_lap`` False) one round: the row/column bound and a greedy map; ``work``: elementary steps of
    assignments at most (ROOT_WORK or DOCUMENT_ROOT_WORK); ``document``: the schedule of a document
    (DOCUMENT_DECAY, DOCUMENT_ROUNDS).  ``ruled`` (bool[n, m], all False) receives the pairs that no map
    better than the incumbent uses, which the rounds (but a large document's) leave out once an
    assignment's reduced costs rule them out (mrp.solver.reduction); the shares of the candidates left
    out then put their whole weight at a ruled-out end.
    """
    whole, out = pb, share
    kept = np.arange(pb.cc.shape[0])
    n, m = pb.U.shape
    P = np.zeros((n, m), np.int64)
    pi = np.full(n, -1, np.int64)
    last = np.full(n, -1, np.int64)
    bound = NO_BOUND
    best_share = share.copy()
    size = max(n, m)
    reducing = use_lap and (size < SHORT_ROOT or not document)  # not a document's long root
    theta, stall_most, decay, eps = (THETA, STALL, DECAY, EPS) if size >= SHORT_ROOT else QUICK
    most = ROUNDS
    if document and size >= SHORT_ROOT:
        decay, most = DOCUMENT_DECAY, DOCUMENT_ROUNDS
    stall = 0
    duals = np.zeros(size + 1, np.int64)
    matched = np.zeros(size + 1, np.int64)
    slack = np.zeros((0, 0), np.int64)
    rounds = min(most, max(1, int(work / (size * size * size)))) if use_lap else 1
    for rnd in range(rounds):
        if rnd > 0 and stop[0]:
            break
        potentials(P, True, pb, ix, share, sc, stop)
        if stop[0] >= ABANDON:  # abandoned: the bound and map of the rounds before, if any (else NO_BOUND)
            break
        done = False
        lap = 0
        if use_lap:  # from the last round's duals: the potentials change little between rounds
            done, lap, col, slack = warm(P, stop, reducing, duals, matched)
            if stop[0] >= ABANDON:  # this round gives nothing: the last round's bound and map stand
                break
        if not done:
            lap = row_col_bound(P)
            col = greedy(P)
        if lap // SCALE < bound:
            bound = lap // SCALE
            best_share[:] = share
            stall = 0
        else:
            stall += 1
            if stall >= stall_most:
                theta *= decay
                stall = 0
        same = rnd > 0 and np.array_equal(last, col)  # the same assignment climbs to the same map
        last[:] = col
        pi[:] = col
        value = objective(pi, pb)
        near = not document or size >= CLIMB_SIZE or value + DOCUMENT_CLIMB * (bound - best) >= best
        if (value < bound and not same and near) or rnd == 0:
            value = improve(pi, m, pb, ix, 50, stop, value, bound)
        if value > best:
            best = value
            best_pi[:] = pi
        if best >= bound or theta < eps or not done:
            break
        if reducing and rule_out(ruled, slack, lap, SCALE * (best + 1), best_pi) > 0:
            pb, at = reduced(pb, ruled)
            kept, share, best_share = kept[at], share[at], best_share[at]
            # the gold edges stay: only the rewards' lists change (the whole index cost as much again)
            upos, ucol = positive(pb.U)
            ix = Index(ix.iptr, ix.iedges, upos, ucol, ix.eptr, ix.end_edge, ix.end_dir, ix.end_key)
        if subgradient(pb, share, col, theta) == 0:
            break
    expanded(whole, best_share, kept, ruled, out)
    return best, bound


@njit(cache=True)
def fixing(pb, ix, share, best, stop, sc, ruled):  # pragma: no cover - compiled
    """Pairs (i, j) that no map better than ``best`` uses (reduced-cost fixing): ``ruled`` (the root's,
    left out of the assignment) and those the assignment rules out; only ``ruled`` when stopped.

    With the potentials under ``share``, the assignment's reduced cost
    ``slack[i, j]`` bounds every map through (i, j) by ``lap - slack[i, j]``.
    """
    n, m = pb.U.shape
    P = np.zeros((n, m), np.int64)
    potentials(P, True, pb, ix, share, sc, stop)
    for i in range(n):
        for j in range(m):
            if ruled[i, j]:
                P[i, j] = 0
    done, lap, _, slack = assignment(P, stop, True)
    banned = ruled.copy()
    if not done:
        return banned
    target = SCALE * (best + 1)
    for i in range(n):
        for j in range(m):
            if lap - slack[i, j] < target:
                banned[i, j] = True
    return banned


@njit(cache=True)
def first_shares(pb, n, m):  # pragma: no cover - compiled
    """The shares the root starts from: candidate (c, d) of gold edge (a, b) splits its weight between node
    pairs (a, c) and (b, d) in proportion to how much each could collect: the gold node's degree times the
    system node's (among the system edges of a gold edge's label) times the candidates the node pair holds
    (each at least 1: a candidate counts at both its node pairs and its system edge at both its ends).

    Any split gives a valid bound.  On 20,000 random pairs of coli graphs (Rematch's testbed) an even split
    closed 18,678 pairs at the root and left 411 open after 300 search steps, this one 19,162 and 203; on
    2,000 random pairs of the WSJ sentences, open after 300 steps: DM 58 -> 30, EDS 1,156 -> 883, AMR
    60 -> 17.
    """
    system = np.zeros(m, np.int64)
    for f in range(pb.ssrc.shape[0]):
        system[pb.ssrc[f]] += 1
        system[pb.stgt[f]] += 1
    degree = np.zeros(n, np.int64)
    held = np.zeros((n, m), np.int32)
    for e in range(pb.src.shape[0]):
        degree[pb.src[e]] += 1
        degree[pb.tgt[e]] += 1
        for q in range(pb.cptr[e], pb.cptr[e + 1]):
            held[pb.src[e], pb.cc[q]] += 1
            held[pb.tgt[e], pb.cd[q]] += 1
    share = np.empty(pb.cw.shape[0], np.int64)
    for e in range(pb.src.shape[0]):
        a, b = pb.src[e], pb.tgt[e]
        for q in range(pb.cptr[e], pb.cptr[e + 1]):
            c, d = pb.cc[q], pb.cd[q]
            x = float(degree[a] * system[c]) * held[a, c]
            y = float(degree[b] * system[d]) * held[b, d]
            share[q] = int(pb.cw[q] * SCALE * x / (x + y))
    return share


@njit(cache=True)
def start(pb, ix, sc, lap_size, stop, seed):  # pragma: no cover - compiled
    """The root bound and the incumbent (the root's, or the seed's hill-climbed when better): returns
    (best, bound, map, share, ruled), ``share`` the root's best shares, ``ruled`` the pairs its rounds left
    out (no map better than ``best`` uses them).

    The seed is hill-climbed first, so the root's rounds stop as soon as their bound reaches its value
    (a document's seed is nearly always optimal: most rounds only brought the bound down to it)."""
    n, m = pb.U.shape
    best_pi = np.full(n, -1, np.int64)
    share = first_shares(pb, n, m)
    root_lap = max(n, m) <= max(lap_size, ROOT_LAP_SIZE)
    document = seed.shape[0] == n
    work = DOCUMENT_ROOT_WORK if document else ROOT_WORK
    best = -1
    if document:
        best_pi[:] = seed
        best = improve(best_pi, m, pb, ix, 50, stop, objective(best_pi, pb), NO_BOUND)
    ruled = np.zeros((n, m), np.bool_)
    best, bound = root(pb, ix, share, root_lap, stop, sc, best, best_pi, work, document, ruled)
    return best, bound, best_pi, share, ruled


@njit(cache=True, nogil=True)
def settle(pb, lap_size, stop, seed, fix_up_to):  # pragma: no cover - compiled
    """The root and reduced-cost fixing, without the search: returns (best, bound, map, share, banned).

    ``banned`` holds the pairs that no map better than ``best`` uses (none when the root closed the
    pair, or when it is larger than ``fix_up_to`` nodes a side: :func:`fix_size` for a document, where the
    program takes over, ``lap_size`` in :func:`solved`); ``share`` the root's best shares, for
    :func:`resume`.
    """
    n, m = pb.U.shape
    if n == 0 or m == 0:
        return 0, 0, np.full(n, -1, np.int64), np.zeros(pb.cw.shape[0], np.int64), np.zeros((n, m), np.bool_)
    ix = index(pb)
    sc = scratch(m, pb.ssrc.shape[0])
    best, bound, best_pi, share, ruled = start(pb, ix, sc, lap_size, stop, seed)
    if best < bound and max(n, m) <= fix_up_to and not stop[0]:
        banned = fixing(pb, ix, share, best, stop, sc, ruled)
    else:
        banned = np.zeros((n, m), np.bool_)
    return best, max(best, bound), best_pi, share, banned


@njit(cache=True, nogil=True)
def resume(pb, share, best, best_pi, bound, limit, lap_size, banned, stop):  # pragma: no cover - compiled
    """The search after :func:`settle` (its shares, incumbent ``best`` with map ``best_pi``, updated,
    bound and banned pairs): returns (best, bound, steps, exact)."""
    n, m = pb.U.shape
    if best >= bound or limit <= 0 or n == 0 or m == 0:
        return best, max(best, bound), 0, best >= bound
    ix = index(pb)
    sc = scratch(m, pb.ssrc.shape[0])
    return search(pb, ix, share, best, best_pi, bound, limit, max(n, m) <= lap_size, banned, stop, sc)


def fix_size(lap_size: int) -> int:
    """The largest side of a document's Problem whose root :func:`settle` fixes (the root's assignments
    reach that far)."""
    return max(lap_size, ROOT_LAP_SIZE)


def solved(pb: Any, limit: int, lap_size: int, stop: np.ndarray, seed: np.ndarray
           ) -> Tuple[int, int, int, bool, np.ndarray]:
    """:func:`solve` from Python, as the two kernels every run loads anyway for documents: :func:`settle`
    (fixing where :func:`solve` fixes) and :func:`resume`.  The same result step for step, without a
    kernel of its own to load (about 0.05 s a process); :func:`solve` itself is what
    :func:`mrp.solver.batch.search_all` calls for each pair.  Arguments and result as :func:`solve`'s (the
    map is the one :func:`settle` gives, which :func:`resume` updates in place)."""
    best, bound, pi, share, banned = settle(pb, lap_size, stop, seed, lap_size if limit > 0 else 0)
    value, bound, steps, exact = resume(pb, share, best, pi, bound, limit, lap_size, banned, stop)
    return value, bound, steps, exact, pi


@njit(cache=True, nogil=True)
def solve(pb, limit, lap_size, stop, seed):  # pragma: no cover - compiled
    """Maximize the objective of Problem ``pb``; returns (value, bound, steps, exact, map).

    ``limit``: search steps at most; ``lap_size``: the largest side for which
    assignment bounds are used; ``stop``: a one-element array that another
    thread sets non-zero to stop early (the result is then the best map so far
    with a valid bound); ``seed``: a map to start from (hill-climbed, kept when
    better than the root's), or an empty array.  ``map[i]`` is gold node i's
    system node or -1.
    """
    n, m = pb.U.shape
    if n == 0 or m == 0:
        return 0, 0, 0, True, np.full(n, -1, np.int64)
    ix = index(pb)
    sc = scratch(m, pb.ssrc.shape[0])
    use_lap = max(n, m) <= lap_size
    best, bound, best_pi, share, ruled = start(pb, ix, sc, lap_size, stop, seed)
    if best >= bound or limit <= 0:
        return best, max(best, bound), 0, best >= bound, best_pi
    banned = fixing(pb, ix, share, best, stop, sc, ruled) if use_lap else ruled
    best, bound, steps, exact = search(pb, ix, share, best, best_pi, bound, limit, use_lap, banned, stop, sc)
    return best, bound, steps, exact, best_pi
