"""``tvm-default`` on CPU: the fixed rule set that stands for "TVM without tuning".

TVM ships default GPU schedules (dlight) but leaves CPU kernels as plain serial loops, which
would make every submission look brilliant. This rule set is what a user gets from a few lines
of standard TVM scheduling, applied the same way to every PrimFunc:

1. compute layer — inline every non-output spatial block (padding, broadcasts, epilogues that
   feed another block), so each remaining block is a real loop nest;
2. schedule layer, spatial blocks — vectorise the innermost loop (whole if its extent is at most
   64, else split by 16 when divisible), fuse the remaining outer loops and parallelise them;
3. schedule layer, reduction blocks with the reduction loops innermost — move the innermost
   spatial loop inside the reduction (split by 16 when longer than 64) and vectorise it,
   separate the initialisation (``decompose_reduction``), and parallelise the fused outer
   spatial loops; when the innermost spatial extent is 1 (row reductions), only parallelise.

A PrimFunc without schedulable blocks — TOPI's scans and sorts, written as an opaque loop nest
(already parallel over rows) or as a call into TVM's runtime library — is left as TVM lowers it.

No tiling for caches, no packing, no unrolling: those are what tuning and submissions add.
The rules are written as a ``layered-trace`` document, so the baseline is itself a submission
(``examples/bundles/tvm-default``) and goes through exactly the same apply/build path. The
vector factor is fixed (16 lanes) rather than read off the host, so the document is the same
on every machine.
"""

from __future__ import annotations

from evaluator.ir.layered_trace import (Step, TraceApplyError, _apply_step, _is_graph, _Names, document,
                                        schedulable_functions)

VECTOR = 16
WHOLE_VECTOR_MAX = 64
SPATIAL, REDUCE = 0, 2


class _Recorder:
    """Applies candidate steps to a schedule, keeping only those that succeed."""

    def __init__(self, sch):
        self.sch = sch
        self.names = _Names(sch)
        self.layers: dict[str, list[dict]] = {"compute": [], "schedule": [], "memory": []}

    def try_steps(self, layer: str, steps: list[dict]) -> bool:
        trial = self.sch.copy()
        names = _Names(trial)
        names.loops, names.blocks = dict(self.names.loops), dict(self.names.blocks)
        try:
            for s in steps:
                _apply_step(trial, names, Step(layer, 0, s["op"], {k: v for k, v in s.items() if k != "op"}))
        except (TraceApplyError, Exception):  # noqa: BLE001 - any TVM refusal means "rule does not apply"
            return False
        self.sch, self.names = trial, names
        self.layers[layer] += steps
        return True


def _blocks(sch) -> list[str]:
    try:
        root = sch.get_sblock("root")
    except Exception:  # noqa: BLE001 - no root block: an opaque extern body (TOPI scans, sorts)
        return []  # written with its own loops (already parallel); nothing to schedule
    return [sch.get(b).name_hint for b in sch.get_child_blocks(root)]


def _iter_types(sch, name: str) -> list[int]:
    return [int(iv.iter_type) for iv in sch.get(sch.get_sblock(name)).iter_vars]


def _extents(sch, name: str) -> list[int]:
    out = []
    for lp in sch.get_loops(sch.get_sblock(name)):
        ext = sch.get(lp).extent
        out.append(int(ext) if hasattr(ext, "value") or isinstance(ext, int) else -1)
    return out


def _unit_stride(sch, name: str, index: int) -> bool:
    """Whether iterator ``index`` only ever indexes the last (contiguous) axis of what the
    block reads — otherwise vectorising it inside a reduction means strided gathers."""
    from tvm.tirx.analysis import undefined_vars  # heavy: TVM is imported on use, never with this module

    block = sch.get(sch.get_sblock(name))
    var = block.iter_vars[index].var
    for region in block.reads:
        for dim in list(region.region)[:-1]:
            if any(v.same_as(var) for v in undefined_vars(dim.min)):
                return False
    return True


def _is_output(sch, name: str) -> bool:
    outs = {sch.get(b).name_hint for b in sch.get_output_blocks(sch.get_sblock("root"))}
    return name in outs


def default_layers(sch, func_name: str = "main") -> dict[str, list[dict]]:
    """The rule set's steps for one PrimFunc, grouped by layer (``sch`` is left unchanged)."""
    sch = sch.copy()
    sch.work_on(func_name)
    rec = _Recorder(sch)
    for name in _blocks(rec.sch):
        if not _is_output(rec.sch, name) and REDUCE not in _iter_types(rec.sch, name):
            rec.try_steps("compute", [{"op": "compute_inline", "block": name}])
    for bi, name in enumerate(_blocks(rec.sch)):
        _schedule_block(rec, name, f"b{bi}")
    return rec.layers


def _schedule_block(rec: _Recorder, name: str, tag: str) -> None:
    types = _iter_types(rec.sch, name)
    extents = _extents(rec.sch, name)
    n = len(extents)
    loops = [f"{tag}_l{i}" for i in range(n)]
    if n == 0 or len(types) != n or -1 in extents:
        return  # not a plain loop nest over its iterators: leave it as TVM lowers it
    rec.try_steps("schedule", [{"op": "get_loops", "block": name, "into": loops}])
    n_spatial = next((i for i, t in enumerate(types) if t != SPATIAL), n)
    if any(t == SPATIAL for t in types[n_spatial:]):
        rec.try_steps("schedule", [{"op": "parallel", "loop": loops[0]}])
        return  # interleaved spatial/reduction loops: only the simple rule
    spatial = loops[:n_spatial]
    reduce = loops[n_spatial:]
    inner = None
    if spatial and extents[n_spatial - 1] > 1 and (not reduce or _unit_stride(rec.sch, name, n_spatial - 1)):
        last, ext = spatial[-1], extents[n_spatial - 1]
        if ext <= WHOLE_VECTOR_MAX:
            inner, spatial = last, spatial[:-1]
        elif ext % VECTOR == 0:
            outer_name, inner = f"{last}_o", f"{last}_v"
            if rec.try_steps("schedule", [{"op": "split", "loop": last, "factors": [None, VECTOR],
                                           "into": [outer_name, inner]}]):
                spatial = spatial[:-1] + [outer_name]
            else:
                inner = None
    # Steps are recorded in layer order (schedule, then memory) because that is the order in
    # which a layered trace is applied.
    vector_inside_reduce = inner is not None and bool(reduce) and rec.try_steps(
        "schedule", [{"op": "reorder", "loops": spatial + reduce + [inner]}])
    if len(spatial) > 1:
        fused = f"{tag}_par"
        if not rec.try_steps("schedule", [{"op": "fuse", "loops": spatial, "into": fused},
                                          {"op": "parallel", "loop": fused}]):
            rec.try_steps("schedule", [{"op": "parallel", "loop": spatial[0]}])
    elif spatial:
        rec.try_steps("schedule", [{"op": "parallel", "loop": spatial[0]}])
    if vector_inside_reduce:
        init = f"{name}_init"
        if rec.try_steps("memory", [{"op": "decompose_reduction", "block": name,
                                     "loop": reduce[0], "into": init}]):
            init_loops = [f"{tag}_init_l{i}" for i in range(rec_loop_count(rec, init))]
            rec.try_steps("memory", [{"op": "get_loops", "block": init, "into": init_loops},
                                     {"op": "vectorize", "loop": init_loops[-1]}])
            rec.try_steps("memory", [{"op": "vectorize", "loop": inner}])
    elif inner is not None and not reduce:
        rec.try_steps("schedule", [{"op": "vectorize", "loop": inner}])


def rec_loop_count(rec: _Recorder, block: str) -> int:
    return len(rec.sch.get_loops(rec.sch.get_sblock(block)))


def default_document(mod) -> dict:
    """The rule set as a layered-trace document for a canonical module (op or model graph)."""
    from tvm import s_tir  # heavy: TVM is imported on use, never with this module

    sch = s_tir.Schedule(mod)
    if not _is_graph(mod):
        return document(default_layers(sch, "main"))
    return document(functions={f: default_layers(sch, f) for f in schedulable_functions(mod)})
