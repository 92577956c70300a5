"""The symbols an object file defines, read from its ELF symbol table (what loading a cached kernel needs
to know of it without parsing its LLVM bitcode: :func:`mrp.compiled.jit._lazy_linking`)."""

from __future__ import annotations

import struct
from typing import Optional, Set

__all__ = ["defined"]

_SYMTAB = 2  # a section of symbols (sh_type)
_UNDEFINED = 0  # a symbol's section index when the file only refers to it
_SECTION, _FILE = 3, 4  # symbol types that name a section or the source file, not code or data
_SYMBOL = struct.Struct("<IBBHQQ")  # Elf64_Sym: name, info, other, section index, value, size
_SECTION_HEADER = struct.Struct("<IIQQQQIIQQ")  # Elf64_Shdr


def defined(code: bytes) -> Optional[Set[str]]:
    """The names of the symbols a 64-bit little-endian ELF object file defines (functions and data).

    Args:
        code: the object file's bytes.

    Returns:
        The names, or None when ``code`` is not such a file or cannot be read as one (another platform's
        object format: the caller then asks LLVM).
    """
    if len(code) < 64 or code[:4] != b"\x7fELF" or code[4] != 2 or code[5] != 1:
        return None
    try:
        (start,) = struct.unpack_from("<Q", code, 0x28)
        size, count = struct.unpack_from("<HH", code, 0x3A)
        if size != _SECTION_HEADER.size:
            return None
        headers = [_SECTION_HEADER.unpack_from(code, start + k * size) for k in range(count)]
        tables = [h for h in headers if h[1] == _SYMTAB]
        if len(tables) != 1 or tables[0][9] != _SYMBOL.size:
            return None
        _, _, _, _, offset, length, link, _, _, _ = tables[0]
        strings = code[headers[link][4]:headers[link][4] + headers[link][5]]
        names = set()
        for name, info, _, section, _, _ in _SYMBOL.iter_unpack(code[offset:offset + length]):
            if name and section != _UNDEFINED and info & 0xF not in (_SECTION, _FILE):
                names.add(strings[name:strings.index(b"\0", name)].decode())
        return names
    except (struct.error, ValueError, IndexError, UnicodeDecodeError):
        return None
