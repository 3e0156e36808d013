# Two entry points: `make demo` and `make test`. Both install what is missing first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install test demo bench clean

$(STAMP): requirements.txt requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -r requirements.txt -r requirements-dev.txt
	touch $(STAMP)

install: $(STAMP)

test: install
	$(PY) -m pytest -q

# Until the portal lands, the demo evaluates the example bundles and prints the boards.
demo: install
	$(PY) -m evaluator suite
	$(PY) -m evaluator run examples/bundles/tvm-default --json var/tvm-default.json
	$(PY) -m evaluator run examples/bundles/hand-tuned --json var/hand-tuned.json
	$(PY) -m evaluator run examples/bundles/broken --json var/broken.json

bench: install
	$(PY) bench/eval_throughput.py

clean:
	rm -rf $(VENV) var .pytest_cache
