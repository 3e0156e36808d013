"""The evaluator's tests: no database, no Django. Run on their own with the Django plugin off
(`make test-evaluator`), the session fails if anything they import pulls Django in."""

import sys

import pytest


def pytest_sessionfinish(session):
    # Only telling with pytest-django off (`-p no:django`): the plugin imports Django itself.
    if session.config.pluginmanager.has_plugin("django") or "django" not in sys.modules:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.ensure_newline()
        reporter.write_line("tests/evaluator imported Django: the evaluator must stand alone", red=True)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
