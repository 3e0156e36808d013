"""Patterns taken out of the suite, and workload ids that changed, each with why.

A retired pattern stays resolvable by id (stored results, traces and old reports keep their
meaning: :func:`evaluator.suite.get_workload` still returns its workloads), but it is no longer
listed, served, counted, sampled or drawn for held-out shapes, and a bundle entry that names it
is refused with the reason and the pattern to name instead. Its shapes live on in the successor.

A renamed workload id resolves to the workload under its new id.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Retirement:
    reason: str
    successor: str  # the pattern that computes the same thing, with the retired shapes


RETIRED: dict[str, Retirement] = {
    "fused/depthwise-separable": Retirement(
        "a near-duplicate: the same depthwise 3x3 -> pointwise block with its batch norm folded "
        "into bias", "conv-block/depthwise-separable-bn"),
    "elementwise/scale-shift-channel": Retirement(
        "a near-duplicate: a per-channel scale and shift is inference batch norm with its "
        "statistics folded", "norm/batch-norm-nchw"),
    "matmul/gram": Retirement(
        "a near-duplicate: A^T A is the symmetric rank-k product with the operand stored "
        "transposed", "matmul/syrk"),
}

# old id -> new id: the shape tag grammar has one separator, '-', before a dtype suffix, so a
# negative parameter is written 'neg100', never '-100'
RENAMED: dict[str, str] = {
    "quant/qresidual-add-relu@n1c16h32w32zb-100": "quant/qresidual-add-relu@n1c16h32w32zbneg100",
}


def retirement(pattern_id: str) -> Retirement | None:
    return RETIRED.get(pattern_id)


def message(kind: str, name: str, r: Retirement) -> str:
    """What a bundle entry naming a retired pattern (or one of its workloads) is told."""
    return f"{kind} {name!r} is retired ({r.reason}); name pattern {r.successor!r} instead"
