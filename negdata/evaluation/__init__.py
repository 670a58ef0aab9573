"""Scoring CLIP-style models on a finished run's data."""
