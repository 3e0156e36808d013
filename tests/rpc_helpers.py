"""A real TVM RPC tracker and board (``rpc_server``) on 127.0.0.1 for the ``rpc:<key>`` tests.

Each runs in its own session (process group): TVM starts both in ``popen_worker`` children that
outlive a killed launcher, so a stop kills the whole group. The board executes submitted kernels,
so it runs sandboxed where this machine can: bubblewrap (no capabilities; its own user, mount and
pid namespaces, as uid 65534 there; a read-only system and Python environment; its own /tmp; the
host's network, since it must reach the tracker and be reached) inside a cgroup with memory and
process limits, which a stop kills whole.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from evaluator.backends.rpc import RemoteUnavailable, Tracker

HOST = "127.0.0.1"
BOARD_SCRIPT = Path(__file__).resolve().parents[1] / "examples" / "rpc_board.py"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class Service:
    """One background process group with its log."""

    def __init__(self, name: str, argv: list[str], env: dict | None = None, group=None):
        self.name, self.group = name, group
        self.log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(argv, stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     env=env, start_new_session=True)

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace")[-3000:]

    def stop(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(timeout=30)
        if self.group is not None:  # whatever left the process group is still in the cgroup
            self.group.kill()
            self.group.remove()
        self.log.close()


def wait_until(check, timeout: float, what: str, service: Service) -> None:
    """Poll ``check`` until true; on failure the service is stopped and its log reported."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if check():
                return
        except RemoteUnavailable:
            pass
        if service.proc.poll() is not None or time.monotonic() > deadline:
            log = service.output()
            service.stop()
            raise RuntimeError(f"{what} did not happen within {timeout} s:\n{log}")
        time.sleep(0.2)


def start_tracker() -> tuple[Service, int]:
    port = free_port()
    svc = Service("tracker", [sys.executable, "-m", "tvm.exec.rpc_tracker", "--host", HOST,
                              "--port", str(port), "--port-end", str(port + 1), "--silent"])
    wait_until(lambda: Tracker(HOST, port).summary() is not None, 30, "the tracker answering", svc)
    return svc, port


def board_sandbox(binds: tuple[str, ...] = ()) -> tuple[list[str], object] | None:
    """The bubblewrap prefix and cgroup a board runs in, or None where there is no sandbox;
    ``binds``: more paths it sees read-only (an emulated board's aarch64 tree)."""
    from evaluator.sandbox import probe
    from evaluator.sandbox.cgroup import Cgroup

    if probe() is not None:
        return None
    group = Cgroup(2 << 30, 1.0, 128)
    args = ["bwrap", "--unshare-all", "--share-net", "--unshare-user", "--disable-userns",
            "--die-with-parent", "--cap-drop", "ALL", "--uid", "65534", "--gid", "65534",
            "--ro-bind", "/usr", "/usr"]
    for name in ("lib", "lib64", "bin", "sbin"):
        if Path("/usr", name).exists():
            args += ["--symlink", f"usr/{name}", f"/{name}"]
    args += ["--ro-bind", "/etc/ld.so.cache", "/etc/ld.so.cache", "--tmpfs", "/tmp"]
    for p in dict.fromkeys([sys.base_prefix, sys.prefix, str(BOARD_SCRIPT), *binds]):
        args += ["--ro-bind", p, p]
    args += ["--proc", "/proc", "--dev", "/dev", "--remount-ro", "/", "--chdir", "/tmp", "--clearenv",
             "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "HOME", "/tmp", "--setenv", "TMPDIR", "/tmp",
             "--"]
    joins = "; ".join(f'echo $$ > "{f}"' for f in group.procs_files())
    return ["/bin/sh", "-c", f'{joins} && exec "$@"', "sh", *args], group


def start_board(tracker_port: int, key: str, python: str = sys.executable, binds: tuple[str, ...] = (),
                timeout: float = 30) -> tuple[Service, bool]:
    """A board (``examples/rpc_board.py``: TVM's ``rpc_server``, restarted when it stops
    serving) registered under ``key``, run by ``python`` (another machine's Python under
    qemu-user: ``evaluator.boards.qemu_aarch64``, whose tree is in ``binds``); returns it and
    whether it is sandboxed."""
    port = free_port()
    argv = [python, str(BOARD_SCRIPT), "--host", HOST, "--port", str(port),
            "--port-end", str(port + 1), "--tracker", f"{HOST}:{tracker_port}", "--key", key]
    box = board_sandbox(binds)
    if box is None:
        svc = Service(f"board {key}", argv)
    else:
        prefix, group = box
        svc = Service(f"board {key}", prefix + argv, env={"PATH": "/usr/bin:/bin"}, group=group)
    wait_until(lambda: key in Tracker(HOST, tracker_port).boards(), timeout, f"board {key!r} registering", svc)
    return svc, box is not None


def have_cross_toolchain() -> str | None:
    """Why the aarch64 checks cannot run here, or None."""
    for tool in ("aarch64-linux-gnu-gcc", "qemu-aarch64"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (make install: gcc-aarch64-linux-gnu, qemu-user)"
    return None


# A C driver for an exported kernel library: dlopen it, call its entry point through the TVM FFI
# calling convention with DLTensor arguments read from / written to raw files.
DRIVER_C = r"""
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tvm/ffi/c_api.h>

typedef int (*entry_fn)(void*, const TVMFFIAny*, int32_t, TVMFFIAny*);

/* The one runtime function a kernel library calls (to report a bad argument); exported from
   this executable (-rdynamic) in place of TVM's runtime library. */
void TVMFFIErrorSetRaisedFromCStrParts(const char* kind, const char** parts, int32_t n) {
  fprintf(stderr, "%s: ", kind);
  for (int32_t i = 0; i < n; i++) if (parts[i]) fputs(parts[i], stderr);
  fputc('\n', stderr);
}

/* usage: driver LIB.so NDIM_0 D0 D1 .. FILE_0  NDIM_1 ..  (each tensor float32) */
int main(int argc, char** argv) {
  void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) { fprintf(stderr, "dlopen: %s\n", dlerror()); return 2; }
  entry_fn f = (entry_fn)dlsym(lib, "__tvm_ffi_main");
  if (!f) { fprintf(stderr, "no __tvm_ffi_main\n"); return 3; }
  DLTensor t[8]; int64_t shapes[8][8]; TVMFFIAny args[8]; const char* files[8]; int n = 0;
  for (int i = 2; i < argc && n < 8; n++) {
    int ndim = atoi(argv[i++]); size_t count = 1;
    for (int d = 0; d < ndim; d++) { shapes[n][d] = atoll(argv[i++]); count *= shapes[n][d]; }
    files[n] = argv[i++];
    float* data = calloc(count, sizeof(float));
    FILE* fp = fopen(files[n], "rb");
    if (fp) { if (fread(data, sizeof(float), count, fp) != count) return 4; fclose(fp); }
    memset(&t[n], 0, sizeof(DLTensor));
    t[n].data = data; t[n].device.device_type = kDLCPU; t[n].ndim = ndim;
    t[n].dtype.code = kDLFloat; t[n].dtype.bits = 32; t[n].dtype.lanes = 1; t[n].shape = shapes[n];
    memset(&args[n], 0, sizeof(TVMFFIAny));
    args[n].type_index = kTVMFFIDLTensorPtr; args[n].v_ptr = &t[n];
  }
  TVMFFIAny result; memset(&result, 0, sizeof(result)); result.type_index = kTVMFFINone;
  int rc = f(NULL, args, n, &result);
  if (rc != 0) { fprintf(stderr, "kernel returned %d\n", rc); return 5; }
  /* the last tensor is the output */
  size_t count = 1;
  for (int d = 0; d < t[n - 1].ndim; d++) count *= t[n - 1].shape[d];
  FILE* fp = fopen(files[n - 1], "wb");
  fwrite(t[n - 1].data, sizeof(float), count, fp); fclose(fp);
  return 0;
}
"""


EXAMPLE_BUNDLES = Path(__file__).resolve().parents[1] / "examples" / "bundles"


def board_bundle(tmp_path: Path, picks: list[tuple[str, str]], key: str, name: str) -> Path:
    """A bundle of (example bundle, workload) cpu-llvm entries, retargeted to the board ``rpc:<key>``."""
    entries = []
    for source, wid in picks:
        manifest = json.loads((EXAMPLE_BUNDLES / source / "manifest.json").read_text())
        e = next(e for e in manifest["entries"] if e["workload"] == wid and e["backend"] == "cpu-llvm")
        dest = tmp_path / source / e["file"]
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(EXAMPLE_BUNDLES / source / e["file"], dest)
        entries.append({"workload": wid, "backend": f"rpc:{key}", "format": e["format"],
                        "file": f"{source}/{e['file']}"})
    (tmp_path / "manifest.json").write_text(json.dumps({
        "schema": "edgekernelbench/bundle@1", "name": name, "entries": entries}))
    return tmp_path
