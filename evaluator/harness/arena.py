"""The arena: a kernel's tensors in shared memory the evaluating process owns.

The parent creates one sealed memfd per kernel process (its size can never change, so the step
cannot truncate it under the parent's mapping), lays ``slots`` copies of the kernel's inputs and
outputs out in it, and hands the fd to the step. The step's kernel works on these bytes directly
(zero-copy on a host-memory backend; copied to and from the device otherwise), and the parent
writes fresh inputs and poisoned outputs into them between samples and reads the outputs back
itself: nothing the step says about its outputs is needed, and no file in scratch is involved.

Each process has its own arena, so a candidate can never touch the bytes a baseline reads.
"""

from __future__ import annotations

import fcntl
import mmap
import os
from dataclasses import dataclass, replace
from typing import Sequence

import numpy as np
import ml_dtypes  # noqa: F401 - registers bfloat16 with NumPy: a tensor dtype by name in every process

ALIGN = 64  # TVM refuses DLPack tensors less aligned than this
_SEALS = fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_SEAL


def _nbytes(shape: Sequence[int], dtype: str) -> int:
    n = 1
    for d in shape:
        n *= int(d)
    return n * np.dtype(dtype).itemsize


@dataclass(frozen=True)
class Layout:
    """Where slot ``s``'s tensor ``i`` (inputs first, then outputs) starts: ``base + s * stride +
    offsets[i]`` for a per-slot tensor, ``offsets[i]`` for a shared one (``shared[i]``: one copy
    for every slot, at the arena's start)."""

    offsets: tuple[int, ...]
    sizes: tuple[int, ...]
    shared: tuple[bool, ...]
    base: int
    stride: int
    slots: int

    @property
    def total(self) -> int:
        return max(mmap.PAGESIZE, -(-(self.base + self.stride * self.slots) // mmap.PAGESIZE) * mmap.PAGESIZE)

    def offset(self, slot: int, i: int) -> int:
        return self.offsets[i] if self.shared[i] else self.base + slot * self.stride + self.offsets[i]


def _aligned(n: int) -> int:
    return -(-max(n, 1) // ALIGN) * ALIGN


def layout(specs: Sequence, slots: int) -> Layout:
    """The same function on both sides, so the parent and the step agree without a message."""
    offsets, sizes, shared, base, at = [], [], [], 0, 0
    for t in specs:
        size = _nbytes(t.shape, t.dtype)
        sizes.append(size)
        shared.append(bool(getattr(t, "shared", False)))
        if shared[-1]:
            offsets.append(base)
            base += _aligned(size)
        else:
            offsets.append(at)
            at += _aligned(size)
    return Layout(tuple(offsets), tuple(sizes), tuple(shared), base, max(at, ALIGN), slots)


def plan(specs: Sequence, budget: int, max_slots: int, want_slots: int = 64) -> tuple[list, int]:
    """Which inputs to share between slots, and how many slots fit in ``budget`` bytes.

    Every call of a batch needs its own slot (fresh inputs, its own outputs), so a slot must be
    small. Where a slot would be too big for ``want_slots`` of them (a 37 MB embedding table),
    the largest inputs are shared by every slot — refreshed each round, while the small inputs
    (the indices) stay per call, so no two calls of a batch still see the same arguments.
    Outputs are never shared."""
    specs = list(specs)
    order = sorted((i for i, t in enumerate(specs) if getattr(t, "role", "input") == "input"),
                   key=lambda i: -_nbytes(specs[i].shape, specs[i].dtype))
    share: set[int] = set()
    for i in order:
        if layout(_marked(specs, share), 1).stride * want_slots <= budget:
            break
        if len(share) + 1 >= len(order):  # keep at least one input per slot
            break
        share.add(i)
    marked = _marked(specs, share)
    lay = layout(marked, 1)
    slots = max(1, min(max_slots, (budget - lay.base) // lay.stride if budget > lay.base else 1))
    return marked, slots


def _marked(specs: list, share: set[int]) -> list:
    return [replace(t, shared=i in share) for i, t in enumerate(specs)]


def sealed(size: int) -> int:
    """A new shared-memory file of ``size`` bytes whose size can never change (its pages are
    only allocated where they are written)."""
    fd = os.memfd_create("ekb-arena", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    os.ftruncate(fd, size)
    fcntl.fcntl(fd, fcntl.F_ADD_SEALS, _SEALS)
    return fd


class Arena:
    """``specs``: TensorSpec-like objects (name, shape, dtype), inputs then outputs."""

    def __init__(self, specs: Sequence, slots: int, fd: int | None = None):
        self.specs = list(specs)
        self.layout = layout(self.specs, slots)
        size = self.layout.total
        if fd is None:  # the parent: create and seal
            fd = sealed(size)
        elif os.fstat(fd).st_size < size:  # a kept process's arena serves many tasks' layouts
            raise ValueError(f"the arena is {os.fstat(fd).st_size} bytes; the layout needs {size}")
        self.fd = fd
        self.map = mmap.mmap(fd, size)

    def view(self, slot: int, i: int):
        t = self.specs[i]
        return np.ndarray(tuple(t.shape), np.dtype(t.dtype), buffer=self.map, offset=self.layout.offset(slot, i))

    def slots_view(self, i: int, n: int):
        """Tensor ``i`` of slots 0..n-1 as one array of shape ``(n, *shape)`` (a shared tensor:
        its one copy, shape ``(1, *shape)``), so the parent fills a batch's slots in one copy."""
        one = self.view(0, i)
        if self.layout.shared[i]:
            return one[np.newaxis]
        return np.ndarray((n, *one.shape), one.dtype, buffer=self.map, offset=self.layout.offset(0, i),
                          strides=(self.layout.stride, *one.strides))

    def close(self) -> None:
        try:
            self.map.close()
        except BufferError:  # a view is still alive; the mapping goes with the process
            pass
        try:
            os.close(self.fd)
        except OSError:
            pass
