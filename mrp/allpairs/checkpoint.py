"""Checkpoints of a run: each finished block's arrays in its own file (a numpy ``.npz`` of plain arrays, read
back with ``allow_pickle=False``: data, never code), beside a manifest of what the run computes (mrp's
version, the inputs' digests, the metric, its options, the block size) and of each finished block's
SHA-256 digest. Every file goes through the one writer (:mod:`mrp.io.write`: replaced atomically).

A resumed run refuses a directory made for another run (other inputs, metric or options); a directory made
by another version of mrp is started afresh, with a warning. A block is trusted only when its digest is the
one recorded and its arrays hold what a block holds (names, shapes, dtypes, ``c <= bound <= min(g, s)``);
any other block is scored again, with a warning: nothing unchecked reaches the matrix."""

from __future__ import annotations

import hashlib
import io
import json
import os
import time
import warnings
from typing import Any, Dict, Optional, Sequence, Tuple

import numpy as np

from mrp import __version__
from mrp.corpora import live
from mrp.errors import InputError, MRPWarning
from mrp.graph import fingerprint
from mrp.io.option_files import read_option_json
from mrp.io.write import write_bytes, write_text

__all__ = ["MANIFEST", "CheckpointWarning", "Store", "digest", "problem"]

MANIFEST = "manifest.json"
#: what a manifest's "format" says (a directory of another layout is refused)
LAYOUT = "mrp-similarity checkpoint 2"
#: the manifest is written again at most this often while blocks finish (and once at the end)
RECORD_SECONDS = 2.0
#: the arrays every block holds, with their dtypes; a block of a metric without counts also holds ``f``
KINDS = {"g": np.float64, "s": np.float64, "c": np.float64, "bound": np.float64, "exact": np.bool_,
         "failed": np.int64}


class CheckpointWarning(MRPWarning):
    """A checkpointed block (or a whole checkpoint) is not trusted and is scored again."""


def digest(graphs: Sequence[Any]) -> str:
    """A digest of graphs: everything a metric can see of each, in order."""
    hasher = hashlib.sha256()
    for graph in graphs:
        hasher.update(repr(fingerprint(live(graph))).encode("utf-8", "surrogatepass"))
        hasher.update(b"\0")
    return hasher.hexdigest()


def problem(arrays: Dict[str, np.ndarray], size: int) -> Optional[str]:
    """What is wrong with a block's arrays for a block of ``size`` pairs, or None when they hold what a block
    holds: the arrays :data:`KINDS` names (and ``f`` where the counts are NaN) with their dtypes, one value
    per pair, finite non-negative counts with ``c <= bound <= min(g, s)`` (``f`` in [0, 1] where the metric
    has no counts), ``failed`` distinct positions in the block."""
    expected = set(KINDS)
    if "f" in arrays:
        expected.add("f")
    if set(arrays) != expected:
        return f"it holds the arrays {', '.join(sorted(arrays))}, not {', '.join(sorted(expected))}"
    for name, array in arrays.items():
        kind = KINDS.get(name, np.float64)
        if array.dtype != kind or array.ndim != 1:
            return f"its array {name} is {array.dtype} of shape {array.shape}, not 1-D {np.dtype(kind)}"
        if name != "failed" and len(array) != size:
            return f"its array {name} has {len(array)} values for {size} pairs"
    failed = arrays["failed"]
    if len(np.unique(failed)) != len(failed) or ((failed < 0) | (failed >= size)).any():
        return "its failed pairs are not distinct positions in the block"
    g, s, c, bound = arrays["g"], arrays["s"], arrays["c"], arrays["bound"]
    if "f" in arrays:
        f = arrays["f"]
        if not all(np.isnan(array).all() for array in (g, s, c, bound)):
            return "it holds both F values and counts"
        if not (np.isfinite(f).all() and (f >= 0).all() and (f <= 1).all()):
            return "an F value is outside [0, 1]"
        return None
    if not all(np.isfinite(array).all() for array in (g, s, c, bound)):
        return "a count is not a finite number"
    if (c < 0).any() or (c > bound).any() or (bound > np.minimum(g, s)).any():
        return "a pair's counts break c <= bound <= min(g, s)"
    if (arrays["exact"] & (bound != c)).any():
        return "a pair marked exact has a bound above its count"
    return None


class Store:
    """A checkpoint directory: :meth:`load` a finished block, :meth:`save` one."""

    def __init__(self, directory: str, manifest: Dict[str, Any], resume: bool) -> None:
        self.directory = directory
        self.manifest = dict(manifest, format=LAYOUT, version=__version__)
        self.blocks: Dict[str, str] = {}
        self.recorded, self.unrecorded = 0.0, False
        self.path = os.path.join(directory, MANIFEST)
        try:
            os.makedirs(directory, exist_ok=True)
        except OSError as error:
            raise InputError(f"{directory}: cannot make the checkpoint directory: {error.strerror}") from None
        if os.path.exists(self.path):
            if not resume:
                raise InputError(f"{directory}: holds a checkpoint already; give --resume to finish it, or "
                                 "another directory")
            self._resume()
        self._write()

    def _resume(self) -> None:
        try:
            found = read_option_json(self.path)  # bounded in size and depth
        except InputError as error:
            raise InputError(f"not a readable checkpoint manifest: {error}") from None
        if not isinstance(found, dict):
            raise InputError(f"{self.path}: not a readable checkpoint manifest: not a JSON object")
        identity = {key: value for key, value in self.manifest.items() if key != "version"}
        different = sorted(key for key in (set(found) | set(identity)) - {"version", "blocks"}
                           if found.get(key) != identity.get(key))
        if different:
            raise InputError(f"{self.directory}: the checkpoint was made for another run (it differs in: "
                             f"{', '.join(different)}); nothing resumed")
        blocks = found.get("blocks")
        if found.get("version") != __version__:
            warnings.warn(f"{self.directory}: the checkpoint was made by mrp {found.get('version')}, not "
                          f"{__version__}; its blocks are scored again", CheckpointWarning, stacklevel=2)
        elif isinstance(blocks, dict):
            self.blocks = {str(key): str(value) for key, value in blocks.items()}

    def _write(self) -> None:
        text = json.dumps(dict(self.manifest, blocks=self.blocks), indent=1, sort_keys=True)
        write_text(self.path, text + "\n")
        self.recorded, self.unrecorded = time.monotonic(), False

    def _file(self, key: str) -> str:
        return os.path.join(self.directory, f"block-{key}.npz")

    def load(self, key: str, size: int) -> Optional[Dict[str, np.ndarray]]:
        """A finished block's arrays (a block of ``size`` pairs), or None: not finished, or not trusted (its
        digest is not the one recorded, or its arrays are not what a block holds; a warning says why),
        and then scored again."""
        recorded = self.blocks.get(key)
        if recorded is None:
            return None
        arrays, reason = self._read(self._file(key), recorded, size)
        if reason is not None:
            warnings.warn(f"{self._file(key)}: {reason}; the block is scored again", CheckpointWarning,
                          stacklevel=2)
            del self.blocks[key]
        return arrays

    @staticmethod
    def _read(path: str, recorded: str, size: int) -> Tuple[Optional[Dict[str, np.ndarray]], Optional[str]]:
        """A block's arrays, or why it is not trusted."""
        try:
            with open(path, "rb") as stream:
                data = stream.read()
        except OSError as error:
            return None, f"cannot be read: {error.strerror or error}"
        if hashlib.sha256(data).hexdigest() != recorded:
            return None, "its digest is not the one the manifest records"
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as found:
                arrays = {name: found[name] for name in found.files}
        except Exception as error:  # noqa: BLE001 - whatever a damaged archive raises, the block is redone
            return None, f"is not a readable block ({type(error).__name__})"
        wrong = problem(arrays, size)
        return (None, wrong) if wrong is not None else (arrays, None)

    def save(self, key: str, arrays: Dict[str, np.ndarray]) -> None:
        """Write a finished block's arrays (atomically: a file is whole or absent) and record its digest in
        the manifest: at once when the manifest was last written :data:`RECORD_SECONDS` ago or more, else
        at the next save or :meth:`flush` (the manifest of a long run grows; a block written but not yet
        recorded when a run is killed is scored again)."""
        buffer = io.BytesIO()
        np.savez(buffer, **arrays)  # type: ignore[arg-type]
        data = buffer.getvalue()
        write_bytes(self._file(key), data)
        self.blocks[key] = hashlib.sha256(data).hexdigest()
        self.unrecorded = True
        if time.monotonic() - self.recorded >= RECORD_SECONDS:
            self.flush()

    def flush(self) -> None:
        """Record in the manifest the digests of the blocks saved since it was last written."""
        if self.unrecorded:
            self._write()
