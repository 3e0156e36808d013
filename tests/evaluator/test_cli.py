"""`python -m evaluator` as scripts use it: stable JSON keys, exit codes, clear errors."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def cli(*args, check=True):
    return subprocess.run([sys.executable, "-m", "evaluator", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, check=check)


def test_suite_json_meets_the_minimums():
    s = json.loads(cli("suite", "--json").stdout)
    assert set(s) >= {"patterns", "workloads", "hidden", "levels", "domains", "families"}
    assert s["patterns"] >= 24 and s["workloads"] >= 40 and s["hidden"] is None  # not counted
    assert set(s["levels"]) == {"L1", "L2", "L3"}
    assert len(s["domains"]) >= 4
    everything = json.loads(cli("suite", "--json", "--all").stdout)  # the tests' held-out secret
    assert everything["hidden"] > 0 and everything["workloads"] == s["workloads"] + everything["hidden"]


def test_suite_listing_hides_held_out_workloads():
    listing = cli("suite").stderr
    assert "(held out)" not in listing
    assert "(held out)" in cli("suite", "--all").stderr


def test_backends_json():
    items = {b["name"]: b for b in json.loads(cli("backends", "--json").stdout)}
    assert items["cpu-llvm"]["available"] and items["cpu-llvm"]["target"]["kind"] == "llvm"
    assert items["cpu-llvm"]["arch"]
    assert not items["cuda"]["available"] and items["cuda"]["reason"]


def test_run_writes_the_stable_report(tmp_path):
    out = tmp_path / "out.json"
    r = cli("run", "examples/bundles/tvm-default", "--tasks", "activation/relu@*", "--json", str(out))
    assert "summary vs tvm-default" in r.stderr
    report = json.loads(out.read_text())
    assert report["backend"] == "cpu-llvm"
    keys = {"correct@1", "fast@0.5", "fast@0.8", "fast@1.0", "fast@1.5", "fast@2.0",
            "geomean_correct", "geomean_deployable"}
    assert keys <= set(report["summary"])
    assert report["summary"]["correct@1"] == 1.0
    assert report["backend_info"]["target"]["mcpu"]
    for t in report["tasks"]:
        assert {"workload", "status", "reason", "speedup"} <= set(t)
        # tvm-tuned only where a stored record exists (the tune command's subset)
        assert {"tvm-default", "vendor"} <= set(t["speedup"]) <= {"tvm-default", "tvm-tuned", "vendor"}
    assert "summary_tvm_tuned" in report


def test_rejected_bundle_exits_2_with_the_message(tmp_path):
    (tmp_path / "manifest.json").write_text('{"schema": "edgekernelbench/bundle@1", "name": "x", ')
    r = cli("run", str(tmp_path), check=False)
    assert r.returncode == 2
    assert "bundle rejected" in r.stderr and "invalid JSON" in r.stderr


def test_unknown_backend_exits_2(tmp_path):
    r = cli("run", "examples/bundles/tvm-default", "--backend", "cuda", "--tasks", "matmul/*", check=False)
    assert r.returncode == 2 and "cuda" in r.stderr and "unavailable" in r.stderr


def test_no_sandbox_refuses_with_exit_2(tmp_path):
    import os

    env = {**os.environ, "PATH": str(tmp_path)}  # no bubblewrap here
    env.pop("EKB_UNSAFE_LOCAL", None)
    r = subprocess.run([sys.executable, "-m", "evaluator", "run", "examples/bundles/tvm-default",
                        "--tasks", "matmul/*"], cwd=ROOT, capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 2
    assert "refusing to evaluate untrusted code: bubblewrap (bwrap) is not installed" in " ".join(r.stderr.split())
