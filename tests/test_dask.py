"""Blocks as Dask tasks: a real LocalCluster of two worker processes (on 127.0.0.1, started here) gives
the same arrays, bit for bit, as the local run."""

from __future__ import annotations

import numpy as np
import pytest
from test_similarity import coli, random_graphs

import mrp
from mrp.allpairs.cluster import close, connect

distributed = pytest.importorskip("dask.distributed", reason="dask is not installed (pip install "
                                  "'mrp-graphs[dask]'; make test installs it)")


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address="127.0.0.1:0")
    with distributed.Client(cluster) as made:
        yield made
    cluster.close()


def test_a_local_cluster_gives_the_local_numbers(client) -> None:
    graphs = coli(24)
    local = mrp.similarity(graphs, metric="smatch")
    remote = mrp.similarity(graphs, metric="smatch", client=client, block_size=17)
    for name in ("f", "g", "s", "c", "bound", "exact"):
        assert np.array_equal(getattr(local, name), getattr(remote, name)), name
    assert len(client.scheduler_info()["workers"]) == 2
    top = mrp.similarity(graphs, metric="smatch", top_k=3, client=client, block_size=11)
    assert np.array_equal(top.neighbours, mrp.similarity(graphs, metric="smatch", top_k=3).neighbours)


def test_ensemble_on_the_cluster(client) -> None:
    systems = [random_graphs(seed, 8) for seed in (41, 42, 43)]
    assert mrp.ensemble(systems, client=client).chosen == mrp.ensemble(systems).chosen


def test_the_cluster_binds_to_localhost(client) -> None:
    assert client.scheduler.address.startswith("tcp://127.0.0.1:")
    assert all(address.startswith("tcp://127.0.0.1:") for address in client.scheduler_info()["workers"])
    # Dask's HTTP endpoints (dashboard, health) too: a free port of 127.0.0.1, not :8787 on every interface
    assert client.dashboard_link.startswith("http://127.0.0.1:")
    assert not client.dashboard_link.startswith("http://127.0.0.1:8787/")


def test_mrp_starts_a_local_cluster_on_localhost_only() -> None:
    client = connect("local", 1)
    try:
        assert client.scheduler.address.startswith("tcp://127.0.0.1:")
        assert client.dashboard_link.startswith("http://127.0.0.1:")
    finally:
        close(client)
