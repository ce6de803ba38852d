"""Fine-tuning baselines for extractive QA (the ``gpu`` extra: torch, transformers, safetensors).

Import ``evaluation.baselines.qa``; this package itself imports nothing, so the platform runs
without the extra installed.
"""
