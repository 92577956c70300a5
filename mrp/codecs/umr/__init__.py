"""UMR (Uniform Meaning Representation): the codec (the registry's ``umr`` format) and the document API.

The modules inside share their names freely; everything outside this package imports only the names
below.  ``documents`` reads files of documents (the reader and :class:`Document`), ``frame`` cuts a file
into sentence blocks, ``sentence`` reads a block's Penman graph, ``annotation`` the alignment and
document-level annotation syntax, and ``writer`` writes UMR.

Each name is imported from ``documents`` on first use, so that the registry reading this codec's facts
(``CODEC``) does not load the reader and the ``penman`` library.
"""

from __future__ import annotations

import importlib
import re
from typing import TYPE_CHECKING, Any, Iterable, List, Optional

from mrp.codecs.base import Codec

if TYPE_CHECKING:
    from mrp.codecs.umr.documents import (
        LABELS,
        SPECIAL,
        Document,
        document_items,
        format_graph,
        graph_id,
        parse_documents,
        read,
        read_documents,
        token_spans,
        write,
    )

__all__ = ["Document", "read_documents", "parse_documents", "document_items", "read", "write", "format_graph",
           "token_spans", "graph_id", "SPECIAL", "LABELS", "CODEC"]

#: a line that only UMR files have: ``# :: snt1``, ``# sentence level graph:``, a rule of ``#``
_UMR_MARK = re.compile(r"#\s*::\s*snt\d|#\s*sentence level graph\s*:|#{20,}\s*$")


def _sniff(line: str, after: Iterable[str]) -> Optional[str]:
    """A UMR mark (``# :: snt1``, ``# sentence level graph:``, a line of ``#``) is UMR."""
    return "umr" if _UMR_MARK.match(line) else None


#: the codec's facts (mrp.codecs reads them)
CODEC = Codec(formats={"umr": "umr"}, extensions={".umr": "umr"}, sniff=_sniff)


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = globals()[name] = getattr(importlib.import_module(f"{__name__}.documents"), name)
    return value  # found directly from then on


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(__all__))
