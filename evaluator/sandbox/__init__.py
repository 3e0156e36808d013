"""Running one evaluation step of untrusted code: bubblewrap + seccomp + a fresh cgroup + rlimits.

What the step can see: a read-only system (``/usr``), the Python environment, a read-only copy
of the ``evaluator`` modules a step may import (``.py`` sources of an allow-list, no bytecode,
see :data:`PACKAGE_VIEW`; no held-out shape is in any file, they are drawn from a secret the
step never has), a size-limited
``/tmp`` and its own scratch directory (a size-limited tmpfs). Not the database, the media files,
the settings, other submissions, or the network. It runs as uid 65534 with no capabilities,
every namespace unshared, a seccomp filter, a memory/CPU/pids cgroup, rlimits, and the harness's
wall clock.
See ``../shared`` notes on what was measured to hold on these machines.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import os
import resource
import shlex
import shutil
import stat
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
# What a sandboxed step sees of the evaluator package: the ``.py`` sources of these modules and
# subpackages (relative to PACKAGE_DIR; a folder means every ``.py`` file under it) and nothing
# else — no ``__pycache__`` (bytecode of modules the step never imports), no data files, no
# pipeline/portal-side code. Taken from what ``python -m evaluator.harness.child build|run``
# imports on every backend (measured with sys.modules and an audit hook on opens):
PACKAGE_VIEW = (
    "__init__.py",
    "vocabulary.py",  # the domain's words (backend kinds, baselines) the modules below name
    "backends",  # get_backend imports every backend module; rpc's run half runs in the step
    "formats",  # the build step looks up the entry's format
    "harness",  # child itself, its messages, arena, timing and linkage check
    "ir",  # lowering a submission (build step)
    "sandbox",  # the child lowers its own rlimits first thing
    "suite",  # vendor calls by pattern (run step); held-out shapes are in no file (a secret's draw)
    # the tvm-default pieces the build and run steps call: each backend's policy, the default
    # layers of a model graph's unscheduled functions, dlight for GPU backends, the torch vendor
    # timer (cuda)
    "baselines/__init__.py", "baselines/policy.py", "baselines/tvm_default.py", "baselines/dlight_default.py",
    "baselines/vendor_torch.py",
)
SCRATCH_ROOT = Path(os.environ.get("EKB_SCRATCH_ROOT", Path(tempfile.gettempdir()) / "ekb-scratch"))
UNSAFE_ENV = "EKB_UNSAFE_LOCAL"
OPENCL_PATHS = ("/etc/OpenCL/vendors", "/sys/devices/system/cpu")
# Debian's alternatives: /usr/bin/which and friends are links through here (links only)
SYSTEM_LINKS = ("/etc/alternatives",)


class SandboxUnavailable(RuntimeError):
    pass


# --- the environment of a step ---------------------------------------------------------------
# Host variables an unsandboxed step (unsafe local mode) inherits, by exact name. Everything else
# is dropped: the evaluating process's environment holds the deployment's secrets
# (DJANGO_SECRET_KEY, DATABASE_URL, CELERY_BROKER_URL, EKB_VERIFY_SECRET, EKB_ENDPOINT_KEYS,
# cloud credentials, API tokens), and a step runs submitted code.
CHILD_ENV_NAMES = frozenset({
    "PATH",  # gcc/cc for the c-source backend and TVM's own compiler calls
    "HOME",  # where PoCL and TVM put their caches when nothing more specific is set
    "XDG_CACHE_HOME",  # PoCL's kernel cache
    "LANG", "LANGUAGE", "TZ",  # locale and time zone (compiler messages, time stamps)
    "TMPDIR", "TMP", "TEMP",  # tempfile and the compilers' temporary files
    "PYTHONPATH",  # how a developer points at a TVM build (the harness may set its own)
    "LD_LIBRARY_PATH",  # where GPU driver libraries live on some hosts (/usr/local/nvidia)
    "CC", "CXX",  # tvm.contrib.cc picks its compiler from these
    "CUDA_HOME", "CUDA_PATH", "ROCM_PATH",  # toolkits TVM looks up
})
# ... and by prefix: the runtimes' own settings (thread counts, devices, ICD loader, toolkits).
SETPRIV_NOBODY = ("--reuid=65534", "--regid=65534", "--clear-groups", "--inh-caps=-all")

CHILD_ENV_PREFIXES = (
    "LC_",  # locale categories
    "TVM_",  # TVM_LIBRARY_PATH, TVM_NUM_THREADS, TVM_CUDA_COMPILE_MODE, ...
    "OMP_", "KMP_", "GOMP_",  # OpenMP thread pools (TVM's CPU runtime, PoCL)
    "OPENBLAS_", "MKL_",  # NumPy's BLAS (the CPU vendor baseline)
    "POCL_", "OCL_ICD_",  # PoCL (device, cache) and the OpenCL ICD loader's vendor list
    "CUDA_", "NVIDIA_",  # CUDA_VISIBLE_DEVICES, CUDA_MODULE_LOADING, NVIDIA_VISIBLE_DEVICES, ...
)
# Never passed, even under an allowed prefix (NVIDIA_API_KEY, TVM_TRACKER_KEY, ...).
CHILD_ENV_REFUSED_WORDS = ("SECRET", "TOKEN", "PASSW", "CREDENTIAL", "KEY", "AUTH", "COOKIE", "SESSION")


def _inherited(name: str) -> bool:
    if any(w in name.upper() for w in CHILD_ENV_REFUSED_WORDS):
        return False
    return name in CHILD_ENV_NAMES or name.startswith(CHILD_ENV_PREFIXES)


def child_environment(extra: dict[str, str]) -> dict[str, str]:
    """The environment of an unsandboxed step (unsafe local mode, trusted bundles): the host
    variables the runtimes need (:data:`CHILD_ENV_NAMES`, :data:`CHILD_ENV_PREFIXES`), never
    anything else, then ``extra`` (what the harness and the backend set, which wins)."""
    env = {k: v for k, v in os.environ.items() if _inherited(k)}
    env.update({str(k): str(v) for k, v in extra.items()})
    return env


# --- what a step sees of the evaluator package --------------------------------------------------
def package_view_sources(package_dir: Path = PACKAGE_DIR) -> dict[str, Path]:
    """``relative path -> source file`` of the package view. Only regular ``.py`` files, never
    through a symbolic link, never under ``__pycache__`` or a hidden folder."""
    out: dict[str, Path] = {}
    for entry in PACKAGE_VIEW:
        src = package_dir / entry
        if src.is_symlink():
            continue
        if src.is_file() and src.suffix == ".py":
            out[entry] = src
            continue
        if not src.is_dir():
            continue
        for root, dirs, files in os.walk(src, followlinks=False):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
            for name in sorted(files):
                f = Path(root) / name
                if name.endswith(".py") and not name.startswith(".") and not f.is_symlink() and f.is_file():
                    out[f.relative_to(package_dir).as_posix()] = f
    return dict(sorted(out.items()))


def build_package_view(dest: Path, package_dir: Path = PACKAGE_DIR) -> list[str]:
    """Write the package view into ``dest`` (folders 0755, files 0644: uid 65534 reads them);
    returns the relative paths written."""
    dest.mkdir(mode=0o755, parents=True, exist_ok=False)
    dest.chmod(0o755)
    files = package_view_sources(package_dir)
    for rel, src in files.items():
        target = dest / rel
        for d in reversed(target.relative_to(dest).parents[:-1]):
            (dest / d).mkdir(mode=0o755, exist_ok=True)
            (dest / d).chmod(0o755)
        with open(target, "xb") as out, open(src, "rb") as f:
            shutil.copyfileobj(f, out)
        target.chmod(0o644)
    return list(files)


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
    layout = cgroup.detect()
    if layout is None:
        return "no writable cgroup hierarchy with a memory controller (v1, or v2 delegated to this process)"
    if "pids" in layout.missing and shutil.which("setpriv") is None:
        return ("no pids controller is delegated, and the fallback (RLIMIT_NPROC, which binds only a "
                "non-root user) needs setpriv (util-linux)")
    if not seccomp.available():
        return "the seccomp bindings (pyseccomp with libseccomp) are not available"
    return None


@dataclass(frozen=True)
class DevicePaths:
    """What a backend's device needs inside the sandbox: device nodes (bound read-write, as
    devices) and directories of driver libraries outside ``/usr`` (bound read-only)."""

    nodes: tuple[str, ...] = ()
    libraries: tuple[str, ...] = ()


def _open_to_others(path: Path) -> bool:
    """Whether a user with no rights of its own can reach ``path`` and read it (every parent
    searchable, the path itself readable and, for a directory, searchable, by others)."""
    path = path.resolve()
    try:
        for parent in path.parents:
            if not parent.stat().st_mode & 0o001:
                return False
        mode = path.stat().st_mode
    except OSError:
        return False
    return bool(mode & 0o004) and (not stat.S_ISDIR(mode) or bool(mode & 0o001))


CONCURRENT_STEPS = 6  # the most step processes one evaluating process runs at once


def nvidia_device_nodes(dev: Path = Path("/dev")) -> tuple[str, ...]:
    """The NVIDIA driver's device nodes present here: the GPUs, the control node and unified
    memory (not ``nvidia-caps``: MIG administration)."""
    names = sorted(p.name for p in dev.glob("nvidia[0-9]*")) + ["nvidiactl", "nvidia-uvm", "nvidia-uvm-tools"]
    return tuple(str(dev / n) for n in names if (dev / n).exists())


def gpu_device_nodes() -> tuple[str, ...]:
    """Other vendors' GPU nodes: the DRM render nodes and AMD's compute node."""
    dev = Path("/dev")
    return tuple(str(p) for p in [*sorted(dev.glob("dri/renderD*")), dev / "kfd"] if p.exists())


def driver_library_dirs() -> tuple[str, ...]:
    """Directories on LD_LIBRARY_PATH outside /usr (where some hosts keep the GPU driver)."""
    dirs = [d for d in os.environ.get("LD_LIBRARY_PATH", "").split(os.pathsep) if d and Path(d).is_dir()]
    return tuple(dict.fromkeys(d for d in dirs if not Path(d).resolve().is_relative_to("/usr")))


# the modules a step imports that may live outside the Python environment (a measurement
# machine's runtime-only TVM on PYTHONPATH, say): their directories are bound read-only
STEP_MODULES = ("tvm", "tvm_ffi", "numpy", "ml_dtypes", "elftools", "pyopencl", "pytools", "cupy", "torch")


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
    def __init__(self, limits: SandboxLimits | None = None, devices: DevicePaths = DevicePaths(),
                 layout: cgroup.Layout | None = None):
        """``layout``: the cgroup layout to use (default: the one detected; a test may hand one
        with fewer controllers, to run the fallbacks on a machine that has them all)."""
        why = probe()
        if why:
            raise SandboxUnavailable(why)
        self.limits = limits or SandboxLimits.from_env()
        self.bwrap = shutil.which("bwrap")  # by path: a step's command runs with a cleared environment
        self.devices = devices
        self.cpus: tuple[int, ...] = ()  # the CPUs every step is pinned to (none: the process's own)
        self.taskset: str | None = None
        self.launch: tuple[str, ...] = ()  # shell lines run in the step's cgroup before bwrap
        self.layout = layout or cgroup.detect()
        # Without a pids controller the process limit is RLIMIT_NPROC, which the kernel does not
        # apply to root: steps then run as uid 65534 outside the sandbox too (setpriv before bwrap)
        self.unprivileged = "pids" in self.layout.missing
        self._private = Path(tempfile.mkdtemp(prefix="ekb-sandbox-"))  # never bound inside
        if self.unprivileged:
            self._private.chmod(0o711)  # bwrap, as uid 65534, must reach view/ (not list this)
        weakref.finalize(self, shutil.rmtree, self._private, True)
        self._staged: dict[str, str] = {}  # path -> its bind mount under _private (see _reachable)
        self.bpf_path = self._private / "filter.bpf"
        try:
            seccomp.write_bpf(str(self.bpf_path))
        except RuntimeError as e:  # the filter would not kill what it must
            raise SandboxUnavailable(str(e)) from e
        # The evaluator package as steps see it, bound read-only at PACKAGE_DIR: a copy made
        # now, so what a step may read is fixed for this sandbox's life (bytecode written into
        # the real package later never shows). Only view/ is bound, never the filter beside it.
        (self._private / "view").mkdir(mode=0o755)
        self.package_view = self._private / "view" / PACKAGE_DIR.name
        self.package_files = build_package_view(self.package_view)

    def with_devices(self, devices: DevicePaths) -> "Sandbox":
        """This sandbox, its steps also given ``devices`` (a GPU backend's)."""
        other = copy.copy(self)
        other.devices = devices
        other._shares = self  # noqa: SLF001 - the private directory (filter, package view) lives while either does
        return other

    def pinned(self, limits: SandboxLimits, cpus: tuple[int, ...]) -> "Sandbox":
        """This sandbox, its steps under ``limits`` and pinned to ``cpus`` (a device profile's
        budget: ``backends.cpu_edge``)."""
        taskset = shutil.which("taskset")
        if taskset is None:
            raise SandboxUnavailable("pinning steps to CPUs needs taskset (util-linux)")
        other = copy.copy(self)
        other.limits, other.cpus, other.taskset = limits, tuple(cpus), taskset
        other._shares = self  # noqa: SLF001 - the private directory (filter, package view) lives while either does
        # its own filter beside the shared one: a pinned step that calls sched_setaffinity is
        # killed (and named), as it would otherwise move itself onto every CPU
        other.bpf_path = self._private / "filter-pinned.bpf"
        if not other.bpf_path.exists():
            try:
                seccomp.write_bpf(str(other.bpf_path), pinned=True)
            except RuntimeError as e:  # the filter would not kill what it must
                raise SandboxUnavailable(str(e)) from e
        return other

    def with_launch(self, lines: tuple[str, ...]) -> "Sandbox":
        """This sandbox, each step first running ``lines`` (shell commands, ``{scratch}`` standing
        for the step's scratch) in its cgroup, as the step's user, outside bwrap: a helper the
        step's device needs beside it (``backends.cuda_edge``: an MPS daemon holding the GPU
        share), counted in the step's limits and ended with it (the cgroup is killed)."""
        other = copy.copy(self)
        other.launch = tuple(lines)
        other._shares = self  # noqa: SLF001 - the private directory (filter, package view) lives while either does
        return other

    def describe(self) -> str:
        """One line for a worker's start-up: where each limit comes from."""
        lim = self.limits
        parts = [f"memory {lim.memory_bytes >> 20} MiB ({self.layout.describe()})"]
        parts.append(f"{lim.cpu_cores:g} cores" if "cpu" in self.layout.controllers else
                     f"no CPU quota (no cpu controller; CPU time {lim.cpu_seconds} s a process by RLIMIT_CPU)")
        parts.append(f"{lim.pids} processes" if not self.unprivileged else
                     f"{self.nproc_fallback()} processes of uid 65534 by RLIMIT_NPROC (no pids controller)")
        if self.cpus:
            parts.append("pinned to CPU " + ",".join(map(str, self.cpus)))
        if self.devices.nodes:
            parts.append("devices " + " ".join(self.devices.nodes))
        return "sandbox: " + "; ".join(parts)

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
        """The full command line (joins the cgroup, then bwrap) and the seccomp fd to pass.

        The step's environment is exactly ``env`` plus the sandbox's own variables
        (:meth:`inner_environment`): bwrap starts from a cleared one."""
        inner_env = self.inner_environment(env)
        venv, home = Path(sys.prefix), Path(sys.base_prefix)
        args = [self.bwrap, "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent",
                "--new-session", "--cap-drop", "ALL", "--uid", "65534", "--gid", "65534",
                "--ro-bind", "/usr", "/usr"]
        for name in ("lib", "lib64", "bin", "sbin"):
            if Path("/usr", name).exists():
                args += ["--symlink", f"usr/{name}", f"/{name}"]
        args += ["--ro-bind", "/etc/ld.so.cache", "/etc/ld.so.cache",
                 # /tmp first: a checkout or environment under /tmp is bound on top of it
                 "--size", str(self.limits.tmp_bytes), "--tmpfs", "/tmp"]
        for p in dict.fromkeys([str(home), str(venv), *self._module_dirs()]):
            args += ["--ro-bind", self._reachable(p), p]
        # the package view (an allow-list of sources, no bytecode)
        args += ["--ro-bind", str(self.package_view), str(PACKAGE_DIR)]
        # OpenCL: the ICD loader's list of platforms, and the CPU topology PoCL reads (through
        # hwloc) to size its device; both read-only, neither holds anything private.
        for p in OPENCL_PATHS + SYSTEM_LINKS:
            if Path(p).is_dir():
                args += ["--ro-bind", p, p]
        args += ["--proc", "/proc", "--dev", "/dev"]
        # a GPU backend's device nodes and driver libraries (nothing for a CPU one)
        for node in self.devices.nodes:
            args += ["--dev-bind", node, node]
        for lib in self.devices.libraries:
            args += ["--ro-bind", lib, lib]
        args += ["--bind", str(scratch), str(scratch),
                 "--remount-ro", "/",  # the sandbox's own root too: only scratch and /tmp are writable
                 "--chdir", "/", "--clearenv"]
        for k, v in inner_env.items():
            args += ["--setenv", k, v]
        fd = os.open(self.bpf_path, os.O_RDONLY)
        args += ["--seccomp", str(fd), "--"]
        # one command drops to uid 65534 for bwrap and for every launch helper alike
        as_nobody = [shutil.which("setpriv") or "setpriv", *SETPRIV_NOBODY] if self.unprivileged else []
        args = [*as_nobody, *args]
        # Join the cgroup before exec'ing bwrap, so nothing it starts can escape the limits.
        joins = "; ".join(f'echo $$ > "{f}"' for f in group.procs_files())
        user = "".join(f"{shlex.quote(a)} " for a in as_nobody)
        helpers = "".join(f"{user}sh -c {shlex.quote(line.format(scratch=shlex.quote(str(scratch))))} && "
                          for line in self.launch)
        cmd = ["/bin/sh", "-c", f'{joins} && {helpers}exec "$@"', "sh", *args, *argv]
        if self.cpus:
            # pinned before the shell starts: bwrap, the step and every thread it makes inherit
            # the mask, so nothing of the step ever runs on another CPU
            cmd = [self.taskset, "--cpu-list", ",".join(map(str, self.cpus)), *cmd]
        return cmd, fd

    def _reachable(self, path: str) -> str:
        """Where bwrap finds ``path``: itself, or — where bwrap runs as uid 65534 and a parent
        directory is closed to it (a Python under /root) — a read-only bind mount of it made here,
        in the sandbox's private directory (which that uid may traverse, not list)."""
        if not self.unprivileged or _open_to_others(Path(path)):
            return path
        if path not in self._staged:
            stage = self._private / "paths" / str(len(self._staged))
            stage.mkdir(parents=True)
            for cmd in (["mount", "--bind", path, str(stage)], ["mount", "-o", "remount,bind,ro", str(stage)]):
                done = subprocess.run(cmd, capture_output=True, text=True)
                if done.returncode:
                    raise SandboxUnavailable(f"{path} is closed to the sandbox's user and could not be bound "
                                             f"where it can reach it: {done.stderr.strip()}")
            weakref.finalize(self, subprocess.run, ["umount", "-l", str(stage)], capture_output=True)
            self._staged[path] = str(stage)
        return self._staged[path]

    def _module_dirs(self) -> list[str]:
        """Directories holding :data:`STEP_MODULES` outside the system and Python environment."""
        inside = (Path("/usr"), Path(sys.prefix), Path(sys.base_prefix))
        out = []
        for name in STEP_MODULES:
            spec = importlib.util.find_spec(name)
            if spec is None or not spec.origin:
                continue
            where = Path(spec.origin).resolve().parent.parent  # the directory the package is in
            if any(where.is_relative_to(p) for p in inside) or PACKAGE_DIR.is_relative_to(where):
                continue
            out.append(str(where))
        return list(dict.fromkeys(out))

    def inner_environment(self, env: dict[str, str]) -> dict[str, str]:
        """Everything set inside the sandbox: ``env``, then the sandbox's own (which win)."""
        inner = {str(k): str(v) for k, v in env.items()}
        inner.update({
            "PYTHONPATH": os.pathsep.join([str(PACKAGE_DIR.parent), *self._module_dirs()]),
            "HOME": "/tmp", "TMPDIR": "/tmp",
            "PATH": "/usr/bin:/bin", "EKB_RLIMITS": json.dumps(self._rlimits()),
            # the package view is read-only anyway; no step tries to write bytecode into it
            "PYTHONDONTWRITEBYTECODE": "1",
            # PoCL's compiled-kernel cache goes to this step's own /tmp, never to scratch: the
            # scratch directory outlives the build step, which runs submitted code and could
            # plant a compiled binary there for the baseline kernel the run step compiles next.
            "POCL_CACHE_DIR": "/tmp/pocl-cache",
        })
        for k in inner:
            if not k or "=" in k or "\0" in k or "\0" in inner[k]:
                raise ValueError(f"not an environment variable name: {k!r}")
        return inner

    def _rlimits(self) -> dict:
        lim = self.limits
        out = {"RLIMIT_CPU": [lim.cpu_seconds, lim.cpu_seconds + 5], "RLIMIT_FSIZE": lim.file_bytes,
               "RLIMIT_NOFILE": lim.open_files, "RLIMIT_CORE": 0}
        if self.unprivileged:
            # counted over every process and thread of uid 65534 on the machine, so room for the
            # steps of one task at once (a candidate and its baselines each serve in their own)
            out["RLIMIT_NPROC"] = self.nproc_fallback()
        return out

    def cgroup(self) -> Cgroup:
        return Cgroup(self.limits.memory_bytes, self.limits.cpu_cores, self.limits.pids, self.layout.controllers)

    def nproc_fallback(self) -> int | None:
        """The RLIMIT_NPROC a step runs under where no pids controller limits it, else None."""
        return self.limits.pids * CONCURRENT_STEPS if self.unprivileged else None


def apply_rlimits_from_env() -> None:
    """Called first thing in the sandboxed child: lower its own rlimits (never raisable again
    without capabilities)."""
    spec = os.environ.get("EKB_RLIMITS")
    if not spec:
        return
    for name, value in json.loads(spec).items():
        soft, hard = (value, value) if isinstance(value, int) else value
        resource.setrlimit(getattr(resource, name), (soft, hard))
