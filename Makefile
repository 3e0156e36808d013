# Two entry points: `make demo` and `make test`. Both install what is missing first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install system test demo bench clean

# The sandbox needs bubblewrap and libseccomp from the system (root installs them; a machine
# without them refuses untrusted submissions with a clear error).
SYSTEM_PACKAGES := bubblewrap libseccomp2

system:
	@command -v bwrap >/dev/null && ldconfig -p | grep -q libseccomp || \
	  { [ "$$(id -u)" = 0 ] && export DEBIAN_FRONTEND=noninteractive && \
	    { apt-get install -y -q $(SYSTEM_PACKAGES) || { apt-get update -q && apt-get install -y -q $(SYSTEM_PACKAGES); }; } \
	  || echo "warning: could not install $(SYSTEM_PACKAGES); untrusted bundles will be refused"; }

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

bench: install
	$(PY) bench/eval_throughput.py

clean:
	rm -rf $(VENV) var .pytest_cache
