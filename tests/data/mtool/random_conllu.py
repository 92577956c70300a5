"""Small random CoNLL-U sentences as mtool's reader meets them: multiword tokens, empty nodes, enhanced
dependencies, ``SpaceAfter=No``, ``TokenRange`` on some tokens only, forms spelled otherwise in the text
(quotes, ellipses), and no ``# text`` in 3 of 10 (the input of ``random.conllu`` in
tests/test_mtool_readings.py, whose references mtool made).

Usage: ``python random_conllu.py SEED... > FILE`` (each seed's sentences in turn).
"""

import random
import sys
from typing import List

FORMS = ["dog", "cat", "runs", "the", "a", "Vámonos", "al", "mar", ".", ",", "“hi”", "don't", "…"]
RELATIONS = ["nsubj", "obj:x", "conj"]


def sentences(seed: int) -> List[str]:
    """1 to 6 sentences of 1 to 8 words, as lines (each sentence followed by a blank line)."""
    draw = random.Random(seed)
    lines: List[str] = []
    for s in range(draw.randint(1, 6)):
        n = draw.randint(1, 7)
        tokens, word = [], 1
        while word <= n:
            if word < n and draw.random() < 0.25:
                tokens.append((word, word + 1))
                word += 2
            else:
                tokens.append((word,))
                word += 1
        n = word - 1
        root = draw.randint(1, n)
        heads = {w: 0 if w == root else draw.choice([x for x in range(1, n + 1) if x != w])
                 for w in range(1, n + 1)}

        def feats() -> str:
            return "|".join(f"F{j}=v{draw.randint(0, 2)}" for j in range(draw.randint(0, 2))) or "_"

        def deps(w: int, heads: dict = heads, n: int = n) -> str:
            found = [f"{heads[w]}:{draw.choice(RELATIONS)}"]
            if draw.random() < 0.3:
                found.append(f"{draw.randint(0, n)}:extra")
            return "|".join(found)

        body, text, position = [], "", 0
        for token in tokens:
            form = draw.choice(FORMS)
            glued = draw.random() < 0.2
            misc = "SpaceAfter=No" if glued else "_"
            if draw.random() < 0.15:
                misc = f"TokenRange={position}:{position + len(form)}" + ("|SpaceAfter=No" if glued else "")
            text += form + ("" if glued else " ")
            position += len(form) + (0 if glued else 1)
            if len(token) == 2:
                body.append([f"{token[0]}-{token[1]}", form, "_", "_", "_", "_", "_", "_", "_", misc])
                for w in token:
                    body.append([str(w), draw.choice(FORMS), "lem", "X", "_", feats(), str(heads[w]), "dep",
                                 deps(w), "_"])
            else:
                w = token[0]
                body.append([str(w), form, "lem", "X", "xp", feats(), str(heads[w]), "dep", deps(w), misc])
            if draw.random() < 0.15:
                body.append([f"{token[-1]}.1", draw.choice(FORMS), "l", "V", "_", "_", "_", "_",
                             f"{draw.randint(1, n)}:conj", "_"])
        lines.append(f"# sent_id = s{seed}-{s}")
        if draw.random() < 0.7:
            lines.append(f"# text = {text.rstrip(' ')}")
        lines += ["\t".join(cells) for cells in body]
        lines.append("")
    return lines


if __name__ == "__main__":
    for seed in sys.argv[1:]:
        print("\n".join(sentences(int(seed))))
