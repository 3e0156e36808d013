"""``rpc:<key>``: a remote board registered with a TVM RPC tracker under ``<key>``.

Settings (environment of the evaluating process):

* ``EKB_RPC_TRACKER=host:port`` — the tracker boards register with (``python -m
  tvm.exec.rpc_tracker``). Without it no remote board is offered.
* ``EKB_RPC_TARGETS`` — JSON ``{"<key>": <TVM target as JSON>}``, what each board's code is built
  for, e.g. ``{"pi4": {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": ["+neon"]}}``.
  A key without an entry is built for this server's own CPU (a lab machine of the same kind).
  The target is configured rather than asked for: TVM's runtime on a board has no call that
  reports its triple and features, and a wrong guess would only surface as load failures.
* ``EKB_RPC_WAIT_S`` — how long a step waits for a busy board to become free (default 120 s).
* ``EKB_RPC_EMULATED=key1,key2`` — boards that are emulated (TVM's RPC server under qemu-user
  on this machine, ``evaluator.boards.qemu_aarch64``): their results are real, their times are
  the emulator's. Their ``BackendInfo`` says ``emulated`` and the device is
  ``<arch> under qemu-user <version> on <this CPU>``; the leaderboard never ranks their times.

:class:`RpcBuilder` (here): ``tvm.compile`` for the board's target; a target whose triple is not this
machine's is linked with ``<triple>-gcc`` (Debian ``gcc-aarch64-linux-gnu`` for aarch64) through
``tvm.support.cc.cross_compiler``. The ``tvm-default`` baseline is the CPU rule set (the base
class's), as for ``cpu-llvm``. There is no ``vendor`` baseline on a board and no measured peak
(so no roofline fraction): this machine's NumPy would time the wrong device.

:class:`RpcRunner`, and why its run step stays in the sandbox: the kernel runs on the board, but the run step talks
TVM's RPC protocol with a peer that executes submitted code — a kernel can take over its session
process and answer with crafted messages, and TVM's client was never meant to face a hostile
peer. So the run step is sandboxed exactly like ``cpu-llvm``'s (no network at all). The
evaluating process asks the tracker for a board, opens the TCP session to that one board itself,
and relays it into the sandbox through a Unix socket in the step's scratch directory
(:class:`Relay`); inside, TVM's pipe client starts a tiny relay process (:func:`pipe_main`) that
joins the socket to its pipes. The step can reach that one board and nothing else, and never
loads the artifact locally: it uploads bytes, and the board loads and times them (the remote
module's ``time_evaluator``; the harness's host clock still bounds what is reported).

Every wait has a limit: tracker and board connections (``CONNECT_S``), the queue for a busy
board (``EKB_RPC_WAIT_S``), the step's own wall clock (the harness), a session limit the board
enforces (the step's limit and ``SESSION_MARGIN_S``: a kernel that never returns holds the board
no longer), and TCP keepalive on the board connection. A tracker or board that is
gone raises :class:`RemoteUnavailable`. :class:`RpcBackend` is the two.
"""

from __future__ import annotations

import functools
import json
import os
import platform
import re
import shutil
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

from evaluator.backends.base import Backend, BackendInfo, BackendUnavailable, DeviceRunner, Kernel, TargetBuilder
from evaluator.backends.cpu_llvm import _cpuinfo, _CpuKernel, host_target
from evaluator.backends.emulation import EMULATED_ENV, EMULATED_MARK, emulated_keys

TRACKER_ENV = "EKB_RPC_TRACKER"
TARGETS_ENV = "EKB_RPC_TARGETS"
WAIT_ENV = "EKB_RPC_WAIT_S"
CHANNEL_ENV = "EKB_RPC_CHANNEL"  # set by the evaluating process for the run step only
KEY_RE = re.compile(r"[A-Za-z0-9._-]{1,64}")  # the bundle format's rule for rpc:<key>

CONNECT_S = 5.0  # connecting to and handshaking with the tracker or a board
ACCEPT_S = 60.0  # the run step connects to the relay within this long of being started
SESSION_MARGIN_S = 30  # the board ends a session this long after the run step's limit
DEFAULT_WAIT_S = 120.0
REGISTER_S = 10.0  # a board that just restarted registers again within this long
MAX_MESSAGE = 1 << 20  # a tracker's JSON answer
_ARCH_ALIASES = {"amd64": "x86_64", "x64": "x86_64", "arm64": "aarch64"}


class RemoteUnavailable(BackendUnavailable):
    """The tracker or the board cannot be reached, or no board with the key is free in time."""


# --- settings --------------------------------------------------------------------------------
def tracker_address() -> tuple[str, int] | None:
    """``EKB_RPC_TRACKER`` as (host, port), None when unset."""
    value = os.environ.get(TRACKER_ENV, "").strip()
    if not value:
        return None
    host, sep, port = value.rpartition(":")
    host = host.strip("[]")  # [::1]:9190
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise BackendUnavailable(f"{TRACKER_ENV}={value!r} is not host:port")
    return host, int(port)


def configured_targets() -> dict[str, dict]:
    """``EKB_RPC_TARGETS``: board key → TVM target (JSON form)."""
    text = os.environ.get(TARGETS_ENV, "").strip()
    if not text:
        return {}
    try:
        value = json.loads(text)
    except ValueError as e:
        raise BackendUnavailable(f"{TARGETS_ENV} is not valid JSON: {e}") from None
    if not isinstance(value, dict):
        raise BackendUnavailable(f"{TARGETS_ENV} must be a JSON object {{key: target}}")
    for key, target in value.items():
        if not KEY_RE.fullmatch(key):
            raise BackendUnavailable(f"{TARGETS_ENV}: {key!r} is not a board key (1-64 of A-Z a-z 0-9 . _ -)")
        if not isinstance(target, dict) or target.get("kind") != "llvm":
            raise BackendUnavailable(f"{TARGETS_ENV}[{key!r}] must be an llvm target such as "
                                     '{"kind": "llvm", "mtriple": "aarch64-linux-gnu"}; '
                                     "only CPU boards are supported so far")
    return value


@functools.lru_cache(maxsize=None)
def qemu_version(arch: str) -> str:
    """``qemu-<arch>``'s version as major.minor ("" when it is not installed)."""
    tool = shutil.which(f"qemu-{arch}")
    if tool is None:
        return ""
    try:
        out = subprocess.run([tool, "--version"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return ""
    found = re.search(r"version (\d+)\.(\d+)", out)
    return f"{found[1]}.{found[2]}" if found else ""


def emulated_device(arch: str) -> str:
    """An emulated ``arch`` board's device: ``aarch64 under qemu-user 7.2 on <this CPU>`` (the
    emulator runs on the evaluating machine)."""
    version = qemu_version(arch)
    return f"{arch}{EMULATED_MARK}{version + ' ' if version else ''}on {_cpuinfo()[0]}"


def board_target(key: str) -> dict:
    """What ``key``'s code is built for: its configured target, else this machine's CPU."""
    target = configured_targets().get(key)
    if target is None:  # the core count is the host's, not the board's: leave it out
        target = {k: v for k, v in host_target().items() if k != "num-cores"}
    return target


def _wait_s() -> float:
    value = os.environ.get(WAIT_ENV, "")
    try:
        return float(value) if value else DEFAULT_WAIT_S
    except ValueError:
        raise BackendUnavailable(f"{WAIT_ENV}={value!r} is not a number of seconds") from None


def _arch(name: str) -> str:
    name = name.split("-", 1)[0].lower()
    return _ARCH_ALIASES.get(name, name)


def cross_compiler(target: dict) -> str | None:
    """The C compiler that links code for ``target``: None for this machine's own, else
    ``<triple>-gcc``; raises when that is not installed."""
    triple = target.get("mtriple")
    if not triple or _arch(triple) == _arch(platform.machine()):
        return None
    cc = f"{triple}-gcc"
    if shutil.which(cc) is None:
        raise BackendUnavailable(f"the cross compiler {cc} for {triple} is not installed "
                                 f"(Debian: gcc-{triple.replace('_', '-')})")
    return cc


# --- the tracker -----------------------------------------------------------------------------
def _protocol():
    # the protocol's constants, from the library that defines them (heavy: TVM is imported on use)
    from tvm.rpc import base

    return base


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("the connection closed")
        buf += chunk
    return bytes(buf)


def _recv_int(sock: socket.socket) -> int:
    return struct.unpack("<i", _recv_exact(sock, 4))[0]


class Tracker:
    """A client of TVM's RPC tracker with a limit on every wait (TVM's own waits forever for a
    busy key)."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.where = f"{host}:{port}"

    def _open(self) -> socket.socket:
        base = _protocol()
        try:
            sock = socket.create_connection((self.host, self.port), timeout=CONNECT_S)
        except OSError as e:
            raise RemoteUnavailable(f"the RPC tracker at {self.where} does not answer: {e}") from None
        try:
            sock.sendall(struct.pack("<i", base.RPC_TRACKER_MAGIC))
            if _recv_int(sock) != base.RPC_TRACKER_MAGIC:
                raise RemoteUnavailable(f"{self.where} is not a TVM RPC tracker")
        except (OSError, ConnectionError) as e:
            sock.close()
            raise RemoteUnavailable(f"the RPC tracker at {self.where} does not answer: {e}") from None
        return sock

    def _call(self, sock: socket.socket, message: list):
        data = json.dumps(message).encode()
        sock.sendall(struct.pack("<i", len(data)) + data)
        size = _recv_int(sock)
        if not 0 < size <= MAX_MESSAGE:
            raise RemoteUnavailable(f"the RPC tracker at {self.where} sent a malformed answer")
        return json.loads(_recv_exact(sock, size))

    def summary(self) -> dict:
        """``{"queue_info": {key: {"free", "pending"}}, "server_info": [{"key", "addr"}]}``."""
        base = _protocol()
        sock = self._open()
        try:
            code, value = self._call(sock, [base.TrackerCode.SUMMARY])
        except (OSError, ConnectionError, ValueError, TypeError) as e:
            raise RemoteUnavailable(f"the RPC tracker at {self.where} does not answer: {e}") from None
        finally:
            sock.close()
        if code != base.TrackerCode.SUCCESS or not isinstance(value, dict):
            raise RemoteUnavailable(f"the RPC tracker at {self.where} refused the summary")
        return value

    def boards(self) -> dict[str, dict]:
        """Per key: registered board addresses and the queue counts."""
        s = self.summary()
        out: dict[str, dict] = {}
        for server in s.get("server_info", []):
            key = str(server.get("key", "")).removeprefix("server:")
            entry = out.setdefault(key, {"addrs": [], "free": 0, "pending": 0})
            entry["addrs"].append(":".join(map(str, server.get("addr", []))))
        for key, q in s.get("queue_info", {}).items():
            if key in out or q.get("free"):
                out.setdefault(key, {"addrs": [], "free": 0, "pending": 0}).update(
                    free=int(q.get("free", 0)), pending=int(q.get("pending", 0)))
        return out

    def request(self, key: str, wait_s: float) -> tuple[str, int, str]:
        """A board for ``key``: (host, port, match key); waits at most ``wait_s`` for a busy
        one, and ``REGISTER_S`` for one to register (a board restarting after a crash)."""
        base = _protocol()
        deadline = time.monotonic() + REGISTER_S
        while key not in self.boards():
            if time.monotonic() > deadline:
                raise RemoteUnavailable(f"no board with key {key!r} is registered with the RPC tracker "
                                        f"at {self.where}")
            time.sleep(0.5)
        sock = self._open()
        try:
            sock.settimeout(wait_s)
            code, value = self._call(sock, [base.TrackerCode.REQUEST, key, "", 1])
        except TimeoutError:
            raise RemoteUnavailable(f"no board with key {key!r} became free within {wait_s:g} s "
                                    f"(tracker {self.where})") from None
        except (OSError, ConnectionError, ValueError, TypeError) as e:
            raise RemoteUnavailable(f"the RPC tracker at {self.where} failed the request: {e}") from None
        finally:
            sock.close()  # a request left waiting is dropped by the tracker with its connection
        if code != base.TrackerCode.SUCCESS or not isinstance(value, list) or len(value) != 3:
            raise RemoteUnavailable(f"the RPC tracker at {self.where} refused the request for {key!r}")
        host, port, matchkey = value
        return str(host), int(port), str(matchkey)


# --- the session relay -----------------------------------------------------------------------
def open_board(host: str, port: int, matchkey: str, session_s: int) -> socket.socket:
    """Connect to the board the tracker assigned and complete TVM's RPC handshake; what follows
    on the socket is the RPC session itself."""
    base = _protocol()
    where = f"{host}:{port}"
    try:
        sock = socket.create_connection((host, port), timeout=CONNECT_S)
    except OSError as e:
        raise RemoteUnavailable(f"the board at {where} does not answer: {e}") from None
    try:
        key = f"client:{matchkey} -timeout={session_s}".encode()
        sock.sendall(struct.pack("<ii", base.RPC_MAGIC, len(key)) + key)
        code = _recv_int(sock)
        if code == base.RPC_CODE_MISMATCH:
            raise RemoteUnavailable(f"the board at {where} no longer holds the tracker's session key")
        if code != base.RPC_CODE_SUCCESS:
            raise RemoteUnavailable(f"{where} is not a TVM RPC server (answer {code})")
        size = _recv_int(sock)
        if not 0 <= size <= 4096:
            raise RemoteUnavailable(f"the board at {where} sent a malformed handshake")
        _recv_exact(sock, size)  # the board's own key
    except (OSError, ConnectionError) as e:
        sock.close()
        raise RemoteUnavailable(f"the board at {where} broke off the handshake: {e}") from None
    except RemoteUnavailable:
        sock.close()
        raise
    sock.settimeout(None)
    # A board that vanishes without closing (power, network) is noticed in about half a minute.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    for opt, value in (("TCP_KEEPIDLE", 10), ("TCP_KEEPINTVL", 5), ("TCP_KEEPCNT", 3)):
        if hasattr(socket, opt):
            sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, opt), value)
    return sock


def _pump(src: socket.socket, dst: socket.socket) -> None:
    """Copy until either side ends, then end both (the other direction's copy then stops)."""
    try:
        while data := src.recv(1 << 16):
            dst.sendall(data)
    except OSError:
        pass
    finally:
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class Relay:
    """One run step's RPC session: a Unix socket at ``path`` (inside the step's scratch
    directory) joined to the board's TCP connection. It accepts one connection, within
    ``ACCEPT_S``, and ends when either side closes."""

    def __init__(self, board: socket.socket, path: Path):
        if len(os.fsencode(path)) >= 108:  # sockaddr_un's limit
            board.close()
            raise BackendUnavailable(f"the scratch path {path} is too long for a Unix socket; "
                                     "set EKB_SCRATCH_ROOT to a shorter directory")
        self.board, self.path = board, path
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(str(path))
        os.chmod(path, 0o666)  # the step runs as another user
        self.listener.listen(1)
        self.listener.settimeout(ACCEPT_S)
        self.thread = threading.Thread(target=self._run, name=f"ekb-rpc-relay-{path.parent.name}",
                                       daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return  # the step never came: give the board back
            finally:
                self.listener.close()
                self.path.unlink(missing_ok=True)  # one session, one connection
            back = threading.Thread(target=_pump, args=(self.board, conn), daemon=True)
            back.start()
            _pump(conn, self.board)
            back.join()
            conn.close()
        finally:
            self.board.close()


def pipe_main(path: str, read_fd: str, write_fd: str) -> None:
    """Inside the sandbox: the process TVM's pipe client starts (it appends its two pipe fds),
    joining those pipes to the relay's Unix socket."""
    rfd, wfd = int(read_fd), int(write_fd)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(path)

    def up() -> None:
        try:
            while data := os.read(rfd, 1 << 16):
                sock.sendall(data)
        except OSError:
            pass
        os._exit(0)

    threading.Thread(target=up, daemon=True).start()
    try:
        while data := sock.recv(1 << 16):
            view = memoryview(data)
            while view:
                view = view[os.write(wfd, view):]
    except OSError:
        pass
    os._exit(0)


# --- the backend -----------------------------------------------------------------------------
_SESSION_LOST = ("the board's session ended during the call: the kernel crashed the board's "
                 "session process, or the board went away")
# What TVM's client says when the session's other end is gone (its process died, or the relay
# closed because the board's connection did).
_LOST_MARKS = ("code=kShutdown", "Channel closes before", "connection was previously closed",
               "Pipe read error", "Pipe write error")


class _RemoteKernel(_CpuKernel):
    """The same calls as on the host CPU, on a remote module and device; a lost session is said
    in words instead of TVM's protocol assertion."""

    def __call__(self, inputs, outputs):
        try:
            return super().__call__(inputs, outputs)
        except Exception as e:  # noqa: BLE001 - re-raised, reworded only when the session is gone
            if any(mark in str(e) for mark in _LOST_MARKS):
                raise RuntimeError(_SESSION_LOST) from None
            raise


def _board_key(key: str) -> str:
    if not KEY_RE.fullmatch(key):
        raise BackendUnavailable(f"backend 'rpc:{key}': a board key is 1-64 characters of "
                                 "A-Z a-z 0-9 . _ -")
    return key


class RpcBuilder(TargetBuilder):
    """Builds for board ``key``'s configured target (``EKB_RPC_TARGETS``), cross-linked where its
    triple is not this machine's."""

    vendor_baseline = False  # this machine's NumPy would time the wrong device

    def __init__(self, key: str):
        self.key = _board_key(key)
        self.name = f"rpc:{key}"

    def target(self) -> dict:
        return board_target(self.key)

    def build_env(self) -> dict[str, str]:
        # the step starts with a cleared environment: it gets this board's target only
        return {TARGETS_ENV: json.dumps({self.key: self.target()})}

    def build(self, mod, path: str) -> None:
        # heavy: TVM is imported on use, never with this module
        import tvm
        from tvm.support import cc

        target = self.target()
        compiler = cross_compiler(target)
        ex = tvm.compile(mod, target=tvm.target.Target(target))
        ex.export_library(path, fcompile=cc.cross_compiler(compiler) if compiler else None)


class RpcRunner(DeviceRunner):
    """Board ``key``, through the tracker: a session opened by the evaluating process and relayed
    into the sandboxed run step, which uploads the artifact and times it on the board."""

    # The board's rpc_server holds one session at a time: the candidate and the baselines share
    # the run step's process (the baselines load first) and the board's session process, as
    # they share the board itself; the parent still times every sample.
    one_session = True
    max_slots = 16

    def __init__(self, key: str):
        self.key = _board_key(key)
        self.name = f"rpc:{key}"
        self._remote = None
        self._loaded = 0
        if key in emulated_keys():
            # Its times are never ranked, so fresh inputs per call buy nothing, and every slot
            # is uploaded through an emulated RPC server (about 2.5 MB/s): two slots.
            self.max_slots = 2

    # --- description -------------------------------------------------------------------------
    def device_target(self) -> dict:
        return board_target(self.key)  # configured, never asked of the board (see the top)

    def info(self) -> BackendInfo:
        try:
            tracker = _tracker()
            boards = tracker.boards()
        except BackendUnavailable as e:
            return _unavailable(self.key, str(e))
        return _board_info(self.key, boards.get(self.key), tracker.where)

    def measure_peaks(self) -> None:
        return None  # the board's peaks cannot be measured from here: no roofline fraction

    def child_env(self) -> dict[str, str]:
        # the steps start with a cleared environment: they get this board's target only
        env = {TARGETS_ENV: json.dumps({self.key: self.device_target()})}
        if self.key in emulated_keys():
            env[EMULATED_ENV] = self.key
        return env

    # --- the evaluating process's side -------------------------------------------------------
    def prepare_run(self, scratch: Path, limit_s: float) -> dict[str, str]:
        """Before the run step starts: take a board from the tracker, open the session and relay
        it into ``scratch``; returns the step's environment. Raises :class:`RemoteUnavailable`."""
        host, port, matchkey = _tracker().request(self.key, _wait_s())
        # The board ends the session itself soon after the step's own limit: a kernel that
        # never returns holds the board no longer than that.
        session_s = int(limit_s + SESSION_MARGIN_S)
        relay = Relay(open_board(host, port, matchkey, session_s), Path(scratch) / "rpc.sock")
        return {CHANNEL_ENV: str(relay.path)}

    # --- inside the run step -----------------------------------------------------------------
    def _session(self):
        if self._remote is None:
            # heavy: TVM is imported on use, never with this module
            from tvm import rpc
            from tvm.rpc import _ffi_api

            path = os.environ.get(CHANNEL_ENV)
            if not path:
                raise RuntimeError(f"backend {self.name!r}: the run step has no session with the "
                                   "board (the evaluating process opens it before the step)")
            # TVM's pipe client starts this command with its pipe fds appended.
            relay = [sys.executable, "-P", "-s", "-c",
                     "import sys; from evaluator.backends.rpc import pipe_main; pipe_main(*sys.argv[1:])",
                     path]
            self._remote = rpc.RPCSession(_ffi_api.CreatePipeClient(*relay))
        return self._remote

    def device(self):
        return self._session().cpu(0)

    def load(self, path: str, graph: bool) -> Kernel:
        remote = self._session()
        self._loaded += 1
        name = f"{self._loaded}-{Path(path).name}"  # bytes only: nothing is loaded here
        remote.upload(path, name)
        return _RemoteKernel(remote.load_module(name), self.device(), graph)


class RpcBackend(RpcBuilder, RpcRunner, Backend):
    """Board ``key``: built for here, run there."""

    def __init__(self, key: str):
        RpcBuilder.__init__(self, key)
        RpcRunner.__init__(self, key)


def _arch_of(target: dict) -> str:
    return str(target.get("mcpu") or target.get("mtriple") or "")


def _tracker() -> Tracker:
    addr = tracker_address()
    if addr is None:
        raise RemoteUnavailable(f"no RPC tracker is configured (set {TRACKER_ENV}=host:port)")
    return Tracker(*addr)


def _unavailable(key: str, reason: str) -> BackendInfo:
    try:
        target = board_target(key)
    except BackendUnavailable:
        target = {}
    return BackendInfo(f"rpc:{key}", False, reason, "", _arch_of(target), target,
                       emulated=key in emulated_keys())


def _board_info(key: str, board: dict | None, where: str) -> BackendInfo:
    try:
        target = board_target(key)
        cross_compiler(target)
    except BackendUnavailable as e:
        return _unavailable(key, str(e))
    if not board or not board["addrs"]:
        return _unavailable(key, f"no board with key {key!r} is registered with the RPC tracker at {where}")
    if key in emulated_keys():  # the board's identity is the emulator and the CPU under it
        arch = _arch(str(target.get("mtriple") or platform.machine()))
        return BackendInfo(f"rpc:{key}", True, "", emulated_device(arch), _arch_of(target), target, emulated=True)
    # the device names the board and what it is built for, never its live state: a board's
    # results are grouped by this string, and addresses and queue counts change between jobs
    arch = _arch(str(target.get("mtriple") or platform.machine()))
    device = f"TVM RPC board {key!r} ({arch}) via tracker {where}"
    state = (f"{len(board['addrs'])} registered at {', '.join(board['addrs'])}, {board['free']} free, "
             f"{board['pending']} waiting")
    return BackendInfo(f"rpc:{key}", True, "", device, _arch_of(target), target, state=state)


def infos() -> list[BackendInfo]:
    """One ``rpc:<key>`` entry per board key the tracker reports and per configured key; when
    the tracker cannot be asked, each configured key (or one ``rpc:*`` entry) says why."""
    try:
        targets = configured_targets()
    except BackendUnavailable as e:
        return [BackendInfo("rpc:*", False, str(e), "", "")]
    try:
        tracker = _tracker()
        boards = tracker.boards()
    except BackendUnavailable as e:
        return [_unavailable(k, str(e)) for k in targets] or [BackendInfo("rpc:*", False, str(e), "", "")]
    keys = sorted({k for k in boards if KEY_RE.fullmatch(k)} | set(targets))
    return [_board_info(k, boards.get(k), tracker.where) for k in keys]
