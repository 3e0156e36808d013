"""``tvmscript``: a full TensorIR PrimFunc (or a one-function IRModule) in TVMScript.

Parsing TVMScript evaluates Python expressions, so ``lower`` only ever runs in the build step's
child process; ``check`` is the static part that is safe in the server.
"""

from __future__ import annotations

MAX_CHARS = 1_000_000


def check(text: str) -> list[str]:
    errors = []
    if not text.strip():
        errors.append("the TVMScript file is empty")
    if len(text) > MAX_CHARS:
        errors.append(f"the TVMScript file has {len(text)} characters; the limit is {MAX_CHARS}")
    if "prim_func" not in text:
        errors.append("no @T.prim_func found: the file must define a TensorIR PrimFunc")
    return errors


def _signature(func) -> list[tuple[str, tuple, str]]:
    out = []
    for p in func.params:
        shape = tuple(int(d) if hasattr(d, "value") or isinstance(d, int) else str(d) for d in p.shape)
        out.append((p.name, shape, str(p.dtype)))
    return out


def lower(text: str, canonical):
    """Parse the submission and check its signature against the canonical ``main``."""
    import tvm
    from tvm import tirx

    from evaluator.ir.layered_trace import _is_graph

    if _is_graph(canonical):
        raise ValueError("tvmscript entries are accepted for single-kernel (L1/L2) workloads; "
                         "model graphs (L3) take a layered-trace")
    parsed = tvm.script.from_source(text)
    if isinstance(parsed, tirx.PrimFunc):
        func = parsed
    else:
        prims = [f for f in parsed.functions.values() if isinstance(f, tirx.PrimFunc)]
        if len(prims) != 1:
            raise ValueError(f"the module must hold exactly one PrimFunc; it holds {len(prims)}")
        func = prims[0]
    want, got = _signature(canonical["main"]), _signature(func)
    if len(want) != len(got):
        raise ValueError(f"signature mismatch: the workload takes {len(want)} buffers "
                         f"{[w[1] for w in want]}, the submission {len(got)}")
    for i, ((wn, ws, wd), (gn, gs, gd)) in enumerate(zip(want, got)):
        if ws != gs or wd != gd:
            raise ValueError(f"signature mismatch at parameter {i} ({gn}): expected shape {list(ws)} "
                             f"{wd} (like {wn}), got {list(gs)} {gd}")
    return tvm.IRModule({"main": func.with_attr("global_symbol", "main")})
