"""Prompts, built per task from the workload, from versioned templates.

A template set is frozen once released: changing a word means a new version, so a board can say
exactly which prompt produced a row. Each result stores the version and the digest of its
template set (:func:`PromptSet.digest`).

What a task prompt carries: the workload's compute as TVMScript (the canonical TensorIR the
schedule applies to), its blocks with their loops (spatial or reduction, extents), the input and
output tensors with shapes and dtypes, the backend with its target and constraints, and the
required output format for the mode. After each measurement the model gets the outcome: the
compile error, the correctness report, or the measured time and speedup — in words and as one
machine-readable ``RESULT {...}`` line.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from evaluator.harness.protocol import tolerance
from evaluator.ir import layered_trace
from evaluator.ir.layered_trace import _is_graph, schedulable_functions
from evaluator.vocabulary import BackendKind, Baseline, Status

CURRENT = "ekb-prompt/1"
MAX_SCRIPT_CHARS = 60_000

_V1 = {
    "system": """\
You are an expert in compiler optimisation writing compute kernels for Apache TVM 0.27 (TensorIR).
Each task gives a fixed computation in TVMScript; your job is a faster kernel for the stated
backend that computes exactly the same outputs. Kernels are compiled, checked for correctness on
random inputs (tolerance {tolerance} for {dtype}) and timed against TVM's default schedule
(`tvm-default`); a speedup of at least 1.0 counts as fast.

Answer formats:
{formats}
Put exactly one kernel in your reply, in one fenced code block. Text outside it is ignored.""",

    "formats_full": """\
* `layered-trace` (preferred): a JSON document of TensorIR schedule primitives applied to the
  canonical computation below, grouped into three layers applied in order compute → schedule →
  memory. Reply with a ```json block:
  {{"format": "layered-trace", "version": 1, "layers": {{"compute": [...], "schedule": [...], "memory": [...]}}}}
  Each step is {{"op": <primitive>, ...arguments}}. Blocks are named as in the TVMScript; loops
  get names when you bind them (`get_loops` "into", `split` "into", `fuse` "into").
{ops}
* `tvmscript`: a complete `@T.prim_func(s_tir=True)` with the same parameters (names, shapes,
  dtypes) in a ```python block (no import lines; `T` is tvm.script.tirx).""",

    "formats_layer": """\
* One layer of a `layered-trace` schedule at a time. Reply with a ```json block
  {{"layer": "<the layer asked for>", "steps": [...], "advance": false}}
  where each step is {{"op": <primitive>, ...arguments}}; blocks are named as in the TVMScript,
  loops get names when you bind them (`get_loops` "into", `split` "into", `fuse` "into"), and
  names bound in earlier layers stay valid. The steps replace that layer of the current
  document. Set "advance": true when the layer is done (the next layer is asked for then).
{ops}""",

    "task": """\
Task: {workload}
Pattern: {pattern} — {summary}
Level: {level}; domains: {domains}; dtype: {dtype}
Inputs: {inputs}
Outputs: {outputs}
Work: {mflop:.3f} MFLOP, {kib:.0f} KiB of compulsory traffic

Backend: {backend} — {device}, {arch}
Target: {target}
Constraints: {constraints}

The computation (canonical TensorIR; your schedule applies to it, a TVMScript kernel replaces it):
```python
{script}
```
Blocks and their loops (S = spatial, R = reduction):
{blocks}

Budget: {candidates} measured candidates{budget_note}.
{ask}""",

    "ask_direct": "Reply with your fastest correct kernel.",
    "ask_agent": ("Reply with a kernel. After each one you get its compile errors, correctness report "
                  "or measured time; improve on it. The fastest correct kernel counts."),
    "ask_layered": ("We work layer by layer: compute (what is computed where: inlining, rfactor), then "
                    "schedule (loop structure and parallelism), then memory (caches, scopes, "
                    "compute_at). Each reply edits one layer; it is measured at once."),

    "stage": """\
Layer: {layer} (stage {stage} of 3; this layer may still use {left} measured candidates).
Current document (the best correct one so far{best_note}):
```json
{document}
```
Reply with the steps of the `{layer}` layer.""",

    "feedback": """\
Candidate {n}: {headline}
{detail}
Best so far: {best}. Measured candidates left: {left}.
RESULT {result}""",

    "no_kernel": """\
Reply {n} held no kernel to measure: {why}
Reply with exactly one fenced code block in the required format.""",
}

TEMPLATES: dict[str, dict[str, str]] = {"ekb-prompt/1": _V1}

_CPU = ("CPU through LLVM; no GPU thread binding (`bind`); `parallel` spreads a loop over the "
        "{cores} cores; `vectorize` maps to SIMD (keep the vectorised loop contiguous in "
        "memory and its extent a multiple of the vector width); `local` scope means a "
        "per-thread buffer (registers or stack).")
_CONSTRAINTS = {
    BackendKind.CPU_LLVM: _CPU,
    BackendKind.CPU_EDGE: _CPU,  # the same CPU, fewer cores (the target's num-cores says how many)
    BackendKind.OPENCL: ("OpenCL device: bind loops to blockIdx/threadIdx; shared memory is `shared`, "
                         "registers `local`."),
    BackendKind.CUDA: "CUDA GPU: bind loops to blockIdx/threadIdx; shared memory is `shared`, registers `local`.",
    BackendKind.CUDA_EDGE: "CUDA GPU held to an edge share of its SMs (a Jetson Orin-class stand-in): bind loops to "
                           "blockIdx/threadIdx; shared memory is `shared`, registers `local`.",
}


@dataclass(frozen=True)
class PromptSet:
    version: str

    def __post_init__(self):
        if self.version not in TEMPLATES:
            raise ValueError(f"unknown prompt version {self.version!r}; known: {sorted(TEMPLATES)}")

    @property
    def t(self) -> dict[str, str]:
        return TEMPLATES[self.version]

    def digest(self) -> str:
        return hashlib.sha256(json.dumps(self.t, sort_keys=True).encode()).hexdigest()[:16]

    def describe(self) -> dict:
        return {"version": self.version, "digest": self.digest()}

    # --- the task ----------------------------------------------------------------------------
    def system(self, w, mode: str) -> str:
        atol, rtol = tolerance(w.dtype)
        tol = "exact" if atol == 0 and rtol == 0 else f"{atol:g} absolute + {rtol:g} relative"
        fmt = self.t["formats_layer" if mode == "layered" else "formats_full"].format(ops=_ops_text())
        return self.t["system"].format(tolerance=tol, dtype=w.dtype, formats=fmt)

    def task(self, w, backend_info, mode: str, budget) -> str:
        script = w.canonical_module().script()
        if len(script) > MAX_SCRIPT_CHARS:
            script = script[:MAX_SCRIPT_CHARS] + "\n# … (truncated)"
        cores = backend_info.target.get("num-cores", "?") if isinstance(backend_info.target, dict) else "?"
        constraints = _CONSTRAINTS.get(backend_info.name.split(":")[0], "see the target").format(cores=cores)
        note = {"direct": " (independent samples; the first one is your score, all of them Correct@k)",
                "agent": " (one per reply that holds a kernel)",
                "layered": " over the three layers"}[mode]
        return self.t["task"].format(
            workload=w.id, pattern=w.pattern.id, summary=w.pattern.summary, level=w.level,
            domains=", ".join(w.domains), dtype=w.dtype,
            inputs=", ".join(f"{t.name} {list(t.shape)} {t.dtype}" for t in w.inputs),
            outputs=", ".join(f"{t.name} {list(t.shape)} {t.dtype}" for t in w.outputs),
            mflop=w.flops / 1e6, kib=w.bytes / 1024, backend=backend_info.name,
            device=backend_info.device, arch=backend_info.arch,
            target=json.dumps(backend_info.target, sort_keys=True), constraints=constraints,
            script=script.strip(), blocks=blocks_text(w), candidates=budget.candidates,
            budget_note=note, ask=self.t[f"ask_{mode}"])

    def stage(self, layer: str, stage: int, left: int, document: dict, best: str) -> str:
        return self.t["stage"].format(layer=layer, stage=stage, left=left,
                                      document=json.dumps(document, indent=1), best_note=best)

    def feedback(self, n: int, result, best: str, left: int) -> str:
        """What the model learns after candidate ``n`` was measured (a TaskResult)."""
        res = {"candidate": n, "status": result.status}
        if result.correct:
            ms = result.times["candidate"].median_s * 1e3
            base = result.times.get(Baseline.TVM_DEFAULT)
            spd = result.speedup.get(Baseline.TVM_DEFAULT)
            headline = f"correct; {ms:.4f} ms" + (f", {spd:.3f}× tvm-default" if spd else "")
            detail = (f"tvm-default takes {base.median_s * 1e3:.4f} ms." if base else "")
            res.update(time_ms=round(ms, 6), speedup=round(spd, 4) if spd else None)
        else:
            headline = {Status.COMPILE_ERROR: "did not compile", Status.WRONG_RESULT: "wrong result",
                        Status.RUNTIME_ERROR: "failed at run time", Status.TIMEOUT: "timed out"}.get(
                result.status, result.status)
            detail = result.reason[:3000]
            res["reason"] = result.reason[:300]
        return self.t["feedback"].format(n=n, headline=headline, detail=detail, best=best, left=left,
                                         result=json.dumps(res, sort_keys=True))

    def no_kernel(self, n: int, why: str) -> str:
        return self.t["no_kernel"].format(n=n, why=why)


def _ops_text() -> str:
    lines = []
    for layer in layered_trace.LAYERS:
        ops = sorted(layered_trace.LAYER_OPS[layer])
        lines.append(f"  {layer} layer: {', '.join(ops)}")
    lines.append("  Arguments: " + "; ".join(
        f"{op}({', '.join(f'{a}: {k}' for a, k in spec.items())})" for op, spec in layered_trace.OPS.items()))
    lines.append("  (factors: list with at most one null = inferred; scope: global|local|shared; "
                 "compute_at/reverse_compute_at take optional preserve_unit_loops)")
    return "\n".join(lines)


def blocks_text(w) -> str:
    """One line per block: its loops with kind and extent (first PrimFunc only for a graph)."""
    from tvm import s_tir  # heavy: TVM is imported on use, never with this module

    mod = w.canonical_module()
    sch = s_tir.Schedule(mod)
    funcs = schedulable_functions(mod) if _is_graph(mod) else ["main"]
    out = []
    for fname in funcs[:40]:
        sch.work_on(fname)
        try:
            root = sch.get_sblock("root")
        except Exception:  # noqa: BLE001 - TVM's ScheduleError: an opaque body (scan, sort)
            out.append(f"  {'' if fname == 'main' else fname + ': '}an opaque body with no schedulable blocks")
            continue
        for b in sch.get_child_blocks(root):
            blk = sch.get(b)
            kinds = ["S" if int(iv.iter_type) == 0 else "R" if int(iv.iter_type) == 2 else "O"
                     for iv in blk.iter_vars]
            loops = [sch.get(lp) for lp in sch.get_loops(b)]
            ext = [int(lp.extent) if hasattr(lp.extent, "value") else str(lp.extent) for lp in loops]
            where = "" if fname == "main" else f"{fname}: "
            out.append(f"  {where}{blk.name_hint}: loops {ext}, iterators {''.join(kinds)}")
    return "\n".join(out)
