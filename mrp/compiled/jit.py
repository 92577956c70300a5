"""Compiling mrp's kernels (the solver's, and the Penman codec's scan): numba imported without packages it
does not need here, and numba's on-disk cache where it can write, else a private one, else none.

Below the codecs (layer 2, beside io and process), so that a codec may compile a kernel too; the solver's
warm-up (:mod:`mrp.solver.warmup`) makes every kernel ready, the codec's among them.

When SciPy is installed, numba imports it to check its version and, at the
first compiled call, imports ``scipy.linalg.cython_blas`` (some 85 modules) to
offer BLAS-backed ``np.dot`` and friends.  The solver uses none of it, so numba
and its array-math module are imported with SciPy hidden (unless SciPy is
already imported); SciPy stays importable afterwards, but compiled code in
this process then has no BLAS functions.  Likewise PyYAML, which numba imports
to read a ``.numba_config.yaml`` in the working directory, is hidden while numba
is imported where there is no such file.

An installation where numba cannot write its cache (a read-only
site-packages with no writable home, or a read-only ``NUMBA_CACHE_DIR``) must
still score: the kernels are then cached in a private directory under the
system's temporary directory, and where even that is impossible they are
compiled in memory for this process only.  Either way one
:class:`CacheWarning` says so.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import os
import sys
import tempfile
import warnings
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

from mrp.errors import MRPWarning

#: Packages numba imports when installed that the solver never needs ...
_UNNEEDED = ("scipy",)
#: ... and PyYAML, which numba imports (about 0.015 s) to read this file in the working directory: hidden
#: where there is none
NUMBA_CONFIG = ".numba_config.yaml"


def _unneeded() -> List[str]:
    """The installed packages not imported yet that numba would import and the solver does not need."""
    names = list(_UNNEEDED) + ([] if os.path.isfile(NUMBA_CONFIG) else ["yaml"])
    return [name for name in names if name not in sys.modules and importlib.util.find_spec(name)]


def _import_numba() -> None:
    if "numba" in sys.modules:
        return
    hidden = _unneeded()
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]  # `import name` now raises ImportError
    try:
        import numba  # noqa: F401
        if "scipy" in hidden:
            import numba.np.arraymath  # noqa: F401  # decides once, while SciPy is hidden, that there is no BLAS
    finally:
        for name in hidden:
            if name in sys.modules and sys.modules[name] is None:
                del sys.modules[name]


@contextlib.contextmanager
def _light_environments() -> Iterator[None]:
    """While a cached kernel loads, numba's own modules are not imported to rebuild their environments.

    Each compiled function carries an environment: its module's globals and its
    constants.  Loading a kernel from the cache rebuilds the environment of every
    function it contains by importing the function's module, and the solver
    contains functions of numba's array, string and math implementations, whose
    modules take about 0.04 s to import.  Compiled code never reads an
    environment's globals (only object-mode code does, and the solver has none);
    it reads the constants, which are kept.  So the environment of a function of
    a numba module that is not imported yet gets globals holding only the module's
    name, and every other environment is rebuilt as numba does.
    """
    try:
        from numba.core import environment
        original = environment._rebuild_env
        lookup, Environment = environment.lookup_environment, environment.Environment
        Environment._memo  # noqa: B018  # must exist
    except (ImportError, AttributeError):
        yield
        return

    def rebuild(modname: Any, consts: Any, env_name: Any) -> Any:
        env = lookup(env_name)
        if env is not None:
            return env
        if not isinstance(modname, str) or not modname.startswith("numba.") or modname in sys.modules:
            return original(modname, consts, env_name)
        env = Environment({"__name__": modname})  # "__name__": a static environment, as numba's are
        env.consts[:] = consts
        env.env_name = env_name
        Environment._memo[env_name] = env
        return env

    environment._rebuild_env = rebuild
    try:
        yield
    finally:
        environment._rebuild_env = original


@contextlib.contextmanager
def _lazy_linking() -> Iterator[None]:
    """While a cached kernel loads, its LLVM bitcode is parsed only when something links it in.

    numba caches a kernel as its object code and the LLVM bitcode of the same
    module (to link it into kernels compiled later).  Loading parses the bitcode
    only to learn which symbols the module defines (about 0.03 s per kernel; 2 MB
    of bitcode, over half of loading the solver).  The object file's own symbol
    table (:func:`mrp.compiled.symbols.defined`) names the same symbols; the
    bitcode is kept and parsed the first time a kernel compiled later links this
    one.  Where the object file is not one that table can be read from, numba's
    own way.
    """
    try:
        from numba.core.codegen import CPUCodeLibrary
        original = CPUCodeLibrary.__dict__["_unserialize"]
        CPUCodeLibrary.enable_object_caching, CPUCodeLibrary._set_compiled_object  # noqa: B018  # must exist
        CPUCodeLibrary._finalize_final_module  # noqa: B018
    except (ImportError, AttributeError, KeyError):
        yield
        return
    from mrp.compiled.symbols import defined

    def unserialize(cls: Any, generator: Any, state: Any) -> Any:
        name, kind, data = state
        symbols = defined(data[0]) if kind == "object" else None
        known = getattr(getattr(generator, "_engine", None), "_defined_symbols", None)
        if symbols is None or not isinstance(known, set):
            return original.__func__(cls, generator, state)
        library = generator.create_library(name)
        library.__class__ = _lazy_class(type(library))
        library.mrp_bitcode = data[1]
        library.enable_object_caching()
        library._set_compiled_object(data[0])
        library._finalize_final_module()
        known |= symbols
        return library

    CPUCodeLibrary._unserialize = classmethod(unserialize)  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        CPUCodeLibrary._unserialize = original  # type: ignore[method-assign]


#: numba's code library class -> its lazy subclass (:func:`_lazy_class`)
_LAZY: Dict[Any, Any] = {}


def _lazy_class(library: Any) -> Any:
    """A code library whose bitcode for linking is parsed when first asked for (:func:`_lazy_linking`)."""
    if library in _LAZY:
        return _LAZY[library]

    def for_linking(self: Any) -> Any:
        if self._shared_module is None and self.mrp_bitcode is not None:
            import llvmlite.binding as ll

            self._shared_module, self.mrp_bitcode = ll.parse_bitcode(self.mrp_bitcode), None
        return library._get_module_for_linking(self)  # type: ignore[attr-defined]  # numba's

    lazy = type(f"Lazy{library.__name__}", (library,), {"_get_module_for_linking": for_linking})
    _LAZY[library] = lazy
    return lazy


class CacheWarning(MRPWarning):
    """numba could not use its usual cache directory, or a cached kernel could not be loaded."""


def _load_lightly() -> None:
    """Load cached kernels without refreshing every registry first, and compile afresh where a cached
    kernel cannot be loaded.

    Before loading a cached kernel numba refreshes its typing and lowering
    registries, importing some sixty modules (about 0.1 s, half of loading the
    solver); a kernel loaded from the cache needs only the runtime (and, see
    :func:`_light_environments`, not the modules of numba's implementations).
    Compiling still refreshes everything, and a load that fails the light way is
    retried numba's way.  A cache entry that fails both ways (a truncated or
    otherwise damaged file) counts as no entry: the kernel is compiled and the
    entry written anew, with one :class:`CacheWarning`; numba's own way would
    raise at every call, on every later run too.
    """
    try:
        from numba.core.caching import Cache
        original = Cache.load_overload
    except (ImportError, AttributeError):
        return
    try:
        from numba.core.runtime import rtsys
        Cache._load_overload, Cache._guard_against_spurious_io_errors  # noqa: B018  # both must exist
        light = True
    except (ImportError, AttributeError):
        light = False

    def load_overload(self: Any, sig: Any, target_context: Any) -> Any:
        if light:
            try:
                rtsys.initialize(target_context)
                with self._guard_against_spurious_io_errors(), _light_environments(), _lazy_linking():
                    return self._load_overload(sig, target_context)
            except Exception:  # noqa: BLE001  # a numba this was not made for: its own way
                pass
        try:
            return original(self, sig, target_context)
        except Exception as error:  # noqa: BLE001  # a damaged entry: compiled afresh, not a failed pair
            warnings.warn(f"numba's cached copy of {getattr(self, '_name', 'a kernel')} could not be loaded "
                          f"({type(error).__name__}: {error}); compiled afresh and cached again",
                          CacheWarning, stacklevel=2)
            return None

    Cache.load_overload = load_overload  # type: ignore[method-assign]


_import_numba()
_load_lightly()

import numba  # noqa: E402
from numba import njit as _njit  # noqa: E402

__all__ = ["CacheWarning", "Kernel", "kernel", "current_route", "njit", "route", "sources_digest",
           "unrouted"]

from numba.core import types as _types  # noqa: E402
from numba.core.registry import CPUDispatcher  # noqa: E402

#: how a call from Python runs while the kernels are not loaded (mrp.solver.warmup): None, compiled
_ROUTE: Optional[Callable[[Any, Tuple[Any, ...]], Any]] = None


class Kernel(CPUDispatcher):  # type: ignore[misc]  # numba's dispatcher is untyped
    """A solver kernel: numba's dispatcher, compiled once per argument types, literals widened, and run
    as plain Python while :func:`route` says so.

    numba compiles a function called with a constant (``assignment(P, stop, True)``)
    for that constant's literal type, then again for the other constant and for
    the plain type: the same code optimised two or three times.  Here every call
    is typed with the constants' plain types, so each kernel is compiled once for
    each argument types (the branches a constant decides are then decided at run
    time, a comparison).
    """

    def get_call_template(self, args: Any, kws: Any) -> Any:
        return super().get_call_template(tuple(_types.unliteral(a) for a in args),
                                         {k: _types.unliteral(v) for k, v in kws.items()})

    def __call__(self, *args: Any, **kws: Any) -> Any:
        if _ROUTE is not None and not kws:
            return _ROUTE(self, args)
        return super().__call__(*args, **kws)


def route(how: Optional[Callable[[Any, Tuple[Any, ...]], Any]]) -> None:
    """Calls of kernels from Python go to ``how(kernel, args)`` from now on (None: compiled, numba's way)."""
    global _ROUTE
    _ROUTE = how


def current_route() -> Optional[Callable[[Any, Tuple[Any, ...]], Any]]:
    """Where calls of kernels from Python go now (None: compiled)."""
    return _ROUTE


def unrouted(kernel: Any) -> Callable[..., Any]:
    """A kernel called numba's way whatever :func:`route` says (and without a Python frame of its own): for a
    kernel its callers use only once it is compiled (the Penman scan), never run as plain Python.

    Args:
        kernel: a kernel (:func:`njit` with ``cache=True``).

    Returns:
        The call.
    """
    return functools.partial(CPUDispatcher.__call__, kernel)


def _kernel(dispatcher: Any) -> Any:
    dispatcher.__class__ = Kernel
    return dispatcher


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
                          CacheWarning, stacklevel=4)
        except OSError:
            _FALLBACK = ""
            warnings.warn("numba cannot write a cache anywhere; the solver is compiled in memory on every "
                          "run (30-60 s)", CacheWarning, stacklevel=4)
    return _FALLBACK


@functools.cache
def sources_digest(folder: str) -> bytes:
    """A digest of the sources of every module of a package (the folder of a kernel's module: the solver,
    or a codec); empty where they cannot be read as files (a zipped installation: numba's own stamp then
    stands alone).

    Args:
        folder: the package's folder.

    Returns:
        The digest.
    """
    digest = hashlib.sha256()
    try:
        for name in sorted(os.listdir(folder)):
            if name.endswith(".py"):
                with open(os.path.join(folder, name), "rb") as source:
                    digest.update(name.encode() + b"\0" + source.read() + b"\0")
    except OSError:
        return b""
    return digest.digest()


def _stamped(dispatcher: Any, function: Callable[..., Any]) -> Any:
    """A cached kernel valid only for the sources of its package as they are now.

    A kernel's cached code holds the compiled code of every function it calls,
    from other modules too, but numba checks only the source of the kernel's own
    module: after a change to ``incumbent.py`` alone, a checkout would go on
    running the cached ``kernel.solve`` with the old hill-climb in it.  So each
    kernel's cache is stamped with the digest of its whole package as well (with a
    numba whose cache is laid out otherwise, numba's own stamp stays).
    """
    try:
        cache_file = dispatcher._cache._cache_file
        stamp = cache_file._source_stamp
    except AttributeError:
        return dispatcher
    folder = os.path.dirname(os.path.abspath(function.__code__.co_filename))
    cache_file._source_stamp = (stamp, sources_digest(folder))
    return dispatcher


def _cached(function: Callable[..., Any], options: Any) -> Any:
    if _FALLBACK is None:
        try:
            return _stamped(_kernel(_njit(cache=True, **options)(function)), function)
        except RuntimeError as error:
            if "cannot cache" not in str(error):
                raise
    directory = _private_cache()
    if directory:
        numba.config.CACHE_DIR = directory  # type: ignore[attr-defined]  # read when a kernel looks for it
        try:
            return _stamped(_kernel(_njit(cache=True, **options)(function)), function)
        except RuntimeError as error:
            if "cannot cache" not in str(error):
                raise
    return _kernel(_njit(**options)(function))


def kernel(**options: Any) -> Callable[[Callable[..., Any]], Any]:
    """``numba.njit(cache=True, **options)``, falling back as the module says when the cache is unwritable."""
    return lambda function: _cached(function, options)


def njit(*args: Any, **options: Any) -> Any:
    """``numba.njit`` as the solver modules call it; ``cache=True`` falls back as :func:`kernel` does."""
    if options.pop("cache", False):
        if args and callable(args[0]):
            return _cached(args[0], options)
        return kernel(**options)
    return _njit(*args, **options)
