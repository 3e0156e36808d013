import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

# Baseline builds and measured peaks are cached; tests use their own cache so a stale one from a
# developer's machine never leaks in, and the whole session shares one.
os.environ.setdefault("EKB_CACHE_DIR", tempfile.mkdtemp(prefix="ekb-test-cache-"))

# The portal tests rank a fixed board: the suite's first 58 public tasks (2 model graphs, 40 with a
# vendor call), served through the deployment's task selection (EKB_TASKS), so the numbers they
# work out by hand hold however the suite grows. The environment carries it to `celery worker`s.
PORTAL_TASKS = (
    "activation/gelu-tanh@m128n768", "activation/hard-swish@n1c96h28w28", "activation/relu@n1c64h56w56",
    "activation/relu@m128n768", "activation/relu6@n1c64h56w56", "activation/relu6@n1c96h28w28",
    "activation/sigmoid@n1c64h56w56", "activation/sigmoid@m128n768",
    "batch-matmul/batch-matmul@b12m128n128k64", "batch-matmul/batch-matmul@b4m64n64k32",
    "conv1d/conv1d-ncw@n1c1w8000k32r80s16", "conv1d/conv1d-ncw@n1c32w2048k32r9s1",
    "conv2d/conv2d-nchw@n1c32h28w28k32r3s1", "conv2d/conv2d-nchw@n1c64h14w14k128r3s1",
    "conv2d/conv2d-nchw@n1c3h112w112k16r3s2", "depthwise-conv2d/depthwise-conv2d-nchw@n1c32h56w56r3s1",
    "depthwise-conv2d/depthwise-conv2d-nchw@n1c128h28w28r3s1",
    "depthwise-conv2d/depthwise-conv2d-nchw@n1c64h56w56r3s2", "elementwise/add-bias@m128n768",
    "elementwise/add-bias@m256n1024", "elementwise/mul-channel@n1c64h56w56",
    "elementwise/mul-channel@n1c256h14w14", "embedding/embedding-bag-sum@r10000d64b32l20",
    "embedding/embedding-bag-sum@r50000d16b128l8", "fused/attention@b12m128n128d64",
    "fused/attention@b4m49n49d32", "fused/conv2d-bias-relu@n1c32h28w28k64r3s1",
    "fused/conv2d-bias-relu@n1c64h14w14k64r3s1", "fused/dense-bias-gelu@m32n1024k256",
    "fused/dense-bias-gelu@m128n512k128", "fused/depthwise-separable@n1c32h56w56k64",
    "fused/depthwise-separable@n1c128h28w28k128", "fused/depthwise-separable@n1c64h25w5k64",
    "fused/residual-layer-norm@m128n768", "fused/residual-layer-norm@m196n384", "gemv/gemv@m1024k1024",
    "gemv/gemv@m3072k768", "matmul/matmul@m256n256k256", "matmul/matmul@m128n512k128",
    "model/anomaly-autoencoder@b1", "model/ds-cnn-kws@n1h49w10", "norm/layer-norm@m128n768",
    "norm/layer-norm@m196n384", "norm/layer-norm@m64n256", "norm/rms-norm@m128n576",
    "norm/rms-norm@m32n2048", "pool/avg-pool2d@n1c64h56w56k2s2", "pool/global-avg-pool@n1c1024h7w7",
    "pool/global-avg-pool@n1c256h14w14", "pool/max-pool2d@n1c64h112w112k3s2",
    "pool/max-pool2d@n1c32h56w56k2s2", "reduction/max-lastaxis@m512n1024",
    "reduction/max-lastaxis@m128n2048", "reduction/sum-lastaxis@m512n1024",
    "reduction/sum-lastaxis@m128n2048", "softmax/softmax@m1536n128", "softmax/softmax@m256n512",
    "softmax/softmax@m32n1000",
)
os.environ["EKB_TASKS"] = ",".join(PORTAL_TASKS)
# Held-out workloads are drawn from the deployment's secret: the tests' own (never a deployment's);
# the environment carries it to the `celery worker`s, and no sandboxed step ever gets it.
TEST_HELDOUT_SECRET = "test-heldout-secret"
os.environ["EKB_HELDOUT_SECRET"] = TEST_HELDOUT_SECRET

# Uploaded bundles (MEDIA_ROOT = EKB_VAR_DIR/media) go to a temporary directory, never into the
# repository's var/. pytest-django imports the settings before this file is read, so the value is
# also written into the loaded settings; the environment variable carries it to the `celery
# worker` processes the integration tests start.
_VAR_DIR = tempfile.mkdtemp(prefix="ekb-test-var-")
os.environ["EKB_VAR_DIR"] = _VAR_DIR
atexit.register(shutil.rmtree, _VAR_DIR, True)
try:
    from django.conf import settings as _settings

    if _settings.configured:
        _settings.MEDIA_ROOT = Path(_VAR_DIR) / "media"
        _settings.STATIC_ROOT = Path(_VAR_DIR) / "static"
        _settings.EKB_TASKS = os.environ["EKB_TASKS"]
        # the generated verify secret goes to the temporary var dir too, never the checkout's
        _settings.EKB_VERIFY_SECRET_FILE = Path(_VAR_DIR) / "secrets" / "verify-secret"
        _settings.EKB_HELDOUT_SECRET = TEST_HELDOUT_SECRET
except ImportError:  # Django not installed: only the evaluator's tests can run
    pass


@pytest.fixture(scope="session")
def quick_protocol():
    """The real protocol with a short timing budget and limits, so tests stay fast."""
    from evaluator.harness.protocol import Limits, Protocol

    return Protocol(time_budget_s=0.5, min_rounds=5, limits=Limits(build_s=60, check_s=8, time_s=30))
