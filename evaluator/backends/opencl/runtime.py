"""The run half of the ``opencl`` backend: pyopencl and NumPy only, no TVM.

An artifact is a JSON document (written by the build half, ``lowering.py``, either from TVM's OpenCL
codegen or from a raw ``opencl-source`` entry) holding everything needed to launch the kernels:

    {"format": "edgekernelbench/opencl-artifact", "version": 1,
     "source": "<OpenCL C>",
     "params": [{"name", "shape", "dtype"}, ...],      # the harness's inputs then outputs
     "workspace": [{"name", "shape", "dtype"[, "data"]}, ...],   # intermediate global buffers
     "kernels": [{"name", "args": [{"buffer": name} | {"scalar": v, "dtype": d}],
                  "global": [..], "local": [..] | null}, ...]}   # in launch order

A build from TVM whose tensors are float16 also carries ``"half_as_float": {"source", "workspace",
"kernels"}``: the same computation with every float16 widened to float32. A device without
``cl_khr_fp16`` (PoCL's CPU device) cannot compile half arithmetic, so it runs that variant:
the float16 tensors stay float16 in memory and are converted on the device (``vload_half`` /
``vstore_half_rte``, core OpenCL) into float32 copies before the kernels and back after, and
those conversions are part of the timed call. Results are then rounded to float16 once, at the
end, instead of after every operation.

A model graph (L3) is the same document: its kernels are the launch plan of every fused function
in binding order, ``params`` are the graph's inputs (data, then weights) and outputs, and
``workspace`` holds its intermediate tensors. A constant tensor of the graph (an index list, say)
is a workspace buffer with ``"data"``: its bytes, little-endian, in base64.

The build step runs submitted code, so the artifact is checked like any other untrusted input.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import re
import time
from dataclasses import dataclass
from functools import cache

import numpy as np

from evaluator.backends.base import BackendUnavailable, Kernel

FORMAT = "edgekernelbench/opencl-artifact"
VERSION = 1
DEVICE_ENV = "EKB_OPENCL_DEVICE"  # substring of "platform: device" picking the device
MAX_KERNELS = 512  # launches per call: a model graph's plan is one per fused kernel
MAX_ARTIFACT_CHARS = 8_000_000
MAX_WORKSPACE_BYTES = 1 << 30
MAX_CONSTANT_BYTES = 4 << 20  # a graph's constant tensors, all together, inside the artifact
MAX_WORK_ITEMS = 1 << 32  # per launch, all dimensions together
MAX_LOG_CHARS = 3000
# Short names for platforms whose official names are long; the identity stays unambiguous.
_PLATFORM_SHORT = {"Portable Computing Language": "PoCL"}
_KEYS = {"format", "version", "source", "params", "workspace", "kernels", "half_as_float"}
_VARIANT_KEYS = {"source", "workspace", "kernels"}
# Core OpenCL C (no extension): half is a storage format, loaded and stored through float.
_CONVERT_SOURCE = """
__kernel void ekb_half_to_float(__global const half* src, __global float* dst) {
  size_t i = get_global_id(0); dst[i] = vload_half(i, src);
}
__kernel void ekb_float_to_half(__global const float* src, __global half* dst) {
  size_t i = get_global_id(0); vstore_half_rte(src[i], i, dst);
}
"""


class OpenCLError(RuntimeError):
    pass


@dataclass(frozen=True)
class Runtime:
    """The chosen OpenCL device with its context and profiling queue (one per process)."""

    platform: object
    device: object
    context: object
    queue: object

    @property
    def identity(self) -> str:
        return device_identity(self.platform, self.device)

    @property
    def has_fp16(self) -> bool:
        return "cl_khr_fp16" in self.device.extensions.split()

    @property
    def arch(self) -> str:
        import pyopencl as cl  # optional dependency, imported on use

        kind = cl.device_type.to_string(self.device.type).replace("ALL | ", "").lower()
        return f"{self.device.opencl_c_version.strip()} ({kind})"


def device_identity(platform, device) -> str:
    name = platform.name.strip()
    return f"{_PLATFORM_SHORT.get(name, name)}: {device.name.strip()}"


# OpenCL drivers do not survive fork (PoCL's worker threads stay in the parent): a child that
# inherits an initialised driver hangs on its first call. Such a child is refused instead.
_driver = {"loaded": False, "inherited": False}


def _after_fork_in_child() -> None:
    _driver["inherited"] = _driver["loaded"]


os.register_at_fork(after_in_child=_after_fork_in_child)


def _devices():
    if _driver["inherited"]:
        raise BackendUnavailable("this process was forked from one that had already loaded the OpenCL "
                                 "driver, which does not survive fork: start it fresh (exec, spawn, or "
                                 "a non-forking worker pool)")
    try:
        import pyopencl as cl  # optional dependency, imported on use
    except ImportError as e:
        raise BackendUnavailable(f"pyopencl is not installed ({e})") from None
    _driver["loaded"] = True
    try:
        platforms = cl.get_platforms()
    except cl.Error as e:  # the ICD loader found no platform
        raise BackendUnavailable(f"no OpenCL platform found: no ICD under /etc/OpenCL/vendors, or "
                                 f"none loads ({e})") from None
    found = []
    for p in platforms:
        try:
            found += [(p, d) for d in p.get_devices()]
        except cl.Error:  # a platform with no usable device (e.g. a driver without its GPU)
            continue
    if not found:
        raise BackendUnavailable(f"the OpenCL platforms {[p.name for p in platforms]} have no usable device")
    return cl, found


def select_device(wanted: str | None):
    """(platform, device): the one ``wanted`` names (a substring of "platform: device", case
    insensitive), else the first GPU, else the first device."""
    cl, found = _devices()
    if wanted:
        hits = [(p, d) for p, d in found if wanted.lower() in device_identity(p, d).lower()
                or wanted.lower() in f"{p.name}: {d.name}".lower()]
        if not hits:
            raise BackendUnavailable(f"no OpenCL device matches {DEVICE_ENV}={wanted!r}; found "
                                     f"{[device_identity(p, d) for p, d in found]}")
        return hits[0]
    gpus = [(p, d) for p, d in found if d.type & cl.device_type.GPU]
    return (gpus or found)[0]


@cache
def _runtime(wanted: str | None) -> Runtime:
    import pyopencl as cl  # optional dependency, imported on use

    platform, device = select_device(wanted)
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx, device, properties=cl.command_queue_properties.PROFILING_ENABLE)
    return Runtime(platform, device, ctx, queue)


def runtime() -> Runtime:
    if _driver["inherited"]:
        _devices()  # raises: the cached runtime belongs to the parent
    return _runtime(os.environ.get(DEVICE_ENV) or None)


# --- programs --------------------------------------------------------------------------------

def build_program(rt: Runtime, source: str, options: list[str] = ()):
    """Compile OpenCL C for the device; a failure raises ValueError carrying the build log."""
    import pyopencl as cl  # optional dependency, imported on use

    program = cl.Program(rt.context, source)
    try:
        return program.build(options=list(options), devices=[rt.device])
    except cl.Error as e:
        try:
            log = program.get_build_info(rt.device, cl.program_build_info.LOG)
        except cl.Error:
            log = ""
        # the compiler names its temporary copy of the source; that path says nothing useful
        log = re.sub(r"\S*tempfile_\w+\.cl", "<source>", (log or str(e)).strip())
        if len(log) > MAX_LOG_CHARS:
            log = log[:MAX_LOG_CHARS] + f"\n… ({len(log) - MAX_LOG_CHARS} more characters)"
        raise ValueError(f"the OpenCL compiler rejected the source ({rt.identity}):\n{log}") from None


def check_local_size(rt: Runtime, kernel, name: str, local: list[int] | None) -> None:
    """A work-group shape the device cannot run is refused here, with the device's limits."""
    import pyopencl as cl  # optional dependency, imported on use

    if local is None:
        return
    limits = rt.device.max_work_item_sizes
    for dim, (size, most) in enumerate(zip(local, limits)):
        if size > most:
            raise ValueError(f"kernel {name!r}: local size {local} has {size} work-items in dimension "
                             f"{dim}; the device allows at most {most} ({rt.identity})")
    total = int(np.prod(local))
    most = kernel.get_work_group_info(cl.kernel_work_group_info.WORK_GROUP_SIZE, rt.device)
    if total > most:
        raise ValueError(f"kernel {name!r}: local size {local} is {total} work-items per work-group; "
                         f"the device runs this kernel with at most {most} ({rt.identity})")


# --- the artifact ----------------------------------------------------------------------------

def _dims(v, what: str, optional: bool = False) -> list[int] | None:
    if v is None and optional:
        return None
    if (not isinstance(v, list) or not 1 <= len(v) <= 3
            or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 1 for x in v)):
        raise ValueError(f"{what} must be 1 to 3 positive integers, got {v!r:.80}")
    return v


def _tensor_spec(t, what: str) -> dict:
    if not isinstance(t, dict) or not isinstance(t.get("name"), str):
        raise ValueError(f"{what}: a tensor needs a name")
    shape = t.get("shape")
    if not isinstance(shape, list) or not all(isinstance(x, int) and x >= 0 for x in shape):
        raise ValueError(f"{what} {t['name']!r}: bad shape {shape!r:.80}")
    np.dtype(t.get("dtype"))  # raises TypeError on an unknown dtype
    return {"name": t["name"], "shape": shape, "dtype": t["dtype"]}


def _workspace_spec(t, what: str) -> dict:
    spec = _tensor_spec(t, what)
    if "data" in t:
        if not isinstance(t["data"], str):
            raise ValueError(f"{what} {spec['name']!r}: data must be base64 text")
        try:
            raw = base64.b64decode(t["data"], validate=True)
        except binascii.Error:
            raise ValueError(f"{what} {spec['name']!r}: data is not valid base64") from None
        want = int(np.prod(spec["shape"], dtype=np.int64)) * np.dtype(spec["dtype"]).itemsize
        if len(raw) != want:
            raise ValueError(f"{what} {spec['name']!r}: data holds {len(raw)} bytes; "
                             f"{spec['dtype']}{spec['shape']} is {want}")
        spec["data"] = raw
    return spec


def parse_artifact(text: str) -> dict:
    if len(text) > MAX_ARTIFACT_CHARS:
        raise ValueError(f"the artifact has {len(text)} characters; the limit is {MAX_ARTIFACT_CHARS}")
    doc = json.loads(text)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("version") != VERSION:
        raise ValueError(f"not an opencl artifact ({FORMAT} version {VERSION})")
    if set(doc) - _KEYS:
        raise ValueError(f"unknown keys in the artifact: {sorted(set(doc) - _KEYS)}")
    params = [_tensor_spec(t, "parameter") for t in doc.get("params", [])]
    out = {**doc, "params": params, **_program(doc, params, "")}
    if "half_as_float" in doc:
        variant = doc["half_as_float"]
        if not isinstance(variant, dict) or set(variant) != _VARIANT_KEYS:
            raise ValueError(f"half_as_float must hold exactly {sorted(_VARIANT_KEYS)}")
        out["half_as_float"] = _program(variant, params, "half_as_float: ")
    return out


def _program(doc: dict, params: list[dict], where: str) -> dict:
    """A source with its workspace and launches, checked against the artifact's limits."""
    if not isinstance(doc.get("source"), str):
        raise ValueError(f"{where}the artifact's source must be text")
    workspace = [_workspace_spec(t, f"{where}workspace buffer") for t in doc.get("workspace", [])]
    names = [t["name"] for t in params + workspace]
    if len(set(names)) != len(names):
        raise ValueError(f"{where}the artifact names a buffer twice")
    constant = sum(len(t["data"]) for t in workspace if "data" in t)
    if constant > MAX_CONSTANT_BYTES:
        raise ValueError(f"{where}the artifact carries {constant} bytes of constant tensors; the limit is "
                         f"{MAX_CONSTANT_BYTES}")
    space = sum(int(np.prod(t["shape"], dtype=np.int64)) * np.dtype(t["dtype"]).itemsize for t in workspace)
    if space > MAX_WORKSPACE_BYTES:
        raise ValueError(f"{where}the kernels need {space >> 20} MiB of workspace; the limit is "
                         f"{MAX_WORKSPACE_BYTES >> 20} MiB")
    kernels = doc.get("kernels")
    if not isinstance(kernels, list) or not 1 <= len(kernels) <= MAX_KERNELS:
        raise ValueError(f"{where}the artifact must list 1 to {MAX_KERNELS} kernel launches")
    for k in kernels:
        if not isinstance(k, dict) or not isinstance(k.get("name"), str) or not isinstance(k.get("args"), list):
            raise ValueError(f"{where}a kernel launch needs a name and args")
        glob = _dims(k.get("global"), f"{where}kernel {k['name']!r}: global size")
        local = _dims(k.get("local"), f"{where}kernel {k['name']!r}: local size", optional=True)
        if local is not None and len(local) != len(glob):
            raise ValueError(f"{where}kernel {k['name']!r}: local size {local} and global size {glob} differ in rank")
        if int(np.prod(glob, dtype=np.int64)) > MAX_WORK_ITEMS:
            raise ValueError(f"{where}kernel {k['name']!r}: global size {glob} exceeds {MAX_WORK_ITEMS} work-items")
        for a in k["args"]:
            if isinstance(a, dict) and a.get("buffer") in names:
                continue
            if isinstance(a, dict) and "scalar" in a and isinstance(a["scalar"], (int, float)):
                np.dtype(a.get("dtype"))
                continue
            raise ValueError(f"{where}kernel {k['name']!r}: argument {a!r:.80} is neither a known buffer nor a scalar")
    return {"source": doc["source"], "workspace": workspace, "kernels": kernels}


def runs_as(rt: Runtime, doc: dict) -> dict:
    """The program this device runs: the artifact's own, or its float32 variant on a device
    without half arithmetic."""
    if "half_as_float" in doc and not rt.has_fp16:
        return doc["half_as_float"]
    return doc


# --- tensors and kernels ---------------------------------------------------------------------

class ClTensor:
    """A device buffer with its shape and dtype: what the harness's run step handles."""

    def __init__(self, rt: Runtime, array: np.ndarray):
        import pyopencl as cl  # optional dependency, imported on use

        a = np.ascontiguousarray(array)
        self.rt, self.shape, self.dtype = rt, tuple(a.shape), str(a.dtype)
        flags = cl.mem_flags.READ_WRITE
        if a.nbytes:
            self.buffer = cl.Buffer(rt.context, flags | cl.mem_flags.COPY_HOST_PTR, hostbuf=a)
        else:  # OpenCL has no empty buffers
            self.buffer = cl.Buffer(rt.context, flags, 1)

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) * np.dtype(self.dtype).itemsize

    def numpy(self) -> np.ndarray:
        import pyopencl as cl  # optional dependency, imported on use

        out = np.empty(self.shape, self.dtype)
        if out.nbytes:
            cl.enqueue_copy(self.rt.queue, out, self.buffer, is_blocking=True)
        return out

    def copyfrom(self, array) -> "ClTensor":
        import pyopencl as cl  # optional dependency, imported on use

        a = np.ascontiguousarray(array)
        if tuple(a.shape) != self.shape or str(a.dtype) != self.dtype:
            raise ValueError(f"copyfrom: got {a.dtype}{list(a.shape)}, the tensor is {self.dtype}{list(self.shape)}")
        if a.nbytes:
            cl.enqueue_copy(self.rt.queue, self.buffer, a, is_blocking=True)
        return self


def _initial(t: dict) -> np.ndarray:
    """A workspace buffer's contents when the artifact is loaded: its constant's, or zeros."""
    if "data" in t:
        return np.frombuffer(t["data"], np.dtype(t["dtype"]).newbyteorder("<")).astype(t["dtype"]).reshape(t["shape"])
    return np.zeros(t["shape"], t["dtype"])


class ClKernel(Kernel):
    """The artifact's kernels, launched in order on one in-order queue."""

    def __init__(self, rt: Runtime, doc: dict):
        import pyopencl as cl  # optional dependency, imported on use

        self.rt, self.doc = rt, doc
        program = runs_as(rt, doc)
        # float16 tensors the float32 variant reads through float32 copies (see the module doc)
        self.widened = ({p["name"] for p in doc["params"] if p["dtype"] == "float16"}
                        if program is not doc else set())
        self.program = build_program(rt, program["source"])
        self.launches = []
        defined = {k.function_name for k in self.program.all_kernels()}
        for k in program["kernels"]:
            if k["name"] not in defined:
                raise ValueError(f"the source defines no kernel {k['name']!r} (it has {sorted(defined)})")
            kernel = cl.Kernel(self.program, k["name"])
            if kernel.num_args != len(k["args"]):
                raise ValueError(f"kernel {k['name']!r} takes {kernel.num_args} arguments; "
                                 f"the launch passes {len(k['args'])}")
            check_local_size(rt, kernel, k["name"], k.get("local"))
            self.launches.append((kernel, k))
        # intermediate buffers live as long as the kernel; their contents never leave it
        self.workspace = {t["name"]: ClTensor(rt, _initial(t)) for t in program["workspace"]}
        self.copies = {p["name"]: ClTensor(rt, np.zeros(p["shape"], np.float32))
                       for p in doc["params"] if p["name"] in self.widened}
        if self.widened:
            convert = build_program(rt, _CONVERT_SOURCE)
            self.to_float = cl.Kernel(convert, "ekb_half_to_float")
            self.to_half = cl.Kernel(convert, "ekb_float_to_half")

    def _bind(self, inputs, outputs) -> list:
        params = self.doc["params"]
        given = list(inputs) + list(outputs)
        if len(given) != len(params):
            raise ValueError(f"the kernel takes {len(params)} tensors ({[p['name'] for p in params]}), "
                             f"got {len(given)}")
        buffers = dict(self.workspace)
        before, after = [], []  # float16 tensors converted into their float32 copies and back
        for i, (p, t) in enumerate(zip(params, given)):
            if tuple(t.shape) != tuple(p["shape"]) or str(t.dtype) != p["dtype"]:
                raise ValueError(f"tensor {p['name']!r}: got {t.dtype}{list(t.shape)}, the kernel takes "
                                 f"{p['dtype']}{p['shape']}")
            buffers[p["name"]] = t
            if p["name"] in self.widened and t.nbytes:
                copy = buffers[p["name"]] = self.copies[p["name"]]
                size = (int(np.prod(p["shape"], dtype=np.int64)),)
                before.append((self.to_float, (t.buffer, copy.buffer), size))
                if i >= len(inputs):
                    after.append((self.to_half, (copy.buffer, t.buffer), size))
        bound = []
        for kernel, k in self.launches:
            args = [buffers[a["buffer"]].buffer if "buffer" in a
                    else np.array(a["scalar"], dtype=a["dtype"]) for a in k["args"]]
            bound.append((kernel, args, tuple(k["global"]), tuple(k["local"]) if k.get("local") else None))
        return [(kernel, args, size, None) for kernel, args, size in before] + bound + \
            [(kernel, args, size, None) for kernel, args, size in after]

    def _enqueue(self, bound) -> list:
        import pyopencl as cl  # optional dependency, imported on use

        events = []
        for kernel, args, glob, local in bound:
            # arguments are set at each launch: one kernel object may appear twice with different
            # buffers (the conversions), and the queue takes the arguments as they are at enqueue
            kernel.set_args(*args)
            events.append(cl.enqueue_nd_range_kernel(self.rt.queue, kernel, glob, local))
        return events

    def __call__(self, inputs, outputs):
        self._enqueue(self._bind(inputs, outputs))
        self.rt.queue.finish()
        return list(outputs)

    def timer(self, inputs, outputs, number):
        """Device time per call: the sum of every launch's profiled start-to-end, so the gaps
        while the host enqueues (pyopencl costs ~15 µs a launch) are not the kernel's. Refused
        when it exceeds the host's wall clock around the same calls."""

        def run() -> float:
            # bound on every run: another call may have bound these kernels to other tensors
            bound = self._bind(inputs, outputs)
            t0 = time.perf_counter()
            events = []
            for _ in range(number):
                events += self._enqueue(bound)
            events[-1].wait()  # the queue is in order: every earlier launch has ended too
            wall = time.perf_counter() - t0
            device = sum(e.profile.end - e.profile.start for e in events) * 1e-9
            if device > wall * 1.05 + 1e-4:
                raise OpenCLError(f"the device's profiling clock reports {device * 1e3:.3f} ms for "
                                  f"{number} calls but the host saw {wall * 1e3:.3f} ms: its events "
                                  "cannot be trusted")
            return device / number

        return run


# --- peaks -----------------------------------------------------------------------------------

_PEAK_SOURCE = """
__kernel void copy(__global const float4* src, __global float4* dst) {
  size_t i = get_global_id(0);
  dst[i] = src[i];
}
__kernel void fma_chains(__global float* out, float seed) {
  /* 8 independent chains of 16-wide vector FMAs: enough in flight for a CPU's FMA units and
     for a GPU thread's instruction-level parallelism */
  float16 x = (float16)(seed + get_global_id(0));
  float16 a0 = x, a1 = x + 1.0f, a2 = x + 2.0f, a3 = x + 3.0f, a4 = x + 4.0f, a5 = x + 5.0f,
          a6 = x + 6.0f, a7 = x + 7.0f;
  const float16 m = (float16)(0.999f), c = (float16)(0.001f);
  for (int i = 0; i < 128; ++i) {
    a0 = fma(a0, m, c); a1 = fma(a1, m, c); a2 = fma(a2, m, c); a3 = fma(a3, m, c);
    a4 = fma(a4, m, c); a5 = fma(a5, m, c); a6 = fma(a6, m, c); a7 = fma(a7, m, c);
  }
  float16 s = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
  float8 h = s.lo + s.hi;
  float4 q = h.lo + h.hi;
  out[get_global_id(0)] = q.x + q.y + q.z + q.w;
}
"""


def measure_peaks(rt: Runtime | None = None) -> dict:
    """The device's sustained FLOP/s (independent FMA chains) and bytes/s (the best of a
    DRAM-sized and a cache-sized copy, as ``peaks.measure_cpu``), timed with its own events."""
    import pyopencl as cl  # optional dependency, imported on use

    rt = rt or runtime()
    program = build_program(rt, _PEAK_SOURCE)

    def best(launch, repeats: int = 5) -> float:
        launch().wait()
        times = []
        for _ in range(repeats):
            ev = launch()
            ev.wait()
            times.append((ev.profile.end - ev.profile.start) * 1e-9)
        return min(times)

    items = 1 << 18
    out = cl.Buffer(rt.context, cl.mem_flags.WRITE_ONLY, items * 4)
    fma = cl.Kernel(program, "fma_chains")
    fma.set_args(out, np.float32(1.0))
    flops = items * 128 * 8 * 16 * 2 / best(lambda: cl.enqueue_nd_range_kernel(rt.queue, fma, (items,), None))
    bws = {}
    for label, nbytes in (("dram", 128 << 20), ("cache", 1 << 20)):
        src = cl.Buffer(rt.context, cl.mem_flags.READ_ONLY, nbytes)
        dst = cl.Buffer(rt.context, cl.mem_flags.WRITE_ONLY, nbytes)
        copy = cl.Kernel(program, "copy")
        copy.set_args(src, dst)
        seconds = best(lambda: cl.enqueue_nd_range_kernel(rt.queue, copy, (nbytes // 16,), None), repeats=10)
        bws[label] = 2 * nbytes / seconds
    return {"flops_per_s": flops, "bytes_per_s": max(bws.values()), "dram_bytes_per_s": bws["dram"],
            "cache_bytes_per_s": bws["cache"],
            "method": "OpenCL kernels timed by profiling events: 2^18 work-items x 8 float16 FMA chains "
                      "x 128; "
                      "float4 copy of 128 MiB (dram) and 1 MiB (cache), best of both",
            "device": rt.identity, "measured_at": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
