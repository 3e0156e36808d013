"""Strict JSON for submitted documents: duplicate keys and NaN/Infinity are errors, and type
names for error messages. Shared by the manifest and trace parsers."""

from __future__ import annotations

from typing import Any


class DuplicateKey(ValueError):
    pass


def pairs_hook(pairs: list[tuple[str, Any]]) -> dict:
    out: dict = {}
    for k, v in pairs:
        if k in out:
            raise DuplicateKey(k)
        out[k] = v
    return out


def reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def type_name(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, (int, float)):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "an array"
    if isinstance(v, dict):
        return "an object"
    return type(v).__name__
