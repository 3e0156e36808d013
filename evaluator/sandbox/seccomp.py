"""The seccomp filter every sandboxed step runs under, exported as BPF for ``bwrap --seccomp``.

Everything is allowed except what a kernel never needs and an attacker wants: IP/netlink/packet
sockets, tracing other processes, mounting, new namespaces, BPF, io_uring, kernel modules,
keyrings. A forbidden call kills the whole process (SIGSYS), so the harness can name the reason
instead of the kernel quietly continuing after an error.

Other ABIs: the rules are written for the native one (x86-64). A system call made through
another ABI the kernel also accepts — the 32-bit ``int $0x80`` entry, or x32 (the number with
bit 30 set) — is never matched by those rules, so it must not be allowed either: the filter's
bad-architecture action kills the whole process, like a forbidden call (the default,
SECCOMP_RET_KILL_THREAD, killed one thread only, and a step whose other threads waited on it hung
until its wall clock ran out). libseccomp sends x32 numbers to that same action on an x86-64
filter; :func:`check_bpf` runs the exported program on such calls and refuses a filter that does
not kill them, so no libseccomp version can quietly change that.
"""

from __future__ import annotations

import os
import platform
import socket
import struct
import tempfile

DENIED = (
    "ptrace", "process_vm_readv", "process_vm_writev", "bpf", "perf_event_open", "keyctl",
    "add_key", "request_key", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
    "mount", "umount2", "pivot_root", "chroot", "unshare", "setns", "init_module", "finit_module",
    "delete_module", "kexec_load", "kexec_file_load", "reboot", "swapon", "swapoff", "acct",
    "fsopen", "fsmount", "move_mount", "open_tree", "name_to_handle_at", "open_by_handle_at",
)
DENIED_SOCKET_FAMILIES = (socket.AF_INET, socket.AF_INET6, socket.AF_NETLINK, socket.AF_PACKET)
# A step pinned to a device profile's CPUs (``Sandbox.pinned``) must not widen its own CPU set:
# the affinity a launcher sets is the process's to change, unlike a cgroup's
DENIED_PINNED = ("sched_setaffinity",)

RET_KILL_PROCESS = 0x80000000
RET_ALLOW = 0x7FFF0000
X32_SYSCALL_BIT = 0x40000000
AUDIT_ARCH_X86_64 = 0xC000003E
AUDIT_ARCH_I386 = 0x40000003
AUDIT_ARCH_AARCH64 = 0xC00000B7
AUDIT_ARCH_ARM = 0x40000028


def available() -> bool:
    try:
        import pyseccomp  # noqa: F401 - an optional dependency (and libseccomp): imported on use
    except (ImportError, OSError):
        return False
    return True


def build_bpf(pinned: bool = False) -> bytes:
    """The filter as a classic BPF program (what ``bwrap --seccomp`` reads), checked.
    ``pinned``: for a step pinned to some CPUs, which may not change its affinity either."""
    import pyseccomp as sc  # optional dependency (see available): imported on use

    f = sc.SyscallFilter(sc.ALLOW)
    # any other ABI (i386 `int $0x80`, x32 numbers, a foreign arch): the whole process dies
    f.set_attr(sc.Attr.ACT_BADARCH, sc.KILL_PROCESS)
    for name in DENIED + (DENIED_PINNED if pinned else ()):
        try:
            f.add_rule(sc.KILL_PROCESS, name)
        except (ValueError, RuntimeError, OSError):
            pass  # not a syscall on this architecture
    for family in DENIED_SOCKET_FAMILIES:
        f.add_rule(sc.KILL_PROCESS, "socket", sc.Arg(0, sc.EQ, family))
        f.add_rule(sc.KILL_PROCESS, "socketpair", sc.Arg(0, sc.EQ, family))
    fd, tmp = tempfile.mkstemp(prefix="ekb-seccomp-")
    try:
        with os.fdopen(fd, "w+b") as out:
            f.export_bpf(out)
            out.seek(0)
            program = out.read()
    finally:
        os.unlink(tmp)
    check_bpf(program)
    return program


def write_bpf(path: str, pinned: bool = False) -> None:
    program = build_bpf(pinned)
    with open(path, "wb") as out:
        out.write(program)


# --- checking the exported program ------------------------------------------------------------
def run_bpf(program: bytes, nr: int, arch: int, args: tuple[int, ...] = (), ip: int = 0) -> int:
    """What the kernel would do with one system call: a classic-BPF interpreter over
    ``struct seccomp_data`` (nr, arch, instruction pointer, six arguments), returning the
    filter's SECCOMP_RET_* value."""
    data = struct.pack("<IIQ6Q", nr & 0xFFFFFFFF, arch, ip, *(list(args) + [0] * 6)[:6])
    insns = [struct.unpack_from("<HBBI", program, i) for i in range(0, len(program), 8)]
    a = x = 0
    mem = [0] * 16
    pc = 0
    m32 = 0xFFFFFFFF
    while pc < len(insns):
        code, jt, jf, k = insns[pc]
        pc += 1
        cls = code & 0x07
        if cls in (0x00, 0x01):  # LD / LDX
            mode, size = code & 0xE0, code & 0x18
            if mode == 0x00:
                val = k
            elif mode == 0x20 and size == 0x00:  # absolute 32-bit load from seccomp_data
                if k % 4 or k + 4 > len(data):
                    raise ValueError(f"BPF load outside seccomp_data at {k}")
                val = struct.unpack_from("<I", data, k)[0]
            elif mode == 0x60:
                val = mem[k]
            elif mode == 0x80:
                val = len(data)
            else:
                raise ValueError(f"unsupported BPF load {code:#x}")
            if cls == 0x00:
                a = val
            else:
                x = val
        elif cls == 0x02:
            mem[k] = a
        elif cls == 0x03:
            mem[k] = x
        elif cls == 0x04:  # ALU
            op, src = code & 0xF0, (x if code & 0x08 else k)
            ops = {0x00: lambda: a + src, 0x10: lambda: a - src, 0x20: lambda: a * src,
                   0x30: lambda: a // src, 0x40: lambda: a | src, 0x50: lambda: a & src,
                   0x60: lambda: a << src, 0x70: lambda: a >> src, 0x80: lambda: -a,
                   0x90: lambda: a % src, 0xA0: lambda: a ^ src}
            if op not in ops:
                raise ValueError(f"unsupported BPF ALU op {code:#x}")
            a = ops[op]() & m32
        elif cls == 0x05:  # JMP
            op, src = code & 0xF0, (x if code & 0x08 else k)
            if op == 0x00:
                pc += k
                continue
            taken = {0x10: a == src, 0x20: a > src, 0x30: a >= src, 0x40: bool(a & src)}.get(op)
            if taken is None:
                raise ValueError(f"unsupported BPF jump {code:#x}")
            pc += jt if taken else jf
        elif cls == 0x06:  # RET
            return a if code & 0x18 == 0x10 else k
        elif cls == 0x07:  # MISC: TAX / TXA
            if code & 0xF8 == 0x00:
                x = a
            else:
                a = x
    raise ValueError("BPF program ran off its end")


def other_abi_calls() -> list[tuple[str, int, int]]:
    """``(what, nr, arch)`` of system calls through another ABI than the native one, each of
    which the filter must answer with KILL_PROCESS."""
    machine = platform.machine().lower()
    if machine in ("x86_64", "amd64"):
        return [("i386 int 0x80 socket", 359, AUDIT_ARCH_I386),
                ("i386 int 0x80 getpid", 20, AUDIT_ARCH_I386),
                ("x32 socket", 41 | X32_SYSCALL_BIT, AUDIT_ARCH_X86_64),
                ("x32 getpid", 39 | X32_SYSCALL_BIT, AUDIT_ARCH_X86_64)]
    if machine in ("aarch64", "arm64"):
        return [("arm32 socket", 281, AUDIT_ARCH_ARM)]
    return []


def check_bpf(program: bytes) -> None:
    """Refuse a filter that lets a call through another ABI, or a denied native call, live."""
    import pyseccomp as sc  # optional dependency (see available): imported on use

    native = sc.system_arch()
    bad = [what for what, nr, arch in other_abi_calls() if run_bpf(program, nr, arch) != RET_KILL_PROCESS]
    ptrace = sc.resolve_syscall(native, "ptrace")
    if run_bpf(program, ptrace, native) != RET_KILL_PROCESS:
        bad.append("native ptrace")
    sock = sc.resolve_syscall(native, "socket")
    if run_bpf(program, sock, native, (socket.AF_INET, socket.SOCK_STREAM, 0)) != RET_KILL_PROCESS:
        bad.append("native socket(AF_INET)")
    if run_bpf(program, sock, native, (socket.AF_UNIX, socket.SOCK_STREAM, 0)) != RET_ALLOW:
        bad.append("native socket(AF_UNIX) refused")
    if bad:
        raise RuntimeError(f"the seccomp filter does not do what it must: {', '.join(bad)}")
