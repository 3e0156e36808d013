"""Pattern-level manifest entries: one kernel for every shape of a pattern.

Validation (exactly one of workload/pattern, known patterns, formats that can serve any shape,
``shape_args`` against the pattern's integer parameters), resolution (a workload-level entry
wins on its workload; held-out workloads resolve by their pattern), and the real pipeline with
the sandbox on: a C kernel hard-wired to one shape is wrong on another, the same kernel written
over ``shape_args`` is right on both, and one layered trace schedules two shapes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaluator import records, suite
from evaluator.formats.bundle import BundleError, load_bundle
from evaluator.formats.raw_source import BOUND_PARAMS
from evaluator.suite import Workload, WorkloadDef

ROOT = Path(__file__).resolve().parents[2]
SCHEDULE = ROOT / "examples" / "bundles" / "hand-tuned" / "schedules" / "matmul__matmul--m256n256k256.json"
PATTERN = "matmul/matmul"
BIG = "matmul/matmul@m256n256k256"  # A[256, 256] B[256, 256] -> T_matmul[256, 256]
WIDE = "matmul/matmul@m128n512k128"  # A[128, 128] B[128, 512] -> T_matmul[128, 512]
ARGS = ["A", "B", "T_matmul"]

# Hard-wired to WIDE: on BIG every index stays inside the (equally sized) buffers, so it runs
# and is simply wrong there.
FIXED = """
void mm(const float *restrict A, const float *restrict B, float *restrict C) {
    for (int i = 0; i < 128; ++i)
        for (int j = 0; j < 512; ++j) {
            float acc = 0.0f;
            for (int k = 0; k < 128; ++k) acc += A[i * 128 + k] * B[k * 512 + j];
            C[i * 512 + j] = acc;
        }
}
"""
SYMBOLIC = """
@T.prim_func(s_tir=True)
def main(a: T.handle, b: T.handle, c: T.handle):
    m = T.int64()
    n = T.int64()
    k = T.int64()
    A = T.match_buffer(a, (m, k), "float32")
    B = T.match_buffer(b, (k, n), "float32")
    C = T.match_buffer(c, (m, n), "float32")
    for i, j, p in T.grid(m, n, k):
        with T.sblock("T_matmul"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, p])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
"""
# ... and one whose A is square: right where m == k only
SQUARE = SYMBOLIC.replace("(m, k)", "(m, m)").replace("A[vi, vk]", "A[vi, vk % m]")
CL_GENERIC = """
__kernel void mm(__global const float *A, __global const float *B, __global float *C, long m, long n, long k) {
    long j = get_global_id(0), i = get_global_id(1);
    if (i >= m || j >= n) return;  /* the launch rounds up to whole work-groups */
    float acc = 0.0f;
    for (long p = 0; p < k; ++p) acc += A[i * k + p] * B[p * n + j];
    C[i * n + j] = acc;
}
"""
GENERIC = """
void mm(const float *restrict A, const float *restrict B, float *restrict C, int64_t m, int64_t n, int64_t k) {
    #pragma omp parallel for
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
            float acc = 0.0f;
            for (int64_t p = 0; p < k; ++p) acc += A[i * k + p] * B[p * n + j];
            C[i * n + j] = acc;
        }
}
"""


def c_entry(target: dict, shape_args: list | None = None, file: str = "mm.c") -> dict:
    launch = {"entry": "mm", "args": ARGS}
    if shape_args is not None:
        launch["shape_args"] = shape_args
    return {**target, "backend": "cpu-llvm", "format": "c-source", "file": file, "launch": launch}


def trace_entry(target: dict, backend: str = "cpu-llvm", file: str = "matmul.json") -> dict:
    return {**target, "backend": backend, "format": "layered-trace", "file": file}


def write_bundle(root: Path, entries: list[dict], files: dict[str, str] | None = None) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    files = {"mm.c": GENERIC, "fixed.c": FIXED, "matmul.json": SCHEDULE.read_text(),
             "matmul.py": SYMBOLIC, "square.py": SQUARE, "mm.cl": CL_GENERIC,
             "mm_int.cl": CL_GENERIC.replace("long m, long n, long k", "int m, int n, int k"), **(files or {})}
    for name, text in files.items():
        (root / name).write_text(text)
    (root / "manifest.json").write_text(json.dumps(
        {"schema": "edgekernelbench/bundle@1", "name": "patterns", "entries": entries}))
    return root


def errors_of(root: Path, entries: list[dict], files: dict[str, str] | None = None) -> list[str]:
    with pytest.raises(BundleError) as info:
        load_bundle(write_bundle(root, entries, files))
    return info.value.errors


# --- validation ---------------------------------------------------------------------------------

def test_an_entry_names_exactly_one_of_workload_and_pattern(tmp_path):
    both = errors_of(tmp_path / "both", [trace_entry({"workload": BIG, "pattern": PATTERN})])
    assert both == [f"entry 1 ({BIG}, pattern {PATTERN}, cpu-llvm): give exactly one of 'workload' (one shape) "
                    "and 'pattern' (every shape of a pattern), not both"]
    neither = errors_of(tmp_path / "neither", [trace_entry({})])
    assert neither == ["entry 1 (cpu-llvm): missing 'workload' (or 'pattern', for every shape of a pattern)"]
    typed = errors_of(tmp_path / "typed", [trace_entry({"pattern": 7})])
    assert typed == ["entry 1 (cpu-llvm): 'pattern' must be a string, got a number"]


def test_an_unknown_pattern_is_named(tmp_path):
    errs = errors_of(tmp_path / "a", [trace_entry({"pattern": "matmul/nope"})])
    assert errs == ["entry 1 (pattern matmul/nope, cpu-llvm): unknown pattern 'matmul/nope'"]
    # a workload id given as a pattern: said so
    errs = errors_of(tmp_path / "b", [trace_entry({"pattern": BIG})])
    assert errs == [f"entry 1 (pattern {BIG}, cpu-llvm): unknown pattern {BIG!r} (a pattern id has no "
                    "'@<shape>' part; name one shape with 'workload')"]


def test_the_same_pattern_twice_on_one_backend_is_a_duplicate(tmp_path):
    errs = errors_of(tmp_path / "a", [trace_entry({"pattern": PATTERN}), trace_entry({"pattern": PATTERN}),
                                      trace_entry({"pattern": PATTERN}, backend="opencl")])
    assert errs == [f"entry 2 (pattern {PATTERN}, cpu-llvm): duplicate of entry 1 (the same pattern and backend)"]


def test_a_pattern_entry_beside_workload_entries_of_the_pattern_loads(tmp_path):
    b = load_bundle(write_bundle(tmp_path, [trace_entry({"pattern": PATTERN}), trace_entry({"workload": BIG}),
                                            trace_entry({"pattern": PATTERN}, backend="rpc:x")]))
    assert [(e.workload, e.pattern) for e in b.entries] == [(None, PATTERN), (BIG, None), (None, PATTERN)]
    assert b.entries[0].label == f"entry 1 (pattern {PATTERN}, cpu-llvm)"
    assert b.entries[1].label == f"entry 2 ({BIG}, cpu-llvm)"


@pytest.mark.parametrize("shape_args, message", [
    (["m", "q"], f"'shape_args' names 'q', which is not an integer parameter of every workload of pattern "
                 f"{PATTERN!r}; its integer parameters are k, m, n"),
    # 'dtype' is a parameter of one workload of the pattern, and a string: not a shape size
    (["dtype", "zz"], f"'shape_args' names 'dtype', 'zz', which are not integer parameters of every workload "
                      f"of pattern {PATTERN!r}; its integer parameters are k, m, n"),
    (["m", "m"], "'shape_args' names a parameter more than once"),
    ("m", "'shape_args' must be a list of 1 to 16 parameter names"),
    ([], "'shape_args' must be a list of 1 to 16 parameter names"),
    (["m-1"], "'shape_args' holds invalid parameter names: ['m-1']"),
])
def test_shape_args_are_checked_against_the_patterns_parameters(tmp_path, shape_args, message):
    errs = errors_of(tmp_path, [c_entry({"pattern": PATTERN}, shape_args)])
    assert len(errs) == 1, errs
    assert errs[0].startswith(f"entry 1 (pattern {PATTERN}, cpu-llvm): launch: {message}"), errs[0]


def test_shape_args_of_a_workload_entry_and_of_a_pattern_without_sizes(tmp_path):
    # a workload-level entry is checked against that workload's own parameters
    assert load_bundle(write_bundle(tmp_path / "ok", [c_entry({"workload": BIG}, ["k"])])).entries[0].launch
    errs = errors_of(tmp_path / "a", [c_entry({"workload": BIG}, ["b"])])
    assert errs == [f"entry 1 ({BIG}, cpu-llvm): launch: 'shape_args' names 'b', which is not an integer "
                    f"parameter of workload {BIG!r}; its integer parameters are k, m, n"]
    # relu's one parameter is a shape tuple: nothing to pass
    errs = errors_of(tmp_path / "b", [c_entry({"pattern": "activation/relu"}, ["shape"])])
    assert errs == ["entry 1 (pattern activation/relu, cpu-llvm): launch: 'shape_args' names 'shape', which is not "
                    "an integer parameter of every workload of pattern 'activation/relu'; its integer parameters "
                    "are none"]


def cl_entry(target: dict, launch: dict | None = None, file: str = "mm.cl") -> dict:
    launch = {"entry": "mm", "args": ARGS, "shape_args": ["m", "n", "k"],
              "global": ["ceil_div(n, 8) * 8", "ceil_div(m, 8) * 8"], "local": [8, 8], **(launch or {})}
    return {**target, "backend": "opencl", "format": "opencl-source", "file": file, "launch": launch}


@pytest.mark.parametrize("launch, message", [
    ({"global": ["q * 2", "m"]}, "its size expressions read 'q', which is not an integer parameter of every "
                                 f"workload of pattern {PATTERN!r}; its integer parameters are k, m, n"),
    ({"global": ["m / 2", "m"]}, "'global': size expression 'm / 2': '/' is not allowed: use '//' (floor "
                                 "division) or ceil_div(a, b)"),
    ({"global": ["__import__('os')", "m"]}, "'global': size expression \"__import__('os')\": only ceil_div, "
                                            "min, max may be called"),
    ({"local": ["m.bit_length()", 1]}, "'local': size expression 'm.bit_length()': only ceil_div, min, max may "
                                       "be called"),
    ({"global": ["(" * 120 + "m" + ")" * 120, 1]}, "'global': size expression of 241 characters; the limit is 200"),
    ({"global": [True, 1]}, "'global' must hold integers or size expressions (strings), got True"),
    ({"global": [256, 256], "local": [3, 8]}, "each 'local' size must divide its 'global' size"),
])
def test_launch_size_expressions_are_checked_at_upload(tmp_path, launch, message):
    errs = errors_of(tmp_path, [cl_entry({"pattern": PATTERN}, launch)])
    assert len(errs) == 1, errs
    assert errs[0].startswith(f"entry 1 (pattern {PATTERN}, opencl): launch: {message}"), errs[0]


def test_gpu_sources_take_shape_args_and_size_expressions(tmp_path):
    cuda = {"pattern": PATTERN, "backend": "cuda", "format": "cuda-source", "file": "mm.cu",
            "launch": {"entry": "mm", "args": ARGS, "shape_args": ["m", "n", "k"],
                       "grid": ["ceil_div(n, 16)", "ceil_div(m, 16)"], "block": [16, 16]}}
    b = load_bundle(write_bundle(tmp_path, [cl_entry({"pattern": PATTERN}), cuda], {"mm.cu": "extern \"C\"\n"}))
    wide = suite.get_workload(WIDE)
    for e in b.entries:  # the build gets the workload's sizes: the expressions are evaluated there
        assert e.launch_for(wide)[BOUND_PARAMS] == {"m": 128, "n": 512, "k": 128}


# --- resolution -----------------------------------------------------------------------------------

def test_a_workload_entry_overrides_the_pattern_entry_on_its_workload(tmp_path):
    b = load_bundle(write_bundle(tmp_path, [c_entry({"pattern": PATTERN}, ["m", "n", "k"]),
                                            c_entry({"workload": BIG}, file="fixed.c"),
                                            trace_entry({"pattern": "matmul/matmul-nt"}, backend="opencl")]))
    big, wide = suite.get_workload(BIG), suite.get_workload(WIDE)
    assert b.entry_for(big, "cpu-llvm").index == 2  # its own entry
    assert b.entry_for(wide, "cpu-llvm").index == 1  # the pattern's
    assert b.entry_for(wide, "opencl") is None  # no entry of this pattern on that backend
    nt = suite.get_workload("matmul/matmul-nt@m49n1000k1024")
    assert b.entry_for(nt, "opencl").index == 3 and b.entry_for(nt, "cpu-llvm") is None


def test_a_held_out_workload_resolves_by_its_pattern_not_its_tag(tmp_path):
    b = load_bundle(write_bundle(tmp_path, [c_entry({"pattern": PATTERN}, ["m", "n", "k"])]))
    pattern = next(p for p in suite.patterns() if p.id == PATTERN)
    # an opaque tag that parses as nothing, and one that looks like another pattern's
    for tag in ("7f3a9c", "matmul-nt@m1n1k1"):
        held = WorkloadDef(pattern, Workload(tag, {"m": 64, "n": 96, "k": 32}, hidden=True))
        e = b.entry_for(held, "cpu-llvm")
        assert e is not None and e.index == 1
        # the build gets this workload's sizes, never another's
        assert e.launch_for(held)[BOUND_PARAMS] == {"m": 64, "n": 96, "k": 32}


def test_launch_for_binds_only_integer_parameters_and_only_with_shape_args(tmp_path):
    b = load_bundle(write_bundle(tmp_path, [c_entry({"pattern": PATTERN}, ["m", "n", "k"]),
                                            c_entry({"workload": WIDE})]))
    f16 = suite.get_workload("matmul/matmul@m256n256k256-f16")
    assert b.entry_for(f16, "cpu-llvm").launch_for(f16)[BOUND_PARAMS] == {"m": 256, "n": 256, "k": 256}
    wide = suite.get_workload(WIDE)
    assert b.entry_for(wide, "cpu-llvm").launch_for(wide) == {"entry": "mm", "args": ARGS}


# --- through the real pipeline, sandbox on ----------------------------------------------------------

def _sandboxed():
    from evaluator.sandbox import probe

    return probe()


needs_sandbox = pytest.mark.skipif(_sandboxed() is not None, reason=f"no sandbox on this machine: {_sandboxed()}")


def _evaluate(root: Path, entries: list[dict], quick_protocol, globs=(BIG, WIDE), backend="cpu-llvm") -> dict:
    from evaluator.pipeline import evaluate_bundle

    report = evaluate_bundle(load_bundle(write_bundle(root, entries)), backend, globs=list(globs),
                             protocol=quick_protocol)
    assert report["sandbox"] is not None
    return report


@needs_sandbox
def test_a_c_kernel_hard_wired_to_one_shape_is_wrong_on_another(tmp_path, quick_protocol):
    report = _evaluate(tmp_path, [c_entry({"pattern": PATTERN}, file="fixed.c")], quick_protocol)
    got = {t["workload"]: t for t in report["tasks"]}
    assert got[WIDE]["status"] == records.CORRECT, got[WIDE]["reason"]
    assert got[BIG]["status"] == records.WRONG_RESULT, got[BIG]
    assert "output 'T_matmul' differs from the reference" in got[BIG]["reason"]
    assert report["ignored_entries"] == []


@needs_sandbox
def test_the_same_kernel_over_shape_args_is_right_on_every_shape(tmp_path, quick_protocol):
    report = _evaluate(tmp_path, [c_entry({"pattern": PATTERN}, ["m", "n", "k"])], quick_protocol)
    got = {t["workload"]: t for t in report["tasks"]}
    for wid in (BIG, WIDE):
        assert got[wid]["status"] == records.CORRECT, (wid, got[wid]["reason"])
        assert got[wid]["speedup"]["tvm-default"] > 0


@needs_sandbox
def test_a_kernel_without_the_shape_parameters_is_told_the_signature(tmp_path, quick_protocol):
    from evaluator.pipeline import Candidate, Pipeline

    b = load_bundle(write_bundle(tmp_path, [c_entry({"pattern": PATTERN}, ["m", "n", "k"], file="fixed.c")]))
    w = suite.get_workload(BIG)
    e = b.entry_for(w, "cpu-llvm")
    r = Pipeline("cpu-llvm", protocol=quick_protocol).evaluate(w, Candidate(e.format, e.source,
                                                                             launch=e.launch_for(w)))
    assert r.status == records.COMPILE_ERROR
    assert ("it must be void mm(const float*, const float*, float*, int64_t, int64_t, int64_t) (inputs const, "
            "in the order of 'args', then int64_t m, n, k from 'shape_args')") in r.reason


@needs_sandbox
def test_one_layered_trace_schedules_two_shapes_of_a_pattern(tmp_path, quick_protocol):
    # a workload entry of another pattern is kept out of the way: it is reported as not used
    entries = [trace_entry({"pattern": PATTERN}), trace_entry({"workload": "matmul/matmul-nt@m1n12k48"})]
    report = _evaluate(tmp_path, entries, quick_protocol)
    got = {t["workload"]: t for t in report["tasks"]}
    assert set(got) == {BIG, WIDE}
    for wid in (BIG, WIDE):
        assert got[wid]["status"] == records.CORRECT, (wid, got[wid]["reason"])
    assert report["ignored_entries"] == ["entry 2 (matmul/matmul-nt@m1n12k48, cpu-llvm)"]


@needs_sandbox
def test_a_split_that_does_not_cover_a_shape_says_so(quick_protocol):
    from evaluator.pipeline import Candidate, Pipeline

    doc = json.loads(SCHEDULE.read_text())
    split = doc["layers"]["schedule"][1]
    assert split["op"] == "split" and split["loop"] == "i"
    split["factors"] = [8, 16]  # 128: the whole of i on WIDE, half of it on BIG
    r = Pipeline("cpu-llvm", protocol=quick_protocol).evaluate(
        suite.get_workload(BIG), Candidate("layered-trace", json.dumps(doc)))
    assert r.status == records.COMPILE_ERROR
    assert r.reason.startswith("schedule error: schedule step 2 (split): the factors [8, 16] multiply to 128, "
                               "less than the extent 256 of loop 'i' for this workload's shape"), r.reason
    assert "give one factor as null" in r.reason


@needs_sandbox
def test_a_pattern_entry_serves_a_held_out_shape(tmp_path, quick_protocol):
    from evaluator.pipeline import Candidate, Pipeline
    from evaluator.suite import heldout

    pattern = next(p for p in suite.patterns() if p.id == PATTERN)
    # a float32 shape drawn the way a deployment draws its held-out ones (the secret is this test's)
    drawn = (WorkloadDef(pattern, spec) for i in range(20) for spec in heldout.draw(pattern, f"pattern-entries-{i}"))
    w = next(w for w in drawn if w.dtype == "float32")
    assert w.hidden and w.params not in [dict(s.params) for s in pattern.workloads]
    b = load_bundle(write_bundle(tmp_path, [c_entry({"pattern": PATTERN}, ["m", "n", "k"])]))
    e = b.entry_for(w, "cpu-llvm")
    r = Pipeline("cpu-llvm", protocol=quick_protocol).evaluate(w, Candidate(e.format, e.source,
                                                                             launch=e.launch_for(w)))
    assert r.status == records.CORRECT, (w.params, r.reason)


GEMV_T_FIXED = """
/* y = A^T x, written for gemv/gemv-t@m1024k1024 only: its sizes are constants */
void gemv_t(const float *restrict A, const float *restrict x, float *restrict y) {
    for (int j = 0; j < 1024; ++j) y[j] = 0.0f;
    for (int p = 0; p < 1024; ++p)
        for (int j = 0; j < 1024; ++j) y[j] += A[p * 1024 + j] * x[p];
}
"""


@needs_sandbox
@pytest.mark.parametrize("generic", [False, True])
def test_a_kernel_hard_wired_to_a_public_shape_fails_every_held_out_one(tmp_path, quick_protocol, generic):
    """The held-out shapes of the tests' deployment (drawn from its secret): a C kernel with the
    public shape's sizes as constants is right there and wrong on every held-out shape; the same
    kernel over ``shape_args`` (the shipped pattern-level example's) is right on all of them."""
    from evaluator.pipeline import evaluate_bundle

    launch = {"entry": "gemv_t", "args": ["A", "x", "T_gemv_t"]}
    if generic:
        launch["shape_args"] = ["m", "k"]
        source = (ROOT / "examples" / "bundles" / "pattern-level" / "kernels" / "gemv_t.c").read_text()
    else:
        source = GEMV_T_FIXED
    (tmp_path / "k.c").write_text(source)
    (tmp_path / "manifest.json").write_text(json.dumps({"schema": "edgekernelbench/bundle@1", "name": "gemv-t",
        "entries": [{"pattern": "gemv/gemv-t", "backend": "cpu-llvm", "format": "c-source", "file": "k.c",
                     "launch": launch}]}))
    report = evaluate_bundle(load_bundle(str(tmp_path)), "cpu-llvm", globs=["gemv/gemv-t@*"], include_hidden=True,
                             protocol=quick_protocol)
    got = {t["workload"]: t for t in report["tasks"]}
    held = [t for t in got.values() if t["hidden"]]
    assert held
    assert got["gemv/gemv-t@m1024k1024"]["status"] == records.CORRECT, got["gemv/gemv-t@m1024k1024"]["reason"]
    for t in held:
        if generic:
            assert t["status"] == records.CORRECT, (t["workload"], t["reason"])
        else:
            assert t["status"] != records.CORRECT, t["workload"]
            assert t["reason"], t["workload"]


def tvmscript_entry(target: dict, file: str = "matmul.py") -> dict:
    return {**target, "backend": "cpu-llvm", "format": "tvmscript", "file": file}


@needs_sandbox
def test_a_tvmscript_primfunc_over_symbolic_shapes_serves_every_shape(tmp_path, quick_protocol):
    report = _evaluate(tmp_path, [tvmscript_entry({"pattern": PATTERN})], quick_protocol)
    got = {t["workload"]: t for t in report["tasks"]}
    for wid in (BIG, WIDE):
        assert got[wid]["status"] == records.CORRECT, (wid, got[wid]["reason"])


@needs_sandbox
def test_symbolic_shapes_that_cannot_take_a_workload_say_which(tmp_path, quick_protocol):
    from evaluator.pipeline import Candidate, Pipeline

    # A's shape (m, m) binds m twice: right where m == k (BIG), refused where they differ (every
    # public float32 shape of the pattern has m == k: take one the way held-out shapes come)
    pattern = next(p for p in suite.patterns() if p.id == PATTERN)
    other = WorkloadDef(pattern, Workload("t0", {"m": 64, "n": 96, "k": 32}, hidden=True))
    pipe = Pipeline("cpu-llvm", protocol=quick_protocol)
    square = Candidate("tvmscript", SQUARE)
    assert pipe.evaluate(suite.get_workload(BIG), square).status == records.CORRECT
    r = pipe.evaluate(other, square)
    assert r.status == records.COMPILE_ERROR, r
    assert r.reason.startswith("TVMScript error: the symbolic shapes do not fit this workload (A [64, 32], "
                               "B [32, 96], T_matmul [64, 96]): The assigned value of var m mismatched"), r.reason


@needs_sandbox
def test_an_opencl_kernel_with_size_expressions_serves_every_shape(tmp_path, quick_protocol):
    report = _evaluate(tmp_path, [cl_entry({"pattern": PATTERN})], quick_protocol, backend="opencl")
    got = {t["workload"]: t for t in report["tasks"]}
    for wid in (BIG, WIDE):
        assert got[wid]["status"] == records.CORRECT, (wid, got[wid]["reason"])


@needs_sandbox
@pytest.mark.parametrize("launch, file, reason", [
    ({"local": [8, "min(m, 96)"]}, "mm.cl",
     "launch for this workload (k=256, m=256, n=256): each 'local' size must divide its 'global' size: "
     "global [256, 256], local [8, 96]"),
    ({"global": ["n - 256", "m"]}, "mm.cl",
     "launch 'global': 'n - 256' is 0 for this workload (k=256, m=256, n=256); a size must be between 1 and"),
    ({}, "mm_int.cl", "kernel 'mm' parameter 3 is declared 'int' but 'shape_args' passes 'm' there as a 64-bit "
                      "integer: declare it 'long'"),
])
def test_a_launch_that_does_not_fit_a_workload_is_a_compile_error_that_says_why(tmp_path, quick_protocol,
                                                                                 launch, file, reason):
    report = _evaluate(tmp_path, [cl_entry({"pattern": PATTERN}, launch, file=file)], quick_protocol,
                       globs=(BIG,), backend="opencl")
    (task,) = report["tasks"]
    assert task["status"] == records.COMPILE_ERROR, task
    assert reason in task["reason"], task["reason"]
