"""One file per pattern (or per generated family of patterns). See ``evaluator/suite/base.py``."""
