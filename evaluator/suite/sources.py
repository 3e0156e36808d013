"""A pattern's NumPy reference as written in its pattern file, and the suite functions it calls:
what the task catalogue page and the API's task detail show a researcher (one reading of the
source for both)."""

from __future__ import annotations

import ast
import functools
import inspect
import textwrap
import types

from evaluator.suite.base import Pattern

MAX_HELPERS = 8  # functions shown beside the reference
HELPER_DEPTH = 2  # the reference's helpers, and theirs


def _module_path(fn: types.FunctionType) -> str:
    """``evaluator/suite/refs.py:42``: where a function is written, relative to the repository."""
    return f"{fn.__module__.replace('.', '/')}.py:{fn.__code__.co_firstlineno}"


@functools.cache
def _module_tree(filename: str) -> tuple[str, ast.Module]:
    with open(filename, encoding="utf-8") as f:
        text = f.read()
    return text, ast.parse(text)


def _names(code: types.CodeType) -> set[str]:
    """The global and attribute names a function's code uses, its comprehensions' included."""
    out = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            out |= _names(c)
    return out


def _lambda_source(fn: types.FunctionType) -> str:
    """Just the ``lambda …: …`` expression (``getsource`` gives the whole line it is on)."""
    text, tree = _module_tree(inspect.getsourcefile(fn))
    code = fn.__code__
    args = list(code.co_varnames[:code.co_argcount])
    found = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda) and n.lineno == code.co_firstlineno
             and [a.arg for a in n.args.args] == args]
    # Two lambdas of one line with the same arguments: the one whose code names the same things
    # (compiled alone, its closure's names are globals)
    want = _names(code) | set(code.co_freevars)
    same = [n for n in found if _names(compile(ast.Expression(n), "<lambda>", "eval").co_consts[0]) == want]
    node = (same or found or [None])[0]
    if node is None:
        return inspect.getsource(fn).strip()
    first, *rest = ast.get_source_segment(text, node).split("\n")
    # continuation lines lose the indentation of the line the lambda starts on
    return "\n".join([first] + [line[min(node.col_offset, len(line) - len(line.lstrip())):] for line in rest])


def _source(fn: types.FunctionType) -> str:
    if fn.__name__ == "<lambda>":
        return _lambda_source(fn)
    return textwrap.dedent(inspect.getsource(fn)).strip()


def _helpers(fn: types.FunctionType) -> list[tuple[str, types.FunctionType]]:
    """(name, function) of the suite's functions ``fn`` calls: its closure's and its module's,
    and those it reaches through a suite module (``refs.softmax``)."""
    code = fn.__code__
    scope = dict(fn.__globals__)
    if fn.__closure__:
        scope.update({n: c.cell_contents for n, c in zip(code.co_freevars, fn.__closure__)
                      if c.cell_contents is not None})
    out = []
    names = _names(code) | set(code.co_freevars)
    for name in sorted(names):
        obj = scope.get(name)
        if isinstance(obj, types.ModuleType) and obj.__name__.startswith("evaluator.suite"):
            out += [(f"{name}.{n}", getattr(obj, n)) for n in sorted(names)
                    if isinstance(getattr(obj, n, None), types.FunctionType)]
        elif isinstance(obj, types.FunctionType) and obj.__module__.startswith("evaluator.suite"):
            out.append((name, obj))
    return out


_read: dict[str, tuple[tuple[str, str], ...]] = {}  # pattern id → its blocks (the files do not change)


def reference_source(pattern: Pattern) -> tuple[tuple[str, str], ...]:
    """(title, source) of a pattern's NumPy reference and of the suite functions it calls
    (HELPER_DEPTH levels deep, at most MAX_HELPERS), as written in the pattern files."""
    if pattern.id not in _read:
        _read[pattern.id] = _read_reference(pattern)
    return _read[pattern.id]


def _read_reference(pattern: Pattern) -> tuple[tuple[str, str], ...]:
    fn = pattern.reference
    try:
        blocks = [(f"reference ({_module_path(fn)})", _source(fn))]
    except (OSError, TypeError) as e:  # no source on disk (a frozen install)
        return (("reference", f"# source not available: {e}"),)
    seen = {fn.__code__}
    frontier = [fn]
    for _ in range(HELPER_DEPTH):
        nxt = []
        for f in frontier:
            for name, h in _helpers(f):
                if h.__code__ in seen or len(seen) > MAX_HELPERS:
                    continue
                seen.add(h.__code__)
                try:
                    blocks.append((f"{name} ({_module_path(h)})", _source(h)))
                except (OSError, TypeError):
                    continue
                nxt.append(h)
        frontier = nxt
    return tuple(blocks)


def reference_text(pattern: Pattern, max_chars: int) -> str:
    """The blocks of :func:`reference_source` as one text, each under a comment naming it."""
    return "\n\n".join(f"# {title}\n{src}" for title, src in reference_source(pattern))[:max_chars]
