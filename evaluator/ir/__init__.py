"""The unified IR: how a submission's kernel becomes a TVM IRModule (the "lower" stage)."""
