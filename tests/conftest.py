import os
import tempfile

import pytest

# Baseline builds and measured peaks are cached; tests use their own cache so a stale one from a
# developer's machine never leaks in, and the whole session shares one.
os.environ.setdefault("EKB_CACHE_DIR", tempfile.mkdtemp(prefix="ekb-test-cache-"))


@pytest.fixture(scope="session")
def quick_protocol():
    """The real protocol with a short timing budget and limits, so tests stay fast."""
    from evaluator.harness.protocol import Limits, Protocol

    return Protocol(time_budget_s=0.5, min_rounds=5, limits=Limits(build_s=60, check_s=8, time_s=30))
