"""EdgeKernelBench evaluator: the benchmark engine, importable and runnable without Django.

Pipeline per task (each stage its own module, typed records between them):
load (formats) → lower (ir) → build (backends) → check (harness) → time (harness) → record.
"""

__version__ = "0.1.0"
