"""Tables of columns as the file's name says: CSV always, Parquet and Arrow where pyarrow is installed.

:func:`table_format` decides the format from the name before any work is done (an unknown extension, or
Parquet/Arrow without pyarrow, is refused naming what would work); :func:`encode_table` gives the bytes
that :mod:`mrp.io.write` then writes.
"""

from __future__ import annotations

import csv
import importlib.util
import io
import os
from typing import Any, Dict, Mapping, Sequence

from mrp.errors import MRPError

__all__ = ["FORMATS", "encode_table", "table_format"]

#: file extension -> format ("npz" is the caller's own: numpy's archive of whole arrays)
FORMATS: Dict[str, str] = {".npz": "npz", ".csv": "csv", ".parquet": "parquet", ".pq": "parquet",
                           ".arrow": "arrow", ".feather": "arrow", ".ipc": "arrow"}
#: the formats that need pyarrow
_ARROW = ("parquet", "arrow")


def table_format(path: str) -> str:
    """The format a file's name asks for.

    Args:
        path: the output file's name.

    Returns:
        "npz", "csv", "parquet" or "arrow"; "npz" for a name without an extension (``/dev/stdout``, a FIFO).

    Raises:
        MRPError: an extension of no known format, or Parquet/Arrow where pyarrow is not installed.
    """
    extension = os.path.splitext(path)[1].lower()
    kind = FORMATS.get(extension) if extension else "npz"
    if kind is None:
        known = ", ".join(FORMATS)
        raise MRPError(f"{path}: no output format has the extension '{extension}' (use one of {known})")
    if kind in _ARROW and importlib.util.find_spec("pyarrow") is None:
        raise MRPError(f"{path}: writing {kind.capitalize()} needs pyarrow, which is not installed "
                       "(pip install 'mrp-graphs[arrow]'); .csv and .npz need nothing more")
    return kind


def _cell(value: Any) -> Any:
    """A CSV cell: floats in their shortest exact form, booleans as true/false."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else value


def encode_table(columns: Mapping[str, Sequence[Any]], kind: str) -> bytes:
    """The bytes of a table in a format of :func:`table_format` other than npz.

    Args:
        columns: column name -> its values (plain Python values, all columns of one length).
        kind: "csv", "parquet" or "arrow".

    Returns:
        The file's content.
    """
    if kind == "csv":
        text = io.StringIO()
        writer = csv.writer(text, lineterminator="\n")
        writer.writerow(list(columns))
        writer.writerows(zip(*[[_cell(value) for value in values] for values in columns.values()]))
        return text.getvalue().encode("utf-8")
    import pyarrow as pa

    table = pa.table({name: list(values) for name, values in columns.items()})
    sink = pa.BufferOutputStream()
    if kind == "parquet":
        import pyarrow.parquet as pq

        pq.write_table(table, sink)
    else:
        with pa.ipc.new_file(sink, table.schema) as stream:
            stream.write_table(table)
    return bytes(sink.getvalue().to_pybytes())
