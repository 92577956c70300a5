"""Compiling the solver's kernels: numba's on-disk cache where it can write, else a private one, else none.

An installation where numba cannot write its cache (a read-only site-packages
with no writable home, or a read-only ``NUMBA_CACHE_DIR``) must still score:
the kernels are then cached in a private directory under the system's temporary
directory, and where even that is impossible they are compiled in memory for
this process only.  Either way one :class:`CacheWarning` says so.
"""

from __future__ import annotations

import os
import tempfile
import warnings
from typing import Any, Callable, Optional

import numba
from numba import njit

from ..errors import MRPWarning


class CacheWarning(MRPWarning):
    """numba could not use its usual cache directory."""


#: None: not yet needed; a directory: the private cache in use; "": compiling in memory
_FALLBACK: Optional[str] = None


def _private_cache() -> str:
    """A writable private cache directory, or "" when there is none; warns once."""
    global _FALLBACK
    if _FALLBACK is None:
        uid = os.getuid() if hasattr(os, "getuid") else "user"
        path = os.path.join(tempfile.gettempdir(), f"mrp-numba-cache-{uid}")
        try:
            os.makedirs(path, mode=0o700, exist_ok=True)
            tempfile.TemporaryFile(dir=path).close()
            _FALLBACK = path
            warnings.warn(f"numba cannot write its cache; the solver is cached in {path} instead",
                          CacheWarning, stacklevel=3)
        except OSError:
            _FALLBACK = ""
            warnings.warn("numba cannot write a cache anywhere; the solver is compiled in memory on every "
                          "run (about 15 s)", CacheWarning, stacklevel=3)
    return _FALLBACK


def kernel(**options: Any) -> Callable[[Callable[..., Any]], Any]:
    """``numba.njit(cache=True, **options)``, falling back as the module says when the cache is unwritable."""

    def wrap(function: Callable[..., Any]) -> Any:
        if _FALLBACK is None:
            try:
                return njit(cache=True, **options)(function)
            except RuntimeError as error:
                if "cannot cache" not in str(error):
                    raise
        directory = _private_cache()
        if directory:
            numba.config.CACHE_DIR = directory  # type: ignore[attr-defined]  # read when a kernel looks for it
            try:
                return njit(cache=True, **options)(function)
            except RuntimeError as error:
                if "cannot cache" not in str(error):
                    raise
        return njit(**options)(function)

    return wrap
