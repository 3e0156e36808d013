"""The correctness check: compare what the candidate produced with the reference.

Runs in the harness process on arrays it read from the kernel's arena itself; the reference is
computed here and never given to the candidate.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from evaluator.harness.protocol import sum_tolerance


@dataclass
class CheckOutcome:
    ok: bool
    reason: str = ""
    detail: dict = field(default_factory=dict)


def _mismatch(got: np.ndarray, ref: np.ndarray, dtype: str, terms: float = 1.0) -> dict | None:
    """``terms``: how many products each output element sums (1 for elementwise work). Rounding
    error of a float sum grows as the square root of its length, so the absolute tolerance does
    too (``sum_tolerance``): a 65,536-term dot whose result cancels to 1.1 is off by 6e-4 in
    float32, honestly."""
    atol, rtol = sum_tolerance(dtype, terms)
    if got.shape != ref.shape:
        return {"problem": f"shape {list(got.shape)}, expected {list(ref.shape)}"}
    g, r = got.astype(np.float64), ref.astype(np.float64)
    diff = np.abs(g - r)
    bad = ~(diff <= atol + rtol * np.abs(r))  # NaN (an unwritten, poisoned output) counts as bad
    if not bad.any():
        return None
    flat = int(np.argmax(np.where(np.isnan(diff), np.inf, diff)))
    where = tuple(int(i) for i in np.unravel_index(flat, diff.shape))
    finite = np.where(bad & np.isfinite(diff), diff, 0)
    rel = finite / np.maximum(np.abs(r), 1e-30)
    return {
        "mismatched": int(bad.sum()),
        "of": int(bad.size),
        "max_abs_error": float(finite.max()) if np.isfinite(diff).any() else None,
        "max_rel_error": float(rel.max()),
        "nan": int(np.isnan(g).sum()),
        "at": list(where),
        "got": float(g[where]),
        "expected": float(r[where]),
        "tolerance": {"atol": atol, "rtol": rtol},
    }


def check_set(seed: int, inputs: list[np.ndarray], input_names: list[str], reference: list[np.ndarray],
              output_names: list[str], runs: list[dict[str, np.ndarray]], terms: float = 1.0) -> CheckOutcome:
    """One input set: inputs untouched, outputs match the reference, runs agree. A run holds an
    input (``in{i}``) only when the run step saw it differ from what it was given."""
    for r, run in enumerate(runs):
        for i, (orig, name) in enumerate(zip(inputs, input_names)):
            after = run.get(f"in{i}")
            if after is None:
                continue
            if after.shape != orig.shape or not np.array_equal(after, orig, equal_nan=True):
                changed = int((after != orig).sum()) if after.shape == orig.shape else after.size
                return CheckOutcome(False, f"input '{name}' was modified by the kernel "
                                    f"({changed} elements changed, input set {seed})",
                                    {"input": name, "seed_set": seed, "changed": changed})
    for o, (ref, name) in enumerate(zip(reference, output_names)):
        got = runs[0].get(f"out{o}")
        if got is None:
            return CheckOutcome(False, f"output '{name}' was not produced", {"output": name})
        m = _mismatch(got, ref, str(ref.dtype), terms)
        if m is not None:
            if "problem" in m:
                return CheckOutcome(False, f"output '{name}' has {m['problem']}", m)
            return CheckOutcome(
                False,
                f"output '{name}' differs from the reference in {m['mismatched']} of {m['of']} "
                f"elements (input set {seed}); worst at {m['at']}: got {m['got']:.6g}, "
                f"expected {m['expected']:.6g}",
                m | {"output": name, "seed_set": seed},
            )
        for r, run in enumerate(runs[1:], 2):
            again = run.get(f"out{o}")
            if again is None or _mismatch(again, got, str(ref.dtype), terms) is not None:
                return CheckOutcome(False, f"run {r} disagrees with run 1 on output '{name}' "
                                    f"(input set {seed}): the kernel is not deterministic or "
                                    "depends on the output's previous contents",
                                    {"output": name, "seed_set": seed})
    return CheckOutcome(True)
