"""Checkpoint blocks are verified before they reach a matrix: a block whose digest is not the one the manifest
records, whose archive is damaged or incomplete, or whose values break c <= bound <= min(g, s) is scored
again with a warning; a checkpoint of another mrp version is started afresh; another run's is refused."""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Dict, List, Tuple

import numpy as np
import pytest

import mrp
from mrp.allpairs.checkpoint import MANIFEST, CheckpointWarning, problem
from mrp.errors import InputError

AMR = "\n\n".join([
    "(a / dog :ARG0-of (b / bark-01))", "(a / cat)", "(a / see-01 :ARG0 (b / dog) :ARG1 (c / cat))",
    "(a / run-01 :ARG0 (b / person :name (n / name :op1 \"Ann\")))", "(a / big :domain (b / city))",
    "(a / want-01 :ARG0 (b / dog) :ARG1 (c / run-01 :ARG0 b))", "(a / and :op1 (b / dog) :op2 (c / cat))",
])


def graphs() -> List[mrp.Graph]:
    return mrp.read(AMR, format="amr")


def checkpointed(directory: Path) -> Tuple[mrp.api.similarity.Similarity, List[Path]]:
    first = mrp.similarity(graphs(), metric="smatch", checkpoint=directory, block_size=5)
    return first, sorted(directory.glob("block-*.npz"))


def resumed(directory: Path) -> Tuple[mrp.api.similarity.Similarity, List[str], int]:
    """A resumed run: its result, the checkpoint warnings it gave, and the number of blocks it scored."""
    seen: List[object] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        again = mrp.similarity(graphs(), metric="smatch", checkpoint=directory, block_size=5, resume=True,
                               progress=seen.append)
    told = [str(w.message) for w in caught if issubclass(w.category, CheckpointWarning)]
    return again, told, len(seen)


def same(first: mrp.api.similarity.Similarity, again: mrp.api.similarity.Similarity) -> bool:
    return all(np.array_equal(getattr(first, name), getattr(again, name))
               for name in ("f", "g", "s", "c", "bound", "exact"))


def arrays_of(path: Path) -> Dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as data:
        return {name: data[name] for name in data.files}


def forge(directory: Path, path: Path, arrays: Dict[str, np.ndarray]) -> None:
    """Replace a block and record the new file's digest in the manifest (as someone would who edits both)."""
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    path.write_bytes(buffer.getvalue())
    manifest = json.loads((directory / MANIFEST).read_text())
    manifest["blocks"][path.name[len("block-"):-len(".npz")]] = hashlib.sha256(buffer.getvalue()).hexdigest()
    (directory / MANIFEST).write_text(json.dumps(manifest))


def test_the_manifest_records_version_options_and_each_block_digest(tmp_path: Path) -> None:
    _, blocks = checkpointed(tmp_path / "c")
    manifest = json.loads((tmp_path / "c" / MANIFEST).read_text())
    assert manifest["version"] == mrp.__version__ and "options" in manifest
    assert len(blocks) == 6 and len(manifest["blocks"]) == 6  # 28 pairs in blocks of 5
    for path in blocks:
        key = path.name[len("block-"):-len(".npz")]
        assert manifest["blocks"][key] == hashlib.sha256(path.read_bytes()).hexdigest()
        assert problem(arrays_of(path), len(arrays_of(path)["g"])) is None


def test_an_intact_checkpoint_resumes_without_scoring_or_warning(tmp_path: Path) -> None:
    first, _ = checkpointed(tmp_path / "c")
    again, told, scored = resumed(tmp_path / "c")
    assert same(first, again) and told == [] and scored == 0


def test_a_plausible_but_wrong_block_fails_its_digest(tmp_path: Path) -> None:
    first, blocks = checkpointed(tmp_path / "c")
    arrays = arrays_of(blocks[0])
    arrays["c"] = arrays["c"] * 0  # plausible values (c = bound = 0 is no contradiction) ...
    arrays["bound"] = arrays["c"].copy()
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    blocks[0].write_bytes(buffer.getvalue())  # ... but not the block that was recorded
    again, told, scored = resumed(tmp_path / "c")
    assert same(first, again) and scored == 1
    assert len(told) == 1 and "digest" in told[0] and blocks[0].name in told[0]


def test_values_breaking_the_invariants_are_scored_again_even_with_a_matching_digest(tmp_path: Path) -> None:
    first, blocks = checkpointed(tmp_path / "c")
    arrays = arrays_of(blocks[1])
    arrays["c"] = arrays["g"] + arrays["s"]  # c > min(g, s): F above 1
    arrays["bound"] = arrays["c"].copy()
    forge(tmp_path / "c", blocks[1], arrays)
    again, told, scored = resumed(tmp_path / "c")
    assert same(first, again) and scored == 1 and float(again.f.max()) <= 1.0
    assert len(told) == 1 and "c <= bound <= min(g, s)" in told[0]


@pytest.mark.parametrize("damage", ["truncated", "missing array", "wrong dtype", "wrong length", "empty"])
def test_a_damaged_block_is_scored_again_with_a_warning(tmp_path: Path, damage: str) -> None:
    first, blocks = checkpointed(tmp_path / "c")
    path = blocks[2]
    arrays = arrays_of(path)
    if damage == "truncated":
        data = path.read_bytes()[:100]
        path.write_bytes(data)
        manifest = json.loads((tmp_path / "c" / MANIFEST).read_text())
        manifest["blocks"][path.name[6:-4]] = hashlib.sha256(data).hexdigest()  # even with its digest
        (tmp_path / "c" / MANIFEST).write_text(json.dumps(manifest))
    elif damage == "empty":
        path.write_bytes(b"")
    else:
        if damage == "missing array":
            del arrays["bound"]
        elif damage == "wrong dtype":
            arrays["exact"] = arrays["exact"].astype(np.float64)
        else:
            arrays = {name: array[:-1] if name != "failed" else array for name, array in arrays.items()}
        forge(tmp_path / "c", path, arrays)
    again, told, scored = resumed(tmp_path / "c")
    assert same(first, again) and scored == 1
    assert len(told) == 1 and path.name in told[0] and "scored again" in told[0]


def test_a_missing_block_and_an_unrecorded_one_are_scored_again(tmp_path: Path) -> None:
    first, blocks = checkpointed(tmp_path / "c")
    blocks[3].unlink()
    manifest = json.loads((tmp_path / "c" / MANIFEST).read_text())
    del manifest["blocks"][blocks[4].name[6:-4]]  # a block written just before a crash, not yet recorded
    (tmp_path / "c" / MANIFEST).write_text(json.dumps(manifest))
    again, told, scored = resumed(tmp_path / "c")
    assert same(first, again) and scored == 2
    assert len(told) == 1 and blocks[3].name in told[0]


def test_another_version_is_started_afresh_and_another_run_refused(tmp_path: Path) -> None:
    first, blocks = checkpointed(tmp_path / "c")
    manifest = json.loads((tmp_path / "c" / MANIFEST).read_text())
    manifest["version"] = "0.0.1"
    (tmp_path / "c" / MANIFEST).write_text(json.dumps(manifest))
    again, told, scored = resumed(tmp_path / "c")
    assert same(first, again) and scored == len(blocks)
    assert len(told) == 1 and "0.0.1" in told[0]
    assert json.loads((tmp_path / "c" / MANIFEST).read_text())["version"] == mrp.__version__
    with pytest.raises(InputError, match="differs in: .*options"):
        mrp.similarity(graphs(), metric="smatch", checkpoint=tmp_path / "c", block_size=5, resume=True,
                       smatch_compat=True)
    with pytest.raises(InputError, match="differs in: block_size"):
        mrp.similarity(graphs(), metric="smatch", checkpoint=tmp_path / "c", block_size=6, resume=True)


def test_the_command_warns_in_one_line_and_writes_the_right_matrix(tmp_path: Path) -> None:
    source = tmp_path / "g.amr"
    source.write_text(AMR + "\n", encoding="utf-8")
    directory, out = tmp_path / "c", tmp_path / "m.npz"
    arguments = [sys.executable, "-m", "mrp.cli.similarity", str(source), "--output", str(out),
                 "--checkpoint", str(directory), "--block-size", "5", "--quiet"]
    assert subprocess.run(arguments, capture_output=True).returncode == 0
    block = sorted(directory.glob("block-*.npz"))[0]
    block.write_bytes(block.read_bytes()[:200])
    done = subprocess.run([*arguments, "--resume"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    told = [line for line in done.stderr.splitlines() if block.name in line]
    assert len(told) == 1 and "scored again" in told[0]
    expected = mrp.similarity(graphs(), metric="smatch")
    with np.load(out, allow_pickle=False) as data:
        for name in ("f", "g", "s", "c", "exact"):
            assert np.array_equal(data[name], getattr(expected, name)), name


def test_a_metric_without_counts_keeps_its_f_values(tmp_path: Path) -> None:
    first = mrp.similarity(graphs()[:4], metric="sembleu", checkpoint=tmp_path / "c", block_size=3)
    block = sorted((tmp_path / "c").glob("block-*.npz"))[0]
    arrays = arrays_of(block)
    assert "f" in arrays and problem(arrays, len(arrays["f"])) is None
    arrays["f"] = arrays["f"] + 2.0
    forge(tmp_path / "c", block, arrays)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        again = mrp.similarity(graphs()[:4], metric="sembleu", checkpoint=tmp_path / "c", block_size=3,
                               resume=True)
    assert np.array_equal(first.f, again.f)
    assert any("outside [0, 1]" in str(w.message) for w in caught)


def _frames(path: Path, label: str) -> str:
    """A frame table: see-01 and want-01 in one class (``label`` "SAME") or each in its own."""
    path.write_text(json.dumps({"bark-01": {"label": "SOUND"}, "run-01": {"label": "MOVE"},
                                "see-01": {"label": label}, "want-01": {"label": "SAME"}}))
    return str(path)


def test_an_option_file_is_recorded_by_content_not_by_path(tmp_path: Path) -> None:
    """Issue 61, item 5: ``--rematch-frames`` was recorded by its path: after the table changed, a resumed
    run reused the old blocks silently.  The manifest records the file's SHA-256; a resume with another
    content is refused (naming the option), one with the same content at another path resumes."""
    table = _frames(tmp_path / "frames.json", "PERCEIVE")
    directory = tmp_path / "ck"
    first = mrp.similarity(graphs(), metric="rematch", rematch_frames=table, checkpoint=directory,
                           block_size=5)
    found = json.loads((directory / MANIFEST).read_text())
    assert table not in json.dumps(found)  # no path: the content's digest
    assert hashlib.sha256(Path(table).read_bytes()).hexdigest() in json.dumps(found)
    moved = tmp_path / "elsewhere.json"
    moved.write_bytes(Path(table).read_bytes())
    seen: List[object] = []
    again = mrp.similarity(graphs(), metric="rematch", rematch_frames=str(moved), checkpoint=directory,
                           block_size=5, resume=True, progress=seen.append)
    assert np.array_equal(first.f, again.f) and not seen  # every block reused
    _frames(Path(table), "SAME")  # the table changes: its old blocks no longer hold
    with pytest.raises(InputError, match="--rematch-frames"):
        mrp.similarity(graphs(), metric="rematch", rematch_frames=table, checkpoint=directory,
                       block_size=5, resume=True)
    fresh = mrp.similarity(graphs(), metric="rematch", rematch_frames=table)
    assert not np.array_equal(fresh.f, first.f)


def test_the_command_refuses_a_resume_after_the_table_changed(tmp_path: Path) -> None:
    corpus = tmp_path / "g.amr"
    corpus.write_text(AMR)
    table = _frames(tmp_path / "frames.json", "PERCEIVE")
    arguments = [sys.executable, "-m", "mrp.cli.similarity", "--metric", "rematch", "--rematch-frames", table,
                 str(corpus), "--checkpoint", str(tmp_path / "ck"), "--block-size", "5", "--quiet"]
    first = subprocess.run([*arguments, "--output", str(tmp_path / "a.npz")], capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    _frames(Path(table), "SAME")
    again = subprocess.run([*arguments, "--output", str(tmp_path / "b.npz"), "--resume"], capture_output=True,
                           text=True)
    assert again.returncode == 2 and "Traceback" not in again.stderr
    lines = again.stderr.strip().splitlines()
    assert len(lines) == 1 and "--rematch-frames" in lines[0], again.stderr
    assert not (tmp_path / "b.npz").exists()
