"""``python manage.py serve_test_endpoint``: an OpenAI-compatible chat server on this machine,
for tests and the demo — the built-in search agent (model ``ekb-search``) and, with
``--transcripts FILE``, scripted replies (model ``scripted``). Endpoint submissions may point
at it when ``EKB_ENDPOINT_ALLOW_LOOPBACK=1`` (the SSRF guard refuses loopback otherwise)."""

import os

from django.core.management.base import BaseCommand

from evaluator.agents.__main__ import serve


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8765)
        parser.add_argument("--transcripts", help="JSON transcripts (see evaluator/agents/server.py)")
        parser.add_argument("--no-search", action="store_true", help="do not serve the search agent")
        parser.add_argument("--api-key-env", help="require 'Authorization: Bearer $VAR' (the key is read "
                                                  "from that environment variable)")

    def handle(self, *args, host, port, transcripts, no_search, api_key_env, **opts):
        if host not in ("127.0.0.1", "::1", "localhost"):
            self.stderr.write("warning: serving beyond loopback; this server is for tests and demos")
        serve(host, port, transcripts, not no_search, os.environ.get(api_key_env, "") if api_key_env else "",
              out=self.stdout)
