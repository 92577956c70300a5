"""mrp.pairwise: one F per pair, each what mrp.score gives that pair alone (the coli pairs and random small
graphs, every metric it scores, from strings and from graphs), every pair proved optimal or said to be
cut, and the keyword checks of mrp.score."""

from __future__ import annotations

import inspect
import random
from typing import List, Tuple

import numpy as np
import pytest
from test_similarity import random_amr

import mrp
from mrp.api.pairwise import supported
from mrp.errors import InputError

from conftest import shared_file


def _blocks(name: str) -> List[str]:
    text = shared_file("data", "pairs", "amr", name).read_text(encoding="utf-8")
    return [block.strip() for block in text.split("\n\n") if block.strip()]


def _coli() -> Tuple[List[str], List[str]]:
    return _blocks("coli.gold.amr"), _blocks("coli.system.amr")


def _alone(golds: List[str], systems: List[str], metric: str) -> np.ndarray:
    return np.array([mrp.score([gold], [system], metric=metric).f for gold, system in zip(golds, systems)])


def _random_pairs(seed: int, count: int) -> Tuple[List[str], List[str]]:
    rng = random.Random(seed)
    golds = [random_amr(rng, rng.randint(1, 7)) for _ in range(count)]
    systems = [random_amr(rng, rng.randint(1, 7)) for _ in range(count)]
    return golds, systems


def test_supported_metrics_are_the_batched_ones() -> None:
    assert {"smatch", "mrp"} <= set(supported())
    assert "sembleu" not in supported() and "umatch" not in supported()


def test_coli_smatch_equals_score_pair_by_pair() -> None:
    golds, systems = _coli()
    rewards = mrp.pairwise(golds, systems, metric="smatch")
    assert isinstance(rewards, np.ndarray) and rewards.dtype == np.float64 and rewards.shape == (len(golds),)
    assert len(golds) == 1368
    assert rewards.exact is not None and rewards.exact.all() and rewards.cut == 0
    assert np.array_equal(rewards.bound, rewards)
    assert np.array_equal(rewards, _alone(golds, systems, "smatch"))
    assert 0 < rewards.min() and rewards.max() <= 1


def test_coli_rewards_are_the_same_read_in_one_pass_or_through_the_tree(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The one-pass Penman reader (mrp.codecs.penman.fast) changes no reward: the 1,368 coli pairs read
    without it (every text through the tree) give the same F, exactness and bound, pair by pair."""
    from mrp.codecs.penman import reading

    golds, systems = _coli()
    fast = mrp.pairwise(golds, systems, metric="smatch")
    monkeypatch.setattr(reading, "fast_graph", lambda *_, **__: None)
    full = mrp.pairwise(golds, systems, metric="smatch")
    assert np.array_equal(fast, full) and np.array_equal(fast.exact, full.exact)
    assert np.array_equal(fast.bound, full.bound) and fast.exact is not None and fast.exact.all()


@pytest.mark.parametrize("metric", [name for name in supported() if name != "smatch"])
def test_coli_other_metrics_equal_score_pair_by_pair(metric: str) -> None:
    golds, systems = _coli()
    golds, systems = golds[:120], systems[:120]
    rewards = mrp.pairwise(golds, systems, metric=metric)
    assert rewards.exact is not None and rewards.exact.all()
    assert np.array_equal(rewards, _alone(golds, systems, metric))


@pytest.mark.parametrize("metric", supported())
@pytest.mark.parametrize("seed", [1, 2])
def test_random_pairs_equal_score_from_strings_and_graphs(metric: str, seed: int) -> None:
    golds, systems = _random_pairs(seed, 60)
    expected = _alone(golds, systems, metric)
    from_text = mrp.pairwise(golds, systems, metric=metric)
    assert np.array_equal(from_text, expected)
    from_graphs = mrp.pairwise(mrp.read("\n\n".join(golds), format="amr"),
                               mrp.read("\n\n".join(systems), format="amr"), metric=metric)
    assert np.array_equal(from_graphs, expected)


def test_identical_pairs_score_one_and_unreadable_zero() -> None:
    golds, _ = _random_pairs(3, 5)
    assert np.array_equal(mrp.pairwise(golds, golds), np.ones(5))
    rewards = mrp.pairwise(golds[:2], [golds[0], "(x / y / z)"])
    assert rewards[0] == 1.0
    assert rewards[1] == 0.0 == mrp.score([golds[1]], ["(x / y / z)"], metric="smatch").f


def test_a_cut_pair_says_so_with_its_bound() -> None:
    golds, systems = _coli()
    sizes = [gold.count("/") + system.count("/") for gold, system in zip(golds, systems)]
    k = int(np.argmax(sizes))
    rewards = mrp.pairwise(golds[k:k + 1] * 2, systems[k:k + 1] * 2, max_memory=1)
    alone = mrp.score(golds[k:k + 1], systems[k:k + 1], metric="smatch", max_memory=1)
    assert not alone.exact  # beyond max_memory: a linear-time correspondence, cut as limit
    assert rewards.exact is not None and rewards.bound is not None
    assert not rewards.exact.any() and rewards.cut == 2
    assert rewards[0] == alone.f
    assert (rewards.bound >= rewards).all() and (rewards.bound > rewards).any()
    assert rewards[:1].exact is None  # a derived array carries no proof


@pytest.mark.filterwarnings("ignore::mrp.engine.pairing.PairingWarning")
def test_keywords_are_checked_as_score_checks_them() -> None:
    golds, systems = _random_pairs(4, 3)
    with pytest.raises(TypeError, match="did you mean timeout"):
        mrp.pairwise(golds, systems, timout=1)
    with pytest.raises(TypeError, match="smatch_compat is a keyword of metric smatch"):
        mrp.pairwise(golds, systems, metric="mrp", smatch_compat=True)
    for refused in ("bootstrap", "positional", "explain", "errors", "trace", "seed", "explain_id"):
        with pytest.raises(TypeError, match=f"does not take {refused}"):
            mrp.pairwise(golds, systems, **{refused: 1})
    with pytest.raises(ValueError, match="must be one of"):
        mrp.pairwise(golds, systems, triples="nope")
    with pytest.raises(ValueError, match="is not scored pair by pair"):
        mrp.pairwise(golds, systems, metric="sembleu")
    with pytest.raises(InputError, match="3 gold graphs and 2 system graphs"):
        mrp.pairwise(golds, systems[:2])
    with pytest.raises(InputError, match="do not answer"):
        mrp.pairwise("\n\n".join(golds), "\n\n".join(systems[:2]))


def _names() -> List[str]:
    return list(inspect.signature(mrp.pairwise).parameters)


def test_signature_lists_its_keywords_only() -> None:
    names = _names()
    assert names[:3] == ["golds", "systems", "metric"]
    assert "timeout" in names and "standardize" in names and "read" in names
    assert not {"bootstrap", "positional", "explain", "trace"} & set(names)
    assert "pairwise" in mrp.__all__ and mrp.pairwise is mrp.api.pairwise
