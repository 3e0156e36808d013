"""DLRM, the deep-learning recommendation model, at an on-device size: 13 dense features through a
bottom MLP, 26 categorical features looked up in embedding tables, pairwise dot-product
interaction, top MLP and a sigmoid click probability.

Source: Naumov et al., "Deep Learning Recommendation Model for Personalization and Recommendation
Systems" (2019); facebookresearch/dlrm, dlrm_s_pytorch.py with the Criteo Kaggle configuration of
its README (``--arch-sparse-feature-size=16 --arch-mlp-bot=13-512-256-64-16
--arch-mlp-top=512-256-1 --arch-interaction-op=dot``): ReLU after every bottom layer and every top
layer but the last (sigmoid); the interaction takes the dot products of the 27 vectors (bottom-MLP
output and 26 embeddings) below the diagonal (351) and concatenates them after the bottom-MLP
output (367 features into the top MLP). The 26 tables are capped at 1000 rows each (an edge-sized
catalogue) and stored stacked as one (26, 1000, 16) parameter.
"""

import numpy as np
from tvm.relax.frontend import nn

from evaluator.suite import refs
from evaluator.suite.base import GraphPattern, Tensor, Workload
from evaluator.suite.declare import Layer
from evaluator.suite.graphs import BIAS_RELU, BIAS_SIGMOID, Weights, param_inputs
from evaluator.suite.heldout import ShapeSpace

DENSE, SPARSE, DIM, ROWS = 13, 26, 16, 1000
BOTTOM = (DENSE, 512, 256, 64, DIM)
PAIRS = (SPARSE + 1) * SPARSE // 2
TOP = (DIM + PAIRS, 512, 256, 1)
LI, LJ = np.tril_indices(SPARSE + 1, -1)  # pairs below the diagonal, row-major (as dlrm's li, lj)


class _DLRM(nn.Module):
    def __init__(self):
        self.bottom = nn.ModuleList([nn.Linear(a, b) for a, b in zip(BOTTOM, BOTTOM[1:])])
        self.tables = nn.Parameter((SPARSE, ROWS, DIM))
        self.top = nn.ModuleList([nn.Linear(a, b) for a, b in zip(TOP, TOP[1:])])

    def main(self, dense, sparse):
        b = dense.shape[0]
        x = dense
        for layer in self.bottom:
            x = nn.relu(layer(x))
        offsets = nn.Tensor.from_const((np.arange(SPARSE, dtype=np.int32) * ROWS)[None, :])
        rows = nn.op.reshape(sparse + offsets, (b * SPARSE,))
        emb = nn.op.reshape(nn.op.take(nn.op.reshape(self.tables, (SPARSE * ROWS, DIM)), rows, axis=0),
                            (b, SPARSE, DIM))
        t = nn.op.concat([nn.op.reshape(x, (b, 1, DIM)), emb], dim=1)
        z = nn.op.reshape(nn.op.matmul(t, nn.op.permute_dims(t, [0, 2, 1])), (b, (SPARSE + 1) ** 2))
        pairs = nn.op.take(z, nn.Tensor.from_const((LI * (SPARSE + 1) + LJ).astype(np.int32)), axis=1)
        y = nn.op.concat([x, pairs], dim=1)
        for i, layer in enumerate(self.top):
            y = layer(y)
            y = nn.relu(y) if i < len(self.top) - 1 else nn.op.sigmoid(y)
        return y


def _inputs(p):
    return [Tensor("dense", (p["batch"], DENSE)),
            Tensor("sparse", (p["batch"], SPARSE), "int32", init="randint", low=0, high=ROWS)] + param_inputs(_DLRM())


def _reference(p, dense, sparse, *params):
    w = Weights(params)
    x = dense
    for _ in BOTTOM[1:]:
        weight, bias = w.take(2)
        x = np.maximum(x @ weight.T + bias, 0.0)
    tables = w.take()
    emb = tables[np.arange(SPARSE)[None, :], sparse]  # (b, 26, 16)
    t = np.concatenate([x[:, None, :], emb], axis=1)
    z = np.einsum("bid,bjd->bij", t, t)[:, LI, LJ]
    y = np.concatenate([x, z], axis=1)
    for i in range(len(TOP) - 1):
        weight, bias = w.take(2)
        y = y @ weight.T + bias
        y = np.maximum(y, 0.0) if i < len(TOP) - 2 else refs.sigmoid(y)
    w.done()
    return y


def _flops(p):
    """Counted as the layers count (``suite.graphs``): each layer's bias and activation; the
    interaction's 351 dot products that are kept (the graph forms all 27 x 27 and takes those)."""
    mlp = sum(2 * a * b for a, b in zip(BOTTOM, BOTTOM[1:])) + sum(2 * a * b for a, b in zip(TOP, TOP[1:]))
    epilogues = BIAS_RELU * (sum(BOTTOM[1:]) + sum(TOP[1:-1])) + BIAS_SIGMOID * TOP[-1]
    return p["batch"] * (mlp + epilogues + 2 * PAIRS * DIM)


def layers(p):
    b = p["batch"]

    def dense(act: str, k: int, n: int) -> tuple[Layer, int]:
        return Layer(f"dense-block/dense-bias-{act}", dict(m=b, n=n, k=k)), 1

    out = [dense("relu", k, n) for k, n in zip(BOTTOM, BOTTOM[1:])]
    out += [(Layer("embedding/embedding-lookup", dict(rows=SPARSE * ROWS, dim=DIM, tokens=b * SPARSE)), 1),
            (Layer("dense-block/dot-interaction", dict(b=b, d=DIM, f=SPARSE + 1, pairs=PAIRS)), 1)]
    out += [dense("relu", k, n) for k, n in zip(TOP[:-2], TOP[1:-1])]
    return out + [dense("sigmoid", TOP[-2], TOP[-1])]


PATTERN = GraphPattern(
    id="model/dlrm-small",
    family="model",
    level="L3",
    domains=("recommendation",),
    summary="DLRM (Criteo Kaggle config, tables capped at 1000 rows): bottom MLP 13-512-256-64-16, 26 embeddings, "
            "dot interaction, top MLP 367-512-256-1, sigmoid",
    inputs=_inputs,
    graph=lambda p: _DLRM(),
    reference=_reference,
    flops=_flops,
    layers=layers,
    workloads=[Workload("b1", {"batch": 1})],
    # held out: small batches of requests (the tables are the model's, fixed)
    shape_space=ShapeSpace(choices={"batch": (2, 3, 4)}),
)
