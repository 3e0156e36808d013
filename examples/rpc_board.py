"""Serve this board to EdgeKernelBench: TVM's RPC server, registered with the tracker under a
key, and started again whenever it stops serving. Copy this one file to the board; it needs only
TVM's Python package with its RPC dependencies (cloudpickle, psutil, tornado).

    python rpc_board.py --tracker 10.0.0.2:9190 --key rk3588 [--host 0.0.0.0] [--port 9090]

The emulated aarch64 board runs this same file in an aarch64 Python under qemu-user
(``python -m evaluator.boards.qemu_aarch64 serve``).

Why not ``python -m tvm.exec.rpc_server`` alone: when a session's process dies — which is what a
submitted kernel that crashes does — TVM's server raises in its listening thread, leaves the
tracker and never serves again, while its process stays alive (so a plain restart loop never
fires). Here that server process exits, and a new one registers a second later.
"""

from __future__ import annotations

import argparse
import logging
import time

log = logging.getLogger("rpc_board")


def _exit_when_serving_stops() -> None:
    """Runs inside TVM's server process before it starts listening."""
    import os
    import threading

    previous = threading.excepthook

    def hook(args):
        previous(args)
        os._exit(3)  # the listening thread died: end the process so that it is started again

    threading.excepthook = hook


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tracker", required=True, help="the tracker, host:port")
    parser.add_argument("--key", required=True, help="the board's key (rpc:<key> on the portal)")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on")
    parser.add_argument("--port", type=int, default=9090, help="first port to try")
    parser.add_argument("--port-end", type=int, default=9199, help="last port to try")
    parser.add_argument("--custom-addr", help="address to report to the tracker (behind NAT)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")

    from tvm import rpc

    host, _, port = args.tracker.rpartition(":")
    while True:
        server = rpc.Server(args.host, args.port, args.port_end, tracker_addr=(host, int(port)), key=args.key,
                            custom_addr=args.custom_addr, silent=True,
                            server_init_callback=_exit_when_serving_stops)
        log.info("serving key %r on port %d", args.key, server.port)
        server.proc.join()
        log.warning("the server stopped serving (a session crashed); starting it again")
        time.sleep(1)


if __name__ == "__main__":
    main()
