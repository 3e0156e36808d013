"""``python -m evaluator.agents``: serve the local models over the chat-completions API, or run
an endpoint against tasks from the command line (no portal needed).

    python -m evaluator.agents serve [--host 127.0.0.1] [--port 8765] [--transcripts FILE]
                                     [--no-search] [--api-key-env VAR]
    python -m evaluator.agents run URL --model NAME [--mode layered] [--budget 8]
                                   [--tasks GLOB ...] [--api-key-env VAR] [--allow-loopback] [--json FILE]

API keys are read from environment variables, never from the command line (where any local
user can read them).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys

from evaluator import scoring, suite
from evaluator.agents.budget import Budget, Meter
from evaluator.agents.client import ChatClient, NetPolicy, chat_completions_url
from evaluator.agents.server import ChatServer, ScriptedModel, search_model


def _interrupt(*_):
    raise KeyboardInterrupt


def serve(host: str, port: int, transcripts: str | None, search: bool, api_key: str,
          out=sys.stdout) -> None:
    models = []
    if search:
        models.append(search_model())
    if transcripts:
        with open(transcripts, encoding="utf-8") as f:
            models.append(ScriptedModel(json.load(f)))
    if not models:
        raise SystemExit("nothing to serve: give --transcripts or keep the search agent")
    server = ChatServer(models, host, port, api_key)
    print(f"serving {', '.join(sorted(server.models))} at {server.url}"
          + (" (API key required)" if api_key else ""), file=out, flush=True)
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def run(args) -> int:
    # the pipeline imports elftools (the ELF checks): loaded by `run`, not by `serve` or --help
    from evaluator.agents.modes import run_task
    from evaluator.pipeline import Pipeline

    budget = Budget(candidates=args.budget)
    pipe = Pipeline(args.backend)
    try:
        url = chat_completions_url(args.url)  # the SDKs' base URL or the full one, as the portal takes it
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    client = ChatClient(url, args.model, os.environ.get(args.api_key_env, "") if args.api_key_env else "",
                        policy=NetPolicy(allow_loopback=args.allow_loopback),
                        meter=Meter(budget.max_requests, budget.max_tokens))
    results = []
    with pipe.session():  # one run, one submitter: its candidates share a build process
        for w in suite.select(args.tasks or None):
            r = run_task(w, args.mode, client, lambda c, w=w: pipe.evaluate(w, c), budget, pipe.info)
            results.append(r)
            print(f"{w.id}: {r.status} {r.speedup.get('tvm-default') or 0:.3f}× {r.reason[:120]}", flush=True)
            err = r.detail["endpoint"]["error"]
            if err and err["fatal"]:
                break
    summary = scoring.summarize(results)
    print(json.dumps(summary, indent=1))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"summary": summary, "tasks": [r.to_json() for r in results]}, f, indent=1)
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m evaluator.agents")
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("serve", help="serve the search agent and/or scripted transcripts")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8765)
    s.add_argument("--transcripts", help="JSON transcripts for the 'scripted' model")
    s.add_argument("--no-search", action="store_true", help="do not serve the search agent (ekb-search)")
    s.add_argument("--api-key-env", help="require 'Authorization: Bearer $VAR'")
    r = sub.add_parser("run", help="evaluate an endpoint on tasks, locally")
    r.add_argument("url", help="the base URL the OpenAI SDKs take (https://host/v1) or the full chat-completions URL")
    r.add_argument("--model", required=True)
    r.add_argument("--mode", default="layered", choices=["direct", "agent", "layered"])
    r.add_argument("--budget", type=int, default=8, help="measured candidates per task")
    r.add_argument("--tasks", nargs="*")
    r.add_argument("--backend", default="cpu-llvm")
    r.add_argument("--api-key-env")
    r.add_argument("--allow-loopback", action="store_true", help="admit 127.0.0.1 (a local server)")
    r.add_argument("--json")
    args = ap.parse_args(argv)
    if args.cmd == "serve":
        key = os.environ.get(args.api_key_env, "") if args.api_key_env else ""
        serve(args.host, args.port, args.transcripts, not args.no_search, key)
        return 0
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
