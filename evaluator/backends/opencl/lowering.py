"""TVM to the ``opencl`` artifact: OpenCL C plus its launches, read off the lowered host function;
a model graph's Relax ``main`` as a launch plan over the same source."""

from __future__ import annotations

import base64
import math
import re
from dataclasses import dataclass, field

import numpy as np

from evaluator.backends.opencl import runtime as ocl
from evaluator.ir.layered_trace import _is_graph

# The launch parameters that become OpenCL sizes (work-groups, work-items per group); anything
# else TVM may attach to a launch (dynamic shared memory) is refused.
_THREAD_TAGS = {"blockIdx.x": ("group", 0), "blockIdx.y": ("group", 1), "blockIdx.z": ("group", 2),
                "threadIdx.x": ("local", 0), "threadIdx.y": ("local", 1), "threadIdx.z": ("local", 2)}


# --- TVM → artifact --------------------------------------------------------------------------

@dataclass
class _Lowered:
    """One PrimFunc lowered: its kernel launches in order, arguments named by the function's
    own buffers (its parameters, or the global buffers its host part allocates)."""

    params: list[dict]
    workspace: list[dict]
    kernels: list[dict]


def lower_to_artifact(mod, target: dict) -> dict:
    """Lower a scheduled module to OpenCL C plus its launches, in order: a single-PrimFunc module
    (L1/L2) or a model graph (L3) whose Relax ``main`` becomes a launch plan."""
    if _is_graph(mod):
        return _graph_artifact(mod, target)
    source, lowered = _lower_functions({"main": mod["main"]}, target)
    main = lowered["main"]
    return {"format": ocl.FORMAT, "version": ocl.VERSION, "source": source,
            "params": main.params, "workspace": main.workspace, "kernels": main.kernels}


def _lower_functions(funcs: dict, target: dict) -> tuple[str, dict[str, _Lowered]]:
    """Lower PrimFuncs together with TVM's default TIR pipeline: one OpenCL C source holding
    every kernel, and each function's launches read off its host part."""
    # heavy: TVM is imported on use, never with this module
    import tvm
    from tvm.tirx.build import codegen_build, split_host_device_mods

    single = list(funcs) == ["main"]  # errors about a graph's function name the function
    where = (lambda name: "") if single else (lambda name: f"function {name!r}: ")
    funcs = {name: _distinct_param_names(f) for name, f in funcs.items()}
    mod = tvm.IRModule({name: f.with_attr("global_symbol", name) for name, f in funcs.items()})
    tgt = tvm.target.Target(target)
    pipeline, _, finalize_device = tvm.tirx.get_default_tir_pipeline(tgt)
    lowered = pipeline(tvm.tirx.transform.BindTarget(tgt)(mod))
    host, devices = split_host_device_mods(lowered)
    if not devices:
        raise ValueError("nothing runs on the OpenCL device: bind the outer loops of every block to "
                         "blockIdx.* and threadIdx.* (schedule primitive 'bind')")
    (dev_target, dev_mod), = devices.items()
    dev_mod = finalize_device()(dev_mod)
    source = _exact_constants(_math_compat(codegen_build(dev_mod, dev_target).inspect_source()), dev_mod)
    out = {}
    for name, func in funcs.items():
        params = [{"name": p.name, "shape": [_const(d, f"the size of {p.name!r}") for d in p.shape],
                   "dtype": str(p.dtype)} for p in func.params]
        try:
            calls, allocated = _host_launches(host[name], {p["name"] for p in params})
        except ValueError as e:
            raise ValueError(f"{where(name)}{e}") from None
        known = {p["name"] for p in params}
        buffers = [(b, w["name"]) for w in allocated for b in w["buffers"]]
        workspace = [{k: v for k, v in w.items() if k != "buffers"} for w in allocated]
        # a tensor's element offset (TOPI's extern ops declare one) is 0: the run half always
        # passes whole buffers
        offsets = [p.elem_offset for p in func.params if isinstance(p.elem_offset, tvm.tirx.Var)]
        kernels = []
        for kname, args, launch_params, extents in calls:
            kernel_params = list(dev_mod[kname].params)
            if len(kernel_params) != len(args):
                raise ValueError(f"kernel {kname}: {len(args)} arguments for {len(kernel_params)} parameters")
            kernels.append({"name": kname,
                            "args": [_kernel_arg(kname, p, a, known, offsets, buffers)
                                     for p, a in zip(kernel_params, args)],
                            **_launch_sizes(kname, launch_params, extents)})
        out[name] = _Lowered(params, workspace, kernels)
    return source, out


# OpenCL C's math builtins are overloaded by type; TVM's codegen falls back to C99's float-suffixed
# names for a few intrinsics it has no OpenCL rule for (``log1pf``), which OpenCL C does not have.
_OPENCL_MATH = ("acos acosh asin asinh atan atan2 atanh cbrt ceil copysign cos cosh erf erfc exp exp2 exp10 "
                "expm1 fabs fdim floor fma fmax fmin fmod hypot ldexp lgamma log log2 log10 log1p logb "
                "nextafter pow remainder rint round rsqrt sin sinh sqrt tan tanh tgamma trunc").split()


def _math_compat(source: str) -> str:
    """``source`` with a ``#define`` mapping each C99 float-suffixed math call it makes to the
    OpenCL builtin of the same function."""
    used = [f for f in _OPENCL_MATH if re.search(rf"\b{f}f\s*\(", source)
            and not re.search(rf"#define\s+{f}f\b", source)]
    return "".join(f"#define {f}f {f}\n" for f in used) + source


def _exact_constants(source: str, dev_mod) -> str:
    """``source`` with its float32 constants written exactly. TVM's OpenCL codegen prints them
    with 7 significant digits (``1.703275e+00f``) where a float needs 9: a recurrence's
    coefficient off in the 7th digit (Goertzel, IIR filters) then misses the reference. Each
    constant of the device code is put back as a hexadecimal float literal where its printed
    form stands for one value only."""
    # heavy: TVM is imported on use, never with this module
    import tvm_ffi
    from tvm import tirx

    values: dict[str, set[float]] = {}

    def visit(node):
        if isinstance(node, tirx.FloatImm) and str(node.ty) == "float32" and math.isfinite(node.value):
            v = abs(float(np.float32(node.value)))
            values.setdefault(f"{v:.6e}f", set()).add(v)

    for _, f in dev_mod.functions.items():
        tvm_ffi.structural_walk(f, visit, order="pre")
    for printed, vs in values.items():
        if len(vs) == 1:
            exact = float.hex(vs.pop()) + "f"
            source = re.sub(rf"(?<![\w.]){re.escape(printed)}", exact, source)
    return source


def _distinct_param_names(func):
    """``func`` with a name of its own for every parameter. Kernel arguments are mapped to
    buffers by name, and TVM names some alike (split's outputs are all ``T_split_sections``);
    printing and parsing the function back gives each its own (the printer's ``_1``)."""
    import tvm  # heavy: TVM is imported on use, never with this module

    names = [p.name for p in func.params]
    if len(set(names)) == len(names):
        return func
    func = tvm.script.from_source(func.script())
    names = [p.name for p in func.params]
    if len(set(names)) != len(names):
        raise ValueError(f"parameters of one name cannot be told apart by their kernels: {names}")
    return func


_NOT_BOUND = ("part of the computation is not bound to OpenCL work-items and would run on the host, "
              "which cannot touch device buffers: bind the outer loops of every block to blockIdx.* and "
              "threadIdx.* (schedule primitive 'bind')")


def _host_launches(host_func, taken: set[str] = frozenset()):
    """The host function's kernel launches in order, and the global buffers it allocates.

    Each allocated buffer gets a name of its own (not in ``taken``): TVM names the stages of
    one compute alike (a fire module's three convolutions are all ``conv2d_nchw``), so its
    entry carries the buffer and the views declared on its storage, which kernel arguments
    (``buffer_data(buffer)``) are matched against.

    A host loop with constant bounds around launches (TOPI's GPU sorts run one merge pass per
    iteration) is unrolled here: each iteration's launch sizes and scalar arguments are its
    expressions with the loop variables bound. Anything else the host would compute itself is
    refused — the run half executes launches only."""
    # heavy: TVM is imported on use, never with this module
    import tvm
    import tvm.sym
    import tvm_ffi
    from tvm import tirx

    calls, workspace = [], []
    launches = [0]
    names = set(taken)

    def value(expr, env):
        if not env or not isinstance(expr, tvm.ir.expr.Expr):
            return expr
        ana = tvm.sym.Analyzer()
        for var, v in env:
            ana.bind(var, tvm.tirx.IntImm(str(var.ty), v))
        try:
            return ana.simplify(expr)
        except TypeError:  # a buffer's data pointer: no arithmetic to fold
            return expr

    def walk(stmt, env):
        def visit(node):
            if isinstance(node, tvm.ir.Call) and getattr(node.op, "name", "") == "tirx.call_ffi_kernel":
                launch_params = [str(x) for x in node.attrs.launch_params]
                n = len(launch_params)
                args = [node.args[0]] + [value(a, env) for a in node.args[1:]]
                calls.append((str(node.args[0].value), args[1:len(args) - n], launch_params, args[len(args) - n:]))
                launches[0] += 1
                if launches[0] > ocl.MAX_KERNELS:
                    raise ValueError(f"the host launches more than {ocl.MAX_KERNELS} kernels per call")
            elif isinstance(node, tirx.AllocBuffer):
                b = node.buffer
                if b.scope() not in ("global", ""):
                    raise ValueError(f"the host part allocates {b.name!r} in scope {b.scope()!r}")
                if not any(_holds(w, b) for w in workspace):
                    workspace.append({"name": _fresh(b.name, names), "buffers": [b],
                                      "shape": [_const(d, f"the size of {b.name!r}") for d in b.shape],
                                      "dtype": str(b.dtype)})
            elif isinstance(node, tirx.DeclBuffer) and isinstance(node.data, tvm.ir.Call) and node.data.args:
                # another view of an allocation (storage reuse declares one): the same buffer
                for w in workspace:
                    if _holds(w, node.data.args[0]):
                        w["buffers"].append(node.buffer)
            elif isinstance(node, tirx.BufferStore):
                raise ValueError(_NOT_BOUND)
            elif isinstance(node, tirx.While):
                raise ValueError(_NOT_BOUND)
            elif isinstance(node, tirx.For):
                lo, ext = value(node.min, env), value(node.extent, env)
                if not (isinstance(lo, tirx.IntImm) and isinstance(ext, tirx.IntImm)):
                    raise ValueError(_NOT_BOUND)
                before = launches[0]
                for i in range(int(ext.value)):
                    walk(node.body, env + [(node.loop_var, int(lo.value) + i)])
                    if launches[0] == before:  # a host loop that launches nothing computes on the host
                        raise ValueError(_NOT_BOUND)
                return tvm_ffi.WalkResult.SKIP
            return None

        tvm_ffi.structural_walk(stmt, visit, order="pre")

    walk(host_func.body, [])
    if not calls:
        raise ValueError(_NOT_BOUND)
    return calls, workspace


def _holds(entry: dict, buffer) -> bool:
    return any(b.same_as(buffer) for b in entry["buffers"])


def _const(expr, what: str) -> int:
    from tvm import tirx  # heavy: TVM is imported on use, never with this module

    if isinstance(expr, int):
        return expr
    if isinstance(expr, tirx.IntImm):
        return int(expr.value)
    raise ValueError(f"{what} is not a constant ({expr}); the opencl backend needs static shapes")


def _kernel_arg(kernel: str, param, arg, known: set[str], offsets=(), allocated=()) -> dict:
    """A device kernel parameter → a buffer named as the workload's tensor, an intermediate
    buffer, or a constant.

    Workload tensors are mapped by name, not position: the device kernel's parameter order is
    not the PrimFunc's, and its names are the buffers' own (``X`` → ``X_ptr``). Intermediate
    buffers are matched by identity (``allocated``: (buffer, name) pairs), since several may
    share a name."""
    # heavy: TVM is imported on use, never with this module
    import tvm
    from tvm import tirx

    if isinstance(arg, (tirx.IntImm, tirx.FloatImm)):
        # the kernel's own parameter type decides the width (a folded constant may be narrower)
        return {"scalar": arg.value, "dtype": str(param.ty)}
    if isinstance(arg, tirx.Var) and any(arg.same_as(v) for v in offsets):
        return {"scalar": 0, "dtype": str(param.ty)}
    names = [param.name.removesuffix("_ptr")]
    if isinstance(arg, tvm.ir.Call) and arg.args:  # tirx.buffer_data(buffer)
        for buffer, name in allocated:
            if buffer.same_as(arg.args[0]):
                return {"buffer": name}
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


# --- model graphs: the Relax main as a launch plan -------------------------------------------

@dataclass
class _Call:
    func: str
    tensors: list[str]  # graph tensors bound to the function's parameters: its inputs, then outputs


@dataclass
class _Plan:
    inputs: list[dict]  # main's parameters: the data, then the weights (the harness's inputs)
    outputs: list[str]  # what main returns, in order
    tensors: dict[str, dict] = field(default_factory=dict)  # every graph tensor by name
    calls: list[_Call] = field(default_factory=list)
    constants: set[str] = field(default_factory=set)  # tensors whose ``data`` the artifact carries


def _graph_artifact(mod, target: dict) -> dict:
    """A model graph as one artifact: every fused PrimFunc ``main`` calls, lowered together, and
    the launches of each ``call_tir`` in binding order, their buffers renamed to graph tensors.
    Intermediate tensors become workspace buffers, allocated once when the artifact is loaded."""
    plan = _graph_plan(mod["main"])
    funcs = {c.func: mod[c.func] for c in plan.calls}
    source, lowered = _lower_functions(funcs, target)
    taken = set(plan.tensors)
    workspace = [plan.tensors[n] for n in plan.tensors
                 if n not in plan.outputs and n not in {t["name"] for t in plan.inputs}]
    scratch: dict[str, dict[str, str]] = {}  # a function's own buffers, shared by its calls
    for name, low in lowered.items():
        scratch[name] = {}
        for w in low.workspace:
            graph_name = _fresh(f"{name}.{w['name']}", taken)
            scratch[name][w["name"]] = graph_name
            workspace.append({**w, "name": graph_name})
    kernels = []
    for call in plan.calls:
        low = lowered[call.func]
        if len(low.params) != len(call.tensors):
            raise ValueError(f"call_tir of {call.func!r} passes {len(call.tensors)} tensors (inputs and "
                             f"outputs) to a function of {len(low.params)} parameters")
        names = dict(scratch[call.func])
        for p, t in zip(low.params, call.tensors):
            have = plan.tensors[t]
            if p["shape"] != have["shape"] or p["dtype"] != have["dtype"]:
                raise ValueError(f"call_tir of {call.func!r}: parameter {p['name']!r} is "
                                 f"{p['dtype']}{p['shape']} but the graph passes {t!r}, "
                                 f"{have['dtype']}{have['shape']}")
            names[p["name"]] = t
        for k in low.kernels:
            kernels.append({**k, "args": [{"buffer": names[a["buffer"]]} if "buffer" in a else a
                                          for a in k["args"]]})
    return {"format": ocl.FORMAT, "version": ocl.VERSION, "source": source,
            "params": plan.inputs + [plan.tensors[n] for n in plan.outputs],
            "workspace": workspace, "kernels": kernels}


def _graph_plan(main) -> _Plan:
    """Walk a Relax ``main`` that is a straight line of ``call_tir`` bindings (what the suite's
    legalize-and-fuse passes produce); anything else is refused, naming it."""
    # heavy: TVM is imported on use, never with this module
    import tvm
    from tvm import relax

    plan = _Plan(inputs=[], outputs=[])
    taken: set[str] = set()
    env: dict = {}  # Relax variable → graph tensor name, or a tuple of them

    def tensor(name: str, ty, what: str) -> str:
        if not isinstance(ty, relax.TensorType) or ty.shape is None:
            raise ValueError(f"{what} is {ty}, not a tensor of known shape; the opencl backend runs "
                             "graphs of static-shape tensors")
        name = _fresh(name, taken)
        shape = [_const(d, f"the shape of {what}") for d in ty.shape.values]
        plan.tensors[name] = {"name": name, "shape": shape, "dtype": str(ty.dtype)}
        return name

    def single(expr, what: str) -> str:
        got = value(expr)
        if not isinstance(got, str):
            raise ValueError(f"{what} is a tuple; a kernel argument must be one tensor")
        return got

    def value(expr, hint: str = "t"):
        if isinstance(expr, relax.Var):
            if expr not in env:
                raise ValueError(f"variable {expr.name!r} is used before it is bound")
            return env[expr]
        if isinstance(expr, relax.Tuple):
            return tuple(value(f) for f in expr.fields)
        if isinstance(expr, relax.TupleGetItem):
            whole = value(expr.tuple_value)
            if not isinstance(whole, tuple):
                raise ValueError(f"item {expr.index} is taken of a tensor, not of a tuple")
            return whole[expr.index]
        if isinstance(expr, tvm.ir.Constant):
            # a constant tensor (an index list, a mask) is a workspace buffer loaded with its data
            name = tensor(hint if hint != "t" else "const", expr.ty, "a constant tensor")
            data = np.ascontiguousarray(expr.value.numpy())
            plan.tensors[name]["data"] = base64.b64encode(data.astype(data.dtype.newbyteorder("<"))).decode()
            plan.constants.add(name)
            return name
        if isinstance(expr, relax.Call) and isinstance(expr.op, tvm.ir.Op) and expr.op.name == "relax.call_tir":
            func = expr.args[0].name_hint
            if len(expr.args) > 2:
                raise ValueError(f"call_tir of {func!r} passes symbolic shape values; the opencl backend "
                                 "runs graphs of static shapes")
            ins = [single(a, f"argument {i} of call_tir {func!r}") for i, a in enumerate(expr.args[1].fields)]
            out_ty = expr.ty_args[0]
            if isinstance(out_ty, relax.TupleType):
                outs = [tensor(f"{hint}.{i}", ty, f"output {i} of {func!r}")
                        for i, ty in enumerate(out_ty.fields)]
            else:
                outs = [tensor(hint, out_ty, f"the output of {func!r}")]
            plan.calls.append(_Call(func, ins + outs))
            return tuple(outs) if isinstance(out_ty, relax.TupleType) else outs[0]
        raise ValueError(f"the model's main contains {_describe(expr)}, which the opencl backend does not "
                         "run: its launch plan takes call_tir of fused PrimFuncs, tuples and their items")

    for p in main.params:
        plan.inputs.append(plan.tensors[tensor(p.name, p.ty, f"parameter {p.name!r}")])
        env[p] = plan.inputs[-1]["name"]
    body = main.body
    if not isinstance(body, relax.SeqExpr):
        raise ValueError(f"the model's main body is {_describe(body)}, not a sequence of bindings")
    for block in body.blocks:
        for b in block.bindings:
            if not isinstance(b, relax.VarBinding):
                raise ValueError(f"the model's main contains {type(b).__name__} (of {b.var.name!r}), which "
                                 "the opencl backend does not run")
            env[b.var] = value(b.value, b.var.name)
    result = value(body.body)
    outputs = list(result) if isinstance(result, tuple) else [result]
    if any(isinstance(o, tuple) for o in outputs):
        raise ValueError("the model returns a nested tuple; the opencl backend takes a tensor or a "
                         "flat tuple")
    inputs = {t["name"] for t in plan.inputs}
    for o in outputs:
        if o in inputs or o in plan.constants:
            what = "input" if o in inputs else "constant"
            raise ValueError(f"the model returns its {what} {o!r} unchanged; the opencl backend needs every "
                             "output written by a kernel")
    if len(set(outputs)) != len(outputs):
        raise ValueError("the model returns the same tensor twice")
    plan.outputs = outputs
    return plan


def _describe(expr) -> str:
    """A Relax expression in words, for an error: the op a call makes, or the kind of node."""
    # heavy: TVM is imported on use, never with this module
    import tvm
    from tvm import relax

    if isinstance(expr, relax.Call):
        op = expr.op
        if isinstance(op, tvm.ir.Op):
            return f"a call to {op.name}"
        if isinstance(op, relax.ExternFunc):
            return f"a call to the packed function {op.global_symbol!r}"
        if isinstance(op, tvm.ir.GlobalVar):
            return f"a call to function {op.name_hint!r}"
        return "a call"
    if isinstance(expr, relax.If):
        return "control flow (R.If)"
    if isinstance(expr, tvm.ir.Constant):
        return "a constant tensor"
    return f"a {type(expr).__name__}"


def _fresh(name: str, taken: set[str]) -> str:
    """``name``, or ``name_2``, ``name_3`` … when taken; recorded as taken."""
    out, i = name, 1
    while out in taken:
        i += 1
        out = f"{name}_{i}"
    taken.add(out)
    return out
