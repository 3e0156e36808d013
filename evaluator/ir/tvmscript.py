"""``tvmscript``: a full TensorIR PrimFunc (or a one-function IRModule) in TVMScript.

Its buffers may have symbolic shapes (``m = T.int64()``, ``T.match_buffer(a, (m, n))``): such a
function stands for every shape of a pattern, and is specialised to each workload's shapes when
it is built for that workload.

Parsing TVMScript evaluates Python expressions, so ``lower`` only ever runs in the build step's
child process; ``check`` is the static part that is safe in the server.
"""

from __future__ import annotations

from evaluator.ir.layered_trace import _is_graph

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
    # heavy: TVM is imported on use, never with this module
    import tvm
    from tvm import tirx

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
    func = _specialised(func, canonical["main"])
    want, got = _signature(canonical["main"]), _signature(func)
    if len(want) != len(got):
        raise ValueError(f"signature mismatch: the workload takes {len(want)} buffers "
                         f"{[w[1] for w in want]}, the submission {len(got)}")
    for i, ((wn, ws, wd), (gn, gs, gd)) in enumerate(zip(want, got)):
        if ws != gs or wd != gd:
            raise ValueError(f"signature mismatch at parameter {i} ({gn}): expected shape {list(ws)} "
                             f"{wd} (like {wn}), got {list(gs)} {gd}")
    return tvm.IRModule({"main": func.with_attr("global_symbol", "main")})


def _specialised(func, canonical):
    """``func`` with its symbolic buffer dimensions bound to the workload's sizes (unchanged when
    it has none); ValueError when its symbolic shapes cannot take the workload's."""
    from tvm import tirx  # heavy: TVM is imported on use, never with this module

    if all(isinstance(d, tirx.IntImm) for p in func.params for d in p.shape):
        return func
    if len(func.params) != len(canonical.params):
        raise ValueError(f"signature mismatch: the workload takes {len(canonical.params)} buffers, the submission "
                         f"{len(func.params)}")
    binds = {}
    for i, (p, c) in enumerate(zip(func.params, canonical.params)):
        if len(p.shape) != len(c.shape):
            raise ValueError(f"signature mismatch at parameter {i} ({p.name}): {len(p.shape)} dimensions, the "
                             f"workload's {c.name} has {len(c.shape)}")
        sizes = [int(d) for d in c.shape]
        binds[p] = tirx.decl_buffer([tirx.IntImm(str(d.ty.dtype), s) for d, s in zip(p.shape, sizes)],
                                    str(p.dtype), name=p.name)
    try:
        return func.specialize(binds)
    except (ValueError, TypeError) as e:
        shapes = ", ".join(f"{c.name} {[int(d) for d in c.shape]}" for c in canonical.params)
        said = str(e).splitlines()[-1].split(" is false: ")[-1]  # TVM's check, without its condition
        raise ValueError(f"the symbolic shapes do not fit this workload ({shapes}): {said[:300]}") from None
