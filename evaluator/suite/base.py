"""The benchmark model: patterns (what is computed) and workloads (a pattern at concrete shapes).

A pattern file declares one ``PATTERN`` (an :class:`OpPattern` for L1/L2, a :class:`GraphPattern`
for L3) or a family of them as ``PATTERNS``. Everything the rest of the evaluator needs — canonical
IR, input/output specs, FLOP and byte counts, the independent NumPy reference, the vendor call — is
derived here, so adding a pattern never touches the harness.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

# The suite's registry (``layers_of``), as a module: ``evaluator.suite`` imports this one, so its
# names are looked up when called, never while the two are being imported.
from evaluator import suite

if TYPE_CHECKING:
    from evaluator.suite.declare import Layer
    from evaluator.suite.heldout import ShapeSpace

LEVELS = ("L1", "L2", "L3")
DOMAINS = (
    "vision",
    "audio",
    "language",
    "anomaly-detection",
    "signal-processing",
    "recommendation",
    "linear-algebra",
)

# How a random input is drawn. Names rather than callables so workloads stay plain data.
INITS = ("normal", "uniform", "positive", "randint", "permutation", "distinct", "quantizable")


@dataclass(frozen=True)
class Tensor:
    """A named tensor in a workload signature."""

    name: str
    shape: tuple[int, ...]
    dtype: str = "float32"
    init: str = "normal"
    # For init="randint": values drawn from [low, high); for init="permutation": every row (last
    # axis) holds distinct values of [0, high), e.g. scatter indices that never collide; for
    # init="distinct": normal values, none repeated within a row (an argsort's answer is then the
    # only one: a tenth of 16x1000 float32 normal draws hold a tie); for init="quantizable": rows
    # of s * (k + u), s a power of two per row, k an integer in [-127, 127] (one element at 127 s),
    # |u| <= 3/8, so a row's max|x| / 127 is s exactly and x / scale is never near a half: a
    # dynamic quantisation's answer does not hang on how a device divides (one element of
    # normal draws, 15.4999... in IEEE float32, read 16 from TVM's own kernel on the H200).
    low: int = 0
    high: int = 2
    # Floating draws are multiplied by this, e.g. sqrt(2 / fan_in) for the weights of a deep
    # graph, so activations stay O(1) and the fixed absolute tolerance stays meaningful.
    scale: float = 1.0

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) * np.dtype(self.dtype).itemsize

    def to_json(self) -> dict:
        return {"name": self.name, "shape": list(self.shape), "dtype": self.dtype}


@dataclass(frozen=True)
class Workload:
    """A shape instance of a pattern, as written in a pattern file."""

    tag: str
    params: dict[str, Any]
    hidden: bool = False  # held out: drawn from the deployment's secret (suite.heldout), never written
    domains: tuple[str, ...] = ()  # added to the pattern's domains
    # Where the shape comes from when it is another benchmark's (e.g. TVM's te_workload,
    # KernelBench): shown with the workload, never part of its tag.
    source: str = ""


@dataclass(frozen=True)
class Pattern:
    id: str
    family: str
    level: str
    domains: tuple[str, ...]
    summary: str
    inputs: Callable[[dict], Sequence[Tensor]]
    reference: Callable[..., Any]
    flops: Callable[[dict], int]
    workloads: Sequence[Workload]
    vendor: Callable[..., Any] | None = None  # vendor(p, *inputs) -> output(s), e.g. NumPy/BLAS
    # Bytes a kernel must move, when not every input element is read (gathers); by default
    # every input is read once and every output written once.
    traffic: Callable[[dict], int] | None = None
    # Where its held-out shapes are drawn from (``suite.heldout``); None: the default space
    # derived from the public workloads.
    shape_space: "ShapeSpace | None" = None

    def __post_init__(self):
        if self.level not in LEVELS:
            raise ValueError(f"{self.id}: level {self.level!r} not in {LEVELS}")
        bad = [d for d in self.domains if d not in DOMAINS]
        if bad:
            raise ValueError(f"{self.id}: unknown domains {bad}; known: {DOMAINS}")
        if self.family != self.id.split("/")[0]:
            raise ValueError(f"{self.id}: id must start with its family {self.family!r}/")


@dataclass(frozen=True)
class OpPattern(Pattern):
    """L1 operator or L2 fused subgraph: a TE/TOPI compute → one PrimFunc ``main``."""

    # compute(p, *placeholders) -> te.Tensor or list of te.Tensor (the outputs)
    compute: Callable[..., Any] = None  # type: ignore[assignment]
    # The same computation as TOPI's GPU kernel, where ``compute`` has none a GPU can run (it
    # calls a CPU library): what TVM's default GPU path builds (``baselines/dlight_default.py``).
    gpu_compute: Callable[..., Any] | None = None


@dataclass(frozen=True)
class GraphPattern(Pattern):
    """L3 compact model graph: a Relax ``main`` function (weights are inputs after the data).

    ``graph(p)`` returns a ``tvm.relax.frontend.nn.Module`` whose ``main`` method is the model;
    ``inputs(p)`` must list the data inputs then the parameters in export order (checked).
    """

    graph: Callable[[dict], Any] = None  # type: ignore[assignment]
    # The model as its layers: (layer, how many times) of the L1/L2 shapes it is made of, so a
    # model's cost can be read layer by layer and each layer tuned on its own. A layer is a
    # pattern and its parameters (``declare.Layer``): the suite resolves it to a workload, public
    # or (for a held-out graph) held out, and its FLOPs add up to the model's.
    layers: "Callable[[dict], list[tuple[Layer, int]]] | None" = None


@dataclass
class WorkloadDef:
    """A workload resolved against its pattern: the unit the harness evaluates."""

    pattern: Pattern
    spec: Workload
    id: str = field(init=False)

    def __post_init__(self):
        self.id = f"{self.pattern.id}@{self.spec.tag}"

    # --- metadata -------------------------------------------------------------------------
    @property
    def level(self) -> str:
        return self.pattern.level

    @property
    def family(self) -> str:
        return self.pattern.family

    @property
    def hidden(self) -> bool:
        return self.spec.hidden

    @property
    def params(self) -> dict:
        return dict(self.spec.params)

    @property
    def domains(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.pattern.domains + self.spec.domains))

    @property
    def source(self) -> str:
        return self.spec.source

    @property
    def dtype(self) -> str:
        return self.spec.params.get("dtype", "float32")

    @functools.cached_property
    def inputs(self) -> list[Tensor]:
        return list(self.pattern.inputs(self.params))

    @functools.cached_property
    def outputs(self) -> list[Tensor]:
        return _output_specs(self)

    def signature(self) -> list[dict]:
        """The kernel's arguments in order, inputs then outputs (what raw sources bind to)."""
        return ([{"name": t.name, "shape": list(t.shape), "dtype": t.dtype, "role": "input"} for t in self.inputs]
                + [{"name": t.name, "shape": list(t.shape), "dtype": t.dtype, "role": "output"}
                   for t in self.outputs])

    @property
    def flops(self) -> int:
        return int(self.pattern.flops(self.params))

    @property
    def bytes(self) -> int:
        """Compulsory traffic: every input read once, every output written once."""
        if self.pattern.traffic is not None:
            return int(self.pattern.traffic(self.params))
        return sum(t.nbytes for t in self.inputs) + sum(t.nbytes for t in self.outputs)

    @property
    def has_vendor(self) -> bool:
        return self.pattern.vendor is not None

    def describe(self, secret: str | None = None) -> dict:
        """The workload as JSON; a model graph's layers as the workloads they are (held-out ones,
        for a held-out graph, under ``secret``: default the configured one)."""
        out = {
            "workload": self.id,
            "pattern": self.pattern.id,
            "family": self.family,
            "level": self.level,
            "domains": list(self.domains),
            "dtype": self.dtype,
            "hidden": self.hidden,
            "inputs": [t.to_json() for t in self.inputs],
            "outputs": [t.to_json() for t in self.outputs],
            "flops": self.flops,
            "bytes": self.bytes,
            "vendor": self.has_vendor,
            "summary": self.pattern.summary,
            "source": self.source,
        }
        if isinstance(self.pattern, GraphPattern) and self.pattern.layers is not None:
            out["layers"] = [{"workload": w.id, "count": n} for w, n in suite.layers_of(self, secret)]
        return out

    # --- IR ---------------------------------------------------------------------------------
    def placeholders(self):
        """The inputs as TE placeholders: what the pattern's compute (or a GPU kernel of it) takes."""
        from tvm import te  # heavy: TVM is imported on use, never with this module

        return [te.placeholder(t.shape, dtype=t.dtype, name=t.name) for t in self.inputs]

    def canonical_module(self):
        """The canonical IRModule: ``main`` PrimFunc (L1/L2) or Relax ``main`` whose fused
        PrimFuncs are what a schedule addresses (L3). Built fresh on each call."""
        if isinstance(self.pattern, GraphPattern):
            return _graph_module(self)
        return _op_module(self)

    # --- reference and vendor ---------------------------------------------------------------
    def reference(self, arrays: Sequence[np.ndarray]) -> list[np.ndarray]:
        """Independent NumPy reference, computed in float64/int64 then cast to output dtypes."""
        wide = [_widen(a) for a in arrays]
        out = self.pattern.reference(self.params, *wide)
        outs = list(out) if isinstance(out, (list, tuple)) else [out]
        return [np.asarray(o).astype(spec.dtype) for o, spec in zip(outs, self.outputs)]

    def vendor_call(self) -> Callable[..., Any] | None:
        if self.pattern.vendor is None:
            return None
        call = functools.partial(self.pattern.vendor, self.params)
        if not any(t.dtype == "bfloat16" for t in self.inputs):
            return call
        # NumPy has no bfloat16 arithmetic (ml_dtypes emulates it element by element, rounding
        # every step): a user computes on float32 copies and stores the result as bfloat16
        dtypes = [t.dtype for t in self.outputs]

        def on_float32(*xs):
            out = call(*[x.astype(np.float32) if x.dtype.name == "bfloat16" else x for x in xs])
            outs = [np.asarray(o).astype(d) for o, d in zip(out if isinstance(out, (list, tuple)) else [out], dtypes)]
            return outs if isinstance(out, (list, tuple)) else outs[0]
        return on_float32


def _widen(a: np.ndarray) -> np.ndarray:
    # ml_dtypes' bfloat16 is not a NumPy floating subtype
    if np.issubdtype(a.dtype, np.floating) or a.dtype.name == "bfloat16":
        return a.astype(np.float64)
    if np.issubdtype(a.dtype, np.integer):
        return a.astype(np.int64)
    return a


def _op_module(w: WorkloadDef):
    # heavy: TVM is imported on use, never with this module
    import tvm
    from tvm import te

    args = w.placeholders()
    out = w.pattern.compute(w.params, *args)
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    func = te.create_prim_func(args + outs)
    return tvm.IRModule({"main": func})


def _graph_export(w: WorkloadDef):
    from tvm.relax.frontend import nn  # heavy: TVM is imported on use, never with this module

    model = w.pattern.graph(w.params)
    data = [t for t in w.inputs if not t.name.startswith("p_")]
    spec = {"main": {t.name: nn.spec.Tensor(t.shape, t.dtype) for t in data}}
    mod, params = model.export_tvm(spec=spec)
    expected = [("p_" + name.replace(".", "_"), tuple(int(d) for d in p.shape), p.dtype)
                for name, p in params]
    declared = [(t.name, t.shape, t.dtype) for t in w.inputs if t.name.startswith("p_")]
    if expected != declared:
        raise ValueError(f"{w.id}: declared parameter inputs {declared} != exported {expected}")
    return mod


def _graph_module(w: WorkloadDef):
    from tvm import relax  # heavy: TVM is imported on use, never with this module

    mod = _graph_export(w)
    seq = [
        relax.transform.LegalizeOps(),
        relax.transform.AnnotateTIROpPattern(),
        relax.transform.FoldConstant(),
        relax.transform.FuseOps(),
        relax.transform.FuseTIR(),
        relax.transform.DeadCodeElimination(),
    ]
    for t in seq:
        mod = t(mod)
    return mod


def _output_specs(w: WorkloadDef) -> list[Tensor]:
    if isinstance(w.pattern, GraphPattern):
        ret = w.canonical_module()["main"].ret_ty
        rets = list(ret.fields) if hasattr(ret, "fields") else [ret]
        return [Tensor(f"out{i}", tuple(int(d) for d in r.shape), str(r.dtype))
                for i, r in enumerate(rets)]
    args = w.placeholders()
    out = w.pattern.compute(w.params, *args)
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    return [Tensor(o.op.name, tuple(int(d) for d in o.shape), str(o.dtype)) for o in outs]
