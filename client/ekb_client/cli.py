"""``ekb``: the EdgeKernelBench portal from a terminal.

    ekb login --url URL [--token TOKEN]      store the portal and your API token
    ekb tasks [--level L] [--family F] ...   list tasks
    ekb task ID                              one task: spec, TVMScript, reference, prompt
    ekb init DIR --tasks GLOB                a starter bundle of TVM's default schedules
    ekb validate BUNDLE                      the portal's checks, offline
    ekb submit BUNDLE [--wait]               upload; --wait follows the evaluation
    ekb status ID | results ID | cancel ID | rerun ID
    ekb leaderboard [--backend B] [--domain D] [--track T]

Every command takes ``--json`` (machine-readable output on stdout). Exit status: 0 on success,
1 when the portal refused or failed something (its message is printed), the bundle is invalid,
or a submission did not finish; 2 for a bad command line.
"""

from __future__ import annotations

import argparse
import getpass
import json
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from ekb_client import __version__, bundles, config
from ekb_client.api import TERMINAL_STATES, ApiError, Client, ClientError, NetworkError

LEVELS = ("L1", "L2", "L3")
MODES = ("direct", "agent", "layered")
TRACKS = ("public", "verified")
MIN_INTERVAL_S, MAX_INTERVAL_S = 0.2, 300.0
MAX_WAIT_S = 7 * 24 * 3600
MAX_GLOBS = 16
BAR_WIDTH = 30
REASON_CHARS = 100
MAX_TENSORS_SHOWN = 6


class Fail(Exception):
    """Stop with this message and exit status 1."""


# --------------------------------------------------------------------------- output helpers


def emit_json(obj: Any, out: TextIO) -> None:
    json.dump(obj, out, indent=1, sort_keys=False, default=str)
    out.write("\n")


def table(rows: Sequence[Sequence[Any]], header: Sequence[str], out: TextIO, max_width: int = 60) -> None:
    cells = [[_cell(v, max_width) for v in row] for row in [list(header), *rows]]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    for r in cells:
        out.write("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() + "\n")


def _cell(v: Any, max_width: int) -> str:
    if v is None:
        text = "–"
    elif isinstance(v, float):
        text = "–" if math.isnan(v) else f"{v:.3g}" if abs(v) < 1000 else f"{v:.0f}"
    else:
        text = str(v)
    text = " ".join(text.split())
    return text if len(text) <= max_width else text[:max_width - 1] + "…"


def _num(v: Any, digits: int = 3) -> str:
    return f"{v:.{digits}f}" if isinstance(v, (int, float)) and not isinstance(v, bool) else "–"


# --------------------------------------------------------------------------- settings and client


def _settings(args: argparse.Namespace) -> config.Settings:
    try:
        return config.resolve(args.url, args.token)
    except ValueError as e:
        raise Fail(str(e)) from None


def _client(args: argparse.Namespace, *, auth: bool = False) -> Client:
    s = _settings(args)
    if auth and not s.token:
        raise Fail(f"no API token: run `ekb login --url {s.url}` or set EKB_TOKEN (your token is at "
                   f"{s.url}/account/token/)")
    return Client(s.url, s.token, timeout=args.http_timeout)


# --------------------------------------------------------------------------- commands


def cmd_login(args: argparse.Namespace, out: TextIO) -> int:
    s = _settings(args)
    token = (args.token or os.environ.get(config.TOKEN_ENV) or "").strip()
    if not token:
        if not sys.stdin.isatty():
            raise Fail("no token: pass --token or set EKB_TOKEN (the portal shows yours at "
                       f"{s.url}/account/token/)")
        token = getpass.getpass(f"API token (from {s.url}/account/token/): ").strip()
    if not token or len(token) > 200 or any(c.isspace() for c in token):
        raise Fail("the token must be 1-200 characters without spaces")
    client = Client(s.url, token, timeout=args.http_timeout)
    try:
        client.check_token()
    except ApiError as e:
        if e.status in (401, 403):
            raise Fail(f"{s.url} refused the token: {e.message}") from None
        raise
    path = config.save(s.url, token)
    if args.json:
        emit_json({"url": s.url, "config": str(path)}, out)
    else:
        out.write(f"Logged in to {s.url}; the token is stored in {path} (readable by you only).\n")
    return 0


def cmd_tasks(args: argparse.Namespace, out: TextIO) -> int:
    tasks = _client(args).tasks(level=args.level, domain=args.domain, family=args.family, dtype=args.dtype,
                                backend=args.backend, search=args.search)
    if args.json:
        emit_json(tasks, out)
        return 0
    table([(t["workload"], t["level"], t["dtype"], ",".join(t["domains"]), _num(t["flops"] / 1e6, 1),
            "yes" if t.get("vendor") else "")
           for t in tasks], ("WORKLOAD", "LEVEL", "DTYPE", "DOMAINS", "MFLOP", "VENDOR"), out, max_width=70)
    out.write(f"{len(tasks)} task{'s' * (len(tasks) != 1)}\n")
    return 0


def cmd_task(args: argparse.Namespace, out: TextIO) -> int:
    t = _client(args).task(args.id, backend=args.backend, mode=args.mode)
    if args.json:
        emit_json(t, out)
        return 0
    shapes, outs = _tensors(t["inputs"]), _tensors(t["outputs"])
    out.write(f"{t['workload']}  ({t['level']}, {', '.join(t['domains'])}, {t['dtype']})\n"
              f"  {t['summary']}\n"
              f"  inputs:  {shapes}\n  outputs: {outs}\n"
              f"  work: {t['flops'] / 1e6:.3f} MFLOP, {t['bytes'] / 1024:.0f} KiB; vendor baseline: "
              f"{'yes' if t['vendor'] else 'no'}" + (f"; from {t['source']}" if t.get("source") else "") + "\n")
    for layer in t.get("layers") or []:
        out.write(f"  layer: {layer['workload']} × {layer['count']}\n")
    p = t["prompt"]
    sections = [("canonical TVMScript", t["tvmscript"]), ("NumPy reference", t["reference"] or "(not available)")]
    sections += [(f"prompt, {m['role']} message ({p['version']}, mode {p['mode']}, backend {p['backend']})",
                  m["content"]) for m in p["messages"]]
    for title, text in sections:
        out.write(f"\n── {title} " + "─" * max(0, 70 - len(title)) + "\n" + text.rstrip() + "\n")
    return 0


def _tensors(tensors: list[dict[str, Any]]) -> str:
    """A task's tensors on one line: a model graph's weights are summed up past the first few."""
    shown = "; ".join(f"{x['name']} {x['shape']} {x['dtype']}" for x in tensors[:MAX_TENSORS_SHOWN])
    more = len(tensors) - MAX_TENSORS_SHOWN
    return shown + (f"; and {more} more (--json lists them)" if more > 0 else "")


def cmd_init(args: argparse.Namespace, out: TextIO) -> int:
    globs = [g.strip() for raw in args.tasks for g in raw.split(",") if g.strip()]
    if not globs or len(globs) > MAX_GLOBS:
        raise Fail(f"give 1-{MAX_GLOBS} workload globs with --tasks")
    dest = Path(args.dir)
    data = _client(args).starter_bundle(globs, args.backend)
    written = bundles.unpack(data, dest, force=args.force)
    manifest = json.loads((dest / "manifest.json").read_text(encoding="utf-8"))
    entries = manifest.get("entries", [])
    if args.json:
        emit_json({"dir": str(dest), "name": manifest.get("name"), "entries": entries, "files": written}, out)
    else:
        backends = sorted({e["backend"] for e in entries})
        out.write(f"Wrote a starter bundle to {dest}: {len(entries)} tvm-default entr"
                  f"{'y' if len(entries) == 1 else 'ies'} on {', '.join(backends) or '–'}.\n"
                  f"Edit the schedules, then `ekb validate {dest}` and `ekb submit {dest} --wait`.\n")
    return 0


def cmd_validate(args: argparse.Namespace, out: TextIO) -> int:
    try:
        report = bundles.validate(Path(args.bundle))
    except bundles.LoaderMissing as e:
        raise Fail(str(e)) from None
    if args.json:
        emit_json(report.to_json(), out)
    elif report.valid:
        out.write(f"{report.bundle}: valid bundle {report.name!r}, {report.entries} entr"
                  f"{'y' if report.entries == 1 else 'ies'} ({report.workloads} workload, {report.patterns} "
                  f"pattern) on {', '.join(report.backends)}\n")
    else:
        out.write(f"{report.bundle}: {len(report.errors)} problem{'s' * (len(report.errors) != 1)}\n")
        for problem in report.errors:
            out.write(f"  - {problem}\n")
    return 0 if report.valid else 1


def cmd_submit(args: argparse.Namespace, out: TextIO) -> int:
    client = _client(args, auth=True)
    try:
        filename, data = bundles.bundle_bytes(Path(args.bundle))
    except bundles.BundleInputError as e:
        raise Fail(str(e)) from None
    sub = client.submit(filename, data, name=args.name, backends=args.backend or (), public=not args.private,
                        description=args.description, idempotency_key=args.idempotency_key)
    if not args.wait:
        if args.json:
            emit_json(sub, out)
        else:
            out.write(f"Submission {sub['id']} ({sub['name']}) is {sub['state']}: follow it with "
                      f"`ekb status {sub['id']}` or `ekb results {sub['id']}`.\n")
        return 0
    if not args.json:
        out.write(f"Submission {sub['id']} ({sub['name']}) queued on {', '.join(sub['backends'])}.\n")
        out.flush()
    sub = wait(client, sub["id"], interval=args.interval, timeout=args.wait_timeout, err=sys.stderr)
    return _finished(sub, args, out)


def wait(client: Client, sub_id: int, *, interval: float, timeout: float, err: TextIO,
         clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep) -> dict[str, Any]:
    """Poll the submission until it ends; a progress bar on a terminal, a line per change
    otherwise. Fail once ``timeout`` seconds pass first."""
    tty = err.isatty()
    deadline = clock() + timeout
    last = None
    while True:
        sub = client.submission(sub_id)
        done, total = sub["progress"]["done"], sub["progress"]["total"]
        shown = (sub["state"], done, total)
        if tty:
            filled = int(BAR_WIDTH * done / total) if total else 0
            err.write(f"\r  {sub['state']:<9} [{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {done}/{total} tasks")
            err.flush()
        elif shown != last:
            err.write(f"  {sub['state']}: {done}/{total} tasks\n")
            err.flush()
        last = shown
        if sub["state"] in TERMINAL_STATES:
            if tty:
                err.write("\n")
            return sub
        if clock() >= deadline:
            if tty:
                err.write("\n")
            raise Fail(f"submission {sub_id} is still {sub['state']} ({done}/{total}) after {timeout:g} s; "
                       f"follow it with `ekb status {sub_id}`")
        sleep(interval)


def _finished(sub: dict[str, Any], args: argparse.Namespace, out: TextIO) -> int:
    if args.json:
        emit_json(sub, out)
    else:
        _describe(sub, out)
        bad = [r for r in sub.get("results") or [] if r["status"] not in ("correct", "missing")]
        for r in bad:
            out.write(f"  {r['workload']} on {r['backend']}: {r['status']}: {_cell(r['reason'], REASON_CHARS)}\n")
    return 0 if sub["state"] == "finished" else 1


def _describe(sub: dict[str, Any], out: TextIO) -> None:
    p = sub["progress"]
    out.write(f"Submission {sub['id']} ({sub['name']}, {sub['kind']}, by {sub['owner']}): {sub['state']}, "
              f"{p['done']}/{p['total']} tasks on {', '.join(sub['backends'])}\n")
    if sub.get("error"):
        out.write(f"  error: {sub['error']}\n")
    for backend, s in (sub.get("summary") or {}).items():
        if isinstance(s, dict):
            out.write(f"  {backend}: {s.get('correct', '–')}/{s.get('tasks', '–')} correct, "
                      f"correct@1 {_num(s.get('correct@1'))}, fast@1.0 {_num(s.get('fast@1.0'))}\n")


def cmd_status(args: argparse.Namespace, out: TextIO) -> int:
    sub = _client(args).submission(args.id)
    if args.json:
        sub.pop("results", None)
        emit_json(sub, out)
    else:
        _describe(sub, out)
    return 0


def cmd_results(args: argparse.Namespace, out: TextIO) -> int:
    sub = _client(args).submission(args.id)
    results = sub.get("results") or []
    if args.failing:
        results = [r for r in results if r["status"] != "correct"]
    if args.json:
        emit_json(results, out)
        return 0
    _describe(sub, out)
    table([(r["workload"], r["backend"], r["status"], _num((r.get("speedup") or {}).get("tvm-default")),
            _num(r["time_s"] * 1e3, 4) if r.get("time_s") is not None else "–", r.get("reason") or "")
           for r in results], ("WORKLOAD", "BACKEND", "STATUS", "×TVM-DEFAULT", "MS", "REASON"), out)
    return 0


def cmd_cancel(args: argparse.Namespace, out: TextIO) -> int:
    sub = _client(args, auth=True).cancel(args.id)
    if args.json:
        emit_json(sub, out)
    else:
        out.write(f"Submission {sub['id']} is {sub['state']}.\n")
    return 0


def cmd_rerun(args: argparse.Namespace, out: TextIO) -> int:
    client = _client(args, auth=True)
    sub = client.rerun(args.id)
    if args.wait:
        if not args.json:
            out.write(f"Submission {sub['id']} reruns submission {args.id}.\n")
            out.flush()
        return _finished(wait(client, sub["id"], interval=args.interval, timeout=args.wait_timeout, err=sys.stderr),
                         args, out)
    if args.json:
        emit_json(sub, out)
    else:
        out.write(f"Submission {sub['id']} reruns submission {args.id}: {sub['state']}.\n")
    return 0


def cmd_leaderboard(args: argparse.Namespace, out: TextIO) -> int:
    page = _client(args).leaderboard(backend=args.backend, domain=args.domain, track=args.track, level=args.level,
                                      family=args.family, dtype=args.dtype, limit=str(args.limit))
    if args.json:
        emit_json(page, out)
        return 0
    b = page["board"]
    filters = ", ".join(f"{k} {v}" for k, v in (b.get("filters") or {}).items() if v) or "all tasks"
    out.write(f"{b['backend']} on {b.get('device') or '–'} · {b['track']} track · {filters} · {b.get('tasks')} tasks"
              f" · vs {b.get('baseline')}\n")
    p = b.get("p", 1.0)
    table([(r["rank"] if r["rank"] is not None else "", r["name"], r.get("owner") or "", r.get("submission_id") or "",
            _num(r["summary"].get("correct@1")), _num(r["summary"].get(f"fast@{p}")),
            _num(r["summary"].get("geomean_correct")))
           for r in page["rows"]], ("RANK", "NAME", "OWNER", "ID", "CORRECT@1", f"FAST@{p}", "GEOMEAN"), out)
    for notice in b.get("notices") or []:
        out.write(f"note: {notice}\n")
    return 0


# --------------------------------------------------------------------------- the parser


def _interval(text: str) -> float:
    v = float(text)
    if not MIN_INTERVAL_S <= v <= MAX_INTERVAL_S:
        raise argparse.ArgumentTypeError(f"must be {MIN_INTERVAL_S:g}-{MAX_INTERVAL_S:g} seconds")
    return v


def _wait_timeout(text: str) -> float:
    v = float(text)
    if not 1 <= v <= MAX_WAIT_S:
        raise argparse.ArgumentTypeError(f"must be 1-{MAX_WAIT_S} seconds")
    return v


def _http_timeout(text: str) -> float:
    v = float(text)
    if not 1 <= v <= 600:
        raise argparse.ArgumentTypeError("must be 1-600 seconds")
    return v


def _limit(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 1000:
        raise argparse.ArgumentTypeError(f"must be an integer from 1 to 1000, not {text!r}")
    return int(text)


def _sub_id(text: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 2**63:
        raise argparse.ArgumentTypeError(f"a submission id is a positive integer, not {text!r}")
    return int(text)


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--json", action="store_true", help="machine-readable output (JSON on stdout)")
    common.add_argument("--url", help=f"the portal (default: ${config.URL_ENV}, else the one `ekb login` stored, "
                                      f"else {config.DEFAULT_URL})")
    common.add_argument("--token", help=f"API token (default: ${config.TOKEN_ENV}, else the stored one)")
    common.add_argument("--http-timeout", type=_http_timeout, default=60.0, metavar="S",
                        help="seconds one request may take (default 60)")
    waiting = argparse.ArgumentParser(add_help=False)
    waiting.add_argument("--wait", action="store_true", help="follow the evaluation until it ends")
    waiting.add_argument("--interval", type=_interval, default=2.0, metavar="S", help="seconds between polls")
    waiting.add_argument("--wait-timeout", type=_wait_timeout, default=3600.0, metavar="S",
                         help="give up waiting after this many seconds (default 3600)")

    parser = argparse.ArgumentParser(prog="ekb", description="The EdgeKernelBench portal from a terminal.")
    parser.add_argument("--version", action="version", version=f"ekb {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name: str, handler: Callable[[argparse.Namespace, TextIO], int], help_: str,
            *parents: argparse.ArgumentParser) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_, description=help_, parents=[common, *parents])
        p.set_defaults(handler=handler)
        return p

    add("login", cmd_login, "check an API token against the portal and store both (the token: --token, "
                            "EKB_TOKEN, or asked for)")

    p = add("tasks", cmd_tasks, "list the portal's public tasks")
    p.add_argument("--level", choices=LEVELS)
    p.add_argument("--domain", help="e.g. vision, audio, language")
    p.add_argument("--family", help="e.g. matmul, conv2d, softmax")
    p.add_argument("--dtype", help="e.g. float32, float16")
    p.add_argument("--backend", help="a backend the portal serves")
    p.add_argument("--search", help="text in the workload id, summary or source")

    p = add("task", cmd_task, "one task: spec, canonical TVMScript, NumPy reference, the prompt a model gets")
    p.add_argument("id", help="workload id, e.g. matmul/matmul@m128n512k128")
    p.add_argument("--backend", help="the backend the prompt is for (default: the portal's first)")
    p.add_argument("--mode", choices=MODES, help="the endpoint mode the prompt is for (default: agent)")

    p = add("init", cmd_init, "write a starter bundle of TVM's default schedules for the tasks matching globs")
    p.add_argument("dir", help="the directory to write (new or empty)")
    p.add_argument("--tasks", action="append", required=True, metavar="GLOB",
                   help="workload glob, e.g. 'matmul/*' (repeatable, or comma-separated)")
    p.add_argument("--backend", help="cpu-llvm or opencl (default: the portal's first that has them)")
    p.add_argument("--force", action="store_true", help="write into a non-empty directory")

    p = add("validate", cmd_validate, "check a bundle offline with the portal's own checks (needs the "
                                      "EdgeKernelBench project installed)")
    p.add_argument("bundle", help="a directory, .zip or .tar.gz")

    p = add("submit", cmd_submit, "upload a bundle (a directory is zipped first)", waiting)
    p.add_argument("bundle", help="a directory, .zip or .tar.gz")
    p.add_argument("--name", help="shown on the boards (default: the manifest's name)")
    p.add_argument("--description")
    p.add_argument("--backend", action="append", help="evaluate on this backend (repeatable; default: the "
                                                      "bundle's backends the portal serves)")
    p.add_argument("--private", action="store_true", help="keep it off the public boards")
    p.add_argument("--idempotency-key", metavar="KEY",
                   help="the same on every retry of one upload (1-64 letters, digits, '.', '_', ':', '-'): the "
                        "portal answers a repeat with the first one's submission (default: a fresh key, "
                        "reused by the client's own retries)")

    p = add("status", cmd_status, "a submission's state and progress")
    p.add_argument("id", type=_sub_id)
    p = add("results", cmd_results, "a submission's results, one per task and backend")
    p.add_argument("id", type=_sub_id)
    p.add_argument("--failing", action="store_true", help="only tasks that are not correct")
    p = add("cancel", cmd_cancel, "stop a queued or running submission (yours, or any as staff)")
    p.add_argument("id", type=_sub_id)
    p = add("rerun", cmd_rerun, "evaluate an ended submission again, as a new submission", waiting)
    p.add_argument("id", type=_sub_id)

    p = add("leaderboard", cmd_leaderboard, "one board's ranking")
    p.add_argument("--backend", help="default: the portal's first board")
    p.add_argument("--domain")
    p.add_argument("--track", choices=TRACKS)
    p.add_argument("--level", choices=LEVELS)
    p.add_argument("--family")
    p.add_argument("--dtype")
    p.add_argument("--limit", type=_limit, default=50, metavar="N", help="rows (1-1000, default 50)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    out = sys.stdout
    try:
        return int(args.handler(args, out))
    except ApiError as e:
        print(f"error: {e.url} answered {e.status}:", file=sys.stderr)
        for line in e.message.splitlines() or [""]:
            print(f"  {line}", file=sys.stderr)
        if e.status == 401:
            print("  (log in again with `ekb login`, or check EKB_TOKEN and --token)", file=sys.stderr)
        return 1
    except NetworkError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except (Fail, ClientError, config.ConfigError, bundles.BundleInputError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`ekb tasks --json | head`): no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
