"""The wheel of the running mrp, for a Codabench bundle: the bundle carries the very code that made it,
and its Dockerfile installs that wheel (no package index needs to have it).

The wheel is built from the installed package as ``setup.cfg`` packages it (every module, ``py.typed``, the
shipped task files) with the installed distribution's metadata and entry points; its bytes depend on the
files alone (fixed timestamps, sorted members), so two bundles of one version carry the same wheel.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import zipfile
from importlib import metadata
from typing import List, Tuple

import mrp
from mrp.errors import InputError

__all__ = ["DISTRIBUTION", "wheel"]

#: the distribution mrp is installed as
DISTRIBUTION = "mrp-graphs"

_WHEEL = "Wheel-Version: 1.0\nGenerator: mrp-evaluate\nRoot-Is-Purelib: true\nTag: py3-none-any\n"


def _files() -> List[Tuple[str, str]]:
    """(name in the wheel, path) of every file the package ships, sorted."""
    root = os.path.dirname(os.path.abspath(mrp.__file__))
    found = []
    for folder, folders, files in os.walk(root):
        folders[:] = sorted(name for name in folders if name != "__pycache__")
        for name in files:
            relative = os.path.relpath(os.path.join(folder, name), os.path.dirname(root)).replace(os.sep, "/")
            if name.endswith(".py") or name == "py.typed" or (relative.startswith("mrp/task/tasks/")
                                                               and name.endswith(".toml")):
                found.append((relative, os.path.join(folder, name)))
    return sorted(found)


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"{name},sha256={digest},{len(data)}"


def wheel() -> Tuple[str, bytes]:
    """The wheel of the running mrp.

    Returns:
        Its file name (``mrp_graphs-VERSION-py3-none-any.whl``) and bytes.

    Raises:
        InputError: when mrp runs without being installed (no distribution metadata to put in a wheel).
    """
    try:
        found = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        raise InputError(f"{DISTRIBUTION} is not installed (pip install it), so there is no wheel to put in "
                         "the bundle") from None
    version = found.version
    stem = f"{DISTRIBUTION.replace('-', '_')}-{version}"
    info = f"{stem}.dist-info"
    members: List[Tuple[str, bytes]] = []
    for name, path in _files():
        with open(path, "rb") as stream:
            members.append((name, stream.read()))
    # a wheel's METADATA; an egg-info (a source checkout's editable install, found first from its folder)
    # keeps the same text as PKG-INFO
    text = found.read_text("METADATA") or found.read_text("PKG-INFO")
    if not text:
        raise InputError(f"{DISTRIBUTION}'s installed metadata has no METADATA or PKG-INFO to put in a wheel")
    members.append((f"{info}/METADATA", text.encode("utf-8")))
    members.append((f"{info}/WHEEL", _WHEEL.encode("ascii")))
    members.append((f"{info}/entry_points.txt", (found.read_text("entry_points.txt") or "").encode("utf-8")))
    members.append((f"{info}/top_level.txt", b"mrp\n"))
    record = "".join(_record_line(name, data) + "\n" for name, data in members) + f"{info}/RECORD,,\n"
    members.append((f"{info}/RECORD", record.encode("utf-8")))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            item = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            item.compress_type = zipfile.ZIP_DEFLATED
            item.external_attr = 0o644 << 16
            archive.writestr(item, data)
    return f"{stem}-py3-none-any.whl", buffer.getvalue()
