"""An emulated aarch64 board: TVM's RPC server in an aarch64 Python, run by qemu-user here.

    python -m evaluator.boards.qemu_aarch64 provision        # make target: board-aarch64
    python -m evaluator.boards.qemu_aarch64 serve --tracker 127.0.0.1:9190 --key aarch64-qemu

``provision`` builds ``var/boards/aarch64/`` (ignored): ``sysroot/`` holds Debian bookworm's
arm64 Python 3.11 and the libraries it loads (``apt-get download`` through a private arm64
package list, so the system's dpkg never gains an architecture; unpacked with ``dpkg -x``) and,
in its ``dist-packages``, the aarch64 wheels of TVM, its FFI, NumPy and the RPC server's imports
at requirements.txt's pins (the board speaks TVM's RPC protocol with this machine's TVM: the
versions must be the same). TVM's compiler library is left out: a board loads and runs built
kernels only, and TVM 0.27 falls back to its runtime library when the compiler's is absent.
``bin/python3`` runs that Python under ``qemu-aarch64``. It is idempotent: a second run with the
same pins only reads ``provisioned.json``.

``serve`` starts ``examples/rpc_board.py`` in that Python. Its artifacts are the ones built for
``{"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": ["+neon"]}`` and cross-linked with
``aarch64-linux-gnu-gcc``: correctness there is real, times are the emulator's (see
``evaluator.boards``: list the key in ``EKB_RPC_EMULATED``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ROOT = REPO / "var" / "boards" / "aarch64"
BOARD_SCRIPT = REPO / "examples" / "rpc_board.py"
KEY = "aarch64-qemu"
TARGET = {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": ["+neon"]}

# --- the pins: this is the one place for the board's Debian packages --------------------------
DEBIAN_ARCH = "arm64"
PYTHON_VERSION = "3.11"  # bookworm's; the wheels below are its cp311 builds
# Python itself and what it and the wheels load (TVM's runtime: libstdc++, libgcc; tornado: ssl).
# Debian replaces a version when it publishes a fix; provisioning then takes the release's
# current one, says so, and records it in provisioned.json.
DEBS = {
    "python3.11-minimal": "3.11.2-6+deb12u9",
    "libpython3.11-minimal": "3.11.2-6+deb12u9",
    "libpython3.11-stdlib": "3.11.2-6+deb12u9",
    "libc6": "2.36-9+deb12u14",
    "libgcc-s1": "12.2.0-14+deb12u1",
    "libstdc++6": "12.2.0-14+deb12u1",
    "zlib1g": "1:1.2.13.dfsg-1+deb12u1",
    "libexpat1": "2.5.0-1+deb12u5",
    "libssl3": "3.0.22-1~deb12u2",
    "libffi8": "3.4.4-1",
    "libbz2-1.0": "1.0.8-5+b1",
    "liblzma5": "5.4.1-1+deb12u2",
    "libsqlite3-0": "3.40.1-2+deb12u2",
    "libuuid1": "2.38.1-5+deb12u3",
    "libcrypt1": "1:4.4.33-2",
}
# The wheels, at requirements.txt's pins: TVM and its FFI, NumPy (tvm.runtime imports it and
# ml_dtypes), and what tvm.rpc.server and tvm_ffi import (psutil, cloudpickle, tornado,
# typing_extensions, packaging).
WHEELS = ("apache-tvm", "apache-tvm-ffi", "numpy", "ml_dtypes", "psutil", "cloudpickle", "tornado",
          "typing_extensions", "packaging")
WHEEL_PLATFORM = "manylinux_2_28_aarch64"  # bookworm's glibc is 2.36
# Parts of the wheels a board never loads (240 MB of TVM's compiler among them).
DROP = ("tvm/lib/libtvm_compiler.so", "tvm/lib/libtvm_runtime_cuda.so")


class ProvisionError(RuntimeError):
    pass


def sysroot(root: Path = ROOT) -> Path:
    return root / "sysroot"


def python(root: Path = ROOT) -> Path:
    """The board's Python: a script running the aarch64 interpreter under qemu-aarch64."""
    return root / "bin" / "python3"


def stamp_path(root: Path = ROOT) -> Path:
    return root / "provisioned.json"


def wheel_pins(requirements: Path = REPO / "requirements.txt") -> dict[str, str]:
    """``WHEELS`` at the versions requirements.txt pins."""
    pins = {}
    for line in requirements.read_text().splitlines():
        found = re.match(r"\s*([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?\s*==\s*([^\s#;]+)", line)
        if found:
            pins[_norm(found[1])] = found[2]
    missing = [w for w in WHEELS if _norm(w) not in pins]
    if missing:
        raise ProvisionError(f"requirements.txt pins no version of {', '.join(missing)}")
    return {w: pins[_norm(w)] for w in WHEELS}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _digest() -> str:
    data = json.dumps({"debs": DEBS, "wheels": wheel_pins(), "drop": DROP, "platform": WHEEL_PLATFORM},
                      sort_keys=True)
    return hashlib.sha256(data.encode()).hexdigest()[:16]


def missing_tools() -> str | None:
    """Why this machine cannot provision or run the board, or None."""
    for tool in ("qemu-aarch64", "apt-get", "dpkg", "aarch64-linux-gnu-gcc"):
        if shutil.which(tool) is None:
            return (f"{tool} is not installed (make install: qemu-user, gcc-aarch64-linux-gnu, "
                    "libc6-dev-arm64-cross; a Debian system)")
    return None


def provisioned(root: Path = ROOT) -> dict | None:
    """The provisioning record when the tree is there at the current pins, else None."""
    try:
        record = json.loads(stamp_path(root).read_text())
    except (OSError, ValueError):
        return None
    if record.get("digest") != _digest() or not python(root).exists():
        return None
    return record


def why_unavailable(root: Path = ROOT) -> str | None:
    """Why the board cannot be served here (for a test's skip), or None."""
    if (reason := missing_tools()) is not None:
        return reason
    if provisioned(root) is None:
        return f"the aarch64 board is not provisioned at {root} (make board-aarch64)"
    return None


def _run(argv: list[str], what: str, **kw) -> subprocess.CompletedProcess:
    proc = subprocess.run(argv, capture_output=True, text=True, **kw)
    if proc.returncode != 0:
        raise ProvisionError(f"{what} failed ({proc.returncode}): {(proc.stderr or proc.stdout)[-1500:]}")
    return proc


def _download_debs(work: Path, log) -> dict[str, str]:
    """The pinned arm64 .debs into ``work``; returns package → version fetched."""
    lists, cache = work / "lists", work / "cache"
    (lists / "partial").mkdir(parents=True)
    (cache / "archives" / "partial").mkdir(parents=True)
    # A private package list for arm64 only: the system's lists and dpkg are left as they are.
    apt = ["apt-get", "-q", f"-oAPT::Architecture={DEBIAN_ARCH}", f"-oAPT::Architectures={DEBIAN_ARCH}",
           f"-oDir::State::Lists={lists}", f"-oDir::Cache={cache}", "-oDebug::NoLocking=1",
           "-oAPT::Sandbox::User=root"]
    _run(apt + ["update"], "apt-get update (arm64 list)", timeout=300)
    debs = work / "debs"
    debs.mkdir()
    got = {}
    for name, version in DEBS.items():
        try:
            _run(apt + ["download", f"{name}={version}"], f"apt-get download {name}={version}", cwd=debs, timeout=300)
        except ProvisionError:
            log(f"  {name} {version} is no longer published; taking the release's current one")
            _run(apt + ["download", name], f"apt-get download {name}", cwd=debs, timeout=300)
        (deb,) = debs.glob(f"{name}_*.deb")
        got[name] = _run(["dpkg-deb", "-f", str(deb), "Version"], "dpkg-deb").stdout.strip()
    return got


def _download_wheels(work: Path) -> list[str]:
    wheels = work / "wheels"
    pins = wheel_pins()
    _run([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
          "--only-binary=:all:", "--platform", WHEEL_PLATFORM, "--python-version", PYTHON_VERSION,
          "--implementation", "cp", "--abi", f"cp{PYTHON_VERSION.replace('.', '')}", "-d", str(wheels),
          *(f"{n}=={v}" for n, v in pins.items())], "pip download (aarch64 wheels)", timeout=900)
    return sorted(p.name for p in wheels.glob("*.whl"))


WRAPPER = """#!/bin/sh
# The aarch64 board's Python under qemu-user (written by evaluator/boards/qemu_aarch64.py).
# -0 makes sys.executable this script: TVM's RPC server starts its workers with it, and this
# machine's kernel cannot run an aarch64 binary by itself.
here=$(cd "$(dirname "$0")/.." && pwd)
root="$here/sysroot"
exec env -u PYTHONPATH -u PYTHONSTARTUP PYTHONHOME="$root/usr" PYTHONNOUSERSITE=1 \\
  PYTHONDONTWRITEBYTECODE=1 TVM_USE_RUNTIME_LIB=1 \\
  qemu-aarch64 -L "$root" -0 "$here/bin/python3" "$root/usr/bin/python{version}" "$@"
"""


def _build(tree: Path, work: Path, log) -> dict:
    root = sysroot(tree)
    root.mkdir(parents=True)
    log("fetching Debian arm64 packages")
    debs = _download_debs(work, log)
    for deb in sorted((work / "debs").glob("*.deb")):
        _run(["dpkg", "-x", str(deb), str(root)], f"dpkg -x {deb.name}")
    shutil.rmtree(root / "usr" / "share", ignore_errors=True)  # docs, man pages, locales
    log("fetching aarch64 wheels")
    wheels = _download_wheels(work)
    site = root / "usr" / "lib" / "python3" / "dist-packages"  # Debian's path for them
    site.mkdir(parents=True, exist_ok=True)
    for name in wheels:
        with zipfile.ZipFile(work / "wheels" / name) as z:
            z.extractall(site)
    for rel in DROP:
        (site / rel).unlink(missing_ok=True)
    (tree / "bin").mkdir()
    wrapper = python(tree)
    wrapper.write_text(WRAPPER.format(version=PYTHON_VERSION))
    wrapper.chmod(0o755)
    # The board runs from a read-only tree: its bytecode is written now. The same Python
    # version here writes the same bytecode, in a fraction of qemu's time.
    log("compiling bytecode")
    dirs = [str(root / "usr" / "lib" / f"python{PYTHON_VERSION}"), str(site)]
    here = f"{sys.version_info[0]}.{sys.version_info[1]}" == PYTHON_VERSION
    compiler = [sys.executable] if here else [str(wrapper)]
    # (a few files are not Python 3 on purpose: lib2to3's test data; compileall skips them)
    subprocess.run(compiler + ["-m", "compileall", "-q", "-j", "0" if here else "1", *dirs],
                   capture_output=True, timeout=1800)
    return {"debs": debs, "wheels": wheels}


def measure_import(root: Path = ROOT) -> dict:
    """Seconds to start the board's Python and to ``import tvm`` in it, under qemu."""
    t0 = time.perf_counter()
    out = _run([str(python(root)), "-c",
                "import time, platform; t = time.perf_counter(); import tvm, tvm.rpc; "
                "print(platform.machine(), tvm.__version__, time.perf_counter() - t)"],
               "importing tvm in the board's Python", timeout=600).stdout.split()
    total = time.perf_counter() - t0
    if out[0] != "aarch64":
        raise ProvisionError(f"the board's Python reports machine {out[0]!r}, not aarch64")
    return {"machine": out[0], "tvm": out[1], "import_tvm_s": round(float(out[2]), 2),
            "process_s": round(total, 2)}


def provision(root: Path = ROOT, force: bool = False, log=print) -> dict:
    """Make the board's tree at ``root`` (nothing to do when it is there at the current pins);
    returns its record."""
    if not force and (record := provisioned(root)) is not None:
        return record
    if (reason := missing_tools()) is not None:
        raise ProvisionError(reason)
    root.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="ekb-board-", dir=root.parent) as tmp:
        work, tree = Path(tmp) / "work", Path(tmp) / "tree"
        work.mkdir()
        record = {"digest": _digest(), "target": TARGET, **_build(tree, work, log)}
        log("measuring import tvm under qemu")
        record["measured"] = measure_import(tree)
        (tree / "provisioned.json").write_text(json.dumps(record, indent=1) + "\n")
        if root.exists():  # replaced whole: nothing of an older pin set stays
            shutil.rmtree(root)
        tree.rename(root)
    return record


def serve_argv(tracker: str, key: str = KEY, host: str = "127.0.0.1", port: int = 9090, port_end: int = 9199,
               root: Path = ROOT, script: Path = BOARD_SCRIPT) -> list[str]:
    """The command that serves the board (``examples/rpc_board.py`` in the board's Python)."""
    return [str(python(root)), str(script), "--tracker", tracker, "--key", key, "--host", host,
            "--port", str(port), "--port-end", str(port_end)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluator.boards.qemu_aarch64",
                                     description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("provision", help="make var/boards/aarch64 (idempotent)")
    p.add_argument("--force", action="store_true", help="make it again even when it is there")
    s = sub.add_parser("serve", help="serve the board to a tracker")
    s.add_argument("--tracker", required=True, help="host:port")
    s.add_argument("--key", default=KEY)
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=9090)
    s.add_argument("--port-end", type=int, default=9199)
    args = parser.parse_args(argv)
    if args.cmd == "provision":
        try:
            record = provision(force=args.force, log=lambda msg: print(msg, file=sys.stderr))
        except ProvisionError as e:
            print(f"the aarch64 board was not provisioned: {e}", file=sys.stderr)
            return 1
        m = record.get("measured", {})
        print(f"aarch64 board at {ROOT.relative_to(REPO)}: TVM {m.get('tvm')}, import tvm under qemu "
              f"{m.get('import_tvm_s')} s ({m.get('process_s')} s with the interpreter's start)")
        return 0
    if (reason := why_unavailable()) is not None:
        print(reason, file=sys.stderr)
        return 1
    argv = serve_argv(args.tracker, args.key, args.host, args.port, args.port_end)
    os.execv(argv[0], argv)
    return 1  # not reached


if __name__ == "__main__":
    sys.exit(main())
