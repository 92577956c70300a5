"""The compiled scan of a plain Penman text (:mod:`.scan`): the text's UTF-8 bytes read once by a numba
kernel into one array of integers, what :func:`.fast.plain_form` reads of the text, but for its strings.

:func:`scan_kernel` follows :func:`.fast.plain_form` unit by unit (the same tokens: :data:`CLASSES` gives each
byte its class) and declines (an empty array) wherever that function would decline, and more: any byte
outside ASCII, any ``~`` (an alignment), a quoted string with an escape or not closed on its line, a role
that is a bare ``:``, a node without a concept, any line separator but ``\\n``.  The caller then reads the
text the present way, with its errors as they are.  This module imports numba (through
:mod:`mrp.compiled`): the reader never imports it; :func:`warm_scan` (called by the solver's warm-up)
compiles the kernels, or finds them in numba's cache, and hands the scan to :mod:`.scan` (a cached kernel
is loaded at its first text).
"""

from __future__ import annotations

from typing import List, Optional, Tuple

import numpy as np

from mrp.codecs.penman import scan
from mrp.codecs.penman.parse import MAX_DEPTH
from mrp.compiled import in_cache, njit, unrouted

__all__ = ["CLASSES", "scan_batch", "scan_kernel", "scanned_batch", "scanned_codes", "warm_scan"]

#: each byte's class: 0 a symbol's, 1 white space, 2 ``"``, 3 ``(``, 4 ``)``, 5 ``/``, 6 ``:``, 7 declines
#: the text (beyond ASCII, ``~``, the line separators other than ``\n``)
CLASSES = np.zeros(256, np.int8)
CLASSES[128:] = 7
for _byte, _class in ((" ", 1), ("\t", 1), ("\n", 1), ('"', 2), ("(", 3), (")", 4), ("/", 5), (":", 6)):
    CLASSES[ord(_byte)] = _class
for _byte in "~\r\v\f\x1c\x1d\x1e":
    CLASSES[ord(_byte)] = 7

_HASH = 35  # "#": no symbol starts with it
_QUOTE, _BACKSLASH, _NEWLINE, _SLASH, _CLOSE = 34, 92, 10, 47, 41


@njit(cache=True)
def _white(b: np.ndarray, c: np.ndarray, p: int, n: int) -> int:
    while p < n and c[b[p]] == 1:
        p += 1
    return p


@njit(cache=True)
def _symbol(b: np.ndarray, c: np.ndarray, p: int, n: int) -> int:
    while p < n and c[b[p]] == 0:
        p += 1
    return p


@njit(cache=True)
def _token(b: np.ndarray, c: np.ndarray, p: int, n: int) -> int:
    """The end of the symbol or quoted string (without escapes, on its line) at ``p``, or -1."""
    if c[b[p]] == 0 and b[p] != _HASH:
        return _symbol(b, c, p, n)
    if c[b[p]] != 2:
        return -1
    p += 1
    while p < n:
        x = b[p]
        if x == _QUOTE:
            return p + 1
        if x == _BACKSLASH or x == _NEWLINE or c[x] == 7:
            return -1
        p += 1
    return -1


@njit(cache=True)
def _same(b: np.ndarray, s1: int, e1: int, s2: int, e2: int) -> bool:
    if e1 - s1 != e2 - s2:
        return False
    for k in range(e1 - s1):
        if b[s1 + k] != b[s2 + k]:
            return False
    return True


@njit(cache=True)
def _hash(b: np.ndarray, s: int, e: int) -> np.uint64:
    h = np.uint64(14695981039346656037)
    for k in range(s, e):
        h = (h ^ np.uint64(b[k])) * np.uint64(1099511628211)
    return h


@njit(cache=True)
def scan_kernel(b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """A text's scan: ``[nodes, branches, edges]``, then each node's ``(concept start, concept end, its
    branches)`` (-1, -1 for no concept), then each branch node by node in the order written, ``(target node
    or -1 for a constant, role start, role end, constant start, constant end)``; empty where it declines.

    Args:
        b: the text's bytes.
        c: :data:`CLASSES`.

    Returns:
        The integers.
    """
    n = len(b)
    none = np.empty(0, np.int64)
    m = n // 2 + 2
    nodes = np.empty((m, 4), np.int64)  # variable start, end, concept start, end
    branches = np.empty((m, 6), np.int64)  # owner, role start, end, target, constant start, end
    stack = np.empty(MAX_DEPTH + 1, np.int64)
    depth = 0
    owner = -1
    number = 0
    count = 0
    p = _white(b, c, 0, n)
    while p < n:
        x = c[b[p]]
        rs = -1
        re = -1
        if x == 6:  # a role
            rs = p
            p = _symbol(b, c, p + 1, n)
            re = p
            if re - rs < 2:
                return none
            p = _white(b, c, p, n)
            if p >= n:
                return none
            x = c[b[p]]
        if x == 3:  # a node opens: its variable and concept
            p = _white(b, c, p + 1, n)
            if p >= n or c[b[p]] != 0 or b[p] == _HASH:
                return none
            vs = p
            p = _symbol(b, c, p, n)
            q = _white(b, c, p, n)
            if q >= n or b[q] != _SLASH:
                return none
            q = _white(b, c, q + 1, n)
            if q >= n:
                return none
            e = _token(b, c, q, n)
            if e < 0:
                return none
            if rs >= 0:
                if owner < 0:
                    return none
                branches[count, 0] = owner
                branches[count, 1] = rs
                branches[count, 2] = re
                branches[count, 3] = number
                branches[count, 4] = -1
                branches[count, 5] = -1
                count += 1
                stack[depth] = owner
                depth += 1
                if depth >= MAX_DEPTH:
                    return none
            elif number:
                return none  # a node where a branch or the end was due
            nodes[number, 0] = vs
            nodes[number, 1] = p
            nodes[number, 2] = q
            nodes[number, 3] = e
            owner = number
            number += 1
            p = e
        elif x == 0 or x == 2:  # a branch to a symbol or a string
            if rs < 0 or owner < 0:
                return none
            e = _token(b, c, p, n)
            if e < 0:
                return none
            branches[count, 0] = owner
            branches[count, 1] = rs
            branches[count, 2] = re
            branches[count, 3] = -1
            branches[count, 4] = p
            branches[count, 5] = e
            count += 1
            p = e
        else:
            return none
        q = _white(b, c, p, n)
        while q < n and b[q] == _CLOSE:
            if depth:
                depth -= 1
                owner = stack[depth]
            elif owner < 0:
                return none  # a ")" after the graph
            else:
                owner = -1
            q = _white(b, c, q + 1, n)
        p = q
    if owner >= 0 or number == 0:
        return none
    # each variable once; a symbol naming one is an edge to its node
    size = 4
    while size < 2 * number:
        size *= 2
    table = np.full(size, -1, np.int64)
    mask = np.uint64(size - 1)
    for k in range(number):
        at = np.int64(_hash(b, nodes[k, 0], nodes[k, 1]) & mask)
        while table[at] >= 0:
            if _same(b, nodes[table[at], 0], nodes[table[at], 1], nodes[k, 0], nodes[k, 1]):
                return none  # a variable defined twice
            at = (at + 1) & (size - 1)
        table[at] = k
    edges = 0
    counts = np.zeros(number + 1, np.int64)
    for k in range(count):
        counts[branches[k, 0] + 1] += 1
        if branches[k, 3] >= 0:
            edges += 1
            continue
        vs = branches[k, 4]
        if b[vs] == _QUOTE:
            continue
        ve = branches[k, 5]
        at = np.int64(_hash(b, vs, ve) & mask)
        while table[at] >= 0:
            j = table[at]
            if _same(b, nodes[j, 0], nodes[j, 1], vs, ve):
                branches[k, 3] = j
                edges += 1
                break
            at = (at + 1) & (size - 1)
    out = np.empty(3 + 3 * number + 5 * count, np.int64)
    out[0] = number
    out[1] = count
    out[2] = edges
    for k in range(number):
        out[3 + 3 * k] = nodes[k, 2]
        out[4 + 3 * k] = nodes[k, 3]
        out[5 + 3 * k] = counts[k + 1]
    for k in range(number):
        counts[k + 1] += counts[k]
    base = 3 + 3 * number
    for k in range(count):
        at = base + 5 * counts[branches[k, 0]]
        counts[branches[k, 0]] += 1
        out[at] = branches[k, 3]
        out[at + 1] = branches[k, 1]
        out[at + 2] = branches[k, 2]
        out[at + 3] = branches[k, 4]
        out[at + 4] = branches[k, 5]
    return out


@njit(cache=True)
def scan_batch(b: np.ndarray, starts: np.ndarray, ends: np.ndarray,
               c: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Many texts' scans in one call (:func:`scan_kernel`, each text's offsets from its own start).

    Args:
        b: the texts' bytes, one after the other.
        starts: where each text starts in ``b``.
        ends: where each ends.
        c: :data:`CLASSES`.

    Returns:
        The integers of every text read, one after the other, and where each text's start (-1: declined).
    """
    texts = len(starts)
    scans = []
    total = 0
    for k in range(texts):
        found = scan_kernel(b[starts[k]:ends[k]], c)
        scans.append(found)
        total += len(found)
    out = np.empty(total, np.int64)
    where = np.full(texts, -1, np.int64)
    at = 0
    for k in range(texts):
        found = scans[k]
        if len(found):
            where[k] = at
            out[at:at + len(found)] = found
            at += len(found)
    return out, where


#: the two kernels as the reader calls them: compiled, whatever the route of the solver's kernels (the scan is
#: used only once made ready, :func:`warm_scan`)
_SCAN_ONE = unrouted(scan_kernel)
_SCAN_MANY = unrouted(scan_batch)


def scanned_codes(text: str) -> Optional[List[int]]:
    """The scan of a text (:func:`scan_kernel`), or None where it declines (a text beyond ASCII among them).

    Args:
        text: the text.

    Returns:
        The integers, or None.
    """
    if not text.isascii():
        return None
    out = _SCAN_ONE(*_one_args(text))
    return out.tolist() if len(out) else None


def scanned_batch(texts: List[str]) -> Tuple[List[int], List[int]]:
    """Texts scanned in one call (:func:`scan_batch`): their integers and where each text's start (-1:
    declined).

    Args:
        texts: the texts, each on one line.

    Returns:
        The integers and the starts.
    """
    if len(texts) == 1:  # (a reward's one text: without the batch's arrays)
        codes = scanned_codes(texts[0])
        return (codes, [0]) if codes is not None else ([], [-1])
    out, where = _SCAN_MANY(*_many_args(texts))
    return out.tolist(), where.tolist()


def _many_args(texts: List[str]) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The arguments :func:`scanned_batch` gives :func:`scan_batch` for texts."""
    joined = "\n".join(texts)
    data = joined.encode("utf-8")
    sizes = map(len, texts) if joined.isascii() else (len(text.encode("utf-8")) for text in texts)
    lengths = np.fromiter(sizes, np.int64, len(texts))
    ends = np.cumsum(lengths + 1) - 1
    return np.frombuffer(data, np.uint8), ends - lengths, ends, CLASSES


#: the texts the warm-up reads with each kernel (each kernel is compiled for their argument types)
_WARM = "(a / alpha :ARG0 (b / beta) :name \"x\" :mod b)"


def _one_args(text: str) -> Tuple[np.ndarray, np.ndarray]:
    """The arguments :func:`scanned_codes` gives :func:`scan_kernel` for an ASCII text."""
    return np.frombuffer(text.encode("ascii"), np.uint8), CLASSES


def warm_scan(lazily: bool = False) -> bool:
    """Make the scan ready, then read plain texts with it (the solver's warm-up calls this: a reader never
    compiles).

    Args:
        lazily: only when numba's cache holds both kernels: mark the scan usable, each kernel loaded from
            the cache at its first text (a process that reads no Penman text never loads them); False (and
            nothing marked) when the cache lacks one.  Where the cache cannot be looked into, and without
            ``lazily``: compile the kernels, or load them from the cache, now.

    Returns:
        Whether the scan is usable.
    """
    if lazily:
        held = [in_cache(scan_kernel, _one_args(_WARM)), in_cache(scan_batch, _many_args([_WARM, "(x / y)"]))]
        if False in held:
            return False
        if None not in held:
            scan.use(scanned_batch)
            return True
    scanned_codes(_WARM)
    scanned_batch([_WARM, "(x / y)"])
    scan.use(scanned_batch)
    return True
