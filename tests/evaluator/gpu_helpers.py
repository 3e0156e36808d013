"""What the GPU tests share: a workload as a measurement machine gets it, and its CUDA C entry."""

from __future__ import annotations

import numpy as np

from evaluator.suite.base import Tensor

M, N = 128, 768


class Relu:
    """activation/relu@m128n768 as a measurement machine gets it: tensors and a NumPy
    reference, no pattern file (those need TVM's compiler)."""

    id, level, family, domains, hidden = "activation/relu@m128n768", "L1", "activation", ("language",), False
    pattern = type("P", (), {"id": "activation/relu"})()
    params = {"shape": [M, N]}
    flops, bytes = M * N, 2 * 4 * M * N
    inputs = [Tensor("X", (M, N))]
    outputs = [Tensor("T_relu", (M, N))]

    def signature(self) -> list[dict]:
        return [{**t.to_json(), "role": "input"} for t in self.inputs] + \
               [{**t.to_json(), "role": "output"} for t in self.outputs]

    def reference(self, arrays):
        return [np.maximum(arrays[0], 0)]


RELU = """extern "C" __global__ void relu(const float* X, float* Y, long long n) {
    long long i = blockIdx.x * 256LL + threadIdx.x;
    if (i < n) Y[i] = X[i] > 0.0f ? X[i] : 0.0f;
}"""
LAUNCH = {"entry": "relu", "args": ["X", "T_relu"], "grid": [(M * N + 255) // 256], "block": [256],
          "shape_args": ["n"], "workload_params": {"n": M * N}}
