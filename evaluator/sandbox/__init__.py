"""Running one evaluation step of untrusted code: bubblewrap + seccomp + a fresh cgroup + rlimits.

What the step can see: a read-only system (``/usr``), the Python environment and the
``evaluator`` package (read-only, without the hidden workloads), a size-limited ``/tmp`` and its
own scratch directory (a size-limited tmpfs). Not the database, the media files, the settings,
other submissions, or the network. It runs as uid 65534 with no capabilities, every namespace
unshared, a seccomp filter, a memory/CPU/pids cgroup, rlimits, and the harness's wall clock.
See ``../shared`` notes on what was measured to hold on these machines.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import weakref
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

from evaluator.sandbox import cgroup, seccomp
from evaluator.sandbox.cgroup import Cgroup

PACKAGE_DIR = Path(__file__).resolve().parents[1]  # .../evaluator
HIDDEN_FILE = PACKAGE_DIR / "suite" / "hidden_workloads.py"
SCRATCH_ROOT = Path(os.environ.get("EKB_SCRATCH_ROOT", Path(tempfile.gettempdir()) / "ekb-scratch"))
UNSAFE_ENV = "EKB_UNSAFE_LOCAL"
OPENCL_PATHS = ("/etc/OpenCL/vendors", "/sys/devices/system/cpu")


class SandboxUnavailable(RuntimeError):
    pass


@dataclass(frozen=True)
class SandboxLimits:
    """Per-step limits; each one, when hit, is named in the task's reason."""

    memory_bytes: int = 4 << 30
    cpu_cores: float = 2.0  # CPU quota, in cores
    pids: int = 96  # processes and threads (TVM's thread pool needs a few)
    cpu_seconds: int = 300  # RLIMIT_CPU
    file_bytes: int = 256 << 20  # RLIMIT_FSIZE, any one file
    open_files: int = 256  # RLIMIT_NOFILE
    scratch_bytes: int = 256 << 20  # the scratch tmpfs
    tmp_bytes: int = 64 << 20  # the sandbox's own /tmp

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_env(cls) -> "SandboxLimits":
        """Deployment settings: EKB_SANDBOX_MEMORY_MB, _PIDS, _CPU_SECONDS, _SCRATCH_MB."""
        d = cls()
        env = os.environ.get
        return cls(memory_bytes=int(env("EKB_SANDBOX_MEMORY_MB", d.memory_bytes >> 20)) << 20,
                   pids=int(env("EKB_SANDBOX_PIDS", d.pids)),
                   cpu_seconds=int(env("EKB_SANDBOX_CPU_SECONDS", d.cpu_seconds)),
                   scratch_bytes=int(env("EKB_SANDBOX_SCRATCH_MB", d.scratch_bytes >> 20)) << 20)


def probe() -> str | None:
    """Why untrusted code cannot be sandboxed here, or None when it can."""
    if shutil.which("bwrap") is None:
        return "bubblewrap (bwrap) is not installed"
    if cgroup.version() is None:
        return "no writable cgroup hierarchy with memory, cpu and pids controllers"
    if not seccomp.available():
        return "the seccomp bindings (pyseccomp with libseccomp) are not available"
    return None


def unsafe_local_allowed() -> bool:
    return os.environ.get(UNSAFE_ENV, "").lower() in ("1", "true", "yes")


def sweep() -> dict:
    """Remove what a killed worker left: cgroups and scratch directories (called at start-up)."""
    groups = cgroup.sweep()
    dirs = 0
    if SCRATCH_ROOT.is_dir():
        for d in SCRATCH_ROOT.iterdir():
            if cgroup.owner_alive(d.name.removeprefix("task-")):
                continue
            subprocess.run(["umount", "-l", str(d)], capture_output=True)
            shutil.rmtree(d, ignore_errors=True)
            dirs += 1
    return {"cgroups": groups, "scratch_dirs": dirs}


class Sandbox:
    def __init__(self, limits: SandboxLimits | None = None):
        why = probe()
        if why:
            raise SandboxUnavailable(why)
        self.limits = limits or SandboxLimits.from_env()
        self._private = Path(tempfile.mkdtemp(prefix="ekb-sandbox-"))  # 0700, never bound inside
        weakref.finalize(self, shutil.rmtree, self._private, True)
        self.bpf_path = self._private / "filter.bpf"
        seccomp.write_bpf(str(self.bpf_path))
        self.empty_file = self._private / "empty.py"
        self.empty_file.write_text("")

    # --- scratch -----------------------------------------------------------------------------
    @contextmanager
    def scratch(self):
        """A fresh scratch directory: a size-limited tmpfs when we may mount, else a plain dir."""
        SCRATCH_ROOT.mkdir(parents=True, exist_ok=True)
        path = Path(tempfile.mkdtemp(prefix=f"task-{os.getpid()}-", dir=SCRATCH_ROOT))
        mounted = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={self.limits.scratch_bytes},mode=0777,nosuid,nodev",
             "tmpfs", str(path)], capture_output=True).returncode == 0
        if not mounted:
            path.chmod(0o777)
        try:
            yield path
        finally:
            if mounted:
                subprocess.run(["umount", "-l", str(path)], capture_output=True)
            shutil.rmtree(path, ignore_errors=True)

    # --- command -----------------------------------------------------------------------------
    def command(self, argv: list[str], scratch: Path, env: dict[str, str], group: Cgroup) -> tuple[list[str], int]:
        """The full command line (joins the cgroup, then bwrap) and the seccomp fd to pass."""
        fd = os.open(self.bpf_path, os.O_RDONLY)
        venv, home = Path(sys.prefix), Path(sys.base_prefix)
        args = ["bwrap", "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent",
                "--new-session", "--cap-drop", "ALL", "--uid", "65534", "--gid", "65534",
                "--ro-bind", "/usr", "/usr"]
        for name in ("lib", "lib64", "bin", "sbin"):
            if Path("/usr", name).exists():
                args += ["--symlink", f"usr/{name}", f"/{name}"]
        args += ["--ro-bind", "/etc/ld.so.cache", "/etc/ld.so.cache",
                 # /tmp first: a checkout or environment under /tmp is bound on top of it
                 "--size", str(self.limits.tmp_bytes), "--tmpfs", "/tmp"]
        for p in dict.fromkeys([home, venv]):
            args += ["--ro-bind", str(p), str(p)]
        args += ["--ro-bind", str(PACKAGE_DIR), str(PACKAGE_DIR)]
        if HIDDEN_FILE.exists():  # the held-out workloads never enter a sandbox
            args += ["--ro-bind", str(self.empty_file), str(HIDDEN_FILE)]
        # OpenCL: the ICD loader's list of platforms, and the CPU topology PoCL reads (through
        # hwloc) to size its device; both read-only, neither holds anything private.
        for p in OPENCL_PATHS:
            if Path(p).is_dir():
                args += ["--ro-bind", p, p]
        args += ["--proc", "/proc", "--dev", "/dev",
                 "--bind", str(scratch), str(scratch),
                 "--remount-ro", "/",  # the sandbox's own root too: only scratch and /tmp are writable
                 "--chdir", "/", "--clearenv"]
        inner_env = dict(env)
        inner_env.update({
            "PYTHONPATH": str(PACKAGE_DIR.parent), "HOME": "/tmp", "TMPDIR": "/tmp",
            "PATH": "/usr/bin:/bin", "EKB_RLIMITS": json.dumps(self._rlimits()),
            # PoCL's compiled-kernel cache goes to this step's own /tmp, never to scratch: the
            # scratch directory outlives the build step, which runs submitted code and could
            # plant a compiled binary there for the baseline kernel the run step compiles next.
            "POCL_CACHE_DIR": "/tmp/pocl-cache",
        })
        for k, v in inner_env.items():
            args += ["--setenv", k, v]
        args += ["--seccomp", str(fd), "--"]
        # Join the cgroup before exec'ing bwrap, so nothing it starts can escape the limits.
        joins = "; ".join(f'echo $$ > "{f}"' for f in group.procs_files())
        return ["/bin/sh", "-c", f'{joins} && exec "$@"', "sh", *args, *argv], fd

    def _rlimits(self) -> dict:
        lim = self.limits
        return {"RLIMIT_CPU": [lim.cpu_seconds, lim.cpu_seconds + 5], "RLIMIT_FSIZE": lim.file_bytes,
                "RLIMIT_NOFILE": lim.open_files, "RLIMIT_CORE": 0}

    def cgroup(self) -> Cgroup:
        return Cgroup(self.limits.memory_bytes, self.limits.cpu_cores, self.limits.pids)


def apply_rlimits_from_env() -> None:
    """Called first thing in the sandboxed child: lower its own rlimits (never raisable again
    without capabilities)."""
    import resource

    spec = os.environ.get("EKB_RLIMITS")
    if not spec:
        return
    for name, value in json.loads(spec).items():
        soft, hard = (value, value) if isinstance(value, int) else value
        resource.setrlimit(getattr(resource, name), (soft, hard))
