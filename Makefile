# One command to set up and run the demo, one to set up and run the tests, one to lint.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
export HF_HUB_OFFLINE ?= 1
export TRANSFORMERS_OFFLINE ?= 1
export TOKENIZERS_PARALLELISM ?= false

.PHONY: demo test lint setup clean bench identity

$(VENV)/.torch:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	# torch first and alone: the CPU wheel on disk, not a multi-GB CUDA build
	$(PIP) install --quiet torch==2.13.0
	touch $@

$(VENV)/.installed: $(VENV)/.torch pyproject.toml
	$(PIP) install --quiet -e ".[offline,nli,test,lint,demo,space,ray]"
	touch $@

setup: $(VENV)/.installed

demo: setup
	@$(PY) -c "import sys; from halluscope.wordnet import find_wordnet; sys.exit(find_wordnet() is None)" 2>/dev/null \
		|| echo "WordNet 3.0 not found (lexical relations off): apt-get install wordnet-base wordnet-sense-index, or $(PY) -c 'import nltk; nltk.download(\"wordnet\")'"
	$(PY) -m halluscope.demo

test: setup
	$(PY) -m pytest -q tests

# the formatter, the linter (rules in pyproject.toml) and mypy on every module of the package
# that exports __all__, found by grep so that a new one is checked as it lands (issue 59 item 7)
lint: setup
	$(PY) -m ruff format --check .
	$(PY) -m ruff check .
	# every module of the package, named as files: a module mypy only follows into is read as
	# installed (the editable install puts shared/ on sys.path) and its errors are not reported
	$(PY) -m mypy shared/halluscope

bench: setup
	$(PY) -m benchmarks.speed_chi --data ../shared/data/summac/summeval_val.jsonl -n 200

# issue 59's safety net: scores, details and signatures bit-identical to the refactor's
# baseline (benchmarks/identity.py; about 25 minutes of CPU)
identity: setup
	$(PY) -m benchmarks.identity --data ../shared/data --out /tmp/halluscope-identity --check benchmarks/identity.sha256

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
