"""The kernel-library linkage policy (evaluator/harness/linkage.py): honest TVM and C builds pass;
libraries reaching the Python C API, dynamic loading, other libraries or TVM's registry are
refused with a sentence naming what they use; hostile files are refused, never raise."""

import ctypes
import os
import random
import shutil
import struct
import subprocess

import pytest

from evaluator import suite
from evaluator.backends import c_source
from evaluator.backends.cpu_llvm import CpuLlvm, host_target
from evaluator.harness import linkage
from evaluator.harness.linkage import check_library

HERE = os.path.dirname(__file__)
EXAMPLES = os.path.join(HERE, "..", "..", "examples", "bundles", "c-source", "kernels")
needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc on this machine")


def gcc(tmp_path, name, source, *flags, lib=None):
    (tmp_path / f"{name}.c").write_text(source)
    out = tmp_path / (lib or f"{name}.so")
    subprocess.run(["gcc", "-shared", "-fPIC", "-O2", f"{name}.c", "-o", out.name, *flags],
                   cwd=tmp_path, check=True, capture_output=True)
    return out


@pytest.fixture(scope="module")
def tvm_builds(tmp_path_factory):
    """Honest tvm-default builds (a matmul, a model graph, a sort, whose TOPI kernel is a
    registry call) and two hostile TVMScript functions (call_packed, call_extern)."""
    import tvm
    from tvm.script import tirx as T

    d = tmp_path_factory.mktemp("tvm")
    backend = CpuLlvm()
    out = {}
    for key, wid in [("matmul", "matmul/matmul@m256n256k256"), ("graph", "model/anomaly-autoencoder@b1"),
                     ("sort", "index/sort@m8n100")]:
        w = suite.get_workload(wid)
        backend.build(backend.default_module(w.canonical_module(), w), str(d / f"{key}.so"))
        out[key] = d / f"{key}.so"

    @T.prim_func
    def packed(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        T.func_attr({"global_symbol": "main"})
        T.evaluate(T.call_packed("testing.echo", A.data, B.data))

    @T.prim_func
    def extern(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        T.func_attr({"global_symbol": "main"})
        B[0] = T.call_extern("float32", "PyRun_SimpleString", A[0])

    target = tvm.target.Target(host_target())
    for key, f in [("packed", packed), ("extern", extern)]:
        tvm.compile(tvm.IRModule({"main": f}), target=target).export_library(str(d / f"{key}.so"))
        out[key] = d / f"{key}.so"
    return out


# --- honest builds pass ------------------------------------------------------------------------

@needs_gcc
def test_honest_c_source_builds_pass(tmp_path):
    # through the backend's own build (its flags: -O3 -march -fopenmp -lm): the example bundle's
    # OpenMP matmul, and a kernel using expf, memcpy and OpenMP's API
    relu = suite.get_workload("activation/relu@m128n768")
    matmul = suite.get_workload("matmul/matmul@m256n256k256")
    isa = c_source.march(host_target())
    with open(os.path.join(EXAMPLES, "matmul.c")) as f:
        c_source.build(f.read(), {"entry": "matmul_m256n256k256", "args": ["A", "B", "T_matmul"]},
                       matmul.signature(), str(tmp_path / "matmul.so"), isa)
    c_source.build("""
#include <math.h>
#include <string.h>
#include <omp.h>
void k(const float *restrict X, float *restrict Y) {
    float row[768];
    #pragma omp parallel for private(row)
    for (int i = 0; i < 128; ++i) {
        for (int j = 0; j < 768; ++j) row[j] = expf(X[i * 768 + j]) + omp_get_thread_num() * 0.0f;
        memcpy(Y + i * 768, row, sizeof row);
    }
}
""", {"entry": "k", "args": ["X", "T_relu"]}, relu.signature(), str(tmp_path / "honest.so"), isa)
    for name in ("matmul.so", "honest.so"):
        assert check_library(tmp_path / name, "c-source") is None
    link = linkage.inspect_library(tmp_path / "honest.so")
    assert {"expf", "GOMP_parallel", "omp_get_thread_num"} <= link.imported
    assert set(link.needed) <= linkage.ALLOWED_NEEDED and "libgomp.so.1" in link.needed


def test_honest_tvm_builds_pass(tvm_builds):
    for key in ("matmul", "graph"):
        assert check_library(tvm_builds[key], "tvm") is None, key
    # TVM's runtime is no C library: a TVM build is not a c-source library
    assert "TVMFFIErrorSetRaisedFromCStrParts (TVM's runtime)" in check_library(tvm_builds["matmul"], "c-source")


def test_a_workload_whose_definition_calls_the_registry(tvm_builds):
    sort = suite.get_workload("index/sort@m8n100").canonical_module()
    assert linkage.registry_calls(sort) == ["tvm.contrib.sort.sort"]
    assert linkage.registry_calls(suite.get_workload("matmul/matmul@m256n256k256").canonical_module()) == []
    assert check_library(tvm_builds["sort"], "tvm", registry_calls=True) is None
    assert "TVM's registry by name" in check_library(tvm_builds["sort"], "tvm")


# --- what hostile libraries use is refused ------------------------------------------------------

@needs_gcc
def test_dynamic_loading_is_refused(tmp_path):
    lib = gcc(tmp_path, "dl", """
#include <dlfcn.h>
void k(const float *a, float *b) {
    void (*f)(void) = (void (*)(void))dlsym(dlopen("libopenblas.so.0", RTLD_NOW), "cblas_sgemm");
    if (f) f();
    b[0] = a[0];
}""", "-Wl,--no-undefined")
    assert check_library(lib, "c-source") == (
        "the kernel library calls dlopen, dlsym (dynamic loading), which kernels may not use "
        "(allowed: libc, libm and libgomp)")


@needs_gcc
def test_the_python_c_api_is_refused_from_a_constructor(tmp_path):
    lib = gcc(tmp_path, "py", """
extern int PyGILState_Ensure(void);
extern int PyRun_SimpleString(const char *);
__attribute__((constructor)) static void patch(void) {
    PyGILState_Ensure();
    PyRun_SimpleString("import time; time.perf_counter = lambda: 0.0");
}
void k(const float *a, float *b) { b[0] = a[0]; }""", "-Wl,--unresolved-symbols=ignore-all")
    why = check_library(lib, "c-source")
    assert why.startswith("the kernel library calls PyGILState_Ensure, PyRun_SimpleString (the Python C API)")


@needs_gcc
def test_a_defined_dummy_bound_through_the_loader_is_refused(tmp_path):
    # the library defines Py_IsInitialized itself, yet the loader binds its PLT call to the
    # interpreter's: no undefined symbol, and still the Python C API
    lib = gcc(tmp_path, "interpose", """
int Py_IsInitialized(void) { return 42; }
int probe(void) { return Py_IsInitialized(); }""", "-Wl,--no-undefined")
    assert linkage.inspect_library(lib).imported.isdisjoint({"Py_IsInitialized"})
    assert ctypes.CDLL(str(lib)).probe() == 1  # the interpreter's answer, not 42
    assert "calls Py_IsInitialized (the Python C API)" in check_library(lib, "c-source")


@needs_gcc
def test_other_libraries_are_refused(tmp_path):
    weak = gcc(tmp_path, "weak", """
extern void cblas_sgemm(void) __attribute__((weak));
void k(const float *a, float *b) { if (cblas_sgemm) cblas_sgemm(); b[0] = a[0]; }""", "-Wl,--no-undefined")
    assert check_library(weak, "c-source") == (
        "the kernel library calls cblas_sgemm (in none of the allowed libraries), which kernels may "
        "not use (allowed: libc, libm and libgomp)")
    gcc(tmp_path, "blas", "void cblas_sgemm(void) {}", "-Wl,-soname,libopenblas.so.0", lib="libopenblas.so")
    linked = gcc(tmp_path, "linked", """
extern void cblas_sgemm(void);
void k(const float *a, float *b) { cblas_sgemm(); b[0] = a[0]; }""", "-L.", "-lopenblas")
    assert check_library(linked, "c-source") == (
        "the kernel library needs libopenblas.so.0, which kernels may not link against "
        "(allowed: libc, libm, libgomp, libgcc_s and the dynamic loader)")
    rpath = gcc(tmp_path, "rpath", "void k(void) {}", f"-Wl,-rpath,{tmp_path}")
    assert check_library(rpath, "c-source") == (
        "the kernel library sets a library search path (DT_RUNPATH), which kernel libraries may not do")


@needs_gcc
def test_section_headers_that_lie_do_not_hide_what_the_loader_binds(tmp_path):
    # .dynstr's section header is pointed at a copy naming memset/sqrtf: nm and section-based
    # readers see those, the loader (DT_STRTAB) still binds dlopen/dlsym
    from elftools.elf.elffile import ELFFile

    lib = gcc(tmp_path, "liar", """
#include <dlfcn.h>
void *k(void) { return dlsym(dlopen("x", RTLD_NOW), "y"); }""")
    data = bytearray(lib.read_bytes())
    with open(lib, "rb") as f:
        elf = ELFFile(f)
        index = next(i for i, s in enumerate(elf.iter_sections()) if s.name == ".dynstr")
        sec, shoff, shentsize = elf.get_section(index), elf.header["e_shoff"], elf.header["e_shentsize"]
        fake = bytes(data[sec["sh_offset"]:sec["sh_offset"] + sec["sh_size"]])
    fake = fake.replace(b"dlopen\0", b"memset\0").replace(b"dlsym\0", b"sqrtf\0")
    struct.pack_into("<Q", data, shoff + index * shentsize + 24, len(data))  # sh_offset
    lib.write_bytes(bytes(data) + fake)
    with open(lib, "rb") as f:
        shown = {s.name for s in ELFFile(f).get_section_by_name(".dynsym").iter_symbols()}
    assert {"memset", "sqrtf"} <= shown and "dlopen" not in shown
    assert "calls dlopen, dlsym (dynamic loading)" in check_library(lib, "c-source")


def test_tvmscript_registry_and_python_calls_are_refused(tvm_builds):
    why = check_library(tvm_builds["packed"], "tvm")
    assert why.startswith("the kernel library calls functions of TVM's registry by name (")
    assert "__TVMFFIEnvModLookupFromImports" in why and "__TVMFFIFunctionCall" in why
    assert check_library(tvm_builds["extern"], "tvm") == (
        "the kernel library calls PyRun_SimpleString (the Python C API), which kernels may not use "
        "(allowed: libc, libm, libgomp and TVM's backend runtime)")


# --- hostile files are refused, never raise --------------------------------------------------------

@needs_gcc
def test_files_that_are_no_library_are_refused(tmp_path):
    lib = gcc(tmp_path, "ok", "float k(float x) { return x; }")
    (tmp_path / "text.so").write_text("not a library\n")
    (tmp_path / "truncated.so").write_bytes(lib.read_bytes()[:3000])
    (tmp_path / "header.so").write_bytes(lib.read_bytes()[:20])
    (tmp_path / "link.so").symlink_to(lib)
    os.mkfifo(tmp_path / "fifo.so")  # open() on a FIFO with no writer must not block
    with open(tmp_path / "big.so", "wb") as f:
        f.truncate(linkage.MAX_LIBRARY_BYTES + 1)
    assert check_library(lib, "c-source") is None
    expect = {
        "text.so": "the kernel library is not an ELF file",
        "truncated.so": "the kernel library is malformed: its PT_LOAD segment lies outside the file",
        "header.so": "the kernel library is not a 64-bit little-endian ELF file (x86-64 or AArch64)",
        "link.so": "the kernel library is a symbolic link, which is refused",
        "fifo.so": "the kernel library is a FIFO, not a regular file",
        "big.so": f"the kernel library is {linkage.MAX_LIBRARY_BYTES + 1} bytes, over the 64 MiB limit",
        "missing.so": "the kernel library does not exist",
        ".": "the kernel library is a directory, not a regular file",
    }
    got = {name: check_library(tmp_path / name, "tvm") for name in expect}
    assert got == expect
    with pytest.raises(ValueError, match="unknown library kind"):
        check_library(lib, "opencl")


def test_mutated_libraries_never_raise(tvm_builds, tmp_path):
    rng = random.Random(0)
    original = tvm_builds["graph"].read_bytes()
    path = tmp_path / "mutant.so"
    for _ in range(150):
        data = bytearray(original)
        for _ in range(rng.choice([1, 4, 32])):
            data[rng.randrange(rng.choice([64, 4096, len(data)]))] = rng.randrange(256)
        path.write_bytes(bytes(data[:rng.randrange(len(data))] if rng.random() < 0.1 else data))
        why = check_library(path, "tvm")
        assert why is None or why.startswith("the kernel library ")


def test_the_allow_lists_refuse_what_they_must():
    for name in ("dlopen", "dlsym", "dlmopen", "dladdr", "dl_iterate_phdr", "PyRun_SimpleString",
                 "_PyRuntime", "TVMFFIFunctionGetGlobal", "TVMFFIFunctionCall"):
        assert not linkage._allowed_import(name, "tvm"), name
    assert {"expf", "memset", "GOMP_parallel"} <= linkage.C_SYMBOLS
    assert linkage._allowed_import("TVMFFIErrorSetRaisedFromCStrParts", "tvm")
    assert not linkage._allowed_import("TVMFFIErrorSetRaisedFromCStrParts", "c-source")
    assert "libdl.so.2" not in linkage.ALLOWED_NEEDED and "libc.so.6" in linkage.ALLOWED_NEEDED
    assert linkage.TVM_CONTEXT_SLOTS.isdisjoint(linkage.TVM_REGISTRY_SLOTS)
