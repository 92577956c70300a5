"""Level 2 of a sentence that passed level 1: its four blocks, in order."""

from __future__ import annotations

from typing import List

from mrp.validation.umr import alignment, document, graph, metadata
from mrp.validation.umr.blocks import Block
from mrp.validation.umr.state import State


def check(sentence: List[Block], state: State) -> None:
    """Sentence id and tokens, graph, alignment, document-level annotation and its nodes."""
    metadata.check(sentence, state)
    graph.check(sentence, state)
    alignment.check(sentence, state)
    document.check(sentence, state)
    document.check_nodes(sentence, state)
