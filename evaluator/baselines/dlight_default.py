"""``tvm-default`` on GPU-style backends (opencl): TVM's dlight default schedules.

dlight is what TVM itself applies to a kernel nobody has tuned for a GPU target: each rule
recognises one kind of compute (matmul, GEMV, reductions, norms, transposes) and schedules it
for the target's thread limits; ``Fallback`` binds whatever is left to blocks and threads. The
rules are tried in the order below, the first that applies wins.

Two kinds of kernel no dlight rule sees, handled the way TVM's own GPU path does or as close
to it as a single function allows:

- sorts (sort, argsort, top-k): their canonical compute calls TVM's CPU sorting library, which
  no GPU can run; on GPU targets TOPI's GPU kernels (``topi.gpu.sort`` …) are TVM's default,
  as Relax's sort/scan dispatch picks them, so the baseline is built from those;
- opaque loop nests (TOPI's scans and recurrences, written with their own loops inside one
  block, already parallel over rows): each outermost parallel loop becomes work-groups of one
  work-item (blockIdx.x), inner parallel loops run serially in them;
- what ``Fallback`` declines (adaptive pooling's non-rectangular windows, a reduction loop that
  starts at 1): each top-level block's leading spatial loops are bound to work-groups and
  work-items, the reduction stays serial in each work-item.

Unlike the CPU rule set (``tvm_default.py``) this is not written as a layered trace: dlight
uses primitives a layered trace does not have, so its baseline is the scheduled module itself,
and the example bundle ships it as TVMScript.
"""

from __future__ import annotations

import functools
import re

RULES = ("Matmul", "GEMV", "LowBatchGEMV", "Reduction", "GeneralReduction", "RMSNorm", "Transpose",
         "Fallback")


def signature(workload=None) -> dict:
    """What determines the schedule besides the workload, the target and the TVM version."""
    out = {"dlight": list(RULES), "a failing rule does not apply": True,
           "a Matmul result that does not parse back does not apply": True,
           "a result over the target's limits (VerifyGPUCode) does not apply": True,
           "opaque loop nests": "outer parallel loops -> blockIdx.x",
           "what Fallback declines": "leading spatial loops -> blockIdx.x, threadIdx.x (256)"}
    if workload is not None and gpu_compute(workload) is not None:
        out["built from"] = "TOPI's GPU kernel"
    return out


def gpu_compute(workload):
    """The pattern's GPU kernel from TOPI where its canonical compute has none (sorts)."""
    return getattr(workload.pattern, "gpu_compute", None)


def gpu_module(workload, target: dict):
    """The workload's computation as TOPI's GPU kernel, same parameters as the canonical one."""
    # heavy: TVM is imported on use, never with this module
    import tvm
    from tvm import te

    args = workload.placeholders()
    with tvm.target.Target(target):
        out = gpu_compute(workload)(workload.params, *args)
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    return tvm.IRModule({"main": te.create_prim_func(args + outs)})


class _Tolerant:
    """A dlight rule that raises on a compute it was not written for (some fused conv blocks
    trip Reduction's dataflow check) is treated as not applying, so the next rule — at the end
    ``Fallback`` — schedules the function, as TVM intends for a compute no rule recognises.
    So is a Matmul whose result is not well-formed TIR (with several epilogue blocks it inlines
    its output into the first and leaves the others reading a buffer that no longer exists).
    And so is a result over the target's limits (MetaSchedule's ``VerifyGPUCode``): GEMV staged
    a 1024-wide fp32 row block in 64 KiB of shared memory, which no CUDA device loads statically
    (48 KiB)."""

    def __init__(self, rule, parse_back: bool = False):
        self.rule, self.parse_back = rule, parse_back

    def apply(self, func, target, tunable):
        import tvm  # heavy: TVM is imported on use, never with this module

        try:
            out = self.rule.apply(func, target, tunable)
        except Exception:  # noqa: BLE001 - TVM raises its own error types here
            return None
        scheds = out if isinstance(out, list) else [out] if out is not None else []
        if not all(_within_limits(sch, target) for sch in scheds):
            return None
        if not self.parse_back:
            return out
        for sch in scheds:
            try:
                # TVMScript's parser checks well-formedness of scheduled TIR (TVM's verifier does
                # not take blocks); the example bundle ships this text, so it must parse anyway
                tvm.script.from_source(sch.mod.script())
            except Exception:  # noqa: BLE001
                return None
        return out


def _within_limits(sch, target) -> bool:
    """Whether a scheduled function fits the target's shared memory, threads and vector width."""
    try:
        return bool(_gpu_code_verifier(str(target)).apply(sch))
    except Exception:  # noqa: BLE001 - a function the verifier cannot lower is left to the build's error
        return True


@functools.lru_cache(maxsize=8)
def _gpu_code_verifier(target: str):
    """MetaSchedule's ``VerifyGPUCode`` set to ``target``'s limits. Its tuning context is made
    through the FFI constructor, not ``TuneContext()``: the Python constructor first imports
    ``tvm.s_tir.tensor_intrin``, whose ~500 TVMScript intrinsics take ~37 s to parse here (a
    model graph's default build went past the 60 s build limit), and the check uses none of them."""
    # heavy: TVM is imported on use, never with this module
    import tvm
    from tvm.s_tir import meta_schedule as ms
    from tvm.s_tir.meta_schedule import _ffi_api
    from tvm.s_tir.meta_schedule.logging import get_logger, get_logging_func

    context = ms.TuneContext.__new__(ms.TuneContext)
    context.__init_handle_by_constructor__(
        _ffi_api.TuneContext, None, tvm.target.Target(target), None, None, "main", 1, -1,
        get_logging_func(get_logger(__name__)))
    verify = ms.postproc.VerifyGPUCode()
    verify._initialize_with_tune_context(context)  # noqa: SLF001 - what TuneContext.initialize does
    return verify


def schedule(mod, target: dict, workload=None):
    """A copy of ``mod`` with every PrimFunc scheduled by the first dlight rule that applies
    (for a sort, ``workload``'s TOPI GPU kernel instead of ``mod``)."""
    # heavy: TVM is imported on use, never with this module
    import tvm
    from tvm import tirx
    from tvm.s_tir import dlight as dl

    if workload is not None and gpu_compute(workload) is not None:
        mod = gpu_module(workload, target)
    # the pass updates the module it is given in place: never the caller's
    copy = tvm.IRModule(dict(mod.functions), attrs=mod.attrs)
    with tvm.target.Target(target):
        # printing and parsing back costs ~0.3 s a function: only for the rule seen to need it
        out = dl.ApplyDefaultSchedule(*[_Tolerant(getattr(dl.gpu, rule)(), parse_back=rule == "Matmul")
                                        for rule in RULES])(copy)
    for gv, f in list(out.functions.items()):
        if not isinstance(f, tirx.PrimFunc):
            continue
        text = f.script()
        if _opaque(text):
            out.update_func(gv, bind_opaque(f))
        elif not _bound(text):
            out.update_func(gv, bind_leading_spatial(f, target))
    return out


def _bound(text: str) -> bool:
    """Whether a function's TVMScript binds any loop to a thread."""
    return "T.thread_binding(" in text or "T.launch_thread(" in text


def bind_leading_spatial(func, target: dict):
    """What dlight's ``Fallback`` declines (a reduction over a non-rectangular window, as adaptive
    pooling has; a reduction loop that does not start at 0): each top-level block's leading
    spatial loops, fused, split into work-groups of up to 256 work-items and bound. Reductions
    stay serial inside each work-item, as ``Fallback`` would leave them."""
    # heavy: TVM is imported on use, never with this module
    import tvm
    from tvm import s_tir, tirx

    sch = s_tir.Schedule(tvm.IRModule({"main": func}))
    threads = min(256, int(tvm.target.Target(target).attrs.get("max_num_threads", 256)))
    for block in sch.get_child_blocks(sch.get_sblock("root")):
        loops = sch.get_loops(block)
        iters = sch.get(block).iter_vars
        if len(loops) != len(iters):  # not one loop per block axis: leave it to the build's error
            continue
        spatial = 0
        for iv in iters:
            if iv.iter_type != tirx.IterVar.DataPar:  # the first reduction axis ends the prefix
                break
            spatial += 1
        if spatial == 0:
            continue
        fused = sch.fuse(*loops[:spatial]) if spatial > 1 else loops[0]
        outer, inner = sch.split(fused, factors=[None, threads])
        sch.bind(outer, "blockIdx.x")
        sch.bind(inner, "threadIdx.x")
    return sch.mod["main"]


_PARALLEL = re.compile(r"^(\s*)for (\w+) in T\.parallel\((.*)\):\s*$")


def _opaque(text: str) -> bool:
    """An opaque loop nest nothing bound to threads (a function's TVMScript): parallel loops
    written inside one block."""
    return "T.parallel(" in text and not _bound(text)


def bind_opaque(func):
    """``func`` with each outermost parallel loop bound to ``blockIdx.x`` (one work-item per
    work-group) and parallel loops inside it made serial. TVM has no Python IR mutator, so the
    loops are rewritten in the function's TVMScript, which is parsed back (and so checked)."""
    import tvm  # heavy: TVM is imported on use, never with this module

    lines, enclosing = [], []  # indentation of the parallel loops around the current line
    for line in func.script().splitlines():
        indent = len(line) - len(line.lstrip())
        if line.strip():
            while enclosing and indent <= enclosing[-1]:
                enclosing.pop()
        m = _PARALLEL.match(line)
        if m:
            pad, var, extent = m.groups()
            line = (f'{pad}for {var} in T.thread_binding({extent}, thread="blockIdx.x"):' if not enclosing
                    else f"{pad}for {var} in range({extent}):")
            enclosing.append(indent)
        lines.append(line)
    return tvm.script.from_source("\n".join(lines))


def schedule_unbound(mod, target: dict):
    """TVM's default GPU schedules (dlight) for every fused function that binds no loop to a
    thread: the functions a layered trace leaves to the defaults (dlight's primitives are no
    layered-trace steps, so they are applied here, after the trace): a model graph's build on
    a GPU backend."""
    # heavy: TVM is imported on use, never with this module
    import tvm
    from tvm import tirx

    unbound = {gv: f for gv, f in mod.functions.items()
               if isinstance(f, tirx.PrimFunc) and not binds_threads(f)}
    if not unbound:
        return mod
    scheduled = schedule(tvm.IRModule(unbound), target)
    out = tvm.IRModule(dict(mod.functions), attrs=mod.attrs)
    for gv, f in scheduled.functions.items():
        out.update_func(out.get_global_var(gv.name_hint), f)
    return out


def binds_threads(func) -> bool:
    # heavy: TVM is imported on use, never with this module
    import tvm_ffi
    from tvm import tirx

    found = []
    tvm_ffi.structural_walk(func.body, lambda n: found.append(1) if isinstance(n, tirx.For)
                            and n.kind == tirx.ForKind.THREAD_BINDING else None, order="pre")
    return bool(found)
