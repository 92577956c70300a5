"""The compiled scan of a plain Penman text (mrp.codecs.penman.scanner, issue 64) reads what the present
one-pass reader (mrp.codecs.penman.fast.plain_form) reads, or declines: wherever it reads a text, the text's
Plain form (made from the scan) is the present one and SMATCH's codes from the scan
(Coder.coded_scan) are the codes from the Plain form (Coder.coded_plain), number for number, on every
graph of the shared AMR files put on one line, on perturbed and random texts and on hand-made ones; every
text the present reader declines, the scan declines too, and each case the scan leaves to the present way
(alignments, escapes, text beyond ASCII, a node without a concept, a bare ``:``) is declined, then read
the present way with the present errors.  The scan is used once the warm-up has made it ready, and a
reader never compiles it."""

from __future__ import annotations

import random
from typing import Any, List, Optional

import pytest
from test_penman_parse import _PIECES, _random_tree
from test_smatch_plain import BAD, HAND, _one_line, _outcomes, _readable
from test_together import _amr

import mrp
from mrp.codecs.base import ReadOptions
from mrp.codecs.penman import LightGraph, fast_graph, plain_form, unbuilt, unscanned
from mrp.codecs.penman import scan as penman_scan
from mrp.codecs.penman.parse import MAX_DEPTH
from mrp.codecs.penman.scanner import scanned_codes, warm_scan
from mrp.metrics.smatch.coded import Coder
from mrp.solver.batch_rows import Interned

#: texts the scan leaves to the present way (each read there, or declined there too)
LEFT = [
    '(a / alpha~e.1 :ARG0 (b / beta))',  # an alignment
    '(a / alpha :ARG0~e.2 (b / beta))',
    '(a / alpha :op1 "x~y")',  # a ~ in a string
    '(a / alpha :op1 "a\\"b")',  # an escape
    '(a / alpha :op1 "a\\\\b")',
    '(a / alpha :name "Zoë")',  # beyond ASCII
    '(é / alpha)',
    '(a :ARG0 (b / beta))',  # a node without a concept
    '(a / alpha :ARG0 (b))',
    '(a / alpha : b)',  # a bare ":"
    '(a / alpha :ARG0 #b)',  # a "#" starting a symbol
    '(a / alpha :op1 "open)',  # a string not closed
    '(a / alpha\r:ARG0 (b / beta))',  # a separator other than "\n"
    '(a / alpha :op1 "x\ny")',
    '(a / alpha :ARG0 (a / beta))',  # a variable defined twice
    '(a / alpha) (b / beta)',
    '(a / alpha :ARG0 (b / beta)',
    '(a / alpha :ARG0 (b / beta)))',
    '(a / alpha :ARG0 )',
    '(a / alpha :ARG0 (b / beta))) extra',
    '(a / alpha) :ARG0 b',
    '(a / alpha / beta)',
    '(a / )',
    '( / alpha)',
    '()',
    '(',
    ')',
    '',
    ':ARG0 (a / alpha)',
    'alpha',
    '(a / alpha :ARG0 (b / beta) extra)',
    '(a / alpha :ARG0 "x""y")',
    "(" * (MAX_DEPTH + 1) + "a / alpha" + ")" * (MAX_DEPTH + 1),
    "(a0 / c" + "".join(f" :ARG0 (a{k} / c" for k in range(1, MAX_DEPTH + 1)) + ")" * (MAX_DEPTH + 1),
]
#: texts the scan reads (besides the shared graphs): what each unit may be, written tightly or loosely
READ = [
    '(a / alpha)',
    '(a/alpha:ARG0(b/beta:ARG1-of a):mod b:polarity -)',
    '(a / alpha :TOP top :quant 2 :quant "2" :ARG0-of (b / beta :ARG1 a) :consist-of b)',
    '(a / alpha :ARG0 (b / Beta_ :name "X Y" :wiki "Q1") :wiki -)',
    '(m / multi-sentence :snt1 (a / alpha :ARG0 (b / beta)) :snt2 (c / gamma :ARG1 b))',
    '(a / "quoted concept" :ARG0 (b / beta))',
    '(a / alpha :name (n / name :op1 "x (y) :z"))',
    '(a / alpha :op1 "a/b" :ARG0 (b / beta))',
    '(a / alpha :op1 "" :op2 "#" :mod x# :ARG0 b)',
    '(  a  /  alpha  :ARG0  (  b  /  beta  )  )',
    '(a / alpha :ARG0 a :ARG1 (b / beta :ARG0 b :ARG1 a))',
    '(a / alpha :mod b :mod b :polarity - :polarity -)',
    '(a / alpha :ARG0"x")',
    "(a0 / c" + "".join(f" :ARG0 (a{k} / c" for k in range(1, MAX_DEPTH)) + ")" * MAX_DEPTH,
]


@pytest.fixture(scope="module", autouse=True)
def _ready() -> None:
    warm_scan()


def _codes(plain: Any, scanned: Any) -> None:
    """The codes from the Plain form and from the scan, each with its own Interned fed alike."""
    assert Coder(Interned()).coded_plain(plain) == Coder(Interned()).coded_scan(scanned)


def _same(text: str, no_wiki: bool = False) -> bool:
    """Whether the scan reads the text; where it does, it reads what the present way reads."""
    plain = plain_form(text, no_wiki)
    form = penman_scan.scanned(text, no_wiki)
    if form is None:
        return False
    assert plain is not None, text  # every text the present way declines, the scan declines
    assert penman_scan.plain_of(form) == plain
    assert form.codes[0] == len(plain.labels) and form.codes[2] == plain.edges, text
    assert penman_scan.scanned_root(form) == plain.labels[0]
    _codes(plain, form)
    return True


def test_every_shared_graph_is_scanned_as_it_is_read() -> None:
    texts = _one_line(10_000)
    assert len(texts) > 3000, len(texts)
    read = 0
    interned, again = Interned(), Interned()
    coder, other = Coder(interned), Coder(again)
    for text in texts:
        for no_wiki in (False, True):
            plain = plain_form(text, no_wiki)
            if _same(text, no_wiki):
                read += 1
                form = penman_scan.scanned(text, no_wiki)
                # one Interned through many graphs: the same ids as they are met
                assert coder.coded_scan(form) == other.coded_plain(plain), text
            else:  # declined: only what the scan leaves to the present way
                assert plain is None or not text.isascii() or "~" in text or "\\" in text \
                    or None in plain.labels, text
    assert read > 5000, read
    assert interned.keys == again.keys and interned.labels == again.labels


@pytest.mark.parametrize("text", LEFT)
def test_what_the_scan_leaves_is_read_the_present_way(text: str) -> None:
    assert scanned_codes(text) is None
    assert penman_scan.scanned(text) is None
    other = "(a / alpha :ARG0 (b / beta) :polarity -)"
    found = _outcomes(text, other)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(penman_scan, "_SCAN", [])
        assert _outcomes(text, other) == found


@pytest.mark.parametrize("text", READ + [t for t in HAND if "~" not in t and "\n" not in t and "#" not in t
                                         and "(a :" not in t])
def test_hand_made_texts_are_scanned_as_they_are_read(text: str) -> None:
    assert _same(text) and _same(text, True)
    other = "(a / alpha :ARG0 (b / beta) :polarity -)"
    found = _outcomes(text, other)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(penman_scan, "_SCAN", [])
        assert _outcomes(text, other) == found


@pytest.mark.parametrize("text", BAD)
def test_texts_the_reader_refuses_are_not_scanned(text: str) -> None:
    assert penman_scan.scanned(text) is None


def _squeezed(text: str) -> str:
    return " ".join(text.split())


def test_random_and_perturbed_texts_are_scanned_as_they_are_read_or_declined() -> None:
    rng = random.Random(64)
    texts: List[str] = []
    for _ in range(3000):
        texts.append(_squeezed("(" + "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 14)))
                               if rng.random() < 0.3 else _random_tree(rng)))
        texts.append(_squeezed(_amr(rng, rng.randrange(1, 12))))
    shared = _one_line(200)
    for text in rng.sample(shared, 600):  # a character dropped, doubled or swapped
        at = rng.randrange(len(text))
        texts += [text[:at] + text[at + 1:], text[:at] + text[at] + text[at:],
                  text[:at] + rng.choice('()/: "~#ab') + text[at + 1:]]
    same = [_same(text, no_wiki) for text in texts for no_wiki in (False, True)]
    read, declined = same.count(True), same.count(False)
    assert read > 3000 and declined > 1000, (read, declined)  # both ways are exercised


def test_one_interned_across_generations_gives_the_present_ids() -> None:
    rng = random.Random(7)
    interned, again = Interned(), Interned()
    coder, other = Coder(interned), Coder(again)
    for _ in range(3):
        for _ in range(300):
            text = _squeezed(_amr(rng, rng.randrange(1, 12)))
            no_wiki = rng.random() < 0.3
            form = penman_scan.scanned(text, no_wiki)
            if form is not None:
                assert coder.coded_scan(form) == other.coded_plain(plain_form(text, no_wiki)), text
        interned.clear()
        again.clear()


def test_a_batch_scans_each_text_as_it_is_scanned_alone() -> None:
    """Texts beyond ASCII (declined, but moving the bytes of the texts after them), texts declined, texts
    read, the same tokens in many texts: each text's form codes as it does scanned alone."""
    rng = random.Random(5)
    texts = LEFT[:20] + READ + _one_line(40)
    for _ in range(5):
        rng.shuffle(texts)
        batch = [text for text in texts if "\n" not in text]
        forms = penman_scan.scanned_all(batch)
        for text, form in zip(batch, forms):
            alone = penman_scan.scanned(text)
            assert (form is None) == (alone is None), text
            if form is not None:
                assert form == alone, text  # each text's own integers
                assert penman_scan.scanned_root(form) == penman_scan.scanned_root(alone)
        assert sum(form is not None for form in forms) > 40
    assert penman_scan.scanned_all([]) == []


def test_a_wiki_constant_is_left_out_with_no_wiki_whichever_came_first() -> None:
    text = '(a / alpha :wiki "Q1" :name "x")'
    coder, other = Coder(Interned()), Coder(Interned())
    for no_wiki in (False, True, False, True):
        form = penman_scan.scanned(text, no_wiki)
        assert form is not None
        assert coder.coded_scan(form) == other.coded_plain(plain_form(text, no_wiki))


def _light(text: str, options: Optional[ReadOptions] = None) -> Any:
    graphs = mrp.codecs.read_one_line_penman([text], "x", options or ReadOptions())
    assert graphs is not None
    return graphs[0]


def test_a_scanned_graph_is_the_graph_the_present_way_gives() -> None:
    for text in READ:
        for no_wiki in (False, True):
            options = ReadOptions(no_wiki=no_wiki)
            graph = _light(text, options)
            assert type(graph) is LightGraph and unscanned(graph) is not None, text
            assert len(graph) == len(fast_graph(text, "0", options).nodes)
            with pytest.MonkeyPatch.context() as patched:
                patched.setattr(penman_scan, "_SCAN", [])
                present = _light(text, options)
            assert unscanned(present) is None and unbuilt(present) is not None
            assert graph.nodes == fast_graph(text, "0", options).nodes
            assert unscanned(graph) is None  # built on first reading: no longer the scan's
            assert graph == present
    graph = _light(READ[1])
    assert unbuilt(graph) == plain_form(READ[1]) and unscanned(graph) is None  # the Plain form asked for


def test_the_scan_is_used_only_once_made_ready() -> None:
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(penman_scan, "_SCAN", [])
        graph = _light(READ[1])
        assert unscanned(graph) is None and unbuilt(graph) is not None  # read the present way
    assert unscanned(_light(READ[1])) is not None


def test_pairwise_and_score_give_the_same_figures_scanned_and_not() -> None:
    texts = [text for text in _one_line(60) if _readable(text)]
    assert len(texts) > 200, len(texts)
    gold, system = texts[0::2], texts[1::2][:len(texts[0::2])]
    gold = gold[:len(system)]
    scanned = mrp.pairwise(gold, system)
    one = [mrp.score([g], [s], "smatch").to_dict()["f"] for g, s in zip(gold[:20], system[:20])]
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(penman_scan, "_SCAN", [])
        present = mrp.pairwise(gold, system)
        assert [mrp.score([g], [s], "smatch").to_dict()["f"] for g, s in zip(gold[:20], system[:20])] == one
    assert list(scanned) == list(present) and list(scanned.exact) == list(present.exact)
    assert list(scanned.bound) == list(present.bound)


def test_the_warm_up_marks_the_scan_usable_and_its_first_text_loads_it_compiling_nothing() -> None:
    """A fresh process's warm-up (mrp.solver.ready, what every scoring call runs first) finds the scan in
    numba's cache and marks it usable without loading it or importing the present Penman reader (a
    process that reads no Penman text does not pay for them); a kernel missing from the cache would make it
    start the background compiler with a CompileWarning, an error here.  The first one-line text loads the
    kernel from the cache, compiling nothing, and is scanned; numba is not imported by reading alone."""
    import subprocess
    import sys

    reading = ("import sys; import mrp; from mrp.codecs.penman import scan; mrp.read('(a / alpha)'); "
               "print('numba' in sys.modules, bool(scan._SCAN))")
    code = ("import sys, warnings; warnings.simplefilter('error'); import mrp; "
            "from mrp.codecs.penman import scan; "
            "from mrp.solver.warmup import ready; ready(); "
            "from mrp.codecs.penman.scanner import scan_batch, scan_kernel; "
            "print(bool(scan._SCAN), len(scan_kernel.signatures), len(scan_batch.signatures), "
            "'mrp.codecs.penman.amr' in sys.modules); "
            "print(mrp.pairwise(['(a / alpha :ARG0 (b / beta))'], ['(a / alpha)']).tolist()); "
            "print(len(scan_kernel.signatures), sum(scan_kernel.stats.cache_hits.values()), "
            "sum(scan_kernel.stats.cache_misses.values()))")
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600)
            for script in (reading, code)]
    assert all(done.returncode == 0 for done in runs), [done.stderr for done in runs]
    assert runs[0].stdout.strip() == "False False"
    after, figures, loaded = runs[1].stdout.split("\n")[:3]
    assert after == "True 0 0 False"  # usable, not loaded, the present reader not imported
    assert figures == str(mrp.pairwise(["(a / alpha :ARG0 (b / beta))"], ["(a / alpha)"]).tolist())
    assert loaded == "1 1 0"  # loaded from the cache at the first text, not compiled


def test_the_warm_up_marks_nothing_where_the_cache_lacks_the_scan(tmp_path: Any) -> None:
    """Where numba's cache does not hold the scan, looking for it (what the warm-up does before it would
    load) compiles nothing and marks nothing: the warm-up then has the kernels compiled."""
    import os
    import subprocess
    import sys

    code = ("from mrp.codecs.penman import scan; from mrp.codecs.penman.scanner import scan_kernel, "
            "warm_scan; print(warm_scan(lazily=True), bool(scan._SCAN), len(scan_kernel.signatures))")
    environment = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
                          env=environment)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False", "0"]


def test_a_scanned_graph_holds_its_own_text_only() -> None:
    """A graph of a batch holds its own text's integers, not the batch's: pickled (as a Scorer's state or a
    worker's input would be) it is the size of the same graph read alone."""
    import pickle

    texts = [text for text in _one_line(200) if penman_scan.scanned(text) is not None][:300]
    batch = mrp.codecs.read_one_line_penman(texts, "x", ReadOptions())
    assert batch is not None and unscanned(batch[5]) is not None
    alone = _light(texts[5])
    assert len(pickle.dumps(batch[5])) <= len(pickle.dumps(alone)) + 100
    restored = pickle.loads(pickle.dumps(batch[5]))
    assert (restored.nodes, restored.edges, restored.layout) == (alone.nodes, alone.edges, alone.layout)


def test_the_scan_runs_compiled_whatever_the_route_of_the_solver_kernels() -> None:
    """While the solver's kernels run as plain Python (a background compiler still at work, or
    ``MRP_COMPILE=plain``: :func:`mrp.compiled.route`), the scan, ready only once compiled, runs compiled."""
    from mrp import compiled

    def routed(kernel: Any, args: Any) -> Any:
        raise AssertionError(f"{kernel} was routed")

    saved = compiled.current_route()
    compiled.route(routed)
    try:
        assert penman_scan.scanned(READ[1]) is not None
        assert all(form is not None for form in penman_scan.scanned_all(READ))
    finally:
        compiled.route(saved)
