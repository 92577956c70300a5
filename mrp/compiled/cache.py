"""numba's on-disk cache looked into without loading from it: whether a kernel would be loaded, not
compiled, at its first call (the Penman scan's warm-up marks the scan usable so, and loads it at its first
text)."""

from __future__ import annotations

import os
from typing import Any, Optional, Tuple

__all__ = ["in_cache"]


def in_cache(kernel: Any, args: Tuple[Any, ...]) -> Optional[bool]:
    """Whether numba's cache holds a kernel compiled for the types of some arguments, found without loading
    it (as numba finds it when the kernel is first called: the index's key, the sources' stamp, the data
    file).

    Args:
        kernel: a kernel (:func:`mrp.compiled.njit` with ``cache=True``).
        args: arguments of the types it would be called with.

    Returns:
        Whether it is there; None where this numba's cache cannot be looked into so.
    """
    try:
        cache = kernel._cache
        signature = tuple(kernel.typeof_pyval(value) for value in args)
        key = cache._index_key(signature, kernel.targetctx.codegen())
        cache_file = cache._cache_file
        name = cache_file._load_index().get(key)
        return name is not None and os.path.isfile(os.path.join(cache_file._cache_path, name))
    except Exception:  # noqa: BLE001  # a numba whose cache is laid out otherwise
        return None
