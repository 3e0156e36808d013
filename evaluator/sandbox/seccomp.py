"""The seccomp filter every sandboxed step runs under, exported as BPF for ``bwrap --seccomp``.

Everything is allowed except what a kernel never needs and an attacker wants: IP/netlink/packet
sockets, tracing other processes, mounting, new namespaces, BPF, io_uring, kernel modules,
keyrings. A forbidden call kills the process (SIGSYS), so the harness can name the reason
instead of the kernel quietly continuing after an error.
"""

from __future__ import annotations

import socket

DENIED = (
    "ptrace", "process_vm_readv", "process_vm_writev", "bpf", "perf_event_open", "keyctl",
    "add_key", "request_key", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
    "mount", "umount2", "pivot_root", "chroot", "unshare", "setns", "init_module", "finit_module",
    "delete_module", "kexec_load", "kexec_file_load", "reboot", "swapon", "swapoff", "acct",
    "fsopen", "fsmount", "move_mount", "open_tree", "name_to_handle_at", "open_by_handle_at",
)
DENIED_SOCKET_FAMILIES = (socket.AF_INET, socket.AF_INET6, socket.AF_NETLINK, socket.AF_PACKET)


def available() -> bool:
    try:
        import pyseccomp  # noqa: F401
    except (ImportError, OSError):
        return False
    return True


def write_bpf(path: str) -> None:
    import pyseccomp as sc

    f = sc.SyscallFilter(sc.ALLOW)
    for name in DENIED:
        try:
            f.add_rule(sc.KILL_PROCESS, name)
        except (ValueError, RuntimeError, OSError):
            pass  # not a syscall on this architecture
    for family in DENIED_SOCKET_FAMILIES:
        f.add_rule(sc.KILL_PROCESS, "socket", sc.Arg(0, sc.EQ, family))
        f.add_rule(sc.KILL_PROCESS, "socketpair", sc.Arg(0, sc.EQ, family))
    with open(path, "wb") as out:
        f.export_bpf(out)
