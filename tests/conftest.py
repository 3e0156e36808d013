"""What every test package shares: a private evaluator cache, the tests' held-out secret, and a
quick protocol. Django-free: tests/evaluator runs without it; the portal's test deployment is
set up in tests/portal and tests/leaderboard (portal_helpers.deployment)."""

import os
import shutil
import tempfile

import pytest

# Held-out workloads are drawn from the deployment's secret: the tests' own (never a deployment's).
# The environment carries it to subprocesses (`python -m evaluator`, `celery worker`s); no
# sandboxed step ever gets it.
TEST_HELDOUT_SECRET = "test-heldout-secret"


def pytest_configure(config):
    # Environment, not settings: set before any test or subprocess reads it, after pytest-django
    # has loaded the Django settings (which the portal's deployment fixture overrides instead).
    os.environ["EKB_HELDOUT_SECRET"] = TEST_HELDOUT_SECRET
    # Baseline builds and measured peaks are cached; tests use their own cache so a stale one from
    # a developer's machine never leaks in, and the whole session shares one.
    if "EKB_CACHE_DIR" not in os.environ:
        cache = tempfile.mkdtemp(prefix="ekb-test-cache-")
        os.environ["EKB_CACHE_DIR"] = cache
        config.add_cleanup(lambda: shutil.rmtree(cache, ignore_errors=True))


@pytest.fixture(scope="session")
def quick_protocol():
    """The real protocol with a short timing budget and limits, so tests stay fast."""
    from evaluator.harness.protocol import Limits, Protocol

    return Protocol(time_budget_s=0.5, min_rounds=5, limits=Limits(build_s=60, check_s=8, time_s=30))
