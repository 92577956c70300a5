"""Corpora: whole files read through the codecs into a Corpus (the graphs of one file and those that could
not be read), read ahead in a forked child while the process does other work, and kept packed when large."""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, Tuple

from mrp.lazy import exports

if TYPE_CHECKING:
    from mrp.corpora.ahead import Ahead, pays_after
    from mrp.corpora.corpus import Corpus, Repaired
    from mrp.corpora.load import read_corpus, read_items, read_text, reading_together, umr_files
    from mrp.corpora.packed import Entry, Packed, PackedGraphs, entries, live, mapped, size

__all__ = ["Ahead", "Corpus", "Entry", "Packed", "PackedGraphs", "Repaired", "entries", "live", "mapped",
           "pays_after", "read_corpus", "read_items", "read_text", "reading_together", "size", "umr_files"]

#: each exported name -> (its module under mrp.corpora, its name there), loaded on first use
_HOMES: Dict[str, Tuple[str, str]] = {name: (home, name) for home, names in (
    ("ahead", ("Ahead", "pays_after")), ("corpus", ("Corpus", "Repaired")),
    ("load", ("read_corpus", "read_items", "read_text", "reading_together", "umr_files")),
    ("packed", ("Entry", "Packed", "PackedGraphs", "entries", "live", "mapped", "size"))) for name in names}

__getattr__ = exports(__name__, globals(), _HOMES)
