"""UMR (Uniform Meaning Representation): the codec (the registry's ``umr`` format) and the document API.

The modules inside share their names freely; everything outside this package imports only the names
below.  ``documents`` reads files of documents (the reader and :class:`Document`), ``frame`` cuts a file
into sentence blocks, ``sentence`` reads a block's Penman graph, ``annotation`` the alignment and
document-level annotation syntax, and ``writer`` writes UMR.
"""

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
           "token_spans", "graph_id", "SPECIAL", "LABELS"]
