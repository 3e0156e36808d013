"""A workload as a measurement machine needs it, without its pattern file.

A measurement machine has the device and TVM's runtime, not TVM's compiler, so it cannot import
the pattern files (they declare their computation in TE). What checking and timing a task needs
is plain data: the tensors (with how their values are drawn), the sizes that name the tolerance
and the roofline, the vendor call for the backend, and the reference outputs of the protocol's
seeded input sets. The build machine makes a :class:`WorkloadSpec` from the workload; it travels
as JSON with its references as one ``.npz`` (the compile farm stores both in the database).

For other inputs (the timed phase's fresh ones) :meth:`WorkloadSpec.reference` answers None, and
the pipeline takes the reference from the trusted tvm-default build on the device.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from evaluator.suite.base import Tensor
from evaluator.suite.inputs import generate

MAX_REFERENCE_BYTES = 48 << 20  # every seeded set's outputs together, compressed


def inputs_digest(arrays: Sequence[np.ndarray]) -> str:
    """One digest of an input set's bytes (and shapes and dtypes), the key of its reference."""
    h = hashlib.sha256()
    for a in arrays:
        h.update(f"{a.dtype.str}{a.shape}".encode())
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


@dataclass(frozen=True)
class WorkloadSpec:
    id: str
    level: str
    family: str
    domains: tuple[str, ...]
    hidden: bool
    flops: int
    bytes: int
    inputs: tuple[Tensor, ...]
    outputs: tuple[Tensor, ...]
    vendor: dict | None  # the backend's vendor call (``TargetBuilder.vendor_spec``), None without one
    registry_calls: bool  # whether a kernel may call TVM registry functions (``TargetBuilder.registry_calls``)
    references: dict[str, list[np.ndarray]] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, w, builder, seeds: Sequence[int]) -> "WorkloadSpec":
        """The spec of workload ``w`` for a backend's ``builder`` (its build half: what it says of
        the vendor call and registry calls), with the references of ``seeds``' sets."""
        refs = {}
        for seed in seeds:
            arrays = generate(w, seed)
            refs[inputs_digest(arrays)] = [np.asarray(o) for o in w.reference(arrays)]
        return cls(w.id, w.level, w.family, tuple(w.domains), w.hidden, int(w.flops), int(w.bytes),
                   tuple(w.inputs), tuple(w.outputs), builder.vendor_spec(w), builder.registry_calls(w), refs)

    def signature(self) -> list[dict]:
        return [{**t.to_json(), "role": "input"} for t in self.inputs] + \
               [{**t.to_json(), "role": "output"} for t in self.outputs]

    def reference(self, arrays: Sequence[np.ndarray]) -> list[np.ndarray] | None:
        """The reference outputs of one of the seeded sets; None for any other input set."""
        return self.references.get(inputs_digest(arrays))

    # --- travel --------------------------------------------------------------------------------
    def to_json(self) -> dict:
        tensor = lambda t: {"name": t.name, "shape": list(t.shape), "dtype": t.dtype, "init": t.init,  # noqa: E731
                            "low": t.low, "high": t.high, "scale": t.scale}
        return {"id": self.id, "level": self.level, "family": self.family, "domains": list(self.domains),
                "hidden": self.hidden, "flops": self.flops, "bytes": self.bytes,
                "inputs": [tensor(t) for t in self.inputs], "outputs": [tensor(t) for t in self.outputs],
                "vendor": self.vendor, "registry_calls": self.registry_calls,
                "references": sorted(self.references)}

    def references_npz(self) -> bytes:
        buf = io.BytesIO()
        np.savez_compressed(buf, **{f"{k}_{i}": a for k, outs in self.references.items()
                                    for i, a in enumerate(outs)})
        data = buf.getvalue()
        if len(data) > MAX_REFERENCE_BYTES:
            raise ValueError(f"{self.id}: the reference outputs take {len(data) >> 20} MiB; at most "
                             f"{MAX_REFERENCE_BYTES >> 20} MiB travel")
        return data

    @classmethod
    def from_json(cls, doc: dict, npz: bytes) -> "WorkloadSpec":
        """The spec as written by :meth:`to_json`, with its references from ``npz``; ValueError
        when they do not match what the spec names (a stored pair that does not belong together)."""
        def tensor(t: dict) -> Tensor:
            return Tensor(str(t["name"]), tuple(int(v) for v in t["shape"]), str(t["dtype"]), str(t["init"]),
                          int(t["low"]), int(t["high"]), float(t["scale"]))

        outputs = tuple(tensor(t) for t in doc["outputs"])
        with np.load(io.BytesIO(npz), allow_pickle=False) as z:
            refs = {k: [z[f"{k}_{i}"] for i in range(len(outputs))] for k in doc["references"]}
        for key, outs in refs.items():
            for o, a in zip(outputs, outs):
                if tuple(a.shape) != o.shape or a.dtype != np.dtype(o.dtype):
                    raise ValueError(f"{doc['id']}: a stored reference of {o.name} is {a.dtype}{list(a.shape)}, "
                                     f"not {o.dtype}{list(o.shape)}")
        return cls(str(doc["id"]), str(doc["level"]), str(doc["family"]), tuple(doc["domains"]), bool(doc["hidden"]),
                   int(doc["flops"]), int(doc["bytes"]), tuple(tensor(t) for t in doc["inputs"]), outputs,
                   doc["vendor"], bool(doc["registry_calls"]), refs)
