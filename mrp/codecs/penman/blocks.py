"""The blocks of a Penman file (lines between blank lines) as the reader (:mod:`.reading`) keys and
reads them: a block's key (:func:`block_key`), the text of a block that may be one plain graph and nothing
else (:func:`plain_text`, read without framing it), and such texts scanned many blocks at a time
(:func:`scanned_blocks`, once the compiled scan is ready), each block's key made once.
"""

from __future__ import annotations

from typing import List, Mapping, Optional, Sequence, Tuple, TypeVar

from mrp.codecs.penman.scan import Scanned, scanned_all
from mrp.io.source import Block

__all__ = ["SCANNED", "block_key", "plain_text", "scanned_blocks"]

#: a block's key (:func:`block_key`), and what a reader keeps of a block met before (:func:`scanned_blocks`)
Key = Tuple[str, ...]
V = TypeVar("V")

#: blocks read ahead to be scanned in one call (:func:`.reading.read`)
SCANNED = 1024


def block_key(lines: Sequence[str]) -> Tuple[str, ...]:
    """What a block's shapes follow from: its lines, each comment line as ``#`` alone."""
    if "#" not in "".join(lines):
        return tuple(lines)
    return tuple("#" if line.lstrip().startswith("#") else line for line in lines)


def plain_text(lines: Sequence[str], key: Tuple[str, ...]) -> Optional[str]:
    """The text of a block's one frame when the block may be one graph in the plain grammar and nothing
    else: its first line starts with ``(``, its last ends with ``)`` but for spaces and tabs, and no line is a
    comment (``key``: :func:`block_key`'s); None otherwise.  Where :func:`.fast.plain_form` (or the compiled
    scan) then reads the text, framing the block gives that one frame: the graph closes its parentheses
    (outside strings, as framing counts them) at the text's end and nowhere before, no line of it left open
    or holding text after it.

    Args:
        lines: the block's lines.
        key: their :func:`block_key`.

    Returns:
        The text (the lines joined, the last one's spaces and tabs after the graph left out), or None.
    """
    if "#" in key or not lines[0].startswith("("):
        return None
    text = (lines[0] if len(lines) == 1 else "\n".join(lines)).rstrip(" \t")
    return text if text.endswith(")") else None


def scanned_blocks(blocks: List[Block], known: Mapping[Tuple[str, ...], V],
                   no_wiki: bool = False) -> List[Tuple[Optional[Key], Optional[V], Optional[Scanned]]]:
    """Each block's key (:func:`block_key`; None for a block with an unreadable line), what ``known`` holds
    under it (None: not met before), and its text as the compiled scan reads it, in one call, for the blocks
    not known that may be one plain graph (:func:`plain_text`); None for the others, for a text the scan
    declines, and for all of them while the scan is not ready.

    Args:
        blocks: the blocks, in order.
        known: what was kept of the blocks met before (their shapes), by key.
        no_wiki: leave ``:wiki`` constants out.

    Returns:
        Each block's key, what is known of it, and its form.
    """
    at: List[int] = []
    texts: List[str] = []
    keys: List[Optional[Key]] = []
    founds: List[Optional[V]] = []
    for k, block in enumerate(blocks):
        if not block.clean:
            keys.append(None)
            founds.append(None)
            continue
        lines: List[str] = block.lines  # type: ignore[assignment]  # a clean block holds texts only
        key = block_key(lines)
        keys.append(key)
        found = known.get(key)
        founds.append(found)
        if found is None:
            text = plain_text(lines, key)
            if text is not None:
                at.append(k)
                texts.append(text)
    forms: List[Optional[Scanned]] = [None] * len(blocks)
    if texts:
        for k, form in zip(at, scanned_all(texts, no_wiki)):
            forms[k] = form
    return list(zip(keys, founds, forms))
