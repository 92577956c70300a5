"""Loading a cached kernel without parsing its LLVM bitcode (mrp.compiled.jit._lazy_linking): the object
file's symbol table names what the bitcode defines, and a kernel compiled later still links it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Set

import numpy as np
import pytest

from mrp.compiled.symbols import defined

ROOT = Path(__file__).resolve().parents[1]
ELF = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="object files are ELF on Linux only")


def _bitcode_defines(bitcode: bytes) -> Set[str]:
    """What numba reads from the bitcode: the names of the functions and globals it defines."""
    import llvmlite.binding as ll

    module = ll.parse_bitcode(bitcode)
    return {g.name for group in (module.functions, module.global_variables) for g in group
            if not g.is_declaration}


def _object_and_bitcode(dispatcher: Any) -> Any:
    library = next(iter(dispatcher.overloads.values())).library
    _, kind, data = library.serialize_using_object_code()
    assert kind == "object"
    return data


@ELF
def test_the_symbol_table_names_what_the_bitcode_defines_for_a_fresh_function() -> None:
    import numba

    @numba.njit
    def fresh(n: int) -> Any:
        a = np.arange(n) * 1.5
        if n < 0:
            raise ValueError("negative", n)
        return a.sum(), str(n)

    assert fresh(4) == (9.0, "4")
    code, bitcode = _object_and_bitcode(fresh)
    names = defined(code)
    assert names is not None and names == _bitcode_defines(bitcode) and len(names) > 3


#: Run in a fresh process with the kernels cached: every kernel's symbols as read from its object file
#: at load, and as numba would read them from its bitcode (kept for linking)
_SOLVER_SYMBOLS = """
import json
import llvmlite.binding as ll
from mrp.compiled import symbols
read = []
original = symbols.defined
symbols.defined = lambda code: read.append(original(code)) or read[-1]
from mrp.solver import ready
from mrp.solver.assemble import candidates, rewards
from mrp.solver.batch import search_all
from mrp.solver.kernel import resume, settle
ready()
def defines(bitcode):
    module = ll.parse_bitcode(bitcode)
    return sorted(g.name for group in (module.functions, module.global_variables) for g in group
                  if not g.is_declaration)
kept = [defines(next(iter(k.overloads.values())).library.mrp_bitcode)
        for k in (rewards, candidates, settle, resume, search_all)]
print(json.dumps({"read": sorted(sorted(names) for names in read), "kept": sorted(kept)}))
"""


def _run_warm(script: str) -> Any:
    """The JSON a script prints, run in a fresh process once the kernels are cached (``mrp-warm-up`` waits
    for them: a first run leaves them to the background compiler)."""
    warm_up = [sys.executable, "-m", "mrp.cli.warm_up", "--quiet"]
    subprocess.run(warm_up, capture_output=True, cwd=ROOT, check=True, timeout=900)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, cwd=ROOT, check=True,
                          timeout=600)
    return json.loads(done.stdout)


@ELF
def test_the_symbol_table_names_what_the_bitcode_defines_for_the_solver() -> None:
    out = _run_warm(_SOLVER_SYMBOLS)
    assert len(out["kept"]) == 5 and all(out["kept"])
    assert all(names in out["read"] for names in out["kept"])


def test_anything_but_a_64_bit_little_endian_elf_file_is_left_to_llvm() -> None:
    assert defined(b"") is None
    assert defined(b"\xcf\xfa\xed\xfe" + bytes(60)) is None  # Mach-O
    assert defined(b"\x7fELF\x01\x01" + bytes(58)) is None  # 32-bit
    assert defined(b"\x7fELF\x02\x02" + bytes(58)) is None  # big-endian
    assert defined(b"\x7fELF\x02\x01" + bytes(58)) is None  # no sections
    assert defined(b"\x7fELF\x02\x01" + bytes(34) + b"\xff" * 24) is None  # sections past the end


#: Run in a fresh process with the kernels cached: load them, then compile a function that calls one.
_LINKED_LATER = """
import json
import numba
import numpy as np
from mrp.solver import ready
from mrp.solver.assemble import rewards
ready()
library = next(iter(rewards.overloads.values())).library
kept = type(library).__name__.startswith("Lazy") and library.mrp_bitcode is not None

@numba.njit
def twice(U, gold, system):
    rewards(U, gold, system, 2)
    rewards(U, gold, system, 2)
    return U

rows = lambda *r: np.array(r, np.int64)
U = twice(np.zeros((2, 2), np.int64), rows([0, 0, 1], [1, 1, 2]), rows([0, 0, 3], [1, 1, 1]))
print(json.dumps({"kept": kept, "U": U.tolist(), "parsed": library.mrp_bitcode is None,
                  "overloads": len(rewards.overloads)}))
"""


@ELF
def test_a_function_compiled_after_a_light_load_links_the_loaded_kernel() -> None:
    out = _run_warm(_LINKED_LATER)
    assert out["kept"] is True, "the loaded kernel's bitcode was parsed at load"
    assert out["U"] == [[6, 0], [0, 4]]
    assert out["parsed"] is True and out["overloads"] == 1  # linked the loaded kernel, parsed then
