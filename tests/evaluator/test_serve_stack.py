"""The serve step calls kernels at one stack alignment in every process.

A kernel's stack-resident buffers sit wherever the calling thread's stack is. The main thread's
stack starts at an address that address randomisation and the environment's length move in
16-byte steps, and a register-tiled kernel ran 9 % slower at one alignment than at the other
(measured: a batched matmul, 265 against 290 µs a call, flipped by 16 bytes of environment). The
serve step therefore calls kernels from a thread of its own (``child.on_fixed_stack``)."""

import os
import shutil
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
SP = "#include <stdint.h>\nuintptr_t sp(void) { volatile char here = 0; return (uintptr_t)&here; }\n"
PROBE = textwrap.dedent("""
    import ctypes, sys
    from evaluator.harness import child
    lib = ctypes.CDLL(sys.argv[1])
    lib.sp.restype = ctypes.c_size_t
    got = []
    child.on_fixed_stack(lambda: got.append(lib.sp() % 4096))
    print(lib.sp() % 4096, got[0])
""")


@pytest.fixture(scope="module")
def sp_library(tmp_path_factory):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler on this machine (the c-source format needs one too)")
    folder = tmp_path_factory.mktemp("sp")
    (folder / "sp.c").write_text(SP)
    subprocess.run([cc, "-O1", "-shared", "-fPIC", "-o", str(folder / "sp.so"), str(folder / "sp.c")], check=True)
    return str(folder / "sp.so")


def _offsets(library: str, pad: int) -> tuple[int, int]:
    """(main thread's, serve thread's) stack offset in its page, in a fresh process whose
    environment is ``pad`` bytes longer."""
    env = {**os.environ, "PYTHONPATH": ROOT, "STACK_PAD": "x" * pad}
    out = subprocess.run([sys.executable, "-c", PROBE, library], env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    return int(out[0]), int(out[1])


def test_kernels_are_called_at_the_same_stack_offset_whatever_the_environment(sp_library):
    got = [_offsets(sp_library, pad) for pad in (0, 16, 32, 48, 1000)]
    main_thread = {m for m, _ in got}
    serve_thread = {s for _, s in got}
    # the main thread moves with the environment (what made speeds move between processes) ...
    assert len(main_thread) > 1, got
    # ... the serve thread does not
    assert len(serve_thread) == 1, got
