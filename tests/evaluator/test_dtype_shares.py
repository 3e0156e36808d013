"""The suite's float16 and int8 shares (issue: each dtype on at least 12 % of the workloads, public
and held-out) and the public workloads added for them: float16 twins of float32 edge layers on
L1/L2 patterns, and int8 workloads on the quant patterns (the int8 twins of MobileNet, DS-CNN,
ResNet-8 and LLM layer shapes).

TVM's unscheduled build of each added workload matches its reference within the protocol's dtype
tolerances, as ``tests/evaluator/test_suite.py::test_canonical_matches_reference`` checks a pattern's
cheapest workload.
"""

import os

import pytest

from evaluator import suite
from evaluator.suite import heldout
from suite_helpers import assert_matches_reference

SHARE = 0.12
F16_FAMILIES = ("attention", "conv-block", "transformer-block")

ADDED = [
    "activation/cos@m128n768-f16",
    "activation/elu@n1c96h28w28-f16",
    "activation/erf@m128n768-f16",
    "activation/exp@m128n768-f16",
    "activation/hard-sigmoid@n1c96h28w28-f16",
    "activation/mish@n1c96h28w28-f16",
    "activation/quick-gelu@m128n768-f16",
    "activation/relu@m128n768-f16",
    "activation/relu-squared@m128n768-f16",
    "activation/relu6@n1c96h28w28-f16",
    "activation/sigmoid@m128n768-f16",
    "activation/sin@m128n768-f16",
    "activation/square@m128n768-f16",
    "activation/tanh@m128n768-f16",
    "attention/gqa@h16g4m1n1024d64-f16",
    "attention/mqa@h8g1m128n128d64-f16",
    "attention/qkv-packed@s128h12d64-f16",
    "attention/rope@s128h32d128-f16",
    "attention/sdpa-bias@b12m64n64d32-f16",
    "attention/sdpa-causal@b4m256n256d32-f16",
    "conv-block/classifier-head@n1c256h3w3k2-f16",
    "conv-block/conv2d-bn-relu@n1c16h32w32k32r3s2p0x0x1x1-f16",
    "conv-block/conv2d-bn-relu@n1c3h96w96k8r3s2p0x0x1x1-f16",
    "conv-block/conv2d-bn-relu@n1c64h25w5k64r1s1p0-f16",
    "conv-block/depthwise-bn-relu@n1c64h25w5r3s1p1-f16",
    "conv-block/depthwise-separable-bn@n1c8h48w48k16s1p1-f16",
    "conv-block/depthwise-separable-bn@n1c16h48w48k32s2p0x0x1x1-f16",
    "conv-block/depthwise-separable-bn@n1c32h24w24k32s1p1-f16",
    "conv-block/depthwise-separable-bn@n1c32h24w24k64s2p0x0x1x1-f16",
    "conv-block/depthwise-separable-bn@n1c64h12w12k64s1p1-f16",
    "conv-block/depthwise-separable-bn@n1c128h6w6k128s1p1-f16",
    "conv2d/conv2d-nchw@n1c64h14w14k128r3s1-f16",
    "conv2d/conv2d-nchw@n1c16h64w64k2r1s1-f16",
    "conv2d/conv2d-nhwc@n1h96w96c3k8r3s2p1-f16",
    "conv2d/conv2d-nhwc@n1h56w56c64k64r1s1p0-f16",
    "dense-block/dense-bias@m1n128k640-f16",
    "dense-block/dense-bias@m1n640k128-f16",
    "dense-block/dense-bias-relu@m128n512k13-f16",
    "dense-block/dense-bias-relu@m1n256k512-f16",
    "dense-block/dense-bias-relu@m1n64k256-f16",
    "depthwise-conv2d/depthwise-conv2d-nhwc@n1h56w56c144r3s2p1-f16",
    "depthwise-conv2d/depthwise-conv2d-nhwc@n1h112w112c32r3s1p1-f16",
    "depthwise-conv2d/depthwise-conv2d-nhwc@n1h14w14c512r3s2p1-f16",
    "depthwise-conv2d/depthwise-conv2d-nhwc@n1h7w7c1024r3s1p1-f16",
    "elementwise/add@n1c64h56w56-f16",
    "elementwise/fma@m128n768-f16",
    "elementwise/maximum@n1c64h56w56-f16",
    "elementwise/squared-diff@b64n512-f16",
    "elementwise/sub@b64n512-f16",
    "gemv/gemv@m1024k1024-f16",
    "gemv/gemv@m3072k768-f16",
    "matmul/linear-3d@b1s197n192k192-f16",
    "matmul/matmul@m128n512k128-f16",
    "matmul/matmul-nt@m49n1000k1024-f16",
    "matmul/matmul-nt@m1n12k48-f16",
    "norm/layer-norm@m196n384-f16",
    "norm/layer-norm@m64n256-f16",
    "norm/rms-norm@m128n576-f16",
    "norm/rms-norm@m1n4096-f16",
    "norm/rms-norm@m16n4096-f16",
    "quant/dequantize@m784n64",
    "quant/dequantize@m16n4096",
    "quant/dequantize@m1n4096",
    "quant/dequantize-per-channel@k256c576",
    "quant/dynamic-quantize@m1n4096",
    "quant/qadd@n1c32h16w16",
    "quant/qadd@n1c64h8w8",
    "quant/qadd@n1c128h6w6",
    "quant/qavg-pool2d@n1c64h8w8k2",
    "quant/qbatch-matmul@b4m64n64k32",
    "quant/qbatch-matmul@b3m49n49k32",
    "quant/qconv1d@n1c64w49k64r3s1p1",
    "quant/qconv1d@n1c64w98k64r3s1p1",
    "quant/qconv2d@n1c16h32w32k16r3s1p1",
    "quant/qconv2d@n1c64h8w8k64r3s1p1",
    "quant/qconv2d-requant-relu@n1c32h16w16k32r3s1p1",
    "quant/qdense-requant@m1n640k128",
    "quant/qdense-requant@m1n12k64",
    "quant/qdepthwise-conv2d@n1c8h48w48r3s1p1",
    "quant/qdepthwise-conv2d@n1c64h12w12r3s1p1",
    "quant/qdepthwise-conv2d@n1c128h6w6r3s1p1",
    "quant/qgemv@m3072k768",
    "quant/qgemv@m640k128",
    "quant/qlut@m64n512",
    "quant/qlut@m1n4096",
    "quant/qmatmul@m128n128k128",
    "quant/qrelu6@n1c64h12w12",
    "quant/qrelu6@n1c128h6w6",
    "quant/quantize@m784n64",
    "quant/quantize@m125n64",
    "quant/quantize@m1n4096",
    "quant/quantize-per-channel@k64c576",
    "quant/requantize@m3136n64",
    "quant/requantize@m125n64",
    "quant/wq-gemv@m1024k1024",
    "softmax/softmax@m256n512-f16",
    "softmax/softmax@m32n1000-f16",
    "softmax/softmax@m256n256-f16",
    "transformer-block/attention-output@s128d768-f16",
    "transformer-block/layer-norm-dense@m197k192n576-f16",
    "transformer-block/mha-block@s49d96h3-f16",
    "transformer-block/qkv-projection@s197d192h3-f16",
]


def test_float16_and_int8_shares_with_the_held_out_workloads():
    shares = suite.summary(include_hidden=True, secret=os.environ[heldout.SECRET_ENV])["dtype_shares"]
    assert shares["float16"] >= SHARE, shares
    assert shares["int8"] >= SHARE, shares


def test_every_family_of_the_issue_has_float16_workloads():
    f16 = [w for w in suite.workloads(True, os.environ[heldout.SECRET_ENV]) if "float16" in suite.tensor_dtypes(w)]
    families = {w.family for w in f16}
    for family in F16_FAMILIES:
        assert family in families, family
    assert any(w.level == "L3" for w in f16)


def test_added_workloads_are_public_with_their_dtype():
    public = {w.id: w for w in suite.workloads()}
    assert len(ADDED) == len(set(ADDED))
    for wid in ADDED:
        w = public[wid]
        assert not w.hidden
        want = "float16" if wid.endswith("-f16") else "int8"
        assert want in suite.tensor_dtypes(w), wid


@pytest.mark.parametrize("wid", ADDED)
def test_added_workload_matches_its_reference(wid):
    assert_matches_reference(suite.get_workload(wid))


# bfloat16 twins where the CPU backends have it (TVM stores bfloat16 as 16 bits and computes in
# float32 on both, as on a float16 workload): attention, conv blocks, transformer blocks, LLM
# layers and two MLPerf Tiny graphs
BF16 = [
    "attention/gqa@h8g2m128n128d64-bf16",
    "attention/mqa@h8g1m1n512d64-bf16",
    "conv-block/classifier-head@n1c64h8w8k10-bf16",
    "conv-block/classifier-head@n1c64h25w5k12-bf16",
    "conv-block/conv2d-bn-relu@n1c3h32w32k16r3s1p1-bf16",
    "conv-block/conv2d-bn-relu@n1c1h49w10k64r10x4s2p4x1x5x1-bf16",
    "conv-block/conv2d-bn-relu@n1c16h32w32k32r3s2p0x0x1x1-bf16",
    "conv-block/depthwise-separable-bn@n1c64h25w5k64s1p1-bf16",
    "conv-block/resnet-basic-block@n1c16h32w32p1-bf16",
    "conv-block/resnet-downsample-block@n1c16h32w32k32-bf16",
    "conv-block/resnet-downsample-block@n1c32h16w16k64-bf16",
    "dense-block/dense-bias@m128n768k768-bf16",
    "matmul/matmul-nt@m128n768k768-bf16",
    "model/ds-cnn-kws@n1h49w10-bf16",  # two L3 graphs, each of its layers a bfloat16 workload
    "model/resnet8@n1h32w32-bf16",
    "norm/layer-norm@m128n768-bf16",
    "norm/rms-norm@m1n4096-bf16",
    "softmax/softmax@m256n512-bf16",
    "transformer-block/layer-norm-dense@m128k256n768-bf16",
    "transformer-block/mha-block@s64d128h4-bf16",
]


def test_the_bfloat16_workloads_store_bfloat16_and_compute_in_float32():
    bf16 = {w.id for w in suite.workloads() if "bfloat16" in suite.tensor_dtypes(w)}
    assert bf16 == set(BF16)
    for wid in BF16:
        w = suite.get_workload(wid)
        assert {t.dtype for t in w.outputs} == {"bfloat16"}, wid
        assert "float32" in w.canonical_module().script(), wid  # the arithmetic is widened


@pytest.mark.parametrize("wid", BF16)
def test_bfloat16_workload_matches_its_reference(wid):
    assert_matches_reference(suite.get_workload(wid))


@pytest.mark.parametrize("backend", ["cpu-llvm", "opencl"])
def test_a_bfloat16_workload_is_checked_and_timed_through_the_sandbox(backend, quick_protocol):
    """The harness holds bfloat16 tensors as their 16 bits (NumPy's DLPack knows no bfloat16),
    poisons unwritten outputs with NaN, and checks at the bfloat16 tolerance: tvm-default's entry
    is correct on both CPU backends, and a kernel that writes zeros is a wrong result."""
    from evaluator import records
    from evaluator.examples import default_entry
    from evaluator.pipeline import Candidate, Pipeline
    from evaluator.sandbox import probe

    if probe():
        pytest.skip(f"the sandbox cannot run here: {probe()}")
    w = suite.get_workload("softmax/softmax@m256n512-bf16")
    pipe = Pipeline(backend, quick_protocol)
    assert pipe.sandbox is not None
    fmt, _, text = default_entry(w, backend)
    r = pipe.evaluate(w, Candidate(fmt, text))
    assert r.status == records.CORRECT, r.reason
    assert r.times["candidate"].median_s > 0
    if backend == "cpu-llvm":
        [x], [y] = w.inputs, w.outputs
        zeros = (f"# from tvm.script import tirx as T\n@T.prim_func\ndef main({x.name}: T.Buffer({x.shape}, "
                 f'"bfloat16"), {y.name}: T.Buffer({y.shape}, "bfloat16")):\n'
                 f"    for i, j in T.grid({y.shape[0]}, {y.shape[1]}):\n"
                 f"        {y.name}[i, j] = T.bfloat16(0.0)\n")
        bad = pipe.evaluate(w, Candidate("tvmscript", zeros))
        assert bad.status == records.WRONG_RESULT, bad.reason
