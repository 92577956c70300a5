"""Compiled kernels: numba's ``njit`` with its on-disk cache (and the fallbacks where it cannot write one),
and the route by which a kernel called from Python runs while the kernels are not loaded yet.

A layer below the codecs, so that the solver and a codec (the Penman scan) compile their kernels the same
way; the solver's warm-up (:func:`mrp.solver.ready`, ``mrp-warm-up``) makes all of them ready.
"""

from mrp.compiled.cache import in_cache
from mrp.compiled.jit import (
           CacheWarning,
           Kernel,
           current_route,
           kernel,
           njit,
           route,
           sources_digest,
           unrouted,
)

__all__ = ["CacheWarning", "Kernel", "current_route", "in_cache", "kernel", "njit", "route", "sources_digest",
           "unrouted"]
