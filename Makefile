# The two set-up commands of the README: `make run` and `make test`.
VENV ?= .venv
PYTHON ?= python3

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check --upgrade pip
	$(VENV)/bin/pip install -q --disable-pip-version-check -e '.[dev]'
	touch $@

.PHONY: run test
run: $(VENV)/.installed
	$(VENV)/bin/companion

test: $(VENV)/.installed
	bash .ci/deps.sh
	$(VENV)/bin/ruff check .
	$(VENV)/bin/python -m pytest
