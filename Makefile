# Two entry points: `make demo` and `make test`. Both install what is missing first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install system bench-system test demo bench clean

# System packages, installed when missing (root only; otherwise a warning, and what needs them
# reports itself unavailable with the reason):
#   bubblewrap libseccomp2         the sandbox (untrusted bundles are refused without it)
#   gcc                            exporting kernel libraries, c-source entries
#   pocl-opencl-icd ocl-icd-libopencl1   the opencl backend on a CPU (PoCL)
#   gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user   cross-builds for aarch64 boards
SYSTEM_PACKAGES := bubblewrap libseccomp2 gcc pocl-opencl-icd ocl-icd-libopencl1 \
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
# Only for benchmarks and docs, so `make test` does not pull a browser:
#   wrk                            the load tool of bench/leaderboard_latency.py (requests/s)
#   chromium fonts-dejavu-core     headless screenshots of the pages (docs/screenshots/)
BENCH_PACKAGES := wrk chromium fonts-dejavu-core

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

$(STAMP): requirements.txt requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -r requirements.txt -r requirements-dev.txt
	touch $(STAMP)

install: system $(STAMP)

# The tests run against the real services: PostgreSQL (psycopg 3) and Redis (Celery broker),
# with real `celery worker` processes started by the integration tests.
TEST_ENV := DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/ekb} \
	CELERY_BROKER_URL=$${CELERY_BROKER_URL:-redis://127.0.0.1:6379/15} \
	DJANGO_SECRET_KEY=$${DJANGO_SECRET_KEY:-test-only-secret-key-not-for-production}

test: install
	$(TEST_ENV) $(PY) -m pytest -q

# Embedded default: SQLite and an in-process worker, nothing to start.
demo: install
	mkdir -p var
	env -u DATABASE_URL -u CELERY_BROKER_URL $(PY) manage.py migrate --noinput
	env -u DATABASE_URL -u CELERY_BROKER_URL $(PY) manage.py seed_demo
	@echo "Serving on http://127.0.0.1:8000/ (log in as demo / demo-password)"
	env -u DATABASE_URL -u CELERY_BROKER_URL DJANGO_DEBUG=1 $(PY) manage.py runserver 127.0.0.1:8000 --noreload

bench: install bench-system
	$(PY) bench/eval_throughput.py

clean:
	rm -rf $(VENV) var .pytest_cache
