#!/usr/bin/env bash
# The detect stage against the model alone on one CUDA GPU: bench/detect.py with the stage in
# fp16 with its decode workers, and as baseline the same fp16 model on the same images already
# letterboxed and on the GPU (inference and NMS only). Prints images/s of both and the ratio
# stage/model (target: 0.9 or more). Self-contained: run it from anywhere in a checkout with
# `make install` done (or PYTHON pointing at an environment with negdata installed), or, on a
# bare GPU machine with Python 3.12 and torch, with the folder `make gpu-prepare` fills here
# (.gpu/: the wheels the detect path needs and the person weights) carried along; nothing is
# downloaded. Settings through the environment:
#   IMAGES (2048)  BATCH (64)  IMGSZ (640)  DECODE_WORKERS (8)  REPEAT (3)  DEVICE (cuda:0)
#   WEIGHTS (the bundled person weights; a .pt, .onnx or .engine file, or a model .yaml such as
#   yolo11x.yaml: random weights, that architecture's speed)  GPU_DIR (.gpu)
#   ENCODER (unset; an open_clip model such as ViT-B-32: also times the stage with it)
set -euo pipefail
cd "$(dirname "$0")/.."
GPU_DIR=${GPU_DIR:-.gpu}
if [ -z "${PYTHON:-}" ] && [ ! -x .venv/bin/python ] && [ -d "$GPU_DIR/wheels" ]; then
  site=$(mktemp -d)
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target "$site" \
    "$GPU_DIR"/wheels/*.whl
  export PYTHONPATH="$site:$PWD${PYTHONPATH:+:$PYTHONPATH}"
  PYTHON=$(command -v python3)
  WEIGHTS=${WEIGHTS:-$GPU_DIR/person.pt}
  echo "detect_gpu.sh: negdata from this checkout, its needs from $GPU_DIR"
fi
PYTHON=${PYTHON:-.venv/bin/python}
export YOLO_OFFLINE=1 YOLO_AUTOINSTALL=False DO_NOT_TRACK=1
export YOLO_CONFIG_DIR=${YOLO_CONFIG_DIR:-${NEGDATA_CACHE:-$HOME/.cache/negdata}/ultralytics}
if [ ! -x "$PYTHON" ]; then
  echo "detect_gpu.sh: no Python at $PYTHON: run make install, set PYTHON, or carry the" \
    "folder make gpu-prepare fills" >&2
  exit 1
fi
if ! "$PYTHON" -c 'import sys, torch; sys.exit(0 if torch.cuda.is_available() else 1)'; then
  echo "detect_gpu.sh: no CUDA device is visible to torch (nvidia-smi, CUDA_VISIBLE_DEVICES):" \
    "this benchmark measures the detect stage on a GPU; on the CPU run make bench-detect" >&2
  exit 1
fi
"$PYTHON" -c 'import torch; print("GPU:", torch.cuda.get_device_name(0))'
args=(--device "${DEVICE:-cuda:0}" --baseline tensors --images "${IMAGES:-2048}"
  --batch "${BATCH:-64}" --imgsz "${IMGSZ:-640}" --decode-workers "${DECODE_WORKERS:-8}"
  --repeat "${REPEAT:-3}")
if [ -n "${WEIGHTS:-}" ]; then
  args+=(--weights "$WEIGHTS")
fi
if [ -n "${ENCODER:-}" ]; then
  args+=(--encoder "$ENCODER")
fi
exec "$PYTHON" -m bench.detect "${args[@]}"
