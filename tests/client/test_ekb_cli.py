"""The ``ekb`` command (client/), installed by the project's Makefile, run as a subprocess against
a live portal (pytest-django's ``live_server``) whose jobs a real ``celery worker`` evaluates:
login, tasks, one task, a starter bundle, offline validation, submit --wait, results, the
leaderboard, then cancel and rerun with no worker left to take the jobs."""

from __future__ import annotations

import json
import os
import pty
import select
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from portal_helpers import BACKEND, make_user

pytestmark = pytest.mark.usefixtures("isolated_media", "fresh_throttle_cache")

EKB = Path(sys.executable).with_name("ekb")
# Three cheap tasks served; the starter bundle covers two of them, so the third is missing.
SERVED = ("activation/relu@m128n768", "elementwise/add-bias@m128n768", "softmax/softmax@m256n512")
STARTED = ("activation/*", "elementwise/*")


def ekb(*args: str, env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess:
    if not EKB.exists():
        pytest.fail(f"{EKB} is missing: `make install` installs the client (client/)")
    return subprocess.run([str(EKB), *args], env=env, capture_output=True, stdin=subprocess.DEVNULL, text=True,
                          timeout=timeout)


def ok(proc: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert proc.returncode == 0, f"exit {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    return proc


def with_tty_stderr(*args: str, env: dict[str, str], timeout: float = 60) -> tuple[int, str, str]:
    """Run ``ekb`` with its stderr on a pseudo-terminal: (exit status, stdout, what the terminal got)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([str(EKB), *args], env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=slave, text=True)
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            seen += chunk
        elif proc.poll() is not None:
            break
    os.close(master)
    stdout, _ = proc.communicate(timeout=10)
    return proc.returncode, stdout, seen.decode(errors="replace")


@pytest.mark.django_db(transaction=True)
def test_the_ekb_command_round_trip_against_a_live_portal(live_server, workers, settings, tmp_path):
    from django.conf import settings as django_settings
    from rest_framework.authtoken.models import Token

    from evaluator import suite
    from portal.models import Submission

    settings.EKB_TASKS = ",".join(SERVED)
    worker = workers.start(EKB_TASKS=settings.EKB_TASKS)
    token = Token.objects.create(user=make_user("alice")).key
    config_home = tmp_path / "config"
    # no EKB_URL / EKB_TOKEN: after `ekb login` the stored settings are what every command uses
    env = {k: v for k, v in os.environ.items() if k not in ("EKB_URL", "EKB_TOKEN")}
    env["XDG_CONFIG_HOME"] = str(config_home)

    # --- login: a bad token is refused with the portal's words; a good one is stored 0600
    bad = ekb("login", "--url", live_server.url, "--token", "not-a-token", env=env)
    assert bad.returncode == 1 and "refused the token: Invalid token." in bad.stderr
    assert not config_home.exists()
    ok(ekb("login", "--url", live_server.url, "--token", token, env=env))
    stored = config_home / "ekb" / "config.json"
    assert stat.S_IMODE(stored.stat().st_mode) == 0o600
    assert json.loads(stored.read_text()) == {"url": live_server.url, "token": token}

    # --- tasks: the served ones, filtered on the server; a bad filter prints the server's message
    assert [t["workload"] for t in json.loads(ok(ekb("tasks", "--json", env=env)).stdout)] == list(SERVED)
    text = ok(ekb("tasks", "--family", "softmax", env=env)).stdout
    assert SERVED[2] in text and SERVED[0] not in text and text.endswith("1 task\n")
    refused = ekb("tasks", "--family", "nope", env=env)
    assert refused.returncode == 1 and "answered 400" in refused.stderr and "family: unknown family 'nope'" in \
        refused.stderr

    # --- one task: spec, TVMScript, reference, the prompt; a held-out id is a plain 404
    detail = json.loads(ok(ekb("task", SERVED[0], "--json", env=env)).stdout)
    assert detail["workload"] == SERVED[0] and "T.prim_func" in detail["tvmscript"]
    assert [m["role"] for m in detail["prompt"]["messages"]] == ["system", "user"]
    shown = ok(ekb("task", SERVED[0], "--mode", "direct", env=env)).stdout
    assert "canonical TVMScript" in shown and "NumPy reference" in shown and f"Task: {SERVED[0]}" in shown
    assert "Reply with your fastest correct kernel." in shown
    hidden = suite.held_out(django_settings.EKB_HELDOUT_SECRET)[0].id
    missing = ekb("task", hidden, env=env)
    assert missing.returncode == 1 and "answered 404" in missing.stderr and "is served here" in missing.stderr

    # --- init: the starter bundle, written and never over a non-empty directory
    bundle = tmp_path / "my-bundle"
    made = json.loads(ok(ekb("init", str(bundle), *[a for g in STARTED for a in ("--tasks", g)], "--json",
                             env=env)).stdout)
    assert [e["workload"] for e in made["entries"]] == list(SERVED[:2])
    assert sorted(p.relative_to(bundle).as_posix() for p in bundle.rglob("*") if p.is_file()) == \
        sorted(made["files"]) and "manifest.json" in made["files"] and len(made["files"]) == 3
    again = ekb("init", str(bundle), "--tasks", "activation/*", env=env)
    assert again.returncode == 1 and "is not empty" in again.stderr

    # --- validate, offline: the valid bundle, then a broken copy with every problem named
    assert "valid bundle 'starter-cpu-llvm', 2 entries" in ok(ekb("validate", str(bundle), env=env)).stdout
    broken = tmp_path / "broken"
    shutil.copytree(bundle, broken)
    manifest = json.loads((broken / "manifest.json").read_text())
    manifest["entries"][0]["workload"] = "activation/relu@m1n1"
    manifest["entries"][1]["file"] = "schedules/gone.json"
    (broken / "manifest.json").write_text(json.dumps(manifest))
    report = ekb("validate", str(broken), "--json", env=env)
    assert report.returncode == 1
    errors = json.loads(report.stdout)["errors"]
    assert len(errors) == 2, errors
    assert "entry 1" in errors[0] and "activation/relu@m1n1" in errors[0]
    assert "entry 2" in errors[1] and "schedules/gone.json" in errors[1]

    # --- submit --wait: plain progress lines off a terminal, then the summary; exit 0 once finished
    done = ok(ekb("submit", str(bundle), "--wait", "--interval", "0.5", "--name", "cli-round-trip", env=env,
                  timeout=150))
    sub_id = int(done.stdout.split()[1])
    progress = done.stderr.splitlines()
    assert progress[-1] == "  finished: 3/3 tasks" and "\r" not in done.stderr, done.stderr
    assert f"Submission {sub_id} (cli-round-trip, bundle, by alice): finished, 3/3 tasks" in done.stdout
    assert "cpu-llvm: 2/3 correct" in done.stdout
    worker.wait_logged("Task portal.evaluate[", "succeeded")

    # --- status, results, leaderboard
    assert json.loads(ok(ekb("status", str(sub_id), "--json", env=env)).stdout)["state"] == "finished"
    results = {r["workload"]: r["status"] for r in json.loads(ok(ekb("results", str(sub_id), "--json",
                                                                     env=env)).stdout)}
    assert results == {SERVED[0]: "correct", SERVED[1]: "correct", SERVED[2]: "missing"}
    table = ok(ekb("results", str(sub_id), "--failing", env=env)).stdout
    assert SERVED[2] in table and SERVED[0] not in table
    board = json.loads(ok(ekb("leaderboard", "--backend", BACKEND, "--json", env=env)).stdout)
    ours = [r for r in board["rows"] if r["submission_id"] == sub_id]
    assert len(ours) == 1 and ours[0]["name"] == "cli-round-trip" and ours[0]["summary"]["correct"] == 2
    assert "cli-round-trip" in ok(ekb("leaderboard", "--backend", BACKEND, env=env)).stdout

    # --- with no worker left, a second submission stays queued: cancel it, twice
    worker.kill()
    queued = json.loads(ok(ekb("submit", str(bundle), "--name", "second", "--json", env=env)).stdout)
    assert queued["state"] == "queued"
    assert "is cancelled" in ok(ekb("cancel", str(queued["id"]), env=env)).stdout
    twice = ekb("cancel", str(queued["id"]), env=env)
    assert twice.returncode == 1 and "answered 409" in twice.stderr and "already cancelled" in twice.stderr

    # --- rerun it and wait on a terminal: the progress bar, then a timeout that says so
    code, out, terminal = with_tty_stderr("rerun", str(queued["id"]), "--wait", "--interval", "0.5",
                                          "--wait-timeout", "2", env=env)
    assert code == 1, (out, terminal)
    rerun_id = int(out.split()[1])
    assert rerun_id not in (sub_id, queued["id"])
    assert "\r  queued    [..............................] 0/3 tasks" in terminal
    assert f"submission {rerun_id} is still queued (0/3) after 2 s" in terminal
    assert json.loads(ok(ekb("cancel", str(rerun_id), "--json", env=env)).stdout)["state"] == "cancelled"
    assert Submission.objects.get(pk=rerun_id).bundle_sha256 == Submission.objects.get(pk=queued["id"]).bundle_sha256

    # --- an unreachable portal: the URL that failed
    down = ekb("tasks", "--url", "http://127.0.0.1:9", env=env)
    assert down.returncode == 1 and "cannot reach http://127.0.0.1:9/api/v1/tasks/" in down.stderr
