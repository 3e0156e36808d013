"""``tvm-default`` on GPU-style backends (opencl): TVM's dlight default schedules.

dlight is what TVM itself applies to a kernel nobody has tuned for a GPU target: each rule
recognises one kind of compute (matmul, GEMV, reductions, norms, transposes) and schedules it
for the target's thread limits; ``Fallback`` binds whatever is left to blocks and threads. The
rules are tried in the order below, the first that applies wins. Unlike the CPU rule set
(``tvm_default.py``) this is not written as a layered trace: dlight uses primitives a
layered trace does not have, so its baseline is the scheduled module itself, and the example
bundle ships it as TVMScript.
"""

from __future__ import annotations

RULES = ("Matmul", "GEMV", "LowBatchGEMV", "Reduction", "GeneralReduction", "RMSNorm", "Transpose",
         "Fallback")


def signature() -> dict:
    """What determines the schedule besides the workload, the target and the TVM version."""
    return {"dlight": list(RULES), "a failing rule does not apply": True}


class _Tolerant:
    """A dlight rule that raises on a compute it was not written for (some fused conv blocks
    trip Reduction's dataflow check) is treated as not applying, so the next rule — at the end
    ``Fallback`` — schedules the function, as TVM intends for a compute no rule recognises."""

    def __init__(self, rule):
        self.rule = rule

    def apply(self, func, target, tunable):
        try:
            return self.rule.apply(func, target, tunable)
        except Exception:  # noqa: BLE001 - TVM raises its own error types here
            return None


def schedule(mod, target: dict):
    """A copy of ``mod`` with every PrimFunc scheduled by the first dlight rule that applies."""
    import tvm
    from tvm.s_tir import dlight as dl

    # the pass updates the module it is given in place: never the caller's
    copy = tvm.IRModule(dict(mod.functions), attrs=mod.attrs)
    with tvm.target.Target(target):
        return dl.ApplyDefaultSchedule(*[_Tolerant(getattr(dl.gpu, rule)()) for rule in RULES])(copy)
