"""MLPerf Tiny anomaly-detection autoencoder (ToyADMOS, "AD" reference model).

Source: mlcommons/tiny, benchmark/training/anomaly_detection/keras_model.py — a dense autoencoder
640 → 128 ×4 → 8 → 128 ×4 → 640, every hidden Dense followed by BatchNormalization and ReLU.
At inference BatchNorm is the per-channel affine ``(x - mean) / sqrt(var + eps) * gamma + beta``;
its four vectors are inputs here so the graph keeps the real op sequence.
"""

import numpy as np
from tvm.relax.frontend import nn

from evaluator.suite.base import GraphPattern, Tensor, Workload
from evaluator.suite.declare import Layer
from evaluator.suite.graphs import BIAS, BIAS_BN_RELU

HIDDEN = [128, 128, 128, 128, 8, 128, 128, 128, 128]
EPS = 1e-3


class _DenseBnRelu(nn.Module):
    def __init__(self, n_in: int, n_out: int):
        self.dense = nn.Linear(n_in, n_out)
        self.bn_gamma = nn.Parameter((n_out,))
        self.bn_beta = nn.Parameter((n_out,))
        self.bn_mean = nn.Parameter((n_out,))
        self.bn_var = nn.Parameter((n_out,))

    def forward(self, x):
        y = self.dense(x)
        scale = self.bn_gamma / nn.sqrt(self.bn_var + nn.Tensor.from_const(np.float32(EPS)))
        return nn.relu((y - self.bn_mean) * scale + self.bn_beta)


class _Autoencoder(nn.Module):
    def __init__(self, n_in: int):
        dims = [n_in] + HIDDEN
        self.blocks = nn.ModuleList([_DenseBnRelu(a, b) for a, b in zip(dims, dims[1:])])
        self.out = nn.Linear(dims[-1], n_in)

    def main(self, x):
        for block in self.blocks:
            x = block(x)
        return self.out(x)


def _inputs(p):
    n, dims = p["n_in"], [p["n_in"]] + HIDDEN
    ts = [Tensor("x", (p["batch"], n))]
    for i, (a, b) in enumerate(zip(dims, dims[1:])):
        pre = f"p_blocks_{i}_"
        ts += [
            Tensor(pre + "dense_weight", (b, a), scale=(2.0 / a) ** 0.5),  # He-scaled
            Tensor(pre + "dense_bias", (b,)),
            Tensor(pre + "bn_gamma", (b,), init="positive"),
            Tensor(pre + "bn_beta", (b,)),
            Tensor(pre + "bn_mean", (b,)),
            Tensor(pre + "bn_var", (b,), init="positive"),
        ]
    return ts + [Tensor("p_out_weight", (n, dims[-1]), scale=(1.0 / dims[-1]) ** 0.5),
                 Tensor("p_out_bias", (n,))]


def _reference(p, x, *ws):
    ws = list(ws)
    for _ in HIDDEN:
        w, b, gamma, beta, mean, var = ws[:6]
        del ws[:6]
        y = x @ w.T + b
        x = np.maximum((y - mean) / np.sqrt(var + EPS) * gamma + beta, 0.0)
    w, b = ws
    return x @ w.T + b


def _flops(p):
    """Counted as the layers count (``suite.graphs``): each hidden layer's bias, BatchNorm and
    ReLU, the output layer's bias."""
    dims = [p["n_in"]] + HIDDEN + [p["n_in"]]
    macs = sum(2 * p["batch"] * a * b for a, b in zip(dims, dims[1:]))
    return macs + p["batch"] * (BIAS_BN_RELU * sum(HIDDEN) + BIAS * p["n_in"])


def layers(p):
    """The graph as dense-block workloads: nine Dense + BN + ReLU layers and the output Dense."""
    dims = [p["n_in"]] + HIDDEN
    counts: dict[Layer, int] = {}
    for a, b in zip(dims, dims[1:]):
        layer = Layer("dense-block/dense-bn-relu", dict(m=p["batch"], n=b, k=a))
        counts[layer] = counts.get(layer, 0) + 1
    return list(counts.items()) + [(Layer("dense-block/dense-bias", dict(m=p["batch"], n=p["n_in"], k=dims[-1])), 1)]


PATTERN = GraphPattern(
    id="model/anomaly-autoencoder",
    family="model",
    level="L3",
    domains=("anomaly-detection", "audio"),
    summary="MLPerf Tiny AD autoencoder: 640→128×4→8→128×4→640, Dense+BN+ReLU",
    inputs=_inputs,
    graph=lambda p: _Autoencoder(p["n_in"]),
    reference=_reference,
    flops=_flops,
    layers=layers,
    workloads=[Workload("b1", {"batch": 1, "n_in": 640})],
)
