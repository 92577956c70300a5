"""Corpora: whole files read through the codecs into a Corpus (the graphs of one file and those that could
not be read), read ahead in a forked child while the process does other work, and kept packed when large."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any, Dict

if TYPE_CHECKING:
    from mrp.corpora.ahead import Ahead, pays_after
    from mrp.corpora.corpus import Corpus, Repaired
    from mrp.corpora.load import read_corpus, read_text, reading_together, umr_files
    from mrp.corpora.packed import entries, live, mapped

__all__ = ["Ahead", "Corpus", "Repaired", "entries", "live", "mapped", "pays_after", "read_corpus",
           "read_text", "reading_together", "umr_files"]

#: each exported name -> its module under mrp.corpora (loaded on first use)
_HOMES: Dict[str, str] = {
    **dict.fromkeys(("Ahead", "pays_after"), "ahead"),
    **dict.fromkeys(("Corpus", "Repaired"), "corpus"),
    **dict.fromkeys(("read_corpus", "read_text", "reading_together", "umr_files"), "load"),
    **dict.fromkeys(("entries", "live", "mapped"), "packed"),
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'mrp.corpora' has no attribute {name!r}")
    value = globals()[name] = getattr(import_module(f"mrp.corpora.{home}"), name)
    return value
