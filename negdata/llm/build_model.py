"""Turn a GGUF checkpoint into a Hugging Face model folder that vLLM can serve.

Standalone (stdlib + transformers): it runs under the vLLM venv's python, where negdata is not
installed. Usage: ``python build_model.py MODEL.gguf OUTPUT_DIR``. The folder is written next to
OUTPUT_DIR and renamed into place, so OUTPUT_DIR is either complete or absent.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

from transformers import AutoModelForCausalLM, AutoTokenizer


def build(gguf: Path, out: Path) -> None:
    """Dequantise ``gguf`` and save model and tokenizer to ``out`` (atomically)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
        # vLLM downcasts float32 to bfloat16 anyway; saving bfloat16 halves the folder.
        model = AutoModelForCausalLM.from_pretrained(
            gguf.parent, gguf_file=gguf.name, dtype="bfloat16"
        )
        model.hf_quantizer = None
        if hasattr(model.config, "quantization_config"):
            del model.config.quantization_config
        model.save_pretrained(tmp)
        tokenizer.save_pretrained(tmp)
        if out.exists():
            return
        tmp.chmod(0o755)
        tmp.rename(out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Convert a GGUF checkpoint into a HF model folder."
    )
    parser.add_argument("gguf", type=Path, help="the .gguf file")
    parser.add_argument("out", type=Path, help="model folder to create")
    args = parser.parse_args()
    if not args.gguf.is_file():
        parser.error(f"GGUF file not found: {args.gguf}")
    build(args.gguf.resolve(), args.out.resolve())


if __name__ == "__main__":
    main()
