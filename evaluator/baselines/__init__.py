"""Baselines every task is timed against: ``tvm-default`` (the reference compiler's default
path) and ``vendor`` (the library call a user would make: NumPy/OpenBLAS on CPU)."""

BASELINES = ("tvm-default", "vendor")
