"""Checkpoints of a run: each finished block's arrays in its own file, written atomically (a numpy ``.npz``
of plain arrays, read back with ``allow_pickle=False``: data, never code), beside a manifest of what the
run computes (the inputs' digests, the metric, its options, the block size), so that a resumed run refuses
a directory made for something else and otherwise scores only the blocks still missing."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from typing import Any, Dict, Optional, Sequence

import numpy as np

from mrp.errors import InputError
from mrp.graph import fingerprint
from mrp.process.packed import live

__all__ = ["MANIFEST", "Store", "digest"]

MANIFEST = "manifest.json"
#: what a manifest's "format" says (a directory of another layout is refused)
LAYOUT = "mrp-similarity checkpoint 1"


def digest(graphs: Sequence[Any]) -> str:
    """A digest of graphs: everything a metric can see of each, in order."""
    hasher = hashlib.sha256()
    for graph in graphs:
        hasher.update(repr(fingerprint(live(graph))).encode("utf-8", "surrogatepass"))
        hasher.update(b"\0")
    return hasher.hexdigest()


def _atomic(path: str, write: Any) -> None:
    directory = os.path.dirname(path) or "."
    handle, temporary = tempfile.mkstemp(prefix=".part-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(handle, "wb") as out:
            write(out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


class Store:
    """A checkpoint directory: :meth:`load` a finished block, :meth:`save` one."""

    def __init__(self, directory: str, manifest: Dict[str, Any], resume: bool) -> None:
        self.directory = directory
        manifest = dict(manifest, format=LAYOUT)
        path = os.path.join(directory, MANIFEST)
        try:
            os.makedirs(directory, exist_ok=True)
        except OSError as error:
            raise InputError(f"{directory}: cannot make the checkpoint directory: {error.strerror}") from None
        if os.path.exists(path):
            if not resume:
                raise InputError(f"{directory}: holds a checkpoint already; give --resume to finish it, or "
                                 "another directory")
            try:
                with open(path, encoding="utf-8") as stream:
                    found = json.load(stream)
            except (OSError, ValueError) as error:
                raise InputError(f"{path}: not a readable checkpoint manifest: {error}") from None
            different = sorted(key for key in set(found) | set(manifest)
                               if found.get(key) != manifest.get(key))
            if different:
                raise InputError(f"{directory}: the checkpoint was made for another run (it differs in: "
                                 f"{', '.join(different)}); nothing resumed")
        else:
            text = json.dumps(manifest, indent=1, sort_keys=True).encode("utf-8")
            _atomic(path, lambda out: out.write(text))

    def _path(self, key: str) -> str:
        return os.path.join(self.directory, f"block-{key}.npz")

    def load(self, key: str) -> Optional[Dict[str, np.ndarray]]:
        """A finished block's arrays, or None (not finished, or its file unreadable: scored again)."""
        path = self._path(key)
        if not os.path.exists(path):
            return None
        try:
            with np.load(path, allow_pickle=False) as data:
                return {name: data[name] for name in data.files}
        except (OSError, ValueError, KeyError):
            return None

    def save(self, key: str, arrays: Dict[str, np.ndarray]) -> None:
        """Write a finished block's arrays (atomically: a file is whole or absent)."""
        _atomic(self._path(key), lambda out: np.savez(out, **arrays))  # type: ignore[arg-type]
