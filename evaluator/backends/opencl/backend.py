"""The ``opencl`` backend: :class:`OpenCLBuilder` (target, build through ``lowering``, the build
step's compile check on the OpenCL platform here) and :class:`OpenCLRunner` (device, loading);
:class:`OpenCL` is the two."""

from __future__ import annotations

import json
import os
import re

from evaluator.backends.opencl import runtime as ocl
from evaluator.backends.opencl.lowering import lower_to_artifact
from evaluator.backends.base import Backend, BackendInfo, BackendUnavailable, DeviceRunner, Kernel, TargetBuilder
from evaluator.baselines import dlight_default
from evaluator.baselines.policy import Dlight
from evaluator.formats import raw_source
from evaluator.ir.layered_trace import _is_graph
from evaluator.sandbox import DevicePaths, driver_library_dirs, gpu_device_nodes, nvidia_device_nodes
from evaluator.vocabulary import BackendKind

ICD_VENDORS = "OCL_ICD_VENDORS"  # the ICD loader's platform list, where /etc/OpenCL/vendors is not it


def opencl_target() -> dict:
    # TVM's generic OpenCL target (256 threads per work-group at most): every OpenCL device
    # runs it, so one build serves PoCL and GPUs alike. Host code is never compiled here.
    return {"kind": "opencl", "host": {"kind": "llvm"}}


def steps_env() -> dict[str, str]:
    """What the sandboxed steps need to find the device: the one chosen here, never a fallback,
    and the platforms this ICD loader lists (a vendors directory named by OCL_ICD_VENDORS is
    bound into them: ``OpenCLRunner.device_paths``). The build step compiles on it too."""
    env = {ICD_VENDORS: os.environ[ICD_VENDORS]} if os.environ.get(ICD_VENDORS) else {}
    try:
        return {**env, ocl.DEVICE_ENV: ocl.runtime().identity}
    except BackendUnavailable:
        return env


class OpenCLBuilder(TargetBuilder):
    """Lowers to the JSON launch plan for the generic OpenCL target, then compiles it on the
    OpenCL platform here (PoCL will do), so that the build step reports what the compiler says
    and the run half's limits (launches, workspace) hold before anything is measured."""

    name = BackendKind.OPENCL
    vendor_baseline = False  # NumPy on the host is no OpenCL library; a vendor BLAS may come later
    # dlight; a model-graph function a trace leaves unnamed gets it too (``build`` applies it to
    # every function left without thread bindings). The cached build's key holds the artifact's
    # format (a build in an older one must not be loaded) and how intermediate buffers are named
    # (a fire module's three same-named stages once shared one buffer without a TVMScript round trip).
    baseline = Dlight("opencl", artifact={"artifact": [ocl.FORMAT, ocl.VERSION],
                                          "intermediate buffers": "one per allocation"}, unnamed="dlight")

    def target(self) -> dict:
        return opencl_target()

    def build_env(self) -> dict[str, str]:
        return steps_env()  # the build step compiles on the device the run steps use

    def build(self, mod, path: str) -> None:
        if _is_graph(mod):
            mod = dlight_default.schedule_unbound(mod, self.target())
        doc = lower_to_artifact(mod, self.target())
        if _uses_half(doc):
            # for devices without half arithmetic: the same schedule over float32 (see runtime.py)
            variant = _named_as(lower_to_artifact(_widen_half(mod), self.target()), doc)
            doc["half_as_float"] = {k: variant[k] for k in ("source", "workspace", "kernels")}
        # the run half's limits (launches, workspace) hold now; compile what this device runs
        _compile_check(ocl.runs_as(ocl.runtime(), ocl.parse_artifact(json.dumps(doc))))
        _write(doc, path)

    def build_source(self, fmt: str, source: str, launch: dict, tensors: list[dict], path: str) -> None:
        if fmt != "opencl-source":
            return super().build_source(fmt, source, launch, tensors, path)
        launch = raw_source.resolve_sizes(fmt, launch)
        args = raw_source.bind_args(launch, tensors)
        # the shape parameters follow the tensors as OpenCL longs
        shape = [{"scalar": v, "dtype": "int64"} for v in raw_source.shape_values(launch)]
        doc = {"format": ocl.FORMAT, "version": ocl.VERSION, "source": source,
               "params": [{"name": t["name"], "shape": list(t["shape"]), "dtype": t["dtype"]} for t in tensors],
               "workspace": [],
               "kernels": [{"name": launch["entry"], "args": [{"buffer": t["name"]} for t in args] + shape,
                            "global": list(launch["global"]),
                            "local": list(launch["local"]) if launch.get("local") else None}]}
        _compile_check(doc, declared=args, shape_args=launch.get("shape_args") or [])
        _write(doc, path)


class OpenCLRunner(DeviceRunner):
    """The OpenCL device here (``runtime.py``, pyopencl only): loading the launch plans, tensors,
    peaks, and what the sandbox must let through to the device."""

    name = BackendKind.OPENCL

    def device_target(self) -> dict:
        return opencl_target()  # every OpenCL device runs the generic target's code

    def info(self) -> BackendInfo:
        target = self.device_target()
        try:
            rt = ocl.runtime()
        except BackendUnavailable as e:
            return BackendInfo(self.name, False, str(e), "", "", target)
        return BackendInfo(self.name, True, "", rt.identity, rt.arch, target)

    def unavailable(self) -> str:
        try:
            ocl.runtime()
        except BackendUnavailable as e:
            return str(e)
        return ""

    def device_paths(self) -> DevicePaths:
        # A CPU device (PoCL) needs nothing more; a GPU its driver's nodes and libraries.
        try:
            rt = ocl.runtime()
        except BackendUnavailable:
            return DevicePaths()
        import pyopencl as cl  # optional dependency, imported on use

        icd = tuple(d for d in [os.environ.get(ICD_VENDORS, "")] if d and os.path.isdir(d))
        if not rt.device.type & cl.device_type.GPU:
            return DevicePaths(libraries=icd)
        return DevicePaths(nvidia_device_nodes() if "NVIDIA" in rt.platform.name.upper() else gpu_device_nodes(),
                           driver_library_dirs() + icd)

    def measure_peaks(self) -> dict:
        return ocl.measure_peaks()

    def child_env(self) -> dict:
        return steps_env()

    def device(self):
        return ocl.runtime().device

    def load(self, path: str, graph: bool) -> Kernel:
        # a model graph's artifact is a launch plan like any other: the kernel writes the outputs given
        with open(path, encoding="utf-8") as f:
            doc = ocl.parse_artifact(f.read())
        return ocl.ClKernel(ocl.runtime(), doc)

    def tensor(self, array):
        return ocl.ClTensor(ocl.runtime(), array)


class OpenCL(OpenCLBuilder, OpenCLRunner, Backend):
    """The OpenCL device here, built for and run on."""


def _write(doc: dict, path: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)


def _uses_half(doc: dict) -> bool:
    return any(t["dtype"] == "float16" for t in doc["params"] + doc["workspace"]) or "half" in doc["source"]


def _widen_half(mod):
    """``mod`` with float16 replaced by float32 everywhere (tensors, casts, constants): rewritten
    in its TVMScript (TVM has no Python IR mutator) and parsed back, so the result is checked."""
    import tvm  # heavy: TVM is imported on use, never with this module

    return tvm.script.from_source(re.sub(r"\bfloat16\b", "float32", mod.script()))


def _named_as(variant: dict, doc: dict) -> dict:
    """``variant``'s kernel arguments with its parameters named as ``doc`` names them: the run half
    binds them by name, and the TVMScript round trip of ``_widen_half`` renames some (a graph's
    weight ``stem.bias`` prints as ``stem_bias``, a buffer ``R`` as ``R_1``). Same parameters, same order."""
    if [p["shape"] for p in variant["params"]] != [p["shape"] for p in doc["params"]]:
        raise ValueError("the float32 variant's parameters are not the build's")
    names = {v["name"]: d["name"] for v, d in zip(variant["params"], doc["params"])}
    for k in variant["kernels"]:
        for a in k["args"]:
            if "buffer" in a and a["buffer"] in names:
                a["buffer"] = names[a["buffer"]]
    return variant


# --- compiling at build time -----------------------------------------------------------------

_C_TYPES = {"float32": "float", "float64": "double", "float16": "half", "int8": "char", "uint8": "uchar",
            "int16": "short", "uint16": "ushort", "int32": "int", "uint32": "uint", "int64": "long",
            "uint64": "ulong", "bool": "bool"}


def _compile_check(doc: dict, declared: list[dict] | None = None, shape_args: list[str] = ()) -> None:
    """Compile on the device now, so that the build step reports what the compiler says.

    For raw sources (``declared``: the tensors in parameter order, then ``shape_args``) the entry
    kernel's signature and work-group size are checked too."""
    import pyopencl as cl  # optional dependency, imported on use

    rt = ocl.runtime()
    options = ["-cl-kernel-arg-info"] if declared is not None else []
    program = ocl.build_program(rt, doc["source"], options)
    defined = sorted(k.function_name for k in program.all_kernels())
    for k in doc["kernels"]:
        if k["name"] not in defined:
            raise ValueError(f"the source defines no kernel {k['name']!r}; it defines {defined}")
        kernel = cl.Kernel(program, k["name"])
        if kernel.num_args != len(k["args"]):
            shape = f" and 'shape_args' {len(shape_args)} integers" if shape_args else ""
            raise ValueError(f"kernel {k['name']!r} takes {kernel.num_args} parameters but launch 'args' "
                             f"lists {len(k['args']) - len(shape_args)} tensors{shape}")
        if declared is not None:
            _check_arg_types(rt, kernel, k["name"], declared, shape_args)
        ocl.check_local_size(rt, kernel, k["name"], k.get("local"))


def _check_arg_types(rt, kernel, name: str, declared: list[dict], shape_args: list[str] = ()) -> None:
    import pyopencl as cl  # optional dependency, imported on use

    info = cl.kernel_arg_info
    for i, p in enumerate(shape_args, start=len(declared)):
        try:
            type_name = kernel.get_arg_info(i, info.TYPE_NAME).strip()
        except cl.Error:
            return
        if type_name not in ("long", "ulong"):
            raise ValueError(f"kernel {name!r} parameter {i} is declared '{type_name}' but 'shape_args' passes "
                             f"{p!r} there as a 64-bit integer: declare it 'long'")
    for i, t in enumerate(declared):
        try:
            space = kernel.get_arg_info(i, info.ADDRESS_QUALIFIER)
            type_name = kernel.get_arg_info(i, info.TYPE_NAME).strip()
            arg_name = kernel.get_arg_info(i, info.NAME)
        except cl.Error:  # the implementation keeps no argument info: the run check still holds
            return
        what = f"kernel {name!r} parameter {i} ({arg_name})"
        if space != cl.kernel_arg_address_qualifier.GLOBAL or not type_name.endswith("*"):
            raise ValueError(f"{what} is declared '{type_name}', not a __global pointer; launch 'args' "
                             f"binds tensor {t['name']!r} ({t['dtype']}{t['shape']}) to it")
        # a vector of the tensor's element type (float4* over float32) is the same memory
        base = re.sub(r"(2|3|4|8|16)$", "", type_name.rstrip("*").replace("const", "").strip())
        want = _C_TYPES.get(t["dtype"])
        if want is not None and base != want:
            raise ValueError(f"{what} is declared '{type_name}' but launch 'args' binds tensor "
                             f"{t['name']!r}, which is {t['dtype']} ('{want}*')")
