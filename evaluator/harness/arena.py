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
from dataclasses import dataclass
from typing import Sequence

ALIGN = 64  # TVM refuses DLPack tensors less aligned than this
_SEALS = fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_SEAL


def _nbytes(shape: Sequence[int], dtype: str) -> int:
    import numpy as np

    n = 1
    for d in shape:
        n *= int(d)
    return n * np.dtype(dtype).itemsize


@dataclass(frozen=True)
class Layout:
    """Where slot ``s``'s tensor ``i`` (inputs first, then outputs) starts: ``s * stride + offsets[i]``."""

    offsets: tuple[int, ...]
    sizes: tuple[int, ...]
    stride: int
    slots: int

    @property
    def total(self) -> int:
        return max(mmap.PAGESIZE, -(-self.stride * self.slots // mmap.PAGESIZE) * mmap.PAGESIZE)


def layout(specs: Sequence, slots: int) -> Layout:
    """The same function on both sides, so the parent and the step agree without a message."""
    offsets, sizes, at = [], [], 0
    for t in specs:
        size = _nbytes(t.shape, t.dtype)
        offsets.append(at)
        sizes.append(size)
        at += -(-max(size, 1) // ALIGN) * ALIGN
    return Layout(tuple(offsets), tuple(sizes), max(at, ALIGN), slots)


def slot_bytes(specs: Sequence) -> int:
    return layout(specs, 1).stride


class Arena:
    """``specs``: TensorSpec-like objects (name, shape, dtype), inputs then outputs."""

    def __init__(self, specs: Sequence, slots: int, fd: int | None = None):
        self.specs = list(specs)
        self.layout = layout(self.specs, slots)
        size = self.layout.total
        if fd is None:  # the parent: create and seal
            fd = os.memfd_create("ekb-arena", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
            os.ftruncate(fd, size)
            fcntl.fcntl(fd, fcntl.F_ADD_SEALS, _SEALS)
        elif os.fstat(fd).st_size != size:
            raise ValueError(f"the arena is {os.fstat(fd).st_size} bytes; the layout needs {size}")
        self.fd = fd
        self.map = mmap.mmap(fd, size)

    def address(self, slot: int, i: int) -> int:
        import ctypes

        off = slot * self.layout.stride + self.layout.offsets[i]
        return ctypes.addressof(ctypes.c_char.from_buffer(self.map, off))

    def view(self, slot: int, i: int):
        import numpy as np

        t = self.specs[i]
        return np.ndarray(tuple(t.shape), np.dtype(t.dtype), buffer=self.map,
                          offset=slot * self.layout.stride + self.layout.offsets[i])

    def close(self) -> None:
        try:
            self.map.close()
        except BufferError:  # a view is still alive; the mapping goes with the process
            pass
        try:
            os.close(self.fd)
        except OSError:
            pass
