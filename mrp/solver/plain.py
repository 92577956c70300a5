"""The solver's kernels run as plain Python: the very functions numba compiles, interpreted.

A kernel's source is Python; numba compiles it, and until it has (tens of
seconds on a fresh installation, mrp.solver.warmup), the same source can run
in the interpreter on the same numpy arrays and give the same numbers: the same
map, value, bound and steps, since it is the same program.  Each kernel's
*twin* is a copy of its Python function whose module globals have every kernel
replaced by that kernel's twin, so that a twin calls twins all the way down
(the kernels themselves stay untouched).
"""

from __future__ import annotations

import sys
import types
from typing import Any, Callable, Dict

__all__ = ["twin"]

#: a kernel's Python function -> its twin
_TWINS: Dict[Any, Callable[..., Any]] = {}
#: a module's name -> its globals with kernels replaced by their twins
_SPACES: Dict[str, Dict[str, Any]] = {}


def _compiled(value: Any) -> bool:
    """Whether ``value`` is a numba dispatcher (a function it compiles)."""
    return hasattr(value, "py_func") and hasattr(value, "overloads")


def _space(module: str) -> Dict[str, Any]:
    """The globals of ``module`` with every kernel replaced by its twin (made once; cycles allowed)."""
    space = _SPACES.get(module)
    if space is None:
        space = _SPACES[module] = {}
        values = dict(vars(sys.modules[module]))
        space.update(values)
        for name, value in values.items():
            if _compiled(value):
                space[name] = twin(value)
    return space


def twin(kernel: Any) -> Callable[..., Any]:
    """The plain-Python twin of a numba kernel (or of any function numba compiles).

    Args:
        kernel: a numba dispatcher of one of the solver's modules.

    Returns:
        A function that runs the kernel's source in the interpreter, calling the twins of the kernels
        it calls.
    """
    function = kernel.py_func
    found = _TWINS.get(function)
    if found is None:
        found = types.FunctionType(function.__code__, _space(function.__module__), function.__name__,
                                   function.__defaults__, function.__closure__)
        found.__kwdefaults__ = function.__kwdefaults__
        found.__doc__ = function.__doc__
        _TWINS[function] = found
    return found
