"""Launch sizes as integer expressions of a workload's shape parameters.

A pattern-level ``opencl-source`` or ``cuda-source`` entry serves every shape of its pattern, so
its ``global``/``local`` or ``grid``/``block`` sizes may be strings such as ``"ceil_div(m, 16)"``
or ``"(n + 63) // 64 * 64"`` instead of numbers. The language is small on purpose: integer
literals, the workload's integer parameters by name, ``+ - * // %``, unary minus, parentheses,
and ``ceil_div(a, b)``, ``min(a, b, ...)``, ``max(a, b, ...)``. It is parsed with Python's ``ast``
and walked here node by node: nothing is ever evaluated by Python itself, every node type outside
the list is refused, and the size of an expression and of every value it reaches are bounded.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Mapping

MAX_CHARS = 200
MAX_NODES = 64
MAX_VALUE = 1 << 62  # any value an expression reaches, intermediate ones included
FUNCTIONS = {"ceil_div": (2, 2), "min": (2, 4), "max": (2, 4)}
_OPERATORS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%"}


class LaunchExprError(ValueError):
    """What is wrong with a size expression; ``str()`` names the expression."""


@dataclass(frozen=True)
class SizeExpr:
    text: str
    tree: ast.expr
    names: frozenset[str]  # the shape parameters it reads


def parse(text: str) -> SizeExpr:
    """The checked expression; :class:`LaunchExprError` naming the first problem."""
    if not isinstance(text, str) or not text.strip():
        raise LaunchExprError(f"a size expression must be a non-empty string, got {text!r:.40}")
    if len(text) > MAX_CHARS:
        raise LaunchExprError(f"size expression of {len(text)} characters; the limit is {MAX_CHARS}")
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError) as e:
        raise LaunchExprError(f"size expression {text!r} does not parse: {getattr(e, 'msg', e)}") from None
    nodes = list(ast.walk(tree))
    if len(nodes) > MAX_NODES:
        raise LaunchExprError(f"size expression {text!r} has {len(nodes)} terms; the limit is {MAX_NODES}")
    for node in nodes:
        problem = _refused(node)
        if problem:
            raise LaunchExprError(f"size expression {text!r}: {problem}")
    called = {id(n.func) for n in nodes if isinstance(n, ast.Call)}
    names = {n.id for n in nodes if isinstance(n, ast.Name) and id(n) not in called}
    return SizeExpr(text, tree, frozenset(names))


def _refused(node: ast.AST) -> str:
    """Why this node is outside the language ("" when it is inside)."""
    if isinstance(node, ast.Constant):
        v = node.value
        if isinstance(v, bool) or not isinstance(v, int):
            return f"{v!r:.20} is not an integer"
        return "" if 0 <= v <= MAX_VALUE else f"{v} is out of range"
    if isinstance(node, (ast.Name, ast.Load, ast.USub)) or type(node) in _OPERATORS:
        return ""
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.Div):
            return "'/' is not allowed: use '//' (floor division) or ceil_div(a, b)"
        return "" if type(node.op) in _OPERATORS else f"operator {type(node.op).__name__} is not allowed (+ - * // %)"
    if isinstance(node, ast.UnaryOp):
        return "" if isinstance(node.op, ast.USub) else "only unary minus is allowed"
    if isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
            return f"only {', '.join(FUNCTIONS)} may be called"
        lo, hi = FUNCTIONS[node.func.id]
        if node.keywords or not lo <= len(node.args) <= hi:
            return f"{node.func.id}() takes {lo} to {hi} positional arguments" if lo != hi else \
                f"{node.func.id}() takes {lo} positional arguments"
        return ""
    return f"{type(node).__name__} is not allowed (integers, parameter names, + - * // %, ceil_div, min, max)"


def evaluate(expr: SizeExpr, params: Mapping[str, int]) -> int:
    """The expression's value for one workload; :class:`LaunchExprError` naming what went wrong."""
    missing = sorted(expr.names - set(params))
    if missing:
        raise LaunchExprError(f"size expression {expr.text!r} reads {', '.join(missing)}, which this workload does "
                              f"not have as integer parameters; its integer parameters are "
                              f"{', '.join(sorted(params)) or 'none'}")
    return _value(expr.tree, params, expr.text)


def _value(node: ast.expr, params: Mapping[str, int], text: str) -> int:
    if isinstance(node, ast.Constant):
        v = int(node.value)
    elif isinstance(node, ast.Name):
        v = int(params[node.id])
    elif isinstance(node, ast.UnaryOp):
        v = -_value(node.operand, params, text)
    elif isinstance(node, ast.BinOp):
        a, b = _value(node.left, params, text), _value(node.right, params, text)
        op = _OPERATORS[type(node.op)]
        if op in ("//", "%") and b == 0:
            raise LaunchExprError(f"size expression {text!r} divides by zero")
        v = a + b if op == "+" else a - b if op == "-" else a * b if op == "*" else a // b if op == "//" else a % b
    else:  # ast.Call, checked by parse
        args = [_value(a, params, text) for a in node.args]
        name = node.func.id
        if name == "ceil_div":
            if args[1] == 0:
                raise LaunchExprError(f"size expression {text!r} divides by zero")
            v = -(-args[0] // args[1])
        else:
            v = min(args) if name == "min" else max(args)
    if abs(v) > MAX_VALUE:
        raise LaunchExprError(f"size expression {text!r} reaches {v:.3g}, beyond {MAX_VALUE:.3g}")
    return v
