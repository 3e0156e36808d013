"""What a kernel's shared library may link against, checked on the built file before it is loaded.

A kernel runs as native code inside the run step, beside the harness's timer. Hostile
submissions have reached out of the kernel through the dynamic loader: a ``c-source`` library
(or a TVMScript ``T.call_extern``) calling the Python C API (``PyGILState_Ensure``,
``PyRun_SimpleString``) to patch the timer; a library calling the OpenBLAS already mapped into
the process (by ``dlopen``/``dlsym`` or a plain undefined ``cblas_sgemm``) to score many times
over TVM; a TVMScript ``T.call_packed`` reaching functions of TVM's global registry. The policy:

    A kernel library may depend only on libc, libm, libgomp, libgcc_s and the dynamic loader,
    and — a TVM-built library — on the part of TVM's runtime that TVM's own builds need (its
    error setter, thread pool and workspace allocator). Nothing else.

``check_library`` enforces it on the artifact, in the trusted evaluating process: the build
step is sandboxed and whatever it says about its own output cannot be trusted, so the file is
read here, as the dynamic loader will read it, and treated as hostile (a non-ELF, malformed,
oversized file, a symbolic link or a FIFO is refused with a sentence, never an exception).

What is read, and why it is read the way the loader reads it (through the program headers and
the dynamic segment, never the section headers, which the loader ignores and a hostile file can
fill with anything; pyelftools parses the ELF and program headers, the dynamic tables are read
from the addresses ``PT_DYNAMIC`` gives):

* ``DT_NEEDED`` entries must be in ``ALLOWED_NEEDED`` (exact sonames, no paths). A library
  search path (``DT_RPATH``/``DT_RUNPATH``), a filter (``DT_FILTER``/``DT_AUXILIARY``, which
  makes the loader load the named library) or an audit library (``DT_AUDIT``/``DT_DEPAUDIT``)
  is refused: honest builds have none.
* Every name the loader looks up in the process — each undefined dynamic symbol, and each
  symbol a relocation binds through the symbol scope even where the library defines it itself
  (a library that defines a dummy ``Py_IsInitialized`` and calls it through its PLT gets the
  interpreter's real one: the process's global scope is searched before the library) — must
  be provided by the allowed libraries: an export of this machine's libc, libm, libmvec,
  libgomp, libgcc_s (``system_exports``; GLIBC_PRIVATE ones excluded), a name of ``C_SYMBOLS``
  (the names honest builds were seen to use, so the check does not hinge on finding those
  files), or for a TVM-built library one of ``TVM_RUNTIME_SYMBOLS``. Whatever the allowed
  libraries export, ``DENIED_SYMBOLS``/``DENIED_PREFIXES`` are refused: dynamic loading and
  loaded-object introspection (``dlopen``, ``dlsym``, ``dl_iterate_phdr``, ``_r_debug`` …),
  the Python C API (``Py*``, ``_Py*``) and TVM's call-by-name functions.
* TVM's runtime fills, by name, function-pointer slots a TVM-built library defines
  (``__TVMBackendParallelLaunch`` …) when it loads it: that is how TVM's own builds reach the
  thread pool and the workspace allocator (they are defined data, not undefined symbols). A
  library may define the slots of ``TVM_CONTEXT_SLOTS``; ``TVM_REGISTRY_SLOTS`` — what
  ``T.call_packed`` lowers to: a lookup of any registry function by name and a call of it —
  only when the caller says the workload's own definition calls the registry
  (``registry_calls=True``; see ``registry_calls(mod)``): TVM's CPU sort, argsort and topk are
  ``T.call_packed("tvm.contrib.sort.…")``, and a GPU host library launches its kernels that
  way. A c-source library may define none of these (it is loaded by ctypes, not by TVM).

What a refusal says: one sentence naming the offending entry or symbols, e.g. "the kernel
library calls dlopen, dlsym (dynamic loading), which kernels may not use (allowed: libc, libm,
libgomp and TVM's backend runtime)".

What this does not do: native code in the process can do anything the process can — make
system calls, read ``/proc/self/maps`` and walk another library's symbol table by hand. The
check closes the loader's doors (the reliable, one-line ways out) and makes anything else
unmistakably deliberate; it is no sandbox. Nor does it read what a Relax VM executable
embedded in an L3 graph's ``__tvm_ffi__library_bin`` calls (VM bytecode names registry
functions, ``vm.builtin.*``, which the VM looks up itself), and the file must not change
between this check and its load (check the copy that is loaded).
"""

from __future__ import annotations

import errno
import io
import os
import stat
import struct
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from elftools.common.utils import struct_parse
from elftools.elf.elffile import ELFFile
from elftools.elf.enums import ENUM_D_TAG

__all__ = ["check_library", "inspect_library", "registry_calls", "system_exports", "Linkage",
           "KINDS", "ALLOWED_NEEDED", "C_SYMBOLS", "CRT_SYMBOLS", "TVM_RUNTIME_SYMBOLS",
           "TVM_CONTEXT_SLOTS", "TVM_LIBRARY_SYMBOLS", "TVM_REGISTRY_SLOTS", "DENIED_SYMBOLS",
           "DENIED_PREFIXES", "SYSTEM_LIBRARIES", "MAX_LIBRARY_BYTES"]

KINDS = ("tvm", "c-source")
MAX_LIBRARY_BYTES = 64 << 20
MAX_SYMBOLS = 1 << 16  # honest kernel libraries have tens to a few hundred
MAX_RELOCATIONS = 1 << 20
MAX_DYNAMIC_TAGS = 4096
MAX_PROGRAM_HEADERS = 256
MAX_NAME_BYTES = 4096

# --- the allow-lists ---------------------------------------------------------------------------

# Sonames a kernel library may name in DT_NEEDED. Honest builds were seen to need libc.so.6,
# libm.so.6 (TVM and gcc) and libgomp.so.1 (gcc -fopenmp); the rest are the same libraries under
# their other names (the loader, libmvec for vectorised math, libpthread and libgcc_s, which gcc
# may add). Not libdl.so.2: it is only the dynamic-loading API.
ALLOWED_NEEDED = frozenset({
    "libc.so.6", "libm.so.6", "libmvec.so.1", "libgomp.so.1", "libgcc_s.so.1", "libpthread.so.0",
    "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1",
})

# The libraries whose exports (on this machine) are allowed as a class, less DENIED_*.
SYSTEM_LIBRARIES = ("libc.so.6", "libm.so.6", "libmvec.so.1", "libgomp.so.1", "libgcc_s.so.1",
                    "libpthread.so.0")
_LIBRARY_DIRS = ("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
                 "/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib")

# What the C runtime's start files (crtbegin, crti) and the compilers' own code refer to.
CRT_SYMBOLS = frozenset({
    "__cxa_finalize", "__gmon_start__", "_ITM_registerTMCloneTable", "_ITM_deregisterTMCloneTable",
    "__stack_chk_fail", "__stack_chk_guard", "__tls_get_addr", "__errno_location",
})

_MATH = ("exp exp2 expm1 log log2 log10 log1p pow sqrt cbrt sin cos tan asin acos atan atan2 sinh "
         "cosh tanh asinh acosh atanh erf erfc tgamma lgamma fabs floor ceil round trunc rint "
         "nearbyint lrint llrint lround llround fmod remainder fmin fmax fdim fma hypot copysign "
         "ldexp frexp modf sincos nextafter").split()
# libc/libm/libgomp names allowed even where the libraries' files cannot be read here: every name
# honest builds were seen to import (TVM: expf logf powf erff sinf cosf … memset memcpy; gcc
# -fopenmp: GOMP_parallel omp_get_num_threads omp_get_thread_num), the C math library in float
# and double, memory and allocation functions, and the OpenMP entry points gcc emits.
C_SYMBOLS = frozenset(
    [f + s for f in _MATH for s in ("", "f")]
    + "memcpy memmove memset memcmp strlen malloc calloc realloc free aligned_alloc posix_memalign "
      "abort qsort".split()
    + ("omp_get_num_threads omp_get_thread_num omp_get_max_threads omp_get_num_procs "
       "omp_set_num_threads omp_in_parallel omp_get_wtime GOMP_parallel GOMP_barrier "
       "GOMP_critical_start GOMP_critical_end GOMP_atomic_start GOMP_atomic_end GOMP_single_start "
       "GOMP_loop_end GOMP_loop_end_nowait GOMP_parallel_loop_dynamic GOMP_parallel_loop_static "
       "GOMP_loop_dynamic_start GOMP_loop_dynamic_next GOMP_loop_static_start GOMP_loop_static_next "
       "GOMP_loop_nonmonotonic_dynamic_start GOMP_loop_nonmonotonic_dynamic_next "
       "GOMP_parallel_reductions GOMP_task GOMP_taskwait").split()
    # float16 conversions (TVM defines them weakly, libgcc_s exports them)
    + ["__extendhfsf2", "__truncsfhf2", "__truncdfhf2"])

# Undefined symbols a TVM-built library may import from TVM's runtime: its error setter (every
# TVM build imports TVMFFIErrorSetRaisedFromCStrParts) and, for builds that call them directly
# rather than through a context slot, the thread pool and workspace functions.
TVM_RUNTIME_SYMBOLS = frozenset({
    "TVMFFIErrorSetRaisedFromCStrParts", "TVMFFIErrorSetRaisedFromCStr",
    "TVMBackendParallelLaunch", "TVMBackendParallelBarrier",
    "TVMBackendAllocWorkspace", "TVMBackendFreeWorkspace",
})
# Function-pointer slots a TVM-built library defines and TVM's runtime fills by name at load:
# parallel loops (__TVMBackendParallelLaunch, in 635 of 647 default builds) and workspaces
# (__TVMBackendAllocWorkspace/FreeWorkspace, in 216).
TVM_CONTEXT_SLOTS = frozenset({
    "__TVMBackendParallelLaunch", "__TVMBackendParallelBarrier",
    "__TVMBackendAllocWorkspace", "__TVMBackendFreeWorkspace", "__TVMFFIErrorSetRaisedFromCStr",
})
# The embedded module blob of a TVM library (an L3 graph's Relax VM executable lives there).
TVM_LIBRARY_SYMBOLS = frozenset({"__tvm_ffi__library_bin"})
# What T.call_packed lowers to: the library context, a lookup of a function by name in the
# module's imports and then TVM's global registry, a call through the handle found, and the
# once-only initialisation of that handle (plus the lookup slot of older TVM releases).
TVM_REGISTRY_SLOTS = frozenset({
    "__tvm_ffi__library_ctx", "__TVMFFIEnvModLookupFromImports", "__TVMFFIFunctionCall",
    "__TVMFFIHandleInitOnce", "__TVMBackendGetFuncFromEnv",
})

# --- refused whatever library provides them ------------------------------------------------------

_DYNAMIC_LOADING = "dynamic loading"
_PYTHON = "the Python C API"
_REGISTRY = "TVM's function registry"
DENIED_SYMBOLS = {
    **{name: _DYNAMIC_LOADING for name in (
        "dlopen", "dlmopen", "dlsym", "dlvsym", "dladdr", "dladdr1", "dlinfo", "dlerror", "dlclose",
        "dl_iterate_phdr", "_dl_find_object", "_r_debug", "_dl_debug_state", "__libc_dlopen_mode",
        "__libc_dlsym", "__libc_dlvsym", "__libc_dlclose")},
    **{name: _REGISTRY for name in (
        "TVMFFIFunctionGetGlobal", "TVMFFIFunctionCall", "TVMFFIFunctionSetGlobal",
        "TVMFFIFunctionCreate", "TVMFFIFunctionListGlobalNames", "TVMFFIEnvModLookupFromImports",
        "TVMFFIEnvModRegisterContextSymbol", "TVMFFIEnvModRegisterSystemLibSymbol",
        "TVMBackendGetFuncFromEnv", "TVMFuncGetGlobal", "TVMFuncCall", "TVMFuncRegisterGlobal",
        "TVMFFIModuleLoadFromFile")},
}
DENIED_PREFIXES = {
    "Py": _PYTHON, "_Py": _PYTHON, "_dl_": _DYNAMIC_LOADING, "__libc_dl": _DYNAMIC_LOADING,
    "TVMFFIFunction": _REGISTRY, "TVMFFIEnvMod": _REGISTRY, "TVMFFIModule": _REGISTRY,
}
# Names a library defines and also binds through the loader are refused in these shapes, which
# are what the interpreter (Py*), TVM's libraries (TVM*) and C++ libraries (_Z…) export into the
# process: the loader would bind them there, not to the library's own definition.
_FOREIGN_PREFIXES = {"Py": _PYTHON, "_Py": _PYTHON, "TVM": "TVM's runtime", "_Z": "C++ libraries"}

_ALLOWED_TEXT = {"tvm": "libc, libm, libgomp and TVM's backend runtime", "c-source": "libc, libm and libgomp"}
_FORBIDDEN_TAGS = {
    "DT_RPATH": "sets a library search path (DT_RPATH)",
    "DT_RUNPATH": "sets a library search path (DT_RUNPATH)",
    "DT_FILTER": "is a filter that makes the loader load another library (DT_FILTER)",
    "DT_AUXILIARY": "is a filter that makes the loader load another library (DT_AUXILIARY)",
    "DT_AUDIT": "names an audit library (DT_AUDIT)",
    "DT_DEPAUDIT": "names an audit library (DT_DEPAUDIT)",
}


# --- reading the file ------------------------------------------------------------------------

class _Refused(Exception):
    """A refusal, with what follows "the kernel library" in its sentence."""


@dataclass(frozen=True)
class Linkage:
    """What the dynamic loader will do with a library: the sonames it loads, the tags that change
    how it loads, and the names it looks up in the process."""

    machine: str
    needed: tuple[str, ...]
    forbidden_tags: tuple[str, ...]  # the _FORBIDDEN_TAGS names present
    imported: frozenset[str]  # undefined dynamic symbols
    bound: frozenset[str]  # defined symbols that relocations bind through the symbol scope
    exported: frozenset[str]  # defined global/weak symbols, what dlsym on the library finds


_DT = {name: ENUM_D_TAG[name] for name in (
    "DT_NULL", "DT_NEEDED", "DT_PLTRELSZ", "DT_HASH", "DT_STRTAB", "DT_SYMTAB", "DT_RELA", "DT_RELASZ",
    "DT_RELAENT", "DT_STRSZ", "DT_SYMENT", "DT_REL", "DT_RELSZ", "DT_RELENT", "DT_PLTREL", "DT_JMPREL",
    "DT_GNU_HASH", *_FORBIDDEN_TAGS)}
_SINGLE = ("DT_PLTRELSZ", "DT_HASH", "DT_STRTAB", "DT_SYMTAB", "DT_RELA", "DT_RELASZ", "DT_RELAENT",
           "DT_STRSZ", "DT_SYMENT", "DT_REL", "DT_RELSZ", "DT_RELENT", "DT_PLTREL", "DT_JMPREL", "DT_GNU_HASH")
_MACHINES = {"EM_X86_64": "x86-64", "EM_AARCH64": "AArch64"}
_SYM = struct.Struct("<IBBHQQ")  # Elf64_Sym
_DYN = struct.Struct("<qQ")  # Elf64_Dyn
_STB_LOCAL, _STV_DEFAULT, _STV_PROTECTED = 0, 0, 3


def _read(path: str | Path) -> bytes:
    """The file's bytes: opened without following a symbolic link, and only a regular file."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise _Refused("is a symbolic link, which is refused") from None
        if e.errno == errno.ENOENT:
            raise _Refused("does not exist") from None
        raise _Refused(f"cannot be opened ({os.strerror(e.errno) if e.errno else e})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            what = ("a directory" if stat.S_ISDIR(st.st_mode) else "a FIFO" if stat.S_ISFIFO(st.st_mode)
                    else "a socket" if stat.S_ISSOCK(st.st_mode) else "a device" if
                    stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else "not a regular file")
            raise _Refused(f"is {what}, not a regular file")
        if st.st_size > MAX_LIBRARY_BYTES:
            raise _Refused(f"is {st.st_size} bytes, over the {MAX_LIBRARY_BYTES >> 20} MiB limit")
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, MAX_LIBRARY_BYTES + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > MAX_LIBRARY_BYTES:  # grew while read
                raise _Refused(f"grew while it was read, over the {MAX_LIBRARY_BYTES >> 20} MiB limit")
        return b"".join(chunks)
    except OSError as e:
        raise _Refused(f"cannot be read ({os.strerror(e.errno) if e.errno else e})") from None
    finally:
        os.close(fd)


class _Image:
    """The file as the loader maps it: virtual addresses to file offsets through PT_LOAD."""

    def __init__(self, data: bytes, loads: list[tuple[int, int, int]]):
        self.data, self.loads = data, loads  # (p_vaddr, p_offset, p_filesz)

    def offset(self, vaddr: int, size: int, what: str) -> int:
        found = {vaddr - va + off for va, off, filesz in self.loads if va <= vaddr and vaddr + size <= va + filesz}
        if len(found) != 1:
            raise _Refused(f"is malformed: its {what} {'is not' if not found else 'is ambiguously'} "
                           "mapped from the file")
        (off,) = found
        if off < 0 or off + size > len(self.data):
            raise _Refused(f"is malformed: its {what} lies outside the file")
        return off

    def word(self, off: int, what: str) -> int:
        if off < 0 or off + 4 > len(self.data):
            raise _Refused(f"is malformed: its {what} lies outside the file")
        return struct.unpack_from("<I", self.data, off)[0]


def _parse(data: bytes) -> Linkage:
    if data[:4] != b"\x7fELF":
        raise _Refused("is not an ELF file")
    if len(data) < 64 or data[4] != 2 or data[5] != 1:
        raise _Refused("is not a 64-bit little-endian ELF file (x86-64 or AArch64)")
    elf = ELFFile(io.BytesIO(data))
    header = elf.header
    if header["e_type"] != "ET_DYN":
        raise _Refused(f"is not a shared library (ELF type {header['e_type']})")
    machine = _MACHINES.get(header["e_machine"])
    if machine is None:
        raise _Refused(f"is built for {header['e_machine']}, not x86-64 or AArch64")
    phnum, phoff, phentsize = header["e_phnum"], header["e_phoff"], header["e_phentsize"]
    if phentsize != elf.structs.Elf_Phdr.sizeof() or not 0 < phnum <= MAX_PROGRAM_HEADERS \
            or phoff + phnum * phentsize > len(data):
        raise _Refused("is malformed: its program headers are missing or do not fit in the file")
    loads, dynamics = [], []
    for n in range(phnum):
        ph = struct_parse(elf.structs.Elf_Phdr, elf.stream, stream_pos=phoff + n * phentsize)
        if ph["p_type"] in ("PT_LOAD", "PT_DYNAMIC"):
            if ph["p_offset"] + ph["p_filesz"] > len(data):
                raise _Refused(f"is malformed: its {ph['p_type']} segment lies outside the file")
            (loads if ph["p_type"] == "PT_LOAD" else dynamics).append(ph)
    if len(dynamics) != 1:
        raise _Refused("is not a dynamically linked shared library (no PT_DYNAMIC segment)" if not dynamics
                       else "is malformed: it has more than one PT_DYNAMIC segment")
    image = _Image(data, [(p["p_vaddr"], p["p_offset"], p["p_filesz"]) for p in loads])
    dyn = dynamics[0]
    # the loader reads the dynamic array at its address, not at p_offset: both must agree
    if image.offset(dyn["p_vaddr"], dyn["p_filesz"], "dynamic segment") != dyn["p_offset"]:
        raise _Refused("is malformed: its dynamic segment's address and file offset disagree")

    tags: dict[int, list[int]] = {}
    for n, (tag, value) in enumerate(_DYN.iter_unpack(data[dyn["p_offset"]:dyn["p_offset"] + dyn["p_filesz"]
                                                           - dyn["p_filesz"] % _DYN.size])):
        if tag == _DT["DT_NULL"]:
            break
        if n >= MAX_DYNAMIC_TAGS:
            raise _Refused(f"is malformed: its dynamic segment has over {MAX_DYNAMIC_TAGS} entries")
        tags.setdefault(tag, []).append(value)
    else:
        raise _Refused("is malformed: its dynamic segment has no DT_NULL terminator")
    for name in _SINGLE:
        if len(tags.get(_DT[name], ())) > 1:
            raise _Refused(f"is malformed: it has more than one {name}")

    def one(name: str) -> int | None:
        values = tags.get(_DT[name])
        return values[0] if values else None

    forbidden = tuple(name for name in _FORBIDDEN_TAGS if _DT[name] in tags)

    # strings (DT_STRTAB, DT_STRSZ)
    strtab, strsz = one("DT_STRTAB"), one("DT_STRSZ")
    if strtab is None or strsz is None:
        raise _Refused("is malformed: it has no dynamic string table")
    str_off = image.offset(strtab, strsz, "dynamic string table")

    def string(at: int, what: str) -> str:
        if not 0 <= at < strsz:
            raise _Refused(f"is malformed: a {what} lies outside the string table")
        end = data.find(b"\0", str_off + at, min(str_off + strsz, str_off + at + MAX_NAME_BYTES))
        if end < 0:
            raise _Refused(f"is malformed: a {what} is unterminated or over {MAX_NAME_BYTES} bytes")
        return data[str_off + at:end].decode("ascii", "backslashreplace")

    needed = tuple(string(v, "DT_NEEDED name") for v in tags.get(_DT["DT_NEEDED"], ()))

    # relocations: every symbol index they name (RELR entries name none)
    wanted: set[int] = set()
    tables = [("DT_RELA", "DT_RELASZ", 24), ("DT_REL", "DT_RELSZ", 16)]
    if one("DT_JMPREL") is not None:
        pltrel = one("DT_PLTREL")
        if pltrel not in (_DT["DT_RELA"], _DT["DT_REL"]):
            raise _Refused("is malformed: its DT_PLTREL is neither DT_RELA nor DT_REL")
        tables.append(("DT_JMPREL", "DT_PLTRELSZ", 24 if pltrel == _DT["DT_RELA"] else 16))
    count = 0
    for addr_tag, size_tag, entsize in tables:
        addr, size = one(addr_tag), one(size_tag)
        if addr is None:
            continue
        if size is None or size % entsize:
            raise _Refused(f"is malformed: its {addr_tag} table has no or a bad size")
        count += size // entsize
        if count > MAX_RELOCATIONS:
            raise _Refused(f"has over {MAX_RELOCATIONS} relocations")
        off = image.offset(addr, size, f"{addr_tag} table")
        fmt = struct.Struct("<QQq" if entsize == 24 else "<QQ")
        wanted.update(entry[1] >> 32 for entry in fmt.iter_unpack(data[off:off + size]))
    wanted.discard(0)

    # symbols: as many as the hash tables reach (what dlsym can find) and the relocations name
    symtab = one("DT_SYMTAB")
    nsyms = max(wanted, default=-1) + 1
    if one("DT_GNU_HASH") is not None:
        nsyms = max(nsyms, _gnu_hash_count(image, image.offset(one("DT_GNU_HASH"), 16, "DT_GNU_HASH table")))
    if one("DT_HASH") is not None:
        nsyms = max(nsyms, image.word(image.offset(one("DT_HASH"), 8, "DT_HASH table") + 4, "DT_HASH table"))
    if nsyms > MAX_SYMBOLS:
        raise _Refused(f"has over {MAX_SYMBOLS} dynamic symbols")
    if one("DT_SYMENT") not in (None, _SYM.size):
        raise _Refused("is malformed: its DT_SYMENT is not the size of a symbol")
    imported, bound, exported = set(), set(), set()
    if nsyms > 1:
        if symtab is None:
            raise _Refused("is malformed: it has relocations or hash tables but no DT_SYMTAB")
        sym_off = image.offset(symtab, nsyms * _SYM.size, "dynamic symbol table")
        for i, (st_name, st_info, st_other, st_shndx, _value, _size) in enumerate(
                _SYM.iter_unpack(data[sym_off:sym_off + nsyms * _SYM.size])):
            if i == 0 or st_name == 0:
                continue
            name = string(st_name, "symbol name")
            local, visibility = (st_info >> 4) == _STB_LOCAL, st_other & 3
            if st_shndx == 0:  # SHN_UNDEF: the loader finds it elsewhere in the process
                imported.add(name)
            elif not local:
                if visibility in (_STV_DEFAULT, _STV_PROTECTED):
                    exported.add(name)
                if i in wanted and visibility == _STV_DEFAULT:
                    bound.add(name)
    return Linkage(machine, needed, forbidden, frozenset(imported), frozenset(bound), frozenset(exported))


def _gnu_hash_count(image: _Image, off: int) -> int:
    """Symbols a DT_GNU_HASH table reaches: the end of the chain of the highest bucket (every
    chain the loader walks ends there or earlier), bounded by MAX_SYMBOLS."""
    nbuckets, symoffset, bloom_size, _shift = struct.unpack_from("<4I", image.data, off)
    if nbuckets > MAX_SYMBOLS or bloom_size > MAX_SYMBOLS:
        raise _Refused("is malformed: its DT_GNU_HASH table is oversized")
    buckets_off = off + 16 + 8 * bloom_size
    if buckets_off + 4 * nbuckets > len(image.data):
        raise _Refused("is malformed: its DT_GNU_HASH table lies outside the file")
    buckets = struct.unpack_from(f"<{nbuckets}I", image.data, buckets_off)
    top = max(buckets, default=0)
    if top < symoffset:
        return symoffset
    chain_off = buckets_off + 4 * nbuckets
    i = top
    while not image.word(chain_off + 4 * (i - symoffset), "DT_GNU_HASH chain") & 1:
        i += 1
        if i > MAX_SYMBOLS:
            raise _Refused(f"has over {MAX_SYMBOLS} dynamic symbols")
    return i + 1


def inspect_library(path: str | Path) -> Linkage:
    """What the loader will look up for the library at ``path``; ValueError (with the sentence
    ``check_library`` would give) when it cannot be read as a shared library."""
    try:
        return _parse(_read(path))
    except _Refused as e:
        raise ValueError(f"the kernel library {e}") from None
    except Exception as e:  # noqa: BLE001 - whatever pyelftools makes of a hostile file
        raise ValueError(f"the kernel library is malformed: it cannot be read as an ELF file "
                         f"({type(e).__name__}: {str(e)[:200]})") from None


# --- the libraries allowed as a class ---------------------------------------------------------

def _library_dirs() -> list[str]:
    """Where this process's libc came from first, then the usual multiarch directories."""
    dirs = []
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as f:
            for line in f:
                path = line.rstrip("\n").partition("/")[2]
                if path and os.path.basename("/" + path) in ("libc.so.6", "libm.so.6"):
                    dirs.append(os.path.dirname("/" + path))
    except OSError:
        pass
    return list(dict.fromkeys(dirs + list(_LIBRARY_DIRS)))


def _exports_of(path: str) -> set[str]:
    """The public exports of a trusted system library (GLIBC_PRIVATE ones left out)."""
    with open(path, "rb") as f:
        elf = ELFFile(f)
        dynsym = elf.get_section_by_name(".dynsym")
        if dynsym is None:
            return set()
        versym, verdef = elf.get_section_by_name(".gnu.version"), elf.get_section_by_name(".gnu.version_d")
        private = set()
        if verdef is not None:
            for version, aux in verdef.iter_versions():
                names = [a.name for a in aux]
                if names and names[0] == "GLIBC_PRIVATE":
                    private.add(version["vd_ndx"])
        out = set()
        for i, sym in enumerate(dynsym.iter_symbols()):
            if sym["st_shndx"] == "SHN_UNDEF" or sym["st_info"]["bind"] == "STB_LOCAL" or not sym.name:
                continue
            if private and versym is not None:
                ndx = versym.get_symbol(i)["ndx"]
                if isinstance(ndx, int) and (ndx & 0x7FFF) in private:
                    continue
            out.add(sym.name)
        return out


@lru_cache(maxsize=1)
def system_exports() -> frozenset[str]:
    """The names this machine's SYSTEM_LIBRARIES export (empty where none can be read: then
    ``C_SYMBOLS`` alone stands for them)."""
    names: set[str] = set()
    dirs = _library_dirs()
    for lib in SYSTEM_LIBRARIES:
        for d in dirs:
            path = os.path.join(d, lib)
            if os.path.isfile(path):
                try:
                    names |= _exports_of(path)
                except Exception:  # noqa: BLE001 - an unreadable system library: the static list stands
                    continue
                break
    return frozenset(names)


# --- the check --------------------------------------------------------------------------------

def _denied(name: str) -> str | None:
    if name in DENIED_SYMBOLS:
        return DENIED_SYMBOLS[name]
    return next((why for prefix, why in DENIED_PREFIXES.items() if name.startswith(prefix)), None)


def _allowed_import(name: str, kind: str) -> bool:
    if _denied(name):
        return False
    if kind == "tvm" and name in TVM_RUNTIME_SYMBOLS:
        return True
    if name.startswith(("TVM", "_Z")):  # never a C library's, whatever is installed
        return False
    return name in C_SYMBOLS or name in CRT_SYMBOLS or name in system_exports()


def _names(names: list[str], limit: int = 8) -> str:
    names = sorted(names)
    shown = ", ".join(names[:limit])
    return shown if len(names) <= limit else f"{shown} and {len(names) - limit} more"


def _symbols_sentence(offenders: dict[str, str | None], kind: str) -> str:
    groups: dict[str | None, list[str]] = {}
    for name, why in offenders.items():
        groups.setdefault(why, []).append(name)
    parts = []
    for why in sorted(groups, key=lambda w: (w is None, w or "")):
        text = _names(groups[why])
        parts.append(f"{text} ({why or 'in none of the allowed libraries'})")
    joined = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return (f"the kernel library calls {joined}, which kernels may not use "
            f"(allowed: {_ALLOWED_TEXT[kind]})")


def check_library(path: str | Path, kind: str, *, registry_calls: bool = False) -> str | None:
    """None when the library at ``path`` links only against what the policy allows (module
    docstring), else one sentence naming what it may not use. ``kind``: "tvm" for a TVM-built
    library, "c-source" for one the system C compiler built. ``registry_calls``: the workload's
    own definition calls TVM's registry by name (``registry_calls(canonical)`` is not empty, or a
    GPU host library, which launches its kernels that way), so a TVM-built library may define
    the slots ``T.call_packed`` lowers to. Never raises on a hostile file; ValueError on a
    ``kind`` it does not know."""
    if kind not in KINDS:
        raise ValueError(f"unknown library kind {kind!r}; known: {', '.join(KINDS)}")
    try:
        link = inspect_library(path)
    except ValueError as e:
        return str(e)
    if link.forbidden_tags:
        return f"the kernel library {_FORBIDDEN_TAGS[link.forbidden_tags[0]]}, which kernel libraries may not do"
    bad_needed = [n for n in link.needed if n not in ALLOWED_NEEDED]
    if bad_needed:
        return (f"the kernel library needs {_names(bad_needed)}, which kernels may not link against "
                "(allowed: libc, libm, libgomp, libgcc_s and the dynamic loader)")

    offenders: dict[str, str | None] = {}
    for name in link.imported:
        if not _allowed_import(name, kind):
            offenders[name] = _denied(name) or next(
                (w for p, w in _FOREIGN_PREFIXES.items() if name.startswith(p)), None)
    for name in link.bound - link.imported:
        # defined here, but bound through the process's scope: refused where something else in
        # the process provides it (the interpreter, TVM, C++ libraries) or it is denied outright
        why = _denied(name) or next((w for p, w in _FOREIGN_PREFIXES.items() if name.startswith(p)), None)
        if why and not _allowed_import(name, kind):
            offenders[name] = why
    if offenders:
        return _symbols_sentence(offenders, kind)

    slots = sorted(n for n in link.exported if n.startswith(("__TVM", "__tvm_ffi__")))
    if kind == "c-source":
        if slots:
            return (f"the kernel library defines {_names(slots)}, TVM runtime slots that a c-source "
                    "library may not define (allowed: libc, libm and libgomp)")
        return None
    registry = [n for n in slots if n in TVM_REGISTRY_SLOTS]
    unknown = [n for n in slots if n not in TVM_REGISTRY_SLOTS | TVM_CONTEXT_SLOTS | TVM_LIBRARY_SYMBOLS]
    if unknown:
        return (f"the kernel library defines {_names(unknown)}, which TVM's runtime may fill at load "
                f"and kernels may not define (allowed: {_ALLOWED_TEXT[kind]})")
    if registry and not registry_calls:
        return (f"the kernel library calls functions of TVM's registry by name ({_names(registry)}: "
                "what T.call_packed lowers to), which kernels may not use unless the workload's own "
                f"definition does (allowed: {_ALLOWED_TEXT[kind]})")
    return None


def registry_calls(mod) -> list[str]:
    """The names a trusted IRModule (a workload's canonical module) calls through TVM's registry
    (``T.call_packed``), sorted: a non-empty list is why its builds define TVM_REGISTRY_SLOTS."""
    # heavy: TVM is imported on use, never with this module
    import tvm
    import tvm_ffi

    names: set[str] = set()

    def visit(node):
        if (isinstance(node, tvm.ir.Call) and isinstance(node.op, tvm.ir.Op)
                and node.op.name in ("tirx.tvm_call_packed", "tirx.tvm_call_cpacked",
                                     "tirx.tvm_call_packed_lowered", "tirx.tvm_call_cpacked_lowered")):
            first = node.args[0] if len(node.args) else None
            names.add(first.value if isinstance(first, tvm.ir.StringImm) else str(first))

    for _, func in mod.functions.items():
        if isinstance(func, tvm.tirx.PrimFunc):
            tvm_ffi.structural_walk(func, visit, order="pre")
    return sorted(names)
