"""The held-out workloads: shapes never listed publicly, used to catch kernels specialised to the
public ones. Their scores count only on verified boards.

They live here, apart from the pattern files, so that this one file can be kept from anything
that runs submitted code: the sandbox mounts an empty file in its place.
"""

from evaluator.suite.base import Workload

HIDDEN: dict[str, list[Workload]] = {
    "activation/gelu-tanh": [
        Workload('m128n3072', {'shape': (128, 3072)}, hidden=True, domains=('language',)),
    ],
    "batch-matmul/batch-matmul": [
        Workload('b8m196n64k196', {'b': 8, 'm': 196, 'n': 64, 'k': 196}, hidden=True, domains=('vision',)),
    ],
    "conv2d/conv2d-nchw": [
        Workload('n1c16h56w56k32r1s1', {'n': 1, 'c': 16, 'h': 56, 'w': 56, 'k': 32, 'r': 1, 'stride': 1, 'pad': 0}, hidden=True),
    ],
    "depthwise-conv2d/depthwise-conv2d-nchw": [
        Workload('n1c256h14w14r5s1', {'n': 1, 'c': 256, 'h': 14, 'w': 14, 'r': 5, 'stride': 1, 'pad': 2}, hidden=True),
    ],
    "fused/conv2d-bias-relu": [
        Workload('n1c16h56w56k32r3s2', {'n': 1, 'c': 16, 'h': 56, 'w': 56, 'k': 32, 'r': 3, 'stride': 2, 'pad': 1}, hidden=True),
    ],
    "fused/dense-bias-gelu": [
        Workload('m16n3072k768', {'m': 16, 'n': 3072, 'k': 768}, hidden=True),
    ],
    "gemv/gemv": [
        Workload('m4096k512', {'m': 4096, 'k': 512}, hidden=True, domains=('recommendation',)),
    ],
    "matmul/matmul": [
        Workload('m192n320k96', {'m': 192, 'n': 320, 'k': 96}, hidden=True),
    ],
    "pool/avg-pool2d": [
        Workload('n1c128h28w28k3s1', {'n': 1, 'c': 128, 'h': 28, 'w': 28, 'k': 3, 'stride': 1, 'pad': 0}, hidden=True),
    ],
    "softmax/softmax": [
        Workload('m768n256', {'m': 768, 'n': 256}, hidden=True),
    ],
}
