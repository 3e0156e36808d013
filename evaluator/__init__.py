"""EdgeKernelBench evaluator: the benchmark engine, importable and runnable without Django.

Pipeline per task (each stage its own module, typed records between them):
load (formats) → lower (ir) → build (backends) → check (harness) → time (harness) → record.

Imports sit at the top of each module. The exceptions, each commented where it is: TVM and the
optional libraries (pyopencl, CuPy, PyTorch, pyseccomp) are imported where used, so importing the
evaluator never loads them; elftools (the pipeline's ELF checks) stays off the CLI's ``--help`` and
a step's start-up; and the sandboxed child (``harness.child``) imports each step's modules itself
(the suite only for a vendor call).
"""

__version__ = "0.1.0"
