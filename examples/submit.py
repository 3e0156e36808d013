#!/usr/bin/env python3
"""Submit a bundle to an EdgeKernelBench portal and wait for its results (standard library only).

    EKB_TOKEN=... python examples/submit.py examples/bundles/hand-tuned [--url http://127.0.0.1:8000]

A directory is zipped first. Prints the submission's summary and its failing tasks; exits 1 if
the portal rejected the bundle (the messages name what is wrong).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import time
import urllib.error
import urllib.request
import uuid
import zipfile
from pathlib import Path


def bundle_bytes(path: Path) -> tuple[str, bytes]:
    if path.is_file():
        return path.name, path.read_bytes()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(p for p in path.rglob("*") if p.is_file()):
            z.write(f, f.relative_to(path).as_posix())
    return path.name + ".zip", buf.getvalue()


def call(url: str, token: str, data: bytes | None = None, content_type: str | None = None) -> dict:
    req = urllib.request.Request(url, data=data, headers={"Authorization": f"Token {token}"})
    if content_type:
        req.add_header("Content-Type", content_type)
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.load(r)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("bundle", type=Path)
    ap.add_argument("--url", default="http://127.0.0.1:8000")
    ap.add_argument("--token", default=os.environ.get("EKB_TOKEN", ""))
    ap.add_argument("--timeout", type=float, default=1800, help="seconds to wait for the results")
    args = ap.parse_args()
    name, data = bundle_bytes(args.bundle)
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"bundle\"; filename=\"{name}\"\r\n"
            "Content-Type: application/octet-stream\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    try:
        sub = call(f"{args.url}/api/v1/submissions/", args.token, body, f"multipart/form-data; boundary={boundary}")
    except urllib.error.HTTPError as e:
        print(f"rejected ({e.code}):", e.read().decode(), file=sys.stderr)
        return 1
    print(f"submission {sub['id']} queued")
    deadline = time.time() + args.timeout
    while sub["state"] not in ("finished", "failed", "cancelled") and time.time() < deadline:
        time.sleep(5)
        sub = call(f"{args.url}/api/v1/submissions/{sub['id']}/", args.token)
        print(f"  {sub['state']}: {sub['progress']['done']}/{sub['progress']['total']}", file=sys.stderr)
    print(json.dumps(sub["summary"], indent=1))
    for r in sub.get("results") or []:
        if r["status"] not in ("correct", "missing"):
            print(f"{r['workload']}: {r['status']}: {r['reason']}")
    return 0 if sub["state"] == "finished" else 1


if __name__ == "__main__":
    sys.exit(main())
