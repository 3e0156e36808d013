"""The schedule space of one workload, as ``layered-trace`` layers.

The space is built from the TensorIR structure, not from the workload's name, so every
single-PrimFunc workload gets one:

* **compute layer** (fixed by analysis, not searched): inline spatial blocks (never an opaque
  body: a scan's or a scatter's own loop nest) that feed only
  spatial blocks (elementwise chains) or feed a reduction over a small window (padding before
  a pooling or a depthwise 3×3); ``rfactor`` a reduction whose innermost loop runs over the
  contiguous axis but whose output is not contiguous along any inner loop (row sums, gemv,
  the max/sum of softmax and the norms), so the reduction itself vectorises.
* **schedule layer**, per block, by its kind after the compute layer:
  ``spatial`` — vector width (or scalar: a gather, which reads through computed indices, is
  unrolled rather than vectorised), row-wise or flattened, unroll, parallel or not;
  ``tile`` (a reduction whose innermost spatial axis is contiguous: matmul, conv, pooling) —
  an inner tile per spatial axis (the innermost vectorised, the others unrolled), reduction
  loops between the parallel outer tile and the inner tile;
  ``rf`` (the partial-sum block of an rfactor) — rows per step, vectorised partial sums;
  ``fallback`` — the ``tvm-default`` rule for that block.
* **memory layer**, per block: ``tile`` blocks accumulate in a local tile written back once
  (``cache``), only split off the initialisation (``init``), or neither; ``rf`` blocks keep
  their partial sums local and finish them inside the row loop (``fuse``) or not.

A configuration is a flat dict ``{"<block>:<param>": value}``; :meth:`Space.render` turns it
into layers by applying each step to a live schedule, so what it returns is known to apply.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

from evaluator.baselines import tvm_default
from evaluator.ir.layered_trace import LAYERS, Step, _apply_step, _Names

SPATIAL, REDUCE = 0, 2
VECTOR_LANES = 16  # fp32 lanes the compute layer's rfactor splits by (a multiple of every unit's lanes)
SMALL_WINDOW = 32  # reduction volume under which padding is inlined into its consumer
TINY = 4096  # elements under which a spatial block runs serially


class Invalid(ValueError):
    """The configuration does not apply to this workload."""


@dataclass(frozen=True)
class VectorUnit:
    """The target's vector registers, which the prior sizes vectors and register tiles by: fp32
    lanes in one register, and how many registers the ISA has."""

    lanes: int = 16
    registers: int = 32

    @classmethod
    def of(cls, target: dict) -> "VectorUnit":
        """From a cpu-llvm target (``host_target``): its x86-64 ISA level or AArch64's NEON;
        AVX-512's where the target does not say."""
        mcpu, triple = str(target.get("mcpu", "")), str(target.get("mtriple", ""))
        if mcpu == "x86-64-v3":
            return cls(8, 16)  # AVX2: 16 ymm registers of 8 lanes
        if mcpu in ("x86-64", "x86-64-v2"):
            return cls(4, 16)  # SSE
        if triple.startswith("aarch64"):
            return cls(4, 32)  # NEON: 32 q registers of 4 lanes
        return cls()  # x86-64-v4 (AVX-512: 32 zmm registers of 16 lanes), or unknown


@dataclass(frozen=True)
class BlockInfo:
    name: str
    kinds: tuple[str, ...]  # per loop, "S" or "R" ("?" when a loop binds no single iterator)
    extents: tuple[int, ...]
    output: bool
    spatial_unit: bool  # the innermost spatial loop only indexes the last axis of what it reads
    reduce_unit: bool  # the innermost reduction loop only indexes the last axis of what it reads
    consumers: tuple[str, ...]
    gather: bool = False  # it reads through computed indices (resize, index-select): no point access

    @property
    def plain(self) -> bool:
        """Spatial loops first, then reduction loops, every loop one iterator."""
        s = "".join(self.kinds)
        return s == "S" * s.count("S") + "R" * s.count("R")

    @property
    def reduce(self) -> bool:
        return "R" in self.kinds

    @property
    def n_spatial(self) -> int:
        return self.kinds.count("S")

    @property
    def volume(self) -> int:
        return math.prod(self.extents)

    @property
    def window(self) -> bool:
        """A reduction over a small window (pooling, a depthwise 3x3): little reuse to keep in
        registers, unlike a matmul's or a convolution's long reduction."""
        return self.reduce and math.prod(e for e, k in zip(self.extents, self.kinds) if k == "R") < SMALL_WINDOW


def _realize(sch, block_rv):
    import tvm_ffi  # heavy: TVM is imported on use, never with this module

    return tvm_ffi.get_global_func("s_tir.schedule.GetSBlockRealize")(sch, block_rv)


def _only_last_axis(block, var) -> bool:
    from tvm.tirx.analysis import undefined_vars  # heavy: TVM is imported on use, never with this module

    for region in block.reads:
        dims = list(region.region)
        for dim in dims[:-1]:
            if any(v.same_as(var) for v in undefined_vars(dim.min)):
                return False
    return True


def analyse(sch) -> list[BlockInfo]:
    """The blocks of the function ``sch`` works on, in order."""
    try:
        root = sch.get_sblock("root")
    except Exception:  # noqa: BLE001 - TVM's ScheduleError
        # an opaque body (TOPI's scans and sorts: a loop nest of their own or a library call)
        raise Invalid("the function has no schedulable blocks (an opaque body)") from None
    outputs = {sch.get(b).name_hint for b in sch.get_output_blocks(root)}
    out = []
    for rv in sch.get_child_blocks(root):
        realize = _realize(sch, rv)
        block = realize.block
        loops = [sch.get(lp) for lp in sch.get_loops(rv)]
        kinds, extents = [], []
        var_of_loop = []
        for lp in loops:
            hits = [(iv, val) for iv, val in zip(block.iter_vars, realize.iter_values) if val.same_as(lp.loop_var)]
            if len(hits) == 1:
                it = int(hits[0][0].iter_type)
                kinds.append("S" if it == SPATIAL else "R" if it == REDUCE else "?")
                var_of_loop.append(hits[0][0].var)
            else:
                kinds.append("?")
                var_of_loop.append(None)
            extents.append(int(lp.extent) if hasattr(lp.extent, "value") else -1)
        last_s = max((i for i, k in enumerate(kinds) if k == "S"), default=None)
        last_r = max((i for i, k in enumerate(kinds) if k == "R"), default=None)
        su = last_s is not None and var_of_loop[last_s] is not None and _only_last_axis(block, var_of_loop[last_s])
        ru = last_r is not None and var_of_loop[last_r] is not None and _only_last_axis(block, var_of_loop[last_r])
        consumers = tuple(sch.get(c).name_hint for c in sch.get_consumers(rv))
        # an access TVM can only bound by a whole region (a data-dependent or clamped index)
        gather = not all(hasattr(d.extent, "value") and int(d.extent) == 1
                         for r in block.reads for d in r.region)
        out.append(BlockInfo(block.name_hint, tuple(kinds), tuple(extents), block.name_hint in outputs,
                             su, ru, consumers, gather and "R" not in kinds))
    return out


def divisors(n: int, candidates) -> list[int]:
    return [c for c in candidates if 1 <= c <= n and n % c == 0]


# --- the compute layer ----------------------------------------------------------------------

def compute_plan(mod) -> list[dict]:
    """The compute-layer steps chosen by analysis (see the module docstring)."""
    from tvm import s_tir  # heavy: TVM is imported on use, never with this module

    sch = s_tir.Schedule(mod)
    sch.work_on("main")
    try:
        blocks = {b.name: b for b in analyse(sch)}
    except Invalid:
        return []
    steps: list[dict] = []
    for b in blocks.values():
        if b.output or b.reduce or not b.plain or not b.kinds:  # no loops: an opaque body, never inlined
            continue
        cons = [blocks[c] for c in b.consumers if c in blocks]
        small = all(not c.reduce or c.window for c in cons)
        if small:
            steps.append({"op": "compute_inline", "block": b.name})
    for i, b in enumerate(blocks.values()):
        if not (b.reduce and b.plain and b.reduce_unit and b.kinds[-1] == "R"):
            continue
        vectorisable_spatial = b.spatial_unit and b.n_spatial and b.extents[b.n_spatial - 1] > 1
        ext = b.extents[-1]
        kv = next((v for v in (VECTOR_LANES, 8) if ext % v == 0 and ext >= 4 * v), None)
        if vectorisable_spatial or kv is None or b.n_spatial == 0:
            continue
        names = [f"c{i}_l{j}" for j in range(len(b.kinds))]
        steps += [{"op": "get_loops", "block": b.name, "into": names},
                  {"op": "split", "loop": names[-1], "factors": [None, kv], "into": [f"c{i}_ko", f"c{i}_ki"]},
                  {"op": "rfactor", "loop": f"c{i}_ki", "factor_axis": b.n_spatial, "into": f"{b.name}_rf"}]
    # the analysis is a heuristic: a plan TVM refuses (e.g. an inline into an adaptive pool's
    # data-dependent window) is no plan
    try:
        Space(mod, steps)
    except Invalid:
        return []
    return steps


# --- the space ------------------------------------------------------------------------------

@dataclass
class BlockSpace:
    info: BlockInfo
    kind: str  # spatial | tile | rf | rf_final | fallback
    options: dict[str, list] = field(default_factory=dict)  # schedule parameters
    memory: list[str] = field(default_factory=lambda: ["none"])
    weight: float = 1.0  # share of the function's loop volume


class Space:
    """The schedule space of a single-PrimFunc workload, on top of given compute-layer steps."""

    def __init__(self, mod, compute: list[dict], cores: int = 2, unit: VectorUnit = VectorUnit()):
        from tvm import s_tir  # heavy: TVM is imported on use, never with this module

        self.mod = mod
        self.compute = compute
        self.cores = cores
        self.unit = unit
        sch = s_tir.Schedule(mod)
        sch.work_on("main")
        names = _Names(sch)
        try:
            for s in compute:
                _apply_step(sch, names, Step("compute", 0, s["op"], {k: v for k, v in s.items() if k != "op"}))
        except Exception as e:  # noqa: BLE001 - any TVM refusal means the compute layer does not apply
            raise Invalid(f"the compute layer does not apply: {e}") from None
        self.base = sch
        self.rf_of = {s["into"].removesuffix("_rf"): s["into"] for s in compute if s["op"] == "rfactor"}
        infos = analyse(sch)
        total = sum(b.volume for b in infos if b.volume > 0) or 1
        self.blocks = [self._block_space(b, max(b.volume, 1) / total) for b in infos]

    # --- options per block ---------------------------------------------------------------
    def _block_space(self, b: BlockInfo, weight: float) -> BlockSpace:
        if b.name in self.rf_of.values() and "".join(b.kinds).endswith("RS") and -1 not in b.extents:
            rows = math.prod(b.extents[:-2])
            return BlockSpace(b, "rf", {"rows": divisors(rows, (1, 2, 4, 8)) or [1]}, ["fuse", "none"], weight)
        if not b.plain or -1 in b.extents or not b.extents:
            return BlockSpace(b, "fallback", weight=weight)
        if b.name in self.rf_of:
            return BlockSpace(b, "rf_final", weight=weight)
        if not b.reduce:
            vec = [v for v in (8, 16, 32, 64) if b.volume % v == 0]
            if b.volume < TINY:  # a parallel region costs more than the work
                # the whole row as one vector where it is short, the narrowest width that divides
                # the block, or scalar code: cmvn's 98x40 normalisation ran in 5.7 us at 8 lanes
                # and 1.25 us with the whole 40-wide row or none (tvm-default's: 0.4 us). Its
                # loops fused first: qavg-pool2d's 64x12x2 average ran in 9 us row by row, 3 us
                # fused (tvm-default's: 7.5 us)
                row = b.extents[-1]
                widths = list(dict.fromkeys(([row] if 1 < row <= 64 else []) + vec[:1] + [1]))
                shapes = ["flat", "rows"] if len(b.extents) > 1 else ["rows"]
                return BlockSpace(b, "spatial", {"shape": shapes, "vec": widths, "unroll": [1],
                                                 "parallel": [False]}, weight=weight)
            # width 1: scalar code, for a gather a vector loop only serialises (a bilinear resize
            # vectorised ran at half tvm-default's speed)
            return BlockSpace(b, "spatial", {"shape": ["rows", "flat"], "vec": [1] + vec,
                                             "unroll": [1, 4, 8] if b.gather else [1, 4],
                                             "parallel": [True, False]}, weight=weight)
        n = b.n_spatial
        if n == 0:
            return BlockSpace(b, "fallback", weight=weight)
        ext = b.extents[:n]
        vector = b.spatial_unit and ext[-1] > 1
        inner = [(i, e) for i, e in enumerate(ext) if e > 1][-3:]
        options: dict[str, list] = {}
        for pos, (i, e) in enumerate(reversed(inner)):
            if pos == 0 and vector:
                choice = divisors(e, (4, 7, 8, 14, 16, 28, 32, 64)) or [e if e <= 64 else 1]
            else:
                choice = divisors(e, (1, 2, 4, 8, 16))
            options[f"t{i}"] = choice or [1]
        return BlockSpace(b, "tile", options, ["cache", "init", "none"], weight)

    # --- configurations ------------------------------------------------------------------
    def keys(self, memory: bool = True) -> dict[str, list]:
        """Every parameter of the space with its ordered choices."""
        out: dict[str, list] = {}
        for bs in self.blocks:
            for k, v in bs.options.items():
                out[f"{bs.info.name}:{k}"] = list(v)
            if memory and len(bs.memory) > 1:
                out[f"{bs.info.name}:mem"] = list(bs.memory)
        return out

    def configs(self, memory: bool = True, limit: int = 20000):
        keys = self.keys(memory)
        names = list(keys)
        for values in itertools.islice(itertools.product(*(keys[k] for k in names)), limit):
            yield dict(zip(names, values))

    # --- rendering -----------------------------------------------------------------------
    def render(self, config: dict, memory: bool = True) -> dict[str, list]:
        """The layers for ``config``; :class:`Invalid` when a step does not apply."""
        rec = _Live(self.base.copy())
        layers = {"compute": list(self.compute), "schedule": [], "memory": []}
        mem_plans = []
        for bi, bs in enumerate(self.blocks):
            p = {k.split(":", 1)[1]: v for k, v in config.items() if k.split(":", 1)[0] == bs.info.name}
            sched, mem = _RENDER[bs.kind](self, rec, bs, f"b{bi}", p)
            layers["schedule"] += sched
            if memory:
                mem_plans.append((bs, f"b{bi}", p.get("mem", "none"), mem))
        for bs, tag, choice, mem in mem_plans:
            if mem is not None and (choice != "none" or bs.kind == "fallback"):
                layers["memory"] += mem(choice)
        return layers


class _Live:
    """A schedule the rendered steps are applied to as they are written (so they are valid)."""

    def __init__(self, sch):
        self.sch = sch
        self.names = _Names(sch)

    def apply(self, layer: str, steps: list[dict]) -> list[dict]:
        for s in steps:
            try:
                _apply_step(self.sch, self.names, Step(layer, 0, s["op"], {k: v for k, v in s.items() if k != "op"}))
            except Exception as e:  # noqa: BLE001 - TVM's refusal: this configuration is invalid
                raise Invalid(f"{s['op']}: {str(e).strip().splitlines()[-1][:200] if str(e).strip() else e}") from None
        return steps

    def loops(self, block: str) -> int:
        return len(self.sch.get_loops(self.names.block(block)))


def _render_spatial(space, rec: _Live, bs: BlockSpace, tag: str, p: dict):
    b = bs.info
    n = len(b.extents)
    loops = [f"{tag}_l{i}" for i in range(n)]
    steps = rec.apply("schedule", [{"op": "get_loops", "block": b.name, "into": loops}])
    vec, unroll, par = p.get("vec", 16), p.get("unroll", 1), p.get("parallel", True)
    if p.get("shape", "rows") == "flat" and n > 1:
        steps += rec.apply("schedule", [{"op": "fuse", "loops": loops, "into": f"{tag}_flat"}])
        outer, last, ext = [], f"{tag}_flat", b.volume
    else:
        outer, last, ext = loops[:-1], loops[-1], b.extents[-1]
    inner = None
    if vec == 1:  # scalar: the innermost loop unrolled (when the factor divides it), never vectorised
        if unroll > 1 and ext > unroll and ext % unroll == 0:
            steps += rec.apply("schedule", [{"op": "split", "loop": last, "factors": [None, unroll],
                                             "into": [f"{tag}_o", f"{tag}_u"]}])
            outer, inner = outer + [f"{tag}_o"], f"{tag}_u"
        else:
            outer = outer + [last]
    elif ext > vec and ext % vec == 0:
        factors = [None, unroll, vec] if unroll > 1 and (ext // vec) % unroll == 0 else [None, vec]
        into = [f"{tag}_o", f"{tag}_u", f"{tag}_v"][-len(factors):] if len(factors) == 3 else [f"{tag}_o", f"{tag}_v"]
        steps += rec.apply("schedule", [{"op": "split", "loop": last, "factors": factors, "into": into}])
        outer = outer + [into[0]]
        if len(into) == 3:
            steps += rec.apply("schedule", [{"op": "unroll", "loop": into[1]}])
        inner = into[-1]
    elif ext <= 64:
        inner = last
    else:
        raise Invalid(f"vector width {vec} does not divide {ext}")
    if par and outer:
        if len(outer) > 1:
            steps += rec.apply("schedule", [{"op": "fuse", "loops": outer, "into": f"{tag}_par"}])
            outer = [f"{tag}_par"]
        steps += rec.apply("schedule", [{"op": "parallel", "loop": outer[0]}])
    if inner is not None:
        steps += rec.apply("schedule", [{"op": "vectorize" if vec > 1 else "unroll", "loop": inner}])
    return steps, None


def _render_tile(space, rec: _Live, bs: BlockSpace, tag: str, p: dict):
    b = bs.info
    n = b.n_spatial
    loops = [f"{tag}_l{i}" for i in range(len(b.extents))]
    steps = rec.apply("schedule", [{"op": "get_loops", "block": b.name, "into": loops}])
    outer, inner = [], []
    for i in range(n):
        t = p.get(f"t{i}", 1)
        e = b.extents[i]
        if t <= 1 or e == 1:
            outer.append(loops[i])
        elif t >= e:
            inner.append(loops[i])
        else:
            o, v = f"{tag}_s{i}o", f"{tag}_s{i}i"
            steps += rec.apply("schedule", [{"op": "split", "loop": loops[i], "factors": [None, t], "into": [o, v]}])
            outer.append(o)
            inner.append(v)
    reduce = loops[n:]
    steps += rec.apply("schedule", [{"op": "reorder", "loops": outer + reduce + inner}])
    tile = None
    if outer:
        if len(outer) > 1:
            steps += rec.apply("schedule", [{"op": "fuse", "loops": outer, "into": f"{tag}_tile"}])
            tile = f"{tag}_tile"
        else:
            tile = outer[0]
        steps += rec.apply("schedule", [{"op": "parallel", "loop": tile}])
    vector_last = bool(inner) and inner[-1] in (loops[n - 1], f"{tag}_s{n - 1}i") and b.spatial_unit
    for lp in inner[:-1]:
        steps += rec.apply("schedule", [{"op": "unroll", "loop": lp}])
    if inner:
        steps += rec.apply("schedule", [{"op": "vectorize" if vector_last else "unroll", "loop": inner[-1]}])

    def memory(choice: str) -> list[dict]:
        if tile is None or not reduce:
            return []
        if choice == "cache":
            acc = f"{tag}_acc"
            m = rec.apply("memory", [
                {"op": "cache_write", "block": b.name, "buffer_index": 0, "scope": "local", "into": acc},
                {"op": "reverse_compute_at", "block": acc, "loop": tile, "preserve_unit_loops": True},
                {"op": "decompose_reduction", "block": b.name, "loop": reduce[0], "into": f"{tag}_init"}])
            names = [f"{tag}_w{i}" for i in range(rec.loops(acc))]
            m += rec.apply("memory", [{"op": "get_loops", "block": acc, "into": names}])
            if vector_last:
                m += rec.apply("memory", [{"op": "vectorize", "loop": names[-1]}])
            return m
        if choice == "init":
            m = rec.apply("memory", [{"op": "decompose_reduction", "block": b.name, "loop": reduce[0],
                                      "into": f"{tag}_init"}])
            names = [f"{tag}_i{i}" for i in range(rec.loops(f"{tag}_init"))]
            m += rec.apply("memory", [{"op": "get_loops", "block": f"{tag}_init", "into": names}])
            if vector_last:
                m += rec.apply("memory", [{"op": "vectorize", "loop": names[-1]}])
            return m
        return []

    return steps, memory


def _render_rf(space, rec: _Live, bs: BlockSpace, tag: str, p: dict):
    """The partial-sum block [spatial…, k_outer (R), k_lanes (S)]: rows per step, lanes vectorised."""
    b = bs.info
    loops = [f"{tag}_l{i}" for i in range(len(b.extents))]
    steps = rec.apply("schedule", [{"op": "get_loops", "block": b.name, "into": loops}])
    spatial, ko, lanes = loops[:-2], loops[-2], loops[-1]
    if len(spatial) > 1:
        steps += rec.apply("schedule", [{"op": "fuse", "loops": spatial, "into": f"{tag}_rows"}])
        spatial = [f"{tag}_rows"]
    rows = p.get("rows", 1)
    if rows > 1:
        steps += rec.apply("schedule", [{"op": "split", "loop": spatial[0], "factors": [None, rows],
                                         "into": [f"{tag}_ro", f"{tag}_ri"]}])
        steps += rec.apply("schedule", [{"op": "reorder", "loops": [f"{tag}_ro", ko, f"{tag}_ri", lanes]}])
        outer = f"{tag}_ro"
        steps += rec.apply("schedule", [{"op": "parallel", "loop": outer},
                                        {"op": "unroll", "loop": f"{tag}_ri"}])
    else:
        outer = spatial[0]
        steps += rec.apply("schedule", [{"op": "parallel", "loop": outer}])
    steps += rec.apply("schedule", [{"op": "vectorize", "loop": lanes}])
    final = next(k for k, v in space.rf_of.items() if v == b.name)

    def memory(choice: str) -> list[dict]:
        if choice != "fuse":
            return []
        m = rec.apply("memory", [{"op": "reverse_compute_at", "block": final, "loop": outer},
                                 {"op": "set_scope", "block": b.name, "buffer_index": 0, "scope": "local"}])
        names = [f"{tag}_f{i}" for i in range(rec.loops(final))]
        m += rec.apply("memory", [{"op": "get_loops", "block": final, "into": names},
                                  {"op": "unroll", "loop": names[-1]}])
        return m

    return steps, memory


def _render_rf_final(space, rec: _Live, bs: BlockSpace, tag: str, p: dict):
    """The lane-sum block: parallel over its rows (moved under the row loop by ``fuse``)."""
    b = bs.info
    loops = [f"{tag}_l{i}" for i in range(len(b.extents))]
    spatial = loops[:b.n_spatial]
    steps = rec.apply("schedule", [{"op": "get_loops", "block": b.name, "into": loops}])
    if len(spatial) > 1:
        steps += rec.apply("schedule", [{"op": "fuse", "loops": spatial, "into": f"{tag}_par"}])
        spatial = [f"{tag}_par"]
    if spatial:
        steps += rec.apply("schedule", [{"op": "parallel", "loop": spatial[0]}])
    return steps, None


def _render_fallback(space, rec: _Live, bs: BlockSpace, tag: str, p: dict):
    """The ``tvm-default`` rule for this one block."""
    inner = tvm_default._Recorder(rec.sch)  # noqa: SLF001 - replays the default's rules
    inner.names = rec.names
    tvm_default._schedule_block(inner, bs.info.name, tag)  # noqa: SLF001 - same package
    rec.sch, rec.names = inner.sch, inner.names
    # its memory steps (if any) are already applied: they are always part of the document
    return inner.layers["schedule"], (lambda choice, m=inner.layers["memory"]: m)


_RENDER = {"spatial": _render_spatial, "tile": _render_tile, "rf": _render_rf,
           "rf_final": _render_rf_final, "fallback": _render_fallback}


def layers_equal(a: dict, b: dict) -> bool:
    return all(a.get(k, []) == b.get(k, []) for k in LAYERS)
