"""How the suite covers its peers: KernelBench level 1, TVM MetaSchedule's ``te_workload`` and
the MLPerf Tiny models — the mapping as data, the table generated from the suite.

A row names what the suite computes for a peer's item: ``exact`` — workloads that compute it (for
KernelBench, the same operator at an edge-sized shape; for ``te_workload``, the configuration as
given; for MLPerf Tiny, the model), ``partly`` — a variant or a part of it. A workload whose
``source`` names the item counts as exact without being listed (so a configuration added to a
pattern later shows up when the table is made again). A ref is a workload id or a glob over ids
(``pattern@*``). The status is read off the suite as it is: a ref that matches no workload counts
for nothing, so a removed workload turns its row to partly or missing.

``python -m evaluator coverage --write docs/coverage.md`` writes the table; ``tests/evaluator/test_coverage.py``
keeps the committed one current and every ref alive.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass

from evaluator import suite
from evaluator.suite.declare import kernelbench, te_workload

EXACT, PARTLY, MISSING = "exact", "partly", "missing"
MAX_LISTED = 4  # ids shown per cell, then how many more


@dataclass(frozen=True)
class Row:
    key: str  # the peer's name for the item
    what: str  # what it computes, briefly
    exact: tuple[str, ...] = ()
    partly: tuple[str, ...] = ()
    note: str = ""
    source: str = ""  # a workload with this ``source`` is exact

    def __post_init__(self):  # refs may be written as lists
        object.__setattr__(self, "exact", tuple(self.exact))
        object.__setattr__(self, "partly", tuple(self.partly))


def _kb(stem: str, what: str, exact=(), partly=(), note: str = "") -> Row:
    return Row(stem, what, exact, partly, note, kernelbench(stem))


# --- KernelBench level 1 (ScalingIntelligence/KernelBench, KernelBench/level1/*.py) ----------------
_MM, _CONV2D_T, _CONV3D = "matmul/matmul@m256n256k256", "conv2d/conv2d-transpose-nchw@*", "conv3d/conv3d-ncdhw@*"
_NO_T3D = "no 3-D transposed convolution in the suite (volumetric decoders; not an edge workload)"

KERNELBENCH = (
    _kb("1_Square_matrix_multiplication_", "A B, square", [_MM]),
    _kb("2_Standard_matrix_multiplication_", "A B", ["matmul/matmul@m128n512k128"]),
    _kb("3_Batched_matrix_multiplication", "A[b] B[b]", ["batch-matmul/batch-matmul@b12m128n128k64"]),
    _kb("4_Matrix_vector_multiplication_", "A x", ["gemv/gemv@m1024k1024"]),
    _kb("5_Matrix_scalar_multiplication", "A s", partly=["elementwise/axpy@n16000"],
        note="alpha X + Z: the scale and an add"),
    _kb("6_Matmul_with_large_K_dimension_", "A B, K >> M, N",
        partly=["matmul/gemm@m128n64k512", "matmul/matmul-nt@m49n1000k1024"],
        note="K-dominant shapes only with alpha/beta or B transposed"),
    _kb("7_Matmul_with_small_K_dimension_", "A B, K << M, N", partly=["dense-block/dense-bias-relu@m128n512k13"],
        note="K = 13 with bias and ReLU (DLRM's bottom MLP)"),
    _kb("8_Matmul_with_irregular_shapes_", "A B, odd sizes", partly=["matmul/matmul-nt@m49n1000k1024"],
        note="odd sizes with B transposed"),
    _kb("9_Tall_skinny_matrix_multiplication_", "A (M, N) B (N, M), N small",
        partly=["matmul/outer@m512n512", "dense-block/dense-bias-relu@m128n512k13"],
        note="K = 1 (outer product) or 13"),
    _kb("10_3D_tensor_matrix_multiplication", "A (N, M, K) B (K, L)", partly=["matmul/linear-3d@b4s64n256k256"],
        note="weights stored (L, K)"),
    _kb("11_4D_tensor_matrix_multiplication", "einsum bijl,lk->bijk", partly=["matmul/linear-3d@b4s64n256k256"],
        note="the same contraction of the last axis, 3-D, weights stored (k, l)"),
    _kb("12_Matmul_with_diagonal_matrices_", "diag(a) B", partly=["elementwise/mul-channel@n1c256h14w14"],
        note="the same row scaling, of an NCHW tensor"),
    _kb("13_Matmul_for_symmetric_matrices", "A B, A and B symmetric", [_MM], note="a plain matmul"),
    _kb("14_Matmul_for_upper_triangular_matrices", "triu(A B), A, B upper triangular",
        partly=["matmul/trmm-lower@m256n256"], note="triangular times dense, no triangular result"),
    _kb("15_Matmul_for_lower_triangular_matrices", "tril(A B), A, B lower triangular",
        partly=["matmul/trmm-lower@m256n256", "layout/tril@m256n256"], note="triangular times dense; the mask alone"),
    _kb("16_Matmul_with_transposed_A", "A^T B", ["matmul/matmul-tn@m256n256k256"]),
    _kb("17_Matmul_with_transposed_B", "A B^T", ["matmul/matmul-nt@m128n768k768"]),
    _kb("18_Matmul_with_transposed_both", "A^T B^T", ["matmul/matmul-tt@m256n256k256"]),
    _kb("19_ReLU", "relu", ["activation/relu@m128n768"]),
    _kb("20_LeakyReLU", "leaky_relu, slope 0.01", partly=["activation/leaky-relu@n1c64h56w56"],
        note="slope 0.1 (YOLO)"),
    _kb("21_Sigmoid", "sigmoid", ["activation/sigmoid@m128n768"]),
    _kb("22_Tanh", "tanh", ["activation/tanh@m128n768"]),
    _kb("23_Softmax", "softmax, last axis", ["softmax/softmax@m32n1000"]),
    _kb("24_LogSoftmax", "log_softmax, last axis", ["softmax/log-softmax@m32n8192"]),
    _kb("25_Swish", "x sigmoid(x)", ["activation/silu@n1c96h28w28"]),
    _kb("26_GELU_", "gelu (erf)", ["activation/gelu-erf@m128n768"]),
    _kb("27_SELU_", "selu", ["activation/selu@b64n512"]),
    _kb("28_HardSigmoid", "hardsigmoid", ["activation/hard-sigmoid@n1c96h28w28"]),
    _kb("29_Softplus", "softplus", ["activation/softplus@b64n512"]),
    _kb("30_Softsign", "softsign", ["activation/softsign@b64n512"]),
    _kb("31_ELU", "elu, alpha 1", ["activation/elu@b64n512"]),
    _kb("32_HardTanh", "hardtanh [-1, 1]", ["activation/hard-tanh@t98f257"]),
    _kb("33_BatchNorm", "BatchNorm2d (training: batch statistics)", ["norm/batch-norm-train-nchw@n8c32h28w28"]),
    _kb("34_InstanceNorm", "InstanceNorm2d, no affine", partly=["norm/instance-norm@n1c64h64w64"],
        note="with gamma and beta"),
    _kb("35_GroupNorm_", "GroupNorm, 8 groups of 64 channels", ["norm/group-norm@n1c64h32w32g8"]),
    _kb("36_RMSNorm_", "x / rms over the channel axis, no gamma", partly=["norm/rms-norm@m128n576"],
        note="over the last axis, with gamma"),
    _kb("37_FrobeniusNorm_", "x / ||x||_F",
        partly=["reduction/frobenius-norm@b1m256n256", "reduction/sum-all@m256n256"],
        note="the norm of each matrix, not the division"),
    _kb("38_L1Norm_", "x / mean(|x|) per row",
        partly=["reduction/l1-norm-lastaxis@m256n64", "norm/l2-normalize@m64n512"],
        note="the L1 reduction; an L2 row normalisation"),
    _kb("39_L2Norm_", "x / ||x||_2 per row", ["norm/l2-normalize@m64n512"]),
    _kb("40_LayerNorm", "LayerNorm over (C, H, W)", partly=["norm/layer-norm@m128n768"], note="over the last axis"),
    _kb("41_Max_Pooling_1D", "MaxPool1d, dilation 3", partly=["pool/max-pool1d@n1c128w500k3s2p1"], note="no dilation"),
    _kb("42_Max_Pooling_2D", "MaxPool2d", ["pool/max-pool2d@n1c64h112w112k3s2"]),
    _kb("43_Max_Pooling_3D", "MaxPool3d, dilation 3", partly=["pool/max-pool3d@n1c32d16h28w28k2s2p0"],
        note="no dilation"),
    _kb("44_Average_Pooling_1D", "AvgPool1d", ["pool/avg-pool1d@n1c64w1000k4s4p0"]),
    _kb("45_Average_Pooling_2D", "AvgPool2d", ["pool/avg-pool2d@n1c64h56w56k2s2"]),
    _kb("46_Average_Pooling_3D", "AvgPool3d", ["pool/avg-pool3d@n1c64d8h14w14k3s1p1"]),
    _kb("47_Sum_reduction_over_a_dimension", "sum over the middle axis", ["reduction/sum-middle-axis@a8b128c256"]),
    _kb("48_Mean_reduction_over_a_dimension", "mean over the middle axis", partly=["reduction/mean-firstaxis@m98n257"],
        note="over the first axis of a matrix"),
    _kb("49_Max_reduction_over_a_dimension", "max over the middle axis", partly=["reduction/max-firstaxis@m98n257"],
        note="over the first axis of a matrix"),
    _kb("50_conv_standard_2D__square_input__square_kernel", "conv2d (AlexNet's first)",
        ["conv2d/conv2d-nchw@n1c3h112w112k16r3s2"]),
    _kb("51_Argmax_over_a_dimension", "argmax over the middle axis", partly=["reduction/argmax-firstaxis@m98n257"],
        note="over the first axis of a matrix"),
    _kb("52_Argmin_over_a_dimension", "argmin over the middle axis", partly=["reduction/argmin-lastaxis@m256n512"],
        note="over the last axis"),
    _kb("53_Min_reduction_over_a_dimension", "min over the middle axis", partly=["reduction/min-firstaxis@m98n257"],
        note="over the first axis of a matrix"),
    _kb("54_conv_standard_3D__square_input__square_kernel", "conv3d", ["conv3d/conv3d-ncdhw@n1c3d16h56w56k16r3s1p1"]),
    _kb("55_conv_standard_2D__asymmetric_input__square_kernel", "conv2d, H != W",
        ["conv2d/conv2d-nchw@n1c64h14w14k128r3s1"],
        note="square images; the kernel is the same"),
    _kb("56_conv_standard_2D__asymmetric_input__asymmetric_kernel", "conv2d, rectangular kernel",
        partly=["conv-block/conv2d-bn-relu@n1c1h49w10k64r10x4s2p4x1x5x1"],
        note="DS-CNN's 10 x 4 conv, with BN and ReLU"),
    _kb("57_conv_transposed_2D__square_input__square_kernel", "conv_transpose2d",
        ["conv2d/conv2d-transpose-nchw@n1c64h16w16k32r4s2p1"]),
    _kb("58_conv_transposed_3D__asymmetric_input__asymmetric_kernel", "conv_transpose3d", note=_NO_T3D),
    _kb("59_conv_standard_3D__asymmetric_input__square_kernel", "conv3d, D != H",
        ["conv3d/conv3d-ncdhw@n1c32d8h28w28k32r3s2p1"]),
    _kb("60_conv_standard_3D__square_input__asymmetric_kernel", "conv3d, non-cubic kernel", partly=[_CONV3D],
        note="cubic kernels"),
    _kb("61_conv_transposed_3D__square_input__square_kernel", "conv_transpose3d", note=_NO_T3D),
    _kb("62_conv_standard_2D__square_input__asymmetric_kernel", "conv2d, rectangular kernel",
        partly=["conv-block/conv2d-bn-relu@n1c1h49w10k64r10x4s2p4x1x5x1"],
        note="DS-CNN's 10 x 4 conv, with BN and ReLU"),
    _kb("63_conv_standard_2D__square_input__square_kernel", "conv2d", ["conv2d/conv2d-nchw@n1c32h28w28k32r3s1"]),
    _kb("64_conv_transposed_1D", "conv_transpose1d", ["conv1d/conv1d-transpose-ncw@n1c64w250k32r4s2p1"]),
    _kb("65_conv_transposed_2D__square_input__asymmetric_kernel", "conv_transpose2d, rectangular kernel",
        partly=[_CONV2D_T], note="square kernels"),
    _kb("66_conv_standard_3D__asymmetric_input__asymmetric_kernel", "conv3d, non-cubic kernel", partly=[_CONV3D],
        note="cubic kernels"),
    _kb("67_conv_standard_1D", "conv1d", ["conv1d/conv1d-ncw@n1c32w2048k32r9s1"]),
    _kb("68_conv_transposed_3D__square_input__asymmetric_kernel", "conv_transpose3d", note=_NO_T3D),
    _kb("69_conv_transposed_2D__asymmetric_input__asymmetric_kernel", "conv_transpose2d, rectangular kernel",
        partly=[_CONV2D_T], note="square kernels"),
    _kb("70_conv_transposed_3D__asymmetric_input__square_kernel", "conv_transpose3d", note=_NO_T3D),
    _kb("71_conv_transposed_2D__asymmetric_input__square_kernel", "conv_transpose2d, H != W",
        ["conv2d/conv2d-transpose-nchw@n1c32h32w32k16r2s2p0"], note="square images; the kernel is the same"),
    _kb("72_conv_transposed_3D_asymmetric_input_asymmetric_kernel___strided_padded_grouped_",
        "conv_transpose3d, grouped",
        note=_NO_T3D),
    _kb("73_conv_transposed_3D_asymmetric_input_square_kernel__strided_padded__grouped", "conv_transpose3d, grouped",
        note=_NO_T3D),
    _kb("74_conv_transposed_1D_dilated", "conv_transpose1d, dilated", partly=["conv1d/conv1d-transpose-ncw@*"],
        note="no dilation"),
    _kb("75_conv_transposed_2D_asymmetric_input_asymmetric_kernel_strided__grouped____padded____dilated__",
        "conv_transpose2d, grouped, dilated", partly=[_CONV2D_T], note="no groups, no dilation"),
    _kb("76_conv_standard_1D_dilated_strided__", "conv1d, dilated and strided", partly=["conv1d/conv1d-dilated-ncw@*"],
        note="stride 1"),
    _kb("77_conv_transposed_3D_square_input_square_kernel___padded____dilated____strided__",
        "conv_transpose3d, dilated",
        note=_NO_T3D),
    _kb("78_conv_transposed_2D_asymmetric_input_asymmetric_kernel___padded__", "conv_transpose2d, rectangular kernel",
        partly=[_CONV2D_T], note="square kernels"),
    _kb("79_conv_transposed_1D_asymmetric_input_square_kernel___padded____strided____dilated__",
        "conv_transpose1d, dilated", partly=["conv1d/conv1d-transpose-ncw@*"], note="no dilation"),
    _kb("80_conv_standard_2D_square_input_asymmetric_kernel___dilated____padded__",
        "conv2d, dilated, rectangular kernel",
        partly=["conv2d/conv2d-nchw-dilated@*"], note="square kernels"),
    _kb("81_conv_transposed_2D_asymmetric_input_square_kernel___dilated____padded____strided__",
        "conv_transpose2d, dilated", partly=[_CONV2D_T], note="no dilation"),
    _kb("82_conv_depthwise_2D_square_input_square_kernel", "depthwise conv2d",
        ["depthwise-conv2d/depthwise-conv2d-nchw@n1c32h56w56r3s1"]),
    _kb("83_conv_depthwise_2D_square_input_asymmetric_kernel", "depthwise conv2d, k x 1 kernel",
        partly=["conv1d/conv1d-depthwise-ncw@*"], note="as a depthwise 1-D conv"),
    _kb("84_conv_depthwise_2D_asymmetric_input_square_kernel", "depthwise conv2d, H != W",
        ["depthwise-conv2d/depthwise-conv2d-nchw@n1c128h28w28r3s1"], note="square images; the kernel is the same"),
    _kb("85_conv_depthwise_2D_asymmetric_input_asymmetric_kernel", "depthwise conv2d, rectangular kernel",
        partly=["conv1d/conv1d-depthwise-ncw@*"], note="k x 1 only, as a depthwise 1-D conv"),
    _kb("86_conv_depthwise_separable_2D", "pointwise(depthwise(x))",
        partly=["conv-block/depthwise-separable-bn@n1c32h56w56k64s1p1"],
        note="with batch norm and ReLU after each conv"),
    _kb("87_conv_pointwise_2D", "1 x 1 conv2d", ["conv2d/conv2d-nchw@n1c16h64w64k2r1s1"]),
    _kb("88_MinGPTNewGelu", "gelu (tanh)", ["activation/gelu-tanh@m128n768"]),
    _kb("89_cumsum", "cumsum", ["scan/cumsum-lastaxis@m64n1024"]),
    _kb("90_cumprod", "cumprod", ["scan/cumprod-lastaxis@m256n64"]),
    _kb("91_cumsum_reverse", "reverse cumsum"),
    _kb("92_cumsum_exclusive", "exclusive cumsum", ["scan/cumsum-exclusive@m64n2048"]),
    _kb("93_masked_cumsum", "cumsum(x * mask)"),
    _kb("94_MSELoss", "mean squared error"),
    _kb("95_CrossEntropyLoss", "cross-entropy"),
    _kb("96_HuberLoss", "smooth L1"),
    _kb("97_ScaledDotProductAttention", "softmax(Q K^T / sqrt(d)) V", ["fused/attention@b12m128n128d64"]),
    _kb("98_KLDivLoss", "KL divergence, batch mean"),
    _kb("99_TripletMarginLoss", "triplet margin loss"),
    _kb("100_HingeLoss", "mean(max(1 - y t, 0))",
        note="not added: an SVM loss on +-1 labels, whose KernelBench form broadcasts (B,) labels over (B, N) scores"),
)


# --- TVM MetaSchedule te_workload (apache/tvm python/tvm/meta_schedule/testing/te_workload.py) ----
def _te_rows(config: str, func: str, shapes: list[tuple], partly: tuple[str, ...], notes: dict[int, str] | None = None,
             exact: dict[int, tuple[str, ...]] | None = None):
    notes, exact = notes or {}, exact or {}
    return tuple(Row(f"{config}[{i}]", f"{func}{shape}", exact.get(i, ()), partly, notes.get(i, ""),
                     te_workload(config, i)) for i, shape in enumerate(shapes))


_RESNET18_NHWC = [(1, 224, 224, 3, 64, 7, 2, 3), (1, 56, 56, 64, 64, 1, 1, 0), (1, 14, 14, 256, 256, 3, 1, 1),
                  (1, 7, 7, 512, 512, 3, 1, 1)]

TE_WORKLOAD = (
    _te_rows("C1D", "conv1d_nlc", [(1, 256, 64, 128, 3, 2, 1), (1, 128, 128, 256, 1, 2, 0), (1, 64, 256, 256, 5, 1, 2),
                                   (1, 32, 512, 512, 3, 1, 1)], ("conv1d/conv1d-nwc@*",))
    + _te_rows("C2D", "conv2d_nhwc", _RESNET18_NHWC, ("conv2d/conv2d-nhwc@*",))
    + _te_rows("C3D", "conv3d_ndhwc", [(1, 16, 224, 224, 3, 64, 7, 2, 3), (1, 16, 56, 56, 64, 64, 1, 1, 0),
                                       (1, 16, 14, 14, 256, 256, 3, 1, 1), (1, 16, 7, 7, 512, 512, 3, 1, 1)],
               ("conv3d/conv3d-ndhwc@*",),
               {0: "not added: 13.2 GFLOP, and the NumPy reference of one input set takes 8 s on 2 cores",
                2: "not added: 11.1 GFLOP; TVM's default takes 0.6 s a call on cpu-llvm, but on OpenCL (PoCL, 2 cores) "
                   "its correctness runs overrun the 20 s limit",
                3: "not added: 11.1 GFLOP, and TVM's default schedule takes 2.05 s a call on cpu-llvm, 2 cores"})
    + _te_rows("GMM", "batch_matmul_nkkm", [(1, 128, 128, 128), (1, 512, 32, 512), (1, 512, 512, 512),
                                            (1, 1024, 1024, 1024)], ("batch-matmul/batch-matmul@*",))
    + _te_rows("GRP", "conv2d_nhwc", [s + (1, 4) for s in [(1, 56, 56, 64, 128, 3, 2, 1), (1, 56, 56, 64, 64, 1, 1, 0),
                                                            (1, 14, 14, 256, 256, 3, 1, 1),
                                                            (1, 7, 7, 512, 512, 3, 1, 1)]],
               ("conv2d/conv2d-grouped-nchw@*",))
    + _te_rows("DIL", "conv2d_nhwc", [s + (2,) for s in _RESNET18_NHWC], ("conv2d/conv2d-nchw-dilated@*",),
               {1: "a 1 x 1 kernel's dilation changes nothing: the workload of C2D[1]"},
               {1: ("conv2d/conv2d-nhwc@n1h56w56c64k64r1s1p0",)})
    + _te_rows("DEP", "depthwise_conv2d_nhwc", [(1, 112, 112, 32, 3, 1, 1), (1, 112, 112, 64, 3, 2, 1),
                                                (1, 14, 14, 512, 3, 2, 1), (1, 7, 7, 1024, 3, 1, 1)],
               ("depthwise-conv2d/depthwise-conv2d-nhwc@*",))
    + _te_rows("T2D", "conv2d_transpose_nhwc", [(1, 4, 4, 512, 256, 4, 2, 1), (1, 8, 8, 256, 128, 4, 2, 1),
                                                (1, 16, 16, 128, 64, 4, 2, 1), (1, 32, 32, 64, 3, 4, 2, 1)],
               ("conv2d/conv2d-transpose-nchw@*",))
    + _te_rows("CAP", "conv2d_capsule_nhwijc", [(1, 16, 16, 32, 32, 3, 2, 1), (1, 8, 8, 32, 32, 3, 1, 1),
                                                (1, 16, 16, 8, 16, 3, 2, 1), (1, 8, 8, 16, 16, 3, 1, 1)], ())
    + _te_rows("NRM", "norm_bmn", [(1, 256, 256), (1, 512, 512), (1, 1024, 1024), (1, 4096, 1024)],
               ("reduction/l2-norm-lastaxis@*",))
    + _te_rows("SFM", "softmax_mn", [(256, 256), (512, 512), (1024, 1024), (2048, 2048)], ("softmax/softmax@*",))
    + _te_rows("CBR", "conv2d_nhwc_bn_relu", [(1, 224, 224, 3, 64, 7, 2, 3), (1, 56, 56, 64, 128, 3, 2, 1),
                                              (1, 28, 28, 128, 256, 1, 2, 0), (1, 7, 7, 512, 512, 3, 1, 1)],
               ("conv-block/conv2d-bn-relu-nhwc@*",))
    + _te_rows("TBG", "transpose_batch_matmul",
               [(1, 128, 12, 64), (1, 128, 16, 64), (1, 64, 12, 128), (1, 128, 12, 128)],
               ("batch-matmul/batch-matmul-nt@*",))
    + _te_rows("C2D_WIN_NHWC", "conv2d_winograd_nhwc", [(1, 14, 14, 128, 128, 6)], ("conv2d/conv2d-nhwc@*",),
               {0: "not added: Winograd is one way to compute a convolution, which a submission may choose"})
)


# --- MLPerf Tiny (mlcommons/tiny benchmark/training) ------------------------------------------------
MLPERF_TINY = (
    Row("IC", "ResNet-8, CIFAR-10 32 x 32 (fp32 and the int8 graph the benchmark scores)",
        ["model/resnet8@n1h32w32", "model/resnet8-int8@*"]),
    Row("KWS", "DS-CNN, 49 x 10 MFCCs (and its front end)",
        ["model/ds-cnn-kws@n1h49w10", "model/ds-cnn-kws-int8@*",
         "signal/mfcc-frontend-tf@n16000frame480hop320nfft512sr16000mels40fmin20fmax4000c10"]),
    Row("VWW", "MobileNetV1 x0.25, 96 x 96", ["model/mobilenet-v1-vww@n1h96w96", "model/mobilenet-v1-vww-int8@*"]),
    Row("AD", "FC autoencoder 640-128x4-8-128x4-640 (and its MSE score)",
        ["model/anomaly-autoencoder@b1", "model/anomaly-autoencoder-int8@*", "loss/mse@m128n640"]),
    Row("SWW", "streaming wake word DS-TCN: 4 blocks of causal depthwise k x 1 (k 3, 5, 10, 15) + 1 x 1 conv + BN",
        ["model/streaming-wakeword-int8@*"], note="as int8, the form the benchmark scores"),
)

SECTIONS = (
    ("KernelBench level 1", "ScalingIntelligence/KernelBench, `KernelBench/level1`: the operator at an edge-sized "
     "shape counts as exact", "problem", KERNELBENCH),
    ("TVM MetaSchedule te_workload", "apache/tvm, `python/tvm/meta_schedule/testing/te_workload.py` `CONFIGS`: "
     "the configuration as given counts as exact", "configuration", TE_WORKLOAD),
    ("MLPerf Tiny", "mlcommons/tiny, `benchmark/training`: the model graph counts as exact", "benchmark", MLPERF_TINY),
)


def rows() -> tuple[Row, ...]:
    return tuple(r for _, _, _, section in SECTIONS for r in section)


# --- resolving against the suite ------------------------------------------------------------------
def _resolve(ref: str, ids: list[str]) -> list[str]:
    if any(c in ref for c in "*?["):
        return [i for i in ids if fnmatch.fnmatchcase(i, ref)]
    return [ref] if ref in ids else []


def status(row: Row, workloads) -> tuple[str, list[str]]:
    """(status, what to list): exact ids (listed or naming the row as their source), else the
    partly refs that match something (a glob listed as itself)."""
    ids = [w.id for w in workloads]
    exact = [i for ref in row.exact for i in _resolve(ref, ids)]
    exact += [w.id for w in workloads if row.source and w.source == row.source and w.id not in exact]
    if exact:
        return EXACT, exact
    partly = [ref for ref in row.partly if _resolve(ref, ids)]
    return (PARTLY, partly) if partly else (MISSING, [])


def _cell(refs: list[str]) -> str:
    shown = ", ".join(f"`{r}`" for r in refs[:MAX_LISTED])
    more = len(refs) - MAX_LISTED
    return shown + (f" (+{more} more)" if more > 0 else "")


def _text(s: str) -> str:
    return s.replace("|", "\\|")


def render(workloads=None) -> str:
    """The coverage table as Markdown, from the suite's public workloads (default: the suite now)."""
    if workloads is None:
        workloads = suite.workloads()
    workloads = list(workloads)
    out = ["# Coverage of peer benchmarks", "",
           "Generated by `python -m evaluator coverage --write docs/coverage.md` from the suite and the mapping in "
           "`evaluator/suite/coverage.py`; do not edit. **exact**: the suite computes it (KernelBench: the operator at "
           "an edge-sized shape; te_workload: the configuration as given; MLPerf Tiny: the model graph); **partly**: a "
           "variant or a part of it; **missing**: neither. A glob (`pattern@*`) stands for a pattern's workloads.", "",
           "| peer | exact | partly | missing |", "|---|---|---|---|"]
    tables = []
    for title, about, head, section in SECTIONS:
        counts = {EXACT: 0, PARTLY: 0, MISSING: 0}
        lines = [f"## {title}", "", about + ".", "", f"| {head} | computes | coverage | workloads | note |",
                 "|---|---|---|---|---|"]
        for row in section:
            st, refs = status(row, workloads)
            counts[st] += 1
            lines.append(f"| {_text(row.key)} | {_text(row.what)} | {st} | {_cell(refs)} | {_text(row.note)} |")
        out.append(f"| {title} | {counts[EXACT]} | {counts[PARTLY]} | {counts[MISSING]} |")
        tables += [""] + lines
    return "\n".join(out + tables) + "\n"
