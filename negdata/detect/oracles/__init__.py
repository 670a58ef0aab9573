"""Label oracles read from files other tools publish: COCO instances JSON and CSV/JSONL tables."""
