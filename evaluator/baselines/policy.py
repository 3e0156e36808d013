"""How a backend's ``tvm-default`` baseline is made: one policy per kind of device, chosen by the
backend (``Backend.baseline``), so that the rule is written once however many backends use it.

A policy answers three questions: the canonical module scheduled the way TVM's own default path
does (``module``), the JSON data that with the workload, target and TVM version determines that
module (``signature``: the key its cached build is stored under), and the steps for a model-graph
function a submitted layered trace leaves unnamed (``layers``).
"""

from __future__ import annotations

import json
from typing import Protocol

from evaluator import formats
from evaluator.baselines import dlight_default
from evaluator.baselines.tvm_default import default_document, default_layers


class BaselinePolicy(Protocol):
    def module(self, canonical, target: dict, workload=None): ...

    def signature(self, canonical, workload=None) -> dict: ...

    def layers(self, sch, func_name: str = "main") -> dict: ...


class CpuRules:
    """The CPU rule set (``baselines/tvm_default.py``): a layered trace of TVM's default
    schedule rules, applied like a submission's."""

    def module(self, canonical, target: dict, workload=None):
        return formats.lower("layered-trace", json.dumps(default_document(canonical)), canonical,
                             default_layers=self.layers)

    def signature(self, canonical, workload=None) -> dict:
        return default_document(canonical)

    def layers(self, sch, func_name: str = "main") -> dict:
        return default_layers(sch, func_name)


class Dlight:
    """TVM's GPU default, dlight (``baselines/dlight_default.py``), for every GPU backend.

    ``artifact``: what else decides the cached build (an artifact format and its version: a build
    in an older one must not be loaded). ``unnamed``: what a model-graph function that a layered
    trace leaves unnamed gets: ``"dlight"`` (no steps; the build applies dlight to every function
    left without thread bindings) or ``"refuse"`` (a trace must schedule every function)."""

    def __init__(self, backend: str, artifact: dict | None = None, unnamed: str = "refuse"):
        if unnamed not in ("dlight", "refuse"):
            raise ValueError(f"unnamed must be 'dlight' or 'refuse', not {unnamed!r}")
        self.backend, self.artifact, self.unnamed = backend, artifact or {}, unnamed

    def module(self, canonical, target: dict, workload=None):
        # a model graph too: dlight schedules each of its fused PrimFuncs
        return dlight_default.schedule(canonical, target, workload)

    def signature(self, canonical, workload=None) -> dict:
        return {**dlight_default.signature(workload), **self.artifact}

    def layers(self, sch, func_name: str = "main") -> dict:
        if self.unnamed == "dlight":
            return {}
        raise ValueError(f"function {func_name!r} has no schedule: on {self.backend} a model-graph trace must "
                         "schedule every function (the GPU default, dlight, is not a layered trace)")
