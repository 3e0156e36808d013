"""The held-out workloads: shapes never listed publicly, used to catch kernels specialised to the
public ones. Their scores count only on verified boards.

They live here, apart from the pattern files, so that this one file can be kept from anything
that runs submitted code: the sandbox mounts an empty file in its place.
"""

from evaluator.suite.base import Workload

HIDDEN: dict[str, list[Workload]] = {
    "activation/erf": [
        Workload('s200x640', {'shape': (200, 640)}, hidden=True, domains=('language',)),
    ],
    "activation/floor": [
        Workload('s200x640', {'shape': (200, 640)}, hidden=True, domains=('recommendation',)),
    ],
    "activation/gelu-tanh": [
        Workload('m128n3072', {'shape': (128, 3072)}, hidden=True, domains=('language',)),
    ],
    "activation/relu-squared": [
        Workload('s200x640', {'shape': (200, 640)}, hidden=True, domains=('language',)),
    ],
    "activation/rsqrt": [
        Workload('s200x640', {'shape': (200, 640)}, hidden=True, domains=('recommendation',)),
    ],
    "activation/sign": [
        Workload('s12000', {'shape': (12000,)}, hidden=True, domains=('signal-processing', 'audio')),
    ],
    "activation/tanh": [
        Workload('s200x640', {'shape': (200, 640)}, hidden=True, domains=('language',)),
    ],
    "attention/gqa": [
        Workload('h8g2m192n192d64', {'h': 8, 'g': 2, 'm': 192, 'n': 192, 'd': 64}, hidden=True),
    ],
    "attention/qkv-packed": [
        Workload('s192h12d64', {'s': 192, 'h': 12, 'd': 64}, hidden=True),
    ],
    "attention/rope": [
        Workload('s384h8d64', {'s': 384, 'h': 8, 'd': 64}, hidden=True),
    ],
    "attention/sdpa-alibi": [
        Workload('b16m192n192d64', {'b': 16, 'm': 192, 'n': 192, 'd': 64}, hidden=True),
    ],
    "attention/sdpa-causal": [
        Workload('b16m192n192d64', {'b': 16, 'm': 192, 'n': 192, 'd': 64}, hidden=True),
    ],
    "attention/sdpa-key-padding": [
        Workload('b16m152n152d64', {'b': 16, 'm': 152, 'n': 152, 'd': 64}, hidden=True, domains=('audio',)),
    ],
    "batch-matmul/batch-matmul": [
        Workload('b8m196n64k196', {'b': 8, 'm': 196, 'n': 64, 'k': 196}, hidden=True, domains=('vision',)),
    ],
    "batch-matmul/batch-matmul-nt": [
        Workload('b16m192n192k96', {'b': 16, 'm': 192, 'n': 192, 'k': 96}, hidden=True),
    ],
    "batch-matmul/batch-matmul-tn": [
        Workload('b16m96n96k192', {'b': 16, 'm': 96, 'n': 96, 'k': 192}, hidden=True),
    ],
    "conv-block/conv1d-bn-relu": [
        Workload('n1c64t148k32r3', {'n': 1, 'c': 64, 't': 148, 'k': 32, 'r': 3}, hidden=True),
    ],
    "conv-block/conv2d-bias-hardswish": [
        Workload('n1c4h336w336k32r3s2p0x0x1x1', {'n': 1, 'c': 4, 'h': 336, 'w': 336, 'k': 32, 'r': 3, 's': 2, 'p': (0, 0, 1, 1)}, hidden=True),
    ],
    "conv-block/conv2d-bias-leaky-relu": [
        Workload('n1c32h160w160k48r3s1p1', {'n': 1, 'c': 32, 'h': 160, 'w': 160, 'k': 48, 'r': 3, 's': 1, 'p': 1}, hidden=True),
    ],
    "conv-block/depthwise-bn-relu": [
        Workload('n1c96h38w8r3s1p1', {'n': 1, 'c': 96, 'h': 38, 'w': 8, 'r': 3, 's': 1, 'p': 1}, hidden=True, domains=('audio',)),
    ],
    "conv-block/resnet-basic-block": [
        Workload('n1c32h48w48p1', {'n': 1, 'c': 32, 'h': 48, 'w': 48, 'p': 1}, hidden=True),
    ],
    "conv-block/tcn-block": [
        Workload('n1c96t1504r3d4', {'n': 1, 'c': 96, 't': 1504, 'r': 3, 'd': 4}, hidden=True),
    ],
    "conv1d/conv1d-depthwise-ncw": [
        Workload('n1c192w384r13s1p6', {'n': 1, 'c': 192, 'w': 384, 'r': 13, 's': 1, 'p': 6}, hidden=True),
    ],
    "conv1d/conv1d-dilated-ncw": [
        Workload('n1c96w1536k96r3d4p4', {'n': 1, 'c': 96, 'w': 1536, 'k': 96, 'r': 3, 'd': 4, 'p': 4}, hidden=True),
    ],
    "conv1d/conv1d-grouped-ncw": [
        Workload('n1c192w384k192r5g4p2', {'n': 1, 'c': 192, 'w': 384, 'k': 192, 'r': 5, 'g': 4, 'p': 2}, hidden=True),
    ],
    "conv1d/conv1d-nwc": [
        Workload('n1w768c96k96r3s1p1', {'n': 1, 'w': 768, 'c': 96, 'k': 96, 'r': 3, 's': 1, 'p': 1}, hidden=True),
    ],
    "conv1d/conv1d-transpose-ncw": [
        Workload('n1c96w376k48r4s2p1', {'n': 1, 'c': 96, 'w': 376, 'k': 48, 'r': 4, 's': 2, 'p': 1}, hidden=True),
    ],
    "conv2d/conv2d-grouped-nchw": [
        Workload('n1c192h40w40k192r3g8s1p1', {'n': 1, 'c': 192, 'h': 40, 'w': 40, 'k': 192, 'r': 3, 'g': 8, 's': 1, 'p': 1}, hidden=True),
    ],
    "conv2d/conv2d-nchw": [
        Workload('n1c16h56w56k32r1s1', {'n': 1, 'c': 16, 'h': 56, 'w': 56, 'k': 32, 'r': 1, 'stride': 1, 'pad': 0}, hidden=True),
    ],
    "conv2d/conv2d-nchw-dilated": [
        Workload('n1c96h48w48k96r3d2p2s1', {'n': 1, 'c': 96, 'h': 48, 'w': 48, 'k': 96, 'r': 3, 'd': 2, 'p': 2, 's': 1}, hidden=True),
    ],
    "conv2d/conv2d-nchwc": [
        Workload('n1c96h40w40k96r3s1p1cb8kb8', {'n': 1, 'c': 96, 'h': 40, 'w': 40, 'k': 96, 'r': 3, 's': 1, 'p': 1, 'cb': 8, 'kb': 8}, hidden=True),
    ],
    "conv2d/conv2d-nhwc": [
        Workload('n1h40w40c48k96r3s1p1', {'n': 1, 'h': 40, 'w': 40, 'c': 48, 'k': 96, 'r': 3, 's': 1, 'p': 1}, hidden=True),
    ],
    "conv2d/conv2d-transpose-nchw": [
        Workload('n1c96h32w32k48r4s2p1', {'n': 1, 'c': 96, 'h': 32, 'w': 32, 'k': 48, 'r': 4, 's': 2, 'p': 1}, hidden=True),
    ],
    "conv3d/conv3d-ncdhw": [
        Workload('n1c4d16h80w80k32r3s1p1', {'n': 1, 'c': 4, 'd': 16, 'h': 80, 'w': 80, 'k': 32, 'r': 3, 's': 1, 'p': 1}, hidden=True),
    ],
    "conv3d/conv3d-ndhwc": [
        Workload('n1d8h40w40c32k48r3s1p1', {'n': 1, 'd': 8, 'h': 40, 'w': 40, 'c': 32, 'k': 48, 'r': 3, 's': 1, 'p': 1}, hidden=True),
    ],
    "conv3d/depthwise-conv3d-ncdhw": [
        Workload('n1c64d8h40w40k64g48r3s1p1', {'n': 1, 'c': 64, 'd': 8, 'h': 40, 'w': 40, 'k': 64, 'g': 48, 'r': 3, 's': 1, 'p': 1}, hidden=True),
    ],
    "dense-block/dense-bias": [
        Workload('m1n192k960', {'m': 1, 'n': 192, 'k': 960}, hidden=True, domains=('anomaly-detection',)),
    ],
    "dense-block/dense-bias-silu": [
        Workload('m96n1536k384', {'m': 96, 'n': 1536, 'k': 384}, hidden=True, domains=('language',)),
    ],
    "dense-block/dense-bn-relu": [
        Workload('m1n192k960', {'m': 1, 'n': 192, 'k': 960}, hidden=True, domains=('anomaly-detection',)),
    ],
    "dense-block/lstm-cell": [
        Workload('b1i64h192', {'b': 1, 'i': 64, 'h': 192}, hidden=True, domains=('audio',)),
    ],
    "dense-block/swiglu-ffn": [
        Workload('m96k432h1152', {'m': 96, 'k': 432, 'h': 1152}, hidden=True, domains=('language',)),
    ],
    "depthwise-conv2d/depthwise-conv2d-multiplier": [
        Workload('n1c48h80w80m4r3s1p1', {'n': 1, 'c': 48, 'h': 80, 'w': 80, 'm': 4, 'r': 3, 's': 1, 'p': 1}, hidden=True),
    ],
    "depthwise-conv2d/depthwise-conv2d-nchw": [
        Workload('n1c256h14w14r5s1', {'n': 1, 'c': 256, 'h': 14, 'w': 14, 'r': 5, 'stride': 1, 'pad': 2}, hidden=True),
    ],
    "depthwise-conv2d/depthwise-conv2d-nchw-dilated": [
        Workload('n1c480h50w50r3d2p2s1', {'n': 1, 'c': 480, 'h': 50, 'w': 50, 'r': 3, 'd': 2, 'p': 2, 's': 1}, hidden=True),
    ],
    "depthwise-conv2d/depthwise-conv2d-nhwc": [
        Workload('n1h64w64c16r3s1p1', {'n': 1, 'h': 64, 'w': 64, 'c': 16, 'r': 3, 's': 1, 'p': 1}, hidden=True),
    ],
    "distance/cosine-similarity": [
        Workload('m384d128', {'m': 384, 'd': 128}, hidden=True, domains=('recommendation',)),
    ],
    "distance/cosine-similarity-matrix": [
        Workload('m48n6144d64', {'m': 48, 'n': 6144, 'd': 64}, hidden=True, domains=('recommendation',)),
    ],
    "distance/mahalanobis": [
        Workload('m384d128', {'m': 384, 'd': 128}, hidden=True, domains=('anomaly-detection',)),
    ],
    "distance/pairwise-l1": [
        Workload('m192n384d40', {'m': 192, 'n': 384, 'd': 40}, hidden=True, domains=('anomaly-detection',)),
    ],
    "distance/pairwise-sq-l2": [
        Workload('m384n768d64', {'m': 384, 'n': 768, 'd': 64}, hidden=True, domains=('anomaly-detection',)),
    ],
    "elementwise/fma": [
        Workload('s200x640', {'shape': (200, 640)}, hidden=True, domains=('language',)),
    ],
    "elementwise/maximum": [
        Workload('s1x48x40x40', {'shape': (1, 48, 40, 40)}, hidden=True, domains=('vision',)),
    ],
    "elementwise/prelu-channel": [
        Workload('n1c48h160w160', {'n': 1, 'c': 48, 'h': 160, 'w': 160}, hidden=True, domains=('vision',)),
    ],
    "elementwise/scale-shift-channel": [
        Workload('n1c96h80w80', {'n': 1, 'c': 96, 'h': 80, 'w': 80}, hidden=True, domains=('vision',)),
    ],
    "elementwise/where": [
        Workload('s200x640', {'shape': (200, 640)}, hidden=True, domains=('language',)),
    ],
    "embedding/embedding-bag-max": [
        Workload('rows15008dim64batch48bag20', {'rows': 15008, 'dim': 64, 'batch': 48, 'bag': 20}, hidden=True),
    ],
    "embedding/embedding-bag-mean": [
        Workload('rows15008dim64batch48bag20', {'rows': 15008, 'dim': 64, 'batch': 48, 'bag': 20}, hidden=True),
    ],
    "embedding/embedding-bag-sum": [
        Workload('rows15008dim64batch48bag20', {'rows': 15008, 'dim': 64, 'batch': 48, 'bag': 20}, hidden=True),
    ],
    "embedding/embedding-bag-weighted": [
        Workload('rows15008dim64batch48bag20', {'rows': 15008, 'dim': 64, 'batch': 48, 'bag': 20}, hidden=True),
    ],
    "embedding/embedding-lookup": [
        Workload('rows45784dim128tokens192', {'rows': 45784, 'dim': 128, 'tokens': 192}, hidden=True),
    ],
    "fused/attention": [
        Workload('b16m192n192d64', {'b': 16, 'm': 192, 'n': 192, 'd': 64}, hidden=True),
    ],
    "fused/conv2d-bias-relu": [
        Workload('n1c16h56w56k32r3s2', {'n': 1, 'c': 16, 'h': 56, 'w': 56, 'k': 32, 'r': 3, 'stride': 2, 'pad': 1}, hidden=True),
    ],
    "fused/dense-bias-gelu": [
        Workload('m16n3072k768', {'m': 16, 'n': 3072, 'k': 768}, hidden=True),
    ],
    "fused/depthwise-separable": [
        Workload('c48h80w80k96', {'c': 48, 'h': 80, 'w': 80, 'k': 96}, hidden=True),
    ],
    "fused/residual-layer-norm": [
        Workload('m192n1152', {'m': 192, 'n': 1152}, hidden=True),
    ],
    "gemv/batched-gemv": [
        Workload('b16m384k96', {'b': 16, 'm': 384, 'k': 96}, hidden=True),
    ],
    "gemv/gemv": [
        Workload('m4096k512', {'m': 4096, 'k': 512}, hidden=True, domains=('recommendation',)),
    ],
    "gemv/gemv-t": [
        Workload('m1536k1536', {'m': 1536, 'k': 1536}, hidden=True),
    ],
    "index/bucketize": [
        Workload('n6144b96', {'n': 6144, 'b': 96}, hidden=True, domains=('recommendation',)),
    ],
    "index/gather-elements": [
        Workload('m192n1504k8', {'m': 192, 'n': 1504, 'k': 8}, hidden=True, domains=('vision',)),
    ],
    "index/gather-nd": [
        Workload('a32b192d256t96', {'a': 32, 'b': 192, 'd': 256, 't': 96}, hidden=True, domains=('language',)),
    ],
    "index/scatter-update": [
        Workload('m96n1536k384', {'m': 96, 'n': 1536, 'k': 384}, hidden=True, domains=('recommendation',)),
    ],
    "index/sort": [
        Workload('m96n1536', {'m': 96, 'n': 1536}, hidden=True, domains=('signal-processing',)),
    ],
    "layout/concat-channels": [
        Workload('n1a96b96h80w80', {'n': 1, 'a': 96, 'b': 96, 'h': 80, 'w': 80}, hidden=True),
    ],
    "layout/pixel-shuffle": [
        Workload('n1c96h48w48r2', {'n': 1, 'c': 96, 'h': 48, 'w': 48, 'r': 2}, hidden=True),
    ],
    "layout/repeat": [
        Workload('m96n384r4', {'m': 96, 'n': 384, 'r': 4}, hidden=True, domains=('audio',)),
    ],
    "layout/transpose-2d": [
        Workload('m1536n1536', {'m': 1536, 'n': 1536}, hidden=True, domains=('linear-algebra',)),
    ],
    "layout/tril": [
        Workload('m384n384', {'m': 384, 'n': 384}, hidden=True, domains=('language',)),
    ],
    "matmul/bilinear": [
        Workload('b192i96j96', {'b': 192, 'i': 96, 'j': 96}, hidden=True),
    ],
    "matmul/dot": [
        Workload('n6144', {'n': 6144}, hidden=True),
    ],
    "matmul/gemm": [
        Workload('m384n384k384', {'m': 384, 'n': 384, 'k': 384}, hidden=True),
    ],
    "matmul/linear-3d": [
        Workload('b8s64n384k384', {'b': 8, 's': 64, 'n': 384, 'k': 384}, hidden=True),
    ],
    "matmul/matmul": [
        Workload('m192n320k96', {'m': 192, 'n': 320, 'k': 96}, hidden=True),
    ],
    "matmul/trmm-lower": [
        Workload('m384n384', {'m': 384, 'n': 384}, hidden=True),
    ],
    "model/anomaly-autoencoder": [
        Workload('b8', {'batch': 8, 'n_in': 640}, hidden=True),
    ],
    "model/ds-cnn-kws": [
        Workload('classes35', {'classes': 35}, hidden=True),
    ],
    "model/mobilenet-v1-vww": [
        Workload('classes3', {'classes': 3}, hidden=True),
    ],
    "model/transformer-encoder-tiny": [
        Workload('s100d128h4ff512', {'s': 100, 'd': 128, 'h': 4, 'ff': 512}, hidden=True),
    ],
    "model/unet-small": [
        Workload('h96w96classes3', {'h': 96, 'w': 96, 'classes': 3}, hidden=True),
    ],
    "norm/batch-norm-train-nchw": [
        Workload('n16c48h40w40', {'n': 16, 'c': 48, 'h': 40, 'w': 40}, hidden=True),
    ],
    "norm/group-norm": [
        Workload('n1c96h48w48g8', {'n': 1, 'c': 96, 'h': 48, 'w': 48, 'g': 8}, hidden=True),
    ],
    "norm/instance-norm": [
        Workload('n1c96h96w96', {'n': 1, 'c': 96, 'h': 96, 'w': 96}, hidden=True),
    ],
    "norm/layer-norm-channel": [
        Workload('n1c144h80w80', {'n': 1, 'c': 144, 'h': 80, 'w': 80}, hidden=True),
    ],
    "norm/lrn": [
        Workload('n1c144h82w82', {'n': 1, 'c': 144, 'h': 82, 'w': 82}, hidden=True),
    ],
    "pool/adaptive-max-pool2d": [
        Workload('n1c192h32w32o7', {'n': 1, 'c': 192, 'h': 32, 'w': 32, 'o': 7}, hidden=True),
    ],
    "pool/avg-pool1d": [
        Workload('n1c96w1504k8s4p0', {'n': 1, 'c': 96, 'w': 1504, 'k': 8, 's': 4, 'p': 0}, hidden=True),
    ],
    "pool/avg-pool2d": [
        Workload('n1c128h28w28k3s1', {'n': 1, 'c': 128, 'h': 28, 'w': 28, 'k': 3, 'stride': 1, 'pad': 0}, hidden=True),
    ],
    "pool/avg-pool2d-ceil": [
        Workload('n1c144h40w40k4s2p0', {'n': 1, 'c': 144, 'h': 40, 'w': 40, 'k': 4, 's': 2, 'p': 0}, hidden=True),
    ],
    "pool/avg-pool2d-exclude-pad": [
        Workload('n1c96h80w80k4s1p1', {'n': 1, 'c': 96, 'h': 80, 'w': 80, 'k': 4, 's': 1, 'p': 1}, hidden=True),
    ],
    "pool/max-pool3d": [
        Workload('n1c48d16h40w40k4s2p0', {'n': 1, 'c': 48, 'd': 16, 'h': 40, 'w': 40, 'k': 4, 's': 2, 'p': 0}, hidden=True),
    ],
    "quant/fake-quantize": [
        Workload('m192n1152', {'m': 192, 'n': 1152}, hidden=True, domains=('language',)),
    ],
    "quant/qavg-pool2d": [
        Workload('n1c96h32w8k4', {'n': 1, 'c': 96, 'h': 32, 'w': 8, 'k': 4}, hidden=True, domains=('audio',)),
    ],
    "quant/qbatch-matmul": [
        Workload('b16m192n192k96', {'b': 16, 'm': 192, 'n': 192, 'k': 96}, hidden=True, domains=('language',)),
    ],
    "quant/qdepthwise-conv2d": [
        Workload('n1c96h38w8r3s1p1', {'n': 1, 'c': 96, 'h': 38, 'w': 8, 'r': 3, 's': 1, 'p': 1}, hidden=True, domains=('audio',)),
    ],
    "quant/quantize": [
        Workload('m192n1152', {'m': 192, 'n': 1152}, hidden=True, domains=('language',)),
    ],
    "reduction/amax-abs-lastaxis": [
        Workload('m192n1152', {'m': 192, 'n': 1152}, hidden=True, domains=('language',)),
    ],
    "reduction/argmin-lastaxis": [
        Workload('m384n768', {'m': 384, 'n': 768}, hidden=True, domains=('anomaly-detection',)),
    ],
    "reduction/l2-norm-lastaxis": [
        Workload('m384n96', {'m': 384, 'n': 96}, hidden=True, domains=('recommendation', 'anomaly-detection')),
    ],
    "reduction/mean-firstaxis": [
        Workload('m148n386', {'m': 148, 'n': 386}, hidden=True, domains=('audio', 'signal-processing')),
    ],
    "reduction/sum-firstaxis": [
        Workload('m1536n768', {'m': 1536, 'n': 768}, hidden=True, domains=('linear-algebra',)),
    ],
    "resize/grid-sample": [
        Workload('n1c48h48w48oh32ow32', {'n': 1, 'c': 48, 'h': 48, 'w': 48, 'oh': 32, 'ow': 32}, hidden=True),
    ],
    "resize/resize-bicubic": [
        Workload('n1c4h96w96oh128ow128', {'n': 1, 'c': 4, 'h': 96, 'w': 96, 'oh': 128, 'ow': 128}, hidden=True),
    ],
    "resize/resize-bilinear": [
        Workload('n1c32h48w48oh128ow128', {'n': 1, 'c': 32, 'h': 48, 'w': 48, 'oh': 128, 'ow': 128}, hidden=True),
    ],
    "resize/resize-bilinear-align-corners": [
        Workload('n1c48h50w50oh65ow65', {'n': 1, 'c': 48, 'h': 50, 'w': 50, 'oh': 65, 'ow': 65}, hidden=True),
    ],
    "resize/upsample-linear-1d": [
        Workload('n1c1w12000ow16000', {'n': 1, 'c': 1, 'w': 12000, 'ow': 16000}, hidden=True),
    ],
    "scan/cummin-lastaxis": [
        Workload('m148n386', {'m': 148, 'n': 386}, hidden=True, domains=('audio',)),
    ],
    "scan/cumsum-exclusive": [
        Workload('m48n1536', {'m': 48, 'n': 1536}, hidden=True, domains=('recommendation',)),
    ],
    "scan/cumsum-firstaxis": [
        Workload('m192n192', {'m': 192, 'n': 192}, hidden=True, domains=('vision',)),
    ],
    "scan/cumsum-lastaxis": [
        Workload('m96n1536', {'m': 96, 'n': 1536}, hidden=True, domains=('signal-processing',)),
    ],
    "scan/logcumsumexp-lastaxis": [
        Workload('m96n768', {'m': 96, 'n': 768}, hidden=True, domains=('audio', 'language')),
    ],
    "signal/dc-removal": [
        Workload('f148n608', {'f': 148, 'n': 608}, hidden=True),
    ],
    "signal/dft-real": [
        Workload('f148nfft512', {'f': 148, 'nfft': 512}, hidden=True),
    ],
    "signal/fir-decimate": [
        Workload('b1n72000t94down3', {'b': 1, 'n': 72000, 't': 94, 'down': 3}, hidden=True),
    ],
    "signal/gcc-phat": [
        Workload('f48nfft512', {'f': 48, 'nfft': 512}, hidden=True),
    ],
    "signal/moving-average": [
        Workload('b8n6144k48', {'b': 8, 'n': 6144, 'k': 48}, hidden=True, domains=('anomaly-detection', 'signal-processing')),
    ],
    "softmax/causal-softmax": [
        Workload('m192n192', {'m': 192, 'n': 192}, hidden=True),
    ],
    "softmax/log-softmax": [
        Workload('m376n44', {'m': 376, 'n': 44}, hidden=True, domains=('audio',)),
    ],
    "softmax/softmax": [
        Workload('m768n256', {'m': 768, 'n': 256}, hidden=True),
    ],
    "softmax/softmax-bias": [
        Workload('m192n192', {'m': 192, 'n': 192}, hidden=True),
    ],
    "softmax/softmax-channel": [
        Workload('n1c32h96w96', {'n': 1, 'c': 32, 'h': 96, 'w': 96}, hidden=True),
    ],
    "transformer-block/mha-block": [
        Workload('s96d128h4', {'s': 96, 'd': 128, 'h': 4}, hidden=True),
    ],
    "transformer-block/patch-embed": [
        Workload('c4h224w336patch16d192', {'c': 4, 'h': 224, 'w': 336, 'patch': 16, 'd': 192}, hidden=True),
    ],
    "transformer-block/prenorm-swiglu-residual": [
        Workload('s48d288h768', {'s': 48, 'd': 288, 'h': 768}, hidden=True),
    ],
    "transformer-block/qkv-projection": [
        Workload('s192d256h4', {'s': 192, 'd': 256, 'h': 4}, hidden=True),
    ],
    "transformer-block/residual-rms-norm": [
        Workload('m192n432', {'m': 192, 'n': 432}, hidden=True),
    ],
}
