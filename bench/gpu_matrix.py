"""The GPU backend matrix: build every task here, measure it on a GPU machine.

A measurement machine has the NVIDIA driver, CuPy and PyTorch but no TVM compiler (the wheel is
over what may be carried there), so the work splits like a compile farm and its devices:

    python bench/gpu_matrix.py pack [--backends cuda,opencl] [--arch sm_90] [--tasks GLOB ... | --sample N]
        builds every bundle's candidates and the tvm-default baselines for each backend, the
        cubins of the CUDA C they embed (nvcc, or NVRTC at load when nvcc is absent), the
        suite's NumPy references for every input set, and a runtime-only TVM, under .gpu/
        (ignored by git; small enough to carry).

    tar -C .gpu -xJf .gpu/site.tar.xz && PATH=$PWD/.gpu/site/bin:$PATH PYTHONPATH=.gpu/site \\
        TVM_USE_RUNTIME_LIB=1 EKB_CACHE_DIR=.gpu/pack/cache python3 bench/gpu_matrix.py measure --out DIR
        on the GPU machine: for every task, the product's own runner (``Pipeline.measure``: the
        kernels' processes, the poisoned correctness runs, the parent-clocked interleaved timing
        on fresh inputs, the timed-round checks, the record), then Correct@1 and Fast@p
        per bundle and backend (``scoring.summarize``) into DIR/gpu_matrix.{json,md}. A backend
        unavailable there is reported with its reason and not run.

    python bench/gpu_matrix.py render DIR/gpu_matrix.json bench/results/gpu_matrix-DATE
        back here: the report without the boards of unavailable backends.

Bundles: ``tvm-default`` (without entries for a backend, its candidate is the backend's default
module itself, which is what such an entry would hold: speedups ≈ 1 check the harness),
``hand-tuned`` (its cpu-llvm schedules applied unchanged where it has no entry for the backend),
``cuda-source`` and ``opencl-source`` (each on its own backend). Inputs are regenerated there
from the same seeds and checked against the digests taken here; the references travel. Every
kernel runs sandboxed there, as a worker runs it (bubblewrap and pyseccomp travel with the
runtime; the GPU's device nodes are bound into the steps of a GPU backend).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GPU_DIR = ROOT / ".gpu"
PACK = GPU_DIR / "pack"
WHEELS = ROOT / ".whl"
BUNDLES = ("tvm-default", "hand-tuned", "cuda-source", "opencl-source")
DEFAULT_HOST = {"kind": "llvm", "mcpu": "x86-64-v3"}  # what the measurement machine's Xeon runs
MAX_CARRY_BYTES = 62 << 20  # the device accepts 64 MiB of ignored files; keep some room
# the measurement machine's runtime: TVM's, OpenCL's, the library policy's ELF reader and the
# sandbox's seccomp bindings
RUNTIME_WHEELS = ("apache_tvm-", "apache_tvm_ffi-", "pyopencl-", "pytools-", "platformdirs-", "siphash24-",
                  "pyelftools-", "pyseccomp-")
# parts of the TVM wheel a runtime-only import never touches
STRIP = ("tvm/lib/libtvm_compiler.so", "tvm/3rdparty", "tvm/src", "tvm_ffi/src", "tvm_ffi/include",
         "tvm_ffi/3rdparty")


def _stem(workload: str) -> str:
    return workload.replace("/", "__").replace("@", "--")


# --- pack (the build machine) ----------------------------------------------------------------

def pack_runtime() -> Path:
    """A runtime-only TVM (+ pyopencl) from the cp312 wheels in .whl/, as .gpu/site.tar.xz."""
    out = GPU_DIR / "site.tar.xz"
    wheels = sorted(p for p in WHEELS.glob("*.whl") if p.name.startswith(RUNTIME_WHEELS))
    found = {w.name.split("-")[0] for w in wheels}
    if not {"apache_tvm", "apache_tvm_ffi"} <= found:
        sys.exit("download the measurement machine's wheels first (see ../shared DEVICE notes):\n  python3 -m "
                 "pip download --no-deps --only-binary=:all: --python-version 3.12 --implementation cp "
                 "--platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 -d .whl "
                 "apache-tvm==0.27.0.post1 apache-tvm-ffi==0.1.14.post1 pyopencl==2026.1.4 "
                 "pytools==2026.1.1 platformdirs==4.14.8 siphash24==1.9 pyelftools==0.33 pyseccomp==0.1.2")
    site = GPU_DIR / "site"
    shutil.rmtree(site, ignore_errors=True)
    for w in wheels:
        with zipfile.ZipFile(w) as z:
            z.extractall(site)
    for rel in STRIP:
        p = site / rel
        shutil.rmtree(p) if p.is_dir() else p.unlink(missing_ok=True)
    # the sandbox's bubblewrap (the GPU machine has none): `apt-get download bubblewrap` into .whl/
    debs = sorted(WHEELS.glob("bubblewrap_*.deb"))
    if not debs:
        sys.exit("put bubblewrap's .deb in .whl/ (apt-get download bubblewrap): the measurement machine sandboxes "
                 "every kernel and has no bwrap of its own")
    with tempfile.TemporaryDirectory() as d:
        subprocess.run(["dpkg-deb", "-x", str(debs[-1]), d], check=True)
        (site / "bin").mkdir()
        shutil.copy2(Path(d) / "usr" / "bin" / "bwrap", site / "bin" / "bwrap")
    with tarfile.open(out, "w:xz") as tar:
        tar.add(site, arcname="site")
    shutil.rmtree(site)
    return out


def _backend(name: str, arch: str, host: dict):
    if name == "cuda":
        from evaluator.backends.cuda import Cuda

        return Cuda(arch=arch, host=host)
    if name == "opencl":
        from evaluator.backends.opencl import OpenCL

        return OpenCL()
    raise SystemExit(f"the GPU matrix runs cuda and opencl, not {name!r}")


def _candidate(bundle, backend: str, w) -> tuple[object | None, str]:
    """The bundle's entry for this task on this backend, or a stand-in, with a note."""
    own = bundle.entry_for(w, backend)
    if own is not None:
        return own, ""
    if bundle.name == "tvm-default":
        return "default", f"no {backend} entry: the backend's default module stands in"
    cpu = bundle.entry_for(w, "cpu-llvm")
    if cpu is not None:
        return cpu, "its cpu-llvm entry applied unchanged"
    return None, ""


def _applies(bundle, backend: str) -> bool:
    """Whether the bundle has anything to run on the backend (else it gets no board there)."""
    return bundle.name == "tvm-default" or any(e.backend in (backend, "cpu-llvm") for e in bundle.entries)


def _build(be, cand, w, path: Path, arch: str) -> str:
    """Build one artifact; '' or the compile error, as the build step words it."""
    from evaluator.formats import FORMATS
    from evaluator.harness.child import _error_text
    from evaluator import formats

    try:
        if cand == "default":
            mod = be.default_module(w.canonical_module(), w)
        elif FORMATS[cand.format].raw:
            be.build_source(cand.format, cand.source, cand.launch, w.signature(), str(path))
            return ""
        else:
            mod = formats.lower(cand.format, cand.source, w.canonical_module(), default_layers=be.default_layers)
        if be.name == "cuda":
            from evaluator.backends.cuda import compile_cubin, cuda_sources

            ex = be.compile(mod)
            ex.export_library(str(path))
            for code in cuda_sources(ex.mod):
                compile_cubin(code, arch, "nvcc" if shutil.which("nvcc") else "nvrtc")
        else:
            be.build(mod, str(path))
    except Exception as e:  # noqa: BLE001 - the candidate's compile error, recorded
        return _error_text(e)
    return ""


def cmd_pack(args) -> int:
    from evaluator import suite
    from evaluator.formats.bundle import load_bundle
    from evaluator.harness.protocol import Protocol
    from evaluator.suite.inputs import generate

    os.environ["EKB_CACHE_DIR"] = str(PACK / "cache")  # where compile_cubin keeps the cubins
    cuda_bin = Path(os.environ.get("CUDA_HOME", "/usr/local/cuda")) / "bin"
    if shutil.which("nvcc") is None and (cuda_bin / "nvcc").exists():
        os.environ["PATH"] = f"{cuda_bin}{os.pathsep}{os.environ['PATH']}"
    shutil.rmtree(PACK, ignore_errors=True)
    (PACK / "refs").mkdir(parents=True)
    runtime = pack_runtime() if not args.keep_runtime or not (GPU_DIR / "site.tar.xz").exists() \
        else GPU_DIR / "site.tar.xz"
    host = dict(DEFAULT_HOST, mcpu=args.host_mcpu)
    # GPU samples are timed call by call with events, so a sample need not be long (the 5 ms
    # default averages CPU thread wake-ups); every call also carries an untimed L2 flush
    protocol = Protocol(min_sample_s=args.min_sample_ms * 1e-3)
    bundles = [load_bundle(str(ROOT / "examples" / "bundles" / b)) for b in args.bundles]
    if args.sample:  # the sample, plus any workloads --tasks names
        picked = {w.id: w for w in suite.sample(args.sample, include_hidden=False)}
        picked.update((w.id, w) for w in (suite.select(args.tasks, False) if args.tasks else []))
        workloads = list(picked.values())
    else:
        workloads = suite.select(args.tasks or None, False)
    tasks, t_start = [], time.perf_counter()
    for w in workloads:
        stem = _stem(w.id)
        seeds, references = [], {}
        for k, seed in enumerate(protocol.seeds):
            arrays = generate(w, seed)
            references[f"s{k}"] = w.reference(arrays)
            seeds.append({"seed": seed, "sha256": [hashlib.sha256(a.tobytes()).hexdigest() for a in arrays]})
        np_save(PACK / "refs" / f"{stem}.npz", references)
        common = {"workload": w.id, "level": w.level, "family": w.family, "domains": list(w.domains),
                  "flops": w.flops, "bytes": w.bytes, "pattern": w.pattern.id, "params": w.params,
                  "inputs": [_tensor_spec(t) for t in w.inputs],
                  "outputs": [{"name": o.name, "shape": list(o.shape), "dtype": o.dtype} for o in w.outputs],
                  "seeds": seeds, "refs": f"refs/{stem}.npz"}
        for bname in args.backends:
            be = _backend(bname, args.arch, host)
            (PACK / bname).mkdir(exist_ok=True)
            base_path = PACK / bname / f"{stem}.baseline.so"
            base_error = _build(be, "default", w, base_path, args.arch)
            for bundle in bundles:
                if not _applies(bundle, bname):
                    continue
                cand, note = _candidate(bundle, bname, w)
                task = {**common, "backend": bname, "bundle": bundle.name, "note": note,
                        "vendor": be.vendor_spec(w), "baseline": f"{bname}/{stem}.baseline.so"}
                if base_error:  # TVM's own default path fails: the task has no tvm-default time
                    task["baseline"] = None
                    task["note"] = f"tvm-default does not build here ({base_error[:300]})"
                if cand is None:
                    task.update(status="missing", reason="no entry for this task in the bundle")
                elif cand == "default":
                    task.update(**({"status": "compile_error", "reason": f"build error: {base_error}"} if base_error
                                   else {"status": "built", "candidate": task["baseline"], "format": "default"}))
                else:
                    rel = f"{bname}/{stem}.{bundle.name}.so"
                    err = _build(be, cand, w, PACK / rel, args.arch)
                    task.update(format=cand.format, **({"status": "compile_error", "reason": f"build error: {err}"}
                                                       if err else {"status": "built", "candidate": rel}))
                tasks.append(task)
        print(f"{w.id}: " + ", ".join(f"{t['backend']}/{t['bundle']}={t['status']}" for t in tasks
                                      if t["workload"] == w.id), flush=True)
    manifest = {"created": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "arch": args.arch, "host": host,
                "backends": args.backends, "bundles": args.bundles, "protocol": protocol.to_json(),
                "build_machine": platform.platform(), "pack_s": time.perf_counter() - t_start, "tasks": tasks}
    (PACK / "manifest.json").write_text(json.dumps(manifest, indent=1))
    size = sum(p.stat().st_size for p in GPU_DIR.rglob("*") if p.is_file())
    print(f"{len(tasks)} tasks packed in {time.perf_counter() - t_start:.0f} s; .gpu/ holds {size / 2**20:.1f} MiB"
          f" (runtime {runtime.stat().st_size / 2**20:.1f} MiB)")
    if size > MAX_CARRY_BYTES:
        print(f"warning: over {MAX_CARRY_BYTES >> 20} MiB; select fewer tasks (--tasks)")
    return 0


def np_save(path: Path, sets: dict) -> None:
    import numpy as np

    np.savez_compressed(path, **{f"{k}_out{i}": a for k, arrays in sets.items() for i, a in enumerate(arrays)})


def _tensor_spec(t) -> dict:
    return {"name": t.name, "shape": list(t.shape), "dtype": t.dtype, "init": t.init, "low": t.low,
            "high": t.high, "scale": t.scale}


# --- measure (the GPU machine) ---------------------------------------------------------------

class PackedWorkload:
    """A task's workload as the pack carries it, for a machine without TVM's compiler (where the
    pattern files cannot be imported): its tensors, sizes and the NumPy references of the seeded
    input sets. For other inputs (the timed phase's fresh ones) ``reference`` is None, and the
    pipeline takes them from the trusted tvm-default build on the device."""

    def __init__(self, task: dict):
        import types

        import numpy as np

        from evaluator.suite.base import Tensor

        self.id, self.level, self.family = task["workload"], task["level"], task["family"]
        self.domains, self.hidden = tuple(task["domains"]), False
        self.flops, self.bytes, self.params = task["flops"], task["bytes"], task["params"]
        self.pattern = types.SimpleNamespace(id=task["pattern"])
        self.has_vendor = bool(task["vendor"])
        self.inputs = [Tensor(**{**t, "shape": tuple(t["shape"])}) for t in task["inputs"]]
        self.outputs = [Tensor(o["name"], tuple(o["shape"]), o["dtype"]) for o in task["outputs"]]
        refs = np.load(PACK / task["refs"])
        self._refs = {tuple(s["sha256"]): [refs[f"s{k}_out{i}"] for i in range(len(self.outputs))]
                      for k, s in enumerate(task["seeds"])}

    def signature(self) -> list[dict]:
        return [{**t.to_json(), "role": "input"} for t in self.inputs] + \
               [{**t.to_json(), "role": "output"} for t in self.outputs]

    def reference(self, arrays) -> list | None:
        return self._refs.get(tuple(hashlib.sha256(a.tobytes()).hexdigest() for a in arrays))


_PIPES: dict = {}


def measure_task(task: dict, manifest: dict) -> dict:
    """One task through the product's runner (``Pipeline.measure``: the kernels' own processes,
    the parent's clock, the checks); a TaskResult's JSON."""
    from evaluator.harness.protocol import Protocol
    from evaluator.pipeline import Artifact, Pipeline
    from evaluator.records import TaskResult

    w = PackedWorkload(task)
    if task["status"] != "built":
        r = TaskResult(w.id, task["backend"], task["status"], task.get("reason", ""),
                       level=w.level, family=w.family, domains=list(w.domains))
        r.detail["note"] = task.get("note", "")
        return r.to_json()
    if task["backend"] not in _PIPES:
        _PIPES[task["backend"]] = Pipeline(task["backend"], Protocol(**{
            k: v for k, v in manifest["protocol"].items() if k != "limits"}), tuned_records=None)
    pipe = _PIPES[task["backend"]]
    baselines = {"tvm-default": Artifact.trusted(PACK / task["baseline"])} if task["baseline"] else {}
    t0 = time.perf_counter()
    r = pipe.measure(w, Artifact.trusted(PACK / task["candidate"]), baselines)
    r.detail["note"] = task.get("note", "")
    r.steps_s["run"] = time.perf_counter() - t0
    return r.to_json()


_PEAKS: dict = {}


def _peak(backend: str) -> dict:
    if backend not in _PEAKS:
        from evaluator.backends import get_backend
        from evaluator.backends.peaks import peaks

        be = get_backend(backend)
        info = be.info()
        _PEAKS[backend] = peaks(info.name, info.device, measure=be.measure_peaks)
    return _PEAKS[backend]


TASK_LIMIT_S = 120  # one task's load, checks and timing together
RESTART, HUNG = 3, 4  # worker exit codes: "start me again after my last task", "the task hung"


def _watchdog(state: dict) -> None:
    """Ends the worker when a task overruns (a kernel that never returns blocks in the driver,
    where no Python signal handler can run)."""
    import threading

    def watch():
        while True:
            time.sleep(1)
            if state.get("deadline") and time.monotonic() > state["deadline"]:
                os._exit(HUNG)

    threading.Thread(target=watch, daemon=True).start()


def cmd_render(args) -> int:
    """Rewrites a report (e.g. into bench/results/) without the boards of unavailable backends."""
    report = json.loads(Path(args.report).read_text())
    report["boards"] = {k: b for k, b in report["boards"].items()
                        if "unavailable" not in report["devices"].get(b["backend"], {})}
    stem = Path(args.out)
    stem.with_suffix(".json").write_text(json.dumps(report, indent=1) + "\n")
    stem.with_suffix(".md").write_text(markdown(report))
    return 0


def cmd_worker(args) -> int:
    """Measures tasks from --start on, one JSON line each; a crash ends only this process."""
    manifest = json.loads((PACK / "manifest.json").read_text())
    state: dict = {}
    _watchdog(state)
    with open(args.results, "a") as out:
        for i, task in enumerate(manifest["tasks"]):
            if i < args.start or task["backend"] not in args.backends:
                continue
            print(f"[{i}] {task['backend']} {task['bundle']} {task['workload']}", file=sys.stderr, flush=True)
            state["deadline"] = time.monotonic() + TASK_LIMIT_S
            res = measure_task(task, manifest)
            state["deadline"] = None
            out.write(json.dumps({"index": i, "bundle": task["bundle"], "result": res}) + "\n")
            out.flush()
            if res["status"] == "runtime_error":
                return RESTART  # a failed launch can leave the device context unusable: start afresh
    return 0


def cmd_measure(args) -> int:
    """Runs workers until every task has a result; a worker that dies marks its task failed."""
    manifest = json.loads((PACK / "manifest.json").read_text())
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    results_path = out_dir / "gpu_matrix.jsonl"
    results_path.unlink(missing_ok=True)
    os.environ.setdefault("EKB_OPENCL_DEVICE", args.opencl_device)  # the GPU, never a CPU fallback
    _register_nvidia_icd()
    devices = _devices(args.backends or manifest["backends"])
    backends = [b for b, d in devices.items() if "unavailable" not in d]
    for b, d in devices.items():
        if b not in backends:
            print(f"skipping {b}: {d['unavailable']}", file=sys.stderr)
    if not backends:
        return 1
    t0 = time.perf_counter()
    todo = [i for i, t in enumerate(manifest["tasks"]) if t["backend"] in backends]
    start = 0
    while todo and start <= todo[-1]:
        log = out_dir / "worker.log"
        proc = subprocess.run([sys.executable, __file__, "worker", "--results", str(results_path), "--start",
                               str(start), "--backends", *backends], stderr=open(log, "a"))
        done = {json.loads(line)["index"] for line in results_path.read_text().splitlines()} \
            if results_path.exists() else set()
        pending = [i for i in todo if i not in done]
        if proc.returncode == 0 or not pending:
            break
        if proc.returncode == RESTART:
            start = pending[0]
            continue
        crashed = pending[0]
        task = manifest["tasks"][crashed]
        status, reason = (("timeout", f"the task did not finish within {TASK_LIMIT_S} s") if proc.returncode == HUNG
                          else ("runtime_error", f"the measuring process died (status {proc.returncode})"))
        with open(results_path, "a") as f:
            f.write(json.dumps({"index": crashed, "bundle": task["bundle"], "result": {
                "workload": task["workload"], "backend": task["backend"], "status": status, "reason": reason,
                "detail": {"output": log.read_text()[-600:]}, "level": task["level"], "family": task["family"],
                "domains": task["domains"]}}) + "\n")
        start = crashed + 1
    report = summarize(manifest, results_path, devices, time.perf_counter() - t0, args.command)
    (out_dir / "gpu_matrix.json").write_text(json.dumps(report, indent=1))
    (out_dir / "gpu_matrix.md").write_text(markdown(report))
    print(markdown(report))
    return 0


def _machine() -> dict:
    m = {"platform": platform.platform(), "python": platform.python_version(), "cpu": platform.processor()}
    try:
        m["gpu"] = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total",
                                   "--format=csv,noheader"], capture_output=True, text=True).stdout.strip()
    except OSError:
        pass
    for mod in ("cupy", "torch", "pyopencl", "numpy", "tvm"):
        try:
            m[mod] = __import__(mod).__version__
        except Exception:  # noqa: BLE001 - not installed there
            pass
    return m


def _register_nvidia_icd() -> None:
    """Shows the NVIDIA driver's OpenCL platform to the ICD loader when /etc/OpenCL/vendors does
    not list it (the lent H200 machine lists only PoCL there): the system's ICDs plus NVIDIA's, in
    a directory named by OCL_ICD_VENDORS."""
    import ctypes

    if os.environ.get("OCL_ICD_VENDORS"):
        return
    system = sorted(Path("/etc/OpenCL/vendors").glob("*.icd"))
    if any("nvidia" in f.read_text().lower() for f in system):
        return
    try:
        ctypes.CDLL("libnvidia-opencl.so.1")
    except OSError:
        return  # no NVIDIA OpenCL driver here
    d = Path(tempfile.mkdtemp(prefix="ekb-icd-"))
    for f in system:
        shutil.copy(f, d / f.name)
    (d / "nvidia.icd").write_text("libnvidia-opencl.so.1\n")
    os.environ["OCL_ICD_VENDORS"] = str(d)


def _devices(backends: list[str]) -> dict:
    """Each backend's device here, or why it is unavailable (its tasks are then not run)."""
    from evaluator.backends import BackendUnavailable, get_backend

    out = {}
    for be in backends:
        try:
            info = get_backend(be).info()
            out[be] = {"device": info.device, "arch": info.arch, "peaks": _peak(be)}
        except BackendUnavailable as e:
            out[be] = {"device": "", "unavailable": str(e)}
    return out


def summarize(manifest: dict, results_path: Path, devices: dict, seconds: float, command: str) -> dict:
    from evaluator import scoring

    rows = [json.loads(line) for line in results_path.read_text().splitlines()]
    rows.sort(key=lambda r: r["index"])
    boards = {}
    for b in manifest["bundles"]:
        for be in devices:
            tasks = [r["result"] for r in rows if r["bundle"] == b and r["result"]["backend"] == be]
            if tasks:
                boards[f"{b} on {be}"] = {"bundle": b, "backend": be, "summary": scoring.summarize(tasks),
                                          "summary_vendor": scoring.summarize(tasks, baseline="vendor"),
                                          "tasks": tasks}
    return {"date": time.strftime("%Y-%m-%d"), "command": command, "machine": _machine(),
            "pack": {k: manifest[k] for k in ("created", "arch", "host", "build_machine")},
            "protocol": manifest["protocol"], "measure_s": seconds, "devices": devices, "boards": boards}


def _fmt(x, spec=".2f") -> str:
    return "–" if x is None else format(x, spec)


def markdown(report: dict) -> str:
    m = report["machine"]
    lines = [f"# GPU backend matrix — {report['date']}", "",
             f"Machine: {m.get('gpu', '?')}; {m['platform']}; Python {m['python']}; CuPy {m.get('cupy', '–')}, "
             f"PyTorch {m.get('torch', '–')}, TVM {m.get('tvm', '–')} (runtime only). Built on "
             f"{report['pack']['build_machine']} for {report['pack']['arch']}, host {report['pack']['host']}.",
             f"Command: `{report['command']}` ({report['measure_s']:.0f} s).",
             "Devices: " + "; ".join(f"{k}: {v.get('device') or v.get('unavailable')}" for k, v in
                                     report["devices"].items()) + ".",
             f"Protocol: {len(report['protocol']['seeds'])} input sets x {report['protocol']['runs_per_seed']} "
             f"runs; samples of at least {report['protocol']['min_sample_s'] * 1e3:g} ms, "
             f"{report['protocol']['min_rounds']}-{report['protocol']['max_rounds']} rounds, "
             f"{report['protocol']['time_budget_s']:g} s per task.", "",
             "Speedups are tvm-default (or vendor) time / candidate time, medians of per-round ratios. "
             "Measured by the product's runner (`Pipeline.measure`): every kernel in its own process, each "
             "sample the evaluating process's clock around a batch of calls on fresh inputs (one arena slot "
             "per call), checked rounds against the NumPy references (seeded sets) or the trusted tvm-default "
             "build (fresh inputs). Vendor on cuda: PyTorch (cuBLAS/cuDNN, TF32 off).", "",
             "| bundle | backend | tasks | Correct@1 | Fast@1.0 | Fast@1.5 | geomean (correct) | vendor Fast@1.0 |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for b in report["boards"].values():
        s, v = b["summary"], b["summary_vendor"]
        lines.append(f"| {b['bundle']} | {b['backend']} | {s['tasks']} | {s['correct@1']:.3f} | {s['fast@1.0']:.3f} "
                     f"| {s['fast@1.5']:.3f} | {_fmt(s['geomean_correct'])} | {v['fast@1.0']:.3f} |")
    for b in report["boards"].values():
        lines += ["", f"## {b['bundle']} on {b['backend']}", "",
                  "| task | status | candidate µs | tvm-default µs | vendor µs | × tvm-default | × vendor | note |",
                  "| --- | --- | --- | --- | --- | --- | --- | --- |"]
        for t in b["tasks"]:
            times = t.get("times", {})
            us = {k: _fmt(v["median_s"] * 1e6, ".1f") for k, v in times.items()}
            sp = t.get("speedup", {})
            note = t.get("reason") or t.get("detail", {}).get("note", "")
            lines.append(f"| {t['workload']} | {t['status']} | {us.get('candidate', '–')} "
                         f"| {us.get('tvm-default', '–')} "
                         f"| {us.get('vendor', '–')} | {_fmt(sp.get('tvm-default'))} | {_fmt(sp.get('vendor'))} "
                         f"| {note[:160].replace('|', '/')} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("pack", help="build everything here (no GPU needed)")
    a.add_argument("--backends", type=lambda s: s.split(","), default=["cuda", "opencl"])
    a.add_argument("--bundles", type=lambda s: s.split(","), default=list(BUNDLES))
    a.add_argument("--arch", default="sm_90", help="the measurement GPU's arch (H200: sm_90)")
    a.add_argument("--host-mcpu", default=DEFAULT_HOST["mcpu"])
    a.add_argument("--tasks", action="append", help="workload glob (repeatable; default: every public task)")
    a.add_argument("--sample", type=int, help="the suite's deterministic representative sample of this size (with --tasks: plus those)")
    a.add_argument("--keep-runtime", action="store_true", help="reuse .gpu/site.tar.xz")
    a.add_argument("--min-sample-ms", type=float, default=1.0,
                   help="calls per timed sample add up to at least this (the protocol's default is 5)")
    a = sub.add_parser("measure", help="run the pack on this machine's GPU")
    a.add_argument("--out", required=True)
    a.add_argument("--backends", nargs="*")
    a.add_argument("--command", default="bench/gpu_matrix.py measure", help="recorded in the report")
    a.add_argument("--opencl-device", default="NVIDIA", help="substring of the OpenCL device to use")
    a = sub.add_parser("render", help="rewrite a measured report as OUT.json and OUT.md")
    a.add_argument("report")
    a.add_argument("out")
    a = sub.add_parser("worker")
    a.add_argument("--results", required=True)
    a.add_argument("--start", type=int, default=0)
    a.add_argument("--backends", nargs="*", required=True)
    args = p.parse_args(argv)
    return {"pack": cmd_pack, "measure": cmd_measure, "render": cmd_render, "worker": cmd_worker}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
