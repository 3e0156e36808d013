"""``cuda``: NVIDIA GPUs through TVM's CUDA code generator.

:class:`CudaBuilder` (any machine; no GPU, driver or nvcc needed, given the target's arch): TVM
emits CUDA C for the device functions and LLVM code for the host side; ``export_library`` embeds
the CUDA C in the library. :class:`CudaRunner` (a machine with the NVIDIA driver): the CUDA C is
compiled to a cubin when the library is loaded (NVRTC, through TVM's ``tvm_callback_cuda_compile``,
with the device's arch and a cache keyed by the source), CuPy provides CUDA events, the L2 flush
and NVRTC for ``cuda-source`` entries, and PyTorch (cuBLAS/cuDNN) is the ``vendor`` baseline. The
runner works with a runtime-only TVM (``TVM_USE_RUNTIME_LIB=1``), as on a measurement machine.
:class:`Cuda` is the two, for a machine with the GPU.

Timing (``DeviceClock``): every timed call is preceded by a write of twice the L2 size, which is
not timed, and bracketed by its own pair of CUDA events; the flush keeps the GPU busy while the
host queues the next call, so host launch gaps do not land between the events. The events' sum is
checked against the host clock around the batch.
"""

from __future__ import annotations

import ctypes
import hashlib
import importlib.util
import json
import os
import re
import time
from functools import cache
from pathlib import Path

import numpy as np

from evaluator.backends.base import Backend, BackendInfo, BackendUnavailable, DeviceRunner, Kernel, TargetBuilder
from evaluator.backends.cpu_llvm import host_target
from evaluator.backends.peaks import cache_dir
from evaluator.baselines import dlight_default, vendor_torch
from evaluator.baselines.policy import Dlight
from evaluator.formats import raw_source
from evaluator.ir.layered_trace import _is_graph
from evaluator.sandbox import DevicePaths, driver_library_dirs, nvidia_device_nodes
from evaluator.vocabulary import BackendKind

RAW_FORMAT = "edgekernelbench/cuda-source-artifact"
MAX_EVENTS = 1 << 17  # event pairs kept per clock (one per call of the largest timed batch)
# CUDA driver API constants (cuda.h)
_CUDA_ERROR_NO_DEVICE = 100
_ATTR_SM_COUNT, _ATTR_L2_BYTES, _ATTR_CC_MAJOR, _ATTR_CC_MINOR = 16, 38, 75, 76
_ATTR_THREADS, _ATTR_SHARED, _ATTR_WARP = 1, 8, 10
# Per-block limits of every NVIDIA GPU since Volta (shared memory without the opt-in), for a
# build without the device at hand.
LIMITS = {"max_threads_per_block": 1024, "max_shared_memory_per_block": 48 * 1024, "thread_warp_size": 32}


# --- availability ----------------------------------------------------------------------------

@cache
def driver() -> tuple[str, dict]:
    """(why the backend is unavailable or "", the device's facts), from the CUDA driver API.

    Uses ctypes only, so asking costs no TVM, CuPy or PyTorch import."""
    try:
        lib = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return "no NVIDIA driver on this machine (libcuda.so.1 not found)", {}
    rc = lib.cuInit(0)
    if rc == _CUDA_ERROR_NO_DEVICE:
        return "the NVIDIA driver finds no CUDA device (cuInit: CUDA_ERROR_NO_DEVICE)", {}
    if rc != 0:
        return f"the CUDA driver failed to initialise (cuInit error {rc})", {}
    count = ctypes.c_int(0)
    if lib.cuDeviceGetCount(ctypes.byref(count)) != 0 or count.value < 1:
        return "the NVIDIA driver finds no CUDA device", {}
    dev = ctypes.c_int(0)
    lib.cuDeviceGet(ctypes.byref(dev), 0)
    name = ctypes.create_string_buffer(256)
    lib.cuDeviceGetName(name, 256, dev)

    def attr(code: int) -> int:
        v = ctypes.c_int(0)
        lib.cuDeviceGetAttribute(ctypes.byref(v), code, dev)
        return v.value

    major, minor = attr(_ATTR_CC_MAJOR), attr(_ATTR_CC_MINOR)
    limits = {"max_threads_per_block": attr(_ATTR_THREADS), "max_shared_memory_per_block": attr(_ATTR_SHARED),
              "thread_warp_size": attr(_ATTR_WARP)}
    return "", {"name": name.value.decode(errors="replace"), "arch": f"sm_{major}{minor}",
                "l2_bytes": attr(_ATTR_L2_BYTES), "sms": attr(_ATTR_SM_COUNT), "devices": count.value,
                "limits": limits}


def _missing_packages() -> str:
    if importlib.util.find_spec("cupy") is None:
        return "CuPy is not installed (the cuda backend times with CUDA events and runs cuda-source through it)"
    return ""


def why_unavailable() -> str:
    """Why this machine cannot run cuda kernels ("" when it can)."""
    why, _ = driver()
    return why or _missing_packages()


def gpu_target(arch: str, limits: dict, host: dict | None = None) -> dict:
    """The TVM target of a GPU: what TVM's own device detection gives (arch and per-block
    limits), plus the host's."""
    return {"kind": "cuda", "arch": arch, **limits, "host": host or _host_target()}


# --- TVM's CUDA runtime ----------------------------------------------------------------------

@cache
def _runtime(arch: str) -> None:
    """Make TVM's CUDA runtime usable in this process.

    A runtime-only TVM does not load ``libtvm_runtime_cuda`` by itself, and its default compile
    callback asks the (absent) compiler for the target's arch; the callback installed here is
    told the arch and keeps each cubin in a cache keyed by arch and source."""
    # heavy: TVM is imported on use, never with this module
    import tvm
    import tvm_ffi
    from tvm.base import _LOADED_LIBS

    if "tvm_runtime_cuda" not in _LOADED_LIBS:
        from tvm_ffi.libinfo import load_lib_ctypes

        lib_dir = Path(_LOADED_LIBS["tvm_runtime"]._name).resolve().parent  # noqa: SLF001 - ctypes' path
        _LOADED_LIBS["tvm_runtime_cuda"] = load_lib_ctypes(
            package="tvm", target_name="tvm_runtime_cuda", extra_lib_paths=[lib_dir], mode="RTLD_LOCAL")

    @tvm_ffi.register_global_func("tvm_callback_cuda_compile", override=True)
    def _compile(code, *_):
        return compile_cubin(code, arch)

    if not tvm.cuda(0).exist:
        raise BackendUnavailable("TVM's CUDA runtime sees no device")


def cubin_path(code: str, arch: str) -> Path:
    """Where the cubin of this CUDA C for this arch is cached (``EKB_CACHE_DIR``)."""
    key = hashlib.sha256(f"{arch}\0{code}".encode()).hexdigest()[:32]
    return cache_dir() / "cuda-cubin" / f"{key}-{arch}.cubin"


def compile_cubin(code: str, arch: str, compiler: str | None = None) -> bytes:
    """CUDA C → cubin, cached. ``compiler``: "nvrtc" (default) or "nvcc" (``TVM_CUDA_COMPILE_MODE``)."""
    path = cubin_path(code, arch)
    if path.is_file():
        return path.read_bytes()
    # heavy: TVM is imported on use, never with this module
    import tvm
    from tvm.support import nvcc

    compiler = compiler or os.environ.get("TVM_CUDA_COMPILE_MODE", "nvrtc")
    if compiler == "nvcc":
        # TVM's nvcc path also reads the current target for the arch
        with tvm.target.Target({"kind": "cuda", "arch": arch}):
            binary = bytes(nvcc.compile_cuda(code, target_format="cubin", arch=arch, compiler="nvcc"))
    else:
        binary = bytes(nvcc.compile_cuda(code, target_format="cubin", arch=arch, compiler="nvrtc"))
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_bytes(binary)
    tmp.rename(path)  # atomic: a concurrent reader never sees half a cubin
    return binary


def cuda_sources(path_or_module) -> list[str]:
    """The CUDA C embedded in a built module (what ``compile_cubin`` will be asked for)."""
    mod = path_or_module
    out = []
    for m in mod.imports:
        if m.kind == "cuda":
            out.append(m.inspect_source())
        out += cuda_sources(m)
    return out


# --- timing ----------------------------------------------------------------------------------

class DeviceClock:
    """Device time of calls, each from a cold L2, measured with CUDA events on the default stream.

    ``per_call(launch, number)``: for each of ``number`` calls, overwrite a buffer twice the L2
    size (untimed), record a start event, launch, record an end event; then wait once and sum
    the events. TVM kernels, CuPy kernels and PyTorch all launch on the legacy default stream, so
    the events order with every one of them."""

    def __init__(self, l2_bytes: int):
        import cupy  # optional: GPU machines only

        self.cupy = cupy
        self.flush_bytes = max(2 * l2_bytes, 8 << 20)
        self._flush = cupy.empty(self.flush_bytes // 4, dtype=cupy.int32)
        self._events: list = []
        self.last = (0.0, 0.0)  # (device seconds, host seconds) of the last batch

    def flush(self, value: int = 1) -> None:
        self._flush.fill(value & 0x7FFFFFFF)

    def _pairs(self, n: int) -> list:
        if n > MAX_EVENTS:
            raise ValueError(f"a timed batch of {n} calls exceeds the {MAX_EVENTS} events kept")
        Event = self.cupy.cuda.Event
        while len(self._events) < n:
            self._events.append((Event(), Event()))
        return self._events[:n]

    def per_call(self, launch, number: int) -> float:
        pairs = self._pairs(number)
        self.cupy.cuda.Device().synchronize()
        t0 = time.perf_counter()
        for i, (start, end) in enumerate(pairs):
            self.flush(i + 1)
            start.record()
            launch()
            end.record()
        pairs[-1][1].synchronize()
        host = time.perf_counter() - t0
        elapsed = self.cupy.cuda.get_elapsed_time
        device = sum(elapsed(s, e) for s, e in pairs) * 1e-3
        self.last = (device, host)
        # the events are inside the host's interval: more device time than wall time means
        # the events did not bracket the work (another stream, a broken clock)
        if device > host * 1.05 + 1e-4:
            raise RuntimeError(f"CUDA events report {device:.6f} s for {number} calls but the host "
                               f"clock saw {host:.6f} s; the device timing cannot be trusted")
        return device / number


# --- kernels ---------------------------------------------------------------------------------

class _TvmKernel(Kernel):
    """A TVM-built module (a PrimFunc's ``main`` or a Relax VM) on the GPU."""

    def __init__(self, module, dev, graph: bool, clock: DeviceClock):
        self.dev, self.graph, self.clock = dev, graph, clock
        if graph:
            from tvm.runtime.vm import VirtualMachine  # heavy: TVM is imported on use, never with this module

            self.fn = VirtualMachine(module, dev)["main"]
        else:
            self.fn = module["main"]

    def launch(self, inputs, outputs):
        out = self.fn(*inputs) if self.graph else self.fn(*inputs, *outputs)
        if self.graph:
            return list(out) if isinstance(out, (list, tuple)) else [out]
        return list(outputs)

    def __call__(self, inputs, outputs):
        out = self.launch(inputs, outputs)
        self.dev.sync()  # one call means a finished call
        return out

    def sync(self):
        self.dev.sync()

    def timer(self, inputs, outputs, number):
        args = list(inputs) if self.graph else list(inputs) + list(outputs)
        fn = self.fn
        return lambda: self.clock.per_call(lambda: fn(*args), number)


class _TorchVendor(Kernel):
    def __init__(self, torch, fn):
        self.torch, self.fn, self._views = torch, fn, {}

    def launch(self, inputs, outputs):
        key = tuple(id(t) for t in inputs)
        if key not in self._views:  # zero-copy views of the slot's TVM tensors, made once
            self._views[key] = [self.torch.from_dlpack(t) for t in inputs]
        self.fn(self.torch, *self._views[key])
        return []

    def __call__(self, inputs, outputs):
        self.launch(inputs, outputs)
        self.sync()
        return []

    def sync(self):
        self.torch.cuda.synchronize()


class _RawKernel(Kernel):
    """A ``cuda-source`` entry: compiled with NVRTC (CuPy) and launched with the manifest's sizes."""

    def __init__(self, doc: dict, clock: DeviceClock):
        import cupy  # optional: GPU machines only

        self.cupy, self.clock = cupy, clock
        self.grid, self.block = tuple(doc["grid"]), tuple(doc["block"])
        self.shared = int(doc.get("shared_bytes", 0))
        self.order = list(doc["order"])
        shape = doc.get("shape", [])
        if not isinstance(shape, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in shape):
            raise ValueError("the cuda artifact's shape arguments must be a list of integers")
        self.shape = tuple(np.int64(v) for v in shape)
        module = cupy.RawModule(code=doc["source"], options=("-std=c++17",))
        try:
            self.fn = module.get_function(doc["entry"])
        except cupy.cuda.compiler.CompileException as e:
            raise ValueError(f"NVRTC: {_trim(str(e))}") from None
        if self.shared > 48 * 1024:  # above the default limit a kernel must opt in
            self.fn.max_dynamic_shared_size_bytes = self.shared

    def _args(self, inputs, outputs) -> tuple:
        tensors = list(inputs) + list(outputs)
        # device pointers passed by value: zero-copy, whatever owns the memory
        return tuple(np.uintp(tensors[i].data_ptr()) for i in self.order) + self.shape

    def launch(self, inputs, outputs):
        self.fn(self.grid, self.block, self._args(inputs, outputs), shared_mem=self.shared)
        return list(outputs)

    def __call__(self, inputs, outputs):
        self.launch(inputs, outputs)
        self.sync()
        return list(outputs)

    def sync(self):
        self.cupy.cuda.Device().synchronize()

    def timer(self, inputs, outputs, number):
        args, fn, grid, block, shared = self._args(inputs, outputs), self.fn, self.grid, self.block, self.shared
        return lambda: self.clock.per_call(lambda: fn(grid, block, args, shared_mem=shared), number)


def _trim(text: str, limit: int = 3000) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[:limit] + " …"


# --- cuda-source: the static check ----------------------------------------------------------

# scalar type names a kernel parameter may use for each dtype
_INT64_TYPES = {"long long", "int64_t", "long", "long long int", "signed long long"}
_CUDA_TYPES = {"float32": {"float"}, "float64": {"double"}, "float16": {"half", "__half"},
               "int8": {"int8_t", "char", "signed char"}, "uint8": {"uint8_t", "unsigned char"},
               "int16": {"int16_t", "short"}, "int32": {"int32_t", "int"}, "int64": {"int64_t", "long long"},
               "bool": {"bool"}}
_BOUNDS = r"(?:__launch_bounds__\s*\([^)]*\)\s*)?"
_KERNEL = re.compile(r"__global__\s+" + _BOUNDS + r"void\s+" + _BOUNDS + r"(\w+)\s*\(")
_QUALIFIERS = re.compile(r"\b(const|__restrict__|restrict|volatile)\b")


def kernel_params(source: str, entry: str) -> list[str]:
    """The parameter declarations of ``extern "C" __global__ void entry(...)``; ValueError when
    the source has no such kernel."""
    if not re.search(r'extern\s+"C"', source):
        raise ValueError(f"the entry kernel must be declared extern \"C\" (so that {entry!r} is its "
                         "symbol name)")
    m = re.search(_KERNEL.pattern.replace(r"(\w+)", re.escape(entry)), source)
    if not m:
        found = _KERNEL.findall(source)
        raise ValueError(f"the source defines no __global__ kernel {entry!r}; it defines {found}")
    depth, i, start = 1, m.end(), m.end()
    while i < len(source) and depth:
        depth += {"(": 1, ")": -1}.get(source[i], 0)
        i += 1
    body = source[start:i - 1]
    params, depth, cur = [], 0, ""
    for ch in body:  # split on top-level commas (templates and attributes may hold commas)
        depth += {"(": 1, "<": 1, ")": -1, ">": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            params.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip() and cur.strip() != "void":
        params.append(cur.strip())
    return params


def check_signature(source: str, entry: str, tensors: list[dict], shape_args: list[str] = ()) -> None:
    """Every parameter a pointer to its bound tensor's dtype, one per tensor in ``args`` order,
    then a 64-bit integer per name in ``shape_args``."""
    params = kernel_params(source, entry)
    if len(params) != len(tensors) + len(shape_args):
        shape = f" and 'shape_args' {len(shape_args)} integers" if shape_args else ""
        raise ValueError(f"kernel {entry!r} takes {len(params)} parameters but launch 'args' lists "
                         f"{len(tensors)} tensors ({[t['name'] for t in tensors]}){shape}")
    for i, (decl, name) in enumerate(zip(params[len(tensors):], shape_args), start=len(tensors)):
        base = " ".join(_QUALIFIERS.sub(" ", decl).split()[:-1])
        if "*" in decl or base not in _INT64_TYPES:
            raise ValueError(f"kernel {entry!r} parameter {i} ('{decl}') must be a 64-bit integer "
                             f"({' or '.join(sorted(_INT64_TYPES))}): 'shape_args' passes {name!r} there")
    for i, (decl, t) in enumerate(zip(params, tensors)):
        if "*" not in decl:
            raise ValueError(f"kernel {entry!r} parameter {i} ('{decl}') is not a pointer; launch "
                             f"'args' binds tensor {t['name']!r} ({t['dtype']}{t['shape']}) to it")
        base = " ".join(_QUALIFIERS.sub(" ", decl.split("*")[0]).split())
        want = _CUDA_TYPES.get(t["dtype"])
        if want is not None and base not in want:
            raise ValueError(f"kernel {entry!r} parameter {i} ('{decl}') points to '{base}' but launch "
                             f"'args' binds tensor {t['name']!r}, which is {t['dtype']} "
                             f"('{sorted(want)[0]}*')")


# --- the backend: its builder and its runner --------------------------------------------------

class CudaBuilder(TargetBuilder):
    """``arch``/``host``/``limits``: build for that GPU arch and host target without asking the
    driver (a build machine without a GPU, building for a measurement machine)."""

    name = BackendKind.CUDA
    vendor_baseline = False  # NumPy on the host is no GPU library; PyTorch is (vendor_spec)
    # dlight; a model-graph function a trace leaves unnamed gets it too (``compile`` applies it to
    # every function of a graph left without thread bindings)
    baseline = Dlight("cuda", unnamed="dlight")

    def __init__(self, arch: str | None = None, host: dict | None = None, limits: dict | None = None):
        self._arch, self._host, self._limits = arch, host, limits

    @classmethod
    def for_target(cls, target: dict | None) -> "CudaBuilder":
        """Builds for the GPU ``target`` names (its ``arch``, e.g. sm_90, and ``host``), which
        need not be here; without one, for this machine's GPU."""
        if not target:
            return cls()
        if not re.fullmatch(r"sm_\d{2,3}[a-z]?", str(target.get("arch", ""))):
            raise BackendUnavailable(f"backend 'cuda': a build target needs an arch like 'sm_90', not "
                                     f"{target.get('arch')!r}")
        host = target.get("host")
        limits = {k: int(target[k]) for k in LIMITS if isinstance(target.get(k), int)}
        return cls(arch=target["arch"], host=host if isinstance(host, dict) else None,
                   limits={**LIMITS, **limits})

    def target(self) -> dict:
        """The given arch and limits, else this machine's GPU's (the driver's), plus the host."""
        arch, limits = self._arch, self._limits or LIMITS
        if arch is None:
            why, facts = driver()
            if why:
                raise BackendUnavailable(f"backend 'cuda' is unavailable: {why}; pass an explicit arch "
                                         "to build for a GPU elsewhere")
            arch, limits = facts["arch"], facts["limits"]
        return gpu_target(arch, limits, self._host)

    def compile(self, mod):
        """The compiled module (host code plus the embedded CUDA C; see ``cuda_sources``)."""
        import tvm  # heavy: TVM is imported on use, never with this module

        if _is_graph(mod):
            mod = dlight_default.schedule_unbound(mod, self.target())
        unbound = _unbound_functions(mod)
        if unbound:
            # TVM would compile such a function as host code that dereferences device memory
            raise ValueError(f"nothing of {unbound} runs on the GPU: bind loops to blockIdx.* and "
                             "threadIdx.* (schedule primitive 'bind'); CPU schedules (parallel, "
                             "vectorize) do not carry over to cuda")
        return tvm.compile(mod, target=tvm.target.Target(self.target()))

    def build(self, mod, path: str) -> None:
        self.compile(mod).export_library(path)

    def build_source(self, fmt: str, source: str, launch: dict, tensors: list[dict], path: str) -> None:
        if fmt != "cuda-source":
            return super().build_source(fmt, source, launch, tensors, path)
        launch = raw_source.resolve_sizes(fmt, launch)
        bound = raw_source.bind_args(launch, tensors)
        check_signature(source, launch["entry"], bound, launch.get("shape_args") or [])
        position = {t["name"]: i for i, t in enumerate(tensors)}
        doc = {"format": RAW_FORMAT, "version": 1, "source": source, "entry": launch["entry"],
               "order": [position[t["name"]] for t in bound], "args": [t["name"] for t in bound],
               "shape": raw_source.shape_values(launch),
               "grid": list(launch["grid"]), "block": list(launch["block"]),
               "shared_bytes": int(launch.get("shared_bytes", 0) or 0)}
        if not why_unavailable():  # a GPU here: compile now, so a compile error is a build error
            _RawKernel(doc, clock=None)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f)

    def vendor_spec(self, w) -> dict | None:
        if w.pattern.id not in vendor_torch.CALLS:
            return None
        return {"pattern": w.pattern.id, "params": w.params}

    def registry_calls(self, w) -> bool:
        return True  # a CUDA host library launches its device kernels through the registry


class CudaRunner(DeviceRunner):
    """This machine's GPU (device 0): loading, the CUDA-event clock, PyTorch as the vendor call,
    the peaks, and the driver's nodes and libraries for the sandbox."""

    name = BackendKind.CUDA

    def __init__(self):
        self._clock = None

    def device_paths(self) -> DevicePaths:
        return DevicePaths(nvidia_device_nodes(), driver_library_dirs())

    def unavailable(self) -> str:
        return why_unavailable()

    def device_target(self) -> dict:
        why, facts = driver()
        if why:
            raise BackendUnavailable(f"backend 'cuda' is unavailable: {why}")
        return gpu_target(facts["arch"], facts["limits"])

    def info(self) -> BackendInfo:
        why, facts = driver()
        why = why or _missing_packages()
        target = {} if why else self.device_target()
        device = f"{facts['name']} ({facts['sms']} SMs, L2 {facts['l2_bytes'] >> 20} MiB)" if facts else ""
        return BackendInfo(self.name, not why, why, device, target.get("arch", ""), target)

    def device(self):
        import tvm  # heavy: TVM is imported on use, never with this module

        _runtime(self.device_target()["arch"])
        return tvm.cuda(0)

    def clock(self) -> DeviceClock:
        if self._clock is None:
            _, facts = driver()
            self._clock = DeviceClock(facts.get("l2_bytes", 0))
        return self._clock

    def load(self, path: str, graph: bool) -> Kernel:
        with open(path, "rb") as f:
            head = f.read(1)
        if head == b"{":
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
            if doc.get("format") != RAW_FORMAT:
                raise ValueError(f"{path}: not a cuda artifact")
            if graph:
                raise ValueError("a cuda-source entry cannot stand for a model graph")
            self.device()
            return _RawKernel(doc, self.clock())
        import tvm  # heavy: TVM is imported on use, never with this module

        dev = self.device()
        return _TvmKernel(tvm.runtime.load_module(path), dev, graph, self.clock())

    def vendor_kernel(self, spec: dict) -> Kernel:
        """PyTorch on the GPU (``evaluator/baselines/vendor_torch.py``) over the slot's tensors."""
        fn = vendor_torch.call(spec["pattern"], spec["params"])
        if fn is None:
            raise ValueError(f"no PyTorch call for {spec['pattern']}")
        import torch  # optional and heavy: GPU machines only, for the vendor baseline

        # fp32 in fp32: the candidates are held to fp32 tolerances, so the vendor is too
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        return _TorchVendor(torch, fn)

    def measure_peaks(self) -> dict:
        return measure_gpu(self.clock())


class Cuda(CudaBuilder, CudaRunner, Backend):
    """Both halves: built for ``arch``/``host``/``limits`` when given (see :class:`CudaBuilder`),
    else for this machine's GPU, and run on this machine's GPU."""

    def __init__(self, arch: str | None = None, host: dict | None = None, limits: dict | None = None):
        CudaBuilder.__init__(self, arch, host, limits)
        CudaRunner.__init__(self)


def _unbound_functions(mod) -> list[str]:
    """The PrimFuncs of ``mod`` with no loop bound to a GPU block or thread."""
    # heavy: TVM is imported on use, never with this module
    import tvm_ffi
    from tvm import tirx

    out = []
    for gv, func in mod.functions_items():
        if not isinstance(func, tirx.PrimFunc):
            continue
        bound = []

        def visit(node):
            if ((isinstance(node, tirx.For) and node.kind == tirx.ForKind.THREAD_BINDING)
                    or (isinstance(node, tirx.AttrStmt) and node.attr_key == "thread_extent")):
                bound.append(node)

        tvm_ffi.structural_walk(func.body, visit, order="pre")
        if not bound:
            out.append(gv.name_hint)
    return out


def _host_target() -> dict:
    return {k: v for k, v in host_target().items() if k != "num-cores"}


def measure_gpu(clock: DeviceClock) -> dict:
    """Peaks for roofline fractions: cuBLAS SGEMM (TF32 off) and a device-to-device copy."""
    cp = clock.cupy
    n = 4096
    a, b = cp.ones((n, n), cp.float32), cp.ones((n, n), cp.float32)
    c = cp.empty((n, n), cp.float32)
    best = min(clock.per_call(lambda: cp.matmul(a, b, out=c), 3) for _ in range(5))
    src = cp.ones(256 << 20, cp.float32)  # 1 GiB, far beyond L2
    dst = cp.empty_like(src)
    copy = min(clock.per_call(lambda: dst.__setitem__(Ellipsis, src), 3) for _ in range(5))
    return {"flops_per_s": 2 * n**3 / best, "bytes_per_s": 2 * src.nbytes / copy,
            "method": "cupy sgemm 4096^3 (cuBLAS, TF32 off); copy 1 GiB device to device",
            "measured_at": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
