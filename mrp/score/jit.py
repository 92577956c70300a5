"""numba's ``njit`` for the solver modules, imported without optional packages numba does not need here.

When SciPy is installed, numba imports it to check its version and, at the
first compiled call, imports ``scipy.linalg.cython_blas`` (some 85 modules) to
offer BLAS-backed ``np.dot`` and friends.  The solver uses none of it, so numba
and its array-math module are imported with SciPy hidden (unless SciPy is
already imported); SciPy stays importable afterwards, but compiled code in
this process then has no BLAS functions.
"""

from __future__ import annotations

import sys

#: Packages numba imports when installed that the solver never needs.
_UNNEEDED = ("scipy",)


def _import_numba() -> None:
    if "numba" in sys.modules:
        return
    hidden = [name for name in _UNNEEDED if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]  # `import name` now raises ImportError
    try:
        import numba  # noqa: F401
        import numba.np.arraymath  # noqa: F401  # decides once whether BLAS (SciPy) is there
    finally:
        for name in hidden:
            if name in sys.modules and sys.modules[name] is None:
                del sys.modules[name]


_import_numba()

from numba import njit  # noqa: E402

__all__ = ["njit"]
