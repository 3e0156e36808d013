"""``opencl``: OpenCL C run through pyopencl on whatever OpenCL platform is present.

TVM generates the OpenCL C (its OpenCL *runtime* is not in the wheel, its codegen is); this
module lowers a scheduled PrimFunc with TVM's default TIR pipeline, splits host from device
code, reads the kernel launches off the host function (in order, with their arguments and
thread extents) and writes them with the source as a JSON artifact. The run half
(``opencl_runtime.py``) needs only pyopencl and NumPy, so a measurement machine with a
runtime-only TVM — or none — runs it.

Raw ``opencl-source`` entries become the same artifact: one kernel, the manifest's argument order
and launch sizes, compiled at build time so that a compile error or an impossible work-group
is reported as the entry's build error.

Model graphs (L3) are refused with a reason: running a Relax graph needs the Relax VM, and the
VM needs TVM's OpenCL runtime.
"""

from __future__ import annotations

import json
import re

from evaluator.backends import opencl_runtime as ocl
from evaluator.backends.base import Backend, BackendInfo, BackendUnavailable, Kernel

GRAPH_REASON = ("model graphs (L3) are not supported on opencl: a Relax graph runs in TVM's Relax VM, "
                "which needs TVM's OpenCL runtime, and this TVM build has it switched off")
# The launch parameters that become OpenCL sizes (work-groups, work-items per group); anything
# else TVM may attach to a launch (dynamic shared memory) is refused.
_THREAD_TAGS = {"blockIdx.x": ("group", 0), "blockIdx.y": ("group", 1), "blockIdx.z": ("group", 2),
                "threadIdx.x": ("local", 0), "threadIdx.y": ("local", 1), "threadIdx.z": ("local", 2)}


class OpenCL(Backend):
    name = "opencl"
    vendor_baseline = False  # NumPy on the host is no OpenCL library; a vendor BLAS may come later

    def info(self) -> BackendInfo:
        target = self.target()
        try:
            rt = ocl.runtime()
        except BackendUnavailable as e:
            return BackendInfo(self.name, False, str(e), "", "", target, queue="eval.opencl")
        return BackendInfo(self.name, True, "", rt.identity, rt.arch, target, queue="eval.opencl")

    def unavailable(self) -> str:
        try:
            ocl.runtime()
        except BackendUnavailable as e:
            return str(e)
        return ""

    @property
    def sandbox_gap(self) -> str:
        # A CPU device (PoCL) runs inside the sandbox; a GPU would need its device nodes there.
        try:
            rt = ocl.runtime()
        except BackendUnavailable:
            return ""
        import pyopencl as cl

        if rt.device.type & cl.device_type.GPU:
            return (f"the sandbox does not pass a GPU's device nodes and driver libraries through yet "
                    f"(OpenCL device {rt.identity})")
        return ""

    def target(self) -> dict:
        # TVM's generic OpenCL target (256 threads per work-group at most): every OpenCL device
        # runs it, so one build serves PoCL and GPUs alike. Host code is never compiled here.
        return {"kind": "opencl", "host": {"kind": "llvm"}}

    def measure_peaks(self) -> dict:
        return ocl.measure_peaks()

    def child_env(self) -> dict:
        # The device chosen here must be the one the sandboxed steps use, never a fallback.
        try:
            return {ocl.DEVICE_ENV: ocl.runtime().identity}
        except BackendUnavailable:
            return {}

    # --- baseline ----------------------------------------------------------------------------
    def default_module(self, canonical):
        from evaluator.baselines import dlight_default

        if _is_graph(canonical):
            raise ValueError(GRAPH_REASON)
        return dlight_default.schedule(canonical, self.target())

    def default_signature(self, canonical):
        from evaluator.baselines import dlight_default

        # the artifact's format too: a cached baseline in an older one must not be loaded
        return {**dlight_default.signature(), "artifact": [ocl.FORMAT, ocl.VERSION]}

    def default_layers(self, sch, func_name: str = "main") -> dict:
        raise ValueError(GRAPH_REASON)  # only model graphs ask for default layers

    # --- build half --------------------------------------------------------------------------
    def build(self, mod, path: str) -> None:
        doc = lower_to_artifact(mod, self.target())
        _compile_check(doc)
        _write(doc, path)

    def build_source(self, fmt: str, source: str, launch: dict, tensors: list[dict], path: str) -> None:
        if fmt != "opencl-source":
            return super().build_source(fmt, source, launch, tensors, path)
        from evaluator.formats.raw_source import bind_args

        args = bind_args(launch, tensors)
        doc = {"format": ocl.FORMAT, "version": ocl.VERSION, "source": source,
               "params": [{"name": t["name"], "shape": list(t["shape"]), "dtype": t["dtype"]} for t in tensors],
               "workspace": [],
               "kernels": [{"name": launch["entry"], "args": [{"buffer": t["name"]} for t in args],
                            "global": list(launch["global"]),
                            "local": list(launch["local"]) if launch.get("local") else None}]}
        _compile_check(doc, declared=args)
        _write(doc, path)

    # --- run half ----------------------------------------------------------------------------
    def device(self):
        return ocl.runtime().device

    def load(self, path: str, graph: bool) -> Kernel:
        if graph:
            raise ValueError(GRAPH_REASON)
        with open(path, encoding="utf-8") as f:
            doc = ocl.parse_artifact(f.read())
        return ocl.ClKernel(ocl.runtime(), doc)

    def tensor(self, array):
        return ocl.ClTensor(ocl.runtime(), array)


def _write(doc: dict, path: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)


def _is_graph(mod) -> bool:
    from evaluator.ir.layered_trace import _is_graph as is_graph

    return is_graph(mod)


# --- TVM → artifact --------------------------------------------------------------------------

def lower_to_artifact(mod, target: dict) -> dict:
    """Lower a scheduled single-PrimFunc module to OpenCL C plus its launches, in order."""
    import tvm
    from tvm.tirx.build import codegen_build, split_host_device_mods

    if _is_graph(mod):
        raise ValueError(GRAPH_REASON)
    func = mod["main"]
    params = [{"name": p.name, "shape": [int(d) for d in p.shape], "dtype": str(p.dtype)} for p in func.params]
    tgt = tvm.target.Target(target)
    pipeline, _, finalize_device = tvm.tirx.get_default_tir_pipeline(tgt)
    lowered = pipeline(tvm.tirx.transform.BindTarget(tgt)(mod))
    host, devices = split_host_device_mods(lowered)
    if not devices:
        raise ValueError("nothing runs on the OpenCL device: bind the outer loops of every block to "
                         "blockIdx.* and threadIdx.* (schedule primitive 'bind')")
    (dev_target, dev_mod), = devices.items()
    dev_mod = finalize_device()(dev_mod)
    source = codegen_build(dev_mod, dev_target).inspect_source()
    calls, workspace = _host_launches(host["main"])
    known = {p["name"] for p in params} | {w["name"] for w in workspace}
    kernels = []
    for name, args, launch_params, extents in calls:
        device_func = dev_mod[name]
        kernel_params = list(device_func.params)
        if len(kernel_params) != len(args):
            raise ValueError(f"kernel {name}: {len(args)} arguments for {len(kernel_params)} parameters")
        kernels.append({"name": name, "args": [_kernel_arg(name, p, a, known) for p, a in zip(kernel_params, args)],
                        **_launch_sizes(name, launch_params, extents)})
    return {"format": ocl.FORMAT, "version": ocl.VERSION, "source": source,
            "params": params, "workspace": workspace, "kernels": kernels}


def _host_launches(host_func):
    """The host function's kernel launches in order, and the global buffers it allocates."""
    import tvm
    import tvm_ffi
    from tvm import tirx

    calls, workspace, loops = [], [], []

    def visit(node):
        if isinstance(node, tvm.ir.Call) and getattr(node.op, "name", "") == "tirx.call_ffi_kernel":
            launch_params = [str(x) for x in node.attrs.launch_params]
            n = len(launch_params)
            calls.append((str(node.args[0].value), list(node.args[1:len(node.args) - n]), launch_params,
                          list(node.args[len(node.args) - n:])))
        elif isinstance(node, tirx.AllocBuffer):
            b = node.buffer
            if b.scope() not in ("global", ""):
                raise ValueError(f"the host part allocates {b.name!r} in scope {b.scope()!r}")
            workspace.append({"name": b.name, "shape": [_const(d, f"the size of {b.name!r}") for d in b.shape],
                              "dtype": str(b.dtype)})
        elif isinstance(node, (tirx.For, tirx.While)):
            loops.append(node)

    tvm_ffi.structural_walk(host_func.body, visit, order="pre")
    if loops or not calls:
        raise ValueError("part of the computation is not bound to OpenCL work-items and would run on "
                         "the host, which cannot touch device buffers: bind the outer loops of every "
                         "block to blockIdx.* and threadIdx.* (schedule primitive 'bind')")
    return calls, workspace


def _const(expr, what: str) -> int:
    from tvm import tirx

    if isinstance(expr, int):
        return expr
    if isinstance(expr, tirx.IntImm):
        return int(expr.value)
    raise ValueError(f"{what} is not a constant ({expr}); the opencl backend needs static shapes")


def _kernel_arg(kernel: str, param, arg, known: set[str]) -> dict:
    """A device kernel parameter → a buffer named as the workload's tensor, or a constant.

    Parameters are mapped by name, not position: the device kernel's parameter order is not the
    PrimFunc's, and its names are the buffers' own (``X`` → ``X_ptr``)."""
    import tvm
    from tvm import tirx

    if isinstance(arg, (tirx.IntImm, tirx.FloatImm)):
        return {"scalar": arg.value, "dtype": str(arg.dtype)}
    names = [param.name.removesuffix("_ptr")]
    if isinstance(arg, tvm.ir.Call) and arg.args:  # tirx.buffer_data(buffer)
        names.append(getattr(arg.args[0], "name", ""))
    for n in names:
        if n in known:
            return {"buffer": n}
    raise ValueError(f"kernel {kernel}: parameter {param.name!r} ({arg}) is neither a workload tensor, "
                     f"an intermediate buffer nor a constant")


def _launch_sizes(kernel: str, launch_params: list[str], extents: list) -> dict:
    group, local = [1, 1, 1], [1, 1, 1]
    used = 0
    for tag, ext in zip(launch_params, extents):
        if tag not in _THREAD_TAGS:
            raise ValueError(f"kernel {kernel}: launch parameter {tag!r} is not supported by the opencl "
                             "backend (only blockIdx.* and threadIdx.* thread extents)")
        kind, dim = _THREAD_TAGS[tag]
        (group if kind == "group" else local)[dim] = _const(ext, f"kernel {kernel}: the extent of {tag}")
        used = max(used, dim + 1)
    used = max(used, 1)
    return {"global": [g * lo for g, lo in zip(group[:used], local[:used])], "local": local[:used]}


# --- compiling at build time -----------------------------------------------------------------

_C_TYPES = {"float32": "float", "float64": "double", "float16": "half", "int8": "char", "uint8": "uchar",
            "int16": "short", "uint16": "ushort", "int32": "int", "uint32": "uint", "int64": "long",
            "uint64": "ulong", "bool": "bool"}


def _compile_check(doc: dict, declared: list[dict] | None = None) -> None:
    """Compile on the device now, so that the build step reports what the compiler says.

    For raw sources (``declared``: the tensors in parameter order) the entry kernel's signature
    and work-group size are checked too."""
    import pyopencl as cl

    rt = ocl.runtime()
    options = ["-cl-kernel-arg-info"] if declared is not None else []
    program = ocl.build_program(rt, doc["source"], options)
    defined = sorted(k.function_name for k in program.all_kernels())
    for k in doc["kernels"]:
        if k["name"] not in defined:
            raise ValueError(f"the source defines no kernel {k['name']!r}; it defines {defined}")
        kernel = cl.Kernel(program, k["name"])
        if kernel.num_args != len(k["args"]):
            raise ValueError(f"kernel {k['name']!r} takes {kernel.num_args} parameters but launch 'args' "
                             f"lists {len(k['args'])} tensors")
        if declared is not None:
            _check_arg_types(rt, kernel, k["name"], declared)
        ocl.check_local_size(rt, kernel, k["name"], k.get("local"))


def _check_arg_types(rt, kernel, name: str, declared: list[dict]) -> None:
    import pyopencl as cl

    info = cl.kernel_arg_info
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
