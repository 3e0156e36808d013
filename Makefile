# Two entry points: `make demo` and `make test`. Both install what is missing first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install system bench-system lint test test-evaluator demo bench clean

# System packages, installed when missing (root only; otherwise a warning, and what needs them
# reports itself unavailable with the reason):
#   bubblewrap libseccomp2         the sandbox (untrusted bundles are refused without it)
#   gcc                            exporting kernel libraries, c-source entries
#   pocl-opencl-icd ocl-icd-libopencl1   the opencl backend on a CPU (PoCL)
#   gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user   cross-builds for aarch64 boards
#   chromium chromium-driver fonts-dejavu-core   the browser test (tests/e2e/, driven through the
#                                  system chromedriver) and its screenshots (docs/screenshots/)
SYSTEM_PACKAGES := bubblewrap libseccomp2 gcc pocl-opencl-icd ocl-icd-libopencl1 \
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user chromium chromium-driver fonts-dejavu-core
# Only for benchmarks:
#   wrk                            the load tool of bench/leaderboard_latency.py (requests/s)
BENCH_PACKAGES := wrk

define install_missing
	@missing="$$(for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null \
	    | grep -q 'install ok installed' || echo $$p; done)"; \
	[ -z "$$missing" ] || { [ "$$(id -u)" = 0 ] && export DEBIAN_FRONTEND=noninteractive && \
	    { apt-get install -y -q --no-install-recommends $$missing || \
	      { apt-get update -q && apt-get install -y -q --no-install-recommends $$missing; }; } \
	  || echo "warning: could not install $$missing; what needs them will say so"; }
endef

system:
	$(call install_missing,$(SYSTEM_PACKAGES))

bench-system:
	$(call install_missing,$(BENCH_PACKAGES))

# The emulated aarch64 board (evaluator/boards/qemu_aarch64.py): Debian's arm64 Python and the
# aarch64 wheels at requirements.txt's pins, in var/boards/aarch64, run by qemu-user. Idempotent
# (a fraction of a second once made); where it cannot be made, its tests skip and say why.
.PHONY: board-aarch64
board-aarch64: install
	@$(PY) -m evaluator.boards.qemu_aarch64 provision || \
	  echo "warning: no aarch64 board; tests/leaderboard/test_board_aarch64.py will skip"

# The project itself is installed editable (pyproject.toml), so bench/ scripts and tools import
# its packages from anywhere; --no-deps: the pinned requirements above are what it runs on. The
# `ekb` client (client/, standard library only) too: editable, so the command is never stale.
$(STAMP): requirements.txt requirements-dev.txt pyproject.toml client/pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -r requirements.txt -r requirements-dev.txt
	$(PY) -m pip install --quiet --no-deps -e .
	$(PY) -m pip install --quiet --no-deps -e ./client
	touch $(STAMP)

install: system $(STAMP)

# The tests run against the real services: PostgreSQL (psycopg 3) and Redis (Celery broker),
# with real `celery worker` processes started by the integration tests.
TEST_ENV := DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/ekb} \
	CELERY_BROKER_URL=$${CELERY_BROKER_URL:-redis://127.0.0.1:6379/15} \
	DJANGO_SECRET_KEY=$${DJANGO_SECRET_KEY:-test-only-secret-key-not-for-production}

# The import contracts (.importlinter): the evaluator stands alone, the portal never imports
# the leaderboard, and config → leaderboard → portal → evaluator only import downwards.
# Then ruff (pyproject.toml's [tool.ruff]). Both uncached: they take seconds, and leave no cache
# folder in the tree.
lint: install
	$(VENV)/bin/lint-imports --no-cache
	$(VENV)/bin/ruff check --no-cache .

test: install lint board-aarch64
	$(TEST_ENV) $(PY) -m pytest -q

# The evaluator's tests alone: no PostgreSQL, Redis or Django (the Django plugin is off, and
# tests/evaluator/conftest.py fails the run if anything there imports Django). The warning
# filter drops pytest's note that DJANGO_SETTINGS_MODULE is an unknown option without the plugin.
test-evaluator: install
	env -u DATABASE_URL -u CELERY_BROKER_URL $(PY) -m pytest -q -p no:django \
	  -W "ignore:Unknown config option:pytest.PytestConfigWarning" tests/evaluator

# The demo serves a representative subset of the suite (EKB_TASKS): evaluating every public task
# for each example bundle would take hours. 24 sampled tasks (every family's cheapest workload
# and one model graph first) plus the tasks the hand-tuned and broken examples cover, 47 in all.
# On 2 busy cores the matrix has both rows after 8.5 minutes and everything is evaluated after
# 12 (docs/demo.md). `make demo DEMO_TASKS=` serves the whole suite.
DEMO_TASKS ?= sample:24,matmul/matmul@m256n256k256,matmul/matmul@m128n512k128, \
	batch-matmul/batch-matmul@b12m128n128k64,fused/dense-bias-gelu@m128n512k128, \
	fused/dense-bias-gelu@m32n1024k256,gemv/gemv@m1024k1024,gemv/gemv@m3072k768, \
	fused/conv2d-bias-relu@n1c32h28w28k64r3s1,fused/conv2d-bias-relu@n1c64h14w14k64r3s1, \
	conv2d/conv2d-nchw@n1c32h28w28k32r3s1,conv2d/conv2d-nchw@n1c64h14w14k128r3s1, \
	conv1d/conv1d-ncw@n1c32w2048k32r9s1,reduction/sum-lastaxis@m512n1024,softmax/softmax@m256n512, \
	softmax/softmax@m1536n128,model/ds-cnn-kws@n1h49w10,model/anomaly-autoencoder@b1, \
	activation/relu@m128n768,activation/sigmoid@m128n768,activation/relu@n1c64h56w56, \
	elementwise/add-bias@m128n768,activation/gelu-tanh@m128n768,activation/relu6@n1c64h56w56

# The backends the demo serves: opencl runs on the CPU through PoCL (make system installs it);
# seed_demo drops one this machine cannot run and says why. DEMO_ADDR: where it serves.
DEMO_BACKENDS ?= cpu-llvm,opencl
DEMO_ADDR ?= 127.0.0.1:8000
DEMO_ENV = env -u DATABASE_URL -u CELERY_BROKER_URL EKB_TASKS="$(DEMO_TASKS)" EKB_BACKENDS="$(DEMO_BACKENDS)"

# Embedded default: SQLite and an in-process worker, nothing to start. seed_demo queues the
# examples and serves the site from the same process, whose worker thread evaluates them behind
# it (docs/demo.md). Loopback endpoints are admitted: the demo's own agent is served there.
demo: install
	mkdir -p "$${EKB_VAR_DIR:-var}"
	$(DEMO_ENV) $(PY) manage.py migrate --noinput
	$(DEMO_ENV) EKB_ENDPOINT_ALLOW_LOOPBACK=1 DJANGO_DEBUG=1 $(PY) manage.py seed_demo --serve $(DEMO_ADDR)

bench: install bench-system
	$(PY) bench/eval_throughput.py

clean:
	rm -rf $(VENV) var .pytest_cache *.egg-info
