"""Baselines every task is timed against: ``tvm-default`` (the reference compiler's default
path), ``tvm-tuned`` (TVM's auto-tuner under a fixed budget, where a stored record exists) and
``vendor`` (the library call a user would make: NumPy/OpenBLAS on CPU)."""

from evaluator.vocabulary import Baseline

BASELINES = tuple(Baseline)
