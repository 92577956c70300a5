"""Penman notation: the AMR codec (the registry's ``amr`` format) and what the UMR codec and the metrics
take from it.

The modules inside share their names freely; everything outside this package imports only the names below.
``amr`` reads and writes AMR through the ``penman`` library's public API; ``reading`` reads a file's
graphs in order (a block met again from its first copy); ``framing`` cuts a file into graphs, ``parse`` is
the plain parser of the tree, ``fast`` reads a plain text in one pass (without the tree) into its
``Plain`` form and builds its graph from it, ``scanner`` is the same reading compiled (numba: its module is
imported only by the solver's warm-up) and ``scan`` its form, ``light`` makes that graph when first read,
``spacing`` keeps layout, ``keep`` writes a graph again as its file wrote it, ``writer`` writes Penman text;
``objects`` (with ``direct``, ``layout`` and ``tokens``) reads ``penman.Graph`` objects; ``deep`` reads
deeply nested Penman on a large stack.

Each name is imported from its module on first use, so that taking one (a metric's ``Quoted``) loads that
module alone, as it did before these modules were a package.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional

from mrp.codecs.base import Codec

if TYPE_CHECKING:
    from mrp.codecs.penman.amr import (
        format_graph,
        map_wsj_id,
        normal_role,
        penman_warnings,
        tree_graph,
        write,
    )
    from mrp.codecs.penman.deep import deeply
    from mrp.codecs.penman.fast import Plain, fast_graph, plain_form
    from mrp.codecs.penman.framing import Frame, frames
    from mrp.codecs.penman.keep import Style
    from mrp.codecs.penman.light import LightGraph, unbuilt, unread, unscanned
    from mrp.codecs.penman.objects import graphs_of
    from mrp.codecs.penman.parse import mask, unmask
    from mrp.codecs.penman.reading import one_line_graphs, read, read_string
    from mrp.codecs.penman.scan import Scanned, constant, role_label, scanned_root
    from mrp.codecs.penman.scanner import warm_scan
    from mrp.codecs.penman.spacing import breaks
    from mrp.codecs.penman.writer import Quoted, Symbol, penman_text, quiet_layout

__all__ = [
    "read", "write", "read_string", "format_graph", "normal_role", "map_wsj_id", "penman_warnings",
    "tree_graph", "Quoted", "Symbol", "penman_text", "Style", "Frame", "frames", "graphs_of", "quiet_layout",
    "mask", "unmask", "breaks", "deeply", "one_line_graphs", "fast_graph", "Plain",
    "plain_form", "LightGraph", "unbuilt", "unread", "unscanned", "Scanned", "constant", "role_label",
    "scanned_root", "warm_scan", "CODEC",
]

def _sniff(line: str, after: Iterable[str]) -> Optional[str]:
    """A line that opens a graph (``(``) is Penman."""
    return "amr" if line.startswith("(") else None


#: the codec's facts (mrp.codecs reads them).  The reader parses a graph text once for every file read with
#: the same ``ReadOptions.memo`` (a text met again is built from the first graph of that text:
#: :mod:`mrp.codecs.repeats`)
CODEC = Codec(formats={"amr": "amr"}, extensions={".amr": "amr", ".penman": "amr"}, sniff=_sniff,
              reads_texts_once=True, penman=True)

#: each name of __all__ and the module of this package that defines it
_HOMES: Dict[str, str] = {
    **dict.fromkeys(("write", "format_graph", "normal_role", "map_wsj_id", "penman_warnings", "tree_graph"),
                    "amr"),
    **dict.fromkeys(("read", "read_string", "one_line_graphs"), "reading"),
    **dict.fromkeys(("Quoted", "Symbol", "penman_text", "quiet_layout"), "writer"),
    "Style": "keep", "Frame": "framing", "frames": "framing", "graphs_of": "objects",
    "mask": "parse", "unmask": "parse", "breaks": "spacing", "deeply": "deep",
    **dict.fromkeys(("fast_graph", "Plain", "plain_form"), "fast"),
    **dict.fromkeys(("LightGraph", "unbuilt", "unread", "unscanned"), "light"),
    **dict.fromkeys(("Scanned", "constant", "role_label", "scanned_root"), "scan"),
    "warm_scan": "scanner",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = globals()[name] = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    return value  # found directly from then on


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(__all__))
