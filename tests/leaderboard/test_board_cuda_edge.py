"""cuda-edge's board (a server GPU held to a Jetson Orin-class share): emulated by its backend,
with no setting, so its times never rank; its device line says how the GPU was held."""

from __future__ import annotations

import pytest

from evaluator.backends.cuda_edge import EdgeShare
from evaluator.vocabulary import BackendKind
from leaderboard.ranking.scoring import EMULATED_NOTICE, SPEED_KEYS


@pytest.mark.django_db
def test_the_board_ranks_by_correctness_and_shows_the_share(client):
    from django.urls import reverse

    from leaderboard.ranking import board
    from portal_helpers import fast_and_slow_board

    backend = BackendKind.CUDA_EDGE
    device = f"NVIDIA H100 80GB HBM3 (132 SMs, L2 50 MiB) — {EdgeShare(12, 8192).describe(132)}"
    fast_and_slow_board(backend, device)

    r = board(backend, device=device, with_histogram=True)
    assert r.emulated and r.meta()["emulated"] and r.notices == [EMULATED_NOTICE]
    assert [x.name for x in r.rows if x.kind == "submission"] == ["slow-all-right", "fast-half-wrong"]
    for x in r.rows:
        assert all(x.summary[k] is None for k in SPEED_KEYS), (x.name, x.summary)

    page = client.get(reverse("leaderboard:board"), {"backend": backend, "device": device})
    text = page.content.decode()
    assert page.status_code == 200 and "times emulated" in text
    assert "MPS active threads 12 % of 132 SMs" in text  # how the GPU was held is on the board
